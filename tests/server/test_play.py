"""Live play over the WebSocket: every refusal has its own error code and
leaves the table exactly as it was; accepted actions are never applied twice;
a dropped player's seat is played by a bot after the grace period until they
come back; a finished game's record replays."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from goat.records import check_result, replay
from goat.server.runner import ServerThread

from .conftest import TIMEOUT, Client, Lobby, finished_table_after_restart, my_turn, play_to_the_end, run


async def closing_error(url: str, hello: dict[str, Any]) -> tuple[dict[str, Any], int | None]:
    """The error a connection gets, and the close code that follows it."""
    async with connect(url) as ws:
        try:
            await ws.send(json.dumps(hello))
        except ConnectionClosed:  # an unknown table is refused at once, before any hello
            pass
        error = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
        try:
            await asyncio.wait_for(ws.recv(), TIMEOUT)
        except ConnectionClosed as closed:
            return error, closed.rcvd.code if closed.rcvd else None
    raise AssertionError("the connection stayed open")


def test_unknown_tables_and_wrong_tokens_are_refused(start_server: Callable[..., ServerThread]) -> None:
    server = start_server()

    async def scenario() -> None:
        lobby = Lobby(server.url)
        table = (await lobby.create(name="Ann"))["id"]
        error, code = await closing_error(f"{server.ws_url}ws/0123456789", {"type": "hello"})
        assert (error["code"], error["message"], code) == ("unknown-table", 'there is no table "0123456789"', 4404)
        error, code = await closing_error(f"{server.ws_url}ws/{table}", {"type": "hello", "token": "forged"})
        assert (error["code"], code) == ("wrong-token", 4403)
        assert error["message"] == f"that token holds no seat at table {table}"
        async with Client(server.ws_url, table) as watcher:   # no token: a spectator
            assert watcher.welcome == {"type": "welcome", "table": table, "version": 0, "seat": None,
                                       "role": "spectator"}
            state = await watcher.until(lambda m: m["type"] == "state")
            assert state["status"] == "lobby" and state["view"] is None
        await lobby.close()

    run(scenario())


async def four_players(server: ServerThread, **table: Any) -> tuple[Lobby, str, list[Client], Client]:
    """A started table with a person at every seat (all connected) and a spectator."""
    lobby = Lobby(server.url)
    tid, tokens = await lobby.humans(**table)
    clients = [await Client(server.ws_url, tid, token).__aenter__() for token in tokens]
    watcher = await Client(server.ws_url, tid).__aenter__()
    await lobby.start(tid, tokens[0])
    for c in [*clients, watcher]:
        await c.at_version(1)  # dealt
    return lobby, tid, clients, watcher


def test_every_refusal_has_its_code_and_changes_nothing(start_server: Callable[..., ServerThread]) -> None:
    server = start_server(max_message_bytes=300)

    async def scenario() -> None:
        lobby, tid, clients, watcher = await four_players(server, seed=11)
        view = clients[0].state["view"]
        to_act = view["current_player"]
        actor, other = clients[to_act], clients[(to_act + 1) % 4]
        legal = actor.state["view"]["legal_actions"]
        mine = actor.state["view"]["hand"]
        illegal = [c for c in mine if f"{to_act} play {c}" not in legal]
        other_card = other.state["view"]["hand"][0]

        async def refused(client: Client, payload: Any, code: str) -> str:
            msg_id = payload.get("id") if isinstance(payload, dict) else None
            await client.send(payload)
            reply = await client.until(lambda m: m["type"] == "error")
            assert reply["code"] == code, reply
            assert msg_id is None or reply["id"] == msg_id
            assert reply["version"] == client.state["version"] and "\n" not in reply["message"]
            return reply["message"]

        def action(seat: int, text: str, version: int = 1, msg_id: str = "x") -> dict[str, Any]:
            return {"type": "action", "action": text, "version": version, "id": msg_id}

        assert (await refused(actor, "{not json", "malformed")).startswith("not JSON")
        assert "over the limit of 300" in await refused(actor, json.dumps({"type": "ping", "pad": "x" * 400}),
                                                        "oversized")
        assert await refused(actor, {"type": "hello"}, "malformed") == "hello was already said on this connection"
        assert await refused(watcher, action(0, legal[0]), "not-seated") == \
            "spectators cannot act; take a seat to play"
        assert await refused(other, action(0, f"{(to_act + 1) % 4} play {other_card}"), "not-your-turn") == \
            f"it is seat {to_act}'s turn, not seat {(to_act + 1) % 4}'s"
        assert "you acted on version 0, the table is at version 1" in \
            await refused(actor, action(0, legal[0], version=0), "stale-version")
        assert await refused(actor, action(0, legal[0].replace(f"{to_act} ", f"{(to_act + 2) % 4} ", 1)),
                             "wrong-seat") == f"you sit at seat {to_act}, not seat {(to_act + 2) % 4}"
        assert "unknown verb 'dance'" in await refused(actor, action(0, f"{to_act} dance {mine[0]}"), "malformed")
        missing = next(c for c in ("7C", "8C", "9C", "KC", "TC", "AC", "JD", "QD") if c not in mine)
        assert await refused(actor, action(0, f"{to_act} play {missing}"), "illegal-action") == \
            f"seat {to_act} does not hold {missing}"
        if illegal:   # the opening lead must be a plain card: a trump is refused with the engine's reason
            reason = await refused(actor, action(0, f"{to_act} play {illegal[0]}"), "illegal-action")
            assert f"seat {to_act}" in reason

        # Nothing moved: every client is still at version 1 and saw no state since.
        for c in [*clients, watcher]:
            await c.send({"type": "sync"})
            state = await c.until(lambda m: m["type"] == "state")
            assert state["version"] == 1 and state["view"]["history"] == []

        # The legal action is accepted once; a resend is a duplicate, an old version stale.
        msg_id = await actor.act(legal[0], msg_id="first")
        ack = await actor.reply_to(msg_id)
        assert ack["type"] == "state" and ack["version"] == 2 and ack["view"]["history"] == [legal[0]]
        assert "already applied (it made version 2)" in await refused(actor, action(0, legal[0], 1, "first"),
                                                                       "duplicate")
        assert await refused(actor, action(0, legal[0], 1, "second"), "stale-version")
        for c in [*clients, watcher]:
            assert (await c.at_version(2))["view"]["history"] == [legal[0]]
            await c.send({"type": "sync"})
            assert (await c.until(lambda m: m["type"] == "state"))["version"] == 2
        for c in [*clients, watcher]:
            await c.__aexit__()
        await lobby.close()

    run(scenario())


def test_rate_limit_drops_the_flood_and_says_so(start_server: Callable[..., ServerThread]) -> None:
    server = start_server(rate_per_second=5.0, rate_burst=5)

    async def scenario() -> None:
        lobby = Lobby(server.url)
        tid = (await lobby.create())["id"]
        async with Client(server.ws_url, tid) as c:  # hello took one token
            for _ in range(30):
                await c.send({"type": "ping"})
            await c.send({"type": "sync"})
            await asyncio.sleep(0.5)
            await c.send({"type": "ping"})  # allowed again after a pause
            replies = [await c.until(lambda m: m["type"] in ("pong", "error")) for _ in range(6)]
            kinds = [m["type"] for m in replies]
            assert kinds[:4] == ["pong"] * 4 and kinds[4] == "error" and kinds[5] == "pong"
            assert replies[4]["code"] == "rate-limited" and "at most 5 a second" in replies[4]["message"]
            assert [m for m in c.inbox if m.get("code") == "rate-limited"] == [replies[4]]  # one notice only
        await lobby.close()

    run(scenario())


def test_same_seed_same_deals(start_server: Callable[..., ServerThread]) -> None:
    server = start_server()

    async def first_hands(seed: int) -> list[list[str]]:
        lobby = Lobby(server.url)
        tid, tokens = await lobby.humans(seed=seed)
        clients = [await Client(server.ws_url, tid, t).__aenter__() for t in tokens]
        await lobby.start(tid, tokens[0])
        hands = [(await c.at_version(1))["view"]["hand"] for c in clients]
        for c in clients:
            await c.__aexit__()
        await lobby.close()
        return hands

    async def scenario() -> None:
        a, b, c = await first_hands(7), await first_hands(7), await first_hands(8)
        assert a == b and a != c

    run(scenario())


def test_a_match_against_bots_ends_with_a_record_that_replays(start_server: Callable[..., ServerThread]) -> None:
    server = start_server()

    async def scenario() -> None:
        lobby = Lobby(server.url)
        created = await lobby.create(rules="classic", name="Ann", seed=3)
        tid, token = created["id"], created["token"]
        for seat in (1, 2, 3):
            await lobby.bot(tid, seat, token, bot=("heuristic", "random", "heuristic")[seat - 1])
        async with Client(server.ws_url, tid, token) as me:
            await lobby.start(tid, token)
            final = await play_to_the_end(me, 0, pick=-1)
        view = final["view"]
        assert max(view["penalty_total"]) >= 12 and view["loser_team"] is not None
        assert final["status"] == "finished"
        record = await lobby.record(tid)
        outcome = replay(record)
        check_result(record, outcome)
        assert outcome.state.is_terminal() and record["result"]["penalty_total"] == view["penalty_total"]
        response = await lobby.http.get(f"/api/tables/{tid}/record")
        assert f'filename="goat-{tid}.json"' in response.headers["content-disposition"]
        info = (await lobby.http.get(f"/api/tables/{tid}")).json()
        assert info["status"] == "finished" and info["version"] == final["version"]
        await lobby.close()
        return tid, record, final

    tid, record, final = run(scenario())
    again = start_server.restart(server)   # the same data directory: the finished table is found in storage

    state = finished_table_after_restart(again, tid, record, final["version"])
    assert state["view"]["penalty_total"] == final["view"]["penalty_total"]
    assert state["view"]["hand"] is None


def test_a_dropped_player_is_replaced_by_a_bot_until_they_return(start_server: Callable[..., ServerThread]) -> None:
    server = start_server(grace_seconds=0.3)

    async def scenario() -> None:
        lobby = Lobby(server.url)
        tid, token = await lobby.with_bots(rules="classic", seed=5)
        async with Client(server.ws_url, tid) as watcher:
            me = await Client(server.ws_url, tid, token).__aenter__()
            await lobby.start(tid, token)
            version = (await me.until(my_turn))["version"]
            await me.__aexit__()   # dropped on my turn
            dropped = await watcher.until(lambda m: m["type"] == "state" and m["version"] == version
                                          and not m["seats"][0]["connected"])
            assert dropped["seats"][0]["autoplay"] is False
            taken = await watcher.until(lambda m: m["type"] == "state" and m["seats"][0]["autoplay"])
            assert taken["version"] == version
            moved = await watcher.until(lambda m: m["type"] == "state" and m["version"] > version)
            assert moved["view"]["history"][-1].startswith("0 ")   # the bot played my card

            me = await Client(server.ws_url, tid, token).__aenter__()
            back = await me.until(lambda m: m["type"] == "state")
            assert back["seats"][0]["connected"] and back["seats"][0]["autoplay"] is False
            mine = back if my_turn(back) else await me.until(my_turn)
            await asyncio.sleep(0.4)  # longer than a bot would wait: nobody plays for me now
            await me.send({"type": "sync"})
            assert (await me.until(lambda m: m["type"] == "state"))["version"] == mine["version"]
            ack = await me.reply_to(await me.act(mine["view"]["legal_actions"][0], version=mine["version"]))
            assert ack["version"] == mine["version"] + 1
            await me.__aexit__()
        await lobby.close()

    run(scenario())


def test_a_connection_of_a_seat_given_up_hears_nothing_more(start_server: Callable[..., ServerThread]) -> None:
    """Ann leaves seat 0 but keeps her connection open; Bob sits there and the game
    starts. Ann's old connection is told and closed: it never sees Bob's cards."""
    server = start_server()

    async def scenario() -> None:
        lobby = Lobby(server.url)
        created = await lobby.create(name="Ann", seed=2)
        tid, ann = created["id"], created["token"]
        keeper = await lobby.sit(tid, 1, "Keeper")
        async with Client(server.ws_url, tid, ann) as old:
            await old.until(lambda m: m["type"] == "state")
            response = await lobby.http.delete(f"/api/tables/{tid}/seats/0", headers={"Authorization": f"Bearer {ann}"})
            assert response.status_code == 200
            error = await old.until(lambda m: m["type"] == "error")
            assert error["code"] == "wrong-token" and "you left this seat" in error["message"]
            try:
                while True:
                    await old.recv(timeout=5)
            except ConnectionClosed as closed:
                assert closed.rcvd is not None and closed.rcvd.code == 4403
            bob = await lobby.sit(tid, 0, "Bob")
            for seat in (2, 3):
                await lobby.bot(tid, seat, keeper)
            async with Client(server.ws_url, tid, bob) as new:
                await lobby.start(tid, bob)
                state = await new.at_version(1)
                assert state["view"]["hand"]
            assert all(m.get("view") is None or m["view"].get("hand") is None for m in old.inbox)
        await lobby.close()

    run(scenario())
