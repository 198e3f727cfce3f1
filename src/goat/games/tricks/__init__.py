"""Machinery every trick-taking game shares: seating, dealing and drawing,
card strength and follow rules, the table, and view helpers."""

from goat.games.tricks.core import (
    clockwise,
    draw_to,
    left_of,
    must_follow,
)
from goat.games.tricks.deals import (
    check_dealt_cards,
    deal_in_turn,
    read_cards,
    read_hands,
)
from goat.games.tricks.order import (
    TRUMP,
    TrumpOrder,
    simple_order,
    suit_label,
    trick_winner,
)
from goat.games.tricks.table import TablePlay, sort_cards
from goat.games.tricks.views import information_state_string, play_view, visible_history

__all__ = ["TRUMP", "TablePlay", "TrumpOrder", "check_dealt_cards", "clockwise", "deal_in_turn",
           "draw_to", "information_state_string", "left_of", "must_follow", "play_view", "read_cards",
           "read_hands", "simple_order", "sort_cards", "suit_label", "trick_winner", "visible_history"]
