"""Bots: programs that play a seat from its view (see :mod:`goat.bots.base`).

>>> bot = make_bot("random", seed=1)
>>> bot.name
'random'
"""

from __future__ import annotations

import inspect
import operator
from collections.abc import Callable
from typing import Any

from goat.bots.base import BaseBot, Bot, BotError, next_bot_action, out_of_turn_claim, play_bots
from goat.bots.heuristic import HeuristicBot
from goat.bots.ismcts import ISMCTSBot
from goat.bots.pimc import PerfectInformationBot, PIMCBot
from goat.bots.random_bot import RandomBot
from goat.bots.spades_pimc import SpadesPIMCBot

#: Bot name -> factory taking a seed. Later issues add heuristic, pimc, ismcts.
BOTS: dict[str, Callable[..., Bot]] = {
    "random": RandomBot,
    "ismcts": ISMCTSBot,
    "heuristic": HeuristicBot,
    "pimc": PIMCBot,
    "perfect": PerfectInformationBot,
}


#: Bots of other games, registered per game (Kozel's are :data:`BOTS`). Spades plays
#: Kozel's bots that take its views, with its own ``pimc`` (Bo Haglund's DDS in place
#: of Kozel's solver: :mod:`goat.bots.spades_pimc`).
GAME_BOTS: dict[str, dict[str, Callable[..., Bot]]] = {"spades": {**BOTS, "pimc": SpadesPIMCBot}}


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


def _available(factory: Callable[..., Bot]) -> bool:
    """False for a bot whose optional dependency is missing here (its ``available()``)."""
    check = getattr(factory, "available", None)
    return check is None or bool(check())


def bots_for(game: str) -> list[str]:
    """The names of the bots that play ``game`` (a bot's ``games``; ``None``: all)
    and can be made here (a bot without its optional dependency, such as Spades'
    ``pimc`` without DDS, is left out rather than offered and then refused)."""
    return [name for name, factory in _game_bots(game).items()
            if (getattr(factory, "games", None) is None or game in factory.games) and _available(factory)]


def view_bots(game: str = "kozel") -> list[str]:
    """The bots of :func:`bots_for` that play from their seat's view alone: all
    but those that see the whole state (``perfect``), which neither a table with
    people nor an RL environment may seat."""
    return [name for name in bots_for(game) if not getattr(bot_factory(name, game), "sees_everything", False)]


def default_bot(game: str = "kozel", preferred: str = "heuristic") -> str:
    """The bot that fills a seat of ``game`` when none is named (the Gymnasium
    environment's opponents, the table server's empty seats): ``preferred`` if
    it plays ``game``, else the game's first bot that is not ``random``
    (Yu-Gi-Oh!'s ``greedy``), else its first. Never a bot that sees the whole
    state (``perfect``): a filler plays from its seat's view."""
    names = view_bots(game)
    if preferred in names:
        return preferred
    return next((name for name in names if name != "random"), names[0] if names else preferred)


#: The most seconds a searching bot thinks a move where people wait for it (the table
#: server's ``bot_think`` default, ``goat play``'s ``--think``): without a cap PIMC takes
#: seconds at the first cards of a full-hand deal, and a minute under
#: ``trump_on_plain="always"``.
THINK_SECONDS = 2.0


def thinks(name: str, game: str = "kozel") -> bool:
    """Does bot ``name`` search at each decision, with a ``time_limit`` setting
    that caps it (``pimc``, ``ismcts``, Yu-Gi-Oh!'s ``mc``)? The others move at
    once. ``False`` for an unknown name (:func:`make_bot` reports it)."""
    factory = bot_factory(name, game)
    return factory is not None and "time_limit" in inspect.signature(factory).parameters


def make_bot(name: str, seed: int | str | None = None, game: str = "kozel", **settings: Any) -> Bot:
    """A new bot by registry name with optional strength/budget ``settings``
    (e.g. ``make_bot("ismcts", 1, iterations=100)``), for ``game`` (Kozel's by
    default; ``make_bot("greedy", 1, game="yugioh")``); raises :class:`BotError`
    (one line) if the name or a setting is unknown."""
    factory = bot_factory(name, game)
    if factory is None:
        # the bots that play this game here: Kozel's "perfect" is no help to a Spades player
        raise BotError(f"unknown bot {name!r} (known: {', '.join(bots_for(game))})")
    if getattr(factory, "games", None) is not None and game not in factory.games:
        raise BotError(f"bot {name!r} does not play {game} (bots for {game}: {', '.join(bots_for(game))})")
    try:
        return factory(_seed(seed), **settings)
    except TypeError:
        raise BotError(f"bot {name!r} does not take the settings {', '.join(sorted(settings))}") from None


def _seed(seed: Any) -> int | float | str | bytes | None:
    """A bot's seed as ``random.Random`` takes it (``None``, a number, text or
    bytes); numpy integers become ints (``random.Random`` refuses them), and
    anything else is refused in one line rather than reported as a bad setting."""
    if seed is None or isinstance(seed, (int, float, str, bytes, bytearray)):
        return seed
    try:
        return operator.index(seed)
    except TypeError:
        raise BotError(f"a bot's seed is a number, a string or None, not {seed!r}") from None


__all__ = ["BOTS", "GAME_BOTS", "BaseBot", "Bot", "BotError", "ISMCTSBot", "RandomBot", "SpadesPIMCBot", "bot_factory",
           "bots_for", "default_bot", "make_bot", "next_bot_action", "out_of_turn_claim", "play_bots", "view_bots"]
