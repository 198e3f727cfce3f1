"""Housekeeping of a long-running server (``Tables.sweep``).

* a table still in its lobby that nobody has open for ``lobby_idle`` seconds is
  closed: gone from the lobby list, from memory and from storage (every row of
  it), its invite link answers 404; a lobby someone has open stays, however long;
* a lobby change over HTTP alone (no page open) starts the idle time again;
* a reference still held to a closed lobby refuses every change with 410;
* a table in play is never closed, even with nobody connected;
* a finished table nobody has open leaves memory after ``finished_idle``
  seconds and comes back from storage, record and all, when someone opens it;
* a rematch lobby that was abandoned takes its link with it: "play again"
  then makes a new one;
* storage never deletes a table that has started or finished (also on
  PostgreSQL, where the foreign keys are enforced: see ``test_postgres.py``);
* the two settings are checked, and ``goat serve`` takes them.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Callable
from functools import partial
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect

from goat.server.runner import ServerThread
from goat.server.settings import Settings, SettingsError
from goat.server.storage import AsyncStorage, EventRow, SeatRow, Storage, TableRow
from goat.server.tables import LobbyError, Tables

from .conftest import QUICK, Client, Lobby, auth, finish_with_bots, play_to_the_end, run, server_settings

TABLES = ("goat_tables", "goat_seats", "goat_events", "goat_records", "goat_seat_data", "goat_rematches",
          "goat_table_settings")


def rows_of(data_dir: Path, table: str) -> dict[str, int]:
    """How many rows each storage table holds for ``table`` (non-zero counts only)."""
    counts = {}
    with sqlite3.connect(data_dir / "goat.db") as conn:
        for name in TABLES:
            column = "id" if name == "goat_tables" else "table_id"
            n = conn.execute(f"SELECT COUNT(*) FROM {name} WHERE {column} = ?", (table,)).fetchone()[0]
            if name == "goat_rematches":
                n += conn.execute("SELECT COUNT(*) FROM goat_rematches WHERE rematch_id = ?", (table,)).fetchone()[0]
            if n:
                counts[name] = n
    return counts


async def listed(lobby: Lobby) -> list[str]:
    """The ids of the tables in the lobby list."""
    return [t["id"] for t in (await lobby.http.get("/api/tables")).json()["tables"]]


async def nothing_in_memory(lobby: Lobby) -> bool:
    """Whether the server holds no table in memory (``/api/health`` loads none)."""
    return (await lobby.http.get("/api/health")).json()["tables"] == 0


async def eventually(check: Callable[[], object], timeout: float = 15.0) -> None:
    """Wait until ``check()`` (an async callable) is true."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not await check():  # type: ignore[misc]
        assert loop.time() < deadline, "timed out"
        await asyncio.sleep(0.05)


def test_an_abandoned_lobby_is_closed_and_deleted(start_server: Callable[..., ServerThread],
                                                  tmp_path: Path) -> None:
    server = start_server(lobby_idle=0.4, finished_idle=0)

    async def scenario() -> None:
        lobby = Lobby(server.url)
        left = await lobby.create(name="Ann", hints=True)            # made, then nobody opens it
        await lobby.sit(left["id"], 1, "Bob")
        kept = await lobby.create(name="Cy")
        assert rows_of(tmp_path / "data", left["id"]).keys() >= {"goat_tables", "goat_seats",
                                                                  "goat_table_settings"}
        async with Client(server.ws_url, kept["id"], kept["token"]):  # someone has this one open

            async def gone() -> bool:
                return left["id"] not in await listed(lobby)

            await eventually(gone)
            await asyncio.sleep(1.0)                                  # well past the idle time
            assert kept["id"] in await listed(lobby)
        r = await lobby.http.get(f"/api/tables/{left['id']}")
        assert r.status_code == 404 and "\n" not in r.json()["error"]
        assert rows_of(tmp_path / "data", left["id"]) == {}           # every row of it
        assert rows_of(tmp_path / "data", kept["id"])["goat_seats"] == 4
        await lobby.close()

    run(scenario())


def test_a_table_in_play_is_never_closed(start_server: Callable[..., ServerThread]) -> None:
    server = start_server(lobby_idle=0.2, finished_idle=0.2)

    async def scenario() -> None:
        lobby = Lobby(server.url)
        tid, ann = await lobby.with_bots(rules="classic", seed=3)
        await lobby.start(tid, ann)          # Ann never opens the page: her seat waits for her
        await asyncio.sleep(1.5)
        info = (await lobby.http.get(f"/api/tables/{tid}")).json()
        assert info["status"] == "playing"
        assert tid in await listed(lobby)
        await lobby.close()

    run(scenario())


def test_a_finished_table_leaves_memory_and_comes_back(start_server: Callable[..., ServerThread]) -> None:
    server = start_server(lobby_idle=0, finished_idle=0.3)

    async def scenario() -> None:
        lobby = Lobby(server.url)
        tid, ann = await lobby.with_bots(rules="classic", seed=11, options=QUICK, bot="random")
        async with Client(server.ws_url, tid, ann) as me:
            await lobby.start(tid, ann)
            final = await play_to_the_end(me, 0)
            await asyncio.sleep(0.8)
            assert (await lobby.http.get("/api/health")).json()["tables"] == 1   # open: kept
        record = await lobby.record(tid)


        await eventually(partial(nothing_in_memory, lobby))
        info = (await lobby.http.get(f"/api/tables/{tid}")).json()    # loaded again from storage
        assert info["status"] == "finished" and info["seats"][0]["name"] == "Ann"
        assert await lobby.record(tid) == record
        async with Client(server.ws_url, tid) as watcher:
            state = await watcher.until(lambda m: m["type"] == "state")
        assert state["version"] == final["version"] and state["status"] == "finished"
        await lobby.close()

    run(scenario())


def test_a_page_that_says_hello_after_its_table_left_memory_gets_the_table_loaded_again(
        start_server: Callable[..., ServerThread]) -> None:
    """A connection looks its table up when it opens, and the page says hello a
    moment later: a finished table nobody had open could leave memory in
    between, and the hello attached the page to the object let go — a page that
    then heard nothing more (the others' chat, a rematch). The hello now looks
    the table up again (loaded anew from storage) and attaches there."""
    server = start_server(lobby_idle=0, finished_idle=0.3)

    async def scenario() -> None:
        lobby = Lobby(server.url)
        tid, ann = await finish_with_bots(lobby, server, rules="classic", seed=11, options=QUICK, bot="random")
        async with connect(f"{server.ws_url}ws/{tid}") as early:   # opened; hello not said yet
            await eventually(partial(nothing_in_memory, lobby))
            await early.send(json.dumps({"type": "hello", "token": ann}))
            welcome = json.loads(await asyncio.wait_for(early.recv(), 15))
            assert welcome["type"] == "welcome" and welcome["seat"] == 0
            async with Client(server.ws_url, tid, ann) as again:     # another tab of the same seat
                await again.send({"type": "chat", "text": "still here?"})
                while True:
                    message = json.loads(await asyncio.wait_for(early.recv(), 15))
                    if message["type"] == "chat":
                        assert message["text"] == "still here?"
                        break
        await lobby.close()

    run(scenario())


def test_a_hello_after_its_lobby_was_closed_is_told_there_is_no_such_table(
        start_server: Callable[..., ServerThread]) -> None:
    """The same gap with an abandoned lobby: the hello was welcomed at a table
    that no longer exists (every lobby change then refused with 410); it is now
    told there is no such table, as a connection opened a moment later is."""
    server = start_server(lobby_idle=0.3, finished_idle=0)

    async def scenario() -> None:
        lobby = Lobby(server.url)
        left = await lobby.create(name="Ann")

        async def gone() -> bool:
            return left["id"] not in await listed(lobby)

        async with connect(f"{server.ws_url}ws/{left['id']}") as early:   # opened; hello not said yet
            await eventually(gone)
            await early.send(json.dumps({"type": "hello", "token": left["token"]}))
            answer = json.loads(await asyncio.wait_for(early.recv(), 15))
            assert answer["type"] == "error" and answer["code"] == "unknown-table"
            await asyncio.wait_for(early.wait_closed(), 15)
            assert early.close_code == 4404
        await lobby.close()

    run(scenario())


def test_an_abandoned_rematch_takes_its_link_with_it(start_server: Callable[..., ServerThread],
                                                     tmp_path: Path) -> None:
    server = start_server(lobby_idle=0.4, finished_idle=0)

    async def scenario() -> None:
        lobby = Lobby(server.url)
        tid, ann = await lobby.with_bots(rules="classic", seed=5, options=QUICK, bot="random")
        async with Client(server.ws_url, tid, ann) as me:
            await lobby.start(tid, ann)
            await play_to_the_end(me, 0)
            first = (await lobby.http.post(f"/api/tables/{tid}/rematch", headers=auth(ann))).json()
            # nobody opens the rematch's page: it is closed, and the old table is told
            await me.until(lambda m: m["type"] == "state" and m.get("rematch") == first["id"])
            told = await me.until(lambda m: m["type"] == "state" and m.get("rematch") is None, timeout=15)
            assert told["status"] == "finished"
        assert rows_of(tmp_path / "data", first["id"]) == {}
        assert (await lobby.http.get(f"/api/tables/{tid}")).json()["rematch"] is None
        again = await lobby.http.post(f"/api/tables/{tid}/rematch", headers=auth(ann))
        assert again.status_code == 200 and again.json()["id"] != first["id"]
        await lobby.close()

    run(scenario())


def _tables(tmp_path: Path, **settings: float) -> Tables:
    return Tables(server_settings(tmp_path / "data", **settings),
                  AsyncStorage(Storage(f"sqlite:///{tmp_path / 'goat.db'}")))


def test_the_sweep_counts_from_the_last_change_and_a_closed_lobby_refuses_changes(tmp_path: Path) -> None:
    async def scenario() -> None:
        tables = _tables(tmp_path, lobby_idle=100.0, finished_idle=0)
        table = await tables.create("kozel", "classic")
        start = table.idle_since
        assert start is not None
        assert await tables.sweep(start + 99) == (0, 0)               # not yet
        await table.take_seat(0, "Ann")                                # a change over HTTP alone
        assert table.idle_since is not None and table.idle_since >= start
        assert await tables.sweep(table.idle_since + 99) == (0, 0)    # counted from the change
        assert await tables.sweep(table.idle_since + 100) == (1, 0)
        assert table.id not in tables.tables and not await tables.store.exists(table.id)
        with pytest.raises(LobbyError) as refused:                     # a request that still holds it
            await table.take_seat(1, "Bob")
        assert refused.value.status == 410 and "closed" in str(refused.value)
        assert await tables.get(table.id) is None
        await tables.close()
        tables.store.close()

    run(scenario())


def test_storage_deletes_only_a_table_that_never_started(tmp_path: Path) -> None:
    store = Storage(f"sqlite:///{tmp_path / 'goat.db'}")
    for table_id, status in (("a1", "lobby"), ("b2", "playing"), ("c3", "finished")):
        store.create_table(TableRow(table_id, "kozel", "classic", {}, 4, "1", status, {"hints": True}),
                           [SeatRow(i) for i in range(4)])
    store.append_event("b2", EventRow(1, "deal", "{}", "server"))
    store.set_seat_data("a1", 0, '{"main": []}')
    assert store.delete_lobby_table("b2") is False and store.delete_lobby_table("c3") is False
    assert store.load("b2").events and store.load("c3").table.status == "finished"
    assert store.delete_lobby_table("a1") is True
    assert store.load("a1") is None and rows_of(tmp_path, "a1") == {}
    assert store.delete_lobby_table("a1") is False                     # already gone: no error
    store.close()


def test_the_idle_settings_are_checked_and_served() -> None:
    assert Settings().lobby_idle == 3600 and Settings().finished_idle == 300
    for name in ("lobby_idle", "finished_idle"):
        with pytest.raises(SettingsError, match=name.replace("_", "-")):
            Settings(**{name: -1})
    from typer.testing import CliRunner

    from goat.cli.main import app
    result = CliRunner().invoke(app, ["serve", "--lobby-idle", "-5"])
    assert result.exit_code != 0 and "lobby-idle must be a number of seconds >= 0" in result.output
    assert "Traceback" not in result.output


def test_no_housekeeping_when_both_are_off(tmp_path: Path) -> None:
    async def scenario() -> None:
        tables = _tables(tmp_path, lobby_idle=0, finished_idle=0)
        table = await tables.create("kozel", "classic")
        assert await tables.sweep(table.idle_since + 10**9) == (0, 0)
        await asyncio.wait_for(tables.sweep_forever(), 1)              # returns at once: nothing to do
        await tables.close()
        tables.store.close()

    run(scenario())


def test_health_counts_tables_in_memory(start_server: Callable[..., ServerThread]) -> None:
    server = start_server()
    assert httpx.get(f"{server.url}api/health", timeout=10).json() == {"ok": True, "tables": 0}


def test_a_seat_taken_while_the_sweep_waits_for_the_lobby_keeps_the_lobby(tmp_path: Path) -> None:
    """The sweep decides a lobby is abandoned, then waits for its lock to delete it.
    Before, a seat taken meanwhile (over HTTP alone, its write holding the lock) did
    not stop it: the new player's token named a table deleted a moment later. Now
    the sweep deletes a lobby only if nothing changed there since it was judged idle."""
    async def scenario() -> None:
        tables = _tables(tmp_path, lobby_idle=100.0, finished_idle=0)
        table = await tables.create("kozel", "classic")
        assert table.idle_since is not None
        later = table.idle_since + 1000
        async with table.lock:                       # a lobby write under way
            seating = asyncio.ensure_future(table.take_seat(0, "Ann"))
            await asyncio.sleep(0)                   # the seat's request waits for the lock first
            sweeping = asyncio.ensure_future(tables.sweep(later))
            await asyncio.sleep(0)                   # the sweep has judged the lobby idle
        token = await seating
        assert await sweeping == (0, 0)
        assert tables.tables.get(table.id) is table and await tables.store.exists(table.id)
        assert table.seat_of(token) == 0
        await tables.close()
        tables.store.close()

    run(scenario())
