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

from goat.cli.output import echo
from goat.protocol import GoatError


@contextmanager
def user_errors() -> Iterator[None]:
    """``error: <message>`` on stderr and exit status 2 for a :class:`GoatError`."""
    try:
        yield
    except GoatError as exc:
        echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None


def in_file(file: str, problem: object, several: bool) -> str:
    """A record problem's line, naming its file when a command was given several
    (``goat replay a.jsonl b.jsonl``, ``goat standings``) and the line does not
    name it already (a file that cannot be read says which).

    >>> in_file("b.json", "deal 1, action 1: not seat 1's turn", True)
    "b.json: deal 1, action 1: not seat 1's turn"
    >>> in_file("b.json", "b.json: empty, no record in it", True)
    'b.json: empty, no record in it'
    >>> in_file("a", 'deal 1, action 0 "0 play AS": seat 0 does not hold AS', True)
    'a: deal 1, action 0 "0 play AS": seat 0 does not hold AS'
    """
    line = str(problem)
    # Not "file in line": a file named "a" is in every "action" (and went unnamed).
    names_it = not file or line.startswith((f"{file}: ", f"{file} line ", f"cannot read {file}: "))
    return f"{file}: {line}" if several and not names_it else line
