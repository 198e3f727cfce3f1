"""A second reading of the world sampler: what a world must not contradict.

The strongest check of a world is the seat's whole view (``world.view(seat) ==
view``, legal actions included). Some facts a seat has seen are in the view only
as copied match facts, though, so view equality alone does not check the world
against them: these tests do.
"""

from __future__ import annotations

import random

from goat.games.kozel import KozelWorldSampler, new_state

from .test_worlds import seat_view


def between_deals(preset: str, seed: int, deals: int):
    """Views of every seat of a seeded random match each time a deal has just ended."""
    rng = random.Random(seed)
    state = new_state(preset, first_dealer=seed % 4)
    seen = 0
    while not state.is_terminal() and seen < deals:
        if state.is_chance_node():
            if state.deal_results:
                seen += 1
                yield [seat_view(state, seat) for seat in range(state.rules.players)]
            state.apply_chance(state.sample_chance(rng))
            continue
        actions = state.legal_actions()
        state.apply_action(actions[rng.randrange(len(actions))])


def test_a_world_after_a_street_deal_has_the_deals_public_points() -> None:
    """Street's passes are face down, so which cards a team's pile holds is hidden,
    but the points of the deal just ended are public (``deal_results``). A world
    drawn between deals replayed the deal with passes at random and then copied
    the result from the view: its piles disagreed with the points the seat had
    seen in about four worlds of five. Now such a replay is redrawn."""
    checked = 0
    for seed in range(3):
        for views in between_deals("street", seed, 3):
            for view in views:
                sampler = KozelWorldSampler(view)
                rng = random.Random(checked)
                for _ in range(3):
                    world = sampler.sample(rng)
                    last = view["deal_results"][-1]
                    assert world.points() == last["points"], (seed, view["seat"])
                    assert world.tricks_won == last["tricks"]
                    assert seat_view(world, view["seat"]) == view
                    checked += 1
    assert checked >= 60


def test_point_splits_are_counted_and_drawn_uniformly() -> None:
    """What that redraw rests on, against brute force: the subsets of the unseen
    cards of one size worth the points a pile needs, each drawn equally often."""
    from collections import Counter
    from itertools import combinations

    from goat.games.kozel.point_split import count_splits, sample_split

    rng = random.Random(3)
    for _ in range(40):
        values = [rng.choice((0, 0, 2, 3, 4, 10, 11)) for _ in range(rng.randint(0, 8))]
        size = rng.randint(0, len(values))
        subsets = [c for c in combinations(range(len(values)), size)]
        sums = Counter(sum(values[i] for i in c) for c in subsets)
        for total in {*sums, 7, 200}:
            assert count_splits(values, size, total) == sums.get(total, 0)
    values, size, total = [0, 0, 2, 3, 10, 11, 11, 4], 3, 13
    fitting = [c for c in combinations(range(len(values)), size) if sum(values[i] for i in c) == total]
    draws = Counter(tuple(sorted(sample_split(rng, values, size, total))) for _ in range(200 * len(fitting)))
    assert set(draws) == set(fitting)
    assert all(150 < n < 250 for n in draws.values()), draws   # 200 expected each, sd about 14
