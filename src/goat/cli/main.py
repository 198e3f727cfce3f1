"""Entry point of the ``goat`` command: assembles the sub-commands.

Every user mistake (bad file, bad option, illegal move) ends in one clear line
on stderr and a non-zero exit status, never a traceback: sub-commands raise
:class:`goat.protocol.GoatError` (or ``typer.Exit``) and :func:`main` turns a
stray ``GoatError`` into ``error: <message>`` with exit status 2.
"""

from __future__ import annotations

import sys

import typer

from goat.protocol import GoatError

app = typer.Typer(
    name="goat",
    help="Play, serve, replay and study the goat games: Kozel (classic, full-hand, street), Spades, Yu-Gi-Oh! (Goat Format).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _register() -> None:
    # Imported here so each module stays independent of the others.
    from goat.cli import analyze, bench, deck, play, random_games, replay, serve, standings, tournament

    play.register(app)
    replay.register(app)
    standings.register(app)
    random_games.register(app)
    bench.register(app)
    analyze.register(app)
    tournament.register(app)
    serve.register(app)
    deck.register(app)


try:
    _register()
except KeyboardInterrupt:  # Ctrl+C while the commands load: exit as typer does then, no traceback
    sys.exit(130)


def main() -> None:
    try:
        app()
    except GoatError as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
