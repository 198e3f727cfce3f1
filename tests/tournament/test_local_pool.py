"""The local pool of ``goat tournament`` (``goat.tournament.runner``): how games
are handed to it, and how an interrupt meets that."""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import time
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from goat.games import get_game
from goat.tournament import TableConfig, parse_bot_list, schedule, scoring_for
from goat.tournament.runner import IN_FLIGHT_PER_WORKER, run_all


def games(matches: int) -> list[Any]:
    probe = get_game("kozel").new_state(rules="classic", options={"match_target": 1})
    return schedule(parse_bot_list("random,random"), TableConfig("kozel", "classic", {"match_target": 1}),
                    probe.num_players, scoring_for("kozel").sides(probe), matches, 3)


def test_ctrl_c_while_a_game_is_handed_to_the_pool_arrives_after_it_is_handed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl+C inside ``ProcessPoolExecutor.submit`` could leave the executor's lock
    taken: the run said "interrupted" and never exited (about one Ctrl+C in twelve
    while a 100,000-game run was being submitted). The runner holds SIGINT and
    SIGTERM back while it hands a game over: the interrupt is raised once
    ``submit`` has returned, and the run stops."""
    handed: list[Future[Any]] = []
    real = ProcessPoolExecutor.submit

    def submit(self: ProcessPoolExecutor, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        os.kill(os.getpid(), signal.SIGINT)   # Ctrl+C in the middle of submit
        time.sleep(0.2)                        # where Python would run its handler
        future = real(self, fn, *args, **kwargs)
        handed.append(future)
        return future

    monkeypatch.setattr(ProcessPoolExecutor, "submit", submit)
    before = signal.signal(signal.SIGINT, signal.default_int_handler)   # Ctrl+C as in a terminal: another
    try:                                                                # test in this process may have set it
        with pytest.raises(KeyboardInterrupt):
            run_all(games(2), workers=2)
    finally:
        signal.signal(signal.SIGINT, before)
    assert len(handed) == 1


def test_the_pool_is_handed_a_few_games_per_worker_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Games are handed over as others finish, never more than
    ``IN_FLIGHT_PER_WORKER`` a worker at once (a 100,000-game run made all its
    futures before the first game was seen), and every game is played once."""
    real = ProcessPoolExecutor.submit
    live: set[Future[Any]] = set()
    most = 0

    def submit(self: ProcessPoolExecutor, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        nonlocal most
        future = real(self, fn, *args, **kwargs)
        live.difference_update({f for f in live if f.done()})
        live.add(future)
        most = max(most, len(live))
        return future

    monkeypatch.setattr(ProcessPoolExecutor, "submit", submit)
    specs = games(12)
    results = run_all(specs, workers=2)
    assert [r.index for r in results] == list(range(len(specs)))
    assert len(specs) > 2 * IN_FLIGHT_PER_WORKER and most <= 2 * IN_FLIGHT_PER_WORKER


#: Runs ``goat`` with the executor's exit race made wide: the manager thread
#: closes its wake-up pipe late (a loaded machine), and the exit hook's wake-up
#: (``_python_exit``: 3.11's, without a lock) pauses between its check and its
#: write. Python's own timing hits the same window now and then.
WIDE_EXIT_RACE = """
import sys, time
from concurrent.futures import process

def wakeup(self):
    if not self._closed:
        if process._global_shutdown:   # called by the exit hook
            time.sleep(1.0)
        self._writer.send_bytes(b"")

join_internals = process._ExecutorManagerThread.join_executor_internals

def late_join(self):
    time.sleep(0.3)
    join_internals(self)

process._ThreadWakeup.wakeup = wakeup
process._ExecutorManagerThread.join_executor_internals = late_join
if __name__ == "__main__":
    sys.argv = ["goat"] + sys.argv[1:]
    from goat.cli.main import main
    main()
"""


def test_a_finished_run_leaves_no_pool_thread_for_the_exit_to_race(tmp_path: Path) -> None:
    """A street tournament started from a script once ended, after its results,
    in ``OSError: [Errno 9] Bad file descriptor`` and exit status 0: the pool's
    manager thread was still closing its wake-up pipe when Python's exit hook for
    executors wrote to it (unguarded before Python 3.12.8). The run now waits for
    that thread before it returns, so the exit finds nothing to wake."""
    script = tmp_path / "wide_race.py"
    script.write_text(WIDE_EXIT_RACE)
    root = Path(__file__).resolve().parents[2]
    run = subprocess.run([sys.executable, str(script), "tournament", "--bots", "random,random", "--matches", "1",
                          "--option", "match_target=1", "--seed", "3", "--workers", "2"],
                         capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": str(root / "src"), "NO_COLOR": "1"})
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr and "Exception ignored" not in run.stderr, run.stderr
    assert "2 games" in run.stdout


#: A pool started as the tournament's is (its worker initializer), whose worker
#: prints a line, as a bot's debugging print does, after the terminal hung up.
PRINT_AFTER_HANG_UP = """
import multiprocessing, os, sys
from concurrent.futures import ProcessPoolExecutor
from goat.bots.outside import BotSetup
from goat.tournament import runner

context = multiprocessing.get_context(sys.argv[1])
with ProcessPoolExecutor(1, mp_context=context, initializer=runner._start_worker, initargs=(BotSetup(),)) as pool:
    pool.submit(print, "worker up", flush=True).result()
    try:
        os.read(0, 1)   # until the terminal hangs up
    except OSError:
        pass
    pool.submit(print, "a bot's line", flush=True).result()
"""


@pytest.mark.parametrize("method", ["spawn", "forkserver"])
def test_a_pool_worker_survives_the_terminal_hanging_up(method: str, tmp_path: Path) -> None:
    """`goat tournament ... & disown`, then the terminal closed: the parent's
    streams are guarded (``goat.streams``), but a ``spawn`` or ``forkserver``
    worker (Python 3.14's default start method on Linux) starts with plain ones
    on the same terminal, and a bot's print there died of EIO, failing the run."""
    import pty

    if method not in multiprocessing.get_all_start_methods():
        pytest.skip(f"no {method} start method here")
    root = Path(__file__).resolve().parents[2]
    controller, terminal = pty.openpty()
    try:
        run = subprocess.Popen([sys.executable, "-c", PRINT_AFTER_HANG_UP, method], stdin=terminal,
                               stdout=terminal, stderr=subprocess.PIPE, cwd=tmp_path,
                               env={**os.environ, "PYTHONPATH": str(root / "src")})
    finally:
        os.close(terminal)
    try:
        seen = b""
        while b"worker up" not in seen:
            seen += os.read(controller, 4096)
        os.close(controller)   # the terminal window closes
        controller = -1
        _, stderr = run.communicate(timeout=120)
    finally:
        if controller >= 0:
            os.close(controller)
        if run.poll() is None:
            run.kill()
    assert run.returncode == 0, stderr.decode()
