"""The cap on open WebSockets per client address (``--connections-per-address``):
the connection over it is refused with one line (an ``error`` message and the
close reason, code 4429) while another address is still let in; a connection's
slot is freed however it ends; behind a trusted proxy the cap counts the
address ``X-Forwarded-For`` names, behind an untrusted one the proxy's own. A
seat's reconnect over the cap takes the place of its own dead connection (pinged
at once), never of a live one, and nobody else's, behind a proxy at its forwarded
address alone, at its own table alone, even past a stranger's connections that
never say hello; however a waiting or pinged connection ends (its client gone, its
seat given up, the server stopping), nothing stays counted; and a uvicorn without
what the ping builds on still serves."""

from __future__ import annotations

import ast
import asyncio
import base64
import inspect
import json
import logging
import os
import socket
import struct
import textwrap
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from goat.protocol import GoatError
from goat.server.connections import CLOSE_TOO_MANY, AddressCap, address_key, with_mapped_forms
from goat.server.runner import ServerThread
from goat.server.settings import Settings, SettingsError

from .conftest import TIMEOUT, Lobby, run, server_settings


def cap_of(server: ServerThread) -> AddressCap:
    """The running app's count of open connections per address."""
    return server.server.config.app.state.connections


async def open_ws(server: ServerThread, table: str, source: str | None = None,
                  forwarded_for: str | None = None) -> ClientConnection:
    """A WebSocket to ``table``'s channel, from the loopback address ``source``
    (127.0.0.2: another client on this machine), with ``X-Forwarded-For`` as a
    reverse proxy would send it."""
    extra: dict[str, Any] = {"local_addr": (source, 0)} if source else {}
    headers = {"X-Forwarded-For": forwarded_for} if forwarded_for else None
    return await connect(f"{server.ws_url}ws/{table}", open_timeout=TIMEOUT, additional_headers=headers,
                         proxy=None, **extra)


async def refused(ws: ClientConnection) -> str:
    """The refusal a connection over the cap gets: the error's message, after
    checking it is also the close reason and the code is 4429."""
    message = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
    assert message["type"] == "error" and message["code"] == "too-many-connections", message
    with pytest.raises(ConnectionClosed):
        await asyncio.wait_for(ws.recv(), TIMEOUT)
    assert ws.close_code == CLOSE_TOO_MANY and ws.close_reason == message["message"]
    assert "\n" not in message["message"] and len(message["message"].encode()) <= 123
    return message["message"]


async def say(ws: ClientConnection, first: dict[str, Any] | str) -> None:
    """Send ``first`` (a message, or text as it is) on a connection the server may
    have refused already."""
    with suppress(ConnectionClosed):
        await ws.send(first if isinstance(first, str) else json.dumps(first))


async def welcomed(ws: ClientConnection) -> None:
    """An admitted connection: its hello is answered with the welcome."""
    await ws.send(json.dumps({"type": "hello", "token": None}))
    while (message := json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT)))["type"] != "welcome":
        assert message["type"] != "error", message


async def table_of(server: ServerThread) -> str:
    lobby = Lobby(server.url)
    try:
        return (await lobby.create(name="Ann"))["id"]
    finally:
        await lobby.close()


async def until_held(cap: AddressCap, key: str, count: int) -> None:
    """Wait for the server to have seen the connections of ``key`` come or go."""
    for _ in range(500):
        if cap.open.get(key, 0) == count:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"{key} holds {cap.open.get(key, 0)} connections, not {count}")


def test_the_connection_over_the_cap_is_refused_and_another_address_let_in(
        start_server: Callable[..., ServerThread]) -> None:
    server = start_server(connections_per_address=2)

    async def scenario() -> None:
        table = await table_of(server)
        mine = [await open_ws(server, table) for _ in range(2)]
        for ws in mine:
            await welcomed(ws)
        line = await refused(await open_ws(server, table))
        assert line == "too many connections from your address: at most 2 at once"
        other = await open_ws(server, table, source="127.0.0.2")   # another client: its own count
        await welcomed(other)
        assert cap_of(server).open == {"127.0.0.1": 2, "127.0.0.2": 1}
        for ws in (*mine, other):
            await ws.close()

    run(scenario())


def test_a_closed_connection_frees_its_slot_however_it_ends(start_server: Callable[..., ServerThread]) -> None:
    """Closed by the client, cut without a close (the network gone), closed by the
    server (a wrong token, an unknown table), a tab's reconnection: each frees
    its slot, so the address may open another."""
    server = start_server(connections_per_address=2)
    cap = cap_of(server)

    async def scenario() -> None:
        table = await table_of(server)
        keep = await open_ws(server, table)
        await welcomed(keep)

        async def second(how: str) -> None:
            ws = await open_ws(server, table if how != "unknown table" else "nosuchtable")
            if how != "unknown table":   # which the server closes at once (4404)
                await until_held(cap, "127.0.0.1", 2)
                await refused(await open_ws(server, table))     # the address is full meanwhile
            if how == "closed":
                await ws.close()
            elif how == "cut":
                ws.transport.abort()
            elif how == "wrong token":
                await ws.send(json.dumps({"type": "hello", "token": "not-a-token"}))
            with pytest.raises(ConnectionClosed):
                while True:
                    await asyncio.wait_for(ws.recv(), TIMEOUT)
            await until_held(cap, "127.0.0.1", 1)

        for how in ("closed", "cut", "wrong token", "unknown table", "closed"):
            await second(how)
        again = await open_ws(server, table)      # the slot is free again: a reconnection gets in
        await welcomed(again)
        await again.close()
        await keep.close()
        await until_held(cap, "127.0.0.1", 0)
        assert cap.open == {}

    run(scenario())


async def by_hand(server: ServerThread, path: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter, bytes]:
    """A TCP connection to the server and the WebSocket handshake request for ``path``, not sent yet."""
    host, port = server.ws_url.split("//")[1].rstrip("/").rsplit(":", 1)
    reader, writer = await asyncio.open_connection(host, int(port))
    key = base64.b64encode(os.urandom(16)).decode()
    request = (f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode()
    return reader, writer, request


async def knock(server: ServerThread, path: str, how: str) -> None:
    """A WebSocket handshake by hand, cut at ``how``: ``"half"`` (half the request
    sent), ``"request"`` (the whole request, the answer never read), ``"upgraded"``
    (cut at the 101 answer), ``"reset"`` (the 101 read, then a TCP reset)."""
    reader, writer, request = await by_hand(server, path)
    writer.write(request[:len(request) // 2] if how == "half" else request)
    await writer.drain()
    if how in ("upgraded", "reset"):
        assert b" 101 " in await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), TIMEOUT)
    if how == "reset":   # SO_LINGER 0: the close is a reset, as a phone dropping off a network
        writer.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    writer.transport.abort()


def test_many_connections_opened_and_cut_in_every_way_leave_no_count(
        start_server: Callable[..., ServerThread]) -> None:
    """Two hundred connections from one address, each ended another way — cut
    during its handshake, at it, right after it, after its hello, closed by the
    server (an unknown table, a wrong token), closed by the client — and
    many at once: afterwards the address holds nothing, and may open its cap."""
    server = start_server(connections_per_address=3)
    cap = cap_of(server)

    async def one(table: str, how: str) -> None:
        if how in ("half", "request", "upgraded", "reset"):
            await knock(server, f"/ws/{table}", how)
            return
        try:
            ws = await open_ws(server, table if how != "unknown table" else "nosuchtable")
        except (OSError, asyncio.TimeoutError):
            return
        with suppress(ConnectionClosed):
            if how == "hello and cut":
                await ws.send(json.dumps({"type": "hello", "token": None}))
                ws.transport.abort()
            elif how == "wrong token":
                await ws.send(json.dumps({"type": "hello", "token": "not-a-token"}))
                await asyncio.wait_for(ws.wait_closed(), TIMEOUT)
            else:
                await ws.close()

    async def scenario() -> None:
        table = await table_of(server)
        ways = ("half", "request", "upgraded", "reset", "hello and cut", "wrong token", "unknown table", "closed")
        for _ in range(5):   # five waves of all the ways at once (most are refused: the cap is 3)
            await asyncio.gather(*(one(table, how) for how in ways * 5))
        await until_held(cap, "127.0.0.1", 0)
        opened = [await open_ws(server, table) for _ in range(3)]
        for ws in opened:
            await welcomed(ws)
        for ws in opened:
            await ws.close()
        await until_held(cap, "127.0.0.1", 0)
        assert cap.open == {}

    run(scenario())


def test_a_vanished_clients_connection_gives_its_slot_back_after_the_ping(
        start_server: Callable[..., ServerThread]) -> None:
    """A phone that changed networks leaves its connection open with nobody at
    the other end: it answers no ping. The server closes it once a ping goes
    unanswered (``--ping``: one to two times its seconds), and the address may
    connect again: the reconnect of a flaky phone is not refused for its own
    dead connections for long. Before, uvicorn's fixed 20 s and 20 s held the
    slot up to 40 s, and no option shortened it."""
    server = start_server(connections_per_address=1, ping_seconds=0.3)
    cap = cap_of(server)

    async def scenario() -> None:
        table = await table_of(server)
        lobby = Lobby(server.url)
        bo = await lobby.sit(table, 1, "Bo")
        await lobby.close()
        gone = await connect(f"{server.ws_url}ws/{table}", open_timeout=TIMEOUT, proxy=None, ping_interval=None)
        await gone.send(json.dumps({"type": "hello", "token": bo}))
        await asyncio.wait_for(gone.recv(), TIMEOUT)                    # welcome
        gone.transport.pause_reading()                                  # the phone is gone: no pong, no close
        stranger = await open_ws(server, table)
        await say(stranger, {"type": "hello", "token": None})
        await refused(stranger)                                         # another client, at once: the slot is held
        await until_held(cap, "127.0.0.1", 0)                           # within a second or so: not 40 s
        again = await open_ws(server, table)
        await welcomed(again)
        await again.close()
        gone.transport.abort()

    run(scenario())


def test_a_vanished_client_sent_more_than_the_network_holds_gives_its_slot_back_after_the_ping(
        start_server: Callable[..., ServerThread]) -> None:
    """A phone that vanished in the middle of a game was sent states it never
    took: the socket buffers fill, and more waits in the server's own. uvicorn
    closes a connection whose ping went unanswered gracefully, after that data,
    which never leaves: the connection held its slot (and its seat "connected")
    until TCP gave up, a quarter of an hour for a real phone. It is cut at once,
    as the ping of a seat's reconnect cuts one. (The buffers are made small here:
    loopback's would take megabytes first.)"""
    server = start_server(connections_per_address=1, ping_seconds=1.0)
    cap = cap_of(server)

    async def scenario() -> None:
        table, _, bo = await seat_table(server)
        host, port = server.ws_url.split("//")[1].rstrip("/").rsplit(":", 1)
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.connect((host, int(port)))
        phone = await connect(f"{server.ws_url}ws/{table}", open_timeout=TIMEOUT, proxy=None, ping_interval=None,
                              sock=sock)
        await phone.send(json.dumps({"type": "hello", "token": bo}))
        assert json.loads(await asyncio.wait_for(phone.recv(), TIMEOUT))["type"] == "welcome"
        phone.transport.pause_reading()                      # gone: reads nothing, answers no ping
        mine = [c for c in server.server.server_state.connections
                if (getattr(c, "client", None) or ("", 0))[1] == sock.getsockname()[1]]
        mine[0].transport.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        for _ in range(300):                                 # each sync is answered with the whole state
            await phone.send(json.dumps({"type": "sync"}))
        for _ in range(100):                                 # what it was not sent piles up: this test's case
            if mine[0].transport.get_write_buffer_size():
                break
            await asyncio.sleep(0.01)
        assert mine[0].transport.get_write_buffer_size() > 0
        await until_held(cap, "127.0.0.1", 0)                # within one to two --ping, not never
        phone.transport.abort()

    run(scenario())


async def silent_waiters(server: ServerThread, table: str) -> list[ClientConnection]:
    """As many connections from 127.0.0.1 as may wait over the cap, none saying
    anything, once the server counts them all as waiting."""
    from goat.server import connections

    cap = cap_of(server)
    silent = [await open_ws(server, table) for _ in range(connections.WAITING_PER_ADDRESS)]
    for _ in range(200):
        if cap.waiting == {"127.0.0.1": connections.WAITING_PER_ADDRESS}:
            break
        await asyncio.sleep(0.01)
    return silent


async def vanished(server: ServerThread, table: str, token: str) -> ClientConnection:
    """A seat's connection whose client vanished (a phone that changed networks):
    welcomed, then it reads nothing more, so it answers no ping and never closes."""
    ws = await connect(f"{server.ws_url}ws/{table}", open_timeout=TIMEOUT, proxy=None, ping_interval=None)
    await ws.send(json.dumps({"type": "hello", "token": token}))
    assert json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))["type"] == "welcome"
    ws.transport.pause_reading()
    return ws


async def hang_up(cap: AddressCap, phone: ClientConnection, *others: ClientConnection) -> None:
    """The end of a test with a vanished ``phone``: close ``others``, cut the phone
    (it reads nothing, so it would never close), and wait for every address to
    hold nothing: each place comes back."""
    for ws in others:
        await ws.close()
    phone.transport.abort()
    for key in list(cap.open):
        await until_held(cap, key, 0)


async def seated(ws: ClientConnection, token: str | None) -> dict[str, Any]:
    """Say hello with ``token``; the welcome (an error fails)."""
    await ws.send(json.dumps({"type": "hello", "token": token}))
    while (message := json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT)))["type"] != "welcome":
        assert message["type"] != "error", message
    return message


async def still_served(ws: ClientConnection) -> None:
    """An open connection the server still answers: a sync gets the state."""
    await ws.send(json.dumps({"type": "sync"}))
    while json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))["type"] != "state":
        pass


async def seat_table(server: ServerThread) -> tuple[str, str, str]:
    """A table with Ann at seat 0 and Bo at seat 1: (id, Ann's token, Bo's token)."""
    lobby = Lobby(server.url)
    try:
        created = await lobby.create(name="Ann")
        return created["id"], created["token"], await lobby.sit(created["id"], 1, "Bo")
    finally:
        await lobby.close()


def test_a_seats_reconnect_over_the_cap_takes_the_place_of_its_dead_connection(
        start_server: Callable[..., ServerThread]) -> None:
    """Bo's phone changed networks: its old connection is still open on the
    server, and with Bo's laptop the address is at its cap. The phone's
    reconnect says hello as Bo: the server pings Bo's older connections at once,
    cuts the one that does not answer and lets the reconnect in, seconds after,
    not once ``--ping`` (20 s here) found it dead twice over. The laptop answers
    its ping and stays. Before, the reconnect was refused (4429)."""
    server = start_server(connections_per_address=2)
    cap = cap_of(server)

    async def scenario() -> None:
        table, _, bo = await seat_table(server)
        laptop = await open_ws(server, table)
        assert (await seated(laptop, bo))["seat"] == 1
        phone = await vanished(server, table, bo)
        loop = asyncio.get_running_loop()
        started = loop.time()
        again = await open_ws(server, table)
        assert (await seated(again, bo))["seat"] == 1
        assert loop.time() - started < 10     # the ping's answer waited for: 3 s at most
        assert cap.open == {"127.0.0.1": 2}   # the phone's old place is the reconnect's
        for ws in (laptop, again):
            await still_served(ws)
        phone.transport.resume_reading()      # what the server did to the old one: cut it
        with pytest.raises(ConnectionClosed):
            while True:
                await asyncio.wait_for(phone.recv(), TIMEOUT)
        await laptop.close()
        await again.close()
        await until_held(cap, "127.0.0.1", 0)

    run(scenario())


def test_a_stranger_over_the_cap_is_still_refused(start_server: Callable[..., ServerThread]) -> None:
    """Over the cap, only a hello with the seat of an older connection of the
    same address can free a place: a spectator, another seat's token (Ann's, whom
    this address does not hold), a wrong token, not a hello at all — each is
    refused as before, and Bo's dead connection is not touched for them."""
    server = start_server(connections_per_address=1)
    cap = cap_of(server)

    async def scenario() -> None:
        table, ann, bo = await seat_table(server)
        phone = await vanished(server, table, bo)
        for first in ({"type": "hello", "token": None}, {"type": "hello", "token": ann},
                      {"type": "hello", "token": "not-a-token"}, {"type": "sync"}, "not json"):
            ws = await open_ws(server, table)
            await say(ws, first)
            assert await refused(ws) == "too many connections from your address: at most 1 at once"
        assert cap.open == {"127.0.0.1": 1}
        other = await open_ws(server, table, source="127.0.0.2")   # another address: its own places
        await seated(other, ann)
        await hang_up(cap, phone, other)

    run(scenario())


def test_a_connection_over_the_cap_that_never_says_hello_is_refused_within_the_bound(
        start_server: Callable[..., ServerThread], monkeypatch: pytest.MonkeyPatch) -> None:
    """A connection over the cap waits for its hello a few seconds at most, and
    only so many of one address wait at once: the one past them takes the place
    of the oldest that has said nothing, which is refused at once. Waiting costs
    the address nothing when none of its connections holds a seat (no hello could
    free a place): then every one is refused at once."""
    from goat.server import app, connections

    monkeypatch.setattr(app, "HELLO_WAIT_SECONDS", 1.0)
    server = start_server(connections_per_address=1)
    cap = cap_of(server)

    async def timed_refusal(ws: ClientConnection) -> float:
        loop = asyncio.get_running_loop()
        started = loop.time()
        await refused(ws)
        return loop.time() - started

    async def scenario() -> None:
        table, _, bo = await seat_table(server)
        watcher = await open_ws(server, table)
        await seated(watcher, None)
        assert await timed_refusal(await open_ws(server, table)) < 0.9   # no seat held: no wait
        await watcher.close()
        await until_held(cap, "127.0.0.1", 0)
        phone = await vanished(server, table, bo)
        silent = await silent_waiters(server, table)
        newest = await open_ws(server, table)                    # past the waiting ones: the oldest gives way
        assert await timed_refusal(silent[0]) < 0.9
        assert cap.waiting == {"127.0.0.1": connections.WAITING_PER_ADDRESS}
        waited = await asyncio.gather(*(timed_refusal(ws) for ws in (*silent[1:], newest)))
        assert all(w < 1.0 + 3 for w in waited), waited
        assert max(waited) > 0.5, waited   # they did wait
        assert cap.open == {"127.0.0.1": 1} and cap.waiting == {}
        await hang_up(cap, phone)

    run(scenario())


def test_a_seats_reconnect_gets_past_connections_that_never_say_hello(
        start_server: Callable[..., ServerThread]) -> None:
    """A stranger behind the same router fills the address's waiting places with
    connections that never say hello: Bo's phone, reconnecting after its old
    connection died, takes the place of the oldest of them (refused at once), says
    hello and is welcomed in its dead connection's place. The waiting places stay
    bounded. Before, the reconnect was refused at once while the silent ones waited."""
    from goat.server import connections

    server = start_server(connections_per_address=1)
    cap = cap_of(server)

    async def scenario() -> None:
        table, _, bo = await seat_table(server)
        phone = await vanished(server, table, bo)
        silent = await silent_waiters(server, table)
        assert cap.waiting == {"127.0.0.1": connections.WAITING_PER_ADDRESS}
        loop = asyncio.get_running_loop()
        started = loop.time()
        again = await open_ws(server, table)
        assert (await seated(again, bo))["seat"] == 1
        assert cap.open == {"127.0.0.1": 1}                  # the dead phone's place is the reconnect's
        assert await refused(silent[0]) and loop.time() - started < 4.5   # the oldest: before its 5 s were up
        await still_served(again)
        for ws in silent[1:]:                                # the others still wait their time out
            await refused(ws)
        assert cap.waiting == {}
        await hang_up(cap, phone, again)

    run(scenario())


def test_a_connection_over_the_cap_for_another_table_reclaims_nothing(
        start_server: Callable[..., ServerThread]) -> None:
    """A seat token is the secret of one seat at one table. Bo's token said in a
    hello on another table's channel holds no seat there, so it frees no place of
    his: the connection is refused as over the cap, and his connection at his own
    table is not cut for it. Before, his connection was pinged and cut, and the
    newcomer took its place only to be closed for a wrong token (4403). As no hello
    on a table where the address holds no seat could free a place, a connection
    there over the cap is refused at once, without waiting (it waited 5 s)."""
    server = start_server(connections_per_address=1)
    cap = cap_of(server)

    async def scenario() -> None:
        table, _, bo = await seat_table(server)
        other = await table_of(server)
        phone = await vanished(server, table, bo)
        elsewhere = await open_ws(server, other)
        await say(elsewhere, {"type": "hello", "token": bo})
        loop = asyncio.get_running_loop()
        started = loop.time()
        assert await refused(elsewhere) == "too many connections from your address: at most 1 at once"
        assert loop.time() - started < 2.0                   # at once: no hello there could free a place
        assert cap.open == {"127.0.0.1": 1} and cap.waiting == {}
        silent = await open_ws(server, other)                # nor does one that says nothing wait
        started = loop.time()
        await refused(silent)
        assert loop.time() - started < 2.0
        phone.transport.resume_reading()                     # not cut: still served
        await still_served(phone)
        await phone.close()
        await until_held(cap, "127.0.0.1", 0)

    run(scenario())


class SeatHolder:
    """A connection holding a place as the cap sees it: a seat's token at a table."""

    def __init__(self, seat_token: str | None, table_id: str | None) -> None:
        self.seat_token, self.table_id = seat_token, table_id

    async def answers_ping(self, timeout: float) -> bool:
        return False


def test_the_waiting_places_give_way_only_for_a_silent_waiter() -> None:
    """The rules of the waiting places without a server: a connection may wait
    only at a table where its address holds a seat; the one past the bound takes
    the place of the oldest waiter that has heard nothing yet, even one still being
    accepted (its wait ends at once); once every waiter has heard its first
    message, the next one may not wait; and every way out leaves nothing counted."""

    async def scenario() -> None:
        cap = AddressCap(1, waiting=2)
        place = cap.admit("10.0.0.1")
        assert place is not None and cap.admit("10.0.0.1") is None
        place.holder = SeatHolder("bo", "t1")
        assert cap.may_wait("10.0.0.1", "t1") and not cap.may_wait("10.0.0.1", "t2")
        assert not cap.may_wait("10.0.0.2", "t1")
        hello: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        with cap.waiting_for_hello("10.0.0.1") as accepting, cap.waiting_for_hello("10.0.0.1") as heard:
            hearing = asyncio.ensure_future(heard.first_event(lambda: hello, 5.0))
            await asyncio.sleep(0)
            hello.set_result("hello")
            assert cap.waiting == {"10.0.0.1": 2} and cap.may_wait("10.0.0.1", "t1")
            with cap.waiting_for_hello("10.0.0.1") as newest:   # the silent one gives way, not the heard one
                assert cap.waiting == {"10.0.0.1": 2}
                assert await accepting.first_event(asyncio.Event().wait, 5.0) is None   # at once
                assert cap.may_wait("10.0.0.1", "t1")          # the newest has heard nothing yet
                said = asyncio.get_running_loop().create_future()
                said.set_result("hi")
                assert await newest.first_event(lambda: said, 5.0) == "hi"
                assert not cap.may_wait("10.0.0.1", "t1")      # both have heard: the next is refused
            assert await hearing == "hello"
        with cap.waiting_for_hello("10.0.0.1") as late:
            assert await late.first_event(asyncio.Event().wait, 0.05) is None   # its time ran out
        assert cap.waiting == {}
        place.release()
        assert cap.open == {} and not cap.may_wait("10.0.0.1", "t1")

    asyncio.run(scenario())


def test_a_waiter_stopped_as_its_receive_fails_leaves_no_unread_exception() -> None:
    """A server stopping cancels a waiting connection's task just as its receive
    failed (the client gone): that exception is never raised to anyone, and unless
    the receive task is marked read (its ``cancel()``, even once done, does so)
    asyncio logs "Task exception was never retrieved" with its traceback."""
    import gc

    async def scenario() -> list[dict[str, Any]]:
        unread: list[dict[str, Any]] = []
        asyncio.get_running_loop().set_exception_handler(lambda loop, context: unread.append(context))

        async def receive() -> dict[str, Any]:
            raise OSError("the client went away")

        with AddressCap(1, waiting=1).waiting_for_hello("10.0.0.1") as waiter:
            waiting = asyncio.ensure_future(waiter.first_event(receive, 5.0))
            await asyncio.sleep(0)   # it starts its receive task and waits for it
            await asyncio.sleep(0)   # the receive fails; the waiting task is not woken yet
            waiting.cancel()         # the server stops now
            with pytest.raises(asyncio.CancelledError):
                await waiting
        del waiter, waiting
        gc.collect()
        return unread

    assert asyncio.run(scenario()) == []


def test_two_live_tabs_of_one_seat_both_stay(start_server: Callable[..., ServerThread]) -> None:
    """Two tabs of Bo's seat fill the address's cap; a third of Bo's is refused,
    as both older ones answer the ping, and both go on being served."""
    server = start_server(connections_per_address=2)
    cap = cap_of(server)

    async def scenario() -> None:
        table, _, bo = await seat_table(server)
        tabs = [await open_ws(server, table) for _ in range(2)]
        for ws in tabs:
            await seated(ws, bo)
        third = await open_ws(server, table)
        await say(third, {"type": "hello", "token": bo})
        await refused(third)
        assert cap.open == {"127.0.0.1": 2}
        for ws in tabs:
            await still_served(ws)
            await ws.close()

    run(scenario())


@pytest.mark.parametrize("when", ["before its hello", "during the ping"])
def test_a_connection_over_the_cap_that_goes_away_leaves_no_count(
        start_server: Callable[..., ServerThread], when: str) -> None:
    """A waiting connection cut by its client, before its hello or while the seat's
    older connection is pinged for it: the waiting count goes back to nothing, and
    the address holds what it held (the dead one, or, once that was cut for the
    hello, the reconnect's place given back)."""
    server = start_server(connections_per_address=1)
    cap = cap_of(server)

    async def scenario() -> None:
        table, _, bo = await seat_table(server)
        phone = await vanished(server, table, bo)
        ws = await open_ws(server, table)
        if when == "during the ping":
            await say(ws, {"type": "hello", "token": bo})
        for _ in range(200):
            if cap.waiting:
                break
            await asyncio.sleep(0.01)
        ws.transport.abort()
        await until_held(cap, "127.0.0.1", 1 if when == "before its hello" else 0)
        for _ in range(500):
            if not cap.waiting:
                break
            await asyncio.sleep(0.01)
        assert cap.waiting == {}
        await hang_up(cap, phone)

    run(scenario())


async def reconnect_and_leave(server: ServerThread, table: str, token: str, how: str) -> Callable[[], None]:
    """A reconnect over the cap that says hello as ``token``'s seat, and whose client
    leaves: ``"closes"`` or ``"vanishes"`` (its connection reset) while the older
    connection is pinged for it; ``"speaks, then closes"``: a sync during the ping,
    then its close; ``"... at once"``: its close sent with the hello (and a sync, or
    three: more than the server reads ahead under a burst of 2) in one write, so its
    disconnect is queued before the ping is out, behind what it said. Returns what
    lets go of the client's end."""
    hello, sync = json.dumps({"type": "hello", "token": token}), json.dumps({"type": "sync"})
    if how.endswith("at once"):
        raw = await RawSocket.open(server, table)
        syncs = {"closes at once": 0, "speaks and closes at once": 1, "floods and closes at once": 3}[how]
        said = [hello, *[sync] * syncs]
        raw.send_together(*((1, text.encode()) for text in said), (8, struct.pack("!H", 1000)))
        return raw.writer.transport.abort
    again = await open_ws(server, table)
    await say(again, hello)
    await asyncio.sleep(0.3)                                  # the ping is out (3 s to answer)
    if how == "speaks, then closes":
        await say(again, sync)
        await asyncio.sleep(0.3)
    if how == "vanishes":
        again.transport.abort()
    else:
        await again.close()
    return again.transport.abort


@pytest.mark.parametrize("how", ["closes", "vanishes", "speaks, then closes", "closes at once",
                                 "speaks and closes at once", "floods and closes at once"])
def test_a_reconnect_gone_during_the_ping_is_never_admitted_nor_shown_connected(
        start_server: Callable[..., ServerThread], how: str) -> None:
    """Bo's reconnect over the cap says hello, and its client closes (or its
    connection is reset) while Bo's dead connection is pinged for it, or has closed
    already, its disconnect queued behind its hello and messages (more, too, than the
    server reads ahead): the dead one is cut, and the reconnect is not let in. Ann, watching from another address, sees
    Bo's seat go from connected to not connected once, and never connected again
    (before, the gone reconnect took the freed place for a moment: its seat shown
    connected, then not; after a message, the server stopped listening for its
    disconnect); every place comes back."""
    server = start_server(connections_per_address=1, rate_burst=2)
    cap = cap_of(server)

    async def scenario() -> None:
        table, ann, bo = await seat_table(server)
        watcher = await open_ws(server, table, source="127.0.0.2")
        await seated(watcher, ann)
        phone = await vanished(server, table, bo)
        let_go = await reconnect_and_leave(server, table, bo, how)
        shown: list[bool] = []                                # Bo's seat, state after state
        loop = asyncio.get_running_loop()
        until = loop.time() + 5.0                             # past the ping's 3 s, and what would follow
        while loop.time() < until:
            try:
                message = json.loads(await asyncio.wait_for(watcher.recv(), until - loop.time()))
            except TimeoutError:
                break
            if message["type"] == "state":
                shown.append(message["seats"][1]["connected"])
        changes = [c for i, c in enumerate(shown) if i == 0 or c != shown[i - 1]]
        assert changes == [False, True, False], shown   # before the phone, the phone, cut: and no blip
        assert cap.waiting == {} and cap.open == {"127.0.0.2": 1}
        await hang_up(cap, phone, watcher)
        let_go()

    run(scenario())


def test_a_message_sent_during_the_ping_is_answered_once_let_in(
        start_server: Callable[..., ServerThread]) -> None:
    """Bo's reconnect says hello, then ``ping``, while his dead connection is
    pinged for it (the server listens meanwhile, to hear a client that leaves):
    once let in, it is welcomed and then answered the ``pong``, nothing lost."""
    server = start_server(connections_per_address=1)

    async def scenario() -> None:
        table, _, bo = await seat_table(server)
        phone = await vanished(server, table, bo)
        again = await open_ws(server, table)
        await say(again, {"type": "hello", "token": bo})
        await asyncio.sleep(0.3)                              # the ping is out (3 s to answer)
        await say(again, {"type": "ping"})
        said = []
        while not said or said[-1] != "pong":
            said.append(json.loads(await asyncio.wait_for(again.recv(), TIMEOUT))["type"])
        assert said[0] == "welcome" and "error" not in said, said
        await again.close()
        phone.transport.abort()

    run(scenario())


def test_a_seat_given_up_while_its_connection_is_pinged(start_server: Callable[..., ServerThread]) -> None:
    """Bo leaves his seat while the reconnect's ping of his dead connection is
    out: the reconnect is told its token holds no seat (4403), and every place
    comes back."""
    server = start_server(connections_per_address=1)
    cap = cap_of(server)

    async def scenario() -> None:
        table, _, bo = await seat_table(server)
        phone = await vanished(server, table, bo)
        again = await open_ws(server, table)
        await say(again, {"type": "hello", "token": bo})
        await asyncio.sleep(0.3)                              # the ping is out (3 s to answer)
        async with httpx.AsyncClient(base_url=server.url, timeout=TIMEOUT) as http:
            left = await http.delete(f"/api/tables/{table}/seats/1", headers={"Authorization": f"Bearer {bo}"})
            assert left.status_code == 200, left.text
        message = json.loads(await asyncio.wait_for(again.recv(), TIMEOUT))
        assert message["code"] == "wrong-token", message
        await asyncio.wait_for(again.wait_closed(), TIMEOUT)
        assert again.close_code == 4403
        await hang_up(cap, phone)
        assert cap.waiting == {}

    run(scenario())


@pytest.mark.parametrize("said", [False, True])
def test_a_server_stopping_while_connections_wait_or_are_pinged_frees_everything(
        start_server: Callable[..., ServerThread], said: bool, caplog: pytest.LogCaptureFixture) -> None:
    """Stopped while three connections over the cap wait for their hello, or
    while their hellos as Bo have his dead connection pinged: no place and no
    waiting count is left, and nothing is logged as an error."""
    server = start_server(connections_per_address=1)
    cap = cap_of(server)

    async def scenario() -> list[ClientConnection]:
        table, _, bo = await seat_table(server)
        opened = [await vanished(server, table, bo)]
        for _ in range(3):
            opened.append(await open_ws(server, table))
            if said:
                await say(opened[-1], {"type": "hello", "token": bo})
        for _ in range(200):
            if cap.waiting == {"127.0.0.1": 3}:
                break
            await asyncio.sleep(0.01)
        assert cap.waiting == {"127.0.0.1": 3}
        return opened

    with caplog.at_level(logging.WARNING):
        opened = run(scenario())
        server.__exit__(None, None, None)
    assert cap.open == {} and cap.waiting == {}
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.records
    del opened


def test_what_is_heard_during_the_ping_is_every_message_up_to_the_bound() -> None:
    """While the reclaim's ping is out, the waiting connection is read all along:
    every message in order (uvicorn reads a client's next frame only once the
    last message was taken: a close behind an unread one never arrives), up to the
    bound, its client's leaving too; what was not read stays queued, nothing lost."""
    from goat.server.connections import heard_meanwhile

    async def scenario() -> None:
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

        async def work(wait: float) -> str:
            await asyncio.sleep(wait)
            return "pinged"

        for text in ("a", "b", "c"):
            queue.put_nowait({"type": "websocket.receive", "text": text})
        result, heard, left = await heard_meanwhile(queue.get, work(0.05), 2)
        assert (result, [m["text"] for m in heard], left) == ("pinged", ["a", "b"], False)
        assert queue.qsize() == 1                                   # "c": not read, not lost
        queue.get_nowait()
        later = asyncio.get_running_loop().call_later(0.02, queue.put_nowait, {"type": "websocket.disconnect"})
        queue.put_nowait({"type": "websocket.receive", "text": "d"})
        assert await heard_meanwhile(queue.get, work(0.1), 5) == ("pinged", [{"type": "websocket.receive",
                                                                               "text": "d"}], True)
        assert await heard_meanwhile(queue.get, work(0.01), 5) == ("pinged", [], False)   # nothing came
        queue.put_nowait({"type": "websocket.receive", "text": "e"})   # the cancelled read took nothing
        assert queue.get_nowait()["text"] == "e"
        later.cancel()

    asyncio.run(scenario())


class RawSocket:
    """A WebSocket client by hand, to choose which pings it answers: a client may
    answer only the latest of several (RFC 6455, 5.5.3)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, server: ServerThread, table: str) -> "RawSocket":
        reader, writer, request = await by_hand(server, f"/ws/{table}")
        writer.write(request)
        assert b" 101 " in await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), TIMEOUT)
        return cls(reader, writer)

    def send(self, opcode: int, payload: bytes) -> None:
        """One masked frame (1: text, 8: close, 10: pong)."""
        self.send_together((opcode, payload))

    def send_together(self, *frames: tuple[int, bytes]) -> None:
        """Masked frames ``(opcode, payload)`` in one write: the server reads them all at once."""
        data = bytearray()
        for opcode, payload in frames:
            mask = os.urandom(4)
            size = len(payload)
            length = bytes([0x80 | size]) if size < 126 else bytes([0x80 | 126]) + struct.pack("!H", size)
            data += bytes([0x80 | opcode]) + length + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.writer.write(bytes(data))

    async def frame(self) -> tuple[int, bytes]:
        """The next frame from the server: (opcode, payload); 8 is a close."""
        first, second = await self.reader.readexactly(2)
        size = second & 0x7F
        if size >= 126:
            size = int.from_bytes(await self.reader.readexactly(2 if size == 126 else 8), "big")
        return first & 0x0F, await self.reader.readexactly(size)


def test_a_client_that_answers_only_the_latest_ping_is_not_taken_for_dead(
        start_server: Callable[..., ServerThread]) -> None:
    """The ping of a seat's reconnect over the cap may cross the server's own
    keepalive ping; a client that answers only the latest (as RFC 6455 allows)
    answered both, and stays: uvicorn alone would wait for the keepalive's own
    answer and cut it."""
    server = start_server(connections_per_address=1, ping_seconds=1.5)

    async def scenario() -> None:
        table, _, bo = await seat_table(server)
        raw = await RawSocket.open(server, table)
        raw.send(1, json.dumps({"type": "hello", "token": bo}).encode())
        held: bytes | None = None
        while True:   # answer the keepalive's pings until one is held back unanswered
            opcode, payload = await asyncio.wait_for(raw.frame(), TIMEOUT)
            if opcode == 9:
                held = payload
                break
        again = await open_ws(server, table)        # the reconnect over the cap: the server pings the raw one
        await say(again, {"type": "hello", "token": bo})
        while True:
            opcode, payload = await asyncio.wait_for(raw.frame(), TIMEOUT)
            assert opcode != 8, payload             # not closed
            if opcode == 9 and payload != held:
                raw.send(10, payload)               # the latest only
                break
        await refused(again)                        # the raw one answered: alive, the address full
        loop = asyncio.get_running_loop()
        until = loop.time() + 3.5                   # past the held keepalive ping's 1.5 s
        while loop.time() < until:
            try:
                opcode, payload = await asyncio.wait_for(raw.frame(), until - loop.time())
            except TimeoutError:
                break
            assert opcode != 8, payload             # the keepalive did not cut it
            if opcode == 9:
                raw.send(10, payload)
        raw.writer.close()

    run(scenario())


def test_a_connection_lost_while_its_ping_is_out_frees_its_place_at_once(
        start_server: Callable[..., ServerThread]) -> None:
    """Bo's older connection goes (its TCP connection reset) while the ping of his
    reconnect waits for its answer: the wait ends then, not 3 s later, and the
    reconnect is let in."""
    server = start_server(connections_per_address=1)

    async def scenario() -> None:
        table, _, bo = await seat_table(server)
        raw = await RawSocket.open(server, table)
        raw.send(1, json.dumps({"type": "hello", "token": bo}).encode())
        while b'"welcome"' not in (await asyncio.wait_for(raw.frame(), TIMEOUT))[1]:
            pass
        again = await open_ws(server, table)
        await say(again, {"type": "hello", "token": bo})
        while (await asyncio.wait_for(raw.frame(), TIMEOUT))[0] != 9:   # the ping: not answered
            pass
        loop = asyncio.get_running_loop()
        lost = loop.time()
        raw.writer.transport.abort()
        assert (await seated(again, bo))["seat"] == 1
        assert loop.time() - lost < 2.0
        await again.close()

    run(scenario())


def test_a_stopping_server_frees_every_slot(start_server: Callable[..., ServerThread]) -> None:
    server = start_server(connections_per_address=3)
    cap = cap_of(server)

    async def scenario() -> list[ClientConnection]:
        table = await table_of(server)
        opened = [await open_ws(server, table) for _ in range(3)]
        for ws in opened:
            await welcomed(ws)
        return opened

    opened = run(scenario())
    assert cap.open == {"127.0.0.1": 3}
    server.__exit__(None, None, None)
    assert cap.open == {}, cap.open
    del opened


def test_no_cap_with_zero(start_server: Callable[..., ServerThread]) -> None:
    server = start_server(connections_per_address=0)

    async def scenario() -> None:
        table = await table_of(server)
        opened = [await open_ws(server, table) for _ in range(40)]
        for ws in opened:
            await welcomed(ws)
        for ws in opened:
            await ws.close()

    run(scenario())


@pytest.mark.parametrize("trusted", [None, "127.0.0.1/8"])
def test_behind_a_trusted_proxy_the_cap_counts_the_forwarded_clients(
        start_server: Callable[..., ServerThread], trusted: str | None) -> None:
    """The proxy on this machine is trusted by default: two clients it forwards
    have a cap each, and a client cannot slip past its cap by sending an
    ``X-Forwarded-For`` of its own (the proxy appends the address it saw, and
    the last untrusted address of the list is the client). Trusted as a network
    written from one of its addresses (``127.0.0.1/8``) too: uvicorn took that
    for a word no address equals, and silently trusted no proxy."""
    server = start_server(connections_per_address=1, **({"trusted_proxies": trusted} if trusted else {}))

    async def scenario() -> None:
        table = await table_of(server)
        ann = await open_ws(server, table, forwarded_for="203.0.113.7")
        bo = await open_ws(server, table, forwarded_for="198.51.100.9")
        for ws in (ann, bo):
            await welcomed(ws)
        await refused(await open_ws(server, table, forwarded_for="203.0.113.7"))
        await refused(await open_ws(server, table, forwarded_for="192.0.2.1, 203.0.113.7"))   # a forged first
        assert cap_of(server).open == {"203.0.113.7": 1, "198.51.100.9": 1}
        for ws in (ann, bo):
            await ws.close()

    run(scenario())


def test_behind_a_trusted_proxy_a_seats_reconnect_reclaims_only_at_its_own_address(
        start_server: Callable[..., ServerThread]) -> None:
    """Behind the proxy the waiting and the reclaim count the forwarded address,
    as the cap does: Bo's reconnect from his phone's address takes the place of
    his dead connection there; Bo's token from another address has that
    address's own places and leaves the phone's connection alone."""
    server = start_server(connections_per_address=1)
    cap = cap_of(server)

    async def scenario() -> None:
        table, _, bo = await seat_table(server)
        phone = await open_ws(server, table, forwarded_for="203.0.113.7")
        await seated(phone, bo)
        phone.transport.pause_reading()                     # vanished
        laptop = await open_ws(server, table, forwarded_for="198.51.100.9")
        await seated(laptop, bo)
        again = await open_ws(server, table, forwarded_for="203.0.113.7")
        await seated(again, bo)
        assert cap.open == {"203.0.113.7": 1, "198.51.100.9": 1}
        await still_served(laptop)
        await hang_up(cap, phone, laptop, again)

    run(scenario())


@pytest.mark.parametrize("trusted", ["", "10.0.0.1"])
def test_an_untrusted_proxy_is_one_address_for_all_its_clients(
        start_server: Callable[..., ServerThread], trusted: str) -> None:
    """What the docs warn of: without ``--trusted-proxies`` naming it, the proxy's
    ``X-Forwarded-For`` is not believed, and all its clients share its one cap."""
    server = start_server(connections_per_address=1, trusted_proxies=trusted)

    async def scenario() -> None:
        table = await table_of(server)
        ann = await open_ws(server, table, forwarded_for="203.0.113.7")
        await welcomed(ann)
        await refused(await open_ws(server, table, forwarded_for="198.51.100.9"))
        assert cap_of(server).open == {"127.0.0.1": 1}
        await ann.close()

    run(scenario())


def test_a_server_on_every_address_trusts_its_own_machines_proxy_over_ipv4(tmp_path: Path) -> None:
    """``goat serve --host ::`` takes IPv4 connections on its IPv6 socket: a proxy on
    this machine connecting to 127.0.0.1 arrives as ``::ffff:127.0.0.1``, which
    uvicorn did not take for the trusted ``127.0.0.1`` — every player counted as
    the proxy, and the 33rd was refused. Its clients have a cap each now."""
    try:
        server = ServerThread(server_settings(tmp_path / "data", connections_per_address=1), host="::")
    except (GoatError, OSError) as exc:
        pytest.skip(f"no IPv6 here: {exc}")
    if server.sock.getsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY):
        server.sock.close()
        pytest.skip("an IPv6 socket here takes no IPv4 connections (net.ipv6.bindv6only)")
    port = server.sock.getsockname()[1]

    async def scenario() -> None:
        lobby = Lobby(f"http://127.0.0.1:{port}/")
        table = (await lobby.create(name="Ann"))["id"]
        await lobby.close()
        opened = []
        for client in ("203.0.113.7", "198.51.100.9"):
            opened.append(await connect(f"ws://127.0.0.1:{port}/ws/{table}", open_timeout=TIMEOUT, proxy=None,
                                        additional_headers={"X-Forwarded-For": client}))
            await welcomed(opened[-1])
        assert server.server.config.app.state.connections.open == {"203.0.113.7": 1, "198.51.100.9": 1}
        for ws in opened:
            await ws.close()

    with server:
        run(scenario())


def test_the_trusted_proxies_given_to_uvicorn_hold_their_ipv4_mapped_forms() -> None:
    assert with_mapped_forms(("127.0.0.1", "::1")) == ["127.0.0.1", "::1", "::ffff:7f00:1"]
    assert with_mapped_forms(("10.0.0.0/8", "fd00::/8")) == ["10.0.0.0/8", "fd00::/8", "::ffff:a00:0/104"]
    assert with_mapped_forms(("*",)) == ["*"] and with_mapped_forms(()) == []


def test_an_ipv6_client_counts_by_its_64() -> None:
    """A home or a machine gets a whole /64: counting single IPv6 addresses would
    cap nothing. An IPv4-mapped address is its IPv4 address."""
    assert address_key("2001:db8:1:2::5") == address_key("2001:db8:1:2:ffff::9") == "2001:db8:1:2::/64"
    assert address_key("2001:db8:1:3::5") != address_key("2001:db8:1:2::5")
    assert address_key("::ffff:203.0.113.7") == address_key("203.0.113.7") == "203.0.113.7"
    cap = AddressCap(1)
    assert cap.admit("2001:db8:1:2::5") is not None and cap.admit("2001:db8:1:2::6") is None


@pytest.mark.parametrize("values, problem", [
    ({"connections_per_address": -1}, "--connections-per-address must be a whole number >= 0 (0: no cap), not -1"),
    ({"connections_per_address": 2.5}, "--connections-per-address must be a whole number >= 0 (0: no cap), not 2.5"),
    ({"trusted_proxies": "nginx"}, "--trusted-proxies must be IP addresses or networks"),
    ({"trusted_proxies": "10.0.0.0/33"}, "'10.0.0.0/33' is neither"),
    ({"trusted_proxies": "*,10.0.0.1"}, "--trusted-proxies is * (any proxy) alone or a list of addresses"),
])
def test_bad_settings_are_one_line(values: dict[str, Any], problem: str) -> None:
    with pytest.raises(SettingsError) as caught:
        Settings(**values)
    assert "\n" not in str(caught.value) and problem in str(caught.value)


def test_a_trusted_network_is_kept_as_its_network() -> None:
    assert Settings(trusted_proxies="10.1.2.3/16, 127.0.0.1,fd00::5/8").trusted_proxies == \
        ("10.1.0.0/16", "127.0.0.1", "fd00::/8")


def test_the_settings_from_the_environment() -> None:
    settings = Settings.from_env({"GOAT_CONNECTIONS_PER_ADDRESS": "5", "GOAT_TRUSTED_PROXIES": "10.0.0.5, fd00::/8"})
    assert settings.connections_per_address == 5 and settings.trusted_proxies == ("10.0.0.5", "fd00::/8")
    assert Settings.from_env({}).connections_per_address == 32
    assert Settings.from_env({}).trusted_proxies == ("127.0.0.1", "::1")
    with pytest.raises(SettingsError, match="^GOAT_CONNECTIONS_PER_ADDRESS must be a whole number >= 0"):
        Settings.from_env({"GOAT_CONNECTIONS_PER_ADDRESS": "many"})
    with pytest.raises(SettingsError, match="^GOAT_TRUSTED_PROXIES must be IP addresses"):
        Settings.from_env({"GOAT_TRUSTED_PROXIES": "proxy.local"})


def test_the_installed_uvicorn_has_what_the_ping_builds_on() -> None:
    """The ping of a seat's older connection rides on uvicorn's own sans-I/O
    WebSocket protocol; a uvicorn without its parts falls back to uvicorn's
    protocol (the server runs, without the ping). This fails, rather than the
    fallback passing silently, when an upgrade of uvicorn reshapes them."""
    from goat.server.wsping import PingableWebSocketProtocol, websocket_protocol

    assert websocket_protocol() is PingableWebSocketProtocol


def test_the_fallback_guard_names_every_part_of_uvicorn_the_ping_uses() -> None:
    """``NEEDED`` decides between the pingable protocol and uvicorn's own. A part of
    uvicorn's protocol the subclass uses but ``NEEDED`` leaves out (``close_sent``,
    ``transport``, ``scope``...) would not make an upgrade that renames it fall
    back: the ping would raise ``AttributeError`` in a reconnect's handler (a
    traceback, the reconnect dropped)."""
    from goat.server.wsping import NEEDED, PingableWebSocketProtocol

    tree = ast.parse(textwrap.dedent(inspect.getsource(PingableWebSocketProtocol)))
    extended = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Call) and getattr(node.value.func, "id", "") == "super"}
    used = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name) and node.value.id == "self"}
    init = next(node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef) and node.name == "__init__")
    own = {node.attr for node in ast.walk(init) if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)}
    own |= {name for name in vars(PingableWebSocketProtocol) if name not in extended}
    assert (used | extended) - own - {"__init__"} <= set(NEEDED), (used | extended) - own - set(NEEDED)


#: The parts of the installed uvicorn's protocol that uvicorn 0.44's, the minimum
#: pyproject.toml allows, does not have yet (read from the two versions' sources).
NEWER_THAN_UVICORN_0_44 = {"asgi_version", "close_timeout", "close_timer", "disconnected", "frames",
                           "handle_handshake_exception", "pause_writing", "resume_writing"}


def test_the_ping_builds_on_nothing_the_oldest_allowed_uvicorn_lacks() -> None:
    """With the test above, what the ping uses is in ``NEEDED``; none of it may be
    newer than the uvicorn pyproject.toml allows: the ping read ``disconnected``,
    which uvicorn 0.44 has not, and raised ``AttributeError`` there at every
    reconnect over the cap; a guard naming it would turn the ping off there."""
    from goat.server.wsping import NEEDED

    assert not set(NEEDED) & NEWER_THAN_UVICORN_0_44


def test_a_uvicorn_without_what_the_ping_builds_on_still_serves(
        start_server: Callable[..., ServerThread], monkeypatch: pytest.MonkeyPatch) -> None:
    """The fallback: a uvicorn lacking a part the ping builds on runs its own
    WebSocket protocol. The server starts and serves a table; with no ``goat.ping``
    every older connection counts as alive, so a seat's reconnect over the cap
    is refused with the usual line (as before the ping), and gets in once the
    dead connection has gone."""
    from goat.server import wsping

    monkeypatch.setattr(wsping, "NEEDED", (*wsping.NEEDED, "no_such_part"))
    server = start_server(connections_per_address=1)
    assert server.server.config.ws == "auto"
    cap = cap_of(server)

    async def scenario() -> None:
        table, _, bo = await seat_table(server)
        phone = await vanished(server, table, bo)
        again = await open_ws(server, table)
        await say(again, {"type": "hello", "token": bo})
        assert await refused(again) == "too many connections from your address: at most 1 at once"
        phone.transport.abort()
        await until_held(cap, "127.0.0.1", 0)
        again = await open_ws(server, table)
        assert (await seated(again, bo))["seat"] == 1
        await still_served(again)
        await again.close()

    run(scenario())
