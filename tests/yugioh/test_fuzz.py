"""Seeded random-bot fuzzing of whole Goat Control mirror matches.

Invariants: card conservation across zones, zone limits, every match ends,
every match replays identically from its record (through ``goat.records``)."""

from __future__ import annotations

import json
import random

import pytest

from goat.games.yugioh import new_state, record_from_state
from goat.protocol import play_out
from goat.records import check_result, replay

from .invariants import check_invariants

SEEDS = range(60)


def play_match(seed: int, rules: str = "goat", check_every: int = 1):
    state = new_state(rules, seed=seed)
    rng = random.Random(seed)
    steps = 0

    def choose(s):
        nonlocal steps
        steps += 1
        if steps % check_every == 0:
            check_invariants(s)
        actions = s.legal_actions()
        return actions[rng.randrange(len(actions))]

    play_out(state, choose, rng, max_steps=50_000)
    check_invariants(state)
    return state


@pytest.mark.parametrize("seed", SEEDS)
def test_random_goat_match_ends_and_replays(seed: int) -> None:
    state = play_match(seed, check_every=3)
    assert state.is_terminal()
    assert state.match_winner in (0, 1)  # goat: no drawn matches
    record = json.loads(json.dumps(record_from_state(state)))
    outcome = replay(record)
    check_result(record, outcome)
    assert outcome.state.actions == state.actions
    assert outcome.state.information_state_string(0) == state.information_state_string(0)


@pytest.mark.parametrize("seed", range(10))
def test_random_official_match_ends_and_replays(seed: int) -> None:
    state = play_match(seed, rules="official", check_every=5)
    record = json.loads(json.dumps(record_from_state(state)))
    outcome = replay(record)
    check_result(record, outcome)
    assert len(state.results) <= 3


def test_seed_only_record_replays() -> None:
    """A record without chance outcomes replays from its seed (chance from random.Random(seed))."""
    from goat.bots import make_bot
    from goat.bots.base import play_bots

    state = new_state("goat", seed=7)
    bots = [make_bot("random", s, game="yugioh") for s in (1, 2)]
    play_bots(state, bots, random.Random(7))
    record = record_from_state(state)
    del record["chance"]
    outcome = replay(record)
    check_result(record, outcome)


def test_clone_is_independent() -> None:
    state = new_state("goat", seed=3)
    rng = random.Random(3)
    for _ in range(200):
        if state.is_chance_node():
            state.apply_chance(state.sample_chance(rng))
        else:
            actions = state.legal_actions()
            state.apply_action(actions[rng.randrange(len(actions))])
    copy = state.clone()
    assert copy.information_state_string(None) == state.information_state_string(None)
    before = state.information_state_string(None)
    play_out(copy, lambda s: s.legal_actions()[0], random.Random(1))
    assert state.information_state_string(None) == before


try:
    from hypothesis import given, settings, strategies as st
except ImportError:  # pragma: no cover
    pass
else:
    @settings(max_examples=12, deadline=None)
    @given(seed=st.integers(min_value=0, max_value=2**32 - 1), rules=st.sampled_from(["goat", "official"]))
    def test_property_any_seed_single_duel_keeps_invariants_and_replays(seed: int, rules: str) -> None:
        state = new_state(rules, single_duel=True, seed=seed)
        rng = random.Random(seed)

        def choose(s):
            check_invariants(s)
            actions = s.legal_actions()
            return actions[rng.randrange(len(actions))]

        play_out(state, choose, rng, max_steps=20_000)
        record = json.loads(json.dumps(record_from_state(state)))
        outcome = replay(record)
        check_result(record, outcome)
