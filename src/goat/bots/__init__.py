"""Bots: programs that play a seat from its view (see :mod:`goat.bots.base`).

>>> bot = make_bot("random", seed=1)
>>> bot.name
'random'
"""

from __future__ import annotations

from collections.abc import Callable

from goat.bots.base import BaseBot, Bot, BotError, next_bot_action, out_of_turn_claim, play_bots
from goat.bots.random_bot import RandomBot

#: Bot name -> factory taking a seed. Later issues add heuristic, pimc, ismcts.
BOTS: dict[str, Callable[[int | str | None], Bot]] = {
    "random": RandomBot,
}


def make_bot(name: str, seed: int | str | None = None) -> Bot:
    """A new bot by registry name; raises :class:`BotError` (one line) if unknown."""
    factory = BOTS.get(name.strip().lower()) if isinstance(name, str) else None
    if factory is None:
        raise BotError(f"unknown bot {name!r} (known: {', '.join(BOTS)})")
    return factory(seed)


__all__ = ["BOTS", "BaseBot", "Bot", "BotError", "RandomBot", "make_bot", "next_bot_action",
           "out_of_turn_claim", "play_bots"]
