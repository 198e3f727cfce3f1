"""``goat.streams.TerminalStream`` on its own: a terminal that hangs up under a run."""

from __future__ import annotations

import errno
import io
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import typer
from rich.console import Console

from goat.cli import play
from goat.cli.hangup import STOPPED_BY, stop_as_interrupt
from goat.games import get_game
from goat.records import read_records
from goat.streams import TerminalStream

#: The environment of a child Python that imports this checkout's ``goat``.
WITH_SRC = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent / "src")}


class DeadTerminal:
    """A text stream whose terminal is gone: its writes fail with EIO until its
    descriptor (a file of the test's own) is pointed elsewhere, as a write that
    another thread began before then fails after it."""

    def __init__(self, handle) -> None:
        self.handle = handle
        # the 1st write fails, its retry goes through; the 3rd, another thread's begun
        # before the descriptor moved, fails after it moved
        self.fails = [True, False, True]
        self.written: list[str] = []

    def fileno(self) -> int:
        return self.handle.fileno()

    def write(self, text: str) -> int:
        if self.fails and self.fails.pop(0):
            raise OSError(errno.EIO, "Input/output error")
        self.written.append(text)
        return len(text)

    def flush(self) -> None:
        pass


def test_a_write_that_failed_as_another_thread_silenced_the_terminal_goes_on(tmp_path: Path) -> None:
    """Two threads (rich's bar and the run's own lines) writing as the terminal
    hangs up both get EIO; the first points the descriptor at /dev/null, the
    second saw it already silenced and raised its EIO: the run died of the
    hang-up it was meant to survive."""
    with open(tmp_path / "terminal", "w") as handle:
        dead = DeadTerminal(handle)
        stream = TerminalStream(dead)  # type: ignore[arg-type]
        assert stream.write("bar") == 3
        assert stream.hung_up
        assert stream.write("line") == 4   # the other thread's write, failed before the silencing
        assert dead.written == ["bar", "line"]


def test_a_write_that_fails_otherwise_is_still_an_error(tmp_path: Path) -> None:
    """Only EIO (a terminal gone) is survived: a full disk or a broken pipe is told."""

    class Broken(DeadTerminal):
        def write(self, text: str) -> int:
            raise OSError(errno.EPIPE, "Broken pipe")

    with open(tmp_path / "terminal", "w") as handle:
        stream = TerminalStream(Broken(handle))  # type: ignore[arg-type]
        try:
            stream.write("x")
        except OSError as exc:
            assert exc.errno == errno.EPIPE
        else:
            raise AssertionError("a broken pipe was swallowed")
        assert not stream.hung_up


def test_the_command_loads_where_there_is_no_sighup() -> None:
    """Windows has no SIGHUP: `signal.SIGHUP` in the tables of the signals that stop
    a run (hangup, the tournament runner) made `goat` itself fail to start there."""
    code = ("import signal; del signal.SIGHUP\n"
            "from goat.cli import hangup, tournament\n"
            "from goat.tournament import runner\n"
            "assert list(hangup.STOPPED_BY) == [signal.SIGTERM] and len(runner._HELD) == 2\n"
            "received = []\n"
            "with hangup.stop_as_interrupt(received):\n"
            "    pass\n"
            "from goat.cli.main import app\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=WITH_SRC, timeout=120)
    assert run.returncode == 0, run.stderr


@pytest.fixture
def ctrl_c_as_from_a_terminal() -> Iterator[None]:
    """SIGINT with Python's own handler, as in a job a shell starts in a terminal
    (under pytest-xdist it is ignored, and an ignored Ctrl+C stays ignored)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def test_a_second_stop_does_not_interrupt_the_stopping() -> None:
    """SIGTERM stops the block as Ctrl+C does, and the block then keeps what it
    has (a game's record, a tournament's finished games, its pool ended). A second
    SIGTERM then, a second ``kill`` or the prompt's repeat of the first
    (``stop_reaches_prompt``), raised a second KeyboardInterrupt in the middle of it."""
    received: list[int] = []
    kept = False
    try:
        with stop_as_interrupt(received):
            try:
                signal.raise_signal(signal.SIGTERM)
            except KeyboardInterrupt:
                signal.raise_signal(signal.SIGTERM)
                kept = True
    except KeyboardInterrupt:
        raise AssertionError("the second SIGTERM interrupted the stopping") from None
    assert kept and received == [signal.SIGTERM]


@pytest.mark.parametrize("first", [signal.SIGINT, signal.SIGTERM])
def test_a_second_ctrl_c_does_not_interrupt_the_stopping_of_goat_play(first: int,
                                                                       ctrl_c_as_from_a_terminal: None) -> None:
    """``goat play`` (``ctrl_c``): with Python's own handler a second Ctrl+C, or
    the prompt's repeat of a first one lost in ``input()``'s flush, raised a
    second KeyboardInterrupt in the middle of the stopping. Ctrl+C stays unnoted
    (its line is "Interrupted.", its status 130); after it a SIGTERM is a second
    stop too, and a Ctrl+C after a SIGTERM."""
    received: list[int] = []
    kept = False
    try:
        with stop_as_interrupt(received, ctrl_c=True):
            try:
                signal.raise_signal(first)
            except KeyboardInterrupt:
                for second in (signal.SIGINT, signal.SIGTERM):
                    signal.raise_signal(second)
                kept = True
    except KeyboardInterrupt:
        raise AssertionError("the second stop interrupted the stopping") from None
    assert kept and received == ([] if first == signal.SIGINT else [signal.SIGTERM])
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler   # Python's own again


def test_a_tournament_leaves_ctrl_c_to_python(ctrl_c_as_from_a_terminal: None) -> None:
    """Without ``ctrl_c`` (a tournament: its runner and Ray handle Ctrl+C) SIGINT
    keeps Python's own handler: every Ctrl+C is a KeyboardInterrupt."""
    with stop_as_interrupt([]):
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


class SecondStop(Exception):
    """Raised by the test's own SIGTERM handler: a second stop that reached the code."""


@pytest.mark.parametrize("second", [signal.SIGINT, signal.SIGTERM])
def test_a_second_stop_does_not_cut_goat_plays_record(second: int, tmp_path: Path, ctrl_c_as_from_a_terminal: None,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """``goat play`` stopped by Ctrl+C then writes its record: a second Ctrl+C (a
    double press) or a SIGTERM landing as it writes must not cut that write. The
    stopping ran after ``stop_as_interrupt``'s block, its handlers already put
    back: Python's own Ctrl+C raised there (no record, click's "Aborted!") and
    SIGTERM took its default (here the test's own handler)."""
    def outside_handler(signum: int, frame: object) -> None:
        raise SecondStop

    previous_term = signal.signal(signal.SIGTERM, outside_handler)
    real_write = play.write_record

    def write_during_a_second_stop(path: Path, state: object, seats: object = None) -> None:
        signal.raise_signal(second)
        real_write(path, state, seats)

    monkeypatch.setattr(play, "write_record", write_during_a_second_stop)
    record = tmp_path / "game.json"
    try:   # the first Ctrl+C, during the game
        code, said = session_writing(record, lambda: signal.raise_signal(signal.SIGINT),
                                     (KeyboardInterrupt, SecondStop))
    finally:
        signal.signal(signal.SIGTERM, previous_term)
    assert code == 130 and "Interrupted." in said
    assert len(read_records(record)) == 1


def session_writing(record: Path, run: Callable[[], None],
                    cut: type[BaseException] | tuple[type[BaseException], ...] = KeyboardInterrupt) -> tuple[int, str]:
    """``goat play``'s session (:func:`play.run_session`) whose game is ``run``,
    writing ``record``: its exit status and what it said. A ``cut`` escaping it
    means a stop cut the record's writing."""
    class Session:
        def run(self) -> None:
            run()

    output = io.StringIO()
    try:
        with pytest.raises(typer.Exit) as stopped:
            play.run_session(Console(file=output), Session(), get_game("kozel").new_state(rules="classic"),
                             record, "game")
    except cut:
        raise AssertionError("a stop cut the record's writing") from None
    return stopped.value.exit_code, output.getvalue()


@pytest.mark.parametrize("first, code, line", [(signal.SIGINT, 130, "Interrupted."),
                                                (signal.SIGTERM, 128 + signal.SIGTERM, "Terminated")])
def test_a_stop_landing_in_the_record_write_at_the_games_end_keeps_the_record(
        first: int, code: int, line: str, tmp_path: Path, ctrl_c_as_from_a_terminal: None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A game that ended (or ``quit``) writes its record; a Ctrl+C or a SIGTERM
    landing in that write cut it half-written (a KeyboardInterrupt out of the
    write: click's "Aborted!", status 1). The stop is then under way: the record
    is written again whole, and the session ends as stopped (its line, 130/143)."""
    real_write = play.write_record
    calls: list[int] = []

    def write_stopped_once(path: Path, state: object, seats: object = None) -> None:
        calls.append(1)
        path.write_text("{\"half", encoding="utf-8")   # a write cut in the middle
        if len(calls) == 1:
            signal.raise_signal(first)
        real_write(path, state, seats)

    monkeypatch.setattr(play, "write_record", write_stopped_once)
    record = tmp_path / "game.json"
    status, said = session_writing(record, lambda: None)   # the game ended
    assert status == code and line in said, said
    assert len(calls) == 2 and len(read_records(record)) == 1


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_stop_landing_in_the_prompts_flush_of_its_output_still_stops_the_read(signum: int) -> None:
    """``input()`` flushes standard error (and output) before it reads, and clears
    an error of that flush: a SIGTERM whose handler ran there (the streams are
    Python objects, :class:`TerminalStream`) raised a KeyboardInterrupt that was
    lost, and the read then waited for a key with every repeat of the signal
    taken as "a stop under way" (one `goat play` in a dozen under load kept
    waiting). A Ctrl+C there was lost the same way, with Python's own handler,
    until a second one. Here standard error's flush takes the signal, and the
    read is of a pipe nobody writes to; the session is run as `goat play` runs it
    (``run_session``), and says how it stopped as it always has."""
    code = ("import os, signal, sys\n"
            "import typer\n"
            "from rich.console import Console\n"
            "from goat.cli import hangup\n"
            "from goat.cli.play import run_session\n"
            "signal.signal(signal.SIGINT, signal.default_int_handler)   # as from a terminal\n"
            "class Flushing:\n"
            "    def __init__(self, inner): self.inner, self.sent = inner, False\n"
            "    def write(self, text): return self.inner.write(text)\n"
            "    def flush(self):\n"
            "        if not self.sent:\n"
            "            self.sent = True\n"
            f"            os.kill(os.getpid(), {int(signum)})\n"
            "            sum(range(100))   # the handler runs here, inside input()'s flush\n"
            "        self.inner.flush()\n"
            "    def __getattr__(self, name): return getattr(self.inner, name)\n"
            "console = Console(highlight=False)\n"
            "class Session:\n"
            "    def run(self):\n"
            "        sys.stderr = Flushing(sys.stderr)\n"
            "        hangup.read_at_prompt(console, '> ')\n"
            "try:\n"
            "    run_session(console, Session(), None, None, 'game')\n"
            "except typer.Exit as exc:\n"
            "    sys.exit(exc.exit_code)\n")
    run = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, env=WITH_SRC)
    try:
        run.wait(timeout=60)   # standard input stays open: only the stop ends the read
    except subprocess.TimeoutExpired:
        run.kill()
        raise AssertionError("the prompt kept waiting after the stop") from None
    finally:
        assert run.stdin is not None
        run.stdin.close()
    assert run.stdout is not None and run.stderr is not None
    out, err = run.stdout.read(), run.stderr.read()
    how = STOPPED_BY.get(signum, "interrupted")
    assert out.endswith(f"\n{how[0].upper()}{how[1:]}.\n") and run.returncode == 128 + signum, (out, err)
