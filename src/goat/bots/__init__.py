"""Bots: programs that play a seat from its view (see :mod:`goat.bots.base`).

The registry is the tables below (``BOTS``, ``GAME_BOTS``): the project's bots,
and outside bots a researcher adds by an entry point of the group ``goat.bots``,
a bot module (:func:`load_bot_module`) or :func:`register_bot`
(:mod:`goat.bots.outside`; docs/bots.md). Every lookup goes through
:func:`bot_factory` or :func:`bots_for`.

>>> bot = make_bot("random", seed=1)
>>> bot.name
'random'
"""

from __future__ import annotations

import inspect
import operator
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from goat.bots import outside
from goat.bots.base import BaseBot, Bot, BotError, asked_before_turn, next_bot_action, out_of_turn_claim, play_bots
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
    """The table of ``game`` (Kozel's for a game without one), after the names
    of the ``goat.bots`` entry points have been read (once a process)."""
    outside.discover(_builtin)
    return _table(game)


def _table(game: str) -> dict[str, Callable[..., Bot]]:
    if game == "yugioh" and game not in GAME_BOTS:
        from goat.bots import yugioh

        GAME_BOTS[game] = yugioh.BOTS
    return GAME_BOTS.get(game, BOTS)


def _tables(games: tuple[str, ...] | None = None) -> list[dict[str, Callable[..., Bot]]]:
    """The tables of ``games`` (``None``: every game), each once."""
    from goat.games import GAMES

    tables: list[dict[str, Callable[..., Bot]]] = []
    for game in games or GAMES:
        table = _table(game)
        if not any(table is t for t in tables):
            tables.append(table)
    return tables


def _builtin(name: str) -> bool:
    """Is ``name`` a bot of the project (in a table, and not an outside bot)?"""
    return name not in outside.REGISTERED and any(name in table for table in _tables())


def bot_factory(name: str, game: str = "kozel") -> Callable[..., Bot] | None:
    """The factory registered as ``name`` for ``game`` (``None`` if none is):
    what a caller asks of a bot's class (its settings, ``sees_everything``)
    before making one. An outside bot's entry point is imported here, at the
    first lookup of its name; one that cannot be made (it fails to import, its
    name clashes) raises :class:`BotError` in one line."""
    if not isinstance(name, str):
        return None
    key = name.strip().lower()
    table = _game_bots(game)
    why = outside.broken(key)
    if why is not None:
        raise BotError(why)
    outside.load_entry_point(key, _register)
    return table.get(key)


def register_bot(name: str, factory: Callable[..., Bot], *, games: tuple[str, ...] | list[str] | None = None) -> None:
    """Give an outside bot a name, as the project's bots have one: ``factory``
    (a class or function) is called as ``factory(seed, **settings)`` by
    :func:`make_bot`, ``goat tournament --bots NAME:key=value`` and ``goat play``,
    for the ``games`` it plays (default: its ``games`` attribute, else every game).

    The name may not be a built-in bot's or an entry point's (:class:`BotError`,
    one line); registering it again replaces the earlier registration (a
    notebook cell run twice). A tournament's worker processes get the bot too
    when the factory can be imported by reference there (defined at the top of
    a module or of the script that runs the tournament; see docs/bots.md)."""
    kind, suffix = outside.kind_of_call()
    _register(name, factory, outside.Registration(factory, _games(name, games, factory),
                                                  outside.origin_of(factory) + suffix, kind))


def _games(name: str, games: Any, factory: Any) -> tuple[str, ...] | None:
    """``games`` as registered: given, else the factory's ``games``, else ``None`` (all); checked."""
    from goat.games import GAMES

    games = getattr(factory, "games", None) if games is None else games
    if games is None:
        return None
    if isinstance(games, str) or not all(isinstance(g, str) for g in games):
        raise BotError(f"register_bot({name!r}): games is a list of game names such as ['kozel'], not {games!r}")
    unknown = [g for g in games if g not in GAMES]
    if unknown or not games:
        raise BotError(f"register_bot({name!r}): unknown game {unknown[0] if unknown else 'list []'} "
                       f"(games: {', '.join(GAMES)})")
    return tuple(games)


def _register(name: str, factory: Any, registration: outside.Registration) -> None:
    """Put an outside bot in the tables of its games (the one registry)."""
    key = name.strip().lower() if isinstance(name, str) else ""
    if not outside.NAME.match(key):
        raise BotError(f"register_bot({name!r}): a bot name is lower-case letters, digits, '_', '.' and '-' "
                       "(it is written in specs such as name:key=value)")
    if not callable(factory):
        raise BotError(f"register_bot({name!r}): the factory must be callable (a class or a function of a seed), "
                       f"not {factory!r}")
    _game_bots("kozel")  # the entry points' names are known before a clash is judged
    if _builtin(key):
        raise BotError(f"register_bot({name!r}): {key!r} is a built-in bot; give yours another name")
    declared = outside.pending_entry_point(key) or outside.broken(key)
    earlier = outside.REGISTERED.get(key)
    if registration.kind != "entry point" and (declared or (earlier and earlier.kind == "entry point")):
        raise BotError(f"register_bot({name!r}): the name is taken by "
                       f"{declared or earlier.origin}; give yours another name")  # type: ignore[union-attr]
    if earlier is not None:
        unregister_bot(key)
    for table in _tables(registration.games):
        table[key] = factory
    outside.REGISTERED[key] = registration


def unregister_bot(name: str) -> None:
    """Take the outside bot ``name`` out of the registry (a test's clean-up, a
    notebook's change of mind); a built-in or unknown name is a :class:`BotError`."""
    key = name.strip().lower()
    if key not in outside.REGISTERED:
        raise BotError(f"unregister_bot({name!r}): no outside bot has that name")
    for table in _tables():
        table.pop(key, None)
    del outside.REGISTERED[key]


def load_bot_module(spec: str) -> None:
    """Import a bot module (a module name or a ``.py`` file) for the
    :func:`register_bot` calls it makes; the tournament's worker processes
    import it too. See :func:`goat.bots.outside.load_bot_module`."""
    outside.load_bot_module(spec)


def load_bot_modules(specs: Sequence[str]) -> None:
    """:func:`load_bot_module` each of ``specs`` in turn (``--bot-module``'s,
    ``run_tournament``'s ``bot_modules``): their bots can then be named in a
    bot list; a module that fails is one line (:class:`BotError`)."""
    for spec in specs:
        load_bot_module(spec)


def outside_bots() -> dict[str, str]:
    """The outside bots known now (entry points once looked up), each with where it comes from."""
    return {name: reg.origin for name, reg in outside.REGISTERED.items()}


def _available(factory: Callable[..., Bot]) -> bool:
    """False for a bot whose optional dependency is missing here (its ``available()``)."""
    check = getattr(factory, "available", None)
    return check is None or bool(check())


def bots_for(game: str) -> list[str]:
    """The names of the bots that play ``game`` (a bot's ``games``; ``None``: all)
    and can be made here (a bot without its optional dependency, such as Spades'
    ``pimc`` without DDS, is left out rather than offered and then refused)."""
    table = _game_bots(game)
    outside.load_entry_points(_register)
    return [name for name, factory in table.items()
            if (getattr(factory, "games", None) is None or game in factory.games) and _available(factory)]


def view_bots(game: str = "kozel") -> list[str]:
    """The bots of :func:`bots_for` that play from their seat's view alone: all
    but those that see the whole state (``perfect``), which neither a table with
    people nor an RL environment may seat."""
    table = _game_bots(game)
    return [name for name in bots_for(game) if not getattr(table[name], "sees_everything", False)]


def default_bot(game: str = "kozel", preferred: str = "heuristic") -> str:
    """The bot that fills a seat of ``game`` when none is named (the Gymnasium
    environment's opponents, the table server's empty seats): ``preferred`` if
    it plays ``game``, else the game's first bot that is not ``random``
    (Yu-Gi-Oh!'s ``greedy``), else its first. Never a bot that sees the whole
    state (``perfect``): a filler plays from its seat's view; never an outside
    bot either, which nobody asked for."""
    names = [name for name in view_bots(game) if name not in outside.REGISTERED]
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
    return "time_limit" in _parameters(bot_factory(name, game))


def _parameters(factory: Callable[..., Bot] | None) -> Mapping[str, inspect.Parameter]:
    """The factory's parameters (none for ``None`` or one without a signature)."""
    try:
        return inspect.signature(factory).parameters if factory is not None else {}
    except (TypeError, ValueError):
        return {}


def make_bot(name: str, seed: int | str | None = None, game: str = "kozel", **settings: Any) -> Bot:
    """A new bot by registry name with optional strength/budget ``settings``
    (e.g. ``make_bot("ismcts", 1, iterations=100)``), for ``game`` (Kozel's by
    default; ``make_bot("greedy", 1, game="yugioh")``); raises :class:`BotError`
    (one line) if the name or a setting is unknown."""
    factory = bot_factory(name, game)
    registration = outside.REGISTERED.get(name.strip().lower()) if isinstance(name, str) else None
    if factory is None and registration is None:
        # the bots that play this game here: Kozel's "perfect" is no help to a Spades player
        raise BotError(f"unknown bot {name!r} (known: {', '.join(bots_for(game))})")
    games = registration.games if factory is None and registration else getattr(factory, "games", None)
    if factory is None or (games is not None and game not in games):
        raise BotError(f"bot {name!r} does not play {game} (bots for {game}: {', '.join(bots_for(game))})")
    if registration is not None:
        return _make_outside(name, factory, registration, _seed(seed), settings)
    try:
        return factory(_seed(seed), **settings)
    except TypeError:
        raise BotError(f"bot {name!r} does not take the settings {', '.join(sorted(settings))}") from None


def _make_outside(name: str, factory: Callable[..., Bot], registration: outside.Registration, seed: Any,
                  settings: dict[str, Any]) -> Bot:
    """An outside bot, with the same contract as the project's (``factory(seed,
    **settings)``); a setting it does not take, or any error of its factory, is
    one line naming where the bot comes from."""
    try:
        signature = inspect.signature(factory)
    except ValueError:
        signature = None  # no signature to check: the call says
    if signature is not None:
        try:
            signature.bind(seed)
        except TypeError:   # a BaseBot subclass without __init__: no setting is to blame
            raise BotError(f"{registration.origin} does not take the seed: a bot's factory is called as "
                           "factory(seed, **settings) (docs/bots.md)") from None
        try:
            signature.bind(seed, **settings)
        except TypeError:
            raise BotError(f"bot {name!r} does not take the settings {', '.join(sorted(settings))}") from None
    outside.check_setting_types(name, factory, settings)
    try:
        return factory(seed, **settings)
    except Exception as exc:  # the researcher's code: any error, one line
        raise BotError(f"{registration.origin} failed to start: {outside.one_line(exc)}") from None


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


__all__ = ["BOTS", "GAME_BOTS", "BaseBot", "Bot", "BotError", "ISMCTSBot", "RandomBot", "SpadesPIMCBot",
           "asked_before_turn", "bot_factory", "bots_for", "default_bot", "load_bot_module", "load_bot_modules",
           "make_bot", "next_bot_action", "out_of_turn_claim", "outside_bots", "play_bots", "register_bot",
           "unregister_bot", "view_bots"]
