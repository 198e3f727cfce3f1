"""Cards as small integers and hands as 64-bit masks, for the numba kernels.

A card's index is :attr:`goat.cards.Card.index` (suit-major, ``C D H S`` × ``6..A``,
0..35 — the 36 cards Kozel can use), so a hand is a ``uint64`` bitmask. :func:`tables` turns one deal's trump order
(:mod:`goat.games.kozel.trumps`) into flat arrays that compiled code can index:

>>> from goat.games.kozel import make_rules
>>> t = tables(make_rules("classic"), "C")
>>> bool(t.suit_class[Card.parse("JH").index] == TRUMP_CLASS)
True
>>> int(t.points[Card.parse("AS").index])
11
>>> bool(t.strength[Card.parse("7C").index] > t.strength[Card.parse("QC").index])
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from goat.cards import HIGH_RANKS, SUITS, Card
from goat.games.kozel.rules import CARD_POINTS, KozelRules
from goat.games.kozel.trumps import TRUMP, trump_order

NUM_CARDS = len(HIGH_RANKS) * len(SUITS)  # 36: six to ace
#: ``suit_class`` of a trump; plain cards have their suit's index 0..3 (C D H S).
TRUMP_CLASS = 4
#: ``suit_class`` of a card that is not in the deck.
NOT_IN_DECK = -1

ALL_CARDS: tuple[Card, ...] = tuple(Card(r, s) for s in SUITS for r in HIGH_RANKS)
assert all(c.index == i for i, c in enumerate(ALL_CARDS))


@dataclass(frozen=True)
class DealTables:
    """Per-deal lookup arrays, indexed by card index.

    Attributes:
        strength: higher beats lower within one ``suit_class``; trumps are above plain.
        suit_class: 0..3 for a plain card's suit, :data:`TRUMP_CLASS` for a trump,
            :data:`NOT_IN_DECK` for cards the deck does not use.
        points: Kozel card points.
        deck_mask: the deck as a bitmask.
    """

    strength: np.ndarray
    suit_class: np.ndarray
    points: np.ndarray
    deck_mask: np.uint64


def tables(rules: KozelRules, trump_suit: str | None) -> DealTables:
    """Lookup arrays for ``rules`` with ``trump_suit`` (a letter, or ``None``)."""
    order = trump_order(rules.permanent_trumps, rules.deck, trump_suit, rules.jack_order)
    strength = np.zeros(NUM_CARDS, dtype=np.int32)
    suit_class = np.full(NUM_CARDS, NOT_IN_DECK, dtype=np.int32)
    points = np.zeros(NUM_CARDS, dtype=np.int32)
    for card in rules.deck_cards:
        i = card.index
        strength[i] = order.strength[card]
        suit_class[i] = TRUMP_CLASS if order.suit_of(card) == TRUMP else SUITS.index(card.suit)
        points[i] = CARD_POINTS[card.rank]
    return DealTables(strength, suit_class, points, np.uint64(mask(rules.deck_cards)))


def mask(cards: Iterable[Card]) -> int:
    """Bitmask of ``cards`` (a Python int; wrap in ``np.uint64`` for kernels)."""
    m = 0
    for c in cards:
        m |= 1 << c.index
    return m


def cards_of(bits: int) -> list[Card]:
    """The cards of a bitmask, in index order."""
    bits = int(bits)
    return [ALL_CARDS[i] for i in range(NUM_CARDS) if bits >> i & 1]
