"""The browser table in a real browser: Debian's chromium driven by Playwright
against ``goat serve`` in a subprocess.

* create a table in the page, seat one person and three bots, play a whole
  classic deal by clicking (and, once, keyboarding) legal cards, and watch the
  score sheet gain the deal;
* close the page mid-game and open it again: the same seat comes back (its
  token is in the browser's storage) and play goes on;
* street: choose several cards, beat or pass them face down.

Screenshots of the table are written to ``tests/artifacts/`` (or
``$GOAT_TEST_ARTIFACTS``). Playwright's own browser download does not work on
these machines, so the tests need ``/usr/bin/chromium`` (``.ci/run`` installs it).
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from goat.server.tables import seat_rng

from .conftest import ServeProcess

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--mute-audio"]
ARTIFACTS = Path(os.environ.get("GOAT_TEST_ARTIFACTS") or Path(__file__).resolve().parents[1] / "artifacts")
SERVE = ("--bot-delay", "0.05", "--deal-pause", "0.6", "--rate-limit", "200")
WAIT = 30_000  # ms

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium "
                       "(apt-get install chromium; .ci/run does it)"),
]


@pytest.fixture(scope="module")
def chromium() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        yield browser
        browser.close()


def shot(page: object, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)  # type: ignore[attr-defined]
    assert path.stat().st_size > 10_000
    return path


def new_page(browser: object, context: object | None = None, locale: str = "ru-RU") -> tuple[object, object]:
    context = context or browser.new_context(viewport={"width": 1280, "height": 900}, locale=locale)  # type: ignore
    page = context.new_page()  # type: ignore[attr-defined]
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors
    page.set_default_timeout(WAIT)
    return context, page


def create_with_bots(page: object, url: str, rules: str = "classic", bot: str = "heuristic") -> str:
    """Create a table in the page, sit at seat 0, fill seats 1-3 with bots; returns the table id."""
    page.goto(url)
    page.fill("#create-name", "Аня")
    page.select_option("#create-rules", rules)
    page.click("#create-btn")
    page.wait_for_selector("#lobby:not([hidden])")
    page.wait_for_function("document.querySelector('#bot-kind').options.length > 1")
    page.select_option("#bot-kind", bot)
    for seat in (1, 2, 3):
        page.click(f'.seat-row[data-seat="{seat}"] .add-bot')
        page.wait_for_selector(f'.seat-row[data-seat="{seat}"].kind-bot')
    assert page.is_enabled("#start-btn")
    return re.search(r"table=([0-9a-f]+)", page.url).group(1)


MY_TURN_OR = """(rows) => document.querySelector('#hand .card[data-legal="true"]')
    || document.querySelectorAll('#score tbody tr.deal-row').length >= rows"""


def deal_rows(page: object) -> int:
    return page.locator("#score tbody tr.deal-row").count()


def test_a_classic_deal_against_three_bots(chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    server = serve_process(*SERVE)
    context, page = new_page(chromium)
    table = create_with_bots(page, server.url)
    shot(page, "lobby")
    page.click("#start-btn")
    page.wait_for_selector("#game:not([hidden])")
    page.wait_for_selector("#hand .card")
    trump = page.text_content("#trump")
    assert "♣" in trump and "C" in trump                      # trump shown, symbol and letter
    assert page.get_attribute("#log", "aria-live") == "polite"

    clicks = keyboard = 0
    last_trick_seen = False
    while deal_rows(page) == 0:
        page.wait_for_function(MY_TURN_OR, arg=1)
        if deal_rows(page):
            break
        cards = page.locator("#hand .card")
        legal = page.locator('#hand .card[data-legal="true"]')
        for i in range(cards.count()):              # a dimmed card is never a legal one, and vice versa
            card = cards.nth(i)
            assert (card.get_attribute("data-legal") == "true") != ("illegal" in card.get_attribute("class"))
        if keyboard == 0:                            # once with the keyboard alone: arrows, then Enter
            target = [cards.nth(i).get_attribute("data-card") for i in range(cards.count())].index(
                legal.first.get_attribute("data-card"))
            page.focus('#hand .card[tabindex="0"]')
            page.keyboard.press("Home")
            for _ in range(target):
                page.keyboard.press("ArrowRight")
            assert page.evaluate("document.activeElement.dataset.card") == legal.first.get_attribute("data-card")
            version = int(page.get_attribute("body", "data-version"))
            page.keyboard.press("Enter")
            keyboard += 1
            page.wait_for_function("(v) => Number(document.body.dataset.version) > v", arg=version)
        else:
            legal.first.click()
        clicks += 1
        if not last_trick_seen and page.locator("#log li", has_text="Взятка →").count():
            page.click("#last-trick-btn")             # the last trick on demand
            assert page.get_attribute("#last-trick-btn", "aria-expanded") == "true"
            assert page.locator("#last-trick .last-row").count() == 4
            assert "взял(а)" in page.text_content("#last-trick")
            shot(page, "classic-mid-deal")
            last_trick_seen = True
    assert clicks >= 1 and keyboard == 1   # (the shamok catching the queen can end a deal early)
    row = page.locator("#score tbody tr.deal-row").first
    cells = [row.locator("td").nth(i).text_content() for i in range(2)]
    points = [int(re.match(r"\d+", c).group()) for c in cells]
    assert sum(points) == 120 or page.locator("#score .note-row").count() == 1  # the shamok ends a deal early
    assert re.search(r"\d+ / 12", page.text_content("#score tfoot"))
    log = page.locator("#log li").all_text_contents()
    assert sum("Аня (вы)" in line for line in log) >= clicks          # every card I played is in the log
    assert any(line.startswith("Сдача 1: очки") for line in log)      # and the deal's result
    shot(page, "classic-score-sheet")

    page.click(".lang[data-lang='en']")
    page.wait_for_function("document.documentElement.lang === 'en'")
    assert "Score sheet" in page.text_content("aside")
    shot(page, "classic-english")

    page.set_viewport_size({"width": 390, "height": 844})   # a phone
    page.wait_for_timeout(200)
    assert page.evaluate("document.documentElement.scrollWidth") <= 392
    felt, score = page.locator(".felt").bounding_box(), page.locator("#score").bounding_box()
    assert score["y"] > felt["y"] + felt["height"]           # the side panel moves below the table
    shot(page, "classic-mobile")
    assert page.errors == []
    info = httpx.get(f"{server.url}api/tables/{table}", timeout=10).json()
    assert info["status"] == "playing" and info["seats"][0]["name"] == "Аня"
    context.close()


def test_reconnect_after_closing_the_page(chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    server = serve_process(*SERVE)
    context, page = new_page(chromium)
    table = create_with_bots(page, server.url)
    page.click("#start-btn")
    page.wait_for_selector('#hand .card[data-legal="true"]')
    page.locator('#hand .card[data-legal="true"]').first.click()
    page.wait_for_function("document.querySelectorAll('#log li').length >= 2")
    page.close()

    def seat0() -> dict:
        return httpx.get(f"{server.url}api/tables/{table}", timeout=10).json()["seats"][0]

    for _ in range(100):      # the server notices the page is gone
        if not seat0()["connected"]:
            break
        time.sleep(0.1)
    assert seat0()["connected"] is False and seat0()["autoplay"] is False   # the seat is kept (grace period)

    _, page = new_page(chromium, context)          # same browser profile: the seat's token is still there
    page.goto(f"{server.url}?table={table}")
    page.wait_for_selector("#game:not([hidden])")
    page.wait_for_selector(".seat-box.me")
    assert "Аня" in page.text_content(".seat-box.me") and page.locator("#hand .card").count() >= 1
    assert seat0()["connected"] is True
    page.wait_for_selector('#hand .card[data-legal="true"]')
    before = page.locator("#log li").count()
    card = page.locator('#hand .card[data-legal="true"]').first.get_attribute("data-card")
    page.locator('#hand .card[data-legal="true"]').first.click()
    rank = "10" if card[0] == "T" else card[0]
    page.wait_for_function("([n, text]) => [...document.querySelectorAll('#log li')].slice(n)"
                           ".some(li => li.textContent.includes(text))", arg=[before, f"Аня (вы): {rank}"])
    shot(page, "reconnected")
    assert page.errors == []
    context.close()


def test_street_multi_card_beats_and_face_down_passes(chromium: object,
                                                       serve_process: Callable[..., ServeProcess]) -> None:
    server = serve_process(*SERVE)
    # Seat 0 sits left of the first dealer, so it leads the first trick; a long match.
    seed = next(s for s in range(100) if seat_rng(str(s), "first-dealer").randrange(4) == 3)
    created = httpx.post(f"{server.url}api/tables", json={"rules": "street", "name": "Аня", "seed": seed,
                                                        "options": {"match_target": 40}}, timeout=10).json()
    table, token = created["id"], created["token"]
    for seat in (1, 2, 3):
        httpx.post(f"{server.url}api/tables/{table}/seats/{seat}/bot", json={"bot": "random"},
                   headers={"Authorization": f"Bearer {token}"}, timeout=10)
    context, page = new_page(chromium, locale="en-US")
    page.goto(server.url)
    page.evaluate("([id, token]) => localStorage.setItem(`goat:token:${id}`, JSON.stringify({token, seat: 0}))",
                  [table, token])
    page.goto(f"{server.url}?table={table}")
    page.click("#start-btn")
    page.wait_for_selector("#game:not([hidden])")
    passed = led = 0
    for _ in range(40):
        if passed and led:
            break
        page.wait_for_function("document.querySelector('#status.my-turn') || "
                               "document.querySelector('#act-molodka:not([hidden])')")
        if page.is_visible("#act-molodka"):
            shot(page, "street-molodka")
            page.click("#act-molodka")
            page.wait_for_selector("#act-molodka", state="hidden")
            continue
        plays = page.locator("#trick .play")
        version = int(page.get_attribute("body", "data-version"))
        if plays.count() == 0:                        # lead: choose one card, then "Lead"
            page.locator('#hand .card[data-legal="true"]').first.click()
            assert page.get_attribute("#hand .card.selected", "aria-pressed") == "true"
            page.click("#act-play")
            led += 1
        else:                                         # answer with as many cards as were led
            need = plays.first.locator(".card").count()
            for i in range(need):
                page.locator('#hand .card[data-legal="true"]:not(.selected)').first.click()
            if page.locator("#trick .play").first.locator(".card").count() != need:
                continue                              # a bot's molodka restarted the trick meanwhile
            assert page.locator("#hand .card.selected").count() == need
            shot(page, "street-selection")
            log = page.locator("#log li").count()
            page.click("#act-pass")                   # a pass is always allowed
            page.wait_for_function("(v) => Number(document.body.dataset.version) > v", arg=version)
            passed += any(line.startswith(f"Аня (you) passes {need} card")
                          for line in page.locator("#log li").all_text_contents()[log:])
        page.wait_for_function("(v) => Number(document.body.dataset.version) > v", arg=version)
    assert passed and led
    shot(page, "street")
    assert page.errors == []
    context.close()
