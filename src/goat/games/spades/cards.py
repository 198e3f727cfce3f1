"""Card strength and card facts of Spades: spades (and the jokers) are trumps.

>>> order = spades_order(jokers=False)
>>> order.beats(Card.parse("2S"), Card.parse("AH")), order.beats(Card.parse("KH"), Card.parse("AD"))
(True, False)
>>> " ".join(str(c) for c in spades_order(jokers=True).trumps[-3:])
'AS LJ BJ'
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from goat.cards import RANKS, Card, make_deck
from goat.games.tricks.order import TRUMP, TrumpOrder, simple_order, suit_label
from goat.games.tricks.table import sort_cards

__all__ = ["FACE_RANKS", "TRUMP", "is_weak_hand", "lowest_club", "sort_hand", "spades_order", "suit_name",
           "trump_count"]

#: Rank order for display: 2 low .. A high, then the little and the big joker.
DISPLAY_RANKS = RANKS + "LB"

#: The face cards of the weak-hand rule ([decision]: jack, queen, king; an ace is not one).
FACE_RANKS = "JQK"


@lru_cache(maxsize=None)
def spades_order(jokers: bool) -> TrumpOrder:
    """Spades 2..A are trumps (then the little and the big joker when in play);
    every other suit ranks 2 low .. A high."""
    deck = make_deck(RANKS)
    trumps = [c for c in deck if c.suit == "S"]
    if jokers:
        deck = deck + (Card("L", "J"), Card("B", "J"))
        trumps += [Card("L", "J"), Card("B", "J")]
    return simple_order(deck, trumps, "S", RANKS)


def suit_name(effective_suit: str) -> str:
    """``"spades"`` for the trumps (jokers included), else the suit's name."""
    return suit_label(effective_suit, "spades")


def trump_count(hand: Iterable[Card]) -> int:
    """Spades held, jokers counted as spades (the mirror bid)."""
    return sum(1 for c in hand if c.suit in "SJ")


def is_weak_hand(hand: Iterable[Card]) -> bool:
    """No spade (nor joker) and no face card: the hand may ask for a redeal."""
    return not any(c.suit in "SJ" or c.rank in FACE_RANKS for c in hand)


def lowest_club(deck: Iterable[Card]) -> Card:
    """The lowest club of the deck (``2C``; ``3C`` once the jokers replaced it)."""
    return min((c for c in deck if c.suit == "C"), key=lambda c: RANKS.index(c.rank))


def sort_hand(cards: Iterable[Card]) -> list[Card]:
    """Display order: clubs, diamonds, hearts, spades, jokers; 2 low .. A high."""
    return sort_cards(cards, DISPLAY_RANKS)
