"""The solver's kernels for the server (:mod:`goat.server.solverload`).

* on a fresh install they are compiled in a child process, never on the event
  loop nor in a worker thread of the server: a stop (Ctrl+C) kills the child at
  once instead of waiting up to a minute for the compile;
* a child that fails is one log line, and the server then loads them itself;
* a hint waits for the load rather than compiling beside it; the bots of a
  table that may use the solver wait too, other tables' bots play on;
* which tables start the load (:func:`wants_solver`).
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import subprocess
import sys
import textwrap
import time
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import goat.server.solverload as solverload
from goat.server.runner import ServeProcess, ServerThread
from goat.server.solverload import SolverLoad, wants_solver
from goat.server.settings import Settings

from .conftest import SRC, Client, Lobby, my_turn, run

#: A child that "compiles" for ten minutes: only a kill ends it in a test's time.
SLOW = [sys.executable, "-c", "import time; time.sleep(600)"]


def compiling_children(marker: str) -> list[int]:
    """The pids of live processes running the solver's compile command whose
    environment holds ``marker`` (this test's numba cache directory)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
            environ = (entry / "environ").read_bytes()
            status = (entry / "status").read_text()
        except OSError:
            continue
        zombie = "\nState:\tZ" in status
        if b"warm_up()" in cmdline and marker.encode() in environ and not zombie:
            found.append(int(entry.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="reads processes through /proc")
def test_a_stop_while_the_solver_compiles_does_not_wait_for_the_compile(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A fresh install (an empty numba cache): the first table with hints starts
    the compile. Before, it ran in a worker thread of the server, and Ctrl+C then
    waited for it to finish — 65 s measured, with nothing said. Now a child
    process compiles, and the stop kills it."""
    cache = tmp_path / "numba-cache"
    cache.mkdir()
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(cache))
    (tmp_path / "data").mkdir()
    server = ServeProcess(tmp_path / "data", log_path=tmp_path / "serve.log")
    try:
        async def start_a_hints_table() -> None:
            lobby = Lobby(server.url)
            tid, token = await lobby.with_bots(rules="classic", seed=3, hints=True)
            await lobby.start(tid, token)
            await lobby.close()

        run(start_a_hints_table())
        deadline = time.monotonic() + 30
        while not compiling_children(str(cache)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert compiling_children(str(cache)), "no child process compiles the solver"
        server.proc.send_signal(signal.SIGINT)   # Ctrl+C
        server.proc.wait(timeout=30)             # the compile alone takes longer than this
        log = (tmp_path / "serve.log").read_text()
        assert server.proc.returncode in (0, 130) and "Traceback" not in log, log   # 130: stopped by Ctrl+C
        assert compiling_children(str(cache)) == [], "the compiling child outlived the server"
    finally:
        server.stop()
        for pid in compiling_children(str(cache)):
            os.kill(pid, signal.SIGKILL)


@pytest.fixture
def loads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A process without the kernels (so a load starts a child); each load in
    the server itself (``_load_in_process``) is counted, not done."""
    monkeypatch.setattr(solverload, "_loaded", lambda: False)
    loaded: list[int] = []
    monkeypatch.setattr(solverload, "_load_in_process", lambda: loaded.append(1))
    return loaded


async def compiling(load: SolverLoad) -> Any:
    """Start ``load`` and return its child once it runs."""
    load.start()
    while load.child is None:
        await asyncio.sleep(0.01)
    return load.child


def test_close_kills_a_compiling_child_and_ends_the_load(loads: list[int]) -> None:

    async def scenario() -> None:
        load = SolverLoad(SLOW)
        child = await compiling(load)
        waiter = asyncio.ensure_future(load.ready())
        await asyncio.sleep(0.2)
        assert not waiter.done()                     # ready() waits for the compile
        await asyncio.wait_for(load.close(), 10)
        assert child.returncode is not None          # killed, not left compiling
        with pytest.raises(asyncio.CancelledError):  # whoever waited goes no further:
            await asyncio.wait_for(waiter, 10)       # not on to a compile of its own
        with pytest.raises(asyncio.CancelledError):
            await load.ready()                       # nor whoever asks after the stop
        assert loads == []                           # a stopping server loads nothing more

    run(scenario())


def test_the_load_compiles_once_and_a_cancelled_waiter_leaves_it_running(loads: list[int]) -> None:
    children: list[Any] = []

    async def scenario() -> None:
        load = SolverLoad([sys.executable, "-c", "import time; time.sleep(0.5)"])
        first = asyncio.ensure_future(load.ready())
        second = asyncio.ensure_future(load.ready())
        while load.child is None:
            await asyncio.sleep(0.01)
        children.append(load.child)
        first.cancel()                               # a page that went away
        await asyncio.wait_for(second, 30)
        await load.ready()                           # loaded: at once, no second child
        assert load.child is children[0] and load.child.returncode == 0
        await load.settled()
        await load.close()

    run(scenario())
    assert loads == [1]                              # the kernels loaded in the server once


def test_a_child_that_fails_is_one_line_and_the_server_loads_the_kernels_itself(
        loads: list[int], caplog: pytest.LogCaptureFixture) -> None:
    failing = [sys.executable, "-c", "import sys; print('Traceback...', file=sys.stderr); "
               "sys.exit('OSError: numba cannot write its cache')"]

    async def scenario() -> None:
        load = SolverLoad(failing)
        await asyncio.wait_for(load.ready(), 30)

    with caplog.at_level(logging.WARNING, logger="goat.server"):
        run(scenario())
    assert loads == [1]
    said = [r.getMessage() for r in caplog.records]
    assert said == ["compiling the solver in a child process failed (OSError: numba cannot write its cache); "
                    "the server compiles it"]


def test_a_child_killed_from_outside_loads_nothing_more(loads: list[int]) -> None:
    """The child ended by a signal (the machine stopping): not a failure to make
    up for by compiling in the server."""
    async def scenario() -> None:
        load = SolverLoad(SLOW)
        (await compiling(load)).send_signal(signal.SIGTERM)
        await asyncio.wait_for(load.settled(), 10)

    run(scenario())
    assert loads == []


def test_a_warm_up_that_fails_is_one_line_in_the_log(monkeypatch: pytest.MonkeyPatch,
                                                     caplog: pytest.LogCaptureFixture) -> None:
    """Nobody may await the load: before, its failure was never read and came out
    at exit as "Future exception was never retrieved" with a traceback."""
    def broken() -> None:
        raise RuntimeError("numba could not compile\ndetails")

    monkeypatch.setattr(solverload, "_loaded", lambda: True)   # no child: straight to the load
    monkeypatch.setattr(solverload, "_load_in_process", broken)

    async def scenario() -> None:
        load = SolverLoad(SLOW)
        load.start()
        await load.settled()
        await asyncio.sleep(0)              # the done callback runs on the next turn

    with caplog.at_level(logging.WARNING, logger="goat.server"):
        run(scenario())
    said = [r.getMessage() for r in caplog.records if "warm-up" in r.getMessage()]
    assert said == ["the solver's warm-up failed (numba could not compile); its first use loads it instead"]


WARM_IN_A_FRESH_PROCESS = textwrap.dedent("""
    import asyncio, sys, threading
    from goat.server.solverload import SolverLoad

    on_main_thread = []

    class Spy:
        def find_spec(self, name, path=None, target=None):
            if name == "goat.fast.solver":
                on_main_thread.append(threading.current_thread() is threading.main_thread())
            return None

    sys.meta_path.insert(0, Spy())

    async def start_a_hints_table():
        await SolverLoad().ready()

    asyncio.run(start_a_hints_table())
    print(on_main_thread, "goat.fast.solver" in sys.modules)
""")


def test_the_solver_is_imported_off_the_event_loop() -> None:
    """On a fresh install importing the solver compiles its kernels (two minutes
    on a 2-core machine): done on the event loop, the first table with hints
    stopped every table of the server for that long. A fresh process (this one
    has the solver imported already) records which thread imports it."""
    done = subprocess.run([sys.executable, "-c", WARM_IN_A_FRESH_PROCESS], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(SRC)}, timeout=600, check=True)
    assert done.stdout.strip() == "[False] True", done.stdout + done.stderr


def table(game: str = "kozel", rules: str = "classic", players: int = 4, hints: bool = False,
          bots: tuple[str | None, ...] = (), default_bot: str = "heuristic") -> Any:
    seats = [types.SimpleNamespace(kind="bot" if bot else "human", bot=bot) for bot in bots]
    return types.SimpleNamespace(row=types.SimpleNamespace(game=game, rules=rules, players=players),
                                 hints=hints, seats=seats, settings=Settings(default_bot=default_bot))


def test_which_tables_start_the_load() -> None:
    assert wants_solver(table(hints=True))
    assert wants_solver(table(rules="full-hand", players=2, hints=True))
    assert not wants_solver(table())                                        # heuristic bots, no hints
    assert not wants_solver(table(bots=(None, "heuristic", "ismcts", "random")))
    assert wants_solver(table(bots=(None, "heuristic", "pimc:worlds=16", "random")))
    assert wants_solver(table(rules="full-hand", players=3, bots=(None, "pimc", "pimc")))
    assert wants_solver(table(default_bot="pimc"))                          # a stand-in, the clock's bot
    assert not wants_solver(table(rules="street", hints=True, bots=(None, "pimc")))   # out of the solver's reach
    assert not wants_solver(table(game="spades", rules="standard", hints=True, bots=(None, "pimc")))  # DDS


def test_a_pimc_table_waits_for_the_compile_while_other_tables_play_on(
        start_server: Callable[..., ServerThread], monkeypatch: pytest.MonkeyPatch) -> None:
    """While the kernels compile, a table whose bots may use them waits (not a
    second compile in a worker thread a stop would wait for); a Spades table, or
    a Kozel table of heuristic bots, does not."""
    monkeypatch.setattr(solverload, "_loaded", lambda: False)
    monkeypatch.setattr(solverload, "COMPILE", ("-c", "import time; time.sleep(600)"))
    server = start_server()

    async def scenario() -> None:
        lobby = Lobby(server.url)
        pimc_id, pimc_token = await lobby.with_bots("pimc", rules="classic", seed=5)
        others = [await lobby.with_bots("heuristic", game="spades", seed=5),
                  await lobby.with_bots("heuristic", rules="classic", seed=6)]
        for tid, token in [(pimc_id, pimc_token), *others]:
            await lobby.start(tid, token)
        for tid, token in others:     # their bots play: the seat 0 person's turn comes round
            async with Client(server.ws_url, tid, token) as me:
                await me.until(my_turn, timeout=60)
        async with Client(server.ws_url, pimc_id, pimc_token) as me:
            await me.send({"type": "sync"})
            state = await me.until(lambda m: m["type"] == "state")
            if my_turn(state):   # the person first: then a bot is to act
                await me.reply_to(await me.act(state["view"]["legal_actions"][0]))
                state = me.state
            assert state is not None and state["view"]["current_player"] != 0
            await asyncio.sleep(1.0)
            await me.send({"type": "sync"})
            later = await me.until(lambda m: m["type"] == "state")
            assert later["version"] == state["version"], "a pimc bot played while the kernels compiled"
        await lobby.close()
        return pimc_id, pimc_token, later["version"]

    pimc_id, pimc_token, version = run(scenario())
    server = start_server.restart(server)   # restored in play: its driver starts before anything else

    async def after_restart() -> None:
        async with Client(server.ws_url, pimc_id, pimc_token) as me:
            await asyncio.sleep(1.0)
            await me.send({"type": "sync"})
            state = await me.until(lambda m: m["type"] == "state")
            assert state["version"] == version, "a restored pimc bot played while the kernels compiled"

    run(after_restart())
