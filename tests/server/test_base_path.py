"""The tables under a path of their own (``goat serve --base-path /club``), for a
reverse proxy that serves them at ``https://club.example/club/``; and every URL
the page uses is relative to its folder, so a proxy that strips its path works
without the setting (:mod:`goat.server.base_path`)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from goat.cli.main import app
from goat.server.base_path import normal_base_path
from goat.server.runner import ServerThread

from .conftest import Client, Lobby

STATIC = Path(__file__).resolve().parents[2] / "src" / "goat" / "server" / "static"


@pytest.mark.parametrize(("given", "normal"), [("", ""), ("/", ""), ("club", "/club"), ("/club/", "/club"),
                                               ("//club//tables/", "/club/tables"), ("a.b~c-d_e", "/a.b~c-d_e")])
def test_a_base_path_is_normalised(given: str, normal: str) -> None:
    assert normal_base_path(given) == normal


def test_a_base_path_that_is_no_url_path_is_one_line(tmp_path: Path) -> None:
    for bad in ("/a b", "/club?x=1", "/../etc", "/клуб", "/%2e"):
        result = CliRunner().invoke(app, ["serve", "--port", "0", "--data-dir", str(tmp_path), "--base-path", bad])
        assert result.exit_code == 2, (bad, result.output)
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: --base-path must be URL path segments"), (bad, lines)


def test_a_server_under_a_base_path_serves_the_page_the_lobby_and_the_tables_there(
        start_server: Callable[..., ServerThread]) -> None:
    server = start_server(base_path="club/")
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/club/", server.url)
    root = server.url.removesuffix("club/")
    for bare in ("", "club"):          # what a person may type: to the page, whose relative URLs need the slash
        answer = httpx.get(root + bare, timeout=20)
        assert answer.status_code == 307 and answer.headers["location"] == "/club/", bare
    page = httpx.get(server.url, timeout=20)
    assert page.status_code == 200 and 'src="static/app.js"' in page.text
    assert httpx.get(server.url + "static/app.js", timeout=20).status_code == 200
    outside = httpx.get(root + "api/games", timeout=20)                       # nothing else at the root,
    assert outside.status_code == 404 and outside.json() == {                  # said as the app says it
        "error": "nothing at /api/games: the tables are at /club/"}
    inside = httpx.get(server.url + "api/nothing", timeout=20)                 # the app's own 404 within
    assert inside.status_code == 404 and set(inside.json()) == {"error"}
    big = httpx.post(server.url + "api/records/review/1", content=b" " * (2 * 1024 * 1024), timeout=20)
    assert big.status_code == 413 and big.json()["say"] == "recordTooLarge"   # its own limit there too

    async def play() -> None:
        lobby = Lobby(server.url)
        try:
            created = await lobby.create(name="P0", players=4)
            assert created["url"] == f"{server.url}?table={created['id']}"    # the lobby names the page there
            tokens = [created["token"]] + [await lobby.sit(created["id"], s, f"P{s}") for s in (1, 2, 3)]
            await lobby.start(created["id"], tokens[0])
            async with Client(server.ws_url, created["id"], tokens[0]) as client:
                assert client.welcome["type"] == "welcome" and client.welcome["seat"] == 0
        finally:
            await lobby.close()

    asyncio.run(play())


#: A URL written from the server's root in the page's code ("/api/...", `/?table=`,
#: href="/static/..."): it would miss the tables served under a path.
ROOT_URL = re.compile(r"""["'`]/(?!/)[A-Za-z?]""")


def test_every_url_of_the_page_is_relative_to_its_folder() -> None:
    """The page once wrote ``/api/...``, ``/ws/...`` and ``/?table=...``: served at
    ``/club/`` behind a proxy, it asked the proxy's root for everything."""
    found = [f"{path.name}:{n}: {line.strip()}" for path in sorted(STATIC.glob("*.*")) if path.suffix in (".js", ".html")
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if ROOT_URL.search(line)]
    assert found == []


def test_the_base_path_comes_from_the_environment_unless_given() -> None:
    from goat.server.settings import Settings

    assert Settings.from_env({"GOAT_BASE_PATH": "goat/"}).base_path == "/goat"
    assert Settings.from_env({"GOAT_BASE_PATH": "goat/"}, base_path="/club").page_path == "/club/"
    assert Settings.from_env({}).page_path == "/"
