"""A connection whose client has already left by the time its ``hello`` is read
(its close sent with the hello: a page reloaded twice quickly, a phone that lost
the network right after reconnecting) is never attached to its seat, under the cap
as over it: nobody sees the seat connected for a moment, and a seat in its grace
period or played by its stand-in bot is left as it was — a burst of dead
reconnects neither starts the grace period over nor takes the seat back from the bot."""

from __future__ import annotations

import asyncio
import json
import struct
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from goat.server.runner import ServerThread
from goat.server.settings import Settings
from goat.server.storage import AsyncStorage, Storage
from goat.server.tables import ClientGone, Tables

from .conftest import TIMEOUT, Client, Lobby, run
from .test_connection_cap import RawSocket

#: A seat as a watcher is shown it, state by state: (connected, autoplay).
Shown = tuple[bool, bool]


async def dead_reconnect(server: ServerThread, table: str, token: str) -> None:
    """A page that says ``hello`` with ``token`` and closes in the same write, so
    its close has arrived when the server reads the hello; waits for the server's
    close frame, then lets go of the connection."""
    raw = await RawSocket.open(server, table)
    try:
        raw.send_together((1, json.dumps({"type": "hello", "token": token}).encode()),
                          (8, struct.pack("!H", 1000)))
        while (await asyncio.wait_for(raw.frame(), TIMEOUT))[0] != 8:
            pass
    finally:
        raw.writer.transport.abort()


async def seats_shown(watcher: Client, seconds: float, seats: tuple[int, ...] = (1,)) -> dict[int, list[Shown]]:
    """What ``watcher`` is shown of ``seats`` in the next ``seconds``."""
    shown: dict[int, list[Shown]] = {seat: [] for seat in seats}
    loop = asyncio.get_running_loop()
    until = loop.time() + seconds
    while (left := until - loop.time()) > 0:
        try:
            message = await watcher.recv(left)
        except TimeoutError:
            break
        if message["type"] == "state":
            for seat in seats:
                shown[seat].append((message["seats"][seat]["connected"], message["seats"][seat]["autoplay"]))
    return shown


async def burst(server: ServerThread, table: str, token: str, seconds: float, every: float) -> None:
    """Dead reconnects of ``token``'s seat, one every ``every`` seconds for ``seconds``."""
    loop = asyncio.get_running_loop()
    until = loop.time() + seconds
    while loop.time() < until:
        await dead_reconnect(server, table, token)
        await asyncio.sleep(every)


def test_dead_reconnects_neither_show_the_seat_nor_hold_off_its_bot(
        start_server: Callable[..., ServerThread]) -> None:
    """Four people play. Cy (seat 2) closes his page, and after the grace period
    (1 s) the bot plays for him; then Bo (seat 1) closes his. For three times the
    grace period both their pages keep coming back dead, every 0.3 s: a watcher
    never sees either seat connected; the bot plays on for Cy, and takes Bo's seat
    after the grace period, counted from his leaving. Before, each dead reconnect
    was attached: "Bo is back", "Bo left", his grace period started over, so his
    bot never came while they kept coming; and each one sent Cy's bot away for
    another grace period."""
    server = start_server(grace_seconds=1.0)

    async def scenario() -> None:
        lobby = Lobby(server.url)
        table, tokens = await lobby.humans(seed=4)
        players = [await Client(server.ws_url, table, token).__aenter__() for token in tokens]
        watcher = await Client(server.ws_url, table).__aenter__()
        await lobby.start(table, tokens[0])
        await watcher.at_version(1)
        await players[2].__aexit__()                       # Cy leaves: after his grace period, his bot
        await watcher.until(lambda m: m["type"] == "state" and m["seats"][2]["autoplay"])
        await players[1].__aexit__()                       # Bo leaves: his grace period begins
        await watcher.until(lambda m: m["type"] == "state" and not m["seats"][1]["connected"])

        shown, *_ = await asyncio.gather(seats_shown(watcher, 3.0, (1, 2)),
                                         burst(server, table, tokens[1], 3.0, 0.3),
                                         burst(server, table, tokens[2], 3.0, 0.3))
        assert (True, False) not in shown[1], shown[1]       # Bo never shown back
        assert (False, True) in shown[1], shown[1]           # his bot came within the burst
        assert set(shown[2]) == {(False, True)}, shown[2]    # Cy's bot played on, Cy never shown back
        for player in (players[0], players[3], watcher):
            await player.__aexit__()
        await lobby.close()

    run(scenario())


def test_a_dead_reconnect_in_the_lobby_is_never_shown_connected(start_server: Callable[..., ServerThread]) -> None:
    """Before the game, under the cap: Bo's page comes back with its close in the
    same write; Ann, watching, is sent nothing about it (before: a state with Bo
    connected, then one with him gone)."""
    server = start_server()

    async def scenario() -> None:
        lobby = Lobby(server.url)
        created = await lobby.create(name="Ann")
        table = created["id"]
        bo = await lobby.sit(table, 1, "Bo")
        ann = await Client(server.ws_url, table, created["token"]).__aenter__()
        await ann.until(lambda m: m["type"] == "state")
        shown, _ = await asyncio.gather(seats_shown(ann, 1.5), dead_reconnect(server, table, bo))
        assert shown == {1: []}, shown
        await ann.__aexit__()
        await lobby.close()

    run(scenario())


class Tab:
    """A connection as the table sees one; ``left``: its client is gone."""

    def __init__(self) -> None:
        self.seat: int | None = None
        self.got: list[dict[str, Any]] = []
        self.left = False

    def deliver(self, text: str) -> None:
        self.got.append(json.loads(text))

    def revoke(self) -> None:
        self.seat = None

    def gone(self) -> bool:
        return self.left


@pytest.mark.parametrize("token", ["seat", "watch"])
def test_a_client_gone_while_its_hello_waited_for_the_lock_is_not_attached(tmp_path: Path, token: str) -> None:
    """A hello waits for the table's lock (a move being stored), and its client
    leaves meanwhile: it is decided under the lock, so the connection is not
    attached (no seat, no welcome, nobody told)."""
    async def scenario() -> None:
        settings = Settings(data_dir=tmp_path, bot_delay=0.0, deal_pause=0.0)
        store = AsyncStorage(Storage(settings.url))
        tables = Tables(settings, store)
        try:
            table = await tables.create("kozel", "classic")
            tokens = [await table.take_seat(seat, f"P{seat}") for seat in range(4)]
            watcher = Tab()
            await table.attach(watcher, None)
            heard = len(watcher.got)
            late = Tab()
            async with table.lock:
                hello = asyncio.create_task(table.attach(late, tokens[1] if token == "seat" else None))
                await asyncio.sleep(0.01)   # waiting for the lock
                late.left = True
            with pytest.raises(ClientGone):
                await hello
            assert late.seat is None and late.got == [] and late not in table.connections
            assert table.seats[1].connections == 0 and len(watcher.got) == heard
            await tables.close()
        finally:
            store.close()

    asyncio.run(scenario())
