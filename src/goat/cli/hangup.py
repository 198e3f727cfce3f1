"""Stop a command's run as Ctrl+C does when a signal asks it to.

A run in the foreground gets SIGHUP when its terminal closes, and SIGTERM from
``kill``: :func:`stop_as_interrupt` makes them stop it as Ctrl+C does, so what it
keeps on Ctrl+C (a tournament's finished games, ``goat play --record``) is kept.
At ``goat play``'s prompt :func:`stop_reaches_prompt` sees that they (and Ctrl+C) do at once.

A run in the background whose terminal hangs up gets no signal, only writes
that fail: :mod:`goat.streams` keeps it going (the ``goat`` command's ``main``
and a tournament's pool workers call its :func:`~goat.streams.guard_standard_streams`).
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

#: The signals that stop a run as Ctrl+C does, and how its line tells them.
STOPPED_BY = {getattr(signal, name): line for name, line in (("SIGTERM", "terminated (SIGTERM)"),
                                                              ("SIGHUP", "hung up (SIGHUP)"))
              if hasattr(signal, name)}   # Windows has no SIGHUP


#: The signals the :func:`stop_as_interrupt` under way handles (``None``: none), for the prompt.
_stop_signals: tuple[int, ...] | None = None


@contextmanager
def stop_as_interrupt(received: list[int], ctrl_c: bool = False) -> Iterator[None]:
    """SIGTERM (``kill``, a batch system's time limit) and SIGHUP (``kill -HUP``, a
    session that ends, the terminal window of ``goat play`` closed) stop the block
    as Ctrl+C does, noted in ``received`` for the line and the exit status (128 +
    the signal). Left to their default they ended the process where it stood,
    saying nothing and saving nothing: a tournament's finished games, a game's
    ``--record`` (Ray's own handler, ``sys.exit``, did not save either), and a
    tournament's pool workers were left waiting for games for ever. (Noted, not
    told by a subclass of KeyboardInterrupt: Ray's ``wait`` raises a plain one.)
    Under ``nohup`` SIGHUP stays ignored. Once a stop is under way another one
    (a second ``kill``, or :func:`stop_reaches_prompt`'s repeat of the first)
    does not interrupt the stopping: what Ctrl+C keeps is being written then —
    except one that finds a prompt's read still waiting (:func:`read_at_prompt`):
    the first one's KeyboardInterrupt was lost there (``input()`` clears an
    error of its flush of the output streams, where a handler may have run).

    ``ctrl_c`` (``goat play``): SIGINT is handled here too, raising
    KeyboardInterrupt as Python's own handler does (``received`` does not note
    it: the line and the exit status stay Ctrl+C's), because Python's handler
    cannot be told that a stop is under way: the prompt's repeats of a Ctrl+C
    lost in that flush, and a second Ctrl+C, would interrupt the stopping.
    Ignored (a background job of a script), it stays ignored. A tournament
    leaves SIGINT alone: its runner and Ray handle Ctrl+C themselves."""
    global _stop_signals
    if threading.current_thread() is not threading.main_thread():  # only the main thread may set handlers
        yield
        return
    under_way: list[int] = []   # the first stop's signal, Ctrl+C's too

    def stop(signum: int, frame: Any) -> None:
        if under_way and getattr(frame, "f_code", None) is not _read_line.__code__:
            return
        if not under_way:
            under_way.append(signum)
            if signum in STOPPED_BY:
                received.append(signum)
        raise KeyboardInterrupt

    signums = [*STOPPED_BY, signal.SIGINT] if ctrl_c else list(STOPPED_BY)
    previous = {signum: signal.signal(signum, stop) for signum in signums
                if signum == signal.SIGTERM or signal.getsignal(signum) != signal.SIG_IGN}  # nohup's stays ignored
    outer, _stop_signals = _stop_signals, tuple(previous)
    try:
        yield
    finally:
        _stop_signals = outer
        for signum, handler in previous.items():
            signal.signal(signum, handler)


#: How long a stop's handler has to run before :func:`stop_reaches_prompt` repeats the
#: signal, and how many times it does (each wait twice the last: about 13 s in all).
REPEAT_AFTER = 0.05
REPEATS = 8


@contextmanager
def stop_reaches_prompt() -> Iterator[None]:
    """Around a prompt's ``input()`` inside :func:`stop_as_interrupt`: a SIGTERM or
    SIGHUP (and Ctrl+C, where the block handles it) stops it at once, as it does
    anywhere else.

    Python's handler runs in the main thread between two steps of Python code;
    waiting at a prompt, the read of the line is interrupted by the signal and
    the handler runs then. A signal that lands after the last step and before the
    read (or readline's ``select``) begins is only noted: the read waits for the
    next key, and ``goat play`` closed or killed went on waiting at its prompt
    (a CI timeout). So while the prompt waits, the signal also writes its number
    to a pipe (``signal.set_wakeup_fd``), and a watcher thread that finds the
    prompt still waiting after :data:`REPEAT_AFTER` sends the signal again to
    the main thread, which interrupts the read now it has begun. It repeats it at
    most :data:`REPEATS` times, and only while the prompt waits (the repeats' own
    bytes in the pipe are not read as new signals), so it cannot loop. (Until
    the prompt is over, not until the handler has run: ``input()`` flushes the
    output streams before it reads and clears an error of that flush, so a
    handler that ran there raised a KeyboardInterrupt that was lost — one run in
    a dozen under load. A repeat then finds the read waiting in
    :func:`_read_line` and raises again, see :func:`stop_as_interrupt`.)"""
    signums = _stop_signals
    if (signums is None or not hasattr(signal, "pthread_kill")   # Windows has neither the race nor the cure
            or threading.current_thread() is not threading.main_thread()):
        yield
        return
    reader, writer = os.pipe()
    os.set_blocking(writer, False)
    over = threading.Event()
    lock = threading.Lock()   # no repeat is sent once the prompt is over
    previous = signal.set_wakeup_fd(writer, warn_on_full_buffer=False)
    watcher = threading.Thread(target=_repeat_unheard_stop, name="goat-prompt-stop", daemon=True,
                               args=(reader, signums, over, lock, threading.main_thread().ident))
    try:
        watcher.start()
        yield
    finally:
        with lock:
            over.set()
        signal.set_wakeup_fd(previous)
        os.close(writer)   # the watcher, if still reading, reads the end of the pipe
        if watcher.ident is not None:
            watcher.join()
        os.close(reader)


def _repeat_unheard_stop(reader: int, signums: tuple[int, ...], over: threading.Event, lock: threading.Lock,
                         main: int) -> None:
    """:func:`stop_reaches_prompt`'s watcher: the first stopping signal (one of
    ``signums``) written to ``reader`` is sent to the ``main`` thread again until
    the prompt is over."""
    signum = None
    while signum is None:
        written = os.read(reader, 64)
        if not written:   # the prompt is over
            return
        signum = next((number for number in written if number in signums), None)
    delay = REPEAT_AFTER
    for _ in range(REPEATS):
        if over.wait(delay):
            return
        with lock:
            if over.is_set():
                return
            signal.pthread_kill(main, signum)
        delay *= 2


def read_at_prompt(console: Any, prompt: str) -> str:
    """``console.input(prompt)`` (rich's: the prompt printed, then ``input()``)
    with :func:`stop_reaches_prompt` around it: the read of a prompt of
    ``goat play``, which a SIGTERM, a SIGHUP or a Ctrl+C stops at any instant."""
    with stop_reaches_prompt():
        if prompt:
            console.print(prompt, end="")
        return _read_line()


def _read_line() -> str:
    """The prompt's ``input()``. Its frame is how :func:`stop_as_interrupt`'s
    handler knows a repeated stop finds the read still waiting."""
    return input()
