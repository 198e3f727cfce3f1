"""A seat's visible deal history, consumed incrementally, for the fast encoders.

The reference encoders replay ``view["history"]`` — every action text of the
deal as the seat sees it — from scratch at every step, which makes a step cost
grow with the deal. The fast encoders (:mod:`goat.envs.encoders.kozel_state`,
:mod:`goat.envs.encoders.spades_state`) keep, per seat, the replay so far and
feed it only the actions logged since the previous step.

What a seat sees of a logged action follows the trick games' one hiding rule
(:func:`goat.games.tricks.views.visible_history`): its cards if the action is
public, or the seat is among those allowed and the action is not a give still
pending from another seat; otherwise nothing but the seat and the verb. The
pending set can change what a seat sees of *earlier* actions (gives are
revealed when the exchange completes), so a replay is reused only while the
deal's log and the pending set are the ones it was built under; otherwise it
is rebuilt from the start of the deal.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any, Generic, Protocol, TypeVar

from goat.protocol import Action


class Replay(Protocol):
    """A replay of one seat's visible history, fed one action at a time."""

    def feed(self, seat: int, verb: str, visible: tuple[int, ...]) -> None:
        """One logged action: its seat, verb and the card tokens the observer sees
        (empty when the cards are hidden, or when the action has none)."""
        ...


R = TypeVar("R", bound=Replay)


class SeatHistories(Generic[R]):
    """Per seat, the replay of the current deal's log so far (see the module docstring)."""

    def __init__(self, new_replay: Callable[[int], R], card_index: dict[Any, int]) -> None:
        self._new = new_replay
        self._index = card_index
        #: seat -> (log, pending key, actions consumed, replay)
        self._cache: dict[int, tuple[dict[str, Any] | None, Hashable, int, R]] = {}
        #: the card tokens of each action of one log, shared by the seats: (log, tokens)
        self._tokens: tuple[dict[str, Any] | None, list[tuple[int, ...]]] = (None, [])

    def __getstate__(self) -> dict[str, Any]:
        """Copies and pickles (OpenSpiel serializes states) start without replays."""
        return {"_new": self._new, "_index": self._index, "_cache": {}, "_tokens": (None, [])}

    def forget(self, seat: int) -> None:
        """Drop ``seat``'s replay: the next :meth:`replay` rebuilds it."""
        self._cache.pop(seat, None)

    def replay(self, logs: Sequence[dict[str, Any]], seat: int, pending: frozenset[int]) -> R:
        """The replay of ``seat`` over the last deal's log in ``logs`` (the
        engine's list of deal logs, each ``{"actions": [...], "private": [...]}``),
        with ``pending`` the givers whose gives are still hidden from others."""
        log = logs[-1] if logs else None
        cached = self._cache.get(seat)
        if cached is not None and cached[0] is log and cached[1] == pending \
                and (log is None or cached[2] <= len(log["actions"])):
            _, _, done, replay = cached
        else:
            done, replay = 0, self._new(seat)
        if log is not None:
            actions: list[Action] = log["actions"]
            if done < len(actions):
                private = log["private"]
                tokens = self._card_tokens(log)
                for i in range(done, len(actions)):
                    action, allowed = actions[i], private[i]
                    if allowed is None or (seat in allowed and not (action.seat in pending and action.seat != seat)):
                        replay.feed(action.seat, action.verb, tokens[i])
                    else:
                        replay.feed(action.seat, action.verb, ())
                done = len(actions)
        self._cache[seat] = (log, pending, done, replay)
        return replay

    def _card_tokens(self, log: dict[str, Any]) -> list[tuple[int, ...]]:
        """The card tokens of every action in ``log`` (computed once for all seats)."""
        cached_log, tokens = self._tokens
        if cached_log is not log or len(tokens) > len(log["actions"]):
            tokens = []
            self._tokens = (log, tokens)
        index = self._index
        actions = log["actions"]
        for i in range(len(tokens), len(actions)):
            tokens.append(tuple(index[c] for c in actions[i].cards))
        return tokens
