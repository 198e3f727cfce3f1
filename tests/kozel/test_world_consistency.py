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


# ---------------------------------------------------------------- no leak
from copy import deepcopy  # noqa: E402

import pytest  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from goat.games.kozel import sample_world  # noqa: E402

from .test_world_sampler import fingerprint  # noqa: E402
from .test_worlds import RULESETS, random_point  # noqa: E402


def _containers(obj, out: set[int], depth: int = 0) -> set[int]:
    """The ids of every list, dict and tuple reachable from ``obj``."""
    if depth > 6:
        return out
    if isinstance(obj, (list, dict, tuple, set, frozenset)):
        if id(obj) in out:
            return out
        out.add(id(obj))
        items = obj.items() if isinstance(obj, dict) else enumerate(obj) if isinstance(obj, (list, tuple)) else []
        for _, value in items:
            _containers(value, out, depth + 1)
    elif hasattr(obj, "__dict__") and not isinstance(obj, type):
        for value in vars(obj).values():
            _containers(value, out, depth + 1)
    return out


def _plain(obj) -> bool:
    if isinstance(obj, dict):
        return all(isinstance(k, str) and _plain(v) for k, v in obj.items())
    if isinstance(obj, list):
        return all(_plain(v) for v in obj)
    return obj is None or isinstance(obj, (str, int, float, bool))


@pytest.mark.parametrize("preset,players", RULESETS)
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(1, 160), world_seed=st.integers(0, 10**6))
def test_worlds_depend_on_the_view_alone(preset, players, seed, steps, world_seed):
    """What a bot hands the sampler is ``state.view(seat)`` itself (not JSON):
    plain data, no list or dict of it shared with the state (so nothing hidden
    is reachable through it), and the sampler leaves it as it was. Two states the
    seat cannot tell apart — the real one and a world drawn for it, whose hidden
    cards differ — give the same worlds for the same rng: nothing but the view
    reaches them."""
    state = random_point(preset, players, seed, steps)
    for seat in range(players):
        view = state.view(seat)
        assert _plain(view)
        shared = _containers(view, set()) & _containers(state, set())
        assert not shared
        before = deepcopy(view)
        other = sample_world(view, random.Random(world_seed))
        assert view == before
        twin = other.view(seat)
        assert twin == view
        assert fingerprint(sample_world(view, random.Random(seed))) == \
            fingerprint(sample_world(twin, random.Random(seed)))
