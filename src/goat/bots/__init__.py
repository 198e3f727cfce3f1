"""Bots: programs that play a seat from its view (see :mod:`goat.bots.base`).

>>> bot = make_bot("random", seed=1)
>>> bot.name
'random'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from goat.bots.base import BaseBot, Bot, BotError, next_bot_action, out_of_turn_claim, play_bots
from goat.bots.heuristic import HeuristicBot
from goat.bots.ismcts import ISMCTSBot
from goat.bots.pimc import PerfectInformationBot, PIMCBot
from goat.bots.random_bot import RandomBot

#: Bot name -> factory taking a seed. Later issues add heuristic, pimc, ismcts.
BOTS: dict[str, Callable[..., Bot]] = {
    "random": RandomBot,
    "ismcts": ISMCTSBot,
    "heuristic": HeuristicBot,
    "pimc": PIMCBot,
    "perfect": PerfectInformationBot,
}


#: Bots of other games, registered per game (Kozel's are :data:`BOTS`).
GAME_BOTS: dict[str, dict[str, Callable[..., Bot]]] = {}


def _game_bots(game: str) -> dict[str, Callable[..., Bot]]:
    if game == "yugioh" and game not in GAME_BOTS:
        from goat.bots import yugioh

        GAME_BOTS[game] = yugioh.BOTS
    return GAME_BOTS.get(game, BOTS)


def bot_factory(name: str, game: str = "kozel") -> Callable[..., Bot] | None:
    """The factory registered as ``name`` for ``game`` (``None`` if none is):
    what a caller asks of a bot's class (its settings, ``sees_everything``)
    before making one."""
    return _game_bots(game).get(name.strip().lower()) if isinstance(name, str) else None


def bots_for(game: str) -> list[str]:
    """The names of the bots that play ``game`` (a bot's ``games``; ``None``: all)."""
    return [name for name, factory in _game_bots(game).items()
            if getattr(factory, "games", None) is None or game in factory.games]


def make_bot(name: str, seed: int | str | None = None, game: str = "kozel", **settings: Any) -> Bot:
    """A new bot by registry name with optional strength/budget ``settings``
    (e.g. ``make_bot("ismcts", 1, iterations=100)``), for ``game`` (Kozel's by
    default; ``make_bot("greedy", 1, game="yugioh")``); raises :class:`BotError`
    (one line) if the name or a setting is unknown."""
    factory = bot_factory(name, game)
    if factory is None:
        raise BotError(f"unknown bot {name!r} (known: {', '.join(_game_bots(game))})")
    if getattr(factory, "games", None) is not None and game not in factory.games:
        raise BotError(f"bot {name!r} does not play {game} (bots for {game}: {', '.join(bots_for(game))})")
    try:
        return factory(seed, **settings)
    except TypeError:
        raise BotError(f"bot {name!r} does not take the settings {', '.join(sorted(settings))}") from None


__all__ = ["BOTS", "BaseBot", "Bot", "BotError", "ISMCTSBot", "RandomBot", "bot_factory", "bots_for", "make_bot", "next_bot_action",
           "out_of_turn_claim", "play_bots"]
