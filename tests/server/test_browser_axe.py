"""An automated accessibility audit of the browser table: axe-core (bundled by
``axe-playwright-python``, no Node needed) run in Debian's chromium, as
``test_browser.py``, on every kind of page a player meets, against the WCAG 2.0
and 2.1 rules of levels A and AA and axe's landmark rules. The hand-written
checks of ``test_browser_a11y.py`` say how the page reads and plays; this one
keeps the whole page within WCAG as it changes (names of controls, labels,
roles, landmarks, contrast, ARIA used as the specification allows). Two things
axe leaves undecided are decided here: the contrast of text on a gradient (the
felt, the duel's board) and an ``aria-label`` on an element without a role.

Audited, each with no violation: the home page (its create form's options and
the rules open, the finished games and the standings filled); a Kozel
``classic`` table — its lobby, my turn with the clock running, a hint and a long
chat, the last trick, the rules panel — in Russian, English, Arabic (right to
left) and Bulgarian, and on a phone; a ``street`` table at my decision (a card
chosen: play or pass it); a Spades table at a blind bid (hand face down), my bid
and in play; a Yu-Gi-Oh! duel — its lobby (own deck), my decision, a card's
details, my deck list; the end of a match (the result dialog, the score sheet
behind it, a deal's review) and of a duel — in Russian and English; a deal's
review with a row chosen (its deal diagram) in Russian, English and Arabic, and
on a phone.

The home page's "Open a record" is audited with a record refused and with a record's
review open (a row chosen), in Russian and on a phone in Arabic.

The pages are reached by tables made over HTTP with bots, on one server for the
module; a failure lists each violation with its rule, impact and first targets.

Not asserted: axe's ``label-content-name-mismatch`` (WCAG 2.5.3, still
"experimental" in axe): a card's name is said in words ("семёрка треф") while
its face shows "7♣" — the words are this page's choice for screen readers
(``test_browser_a11y.py``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from goat.server.runner import ServeProcess

Axe = pytest.importorskip("axe_playwright_python.sync_playwright",
                          reason="needs axe-playwright-python (the test extra)").Axe

from .conftest import QUICK, Lobby, finish_with_bots, run
from .test_browser import (BLIND, CHROMIUM, SERVE, chromium, new_page, short_duel_played_out,  # noqa: F401
                           sit_at, street_table_i_lead, ygo_decide_until)
from .test_browser_a11y import CONTRAST_JS, MY_TURN
from .test_browser_walk import start_by_keyboard, table_with_bots
from .test_review_record import played_file

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium "
                       "(apt-get install chromium; .ci/run does it)"),
]

#: The browser locale each page language is reached by (the page takes its language from it).
LOCALES = {"ru": "ru-RU", "en": "en-US", "ar": "ar-EG", "bg": "bg-BG"}
#: axe-core's rules of a page's landmarks and headings (its "best practice", not WCAG's
#: own): a reader moving by landmarks meets all the page, each landmark told apart from
#: the others, and finds the page's first-level heading.
LANDMARKS = ["region", "landmark-unique", "landmark-one-main", "landmark-no-duplicate-main",
             "landmark-no-duplicate-banner", "landmark-no-duplicate-contentinfo", "landmark-banner-is-top-level",
             "landmark-main-is-top-level", "landmark-contentinfo-is-top-level",
             "landmark-complementary-is-top-level", "page-has-heading-one"]
#: axe-core's rules for WCAG 2.0 and 2.1, levels A and AA, and the landmark rules; the
#: violations and the undecided ("incomplete") are returned, every element of each.
AXE_OPTIONS = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
               "rules": {rule: {"enabled": True} for rule in LANDMARKS},
               "resultTypes": ["violations", "incomplete"]}
#: How many of a violation's elements the failure names.
TARGETS = 3


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    """One ``goat serve`` for the module: each test makes its own tables on it."""
    data: Path = tmp_path_factory.mktemp("axe-data")
    process = ServeProcess(data, *SERVE, log_path=data / "serve.log")
    yield process
    process.stop()


def played_out(server: ServeProcess, play: Callable[[Lobby], Awaitable[tuple[str, str]]]) -> tuple[str, str]:
    """``play(lobby)`` run to its end on its own event loop (Playwright's runs in this
    thread): the finished table's id and my token."""
    async def run_it() -> tuple[str, str]:
        lobby = Lobby(server.url)
        try:
            return await play(lobby)
        finally:
            await lobby.close()
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(lambda: run(run_it())).result()


@pytest.fixture(scope="module")
def finished(server: ServeProcess) -> tuple[str, str]:
    """A classic match played to its end by Ann (first legal card) and bots: (id, Ann's token).
    Made once, it also fills the home page's finished games and standings."""
    return played_out(server, lambda lobby: finish_with_bots(lobby, server, options=QUICK))  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def finished_duel(server: ServeProcess) -> tuple[str, str]:
    """A short Yu-Gi-Oh! match (one duel, 1000 LP) played to its end against greedy: (id, my token)."""
    return played_out(server, lambda lobby: short_duel_played_out(lobby, server))


#: The contrast of text on a gradient (the felt, the duel's board), which axe-core leaves
#: undecided ("incomplete"): the text's colour against each colour stop of the nearest
#: gradient behind it, with the translucent backgrounds between laid over each stop;
#: the lowest of the ratios, and the ratio the text needs (3 for large text, else 4.5).
GRADIENT_CONTRAST = """(selector) => {""" + CONTRAST_JS + """
  const el = document.querySelector(selector);
  const over = ([r, g, b, a], [R, G, B]) => [r * a + R * (1 - a), g * a + G * (1 - a), b * a + B * (1 - a), 1];
  const layers = [];
  let stops = [], opacity = 1;
  for (let node = el; node && !stops.length; node = node.parentElement) {
    const style = getComputedStyle(node);
    opacity *= Number(style.opacity);
    if (/gradient/.test(style.backgroundImage)) stops = rgba(style.backgroundImage);
    const [bg] = rgba(style.backgroundColor);
    if (!stops.length && bg && bg[3] > 0) layers.unshift(bg);
  }
  const style = getComputedStyle(el);
  const [fg] = rgba(style.color);
  fg[3] *= opacity;
  const size = parseFloat(style.fontSize), bold = Number(style.fontWeight) >= 700;
  const ratios = stops.map((stop) => {
    const back = layers.reduce((base, layer) => over(layer, base), stop);
    return ratio(over(fg, back), back);
  });
  return {ratio: Math.min(...ratios), needed: size >= 24 || (bold && size >= 18.66) ? 3 : 4.5};
}"""


def violations(page: Any, where: str) -> list[str]:
    """axe-core's violations (``AXE_OPTIONS``) on ``page`` as it is now, one line each:
    where, the rule, its impact, what it asks and its first elements. Two kinds it
    leaves undecided count too: text on a gradient below AA contrast (measured by
    ``GRADIENT_CONTRAST``), and an ``aria-label`` on an element without a role that
    takes one (a bare ``div``: not read at all)."""
    results = Axe().run(page, options=AXE_OPTIONS).response
    found = results["violations"]
    for rule in results["incomplete"]:
        nodes = []
        if rule["id"] == "aria-prohibited-attr":
            nodes = rule["nodes"]
        elif rule["id"] == "color-contrast":
            for node in rule["nodes"]:
                if any((check.get("data") or {}).get("messageKey") == "bgGradient" for check in node["any"]):
                    measured = page.evaluate(GRADIENT_CONTRAST, node["target"][0])
                    if measured["ratio"] < measured["needed"]:
                        nodes.append({**node, "target": [f"{node['target'][0]} "
                                                         f"({measured['ratio']:.2f}:1 on the gradient)"]})
        if nodes:
            found.append({**rule, "nodes": nodes})
    lines = []
    for rule in found:
        targets = [" ".join(map(str, node["target"])) for node in rule["nodes"]]
        more = f" (+{len(targets) - TARGETS} more)" if len(targets) > TARGETS else ""
        lines.append(f"{where}: {rule['id']} ({rule['impact']}) {rule['help']}: "
                     f"{', '.join(targets[:TARGETS])}{more}")
    return lines


def no_violations(problems: list[str]) -> None:
    """Fail with every violation met on the test's pages in one readable block."""
    assert not problems, "axe-core found violations (WCAG 2.1 A/AA, landmarks, headings):\n" + "\n".join(problems)


def at_table(chromium: Any, server: ServeProcess, table: str, token: str, lang: str) -> tuple[Any, Any]:
    """A page in ``lang`` at ``table``'s seat 0 (``token``), its lobby ready to start."""
    context, page = new_page(chromium, locale=LOCALES[lang])
    sit_at(page, server.url, table, token, 0)
    page.wait_for_selector("#start-btn:not([disabled])")
    assert page.evaluate("document.documentElement.lang") == lang
    return context, page


def test_the_audit_names_each_violation(chromium: Any) -> None:
    """The audit itself: a page with a nameless button, an image without words and
    faint text on a gradient fails with each rule, its impact and its element (not
    silently passing), its contrast taken against the gradient's darker end (2.10:1,
    not 2.85:1 on white); the dark text on the same gradient passes."""
    context, page = new_page(chromium)
    page.set_content('<html lang="en"><head><title>t</title></head><body><main><h1>t</h1>'
                     '<button id="nameless"></button><img src="x.png" id="wordless">'
                     '<div style="background: linear-gradient(#fff, #ddd)"><p id="faint" style="color: #999">faint</p>'
                     '<p id="dark" style="color: #333">dark</p></div></main></body></html>')
    problems = violations(page, "made up")
    assert problems == ["made up: button-name (critical) Buttons must have discernible text: #nameless",
                        "made up: image-alt (critical) Images must have alternative text: #wordless",
                        "made up: color-contrast (serious) Elements must meet minimum color contrast ratio "
                        "thresholds: #faint (2.10:1 on the gradient)"], problems
    with pytest.raises(AssertionError, match="WCAG"):
        no_violations(problems)
    context.close()


@pytest.mark.parametrize("lang", ["ru", "en", "ar", "bg"])
def test_the_home_page(chromium: Any, server: ServeProcess, finished: tuple[str, str], lang: str) -> None:
    context, page = new_page(chromium, locale=LOCALES[lang])
    page.goto(server.url)
    page.wait_for_selector(f'#finished-list li[data-table="{finished[0]}"]')
    page.wait_for_selector("#standings-table:not([hidden]) tbody tr")
    page.click("#options-summary")                                # the options' fields too
    page.wait_for_selector("#option-list .option")
    problems = violations(page, f"home ({lang})")
    page.click("#rules-open-home")
    page.wait_for_selector("#rules-trumps li")
    problems += violations(page, f"home, the rules ({lang})")
    no_violations(problems)
    assert page.errors == []
    context.close()


@pytest.mark.parametrize("lang", ["ru", "en", "ar", "bg"])
def test_a_classic_table(chromium: Any, server: ServeProcess, lang: str) -> None:
    """Its lobby; my turn (the clock running, hints allowed); a hint asked, a chat line
    sent; the last trick shown; the rules panel open."""
    table, token = table_with_bots(server.url, "Аня", hints=True, move_seconds=600)
    context, page = at_table(chromium, server, table, token, lang)
    problems = violations(page, f"lobby ({lang})")
    start_by_keyboard(page)
    page.wait_for_function(MY_TURN)
    page.wait_for_selector(".clock-mine:not([hidden])")
    problems += violations(page, f"classic, my turn ({lang})")
    headings = page.evaluate("[...document.querySelectorAll('h1')].filter((h) => h.getClientRects().length)"
                             ".map((h) => h.textContent)")
    assert len(headings) == 1 and table in headings[0], headings       # the table's name, for readers
    page.click("#act-hint")
    page.wait_for_selector("#hand .card.hinted")
    for line in range(1, 4):                              # long lines: the chat's list scrolls
        page.fill("#chat-input", f"{line}: " + "хорошая сдача, " * 16)
        page.press("#chat-input", "Enter")
        page.wait_for_function(f"document.querySelectorAll('#chat-list li').length === {line}")
    assert page.evaluate("(l => l.scrollHeight > l.clientHeight)(document.querySelector('#chat-list'))")
    problems += violations(page, f"classic, a hint and the chat ({lang})")
    page.click("#last-trick-btn")                       # open: "no trick yet" until the first ends
    while not page.locator("#last-trick .card").count():
        version = int(page.get_attribute("body", "data-version"))
        page.locator('#hand .card[data-legal="true"]').first.click()
        page.wait_for_function(f"(v) => Number(document.body.dataset.version) > v && ({MY_TURN})", arg=version)
    problems += violations(page, f"classic, the last trick ({lang})")
    page.click("#rules-open")
    page.wait_for_selector("#rules-trumps li")
    problems += violations(page, f"rules panel ({lang})")
    no_violations(problems)
    assert page.errors == []
    context.close()


def test_a_classic_table_on_a_phone(chromium: Any, server: ServeProcess) -> None:
    """The narrow layout: the felt's grid squeezed, the chat folded under the table."""
    table, token = table_with_bots(server.url, "Аня")
    context = chromium.new_context(viewport={"width": 390, "height": 844}, locale=LOCALES["ru"])
    context, page = new_page(chromium, context)
    sit_at(page, server.url, table, token, 0)
    page.wait_for_selector("#start-btn:not([disabled])")
    problems = violations(page, "phone lobby")
    start_by_keyboard(page)
    page.wait_for_function(MY_TURN)
    problems += violations(page, "phone, classic, my turn")
    no_violations(problems)
    assert page.errors == []
    context.close()


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_street_table_at_my_decision(chromium: Any, server: ServeProcess, lang: str) -> None:
    table, token = street_table_i_lead(server, "heuristic")
    context, page = at_table(chromium, server, table, token, lang)
    start_by_keyboard(page)
    page.wait_for_function(MY_TURN)
    problems = violations(page, f"street, my turn ({lang})")
    page.locator('#hand .card[data-legal="true"]').first.click()     # chosen: play it, or pass it down
    page.wait_for_selector("#act-play:not([hidden])")
    problems += violations(page, f"street, a card chosen ({lang})")
    no_violations(problems)
    assert page.errors == []
    context.close()


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_spades_table_at_my_bid_and_in_play(chromium: Any, server: ServeProcess, lang: str) -> None:
    """Both teams may bid blind at 0 : 0: my hand face down with its look control and
    the blind bids (unless my partner's bid ruled mine out), then looked at."""
    table, token = table_with_bots(server.url, "Аня", game="spades", rules="standard", options=BLIND)
    context, page = at_table(chromium, server, table, token, lang)
    start_by_keyboard(page)
    page.wait_for_selector("#bid-buttons:not([hidden]) button", timeout=60_000)
    problems = []
    if page.is_visible("#act-look"):
        problems += violations(page, f"spades, a blind bid ({lang})")
        page.click("#act-look")
        page.wait_for_selector("#hand button.card")
    problems += violations(page, f"spades, my bid ({lang})")
    page.locator("#bid-buttons button").first.click()
    page.wait_for_function(MY_TURN, timeout=60_000)
    problems += violations(page, f"spades, my turn ({lang})")
    # Spades broken or not depends on the bots' cards by then: check the broken chip's look
    # on every run (its text is the view's; only the mark the page draws it by is set here).
    page.evaluate("document.querySelector('#spades-broken').dataset.broken = 'true'")
    problems += violations(page, f"spades, my turn, spades broken ({lang})")
    no_violations(problems)
    assert page.errors == []
    context.close()


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_duel_at_my_decision(chromium: Any, server: ServeProcess, lang: str) -> None:
    """Its lobby (the own deck panel); my decision; a hand card's details; my deck list."""
    table, token = table_with_bots(server.url, "Аня", game="yugioh", bot="greedy", seed=9)
    context, page = at_table(chromium, server, table, token, lang)
    page.wait_for_selector("#deck-panel:not([hidden])")
    problems = violations(page, f"duel lobby ({lang})")
    start_by_keyboard(page)
    ygo_decide_until(page, lambda: page.locator("#duel-hand .ycard").count(), "a card in my hand")
    problems += violations(page, f"duel, my decision ({lang})")
    page.locator("#duel-hand .ycard").first.focus()
    page.wait_for_selector("#card-detail:not([hidden])")
    problems += violations(page, f"duel, a card's details ({lang})")
    page.click('.duel-player[data-side="bottom"] .pile[data-pile="decklist0"]')
    page.wait_for_selector("#duel-pile:not([hidden]) li[data-card]")
    problems += violations(page, f"duel, my deck list ({lang})")
    no_violations(problems)
    assert page.errors == []
    context.close()


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_end_of_a_match(chromium: Any, server: ServeProcess, finished: tuple[str, str], lang: str) -> None:
    table, token = finished
    context, page = new_page(chromium, locale=LOCALES[lang])
    sit_at(page, server.url, table, token, 0)
    page.wait_for_selector("#result:not([hidden])")
    problems = violations(page, f"match result ({lang})")
    page.click("#result-close")
    page.wait_for_selector("#score tbody tr.deal-row")
    problems += violations(page, f"score sheet ({lang})")
    page.goto(f"{server.url}?table={table}&review=1")
    page.wait_for_selector("#review-table:not([hidden]) tbody tr", timeout=60_000)
    problems += violations(page, f"review ({lang})")
    no_violations(problems)
    assert page.errors == []
    context.close()


@pytest.mark.parametrize(("lang", "phone"), [("ru", False), ("en", False), ("ar", False), ("ru", True)])
def test_a_review_s_deal_diagram(chromium: Any, server: ServeProcess, finished: tuple[str, str], lang: str,
                                 phone: bool) -> None:
    """A review with a row chosen by the keyboard: the diagram of its position (the
    hands, the trick, the marked cards) beside the table, or under it on a phone."""
    table, token = finished
    context, page = new_page(chromium, locale=LOCALES[lang])
    if phone:
        page.set_viewport_size({"width": 390, "height": 844})
    sit_at(page, server.url, table, token, 0)
    page.goto(f"{server.url}?table={table}&review=1")
    page.wait_for_selector("#review-table:not([hidden]) tbody tr", timeout=60_000)
    rows = page.locator("#review-table tbody tr button.review-pick")
    rows.nth(rows.count() // 2).focus()                                 # a trick in progress, mostly
    page.keyboard.press("Enter")
    page.wait_for_selector("#review-board:not([hidden]) .board-hand")
    problems = violations(page, f"review, a deal diagram ({lang}{', phone' if phone else ''})")
    no_violations(problems)
    assert page.errors == []
    context.close()


@pytest.mark.parametrize(("lang", "phone"), [("ru", False), ("ar", True)])
def test_an_opened_record(chromium: Any, server: ServeProcess, tmp_path: Path, lang: str, phone: bool) -> None:
    """The home page's "Open a record": a file the server refuses (its line under the
    control), then a record file's review with a row chosen (its deal diagram)."""
    context, page = new_page(chromium, locale=LOCALES[lang])
    if phone:
        page.set_viewport_size({"width": 390, "height": 844})
    page.goto(server.url)
    page.wait_for_selector("#home:not([hidden])")
    broken = tmp_path / "broken.json"
    broken.write_text('{"game": "kozel",', encoding="utf-8")
    page.set_input_files("#record-file", str(broken))
    page.wait_for_selector("#record-status.error")
    problems = violations(page, f"home, a record refused ({lang}{', phone' if phone else ''})")
    page.set_input_files("#record-file", str(played_file(tmp_path, "game.json")))
    page.wait_for_selector("#review-table:not([hidden]) tbody tr", timeout=60_000)
    page.locator("#review-table tbody tr button.review-pick").nth(0).focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#review-board:not([hidden]) .board-hand")
    problems += violations(page, f"home, a record's review ({lang}{', phone' if phone else ''})")
    no_violations(problems)
    assert page.errors == []
    context.close()


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_end_of_a_duel(chromium: Any, server: ServeProcess, finished_duel: tuple[str, str], lang: str) -> None:
    table, token = finished_duel
    context, page = new_page(chromium, locale=LOCALES[lang])
    sit_at(page, server.url, table, token, 0)
    page.wait_for_selector("#duel-result:not([hidden]) #duel-rematch button")
    no_violations(violations(page, f"duel result ({lang})"))
    assert page.errors == []
    context.close()
