"""The deal's outcome with best play (:func:`goat.fast.solver.solve_outcome`):
null-window tests at the scoring lines only must give the class the exact value
of :func:`goat.fast.solver.solve` stands for under the scoring rules.

The expected class here is worked out from the exact value with
:func:`goat.games.kozel.scoring.deal_penalty` (and the shamok / royal-goat rules),
on whole deals and endings of every supported kind; made-up endings get the rest
of the deck in random piles, so the deal's 120 points are all there and the
point lines (61, 60, graded's 90/31) fall inside the values the search finds.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from goat.fast import solver as sv
from goat.fast import solver_core as core
from goat.fast import solver_outcome as so
from goat.fast import solver_search as search
from goat.fast.solver import (CATCH, ROYAL, DealOutcome, SolverBudgetExceeded, SolverError, rank_of,
                              solve, solve_outcome)
from goat.fast.solver_rank import fixed
from goat.games.kozel import new_state
from goat.games.kozel.phases import FORCED_RETURN, PARTNER_EXCHANGE
from goat.games.kozel.scoring import card_points, deal_penalty

from tests.fast import test_solver as t4
from tests.fast import test_solver_quasi as tq
from tests.fast import test_solver_solo as ts


# ================================================================ helpers
def with_options(state: Any, rng: random.Random) -> Any:
    """``state`` under random scoring options (penalty, tie, eggs) and, in a
    third of them, a pending "eggs" doubling of this deal's penalty."""
    # (unchecked: 3-player positions may use the 32-card deck, ts.three_with_32_cards)
    state.rules = ts.replace_unchecked(state.rules, penalty=rng.choice(["flat2", "graded"]),
                                       tie=rng.choice(["no-penalty", "annul"]),
                                       eggs=rng.choice(["nothing", "double-next"]))
    state.double_next = rng.random() < 0.3
    return state


def with_piles(state: Any, rng: random.Random) -> Any:
    """A made-up ending with the cards out of play put in the piles at random
    (sometimes all in one pile: a side with no trick yet), so the deal holds
    its 120 points as a real one does."""
    live = {c for h in state.hands for c in h} | set(state.stock) | {p.cards[0] for p in state.trick}
    out = [c for c in state.rules.deck_cards if c not in live]
    rng.shuffle(out)
    n = state.rules.num_teams
    piles: list[list[Any]] = [[] for _ in range(n)]
    lonely = rng.random() < 0.25
    for c in out:
        piles[0 if lonely else rng.randrange(n)].append(c)
    state.piles = piles
    state.tricks_won = [(len(p) + state.rules.players - 1) // state.rules.players for p in piles]
    return state


def expected(state: Any, side: int, value: int) -> tuple[str, tuple[int, ...] | None]:
    """The outcome class of the exact ``value`` under the scoring rules."""
    rules = state.rules
    n = rules.num_teams
    double = 2 if state.double_next else 1
    if abs(value) >= ROYAL:
        return (so.ROYAL_FOR if value > 0 else so.ROYAL_AGAINST), (0,) * n
    if abs(value) >= CATCH:
        if value < 0:
            return so.CATCH_AGAINST, tuple(double * rules.shamok_penalty * (t == side) for t in range(n))
        if n > 2:
            return so.CATCH_FOR, None
        return so.CATCH_FOR, tuple(double * rules.shamok_penalty * (t != side) for t in range(n))
    if n > 2:   # 3 players: the seat's own points only
        if value <= 60:
            return so.NO_WIN, None
        return so.WIN, (None if rules.penalty == "graded" else tuple(double * 2 * (t != side) for t in range(n)))
    live = [c for h in state.hands for c in h] + [p.cards[0] for p in state.trick] + list(state.stock)
    total = sum(state.points()) + card_points(live)
    points = [value if t == side else total - value for t in range(2)]
    score = deal_penalty(rules, points, [1, 1])
    if score.tie:
        return so.EGGS, (0, 0)
    kind = so.WIN if score.winner_team == side else so.LOSS
    return kind, tuple(double * p for p in score.penalty)


def check(state: Any, seen: dict[str, int]) -> None:
    """Every side's outcome equals the class of its exact value; the exact value
    lies in the proven bounds; tally what was seen. (A deal already over, as
    random play or a royal goat at the deal can leave it, is skipped.)"""
    if state.phase not in ("play", FORCED_RETURN):
        return
    for side in range(state.rules.num_teams):
        value = solve(state, side)
        got = solve_outcome(state, side)
        assert isinstance(got, DealOutcome)
        assert (got.kind, got.penalty) == expected(state, side, value), (side, value, got, state.hands,
                                                                         state.stock, state.trick)
        # (bounds in rank_of's order: the numbers' own under the fixed catch places; with
        # the catches placed by the options no test is run where every end left is of one outcome)
        assert rank_of(state, got.low) <= rank_of(state, value) <= rank_of(state, got.high), (value, got)
        assert got.side == side and (got.tests >= 1 or not fixed(state))
        graded_open = (state.rules.penalty == "graded" and got.kind in (so.WIN, so.LOSS)
                       and state.rules.num_teams == 2 and value in (0, so.total_points(state))
                       and state.tricks_won[side if value == 0 else 1 - side] == 0)
        assert ("no trick" in got.note) == graded_open, got
        seen[got.kind] = seen.get(got.kind, 0) + 1
        graded = state.rules.penalty == "graded" and got.kind in (so.WIN, so.LOSS)
        seen["graded"] = seen.get("graded", 0) + graded
        seen["graded 4"] = seen.get("graded 4", 0) + (graded and got.penalty is not None
                                                      and max(got.penalty) in (4, 8))
        seen["exchange"] = seen.get("exchange", 0) + (state.phase == FORCED_RETURN)
        seen["doubled"] = seen.get("doubled", 0) + (state.double_next and bool(got.penalty and any(got.penalty)))
        seen["tests"] = seen.get("tests", 0) + got.tests
        seen["sides"] = seen.get("sides", 0) + 1


def four_player_endings(rng: random.Random, trump_on_plain: str = "when-void") -> Any:
    """Small 4-player positions (:func:`tests.fast.test_solver.random_position`:
    classic with a stock, forced exchanges, catches) with full piles."""
    while True:
        state = t4.random_position(rng, trump_on_plain)
        if state.phase in ("play", FORCED_RETURN) and not state.is_terminal():
            return with_options(with_piles(state, rng), rng)


def forced_returns(rng: random.Random) -> Any:
    """A small 4-player position where the partner must return a plain card in
    a forced exchange (not a kernel position: tested through its replies)."""
    while True:
        state = t4.random_position(rng)
        if state.phase == "play" and not state.trick:
            gives = [a for a in state.legal_actions() if a.verb == "give"]
            if gives:
                state.apply_action(rng.choice(gives))
        if state.phase == FORCED_RETURN:
            return with_options(with_piles(state, rng), rng)


# ================================================================ random cross-checks
def test_four_players_whole_deals_and_endings() -> None:
    rng = random.Random(7)
    seen: dict[str, int] = {}
    for _ in range(30):   # whole full-hand / classic deals, sometimes a few cards in
        check(with_options(tq.whole_deal(rng), rng), seen)
    for _ in range(10):   # classic with cards in the stock
        check(with_options(tq.classic_with_stock(rng), rng), seen)
    for _ in range(80):   # 4-6 cards a hand, no stock, a catch possible in 40%
        check(with_options(with_piles(tq.ending(rng), rng), rng), seen)
    for _ in range(200):  # 1-3 cards a hand, forced exchanges, catches
        check(four_player_endings(rng), seen)
    for _ in range(15):   # a forced exchange's return due
        check(forced_returns(rng), seen)
    for kind in (so.WIN, so.LOSS, so.EGGS, so.CATCH_FOR, so.CATCH_AGAINST, "graded", "graded 4", "exchange",
                 "doubled"):
        assert seen.get(kind, 0) > 0, (kind, seen)
    assert seen["tests"] < 3 * seen["sides"]


@pytest.mark.parametrize("players", [2, 3])
def test_individual_play(players: int) -> None:
    rng = random.Random(40 + players)
    seen: dict[str, int] = {}
    for _ in range(150):  # small positions: a stock, royal goats after a draw, catches
        check(with_options(with_piles(ts.random_position(rng, players), rng), rng), seen)
    if players == 3:
        for _ in range(20):   # whole 3-player deals
            state = new_state("full-hand", players=3, single_deal=True)
            state.apply_chance(state.sample_chance(rng))
            check(with_options(state, rng), seen)
        assert seen.get(so.WIN, 0) > 0 and seen.get(so.NO_WIN, 0) > 0
    else:
        for kind in (so.WIN, so.LOSS, so.CATCH_FOR, so.CATCH_AGAINST, so.ROYAL_FOR, so.ROYAL_AGAINST):
            assert seen.get(kind, 0) > 0, (kind, seen)


def test_trump_on_plain_always() -> None:
    """Under ``trump_on_plain="always"`` (a player holding a plain lead's suit may
    trump it) the outcome is still the class of the exact value: small 4-player
    positions, 2- and 3-player ones, and whole deals a few cards in."""
    rng = random.Random(77)
    seen: dict[str, int] = {}
    for _ in range(80):
        check(four_player_endings(rng, "always"), seen)
    for players in (2, 3):
        for _ in range(40):
            check(with_options(with_piles(ts.random_position(rng, players, "always"), rng), rng), seen)
    for preset, players in (("classic", 4), ("full-hand", 4), ("full-hand", 4), ("full-hand", 3)):
        state = new_state(preset, players=players, options={"trump_on_plain": "always"}, single_deal=True)
        state.apply_chance(state.sample_chance(rng))
        while state.phase == PARTNER_EXCHANGE:
            state.apply_action(rng.choice(state.legal_actions()))
        for _ in range(rng.choice([0, 3, 6])):
            if state.phase not in ("play", FORCED_RETURN) or state.deal_results:
                break
            state.apply_action(rng.choice(state.legal_actions()))
        before = seen.get("sides", 0)
        check(with_options(state, rng), seen)
        assert seen.get("sides", 0) > before or state.deal_results   # the deal was checked
    for kind in (so.WIN, so.LOSS, so.CATCH_FOR, so.CATCH_AGAINST):
        assert seen.get(kind, 0) > 0, (kind, seen)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_property_outcome_is_the_class_of_the_exact_value(seed: int) -> None:
    rng = random.Random(seed)
    check(four_player_endings(rng) if rng.random() < 0.7
          else with_options(with_piles(tq.ending(rng), rng), rng), {})


# ================================================================ catches placed by the options
def with_catch_options(state: Any, rng: random.Random) -> Any:
    """:func:`with_options` and a ``shamok_penalty`` that places a catch among the
    point totals in most deals (:mod:`goat.fast.solver_rank`)."""
    with_options(state, rng)
    state.rules = ts.replace_unchecked(state.rules, shamok_penalty=rng.choice([0, 1, 1, 2, 3]))
    state._catch_rule = state.rules.shamok_catches_queen and state.rules.has_shamok
    return state


def check_ranked(state: Any, seen: dict[str, int]) -> None:
    """Where the catches are placed by the options, each side's outcome is the
    class of its exact value, which lies within the proven bounds in
    ``rank_of``'s order; the tests run are tallied against the exact solve's."""
    if state.phase not in ("play", FORCED_RETURN) or fixed(state):
        return
    for side in range(state.rules.num_teams):
        value = solve(state, side)
        passes = state_passes()
        got = solve_outcome(state, side)
        assert (got.kind, got.penalty) == expected(state, side, value), (side, value, got, state.rules)
        assert rank_of(state, got.low) <= rank_of(state, value) <= rank_of(state, got.high), (value, got)
        seen[got.kind] = seen.get(got.kind, 0) + 1
        seen["tests"] = seen.get("tests", 0) + got.tests
        seen["exact"] = seen.get("exact", 0) + passes
        seen["sides"] = seen.get("sides", 0) + 1


def state_passes() -> int:
    """The null-window tests of this thread's last solve."""
    return int(sv._workspace().W[core.PASSES])


@pytest.mark.parametrize("players", [4, 2])
def test_outcome_under_catches_placed_by_the_options(players: int) -> None:
    """``shamok_penalty`` below 2 or ``graded``: the outcome by tests at the
    lines where it changes (a catch's place one of them) is the exact value's
    class, in a fraction of the exact solve's tests."""
    rng = random.Random(90 + players)
    seen: dict[str, int] = {}
    if players == 4:
        for _ in range(10):
            check_ranked(with_catch_options(tq.whole_deal(rng), rng), seen)
        for _ in range(40):
            check_ranked(with_catch_options(with_piles(tq.ending(rng, 0.7), rng), rng), seen)
        for _ in range(120):
            check_ranked(with_catch_options(four_player_endings(rng), rng), seen)
    else:
        for _ in range(200):
            check_ranked(with_catch_options(with_piles(ts.random_position(rng, 2), rng), rng), seen)
    for kind in (so.WIN, so.LOSS, so.CATCH_FOR, so.CATCH_AGAINST):
        assert seen.get(kind, 0) > 0, (kind, seen)
    assert seen["tests"] < 0.8 * seen["exact"], seen   # (the exact value: as many as the solve)


def counting_kernel_calls(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the 4-player kernel's searches (each one null-window test) from here
    on: ``[calls]``. (The solver looks the kernel up at each load.)"""
    calls = [0]
    kernel = search.search

    def counted(*args: Any) -> Any:
        calls[0] += 1
        return kernel(*args)

    monkeypatch.setattr(search, "search", counted)
    return calls


@pytest.mark.parametrize("penalty", ["flat2", "graded"])
def test_forced_return_under_catches_placed_by_the_options(penalty: str,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """At a forced exchange's return (not a kernel position) under
    ``shamok_penalty`` 0-3, the outcome is the class of the exact value, found by
    null-window tests through the replies: fewer searches and nodes than the
    exact solve, and ``tests`` counts every one of them."""
    rng = random.Random(11 if penalty == "flat2" else 12)
    calls = counting_kernel_calls(monkeypatch)
    seen: dict[str, int] = {}
    for shamok_penalty in (0, 1, 2, 3):
        checked = 0
        while checked < 8:
            state = forced_returns(rng)
            state.rules = ts.replace_unchecked(state.rules, penalty=penalty, shamok_penalty=shamok_penalty)
            state._catch_rule = state.rules.shamok_catches_queen and state.rules.has_shamok
            if not state._catch_rule:   # (full-hand-24: no shamok)
                continue
            if fixed(state):   # (flat2 with shamok_penalty 3: each catch outranks every point result)
                break
            checked += 1
            for side in (0, 1):
                calls[0] = 0
                value = solve(state, side)
                exact_calls, exact_nodes = calls[0], sv.nodes_used()
                calls[0] = 0
                got = solve_outcome(state, side)
                assert (got.kind, got.penalty) == expected(state, side, value), (side, value, got, state.rules)
                assert rank_of(state, got.low) <= rank_of(state, value) <= rank_of(state, got.high), (value, got)
                assert got.tests == calls[0], (got.tests, calls[0])
                seen[got.kind] = seen.get(got.kind, 0) + 1
                for key, n in (("tests", got.tests), ("exact tests", exact_calls),
                               ("nodes", sv.nodes_used()), ("exact nodes", exact_nodes)):
                    seen[key] = seen.get(key, 0) + n
        seen[f"shamok {shamok_penalty}"] = checked
    assert seen["shamok 0"] and seen["shamok 1"] and seen["shamok 2"], seen
    assert bool(seen["shamok 3"]) == (penalty == "graded"), seen
    assert seen.get(so.CATCH_FOR, 0) + seen.get(so.CATCH_AGAINST, 0) > 0, seen
    assert seen.get(so.WIN, 0) + seen.get(so.LOSS, 0) > 0, seen
    assert seen["tests"] < 0.8 * seen["exact tests"], seen
    assert seen["nodes"] < 0.8 * seen["exact nodes"], seen


# ================================================================ by hand
def piles(state: Any, team0: int) -> Any:
    """Put every card out of play in the piles, ``team0`` points of them in
    team 0's (a subset found by a small subset-sum table; asserted reachable)."""
    live = {c for h in state.hands for c in h}
    out = [c for c in state.rules.deck_cards if c not in live]
    reach: dict[int, list[Any]] = {0: []}   # points -> cards reaching them
    for c in out:
        for pts, cards in list(reach.items()):
            reach.setdefault(pts + card_points([c]), cards + [c])
    mine = reach[team0]
    state.piles = [mine, [c for c in out if c not in mine]]
    state.tricks_won = [len(mine) // 4, len(state.piles[1]) // 4]
    return state


FEED = {0: "AH 8C", 1: "7H AC", 2: "TD 8D", 3: "9H KC"}


@pytest.mark.parametrize("team0,penalty,kind0", [
    (40, "flat2", so.WIN),     # 40 + 21 = 61: team 0 passes 60 only by feeding TD on AH
    (39, "flat2", so.EGGS),    # 39 + 21 = 60
    (38, "flat2", so.LOSS),    # 59 against 61
    (70, "graded", so.WIN),    # 91 against 29: team 1 gets graded's 4
    (40, "graded", so.WIN),    # 61 against 59: 2
])
def test_feeding_the_partner_decides_the_deal(team0: int, penalty: str, kind0: str) -> None:
    """Full-hand, trumps spades; 36 points in the hands: team 0 takes 21 of them
    with best play (seat 2 dumps TD on the partner's AH: see
    :func:`tests.fast.test_solver.test_feeding_the_partner_is_worth_ten`), team 1
    15. So with ``team0`` points already won team 0 ends on ``team0 + 21``."""
    s = piles(t4.position("full-hand", FEED, leader=0, trump_card="9S",
                          options={"penalty": penalty}), team0)
    end0, end1 = team0 + 21, 120 - team0 - 21
    loser_pen = 2 if penalty == "flat2" or end1 >= 31 else 4
    pen = {so.WIN: (0, loser_pen), so.EGGS: (0, 0), so.LOSS: (2, 0)}[kind0]
    kind1 = {so.WIN: so.LOSS, so.EGGS: so.EGGS, so.LOSS: so.WIN}[kind0]
    for side, kind in ((0, kind0), (1, kind1)):
        got = solve_outcome(s, side)
        assert (got.kind, got.penalty) == (kind, pen)
        assert got.low <= (end0 if side == 0 else end1) <= got.high
    assert solve(s, 0) == end0


def test_shamok_catch_and_its_doubling() -> None:
    """Classic: seat 0 leads the shamok, seat 1 must follow with its only trump,
    the queen of clubs: caught, team 1 gets 4 (8 with a pending doubling)."""
    s = t4.position("classic", {0: "7C", 1: "QC", 2: "AH", 3: "TH"}, leader=0)
    assert (solve_outcome(s, 0).kind, solve_outcome(s, 0).penalty) == (so.CATCH_FOR, (0, 4))
    assert (solve_outcome(s, 1).kind, solve_outcome(s, 1).penalty) == (so.CATCH_AGAINST, (0, 4))
    s.double_next = True
    assert solve_outcome(s, 0).penalty == (0, 8)
    assert "queen of clubs" in str(solve_outcome(s, 0))


def test_catch_avoided_then_the_points_decide() -> None:
    """Classic (:func:`tests.fast.test_solver.test_shamok_catch_is_decisive`):
    after 7C seat 1 saves QC with JD, so no catch; team 0 takes 17 of the 30
    points in play. 43 already won: 60, eggs; 44: 61, a win."""
    hands = {0: "7C 8H", 1: "QC JD", 2: "AH 9S", 3: "TH KS"}
    for team0, kind in ((43, so.EGGS), (44, so.WIN)):
        s = piles(t4.position("classic", hands, leader=0), team0)
        got = solve_outcome(s, 0)
        assert got.kind == kind and got.high < CATCH and got.low > -CATCH
        assert CATCH in so.cuts(s, 0) and so.cuts(s, 0)[0] == so.WIN_LINE


def test_graded_no_trick_is_left_open() -> None:
    """Graded: team 1 holds no trick and its hands take nothing (team 0's
    trumps win both tricks): 0 points, so 4 — or 6, as the search does not count
    tricks; the outcome says so."""
    s = t4.position("full-hand", {0: "JC QC", 1: "7H 8H", 2: "JS QS", 3: "9H 8D"}, leader=0,
                    trump_card="9S", options={"penalty": "graded"})
    live = {c for h in s.hands for c in h}
    s.piles = [[c for c in s.rules.deck_cards if c not in live], []]   # 110 points, six tricks
    s.tricks_won = [6, 0]
    assert solve(s, 1) == 0
    got = solve_outcome(s, 1)
    assert got.kind == so.LOSS and got.penalty == (0, 4)
    assert "no trick" in got.note and "6" in got.note


def test_cuts_skip_a_catch_that_cannot_happen() -> None:
    same_team = t4.position("full-hand", {0: "7C 8H", 1: "AH 9S", 2: "QC JD", 3: "TH KS"}, leader=0,
                            trump_card="9S")
    assert not any(abs(b) > 200 for b in so.cuts(same_team, 0))
    opposite = t4.position("full-hand", {0: "7C 8H", 1: "QC JD", 2: "AH 9S", 3: "TH KS"}, leader=0,
                           trump_card="9S")
    assert {CATCH, -CATCH + 1} <= set(so.cuts(opposite, 0))


# ================================================================ refusals
def test_bad_sides_and_budgets_are_refused() -> None:
    """(Street and the partner exchange: ``test_solver.test_refusals_are_one_line``.)"""
    s = t4.position("classic", {0: "7C 8H", 1: "QC JD", 2: "AH 9S", 3: "TH KS"}, leader=0)
    with pytest.raises(SolverError, match="team 0..1, not 2"):
        solve_outcome(s, 2)
    with pytest.raises(SolverError, match="max_nodes"):
        solve_outcome(s, 0, max_nodes=0)
    deal = tq.whole_deal(random.Random(3))
    with pytest.raises(SolverBudgetExceeded):
        solve_outcome(deal, 0, max_nodes=50)
    assert solve_outcome(deal, 0).kind in (so.WIN, so.LOSS, so.EGGS, so.CATCH_FOR, so.CATCH_AGAINST)
