"""Score sheets in a real browser (Debian's chromium, as ``test_browser.py``):
a quick classic match played to its end shows "Print" and "Download (CSV)"
by the score sheet; printed, the page is the heading, the score sheet and the
result — no felt, no hand, no chat, no buttons; the home page then lists the
game under "Finished games" with its result and links whose CSV downloads
under its own name and parses, in both languages."""

from __future__ import annotations

import csv
import io
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from goat.games import get_game
from goat.records import record_from_state
from goat.server.storage import EventRow, SeatRow, Storage, TableRow
from goat.server.tables import seat_rng

from .conftest import ServeProcess
from .test_browser import CHROMIUM, SERVE, chromium, finish_a_quick_match, new_page, shot  # noqa: F401 - fixture

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium "
                       "(apt-get install chromium; .ci/run does it)"),
]


def test_a_finished_match_prints_its_score_sheet_and_is_listed_as_finished(
        chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    server = serve_process(*SERVE)
    context, page = new_page(chromium)
    table = finish_a_quick_match(page, server.url)
    links = page.locator("#game .sheet-links")
    assert links.locator(".sheet-print").text_content() == "Печать"
    assert links.locator(".sheet-csv").text_content() == "Скачать (CSV)"
    assert links.locator(".sheet-csv").get_attribute("href") == f"api/tables/{table}/scoresheet.csv"
    assert page.is_visible("#hand") and page.is_visible(".felt")

    page.emulate_media(media="print")
    assert page.is_hidden("#hand") and page.is_hidden(".felt") and page.is_hidden("#log")
    assert page.is_hidden("#chat") and page.is_hidden("#game .sheet-links") and page.is_hidden(".langs")
    assert page.locator("#game button:visible").count() == 0
    assert page.is_visible("#score") and page.locator("#score tbody tr.deal-row").count() >= 1
    head = page.text_content("#game .print-head")
    assert page.is_visible("#game .print-head") and "Козёл" in head and table in head and "Аня" in head
    assert page.is_visible("#result-text") and "коз" in page.text_content("#result-text").lower()
    shot(page, "print-score-sheet")
    page.emulate_media(media="screen")
    assert page.is_visible("#hand")

    page.goto(server.url)                              # home: the finished games
    item = page.locator(f'#finished-list li[data-table="{table}"]')
    item.wait_for()
    assert page.locator("h2", has_text="Сыгранные партии").count() == 1
    assert "Аня" in item.text_content() and "козлы" in item.locator(".finished-result").text_content()
    hrefs = item.locator("a").evaluate_all("links => links.map(a => a.getAttribute('href'))")
    assert hrefs == [f"?table={table}", f"api/tables/{table}/record", f"api/tables/{table}/scoresheet.csv",
                     f"?table={table}&review=1"]
    with page.expect_download() as download_info:
        item.locator("a", has_text="CSV").click()
    download = download_info.value
    assert download.suggested_filename == f"goat-kozel-classic-{table}.csv"
    data = open(download.path(), "rb").read()
    assert data.startswith(b"\xef\xbb\xbf")
    rows = list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"))))
    assert rows and rows[0]["deal"] == "1" and {r["table"] for r in rows} == {table}
    record = httpx.get(f"{server.url}api/tables/{table}/record", timeout=10).json()
    assert [int(r["total 0+2"]) for r in rows][-1] == record["result"]["penalty_total"][0]
    shot(page, "finished-games")

    page.click(".lang[data-lang='en']")
    page.wait_for_function("document.documentElement.lang === 'en'")
    assert page.locator("h2", has_text="Finished games").count() == 1
    item.locator("a", has_text="watch").click()        # watch: the table page shows the end
    page.wait_for_selector("#game:not([hidden])")
    page.wait_for_selector("#result:not([hidden])")
    assert page.locator("#game .sheet-csv").text_content() == "Download (CSV)"
    page.goto(f"{server.url}?table={table}&review=1")   # review: the table page opens its review
    page.wait_for_selector("#review:not([hidden])")
    assert page.is_hidden("#result")
    assert page.errors == []
    context.close()


def _stored_match_with_eggs(data_dir: Path) -> tuple[str, list[str | None]]:
    """A finished classic match under ``eggs=double-next`` put straight into
    the server's database, as the server stores one (a deal event, then its
    actions): random play until a tie has doubled a later deal's penalty and
    the match is over. Returns the table id and the engine's marks."""
    options = {"eggs": "double-next", "match_target": 12}
    table = "e66e66e66e"
    state = _store_random_match(data_dir, table, "kozel", "classic", options, random.Random(18))
    marks = [d.get("eggs") for d in state.deal_results]
    assert "doubled" in marks, "no doubled deal in this match: pick another seed"
    return table, marks


def _store_random_match(data_dir: Path, table: str, game: str, rules: str, options: dict[str, Any],
                        rng: random.Random) -> Any:
    """A match of ``game`` played by random moves to its end and stored as the
    server stores one (table seed "1": its first dealer), finished; returns the state."""
    module = get_game(game)
    first_dealer = seat_rng("1", "first-dealer").randrange(4)   # as the server deals seed "1"
    state = module.new_state(rules, options=options, first_dealer=first_dealer)
    events: list[EventRow] = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance(state.sample_chance(rng))
            deal = dict(state.deal_log()[-1])
            deal.pop("actions")
            events.append(EventRow(len(events) + 1, "deal", json.dumps(deal), "server"))
        else:
            action = rng.choice(state.legal_actions())
            state.apply_action(action)
            events.append(EventRow(len(events) + 1, "action", str(action), f"seat {action.seat}"))
    data_dir.mkdir(exist_ok=True)
    store = Storage(f"sqlite:///{data_dir / 'goat.db'}")
    store.create_table(TableRow(table, game, rules, options, 4, "1", "playing"),
                       [SeatRow(i, "bot", f"bot {i}", "random") for i in range(4)])
    for event in events[:-1]:
        store.append_event(table, event)
    store.append_event(table, events[-1], record=record_from_state(state))
    store.set_status(table, "finished")
    store.close()
    return state


def test_the_spades_sheet_says_which_bag_penalty_a_score_holds(
        chromium: object, serve_process: Callable[..., ServeProcess], tmp_path: Path) -> None:
    """A deal scored "−69, bags +11" on the page's sheet without the 100 that
    10 bags cost: each penalty a deal's score holds is named under it, in both
    languages, as on the CSV's notes."""
    table = "ba9ba9ba9b"
    state = _store_random_match(tmp_path / "data", table, "spades", "standard", {"max_deals": 3, "bag_limit": 3},
                                random.Random(5))
    paid = state.view(None)["deal_bag_penalties"]
    assert any(any(p) for p in paid) and not all(all(p) for p in paid), "pick another seed"
    server = serve_process(*SERVE)
    context, page = new_page(chromium, locale="en-US")
    page.goto(f"{server.url}?table={table}")
    page.wait_for_selector("#result:not([hidden])")
    rows = page.locator("#score tbody tr.deal-row")
    assert rows.count() == len(paid)
    for i, counts in enumerate(paid):
        for team, n in enumerate(counts):
            cell = rows.nth(i).locator("td").nth(team)
            shown = cell.locator(".paid").all_text_contents()
            assert shown == ([f"−{100 * n} for {3 * n} bags"] if n else []), (i, team, shown)
    page.click(".lang[data-lang='ru']")
    page.wait_for_function("document.documentElement.lang === 'ru'")
    assert f"за {3 * max(max(p) for p in paid)} мешк" in page.text_content("#score")
    shot(page, "spades-bag-penalty-sheet")
    assert page.errors == []
    context.close()


def test_the_printed_sheet_says_which_penalty_eggs_doubled(
        chromium: object, serve_process: Callable[..., ServeProcess], tmp_path: Path) -> None:
    """Under ``eggs=double-next`` the page's score sheet (the one a club prints)
    notes the 60–60 deal that owes a doubling and the deal whose penalty it
    doubled, as the CSV does, in both languages: a 4 in ``flat2`` is explained
    on paper too."""
    table, marks = _stored_match_with_eggs(tmp_path / "data")
    server = serve_process(*SERVE)
    context, page = new_page(chromium, locale="en-US")
    page.goto(f"{server.url}?table={table}")
    page.wait_for_selector("#result:not([hidden])")
    page.emulate_media(media="print")
    rows = page.locator("#score tbody tr.deal-row")
    assert rows.count() == len(marks)
    notes = [rows.nth(i).get_attribute("title") or "" for i in range(len(marks))]
    for note, mark in zip(notes, marks):
        assert ("penalty doubled (eggs)" in note) == (mark == "doubled"), (note, mark)
        assert ("the next decided deal's penalty is doubled" in note) == (mark == "tie"), (note, mark)
    assert "penalty doubled (eggs)" in page.text_content("#score")
    csv_text = httpx.get(f"{server.url}api/tables/{table}/scoresheet.csv", timeout=10).text
    doubled = [int(r["deal"]) for r in csv.DictReader(io.StringIO(csv_text.lstrip("\ufeff")))
               if "penalty doubled (eggs)" in r["notes"]]
    assert doubled == [n for n, mark in enumerate(marks, 1) if mark == "doubled"]
    page.emulate_media(media="screen")
    page.click(".lang[data-lang='ru']")
    page.wait_for_function("document.documentElement.lang === 'ru'")
    assert "штраф удвоен (яйца)" in page.text_content("#score")
    shot(page, "eggs-doubled-sheet")
    assert page.errors == []
