"""``goat deck``: check Yu-Gi-Oh! deck lists before a duel, and start from a built-in one.

A player brings a deck to a table (``PUT .../seats/{seat}/deck``, or the page's
upload box) or to ``goat play yugioh --deck``; both refuse an illegal deck with
its first problem. ``goat deck check`` lists *every* problem of one or more
files at once — unknown card names line by line, then the legality of what
was read (deck sizes, Fusion monsters in the right deck, copies against the
Goat Format list) — so a deck can be fixed in one go. A file that cannot be
read is one line on standard error, and the files after it are still checked.
The exit status is 0 when every file is legal, 1 when one is not, 2 when one
cannot be read, so it can run in a script.
``goat deck builtin`` lists the shipped decks or prints one as a ``.ydk`` file
to edit.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape

from goat.cli.errors import user_errors
from goat.cli.output import echo
from goat.games.options import parse_option_pairs
from goat.games.yugioh.cards.data import card
from goat.games.yugioh.deck import (
    DeckError,
    DeckList,
    DeckProblem,
    builtin_deck,
    builtin_deck_names,
    deck_problems,
    read_deck_file,
    read_ydk,
)
from goat.games.yugioh.rules import YugiohRules, make_rules


def deck_summary(deck: DeckList) -> str:
    """One line of what a deck holds: ``40 main (17 monsters, 15 spells, 8
    traps), 1 fusion, 15 side``."""
    kinds = Counter(card(name).kind for name in deck.main)
    parts = [f"{kinds[k]} {k}s" for k in ("monster", "spell", "trap") if kinds[k]]
    main = f"{len(deck.main)} main" + (f" ({', '.join(parts)})" if parts else "")
    return f"{main}, {len(deck.fusion)} fusion, {len(deck.side)} side"


def file_problems(path: str | Path, rules: YugiohRules) -> tuple[DeckList, list[DeckProblem]]:
    """Everything wrong with the deck file at ``path`` under ``rules``: the
    unreadable lines first, then the legality of the rest (:class:`DeckError`
    for a file that cannot be read at all)."""
    deck, problems = read_ydk(read_deck_file(path), Path(path).name)
    return deck, problems + deck_problems(deck, rules)


def check(
    files: list[str] = typer.Argument(..., metavar="FILE", help="Deck files (.ydk: #main, #extra, !side; one card name a line)."),
    rules: str = typer.Option("goat", "--rules", "-r", help="Ruleset preset: goat or official (both use "
                                                             "the April 2005 Goat Format list)."),
    option: list[str] = typer.Option([], "--option", "-o", metavar="KEY=VALUE", help="Rules option key=value (repeatable), e.g. "
                                                                 "banlist=none, side_deck_sizes=15, max_copies=3 "
                                                                 "(default: the ruleset's)."),
) -> None:
    """List every problem of each deck file; exit status 1 if any is not legal, 2 if one cannot be read."""
    console = Console(highlight=False, emoji=False, soft_wrap=True)
    bad = unreadable = 0
    with user_errors():
        # a wrong preset or option is one line before any file is read
        base = make_rules(rules)
        ruleset = make_rules(base, parse_option_pairs(option, base.options()))
        for path in files:
            try:
                deck, problems = file_problems(path, ruleset)
            except DeckError as exc:  # this file's one line; the next files are still checked
                echo(f"error: {exc}", err=True)
                unreadable += 1
                continue
            if problems:
                bad += 1
                console.print(f"[red]{escape(str(path))}: not legal[/] ({escape(deck_summary(deck))} read)")
                for problem in problems:
                    console.print(f"  - {escape(problem.text)}")
            else:
                console.print(f"[green]{escape(str(path))}: legal[/] ({escape(deck_summary(deck))})")
    if unreadable or bad:
        raise typer.Exit(2 if unreadable else 1)


def builtin(
    name: str = typer.Argument("", metavar="NAME",
                               help="A built-in deck to print as a .ydk file (default: none, which lists them)."),
) -> None:
    """List the built-in decks, or print one: goat deck builtin goat_control > my.ydk"""
    with user_errors():
        if not name:
            for deck_name in builtin_deck_names():
                echo(f"{deck_name}: {deck_summary(builtin_deck(deck_name))}")
            return
        echo(builtin_deck(name).to_ydk(), nl=False)


def register(app: typer.Typer) -> None:
    deck_app = typer.Typer(help="Yu-Gi-Oh! deck lists: check them, start from a built-in one.",
                           no_args_is_help=True)
    deck_app.command("check")(check)
    deck_app.command("builtin")(builtin)
    app.add_typer(deck_app, name="deck")
