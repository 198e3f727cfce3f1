"""lowest.py: a Kozel bot that gives away as few card points as it can."""

import random

from goat.bots import BaseBot, register_bot
from goat.games.kozel.rules import CARD_POINTS, RANK_ORDER
from goat.protocol import Action


class LowestCardBot(BaseBot):
    """Plays the legal card worth the fewest points, the lowest rank among those
    (or one of them at random with the setting ``random_ties=true``)."""

    name = "lowest"
    games = ("kozel",)

    def __init__(self, seed=None, random_ties: bool = False) -> None:
        self.rng = random.Random(seed)   # all its chance from the seed: a game replays exactly
        self.random_ties = random_ties

    def choose(self, view: dict) -> Action:
        actions = [Action.parse(text) for text in view["legal_actions"]]

        def worth(action: Action) -> int:
            return sum(CARD_POINTS[card.rank] for card in action.cards)

        least = min(worth(action) for action in actions)
        cheapest = [action for action in actions if worth(action) == least]
        if self.random_ties:
            return self.rng.choice(cheapest)
        return min(cheapest, key=lambda action: [RANK_ORDER.index(card.rank) for card in action.cards])


register_bot("lowest", LowestCardBot)
