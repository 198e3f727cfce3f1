"""Kozel (Козёл, "Goat"): the rules engine for ``classic``, ``full-hand``,
``full-hand-24`` and ``street`` (``shared/rules/kozel.md``).

>>> state = new_state("street", first_dealer=1)
>>> state.rules.deck, state.rules.molodka
('36', True)
"""

from __future__ import annotations

from typing import Any

from goat.games.kozel.deal import KozelDeal
from goat.games.kozel.facts import rules_facts
from goat.games.kozel.rules import (
    CARD_POINTS,
    CHOICES,
    OPTION_NAMES,
    OPTION_FALLBACKS,
    OPTION_NEEDS,
    PRESETS,
    KozelRules,
    make_rules,
)
from goat.games.kozel.state import KozelState
from goat.games.kozel.worlds import KozelWorldSampler, sample_world, world_sampler

NAME = "kozel"


def new_state(rules: str | KozelRules = "classic", options: dict[str, Any] | None = None,
              players: int | None = None, first_dealer: int = 0,
              single_deal: bool = False) -> KozelState:
    """A new match (or one deal) at its first chance node: the first deal is due."""
    if not isinstance(rules, KozelRules):
        rules = make_rules(rules, players=players, options=options)
    return KozelState(rules, first_dealer=first_dealer, single_deal=single_deal)


def chance_from_json(state: KozelState, obj: Any) -> KozelDeal:
    """Read a record's deal object for ``state``'s rules (validated)."""
    return KozelDeal.from_json(state.rules, obj)


__all__ = ["CARD_POINTS", "CHOICES", "NAME", "OPTION_FALLBACKS", "OPTION_NAMES", "OPTION_NEEDS", "PRESETS",
           "KozelDeal", "KozelRules", "KozelState", "KozelWorldSampler", "chance_from_json", "make_rules", "new_state",
           "rules_facts", "sample_world", "world_sampler"]
