"""One way for a sub-command to turn a user's mistake into one line.

``goat``'s ``main`` already turns a stray :class:`GoatError` into ``error: …``
and exit status 2; commands that must print something first, or are invoked
through typer's test runner, wrap their set-up in :func:`user_errors` instead of
writing the same ``try`` / ``except`` each time.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import typer

from goat.protocol import GoatError


@contextmanager
def user_errors() -> Iterator[None]:
    """``error: <message>`` on stderr and exit status 2 for a :class:`GoatError`."""
    try:
        yield
    except GoatError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
