"""The ``goat`` command (typer + rich). Each sub-command lives in its own module."""
