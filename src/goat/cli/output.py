"""Where a command's table for spreadsheets goes: standard output, or a file.

``goat replay --csv`` and ``goat standings --csv`` write the same way: on
standard output without a byte order mark (for pipes), to ``--out FILE`` with
one, so a spreadsheet reads names in any script (Анна, Ζωή) as UTF-8. A file
that cannot be written is one line and exit status 2, never a traceback.
"""

from __future__ import annotations

import os
from pathlib import Path

import typer
from rich.console import Console, RenderableType
from rich.measure import Measurement

from goat.protocol import GoatError


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


def check_writable(path: str | os.PathLike[str], what: str = "") -> None:
    """A one-line :class:`GoatError` now if ``path`` cannot be written later: a
    folder, a missing folder, or no permission. For outputs written only at the
    end (``goat play --record`` after a whole match), so a typo does not cost the game."""
    target = Path(path)
    label = f"{what} {target}" if what else str(target)
    if target.is_dir():
        raise GoatError(f"cannot write {label}: it is a folder")
    folder = target.parent
    if not folder.is_dir():
        raise GoatError(f"cannot write {label}: no folder {folder}")
    if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise GoatError(f"cannot write {label}: permission denied")


def write_csv(text: str, out_file: str | None) -> None:
    """Write CSV ``text`` to ``out_file`` (UTF-8 with a BOM) or, without one, to stdout."""
    if out_file is None:
        typer.echo(text, nl=False)
        return
    try:
        with open(out_file, "w", encoding="utf-8-sig", newline="") as stream:
            stream.write(text)
    except OSError as exc:
        typer.echo(f"cannot write {out_file}: {exc.strerror or exc}", err=True)
        raise typer.Exit(2) from None
