"""What every game's ``sample_world`` shares: its error, the retry loop and the
ruleset cache.

A game samples a world by *attempts*: an attempt deals the unseen cards at
random and replays the view's history, and gives up (:class:`Retry`) as soon as
the deal contradicts it (a void shown, a card seen). :func:`sample_with_retries`
runs attempts until one succeeds, and turns a view that is not the game's into
one :class:`WorldSamplingError` line instead of a stray ``KeyError``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from functools import lru_cache
from typing import Any, Protocol, TypeVar

from goat.protocol import GoatError

S_co = TypeVar("S_co", covariant=True)

#: What a malformed view raises while it is read (reported as one line).
VIEW_ERRORS = (KeyError, TypeError, ValueError, IndexError, AttributeError)


class WorldSamplingError(GoatError):
    """No state consistent with the view was found, or the view is not the game's."""


class Retry(Exception):
    """This attempt painted itself into a corner; draw again."""


class Attempts(Protocol[S_co]):
    seat: int

    def attempt(self, rng: random.Random) -> S_co: ...


def sample_with_retries(context: Callable[[dict[str, Any]], Attempts[S_co]], view: dict[str, Any],
                        rng: random.Random, max_tries: int, game: str) -> S_co:
    """The first successful ``context(view).attempt(rng)`` of ``max_tries``.

    Raises :class:`WorldSamplingError` for a view of another shape (naming
    ``game``) or when every attempt fails.
    """
    try:
        ctx = context(view)
        for _ in range(max_tries):
            try:
                return ctx.attempt(rng)
            except Retry:
                continue
    except VIEW_ERRORS as exc:
        raise WorldSamplingError(f"not a usable {game} view ({type(exc).__name__}: {exc})") from exc
    raise WorldSamplingError(f"no world consistent with seat {ctx.seat}'s view found in {max_tries} tries")


def rules_of_view(make_rules: Callable[..., Any], view: dict[str, Any]) -> Any:
    """The ruleset a view names (``view["rules"]`` + ``view["options"]``), built
    once per distinct ruleset: search bots sample thousands of worlds per move."""
    return _cached_rules(make_rules, view["rules"], json.dumps(view["options"], sort_keys=True))


@lru_cache(maxsize=128)
def _cached_rules(make_rules: Callable[..., Any], preset: str, options_json: str) -> Any:
    return make_rules(preset, options=json.loads(options_json))
