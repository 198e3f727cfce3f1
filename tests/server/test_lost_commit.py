"""A write whose COMMIT went through but whose answer was lost (a database
restart or a network cut at that moment) counts as written.

Reported as failed, such a write left the table's version in memory one behind
its log: the player was told "not applied", and every later write at that
version collided with the stored event ("duplicate key") until the server was
restarted — the table was frozen. Now the appending writes look for what they
wrote on a new connection before calling it failed
(:meth:`goat.server.storage.Storage._unless_stored`). The fault is injected
at the one place a real one strikes: after the transaction's commit, before
its answer (``Storage._begin``).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from goat.records import check_result, replay
from goat.server.runner import ServerThread
from goat.server.settings import Settings
from goat.server.storage import AsyncStorage, EventRow, SeatRow, Storage, StorageError, TableRow
from goat.server.tables import Tables

from .conftest import (
    TIMEOUT,
    Client,
    Lobby,
    auth,
    finish_with_bots,
    my_turn,
    one_line,
    play_to_the_end,
    run,
    server_settings,
)

LOST = "database error: server closed the connection unexpectedly"


class Faults:
    """Armed, the next transaction of a :class:`Storage` fails after (``lose``)
    or before (``refuse``) its commit, with the error a dropped connection gives."""

    def __init__(self) -> None:
        self.armed: str | None = None
        self.struck = 0

    def arm(self, how: str) -> None:
        self.armed = how

    def wrap(self, real: Callable[[Storage], Any]) -> Callable[[Storage], Any]:
        faults = self

        @contextmanager
        def begin(store: Storage) -> Iterator[Any]:
            how, faults.armed = faults.armed, None
            if how is None:
                with real(store) as conn:
                    yield conn
                return
            faults.struck += 1
            if how == "refuse":
                with pytest.raises(RuntimeError), real(store) as conn:
                    yield conn
                    raise RuntimeError("rolled back")    # the transaction never commits
                raise StorageError(LOST)
            with real(store) as conn:
                yield conn
            raise StorageError(LOST)                      # committed; its answer lost

        return begin


@pytest.fixture
def faults(monkeypatch: pytest.MonkeyPatch) -> Faults:
    made = Faults()
    monkeypatch.setattr(Storage, "_begin", made.wrap(Storage._begin))
    return made


def store_with_table(tmp_path: Path) -> Storage:
    store = Storage(Settings(data_dir=tmp_path / "data").url)
    store.create_table(TableRow("t1", "kozel", "classic", {}, 4, "1"), [SeatRow(i) for i in range(4)])
    return store


def test_an_event_whose_commit_answer_was_lost_counts_as_written(tmp_path: Path, faults: Faults) -> None:
    store = store_with_table(tmp_path)
    store.append_event("t1", EventRow(1, "deal", "{}", "server"))
    faults.arm("lose")
    store.append_event("t1", EventRow(2, "action", "0 play 9H", "human", "c-1"))   # no error
    assert faults.struck == 1
    store.append_event("t1", EventRow(3, "action", "1 play KH", "bot"))            # the next one goes on
    assert [(e.seq, e.payload, e.client_id) for e in store.load("t1").events] == [
        (1, "{}", None), (2, "0 play 9H", "c-1"), (3, "1 play KH", None)]


def test_a_write_that_never_committed_is_still_refused_and_leaves_nothing(tmp_path: Path, faults: Faults) -> None:
    store = store_with_table(tmp_path)
    faults.arm("refuse")
    with pytest.raises(StorageError, match="server closed the connection"):
        store.append_event("t1", EventRow(1, "action", "0 play 9H", "human"))
    assert faults.struck == 1 and store.load("t1").events == []
    store.append_event("t1", EventRow(1, "action", "0 play 9H", "human"))          # sent again: written once
    assert [e.payload for e in store.load("t1").events] == ["0 play 9H"]


def test_another_move_at_the_same_number_is_not_taken_for_the_lost_one(tmp_path: Path, faults: Faults) -> None:
    store = store_with_table(tmp_path)
    store.append_event("t1", EventRow(1, "action", "0 play 9H", "human", "c-1"))
    with pytest.raises(StorageError):
        store.append_event("t1", EventRow(1, "action", "0 play KH", "human", "c-2"))
    with pytest.raises(StorageError):    # the same card by the bot playing for the seat is another event
        store.append_event("t1", EventRow(1, "action", "0 play 9H", "bot"))


def test_the_same_move_played_again_after_a_lost_answer_finds_it_stored(
        tmp_path: Path, faults: Faults, monkeypatch: pytest.MonkeyPatch) -> None:
    """The commit's answer lost *and* the check made right after it failing too (the
    database still out of reach): the player is told "not applied" and plays the card
    again, in a new message. That write is the same move at the same version: it
    counts as written, and the table goes on from where its log is."""
    store = store_with_table(tmp_path)
    faults.arm("lose")

    def unreachable(*_: object, **__: object) -> bool:
        raise StorageError(LOST)

    with monkeypatch.context() as patch, pytest.raises(StorageError):
        patch.setattr(Storage, "_has", staticmethod(unreachable))
        store.append_event("t1", EventRow(1, "action", "0 play 9H", "human", "c-1"))
    store.append_event("t1", EventRow(1, "action", "0 play 9H", "human", "c-2"))       # played again
    store.append_event("t1", EventRow(2, "action", "1 play KH", "bot"))
    assert [(e.seq, e.payload, e.client_id) for e in store.load("t1").events] == [
        (1, "0 play 9H", "c-1"), (2, "1 play KH", None)]
    assert [(e.seq, e.payload) for e in store.events_after("t1", 1)] == [(2, "1 play KH")]
    assert store.events_after("t1", 2) == [] and store.events_after("nope", 0) == []


def test_a_finished_record_a_new_table_and_a_rematch_whose_answers_were_lost_count_as_written(
        tmp_path: Path, faults: Faults) -> None:
    store = store_with_table(tmp_path)
    faults.arm("lose")
    store.finish("t1", {"game": "kozel"})
    assert store.record("t1")["game"] == "kozel"
    faults.arm("lose")
    store.create_table(TableRow("t2", "kozel", "street", {}, 4, "2"), [SeatRow(i) for i in range(4)])
    assert store.exists("t2")
    faults.arm("lose")
    store.create_rematch("t1", TableRow("t3", "kozel", "classic", {}, 4, "3"), [SeatRow(i) for i in range(4)])
    assert store.load("t3") is not None
    assert faults.struck == 3


def test_a_move_whose_commit_answer_was_lost_is_played_and_the_table_goes_on(
        start_server: Callable[..., ServerThread], faults: Faults) -> None:
    """Before: the move was refused ("not applied: database error") though the log
    held it, and every later move of the table was refused as a duplicate."""

    async def lost(me: Client, mine: dict[str, Any]) -> None:
        faults.arm("lose")
        answer = await me.reply_to(await me.act(mine["view"]["legal_actions"][0], version=mine["version"]))
        assert answer["type"] == "state" and answer["version"] == mine["version"] + 1, answer
        assert faults.struck == 1

    played_out_after(start_server(), lost)



class Blinds:
    """Makes the next ``n`` calls of a :class:`Storage` read fail as an unreachable
    database does: the look for a lost write (``_has``) and the table's read of its
    log (``events_after``)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.left = {"_has": 0, "events_after": 0}
        for name in self.left:
            real = getattr(Storage, name)
            wrapped = self._wrap(name, real.__func__ if hasattr(real, "__func__") else real)
            monkeypatch.setattr(Storage, name, staticmethod(wrapped) if name == "_has" else wrapped)

    def _wrap(self, name: str, real: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            if self.left[name]:
                self.left[name] -= 1
                raise StorageError(LOST)
            return real(*args, **kwargs)
        return call

    def blind(self, *names: str) -> None:
        for name in names:
            self.left[name] = 1


def played_out_after(server: ServerThread, at_my_turn: Callable[[Client, dict[str, Any]], Any]) -> None:
    """A classic match against bots, ``at_my_turn(me, state)`` awaited at my first
    turn, then played to its end: its record replays to its stored result."""
    async def scenario() -> None:
        lobby = Lobby(server.url)
        tid, token = await lobby.with_bots(rules="classic", seed=3, options={"match_target": 1})
        async with Client(server.ws_url, tid, token) as me:
            await lobby.start(tid, token)
            await at_my_turn(me, await me.until(my_turn))
            final = await play_to_the_end(me, 0)
        assert final["status"] == "finished"
        record = await lobby.record(tid)
        check_result(record, replay(record))
        await lobby.close()

    run(scenario())


def test_a_move_whose_answer_and_look_were_lost_is_found_by_the_table_in_its_log(
        start_server: Callable[..., ServerThread], faults: Faults, monkeypatch: pytest.MonkeyPatch) -> None:
    """The commit's answer lost and the store's look for it failing too: before, the
    player was told "not applied" though the log held the move. The table reads its
    log before calling the write failed: the move is there, it is played."""
    blinds = Blinds(monkeypatch)

    async def lost(me: Client, mine: dict[str, Any]) -> None:
        faults.arm("lose")
        blinds.blind("_has")
        answer = await me.reply_to(await me.act(mine["view"]["legal_actions"][0], version=mine["version"]))
        assert answer["type"] == "state" and answer["version"] == mine["version"] + 1, answer
        assert blinds.left["_has"] == 0 and faults.struck == 1

    played_out_after(start_server(), lost)


def test_a_different_move_after_a_lost_answer_whose_look_failed_catches_the_table_up(
        start_server: Callable[..., ServerThread], faults: Faults, monkeypatch: pytest.MonkeyPatch) -> None:
    """The commit's answer lost and the database out of reach for every look at it:
    the player is told "not applied", though the log holds the move. Before: any
    *other* move then collided with the stored one at every try ("not applied:
    database error"), the bots' driver retried for ever, and the table stayed a
    version behind its log until a restart. Now the collision makes the table read
    and apply the event it missed: the other move is refused as made on an old
    state, everyone is sent the table as its log has it, and the game goes on to a
    record that replays."""
    blinds = Blinds(monkeypatch)

    async def lost_then_another(me: Client, mine: dict[str, Any]) -> None:
        stored, other = mine["view"]["legal_actions"][:2]
        version = mine["version"]
        faults.arm("lose")
        blinds.blind("_has", "events_after")
        told = await me.reply_to(await me.act(stored, version=version))
        assert told["type"] == "error" and told["code"] == "storage", told
        answer = await me.reply_to(await me.act(other, version=version))
        assert answer["type"] == "error" and answer["code"] == "stale-version", answer
        assert "moved on" in answer["message"] and "\n" not in answer["message"]
        caught_up = await me.at_version(version + 1)
        assert stored.split(" ", 1)[1] in caught_up["view"]["history"][-1], caught_up["view"]["history"]

    played_out_after(start_server(), lost_then_another)


def test_a_database_out_of_reach_for_a_read_is_a_one_line_503_not_a_500(
        start_server: Callable[..., ServerThread], monkeypatch: pytest.MonkeyPatch) -> None:
    """Before, a read the database refused (a table not in memory looked up, the
    finished list, the standings, a new table's id checked) reached the client as
    uvicorn's bare "Internal Server Error" (500) and the log as a traceback; a
    WebSocket to such a table was dropped the same way. Now it is the lobby's
    one-line 503, as for a refused write, and the WebSocket says ``storage`` and
    closes with 1013 ("try again later")."""
    server = start_server()

    def unreachable(*_: object, **__: object) -> Any:
        raise StorageError(LOST)

    for name in ("load", "finished", "finished_results", "exists"):
        monkeypatch.setattr(Storage, name, unreachable)

    async def scenario() -> None:
        lobby = Lobby(server.url)
        for response in (await lobby.http.get("/api/tables/abcdef1234"),
                         await lobby.http.get("/api/tables?status=finished"),
                         await lobby.http.get("/api/standings"),
                         await lobby.http.post("/api/tables", json={})):
            one_line(response, 503, "server closed the connection")
        async with connect(f"{server.ws_url}ws/abcdef1234") as ws:    # told at once, before any hello
            told = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
            assert told["type"] == "error" and told["code"] == "storage", told
            with pytest.raises(ConnectionClosed) as closed:
                await asyncio.wait_for(ws.recv(), TIMEOUT)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
        await lobby.close()

    run(scenario())


def test_a_rematch_whose_answer_and_look_were_lost_is_the_one_everyone_gets(
        start_server: Callable[..., ServerThread], faults: Faults, monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    """A rematch ("Play again") whose COMMIT's answer was lost and whose look for it failed too:
    before, the player was told 503 though the rematch and its link were stored, and
    every later "Play again" made another table whose link collided with the stored
    one — a 503 for everyone until a restart. Now the failed write reads the stored
    link: the stored rematch is the one the player (and everyone after) is given."""
    server = start_server()
    blinds = Blinds(monkeypatch)

    async def scenario() -> None:
        lobby = Lobby(server.url)
        tid, token = await finish_with_bots(lobby, server, rules="classic", seed=3, options={"match_target": 1})
        faults.arm("lose")
        blinds.blind("_has")
        first = await lobby.http.post(f"/api/tables/{tid}/rematch", headers=auth(token))
        assert first.status_code == 200, first.text
        assert faults.struck == 1 and blinds.left["_has"] == 0
        stored = Storage(Settings(data_dir=tmp_path / "data").url)
        try:
            assert stored.rematch_of(tid) == first.json()["id"]
        finally:
            stored.close()
        assert first.json()["seat"] == 0 and first.json()["token"]
        again = await lobby.http.post(f"/api/tables/{tid}/rematch", headers=auth(token))
        assert again.status_code == 200 and again.json()["id"] == first.json()["id"], again.text
        assert (await lobby.http.get(f"/api/tables/{tid}")).json()["rematch"] == first.json()["id"]
        await lobby.close()

    run(scenario())


def test_lobby_writes_whose_commit_answers_were_lost_count_as_written(
        start_server: Callable[..., ServerThread], faults: Faults) -> None:
    """A seat taken, a bot seated and the start, each COMMIT's answer lost: before,
    each was refused (503) though stored — the seat held by a token nobody was given
    (after a restart a lobby seat nobody could take or clear), the table "playing" in
    storage but a lobby in memory (after a restart played out by bots standing in for
    people who had gone). Now each is looked for, found and done."""
    server = start_server()

    async def scenario() -> None:
        lobby = Lobby(server.url)
        created = await lobby.create(name="Ann", rules="classic", seed=3, options={"match_target": 1})
        tid, ann = created["id"], created["token"]
        faults.arm("lose")
        bob = await lobby.http.post(f"/api/tables/{tid}/seats/1", json={"name": "Bob"})
        assert bob.status_code == 200 and faults.struck == 1, bob.text
        for seat in (2, 3):
            faults.arm("lose")
            await lobby.bot(tid, seat, ann)
        assert faults.struck == 3
        faults.arm("lose")
        await lobby.start(tid, ann)
        assert faults.struck == 4
        async with Client(server.ws_url, tid, bob.json()["token"]) as him:
            first = await him.at_version(1)
        assert first["status"] == "playing" and first["seat"] == 1
        await lobby.close()

    run(scenario())


def test_seat_data_whose_commit_answer_was_lost_counts_as_written(tmp_path: Path, faults: Faults) -> None:
    store = store_with_table(tmp_path)
    faults.arm("lose")
    store.set_seat_data("t1", 0, '{"main": ["Sangan"]}')          # no error
    assert store.load("t1").seat_data == {0: '{"main": ["Sangan"]}'}
    faults.arm("lose")
    store.set_seat_data("t1", 0, None)
    assert store.load("t1").seat_data == {} and faults.struck == 2


def test_an_abandoned_lobby_whose_delete_answer_was_lost_leaves_memory_too(tmp_path: Path, faults: Faults) -> None:
    """The sweep's delete committed, its answer lost: before, the lobby was called not
    deleted and stayed in memory (and in the lobby list) though gone from storage —
    for ever, since the next sweep's delete found no lobby there — where seats taken
    wrote nothing and, once started, every move was refused. Now the delete is looked
    for, found done, and the lobby leaves memory as well."""
    async def scenario() -> None:
        tables = Tables(server_settings(tmp_path / "data", lobby_idle=100.0, finished_idle=0),
                        AsyncStorage(Storage(f"sqlite:///{tmp_path / 'goat.db'}")))
        table = await tables.create("kozel", "classic")
        assert table.idle_since is not None
        faults.arm("lose")
        assert await tables.sweep(table.idle_since + 100) == (1, 0)
        assert faults.struck == 1 and table.id not in tables.tables and table.closed
        assert not await tables.store.exists(table.id)
        await tables.close()
        tables.store.close()

    run(scenario())
