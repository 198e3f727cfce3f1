"""The same server on PostgreSQL (``GOAT_DATABASE_URL``). Runs when
``GOAT_TEST_DATABASE_URL`` names a database to use, e.g.
``postgresql+psycopg://goat@127.0.0.1:5432/goat``; skipped otherwise."""

from __future__ import annotations

import asyncio
import fcntl
import os
import random
import threading
from collections.abc import Callable, Iterator

import pytest
from sqlalchemy.engine import make_url

from goat.records import check_result, replay
from goat.server.runner import ServerThread
from goat.server.storage import EventRow, SeatRow, ServeLock, Storage, StorageError, TableRow

from .conftest import Client, Lobby, my_turn, play_to_the_end, random_player, run
from .test_lost_commit import Faults, faults  # noqa: F401 - fixture

URL = os.environ.get("GOAT_TEST_DATABASE_URL")
pytestmark = [
    pytest.mark.skipif(not URL, reason="set GOAT_TEST_DATABASE_URL to a PostgreSQL database to run these"),
    # One worker runs them all (``make test``: ``--dist loadgroup``): they share one database, and a
    # server one test starts restores the tables in play there, so another worker's game in progress
    # would be played by two servers at once. (The group alone no longer holds under pytest 9.2, whose
    # node ids xdist can no longer suffix: pytest-xdist issue #1386; see one_postgres_test_at_a_time.)
    pytest.mark.xdist_group("postgres"),
]


@pytest.fixture(autouse=True)
def one_postgres_test_at_a_time(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """These tests share one database (and its serve lock), so they run one at a
    time whichever worker has them: an exclusive ``flock`` on a file every
    worker of the run sees (the parent of each worker's base temp). Before, they
    relied on ``--dist loadgroup`` alone, which pytest 9.2 silently broke: two
    workers took them, and the serve-lock tests failed whenever both ran at once."""
    shared = tmp_path_factory.getbasetemp().parent / "goat-postgres-tests.lock"
    with open(shared, "a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(held, fcntl.LOCK_UN)


def test_one_serve_lock_per_postgres_database_until_it_is_released() -> None:
    """As with SQLite: a second ``goat serve`` on the same database is refused (a
    session advisory lock), and the database is free once the first ends."""
    first = ServeLock(URL)
    with pytest.raises(StorageError, match="another goat serve is already using"):
        ServeLock(URL)
    first.release()
    again = ServeLock(URL)
    # a machine that lost power never closes its connection: the session probes it
    # and ends (with the lock) in about half a minute, not TCP's two hours
    over_tcp = bool(make_url(URL).host) and not make_url(URL).host.startswith("/")   # a Unix socket has none
    assert again._connection.exec_driver_sql("SHOW tcp_keepalives_idle").scalar() == ("10" if over_tcp else "0")
    again.release()


def test_a_released_serve_lock_is_free_at_once_though_its_session_lingers(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The lock ended with its session, which the database ends a moment after
    the connection closes: a server started at once (the next test here, a quick
    restart) found it still held ("another goat serve is already using"). Here the
    session is kept open past ``release``: the lock must be free all the same."""
    first = ServeLock(URL)
    lingering = first._connection
    monkeypatch.setattr(lingering, "close", lambda: None)       # the session outlives the release
    engine = first._engine
    monkeypatch.setattr(engine, "dispose", lambda *args, **kwargs: None)
    try:
        first.release()
        second = ServeLock(URL)                                    # not refused
        second.release()
    finally:
        monkeypatch.undo()
        lingering.close()
        engine.dispose()


def _end_session(lock: ServeLock) -> None:
    """End the lock's session from another one, as a database restart, an
    administrator or an idle timeout would: its advisory lock goes with it."""
    pid = lock._connection.exec_driver_sql("SELECT pg_backend_pid()").scalar()
    lock._connection.commit()
    store = Storage(URL)
    with store.engine.connect() as other:
        assert other.exec_driver_sql(f"SELECT pg_terminate_backend({pid})").scalar()
    store.close()


def test_a_serve_lock_whose_session_ended_is_taken_again_or_said_lost() -> None:
    """Without this a server whose lock session ended played on unlocked, and a second
    ``goat serve`` started on the same database played the same tables."""
    first = ServeLock(URL)
    try:
        _end_session(first)
        assert first.holds()                           # taken again on a new session...
        with pytest.raises(StorageError, match="another goat serve is already using"):
            ServeLock(URL)                             # ...so a second server is still refused
        _end_session(first)
        second = ServeLock(URL)                        # this time another server was quicker
        try:
            assert not first.holds()
            lost = threading.Event()
            first.watch(lost.set, every=0.01)          # goat serve then stops
            assert lost.wait(30)
        finally:
            second.release()
    finally:
        first.release()


def test_storage_round_trip_on_postgres() -> None:
    store = Storage(URL)
    table_id = f"pg{random.getrandbits(32):08x}"
    store.create_table(TableRow(table_id, "kozel", "classic", {"eggs": "double-next"}, 4, "9"),
                       [SeatRow(i) for i in range(4)])
    store.save_seat(table_id, SeatRow(0, "human", "Ann", None, "a" * 64))
    store.set_seat_data(table_id, 0, '{"main": ["Sangan"]}')      # a seat's own deck (goat_seat_data)
    store.set_seat_data(table_id, 0, '{"main": ["Jinzo"]}')
    store.set_seat_data(table_id, 1, '{"main": []}')
    store.set_seat_data(table_id, 1, None)
    store.append_event(table_id, EventRow(1, "deal", "{}", "server"))
    store.append_event(table_id, EventRow(2, "action", "0 play 9H", "human", "x"), record={"ok": True})
    loaded = store.load(table_id)
    assert loaded.table.status == "finished" and loaded.table.options == {"eggs": "double-next"}
    assert [e.seq for e in loaded.events] == [1, 2] and loaded.seats[0].name == "Ann"
    assert [(e.seq, e.client_id) for e in store.events_after(table_id, 1)] == [(2, "x")]
    assert store.events_after(table_id, 2) == []
    assert loaded.seat_data == {0: '{"main": ["Jinzo"]}'}
    served = store.record(table_id)
    assert served.pop("finished_at").endswith("+00:00") and served == {"ok": True}
    hinted = f"pg{random.getrandbits(32):08x}"                     # a table setting (goat_table_settings)
    store.create_table(TableRow(hinted, "kozel", "classic", {}, 4, "9", "lobby", {"hints": True}),
                       [SeatRow(i) for i in range(4)])
    assert store.load(hinted).table.settings == {"hints": True} and loaded.table.settings == {}
    store.close()


def test_a_write_whose_commit_answer_was_lost_counts_as_written_on_postgres(faults: Faults) -> None:
    """As on SQLite (test_lost_commit.py): found on a new connection, the write
    is done — NULL client ids and long payloads compared as PostgreSQL does."""
    store = Storage(URL)
    table_id = f"pg{random.getrandbits(32):08x}"
    faults.arm("lose")
    store.create_table(TableRow(table_id, "kozel", "classic", {}, 4, "9"), [SeatRow(i) for i in range(4)])
    faults.arm("lose")
    store.append_event(table_id, EventRow(1, "deal", '{"hands": "' + "x" * 5000 + '"}', "server"))
    faults.arm("refuse")
    with pytest.raises(StorageError):
        store.append_event(table_id, EventRow(2, "action", "0 play 9H", "human", "c-1"))
    faults.arm("lose")
    store.append_event(table_id, EventRow(2, "action", "0 play 9H", "human", "c-1"), record={"ok": True})
    assert faults.struck == 4
    loaded = store.load(table_id)
    assert [e.seq for e in loaded.events] == [1, 2] and loaded.table.status == "finished"
    store.close()


def test_an_abandoned_lobby_is_deleted_on_postgres() -> None:
    """With the foreign keys enforced, every child row goes first, the rematch
    link included; a table that started is never deleted."""
    store = Storage(URL)
    old, lobby, played = (f"pg{random.getrandbits(32):08x}" for _ in range(3))
    store.create_table(TableRow(old, "kozel", "classic", {}, 4, "1", "finished"), [SeatRow(i) for i in range(4)])
    store.create_rematch(old, TableRow(lobby, "kozel", "classic", {}, 4, "2", "lobby", {"hints": True}),
                         [SeatRow(i) for i in range(4)])
    store.set_seat_data(lobby, 0, '{"main": []}')
    store.create_table(TableRow(played, "kozel", "classic", {}, 4, "3", "playing"), [SeatRow(i) for i in range(4)])
    store.append_event(played, EventRow(1, "deal", "{}", "server"))
    assert store.load(old).rematch == lobby
    assert store.delete_lobby_table(lobby) is True
    assert store.load(lobby) is None and store.load(old).rematch is None
    assert store.delete_lobby_table(played) is False and store.load(played).events
    store.close()


def test_a_match_and_a_restart_on_postgres(start_server: Callable[..., ServerThread]) -> None:
    server = start_server(database_url=URL)
    state: dict = {}

    async def first_half() -> None:
        lobby = Lobby(server.url)
        tid, tokens = await lobby.humans(seed=5)
        clients = [await Client(server.ws_url, tid, t).__aenter__() for t in tokens]
        await lobby.start(tid, tokens[0])
        for c in clients:
            await c.at_version(1)
        state.update(id=tid, tokens=tokens, view=clients[0].state["view"])
        for c in clients:
            await c.__aexit__()
        await lobby.close()

    run(first_half())
    again = start_server.restart(server, database_url=URL)

    async def second_half() -> None:
        lobby = Lobby(again.url)
        clients = [await Client(again.ws_url, state["id"], t).__aenter__() for t in state["tokens"]]
        first = await clients[0].until(lambda m: m["type"] == "state")
        assert first["version"] == 1 and first["view"] == state["view"]
        for c in clients:
            await c.send({"type": "sync"})
        await asyncio.gather(*(random_player(c, s, random.Random(s), mischief=False)
                                             for s, c in enumerate(clients)))
        record = await lobby.record(state["id"])
        check_result(record, replay(record))
        for c in clients:
            await c.__aexit__()
        await lobby.close()

    run(second_half())


def test_an_own_deck_survives_a_restart_on_postgres(start_server: Callable[..., ServerThread]) -> None:
    """A Yu-Gi-Oh! player's own deck (``goat_seat_data``) is kept across a
    restart in the lobby, and the match is dealt from it."""
    from .test_yugioh_decks import NORMALS, OPTIONS, normal_ydk

    server = start_server(database_url=URL)
    lobby_state: dict = {}

    async def in_the_lobby() -> None:
        lobby = Lobby(server.url)
        created = await lobby.create(game="yugioh", name="Ann", seed=6, options=OPTIONS)
        tid, token = created["id"], created["token"]
        await lobby.bot(tid, 1, token, bot="greedy")
        answer = await lobby.http.put(f"/api/tables/{tid}/seats/0/deck", content=normal_ydk(),
                                      headers={"Authorization": f"Bearer {token}", "Content-Type": "text/plain"})
        assert answer.status_code == 200, answer.text
        lobby_state.update(id=tid, token=token, deck=answer.json()["deck"])
        await lobby.close()

    run(in_the_lobby())
    again = start_server.restart(server, database_url=URL)

    async def after_restart() -> None:
        lobby = Lobby(again.url)
        tid, token = lobby_state["id"], lobby_state["token"]
        mine = await lobby.http.get(f"/api/tables/{tid}/seats/0/deck", headers={"Authorization": f"Bearer {token}"})
        assert mine.json()["deck"] == lobby_state["deck"]
        async with Client(again.ws_url, tid, token) as me:
            await lobby.start(tid, token)
            state = await me.until(lambda m: m["type"] == "state" and m["view"] is not None)
            assert state["view"]["decklists"][0] == lobby_state["deck"]
            assert set(lobby_state["deck"]["main"]) <= set(NORMALS)
        await lobby.close()

    run(after_restart())


def test_a_rematch_link_survives_a_restart_on_postgres(start_server: Callable[..., ServerThread]) -> None:
    """``goat_rematches`` on PostgreSQL: the link is written with the new table
    and read back after a restart; a second link for the same table is refused.
    The table's hints setting goes with it to the rematch (``goat_table_settings``)."""
    from .conftest import QUICK

    server = start_server(database_url=URL)
    kept: dict = {}

    async def play_and_ask() -> None:
        lobby = Lobby(server.url)
        tid, token = await lobby.with_bots(options=QUICK, hints=True)
        async with Client(server.ws_url, tid, token) as me:
            await lobby.start(tid, token)
            await play_to_the_end(me, 0)
        answer = await lobby.http.post(f"/api/tables/{tid}/rematch", headers={"Authorization": f"Bearer {token}"})
        assert answer.status_code == 200, answer.text
        kept.update(old=tid, new=answer.json()["id"], token=token)
        await lobby.close()

    run(play_and_ask())
    again = start_server.restart(server, database_url=URL)

    async def after_restart() -> None:
        lobby = Lobby(again.url)
        assert (await lobby.http.get(f"/api/tables/{kept['old']}")).json()["rematch"] == kept["new"]
        assert (await lobby.http.get(f"/api/tables/{kept['new']}")).json()["hints"] is True   # kept by the rematch
        answer = await lobby.http.post(f"/api/tables/{kept['old']}/rematch",
                                       headers={"Authorization": f"Bearer {kept['token']}"})
        assert (answer.json()["id"], answer.json()["seat"]) == (kept["new"], None)   # Ann sits there already
        await lobby.close()

    run(after_restart())
    store = Storage(URL)
    with pytest.raises(StorageError):
        store.create_rematch(kept["old"], TableRow(f"pg{random.getrandbits(32):08x}", "kozel", "classic", {}, 4, "1"),
                             [SeatRow(i) for i in range(4)])
    assert store.load(kept["old"]).rematch == kept["new"]
    store.close()


def test_the_finished_games_query_on_postgres() -> None:
    """The lobby's list of finished games (``Storage.finished``): newest first,
    a table without a record left out, timestamps with their zone."""
    from .test_scoresheet import check_finished_query

    store = Storage(URL)
    check_finished_query(store, f"pg{random.getrandbits(32):08x}")
    store.close()


def test_the_standings_query_on_postgres() -> None:
    """The club standings' query (``Storage.finished_results``): the record's
    ``result`` taken out by PostgreSQL (``->>``), by game and period, private
    games left out."""
    from .test_standings import check_standings_query

    store = Storage(URL)
    check_standings_query(store, f"pg{random.getrandbits(32):08x}")
    store.close()


def test_nul_in_a_seed_or_an_action_id_is_the_users_mistake_on_postgres(
        start_server: Callable[..., ServerThread]) -> None:
    """PostgreSQL's text cannot hold NUL: a seed or an action id with one was a 503 /
    "not applied: database error" here, and a table or a move on SQLite. Now both
    are refused before anything is stored, as on SQLite (a 400, ``malformed``), and
    the table plays on."""
    server = start_server(database_url=URL)

    async def scenario() -> None:
        lobby = Lobby(server.url)
        refused = await lobby.http.post("/api/tables", json={"seed": "a\u0000b"})
        assert refused.status_code == 400 and "printable" in refused.json()["error"], refused.text
        tid, token = await lobby.with_bots(rules="classic", seed=3, options={"match_target": 1})
        async with Client(server.ws_url, tid, token) as me:
            await lobby.start(tid, token)
            mine = await me.until(my_turn)
            action = mine["view"]["legal_actions"][0]
            await me.act(action, mine["version"], msg_id="c\u0000")
            told = await me.until(lambda m: m["type"] == "error")      # malformed: no id to echo
            assert told["code"] == "malformed" and "printable" in told["message"], told
            played = await me.reply_to(await me.act(action, mine["version"], msg_id="c-1"))
            assert played["type"] == "state" and played["version"] == mine["version"] + 1, played
        await lobby.close()

    run(scenario())
