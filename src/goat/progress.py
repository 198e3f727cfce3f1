"""Progress of a long command: a live bar on a terminal, plain lines elsewhere.

A tournament or a batch of games can run for an hour. On a terminal the
command shows rich's bar (count, bar, time left), which leaves no trace when
done. Run in the background with its output in a file (``nohup``, CI, a job
queue), a live bar draws nothing at all, so there :class:`ProgressLines`
writes a plain line now and then instead::

    tournament: 300/3000 (10%), 4:12 elapsed, about 37:48 left

— after a quiet start (a run that ends within seconds prints nothing), then
at every tenth of the work and at least once a minute while work finishes.
Every command uses :func:`progress`, so they all behave alike.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

#: Seconds before the first plain line: short runs stay silent.
QUIET_START = 10.0
#: The longest gap between plain lines while work finishes (seconds).
EVERY = 60.0


def _clock_text(seconds: float) -> str:
    """``h:mm:ss`` or ``m:ss``."""
    whole = int(seconds + 0.5)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class ProgressLines:
    """Plain progress lines for a console that is not a terminal.

    Args:
        console: where the lines go (the commands use stderr, so records and
            results on stdout stay clean).
        description: the line's first word(s), e.g. ``"tournament"``.
        total: units of work (games, decisions).
        eta: add the estimated time left (from the mean pace so far).
        clock: seconds, monotonic (a test passes its own).
    """

    def __init__(self, console: Console, description: str, total: int, eta: bool = True,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.console = console
        self.description = description
        self.total = max(0, total)
        self.eta = eta
        self.clock = clock
        self.start = clock()
        self.done = 0
        self._tenth = 0          # tenths of the work reported so far
        self._last = self.start  # when the last line was written

    def advance(self, amount: int = 1) -> None:
        """Count ``amount`` finished units; write a line if one is due."""
        self.done = min(self.total, self.done + amount) if self.total else self.done + amount
        now = self.clock()
        if now - self.start < QUIET_START:
            return
        tenth = self.done * 10 // self.total if self.total else 0
        finished = self.total > 0 and self.done >= self.total
        if tenth > self._tenth or now - self._last >= EVERY or finished:
            self._tenth = tenth
            self._last = now
            self.console.print(self.line(now), highlight=False, markup=False)

    def line(self, now: float) -> str:
        """The progress line as of ``now``."""
        elapsed = now - self.start
        if not self.total:
            return f"{self.description}: {self.done} done, {_clock_text(elapsed)} elapsed"
        text = (f"{self.description}: {self.done}/{self.total} ({100 * self.done // self.total}%), "
                f"{_clock_text(elapsed)} elapsed")
        if self.eta and 0 < self.done < self.total:
            text += f", about {_clock_text(elapsed * (self.total - self.done) / self.done)} left"
        return text


@contextmanager
def progress(console: Console, description: str, total: int, eta: bool = True) -> Iterator[Callable[[], None]]:
    """Show the progress of ``total`` units of work; yields ``advance()``, to
    call once per finished unit. A live bar on a terminal (gone when done),
    else :class:`ProgressLines`."""
    if console.is_terminal:
        columns = [TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn()]
        if eta:
            columns.append(TimeRemainingColumn())
        with Progress(*columns, console=console, transient=True) as bar:
            task = bar.add_task(description, total=total)
            yield lambda: bar.advance(task)
    else:
        lines = ProgressLines(console, description, total, eta)
        yield lines.advance
