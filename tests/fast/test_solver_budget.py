"""The solver's node budget (``max_nodes``): a solve that runs out raises
:class:`~goat.fast.solver.SolverBudgetExceeded` and leaves nothing behind; one
that does not gives the exact value with the very same search.

Why it matters: ``pimc`` with a time limit solves each world with a budget made
from the time left (:mod:`goat.bots.pimc`); a wrong value from an unwound search,
or a wrong table entry reused later, would make its choices wrong without a
trace.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from goat.bench.solver import kozel_position
from goat.cards import Card
from goat.fast import solver
from goat.fast import solver_core as core
from goat.fast import solver_search, solver_solo
from goat.fast.solver import SolverBudgetExceeded, SolverError, evaluate_moves, nodes_used, solve
from goat.fast.solver_plain import solve_plain
from goat.protocol import GoatError


def played_in(preset: str, seed: int, plays: int) -> Any:
    """A deal of ``preset`` (or an individual-play row of the bench) ``plays``
    random card plays after its first lead (a 2-player deal from the first lead
    is seconds to solve: a few tricks in it is milliseconds)."""
    rng = random.Random(seed)
    state = kozel_position(preset, rng)
    for _ in range(plays):
        actions = state.legal_actions()
        if state.phase != "play" or len(actions) < 1:
            break
        state.apply_action(rng.choice(actions))
    assert state.phase == "play" and not state.is_terminal()
    return state


DEALS = [("full-hand", 1, 0), ("classic", 2, 0), ("full-hand, 3 players", 3, 0),
         ("full-hand, 2 players", 4, 8)]


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> Any:
    """``fresh()`` gives this thread a new solver workspace, so the solves after
    it take the same table generations as after any other ``fresh()``: the node
    count of a solve depends on them (the generation is part of the hashed key,
    so which entries collide varies), its value never."""
    monkeypatch.setattr(solver._LOCAL, "workspace", solver._Workspace(), raising=False)

    def make() -> None:
        solver._LOCAL.workspace = solver._Workspace()

    return make


def budgets(nodes: int) -> list[int]:
    """Budgets from a single node to more than the solve needs."""
    return sorted({1, 2, 3, 7, 40, nodes // 10 + 1, nodes // 3 + 1, nodes // 2 + 1,
                   nodes - 1, nodes, nodes + 1, 10 * nodes})


@pytest.mark.parametrize("preset, seed, plays", DEALS)
def test_a_budgeted_solve_is_exact_or_raises_and_leaves_nothing(preset: str, seed: int, plays: int,
                                                                 fresh: Any) -> None:
    """For every budget the solve either raises or returns exactly the unlimited
    value, and the unlimited solve right after it gives the same value; a budget
    of the nodes the solve takes always suffices, a single node never does."""
    state = played_in(preset, seed, plays)
    fresh()
    exact = solve(state, 0)
    nodes = nodes_used()
    assert nodes > 40
    aborted = 0
    for b in budgets(nodes):
        fresh()
        try:
            value = solve(state, 0, max_nodes=b)
        except SolverBudgetExceeded:
            aborted += 1
            assert b < nodes
            assert nodes_used() > b   # it searched its budget, then stopped
        else:
            assert value == exact, (preset, b)
        assert solve(state, 0) == exact, (preset, b)
    assert aborted >= 6
    with pytest.raises(SolverBudgetExceeded):
        solve(state, 0, max_nodes=1)


@pytest.mark.parametrize("preset, seed, plays", DEALS)
def test_budgeted_move_values_are_all_exact_or_none(preset: str, seed: int, plays: int,
                                                    fresh: Any) -> None:
    """:func:`evaluate_moves` counts the guess search and every root move in one
    budget: it returns all the exact values or raises."""
    state = played_in(preset, seed, plays)
    fresh()
    exact = evaluate_moves(state)
    nodes = nodes_used()
    aborted = 0
    for b in budgets(nodes):
        fresh()
        try:
            values = evaluate_moves(state, max_nodes=b)
        except SolverBudgetExceeded:
            aborted += 1
        else:
            assert values == exact, (preset, b)
        assert evaluate_moves(state) == exact
    assert aborted >= 6
    fresh()
    assert evaluate_moves(state, max_nodes=nodes) == exact   # the same search: the same nodes


@pytest.mark.parametrize("preset, seed, plays", DEALS)
def test_no_budget_searches_the_same_nodes(preset: str, seed: int, plays: int, fresh: Any) -> None:
    """Without a budget (the default) and with a huge one the search is the same,
    node for node: the check costs a compare, never a change of the search."""
    state = played_in(preset, seed, plays)
    fresh()
    value = solve(state, 0)
    nodes = nodes_used()
    assert solver._workspace().W[core.NODES] == nodes
    for limit in (10**15, None, nodes):
        fresh()
        assert solve(state, 0, max_nodes=limit) == value and nodes_used() == nodes, limit


@pytest.mark.parametrize("preset, seed, plays", DEALS)
def test_an_aborted_search_stores_no_entry(preset: str, seed: int, plays: int) -> None:
    """The kernels themselves, in one table generation: after a search aborted
    by its budget, a search of the same position *in the same generation* (so
    every entry the aborted one stored is read) still finds the exact value —
    an unwound frame stores nothing (its bound would be wrong)."""
    state = played_in(preset, seed, plays)
    exact = solve(state, 0) - int(state.points()[0])
    nodes = nodes_used()
    kernel = solver_solo if not state.rules.partnerships else solver_search
    ws = solver._workspace()
    for b in budgets(nodes):
        if b >= nodes // 2:
            continue
        gen = ws.next_gen()
        W, _ = solver._encode(state, 0, ws, gen)
        W[core.MAX_NODES] = b
        kernel.mtdf(W, ws.tt, exact)
        assert W[core.ABORTED] == 1, b
        W, _ = solver._encode(state, 0, ws, gen)   # the same generation
        assert int(kernel.mtdf(W, ws.tt, 0)) == exact, (preset, b)
        assert W[core.ABORTED] == 0


def test_max_nodes_is_checked_and_an_abort_is_not_unsupported() -> None:
    state = played_in("classic", 2, 0)
    for bad in (0, -5, 1.5, "many", True):
        with pytest.raises(SolverError, match="max_nodes must be a whole number >= 1"):
            solve(state, max_nodes=bad)
        with pytest.raises(SolverError, match="max_nodes"):
            evaluate_moves(state, max_nodes=bad)
    # "ran out" is not "cannot take this position": a caller treating SolverError
    # as unsupported must not drop a ruleset because of one short budget
    assert not issubclass(SolverBudgetExceeded, SolverError)
    assert issubclass(SolverBudgetExceeded, GoatError)
    with pytest.raises(SolverBudgetExceeded, match="budget of 3 nodes"):
        evaluate_moves(state, max_nodes=3)


# ------------------------------------------------------------- stop_after: a deadline in time
def wait_until_expired(limit: float = 10.0) -> None:
    """Until this thread's open ``stop_after`` block has gone off (its timer
    thread ran): no guess at how long a thread takes to start."""
    import time

    ws = solver._workspace()
    end = time.monotonic() + limit
    while not ws.expired:
        assert time.monotonic() < end, "the stop_after timer never went off"
        time.sleep(0.001)


def test_stop_after_stops_a_running_solve_and_leaves_the_next_exact(fresh: Any) -> None:
    """A timer cuts the solve that is running (the search releases the GIL, the
    timer thread sets its budget to one node): solving 2-player deals from their
    first lead — seconds of work in all — under a block of 5 ms (longer where a loaded
    machine ran it out before the first search began) raises, and the
    same position solved after the block has its exact value. (The exact values
    come first: they also make the large table 2-player deals search in, which
    takes milliseconds itself.)"""
    states = [played_in("full-hand, 2 players", seed, 0) for seed in range(30)]
    exact = evaluate_moves(states[0])
    # On a loaded machine the timer may run out before the first search starts (then the
    # solve is refused before searching: the next test); a longer block is tried then.
    for block in (0.005, 0.02, 0.1, 0.5):
        with pytest.raises(SolverBudgetExceeded, match="time ran out"):
            with solver.stop_after(block):
                for state in states:
                    evaluate_moves(state)
        if nodes_used() > 0:   # cut while searching
            break
    assert nodes_used() > 0
    assert evaluate_moves(states[0]) == exact
    fresh()
    assert evaluate_moves(states[0]) == exact


def test_a_solve_after_the_time_ran_out_raises_at_once_until_the_block_ends(fresh: Any) -> None:
    state = played_in("full-hand", 1, 4)
    expected = solve(state, 0)
    with solver.stop_after(0.0):
        wait_until_expired()
        with pytest.raises(SolverBudgetExceeded, match="time ran out"):
            solve(state, 0)
        assert nodes_used() == 0
        with pytest.raises(SolverBudgetExceeded):
            evaluate_moves(state)
    assert solve(state, 0) == expected           # the block is over: no stop left behind
    assert solver._workspace().W[core.MAX_NODES] == 0


def test_a_block_that_ends_in_time_changes_nothing(fresh: Any) -> None:
    state = played_in("classic", 2, 0)
    expected = evaluate_moves(state)
    nodes = nodes_used()
    fresh()
    with solver.stop_after(3600):
        assert evaluate_moves(state) == expected
        assert nodes_used() == nodes               # the very same search
    ws = solver._workspace()
    assert ws.alarm is None and not ws.expired


@pytest.mark.parametrize("seconds", ["1", None, float("nan"), True])
def test_stop_after_refuses_what_is_not_a_number_of_seconds(seconds: Any) -> None:
    with pytest.raises(SolverError, match="seconds"):
        with solver.stop_after(seconds):
            pass


def test_each_search_takes_the_table_its_size_needs(fresh: Any) -> None:
    """The searches of a few tens of thousands of nodes (4 and 3 players under the
    default rules, the trick-counting solver) use the small table, which stays in
    a core's cache; the large searches (2 players, a trump allowed on a plain lead
    by its suit's holder) the large one, made only when first needed. The values
    are the table's business only through the time they take."""
    ws = solver._workspace()
    small, large = 4 << solver.SMALL_TT_BITS, 4 << solver.TT_BITS
    assert list(ws.tables) == [False]                       # the large table is not made up front
    for preset, seed, plays, wanted in [("full-hand", 1, 0, small), ("full-hand, 2 players", 4, 8, large),
                                        ("classic", 2, 0, small), ("full-hand, 3 players", 3, 0, small)]:
        value = solve(played_in(preset, seed, plays), 0)
        assert ws.tt.shape[0] == wanted, preset
        solver._LOCAL.workspace = solver._Workspace(small_bits=solver.TT_BITS)   # one table size for all
        assert solve(played_in(preset, seed, plays), 0) == value
        solver._LOCAL.workspace = ws
    rng = random.Random(5)
    always = kozel_position("full-hand", rng, {"trump_on_plain": "always"})
    for _ in range(12):
        always.apply_action(rng.choice(always.legal_actions()))
    solve(always, 0)
    assert ws.tt.shape[0] == large
    hands = [[Card(r, s) for r in "AK"] for s in "SHDC"]
    assert solve_plain(hands, 0, "S") == 2 and ws.tt.shape[0] == small
