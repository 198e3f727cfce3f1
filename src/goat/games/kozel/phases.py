"""Small shared vocabulary of the Kozel state: deal phases, a set of cards on the
table, and the display order of cards."""

from __future__ import annotations

from goat.cards import Card
from goat.games.kozel.rules import RANK_ORDER
from goat.games.tricks.phases import DEAL, OVER  # shared by every game
from goat.games.tricks.table import TablePlay, sort_cards

__all__ = ["DEAL", "ENDED_BY", "FORCED_RETURN", "OVER", "PARTNER_EXCHANGE", "PLAY", "TablePlay",
           "sort_for_display"]

# Phases of a deal (DEAL and OVER above).
PARTNER_EXCHANGE = "partner-exchange"
FORCED_RETURN = "forced-exchange"  # the partner gives a plain card back
PLAY = "play"

ENDED_BY = ("cards-exhausted", "shamok-caught-queen", "royal-goat", "annulled", "unfinished")


def sort_for_display(cards: list[Card] | tuple[Card, ...]) -> list[Card]:
    """Display order: by suit (C D H S), then Kozel's rank order — stable across runs."""
    return sort_cards(cards, RANK_ORDER)
