"""The solver's rank-pattern ("quasi-symmetric") table entries never change a value.

A hit there takes the bounds stored for another position with the same holders
of the i-th live card of each class and corrects them by the point difference of
the rank-mapped cards (:func:`goat.fast.solver_search.quasi_probe`). A wrong
correction, or a position the argument does not cover (a forced exchange, a lead
restriction, a possible shamok catch whose cards the key does not fix) would show
as a value that differs from the solve without them (``USE_QUASI`` off), which the
other solver tests check against brute force on small endings only: these
positions are too big for that.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from goat.cards import Card
from goat.fast import solver, solver_core as core
from goat.fast.solver import evaluate_moves, solve
from goat.games.kozel import new_state
from goat.games.kozel.phases import FORCED_RETURN, PARTNER_EXCHANGE, PLAY


def random_options(rng: random.Random) -> dict[str, Any]:
    return {"trump_lead": rng.choice(["previous-opener", "not-after-own-lead", "opening-only", "free"]),
            "must_follow_trump": rng.random() < 0.75, "forced_exchange": rng.random() < 0.8}


def dealt(rng: random.Random, preset: str) -> Any:
    """A random single deal of ``preset`` (random trump-lead options) at its first lead."""
    state = new_state(preset, options=random_options(rng), single_deal=True)
    state.apply_chance(state.sample_chance(rng))
    while state.phase == PARTNER_EXCHANGE:
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def whole_deal(rng: random.Random) -> Any:
    """A whole deal, sometimes a few random cards into it (mid-trick included)."""
    state = dealt(rng, rng.choice(["full-hand", "classic"]))
    for _ in range(rng.choice([0, 0, 3, 6])):
        if state.phase not in (PLAY, FORCED_RETURN) or state.deal_results:
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def ending(rng: random.Random, catch_share: float = 0.4) -> Any:
    """A made-up trick start with 4-6 cards a hand and no stock (so every trick
    start of its search may use the rank-pattern entries), random trump-lead state,
    the shamok and the queen of clubs in opposite teams in ``catch_share`` of them
    (a catch possible: the entries then fix where those two sit)."""
    state = dealt(rng, rng.choice(["classic", "full-hand", "full-hand-24"]))
    pool = [c for h in state.hands for c in h] + list(state.stock)
    rng.shuffle(pool)
    size = rng.choice([4, 5, 6])
    if state.rules.has_shamok and rng.random() < catch_share:
        for card, at in ((Card.parse("7C"), 0), (Card.parse("QC"), size * rng.randrange(1, 4))):
            pool.remove(card)
            pool.insert(at, card)
    state.hands = [pool[i * size:(i + 1) * size] for i in range(4)]
    state.stock = []
    state.piles = [[], []]
    state.phase = PLAY
    state.trick = []
    state.must_lead = None
    state.tricks_played = rng.choice([1, 3])
    state.prev_opening_team = rng.choice([None, 0, 1])
    state.prev_trick_leader_team = rng.choice([0, 1])
    state.to_act = state.trick_leader = rng.randrange(4)
    return state


def values_of(state: Any, quasi: bool, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, ...]:
    """Both sides' values and the mover's value of each move, with the rank-pattern
    entries on or off; and, when on, the cut-offs they made in the last solve, all
    and those with a shamok catch possible."""
    monkeypatch.setattr(core, "USE_QUASI", quasi)
    both = (solve(state, 0), solve(state, 1))
    W = solver._workspace().W
    cuts = (int(W[core.Q_CUTS]), int(W[core.Q_CATCH_CUTS]))
    moves = {str(a): v for a, v in evaluate_moves(state).items()}
    return both, moves, cuts


MAKERS = {"whole deals": whole_deal, "endings": ending,
          "catch endings": lambda rng: ending(rng, catch_share=1.0)}


@pytest.mark.parametrize("kind", list(MAKERS))
def test_rank_pattern_entries_do_not_change_values(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(4000 + list(MAKERS).index(kind))
    cuts = catch_cuts = 0
    for _ in range(16):
        state = MAKERS[kind](rng)
        if state.phase not in (PLAY, FORCED_RETURN) or state.deal_results:
            continue
        on, moves_on, (cut, catch_cut) = values_of(state, True, monkeypatch)
        off, moves_off, no_cuts = values_of(state, False, monkeypatch)
        assert (on, moves_on) == (off, moves_off), (state.hands, state.trick, state.trick_leader)
        assert no_cuts == (0, 0)
        cuts += cut
        catch_cuts += catch_cut
    assert cuts > 100  # the entries were used, not just stored
    assert catch_cuts > 0  # ... also where a catch was possible (their bounds may be decisive)
