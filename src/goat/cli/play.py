"""Placeholder: the `play` sub-command is being written."""

import typer


def register(app: typer.Typer) -> None:
    pass
