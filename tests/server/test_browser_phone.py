"""The table on a phone (390x844, the size of a common phone), as its player
sees it: a finished match's result box uses the screen's width instead of the
half of it that ``left: 50%`` leaves a shrink-to-fit box (its buttons each
wrapped to two or three lines, "Скачать запись партии" on three)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable

import pytest

from .conftest import Lobby, ServeProcess, finish_with_bots
from .test_browser import CHROMIUM, SERVE, chromium, new_page, shot, sit_at  # noqa: F401

PHONE = {"width": 390, "height": 844}

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium"),
]


def finished_spades_match(server: ServeProcess) -> tuple[str, str]:
    """A one-deal Spades match of me and three bots played to its end over the
    WebSocket (in its own event loop, beside Playwright's); its id and my token."""
    played: dict[str, str] = {}

    async def play() -> None:
        lobby = Lobby(server.url)
        played["id"], played["token"] = await finish_with_bots(lobby, server, game="spades", rules="standard",
                                                               options={"max_deals": 1})
        await lobby.close()

    worker = threading.Thread(target=lambda: asyncio.run(play()))
    worker.start()
    worker.join(300)
    assert played, "the match did not end"
    return played["id"], played["token"]


def test_the_result_box_uses_a_phones_width(chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    server = serve_process(*SERVE)
    table, token = finished_spades_match(server)
    context = chromium.new_context(viewport=PHONE, locale="ru-RU")  # type: ignore[attr-defined]
    context, page = new_page(chromium, context)
    sit_at(page, server.url, table, token, 0)
    box = page.locator("#result:not([hidden])")
    box.wait_for()
    shot(page, "phone-result-ru")
    width = box.bounding_box()["width"]
    assert width > 0.75 * PHONE["width"], width                   # not squeezed into the right half
    left, right = page.evaluate("() => { const b = document.querySelector('#result').getBoundingClientRect();"
                                " return [b.left, b.right]; }")
    assert left >= 0 and right <= PHONE["width"]                  # and still all on the screen
    for button in page.locator("#result .row > :visible").all():  # each button's label on one line
        height = button.bounding_box()["height"]
        line = float(button.evaluate("e => parseFloat(getComputedStyle(e).lineHeight) || 20"))
        assert height < 2 * line + 16, (button.text_content(), height)
    assert page.errors == []
    context.close()
