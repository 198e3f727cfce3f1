"""Seats, draws and follow rules shared by the trick-taking games.

Seats are numbered ``0..n-1`` clockwise; "left of" a seat is the next one
clockwise. These helpers are small on purpose: each game keeps its own notion
of card strength and passes it in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

C = TypeVar("C")


def left_of(seat: int, players: int, steps: int = 1) -> int:
    """The seat ``steps`` places clockwise from ``seat``.

    >>> left_of(3, 4)
    0
    """
    return (seat + steps) % players


def clockwise(start: int, players: int) -> list[int]:
    """All seats in clockwise order starting with ``start``.

    >>> clockwise(2, 4)
    [2, 3, 0, 1]
    """
    return [(start + i) % players for i in range(players)]


def draw_to(hands: Sequence[list[C]], stock: list[C], first: int, hand_size: int) -> list[tuple[int, C]]:
    """Draw from the top of ``stock`` one card at a time, clockwise from ``first``,
    until every hand holds ``hand_size`` cards or the stock is empty.

    Mutates ``hands`` and ``stock``; returns the draws as ``(seat, card)`` in order,
    so callers can check after-draw rules (e.g. Kozel's royal goat).

    >>> hands, stock = [[1], [2], [3]], [10, 11, 12, 13]
    >>> draw_to(hands, stock, 1, 2)
    [(1, 10), (2, 11), (0, 12)]
    >>> stock
    [13]
    """
    players = len(hands)
    draws: list[tuple[int, C]] = []
    if not stock:
        return draws
    seats = [(first + i) % players for i in range(players)]   # clockwise from ``first``
    taken = 0
    while taken < len(stock):
        # a round: a hand only grows by its own draw, so who is short is known up front
        short = [seat for seat in seats if len(hands[seat]) < hand_size]
        if not short:
            break
        for seat in short:
            if taken == len(stock):
                break
            card = stock[taken]
            taken += 1
            hands[seat].append(card)
            draws.append((seat, card))
    del stock[:taken]
    return draws


def must_follow(hand: Iterable[C], led_suit: object, suit_of: Callable[[C], object]) -> list[C]:
    """The cards of ``hand`` that follow ``led_suit`` (empty: the player is free).

    ``suit_of`` gives a card's *effective* suit (e.g. ``"trump"`` for Kozel's
    permanent trumps), so one helper serves every follow rule.
    """
    return [c for c in hand if suit_of(c) == led_suit]
