"""What walking duels in the browser as a Goat Format player found (Debian's
chromium, as ``test_browser.py``):

* Tribe-Infecting Virus's "declare a Type" offered the engine's English Type
  names ("Spellcaster") on the Russian page, whose card details and log word
  Types in Russian ("Заклинатель"); card names stay as printed;
* likewise which of a card's effects is activated (Black Luster Soldier's
  "attack twice", a Union's "equip", Skull Lair's "destroy"), which the log
  words in Russian.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from .conftest import ServeProcess
from .test_browser import CHROMIUM, SERVE, chromium, new_page  # noqa: F401 - fixture

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium "
                       "(apt-get install chromium; .ci/run does it)"),
]

#: How the page words an action (its button's aria-label, the clock's log line), in language ``code``.
SAY_ACTIONS = """async ([texts, code]) => {
    const i18n = await import("/static/i18n.js");
    const { yugioh } = await import("/static/yugioh.js");
    i18n.setLang(code);
    return texts.map((text) => yugioh.sayAction(text));
}"""


def test_a_declared_type_is_worded_in_the_pages_language(chromium: object,
                                                         serve_process: Callable[..., ServeProcess]) -> None:
    server = serve_process(*SERVE)
    context, page = new_page(chromium)
    page.goto(server.url)
    page.wait_for_selector("#create-game option", state="attached")
    texts = ["0 choose Spellcaster", "0 choose Winged Beast", "0 choose Sangan", "0 choose Sangan@1M2",
             "0 choose first"]
    russian = page.evaluate(SAY_ACTIONS, [texts, "ru"])
    assert russian[:2] == ["Выбрать: Заклинатель", "Выбрать: Крылатый зверь"]
    assert russian[2] == "Выбрать: Sangan" and russian[3].startswith("Выбрать: Sangan (")
    assert russian[4] == "Выбрать: Ходить первым"
    english = page.evaluate(SAY_ACTIONS, [texts, "en"])
    assert english[:3] == ["Choose: Spellcaster", "Choose: Winged Beast", "Choose: Sangan"]
    effects = ["0 activate Black Luster Soldier - Envoy of the Beginning@0M1 attack twice",
               "0 activate Y-Dragon Head@0M2 equip", "0 activate Skull Lair@1S1 destroy", "0 activate Sangan@0M1"]
    russian = page.evaluate(SAY_ACTIONS, [effects, "ru"])
    assert russian[0].endswith("Black Luster Soldier - Envoy of the Beginning (M1) две атаки"), russian
    assert russian[1].endswith("Y-Dragon Head (M2) экипировать") and russian[2].endswith(" уничтожить")
    assert not any(re.search(r"\b(attack twice|equip|destroy)\b", r) for r in russian)
    english = page.evaluate(SAY_ACTIONS, [effects, "en"])
    assert english[0] == "Activate: Black Luster Soldier - Envoy of the Beginning (M1) attack twice", english
    assert english[3] == "Activate: Sangan (M1)"
    assert page.errors == []
    context.close()
