"""The solver's ranking of a shamok catch under the table's penalty options
(:mod:`goat.fast.solver_rank`).

A catch ends the deal with the queen's side paying ``shamok_penalty``; a deal
played out costs the loser 2 (``flat2``) or 2/4 (``graded``: 4 when held to 30
points or fewer). Under the defaults a catch (4) beats every point result and
the kernels rank it so; under ``shamok_penalty=1``, or ``graded`` with a
``shamok_penalty`` below 4, a won deal can be worth more than a catch. Checked
against a brute-force minimax over the pure engine that ranks each end by the
deal's result as the engine scores it (the other side's penalty minus one's
own), ties broken by card points and a catch above the point ends of its result.
"""

from __future__ import annotations

import dataclasses
import math
import random
from typing import Any

import pytest

from goat.analysis import analyze_record
from goat.fast.solver import CATCH, ROYAL, best_actions, evaluate_moves, rank_of, solve, solve_outcome
from goat.fast import solver as sv
from goat.fast import solver_core as core
from goat.fast import solver_rank as rank
from goat.fast import solver_search as search
from goat.fast import solver_solo as solo
from goat.fast.solver_rank import catch_places, fixed
from goat.games.kozel import new_state
from tests.fast.test_solver import position, reference
from tests.fast.test_solver import random_position as team_position
from tests.fast.test_solver_solo import check_position, replace_unchecked
from tests.fast.test_solver_solo import random_position as solo_position
from tests.test_analyze_endings import deal_record


# ================================================================ the oracle
def end_of(state: Any, side: int) -> tuple[tuple[float, float, bool], int]:
    """The finished deal's rank for ``side`` — (the other side's penalty minus
    its own, card points, a catch for the side) with a catch above the point
    ends of its result — and the solver's value for that end."""
    res = state.deal_results[-1]
    if res["ended_by"] == "royal-goat":
        won = res["winner_team"] == side
        return ((math.inf if won else -math.inf), 0, False), ROYAL if won else -ROYAL
    other = 1 - side
    result = res["penalty"][other] - res["penalty"][side]
    if res["ended_by"] == "shamok-caught-queen":
        caught_for = res["winner_team"] == side   # the team that played 7C
        return (result, math.inf, caught_for), CATCH if caught_for else -CATCH
    return (result, res["points"][side], False), res["points"][side]


def oracle(state: Any, side: int, deals_before: int) -> tuple[tuple[float, float, bool], int]:
    """Minimax over the engine by :func:`end_of`'s rank (no pruning, no table)."""
    if len(state.deal_results) > deals_before:
        return end_of(state, side)
    maximize = state.team_of(state.current_player()) == side
    ends = []
    for a in state.legal_actions():
        child = state.clone()
        child.apply_action(a)
        ends.append(oracle(child, side, deals_before))
    return max(ends) if maximize else min(ends)


def with_piles(state: Any, other_pile: str) -> Any:
    """``state`` with the cards in no hand, trick or stock in the piles: those
    of ``other_pile`` (card texts) team 1's, the rest team 0's; a trick each
    already taken (the solver reads a side as having taken one: see
    :mod:`goat.fast.solver_rank`)."""
    used = {c for h in state.hands for c in h} | set(state.stock) | {p.cards[0] for p in state.trick}
    rest = [c for c in state.rules.deck_cards if c not in used]
    theirs = [c for c in rest if str(c) in other_pile.split()] if other_pile else []
    state.piles = [[c for c in rest if c not in theirs], theirs]
    state.tricks_won = [1] * len(state.piles)
    return state


def checked(state: Any, side: int) -> None:
    """``solve`` and every root move's value agree with the oracle."""
    before = len(state.deal_results)
    assert solve(state, side) == oracle(state, side, before)[1], (side, state.hands, state.trick)
    mover = state.team_of(state.current_player())
    for action, value in evaluate_moves(state).items():
        child = state.clone()
        child.apply_action(action)
        expected = end_of(child, mover)[1] if len(child.deal_results) > before else oracle(child, mover, before)[1]
        assert value == expected, (str(action), state.hands, state.trick)


# ================================================================ by hand
def test_a_catch_worth_one_is_worse_than_winning_the_deal() -> None:
    # Classic, clubs trump. Team 0 holds 49 points, team 1 34 (AC TC KC QD JC JS JH);
    # 37 are left. Seat 0 leads 7C: seat 3's only trump, QC, must follow and is
    # caught (team 1 pays shamok_penalty). Or 9C: JD and QC must follow, QC wins and
    # seat 1 drops AD on it (16 for team 1); then seat 3 leads TS, seat 0 ruffs with
    # 7C and seat 2 adds AH: 21, team 0 ends with 70, a won deal (2 for team 1).
    hands = {0: "7C 9C", 1: "8D AD", 2: "AH JD", 3: "QC TS"}
    default = with_piles(position("classic", hands, leader=0), "AC TC KC QD JC JS JH")
    one = with_piles(position("classic", hands, leader=0, options={"shamok_penalty": 1}),
                     "AC TC KC QD JC JS JH")
    assert default.points() == one.points() == [49, 34]
    assert {str(a): v for a, v in evaluate_moves(one).items()} == {"0 play 7C": CATCH, "0 play 9C": 70}
    # default: the catch (4) beats the won deal (2); shamok_penalty=1: the deal
    assert solve(default, 0) == CATCH and solve(one, 0) == 70
    assert solve(default, 1) == -CATCH and solve(one, 1) == 50
    assert [str(a) for a in best_actions(evaluate_moves(default), state=default)] == ["0 play 7C"]
    assert [str(a) for a in best_actions(evaluate_moves(one), state=one)] == ["0 play 9C"]
    for state in (default, one):
        for side in (0, 1):
            checked(state, side)
    assert solve_outcome(one, 0).kind == "win" and solve_outcome(default, 0).kind == "catch-for"


def big_win_or_catch(options: dict[str, Any]) -> Any:
    """Full-hand, spades trump (7S shown). Team 0 holds 76, team 1 8 (KH KD); 36 are
    left. Seat 0 leads 7C: seat 3 must follow trumps with QC, caught: team 1 pays
    ``shamok_penalty``. AS instead: team 0 ends with 96 and team 1 with 24, held to
    30 or fewer: ``graded`` gives it 4, flat2 2."""
    hands = {0: "7C AS", 1: "TH JC", 2: "TD 7H", 3: "QC 7D"}
    return with_piles(position("full-hand", hands, leader=0, trump_card="7S", options=options), "KH KD")


def test_graded_a_big_win_is_worth_more_than_a_catch_of_three() -> None:
    # a catch of 3: less than graded's 4 for the big win, more than flat2's 2
    flat = big_win_or_catch({"shamok_penalty": 3})
    graded = big_win_or_catch({"shamok_penalty": 3, "penalty": "graded"})
    assert graded.points() == [76, 8]
    assert solve(flat, 0) == CATCH and solve(graded, 0) == 96
    assert [str(a) for a in best_actions(evaluate_moves(graded), state=graded)] == ["0 play AS"]
    for state in (flat, graded):
        for side in (0, 1):
            checked(state, side)
    # the catch sits between 89 and 90 for team 0; for team 1 a caught queen (-3)
    # between being held to 30 (-4) and losing with 31 (-2)
    assert catch_places(graded) == (89, 30)
    assert rank_of(graded, 89) < rank_of(graded, CATCH) < rank_of(graded, 90)
    assert rank_of(graded, 30) < rank_of(graded, -CATCH) < rank_of(graded, 31)


def test_the_defaults_keep_the_fixed_places() -> None:
    """Under the defaults (and wherever no point result beats a catch) the
    kernels run as before: a catch for the side above every total, against below."""
    for preset in ("classic", "full-hand"):
        state = with_piles(position(preset, {0: "7C", 1: "QC", 2: "AH", 3: "TH"}, leader=0), "")
        assert fixed(state) and catch_places(state) == (120, -1)
        assert rank_of(state, 120) < rank_of(state, CATCH) < rank_of(state, ROYAL)
        assert rank_of(state, -CATCH) < rank_of(state, 0)
    three = new_state("full-hand", players=3, single_deal=True, options={"shamok_penalty": 1})
    three.apply_chance(three.sample_chance(random.Random(0)))
    assert fixed(three)   # a seat's points do not decide a 3-player deal's result


def test_analysis_ranks_a_caught_queen_above_a_lost_deal(tmp_path: Any) -> None:
    """``goat analyze`` picks the best move by the table's ranking: with
    ``shamok_penalty=1`` team 1 would rather have its queen caught (1) than lose
    the deal with 28 points (2). The deal of
    tests/test_analyze_endings.py::test_full_hand_four_players_hearts_trump_a_catch_avoided."""
    deal = {"hands": {"0": ["TD", "AC", "QS", "JH", "AD", "7C", "AS", "8C"],
                      "1": ["KD", "TC", "QD", "JS", "9H", "7D", "QC", "9C"],
                      "2": ["9D", "KC", "JC", "TH", "7H", "8H", "KS", "QH"],
                      "3": ["8D", "AH", "KH", "7S", "8S", "9S", "TS", "JD"]},
            "stock": [], "trump_card": "9H"}
    tricks = ["1 give 9C, 2 give QH, 3 give JD, 0 give 8C",
              "0 TD, 1 KD, 2 9D, 3 8D", "0 AC, 1 TC, 2 KC, 3 9C", "0 QS, 1 QD, 2 JC, 3 AH",
              "0 QH, 1 JS, 2 TH, 3 KH", "0 JH, 1 9H, 2 7H, 3 7S", "0 AD, 1 7D, 2 8C, 3 8S",
              "0 AS, 1 QC, 2 KS, 3 9S", "1 JD, 2 8H, 3 TS, 0 7C"]
    rows = {}
    for penalty in (4, 1):
        record = deal_record("full-hand", deal, tricks, options={"shamok_penalty": penalty})
        analysis = analyze_record(record, 1)
        row = next(m for m in analysis.moves if str(m.action) == "1 play QC")
        rows[penalty] = row
    assert {str(a): v for a, v in rows[4].values.items()} == {"1 play QC": 28, "1 play JD": -CATCH}
    assert [str(a) for a in rows[4].best] == ["1 play QC"]
    assert {str(a): v for a, v in rows[1].values.items()} == {"1 play QC": 28, "1 play JD": -CATCH}
    assert [str(a) for a in rows[1].best] == ["1 play JD"] and rows[1].best_value == -CATCH


# ================================================================ random cross-check
#: Option sets, and whether their ranking surely changes some of these endings'
#: values (a catch worth less than a won deal); ``graded`` alone only moves a caught
#: queen among equal results (-4: held to 30 or fewer).
OPTIONS = [({"shamok_penalty": 1}, True), ({"shamok_penalty": 2, "tie": "annul"}, False),
           ({"penalty": "graded"}, False), ({"penalty": "graded", "shamok_penalty": 2}, True),
           # a catch worth nothing: both between 60 and 61, the one for the side first
           ({"shamok_penalty": 0, "eggs": "double-next"}, True),
           ({"penalty": "graded", "shamok_penalty": 1, "tie": "annul", "eggs": "double-next"}, True),
           ({"penalty": "graded", "shamok_penalty": 3}, False),
           ({"penalty": "graded", "shamok_penalty": 0}, True)]


def with_options(state: Any, options: dict[str, Any]) -> Any:
    """``state`` (a made-up ending) under ``options`` on top of its rules, its
    piles filled at random from the cards not in play (the deal's 120 points)."""
    state.rules = dataclasses.replace(state.rules, **options)
    state._catch_rule = state.rules.shamok_catches_queen and state.rules.has_shamok
    return state


@pytest.mark.parametrize("players", [4, 2])
@pytest.mark.parametrize("case", range(len(OPTIONS)), ids=[str(o) for o, _ in OPTIONS])
def test_random_endings_agree_with_the_result_minimax(case: int, players: int) -> None:
    """(Positions mid-trick too: :func:`team_position` and :func:`solo_position`
    play up to three cards of the trick; under ``eggs="double-next"`` half the
    deals owe a doubling, which doubles every result alike.)"""
    options, changes = OPTIONS[case]
    rng = random.Random(100 * players + case)
    differ = catches = mid_trick = 0
    for _ in range(60):
        state = team_position(rng) if players == 4 else solo_position(rng, 2)
        with_options(state, options)
        if state.phase not in ("play", "forced-exchange") or state.is_terminal():
            continue
        used = {c for h in state.hands for c in h} | set(state.stock) | {p.cards[0] for p in state.trick}
        rest = [c for c in state.rules.deck_cards if c not in used]
        rng.shuffle(rest)
        cut = rng.randrange(len(rest) + 1)
        state.piles, state.tricks_won = [rest[:cut], rest[cut:]], [1, 1]
        state.double_next = options.get("eggs") == "double-next" and rng.random() < 0.5
        mid_trick += bool(state.trick)
        before = len(state.deal_results)
        for side in (0, 1):
            checked(state, side)
            value = oracle(state, side, before)[1]
            catches += abs(value) >= CATCH
            differ += value != reference(state, side, before)
    assert catches > 0 and mid_trick > 0   # catches were met, and positions mid-trick,
    assert differ > 0 or not changes       # and ranked otherwise than by default


@pytest.mark.parametrize("case", [0, 3, 5], ids=[str(OPTIONS[c][0]) for c in (0, 3, 5)])
def test_three_players_keep_the_fixed_places_under_any_penalties(case: int) -> None:
    """With 3 players a seat's points do not decide the deal's result: the
    options keep the kernels' fixed catch places (a catch for the seat above
    every total), and the solver agrees with the paranoid brute force."""
    options, _ = OPTIONS[case]
    rng = random.Random(300 + case)
    catches = 0
    for _ in range(40):
        state = solo_position(rng, 3)
        state.rules = replace_unchecked(state.rules, **options)   # (a 32-card deck: see there)
        state._catch_rule = state.rules.shamok_catches_queen and state.rules.has_shamok
        if state.phase != "play" or state.is_terminal():
            continue
        assert fixed(state)
        catches += check_position(state)[0]
    assert catches > 0


# ================================================================ larger positions
def value_by_plain_tests(state: Any, side: int) -> int:
    """:func:`solve`'s value of ``state`` found the plain way: bisecting the ends
    the deal can have in :func:`rank_of`'s order, each test "is the value at
    least ``v``?" in a table generation of its own (nothing carried from one
    sign pair, or one test, to the next) and read only as passed or failed (no
    fail-soft bound), every catch place a candidate whether or not a catch can
    still come. What :func:`goat.fast.solver_rank.solve_loaded` must give with
    its shared generations and fail-soft reading."""
    ws = sv._workspace()
    u_for, u_against, royal = rank._steps(state)
    mine = state.points()[side]
    W, _ = sv._encode(state, side, ws, ws.next_gen())
    ends = {rank.STEP * p for p in range(mine, mine + int(W[core.REM_PTS]) + 1)} | {u_for, u_against}
    if state.rules.royal_goat and state.stock and not state.rules.partnerships:
        ends |= {royal, -royal}
    cands = sorted(ends)
    kernel = solo.search if not state.rules.partnerships else search.search

    def at_least(v: int) -> bool:
        W, _ = sv._encode(state, side, ws, ws.next_gen())
        W[core.CATCH_FOR] = CATCH if u_for >= v else -CATCH
        W[core.CATCH_AGAINST] = CATCH if u_against >= v else -CATCH
        line = ROYAL if v == royal else -((-v) // rank.STEP) - mine
        return int(kernel(W, ws.tt, 0, line - 1, line)) >= line

    low, high = 0, len(cands) - 1
    while low < high:
        mid = (low + high + 1) // 2
        low, high = (mid, high) if at_least(cands[mid]) else (low, mid - 1)
    return rank._value_at(cands[low], mine, u_for, u_against, royal)


def deal_in_play(rng: random.Random, preset: str, players: int, options: dict[str, Any],
                 tricks_left: int) -> Any:
    """A random deal of ``preset`` played at random until about ``tricks_left``
    tricks are left (and the stock is empty if the royal goat is on with 4
    players); maybe mid-trick."""
    state = new_state(preset, players=players, options=options, single_deal=True)
    state.apply_chance(state.sample_chance(rng))
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance(state.sample_chance(rng))
        elif state.phase == "play" and len(state.hands[0]) + len(state.stock) // players <= tricks_left:
            break
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    for _ in range(rng.randrange(players)):
        if state.phase != "play" or state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("preset,players", [("full-hand", 4), ("classic", 4), ("full-hand", 2)])
def test_larger_positions_agree_with_plain_tests(preset: str, players: int) -> None:
    """Positions 4 to 8 tricks from the end (too large for the brute force):
    the shared table generations of the sign pairs and the fail-soft reading of
    :func:`goat.fast.solver_rank.solve_loaded` give what tests in fresh
    generations read as passed or failed give, at the root and after each move."""
    rng = random.Random(len(preset) + players)
    caught = moved = tried = 0
    while tried < 12:
        options = {"shamok_penalty": rng.choice([0, 1, 2, 3]), "penalty": rng.choice(["flat2", "graded"])}
        if players == 4:
            options["royal_goat"] = False
        state = deal_in_play(rng, preset, players, options, rng.choice([4, 5, 6]) + (players == 2) * 2)
        if (state.phase != "play" or state.is_terminal() or fixed(state)
                or (tried % 3 and not rank.catch_possible(state))):   # two in three with a catch to come
            continue
        tried += 1
        for side in (0, 1):
            value = solve(state, side)
            assert value == value_by_plain_tests(state, side), (side, options, state.hands, state.trick)
        mover = state.team_of(state.current_player())
        for action, value in evaluate_moves(state).items():
            child = state.clone()
            before = len(child.deal_results)
            child.apply_action(action)
            if len(child.deal_results) == before and child.phase == "play":
                assert value == value_by_plain_tests(child, mover), (str(action), options)
                moved += 1
            caught += abs(value) >= CATCH
    assert moved > 0 and caught > 0
