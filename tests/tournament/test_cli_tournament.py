"""``goat tournament`` end to end: records, plot, reproducibility, backends, errors."""

from __future__ import annotations

import json
import math
import os
import re
import socket
import stat
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from typer.testing import CliRunner

from goat.cli.main import app
from goat.records import read_records
from goat.tournament.runner import NOT_RAY, ray_available

runner = CliRunner(env={"FORCE_COLOR": None, "COLUMNS": "150"})


def tournament(tmp_path: Path, name: str, *extra: str) -> tuple[Path, Path, str]:
    out, plot = tmp_path / f"{name}.jsonl", tmp_path / f"{name}.png"
    result = runner.invoke(app, ["tournament", "--rules", "classic", "--bots", "random,random",
                                 "--matches", "2", "--seed", "11", "--out", str(out), "--plot", str(plot),
                                 *extra])
    assert result.exit_code == 0, result.output
    return out, plot, result.stdout


def table_rows(stdout: str) -> list[str]:
    return [line for line in stdout.splitlines() if line.startswith("│")]


def test_tiny_tournament_writes_checkable_records_and_a_png(tmp_path: Path) -> None:
    out, plot, stdout = tournament(tmp_path, "w1", "--workers", "1")
    records = read_records(out)
    assert len(records) == 4  # 2 duplicate sets x 2 seatings
    assert all(r["result"]["match_over"] for r in records)
    check = runner.invoke(app, ["replay", str(out), "--check"])
    assert check.exit_code == 0, check.output
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and plot.stat().st_size > 10_000
    rows = table_rows(stdout)
    assert [row.split("│")[1].strip() for row in rows] == ["random", "random#2"]
    assert "Elo" in stdout and "Bradley" in stdout


def test_results_do_not_depend_on_the_worker_count(tmp_path: Path) -> None:
    out1, _, stdout1 = tournament(tmp_path, "w1", "--workers", "1")
    out2, _, stdout2 = tournament(tmp_path, "w2", "--workers", "2")
    assert out1.read_text() == out2.read_text()
    assert table_rows(stdout1) == table_rows(stdout2)
    tournament(tmp_path, "s12", "--workers", "1", "--seed", "12")
    assert out1.read_text() != (tmp_path / "s12.jsonl").read_text()


def test_deals_only_and_individual_play(tmp_path: Path) -> None:
    out = tmp_path / "three.jsonl"
    result = runner.invoke(app, ["tournament", "--rules", "full-hand", "--players", "3", "--bots",
                                 "random,random", "--matches", "2", "--seed", "3", "--deals-only",
                                 "--workers", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "deal win rate" in result.stdout
    records = read_records(out)
    assert len(records) == 6  # 2 sets x 3 rotations of A,B,A
    assert all(r["players"] == 3 for r in records)
    for duplicate_set in (records[:3], records[3:]):  # the three rotations share their first deal
        assert len({json.dumps(r["deals"][0]["hands"], sort_keys=True) for r in duplicate_set}) == 1
    for r in records:  # one decided deal each (an annulled 60-60 deal is replayed first)
        ended = [d["ended_by"] for d in r["result"]["deals"]]
        assert ended[-1] != "annulled" and all(e == "annulled" for e in ended[:-1])
    assert records[0]["deals"][0]["hands"] != records[3]["deals"][0]["hands"]
    assert runner.invoke(app, ["replay", str(out), "--check"]).exit_code == 0



def test_three_bots_at_three_seats_get_the_head_to_head_table() -> None:
    result = runner.invoke(app, ["tournament", "--rules", "full-hand", "--players", "3", "--bots",
                                 "heuristic,random,random", "--matches", "2", "--seed", "1", "--deals-only",
                                 "--workers", "1"])
    assert result.exit_code == 0, result.output
    head = result.stdout.split("head to head", 1)[1]
    assert [[cell.strip() for cell in row.split("│")[1:3]] for row in table_rows(head)] == [
        ["heuristic", "random"], ["heuristic", "random#2"], ["random", "random#2"]]

@pytest.mark.skipif(not ray_available(), reason="Ray is not installed (pip install 'goat[ray]'); "
                                                "make test installs it via the test extra")
@pytest.mark.xdist_group("ray")   # one Ray instance at a time (tests/tournament/test_ray_stop.py)
@pytest.mark.parametrize("ray_address, workers", [(None, 2), ("local", 1)], ids=["no-address", "local"])
def test_ray_backend_gives_the_local_results_on_a_local_instance_of_workers_cpus(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ray_address: str | None, workers: int) -> None:
    """The header says the CPUs of the instance the games run on. ``RAY_ADDRESS=local``
    (Ray's name for "start a new local instance") took every CPU of the machine,
    whatever ``--workers`` said."""
    if ray_address is not None:
        monkeypatch.setenv("RAY_ADDRESS", ray_address)
    local, _, local_stdout = tournament(tmp_path, "local", "--workers", "1")
    ray_out, plot = tmp_path / "ray.jsonl", tmp_path / "ray.png"
    result = runner.invoke(app, ["tournament", "--rules", "classic", "--bots", "random,random", "--matches", "2",
                                 "--seed", "11", "--out", str(ray_out), "--plot", str(plot),
                                 "--workers", str(workers), "--backend", "ray"])
    assert result.exit_code == 0, result.output
    assert ray_out.read_text() == local.read_text()
    assert table_rows(result.stdout) == table_rows(local_stdout)
    header = result.stderr.splitlines()[0]
    assert header.endswith(f"seed 11, backend ray: {workers} CPU(s) of a local Ray instance"), result.stderr


def goat_on_ray_address(address: str) -> tuple[float, subprocess.CompletedProcess[str]]:
    """``goat tournament --backend ray`` with ``RAY_ADDRESS=address``, in a new process
    given 90 s (Ray's own retries last minutes): how long it took, and how it ended."""
    root = Path(__file__).resolve().parents[2]
    started = time.monotonic()
    try:
        run = subprocess.run([sys.executable, "-m", "goat", "tournament", "--bots", "random,random",
                              "--matches", "1", "--deals-only", "--backend", "ray"],
                             capture_output=True, text=True, timeout=90,
                             env={**os.environ, "PYTHONPATH": str(root / "src"), "RAY_ADDRESS": address})
    except subprocess.TimeoutExpired:
        pytest.fail(f"RAY_ADDRESS={address} was not told within 90 s")
    return time.monotonic() - started, run


@pytest.mark.skipif(not ray_available(), reason="Ray is not installed (pip install 'goat[ray]'); "
                                                "make test installs it via the test extra")
@pytest.mark.parametrize("scheme", ["", "ray://"], ids=["gcs", "ray-client"])
def test_a_ray_address_where_nothing_listens_is_one_line_within_seconds(scheme: str) -> None:
    """Ray's own retries took about 14 minutes (twenty tries of 41 s, a warning every
    few seconds) before the one-line error; ``ray://`` without Ray Client installed
    was a traceback. A port held but not listening refuses connections, as a stopped
    cluster's does."""
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        address = f"{scheme}127.0.0.1:{closed.getsockname()[1]}"
        seconds, run = goat_on_ray_address(address)
    assert seconds < 60
    assert run.returncode == 2, run.stderr
    assert run.stderr.splitlines() == [f"error: cannot connect to the Ray cluster at RAY_ADDRESS={address}: "
                                       "Connection refused"]


@pytest.mark.skipif(not ray_available(), reason="Ray is not installed (pip install 'goat[ray]'); "
                                                "make test installs it via the test extra")
@pytest.mark.parametrize("scheme", ["", "ray://"], ids=["gcs", "ray-client"])
def test_a_ray_address_where_an_http_server_answers_is_one_line_within_seconds(scheme: str) -> None:
    """A port that accepts connections but is no Ray cluster's (the dashboard's 8265,
    any web server) passed the connection probe, then Ray tried for minutes (with
    ``ray://``: told only that Ray Client was not installed). Ray speaks gRPC:
    HTTP/2, which an HTTP/1 server does not answer."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), BaseHTTPRequestHandler)
    serving = threading.Thread(target=server.serve_forever, daemon=True)
    serving.start()
    try:
        address = f"{scheme}127.0.0.1:{server.server_address[1]}"
        seconds, run = goat_on_ray_address(address)
    finally:
        server.shutdown()
        server.server_close()
    assert seconds < 30
    assert run.returncode == 2, run.stderr
    assert run.stderr.splitlines() == [f"error: cannot connect to the Ray cluster at RAY_ADDRESS={address}: "
                                       f"{NOT_RAY}"]


def test_with_ray_use_tls_only_the_connection_to_a_ray_address_is_tried(monkeypatch: pytest.MonkeyPatch) -> None:
    """A cluster of TLS (RAY_USE_TLS) answers a plain HTTP/2 handshake as no gRPC
    server would: the probe must not refuse it for that, only for a closed port."""
    from goat.tournament.runner import TournamentError, _probe

    server = ThreadingHTTPServer(("127.0.0.1", 0), BaseHTTPRequestHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        address = f"127.0.0.1:{server.server_address[1]}"
        with pytest.raises(TournamentError, match="not as a Ray cluster does"):
            _probe(address)
        monkeypatch.setenv("RAY_USE_TLS", "1")
        _probe(address)  # left to ray.init
    finally:
        server.shutdown()
        server.server_close()

@pytest.mark.parametrize("args, message", [
    (["--bots", "random,nobody"], "error: bot 'nobody': unknown bot"),
    (["--bots", "random"], "error: --bots needs at least two bots"),
    (["--bots", "random,random:depth=3"], "error: bot 'random:depth=3'"),
    (["--bots", "random,random:depth"], "error: bot 'random:depth'"),
    (["--rules", "bridge"], "error: unknown"),
    (["--option", "royal_goat"], "error: --option 'royal_goat'"),
    (["--option", "no_such_option=1"], "error: "),
    (["--matches", "0"], "error: --matches must be at least 1, not 0"),
    (["--matches", "-3"], "error: --matches must be at least 1, not -3"),
    (["--workers", "0"], "error: --workers must be at least 1"),
    (["--backend", "slurm"], "error: --backend must be one of local, ray"),
    (["--game", "chess"], "error: unknown game 'chess'"),
])
def test_mistakes_are_one_line_with_exit_status_2(args: list[str], message: str) -> None:
    base = {"--rules": "classic", "--bots": "random,random", "--matches": "1"}
    for i in range(0, len(args), 2):
        base[args[i]] = args[i + 1]
    argv = ["tournament"] + [x for pair in base.items() for x in pair]
    result = runner.invoke(app, argv)
    assert result.exit_code == 2, result.output
    assert len(result.stderr.splitlines()) == 1, result.stderr
    assert result.stderr.startswith(message), result.stderr
    assert "Traceback" not in result.output


@pytest.mark.parametrize("option, where, message", [
    ("--out", "missing/records.jsonl", "no folder"),
    ("--plot", "missing/plot.png", "no folder"),
    ("--plot", "plot.xyz", "the plot's format comes from its suffix"),
])
def test_a_destination_that_cannot_be_written_fails_before_the_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, option: str, where: str, message: str) -> None:
    def no_run(*args: object, **kwargs: object) -> None:
        raise AssertionError("the tournament ran")

    monkeypatch.setattr("goat.tournament.api.run_all", no_run)
    result = runner.invoke(app, ["tournament", "--rules", "classic", "--bots", "random,random", "--matches", "1",
                                 option, str(tmp_path / where)])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"error: cannot write {tmp_path / where}: ") and message in result.stderr
    assert len(result.stderr.splitlines()) == 1


@pytest.mark.parametrize("option, where", [("--out", "/proc/goat-x.jsonl"), ("--plot", "/proc/goat-x.png")])
def test_a_destination_where_no_file_can_be_made_fails_before_the_run_even_for_root(
        monkeypatch: pytest.MonkeyPatch, option: str, where: str) -> None:
    """os.access says yes to root everywhere: run as root (a container), a
    destination in /proc passed the check and failed after the whole run."""
    def no_run(*args: object, **kwargs: object) -> None:
        raise AssertionError("the tournament ran")

    monkeypatch.setattr("goat.tournament.api.run_all", no_run)
    result = runner.invoke(app, ["tournament", "--rules", "classic", "--bots", "random,random", "--matches", "1",
                                 option, where])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"error: cannot write {where}: ")
    assert len(result.stderr.splitlines()) == 1


def test_out_and_plot_naming_one_file_fail_before_the_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The records were written, then the plot over them: the run's records were lost
    without a word (``--plot result`` is ``result.png``, so that name counts too)."""
    def no_run(*args: object, **kwargs: object) -> None:
        raise AssertionError("the tournament ran")

    monkeypatch.setattr("goat.tournament.api.run_all", no_run)
    for out, plot in (("games.png", "games.png"), ("result.png", "result")):
        result = runner.invoke(app, ["tournament", "--rules", "classic", "--bots", "random,random", "--matches", "1",
                                     "--out", str(tmp_path / out), "--plot", str(tmp_path / plot)])
        assert result.exit_code == 2, result.output
        same = tmp_path / out
        assert result.stderr == f"error: --out and --plot name the same file, {same}: the plot would replace the records\n"


@pytest.mark.parametrize("option", ["--out", "--plot"])
def test_an_empty_out_or_plot_is_named_as_empty_before_the_run(monkeypatch: pytest.MonkeyPatch, option: str) -> None:
    """``--out "$OUT"`` with OUT unset: it read "cannot write .: it is a folder"
    (``Path("")`` is the current folder), naming neither the option nor the cause."""
    def no_run(*args: object, **kwargs: object) -> None:
        raise AssertionError("the tournament ran")

    monkeypatch.setattr("goat.tournament.api.run_all", no_run)
    result = runner.invoke(app, ["tournament", "--rules", "classic", "--bots", "random,random", "--matches", "1",
                                 option, ""])
    assert result.exit_code == 2, result.output
    assert result.stderr == f"error: {option} names no file: it is empty (leave it out for none)\n"


def test_ctrl_c_says_how_far_the_run_got_and_that_nothing_was_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """It once exited 130 without a word, the progress bar erased."""
    def interrupted_run(games: list, *args: object, on_result: object = None, **kwargs: object) -> None:
        raise KeyboardInterrupt  # Ctrl+C before any game finished

    monkeypatch.setattr("goat.tournament.api.run_all", interrupted_run)
    out = tmp_path / "earlier.jsonl"
    out.write_text("kept\n")
    result = runner.invoke(app, ["tournament", "--rules", "classic", "--bots", "random,random", "--matches", "2",
                                 "--seed", "1", "--out", str(out)])
    assert result.exit_code == 130, result.output
    first, last = result.stderr.splitlines()[-2:]
    assert first.startswith("interrupted after 0 of 4 games (")
    assert first.endswith("s): no duplicate set finished whole: no results") and last == "nothing written"
    assert out.read_text() == "kept\n" and list(tmp_path.iterdir()) == [out]


def test_ctrl_c_with_a_pipe_as_out_writes_the_finished_records_into_it_and_a_plot_into_a_pipe_keeps_its_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A pipe or a device (/dev/null) as --out: Ctrl+C made NAME.partial.jsonl beside
    it (as root, /dev/null.partial.jsonl in /dev), and --plot /dev/null made
    /dev/null.png. FIFOs under tmp_path stand in for them."""
    from goat.tournament.runner import play_game
    from tests.test_cli_random_games import draining

    def interrupted_run(games: list, *args: object, on_result: object = None, **kwargs: object) -> None:
        for spec in games[:3]:
            on_result(play_game(spec))
        raise KeyboardInterrupt

    monkeypatch.setattr("goat.tournament.api.run_all", interrupted_run)
    out = tmp_path / "records.fifo"
    os.mkfifo(out)
    with draining(out) as got:
        result = runner.invoke(app, ["tournament", "--rules", "classic", "--bots", "random,random", "--matches", "2",
                                     "--seed", "1", "--out", str(out)])
    assert result.exit_code == 130, result.output
    assert f"the 3 finished games' records went to {out}" in result.stderr
    assert len(b"".join(got).decode("utf-8").splitlines()) == 3
    assert [p.name for p in tmp_path.iterdir()] == ["records.fifo"]

    plot = tmp_path / "plot.fifo"
    os.mkfifo(plot)
    monkeypatch.undo()
    with draining(plot) as drawn:
        whole = runner.invoke(app, ["tournament", "--rules", "classic", "--bots", "random,random", "--matches", "1",
                                    "--seed", "1", "--workers", "1", "--plot", str(plot)])
    assert whole.exit_code == 0, whole.output
    assert b"".join(drawn).startswith(b"\x89PNG") and stat.S_ISFIFO(os.stat(plot).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plot.fifo", "records.fifo"]


def test_ctrl_c_shows_the_whole_sets_and_keeps_the_finished_records_beside_out(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An hour's run stopped with Ctrl+C once threw every finished game away.
    Now the table counts only the duplicate sets that finished whole (half a set
    does not cancel the cards' luck), and every finished game's record is
    written beside --out, never over an earlier file of that name."""
    from goat.tournament.runner import play_game

    def interrupted_run(games: list, *args: object, on_result: object = None, **kwargs: object) -> None:
        for spec in (games[2], games[0], games[3]):  # set 1 whole, half of set 0, then Ctrl+C
            on_result(play_game(spec))
        raise KeyboardInterrupt

    monkeypatch.setattr("goat.tournament.api.run_all", interrupted_run)
    out = tmp_path / "games.jsonl"
    out.write_text("kept\n")
    result = runner.invoke(app, ["tournament", "--rules", "classic", "--bots", "heuristic,random", "--matches", "2",
                                 "--seed", "1", "--out", str(out), "--plot", str(tmp_path / "plot.png")])
    assert result.exit_code == 130, result.output
    assert "interrupted after 3 of 4 games (" in result.stderr
    assert "the results of the 1 whole duplicate set(s) (2 games) below" in result.stderr
    assert "classic, interrupted: 2 of 4 games" in result.output and "heuristic" in result.output
    partial = tmp_path / "games.partial.jsonl"
    assert f"wrote the 3 finished games' records to {partial} (--out is written only by a whole run)" in result.stderr
    assert out.read_text() == "kept\n" and not (tmp_path / "plot.png").exists()
    records = [json.loads(line) for line in partial.read_text().splitlines()]
    assert len(records) == 3
    replayed = runner.invoke(app, ["replay", str(partial), "--check"])
    assert replayed.exit_code == 0, replayed.output


def test_records_name_nothing_but_the_record_format(tmp_path: Path) -> None:
    out, _, _ = tournament(tmp_path, "fmt", "--workers", "1")
    first = json.loads(out.read_text().splitlines()[0])
    assert set(first) == {"game", "rules", "options", "players", "first_dealer", "deals", "result", "seats"}
    assert first["game"] == "kozel" and first["rules"] == "classic" and first["first_dealer"] == 0


def test_records_say_which_bot_sat_where(tmp_path: Path) -> None:
    """A duplicate pair's two games hold the same cards: only ``seats`` tells them apart."""
    out = tmp_path / "seats.jsonl"
    result = runner.invoke(app, ["tournament", "--rules", "classic", "--bots", "heuristic,random", "--matches", "1",
                                 "--seed", "3", "--deals-only", "--workers", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    first, second = (json.loads(line) for line in out.read_text().splitlines())
    assert first["deals"][0]["hands"] == second["deals"][0]["hands"]
    assert [s["bot"] for s in first["seats"]] == ["heuristic", "random"] * 2
    assert [s["bot"] for s in second["seats"]] == ["random", "heuristic"] * 2
    assert all(s["name"] == s["bot"] for s in first["seats"] + second["seats"])
    shown = runner.invoke(app, ["replay", str(out)])
    assert "Seats: 0 heuristic (bot) · 1 random (bot) · 2 heuristic (bot) · 3 random (bot)" in shown.stdout


def test_records_can_go_to_stdout_with_the_table_on_stderr() -> None:
    result = runner.invoke(app, ["tournament", "--rules", "classic", "--bots", "random,random", "--matches", "1",
                                 "--seed", "2", "--workers", "1", "--out", "-"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == 2 and all(json.loads(line)["game"] == "kozel" for line in lines)
    assert "Elo" in result.stderr


class _CheatingBot:
    """Always plays the first card of the whole deck: illegal sooner or later."""

    name = "broken"

    def __init__(self, seed=None) -> None:
        pass

    def choose(self, view):
        from goat.protocol import Action

        return Action.parse(f"{view['seat']} play 7C")

    def out_of_turn(self, view):
        return None


def test_a_bot_that_breaks_the_rules_stops_the_run_with_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    from goat import bots

    monkeypatch.setitem(bots.BOTS, "broken", _CheatingBot)
    result = runner.invoke(app, ["tournament", "--rules", "classic", "--bots", "random,broken", "--matches", "1",
                                 "--seed", "2", "--workers", "1"])
    assert result.exit_code == 1, result.output
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert errors == [result.stderr.splitlines()[-1]] and "Traceback" not in result.output
    assert errors[0].startswith("error: game 0 (random, broken, random, broken): ")
    assert "does not hold 7C" in errors[0]


DYING_BOT = """
import os

from goat.bots import RandomBot, register_bot


class DyingBot(RandomBot):
    \"\"\"Ends its worker process at its first move (a crash in native code, the OOM killer).\"\"\"

    def choose(self, view):
        if os.environ["GOAT_TEST_MAIN_PID"] != str(os.getpid()):
            os._exit(3)
        return super().choose(view)


register_bot("dying", DyingBot)
"""


@pytest.mark.parametrize("backend, message", [
    ("local", r"a worker process died \(exit code 3\) after \d of 4 games; run with --workers 1 to see "
              r"which game and why"),
    pytest.param("ray", r"a Ray worker died \(WorkerCrashedError\) after \d of 4 games(, \d unfinished games? "
                        r"cancelled on Ray)?; run with --backend local --workers 1 to see which game and why",
                 marks=[pytest.mark.skipif(not ray_available(), reason="Ray is not installed"),
                       pytest.mark.xdist_group("ray")]),
])
def test_a_worker_process_that_dies_stops_the_run_with_one_line(tmp_path: Path, backend: str, message: str) -> None:
    """multiprocessing.Pool replaced a dead worker and waited for its game forever:
    the run hung without a word; Ray's WorkerCrashedError was a traceback."""
    import subprocess
    import sys

    module = tmp_path / "dying.py"
    module.write_text(DYING_BOT)
    argv = ["goat", "tournament", "--bot-module", str(module), "--bots", "dying,random", "--matches", "2",
            "--seed", "1", "--workers", "2", "--backend", backend]
    script = ("import os, sys; os.environ['GOAT_TEST_MAIN_PID'] = str(os.getpid()); "
              f"sys.argv = {argv!r}; from goat.cli.main import main; main()")
    root = Path(__file__).resolve().parents[2]
    try:
        run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                             env={**os.environ, "PYTHONPATH": str(root / "src"), "NO_COLOR": "1"})
    except subprocess.TimeoutExpired:
        pytest.fail("the tournament hung after its worker process died")
    assert run.returncode == 1, run.stderr
    assert re.fullmatch("error: " + message, run.stderr.splitlines()[-1]), run.stderr
    assert "Traceback" not in run.stderr


def test_a_table_reader_that_went_away_loses_neither_the_records_nor_the_plot(tmp_path: Path) -> None:
    """``goat tournament ... --out r.jsonl | head -3``: the reader gone before the
    results table, rich turned the broken pipe into exit status 1 before the
    records and the plot were written, and an hour's games were lost in silence."""
    out, plot = tmp_path / "r.jsonl", tmp_path / "p.png"
    root = Path(__file__).resolve().parents[2]
    run = subprocess.Popen([sys.executable, "-m", "goat", "tournament", "--bots", "random,random", "--matches", "1",
                            "--option", "match_target=1", "--workers", "1", "--seed", "1", "--out", str(out),
                            "--plot", str(plot)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           env={**os.environ, "PYTHONPATH": str(root / "src"), "NO_COLOR": "1"})
    assert run.stdout is not None and run.stderr is not None
    run.stdout.close()   # the reader stops before the table comes
    assert run.wait(timeout=120) == 1   # rich's status for a broken pipe, as before
    stderr = run.stderr.read()
    assert "Traceback" not in stderr
    assert f"wrote 2 records to {out}" in stderr and len(out.read_text().splitlines()) == 2
    assert plot.read_bytes()[:4] == b"\x89PNG"


def test_help_names_every_games_bots_stdout_for_out_and_the_plot_formats() -> None:
    """The help once listed the bots of Spades and Yu-Gi-Oh! but not Kozel's, and
    said nothing of ``--out -`` or of a plot in another format than PNG."""
    from goat.bots import bots_for

    result = runner.invoke(app, ["tournament", "--help"], env={"COLUMNS": "400"})
    assert result.exit_code == 0
    text = " ".join(result.stdout.split())
    for game, label in (("kozel", "Kozel: "), ("spades", "spades: "), ("yugioh", "yugioh: ")):
        listed = text.split(label, 1)[1].split(";")[0].split(".")[0].replace(" (dds extra)", "")
        names = set(listed.split(", "))
        assert set(bots_for(game)) <= names, game          # none missing
        assert names - set(bots_for(game)) <= {"pimc"}, game  # Spades' pimc: only with the dds extra
    assert "- for stdout" in text and ".svg" in text


def test_the_table_shows_a_win_rate_interval_inside_0_100() -> None:
    """Sets scoring 1, 1, 1, ½ once showed ``87.5% ± 39.8`` (up to 127%); a clean
    sweep showed ``100.0% ± 0.0``."""
    from rich.console import Console

    from goat.cli.tournament import results_table
    from goat.tournament.stats import BotSummary, mean_ci, proportion_ci

    rows = [BotSummary("A", 8, 40, proportion_ci([1, 1, 1, 0.5]), mean_ci([1, 2, 1, 2]), 1600.0),
            BotSummary("B", 8, 40, proportion_ci([1, 1, 1, 1]), mean_ci([1, 2, 1, 2]), 1400.0)]
    console = Console(width=150, record=True)
    console.print(results_table(rows, "match", "t"))
    text = console.export_text()
    assert "87.5% (31.6–99.1)" in text and "100.0% (28.3–100.0)" in text
    assert "win rate (95% CI)" in text and "±" in text  # the difference keeps its ± half width


def test_the_tables_show_elo_intervals() -> None:
    """Elo was a bare point estimate; two bots now show each rating's interval and a
    round robin each pairing's Elo gap with its interval (∞ past a clean sweep)."""
    from rich.console import Console

    from goat.cli.tournament import head_to_head_table, results_table
    from goat.tournament.stats import BotSummary, HeadToHead, Interval, mean_ci, proportion_ci

    rows = [BotSummary("A", 8, 40, proportion_ci([1, 1, 0.5, 1]), mean_ci([1, 2]), 1600.0, (1520.4, 1689.6)),
            BotSummary("B", 8, 40, proportion_ci([0, 0, 0.5, 0]), mean_ci([-1, -2]), 1400.0, (1310.4, 1479.6))]
    console = Console(width=200, record=True)
    console.print(results_table(rows, "match", "t"))
    text = console.export_text()
    assert "Elo (95% CI)" in text and "1600 (1520–1690)" in text and "1400 (1310–1480)" in text
    pairs = [HeadToHead("A", "B", 40, Interval(0.75, 0.11, 20, (0.64, 0.84)), mean_ci([1, 2])),
             HeadToHead("A", "C", 40, proportion_ci([1, 1, 1, 1]), mean_ci([1, 2]))]
    console = Console(width=200, record=True)
    console.print(head_to_head_table(pairs, "match"))
    text = console.export_text()
    assert "Elo gap (95% CI)" in text and "+191 (+100, +288)" in text
    sweep_low = 400 * math.log10(pairs[1].score.low / (1 - pairs[1].score.low))  # about -161
    assert f"∞ ({sweep_low:+.0f}, ∞)" in text


@pytest.mark.parametrize(("extra", "unit"), [([], "match"), (["--deals-only"], "deal")])
def test_the_plot_says_what_a_win_is_of_as_the_table_does(tmp_path: Path, extra: list[str], unit: str) -> None:
    """The table heads its column "deal win rate" in a run of single deals, the plot
    said "win rate" whatever was won. (An SVG keeps each text as a comment.)"""
    plot = tmp_path / "plot.svg"
    result = runner.invoke(app, ["tournament", "--rules", "classic", "--bots", "random,random", "--matches", "1",
                                 "--seed", "3", "--workers", "1", "--plot", str(plot), *extra])
    assert result.exit_code == 0, result.output
    assert f"<!-- {unit} win rate (95% CI) -->" in plot.read_text()


def test_the_first_line_is_one_line_in_a_log_file() -> None:
    """Written to a file or a pipe (``nohup``, CI), the console is 80 columns wide
    and the first line broke in the middle (``... 1 worker(s), `` / ``backend
    local``): a ``grep 'seed 3'`` of the log lost the backend, and a longer one
    (a Ray cluster's address) split further. It and the defaults' line are kept whole."""
    narrow = CliRunner(env={"FORCE_COLOR": None, "COLUMNS": "40"})
    run = narrow.invoke(app, ["tournament", "--game", "spades", "--bots", "random,random", "--matches", "1",
                              "--deals-only", "--seed", "3", "--workers", "1"])
    assert run.exit_code == 0, run.output
    lines = run.stderr.splitlines()
    assert any(line.startswith("spades standard, 2 bots") and line.endswith("seed 3, 1 worker(s), backend local")
               for line in lines), lines
