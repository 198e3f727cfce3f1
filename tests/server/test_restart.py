"""Kill ``goat serve`` with SIGKILL in the middle of a deal, start it again on
the same data directory: every table comes back exactly where it stopped, no
acknowledged action is lost, none is applied twice, and the game plays on to a
record that ``goat replay --check`` accepts."""

from __future__ import annotations

import asyncio
import json
import logging
import random
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from .conftest import SRC, Client, Lobby, ServeProcess, my_turn, play_to_the_end, random_player, run


def replay_check(record: dict[str, Any], path: Path) -> subprocess.CompletedProcess[str]:
    path.write_text(json.dumps(record), encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "goat.cli.main", "replay", str(path), "--check"],
                          capture_output=True, text=True, env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"},
                          timeout=120)


@pytest.mark.slow
def test_sigkill_mid_deal_then_restart_loses_no_action(serve_process: Callable[..., ServeProcess],
                                                       tmp_path: Path) -> None:
    """Four people, no bots: the server moves only when they act, so the restored
    table must be at exactly the last acknowledged version, with the same views."""
    fast = ("--bot-delay", "0", "--deal-pause", "0", "--rate-limit", "1000")
    server = serve_process(*fast)
    table: dict[str, Any] = {}

    async def before_kill() -> None:
        lobby = Lobby(server.url)
        tid, tokens = await lobby.humans(rules="classic", seed=21)
        table.update(id=tid, tokens=tokens)
        clients = [await Client(server.ws_url, tid, t).__aenter__() for t in tokens]
        await lobby.start(tid, tokens[0])
        version, acked, ids = 1, [], []
        rng = random.Random(4)
        while len(acked) < 9:  # two tricks and a card: mid-deal
            view = (await clients[0].at_version(version))["view"]
            actor = clients[view["current_player"]]
            legal = (await actor.at_version(version))["view"]["legal_actions"]
            action = rng.choice(legal)
            msg_id = await actor.act(action, version)
            reply = await actor.reply_to(msg_id)
            assert reply["type"] == "state", reply
            version = reply["version"]
            acked.append(action)
            ids.append((view["current_player"], msg_id))
        table.update(version=version, acked=acked, ids=ids,
                     views=[(await c.at_version(version))["view"] for c in clients])
        server.kill()   # no goodbye: the clients just lose the connection
        await lobby.close()

    run(before_kill())
    assert table["version"] == 10 and table["views"][0]["deal_number"] == 1

    server = serve_process(*fast)   # same data directory

    async def after_restart() -> None:
        lobby = Lobby(server.url)
        tid, tokens = table["id"], table["tokens"]
        clients = [await Client(server.ws_url, tid, t).__aenter__() for t in tokens]
        for client, before in zip(clients, table["views"]):
            state = await client.until(lambda m: m["type"] == "state")
            assert state["status"] == "playing" and state["version"] == table["version"]
            assert state["view"] == before     # the very same position, seat by seat
        seat, msg_id = table["ids"][-1]        # a resend from before the crash is still a duplicate
        last = clients[seat]
        await last.send({"type": "action", "action": table["acked"][-1], "version": table["version"] - 1,
                         "id": msg_id})
        error = await last.until(lambda m: m["type"] == "error")
        assert error["code"] == "duplicate"
        for client in clients:                 # and play goes on
            await client.send({"type": "sync"})
        await asyncio.wait_for(asyncio.gather(*(random_player(c, s, random.Random(s), mischief=False)
                                                for s, c in enumerate(clients))), 300)
        record = await lobby.record(tid)
        assert record["deals"][0]["actions"][:9] == table["acked"]
        result = replay_check(record, tmp_path / "game.json")
        assert result.returncode == 0, result.stderr
        for c in clients:
            await c.__aexit__()
        await lobby.close()

    run(after_restart())


@pytest.mark.slow
def test_sigkill_while_bots_play_then_the_table_plays_on(serve_process: Callable[..., ServeProcess],
                                                         tmp_path: Path) -> None:
    """One person and three bots: the bots keep moving between our turns, so the
    crash lands wherever they are. Everything the person saw must be in the
    restored game, in order, and the table must resume by itself."""
    server = serve_process("--bot-delay", "0.02", "--deal-pause", "0", "--rate-limit", "1000")
    seen: dict[str, Any] = {}

    async def before_kill() -> None:
        lobby = Lobby(server.url)
        tid, token = await lobby.with_bots(rules="classic", seed=8)
        me = await Client(server.ws_url, tid, token).__aenter__()
        await lobby.start(tid, token)
        turns = 0
        state = await me.until(my_turn)
        while turns < 5:
            reply = await me.reply_to(await me.act(state["view"]["legal_actions"][0], state["version"]))
            assert reply["type"] == "state"
            turns += state["view"]["deal_number"] >= 2   # the crash comes in the second deal
            state = reply if my_turn(reply) else await me.until(my_turn)
        await asyncio.sleep(0.03)       # let the bots answer: the crash comes in their moves
        server.kill()
        states = [m for m in me.inbox if m["type"] == "state" and m["view"]]
        seen.update(id=tid, token=token, last=states[-1], states=states)
        await lobby.close()

    run(before_kill())
    server = serve_process("--bot-delay", "0.02", "--deal-pause", "0", "--rate-limit", "1000")

    async def after_restart() -> None:
        lobby = Lobby(server.url)
        me = await Client(server.ws_url, seen["id"], seen["token"]).__aenter__()
        first = await me.until(lambda m: m["type"] == "state")
        assert first["version"] >= seen["last"]["version"]
        final = await play_to_the_end(me, 0)
        assert final["status"] == "finished"
        record = await lobby.record(seen["id"])
        for state in seen["states"]:   # every action shown before the crash is in the record, in place
            view = state["view"]
            actions = record["deals"][view["deal_number"] - 1]["actions"]
            for mine, stored in zip(view["history"], actions):
                assert "?" in mine or mine == stored
            assert len(actions) >= len(view["history"])
        result = replay_check(record, tmp_path / "game.json")
        assert result.returncode == 0, result.stderr
        await me.__aexit__()
        await lobby.close()

    run(after_restart())



def test_a_finished_game_whose_record_cannot_be_written_at_start_does_not_stop_the_server(
        start_server: Callable[..., Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """A table stored "playing" whose events end the game, with no record (data
    from before the final event carried the record): a start writes its record.
    If that write fails, the server still starts, says so in one log line, and
    the table is loaded (and its record written) when someone opens it. Before,
    the failed write stopped the whole server from starting."""
    from goat.records import check_result, replay
    from goat.server.storage import Storage, StorageError

    from .conftest import play_to_the_end

    server = start_server()
    table: dict[str, Any] = {}

    async def played_out() -> None:
        lobby = Lobby(server.url)
        tid, token = await lobby.with_bots(rules="classic", seed=5, options={"match_target": 1})
        async with Client(server.ws_url, tid, token) as me:
            await lobby.start(tid, token)
            assert (await play_to_the_end(me, 0))["status"] == "finished"
        table.update(id=tid, record=await lobby.record(tid))
        await lobby.close()

    run(played_out())
    server.__exit__(None, None, None)
    with sqlite3.connect(tmp_path / "data" / "goat.db") as db:   # as an older server left it
        db.execute("DELETE FROM goat_results WHERE table_id = ?", (table["id"],))
        db.execute("DELETE FROM goat_records WHERE table_id = ?", (table["id"],))
        db.execute("UPDATE goat_tables SET status = 'playing' WHERE id = ?", (table["id"],))
    real, failures = Storage.finish, [1]

    def finish_fails_once(store: Storage, table_id: str, record: dict[str, Any]) -> None:
        if failures:
            failures.pop()
            raise StorageError("database error: server closed the connection unexpectedly")
        real(store, table_id, record)

    monkeypatch.setattr(Storage, "finish", finish_fails_once)
    with caplog.at_level(logging.ERROR, logger="goat.server"):
        server = start_server()
    assert not failures
    said = [r.getMessage() for r in caplog.records if table["id"] in r.getMessage()]
    assert said == [f"table {table['id']} is not restored now: database error: server closed the connection "
                    "unexpectedly; it is loaded again when someone opens it"]

    async def opened() -> None:
        lobby = Lobby(server.url)
        info = await lobby.http.get(f"/api/tables/{table['id']}")
        assert info.status_code == 200 and info.json()["status"] == "finished", info.text
        record = await lobby.record(table["id"])
        record.pop("finished_at"), table["record"].pop("finished_at")   # written again now
        assert record == table["record"]
        check_result(record, replay(record))
        await lobby.close()

    run(opened())


def test_a_lobby_seat_waits_the_grace_period_from_the_servers_start_not_its_tables_restore(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Bob sat in a lobby, and the server restarted. Its tables are brought back one
    after another, replaying every match (a tenth of a second for a long Yu-Gi-Oh!
    one), so a lobby restored first waits for the rest. Its seats wait for their
    people the grace period from the server's start: before, they were counted from
    the lobby's own restore, and a long restore let anyone seated free Bob's seat
    the moment the server opened, before his page could come back."""
    from goat.server.settings import Settings
    from goat.server.storage import AsyncStorage, Storage
    from goat.server.tables import LobbyError, Tables

    settings = Settings(data_dir=tmp_path, grace_seconds=1.0)

    async def scenario() -> None:
        store = AsyncStorage(Storage(settings.url))
        try:
            before = Tables(settings, store)
            table = await before.create("kozel", "classic")
            ann = await table.take_seat(0, "Ann")
            await table.take_seat(1, "Bob")

            restarted = Tables(settings, store)
            rebuilt = Tables._rebuilt

            def slow_rebuilt(self: Tables, stored: Any, data: dict[int, Any]) -> Any:
                made = rebuilt(self, stored, data)
                time.sleep(1.2)   # the replays of the other tables still to come
                return made

            monkeypatch.setattr(Tables, "_rebuilt", slow_rebuilt)
            assert await restarted.restore_all() == 1
            lobby = restarted.tables[table.id]
            with pytest.raises(LobbyError) as refused:
                await lobby.clear_seat(1, ann)
            assert (refused.value.status, refused.value.say) == (409, "seatAway")
            assert lobby.seats[1].name == "Bob"
            await asyncio.sleep(1.05)   # the grace period after the start: now it may be freed
            await lobby.clear_seat(1, ann)
            assert lobby.seats[1].kind == "empty"
            await restarted.close()
        finally:
            store.close()

    asyncio.run(scenario())


async def restored_after_a_slow_table(settings: Any, store: Any, monkeypatch: pytest.MonkeyPatch,
                                      move_seconds: int | None = None) -> tuple[Any, Any]:
    """A Kozel table of four people in play, dealt, then a lobby made after it; a
    new registry restores both, the lobby's replay slowed to 1.2 s (the long
    matches still to come after the first table). Returns the new registry and
    the table in play as it brought it back (first)."""
    from goat.server.tables import Tables

    before = Tables(settings, store)
    playing = await before.create("kozel", "classic", seed=3, move_seconds=move_seconds)
    tokens = [await playing.take_seat(i, name) for i, name in enumerate(("Ann", "Bob", "Cy", "Di"))]
    await playing.start(tokens[0])
    while playing.version == 0:     # the driver deals: a decision is pending
        await asyncio.sleep(0.01)
    await before.create("kozel", "classic")
    await before.close()

    restarted = Tables(settings, store)
    rebuilt, order = Tables._rebuilt, []

    def slow_rebuilt(self: Tables, stored: Any, data: dict[int, Any]) -> Any:
        made = rebuilt(self, stored, data)
        order.append(stored.table.id)
        if stored.table.id != playing.id:
            time.sleep(1.2)   # the replays of the other tables
        return made

    monkeypatch.setattr(Tables, "_rebuilt", slow_rebuilt)
    assert await restarted.restore_all() == 2
    assert order[0] == playing.id
    return restarted, restarted.tables[playing.id]


def test_a_seat_in_play_waits_the_grace_period_from_the_servers_start_not_its_tables_restore(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Four people were playing, and the server restarted. Their table came back
    first, then a slow one: their seats are handed to the default bot only once
    the grace period has passed from the server's start. Before, each seat's grace
    timer started at its own table's restore, and the bot took their seats the
    moment the server opened, before their pages could come back."""
    from goat.server.settings import Settings
    from goat.server.storage import AsyncStorage, Storage

    settings = Settings(data_dir=tmp_path, grace_seconds=1.0, bot_delay=0.0, deal_pause=0.0)

    async def scenario() -> None:
        store = AsyncStorage(Storage(settings.url))
        try:
            restarted, table = await restored_after_a_slow_table(settings, store, monkeypatch)
            await asyncio.sleep(0.2)    # any grace timer already due fires now
            assert [seat.autoplay for seat in table.seats] == [False] * 4
            await asyncio.sleep(1.0)    # the grace period after the start: now the bot plays for them
            assert [seat.autoplay for seat in table.seats] == [True] * 4
            await restarted.close()
        finally:
            store.close()

    asyncio.run(scenario())


def test_a_pending_decisions_fresh_clock_after_a_restart_runs_from_the_servers_start(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/server.md: after a restart a decision still pending gets a fresh full
    clock. Full when the server opens, not started at its table's restore and
    half run out by the time the others were replayed."""
    from goat.server.settings import Settings
    from goat.server.storage import AsyncStorage, Storage

    settings = Settings(data_dir=tmp_path, grace_seconds=30.0, bot_delay=0.0, deal_pause=0.0)

    async def scenario() -> None:
        store = AsyncStorage(Storage(settings.url))
        try:
            restarted, table = await restored_after_a_slow_table(settings, store, monkeypatch, move_seconds=2)
            clock = table.clock_json()
            assert clock is not None and clock["seat"] == table.state.current_player()
            assert clock["ms"] > 1800, clock
            await restarted.close()
        finally:
            store.close()

    asyncio.run(scenario())
