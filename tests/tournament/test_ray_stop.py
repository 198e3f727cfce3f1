"""The Ray backend on an instance the run did not start (a cluster's, the caller's):
however the run stops, its unfinished games are cancelled there, not left to hold
the cluster's CPUs; a game whose worker died is not played again."""

from __future__ import annotations

import importlib.util
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from goat.tournament.runner import TournamentError, default_workers, ray_available, run_all
from goat.tournament.schedule import GameSpec, TableConfig, schedule
from goat.tournament.specs import parse_bot_list

pytestmark = [pytest.mark.skipif(not ray_available(), reason="Ray is not installed (pip install 'goat[ray]'); "
                                                             "make test installs it via the test extra"),
              pytest.mark.xdist_group("ray")]  # one Ray instance at a time on a CI machine

#: ``sleepy`` takes two minutes over each move (a long game); ``dying`` ends its worker
#: process as it sits down (a crash in native code). Both leave a line in
#: $GOAT_TEST_LOG, the dying one with its seed (one seed, one game).
BOTS = """
import os
import time

from goat.bots import RandomBot, register_bot


def log(line):
    with open(os.environ["GOAT_TEST_LOG"], "a") as stream:
        stream.write(line + "\\n")


class SleepyBot(RandomBot):
    def choose(self, view):
        log("sleeping")
        time.sleep(120)
        return super().choose(view)


class DyingBot(RandomBot):
    def __init__(self, seed=None):
        super().__init__(seed)
        if os.environ.get("GOAT_TEST_MAIN_PID") != str(os.getpid()):
            log(f"dying {seed}")
            os._exit(3)


register_bot("sleepy", SleepyBot)
register_bot("dying", DyingBot)
"""

ROOT = Path(__file__).resolve().parents[2]

#: ``goat`` with Ctrl+C raising KeyboardInterrupt whatever the parent left SIGINT as.
GOAT_WITH_CTRL_C = ("import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
                    "sys.argv[0] = 'goat'; from goat.cli.main import main; main()")


@pytest.fixture
def outside_ray(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, bot_registry: None) -> Iterator[Any]:
    """A Ray instance of two CPUs this test started: to the runner, a cluster that
    outlives its run. The bot module is loaded, its log is ``tmp_path / "log"``."""
    import ray

    monkeypatch.setenv("GOAT_TEST_LOG", str(tmp_path / "log"))
    monkeypatch.setenv("GOAT_TEST_MAIN_PID", str(os.getpid()))
    module = tmp_path / "bots.py"
    module.write_text(BOTS)
    from goat.bots import load_bot_module

    load_bot_module(str(module))
    # its workers inherit the environment set above
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    try:
        yield ray
    finally:
        ray.shutdown()


def games(bots: str) -> list[GameSpec]:
    """One duplicate set (two single deals) per pairing of ``bots``."""
    return schedule(parse_bot_list(bots), TableConfig(rules="classic", deals_only=True), 4, [0, 1, 0, 1],
                    sets=1, seed=1)


def cpus_free(ray: Any) -> bool:
    """Whether a task needing both CPUs runs within 20 s: not while a game holds one.
    (Its body is any function a Ray worker can import: this test module it cannot.)"""
    ref = ray.remote(num_cpus=2)(default_workers).remote()
    try:
        ray.get(ref, timeout=20)
    except ray.exceptions.GetTimeoutError:
        ray.cancel(ref)
        return False
    return True


def log_lines(tmp_path: Path) -> list[str]:
    log = tmp_path / "log"
    return log.read_text().splitlines() if log.exists() else []


def test_a_dead_worker_stops_the_run_once_and_cancels_the_other_games(outside_ray: Any, tmp_path: Path) -> None:
    """Ray replayed a task whose worker died three more times before telling (the
    deal crashed four workers), and the other games went on after the error."""
    stopped: list[BaseException] = []

    def play() -> None:  # in a thread: the test is to end even if the run does not
        try:
            run_all(games("dying,sleepy,random"), backend="ray")
        except BaseException as exc:  # noqa: BLE001 - what stopped it is the test
            stopped.append(exc)

    playing = threading.Thread(target=play, daemon=True)
    playing.start()
    playing.join(timeout=90)
    # retried, the dying games queued up again behind the long ones: told after half an hour
    assert stopped, "the dead worker was not told within 90 s"
    assert isinstance(stopped[0], TournamentError), stopped
    assert str(stopped[0]).startswith("a Ray worker died (WorkerCrashedError) after 0 of 6 games, ")
    assert "unfinished games cancelled on Ray; run with --backend local --workers 1" in str(stopped[0])
    assert cpus_free(outside_ray)
    dead = [line for line in log_lines(tmp_path) if line.startswith("dying")]
    assert dead and len(dead) == len(set(dead)), dead  # no game played twice


@pytest.mark.parametrize("signum, status, head", [
    (signal.SIGINT, 130, "interrupted after 0 of 4 games ("),
    (signal.SIGTERM, 128 + signal.SIGTERM, "terminated (SIGTERM) after 0 of 4 games ("),
], ids=["ctrl-c", "sigterm"])
def test_a_stopped_run_on_ray_address_cancels_its_games_with_its_line(outside_ray: Any, tmp_path: Path,
                                                                       signum: int, status: int, head: str) -> None:
    """``goat tournament --backend ray`` with RAY_ADDRESS set was a traceback
    (``num_cpus`` given to a cluster); Ctrl+C stopped the loop and left the games
    already sent playing on the cluster (the caller's Ray stays up: both CPUs busy
    for nothing), and SIGTERM ended a run without a word. Now it plays on that
    cluster, and either signal stops it with a line saying the unfinished games
    were cancelled there. (A separate process, so a run that did not stop is
    killed at the timeout instead of hanging the test session.)"""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "NO_COLOR": "1",
           "RAY_ADDRESS": outside_ray.get_runtime_context().gcs_address}
    # Ctrl+C as a terminal sends it: a shell that starts a job in the background (a CI
    # runner's `cmd &`) starts it with SIGINT ignored, which Python then keeps ignored
    run = subprocess.Popen([sys.executable, "-c", GOAT_WITH_CTRL_C, "tournament", "--bot-module",
                            str(tmp_path / "bots.py"), "--bots", "sleepy,random", "--matches", "2", "--seed", "1",
                            "--deals-only", "--backend", "ray"],
                           env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 90
        while log_lines(tmp_path).count("sleeping") < 2 and run.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        assert log_lines(tmp_path).count("sleeping") >= 2  # the games were running when stopped
        run.send_signal(signum)
        stdout, stderr = run.communicate(timeout=120)   # a loaded machine: Ray's cancel and shutdown
    finally:
        run.kill()
    assert run.returncode == status, stderr
    assert "Traceback" not in stderr
    [line] = [line for line in stderr.splitlines() if line.startswith(head.split(" after")[0])]
    assert line.startswith(head)
    assert line.endswith("s; 4 unfinished games cancelled on Ray): no duplicate set finished whole: no results")
    assert cpus_free(outside_ray)


def goat_tournament(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """``goat tournament ... --backend ray`` in a new process (its own connection to Ray)."""
    return subprocess.run([sys.executable, "-m", "goat", "tournament", "--bots", "random,random", "--matches", "1",
                           "--seed", "1", "--deals-only", "--backend", "ray", *args],
                          env={**os.environ, "PYTHONPATH": str(ROOT / "src"), "NO_COLOR": "1", "COLUMNS": "200",
                               **env}, capture_output=True, text=True, timeout=120)


def test_the_header_tells_the_cpus_of_the_cluster_not_workers(outside_ray: Any) -> None:
    """On a cluster its CPUs decide how many games run at once, yet the header said
    ``5 worker(s)`` from ``--workers 5`` (or the machine's CPU count): on
    RAY_ADDRESS's cluster and on the caller's own Ray alike."""
    address = outside_ray.get_runtime_context().gcs_address
    run = goat_tournament({"RAY_ADDRESS": address}, "--workers", "5")
    assert run.returncode == 0, run.stderr
    assert run.stderr.splitlines()[0].endswith(f"seed 1, backend ray: 2 CPU(s) of the Ray cluster at "
                                                f"RAY_ADDRESS={address}"), run.stderr
    from typer.testing import CliRunner

    from goat.cli.main import app

    result = CliRunner(env={"COLUMNS": "200", "RAY_ADDRESS": None}).invoke(
        app, ["tournament", "--bots", "random,random", "--matches", "1", "--seed", "1", "--deals-only",
              "--backend", "ray", "--workers", "5"])
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines()[0].endswith(
        "seed 1, backend ray: 2 CPU(s) of the Ray instance this process is connected to"), result.stderr
    assert outside_ray.is_initialized()  # the caller's connection is the caller's to close


def test_a_cluster_that_wants_its_token_says_so_in_one_line(outside_ray: Any) -> None:
    """Ray (2.5x) starts a cluster with token authentication and sends the token only
    to a cluster it found itself: RAY_ADDRESS alone was refused after Ray's warnings
    with ``Failed to connect to Ray cluster at ...`` and exit status 1, not a word of
    the token. (Ray's wait for the cluster is cut to one try here.)"""
    if os.environ.get("RAY_AUTH_MODE") != "token":
        pytest.skip("this Ray started its instance without token authentication")
    address = outside_ray.get_runtime_context().gcs_address
    run = goat_tournament({"RAY_ADDRESS": address, "RAY_AUTH_MODE": "disabled",
                           "RAY_gcs_server_port_wait_time_s": "1"})
    assert run.returncode == 2, run.stderr
    assert run.stderr.splitlines()[-1] == (f"error: cannot connect to the Ray cluster at RAY_ADDRESS={address}: "
                                           "the cluster wants its token: set RAY_AUTH_MODE=token as well (the "
                                           "token from ~/.ray/auth_token, RAY_AUTH_TOKEN_PATH or RAY_AUTH_TOKEN)")
    assert "Traceback" not in run.stderr



@pytest.mark.skipif(importlib.util.find_spec("grpc") is not None, reason="Ray Client (ray[client]) is installed")
def test_a_ray_client_address_without_ray_client_is_one_line(outside_ray: Any) -> None:
    """``ray://`` needs Ray Client (``pip install 'ray[client]'``), which Ray checks only
    once the address answers: the earlier test's address refuses connections, so this
    one is a cluster's, which does answer (as gRPC)."""
    address = "ray://" + outside_ray.get_runtime_context().gcs_address
    run = goat_tournament({"RAY_ADDRESS": address})
    assert run.returncode == 2, run.stderr
    assert run.stderr.splitlines() == [f"error: cannot connect to the Ray cluster at RAY_ADDRESS={address}: "
                                       "Ray Client requires pip package `ray[client]`"]

@pytest.fixture
def http2_stub() -> Iterator[tuple[str, list[int]]]:
    """A port that answers as gRPC does (an HTTP/2 SETTINGS frame) and then says
    nothing: Ray's tries to connect there each wait out their deadline. Yields its
    address and the connections it accepted, one entry each (the first is the
    probe's, the next are Ray's). It listens on every interface: Ray connects to
    this machine's address, not 127.0.0.1."""
    listener = socket.create_server(("0.0.0.0", 0))
    accepted: list[int] = []

    def answer(connection: socket.socket) -> None:
        with connection:
            try:
                connection.sendall(bytes([0, 0, 0, 4, 0, 0, 0, 0, 0]))  # an empty SETTINGS frame
                while connection.recv(65536):
                    pass
            except OSError:  # the other side left
                pass

    def serve() -> None:
        while True:
            try:
                connection, _ = listener.accept()
            except OSError:  # closed: the test is over
                return
            accepted.append(1)
            threading.Thread(target=answer, args=(connection,), daemon=True).start()

    threading.Thread(target=serve, daemon=True).start()
    try:
        yield f"127.0.0.1:{listener.getsockname()[1]}", accepted
    finally:
        listener.close()


@pytest.mark.parametrize("signum, status, line", [
    (signal.SIGINT, 130, "interrupted while connecting to Ray: no game played"),
    (signal.SIGTERM, 128 + signal.SIGTERM, "terminated (SIGTERM) while connecting to Ray: no game played"),
], ids=["ctrl-c", "sigterm"])
def test_a_run_stopped_while_connecting_to_ray_says_so(http2_stub: tuple[str, list[int]], signum: int,
                                                       status: int, line: str) -> None:
    """``ray.init`` puts its own SIGTERM handler in place (``sys.exit``): a SIGTERM
    while it connected ended the process with status 15 and not a word. Ray's tries
    are cut to 2 s here: Python runs a signal's handler only between them."""
    address, accepted = http2_stub
    run = subprocess.Popen([sys.executable, "-c", GOAT_WITH_CTRL_C, "tournament", "--bots", "random,random",
                            "--matches", "1", "--deals-only", "--backend", "ray"],
                           env={**os.environ, "PYTHONPATH": str(ROOT / "src"), "RAY_ADDRESS": address,
                                "RAY_py_gcs_connect_timeout_s": "2"},
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while len(accepted) < 2 and run.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        assert len(accepted) >= 2, "Ray did not try to connect"  # past the probe, in ray.init
        run.send_signal(signum)
        _, stderr = run.communicate(timeout=60)
    finally:
        run.kill()
    assert run.returncode == status, stderr
    assert line in stderr.splitlines(), stderr
    assert "Traceback" not in stderr
