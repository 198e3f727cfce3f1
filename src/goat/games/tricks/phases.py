"""The two phases every card game here shares, and the protocol answers they give.

A deal starts as a chance node (``DEAL``: shuffle and deal) and a match ends in
``OVER``; between them the game's own phases (bidding, exchanges, play) name
the seat to act in ``to_act``. :class:`PhaseTurns` answers the protocol's
``current_player`` / ``is_chance_node`` / ``is_terminal`` from that, once for
every game.
"""

from __future__ import annotations

from goat.protocol import CHANCE, TERMINAL

DEAL = "deal"   # chance: shuffle and deal
OVER = "over"   # the match (or the single deal) is over


class PhaseTurns:
    """Protocol turn answers for a state with ``phase`` and ``to_act``."""

    phase: str
    to_act: int

    def current_player(self) -> int:
        if self.phase == OVER:
            return TERMINAL
        if self.phase == DEAL:
            return CHANCE
        return self.to_act

    def is_chance_node(self) -> bool:
        return self.phase == DEAL

    def is_terminal(self) -> bool:
        return self.phase == OVER
