"""Standard output and error that keep a run going: where they cannot hold
every character (:func:`goat.charset.plain_fallback`), and when their terminal
hangs up.

``goat tournament … & disown``, then the terminal window closed or the ssh
session dropped: the run is in the background, so no SIGHUP reaches it, but
its standard output and error are still the terminal that is gone, and every
write there fails with ``EIO``. rich's progress bar writes every tenth of a
second, so the run died at once with ``OSError: [Errno 5] Input/output error``
(a traceback nobody saw), its games lost and its ``--out`` never written.

:func:`survive_hangup` wraps standard output and error, where they are a
terminal (a character device), in :class:`TerminalStream`: at the first ``EIO`` the stream's file
descriptor is pointed at ``/dev/null`` and the write retried, so the run goes on
without its display and writes its files as if nobody had left. Only a
terminal is guarded: ``EIO`` writing to a file or a pipe is a real failure
(a disk error) and stays one; a reader that goes away (``EPIPE``) is told as
before.

Not the command's alone: a tournament's pool workers (:mod:`goat.tournament.runner`)
guard their streams too (:func:`guard_standard_streams`). What a signal does to a
command is :mod:`goat.cli.hangup`'s.
"""

from __future__ import annotations

import errno
import os
import stat
import sys
from collections.abc import Callable
from typing import Any, TextIO, TypeVar

from goat.charset import plain_fallback

T = TypeVar("T")


class TerminalStream:
    """A text stream on a terminal that stops failing once the terminal is gone.

    Everything but :meth:`write`, :meth:`writelines` and :meth:`flush` is the
    wrapped stream's (``isatty``, ``fileno``, ``encoding``: rich and click see a
    terminal as before). :attr:`hung_up` tells whether the terminal went away."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self.hung_up = False

    def _guarded(self, operation: Callable[[], T]) -> T:
        try:
            return operation()
        except OSError as exc:
            if exc.errno != errno.EIO:
                raise
            if not self.hung_up:  # else another thread's write failed before this one silenced it
                self._silence()
            return operation()  # once: the text still buffered now goes to /dev/null

    def _silence(self) -> None:
        """Point the stream's descriptor at ``/dev/null`` (its other users too:
        the buffered text, a child process that shares it)."""
        self.hung_up = True
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, self._stream.fileno())
        finally:
            os.close(null)

    def write(self, text: str) -> int:
        return self._guarded(lambda: self._stream.write(text))

    def writelines(self, lines: Any) -> None:
        self._guarded(lambda: self._stream.writelines(lines))

    def flush(self) -> None:
        self._guarded(self._stream.flush)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _on_terminal(stream: Any) -> bool:
    """Whether ``stream`` writes to a terminal: a character device, as
    ``isatty`` cannot tell of a terminal already gone (its check fails with
    ``EIO`` too). Files and pipes are not; ``/dev/null`` is, harmlessly."""
    try:
        return stream is not None and stat.S_ISCHR(os.fstat(stream.fileno()).st_mode)
    except (AttributeError, OSError, ValueError):  # no descriptor: a test's capture, a closed stream
        return False


def survive_hangup() -> None:
    """Wrap ``sys.stdout`` and ``sys.stderr`` in :class:`TerminalStream` where
    they are a terminal (called once, by the ``goat`` command's ``main``)."""
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if not isinstance(stream, TerminalStream) and _on_terminal(stream):
            setattr(sys, name, TerminalStream(stream))


def guard_standard_streams() -> None:
    """Standard output and error as every ``goat`` process has them: written in
    :func:`goat.charset.plain` text where they cannot hold every character
    (:func:`~goat.charset.plain_fallback`) and surviving a terminal that hangs up
    (:func:`survive_hangup`). The ``goat`` command's ``main`` calls it, and so does
    each of a tournament's pool workers: a ``spawn`` or ``forkserver`` worker
    (Python 3.14's default start method on Linux) is a fresh interpreter that
    inherits the parent's terminal but not its wrapped streams."""
    plain_fallback()
    survive_hangup()
