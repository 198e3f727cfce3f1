"""Races between clients of one table, forced step by step (no network, no
sleeps): each test holds one request at a point where it waits — a database
write held open by an :class:`asyncio.Event` — lets the other one in, and then
checks what each client was told."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest
from starlette.websockets import WebSocketState

from goat.games import get_game
from goat.server.app import Client
from goat.server.messages import Hello
from goat.server.settings import Settings
from goat.server.storage import AsyncStorage, EventRow, SeatRow, Storage, TableRow
from goat.server.tables import LobbyError, Table, Tables, chance_payload


class FakeSocket:
    """What :class:`goat.server.app.Client` needs of a WebSocket: it keeps every
    text sent to it."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.client_state = WebSocketState.CONNECTED
        self.closed_with: int | None = None
        self.scope: dict[str, Any] = {}   # no goat.ping: its client is there

    async def send_text(self, text: str) -> None:
        self.sent.append(json.loads(text))

    async def close(self, code: int = 1000) -> None:
        self.closed_with = code
        self.client_state = WebSocketState.DISCONNECTED


class Held(AsyncStorage):
    """Storage whose next write of the kind named by :meth:`hold` waits until
    ``release`` is set (``entered`` says it has begun): a change held half-way,
    as a slow disk or database would hold it."""

    def __init__(self, storage: Storage) -> None:
        super().__init__(storage)
        self.held: str | None = None
        self.entered = asyncio.Event()
        self.release = asyncio.Event()

    def hold(self, write: str) -> None:
        self.held = write
        self.entered.clear()
        self.release.clear()

    async def _wait(self, write: str) -> None:
        if self.held == write:
            self.held = None
            self.entered.set()
            await self.release.wait()

    async def save_seat(self, table_id: str, seat: SeatRow, drop_data: bool = False) -> None:
        await self._wait("save_seat")
        await super().save_seat(table_id, seat, drop_data)

    async def create_table(self, row: TableRow, seats: list[SeatRow]) -> None:
        await self._wait("create_table")
        await super().create_table(row, seats)


async def settle() -> None:
    """Let every task that can run go as far as it can (until each waits on
    something the test has not released)."""
    for _ in range(10):
        await asyncio.sleep(0)


def test_a_hello_waiting_behind_its_seat_being_left_does_not_see_the_next_holders_cards(tmp_path: Path) -> None:
    async def scenario() -> None:
        settings = Settings(data_dir=tmp_path, bot_delay=0.0, deal_pause=0.0)
        store = Held(Storage(settings.url))
        tables = Tables(settings, store)
        try:
            table = await tables.create("kozel", "classic")
            ann = await table.take_seat(0, "Ann")
            bob = await table.take_seat(1, "Bob")
            for seat in (2, 3):
                await table.set_bot(seat, "random", ann)

            store.hold("save_seat")                  # Bob leaves seat 1: his write is held open
            leaving = asyncio.create_task(table.clear_seat(1, bob))
            await store.entered.wait()
            socket = FakeSocket()                    # meanwhile Bob's other tab says hello with his token
            client = Client(socket, settings)        # type: ignore[arg-type]
            hello = asyncio.create_task(client._hello(table, Hello(type="hello", token=bob)))
            await settle()
            store.release.set()
            await leaving
            attached = await hello

            carl = await table.take_seat(1, "Carl")  # the seat changes hands, and the game starts
            await table.start(ann)
            await settle()

            assert not attached and client not in table.connections
            assert any(m["type"] == "error" and m["code"] == "wrong-token" for m in socket.sent)
            assert not [m for m in socket.sent if m["type"] == "state" and m.get("view") is not None]
            assert table.seat_of(carl) == 1 and table.seats[1].connections == 0
            await client.finish()
            await table.close()
        finally:
            store.close()

    asyncio.run(scenario())


def test_tables_asked_for_together_on_a_nearly_full_server_get_only_the_places_left(tmp_path: Path) -> None:
    async def scenario() -> None:
        settings = Settings(data_dir=tmp_path, max_tables=2)
        store = Held(Storage(settings.url))
        tables = Tables(settings, store)
        try:
            await tables.create("kozel", "classic")          # one place left
            store.hold("create_table")                        # the next table's row is being written...
            first = asyncio.create_task(tables.create("kozel", "classic"))
            await store.entered.wait()
            second = asyncio.create_task(tables.create("kozel", "street"))   # ...when another is asked for
            await settle()
            store.release.set()
            made = await asyncio.gather(first, second, return_exceptions=True)

            refused = [r for r in made if isinstance(r, LobbyError)]
            assert len(refused) == 1 and refused[0].status == 503 and refused[0].say == "serverFull"
            assert len(tables.tables) == 2
        finally:
            store.close()

    asyncio.run(scenario())


def test_a_stored_table_is_replayed_off_the_event_loop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Opening a finished table (its record, its score sheet, watching it) loads it
    from storage and replays its events: on the event loop a long match would stop
    every other table meanwhile."""
    replayed_on_loop: list[bool] = []
    replay = Table.replay

    def watched(table: Table, events: Any) -> None:
        try:
            asyncio.get_running_loop()
            replayed_on_loop.append(True)
        except RuntimeError:   # no loop in this thread: a worker thread
            replayed_on_loop.append(False)
        replay(table, events)

    monkeypatch.setattr(Table, "replay", watched)

    async def scenario() -> None:
        settings = Settings(data_dir=tmp_path)
        store = AsyncStorage(Storage(settings.url))
        try:
            state = get_game("kozel").new_state(rules="classic")
            outcome = state.sample_chance(random.Random(7))
            state.apply_chance(outcome)
            row = TableRow("f1", "kozel", "classic", {}, 4, "7", "finished")
            await store.create_table(row, [SeatRow(i, "bot", "random bot", "random") for i in range(4)])
            deal = chance_payload(get_game("kozel"), state, outcome)
            await store.append_event("f1", EventRow(1, "deal", deal, "server"))
            table = await Tables(settings, store).get("f1")
            assert table is not None and table.version == 1
            assert replayed_on_loop == [False]
        finally:
            store.close()

    asyncio.run(scenario())


class Tab:
    """A connection as the table sees one (:class:`goat.server.tables.Connection`):
    it keeps every message delivered to it."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.got: list[dict[str, Any]] = []

    def deliver(self, text: str) -> None:
        self.got.append(json.loads(text))

    def revoke(self) -> None:
        self.seat = None

    def gone(self) -> bool:
        return False   # its client is there


def test_another_tab_of_a_connected_seat_tells_nobody_else(tmp_path: Path) -> None:
    """A seat's second tab coming or going changes nothing anyone else sees; telling
    everyone anyway made a reconnect storm of N tabs cost N² state messages."""
    async def scenario() -> None:
        settings = Settings(data_dir=tmp_path, bot_delay=0.0, deal_pause=0.0)
        store = AsyncStorage(Storage(settings.url))
        tables = Tables(settings, store)
        try:
            table = await tables.create("kozel", "classic")
            tokens = [await table.take_seat(seat, f"P{seat}") for seat in range(4)]
            ann, bob, watcher = Tab(None), Tab(None), Tab(None)
            await table.attach(ann, tokens[0])
            await table.attach(bob, tokens[1])
            await table.attach(watcher, None)
            heard = len(bob.got), len(watcher.got)

            second = Tab(None)
            await table.attach(second, tokens[0])        # Ann opens a second tab...
            table.detach(second)                          # ...and closes it
            assert (len(bob.got), len(watcher.got)) == heard
            assert [m["type"] for m in second.got] == ["welcome", "state"] and second.got[1]["view"] is None

            table.detach(ann)                             # Ann's last tab goes: that everyone sees
            assert bob.got[-1]["seats"][0]["connected"] is False
            assert watcher.got[-1]["seats"][0]["connected"] is False
            await tables.close()
        finally:
            store.close()

    asyncio.run(scenario())
