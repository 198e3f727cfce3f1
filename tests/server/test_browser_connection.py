"""The browser table when the connection drops (Debian's chromium, as
``test_browser.py``), each found by cutting the page's WebSocket with
Playwright's ``route_web_socket``, as a phone changing networks would:

* a move sent as the connection drops (the server never got it) is sent again,
  with the same id and version, once the page is back, and the game goes on —
  the hand is not left disabled waiting for an answer that never comes
  (Kozel's card, Spades' bid, a Yu-Gi-Oh! duel's decision);
* a move the server answers ``duplicate`` (it was applied already: a resend
  that crossed the answer) ends the wait without a toast about it;
* a click while the page has no connection says so instead of doing nothing,
  and so does a chat message sent then (its text stays in the box).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import ServeProcess
from .test_browser import CHROMIUM, SERVE, chromium, new_page, sit_at  # noqa: F401 - fixture
from .test_browser_walk import table_with_bots

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium "
                       "(apt-get install chromium; .ci/run does it)"),
]

#: The page's own decision: a legal card of the hand, a bid, or a duel's decision.
MY_DECISION = ('#hand .card[data-legal="true"], #bid-buttons:not([hidden]) button, '
               '#duel-groups button[data-action]:not([disabled])')


class Wire:
    """The page's WebSocket through Playwright's route: every message passes
    (the page's are kept in ``sent``, one list a connection), except what the
    test asks for: ``drop_next_action`` drops the page's next action and closes
    the connection at once, as a network drop would; ``twice`` passes each action
    to the server twice (the second is answered ``duplicate``)."""

    def __init__(self) -> None:
        self.sent: list[list[dict[str, Any]]] = []
        self.drop_next_action = False
        self.twice = False
        self.dropped: list[dict[str, Any]] = []

    def route(self, ws: Any) -> None:
        server = ws.connect_to_server()
        mine: list[dict[str, Any]] = []
        self.sent.append(mine)

        def from_page(text: str | bytes) -> None:
            message = json.loads(text)
            if message.get("type") == "action" and self.drop_next_action:
                self.drop_next_action = False
                self.dropped.append(message)
                server.close()
                ws.close()
                return
            mine.append(message)
            server.send(text)
            if message.get("type") == "action" and self.twice:
                server.send(text)

        ws.on_message(from_page)

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        """Every message of ``kind`` the server was given, in order."""
        return [m for conn in self.sent for m in conn if m.get("type") == kind]


def at_the_table(chromium: object, url: str, game: str, wire: Wire) -> tuple[Any, Any]:
    """Seat 0's page (through ``wire``) of a started ``game`` against bots, at its first decision."""
    table, token = table_with_bots(url, "Аня", bot="greedy" if game == "yugioh" else "heuristic", game=game)
    context, page = new_page(chromium)
    page.route_web_socket(re.compile(r"/ws/"), wire.route)
    sit_at(page, url, table, token, 0)
    page.wait_for_selector("#start-btn:not([disabled])")
    page.click("#start-btn")
    page.wait_for_selector(MY_DECISION)
    return context, page


def make_my_decision(page: Any) -> int:
    """On my turn, the second bid offered, the first legal card or the duel's first decision; the version it was at."""
    page.wait_for_selector(MY_DECISION)
    version = int(page.get_attribute("body", "data-version"))
    if page.is_visible("#bid-buttons"):
        page.locator("#bid-buttons button").nth(1).click()
    else:
        page.locator(MY_DECISION).first.click()
    return version


def moved_past(page: Any, version: int) -> None:
    page.wait_for_function("(v) => Number(document.body.dataset.version) > v", arg=version)


@pytest.mark.parametrize("game", ["kozel", "spades", "yugioh"])
def test_a_move_lost_with_the_connection_is_sent_again_after_the_reconnect(
        chromium: object, serve_process: Callable[..., ServeProcess], game: str) -> None:
    """The page's move is dropped and the connection closed before the server got
    it: the page reconnects, sees the table where it was, and sends the same move
    (same id, same version); the table goes on and my next move is playable.
    Before, the page waited for an answer to it for ever, its hand disabled."""
    server = serve_process(*SERVE)
    wire = Wire()
    context, page = at_the_table(chromium, server.url, game, wire)
    wire.drop_next_action = True
    version = make_my_decision(page)
    moved_past(page, version)           # the move was made after all
    assert len(wire.dropped) == 1 and len(wire.sent) >= 2
    lost = wire.dropped[0]
    assert lost["version"] == version
    assert [m for m in wire.of_type("action") if m["id"] == lost["id"]] == [lost]   # once, as it was
    version = make_my_decision(page)    # and the game goes on
    moved_past(page, version)
    assert page.is_hidden("#banner")
    assert page.errors == []
    context.close()


def test_a_move_answered_duplicate_ends_the_wait_without_a_toast(
        chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    """A move that reaches the server twice (a resend that crossed its answer) is
    applied once and the second answered ``duplicate``: the page takes the newest
    state (it asks for it) and says nothing; before, it toasted a refusal of a
    move that was made."""
    server = serve_process(*SERVE)
    wire = Wire()
    context, page = at_the_table(chromium, server.url, "kozel", wire)
    wire.twice = True
    version = make_my_decision(page)
    moved_past(page, version)
    for _ in range(600):                # the page asks for the state after the duplicate
        if wire.of_type("sync"):
            break
        page.wait_for_timeout(50)
    assert wire.of_type("sync"), "the page did not take the duplicate's answer as a reason to sync"
    assert page.is_hidden("#toast"), page.text_content("#toast")
    version = make_my_decision(page)    # and the game goes on
    moved_past(page, version)
    assert page.errors == []
    context.close()


def cut_off_at_the_table(chromium: object, serve_process: Callable[..., ServeProcess],
                         key: str) -> tuple[Any, Any, str]:
    """Seat 0's page at a started Kozel table whose server then goes away (the
    page shows its reconnecting banner): (context, page, the page's Russian words
    for ``key``, which its toast should then say)."""
    server = serve_process(*SERVE)
    context, page = at_the_table(chromium, server.url, "kozel", Wire())
    said = page.evaluate("(key) => import('/static/i18n.js').then((m) => m.STRINGS.ru[key])", key)
    assert said.startswith("Нет связи"), said
    server.stop()
    page.wait_for_selector("#banner:not([hidden])")
    return context, page, said


def test_a_click_without_a_connection_says_so(chromium: object,
                                             serve_process: Callable[..., ServeProcess]) -> None:
    """My turn, and the server goes away: a click on a legal card says the move
    was not sent (in the page's language), where it did nothing at all."""
    context, page, said = cut_off_at_the_table(chromium, serve_process, "moveNotSent")
    page.locator('#hand .card[data-legal="true"]').first.click()
    expect(page.locator("#toast")).to_have_text(said)
    assert page.errors == []
    context.close()


def test_a_chat_message_without_a_connection_says_so_and_stays_in_the_box(
        chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    """The server goes away while I type in the table's chat: Enter did nothing and
    said nothing; now it says the message was not sent, and the text is kept."""
    context, page, said = cut_off_at_the_table(chromium, serve_process, "chatNotSent")
    if page.get_attribute("#chat-toggle", "aria-expanded") == "false":
        page.click("#chat-toggle")
    page.fill("#chat-input", "ты тут?")
    page.press("#chat-input", "Enter")
    expect(page.locator("#toast")).to_have_text(said)
    assert page.input_value("#chat-input") == "ты тут?"
    assert page.errors == []
    context.close()


def test_a_page_over_the_cap_of_connections_says_so_and_gets_in_once_a_place_is_free(
        chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    """A server that lets one address hold one connection: a second page from
    this machine is refused (4429) and says why in its banner, in its language,
    without a toast each time it tries again, and waiting longer each time (the
    refused socket opens before it is closed: the wait was reset there, and the
    page knocked twice a second for as long as it stayed open); once the first
    page is closed it connects and the banner goes."""
    server = serve_process(*SERVE, "--connections-per-address", "1")
    table, _token = table_with_bots(server.url, "Аня")
    first_context, first = new_page(chromium)
    first.goto(f"{server.url}?table={table}")
    first.wait_for_selector("#lobby:not([hidden])")
    context, page = new_page(chromium, locale="en-US")
    knocks: list[str] = []
    page.on("websocket", lambda ws: knocks.append(ws.url))
    page.goto(f"{server.url}?table={table}")
    said = page.evaluate("() => import('/static/i18n.js').then((m) => m.STRINGS.en.errorCodes['too-many-connections'])")
    assert said.startswith("Too many connections from your address"), said
    expect(page.locator("#banner")).to_have_text(said)
    before = len(knocks)
    page.wait_for_timeout(4000)           # it tries again meanwhile, and is refused again
    expect(page.locator("#banner")).to_have_text(said)
    # waits of 0.5, 1, 2, 4 s: at most 3 tries in 4 s (every 0.5 s: 8)
    assert 1 <= len(knocks) - before <= 3, knocks
    assert page.is_hidden("#toast"), page.text_content("#toast")
    first_context.close()
    expect(page.locator("#banner")).to_be_hidden(timeout=15_000)
    page.wait_for_selector("#lobby:not([hidden])")
    assert page.errors == [] and first.errors == []
    context.close()
