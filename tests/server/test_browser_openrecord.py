"""The home page's "Open a record" in Debian's chromium (as ``test_browser.py``): a
record file written as ``goat play --record`` writes it opens the deal review —
the rows the server's review gives, the seats by the record's names, the player's
seat at the bottom of the diagram — by the keyboard, on a phone too; a file the
server refuses says why beside the control, in the page's language."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from goat.fast.solver import warm_up
from goat.server.runner import ServeProcess

from .test_browser import CHROMIUM, SERVE, chromium, finish_a_quick_match, new_page, shot  # noqa: F401
from .test_review_record import played_file

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium "
                       "(apt-get install chromium; .ci/run does it)"),
]

#: Drop a file of this text and name on the record's box, as a file manager's drag does.
DROP = """([name, text]) => {
  const data = new DataTransfer();
  data.items.add(new File([text], name, { type: "application/json" }));
  const box = document.querySelector('#record-drop');
  box.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
  box.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
}"""


def test_a_record_file_opens_the_deal_review(chromium: object, serve_process: Callable[..., ServeProcess],
                                             tmp_path: Path) -> None:
    server = serve_process(*SERVE)
    path = played_file(tmp_path, "game.json", human=2)              # Ann played at seat 2, bots at the others
    record = json.loads(path.read_text(encoding="utf-8"))
    warm_up()   # the kernel in numba's cache: the server loads it, not compiles it
    review = httpx.post(f"{server.url}api/records/review/1", content=path.read_bytes(), timeout=180).json()
    context, page = new_page(chromium)
    page.goto(server.url)
    page.wait_for_selector("#home:not([hidden])")
    assert page.text_content("#open-record-title") == "Открыть запись партии"
    page.focus("#record-file")                                       # reached by the keyboard: a file input
    page.set_input_files("#record-file", str(path))
    page.wait_for_selector("#review-table:not([hidden]) tbody tr", timeout=180_000)
    assert page.is_visible("#review") and page.is_hidden("#game")
    rows = page.locator("#review-table tbody tr")
    assert rows.count() == len(review["moves"]) > 0
    for i, move in enumerate(review["moves"]):
        cells = rows.nth(i).locator("td").all_text_contents()
        name = "Ann" if move["seat"] == 2 else f"Бот {move['seat'] + 1}"     # the record's seats, as the page names
        assert (cells[0], cells[1]) == (str(move["trick"]), name)
    assert "(вы)" not in page.text_content("#review")                # nobody at this page sat there
    assert page.locator("#review-deal option").count() == len(record["deals"]) == review["deals"]
    assert page.text_content("#review-summary li").startswith("Бот 1 + Ann")    # a pair by its seats' names
    page.locator("#review-table tbody tr button.review-pick").nth(0).focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#review-board:not([hidden]) .board-hand")
    board = page.locator("#review-board")
    position = review["moves"][0]["position"]
    for seat, hand in enumerate(position["hands"]):
        shown = board.locator(f".board-hand[data-seat='{seat}'] .card")
        assert [shown.nth(i).get_attribute("data-card") for i in range(shown.count())] == hand
    assert "pos-bottom" in board.locator(".board-hand[data-seat='2']").get_attribute("class")   # the player's seat
    assert "pos-top" in board.locator(".board-hand[data-seat='0']").get_attribute("class")
    shot(page, "open-record-review")
    if review["deals"] > 1:                                          # another deal, from the same file
        page.select_option("#review-deal", "2")
        page.wait_for_function("() => !document.querySelector('#review-table').hidden"
                               " && document.querySelector('#review-status').textContent === ''", timeout=180_000)
        second = httpx.post(f"{server.url}api/records/review/2", content=path.read_bytes(), timeout=180).json()
        assert rows.count() == len(second["moves"])
    page.set_viewport_size({"width": 390, "height": 844})            # a phone: the panel fits the screen
    assert page.evaluate("() => { const r = document.querySelector('#review').getBoundingClientRect();"
                         " return r.left >= -1 && r.right <= innerWidth + 1; }")
    page.keyboard.press("Escape")
    assert page.is_hidden("#review")
    assert page.evaluate("document.activeElement.id") == "record-file"   # back where it was opened
    stored = httpx.get(f"{server.url}api/tables", params={"status": "finished"}, timeout=10).json()
    assert stored == {"tables": []}                                  # nothing of it kept
    assert page.errors == []
    context.close()


def test_a_refused_record_says_why_beside_the_control(chromium: object, serve_process: Callable[..., ServeProcess],
                                                      tmp_path: Path) -> None:
    server = serve_process(*SERVE)
    context, page = new_page(chromium, locale="en-US")
    page.goto(server.url)
    page.wait_for_selector("#home:not([hidden])")
    page.evaluate(DROP, ["broken.json", '{"game": "kozel",'])          # dropped on the box
    page.wait_for_selector("#record-status.error")
    assert page.text_content("#record-status").startswith("This record cannot be opened: the file: not valid JSON")
    assert page.is_hidden("#review")
    big = tmp_path / "big.json"
    big.write_text(" " * (600 * 1024), encoding="utf-8")
    page.click(".lang[data-lang='ar']")
    page.set_input_files("#record-file", str(big))
    page.wait_for_function("() => document.querySelector('#record-status').textContent.includes('KiB')")
    assert page.text_content("#record-status") == "تعذّر فتح هذا السجل: ملف السجل لا يتجاوز 512 KiB."
    for lang, said in [("bg", "Този запис не може да се отвори: Файлът със запис е най-много 512 KiB."),
                       ("ar", "تعذّر فتح هذا السجل: ملف السجل لا يتجاوز 512 KiB.")]:
        page.click(f".lang[data-lang='{lang}']")                       # the refusal worded again, as the page
        assert page.text_content("#record-status") == said
    page.set_viewport_size({"width": 390, "height": 844})            # a phone, right to left
    page.locator("#record-status").scroll_into_view_if_needed()
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")   # no sideways scroll
    shot(page, "open-record-refused-ar-phone")
    two = tmp_path / "two.jsonl"
    two.write_text(played_file(tmp_path, "a.json", seed=5).read_text() + played_file(tmp_path, "b.json", seed=8)
                   .read_text(), encoding="utf-8")
    warm_up()
    page.set_input_files("#record-file", str(two))                   # several records: a choice of record
    page.wait_for_selector("#review-table:not([hidden]) tbody tr", timeout=180_000)
    assert page.is_visible("#record-pick") and page.locator("#record-pick option").count() == 2
    assert page.is_hidden("#record-status") or page.text_content("#record-status") == ""
    page.keyboard.press("Escape")
    assert page.evaluate("document.activeElement.id") == "record-pick"
    assert page.errors == []
    context.close()


def test_a_finished_table_s_review_goes_with_the_table(chromium: object,
                                                      serve_process: Callable[..., ServeProcess]) -> None:
    """The review panel left the game's section (it reviews opened records over the
    home page too); a finished table's review still goes with its table, as it did
    inside that section: a table gone (its connection closed 4404: a finished table
    dropped from memory while the page was away) brings the home page without it."""
    server = serve_process(*SERVE)
    context, page = new_page(chromium)
    live: list[object] = []

    def through(ws: object) -> None:       # every connection passed on to the server, kept
        ws.connect_to_server()             # type: ignore[attr-defined]
        live.append(ws)

    page.route_web_socket("**/ws/**", through)
    finish_a_quick_match(page, server.url)
    page.click("#review-btn")
    assert page.is_visible("#review")
    live[-1].close(code=4404, reason="unknown table")                # type: ignore[attr-defined]
    page.wait_for_selector("#home:not([hidden])")
    assert page.is_hidden("#review")
    assert page.errors == []
    context.close()
