"""Progress of long commands when their output is not a terminal (a file, CI):
plain lines, after a quiet start, at every tenth of the work and at least once a
minute; nothing for a run that ends within seconds."""

from __future__ import annotations

import io

from rich.console import Console

from goat.progress import EVERY, QUIET_START, ProgressLines, progress


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def plain_console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, force_terminal=False, width=200), out


def test_a_short_run_prints_nothing() -> None:
    console, out = plain_console()
    clock = Clock()
    lines = ProgressLines(console, "tournament", 50, clock=clock)
    for _ in range(50):
        clock.now += (QUIET_START - 1) / 50
        lines.advance()
    assert out.getvalue() == ""


def test_lines_at_each_tenth_with_the_time_left() -> None:
    console, out = plain_console()
    clock = Clock()
    lines = ProgressLines(console, "tournament", 100, clock=clock)
    for _ in range(100):
        clock.now += 1.0          # a game a second: 100 s in all
        lines.advance()
    text = out.getvalue().splitlines()
    # quiet for the first 10 s, then one line a tenth (10% is passed at 10 s exactly)
    assert text[0] == "tournament: 10/100 (10%), 0:10 elapsed, about 1:30 left"
    assert [t.split(":")[1].split("(")[0].strip() for t in text] == [f"{k}/100" for k in range(10, 101, 10)]
    assert text[-1] == "tournament: 100/100 (100%), 1:40 elapsed"   # done: no time left shown


def test_a_slow_tenth_still_gets_a_line_a_minute() -> None:
    console, out = plain_console()
    clock = Clock()
    lines = ProgressLines(console, "decisions", 1000, eta=False, clock=clock)
    clock.now += QUIET_START
    lines.advance()               # 0.1% after 10 s: no tenth crossed, no minute gone: no line yet
    for _ in range(4):
        clock.now += EVERY
        lines.advance()           # a unit a minute: a line each
    text = out.getvalue().splitlines()
    assert len(text) == 4 and all("left" not in t for t in text)
    assert text[-1] == "decisions: 5/1000 (0%), 4:10 elapsed"


def test_progress_on_a_file_uses_lines_and_counts_every_unit() -> None:
    console, out = plain_console()
    with progress(console, "games", 3) as advance:
        for _ in range(3):
            advance()
    assert out.getvalue() == ""       # three quick units: silent, and no bar drawn into the file


def test_progress_on_a_terminal_draws_a_bar_and_clears_it() -> None:
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=80)
    with progress(console, "games", 3) as advance:
        for _ in range(3):
            advance()
    assert "games" in out.getvalue()   # the live bar was drawn (and erased: transient)
