"""The bot interface: a bot sees one seat's view, never the game state.

A bot is handed the JSON-able dict from ``state.view(seat)`` — the one view
function of :mod:`goat.protocol` — so it knows exactly what a player at that
seat knows (own hand, face-up cards, the seat's ``legal_actions`` as strings)
and nothing more. It answers with an :class:`~goat.protocol.Action`.

Two questions are put to a bot:

* :meth:`Bot.choose` — it is this seat's turn; pick one of ``legal_actions``.
* :meth:`Bot.out_of_turn` — another seat is to act, but this seat may act too
  (street Kozel's molodka, a Spades look at a face-down hand); return an action
  or ``None`` to stay silent. A molodka is asked for only from seats whose claim
  would rank before the seat to act's (:func:`asked_before_turn`).

The drivers below (:func:`next_bot_action`, :func:`play_bots`) are the one
place that turns a state into views and bot answers, shared by the CLI, tests
and later tournaments. They know games only through the protocol (plus the
optional ``molodka_priority`` a state may offer to order simultaneous claims).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from goat.protocol import Action, GameState, GoatError, IllegalActionError, play_out

View = Mapping[str, Any]


class BotError(GoatError):
    """A bot was asked for something it cannot do (unknown name, no legal move)."""


@runtime_checkable
class Bot(Protocol):
    """What every bot offers. ``name`` is shown in the CLI and in tournament tables.

    A bot whose factory takes a ``stand_in`` setting knows that, when it is true,
    it plays for a person who is away (the table server's dropped players and
    run-out clocks) and then takes no gamble only that person should choose (a
    Spades blind bid, made without looking at the hand); other bots play as
    they always do.
    """

    name: str

    def choose(self, view: View) -> Action:
        """The action to take on this seat's turn (one of ``view["legal_actions"]``)."""
        ...

    def out_of_turn(self, view: View) -> Action | None:
        """An action to take although another seat is to act, or ``None``."""
        ...


def legal_actions(view: View) -> list[Action]:
    """The seat's legal actions from its view, parsed."""
    return [Action.parse(text) for text in view.get("legal_actions", ())]


def required_actions(view: View) -> list[Action]:
    """:func:`legal_actions` for a bot that must act: :class:`BotError` if there are none."""
    actions = legal_actions(view)
    if not actions:
        raise BotError(f"seat {view.get('seat')} has no legal action")
    return actions


def check_time_limit(bot: str, time_limit: Any) -> float | None:
    """A search bot's ``time_limit`` setting: ``None`` or seconds > 0 (else a one-line
    :class:`BotError` naming ``bot``)."""
    if time_limit is None:
        return None
    if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)) or not time_limit > 0:
        raise BotError(f"{bot}: time_limit must be a positive number of seconds, not {time_limit!r}")
    return float(time_limit)


def within_budget(count: int, time_limit: float | None) -> Iterator[int]:
    """``0, 1, ... count - 1``, stopping early once ``time_limit`` seconds have
    passed since the first (which is always given: a search bot needs one sample
    to choose at all). Without a time limit a bot stays deterministic for a seed.
    (``pimc`` keeps a time limit itself, within a world too: one world can take
    longer than the limit; see :mod:`goat.bots.pimc`.)"""
    deadline = time.perf_counter() + time_limit if time_limit else None
    for i in range(count):
        if deadline is not None and i and time.perf_counter() > deadline:
            return
        yield i


def sampled_worlds(sampler: Any, rng: random.Random, count: int, time_limit: float | None) -> Iterator[Any]:
    """Worlds from ``sampler`` (``sample(rng)``), one per step of
    :func:`within_budget`. A draw that finds no world (``WorldSamplingError``:
    every attempt failed, which a very tight view can still cause) is skipped
    instead of ending the decision — the other worlds still inform it; a search
    bot whose every draw failed falls back to a plain policy. A view the sampler
    cannot read at all fails when the sampler is made, as before."""
    from goat.games.worlds import WorldSamplingError

    for _ in within_budget(count, time_limit):
        try:
            world = sampler.sample(rng)
        except WorldSamplingError:
            continue
        yield world


class BaseBot:
    """Convenience base: never acts out of turn unless a subclass says so."""

    name = "bot"
    #: The games this bot really plays (``None``: every game of the protocol). A
    #: bot may still answer other games' views through a fallback, but a lobby
    #: should not offer it there as what it is not.
    games: tuple[str, ...] | None = None

    def choose(self, view: View) -> Action:  # pragma: no cover - abstract
        raise NotImplementedError

    def out_of_turn(self, view: View) -> Action | None:
        return None

    def prepare(self, view: View) -> None:
        """Get ready before the first decision of a game whose seat sees ``view``
        (e.g. load a compiled kernel), so that decision is not the one that waits."""


def prepare_bots(bots: Sequence[Bot | None], view_of: Callable[[int], View]) -> None:
    """Call the optional ``prepare(view)`` hook of every bot (``None``: a human seat)."""
    for seat, bot in enumerate(bots):
        hook = getattr(bot, "prepare", None)
        if hook is not None:
            hook(view_of(seat))


def asked_before_turn(state: GameState, seats: Iterable[int]) -> list[int]:
    """Of ``seats`` (others than the seat to act, able to act out of turn), those
    asked before the seat to act moves, in the order their claims rank.

    Under the state's ``molodka_priority`` (street Kozel) the seat to act declares
    its own molodka by its move, and a claim made at the same moment by a seat
    that ranks after it would lose to it: only the seats ranking *before* it are
    asked now; the others are asked at a later position (the seat to act's card
    goes back to its hand if one of them then declares, so waiting costs them
    nothing). Before any restart the seat to act is the nearest seat that has not
    played, so no one is asked; after a molodka the original leader's side of the
    table is. Without ``molodka_priority`` (a Spades look) every seat is asked, in
    the order given."""
    seats = list(dict.fromkeys(seats))
    priority = getattr(state, "molodka_priority", None)
    if priority is None or not seats:
        return seats
    current = state.current_player()
    order = priority([*seats, current])
    return order[:order.index(current)]


def out_of_turn_claim(state: GameState, bots: Sequence[Bot | None]) -> Action | None:
    """Ask every bot that may act out of turn now; return the claim that goes first.

    Only the seats of :func:`asked_before_turn` are asked, and seats whose entry
    in ``bots`` is ``None`` (a human) are not. When several bots claim at once,
    the state's ``molodka_priority`` (if any) orders them, otherwise the order
    of ``state.legal_actions()``.
    """
    if state.is_chance_node() or state.is_terminal():
        return None
    current = state.current_player()
    actions = state.legal_actions()
    seats = asked_before_turn(state, (a.seat for a in actions if a.seat != current))
    claims: dict[int, Action] = {}
    for seat in seats:
        bot = bots[seat]
        if bot is None:
            continue
        action = bot.out_of_turn(state.view(seat))
        if action is not None:
            claims[seat] = checked_answer(bot, state, seat, action, "out_of_turn()")
    if not claims:
        return None
    priority = getattr(state, "molodka_priority", None)
    order = priority(list(claims)) if priority is not None else list(claims)
    return claims[order[0]]


def next_bot_action(state: GameState, bots: Sequence[Bot | None]) -> Action:
    """The next action when the seat to act is a bot: an out-of-turn claim by a
    bot that ranks before it (:func:`asked_before_turn`) first, else the current
    bot's choice (a molodka of its own among them). Does not apply it."""
    claim = out_of_turn_claim(state, bots)
    if claim is not None:
        return claim
    seat = state.current_player()
    bot = bots[seat]
    if bot is None:
        raise BotError(f"seat {seat} is not a bot")
    return bot_choice(bot, state, seat)


def bot_choice(bot: Bot, state: GameState, seat: int) -> Action:
    """``bot``'s choice on ``seat``'s turn, from the seat's view, checked
    (:func:`checked_answer`). Does not apply it."""
    view = state.view(seat)
    if not view.get("legal_actions"):
        raise BotError(f"seat {seat} has no legal action")
    if getattr(bot, "sees_everything", False):
        # The declared exception: a perfect-information bot (the upper bound of a
        # tournament table) gets a copy of the true state besides the view.
        return checked_answer(bot, state, seat, bot.choose_with_state(state.clone(), view), "choose_with_state()")
    return checked_answer(bot, state, seat, bot.choose(view))


class BotMoveError(BotError):
    """A bot's answer that is not one of its seat's legal actions (text instead of
    an action, another seat's move, a card it does not hold). The engine would
    refuse it with a message that names no bot; a driver that knows which bot
    answered says so, as it does for a bot that raises (``bot``: its name)."""

    def __init__(self, bot: str, message: str) -> None:
        super().__init__(message)
        self.bot = bot


def bot_name(bot: Any) -> str:
    """The name a message gives ``bot``: its ``name``, else its class's."""
    return str(getattr(bot, "name", None) or type(bot).__name__)


def checked_answer(bot: Any, state: GameState, seat: int, answer: Any, call: str = "choose()") -> Action:
    """``answer`` — what ``bot`` at ``seat`` returned from ``call`` — if it is one
    of the state's legal actions *for that seat*, else :class:`BotMoveError`.

    Every driver goes through here (the terminal, tournaments, the table
    server), for turns and out-of-turn claims alike: a claim is legal for
    several seats at once, so the engine alone would take a bot's claim made in
    another seat's name, and a researcher's bot answering text or a card it
    does not hold would otherwise stop the game with the engine's refusal,
    naming no bot."""
    legal = state.legal_actions()
    if answer in legal and getattr(answer, "seat", None) == seat:
        return answer
    kind = type(legal[0]) if legal else Action
    if type(answer) is not kind:
        how = ("Action.parse(text)" if kind is Action      # the games' own parser (a duel's actions are another class)
               else "goat.games.get_game(view['game']).parse_action(text)")
        raise BotMoveError(bot_name(bot), f"{call} returned {answer!r} ({type(answer).__name__}), "
                                          f"not {'an' if kind.__name__[0] in 'AEIOU' else 'a'} {kind.__name__}: "
                                          f"return {how} of one of view['legal_actions']")
    try:
        state.check_action(answer)
    except IllegalActionError as exc:
        raise BotMoveError(bot_name(bot), f"{call} returned an illegal action: {exc}") from None
    raise BotMoveError(bot_name(bot), f"{call} returned a move of seat {answer.seat}, not of its own seat {seat}: "
                                      f'"{answer}"')


def play_bots(state: GameState, bots: Sequence[Bot], rng: random.Random,
              max_steps: int = 100_000) -> GameState:
    """Play ``state`` to the end with ``bots`` (one per seat); chance from ``rng``."""
    return play_out(state, lambda s: next_bot_action(s, bots), rng, max_steps)
