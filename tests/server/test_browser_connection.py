"""The browser table when the connection drops (Debian's chromium, as
``test_browser.py``), each found by cutting the page's WebSocket with
Playwright's ``route_web_socket``, as a phone changing networks would:

* a move sent as the connection drops (the server never got it) is sent again,
  with the same id and version, once the page is back, and the game goes on —
  the hand is not left disabled waiting for an answer that never comes
  (Kozel's card, Spades' bid);
* a move the server answers ``duplicate`` (it was applied already: a resend
  that crossed the answer) ends the wait without a toast about it;
* a click while the page has no connection says so instead of doing nothing.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest

from .conftest import ServeProcess
from .test_browser import CHROMIUM, SERVE, chromium, new_page, sit_at  # noqa: F401 - fixture
from .test_browser_walk import table_with_bots

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium "
                       "(apt-get install chromium; .ci/run does it)"),
]

#: The page's own decision: a legal card of the hand, or a bid.
MY_DECISION = '#hand .card[data-legal="true"], #bid-buttons:not([hidden]) button'


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

    def actions(self) -> list[dict[str, Any]]:
        """Every action the server was given, in order."""
        return [m for conn in self.sent for m in conn if m.get("type") == "action"]


def make_my_decision(page: Any) -> int:
    """On my turn, bid (the second bid offered) or play the first legal card; the version it was at."""
    page.wait_for_selector(MY_DECISION)
    version = int(page.get_attribute("body", "data-version"))
    if page.is_visible("#bid-buttons"):
        page.locator("#bid-buttons button").nth(1).click()
    else:
        page.locator('#hand .card[data-legal="true"]').first.click()
    return version


def moved_past(page: Any, version: int) -> None:
    page.wait_for_function("(v) => Number(document.body.dataset.version) > v", arg=version)


@pytest.mark.parametrize("game", ["kozel", "spades"])
def test_a_move_lost_with_the_connection_is_sent_again_after_the_reconnect(
        chromium: object, serve_process: Callable[..., ServeProcess], game: str) -> None:
    """The page's move is dropped and the connection closed before the server got
    it: the page reconnects, sees the table where it was, and sends the same move
    (same id, same version); the table goes on and my next move is playable."""
    server = serve_process(*SERVE)
    table, token = table_with_bots(server.url, "Аня", game=game)
    wire = Wire()
    context, page = new_page(chromium)
    page.route_web_socket(re.compile(r"/ws/"), wire.route)
    sit_at(page, server.url, table, token, 0)
    page.wait_for_selector("#start-btn:not([disabled])")
    page.click("#start-btn")
    page.wait_for_selector(MY_DECISION)
    wire.drop_next_action = True
    version = make_my_decision(page)
    moved_past(page, version)           # the move was made after all
    assert len(wire.dropped) == 1 and len(wire.sent) >= 2
    lost = wire.dropped[0]
    assert lost["version"] == version
    resent = [m for m in wire.actions() if m["id"] == lost["id"]]
    assert resent == [lost]             # once, exactly as it was
    version = make_my_decision(page)    # and the game goes on
    moved_past(page, version)
    assert page.is_hidden("#banner")
    assert page.errors == []
    context.close()
