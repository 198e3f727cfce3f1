"""What lies on the table during a trick, and cards in display order."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from goat.cards import JOKER_RANKS, JOKER_SUIT, RANKS, SUITS, Card

#: Display order of suits (clubs, diamonds, hearts, spades; jokers last).
DISPLAY_SUITS = "CDHSJ"


@dataclass(frozen=True)
class TablePlay:
    """One set of cards put on the table in the current trick."""

    seat: int
    verb: str                 # "play" (face up) or "pass" (face down, Kozel street)
    cards: tuple[Card, ...]


def sort_cards(cards: Iterable[Card], rank_order: str) -> list[Card]:
    """Display order: by suit (C D H S, jokers last), then by ``rank_order``
    (each game's own, e.g. Kozel's ``6789JQKTA``) — stable across runs.

    >>> from goat.cards import parse_cards
    >>> [str(c) for c in sort_cards(parse_cards("AS TC KC BJ 2S"), "23456789TJQKALB")]
    ['TC', 'KC', '2S', 'AS', 'BJ']
    """
    keys = _display_keys(rank_order)
    try:
        return sorted(cards, key=keys.__getitem__)
    except KeyError:   # a card outside the table: the slow key says what is wrong
        return sorted(cards, key=lambda c: (DISPLAY_SUITS.index(c.suit), rank_order.index(c.rank)))


@lru_cache(maxsize=None)
def _display_keys(rank_order: str) -> dict[Card, int]:
    """Every card's display key under ``rank_order``, as one int ordered like
    ``(suit position, rank position)``: engines sort hands on every move."""
    keys = {}
    for s in SUITS + JOKER_SUIT:
        for r in (JOKER_RANKS if s == JOKER_SUIT else RANKS):
            if r in rank_order:
                keys[Card(r, s)] = DISPLAY_SUITS.index(s) * 64 + rank_order.index(r)
    return keys
