"""Seeded random-bot fuzzing with Counter Traps: Goat Control plus three each of
Magic Jammer, Seven Tools of the Bandit and Solemn Judgment against the shipped
lists (same invariants as ``test_fuzz``: card conservation, zones, every match
ends, every record replays to the same result and views), and worlds sampled
from views where a Set card may be a Counter Trap."""

from __future__ import annotations

import json
import random

import pytest

from goat.games.yugioh import DeckList, YugiohState, builtin_deck, check_deck, make_rules, record_from_state
from goat.protocol import play_out, play_random_steps
from goat.records import check_result, replay

from .invariants import check_invariants

_CONTROL = builtin_deck("goat_control")
COUNTERS = DeckList(_CONTROL.main + ("Magic Jammer", "Seven Tools of the Bandit", "Solemn Judgment") * 3,
                    _CONTROL.fusion)
NEGATIONS = ("negatesActivation", "summonNegated")


def _play(seed: int, rules: str, ask: str) -> tuple[YugiohState, list[str]]:
    decks = (COUNTERS, builtin_deck("goat_control") if seed % 2 else COUNTERS)
    rule_set = make_rules(rules, {"ask_responses": ask})
    for deck in decks:
        check_deck(deck, rule_set)
    state = YugiohState(rule_set, decks, single_duel=seed % 3 == 0, seed=seed)
    rng = random.Random(seed)
    steps = 0
    keys: list[str] = []
    read = {}  # duel -> log lines read

    def note(s) -> None:
        if s.duel is not None:
            start = read.get(id(s.duel), 0)
            keys.extend(e.line.key for e in s.duel.log[start:] if e.line.key in NEGATIONS)
            read[id(s.duel)] = len(s.duel.log)

    def choose(s):
        nonlocal steps
        steps += 1
        if steps % 3 == 0:
            check_invariants(s)
        note(s)
        actions = s.legal_actions()
        return actions[rng.randrange(len(actions))]

    play_out(state, choose, rng, max_steps=50_000)
    note(state)
    return state, keys


@pytest.mark.parametrize("seed, rules, ask", [(s, "goat", "when-set-cards") for s in range(4)]
                         + [(s, "goat", "when-able") for s in range(4, 6)] + [(6, "official", "when-set-cards"),
                                                                             (7, "official", "always")])
def test_random_counter_trap_match_ends_and_replays(seed: int, rules: str, ask: str) -> None:
    state, _ = _play(seed, rules, ask)
    check_invariants(state)
    assert state.is_terminal()
    record = json.loads(json.dumps(record_from_state(state)))
    outcome = replay(record)
    check_result(record, outcome)
    for seat in (0, 1):
        assert outcome.state.information_state_string(seat) == state.information_state_string(seat)


def test_random_play_negates_activations_and_summons() -> None:
    """The fuzz above does exercise negation: over a few seeded matches both an
    activation and a Summon get negated."""
    seen: set[str] = set()
    for seed in range(8):
        seen |= set(_play(seed, "goat", "when-able")[1])
        if seen == set(NEGATIONS):
            break
    assert seen == set(NEGATIONS)


@pytest.mark.parametrize("seed, ask", [(0, "when-set-cards"), (1, "when-able"), (2, "when-able"), (3, "always")])
def test_sample_world_when_a_set_card_may_be_a_counter_trap(seed: int, ask: str) -> None:
    """A world drawn from a seat's view gives back that view, the other seat's
    list (with its Counter Traps) given as the assumption, under each ``ask_responses``."""
    from goat.games.yugioh import sample_world

    decks = (COUNTERS, COUNTERS)
    state = YugiohState(make_rules("goat", {"ask_responses": ask}), decks, single_duel=True, seed=seed)
    play_random_steps(state, random.Random(seed), 300)
    for seat in (0, 1):
        view = json.loads(json.dumps(state.view(seat)))
        world = sample_world(view, random.Random(seed), opponent_deck=decks[1 - seat])
        assert json.dumps(world.view(seat), sort_keys=True) == json.dumps(view, sort_keys=True)
