"""The random bot: uniformly random legal moves, reproducible from a seed.

It is the baseline every other bot is measured against, and the opponent the
CLI uses by default.
"""

from __future__ import annotations

import random

from goat.bots.base import BaseBot, View, legal_actions, required_actions
from goat.protocol import Action


class RandomBot(BaseBot):
    """Picks uniformly among the view's legal actions.

    Out of turn (a possible molodka, a Spades look) it picks uniformly among "stay silent" and
    each available action, so it declares about half the time when it can.
    """

    name = "random"

    def __init__(self, seed: int | str | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Action:
        actions = required_actions(view)
        return actions[self.rng.randrange(len(actions))]

    def out_of_turn(self, view: View) -> Action | None:
        actions = legal_actions(view)
        if not actions:
            return None
        pick = self.rng.randrange(len(actions) + 1)
        return actions[pick] if pick < len(actions) else None
