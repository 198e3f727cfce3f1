"""The chance outcome of Kozel: one shuffled deal (hands, stock, shown trump card).

A :class:`KozelDeal` is what :meth:`KozelState.sample_chance` draws from a seeded
generator and what a record's deal object holds, so servers, solvers and
replays share one code path.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from goat.cards import Card
from goat.games.kozel.rules import KozelRules
from goat.games.tricks.deals import check_dealt_cards, deal_in_turn, no_trump_card, read_card, read_cards, read_hands
from goat.protocol import InvalidChanceError


@dataclass(frozen=True)
class KozelDeal:
    """Hands by seat, the stock top first, and the shown trump card (or ``None``)."""

    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]
    trump_card: Card | None = None

    # ------------------------------------------------------------ generation
    @classmethod
    def shuffle(cls, rules: KozelRules, dealer: int, rng: random.Random) -> "KozelDeal":
        """Shuffle and deal as the rules say: one card at a time clockwise from the
        seat left of the dealer, the dealer last; the rest is the stock."""
        deck = list(rules.deck_cards)
        trump_card = None
        if rules.trump_suit == "drawn" and rules.trump_card_from == "deck":
            # Drawn from the shuffled deck and shown, then shuffled back.
            trump_card = deck[rng.randrange(len(deck))]
        rng.shuffle(deck)
        hands, stock = deal_in_turn(deck, dealer, rules.players, rules.hand_size)
        if rules.trump_suit == "drawn" and rules.trump_card_from == "stock":
            # Taken from the middle of the stock, shown, and put back in place.
            lo, hi = (1, len(stock) - 2) if len(stock) > 2 else (0, len(stock) - 1)
            trump_card = stock[rng.randint(lo, hi)]
        return cls(tuple(tuple(h) for h in hands), tuple(stock), trump_card)

    # --------------------------------------------------------------- records
    def to_json(self) -> dict[str, Any]:
        obj: dict[str, Any] = {
            "hands": {str(seat): [str(c) for c in hand] for seat, hand in enumerate(self.hands)},
            "stock": [str(c) for c in self.stock],
        }
        if self.trump_card is not None:
            obj["trump_card"] = str(self.trump_card)
        return obj

    @classmethod
    def from_json(cls, rules: KozelRules, obj: Any) -> "KozelDeal":
        """Read a record's deal object; raises :class:`InvalidChanceError` (one line)."""
        if not isinstance(obj, dict):
            raise InvalidChanceError("a deal must be a JSON object with hands and stock")
        hands = read_hands(obj, rules.players)
        stock = read_cards(obj.get("stock", []), "stock")
        trump_text = obj.get("trump_card")
        trump_card = None
        if trump_text is not None:
            trump_card = read_card(trump_text, "trump_card")
        deal = cls(hands, stock, trump_card)
        deal.validate(rules)
        return deal

    def validate(self, rules: KozelRules) -> None:
        """Check sizes, duplicates, deck membership and the trump card."""
        deck = rules.deck_set
        seen = check_dealt_cards(self.hands, self.stock, deck, rules.hand_size, rules.name)
        if len(self.stock) != rules.stock_size:
            missing = sorted(deck - seen)
            raise InvalidChanceError(
                f"the stock holds {len(self.stock)} cards; {rules.name} leaves {rules.stock_size}"
                + (f" (missing {' '.join(map(str, missing))})" if missing else "")
            )
        if rules.trump_suit == "drawn":
            if self.trump_card is None:
                raise InvalidChanceError(f"{rules.name} shows a trump card: the deal needs \"trump_card\"")
            if self.trump_card not in deck:
                raise InvalidChanceError(f"trump_card {self.trump_card} is not in the deck")
            if rules.trump_card_from == "stock" and self.trump_card not in self.stock:
                raise InvalidChanceError(
                    f"trump_card {self.trump_card} must lie in the stock (it is shown from the stock)"
                )
            if (rules.trump_card_from == "stock" and len(self.stock) > 2
                    and self.trump_card in (self.stock[0], self.stock[-1])):
                # the rule takes it "from the middle of the stock" (and the world
                # samplers place it there): never the top or the bottom card
                raise InvalidChanceError(
                    f"trump_card {self.trump_card} must lie in the middle of the stock, "
                    f"not its {'first' if self.trump_card == self.stock[0] else 'last'} card "
                    "(it is taken from the middle)"
                )
        elif self.trump_card is not None:
            raise no_trump_card(rules.name, rules.trump_suit)

    def trump_suit(self, rules: KozelRules) -> str:
        if rules.trump_suit == "drawn":
            assert self.trump_card is not None
            return self.trump_card.suit
        return rules.trump_suit

