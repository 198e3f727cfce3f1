"""Dealing and reading deals: what every card game's chance outcome shares.

A deal goes one card at a time clockwise from the seat left of the dealer (both
Kozel and Spades say so), and a record's deal object is read with the same
one-line errors in every game: a list that is not card strings, a card the deck
does not use, a card dealt twice, a hand of the wrong size.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from goat.cards import Card, CardSyntaxError
from goat.games.tricks.core import clockwise, left_of
from goat.protocol import InvalidChanceError


def deal_in_turn(deck: Sequence[Card], dealer: int, players: int,
                 hand_size: int) -> tuple[list[list[Card]], list[Card]]:
    """Deal ``hand_size`` cards to each seat from the top of ``deck``, one at a
    time clockwise from the seat left of ``dealer`` (the dealer last); returns
    the hands (each in the order received) and the rest, top first.

    >>> hands, rest = deal_in_turn(list("abcdefg"), dealer=1, players=3, hand_size=2)
    >>> hands, rest
    ([['b', 'e'], ['c', 'f'], ['a', 'd']], ['g'])
    """
    hands: list[list[Card]] = [[] for _ in range(players)]
    position = 0
    order = clockwise(left_of(dealer, players), players)
    for _ in range(hand_size):
        for seat in order:
            hands[seat].append(deck[position])
            position += 1
    return hands, list(deck[position:])


def read_cards(value: Any, where: str) -> tuple[Card, ...]:
    """A record's list of card strings; raises :class:`InvalidChanceError` naming ``where``."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InvalidChanceError(f"{where} must be a list of card strings")
    try:
        return tuple(Card.parse(v) for v in value)
    except CardSyntaxError as exc:
        raise InvalidChanceError(f"{where}: {exc}") from None


def read_card(value: Any, where: str) -> Card:
    """A record's single card string (a deal's ``trump_card``); raises
    :class:`InvalidChanceError` naming ``where`` — not "a list of card strings",
    which a record holding ``"trump_card": 7`` was told."""
    if not isinstance(value, str):
        raise InvalidChanceError(f"{where} must be a card string such as \"AH\"")
    return read_cards([value], where)[0]


def no_trump_card(ruleset: str, suit: str) -> InvalidChanceError:
    """The one refusal of a deal's ``trump_card`` where the ruleset shows none:
    the records contract has it "only where the ruleset shows a card to fix the
    trump suit", and a card that fixes nothing would mislead a reader."""
    return InvalidChanceError(f"{ruleset} has the fixed trump suit {suit}: no trump_card is shown")


def read_hands(obj: Any, players: int) -> tuple[tuple[Card, ...], ...]:
    """The ``"hands"`` object of a record's deal: seat (as a string) → cards."""
    if not isinstance(obj, dict):
        raise InvalidChanceError("a deal must be a JSON object with hands")
    hands_obj = obj.get("hands")
    if not isinstance(hands_obj, dict):
        raise InvalidChanceError('"hands" must be an object mapping seats ("0", "1", ...) to card lists')
    expected_seats = {str(s) for s in range(players)}
    if set(hands_obj) != expected_seats:
        raise InvalidChanceError(
            f'"hands" must name seats {", ".join(sorted(expected_seats))} '
            f'(got {", ".join(sorted(map(str, hands_obj))) or "none"})'
        )
    return tuple(read_cards(hands_obj[str(s)], f"seat {s}'s hand") for s in range(players))


def check_dealt_cards(hands: Sequence[Sequence[Card]], stock: Sequence[Card], deck: Iterable[Card],
                      hand_size: int, ruleset: str) -> set[Card]:
    """Check hand sizes, deck membership and duplicates; returns the cards seen.

    Raises :class:`InvalidChanceError` with a one-line reason naming the seat.
    """
    deck_set = deck if isinstance(deck, (set, frozenset)) else set(deck)
    for seat, hand in enumerate(hands):
        if len(hand) != hand_size:
            raise InvalidChanceError(f"seat {seat} is dealt {len(hand)} cards; {ruleset} deals {hand_size}")
    # The usual case in one pass (every card hashed once); the loop below only
    # runs to name the first problem.
    dealt = [c for cards in (*hands, stock) for c in cards]
    seen: set[Card] = set(dealt)
    if len(seen) == len(dealt) and seen <= deck_set:
        return seen
    seen = set()
    for where, cards in [*((f"seat {s}'s hand", h) for s, h in enumerate(hands)), ("the stock", stock)]:
        for c in cards:
            if c not in deck_set:
                raise InvalidChanceError(f"card {c} in {where} is not in the {len(deck_set)}-card deck of {ruleset}")
            if c in seen:
                raise InvalidChanceError(f"card {c} is dealt twice (again in {where})")
            seen.add(c)
    return seen
