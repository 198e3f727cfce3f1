"""Statistics on hand-made results, every expected number worked out by hand."""

from __future__ import annotations

import math

import pytest

from goat.tournament.runner import GameResult
from goat.tournament.stats import (Interval, bradley_terry, elo_gap, game_scores, mean_ci, pairwise, proportion_ci,
                                   summarize, t975)


def result(index: int, set_index: int, rotation: int, labels: str, penalty: tuple[int, ...],
           deals: int, teams: tuple[int, ...] = (0, 1, 0, 1)) -> GameResult:
    """A finished game; returns follow the engine's rule (the loser side −1, the others share +1)."""
    sides = len(penalty)
    loser = max(range(sides), key=lambda t: penalty[t]) if max(penalty) >= 12 else None
    side_value = [1.0 / (sides - 1) if t != loser else -1.0 for t in range(sides)] if loser is not None \
        else [0.0] * sides
    per_deal = tuple(tuple(p if d == 0 else 0 for p in penalty) for d in range(deals))  # all on deal 1
    return GameResult(index, 0, set_index, rotation, tuple(labels.split()), teams, penalty,
                      tuple(side_value[t] for t in teams), per_deal, {}, 0.0)


def test_t_quantiles_and_a_hand_computed_interval() -> None:
    assert t975(1) == 12.706 and t975(30) == 2.042
    assert t975(120) == pytest.approx(1.980, abs=0.001)  # table value for 120 degrees of freedom
    # 1,2,3,4: mean 2.5, s^2 = (2.25+0.25+0.25+2.25)/3 = 5/3, se = sqrt(5/12), t(3) = 3.182
    interval = mean_ci([1, 2, 3, 4])
    assert interval.mean == 2.5
    assert interval.half_width == pytest.approx(3.182 * math.sqrt(5 / 12))
    assert interval.excludes(0) and not interval.excludes(1)
    assert mean_ci([7]).half_width == math.inf and mean_ci([7]).mean == 7


def test_win_rate_intervals_stay_in_0_1_and_keep_a_width_when_every_set_was_won() -> None:
    """The Student-t interval of per-set win rates once gave 87.5% ± 39.8 (up to 127%)
    for sets scoring 1, 1, 1, ½ and 100.0% ± 0.0 after four sets all won."""
    z = 1.959964
    # 1, 1, 1, 1/2: p = 0.875, s^2 = 1/16, n* = p(1-p) / (s^2/4) * (z / t(3))^2 = 7 * 0.3794 = 2.656
    near = proportion_ci([1, 1, 1, 0.5])
    assert near.mean == 0.875 and (near.low, near.high) == pytest.approx((0.315903, 0.990664), abs=1e-6)
    # every set won: no observed variance, the four sets count as four games: n* = 4 (z / t(3))^2
    swept = proportion_ci([1, 1, 1, 1])
    n_star = 4 * (z / 3.182) ** 2
    assert swept.high == 1.0 and swept.low == pytest.approx(n_star / (n_star + z * z)) and swept.low < 0.3
    assert proportion_ci([0, 0, 0, 0]).low == 0.0 and proportion_ci([0, 0, 0, 0]).high == pytest.approx(1 - swept.low)
    tied = proportion_ci([0.5] * 4)  # every set shared: still an interval, not 50% ± 0
    assert tied.low < 0.1 and tied.high > 0.9 and tied.mean == 0.5
    # far from 0 and 1, with many sets, it is the t interval again
    many = [1.0, 0.5] * 100 + [0.0, 1.0] * 20
    wide, t = proportion_ci(many), mean_ci(many)
    assert wide.low == pytest.approx(t.low, abs=0.003) and wide.high == pytest.approx(t.high, abs=0.003)
    assert all(0.0 <= i.low <= i.mean <= i.high <= 1.0 for i in (near, swept, tied, wide))
    assert proportion_ci([1]).half_width == math.inf  # one set: no interval


def test_game_scores_from_penalties_and_the_goat() -> None:
    game = result(0, 0, 0, "A B A B", (12, 4), deals=5)  # team 0 (A) is the goat
    assert pairwise(game) == [("A", "B", 0.0)]
    assert game_scores(game) == {"A": (0.0, (4 - 12) / 5), "B": (1.0, (12 - 4) / 5)}
    # three individual seats, A twice: B is the goat -> A beats B; A's mean penalty 3, B's 12
    three = result(1, 0, 0, "A A B", (2, 4, 12), deals=4, teams=(0, 1, 2))
    assert pairwise(three) == [("A", "B", 1.0)]
    assert game_scores(three)["A"] == (1.0, (12 - 3) / 4)
    assert game_scores(three)["B"] == (0.0, (3 - 12) / 4)


def test_a_bot_on_two_of_three_seats_is_scored_seat_against_seat() -> None:
    """``A,B`` on three seats sits ``A B A``: two identical bots once scored 1/3
    and 2/3 (A's two seats averaged won only when B was the goat), and Elo put
    120 points between them; a 3-player run of random against random showed
    65.6% ± 5.7 against 34.4%."""
    teams = (0, 1, 2)
    goat_at = [result(s, 0, s, "A B A", tuple(12 if t == s else 2 for t in range(3)), 4, teams) for s in range(3)]
    # the goat at an A seat: that seat loses to B (0), the other A seat draws with B (both +1/2)
    assert pairwise(goat_at[0]) == [("A", "B", 0.25)] and pairwise(goat_at[2]) == [("A", "B", 0.25)]
    assert pairwise(goat_at[1]) == [("A", "B", 1.0)]
    rows = {row.label: row for row in summarize(goat_at)}  # each seat the goat once: no bot is better
    assert rows["A"].score.mean == pytest.approx(0.5) and rows["B"].score.mean == pytest.approx(0.5)
    assert rows["A"].elo == pytest.approx(1500) and rows["B"].elo == pytest.approx(1500)
    assert rows["A"].difference.mean == pytest.approx(0.0)


def test_summary_uses_the_duplicate_set_as_the_unit() -> None:
    games = [
        result(0, 0, 0, "A B A B", (12, 4), 5),   # A loses, diff (4-12)/5 = -1.6
        result(1, 0, 1, "B A B A", (6, 12), 4),   # A (team 1) loses, diff (6-12)/4 = -1.5
        result(2, 1, 0, "A B A B", (2, 12), 6),   # A wins, diff 10/6
        result(3, 1, 1, "B A B A", (12, 0), 3),   # A wins, diff 12/3 = 4
        result(4, 2, 0, "A B A B", (12, 10), 8),  # A loses, diff -2/8
        result(5, 2, 1, "B A B A", (12, 10), 8),  # A wins, diff +2/8
    ]
    rows = {row.label: row for row in summarize(games)}
    a, b = rows["A"], rows["B"]
    assert (a.games, a.deals) == (6, 34)
    # per set, A's score: 0, 1, 0.5 -> mean 0.5, s = 0.5. The t interval, 0.5 ± t(2) * 0.5 / sqrt(3)
    # = 0.5 ± 1.242, ran from -74% to 174%; Wilson on n* = 0.25 / (0.25/3) * (z/t(2))^2 = 0.6224:
    assert a.score.mean == pytest.approx(0.5) and a.score.n == 3
    assert (a.score.low, a.score.high) == pytest.approx((0.036166, 0.963834), abs=1e-6)
    assert b.score.mean == pytest.approx(0.5) and (b.score.low, b.score.high) == pytest.approx((a.score.low, a.score.high))
    # per set, A's difference: (-1.6-1.5)/2 = -1.55, (10/6+4)/2 = 17/6, (-0.25+0.25)/2 = 0
    sets = [-1.55, 17 / 6, 0.0]
    mean = sum(sets) / 3
    s = math.sqrt(sum((x - mean) ** 2 for x in sets) / 2)
    assert a.difference.mean == pytest.approx(mean) and a.difference.mean == pytest.approx(0.427778, abs=1e-6)
    assert a.difference.half_width == pytest.approx(4.303 * s / math.sqrt(3))
    assert a.difference.half_width == pytest.approx(5.5221, abs=1e-3)
    assert b.difference.mean == pytest.approx(-mean)
    # 3 wins each (+ one virtual draw): equal strength, both at the mean rating
    assert a.elo == pytest.approx(1500) and b.elo == pytest.approx(1500)
    # each rating's interval: half the Elo gap read from the win rate's bounds, 400*log10(p/(1-p))
    half = 200 * math.log10(0.963834 / 0.036166)  # 285.2
    assert a.elo_bounds == pytest.approx((1500 - half, 1500 + half), abs=0.01)
    assert b.elo_bounds == pytest.approx(a.elo_bounds)


def test_elo_gap_reads_a_win_rate_interval_on_the_elo_scale() -> None:
    even = elo_gap(Interval(0.5, 0.2, 10, (0.3, 0.7)))
    assert even.mean == 0 and even.low == pytest.approx(-400 * math.log10(7 / 3)) and even.high == pytest.approx(-even.low)
    # 3 of 4: strengths 3:1, the Bradley-Terry gap 400*log10(3) without a prior
    three = elo_gap(Interval(0.75, 0.1, 50, (0.64, 0.84)))
    assert three.mean == pytest.approx(400 * math.log10(3))
    assert (three.low, three.high) == pytest.approx((400 * math.log10(0.64 / 0.36), 400 * math.log10(0.84 / 0.16)))
    # a clean sweep: a finite lower bound (the data say how far down it could be), no upper one
    sweep = elo_gap(proportion_ci([1, 1, 1, 1]))
    assert sweep.mean == math.inf and sweep.high == math.inf
    assert sweep.low == pytest.approx(400 * math.log10(0.283 / 0.717), abs=2)
    assert elo_gap(proportion_ci([1])).half_width == math.inf  # one set: no interval


def test_a_round_robin_gives_no_rating_bounds_but_each_pairing_a_gap() -> None:
    from goat.tournament.stats import head_to_head

    from dataclasses import replace

    # A-B: A wins both games of set 0, one of set 1 (3 of 4); A-C: A wins all four
    games = [result(0, 0, 0, "A B A B", (4, 12), 2), result(1, 0, 1, "B A B A", (12, 4), 2),
             result(2, 1, 0, "A B A B", (4, 12), 2), result(3, 1, 1, "B A B A", (4, 12), 2)]
    third = [replace(result(4 + i, i // 2, i % 2, "A C A C" if i % 2 == 0 else "C A C A",
                            (4, 12) if i % 2 == 0 else (12, 4), 2), pairing=1) for i in range(4)]
    rows = summarize(games + third)
    assert [r.elo_bounds for r in rows] == [None, None, None]
    pairs = {(p.first, p.second): p for p in head_to_head(games + third)}
    ab, ac = pairs[("A", "B")], pairs[("A", "C")]
    assert ab.elo_gap.mean == pytest.approx(400 * math.log10(0.75 / 0.25))
    assert ac.elo_gap.mean == math.inf and ac.elo_gap.low < ac.elo_gap.mean


def test_bradley_terry_two_bots() -> None:
    matches = [("A", "B", 1.0)] * 3 + [("A", "B", 0.0)]
    # no prior: P(A) = 3/4 -> strengths 3:1 -> 400*log10(3) apart, centred on 1500
    exact = bradley_terry(matches, prior_draws=0)
    assert exact["A"] - exact["B"] == pytest.approx(400 * math.log10(3))
    assert exact["A"] + exact["B"] == pytest.approx(3000)
    # one virtual draw: 3.5 of 5 games vs 1.5 -> 400*log10(7/3)
    smoothed = bradley_terry(matches)
    assert smoothed["A"] - smoothed["B"] == pytest.approx(400 * math.log10(7 / 3))
    # a clean sweep stays finite with the prior, infinite without
    assert math.isfinite(bradley_terry([("A", "B", 1.0)] * 5)["B"])
    assert bradley_terry([("A", "B", 1.0)] * 5, prior_draws=0)["B"] == -math.inf


def test_bradley_terry_three_bots_recovers_hand_made_strengths() -> None:
    # Data built to match strengths 4:2:1 exactly: A-B 2-1 (4/6), B-C 2-1 (2/3), A-C 4-1 (4/5).
    # Score equations: A expects 3*4/6 + 5*4/5 = 6 = its 6 wins; B 3*2/6 + 3*2/3 = 3; C 3*1/3 + 5*1/5 = 2.
    matches = ([("A", "B", 1.0)] * 2 + [("A", "B", 0.0)] + [("B", "C", 1.0)] * 2 + [("C", "B", 1.0)]
               + [("A", "C", 1.0)] * 4 + [("A", "C", 0.0)])
    elo = bradley_terry(matches, prior_draws=0)
    step = 400 * math.log10(2)  # 120.41
    assert elo["A"] == pytest.approx(1500 + step, abs=1e-6)
    assert elo["B"] == pytest.approx(1500, abs=1e-6)
    assert elo["C"] == pytest.approx(1500 - step, abs=1e-6)
    draws = bradley_terry([("A", "B", 0.5)] * 4 + [("B", "C", 0.5)], prior_draws=0)
    assert draws["A"] == pytest.approx(draws["C"]) == pytest.approx(1500)


def test_head_to_head_separates_the_pairings_of_a_round_robin() -> None:
    from dataclasses import replace

    from goat.tournament.stats import head_to_head

    # pairing A–B: the two duplicate sets of the summary test above (A: -1.55 then 17/6 per set)
    ab = [result(0, 0, 0, "A B A B", (12, 4), 5), result(1, 0, 1, "B A B A", (6, 12), 4),
          result(2, 1, 0, "A B A B", (2, 12), 6), result(3, 1, 1, "B A B A", (12, 0), 3)]
    # pairing A–C: A gains 2 penalty points a deal in both sets
    ac = [replace(result(4 + i, i // 2, i % 2, "A C A C" if i % 2 == 0 else "C A C A",
                         (0, 2) if i % 2 == 0 else (2, 0), 1), pairing=1) for i in range(4)]
    rows = {(h.first, h.second): h for h in head_to_head(ab + ac)}
    assert set(rows) == {("A", "B"), ("A", "C")}
    assert rows[("A", "B")].deals == 18 and rows[("A", "C")].deals == 4
    assert rows[("A", "B")].difference.mean == pytest.approx((-1.55 + 17 / 6) / 2)
    assert rows[("A", "C")].difference.mean == pytest.approx(2.0)
    # no match was decided (nobody reached 12), so every game is a draw for the score
    assert rows[("A", "C")].score.mean == pytest.approx(0.5)
    assert not rows[("A", "B")].difference.excludes(0.0)


def test_three_bots_at_a_three_seat_table_get_their_head_to_head() -> None:
    """``--players 3 --bots A,B,C`` seats all three at one table: head to head once
    took only two-bot tables, so this run had no pair's interval and no Elo gap."""
    from goat.tournament.stats import head_to_head

    teams = (0, 1, 2)
    games = [  # (set, rotation, seats, penalty per seat, deals); the goat: the seat at 12
        result(0, 0, 0, "A B C", (2, 4, 12), 2, teams),   # A-B 1/2 (both +1/2), A-C 1, B-C 1
        result(1, 0, 1, "C A B", (2, 12, 6), 2, teams),   # A the goat: A-B 0, A-C 0, B-C 1/2
        result(2, 0, 2, "B C A", (12, 0, 4), 4, teams),   # B the goat: A-B 1, A-C 1/2, B-C 0
        result(3, 1, 0, "A B C", (0, 12, 6), 3, teams),   # B: A-B 1, A-C 1/2, B-C 0
        result(4, 1, 1, "C A B", (12, 0, 6), 3, teams),   # C: A-B 1/2, A-C 1, B-C 1
        result(5, 1, 2, "B C A", (12, 6, 0), 3, teams),   # B: A-B 1, A-C 1/2, B-C 0
    ]
    pairs = {(p.first, p.second): p for p in head_to_head(games)}
    assert set(pairs) == {("A", "B"), ("A", "C"), ("B", "C")}
    ab, ac, bc = pairs[("A", "B")], pairs[("A", "C")], pairs[("B", "C")]
    assert (ab.deals, ab.score.n, ab.difference.n) == (17, 2, 2)
    # per set, A-B: scores (1/2 + 0 + 1)/3 = 1/2 and (1 + 1/2 + 1)/3 = 5/6;
    # penalty gains per deal (4-2)/2, (6-12)/2, (12-4)/4 -> 0 and 12/3, 6/3, 12/3 -> 10/3
    assert ab.score.mean == pytest.approx(2 / 3) and ab.difference.mean == pytest.approx(5 / 3)
    # t(1) = 12.706 times s/sqrt(2) = |10/3 - 0| / 2
    assert ab.difference.half_width == pytest.approx(12.706 * 5 / 3)
    # A-C: (1 + 0 + 1/2)/3, (1/2 + 1 + 1/2)/3; gains (12-2)/2, (2-12)/2, (0-4)/4 and 6/3, 12/3, 6/3
    assert ac.score.mean == pytest.approx((1 / 2 + 2 / 3) / 2) and ac.difference.mean == pytest.approx((-1 / 3 + 8 / 3) / 2)
    # B-C: (1 + 1/2 + 0)/3, (0 + 1 + 0)/3; gains (12-4)/2, (2-6)/2, (0-12)/4 and (6-12)/3, (12-6)/3, (6-12)/3
    assert bc.score.mean == pytest.approx((1 / 2 + 1 / 3) / 2) and bc.difference.mean == pytest.approx((-1 / 3 - 2 / 3) / 2)
    assert ab.elo_gap.mean == pytest.approx(400 * math.log10(2))  # 2/3 against 1/3
