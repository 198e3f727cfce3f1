"""Playing cards and their text notation.

Every card game in Goat speaks the same notation (records, CLI, tests, logs):
ranks ``2 3 4 5 6 7 8 9 T J Q K A`` (``10`` is accepted on input as ``T``) and suits
``C D H S`` (the symbols ``♣ ♦ ♥ ♠`` are accepted on input too). Each game uses
its own deck out of these (Kozel 6–A or less, Spades all 52); Spades' joker-trumps
variant adds the little and the big joker, written ``LJ`` and ``BJ``.

>>> Card.parse("QC")
Card('QC')
>>> str(Card.parse("10♥"))
'TH'
>>> [str(c) for c in parse_cards("KH+AH")]
['KH', 'AH']

>>> str(Card.parse("2c")), Card.parse("BJ").name()
('2C', 'big joker')

Cards are interned: ``Card.parse("QC") is Card.parse("QC")``. That keeps them
cheap to hash and compare in the engines' inner loops.
"""

from __future__ import annotations

from collections.abc import Iterable

#: Every rank of the notation, lowest to highest in the usual order.
RANKS = "23456789TJQKA"
SUITS = "CDHS"
#: The 36 ranks six to ace: their cards keep the dense indices 0..35 that
#: Kozel's bitmask kernels (:mod:`goat.fast`) are built on.
HIGH_RANKS = "6789TJQKA"
LOW_RANKS = "2345"
#: Jokers have the pseudo-suit ``J`` and rank ``L`` (little) or ``B`` (big).
JOKER_SUIT = "J"
JOKER_RANKS = "LB"

SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
RANK_NAMES = {
    "2": "two", "3": "three", "4": "four", "5": "five",
    "6": "six", "7": "seven", "8": "eight", "9": "nine", "T": "ten",
    "J": "jack", "Q": "queen", "K": "king", "A": "ace",
}
JOKER_NAMES = {"L": "little joker", "B": "big joker"}


def _dense_index(rank: str, suit: str) -> int:
    """0..35 for six to ace (suit-major), 36..51 for two to five, 52/53 for jokers."""
    if suit == JOKER_SUIT:
        return 52 + JOKER_RANKS.index(rank)
    if rank in HIGH_RANKS:
        return SUITS.index(suit) * len(HIGH_RANKS) + HIGH_RANKS.index(rank)
    return 36 + SUITS.index(suit) * len(LOW_RANKS) + LOW_RANKS.index(rank)


def _valid(rank: str, suit: str) -> bool:
    if len(rank) != 1 or len(suit) != 1:
        return False
    if suit == JOKER_SUIT:
        return rank in JOKER_RANKS
    return rank in RANKS and suit in SUITS

_SYMBOL_TO_SUIT = {
    "♣": "C", "♧": "C", "♦": "D", "♢": "D", "♥": "H", "♡": "H", "♠": "S", "♤": "S",
}


class CardSyntaxError(ValueError):
    """A piece of text is not a card in the project's notation."""


class Card:
    """One playing card: a rank from :data:`RANKS` and a suit from :data:`SUITS`
    (or a joker: rank ``L``/``B``, suit ``J``).

    Use :meth:`Card.parse` or :func:`card` to get one; instances are interned,
    immutable and ordered by (suit, rank) only for stable display, never for
    game strength (that is each game's business).
    """

    __slots__ = ("rank", "suit", "_text", "_index", "_order")
    _interned: dict[str, "Card"] = {}

    rank: str
    suit: str

    def __new__(cls, rank: str, suit: str) -> "Card":
        text = rank + suit
        existing = cls._interned.get(text)
        if existing is not None:
            return existing
        if not _valid(rank, suit):
            raise CardSyntaxError(f"not a card: {text!r}")
        self = object.__new__(cls)
        object.__setattr__(self, "rank", rank)
        object.__setattr__(self, "suit", suit)
        object.__setattr__(self, "_text", text)
        object.__setattr__(self, "_index", _dense_index(rank, suit))
        display = (SUITS + JOKER_SUIT).index(suit) * 16 + (RANKS + JOKER_RANKS).index(rank)
        object.__setattr__(self, "_order", display)
        cls._interned[text] = self
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __reduce__(self):  # pickling keeps interning
        return (Card, (self.rank, self.suit))

    @classmethod
    def parse(cls, text: str) -> "Card":
        """Parse ``"QC"``, ``"10h"``, ``"Q♣"``, ``"BJ"`` and the like.

        Raises :class:`CardSyntaxError` with the offending text otherwise.
        """
        if not isinstance(text, str):
            raise CardSyntaxError(f"not a card: {text!r}")
        raw = text.strip()
        if not raw:
            raise CardSyntaxError("empty card")
        suit_char = raw[-1]
        suit = _SYMBOL_TO_SUIT.get(suit_char, suit_char.upper())
        rank = raw[:-1].upper()
        if rank == "10":
            rank = "T"
        if not _valid(rank, suit):
            raise CardSyntaxError(f"not a card: {text!r} (write rank then suit, e.g. QC, TH, 7S)")
        return cls(rank, suit)

    @property
    def index(self) -> int:
        """A dense index, handy for bitmasks: 0..35 for six to ace (suit-major,
        what Kozel's kernels use), 36..51 for two to five, 52 and 53 for the jokers."""
        return self._index

    @property
    def is_joker(self) -> bool:
        return self.suit == JOKER_SUIT

    def symbol(self) -> str:
        """Text with the suit symbol, e.g. ``Q♣`` (``10`` is kept as ``T``; jokers stay ``LJ``/``BJ``)."""
        if self.suit == JOKER_SUIT:
            return self._text
        return self.rank + SUIT_SYMBOLS[self.suit]

    def name(self) -> str:
        if self.suit == JOKER_SUIT:
            return JOKER_NAMES[self.rank]
        return f"{RANK_NAMES[self.rank]} of {SUIT_NAMES[self.suit]}"

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card({self._text!r})"

    def __lt__(self, other: "Card") -> bool:
        return self._order < other._order

    def __hash__(self) -> int:
        return self._index

    def __eq__(self, other: object) -> bool:
        return self is other


def card(text: str) -> Card:
    """Shorthand for :meth:`Card.parse`."""
    return Card.parse(text)


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Parse ``"KH+AH"``, ``"KH AH"``, ``"KH,AH"`` or a list of card strings."""
    if isinstance(text, str):
        parts = text.replace(",", "+").replace(" ", "+").split("+")
        parts = [p for p in parts if p]
        if not parts:
            raise CardSyntaxError(f"no cards in {text!r}")
    else:
        parts = list(text)
    return tuple(Card.parse(p) for p in parts)


def format_cards(cards: Iterable[Card], sep: str = "+") -> str:
    """Inverse of :func:`parse_cards`: ``"KH+AH"``."""
    return sep.join(str(c) for c in cards)


def make_deck(ranks: str, suits: str = SUITS) -> tuple[Card, ...]:
    """All cards of the given ranks in the given suits, suit-major."""
    return tuple(Card(r, s) for s in suits for r in ranks)
