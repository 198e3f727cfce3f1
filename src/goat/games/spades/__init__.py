"""Spades: the rules engine for the standard game and every named variant of
``shared/rules/spades.md`` (bidding with nil, blind nil and double nil, spades
breaking, contract and bag scoring, the game to 500).

>>> state = new_state("joker-trumps", first_dealer=1)
>>> len(state.rules.deck_cards), state.rules.jokers
(52, True)
"""

from __future__ import annotations

from typing import Any

from goat.games.spades.bids import is_glance
from goat.games.spades.deal import SpadesDeal, draw_first_dealer
from goat.games.spades.facts import rules_facts
from goat.games.spades.rules import (
    CHOICES,
    OPTION_FALLBACKS,
    OPTION_NAMES,
    OPTION_NEEDS,
    PRESETS,
    SpadesRules,
    make_rules,
)
from goat.games.spades.state import SpadesState
from goat.games.spades.worlds import sample_world

NAME = "spades"

#: Options random play needs to end a game (``goat random-games``): uniformly
#: random bids are almost always set, so no team would ever reach the target.
RANDOM_PLAY_OPTIONS: dict[str, Any] = {"max_deals": 10}


def new_state(rules: str | SpadesRules = "standard", options: dict[str, Any] | None = None,
              players: int | None = None, first_dealer: int = 0, single_deal: bool = False) -> SpadesState:
    """A new game (or one deal) at its first chance node: the first deal is due."""
    if not isinstance(rules, SpadesRules):
        rules = make_rules(rules, players=players, options=options)
    return SpadesState(rules, first_dealer=first_dealer, single_deal=single_deal)


def chance_from_json(state: SpadesState, obj: Any) -> SpadesDeal:
    """Read a record's deal object for ``state``'s rules (validated)."""
    return SpadesDeal.from_json(state.rules, obj)


__all__ = ["CHOICES", "NAME", "OPTION_FALLBACKS", "OPTION_NAMES", "OPTION_NEEDS", "PRESETS", "RANDOM_PLAY_OPTIONS",
           "SpadesDeal", "SpadesRules", "SpadesState",
           "chance_from_json", "draw_first_dealer", "is_glance", "make_rules", "new_state", "rules_facts", "sample_world"]
