"""Card strength in a trick: trumps, effective suits, who beats whom.

Every trick-taking game here ranks cards the same way once it has said which
cards are trumps: a trump beats any plain card, inside one *effective* suit the
stronger card wins, and two plain cards of different suits never beat each
other. Kozel builds a :class:`TrumpOrder` with permanent trumps and a drawn
suit (:func:`goat.games.kozel.trumps.trump_order`), Spades with spades and
jokers (:func:`goat.games.spades.cards.spades_order`).

>>> from goat.cards import parse_cards
>>> order = simple_order(parse_cards("2S 3S AH KH 2C"), trumps=parse_cards("2S 3S"))
>>> order.beats(Card.parse("2S"), Card.parse("AH")), order.suit_of(Card.parse("3S"))
(True, 'trump')
>>> trick_winner([Card.parse(c) for c in ("KH", "AH", "2C", "2S")], order)
3
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from goat.cards import RANKS, SUIT_NAMES, SUITS, Card

#: Card indices run 0..53 (:attr:`goat.cards.Card.index`).
CARD_INDICES = 54

#: The effective suit of every trump (Kozel's permanent trumps, Spades' spades and jokers).
TRUMP = "trump"


@dataclass(frozen=True)
class TrumpOrder:
    """Strength of every card of one deck for one deal.

    Attributes:
        trump_suit: the suit letter whose cards are trumps (or ``None``).
        trumps: trumps from lowest to highest.
        strength: card → integer; trumps are above every plain card, and two
            plain cards compare only within their suit (see :meth:`beats`).
        effective_suit: card → ``"trump"`` or its own suit letter.
    """

    trump_suit: str | None
    trumps: tuple[Card, ...]
    strength: dict[Card, int]
    effective_suit: dict[Card, str]

    def __post_init__(self) -> None:
        # Bit tables by card index (Card.index), worked out once per order: search
        # bots test "beats" hundreds of thousands of times a decision, and an int
        # lookup and a shift cost a fraction of two dict lookups keyed by cards.
        beats_mask = [0] * CARD_INDICES
        beaten_by = [0] * CARD_INDICES
        cards = list(self.strength)
        for c in cards:
            for b in cards:
                if self.beats(c, b):
                    beats_mask[c.index] |= 1 << b.index
                    beaten_by[b.index] |= 1 << c.index
        object.__setattr__(self, "beats_mask", tuple(beats_mask))
        object.__setattr__(self, "beaten_by", tuple(beaten_by))

    #: ``beats_mask[c.index]``: the cards ``c`` beats, one bit per card index.
    beats_mask: tuple[int, ...] = field(init=False, repr=False, compare=False)
    #: ``beaten_by[b.index]``: the cards that beat ``b``, one bit per card index.
    beaten_by: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def is_trump(self, card: Card) -> bool:
        return self.effective_suit[card] == TRUMP

    def suit_of(self, card: Card) -> str:
        """``"trump"`` or the card's own suit letter: the suit that must be followed."""
        return self.effective_suit[card]

    def plain_suits(self, cards: Iterable[Card]) -> dict[str, list[Card]]:
        """The plain cards of ``cards`` by suit (in ``SUITS`` order, a suit with
        none left out), each lowest to highest: the order a rules summary lists.

        >>> from goat.cards import parse_cards
        >>> order = simple_order(parse_cards("2S AH KH 2C"), trumps=parse_cards("2S"))
        >>> order.plain_suits(parse_cards("AH 2S KH 2C"))
        {'C': [Card('2C')], 'H': [Card('KH'), Card('AH')]}
        """
        cards = list(cards)
        by_suit = {s: sorted((c for c in cards if self.effective_suit[c] == s), key=self.strength.__getitem__)
                   for s in SUITS}
        return {s: found for s, found in by_suit.items() if found}

    def beats(self, challenger: Card, best: Card) -> bool:
        """True when ``challenger`` beats ``best``: a trump beats any plain card,
        and inside one (effective) suit the stronger card wins. Two plain cards of
        different suits never beat each other."""
        cs, bs = self.effective_suit[challenger], self.effective_suit[best]
        if cs == bs:
            return self.strength[challenger] > self.strength[best]
        return cs == TRUMP


def trick_winner(cards: Sequence[Card], order: TrumpOrder) -> int:
    """Index of the card that takes a trick of single cards (the first is the lead)."""
    best = 0
    for i in range(1, len(cards)):
        if order.beats(cards[i], cards[best]):
            best = i
    return best


def suit_label(suit: str, trump_name: str = "trumps") -> str:
    """Human name of an effective suit: ``"trumps"`` (or the game's word for
    them, e.g. ``"spades"``) or ``"hearts"``."""
    return trump_name if suit == TRUMP else SUIT_NAMES[suit]


def simple_order(cards: Iterable[Card], trumps: Sequence[Card] = (), trump_suit: str | None = None,
                 rank_order: str = RANKS) -> TrumpOrder:
    """An order where ``trumps`` (lowest first) rank above everything and every
    other card ranks by ``rank_order`` inside its own suit."""
    strength: dict[Card, int] = {}
    effective: dict[Card, str] = {}
    for c in cards:
        strength[c] = rank_order.index(c.rank) if c.rank in rank_order else 0
        effective[c] = c.suit
    for i, c in enumerate(trumps):
        strength[c] = 100 + i
        effective[c] = TRUMP
    return TrumpOrder(trump_suit, tuple(trumps), strength, effective)
