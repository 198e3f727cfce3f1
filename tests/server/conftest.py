"""Shared helpers of the server tests: a real server (uvicorn in a thread on a
free loopback port, its own data directory) and a WebSocket client that keeps
every message it receives."""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import random
import threading
from collections.abc import Callable, Iterator
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect

from goat.server.runner import ServeProcess, ServerThread
from goat.server.settings import Settings

TIMEOUT = 20.0
SRC = Path(__file__).resolve().parents[2] / "src"


def server_settings(data_dir: Path, **overrides: Any) -> Settings:
    """No bot delay, no pause between deals, no rate limit in the way (tests
    that test those set them)."""
    values: dict[str, Any] = dict(data_dir=data_dir, bot_delay=0.0, deal_pause=0.0, grace_seconds=60.0,
                                  rate_per_second=10_000.0, rate_burst=10_000)
    values.update(overrides)
    return Settings(**values)


@pytest.fixture(scope="session", autouse=True)
def compiled_solver() -> None:
    """The solver's kernels compiled (or loaded from numba's cache) before any
    server test of this process. A table with hints loads them when it starts
    (:mod:`goat.server.solverload`: a child process compiles, then the server
    loads from numba's cache), and a hint waits for them: on a fresh clone that
    would be half a minute of waiting in a test that expects an answer sooner.
    A served ``goat serve`` compiles once per install, so only tests need this."""
    from goat.fast.solver import warm_up

    warm_up()


@pytest.fixture
def start_server(tmp_path: Path) -> Iterator[Callable[..., ServerThread]]:
    """``start_server(**settings)`` -> a running :class:`ServerThread` (stopped at teardown);
    ``start_server.restart(server, **settings)`` stops ``server`` and starts another
    on the same data directory."""
    running: list[ServerThread] = []

    def start(**overrides: Any) -> ServerThread:
        server = ServerThread(server_settings(tmp_path / "data", **overrides)).__enter__()
        running.append(server)
        return server

    def restart(server: ServerThread, **overrides: Any) -> ServerThread:
        """Stop ``server`` and start another on the same data directory: what a
        server restart keeps is what storage has."""
        server.__exit__(None, None, None)
        return start(**overrides)

    start.restart = restart  # type: ignore[attr-defined]
    yield start
    for server in reversed(running):
        server.__exit__(None, None, None)


class Lobby:
    """The HTTP lobby of one server (async)."""

    def __init__(self, base: str) -> None:
        self.http = httpx.AsyncClient(base_url=base, timeout=TIMEOUT)

    async def close(self) -> None:
        await self.http.aclose()

    async def create(self, **body: Any) -> dict[str, Any]:
        r = await self.http.post("/api/tables", json=body)
        assert r.status_code == 201, r.text
        return r.json()

    async def sit(self, table: str, seat: int, name: str) -> str:
        r = await self.http.post(f"/api/tables/{table}/seats/{seat}", json={"name": name})
        assert r.status_code == 200, r.text
        return r.json()["token"]

    async def bot(self, table: str, seat: int, token: str, bot: str = "heuristic") -> None:
        r = await self.http.post(f"/api/tables/{table}/seats/{seat}/bot", json={"bot": bot},
                                 headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 200, r.text

    async def start(self, table: str, token: str) -> None:
        r = await self.http.post(f"/api/tables/{table}/start", headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 200, r.text

    async def record(self, table: str) -> dict[str, Any]:
        r = await self.http.get(f"/api/tables/{table}/record")
        assert r.status_code == 200, r.text
        return r.json()

    async def with_bots(self, bot: str = "heuristic", **body: Any) -> tuple[str, str]:
        """A table with "Ann" at seat 0 and bots at the others; returns (id, Ann's token)."""
        created = await self.create(name="Ann", **body)
        for seat in range(1, created["players"]):
            await self.bot(created["id"], seat, created["token"], bot)
        return created["id"], created["token"]

    async def humans(self, players: int = 4, **body: Any) -> tuple[str, list[str]]:
        """A table with a person at every seat; returns (id, tokens by seat)."""
        created = await self.create(name="P0", players=players, **body)
        tokens = [created["token"]] + [await self.sit(created["id"], s, f"P{s}") for s in range(1, players)]
        return created["id"], tokens


class Client:
    """One WebSocket client; ``inbox`` holds every message it received, in order."""

    _ids = itertools.count()

    def __init__(self, ws_base: str, table: str, token: str | None = None) -> None:
        self.url = f"{ws_base}ws/{table}"
        self.token = token
        self.inbox: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.state: dict[str, Any] | None = None

    async def __aenter__(self) -> "Client":
        self.ws = await connect(self.url, max_size=None, open_timeout=TIMEOUT)
        await self.send({"type": "hello", "token": self.token})
        self.welcome = await self.until(lambda m: m["type"] in ("welcome", "error"))
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.ws.close()

    async def send(self, message: dict[str, Any] | str) -> None:
        await self.ws.send(message if isinstance(message, str) else json.dumps(message))

    async def recv(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        text = await asyncio.wait_for(self.ws.recv(), timeout)
        message = json.loads(text)
        self.raw.append(text)
        self.inbox.append(message)
        if message["type"] == "state":
            self.state = message
        return message

    async def until(self, pred: Callable[[dict[str, Any]], bool], timeout: float = TIMEOUT) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            message = await self.recv(max(0.01, deadline - loop.time()))
            if pred(message):
                return message

    async def at_version(self, version: int) -> dict[str, Any]:
        """The state message of ``version`` (or the first one after it)."""
        if self.state is not None and self.state["version"] >= version:
            return self.state
        return await self.until(lambda m: m["type"] == "state" and m["version"] >= version)

    async def act(self, action: str, version: int | None = None, msg_id: str | None = None) -> str:
        msg_id = msg_id or f"m{next(self._ids)}"
        assert self.state is not None
        await self.send({"type": "action", "action": action,
                         "version": self.state["version"] if version is None else version, "id": msg_id})
        return msg_id

    async def reply_to(self, msg_id: str) -> dict[str, Any]:
        """The ack'ed state or the error answering ``msg_id``."""
        return await self.until(lambda m: m.get("ack") == msg_id or (m["type"] == "error" and m.get("id") == msg_id))



#: A Kozel match that ends at the first penalty point: a deal or two.
QUICK = {"match_target": 1}


def auth(token: str | None) -> dict[str, str]:
    """The HTTP header that carries a seat's token (none without one)."""
    return {"Authorization": f"Bearer {token}"} if token else {}


def one_line(response: httpx.Response, status: int, *words: str) -> str:
    """The error of ``response``: ``status``, one line, holding ``words``."""
    assert response.status_code == status, (response.status_code, response.text)
    error = response.json()["error"]
    assert "\n" not in error and all(w in error for w in words), error
    return error


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def finished_table_after_restart(server: Any, tid: str, record: dict[str, Any], version: int) -> dict[str, Any]:
    """What a spectator gets of finished table ``tid`` from a restarted
    ``server``, after checking that its stored record is ``record`` and that it
    comes back finished at ``version``: the state message (its ``view``)."""
    async def look() -> dict[str, Any]:
        lobby = Lobby(server.url)
        assert await lobby.record(tid) == record
        async with Client(server.ws_url, tid) as watcher:
            state = await watcher.until(lambda m: m["type"] == "state")
        await lobby.close()
        assert state["status"] == "finished" and state["version"] == version
        return state

    return run(look())


async def random_player(client: Client, seat: int | None, rng: random.Random, mischief: bool = True,
                        choose: Callable[[dict[str, Any], random.Random], str] | None = None) -> None:
    """Play random legal actions until the match is over; with ``mischief`` also
    some illegal and out-of-turn ones (refused) and molodkas (Spades: looks) out of
    turn. ``choose(view, rng)``: the action on the seat's turn, instead of a random one."""
    while True:
        message = await client.recv(timeout=60)
        if message["type"] != "state" or message["view"] is None:
            continue
        view, version = message["view"], message["version"]
        if view["match_over"] or message["status"] == "finished":
            return
        if seat is None:
            continue
        legal, hand = view["legal_actions"], view["hand"]
        if view["current_player"] == seat and legal:
            wrong = [c for c in hand if all(c not in a for a in legal)]
            if mischief and wrong and rng.random() < 0.15:   # an illegal card from my own hand
                await client.act(f"{seat} play {wrong[0]}", version)
            await client.act(choose(view, rng) if choose else rng.choice(legal), version)
        elif legal and rng.random() < 0.5:                   # a molodka (a look) out of turn
            await client.act(rng.choice(legal), version)
        elif mischief and hand and rng.random() < 0.05:      # out of turn: refused
            await client.act(f"{seat} play {hand[0]}", version)


def my_turn(message: dict[str, Any], seat: int = 0) -> bool:
    """A state message in which ``seat`` is to act."""
    return (message["type"] == "state" and message["view"] is not None
            and message["view"]["current_player"] == seat and bool(message["view"]["legal_actions"]))


async def played_match(lobby: Lobby, ws_url: str, names: list[str], seed: int = 3,
                       **body: Any) -> tuple[str, list[str]]:
    """A classic match (``seed``, :data:`QUICK` options) of the people ``names`` in
    seats 0, 1, ... (the first creates the table, with ``body``'s settings), bots in
    the other seats, played to its end over the WebSocket at ``ws_url``: the
    table's id and the people's tokens, seat by seat."""
    created = await lobby.create(name=names[0], rules="classic", seed=seed, options=QUICK, **body)
    tid, tokens = created["id"], [created["token"]]
    for seat, name in enumerate(names[1:], 1):
        tokens.append(await lobby.sit(tid, seat, name))
    for seat in range(len(names), 4):
        await lobby.bot(tid, seat, tokens[0])
    async with AsyncExitStack() as stack:
        clients = [await stack.enter_async_context(Client(ws_url, tid, token)) for token in tokens]
        await lobby.start(tid, tokens[0])
        await asyncio.gather(*(play_to_the_end(client, seat) for seat, client in enumerate(clients)))
    return tid, tokens


async def play_to_the_end(client: Client, seat: int, pick: int = 0) -> dict[str, Any]:
    """Play ``seat``'s turns (the ``pick``-th legal action) from now until the
    match is over, others playing as they will; returns the final state."""
    await client.send({"type": "sync"})   # the current state, in case it is our turn already
    while True:
        state = await client.until(lambda m: m["type"] == "state" and m["view"] is not None, timeout=60)
        if state["status"] == "finished":
            return state
        view = state["view"]
        if view["current_player"] == seat and view["legal_actions"]:
            await client.act(view["legal_actions"][pick], state["version"])


async def finish_with_bots(lobby: Lobby, server: ServerThread, **body: Any) -> tuple[str, str]:
    """A table of Ann and bots (``lobby.with_bots(**body)``) played to its end,
    Ann playing her first legal action; its id and Ann's token."""
    tid, token = await lobby.with_bots(**body)
    async with Client(server.ws_url, tid, token) as me:
        await lobby.start(tid, token)
        final = await play_to_the_end(me, 0)
    assert final["status"] == "finished"
    return tid, token


def _environment() -> dict[str, str]:
    """What a ``goat serve`` started now inherits, but the test's name (pytest's
    ``PYTEST_CURRENT_TEST`` changes with every test and phase)."""
    return {k: v for k, v in os.environ.items() if k != "PYTEST_CURRENT_TEST"}


class SpareServe:
    """The next ``goat serve`` of this process, started in a thread while the test
    that asked for the last one runs: a browser test waited about a second for its
    server to start, with the cores mostly idle (the process imports, loads the
    solver's kernels, opens its database). Each test still gets a server of its
    own, fresh and on an empty data directory; only the start moves earlier.

    The spare serves only a test's first ``serve_process`` call, and only when the
    arguments and the environment are the ones it was started with and the test
    has put nothing in its data directory (a test that stores a match before
    serving it gets a server started after it did)."""

    def __init__(self, root: Path) -> None:
        self.root, self.count = root, itertools.count()
        self.key: tuple[tuple[str, ...], dict[str, str]] | None = None
        self.thread: threading.Thread | None = None
        self.started: list[ServeProcess] = []   # the spare, once up

    def prepare(self, args: tuple[str, ...]) -> None:
        """Start a spare with ``args`` (the next test likely asks for the same)."""
        self.discard()
        data = self.root / f"spare-{next(self.count)}" / "data"
        data.mkdir(parents=True)
        self.key = (args, _environment())
        self.thread = threading.Thread(target=self._start, args=(data, args), daemon=True)
        self.thread.start()

    def _start(self, data: Path, args: tuple[str, ...]) -> None:
        try:
            self.started.append(ServeProcess(data, *args, log_path=data.parent / "serve.log"))
        except Exception:   # noqa: BLE001 - the test then starts its own, and sees why
            pass

    def take(self, args: tuple[str, ...], data: Path, log_path: Path) -> ServeProcess | None:
        """The spare, if it fits: ``data`` and ``log_path`` become links to its own."""
        if self.thread is None or data.exists() or self.key != (args, _environment()):
            return None
        self.thread.join()
        self.thread = None
        if not self.started:
            return None
        server = self.started.pop()
        data.symlink_to(server.log_path.parent / "data", target_is_directory=True)
        log_path.symlink_to(server.log_path)
        return server

    def discard(self) -> None:
        if self.thread is not None:
            self.thread.join()
            self.thread = None
        while self.started:
            self.started.pop().stop()


@pytest.fixture(scope="session")
def spare_serve(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SpareServe]:
    spare = SpareServe(tmp_path_factory.mktemp("spare-serve"))
    yield spare
    spare.discard()


@pytest.fixture
def serve_process(tmp_path: Path, spare_serve: SpareServe) -> Iterator[Callable[..., ServeProcess]]:
    """``serve_process(*args)`` -> a running ``goat serve`` on ``tmp_path/data`` (stopped
    at teardown); the first one of a test usually started ahead (:class:`SpareServe`)."""
    started: list[ServeProcess] = []

    def start(*args: str) -> ServeProcess:
        data, log_path = tmp_path / "data", tmp_path / f"serve-{len(started)}.log"
        spare = None if started else spare_serve.take(args, data, log_path)
        if spare is None:
            data.mkdir(exist_ok=True)
            spare = ServeProcess(data, *args, log_path=log_path)
        started.append(spare)
        if len(started) == 1:
            spare_serve.prepare(args)
        return started[-1]

    yield start
    for process in started:
        process.stop()
