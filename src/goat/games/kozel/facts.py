"""What a player reads about a Kozel ruleset: its cards, trumps and points,
derived from the engine's own objects.

The browser's rules panel (``goat serve``, ``static/rules.js``) shows the
trump order and the card points of a table; they come from here, built with
:func:`goat.games.kozel.trumps.trump_order` and :data:`CARD_POINTS` exactly as
the engine builds them for a deal, so the panel cannot drift from the engine.

>>> facts = rules_facts(make_rules("classic"))
>>> facts["trump_orders"]["C"]["trumps"][-1], facts["hand_size"], facts["stock_size"]
('7C', 4, 16)
>>> facts["trump_orders"]["C"]["plain"]["H"]
['7H', '8H', '9H', 'KH', 'TH', 'AH']
>>> sorted(rules_facts(make_rules("street"))["trump_orders"])
['C', 'D', 'H', 'S']
"""

from __future__ import annotations

from typing import Any

from goat.cards import SUITS
from goat.games.kozel.rules import CARD_POINTS, SHAMOK, KozelRules, make_rules
from goat.games.kozel.trumps import trump_order

__all__ = ["rules_facts"]


def rules_facts(rules: KozelRules) -> dict[str, Any]:
    """The JSON-able facts of ``rules``: the deck, the deal, the card points and,
    for every suit that can be trump (the fixed one, or each suit of the deck
    when a card shows it), the trumps lowest to highest and each plain suit's
    order lowest to highest. Cards are in the project's notation (``"7C"``)."""
    deck = rules.deck_cards
    suits = [s for s in SUITS if any(c.suit == s for c in deck)]
    candidates = suits if rules.trump_suit == "drawn" else [rules.trump_suit]
    orders: dict[str, dict[str, Any]] = {}
    for suit in candidates:
        order = trump_order(rules.permanent_trumps, rules.deck, suit, rules.jack_order)
        orders[suit] = {"trumps": [str(c) for c in order.trumps],
                        "plain": {s: [str(c) for c in cards] for s, cards in order.plain_suits(deck).items()}}
    permanent = trump_order(rules.permanent_trumps, rules.deck, None, rules.jack_order).trumps if rules.permanent_trumps else ()
    ranks = sorted({c.rank for c in deck}, key=lambda r: (CARD_POINTS[r], "6789JQKTA".index(r)))
    return {
        "players": rules.players,
        "partnerships": rules.partnerships,
        "deck": [str(c) for c in deck],
        "hand_size": rules.hand_size,
        "stock_size": rules.stock_size,
        "card_points": {rank: CARD_POINTS[rank] for rank in ranks},
        "total_points": sum(CARD_POINTS[c.rank] for c in deck),
        "permanent_trumps": [str(c) for c in permanent],
        "shamok": str(SHAMOK) if rules.has_shamok else None,
        "trump_orders": orders,
    }
