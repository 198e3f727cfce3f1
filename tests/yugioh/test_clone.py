"""``YugiohState.clone()`` replays only the current duel, from the ``DuelStart``
the state keeps, and gives exactly the state the from-start replay
(``replayed()``) gives: every view, legal action, history, result, record, and
the play that follows."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from goat.games.yugioh import new_state, record_from_state
from goat.games.yugioh.state import YugiohState
from goat.protocol import play_random_steps

from .invariants import check_invariants

#: Steps both copies play on after a check, with the same random choices.
PLAY_ON = 150


def observable(state: YugiohState) -> dict[str, Any]:
    """Everything a user of the state can see of it (and the clone's own start point)."""
    return {
        "views": [json.dumps(state.view(seat), sort_keys=True) for seat in (0, 1, None)],
        "legal": state.legal_texts(),
        "histories": [state.history_of(seat) for seat in (0, 1, None)],
        "results": state.results,
        "returns": state.returns(),
        "record": record_from_state(state),
        "summary": state.summary_lines(),
        "current": state.current_player(),
        "pending": repr(state.pending()),
        "decks": state.decks,
        "over": (state.over, state.match_winner, state.wins),
        "last_facts": [(fact, None if card is None else (card.uid, card.name)) for fact, card in state.last_facts],
        "duel_start": state._duel_start,
    }


def check_clone(state: YugiohState, seed: int) -> None:
    """The clone equals the from-start replay now and after the same play on both,
    and playing on the copies leaves ``state`` alone."""
    before = observable(state)
    fast, slow = state.clone(), state.replayed()
    assert observable(fast) == observable(slow) == before
    assert observable(fast.clone()) == before  # a clone's own start point is right too
    for copy in (fast, slow):
        play_random_steps(copy, random.Random(seed), PLAY_ON)
        check_invariants(copy)
    assert observable(fast) == observable(slow)
    assert observable(state) == before


def at_a_duel_start(state: YugiohState) -> bool:
    """Just after "choose first/second": the duel built, nothing of it replayed."""
    start = state._duel_start
    return start is not None and (start.chances, start.actions) == (len(state.chances), len(state.actions))


def kind(state: YugiohState) -> str | None:
    pending = state.pending()
    return getattr(pending, "kind", None)


def play_and_check(seed: int, rules: str, decks: str, points: set[int]) -> YugiohState:
    """Play a whole seeded random match, checking clones at the steps in
    ``points``, at each duel's start and the decision before it, at the first
    side-deck decision between two duels, and at the end."""
    state = new_state(rules, {"decks": decks}, seed=seed)
    rng = random.Random(seed)
    step, last_kind = 0, None
    while not state.is_terminal():
        now = kind(state)
        special = at_a_duel_start(state) or now == "first" or (now == "side" and last_kind != "side")
        if step in points or special:
            check_clone(state, seed + step)
        last_kind = now
        play_random_steps(state, rng, 1)
        step += 1
    check_clone(state, seed)
    return state


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1),
       rules=st.sampled_from(["goat", "official"]),
       decks=st.sampled_from(["goat_control", "goat_control/chaos_warrior", "chaos_warrior"]),
       points=st.sets(st.integers(min_value=0, max_value=3000), max_size=3))
def test_property_a_clone_anywhere_is_the_from_start_replay(seed: int, rules: str, decks: str,
                                                             points: set[int]) -> None:
    play_and_check(seed, rules, decks, points)


def counting_steps(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the chance outcomes and decisions applied from now on."""
    count = [0]
    for name in ("apply_chance", "apply_action"):
        original = getattr(YugiohState, name)

        def counted(self: YugiohState, value: Any, original: Any = original) -> None:
            count[0] += 1
            original(self, value)

        monkeypatch.setattr(YugiohState, name, counted)
    return count


@pytest.mark.parametrize("seed", [3, 9])  # matches that reach duel 3, turn 4 after a hidden side-deck swap
def test_a_clone_in_the_third_duel_replays_that_duel_only(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    def late(s: YugiohState) -> bool:
        return s.duel is not None and s.duel.number == 3 and s.duel.turn >= 4

    state = play_random_steps(new_state("goat", seed=seed), random.Random(seed), 100_000, late)
    assert late(state) and any(e.endswith(" swap ?") for e in state.history_of(None))
    start = state._duel_start
    in_duel = len(state.chances) - start.chances + len(state.actions) - start.actions
    count = counting_steps(monkeypatch)
    copy = state.clone()
    assert count[0] == in_duel < len(state.chances) + len(state.actions) // 4
    count[0] = 0
    assert observable(state.replayed()) == observable(copy)
    assert count[0] == len(state.chances) + len(state.actions)


def test_before_the_first_duel_a_clone_replays_from_the_start() -> None:
    state = new_state("goat", seed=2)
    assert state._duel_start is None and state.is_chance_node()
    check_clone(state, 2)
    state.apply_chance(1)
    assert kind(state) == "first"
    check_clone(state, 2)
