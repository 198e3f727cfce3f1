"""The sampler's worlds against every world there is, in small full-hand endings.

``world_oracle.exact_worlds`` enumerates, through the engine alone, every
(initial deal, hidden cards) pair that gives a seat its view, and counts them by
the other seats' hands now. The sampler must draw exactly those hands (none the
view rules out, every one it allows: no rule read too strictly) and, as its
docstring promises, uniformly over the pairs: a chi-square test on a few
thousand seeded draws, at a strict level (seeded, so it cannot flake).
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter

import pytest

from goat.games.kozel import KozelState, KozelWorldSampler, new_state

from .world_oracle import exact_worlds, hidden_hands

#: (preset, players, options, seed, most cards hidden from the seat): endings with
#: voids, partner exchanges, forced exchanges (trump leads barred after the own
#: team led) and the full-hand text's trumping ("always").
CASES = [
    ("full-hand", 3, {}, 1, 6),
    ("full-hand", 3, {"trump_on_plain": "always", "trump_lead": "free"}, 4, 6),
    ("full-hand", 4, {}, 3, 6),
    ("full-hand", 4, {"trump_lead": "not-after-own-lead", "partner_exchange": 0}, 11, 6),
    ("full-hand", 4, {"trump_lead": "not-after-own-lead", "partner_exchange": 0}, 30, 6),
    ("full-hand", 4, {"trump_lead": "not-after-own-lead"}, 2, 5),
    ("full-hand", 4, {"must_follow_trump": False, "trump_on_plain": "always"}, 5, 6),
    ("full-hand-24", 4, {"partner_exchange": 0}, 7, 6),
    # with a stock: the cards drawn after the first trick (late slots a void shown
    # before the draw does not cover; some hands fit in five or seven times as many ways as others)
    ("full-hand", 3, {"deck": "24", "hand_size": 7}, 5, 6),
    ("classic", 4, {"deck": "24", "hand_size": 5}, 6, 5),
    ("classic", 4, {"deck": "24", "hand_size": 5, "trump_lead": "not-after-own-lead"}, 4, 5),
]
DRAWS = 1200


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square variable with ``df`` degrees of freedom
    (the regularized lower incomplete gamma by its series)."""
    a, z = df / 2, x / 2
    if z <= 0:
        return 1.0
    term = total = 1 / a
    n = 0
    while term > 1e-16 * total:
        n += 1
        term *= z / (a + n)
        total += term
    return max(0.0, 1.0 - total * math.exp(-z + a * math.log(z) - math.lgamma(a)))


def ending(preset: str, players: int, options: dict, seed: int, most: int) -> tuple[KozelState, KozelState, int]:
    """The first position of a seeded random match, after the last draw, where
    some seat (the one returned) has between 3 and ``most`` cards hidden from
    it, and the match just before that deal was dealt."""
    rng = random.Random(seed)
    state = new_state(preset, players=players, options=options, first_dealer=seed % players)
    start = state
    while not state.is_terminal():
        if state.is_chance_node():
            start = state.clone()
            state.apply_chance(state.sample_chance(rng))
            continue
        if state.phase == "play" and not state.stock:
            for seat in range(players):
                if 3 <= sum(len(h) for s, h in enumerate(state.hands) if s != seat) <= most:
                    return start, state, seat
        actions = state.legal_actions()
        state.apply_action(actions[rng.randrange(len(actions))])
    raise AssertionError("no such ending in this match")


@pytest.mark.slow
@pytest.mark.parametrize("preset,players,options,seed,most", CASES)
def test_worlds_are_every_fitting_world_uniformly(preset, players, options, seed, most):
    start, state, seat = ending(preset, players, options, seed, most)
    exact = exact_worlds(start, state, seat)
    assert exact[hidden_hands(state, seat)] > 0   # the oracle finds the real deal
    sampler = KozelWorldSampler(json.loads(json.dumps(state.view(seat))))
    rng = random.Random(seed)
    drawn = Counter(hidden_hands(sampler.sample(rng), seat) for _ in range(DRAWS))
    assert set(drawn) <= set(exact), "a world the view rules out"
    total = sum(exact.values())
    expected = {key: DRAWS * n / total for key, n in exact.items()}
    assert all(key in drawn for key, e in expected.items() if e >= 5), "a world the view allows is never drawn"
    chi2 = sum((drawn[key] - e) ** 2 / e for key, e in expected.items())
    assert len(expected) > 2
    assert chi2_sf(chi2, len(expected) - 1) > 1e-4, (chi2, len(expected))
