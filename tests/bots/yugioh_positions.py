"""Yu-Gi-Oh! decision points with a choice, from seeded random play of Goat Control
mirror duels: what the bot tests ask a Yu-Gi-Oh! bot to decide."""

from __future__ import annotations

import random
from typing import Any


def yugioh_positions(count: int, seed: int, steps: tuple[int, int] = (10, 150)) -> list[Any]:
    """``count`` states, each a fresh single duel played randomly for a number of
    steps drawn from ``steps`` and kept when it stops at a decision with two or more
    legal actions."""
    from goat.games.yugioh import new_state
    from goat.protocol import play_random_steps

    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = new_state("goat", seed=rng.randrange(1000), single_duel=True)
        play_random_steps(state, rng, rng.randrange(*steps))
        if not (state.is_terminal() or state.is_chance_node()) and len(state.legal_texts()) > 1:
            found.append(state)
    return found
