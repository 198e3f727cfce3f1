"""Card strength in Kozel: permanent trumps, the drawn trump suit, plain suits.

>>> order = trump_order(permanent_trumps=True, deck="32", trump_suit="C")
>>> " ".join(str(c) for c in order.trumps)
'8C 9C KC TC AC JD JH JS JC QD QH QS QC 7C'
>>> order.suit_of(Card.parse("JH")), order.suit_of(Card.parse("9H"))
('trump', 'H')
>>> order.beats(Card.parse("7C"), Card.parse("QC"))
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from goat.cards import SUIT_NAMES, Card, make_deck
from goat.games.kozel.rules import DECK_RANKS, PERMANENT_SUIT_ORDER, RANK_ORDER, SHAMOK

TRUMP = "trump"


@dataclass(frozen=True)
class TrumpOrder:
    """Strength of every card of one deck for one deal.

    Attributes:
        trump_suit: the suit letter whose cards are trumps (or ``None``).
        trumps: trumps from lowest to highest.
        strength: card → integer; trumps are above every plain card, and two
            plain cards compare only within their suit (see :meth:`beats`).
    """

    trump_suit: str | None
    trumps: tuple[Card, ...]
    strength: dict[Card, int]
    effective_suit: dict[Card, str]

    def is_trump(self, card: Card) -> bool:
        return self.effective_suit[card] == TRUMP

    def suit_of(self, card: Card) -> str:
        """``"trump"`` or the card's own suit letter: the suit that must be followed."""
        return self.effective_suit[card]

    def beats(self, challenger: Card, best: Card) -> bool:
        """True when ``challenger`` beats ``best``: a trump beats any plain card,
        and inside one (effective) suit the stronger card wins. Two plain cards of
        different suits never beat each other."""
        cs, bs = self.effective_suit[challenger], self.effective_suit[best]
        if cs == bs:
            return self.strength[challenger] > self.strength[best]
        return cs == TRUMP


def suit_label(suit: str) -> str:
    """Human name of an effective suit: ``"trumps"`` or ``"hearts"``."""
    return "trumps" if suit == TRUMP else SUIT_NAMES[suit]


@lru_cache(maxsize=None)
def trump_order(permanent_trumps: bool, deck: str, trump_suit: str | None) -> TrumpOrder:
    """Build (and cache) the order for a deck and a trump suit."""
    cards = make_deck(DECK_RANKS[deck])
    trumps: list[Card] = []
    if trump_suit is not None:
        suit_cards = [c for c in cards if c.suit == trump_suit]
        if permanent_trumps:
            suit_cards = [c for c in suit_cards if c.rank not in "JQ" and c != SHAMOK]
        trumps.extend(sorted(suit_cards, key=lambda c: RANK_ORDER.index(c.rank)))
    if permanent_trumps:
        for rank in "JQ":
            trumps.extend(Card(rank, s) for s in PERMANENT_SUIT_ORDER if Card(rank, s) in cards)
        if SHAMOK in cards:
            trumps.append(SHAMOK)
    strength: dict[Card, int] = {}
    effective: dict[Card, str] = {}
    for c in cards:
        strength[c] = RANK_ORDER.index(c.rank)
        effective[c] = c.suit
    for i, c in enumerate(trumps):
        strength[c] = 100 + i
        effective[c] = TRUMP
    return TrumpOrder(trump_suit, tuple(trumps), strength, effective)
