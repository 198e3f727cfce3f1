"""What walking duels in the browser as a Goat Format player found (Debian's
chromium, as ``test_browser.py``):

* Tribe-Infecting Virus's "declare a Type" offered the engine's English Type
  names ("Spellcaster") on the Russian page, whose card details and log word
  Types in Russian ("Заклинатель"); card names stay as printed;
* likewise which of a card's effects is activated (Black Luster Soldier's
  "attack twice", a Union's "equip", Skull Lair's "destroy"), which the log
  words in Russian;
* a table made with "open deck lists" ("each player sees both deck lists")
  showed only one's own list: the other player's now opens from their piles,
  as brought to the match (their side-decking stays private); without the
  option there is no such button;
* before the match's first duel, asked "duel 1: go first or second?", the
  screen's header and log said "Duel 0" (the view counts the duels finished).
"""

from __future__ import annotations

import re
from collections.abc import Callable

import httpx

import pytest

from .conftest import ServeProcess
from .test_browser import CHROMIUM, SERVE, chromium, new_page, sit_at  # noqa: F401 - fixture

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


def _duel_against_greedy(url: str, options: dict[str, object], seed: int | None = None) -> tuple[str, str]:
    body = {"game": "yugioh", "name": "Ann", "options": options} | ({} if seed is None else {"seed": seed})
    created = httpx.post(f"{url}api/tables", json=body, timeout=10).json()
    table, token = created["id"], created["token"]
    httpx.post(f"{url}api/tables/{table}/seats/1/bot", json={"bot": "greedy"},
               headers={"Authorization": f"Bearer {token}"}, timeout=10).raise_for_status()
    httpx.post(f"{url}api/tables/{table}/start", headers={"Authorization": f"Bearer {token}"},
               timeout=10).raise_for_status()
    return table, token


def _at_the_board(page: object, url: str, table: str, token: str) -> None:
    """Seat 0's page of a started duel, past going first (when the coin gave me the choice)."""
    sit_at(page, url, table, token, 0)
    page.wait_for_selector('#duel-groups button[data-action="0 choose first"], .duel-player .pile')
    first = page.locator('#duel-groups button[data-action="0 choose first"]')
    if first.count():
        first.click()
    page.locator(".duel-player .pile").first.wait_for()


def test_open_deck_lists_show_the_other_players_list(chromium: object,
                                                     serve_process: Callable[..., ServeProcess]) -> None:
    server = serve_process(*SERVE)
    context, page = new_page(chromium, locale="en-US")
    table, token = _duel_against_greedy(server.url, {"open_decklists": True, "decks": "goat_control/chaos_warrior"})
    _at_the_board(page, server.url, table, token)
    theirs = page.locator('.duel-player[data-side="top"] .pile[data-pile="decklist1"]')
    theirs.wait_for()
    assert theirs.text_content() == "Deck list: 40 + 0"                 # Chaos Warrior: no side deck
    theirs.click()
    assert page.text_content("#duel-pile-title") == "Deck list"
    assert "side-decking stays private" in page.text_content("#duel-pile")
    counts = page.eval_on_selector_all('#duel-pile .pile-list[data-deck="main"] li[data-count]',
                                       "e => e.map(li => Number(li.dataset.count))")
    assert sum(counts) == 40
    assert page.locator('#duel-pile .pile-list[data-deck="main"] li[data-card="Exiled Force"]').count() == 1
    assert page.locator('#duel-pile .pile-list[data-deck="fusion"] li').count() == 1
    _at_the_board(page, server.url, *_duel_against_greedy(server.url, {}))
    page.locator('.duel-player[data-side="bottom"] .pile[data-pile="decklist0"]').wait_for()
    assert page.locator('.duel-player[data-side="top"] .pile[data-pile^="decklist"]').count() == 0
    assert page.errors == []
    context.close()


def test_before_the_first_duel_the_screen_names_duel_1(chromium: object,
                                                       serve_process: Callable[..., ServeProcess]) -> None:
    server = serve_process(*SERVE)
    context, page = new_page(chromium, locale="en-US")
    seed = 2     # the coin gives me the choice of going first
    table, token = _duel_against_greedy(server.url, {}, seed=seed)
    sit_at(page, server.url, table, token, 0)
    first = page.locator('#duel-groups button[data-action="0 choose first"]')
    first.wait_for()
    assert page.text_content("#duel-turn .duel-no") == "Duel 1 · wins 0–0"
    assert page.text_content("#duel-log .log-head") == "Duel 1"
    assert "Duel 0" not in page.text_content("#duel")
    first.click()
    page.locator(".duel-player .pile").first.wait_for()
    assert page.text_content("#duel-turn .duel-no") == "Duel 1 · wins 0–0"
    assert page.errors == []  # type: ignore[attr-defined]
    context.close()  # type: ignore[attr-defined]
