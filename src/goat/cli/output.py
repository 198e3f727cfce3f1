"""Where a command's output goes: standard output, or a file.

``goat replay --csv`` and ``goat standings --csv`` write the same way: on
standard output without a byte order mark (for pipes), to ``--out FILE`` with
one, so a spreadsheet reads names in any script (Анна, Ζωή) as UTF-8. A file
that cannot be written is one line and exit status 2, never a traceback.

A long run's ``--out`` (``goat random-games``, ``goat tournament``) is checked
and written by :mod:`goat.files`, which the library shares.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable

import typer
from rich.console import Console, RenderableType
from rich.measure import Measurement

from goat.files import check_writable
from goat.protocol import GoatError


def echo(message: str = "", err: bool = False, nl: bool = True) -> None:
    """``typer.echo`` to standard output (``err``: error) itself, as every line
    of ours is written.

    Left to find the stream, click takes one whose encoding is ASCII
    (``PYTHONIOENCODING=ascii``) for a mistake and writes UTF-8 bytes beneath it:
    ``error: bot 'é' ...`` came out as bytes an ASCII reader cannot decode, not
    as :func:`goat.charset.plain_fallback`'s ``e`` (and past the stream's
    :class:`~goat.streams.TerminalStream`). Handed the stream, click writes to it."""
    typer.echo(message, file=sys.stderr if err else sys.stdout, nl=nl)


def print_table(console: Console, table: RenderableType) -> None:
    """Print a rich table whole, even on a terminal too narrow for it.

    Squeezed below its narrowest layout, rich cuts cells to "…": an Elo of 1458
    shows as "14…", a win rate as "50…". Then the table is printed at its natural
    width instead and the terminal wraps the lines: every figure stays readable,
    and output to a file or a pipe keeps whole values."""
    wide = Measurement.get(console, console.options.update_width(10_000), table)
    if wide.minimum <= console.width:
        console.print(table)
        return
    narrow = console.width
    console.width = wide.maximum
    try:
        console.print(table)
    finally:
        console.width = narrow


def check_csv_out(out_file: str | None, as_csv: bool) -> None:
    """``--out`` of ``goat replay`` and ``goat standings``, checked before any
    record is read: it goes with ``--csv``, an empty one (an unset shell
    variable) names no file rather than failing at the end as ``cannot write :``,
    and one that cannot be written (:func:`check_writable`) is told now, not
    after the last of a million records."""
    if out_file is not None and not as_csv:
        raise GoatError("--out is where --csv writes: add --csv")
    if out_file == "":
        raise GoatError("--out names no file (leave it out to write to standard output)")
    if out_file is not None:
        check_writable(out_file)


def write_csv(text: str | Iterable[str], out_file: str | None) -> None:
    """Write CSV ``text`` (or its pieces, in order: a long sheet is never one string)
    to ``out_file`` (UTF-8 with a BOM) or, without one, to stdout."""
    pieces = [text] if isinstance(text, str) else text
    if out_file is None:
        for piece in pieces:
            echo(piece, nl=False)
        return
    try:
        with open(out_file, "w", encoding="utf-8-sig", newline="") as stream:
            stream.writelines(pieces)
    except OSError as exc:
        echo(f"error: cannot write {out_file}: {exc.strerror or exc}", err=True)
        raise typer.Exit(2) from None


