"""Private tables (``"private": true`` when a table is made).

* a private table is in no list: not the lobby's open tables, not the finished
  games (and the finished list is still filled up to its ``limit`` with public
  ones when private games are among the newest);
* its invite link works as at any table: a seat, a spectator's view;
* everyone at it sees that it is private (``public()``), and a rematch and a
  restart keep it; ``private`` must be a JSON boolean (one line otherwise);
* in the page (Debian's chromium): the create form's checkbox makes a private
  table whose lobby says so, and which another page's list of open tables
  does not show.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from goat.server.runner import ServerThread
from goat.server.storage import SeatRow, Storage, TableRow

from .conftest import QUICK, Client, Lobby, ServeProcess, auth, play_to_the_end, run
from .test_browser import CHROMIUM, SERVE, chromium, new_page, shot  # noqa: F401 - fixture


async def listed(lobby: Lobby, **params: str) -> list[str]:
    return [t["id"] for t in (await lobby.http.get("/api/tables", params=params)).json()["tables"]]


def test_a_private_table_is_listed_nowhere_but_its_link_works(start_server: Callable[..., ServerThread]) -> None:
    server = start_server()

    async def scenario() -> None:
        lobby = Lobby(server.url)
        hidden = await lobby.create(name="Ann", private=True)
        shown = await lobby.create(name="Bo")
        assert hidden["private"] is True and shown["private"] is False
        ids = await listed(lobby)
        assert shown["id"] in ids and hidden["id"] not in ids
        info = (await lobby.http.get(f"/api/tables/{hidden['id']}")).json()
        assert info["private"] is True and info["status"] == "lobby"
        await lobby.sit(hidden["id"], 1, "Cy")                          # by the link: a seat
        async with Client(server.ws_url, hidden["id"]) as watcher:      # and a spectator's view
            state = await watcher.until(lambda m: m["type"] == "state")
        assert state["private"] is True and state["seats"][1]["name"] == "Cy"
        bad = await lobby.http.post("/api/tables", json={"private": "yes"})   # a strict boolean
        assert bad.status_code == 422 and "private" in bad.json()["error"] and "\n" not in bad.json()["error"]
        await lobby.close()

    run(scenario())


def test_a_finished_private_game_stays_out_of_the_finished_list(start_server: Callable[..., ServerThread]) -> None:
    server = start_server()
    kept: dict[str, str] = {}

    async def before() -> None:
        lobby = Lobby(server.url)
        public, ann = await lobby.with_bots(rules="classic", seed=4, options=QUICK, bot="random")
        private, bo = await lobby.with_bots(rules="classic", seed=5, options=QUICK, bot="random", private=True)
        for table, token in ((public, ann), (private, bo)):
            async with Client(server.ws_url, table, token) as me:
                await lobby.start(table, token)
                await play_to_the_end(me, 0)
        assert await listed(lobby, status="finished") == [public]
        again = (await lobby.http.post(f"/api/tables/{private}/rematch", headers=auth(bo))).json()
        assert again["private"] is True and again["id"] not in await listed(lobby)
        kept.update(private=private, rematch=again["id"], public=public)
        await lobby.close()

    run(before())
    server = start_server.restart(server)   # the same data directory

    async def after() -> None:
        lobby = Lobby(server.url)
        assert kept["rematch"] not in await listed(lobby)              # from storage: still unlisted
        assert await listed(lobby, status="finished") == [kept["public"]]
        await lobby.close()

    run(after())


def test_the_finished_list_is_filled_past_private_games(tmp_path: Path) -> None:
    store = Storage(f"sqlite:///{tmp_path / 'goat.db'}")
    for i in range(7):                          # oldest first: public a0..a2, then private and public mixed
        private = i in (3, 5, 6)
        table_id = f"a{i}"
        store.create_table(TableRow(table_id, "kozel", "classic", {}, 4, str(i), "playing",
                                    {"private": True} if private else {}), [SeatRow(s) for s in range(4)])
        store.finish(table_id, {"result": {"penalty_total": [i, 0]}})
    assert [row.id for row in store.finished(3)] == ["a4", "a2", "a1"]
    assert [row.id for row in store.finished(10)] == ["a4", "a2", "a1", "a0"]
    store.close()


@pytest.mark.slow
@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium "
                    "(apt-get install chromium; .ci/run does it)")
def test_the_form_makes_a_private_table(chromium: object, serve_process: Callable[..., ServeProcess]) -> None:
    server = serve_process(*SERVE)
    context, page = new_page(chromium)
    page.goto(server.url)
    page.fill("#create-name", "Аня")
    page.wait_for_selector("#create-game option", state="attached")
    page.check("#create-private")
    page.click("#create-btn")
    page.wait_for_selector("#lobby:not([hidden])")
    assert "Закрытый стол" in page.text_content("#lobby-options")
    table = re.search(r"table=([0-9a-f]+)", page.url).group(1)
    assert httpx.get(f"{server.url}api/tables/{table}", timeout=10).json()["private"] is True
    shot(page, "private-lobby")
    other_context, other = new_page(chromium)
    public = httpx.post(f"{server.url}api/tables", json={"name": "Бо"}, timeout=10).json()["id"]
    other.goto(server.url)
    other.wait_for_selector(f'#table-list a[href="?table={public}"]')
    assert table not in other.text_content("#table-list")
    assert page.errors == [] and other.errors == []
    other_context.close()
    context.close()
