"""What a person trips on at the browser table (Debian's chromium, as
``test_browser.py``), each found by using the page as a player would:

* the home page's open tables name their bots as the table does ("Бот 2"), not
  by the server's English label;
* a name of spaces alone is refused in the page's language, and no table is
  left behind;
* a name of 24 letters without a space (the longest there is) on a phone:
  the home list, the lobby and the table stay as wide as the screen;
* the lobby by the keyboard: "Add bot" and "Remove" keep the focus in their
  seat's row when the seats are drawn again;
* a reload mid-trick draws the deal's log as it was: each trick's "Trick →"
  line after its last card, not one line after the cards on the table;
* Start pressed with the keyboard leaves the focus in the hand, not on the page;
* the server's refusals a person meets are said in the page's language;
* a match result closed with its Close comes back by a button under the table
  ("Итоги партии"), at a trick game and at a duel: before, "Play again", the
  review and the record were gone until a reload;
* a long log (a finished match, a spectator arriving) makes the page no longer:
  its lines' words for screen readers (``.sr-only``, absolutely placed) were
  placed by the page, not by the log's scrolled box, and stretched the page
  with a blank screenful or more below the table;
* a spectator at a lobby whose seats are all taken is not told to "take an empty
  seat": there is none;
* waiting for a person who is offline says so, and that a bot soon plays for
  them (the grace period), not "Waiting for Bo…" alone for a minute;
* in street, a card chosen to beat that does not beat the table's leaves "Beat"
  greyed: the status line says why, and what to do instead;
* the create form's refusal of a number typed names that number: a 0 read
  "at least 1 (not none)", the word of a choice whose value is "0".
"""

from __future__ import annotations

import re
from collections.abc import Callable

import httpx
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .conftest import ServeProcess
from .test_browser import (CHROMIUM, SERVE, STREET_TURN, at_version, chromium, finish_a_quick_match,  # noqa: F401
                           finished_duel_in_a_page, new_page, played_beside_playwright, shot, sit_at,
                           street_table_i_lead)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium "
                       "(apt-get install chromium; .ci/run does it)"),
]


def table_with_bots(url: str, name: str, bot: str = "heuristic", **body: object) -> tuple[str, str]:
    """A classic table with ``name`` at seat 0 and ``bot`` at the others: (id, token)."""
    created = httpx.post(f"{url}api/tables", json={"name": name, **body}, timeout=10).json()
    for seat in range(1, created["players"]):
        httpx.post(f"{url}api/tables/{created['id']}/seats/{seat}/bot", json={"bot": bot},
                   headers={"Authorization": f"Bearer {created['token']}"}, timeout=10)
    return created["id"], created["token"]


def seated(chromium: object, url: str, table: str, token: str) -> tuple[object, object]:
    """A new page at ``table``'s seat 0 (``token``), its lobby ready to start: (context, page)."""
    context, page = new_page(chromium)
    sit_at(page, url, table, token, 0)
    page.wait_for_selector("#start-btn:not([disabled])")
    return context, page


def start_by_keyboard(page: object) -> None:
    """Press the lobby's Start with the keyboard, as a keyboard player does."""
    page.focus("#start-btn")
    page.keyboard.press("Enter")


def test_open_tables_name_bots_as_the_table_does(chromium: object,
                                                 serve_process: Callable[..., ServeProcess]) -> None:
    server = serve_process(*SERVE)
    table, _ = table_with_bots(server.url, "Аня")
    seeded, _ = table_with_bots(server.url, "Боря", seed="club-night")
    context, page = new_page(chromium)
    page.goto(server.url)
    page.wait_for_selector(f'#table-list a[href="?table={table}"]')
    page.wait_for_selector(f'#table-list a[href="?table={seeded}"]')
    assert page.text_content(f'#table-list a[href="?table={seeded}"]').endswith("· заданные сдачи")
    assert "заданные" not in page.text_content(f'#table-list a[href="?table={table}"]')
    assert page.text_content(f'#table-list li:has(a[href="?table={table}"]) .hint') == "Аня, Бот 2, Бот 3, Бот 4"
    page.click(".lang[data-lang='en']")
    page.wait_for_function("document.querySelector('#table-list li .hint')?.textContent.includes('Bot ')")
    assert page.text_content(f'#table-list li:has(a[href="?table={table}"]) .hint') == "Аня, Bot 2, Bot 3, Bot 4"
    assert page.errors == []
    context.close()


def test_a_blank_name_is_refused_in_the_pages_language(chromium: object,
                                                       serve_process: Callable[..., ServeProcess]) -> None:
    server = serve_process(*SERVE)
    context, page = new_page(chromium)
    page.goto(server.url)
    page.wait_for_selector("#create-game option", state="attached")
    page.fill("#create-name", "   ")                      # passes the field's "required"
    page.click("#create-btn")
    page.wait_for_selector("#toast:not([hidden])")
    assert page.text_content("#toast") == "Назовите себя, чтобы занять место."
    assert page.evaluate("document.activeElement.id") == "create-name"
    assert httpx.get(f"{server.url}api/tables", timeout=10).json()["tables"] == []
    assert "table=" not in page.url
    assert page.errors == []
    context.close()


def fits_the_screen(page: object) -> None:
    page.wait_for_timeout(100)
    assert page.evaluate("document.documentElement.scrollWidth") <= 392
    for box in page.locator(".seat-box:not([hidden]), #log li").all():
        assert box.evaluate("b => b.scrollWidth <= b.clientWidth + 1")


def test_a_long_name_on_a_phone(chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    server = serve_process(*SERVE)
    name = "Ш" * 24
    table, token = table_with_bots(server.url, name)
    context, page = new_page(chromium)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(server.url)
    page.wait_for_selector(f'#table-list a[href="?table={table}"]')
    fits_the_screen(page)
    sit_at(page, server.url, table, token, 0)
    page.wait_for_selector("#lobby:not([hidden]) .seat-row.kind-human")
    fits_the_screen(page)
    page.click("#start-btn")
    mine = "[...document.querySelectorAll('#log li')].some((li) => li.textContent.includes('(вы):'))"
    for attempt in range(3):     # my turn: my card puts my name in the log (a click while the page reconnects
        page.wait_for_selector('#hand .card[data-legal="true"]')   # is refused with a toast: click again as a person would)
        page.locator('#hand .card[data-legal="true"]').first.click()
        try:
            page.wait_for_function(mine, timeout=15_000)
            break
        except PlaywrightTimeout:
            if attempt == 2:
                raise
    fits_the_screen(page)
    shot(page, "long-name-mobile")
    assert page.errors == []
    context.close()
    context, page = new_page(chromium)                          # a spectator: the teams' names head the sheet
    page.goto(f"{server.url}?table={table}")
    page.wait_for_selector("#score tfoot th")
    lines = "(s) => { const r = document.createRange(); r.selectNodeContents(document.querySelector(s));" \
            " return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size; }"
    assert page.evaluate(lines, "#score thead th") == 1 and page.evaluate(lines, "#score tfoot th") == 1
    context.close()


def test_the_lobby_keeps_the_keyboards_place(chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    server = serve_process(*SERVE)
    created = httpx.post(f"{server.url}api/tables", json={"name": "Аня"}, timeout=10).json()
    context, page = new_page(chromium)
    sit_at(page, server.url, created["id"], created["token"], 0)
    page.wait_for_selector("#lobby:not([hidden]) .seat-row.kind-human")
    focused = "document.activeElement.closest('.seat-row')?.dataset.seat ?? null"
    for seat in (1, 2, 3):
        page.focus(f'.seat-row[data-seat="{seat}"] .add-bot')
        page.keyboard.press("Enter")
        page.wait_for_selector(f'.seat-row[data-seat="{seat}"].kind-bot')
        assert page.evaluate(focused) == str(seat)              # on its row's "Remove", not lost to the page
        assert page.evaluate("document.activeElement.classList.contains('remove')")
    page.keyboard.press("Enter")                                # "Remove" by the keyboard too
    page.wait_for_selector('.seat-row[data-seat="3"].kind-empty')
    assert page.evaluate(focused) == "3" and page.evaluate("document.activeElement.classList.contains('add-bot')")
    assert page.errors == []
    context.close()


def deal_log(page: object) -> list[str]:
    """The log's lines of the deal in play (from its "Deal n: ... deals" line)."""
    lines = page.locator("#log li").all_text_contents()
    starts = [i for i, line in enumerate(lines) if re.match(r"Сдача \d+: сдаёт", line)]
    return lines[starts[-1]:]


#: A classic table whose first deal the shamok ends at its second trick, before a
#: turn of mine with cards on the table: the loop below must skip to the next deal.
SHAMOK_ENDS_DEAL_1 = 40


@pytest.mark.parametrize(("game", "seed"), [("kozel", None), ("spades", None), ("kozel", SHAMOK_ENDS_DEAL_1)])
def test_a_reload_mid_trick_keeps_the_log(chromium: object, serve_process: Callable[..., ServeProcess],
                                          game: str, seed: int | None) -> None:
    server = serve_process(*SERVE)
    table, token = table_with_bots(server.url, "Аня", game=game, **({} if seed is None else {"seed": seed}))
    context, page = new_page(chromium)
    sit_at(page, server.url, table, token, 0)
    page.click("#start-btn")
    # My turn with a trick of this deal taken and cards on the table. "This deal": a
    # Kozel deal can end at its second trick (the shamok catches the queen), and at
    # the next deal's first turn the log's only trick was the last deal's (about 1
    # table in 100 against heuristic bots, replayed through the engine).
    for _ in range(60):
        page.wait_for_selector('#hand .card[data-legal="true"], #bid-buttons:not([hidden]) button')
        version = int(page.get_attribute("body", "data-version"))
        if page.is_visible("#bid-buttons"):
            page.locator("#bid-buttons button").nth(1).click()
        elif page.locator("#trick .play").count() and any(line.startswith("Взятка →") for line in deal_log(page)):
            break
        else:
            page.locator('#hand .card[data-legal="true"]').first.click()
        page.wait_for_function("(v) => Number(document.body.dataset.version) > v", arg=version)
    before = deal_log(page)
    assert sum(line.startswith("Взятка →") for line in before) >= 1
    if seed == SHAMOK_ENDS_DEAL_1:
        assert before[0].startswith("Сдача 2: "), "deal 1 was not ended by the shamok: pick another seed"
    page.reload()
    page.wait_for_selector('#hand .card[data-legal="true"]')
    assert deal_log(page) == before
    assert page.errors == []
    context.close()


def test_start_by_the_keyboard_lands_in_the_hand(chromium: object,
                                                 serve_process: Callable[..., ServeProcess]) -> None:
    """Start pressed with Enter hides the lobby and its button: the focus goes to
    the hand (or the bid buttons), not to the page, where a keyboard player would
    have to Tab through the whole table to play."""
    server = serve_process(*SERVE)
    table, token = table_with_bots(server.url, "Аня")
    context, page = seated(chromium, server.url, table, token)
    start_by_keyboard(page)
    page.wait_for_selector("#game:not([hidden]) #hand button.card")
    page.wait_for_function("document.activeElement?.closest('#hand, #actions') != null")
    page.keyboard.press("ArrowRight")            # the hand's own keys work from there
    assert page.evaluate("document.activeElement.closest('#hand') != null")
    assert page.errors == []
    context.close()


def test_a_refusal_is_said_in_the_pages_language(chromium: object,
                                                 serve_process: Callable[..., ServeProcess]) -> None:
    """The server's refusals a person meets (a seat taken meanwhile, a closed or
    unknown table, a full server) come in the page's language, seats counted from 1."""
    server = serve_process(*SERVE)
    table, _ = table_with_bots(server.url, "Аня")
    context, page = new_page(chromium)
    page.goto(f"{server.url}?table={table}")
    page.wait_for_selector("#lobby:not([hidden])")
    ask = """async ([path, body]) => {
        const m = await import('/static/table.js');
        try { await m.api('POST', path, body); return null; } catch (e) { return e.message; }
    }"""
    assert page.evaluate(ask, [f"/api/tables/{table}/seats/1", {"name": "Ева"}]) == "Место 2 уже занято."
    assert page.evaluate(ask, ["/api/tables/0123456789/seats/1", {"name": "Ева"}]) == "Такого стола нет."
    page.click(".lang[data-lang='en']")
    assert page.evaluate(ask, [f"/api/tables/{table}/seats/1", {"name": "Eve"}]) == "Seat 2 is taken."
    # a refusal without a sentence of its own keeps the server's line
    assert page.evaluate(ask, ["/api/tables", {"seed": "7" * 65}]) == "a seed has at most 64 characters"
    assert page.errors == []
    context.close()


def close_and_reopen(page: object, box: str, close: str, opener: str, scroll_to: str) -> None:
    """Close the match result ``box`` by ``close``, then bring it back by ``opener``,
    which the result takes the focus from; ``scroll_to``: where Close sent the focus."""
    page.click(close)
    page.wait_for_selector(f"{box}[hidden]", state="attached")
    assert page.evaluate("document.activeElement.id") == scroll_to
    assert page.text_content(opener) == "Итоги партии"
    shot(page, f"result-closed-{box[1:]}")
    page.focus(opener)                                          # by the keyboard, as by a click
    page.keyboard.press("Enter")
    page.wait_for_selector(f"{box}:not([hidden])")
    assert page.evaluate("document.activeElement.id") == box[1:]
    assert page.is_hidden(opener)


def test_a_closed_result_comes_back(chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    server = serve_process(*SERVE)
    context, page = new_page(chromium)
    finish_a_quick_match(page, server.url)
    assert page.is_hidden("#act-result")
    close_and_reopen(page, "#result", "#result-close", "#act-result", "score-title")
    assert page.is_visible("#rematch button.rematch-play") and page.is_visible("#review-btn")
    page.reload()                                               # closed, then reloaded: the box shows again
    page.wait_for_selector("#result:not([hidden])")
    assert page.is_hidden("#act-result")
    assert page.errors == []
    context.close()

    context, page, played = finished_duel_in_a_page(chromium, server)
    page.wait_for_selector("#duel-result:not([hidden])")
    assert page.is_hidden("#duel-result-open")
    close_and_reopen(page, "#duel-result", "#duel-result-close", "#duel-result-open", "duel-score-title")
    assert page.is_visible("#duel-rematch button.rematch-play")
    assert page.errors == []
    context.close()


def test_a_long_log_leaves_the_page_as_long_as_the_table(chromium: object,
                                                         serve_process: Callable[..., ServeProcess]) -> None:
    server = serve_process(*SERVE)
    played = played_beside_playwright(server, ["Аня"])
    context, page = new_page(chromium)                          # a spectator: the whole log drawn at once
    page.goto(f"{server.url}?table={played['id']}")
    page.wait_for_selector("#result:not([hidden])")
    page.click("#result-close")
    page.wait_for_selector("#log li .sr-only", state="attached")
    log = page.evaluate("(l => [l.scrollHeight, l.clientHeight])(document.querySelector('#log'))")
    assert log[0] > 2 * log[1], log                            # long enough to scroll
    tall = page.evaluate("""() => [document.documentElement.scrollHeight,
        Math.ceil(document.querySelector('#game').getBoundingClientRect().bottom + scrollY)]""")
    assert tall[0] <= max(tall[1] + 40, page.viewport_size["height"]), tall
    assert page.errors == []
    context.close()


def test_a_spectator_is_told_to_sit_only_where_a_seat_is_free(chromium: object,
                                                              serve_process: Callable[..., ServeProcess]) -> None:
    server = serve_process(*SERVE)
    full, _ = table_with_bots(server.url, "Аня")
    free = httpx.post(f"{server.url}api/tables", json={"name": "Боря"}, timeout=10).json()["id"]
    context, page = new_page(chromium)
    page.goto(f"{server.url}?table={full}")
    page.wait_for_selector("#lobby:not([hidden]) .seat-row.kind-bot")
    assert page.text_content("#lobby-hint").startswith("Вы зритель: все места заняты.")
    assert page.locator(".seat-row button.sit").count() == 0
    page.goto(f"{server.url}?table={free}")
    page.wait_for_selector("#lobby:not([hidden]) .seat-row button.sit")
    assert page.text_content("#lobby-hint").startswith("Вы зритель. Займите свободное место")
    assert page.errors == []
    context.close()


def test_waiting_for_an_offline_player_says_why(chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    server = serve_process(*SERVE)
    created = httpx.post(f"{server.url}api/tables", json={"name": "Аня"}, timeout=10).json()
    table, token = created["id"], created["token"]
    bo = httpx.post(f"{server.url}api/tables/{table}/seats/1", json={"name": "Бо"}, timeout=10).json()["token"]
    for seat in (2, 3):
        httpx.post(f"{server.url}api/tables/{table}/seats/{seat}/bot", json={"bot": "heuristic"},
                   headers={"Authorization": f"Bearer {token}"}, timeout=10)
    context, page = seated(chromium, server.url, table, token)
    page.click("#start-btn")                                    # Bo never came: his seat waits for him
    waiting = "document.querySelector('#status').textContent.startsWith('Ходит Бо…')"
    while not page.evaluate(waiting):
        page.wait_for_function(f"{waiting} || document.querySelector('#hand .card[data-legal=\"true\"]')")
        if not page.evaluate(waiting):
            page.locator('#hand .card[data-legal="true"]').first.click()
    page.wait_for_function(f"{waiting} && !document.querySelector('#hand .card[data-legal=\"true\"]')")
    assert "Бо не в сети: если игрок не вернётся, скоро за него сыграет бот." in page.text_content("#status")
    other, bos_page = new_page(chromium)                        # Bo arrives: the wait is his move again
    sit_at(bos_page, server.url, table, bo, 1)
    bos_page.wait_for_selector('#hand .card[data-legal="true"]')
    page.wait_for_function("!document.querySelector('#status').textContent.includes('не в сети')")
    assert page.text_content("#status").startswith("Ходит Бо…")
    assert page.errors == [] and bos_page.errors == []
    other.close()
    context.close()


#: Each legal card of my hand chosen alone (one task of the page: no move comes
#: between): the status line under each, and whether "Beat" could be pressed.
EACH_CARD_ALONE = """() => [...document.querySelectorAll('#hand .card[data-legal="true"]')].map((card) => {
    const name = card.dataset.card;
    document.querySelector(`#hand .card[data-card="${name}"]`).click();
    const seen = [name, !document.querySelector('#act-play').disabled, document.querySelector('#status').textContent];
    document.querySelector(`#hand .card[data-card="${name}"]`).click();      // chosen again: not chosen
    return seen;
})"""


#: Lead my first legal card, or pass the first NEED face down (in one task of the page).
MOVE_ON = """() => {
    const names = [...document.querySelectorAll('#hand .card[data-legal="true"]')].map((c) => c.dataset.card);
    for (const name of names.slice(0, Math.max(1, NEED))) document.querySelector(`#hand .card[data-card="${name}"]`).click();
    const move = document.querySelector(NEED ? '#act-pass' : '#act-play');
    if (move.disabled) return false;
    move.click();
    return true;
}"""


def test_street_says_why_beat_is_greyed(chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    server = serve_process(*SERVE)
    table, token = street_table_i_lead(server, "random", {"match_target": 40})
    context, page = new_page(chromium)
    sit_at(page, server.url, table, token, 0)
    page.click("#start-btn")
    molodka = "#act-molodka:not([hidden]):not([disabled])"
    note = "не бьёт карты на столе: скиньте рубашкой вверх или выберите заново."
    told = 0
    for _ in range(40):
        page.wait_for_function(f"document.querySelector('#status.my-turn') || document.querySelector('{molodka}')")
        turn = page.evaluate(STREET_TURN, molodka)
        version = turn["version"]
        if not turn["mine"] or turn["molodka"] or turn["selected"]:
            page.wait_for_function("(v) => Number(document.body.dataset.version) > v", arg=version)
            continue
        if turn["need"] == 1:
            seen = at_version(page, version, EACH_CARD_ALONE)
            if seen is None:
                continue                                        # a bot's molodka restarted the trick
            for card, beats, status in seen:
                assert (note in status) != beats, (card, beats, status)
                assert status.startswith("Ваш ход: побейте 1 картой"), status
            told += sum(not beats for _, beats, _ in seen)
            if told and any(beats for _, beats, _ in seen):
                break
        if at_version(page, version, MOVE_ON.replace("NEED", str(turn["need"]))):
            page.wait_for_function("(v) => Number(document.body.dataset.version) > v", arg=version)
    assert told, "never chose a card that does not beat"
    assert page.errors == []
    context.close()


def test_a_refused_number_is_named_as_typed(chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    server = serve_process(*SERVE)
    context, page = new_page(chromium)
    page.goto(server.url)
    page.wait_for_selector("#create-game option", state="attached")
    page.click("#options-summary")
    field = page.locator('#option-list .option[data-option="match_target"] input')
    for typed in ("0", "-3"):
        field.fill(typed)
        field.dispatch_event("change")
        page.wait_for_function("(n) => document.querySelector('#options-check').textContent.endsWith(`(не ${n}).`)",
                               arg=typed)
        assert page.text_content("#options-check").startswith("«штрафных очков до проигрыша»: нужно целое число")
    assert page.errors == []
    context.close()
