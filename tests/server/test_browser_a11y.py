"""The browser table played without seeing it (Debian's chromium, as
``test_browser.py``): what a screen reader is given, read from the page's
accessibility tree (Playwright's ``aria_snapshot``), and the keyboard alone.

* the log (the page's aria-live region) and the status say cards in words
  ("восьмёрка червей", "eight of hearts"), not "8♥" (a screen reader reads a
  suit glyph as an English symbol name, or not at all), while the screen keeps
  the compact form; a trick's taker is said in words, not with an arrow, and the
  turn's "▶" marks are not read; the status line is read out when it is my turn,
  not before every bot's move (the log reads each move);
* the cards on the table and the other hands are read with their names (an ``aria-label`` on a bare ``div`` is not read at all);
* a whole match played by the keyboard: after a deal's last card the focus comes
  back to the next deal's hand by itself, the match's result takes the focus when
  it appears (its text read at once), and its Close leaves the focus on the score
  sheet, not on the page;
* a duel by the keyboard: when my decision passes to the other seat and comes
  back, the focus comes back to my decision, not left on the page; my decisions
  are read out, the other seat's are not announced one by one; a redraw of the
  same decision (a hint) keeps the keyboard on the button it was on;
* the chat is a list of its messages, read as they come, that the keyboard
  scrolls; the other duelist's hand is read as its count of cards;
* the focus ring is seen on what is around it (3:1, WCAG 1.4.11): dark on the
  light page and panels, gold on the dark felt and header;
* the empty seats of the lobby are AA contrast, the log and the rules can be
  scrolled by the keyboard, and the hand does not move for people who asked for
  less motion — in Russian and in Arabic (right to left).
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from .conftest import ServeProcess
from .test_browser import CHROMIUM, SERVE, chromium, new_page, sit_at  # noqa: F401 - fixture
from .test_browser_walk import seated, start_by_keyboard, table_with_bots

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium "
                       "(apt-get install chromium; .ci/run does it)"),
]

GLYPHS = re.compile("[♣♦♥♠→]")
#: JavaScript for the contrast checks: ``rgba(text)``, the colours a computed style names
#: ([r, g, b, a]); ``ratio(x, y)``, WCAG's contrast ratio of two colours (alpha set aside).
CONTRAST_JS = """
  const rgba = (text) => [...text.matchAll(/rgba?\\(([^)]+)\\)/g)].map((m) => {
    const [r, g, b, a = 1] = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number); return [r, g, b, a]; });
  const lum = ([r, g, b]) => [r, g, b].map((c) => { c /= 255; return c <= 0.03928 ? c / 12.92
    : ((c + 0.055) / 1.055) ** 2.4; }).reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i], 0);
  const ratio = (x, y) => { const [a, b] = [lum(x), lum(y)].sort((p, q) => q - p); return (a + 0.05) / (b + 0.05); };
"""
FOCUSED = "document.activeElement === document.body ? 'body' : (document.activeElement.id || document.activeElement.className)"


def play_by_keyboard(page: object) -> None:
    """On my turn, walk the hand with the right arrow to a playable card and press Enter."""
    cards = page.locator("#hand button.card").count()  # type: ignore[attr-defined]
    for _ in range(cards + 1):
        if page.evaluate("document.activeElement.dataset?.legal") == "true":  # type: ignore[attr-defined]
            page.keyboard.press("Enter")  # type: ignore[attr-defined]
            return
        page.keyboard.press("ArrowRight")  # type: ignore[attr-defined]
    raise AssertionError("no playable card reached by the arrows")


def settled_snapshot(page: object, selector: str, tries: int = 50) -> str:
    """The aria snapshot of ``selector``, read again while it comes back empty: the
    page draws some panels anew on every move (the trump's label among them), and a
    label read in the instant its old copy leaves the page reads as nothing."""
    snapshot = ""
    for _ in range(tries):
        snapshot = page.locator(selector).aria_snapshot()  # type: ignore[attr-defined]
        if snapshot:
            return snapshot
        page.wait_for_timeout(100)  # type: ignore[attr-defined]
    return snapshot


#: My turn, a card of mine playable: the bots wait for me, so nothing on the table moves.
MY_TURN = ("document.querySelector('#status.my-turn') !== null "
           "&& document.querySelector('#hand button.card[data-legal=true]') !== null")


def my_turn(page: object) -> bool:
    return page.evaluate(MY_TURN)  # type: ignore[attr-defined]


def listen(page: object, status: str) -> None:
    """Note each change of the status line ``status`` (as ``window.heard``): its text
    and whether it was to be read out (its ``aria-live`` then)."""
    page.evaluate("""(sel) => { window.heard = []; const watch = () => { const s = document.querySelector(sel);
      if (!s) return setTimeout(watch, 50);
      new MutationObserver(() => window.heard.push([s.textContent, s.getAttribute('aria-live')]))
        .observe(s, {childList: true, characterData: true, subtree: true}); }; watch(); }""", status)  # type: ignore


def test_cards_are_said_in_words(chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    server = serve_process(*SERVE)
    table, token = table_with_bots(server.url, "Аня")
    context, page = seated(chromium, server.url, table, token)
    listen(page, "#status")
    start_by_keyboard(page)
    while not page.locator("#log li", has_text="Взятка →").count():      # the first trick, by the keyboard
        page.wait_for_function("document.querySelector('#status.my-turn') || "
                               "[...document.querySelectorAll('#log li')].some((li) => li.textContent.includes('→'))")
        if my_turn(page):
            board = page.locator("#game .board").aria_snapshot()
            said = "Ваш ход: сыграйте карту." in board or "Верните напарнику некозырную карту." in board
            assert "▶" not in board and said, board   # the turn mark is for the eye (a forced return: a random deal)
            version = int(page.get_attribute("body", "data-version"))
            play_by_keyboard(page)
            page.wait_for_function("(v) => Number(document.body.dataset.version) > v", arg=version)
    heard = page.evaluate("window.heard")                 # the status line: how each change was to be heard
    waiting = {live for text, live in heard if text.startswith("Ходит Бот")}
    mine = {live for text, live in heard if text.startswith("Ваш ход")}
    assert waiting == {"off"} and mine == {"polite"}, heard  # my turn read out, not each bot's before its move
    log = page.locator("#log").aria_snapshot()
    assert not GLYPHS.search(log), log                                   # said: words only
    assert re.search(r"Бот \d: (шестёрка|семёрка|восьмёрка|девятка|десятка|валет|дама|король|туз) "
                     r"(треф|бубен|червей|пик)", log), log
    assert re.search(r"Взятку берёт (Бот \d|Аня \(вы\))", log), log
    assert re.search(r"Сдача 1: сдаёт (Бот \d|Аня \(вы\)), козырь треф", log), log
    shown = page.locator("#log li .shown").all_text_contents()            # the screen keeps "8♥"
    assert any(re.fullmatch(r"Бот \d: (10|[6-9JQKA])[♣♦♥♠]", line) for line in shown), shown
    # the table: each play, the permanent trumps and the other hands, by name; read on my turn with
    # a trick on the table, when the bots wait for me (while they play, the trick they complete is
    # cleared from the table, and the panels are drawn anew, between two reads)
    for _ in range(40):
        page.wait_for_function(MY_TURN)
        if page.locator("#trick .play").count():
            break
        version = int(page.get_attribute("body", "data-version"))     # mine to lead: lead, then my next turn
        play_by_keyboard(page)
        page.wait_for_function("(v) => Number(document.body.dataset.version) > v", arg=version)
    else:
        raise AssertionError("no turn of mine with a card on the table")
    trick = page.locator("#trick").aria_snapshot()
    assert re.search(r'img "(Бот \d|Аня \(вы\)): [а-яё]+ [а-яё]+', trick), trick
    assert not GLYPHS.search(trick.replace("★", "")), trick
    assert page.locator('#trick .play > :not([aria-hidden="true"])').count() == 0   # not read again card by card
    info = page.locator("#info").aria_snapshot()
    assert "Валеты, дамы и семёрка треф — всегда козыри" in info, info
    label = settled_snapshot(page, "#trump .trump-label")
    assert "Козырь: треф" in label and not GLYPHS.search(label), label   # the trump, said in words alone
    assert "♣ C" in page.locator("#trump .trump-label .shown").inner_text()  # shown as players know it
    fans = page.locator('.seat-box [role="img"][aria-label^="карт: "]')
    assert fans.count() == 3 and page.locator('.seat-box .fan > :not([aria-hidden="true"])').count() == 0
    page.click(".lang[data-lang='en']")
    page.wait_for_function("document.documentElement.lang === 'en'")
    # the log is drawn anew from this deal's history: deal 2 if the leads above ran to deal 1's end
    page.wait_for_function("/^Deal \\d+:/.test(document.querySelector('#log li .sr-only')?.textContent || '')")
    log = page.locator("#log").aria_snapshot()
    assert re.search(r"Bot \d: (six|seven|eight|nine|ten|jack|queen|king|ace) of (clubs|diamonds|hearts|spades)",
                     log) and "takes the trick" in log and not GLYPHS.search(log), log
    assert page.errors == []
    context.close()


def test_a_match_by_the_keyboard_keeps_the_focus(chromium: object,
                                                 serve_process: Callable[..., ServeProcess]) -> None:
    server = serve_process(*SERVE)
    table, token = table_with_bots(server.url, "Аня", options={"match_target": 5})
    context, page = seated(chromium, server.url, table, token)
    start_by_keyboard(page)
    page.wait_for_selector("#game:not([hidden])")
    deals_met = set()
    for _ in range(200):
        page.wait_for_function(f"({MY_TURN}) || !document.querySelector('#result').hidden", timeout=60_000)
        if page.is_visible("#result"):
            break
        deal = page.locator("#score tbody tr.deal-row").count() + 1
        if deal > 1 and deal not in deals_met:
            # a new deal's first turn: the keyboard is in the hand, not left on the page
            assert page.evaluate("document.activeElement.closest('#hand') !== null"), page.evaluate(FOCUSED)
        deals_met.add(deal)
        version = int(page.get_attribute("body", "data-version"))
        play_by_keyboard(page)
        page.wait_for_function("(v) => Number(document.body.dataset.version) > v", arg=version)
    else:
        raise AssertionError("the match did not end")
    assert max(deals_met) >= 2, deals_met             # a deal's end was crossed by the keyboard
    page.wait_for_function("document.activeElement.id === 'result'")   # the result, read at once
    assert page.get_attribute("#result", "aria-describedby") == "result-text"
    page.keyboard.press("Tab")
    page.wait_for_function("document.activeElement.closest('#result') !== null")
    page.focus("#result-close")
    page.keyboard.press("Enter")
    page.wait_for_function("document.activeElement.id === 'score-title'")
    assert page.is_hidden("#result")
    assert page.errors == []
    context.close()


@pytest.mark.parametrize("code", ["ru", "ar"])
def test_contrast_scrolling_and_motion(chromium: object, serve_process: Callable[..., ServeProcess], code: str) -> None:
    """In Russian, and in Arabic (right to left), where the layout is mirrored."""
    server = serve_process(*SERVE)
    table, token = table_with_bots(server.url, "Аня")
    context, page = new_page(chromium)
    page.emulate_media(reduced_motion="reduce")
    page.goto(server.url)
    page.evaluate("(code) => localStorage.setItem('goat:lang', code)", code)
    sit_at(page, server.url, table, token, 0)
    assert page.evaluate("document.documentElement.dir") == ("rtl" if code == "ar" else "ltr")
    page.wait_for_selector("#start-btn:not([disabled])")
    page.click('.seat-row[data-seat="1"] .remove')                    # an empty seat, named in grey
    page.wait_for_selector('.seat-row.kind-empty[data-seat="1"]')
    ratio = page.evaluate("""() => {""" + CONTRAST_JS + """
      const name = document.querySelector('.seat-row.kind-empty .seat-name');
      const [row] = rgba(getComputedStyle(name.closest('.panel')).backgroundColor);
      return ratio(rgba(getComputedStyle(name).color)[0], row);
    }""")
    assert ratio >= 4.5, ratio
    page.click('.seat-row[data-seat="1"] .add-bot')
    page.wait_for_selector("#start-btn:not([disabled])")
    page.click("#start-btn")
    page.wait_for_selector("#hand button.card")
    motion = "getComputedStyle(document.querySelector('#hand button.card')).transitionDuration"
    assert page.evaluate(motion) == "0s"
    page.emulate_media(reduced_motion="no-preference")
    assert page.evaluate(motion) != "0s"                               # the lift stays for everyone else
    for scrolled in ("#log", ".review-scroll"):                       # long: the keyboard scrolls them
        assert page.get_attribute(scrolled, "tabindex") == "0", scrolled
    assert page.get_attribute("#log", "aria-labelledby") == "log-title"
    page.click("#rules-open")
    page.wait_for_selector("#rules-body")
    assert page.get_attribute("#rules-body", "tabindex") == "0"
    assert page.errors == []
    context.close()


def test_a_duel_by_the_keyboard_keeps_the_focus(chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    server = serve_process(*SERVE)
    table, token = table_with_bots(server.url, "Аня", game="yugioh", bot="greedy")
    context, page = seated(chromium, server.url, table, token)
    start_by_keyboard(page)
    page.wait_for_selector("#duel-status")
    listen(page, "#duel-status")
    mine = "document.title.startsWith('▶') && document.querySelector('#duel-groups button:not([disabled])')"
    for decision in range(8):
        page.wait_for_function(mine, timeout=60_000)
        # each of my decisions finds the keyboard in it, however long the other seat took
        page.wait_for_function("document.activeElement.closest('#duel-groups, #duel-hand') !== null")
        version = page.get_attribute("body", "data-version")
        page.locator("#duel-groups button:not([disabled])").last.focus()     # Tab to the last: pass, mostly
        page.keyboard.press("Enter")
        page.wait_for_function("(v) => document.body.dataset.version !== v", arg=version)
    heard = page.evaluate("window.heard")
    waiting = {live for text, live in heard if text.startswith("Решает Бот")}
    mine_heard = {live for text, live in heard if text.startswith("Ваше решение")}
    assert waiting == {"off"} and mine_heard == {"polite"}, heard
    assert page.errors == []
    context.close()


def test_a_duels_decision_drawn_again_keeps_the_keyboard_on_its_button(
        chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    """The duel page draws its decision's buttons anew on every redraw, also of the
    same state (a hint asked with H, the card catalog arriving, a refusal): the
    keyboard on one of them was sent to the first, so that Enter made another move
    than the one the player was on, depending on when the redraw came."""
    server = serve_process(*SERVE)
    table, token = table_with_bots(server.url, "Аня", game="yugioh", bot="greedy", hints=True)
    context, page = seated(chromium, server.url, table, token)
    start_by_keyboard(page)
    buttons = page.locator("#duel-groups button[data-action]:not([disabled])")
    mine = "document.title.startsWith('▶') && document.querySelector('#duel-groups button:not([disabled])')"
    for _ in range(20):                                  # a decision of mine with a choice of moves
        page.wait_for_function(mine, timeout=60_000)
        if buttons.count() > 1:
            break
        version = page.get_attribute("body", "data-version")
        buttons.first.click()
        page.wait_for_function("(v) => document.body.dataset.version !== v", arg=version)
    else:
        raise AssertionError("no decision of mine had two moves")
    version = page.get_attribute("body", "data-version")
    chosen = buttons.last.get_attribute("data-action")
    assert chosen != buttons.first.get_attribute("data-action")
    buttons.last.focus()
    page.keyboard.press("h")                             # a hint: the same decision, drawn again
    page.wait_for_selector("#duel-log li.hint-line", timeout=60_000)
    page.wait_for_function("document.querySelector('#duel-hint:not([disabled])')")   # its answer drawn
    assert page.get_attribute("body", "data-version") == version
    assert page.evaluate("document.activeElement.dataset.action") == chosen, page.evaluate(FOCUSED)
    assert page.errors == []
    context.close()


def test_my_bid_takes_the_keyboard_to_the_bids(chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    """Spades: when my move is a bid, no card of my hand can go, so a keyboard
    player starts on the bid buttons (Tab or an arrow were needed to find them
    from an unplayable card); once the bidding is over, the play starts from the
    hand again."""
    server = serve_process(*SERVE)
    table, token = table_with_bots(server.url, "Аня", game="spades", rules="standard")
    context, page = seated(chromium, server.url, table, token)
    start_by_keyboard(page)
    page.wait_for_selector("#bid-buttons:not([hidden]) button", timeout=60_000)
    page.wait_for_function("document.activeElement.closest('#bid-buttons') !== null")
    assert page.locator("#hand button.card[data-legal=true]").count() == 0
    assert page.get_attribute("#actions", "aria-label") == "Ходы"   # the toolbar the bids are in has a name
    page.keyboard.press("Enter")                       # the focused bid
    page.wait_for_function("document.querySelector('#hand button.card[data-legal=true]') !== null "
                           "|| document.querySelector('#status.my-turn') === null", timeout=60_000)
    page.wait_for_function("document.querySelector('#status.my-turn') !== null "
                           "&& document.querySelector('#hand button.card[data-legal=true]') !== null", timeout=60_000)
    page.wait_for_function("document.activeElement.closest('#hand') !== null")
    assert page.errors == []
    context.close()


def test_the_chat_is_a_list_the_keyboard_scrolls(chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    """Its ``<ol>`` had ``role="log"``, which unmade the list its messages were items
    of (a reader said neither "list" nor how many), and long, it could not be
    scrolled back without a mouse (axe: listitem, scrollable-region-focusable)."""
    server = serve_process(*SERVE)
    table, token = table_with_bots(server.url, "Аня")
    context, page = seated(chromium, server.url, table, token)
    for line in range(1, 4):
        page.fill("#chat-input", f"{line}: " + "хорошая сдача, " * 16)
        page.press("#chat-input", "Enter")
        page.wait_for_function(f"document.querySelectorAll('#chat-list li').length === {line}")
    snapshot = page.locator("#chat-body").aria_snapshot()
    assert 'list "Чат"' in snapshot and snapshot.count("listitem") == 3, snapshot
    assert page.get_attribute("#chat-list", "aria-live") == "polite"                 # still read as they come
    assert page.evaluate("(l => l.scrollHeight > l.clientHeight)(document.querySelector('#chat-list'))")
    assert page.get_attribute("#chat-list", "tabindex") == "0"
    assert page.errors == []
    context.close()


def past_the_coin_toss(page: object) -> None:
    """At a duel's start: if the coin toss lets me choose, go first; then the board is drawn."""
    choose = '#duel-groups button[data-action$="choose first"]'
    board = '.duel-player[data-side="top"] .opp-hand'
    page.wait_for_selector(f"{board}, {choose}", timeout=60_000)  # type: ignore[attr-defined]
    if page.locator(choose).count():  # type: ignore[attr-defined]
        page.click(choose)  # type: ignore[attr-defined]
    page.wait_for_selector(board, timeout=60_000)  # type: ignore[attr-defined]


def test_the_other_duelists_hand_is_read_as_its_count(chromium: object,
                                                      serve_process: Callable[..., ServeProcess]) -> None:
    """Its count was an ``aria-label`` on a bare ``div``, not read: a reader heard a
    lone number after the piles."""
    server = serve_process(*SERVE)
    table, token = table_with_bots(server.url, "Аня", game="yugioh", bot="greedy")
    context, page = seated(chromium, server.url, table, token)
    start_by_keyboard(page)
    past_the_coin_toss(page)
    piles = settled_snapshot(page, '.duel-player[data-side="top"] .piles')
    assert re.search(r'img "Карт в руке: \d+"', piles), piles
    assert page.locator('.opp-hand > :not([aria-hidden="true"])').count() == 0    # not read again card by card
    assert page.errors == []
    context.close()


#: The contrast of the focused element's outline against the background around it (the
#: nearest ancestor's colour, or each stop of its gradient: the lowest ratio).
RING_CONTRAST = """() => {""" + CONTRAST_JS + """
  const el = document.activeElement;
  let around = [];
  for (let node = el.parentElement; node && !around.length; node = node.parentElement) {
    const style = getComputedStyle(node);
    if (/gradient/.test(style.backgroundImage)) around = rgba(style.backgroundImage);
    else around = rgba(style.backgroundColor).filter((c) => c[3] === 1);
  }
  const [ring] = rgba(getComputedStyle(el).outlineColor);
  return Math.min(...around.map((c) => ratio(ring, c)));
}"""


def test_the_focus_ring_is_seen_where_it_is(chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    """The ring was gold everywhere: 1.5:1 on the light page around my hand's cards,
    1.9:1 on the white panels — a keyboard player with low vision lost the focus."""
    server = serve_process(*SERVE)
    table, token = table_with_bots(server.url, "Аня")
    context, page = seated(chromium, server.url, table, token)
    start_by_keyboard(page)
    page.wait_for_function(MY_TURN)
    rings_are_seen(page, '#hand button.card[tabindex="0"]', "#last-trick-btn", "#chat-input", "#chat-send",
                   ".langs .lang", "#rules-open")
    context.close()
    # a duel: its dark board, and the white box of decisions on it
    # Seeded, and each ring looked at on my decision: while the bot acts the board is drawn
    # again with every state, and a pile focused then can be replaced before it is measured.
    table, token = table_with_bots(server.url, "Аня", game="yugioh", bot="greedy", seed=2)
    context, page = seated(chromium, server.url, table, token)
    start_by_keyboard(page)
    my_decision = "#duel-groups button:not([disabled])"
    page.wait_for_selector(my_decision, timeout=60_000)
    rings_are_seen(page, my_decision)
    past_the_coin_toss(page)
    page.wait_for_selector(my_decision, timeout=60_000)
    rings_are_seen(page, '.duel-player[data-side="bottom"] .pile[data-pile="decklist0"]')
    context.close()


def rings_are_seen(page: object, *selectors: str) -> None:
    """Each of ``selectors`` focused as the keyboard does shows a ring of 3:1 or more on what is around it."""
    ratios = {}
    for selector in selectors:
        page.keyboard.press("Shift")                  # the keyboard was used last: the ring is shown
        page.focus(selector)
        assert page.evaluate("document.activeElement.matches(':focus-visible')"), selector
        ratios[selector] = round(page.evaluate(RING_CONTRAST), 2)
    assert all(ratio >= 3 for ratio in ratios.values()), ratios
    assert page.errors == []
