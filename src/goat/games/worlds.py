"""What every game's world sampling shares: its error, the retry loop, the
reusable sampler and the ruleset cache.

A game samples a world by *attempts*: an attempt deals the unseen cards at
random and replays the view's history, and gives up (:class:`Retry`) as soon as
the deal contradicts it (a void shown, a card seen). :class:`RetrySampler`
reads a view once and then runs attempts until one succeeds, as many worlds as
asked for — a search bot draws a hundred worlds from one view per decision, so
reading it once per world was most of the cost. A view that is not the game's
becomes one :class:`WorldSamplingError` line instead of a stray ``KeyError``.
:func:`sample_with_retries` is the one-shot form (read the view, draw one world).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from functools import lru_cache
from typing import Any, Generic, Protocol, TypeVar

from goat.protocol import GoatError

S_co = TypeVar("S_co", covariant=True)
S = TypeVar("S")

#: What a malformed view raises while it is read (reported as one line).
VIEW_ERRORS = (KeyError, TypeError, ValueError, IndexError, AttributeError)


class WorldSamplingError(GoatError):
    """No state consistent with the view was found, or the view is not the game's."""


class Retry(Exception):
    """This attempt painted itself into a corner; draw again."""


class Attempts(Protocol[S_co]):
    seat: int

    def attempt(self, rng: random.Random) -> S_co: ...


class WorldSampler(Protocol[S_co]):
    """Draws any number of worlds consistent with one seat's view (read once).

    ``sample(rng)`` must give exactly the world the game's one-shot
    ``sample_world(view, rng)`` gives for the same ``rng`` state, and leave
    ``rng`` in the same state, so a bot may use either.
    """

    def sample(self, rng: random.Random) -> S_co: ...


class RetrySampler(Generic[S]):
    """A :class:`WorldSampler` built from a view-reading step (:meth:`_read`,
    once) and a random attempt (:meth:`attempt`, until one does not raise
    :class:`Retry`, at most ``max_tries`` times a world)."""

    #: The game's name in error messages.
    game = "game"
    seat: int

    def __init__(self, view: dict[str, Any], max_tries: int = 200) -> None:
        if not isinstance(max_tries, int) or max_tries < 1:
            raise WorldSamplingError(f"max_tries must be a whole number >= 1, not {max_tries!r}")
        self.max_tries = max_tries
        try:
            self._read(view)
        except VIEW_ERRORS as exc:
            raise self._unusable(exc) from exc

    def _read(self, view: dict[str, Any]) -> None:
        raise NotImplementedError

    def attempt(self, rng: random.Random) -> S:
        raise NotImplementedError

    def sample(self, rng: random.Random) -> S:
        """The first successful attempt of ``max_tries``; raises
        :class:`WorldSamplingError` when every attempt fails."""
        try:
            for _ in range(self.max_tries):
                try:
                    return self.attempt(rng)
                except Retry:
                    continue
        except VIEW_ERRORS as exc:
            raise self._unusable(exc) from exc
        raise WorldSamplingError(
            f"no world consistent with seat {self.seat}'s view found in {self.max_tries} tries")

    def _unusable(self, exc: Exception) -> WorldSamplingError:
        return WorldSamplingError(f"not a usable {self.game} view ({type(exc).__name__}: {exc})")


class _ContextSampler(RetrySampler[S]):
    """A :class:`RetrySampler` over a game's context class (``context(view)``
    reads the view, ``.attempt(rng)`` draws)."""

    def __init__(self, context: Callable[[dict[str, Any]], Attempts[S]], view: dict[str, Any],
                 max_tries: int, game: str) -> None:
        self._context = context
        self.game = game
        super().__init__(view, max_tries)

    def _read(self, view: dict[str, Any]) -> None:
        self._ctx = self._context(view)
        self.seat = self._ctx.seat

    def attempt(self, rng: random.Random) -> S:
        return self._ctx.attempt(rng)


def sample_with_retries(context: Callable[[dict[str, Any]], Attempts[S_co]], view: dict[str, Any],
                        rng: random.Random, max_tries: int, game: str) -> S_co:
    """The first successful ``context(view).attempt(rng)`` of ``max_tries``.

    Raises :class:`WorldSamplingError` for a view of another shape (naming
    ``game``) or when every attempt fails.
    """
    return _ContextSampler(context, view, max_tries, game).sample(rng)


class OneShotSampler(Generic[S]):
    """The :class:`WorldSampler` of a game without a reusable one: every
    ``sample`` calls the game's ``sample_world`` on a fresh copy of the view."""

    def __init__(self, view: dict[str, Any], sample_world: Callable[[dict[str, Any], random.Random], S]) -> None:
        self.view = view
        self._sample_world = sample_world

    def sample(self, rng: random.Random) -> S:
        return self._sample_world(dict(self.view), rng)


def rules_of_view(make_rules: Callable[..., Any], view: dict[str, Any]) -> Any:
    """The ruleset a view names (``view["rules"]`` + ``view["options"]``), built
    once per distinct ruleset: search bots sample thousands of worlds per move."""
    return _cached_rules(make_rules, view["rules"], json.dumps(view["options"], sort_keys=True))


@lru_cache(maxsize=128)
def _cached_rules(make_rules: Callable[..., Any], preset: str, options_json: str) -> Any:
    return make_rules(preset, options=json.loads(options_json))
