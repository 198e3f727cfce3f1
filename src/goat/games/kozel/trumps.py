"""Card strength in Kozel: permanent trumps, the drawn trump suit, plain suits
(a :class:`~goat.games.tricks.order.TrumpOrder`, the strength model every trick game shares).

>>> order = trump_order(permanent_trumps=True, deck="32", trump_suit="C")
>>> " ".join(str(c) for c in order.trumps)
'8C 9C KC TC AC JD JH JS JC QD QH QS QC 7C'
>>> order.suit_of(Card.parse("JH")), order.suit_of(Card.parse("9H"))
('trump', 'H')
>>> order.beats(Card.parse("7C"), Card.parse("QC"))
True
"""

from __future__ import annotations

from functools import lru_cache

from goat.cards import Card, make_deck
from goat.games.kozel.rules import DECK_RANKS, JACK_SUIT_ORDERS, PERMANENT_SUIT_ORDER, RANK_ORDER, SHAMOK
from goat.games.tricks.order import TRUMP, TrumpOrder, simple_order, suit_label

__all__ = ["TRUMP", "TrumpOrder", "suit_label", "trump_order"]


@lru_cache(maxsize=None)
def trump_order(permanent_trumps: bool, deck: str, trump_suit: str | None,
                jack_order: str = "clubs-high") -> TrumpOrder:
    """Build (and cache) the order for a deck, a trump suit and the jacks' order.

    >>> " ".join(str(c) for c in trump_order(True, "32", "H", "spades-high").trumps)
    '7H 8H 9H KH TH AH JD JH JC JS QD QH QS QC 7C'
    """
    cards = make_deck(DECK_RANKS[deck])
    trumps: list[Card] = []
    if trump_suit is not None:
        suit_cards = [c for c in cards if c.suit == trump_suit]
        if permanent_trumps:
            suit_cards = [c for c in suit_cards if c.rank not in "JQ" and c != SHAMOK]
        trumps.extend(sorted(suit_cards, key=lambda c: RANK_ORDER.index(c.rank)))
    if permanent_trumps:
        for rank, suits in (("J", JACK_SUIT_ORDERS[jack_order]), ("Q", PERMANENT_SUIT_ORDER)):
            trumps.extend(Card(rank, s) for s in suits if Card(rank, s) in cards)
        if SHAMOK in cards:
            trumps.append(SHAMOK)
    return simple_order(cards, trumps, trump_suit, RANK_ORDER)
