"""Where a command's table for spreadsheets goes: standard output, or a file.

``goat replay --csv`` and ``goat standings --csv`` write the same way: on
standard output without a byte order mark (for pipes), to ``--out FILE`` with
one, so a spreadsheet reads names in any script (Анна, Ζωή) as UTF-8. A file
that cannot be written is one line and exit status 2, never a traceback.
"""

from __future__ import annotations

import typer


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
