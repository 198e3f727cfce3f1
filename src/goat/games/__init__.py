"""Rules engines, one sub-package a game. They know nothing of bots, servers or files."""

from __future__ import annotations

from typing import Any

from goat.protocol import RulesError

GAMES = ("kozel", "spades", "yugioh")


def get_game(name: str) -> Any:
    """The game module registered under ``name`` (``"kozel"`` or ``"spades"``).

    A game module offers ``new_state(rules, options, players, first_dealer,
    single_deal)``, ``chance_from_json(state, obj)``, ``sample_world(view, rng)``,
    ``make_rules``, ``PRESETS`` and ``CHOICES`` (the allowed values of each
    enumerated option); and, where reading a view once pays,
    ``world_sampler(view)`` (see :func:`world_sampler`); and, where players may
    bring private input (Yu-Gi-Oh!'s own decks), ``seat_data_from_json(rules,
    options, obj)`` with ``new_state(..., seat_data=[...])`` (docs/protocol.md).
    """
    if name == "kozel":
        from goat.games import kozel

        return kozel
    if name == "spades":
        from goat.games import spades

        return spades
    if name == "yugioh":
        from goat.games import yugioh

        return yugioh
    raise RulesError(f"unknown game {name!r} (one of {', '.join(GAMES)})", "unknownGame", game=name, games=list(GAMES))


def is_glance(game: Any, action: Any) -> bool:
    """Whether ``action`` of ``game`` (a module from :func:`get_game`) only turns
    information over for its own seat and decides nothing (Spades' look at a
    face-down hand): records leave it out, and a clock timing its seat's decision
    keeps running through it. A game says so with an ``is_glance(action)``
    function; a game without one has no such action."""
    check = getattr(game, "is_glance", None)
    return bool(check is not None and check(action))


def _game_of_view(view: Any) -> Any:
    game = view.get("game") if isinstance(view, dict) else None
    return get_game(game if isinstance(game, str) else repr(game))


def sample_world(view: dict[str, Any], rng: Any) -> Any:
    """A complete state consistent with one seat's ``view`` (its game's
    ``sample_world``; OpenSpiel's ``ResampleFromInfostate``). Search bots call
    this so that they need only the protocol and never the real state."""
    return _game_of_view(view).sample_world(view, rng)


def world_sampler(view: dict[str, Any]) -> Any:
    """A :class:`~goat.games.worlds.WorldSampler` for one seat's ``view``:
    ``world_sampler(view).sample(rng)`` gives exactly ``sample_world(view, rng)``
    (the same world, the same use of ``rng``), but the view is read once for
    any number of worlds — what a search bot wants, drawing many per decision.
    Kozel and Yu-Gi-Oh! have reusable samplers; other games call their ``sample_world``."""
    game = _game_of_view(view)
    make = getattr(game, "world_sampler", None)
    if make is not None:
        return make(view)
    from goat.games.worlds import OneShotSampler

    return OneShotSampler(view, game.sample_world)
