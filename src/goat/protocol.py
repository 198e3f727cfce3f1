"""The game protocol every Goat game implements.

The names follow OpenSpiel where they fit, so that an algorithm written for one
game runs on all of them:

* :meth:`GameState.current_player` — the seat to act, :data:`CHANCE` when the
  next event is random (a shuffle and deal), or :data:`TERMINAL`.
* :meth:`GameState.legal_actions` / :meth:`GameState.is_legal` /
  :meth:`GameState.check_action` / :meth:`GameState.apply_action` — checking is
  separate from applying; an illegal action raises :class:`IllegalActionError`
  and leaves the state exactly as it was.
* :meth:`GameState.sample_chance` / :meth:`GameState.apply_chance` — chance
  events are explicit values drawn from a seeded :class:`random.Random`, so a
  game is deterministic from its seed and every deal can be written to a record.
* :meth:`GameState.view` — *the* one function that says what a seat (or a
  spectator, ``seat=None``) may know. The CLI, bots, records, envs and the server
  use it and nothing else; :meth:`GameState.information_state_string` is its
  canonical text.
* :meth:`GameState.is_terminal`, :meth:`GameState.returns`,
  :meth:`GameState.clone`.

Actions are small immutable values with a text form that round-trips, like
python-chess's ``Move``:

>>> a = Action.parse("1 play KH+AH")
>>> a.seat, a.verb, [str(c) for c in a.cards]
(1, 'play', ['KH', 'AH'])
>>> str(a)
'1 play KH+AH'
>>> str(Action.parse("3 bid nil"))
'3 bid nil'
"""

from __future__ import annotations

import json
import numbers
import operator
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from goat.cards import Card, CardSyntaxError, format_cards, parse_cards

#: ``current_player()`` value when the next event is a chance event (a deal).
CHANCE = -1
#: ``current_player()`` value when the game is over.
TERMINAL = -4

#: Verbs an action may carry, across all games (see ``shared/spec/records.md``).
VERBS = ("play", "pass", "molodka", "give", "bid")


class GoatError(Exception):
    """Base of every error Goat raises on purpose for bad input.

    Its message is always one line meant for a user.
    """


def check_seat(seat: Any, players: int) -> int | None:
    """The one check of a ``view`` / ``information_state_string`` seat: ``None``
    (a spectator) or a seat number ``0..players-1``, returned as a plain ``int``
    (a numpy integer would not go into the view's JSON). Anything else — a seat
    out of range, ``-1`` (which would index the last seat's hand), text — is a
    one-line :class:`GoatError`."""
    if seat is None:
        return None
    if not isinstance(seat, numbers.Integral) or isinstance(seat, bool) or not 0 <= seat < players:
        raise GoatError(f"there is no seat {seat!r} (seats 0..{players - 1}, or None for a spectator)")
    return int(seat)


def results_copy(results: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Finished deals' (or duels') results for a view or a ``result()``: new
    dicts *and* new lists inside them (Kozel's ``penalty``, Spades' ``score``,
    Yu-Gi-Oh!'s ``lp``). A view is handed to bots and outside code; a copy of
    the dicts alone kept the state's own ``penalty``/``score`` lists in it, so a
    bot that changed its view (``view["deal_results"][0]["penalty"][0] += 6``)
    changed the match itself — the penalty the next deal starts from, the record."""
    return [{key: list(value) if isinstance(value, list) else value for key, value in result.items()}
            for result in results]


class ActionSyntaxError(GoatError):
    """A piece of text is not an action ``"<seat> <verb> <cards>"``.

    ``text`` is the offending input and ``detail`` says what is wrong with it, so
    callers that already show the text (``goat replay``) can print just the detail.
    """

    def __init__(self, text: object, detail: str) -> None:
        self.text = text
        self.detail = detail
        shown = json.dumps(text, ensure_ascii=False) if isinstance(text, str) else repr(text)
        super().__init__(f"not an action: {shown} ({detail})")  # quoted: stays one line


class IllegalActionError(GoatError):
    """An action that the rules do not allow in the current state.

    Attributes:
        seat: the seat named by the action.
        action: the refused action.
        rule: a short stable name of the rule it breaks (e.g. ``"follow-suit"``),
            for programs; the message is for people.
        reason: the one-line explanation, naming the seat, e.g.
            ``"seat 2 must follow hearts (holds 9H)"``.
    """

    def __init__(self, action: Action | None, rule: str, reason: str) -> None:
        self.action = action
        self.seat = action.seat if action is not None else None
        self.rule = rule
        self.reason = reason
        prefix = f'"{action}": ' if action is not None else ""
        super().__init__(f"{prefix}{reason} [{rule}]")


class InvalidChanceError(GoatError):
    """A chance outcome (e.g. a deal read from a record) that is not possible."""


class RulesError(GoatError):
    """An unknown ruleset or option, or an option value out of range.

    The message is the English line (the CLI's, a record's, a program's).
    ``kind`` names the same reason for a page to word in its reader's language
    (``rulesErrors.<kind>`` in the browser's strings) with ``args``: option
    names as the engine spells them (the page shows them as its form labels
    them), values as JSON (anything else as its ``repr``), bounds, lists.
    ``None`` where nothing but a program can meet it. Deck refusals name their
    kinds the same way (``goat.games.yugioh.deck.DeckProblem``)."""

    def __init__(self, message: str, kind: str | None = None, **args: Any) -> None:
        super().__init__(message)
        self.kind = kind
        self.say_args = {name: _json_arg(value) for name, value in args.items()}


def _json_arg(value: Any) -> Any:
    """``value`` as JSON can carry it: a scalar or a list of scalars as it is,
    anything else (a dict given as an option value) as its ``repr``."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)) and all(v is None or isinstance(v, (bool, int, float, str)) for v in value):
        return list(value)
    return repr(value)


@dataclass(frozen=True, slots=True)
class Action:
    """One move by one seat: ``"<seat> <verb> <cards>"`` (or ``"<seat> bid <bid>"``)."""

    seat: int
    verb: str
    cards: tuple[Card, ...] = ()
    bid: str | None = None

    @classmethod
    def parse(cls, text: str) -> Action:
        """Parse the record notation; raises :class:`ActionSyntaxError`."""
        if not isinstance(text, str):
            raise ActionSyntaxError(text, "an action must be a string")
        parts = text.split()
        if len(parts) > 3:   # "0 play QS QS": the form is there, the cards are not one word
            raise ActionSyntaxError(text, 'expected "<seat> <verb> <cards>", several cards joined by "+" '
                                          '(e.g. "1 play KH+AH"), no spaces inside a part')
        if len(parts) != 3:
            raise ActionSyntaxError(text, 'expected "<seat> <verb> <cards>"')
        seat_text, verb, rest = parts
        if not (seat_text.isascii() and seat_text.isdigit()):  # "²" is a digit int() does not read
            raise ActionSyntaxError(text, "seat must be a number")
        verb = verb.lower()
        if verb not in VERBS:
            raise ActionSyntaxError(text, f'unknown verb {verb!r}; one of {", ".join(VERBS)}')
        if verb == "bid":
            return cls(int(seat_text), verb, (), rest.lower())
        try:
            cards = parse_cards(rest)
        except CardSyntaxError as exc:
            raise ActionSyntaxError(text, str(exc)) from None
        return cls(int(seat_text), verb, cards)

    def __str__(self) -> str:
        tail = self.bid if self.verb == "bid" else format_cards(self.cards)
        return f"{self.seat} {self.verb} {tail}"


@runtime_checkable
class GameState(Protocol):
    """What every game's state offers. See the module docstring."""

    num_players: int

    def current_player(self) -> int: ...

    def is_chance_node(self) -> bool: ...

    def is_terminal(self) -> bool: ...

    def legal_actions(self) -> list[Action]: ...

    def is_legal(self, action: Action) -> bool: ...

    def check_action(self, action: Action) -> None: ...

    def apply_action(self, action: Action) -> None: ...

    def sample_chance(self, rng: random.Random) -> Any: ...

    def apply_chance(self, outcome: Any) -> None: ...

    def view(self, seat: int | None) -> dict[str, Any]: ...

    def information_state_string(self, seat: int | None) -> str: ...

    def returns(self) -> list[float]: ...

    def clone(self) -> GameState: ...


def require_action(action: Any) -> None:
    """Refuse anything but an :class:`Action` in one line; text gets a hint
    (``apply_action("0 play 9D")`` is a natural first try)."""
    if not isinstance(action, Action):
        hint = f": pass Action.parse({action!r})" if isinstance(action, str) else ""
        raise IllegalActionError(None, "syntax", f"not an Action: {action!r}{hint}")


class CheckedActions:
    """``is_legal`` and ``check_action`` for a state whose ``_check(action)``
    raises :class:`IllegalActionError` (and changes nothing) for an action it
    refuses — checking kept apart from applying, as PokerKit's verify / can / do.
    (No stub of ``_check`` here: it would shadow one a later base class defines.)"""

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` is allowed now. Anything but an :class:`Action` raises
        as ``apply_action`` does (text gets the ``Action.parse`` hint): answering
        ``False`` would say that a legal play written as text is illegal."""
        require_action(action)
        try:
            self.check_action(action)
        except IllegalActionError:
            return False
        return True

    def check_action(self, action: Action) -> None:
        """Raise :class:`IllegalActionError` if ``action`` is not allowed now."""
        self._check(action)


def check_seed(seed: Any, limit: int | None = None, allowed: str = "", name: str = "seed") -> int:
    """``seed`` as a Python int (numpy integers too) from 0, and below ``limit``
    where one is given, else a one-line :class:`GoatError` whose wording names
    the range (``allowed``: what else the caller takes, e.g. ``" or None"``;
    ``name``: what the caller calls it, the commands' ``--seed``). The one seed
    check of the library and every command: ``random.Random`` seeds with an
    int's absolute value, so ``-3`` would replay ``3``'s game (Yu-Gi-Oh!
    records keep the seed and replay with ``random.Random(seed)``, so a
    negative one is refused rather than given a meaning); a seed kept as numpy
    ``uint64`` would wrap round onto another one's; and a fraction or a
    boolean is no seed at all.

    >>> check_seed(7), check_seed(2**64, limit=2**64)
    Traceback (most recent call last):
    ...
    goat.protocol.GoatError: seed must be a whole number from 0 to 2**64 - 1, not 18446744073709551616
    >>> check_seed(-7, name="--seed")
    Traceback (most recent call last):
    ...
    goat.protocol.GoatError: --seed must be a whole number >= 0, not -7
    """
    try:
        value = None if isinstance(seed, bool) else operator.index(seed)
    except TypeError:   # a fraction, text, a numpy boolean
        value = None
    if value is None or value < 0 or (limit is not None and value >= limit):
        wanted = "a whole number >= 0" if limit is None else f"a whole number from 0 to {_power_text(limit)} - 1"
        raise GoatError(f"{name} must be {wanted}{allowed}, not {seed!r}")
    return value


def _power_text(limit: int) -> str:
    """``2**64`` for a power of two (as the docs write the range), else the number."""
    bits = limit.bit_length() - 1
    return f"2**{bits}" if limit == 1 << bits else str(limit)


def check_rng(rng: Any) -> None:
    """A one-line :class:`GoatError` unless ``rng`` is a :class:`random.Random`
    (a subclass too): a seed given in its place (``play_randomly(state, 7)``) was an
    ``AttributeError`` from inside a shuffle. Every ``sample_chance`` asks this first."""
    if not isinstance(rng, random.Random):
        raise GoatError(f"rng must be a random.Random (random.Random(7) for the seed 7), not {rng!r}")


def play_out(state: GameState, choose: Callable[[GameState], Action], rng: random.Random,
             max_steps: int = 100_000) -> GameState:
    """Play ``state`` to the end: chance from ``rng``, every decision from ``choose``.
    A game still running after ``max_steps`` steps is a one-line :class:`GoatError`
    (a Spades match of random bids may never reach its target).

    The one game loop that random play, bots and tournaments share.
    """
    check_rng(rng)
    for _ in range(max_steps):
        if state.is_terminal():
            return state
        if state.is_chance_node():
            state.apply_chance(state.sample_chance(rng))
        else:
            state.apply_action(choose(state))
    raise GoatError(f"the game did not end within {max_steps} steps (random play may never end some "
                    "games: a Spades match ends for sure only with a max_deals option, e.g. "
                    "options={'max_deals': 10}, and options under which the scores stay level play on even then)")


def play_random_steps(state: GameState, rng: random.Random, steps: int,
                      until: Callable[[GameState], bool] | None = None) -> GameState:
    """Take up to ``steps`` random steps (a chance outcome or a uniformly random legal
    action each) in ``state``, stopping early at the end or where ``until`` holds:
    how tests reach a random position partway through a game (:func:`play_randomly`
    plays to the end)."""
    for _ in range(steps):
        if state.is_terminal() or (until is not None and until(state)):
            break
        if state.is_chance_node():
            state.apply_chance(state.sample_chance(rng))
        else:
            actions = state.legal_actions()
            state.apply_action(actions[rng.randrange(len(actions))])
    return state


def play_randomly(state: GameState, rng: random.Random, max_steps: int = 100_000) -> GameState:
    """Play ``state`` to the end with uniformly random legal actions and chance.

    The single code path for random play (tests, ``goat random-games``, bench):
    deterministic for a given ``rng`` seed.
    """
    def choose(s: GameState) -> Action:
        actions = s.legal_actions()
        return actions[rng.randrange(len(actions))]

    return play_out(state, choose, rng, max_steps)
