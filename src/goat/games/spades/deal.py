"""The chance outcome of Spades: one shuffled deal of 13 cards to each seat.

A :class:`SpadesDeal` is what :meth:`SpadesState.sample_chance` draws from a
seeded generator and what a record's deal object holds. Each hand is listed in
the order its cards were dealt (one at a time, clockwise from the seat left of
the dealer), which matters for the ``face-up-four`` variant: a hand's first
``face_up_cards`` cards are the ones dealt face up.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from goat.cards import RANKS, Card, make_deck
from goat.games.spades.rules import HAND_SIZE, SpadesRules
from goat.games.tricks.deals import (
    check_dealt_cards,
    deal_in_turn,
    no_trump_card,
    read_cards,
    read_hands,
)
from goat.protocol import InvalidChanceError


@dataclass(frozen=True)
class SpadesDeal:
    """Hands by seat, each in the order dealt."""

    hands: tuple[tuple[Card, ...], ...]

    @classmethod
    def shuffle(cls, rules: SpadesRules, dealer: int, rng: random.Random) -> "SpadesDeal":
        """Shuffle the deck and deal 13 cards each, one at a time clockwise from
        the seat left of the dealer."""
        deck = list(rules.deck_cards)
        rng.shuffle(deck)
        hands, _ = deal_in_turn(deck, dealer, rules.players, HAND_SIZE)
        return cls(tuple(tuple(h) for h in hands))

    def to_json(self) -> dict[str, Any]:
        return {"hands": {str(seat): [str(c) for c in hand] for seat, hand in enumerate(self.hands)},
                "stock": []}

    @classmethod
    def from_json(cls, rules: SpadesRules, obj: Any) -> "SpadesDeal":
        """Read a record's deal object; raises :class:`InvalidChanceError` (one line).

        A wrong card count is a misdeal, and a record holding one is malformed
        (``shared/spec/records.md``): the engine deals only whole deals.
        """
        hands = read_hands(obj, rules.players)
        stock = read_cards(obj.get("stock", []), "stock")
        if stock:
            raise InvalidChanceError("Spades deals every card: the stock must be empty, "
                                     f"not {len(stock)} card{'s' if len(stock) != 1 else ''}")
        if obj.get("trump_card") is not None:  # spades are always trumps: no card is shown
            raise no_trump_card(rules.name, "S")
        deal = cls(hands)
        deal.validate(rules)
        return deal

    def validate(self, rules: SpadesRules) -> None:
        """Check the hand sizes (a misdeal is refused), the deck and duplicates."""
        if len(self.hands) != rules.players:
            raise InvalidChanceError(f"a deal needs {rules.players} hands, not {len(self.hands)}")
        check_dealt_cards(self.hands, (), rules.deck_cards, HAND_SIZE, rules.name)

    def face_up(self, rules: SpadesRules) -> tuple[tuple[Card, ...], ...]:
        """The cards each seat was dealt face up (the first ``face_up_cards``)."""
        return tuple(hand[:rules.face_up_cards] for hand in self.hands)


def draw_first_dealer(rng: random.Random, players: int = 4) -> int:
    """The first dealer: each player draws a card from a shuffled 52-card deck
    and the highest rank deals; players tied for highest draw again
    ([decision]: suits do not break ties)."""
    seats = list(range(players))
    while True:
        deck = list(make_deck(RANKS))
        rng.shuffle(deck)
        ranks = {seat: RANKS.index(deck[i].rank) for i, seat in enumerate(seats)}
        best = max(ranks.values())
        seats = [s for s in seats if ranks[s] == best]
        if len(seats) == 1:
            return seats[0]
