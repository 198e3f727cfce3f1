"""Playing the scheduled games: in-process, on a local process pool, or on Ray.

:func:`play_game` is the unit of work: a pure function of its
:class:`~goat.tournament.scheduling.GameSpec` (every chance outcome — deals,
coin tosses, shuffles — comes from the spec's chance seeds, the bots from its
bot seeds), so the same tournament gives the same results on one worker, on
many, or on a Ray cluster. It knows games only through the protocol and their
:class:`~goat.tournament.games.GameScoring` entry. :func:`run` yields results
as they finish (for the progress bar); :func:`run_all` returns them in schedule
order.

The local pool (:func:`_run_local`) uses the ``spawn`` start method: the parent runs a progress-bar
thread, and forking a process that runs threads can deadlock. A spawned worker
is a fresh interpreter: it finds outside bots of entry points itself, and is
handed the rest (bot modules, ``register_bot`` calls) as a
:class:`~goat.bots.outside.BotSetup` it replays before its first game.
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import random
import signal
import socket
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import closing, contextmanager
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from goat import bots as bot_registry
from goat.bots import next_bot_action, outside
from goat.bots.base import BotMoveError
from goat.games import get_game
from goat.protocol import GoatError
from goat.records import record_from_state
from goat.streams import guard_standard_streams
from goat.tournament.games import scoring_for
from goat.tournament.scheduling import GameSpec

BACKENDS = ("local", "ray")

#: Safety net against a bot that never ends a game.
MAX_STEPS = 200_000


class TournamentError(GoatError):
    """A game could not be played (a bot failed, a backend is missing)."""


@dataclass(frozen=True)
class GameResult:
    """What stats, plots and the records file need from one finished game.

    Scores are the game's own (:mod:`goat.tournament.games`): Kozel's penalty
    points (``lower_is_better``), Spades' points, a duel's LP."""

    index: int
    pairing: int
    set_index: int
    rotation: int
    labels: tuple[str, ...]          # bot label per seat
    teams: tuple[int, ...]           # team (or individual side) of each seat
    totals: tuple[float, ...]        # per side, at the end
    returns: tuple[float, ...]       # per seat (state.returns())
    deal_scores: tuple[tuple[float, ...], ...]  # per deal (duel), per side
    record: dict[str, Any]
    seconds: float
    lower_is_better: bool = True     # Kozel's penalty points

    @property
    def deals(self) -> int:
        return len(self.deal_scores)


def new_table(spec: GameSpec) -> Any:
    """The state a game of ``spec`` starts from (raises GoatError on bad rules)."""
    c = spec.config
    return get_game(c.game).new_state(rules=c.rules, options=dict(c.options), players=c.players,
                                      first_dealer=spec.first_dealer, single_deal=c.deals_only)


def play_game(spec: GameSpec) -> GameResult:
    """Play one scheduled game to its end.

    Errors are re-raised as :class:`TournamentError` with a plain one-line
    message (it crosses process boundaries, so it must pickle simply).
    """
    started = time.perf_counter()
    scoring = scoring_for(spec.config.game)
    try:
        state = new_table(spec)
        bots = [b.make(spec.bot_seed(seat), spec.config.game) for seat, b in enumerate(spec.bots)]
        drawn: Counter[str] = Counter()  # outcomes drawn so far, per chance stream
        for _ in range(MAX_STEPS):
            if state.is_terminal():
                break
            if state.is_chance_node():
                if scoring.deal_limit is not None and drawn["deal"] >= scoring.deal_limit:
                    raise GoatError(f"no side won within {scoring.deal_limit} deals; {scoring.endless_hint}")
                stream = scoring.chance_stream(state)
                rng = random.Random(spec.chance_seed(stream, drawn[stream]))
                drawn[stream] += 1
                state.apply_chance(state.sample_chance(rng))
            else:
                state.apply_action(next_bot_action(state, bots))
        else:
            raise GoatError(f"the game did not end within {MAX_STEPS} steps")
    except BotMoveError as exc:   # a bot answered no legal action: say which
        raise TournamentError(f"game {spec.index} ({', '.join(spec.labels)}): bot {exc.bot} failed: {exc}") from None
    except GoatError as exc:
        raise TournamentError(f"game {spec.index} ({', '.join(spec.labels)}): {exc}") from None
    except Exception as exc:
        if not outside.raised_by_outside_bot(exc):
            raise  # a bug of the project's own: its traceback helps
        # an outside bot's error mid-game: one line, where it was raised (the researcher's file)
        raise TournamentError(f"game {spec.index} ({', '.join(spec.labels)}): {outside.one_line(exc)}") from None
    # who played which seat: a duplicate pair's two games differ only in this
    record = record_from_state(state) | {"seats": [{"name": label, "bot": label} for label in spec.labels]}
    result = record["result"]
    return GameResult(
        index=spec.index, pairing=spec.pairing, set_index=spec.set_index, rotation=spec.rotation,
        labels=spec.labels, teams=scoring.sides(state), totals=scoring.totals(result),
        returns=tuple(state.returns()), deal_scores=scoring.deal_scores(result),
        record=record, seconds=time.perf_counter() - started, lower_is_better=scoring.lower_is_better)


def default_workers() -> int:
    return os.cpu_count() or 1


def run(specs: Sequence[GameSpec], workers: int | None = None, backend: str = "local") -> Iterator[GameResult]:
    """Yield the results of ``specs`` as they finish (in no particular order)."""
    workers = workers or default_workers()
    if workers < 1:
        raise TournamentError(f"--workers must be at least 1, not {workers}")
    if backend == "local":
        yield from _run_local(specs, workers)
    elif backend == "ray":
        yield from _run_ray(specs, workers, _setup(specs))
    else:
        raise TournamentError(f"unknown backend {backend!r} (one of {', '.join(BACKENDS)})")


def run_all(specs: Sequence[GameSpec], workers: int | None = None, backend: str = "local",
            on_result: Callable[[GameResult], None] | None = None) -> list[GameResult]:
    """All results in schedule order; ``on_result`` is called as each one finishes.

    Whatever stops it (Ctrl+C in ``on_result`` too), the runner has stopped its
    workers and cancelled its Ray tasks before this returns or raises: the run is
    closed here, not whenever the garbage collector gets to it."""
    results = []
    with closing(run(specs, workers, backend)) as games:
        for result in games:
            results.append(result)
            if on_result is not None:
                on_result(result)
    return sorted(results, key=lambda r: r.index)


def _run_local(specs: Sequence[GameSpec], workers: int) -> Iterator[GameResult]:
    """In this process, or on a pool of ``spawn`` workers.

    The pool is :class:`~concurrent.futures.ProcessPoolExecutor`, not
    ``multiprocessing.Pool``: when a worker process dies (killed, out of
    memory, a crash in a bot's native code, a bot calling ``os._exit``) the
    executor fails its games, where ``Pool`` starts a new worker, loses the
    game and waits for it forever — the run hung without a word."""
    if workers == 1 or len(specs) <= 1:
        for spec in specs:
            yield play_game(spec)
        return
    setup = _setup(specs)
    size = min(workers, len(specs))
    pool = ProcessPoolExecutor(size, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_start_worker, initargs=(setup,))
    finished, waiting, pending = 0, iter(specs), set()
    in_flight = IN_FLIGHT_PER_WORKER * size

    def died() -> TournamentError:
        return TournamentError(f"a worker process died ({_exit_codes(pool)}) after {finished} of "
                               f"{len(specs)} games; run with --workers 1 to see which game and why")

    try:
        while True:
            for spec in itertools.islice(waiting, in_flight - len(pending)):
                try:
                    pending.add(_submit(pool, spec))
                except BrokenProcessPool:
                    raise died() from None
            if not pending:
                return
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                try:
                    result = future.result()
                except BrokenProcessPool:
                    raise died() from None
                finished += 1
                yield result
    finally:
        _stop(pool)


#: Games a pool holds submitted per worker: enough to keep every worker busy, few
#: enough that the games are handed over as the run goes, not all at the start
#: (100,000 futures took seconds and memory before the first game was seen).
IN_FLIGHT_PER_WORKER = 4

#: Signals held back while a game is handed to the pool (see :func:`_submit`).
_HELD = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))  # Windows: no SIGHUP


def _submit(pool: ProcessPoolExecutor, spec: GameSpec) -> Any:
    """``pool.submit`` with Ctrl+C, SIGTERM and SIGHUP held back until it returns. An
    interrupt raised inside ``submit`` can leave the executor's lock taken: the run
    then said "interrupted ..." and never exited, Python's exit waiting on the
    executor's thread (about one Ctrl+C in twelve while 100,000 games were being
    submitted). Held, it arrives just after, where stopping is clean. Held by
    Python-level handlers, not a signal mask: a mask holds a signal back only from
    this thread, and the executor's own thread would take it."""
    if threading.current_thread() is not threading.main_thread():
        return pool.submit(_play_in_worker, spec)
    held: list[int] = []
    before = {signum: signal.signal(signum, lambda signum, _frame: held.append(signum)) for signum in _HELD}
    try:
        return pool.submit(_play_in_worker, spec)
    finally:
        for signum, handler in before.items():
            signal.signal(signum, signal.SIG_DFL if handler is None else handler)   # None: not set from Python
        for signum in dict.fromkeys(held):
            signal.raise_signal(signum)   # now, to the handler it had


def _workers_of(pool: ProcessPoolExecutor) -> list[multiprocessing.process.BaseProcess]:
    """The pool's processes (no public way to reach them before Python 3.14's
    ``terminate_workers``)."""
    return list((getattr(pool, "_processes", None) or {}).values())


def _exit_codes(pool: ProcessPoolExecutor) -> str:
    """How the broken pool's dead workers ended, e.g. ``exit code 3`` or ``killed by
    SIGKILL`` (the survivors, which the executor terminates itself, are left out).

    The executor's own thread is still ending the pool when the failed game's
    future is seen: it terminates the survivors and reaps every worker, and a
    worker reaped by that thread while this one looks reads as no exit code at
    all. So the pool is shut down (waiting for that thread) before looking."""
    workers = _workers_of(pool)
    pool.shutdown(wait=True, cancel_futures=True)
    codes = []
    for process in workers:
        process.join(timeout=5)
        code = process.exitcode
        if code is None or code == -signal.SIGTERM:
            continue
        codes.append(f"killed by {signal.Signals(-code).name}" if code < 0 else f"exit code {code}")
    return ", ".join(dict.fromkeys(codes)) or "no exit code"


def _stop(pool: ProcessPoolExecutor) -> None:
    """Cancel the games not started and end the workers now: after Ctrl+C (or a
    failed game) a worker must not play its game to the end first.

    Then wait for the executor's own thread to close the pool. Left running, it
    met Python's exit: the executor's exit hook wakes that thread through a pipe
    the thread closes as it ends, without the lock that guards it elsewhere
    (CPython gh-125451: fixed in 3.12.8 and 3.13.1, never in 3.11), and a
    finished run now and then ended in a traceback of ``OSError: [Errno 9] Bad
    file descriptor`` after its results, exit status 0."""
    workers = _workers_of(pool)
    manager = getattr(pool, "_executor_manager_thread", None)  # shutdown() forgets it
    pool.shutdown(wait=False, cancel_futures=True)
    for process in workers:
        if process.is_alive():
            process.terminate()
    for process in workers:
        process.join(timeout=5)
    if manager is not None and manager is not threading.current_thread():
        manager.join(timeout=5)


def _setup(specs: Sequence[GameSpec]) -> outside.BotSetup:
    """What worker processes need to know the outside bots of ``specs``; a bot
    they could not import is refused now, in one line, before any game."""
    try:
        return outside.bot_setup(b.name for spec in specs for b in spec.bots)
    except GoatError as exc:
        raise TournamentError(str(exc)) from None


#: Why this worker process could not replay the parent's outside bots (``None``: it did).
_setup_error: str | None = None


def _start_worker(setup: outside.BotSetup) -> None:
    """A pool worker's start: leave Ctrl+C to the parent, guard its standard
    streams as the parent's are (a bot's ``print`` on a terminal that has hung up,
    or that cannot show ``♣``, failed its game and with it the run), and know the
    parent's outside bots. A failure is kept for the first game to report: an
    initializer that raises breaks the pool without a word of why."""
    global _setup_error
    _leave_interrupts_to_the_parent()
    guard_standard_streams()
    try:
        outside.restore_bot_setup(setup, bot_registry.register_bot)
    except GoatError as exc:
        _setup_error = str(exc)


def _play_in_worker(spec: GameSpec) -> GameResult:
    if _setup_error is not None:
        raise TournamentError(f"a worker process: {_setup_error}")
    return play_game(spec)


def _play_with_setup(setup: outside.BotSetup, spec: GameSpec) -> GameResult:
    """A Ray task: the parent's outside bots, then the game."""
    try:
        outside.restore_bot_setup(setup, bot_registry.register_bot)
    except GoatError as exc:
        raise TournamentError(f"a Ray worker: {exc}") from None
    return play_game(spec)


def _leave_interrupts_to_the_parent() -> None:
    """Ctrl+C reaches every process of the terminal's group: a worker that took it
    printed "Process SpawnPoolWorker-1:" and its traceback. The parent alone stops
    the run (leaving ``with Pool`` terminates the workers)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def ray_available() -> bool:
    try:
        import ray  # noqa: F401
    except ImportError:
        return False
    return True


def unfinished_cancelled(count: int) -> str:
    """What a stopped Ray run's line says of the games it had not finished: they
    were cancelled, not left running on the cluster (``""`` when none were left)."""
    if count < 1:
        return ""
    return f"{count} unfinished game{'s' if count != 1 else ''} cancelled on Ray"


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise TournamentError("the ray backend needs Ray: pip install 'goat[ray]'") from None
    return ray


@dataclass(frozen=True)
class RaySession:
    """The Ray instance a run plays on: ``cpus`` games run at once there (a
    cluster's CPUs, not ``--workers``), and ``where`` says whose it is."""

    cpus: float
    where: str


@contextmanager
def ray_session(workers: int) -> Iterator[RaySession]:
    """Be connected to Ray while the block runs: to the instance this process is
    connected to (``ray.init(...)`` by the caller), else to the cluster
    ``RAY_ADDRESS`` names, else to a local instance of ``workers`` CPUs. A
    connection made here is closed at the end (a local instance shut down).

    The CLI enters it before its header line, which then tells the CPUs that
    really play: on a cluster ``--workers`` decides nothing."""
    ray = _import_ray()
    connected_here = not ray.is_initialized()
    where = _connect_ray(ray, workers) if connected_here else "the Ray instance this process is connected to"
    try:
        yield RaySession(ray.cluster_resources().get("CPU", 0.0), where)
    finally:
        if connected_here:
            ray.shutdown()


def _run_ray(specs: Sequence[GameSpec], workers: int, setup: outside.BotSetup) -> Iterator[GameResult]:
    """Ray tasks, one per game, in a :func:`ray_session` of ``workers`` CPUs."""
    with ray_session(workers):
        yield from _play_on_ray(_import_ray(), specs, setup)


def _play_on_ray(ray: Any, specs: Sequence[GameSpec], setup: outside.BotSetup) -> Iterator[GameResult]:
    """The games of ``specs`` as Ray tasks on the instance this process is connected to.

    A task is never retried: Ray replays a task whose worker died up to three
    times by default, so a deal that crashed its worker was played four times
    and the failure told only after the fourth (the local pool fails it at once).
    However the run stops — a failed game, a dead worker, Ctrl+C, SIGTERM, the
    caller leaving the loop — the tasks not finished are cancelled: on a cluster
    that outlives the run (the caller's, ``RAY_ADDRESS``'s) they kept playing
    games nobody would read, holding its CPUs for hours."""
    pending: list[Any] = []
    try:
        task = ray.remote(max_retries=0, retry_exceptions=False)(_play_with_setup)
        for spec in specs:  # one by one: Ctrl+C halfway must leave the ones sent in ``pending``
            pending.append(task.remote(setup, spec))
        finished = 0
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                try:
                    result = ray.get(ref)
                except ray.exceptions.RayTaskError as exc:
                    cause = getattr(exc, "cause", None)
                    if isinstance(cause, GoatError):
                        raise TournamentError(_and_cancelled(str(cause), len(pending))) from None
                    raise  # a bug of the project's own: its traceback helps
                except ray.exceptions.RayError as exc:  # the worker died (crash, out of memory), its node was lost
                    note = unfinished_cancelled(len(pending))
                    raise TournamentError(f"a Ray worker died ({type(exc).__name__}) after {finished} of "
                                          f"{len(specs)} games{', ' + note if note else ''}; run with "
                                          "--backend local --workers 1 to see which game and why") from None
                finished += 1
                yield result
    finally:
        _cancel_ray_tasks(ray, pending)


def _and_cancelled(message: str, unfinished: int) -> str:
    """A failed game's line, and the unfinished games it cancelled."""
    note = unfinished_cancelled(unfinished)
    return f"{message} ({note})" if note else message


#: Seconds a cluster's address has to accept a connection and answer Ray's
#: handshake before ``ray.init`` is tried: Ray's own retries waited about 14
#: minutes on an address where nothing listens (20 tries of 41 s), and as long on
#: a port that answers but is no Ray cluster's (the dashboard's 8265, any HTTP
#: server), printing a warning every few seconds.
PROBE_SECONDS = 5.0

#: What an HTTP/2 client sends first (RFC 9113, 3.4): the preface, then its (empty)
#: SETTINGS frame. Ray's GCS and Ray Client speak gRPC, HTTP/2 without TLS unless
#: RAY_USE_TLS is set: their answer begins with a SETTINGS frame of their own.
HTTP2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])
HTTP2_SETTINGS = 4  # the frame type, the fourth byte of a frame's 9-byte header

#: The reason told when the port answers but not in gRPC.
NOT_RAY = ("the port answers, but not as a Ray cluster does (no gRPC there: the dashboard's port? "
           "a head node listens on 6379 by default, Ray Client on ray://HOST:10001)")


def _connect_ray(ray: Any, workers: int) -> str:
    """Connect to the cluster ``RAY_ADDRESS`` names (its CPUs decide how many
    games run at once), else (also ``RAY_ADDRESS=local``) start a local instance
    of ``workers`` CPUs. Returns whose instance it is, for the header line.

    ``ray.init`` makes SIGTERM a bare ``sys.exit`` as it starts: a SIGTERM while
    it connected ended the process with status 15 and not a word. The handler
    before it (the CLI's: stop as Ctrl+C does, with its line) is put back however
    ``ray.init`` ends, and a SIGTERM that arrived meanwhile is handed to it (Python
    runs a handler only between Ray's calls into its core: on an address that
    answers but never as Ray, after up to ``RAY_py_gcs_connect_timeout_s``, 30 s)."""
    previous = signal.getsignal(signal.SIGTERM)
    quiet: dict[str, Any] = {"log_to_driver": False, "logging_level": "ERROR"}
    address = os.environ.get("RAY_ADDRESS", "")
    try:
        if address and address != "local":
            _probe(address)
            try:
                ray.init(**quiet)  # ray.init reads RAY_ADDRESS itself; num_cpus is the cluster's to say
            except (ConnectionError, ValueError) as exc:  # no instance for "auto", a bad address, no Ray Client
                raise TournamentError(_cannot_connect(address, _why_not(exc))) from None
            return f"the Ray cluster at RAY_ADDRESS={address}"
        ray.init(num_cpus=workers, include_dashboard=False, **quiet)
        return "a local Ray instance"
    except SystemExit:  # ray.init's only sys.exit is its SIGTERM handler's (a local head node's: after its cleanup)
        if callable(previous):
            previous(signal.SIGTERM, None)
        raise
    finally:
        if previous is not None and threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, previous)


def _probe(address: str) -> None:
    """Refuse in one line, within about :data:`PROBE_SECONDS`, a ``RAY_ADDRESS`` of
    ``host:port`` or ``ray://host:port`` where nothing accepts a connection (a
    cluster that is down, a wrong port or host) or where what answers does not
    speak HTTP/2, as gRPC does (the dashboard's port, a web server). It proves
    the port speaks gRPC, not that it is Ray's: the rest is ``ray.init``'s to
    find. With RAY_USE_TLS the handshake is TLS's, and only the connection is
    tried. Anything else (``auto``, another client's ``scheme://``) is left to
    ``ray.init``."""
    host_port = address.removeprefix("ray://")
    if "://" in host_port:
        return
    try:
        parts = urlsplit("//" + host_port)
        host, port = parts.hostname, parts.port
    except ValueError:  # a port that is no number: ray.init's error says so
        return
    if not host or port is None:
        return
    deadline = time.monotonic() + PROBE_SECONDS
    try:
        with socket.create_connection((host, port), timeout=PROBE_SECONDS) as connection:
            if os.environ.get("RAY_USE_TLS", "0").lower() in ("1", "true"):
                return
            speaks_http2 = _answers_http2(connection, deadline)
    except OSError as exc:
        reason = (f"no answer within {PROBE_SECONDS:g} s" if isinstance(exc, TimeoutError)
                  else exc.strerror or str(exc))
        raise TournamentError(_cannot_connect(address, reason)) from None
    if not speaks_http2:
        raise TournamentError(_cannot_connect(address, NOT_RAY))


def _answers_http2(connection: socket.socket, deadline: float) -> bool:
    """Whether the server of ``connection`` answers an HTTP/2 client's preface
    with its SETTINGS frame by ``deadline`` (:class:`TimeoutError` if it says
    nothing): an HTTP/1 server answers ``HTTP/1.1 400``, or an error page."""
    connection.sendall(HTTP2_PREFACE)
    header = b""
    while len(header) < 9:
        connection.settimeout(max(deadline - time.monotonic(), 0.01))
        chunk = connection.recv(9 - len(header))
        if not chunk:  # closed on us
            return False
        header += chunk
    return header[3] == HTTP2_SETTINGS


def _cannot_connect(address: str, reason: str) -> str:
    return f"cannot connect to the Ray cluster at RAY_ADDRESS={address}: {reason}"


#: What a cluster with token authentication (``ray start``'s default in recent Ray)
#: needs of a driver that names its address: Ray sends its token only to a
#: cluster it found itself, so RAY_ADDRESS alone was refused, after 20 s of warnings.
TOKEN_HINT = ("the cluster wants its token: set RAY_AUTH_MODE=token as well (the token from "
              "~/.ray/auth_token, RAY_AUTH_TOKEN_PATH or RAY_AUTH_TOKEN)")


def _why_not(exc: BaseException) -> str:
    """Why ``ray.init`` failed, in a few words: Ray's message up to its first full
    stop (its advice is for Ray's own command line: ``set the --address flag``),
    or what a cluster of token authentication wants (told only in the cause)."""
    if "InvalidAuthToken" in f"{exc} {exc.__cause__}":
        return TOKEN_HINT
    return str(exc).strip().split("\n")[0].split(". ")[0].rstrip(".") or type(exc).__name__


def _cancel_ray_tasks(ray: Any, refs: Sequence[Any]) -> None:
    """Cancel the tasks of ``refs`` (a finished one is left as it is): a queued
    game never starts, a running one's worker is killed (``force``: a bot deep in
    native code would not see the ``KeyboardInterrupt`` of a gentle cancel)."""
    for ref in refs:
        try:
            ray.cancel(ref, force=True)
        except ray.exceptions.RayError:  # the connection is gone, and the tasks this process owned with it
            return
