"""Entry point of the ``goat`` command: assembles the sub-commands.

Every user mistake (bad file, bad option, illegal move) ends in one clear line
on stderr and a non-zero exit status, never a traceback: sub-commands raise
:class:`goat.protocol.GoatError` (or ``typer.Exit``) and the group turns a
stray ``GoatError`` into ``error: <message>`` with exit status 2. A mistake in
the command line itself (an unknown option, a missing argument, a value of the
wrong type) is click's to find; :class:`OneLineErrors` says it in the same one
line instead of typer's boxed panel, with the command's ``--help`` to try.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import typer
from typer.core import TyperGroup

from goat.cli.output import echo
from goat.protocol import GoatError

# Click's exception classes, reached through typer's public ``BadParameter``:
# typer >= 0.20 carries its own copy of click (``typer._click``), older typers
# use click itself, and a plain ``import click`` would catch the wrong ones.
_CLASSES = {cls.__name__: cls for cls in typer.BadParameter.__mro__}
ClickException: type[Exception] = _CLASSES["ClickException"]
UsageError: type[Exception] = _CLASSES["UsageError"]


def usage_line(exc: Exception) -> str:
    """The one line a command-line mistake (a click exception) is told in.

    >>> usage_line(typer.BadParameter("'x' is not a number"))
    "error: Invalid value: 'x' is not a number"
    """
    message = " ".join(exc.format_message().split()).rstrip(".")  # type: ignore[attr-defined]
    ctx = getattr(exc, "ctx", None)
    if isinstance(exc, UsageError) and ctx is not None and ctx.command.get_help_option(ctx) is not None:
        return f"error: {message} (see '{ctx.command_path} {ctx.help_option_names[0]}')"
    return f"error: {message}"


def _flags_show_no_value() -> None:
    """Help shows no value after a flag (``--json``, ``--help``).

    Typer 0.29's rich help prints every option's type, a flag's too:
    ``--check  <bool>``, ``--help  <bool>``, which reads as if the flag took
    ``true``/``false``. Its plain help already leaves flags bare; this makes
    the rich help agree, in the one place every command's help goes through.
    Older typers have no such method and need nothing.
    """
    option = getattr(typer.core, "TyperOption", None)
    shown = getattr(option, "display_type_rich", None)
    if shown is None or getattr(shown, "_goat_flags_bare", False):
        return

    def display_type_rich(self: Any, ctx: Any) -> str | None:
        return None if self.is_flag and self.metavar is None else shown(self, ctx)

    display_type_rich._goat_flags_bare = True  # type: ignore[attr-defined]
    option.display_type_rich = display_type_rich


def _file_lists_show_no_type() -> None:
    """Help shows no Python type after an argument that takes several values.

    Typer 0.29's rich help prints ``FILE <list[str]>`` for ``goat replay
    FILE...`` (``<list[Path]>`` for ``goat deck check``): a type, where a player
    looks for what to type. The usage line already says ``FILE...``; one-value
    arguments keep their type (``GAME <str>``)."""
    argument = getattr(typer.core, "TyperArgument", None)
    shown = getattr(argument, "display_type_rich", None)
    if shown is None or getattr(shown, "_goat_lists_bare", False):
        return

    def display_type_rich(self: Any, ctx: Any) -> str | None:
        return None if self.nargs != 1 else shown(self, ctx)

    display_type_rich._goat_lists_bare = True  # type: ignore[attr-defined]
    argument.display_type_rich = display_type_rich


_flags_show_no_value()
_file_lists_show_no_type()


class OneLineErrors(TyperGroup):
    """The ``goat`` group, whose command-line mistakes are one line on stderr.

    Typer draws click's usage errors as a usage line, a hint and a framed
    panel: five lines, box characters in a log, the message cut at the frame's
    width. Here the group runs click in non-standalone mode and tells a
    click exception as :func:`usage_line`, a
    :class:`GoatError` as ``error: …`` (exit status 2 both, click's status
    for the rest), so the CLI's tests (typer's runner calls this ``main`` too)
    see what a user sees.
    """

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True, **extra: Any) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except ClickException as exc:
            if type(exc).__name__ != "NoArgsIsHelpError":  # that one's help is already printed
                echo(usage_line(exc), err=True)
            sys.exit(exc.exit_code)  # type: ignore[attr-defined]
        except GoatError as exc:
            echo(f"error: {exc}", err=True)
            sys.exit(2)
        except typer.Abort:  # end of input at a prompt
            echo("error: aborted", err=True)
            sys.exit(1)
        # Non-standalone click returns an Exit's status, or the command's return
        # value: goat's commands return None, so an int is always a status.
        sys.exit(code if isinstance(code, int) else 0)


app = typer.Typer(
    cls=OneLineErrors,
    name="goat",
    help="Play, serve, replay and study the goat games: Kozel (classic, full-hand, full-hand-24, street), Spades, "
         "Yu-Gi-Oh! (Goat Format).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _print_version(value: bool) -> None:
    if value:
        from goat import __version__

        echo(f"goat {__version__}")
        raise typer.Exit()


@app.callback()
def _root(version: bool = typer.Option(False, "--version", is_eager=True, callback=_print_version,
                                       help="Print goat's version and exit.")) -> None:
    """Options of ``goat`` itself, before a command."""


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
    """The ``goat`` command (a stray :class:`GoatError` is told by :class:`OneLineErrors`;
    a terminal that hangs up under a background run and a stream that cannot
    write every character, by :func:`guard_standard_streams`)."""
    from goat.streams import guard_standard_streams

    guard_standard_streams()
    app()


if __name__ == "__main__":
    main()
