"""Rules engines, one sub-package a game. They know nothing of bots, servers or files."""

from __future__ import annotations

from typing import Any

from goat.protocol import RulesError

GAMES = ("kozel",)


def get_game(name: str) -> Any:
    """The game module registered under ``name`` (``"kozel"``; later ``"spades"``).

    A game module offers ``new_state(rules, options, players, first_dealer)``,
    ``chance_from_json(state, obj)`` and ``PRESETS``.
    """
    if name == "kozel":
        from goat.games import kozel

        return kozel
    raise RulesError(f"unknown game {name!r} (one of {', '.join(GAMES)})")
