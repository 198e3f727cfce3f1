"""The browser table served under a path (``goat serve --base-path /club``), as a
reverse proxy that passes its path on serves it: the page, its scripts, the
lobby, the live connection, the invite link and the record all stay under
``/club/`` (the page once asked the server's root for every one of them)."""

from __future__ import annotations

import re
from collections.abc import Callable

import httpx
import pytest

from .conftest import ServeProcess
from .test_browser import (CHROMIUM, MY_TURN_OR, SERVE, chromium, create_with_bots,  # noqa: F401 - fixture
                           new_page, play_a_legal_card)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium "
                       "(apt-get install chromium; .ci/run does it)"),
]


def test_a_deal_at_a_server_under_a_base_path(chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    server = serve_process(*SERVE, "--base-path", "/club")
    assert server.url.endswith("/club/")
    context, page = new_page(chromium, locale="en-GB")
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    table = create_with_bots(page, server.url)
    assert page.input_value("#invite-link") == f"{server.url}?table={table}"
    page.click("#start-btn")
    page.wait_for_selector("#game:not([hidden])")
    page.wait_for_function(MY_TURN_OR, arg=1)
    version = int(page.get_attribute("body", "data-version"))
    play_a_legal_card(page, by_keyboard=False)        # through the live connection at /club/ws/...
    page.wait_for_function("(v) => Number(document.body.dataset.version) > v", arg=version)
    info = httpx.get(f"{server.url}api/tables/{table}", timeout=20).json()
    assert info["status"] == "playing" and info["version"] >= version + 1
    assert page.eval_on_selector("a[data-i18n='newTable']", "a => a.href") == server.url
    root = server.url.removesuffix("club/")
    outside = [url for url in asked if url.startswith(root) and not url.startswith(server.url)]
    assert outside == [] and page.errors == []
    context.close()
