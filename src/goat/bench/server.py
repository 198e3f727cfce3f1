"""Server load: many WebSocket clients playing at many tables through ``goat serve``.

The server runs as a real ``goat serve`` subprocess on loopback (its own data
directory, SQLite, no bot delay, no pause between deals), so it does not share
an interpreter with the clients. One asyncio process opens ``clients``
WebSocket connections: a person at every seat of ``tables`` tables (more
clients than seats watch as spectators). Each seated client plays a random
legal action whenever it is its turn, carrying the version it saw and a fresh
id, and now and then sends the same message twice (a double click, a resend
after a timeout): the server must refuse the copy.

Reported, for a run bounded by ``seconds`` (then a short drain):

* accepted actions per second (actions acknowledged to their sender);
* latency from sending an action to receiving the update that acknowledges it,
  p50 / p99 / max (client-side: it includes the clients' own event loop);
* **lost** actions — acknowledged to a client but not in the server's stored
  log at that version — and **duplicated** actions — one client message
  applied twice, or a resend acknowledged. Both must be 0;
* updates a client missed (a version it never saw) and refused resends (a resend
  the server's rate limiter dropped gets no answer of its own: it is counted as
  dropped when its client was told of rate limiting from a second before it on);
* the baseline: random actions per second of the in-memory engine in this
  process, same ruleset, measured in the same run (``goat.bench.engine``).

Afterwards the stored log of every table is replayed through the engine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from goat.bench import format_rate
from goat.protocol import GoatError
from goat.server.runner import ServeProcess

#: Table options of the bench: a long match, so tables keep playing for the whole run.
BENCH_OPTIONS = {"match_target": 100}
RESEND_PROBABILITY = 0.02
RESEND_GRACE = 5.0      # seconds past the drain a client waits for a resend's refusal
#: The server tells a connection it is rate-limited at most once a second and drops
#: the messages in between silently: a resend is excused when such a notice reached
#: its client from this long before it on.
NOTICE_GAP = 1.05
DRAIN_SECONDS = 5.0


@dataclass
class Sent:
    """One action message a client sent."""

    table: str
    version: int
    action: str
    msg_id: str
    at: float


@dataclass
class ServerBenchResult:
    clients: int
    tables: int
    rules: str
    seconds: float = 0.0                   # the measured window
    accepted: int = 0                      # actions acknowledged to their sender
    latencies: list[float] = field(default_factory=list)   # seconds
    lost: int = 0
    duplicated: int = 0
    resends: int = 0
    resends_refused: int = 0
    resends_dropped: int = 0               # dropped unanswered by the rate limiter (see NOTICE_GAP)
    missed_updates: int = 0
    rate_limited: int = 0
    other_errors: dict[str, int] = field(default_factory=dict)
    stored_actions: int = 0
    replayed_tables: int = 0
    engine_actions_per_second: float = 0.0
    finished_tables: int = 0

    @property
    def actions_per_second(self) -> float:
        return self.accepted / self.seconds if self.seconds else 0.0

    def percentile(self, q: float) -> float:
        if not self.latencies:
            return 0.0
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    @property
    def ratio(self) -> float:
        base = self.engine_actions_per_second
        return self.actions_per_second / base if base else 0.0


# ================================================================ clients
class Ledger:
    """What the clients sent and were told, shared by all of them."""

    def __init__(self) -> None:
        self.sent: dict[str, Sent] = {}
        self.acked: set[str] = set()
        self.resent: set[str] = set()       # resends with no refusal yet
        self.resent_by: dict[str, tuple[Player, float]] = {}   # resend id -> its client, when sent


class Player:
    """One WebSocket client at one seat (``None``: a spectator)."""

    def __init__(self, table: str, seat: int | None, token: str | None, rng: random.Random,
                 result: ServerBenchResult, ledger: Ledger) -> None:
        self.table = table
        self.seat = seat
        self.token = token
        self.rng = rng
        self.result = result
        self.ledger = ledger
        self.seen = -1
        self.finished = False
        #: (version the action made, action text, message id) of every acknowledged action
        self.acked: list[tuple[int, str, str]] = []
        #: when this client was told it is rate-limited (perf_counter)
        self.limit_notices: list[float] = []

    async def play(self, ws_url: str, connecting: asyncio.Semaphore, ready: asyncio.Event,
                   start: asyncio.Event, stop_at: list[float]) -> None:
        from websockets.asyncio.client import connect

        async with connecting:
            ws = await connect(f"{ws_url}ws/{self.table}", max_size=None, open_timeout=60, ping_timeout=None)
            await ws.send(json.dumps({"type": "hello", "token": self.token}))
        try:
            ready.set()
            await start.wait()
            await ws.send(json.dumps({"type": "sync"}))
            loop = asyncio.get_running_loop()
            while True:
                now = loop.time()
                # A resend's refusal may still be on its way when the drain ends
                # on a busy machine: wait a little longer for it, so that
                # "refused / sent" counts answers, not the clock.
                end = stop_at[1] + (RESEND_GRACE if self.awaiting_refusal() else 0.0)
                if now >= end or (self.finished and now >= stop_at[0] and not self.awaiting_refusal()):
                    return
                try:
                    text = await asyncio.wait_for(ws.recv(), max(0.05, end - now))
                except asyncio.TimeoutError:
                    return
                await self.receive(ws, json.loads(text), acting=loop.time() < stop_at[0])
        finally:
            await ws.close()

    def awaiting_refusal(self) -> bool:
        """Whether a resend of this client has had no answer yet."""
        prefix = f"{self.table}-{self.seat}-"
        return any(msg_id.startswith(prefix) for msg_id in self.ledger.resent)

    async def receive(self, ws: Any, message: dict[str, Any], acting: bool) -> None:
        result, ledger = self.result, self.ledger
        kind = message["type"]
        if kind == "error":
            code, msg_id = message["code"], message.get("id")
            if msg_id in ledger.resent and code in ("duplicate", "stale-version"):
                ledger.resent.discard(msg_id)
                result.resends_refused += 1
            elif code == "rate-limited":    # the action was dropped: look again in a moment
                result.rate_limited += 1
                self.limit_notices.append(time.perf_counter())
                await asyncio.sleep(0.5)
                await ws.send(json.dumps({"type": "sync"}))
            elif code != "stale-version":   # acting on a state already left behind is normal
                result.other_errors[code] = result.other_errors.get(code, 0) + 1
            return
        if kind != "state" or message.get("view") is None:
            return
        version = message["version"]
        if self.seen >= 1 and version > self.seen + 1:
            result.missed_updates += version - self.seen - 1
        self.seen = max(self.seen, version)
        ack = message.get("ack")
        if ack is not None:
            if ack in ledger.acked:
                result.duplicated += 1          # acknowledged twice: applied twice
            elif ack in ledger.sent:
                sent = ledger.sent[ack]
                ledger.acked.add(ack)
                result.latencies.append(time.perf_counter() - sent.at)
                result.accepted += 1
                self.acked.append((version, sent.action, ack))
        if message["status"] == "finished":
            self.finished = True
            return
        view = message["view"]
        if not acting or self.seat is None or view["current_player"] != self.seat:
            return
        legal = [a for a in view["legal_actions"] if a.startswith(f"{self.seat} ")]
        if not legal:
            return
        action = self.rng.choice(legal)
        msg_id = f"{self.table}-{self.seat}-{version}-{self.rng.getrandbits(32):08x}"
        payload = json.dumps({"type": "action", "action": action, "version": version, "id": msg_id})
        ledger.sent[msg_id] = Sent(self.table, version, action, msg_id, time.perf_counter())
        await ws.send(payload)
        if self.rng.random() < RESEND_PROBABILITY:   # the same message again: must be refused
            result.resends += 1
            ledger.resent.add(msg_id)
            ledger.resent_by[msg_id] = (self, time.perf_counter())
            await ws.send(payload)


# ================================================================== run
async def _run_clients(server: ServeProcess, result: ServerBenchResult, rules: str, players: int,
                       seconds: float, seed: int) -> list[Player]:
    import httpx

    rng = random.Random(seed)
    ledger = Ledger()
    everyone: list[Player] = []
    limits = httpx.Limits(max_connections=32)
    async with httpx.AsyncClient(base_url=server.url, timeout=60, limits=limits) as http:
        gate = asyncio.Semaphore(16)

        async def make_table(index: int) -> tuple[str, list[str]]:
            async with gate:
                r = await http.post("/api/tables", json={"rules": rules, "options": BENCH_OPTIONS, "name": "p0",
                                                         "seed": seed * 100_003 + index})
                r.raise_for_status()
                created = r.json()
                tokens = [created["token"]]
                for seat in range(1, players):
                    r = await http.post(f"/api/tables/{created['id']}/seats/{seat}", json={"name": f"p{seat}"})
                    r.raise_for_status()
                    tokens.append(r.json()["token"])
                return created["id"], tokens

        made = await asyncio.gather(*(make_table(i) for i in range(result.tables)))
        for table, tokens in made:
            for seat, token in enumerate(tokens):
                everyone.append(Player(table, seat, token, random.Random(rng.random()), result, ledger))
        for k in range(result.clients - len(everyone)):   # the rest watch
            everyone.append(Player(made[k % len(made)][0], None, None, random.Random(rng.random()), result, ledger))

        loop = asyncio.get_running_loop()
        start = asyncio.Event()
        stop_at = [float("inf"), float("inf")]
        readies = [asyncio.Event() for _ in everyone]
        connecting = asyncio.Semaphore(64)
        tasks = [asyncio.create_task(p.play(server.ws_url, connecting, r, start, stop_at))
                 for p, r in zip(everyone, readies)]
        await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), 120)
        for table, tokens in made:
            r = await http.post(f"/api/tables/{table}/start", headers={"Authorization": f"Bearer {tokens[0]}"})
            r.raise_for_status()
        t0 = loop.time()
        stop_at[0], stop_at[1] = t0 + seconds, t0 + seconds + DRAIN_SECONDS
        start.set()
        results = await asyncio.gather(*tasks, return_exceptions=True)
        result.seconds = seconds
        failures = [r for r in results if isinstance(r, BaseException)]
        if failures:
            raise GoatError(f"{len(failures)} client(s) failed: {failures[0]!r}")
    result.resends_dropped = sum(1 for msg_id in ledger.resent if _dropped_by_limit(*ledger.resent_by[msg_id]))
    return everyone


def _dropped_by_limit(player: Player, sent_at: float) -> bool:
    """Whether an unanswered resend may have been dropped by the rate limiter: its
    client got a rate-limit notice from ``NOTICE_GAP`` before it on (the server
    sends one a second, so a message dropped without one follows one by less)."""
    return any(notice >= sent_at - NOTICE_GAP for notice in player.limit_notices)


def _check_storage(data_dir: Path, everyone: list[Player], result: ServerBenchResult) -> None:
    """Compare what clients were told with what the server stored, and replay every
    table's stored log through the engine (the code path of a restart)."""
    from goat.server.settings import Settings
    from goat.server.storage import Storage
    from goat.server.tables import Table

    settings = Settings(data_dir=data_dir)
    storage = Storage(settings.url)
    try:
        stored: dict[str, dict[int, tuple[str, str | None]]] = {}
        for table_id in {p.table for p in everyone}:
            loaded = storage.load(table_id)
            if loaded is None:
                raise GoatError(f"table {table_id} is not in storage")
            stored[table_id] = {e.seq: (e.payload, e.client_id) for e in loaded.events}
            ids = [e.client_id for e in loaded.events if e.client_id is not None]
            result.duplicated += len(ids) - len(set(ids))
            result.stored_actions += sum(1 for e in loaded.events if e.kind == "action")
            result.finished_tables += loaded.table.status == "finished"
            Table(loaded.table, loaded.seats, settings, store=None).replay(loaded.events)  # raises if it does not
            result.replayed_tables += 1
        for player in everyone:
            for version, action, msg_id in player.acked:   # told "accepted at this version": stored there?
                if stored[player.table].get(version) != (action, msg_id):
                    result.lost += 1
    finally:
        storage.close()


def engine_baseline(rules: str, seconds: float, seed: int) -> float:
    """Random legal actions per second of the in-memory engine, this process."""
    from goat.bench.engine import bench_rules
    from goat.games.kozel import make_rules

    return bench_rules(rules, make_rules(rules), seconds, seed).engine.actions_per_second


def check_args(clients: int, tables: int, seconds: float, rules: str) -> int:
    """The seats of a ``rules`` table, or a one-line :class:`GoatError` for bad
    arguments (``goat bench server`` checks before it announces the run)."""
    from goat.bench.engine import check_seconds
    from goat.games.kozel import make_rules

    check_seconds(seconds)
    if tables < 1:
        raise GoatError(f"--tables must be at least 1, not {tables}")
    try:
        players = make_rules(rules).players
    except GoatError as exc:
        raise GoatError(f"--rules: {exc}") from None
    if clients < tables * players:
        raise GoatError(f"--clients must be at least --tables × {players} = {tables * players} "
                        f"(a person at every seat of {rules}), not {clients}")
    if clients > 2000:
        raise GoatError(f"--clients is at most 2000 on loopback, not {clients}")
    return players


def run(clients: int = 400, tables: int = 100, seconds: float = 20.0, rules: str = "classic",
        seed: int = 0) -> ServerBenchResult:
    """Run the load, then check storage. Raises :class:`GoatError` for bad arguments."""
    players = check_args(clients, tables, seconds, rules)
    result = ServerBenchResult(clients, tables, rules)
    result.engine_actions_per_second = engine_baseline(rules, min(3.0, max(0.5, seconds / 4)), seed)
    with tempfile.TemporaryDirectory(prefix="goat-bench-server-") as tmp:
        data_dir = Path(tmp)
        # every client is on loopback: one address, so no cap on connections per address
        server = ServeProcess(data_dir, "--bot-delay", "0", "--deal-pause", "0", "--connections-per-address", "0")
        try:
            everyone = asyncio.run(_run_clients(server, result, rules, players, seconds, seed))
        finally:
            server.stop()
        _check_storage(data_dir, everyone, result)
    return result


# ================================================================ output
def table(r: ServerBenchResult) -> Table:
    out = Table(title=f"goat serve: {r.clients} clients, {r.tables} {r.rules} tables, {r.seconds:g} s, loopback",
                title_justify="left",
                caption="latency = send → the update acknowledging it, measured by the clients; "
                "baseline = random actions/s of the in-memory engine in this process, same run",
                caption_justify="left")
    out.add_column("figure")
    out.add_column("value", justify="right")
    out.add_row("accepted actions/s", format_rate(r.actions_per_second))
    out.add_row("in-memory engine actions/s (baseline)", format_rate(r.engine_actions_per_second))
    out.add_row("server ÷ engine", f"1/{1 / r.ratio:.0f}" if r.ratio else "–")
    out.add_row("latency p50", f"{1000 * r.percentile(0.50):.1f} ms")
    out.add_row("latency p99", f"{1000 * r.percentile(0.99):.1f} ms")
    out.add_row("latency max", f"{1000 * max(r.latencies, default=0):.1f} ms")
    out.add_row("accepted actions", f"{r.accepted:,}")
    out.add_row("stored actions (replayed through the engine)", f"{r.stored_actions:,} ({r.replayed_tables} tables)")
    out.add_row("lost actions", str(r.lost))
    out.add_row("duplicated actions", str(r.duplicated))
    out.add_row("resends refused / dropped by the rate limiter / sent",
                f"{r.resends_refused} / {r.resends_dropped} / {r.resends}")
    out.add_row("updates missed by a client", str(r.missed_updates))
    out.add_row("rate-limited messages", str(r.rate_limited))
    if r.other_errors:
        out.add_row("other errors", ", ".join(f"{k} {v}" for k, v in sorted(r.other_errors.items())))
    out.add_row("tables finished their match", str(r.finished_tables))
    return out


def verdict(r: ServerBenchResult) -> str:
    ok = r.lost == 0 and r.duplicated == 0 and r.missed_updates == 0
    return (f"{'PASS' if ok else 'FAIL'}: {r.lost} lost, {r.duplicated} duplicated, "
            f"{r.missed_updates} missed updates (all must be 0)")


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m goat.bench.server [--clients 400] [--tables 100] [--seconds 20]``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=400)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    try:
        result = run(args.clients, args.tables, args.seconds, args.rules, args.seed)
    except GoatError as exc:
        parser.exit(2, f"error: {exc}\n")
    console = Console()
    console.print(table(result))
    console.print(verdict(result))
    return 0 if result.lost == 0 and result.duplicated == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
