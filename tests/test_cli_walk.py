"""Defects found by walking the ``goat`` command as its users do (organisers,
players, researchers): each test fails without its fix. Signals and pipes are
driven through a real subprocess; the rest through typer's CliRunner."""

from __future__ import annotations

import inspect
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from goat.cli.hangup import STOPPED_BY
from goat.cli.main import app

runner = CliRunner(env={"FORCE_COLOR": None})
SRC = Path(__file__).resolve().parent.parent / "src"


def goat(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input)


# ================================================================ play
def test_play_spades_blind_question_explains_a_wrong_answer() -> None:
    """An answer the blind question does not know (a move number, help) says what
    it expects instead of asking again in silence."""
    result = goat("play", "spades", "--seed", "3", "--bots", "random", "--option", "blind_nil_behind=0",
                  input="1\nhelp\nl\nquit\n")
    out = result.stdout
    assert result.exit_code == 0, result.output
    assert out.count("Bid blind?") == 3
    assert out.count("? answer l or b (or quit)") == 2
    assert "Your hand:" in out[out.rindex("Bid blind?"):]


def test_play_yugioh_help_lists_the_choices_and_how_to_type_them() -> None:
    result = goat("play", "yugioh", "--seed", "3", "--single", input="help\nquit\n")
    out = result.stdout
    assert result.exit_code == 0, result.output
    assert "unknown verb 'help'" not in out
    assert out.count("go first or second?") == 2 and out.count("1) choose first") == 2
    assert "Type a choice's number" in out


def test_play_yugioh_end_of_input_ends_the_prompt_line() -> None:
    out = goat("play", "yugioh", "--seed", "3", "--single", input="").stdout
    assert "help, quit)> \nBye: match stopped." in out


# ============================================================= analyze
def test_analyze_a_duel_record_says_there_is_no_solver(tmp_path) -> None:
    """A Yu-Gi-Oh! record keeps no "deals" list: the analysis refuses the game
    before reading one (it raised KeyError, a traceback)."""
    path = tmp_path / "duel.jsonl"
    assert goat("random-games", "yugioh", "--n", "1", "--single-deal", "--seed", "1",
                "--out", str(path)).exit_code == 0
    result = goat("analyze", str(path))
    assert result.exit_code == 2
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.stderr.strip() == "error: no solver for the game 'yugioh' (analysis exists for kozel and spades)"


# ========================================================== tournament
def test_tournament_plot_names_the_file_it_wrote_and_refuses_a_folder(tmp_path, monkeypatch) -> None:
    """matplotlib adds .png to a name without a suffix: the summary said "wrote plot
    to result" (no such file), and a folder as --plot 'succeeded' next to it."""
    monkeypatch.chdir(tmp_path)
    args = ["tournament", "--bots", "random,random", "--matches", "1", "--seed", "1", "--workers", "1"]
    result = goat(*args, "--plot", "result")
    assert result.exit_code == 0, result.output
    assert "wrote plot to result.png" in result.stderr
    assert (tmp_path / "result.png").read_bytes()[:4] == b"\x89PNG" and not (tmp_path / "result").exists()
    (tmp_path / "folder").mkdir()
    refused = goat(*args, "--plot", "folder")
    assert refused.exit_code == 2
    assert refused.stderr.strip().startswith("error: cannot write folder: it is a folder")
    assert not (tmp_path / "folder.png").exists()


@pytest.mark.parametrize("game", ["kozel", "spades", "yugioh"])
def test_play_refuses_a_record_path_it_cannot_write_before_the_game(game: str, tmp_path) -> None:
    """--record is written at the end: a missing folder (or a folder as the
    name) was found out only after the whole match, and the match was lost."""
    for path, reason in ((tmp_path / "missing" / "game.json", "no folder"), (tmp_path, "it is a folder")):
        result = goat("play", game, "--seed", "1", "--record", str(path), input="1\n" * 5)
        assert result.exit_code == 2
        assert result.stdout == ""   # not one move was asked for
        assert result.stderr.strip() == f"error: cannot write the record to {path}: {reason}" + (
            f" {path.parent}" if reason == "no folder" else "")


@pytest.mark.parametrize("game", ["kozel", "spades", "yugioh"])
def test_play_tells_an_empty_record_name_as_empty(game: str) -> None:
    """``--record "$GAME"`` with GAME unset: typer made the empty name ``Path("")``,
    the current folder, and the refusal read "cannot write the record to .: it is
    a folder", naming neither the option nor the cause (as tournament --out now does)."""
    result = goat("play", game, "--seed", "1", "--record", "", input="1\n" * 5)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == "error: --record names no file: it is empty (leave it out for none)\n"


@pytest.mark.parametrize("option", ["--deck", "--opponent-deck"])
def test_play_yugioh_tells_an_empty_deck_name_as_empty(option: str) -> None:
    """It read "cannot read deck .: Is a directory"."""
    result = goat("play", "yugioh", "--seed", "1", option, "", input="quit\n")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == f"error: {option} names no file: it is empty (leave it out for the built-in deck)\n"


# ======================================================= records read
@pytest.mark.parametrize("command", ["replay", "standings", "analyze"])
@pytest.mark.parametrize("text, said", [
    ("", "{path}: empty, no record in it"),     # not "Expecting value (line 1 column 1)"
    ('{"game": "chess", "rules": "fide", "moves": ["e4"]}',
     "unknown game 'chess' (one of kozel, spades, yugioh)"),   # not a missing field of ours ("first_dealer")
], ids=["empty", "another-game"])
def test_a_record_file_that_holds_no_record_of_ours_says_why(command: str, text: str, said: str, tmp_path) -> None:
    path = tmp_path / "game.json"
    path.write_text(text)
    result = goat(command, str(path))
    assert result.exit_code == 2
    assert result.stderr.strip().removeprefix("error: ") == said.format(path=path)


# ================================================================ help
def commands(command: Any, ctx: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    yield path, command
    if hasattr(command, "list_commands"):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            yield from commands(sub, type(ctx)(sub, parent=ctx, info_name=name), (*path, name))


def test_every_help_paragraph_is_one_line_of_plain_text() -> None:
    """typer's rich help keeps a docstring's line breaks: a wrapped paragraph came
    out broken mid-sentence in the command lists (goat --help, goat bench --help)
    and on the command's page; ``name`` (reST) came out with its backticks."""
    root = typer.main.get_command(app)
    seen = 0
    for path, command in commands(root, root.context_class(root, info_name="goat")):
        text = inspect.cleandoc(command.short_help or command.help or "").partition("\f")[0]
        for paragraph in text.split("\n\n"):
            assert "\n" not in paragraph, (path, paragraph)
            assert "``" not in paragraph, (path, paragraph)
        seen += 1
    assert seen >= 20   # goat, its commands and the sub-commands of play, bench and deck


def test_help_shows_no_value_after_a_flag_and_key_value_after_option() -> None:
    """typer 0.29's rich help printed a type after every flag (``--check
    <bool>``, ``--help <bool>``), as if it took true/false, and
    ``<list[str]>`` after the repeatable ``--option key=value``."""
    root = typer.main.get_command(app)
    flags = 0
    for path, command in commands(root, root.context_class(root, info_name="goat")):
        result = runner.invoke(app, [*path, "--help"], env={"COLUMNS": "200"})
        assert result.exit_code == 0, (path, result.output)
        rows = {line.strip("│ ").split()[0]: line for line in result.stdout.splitlines()
                if line.strip("│ ").startswith("--")}
        assert "--help" in rows, (path, result.stdout)
        for name, row in rows.items():
            if "<bool>" in row:
                raise AssertionError(f"{' '.join(path)}: {name} shows a value: {row.strip()}")
            flags += name in ("--help", "--json", "--csv", "--check")
        if "--option" in rows:
            assert "KEY=VALUE" in rows["--option"] and "<list" not in rows["--option"], (path, rows["--option"])
    assert flags >= 20


def test_help_shows_no_python_type_after_a_list_of_files() -> None:
    """``goat replay --help`` showed ``FILE <list[str]>`` (``deck check``: ``FILE
    <list[Path]>``), a Python type where a player looks for what to type; the
    usage line already says ``FILE...``."""
    root = typer.main.get_command(app)
    lists = 0
    for path, command in commands(root, root.context_class(root, info_name="goat")):
        result = runner.invoke(app, [*path, "--help"], env={"COLUMNS": "200"})
        assert result.exit_code == 0, (path, result.output)
        assert "<list[" not in result.stdout, (path, result.stdout)
        lists += any(getattr(p, "nargs", 1) == -1 for p in command.params)
    assert lists >= 3   # replay, standings, deck check


# ============================================================ start-up
def run_python(code: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(SRC), NO_COLOR="1")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)


def test_loading_the_commands_does_not_load_the_solver() -> None:
    """`goat analyze` pulled in numba (through the solver's constants) for every
    command: half a second or more before `goat --help` answered."""
    result = run_python("import sys, goat.cli.main; print(sorted(m for m in sys.modules if m.startswith('numba'))[:1])")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_ctrl_c_while_the_commands_load_exits_130_without_a_traceback() -> None:
    """A KeyboardInterrupt raised while the sub-commands are imported (Ctrl+C
    right after typing goat ...) is what SIGINT does at that moment; it printed
    the import chain's traceback."""
    code = textwrap.dedent("""
        import sys
        class Interrupt:
            def find_spec(self, name, path=None, target=None):
                if name == "goat.cli.replay":
                    raise KeyboardInterrupt
        sys.meta_path.insert(0, Interrupt())
        sys.argv = ["goat", "--help"]
        from goat.cli.main import main
        main()
    """)
    result = run_python(code)
    assert result.returncode == 130
    assert "Traceback" not in result.stderr and result.stdout == ""


@pytest.mark.parametrize("game, option, spec", [("kozel", "--bots", "ismcts:iterations=5"),
                                                ("spades", "--bots", "ismcts:iterations=5"),
                                                ("yugioh", "--vs", "mc:worlds=1:top=1:horizon=1")])
def test_play_takes_bot_settings_as_a_tournament_does(game: str, option: str, spec: str, tmp_path) -> None:
    """`--bots pimc:worlds=50` was 'unknown bot' in goat play, though the README
    and goat tournament write bots as name:key=value."""
    path = tmp_path / "game.json"
    result = goat("play", game, "--seed", "2", option, spec, "--record", str(path), input="1\n" * 3 + "quit\n")
    assert result.exit_code == 0, result.output
    record = path.read_text(encoding="utf-8")
    assert f'"bot": "{spec}"' in record
    refused = goat("play", game, option, spec.split(":")[0] + ":eggs=2", input="")
    assert refused.exit_code == 2 and "does not take the settings eggs" in refused.stderr


# =============================================================== bench
@pytest.mark.parametrize("args, message", [(["--tables", "0"], "--tables must be at least 1"),
                                           (["--clients", "3", "--tables", "1"], "--clients must be at least"),
                                           (["--rules", "klassik"], "--rules: unknown Kozel ruleset")])
def test_bench_server_refuses_bad_arguments_before_announcing_a_run(args: list[str], message: str) -> None:
    result = goat("bench", "server", *args)
    assert result.exit_code == 2
    assert "Starting goat serve" not in result.stdout
    assert message in result.stderr


# ======================================================== random-games
def test_random_games_summary_counts_one_duel_in_the_singular(tmp_path) -> None:
    path = tmp_path / "duel.jsonl"
    result = goat("random-games", "yugioh", "--n", "1", "--single-deal", "--seed", "1", "--out", str(path))
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"wrote 1 yugioh goat record (1 duel) to {path}")


# ===================================================== narrow terminal
def test_tables_on_a_narrow_terminal_keep_every_figure(tmp_path) -> None:
    """At COLUMNS=40 rich squeezed the tables below their narrowest layout and cut
    the cells: an Elo of 1500 read "15…", a name "rando…"."""
    narrow = CliRunner(env={"FORCE_COLOR": None, "COLUMNS": "40"})
    result = narrow.invoke(app, ["tournament", "--bots", "random,random", "--matches", "1", "--seed", "1",
                                 "--workers", "1"])
    assert result.exit_code == 0, result.output
    table = result.stdout[:result.stdout.index("Elo: ")]
    assert "…" not in table
    assert table.count(" 1500 ") == 2 and "random#2" in table
    record = tmp_path / "game.json"
    assert goat("play", "kozel", "--seed", "7", "--name", "Wilhelmina-Alexandra", "--record", str(record),
                input="1\n" * 3000).exit_code == 0
    standings = narrow.invoke(app, ["standings", str(record), "--bots"])
    assert standings.exit_code == 0, standings.output
    assert "…" not in standings.stdout and "Wilhelmina-Alexandra" in standings.stdout


# ================================================================ pipes
GOAT = "import sys; sys.argv[0] = 'goat'; from goat.cli.main import main; main()"


def test_play_piped_into_a_reader_that_stops_still_writes_the_record(tmp_path) -> None:
    """`goat play ... | head`: rich turned the broken pipe into SystemExit(1)
    and the game record promised on quit was never written."""
    record = tmp_path / "game.json"
    env = dict(os.environ, PYTHONPATH=str(SRC), NO_COLOR="1")
    play = subprocess.Popen([sys.executable, "-c", GOAT, "play", "kozel", "--seed", "1", "--record", str(record)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    assert play.stdout is not None and play.stdin is not None
    play.stdout.readline()
    play.stdout.close()           # the reader stops, as head -1 does
    try:
        play.stdin.write(b"1\n" * 3000)
        play.stdin.close()
    except BrokenPipeError:       # the game may be over before all the answers are read
        pass
    assert play.wait(timeout=120) == 1
    stderr = play.stderr.read().decode() if play.stderr else ""
    assert "Traceback" not in stderr
    assert goat("replay", str(record), "--check").exit_code == 0


@pytest.mark.parametrize("command", [
    ["random-games", "kozel", "--n", "2", "--seed", "1"],
    ["tournament", "--bots", "random,random", "--matches", "1", "--workers", "1", "--seed", "1"],
], ids=["random-games", "tournament"])
def test_out_to_a_closed_standard_output_is_one_line_before_the_run(command: list[str]) -> None:
    """Started with stdout closed (``>&-``, a daemon's closed descriptors) Python's
    ``sys.stdout`` is None: ``--out -`` played the whole run, then ended in
    "AttributeError: 'NoneType' object has no attribute 'write'"."""
    env = dict(os.environ, PYTHONPATH=str(SRC), NO_COLOR="1")
    run = subprocess.run([sys.executable, "-c", GOAT, *command, "--out", "-"], stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True, env=env, timeout=120,
                         preexec_fn=lambda: os.close(1))
    assert run.returncode == 2, run.stderr
    assert run.stderr == ("error: --out - writes to standard output, and it is closed (name a file instead)\n")


# ================================================================ deck
def test_deck_check_of_a_file_that_is_no_deck_list_keeps_its_lines_short(tmp_path) -> None:
    """A game record given as a deck echoed its whole line (thousands of
    characters) as the unknown card's name."""
    path = tmp_path / "game.json"
    path.write_text('{"game": "kozel", "deals": [' + '"x", ' * 500 + '"y"]}\n', encoding="utf-8")
    result = goat("deck", "check", str(path))
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert any("line 1: unknown card '{\"game\": \"kozel\"" in line for line in lines)
    assert max(map(len, lines)) < len(str(path)) + 100   # the file name, the counts and 60 characters of the line


# =========================================================== standings
def test_standings_show_a_name_with_brackets_as_typed(tmp_path) -> None:
    """Names are text: "[red]Bob[/red]" was read as rich markup and shown as "Bob"."""
    record = tmp_path / "game.json"
    name = "[red]Bob[/red] [b]"
    assert goat("play", "kozel", "--seed", "7", "--name", name, "--record", str(record),
                input="1\n" * 3000).exit_code == 0
    result = goat("standings", str(record))
    assert result.exit_code == 0, result.output
    assert name in result.stdout


# ============================================================== signals
def wait_for_pool_workers_up(pid: int, workers: int, timeout: float = 20) -> None:
    """Until ``workers`` pool processes of ``pid`` ran their initializer, which leaves
    Ctrl+C to the parent (SIGINT ignored, Linux's ``/proc/N/status`` shows it), or
    ``timeout`` seconds (a fixed 20 s wait before; a worker that never ignores SIGINT
    then takes the signal, and the test fails on its traceback as before)."""
    proc = Path("/proc")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        up = 0
        for status in proc.glob("[0-9]*/status"):
            try:
                fields = dict(line.split(":\t", 1) for line in status.read_text().splitlines() if ":\t" in line)
                cmdline = (status.parent / "cmdline").read_bytes()
            except OSError:         # the process ended meanwhile
                continue
            if (fields.get("PPid", "").strip() == str(pid) and b"spawn_main" in cmdline
                    and int(fields.get("SigIgn", "0"), 16) & 1 << (signal.SIGINT - 1)):
                up += 1
        if up >= workers:
            return
        time.sleep(0.2)


def test_ctrl_c_stops_a_tournament_without_worker_tracebacks_or_an_emptied_out_file(tmp_path) -> None:
    """Ctrl+C goes to the whole process group: each pool worker printed
    "Process SpawnPoolWorker-N:" (and a traceback) under the parent's exit. And
    --out was opened (emptied) before the run: an interrupted re-run destroyed
    the records an earlier run had left there."""
    out = tmp_path / "games.jsonl"
    out.write_text("the earlier run's records\n", encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(SRC), NO_COLOR="1")
    run = subprocess.Popen([sys.executable, "-c", GOAT, "tournament", "--bots", "random,heuristic",
                            "--matches", "50000", "--seed", "1", "--workers", "2", "--out", str(out)],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, start_new_session=True,
                           # as from a terminal: under pytest-xdist SIGINT is ignored and a child inherits
                           # that, so Python would install no KeyboardInterrupt at all
                           preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert run.stderr is not None
    run.stderr.readline()          # the run's header: the pool starts now
    # its workers are up and playing: spawned workers import the package first, which
    # took over 6 s on a loaded CI machine (a signal before their initializer is theirs)
    wait_for_pool_workers_up(run.pid, 2)
    os.killpg(run.pid, signal.SIGINT)
    try:
        _, stderr = run.communicate(timeout=180)
    finally:
        if run.poll() is None:      # never leave a 50,000-match run behind
            os.killpg(run.pid, signal.SIGKILL)
    assert run.returncode == 130
    assert "SpawnPoolWorker" not in stderr.decode() and "Traceback" not in stderr.decode()
    assert out.read_text(encoding="utf-8") == "the earlier run's records\n"


def pool_workers_of(pid: int) -> list[int]:
    """The pool worker processes ``pid`` spawned."""
    workers = []
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            fields = dict(line.split(":\t", 1) for line in status.read_text().splitlines() if ":\t" in line)
            cmdline = (status.parent / "cmdline").read_bytes()
        except OSError:
            continue
        if fields.get("PPid", "").strip() == str(pid) and b"spawn_main" in cmdline:
            workers.append(int(status.parent.name))
    return workers


def running(pids: list[int]) -> list[int]:
    """Those of ``pids`` still running a pool worker (not ended, nor a zombie)."""
    alive = []
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except (OSError, IndexError):
            continue
        if state != "Z" and b"spawn_main" in cmdline:
            alive.append(pid)
    return alive


def test_sighup_stops_a_tournament_as_ctrl_c_does_and_ends_its_workers(tmp_path) -> None:
    """``kill -HUP`` (or a session that ends) ended the parent alone, in silence: its
    pool workers waited for games for ever, orphaned, with the resource tracker."""
    env = dict(os.environ, PYTHONPATH=str(SRC), NO_COLOR="1")
    run = subprocess.Popen([sys.executable, "-c", GOAT, "tournament", "--bots", "random,heuristic",
                            "--matches", "50000", "--seed", "1", "--workers", "2"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, start_new_session=True,
                           preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_DFL))
    assert run.stderr is not None
    run.stderr.readline()
    wait_for_pool_workers_up(run.pid, 2)
    workers = pool_workers_of(run.pid)
    os.kill(run.pid, signal.SIGHUP)   # the parent alone, as kill -HUP does
    try:   # (before, the orphaned workers held stderr open: this timed out)
        _, stderr = run.communicate(timeout=120)
        deadline = time.monotonic() + 10
        while running(workers) and time.monotonic() < deadline:
            time.sleep(0.2)
        left = running(workers)
    finally:
        try:   # never leave the run or orphaned workers behind: they keep the run's process group
            os.killpg(run.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        run.wait(timeout=30)
    assert left == [], "the pool's workers outlived the run"
    assert run.returncode == 128 + signal.SIGHUP, stderr.decode()
    assert "Traceback" not in stderr.decode()
    assert "hung up (SIGHUP) after " in stderr.decode()


@pytest.mark.parametrize("hang_up", ["while it runs", "before it starts"])
def test_a_background_run_whose_terminal_hangs_up_finishes_and_writes_its_records(hang_up: str, tmp_path) -> None:
    """`goat tournament ... & disown`, then the terminal closed: no SIGHUP comes
    to a background job, but every write to the terminal fails with EIO. rich's
    progress bar died of it at once (a traceback nobody saw, exit status 1) and
    the run's --out was never written. A pseudo-terminal stands in for it."""
    import pty

    out = tmp_path / "records.jsonl"
    controller, terminal = pty.openpty()
    env = dict(os.environ, PYTHONPATH=str(SRC), TERM="xterm")
    env.pop("NO_COLOR", None)
    try:
        run = subprocess.Popen([sys.executable, "-c", GOAT, "tournament", "--bots", "random,random",
                                "--matches", "40", "--seed", "1", "--workers", "1", "--out", str(out)],
                               stdin=subprocess.DEVNULL, stdout=terminal, stderr=terminal, env=env)
    finally:
        os.close(terminal)
    try:
        if hang_up == "while it runs":
            seen = b""
            while b"backend" not in seen:  # the end of the run's first line: the bar comes next
                seen += os.read(controller, 4096)
        os.close(controller)               # the terminal window closes
        controller = -1
        assert run.wait(timeout=300) == 0
    finally:
        if controller >= 0:
            os.close(controller)
        if run.poll() is None:
            run.kill()
    assert len(out.read_text(encoding="utf-8").splitlines()) == 80


def play_on_a_terminal(game: str, record: Path, code: str = GOAT) -> tuple[subprocess.Popen, int, bytes]:
    """`goat play GAME --record RECORD` on a pseudo-terminal of its own, as a shell's
    job: the process, the terminal's controller side and what it showed up to the
    prompt for the first move."""
    import fcntl
    import pty
    import termios

    controller, terminal = pty.openpty()
    env = dict(os.environ, PYTHONPATH=str(SRC), TERM="xterm")

    def own_terminal() -> None:   # the pty is its controlling terminal
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)
        # A job a shell starts in a terminal takes SIGHUP's default action; under `nohup`
        # (a CI run started with it) the ignored SIGHUP is inherited and stays ignored.
        # So does an ignored Ctrl+C (SIGINT, under pytest-xdist).
        signal.signal(signal.SIGHUP, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.SIG_DFL)

    try:
        run = subprocess.Popen([sys.executable, "-c", code, "play", game, "--seed", "1", "--think", "0",
                                "--record", str(record)], stdin=terminal, stdout=terminal, stderr=terminal,
                               env=env, start_new_session=True, preexec_fn=own_terminal)
    finally:
        os.close(terminal)
    seen = b""
    try:
        while not seen.rstrip().endswith(b">"):   # the prompt for the first move
            seen += os.read(controller, 4096)
    except BaseException:
        run.kill()
        os.close(controller)
        raise
    return run, controller, seen


@pytest.mark.parametrize("game", ["kozel", "yugioh"])
@pytest.mark.parametrize("stop", ["terminal hangs up", "SIGTERM"])
def test_goat_play_stopped_while_waiting_for_a_move_writes_its_record(game: str, stop: str, tmp_path) -> None:
    """The terminal window of `goat play --record` closed (SIGHUP to the game, its
    terminal gone), or a `kill`: the default action ended the game where it stood,
    and the record of the game so far, kept on Ctrl+C and on quit, was lost."""
    from goat.records import read_records

    record = tmp_path / "game.json"
    run, controller, seen = play_on_a_terminal(game, record)
    try:
        if stop == "SIGTERM":
            run.send_signal(signal.SIGTERM)   # at once: see the next test for the prompt's every instant
            status = run.wait(timeout=60)
            expected = 128 + signal.SIGTERM
            while b"Record written" not in seen:
                seen += os.read(controller, 4096)
            assert b"Terminated (SIGTERM)." in seen
        else:
            os.close(controller)   # the terminal window closes
            controller = -1
            status = run.wait(timeout=60)
            expected = 128 + signal.SIGHUP
            if status == 0:   # the read of the move met the hang-up (EOF) before SIGHUP did: a quit
                expected = 0
    finally:
        if controller >= 0:
            os.close(controller)
        if run.poll() is None:
            run.kill()
    assert status == expected
    assert record.exists(), "the record of the game so far was not written"
    read_records(record)


#: `goat`, whose prompts take a signal where Python's handler cannot run before the
#: read of the line waits: PyOS_InputHook, called in input()'s C code just before that
#: read, is pause(), which returns once the signal's C handler has noted it.
GOAT_SIGNAL_BEFORE_THE_READ = ("import ctypes; hook = ctypes.c_void_p.in_dll(ctypes.pythonapi, 'PyOS_InputHook'); "
                               "hook.value = ctypes.cast(ctypes.CDLL(None).pause, ctypes.c_void_p).value; " + GOAT)


def main_thread_state(pid: int) -> str:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc")
@pytest.mark.parametrize(("game", "signum"), [("kozel", signal.SIGTERM), ("yugioh", getattr(signal, "SIGHUP", 1)),
                                              ("kozel", signal.SIGINT), ("yugioh", signal.SIGINT)])
def test_goat_play_stopped_just_before_its_prompt_reads_stops_at_once(game: str, signum: int, tmp_path) -> None:
    """A SIGTERM or SIGHUP landing between Python's last look at signals and the
    read of the move (readline's select(), or the plain read) was only noted: the
    game waited for the next key, its record unwritten (a CI timeout). Here every
    prompt takes it just there. So did a Ctrl+C (SIGINT, the terminal sends it),
    until a second one: it says "Interrupted.", status 130, as ever."""
    from goat.records import read_records

    record = tmp_path / "game.json"
    run, controller, seen = play_on_a_terminal(game, record, GOAT_SIGNAL_BEFORE_THE_READ)
    try:
        deadline = time.monotonic() + 60
        while main_thread_state(run.pid) != "S" and time.monotonic() < deadline:
            time.sleep(0.01)   # waiting in the prompt's pause()
        run.send_signal(signum)
        try:
            status = run.wait(timeout=60)   # before: until a key that never came
        except subprocess.TimeoutExpired:
            status = None
        while status is not None and b"Record written" not in seen:
            try:
                seen += os.read(controller, 4096)
            except OSError:   # all read: the terminal's other side is closed
                break
    finally:
        os.close(controller)
        if run.poll() is None:
            run.kill()
            run.wait(timeout=30)
    how = STOPPED_BY.get(signum, "interrupted")
    assert status == 128 + signum, seen.decode(errors="replace")
    assert f"{how[0].upper()}{how[1:]}.".encode() in seen
    read_records(record)


@pytest.mark.parametrize("command", ["replay", "standings"])
def test_standard_input_is_read_as_a_file_is(command: str, tmp_path) -> None:
    """A record saved with a byte order mark (Notepad) was read from a file but
    refused on stdin ("Unexpected UTF-8 BOM"); binary garbage on stdin was
    "not valid JSON: Expecting value" where a file says "not UTF-8 text"."""
    record = tmp_path / "game.json"
    assert goat("play", "kozel", "--seed", "7", "--record", str(record), input="1\n" * 3000).exit_code == 0
    with_bom = "\ufeff" + record.read_text(encoding="utf-8")
    for source in (str(record), "-"):
        result = runner.invoke(app, [command, source], input=with_bom.encode("utf-8"))
        assert result.exit_code == 0, (source, result.output)
    garbage = runner.invoke(app, [command, "-"], input=b"\xff\xfe\x00garbage\x9c")
    assert garbage.exit_code == 2 and garbage.stderr == "<stdin>: not UTF-8 text\n"


@pytest.mark.parametrize("n", ["0", "-3"])
def test_random_games_refuses_a_count_below_one_in_one_line(n: str, tmp_path) -> None:
    """typer's min=1 answered with a boxed usage panel of five lines; every other
    count (--matches, --decisions, --deals) is one line."""
    result = goat("random-games", "kozel", "--n", n, "--out", str(tmp_path / "x.jsonl"))
    assert result.exit_code == 2
    assert result.stderr == f"error: --n must be at least 1, not {n}\n"
    assert not (tmp_path / "x.jsonl").exists()


def test_play_yugioh_takes_rules_options_as_the_other_games_do(tmp_path) -> None:
    """goat play kozel and spades take --option; goat play yugioh had none, so
    the README's open_decklists, starting_lp or a Chaos Warrior bot could not be
    asked for in the terminal."""
    record = tmp_path / "match.json"
    result = goat("play", "yugioh", "--seed", "1", "--seat", "1", "--option", "starting_lp=4000",
                  "--option", "decks=goat_control/chaos_warrior", "--record", str(record), input="1\n" * 3 + "quit\n")
    assert result.exit_code == 0, result.output
    assert "LP 4000" in result.stdout
    data = json.loads(record.read_text(encoding="utf-8"))
    assert data["options"] == {"starting_lp": 4000, "decks": "goat_control/chaos_warrior"}
    assert goat("replay", str(record), "--check").exit_code == 0
    refused = goat("play", "yugioh", "--option", "starting_lp=lots", input="")
    assert refused.exit_code == 2 and refused.stderr.startswith("error: option starting_lp must be")


@pytest.mark.parametrize("players, bots, message", [
    ("2", "heuristic,random", "error: --bots needs one name, not 'heuristic,random'\n"),
    ("3", "heuristic", None),
    ("3", "heuristic,random,random", "error: --bots needs one name or 2 comma-separated names, not "
                                     "'heuristic,random,random'\n"),
])
def test_play_bots_count_message_fits_the_table(players: str, bots: str, message: str | None) -> None:
    """With one other seat it read "needs one name or 1 comma-separated names"."""
    result = goat("play", "kozel", "--rules", "full-hand", "--players", players, "--bots", bots, input="quit\n")
    if message is None:
        assert result.exit_code == 0, result.output
    else:
        assert result.exit_code == 2 and result.stderr == message


def test_play_yugioh_names_the_option_of_an_illegal_deck(tmp_path) -> None:
    """It said "seat 1's deck is not legal" for --deck with --seat 1: the player
    has to work out which file that was."""
    small = tmp_path / "small.ydk"
    small.write_text("#main\nSangan\nSangan\n", encoding="utf-8")
    for option, seat in (("--deck", "1"), ("--opponent-deck", "0")):
        result = goat("play", "yugioh", "--seat", seat, option, str(small), input="")
        assert result.exit_code == 2
        assert result.stderr.startswith(f"error: {option} {small} is not legal: the main deck has 2 cards")


def test_an_unknown_bot_is_answered_with_the_bots_of_that_game() -> None:
    """`goat play spades --bots foo` offered Kozel's "perfect", which Spades then refused."""
    from goat.bots import bots_for

    result = goat("play", "spades", "--bots", "foo", input="")
    assert result.exit_code == 2
    assert result.stderr == f"error: bot 'foo': unknown bot 'foo' (known: {', '.join(bots_for('spades'))})\n"
    assert "perfect" not in result.stderr


def test_a_bot_that_sees_every_card_is_refused_at_a_terminal_game() -> None:
    """`goat play kozel --bots perfect` seated the tournaments' upper bound with a
    person, and it quietly played like its fallback (the terminal asks bots from
    the view): now refused in one line, as a server table refuses it."""
    from goat.bots import view_bots

    for bots in ("perfect", "heuristic,perfect,random"):
        result = goat("play", "kozel", "--bots", bots, input="")
        assert result.exit_code == 2
        assert result.stderr == ("error: bot 'perfect' sees every card (a tournament's upper bound), so it does "
                                 f"not play with a person; bots for kozel: {', '.join(view_bots('kozel'))}\n")
    spades = goat("play", "spades", "--bots", "perfect", input="")      # not a Spades bot at all: says so
    assert spades.exit_code == 2 and "does not play spades" in spades.stderr


NO_SEED_BOT = """\
from goat.bots import BaseBot, register_bot


class FirstBot(BaseBot):
    name = "first"

    def choose(self, view):
        return view["legal_actions"][0]


register_bot("first", FirstBot)
"""


@pytest.mark.parametrize("command", [["play", "kozel", "--bots", "first"],
                                     ["tournament", "--bots", "first,random", "--matches", "1"]])
def test_an_outside_bot_whose_factory_takes_no_seed_is_told_so(command: list[str], tmp_path: Path,
                                                                 bot_registry: None) -> None:
    """A BaseBot subclass without ``__init__`` (the first bot most people write)
    was refused as "bot 'first' does not take the settings " — naming no setting,
    since none was given: the factory is called with the seed, which it does not take."""
    module = tmp_path / "nofirst.py"
    module.write_text(NO_SEED_BOT, encoding="utf-8")
    result = goat(*command, "--bot-module", str(module), input="")
    assert result.exit_code == 2
    assert result.stderr == (f"error: bot 'first': nofirst.FirstBot of bot module {module} does not take the seed: "
                             "a bot's factory is called as factory(seed, **settings) (docs/bots.md)\n")


def test_a_finished_terminal_game_says_when_it_ended_so_standings_can_date_it(tmp_path: Path) -> None:
    """The README sends a club without a server to `goat play ... --name Anna --record`
    and `goat standings --since/--until`, which count only records that say when their
    game ended (`finished_at`): a terminal game's never did, so every one was left out.
    A game stopped before its end says nothing (it has not ended)."""
    from datetime import datetime, timedelta, timezone

    record = tmp_path / "anna.json"
    before = datetime.now(timezone.utc)
    result = goat("play", "kozel", "--seed", "3", "--bots", "random", "--option", "match_target=2",
                  "--name", "Anna", "--record", str(record), input="1\n" * 200)
    after = datetime.now(timezone.utc)
    assert result.exit_code == 0, result.output
    ended = datetime.fromisoformat(json.loads(record.read_text(encoding="utf-8"))["finished_at"])
    assert before - timedelta(seconds=1) <= ended <= after
    since = (before - timedelta(minutes=1)).isoformat(timespec="seconds")
    standings = goat("standings", str(record), "--since", since, "--csv")
    assert standings.exit_code == 0 and ",Anna,," in standings.stdout, standings.output
    stopped = tmp_path / "stopped.json"
    assert goat("play", "kozel", "--seed", "3", "--record", str(stopped), input="quit\n").exit_code == 0
    assert "finished_at" not in json.loads(stopped.read_text(encoding="utf-8"))
