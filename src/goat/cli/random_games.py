"""Placeholder: the `random_games` sub-command is being written."""

import typer


def register(app: typer.Typer) -> None:
    pass
