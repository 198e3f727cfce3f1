"""What a player reads about a Spades ruleset: its deck, trumps and the fixed
scores of its special bids, derived from the engine's own objects.

The browser's rules panel (``goat serve``, ``static/rules.js``) shows these;
they come from :func:`goat.games.spades.cards.spades_order` and the constants of
:mod:`goat.games.spades.rules` the engine scores with, so the panel cannot
drift from the engine.

>>> facts = rules_facts(make_rules("joker-trumps"))
>>> facts["trumps"][-3:], len(facts["deck"]), facts["hand_size"]
(['AS', 'LJ', 'BJ'], 52, 13)
>>> facts["plain"]["C"][:2]
['3C', '4C']
"""

from __future__ import annotations

from typing import Any

from goat.games.spades.cards import spades_order
from goat.games.spades.rules import (
    BEMO,
    BOSTON_POINTS,
    HAND_SIZE,
    WHEELS_CONTRACT,
    WHEELS_POINTS,
    SpadesRules,
    make_rules,
)

__all__ = ["rules_facts"]


def rules_facts(rules: SpadesRules) -> dict[str, Any]:
    """The JSON-able facts of ``rules``: the deck, the hand size, the trumps and
    each plain suit lowest to highest, and the scores of the wheels, Boston and
    Bemo bids (``{tricks, points}``). Cards are in the project's notation."""
    order = spades_order(rules.jokers)
    deck = rules.deck_cards
    return {
        "players": rules.players,
        "partnerships": True,
        "deck": [str(c) for c in deck],
        "hand_size": HAND_SIZE,
        "trumps": [str(c) for c in order.trumps],
        "plain": {s: [str(c) for c in cards] for s, cards in order.plain_suits(deck).items()},
        "wheels": {"tricks": WHEELS_CONTRACT, "points": WHEELS_POINTS},
        "boston": {"tricks": HAND_SIZE, "points": BOSTON_POINTS},
        "bemo": {name: {"tricks": tricks, "points": points} for name, (tricks, points) in BEMO.items()},
    }
