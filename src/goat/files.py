"""Files a long run writes at its end, checked at its start.

A tournament or a batch of random games can run for an hour, so its output
file is checked before the first game (:func:`check_writable`,
:func:`check_stdout`) and written only by a whole run
(:func:`whole_run_file`): an interrupted one leaves its finished records
beside it, in :func:`partial_path`, never a cut file that reads like a whole
one. The library (:func:`goat.tournament.run_tournament`'s ``out``) and the
commands (``--out``, ``--record``, ``--plot``) share these checks; a file that
cannot be written is one line (:class:`~goat.protocol.GoatError`), never a
traceback.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

from goat.protocol import GoatError


def check_named(path: str | os.PathLike[str], option: str = "", what: str = "file",
                instead: str = "leave it out for none") -> None:
    """A one-line :class:`GoatError` if ``path`` is empty: an unset shell variable
    (``--record "$GAME"``). ``Path("")`` is the current folder, so an option typed
    as a ``Path`` cannot tell: it read "cannot write the record to .: it is a
    folder", and ``goat serve --data-dir ""`` kept its tables wherever it was
    started. Path options are therefore ``str`` until checked here. ``option``
    names the flag, ``what`` what it names, ``instead`` what the user may do."""
    if not os.fspath(path):
        raise GoatError(f"{option or 'the file name'} names no {what}: it is empty ({instead})")


def check_writable(path: str | os.PathLike[str], what: str = "", option: str = "",
                   instead: str = "leave it out for none") -> None:
    """A one-line :class:`GoatError` now if ``path`` cannot be written later: an
    empty name (:func:`check_named`), a folder, a missing folder, or no
    permission. For outputs written only at the end (``goat play --record`` after
    a whole match), so a typo does not cost the game. A file is made in the
    folder and removed, as a whole run's file is made there (:func:`whole_run_file`):
    the only check that also holds for root. ``option`` and ``instead`` are for
    the empty name's message."""
    check_named(path, option, instead=instead)
    target = Path(path)
    label = f"{what} {target}" if what else str(target)
    if target.is_dir():
        raise GoatError(f"cannot write {label}: it is a folder")
    folder = target.parent
    if not folder.is_dir():
        raise GoatError(f"cannot write {label}: no folder {folder}")
    if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise GoatError(f"cannot write {label}: permission denied")
    if written_in_place(target):
        return  # a device or a pipe (/dev/null), opened as it is: nothing is made beside it
    try:  # root passes os.access everywhere, yet cannot make a file in /proc or /sys
        handle, name = tempfile.mkstemp(prefix=_hidden_prefix(target), suffix=".check", dir=folder)
    except OSError as exc:
        raise GoatError(f"cannot write {label}: {exc.strerror or exc}") from None
    try:
        os.close(handle)
    finally:  # a Ctrl+C here leaves no stray file either
        os.unlink(name)


def written_in_place(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a device or a pipe (``/dev/null``, a FIFO): written into
    as it is, as the records come, never replaced by a file renamed onto it (run as
    root, that replaced ``/dev/null`` itself) and with no partial file beside it."""
    target = Path(path)
    return target.exists() and not target.is_file() and not target.is_dir()


def _hidden_prefix(target: Path) -> str:
    """``.NAME.``, the start of a hidden file's name beside ``target``: NAME cut to
    200 bytes, so the hidden name stays within the 255 a file's name may have (a
    name of 250 was refused by :func:`check_writable` that any ``open`` took)."""
    return "." + os.fsdecode(os.fsencode(target.name)[:200]) + "."


def check_stdout(option: str = "--out") -> None:
    """A one-line :class:`GoatError` now if there is no standard output for
    ``option -``: started with it closed (``goat ... --out - >&-``, a daemon's
    closed descriptors), Python's ``sys.stdout`` is ``None`` and the first record
    written was an ``AttributeError`` traceback, after the whole run."""
    if sys.stdout is None:
        raise GoatError(f"{option} - writes to standard output, and it is closed (name a file instead)")


def partial_path(out: str | os.PathLike[str]) -> Path:
    """Where an interrupted run's records go: beside ``--out``, never over it
    (``records.jsonl`` → ``records.partial.jsonl``), so an earlier file of that
    name is kept."""
    path = Path(out)
    return path.with_name(f"{path.stem}.partial{path.suffix or '.jsonl'}")


@contextmanager
def whole_run_file(out: str | os.PathLike[str]) -> Iterator[TextIO]:
    """A text stream (UTF-8, ``\\n`` lines) that becomes ``out`` only when the
    block ends normally.

    It is written to a hidden file beside ``out`` first, so an earlier ``out``
    stays whole until the run is. On Ctrl+C what was written is kept as
    :func:`partial_path` (nothing, if nothing was written) and the
    ``KeyboardInterrupt`` goes on to the caller, who says so; on any other error
    the hidden file is removed. :func:`check_writable` ``out`` first: the
    rename at the end must not be the first thing to fail. A device or a pipe
    (:func:`written_in_place`) is written into as it is, what was written staying
    there on Ctrl+C."""
    target = Path(out)
    if written_in_place(target):
        with open(target, "w", encoding="utf-8", newline="\n") as stream:
            yield stream
        return
    handle, name = tempfile.mkstemp(prefix=_hidden_prefix(target), suffix=".tmp", dir=target.parent)
    hidden = Path(name)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(hidden, 0o666 & ~umask)  # as open() would have made it, not mkstemp's 0600
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
            yield stream
    except KeyboardInterrupt:
        if hidden.stat().st_size:
            os.replace(hidden, partial_path(target))
        else:
            hidden.unlink()
        raise
    except BaseException:
        hidden.unlink(missing_ok=True)
        raise
    os.replace(hidden, target)
