"""Small shared vocabulary of the Kozel state: deal phases, a set of cards on the
table, and the display order of cards."""

from __future__ import annotations

from dataclasses import dataclass

from goat.cards import Card
from goat.games.kozel.rules import RANK_ORDER

# Phases of a deal.
DEAL = "deal"                      # chance: shuffle and deal
PARTNER_EXCHANGE = "partner-exchange"
FORCED_RETURN = "forced-exchange"  # the partner gives a plain card back
PLAY = "play"
OVER = "over"                      # match (or single deal) finished

ENDED_BY = ("cards-exhausted", "shamok-caught-queen", "royal-goat", "annulled", "unfinished")


@dataclass(frozen=True)
class TablePlay:
    """One set of cards put on the table in the current trick."""

    seat: int
    verb: str                 # "play" (face up) or "pass" (face down)
    cards: tuple[Card, ...]


def sort_for_display(cards: list[Card] | tuple[Card, ...]) -> list[Card]:
    """Display order: by suit (C D H S), then rank order — stable across runs."""
    return sorted(cards, key=_display_key)


def _display_key(card: Card) -> tuple[int, int]:
    return ("CDHS".index(card.suit), RANK_ORDER.index(card.rank))
