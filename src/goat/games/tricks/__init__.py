"""Machinery every trick-taking game shares: seating, drawing, follow rules."""

from goat.games.tricks.core import (
    clockwise,
    draw_to,
    left_of,
    must_follow,
)

__all__ = ["clockwise", "draw_to", "left_of", "must_follow"]
