"""Our double-dummy kernel on plain trick-taking deals (:mod:`goat.fast.solver_plain`):
endings worked out by hand, a brute-force minimax on random small endings (tricks
and card points), bad input, and a differential test against Bo Haglund's DDS."""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np
import pytest

from goat.cards import Card, parse_cards
from goat.fast.solver import SolverError
from goat.fast.solver_core import SIDE, W_SIZE
from goat.fast.solver_plain import (
    DECK,
    KOZEL_POINTS,
    PLAIN_RANKS,
    _load,
    _plain_code,
    _rank_points,
    solve_plain,
)
from goat.fast.solver_search import sure_points
from goat.protocol import GoatError


def hands_of(*texts: str) -> list[list[Card]]:
    return [list(parse_cards(t)) if t else [] for t in texts]


# ================================================================ by hand
# Seat 0 holds the two top hearts; seat 1 holds one heart and a small spade;
# seat 2 (seat 0's partner) only clubs; seat 3 the other hearts.
RUFF = hands_of("AH KH", "QH 7S", "7C 8C", "JH TH")


@pytest.mark.parametrize("trump, leader, tricks", [
    ("S", 0, 1),   # AH wins (seat 1 must follow with QH), then KH is ruffed by 7S
    (None, 0, 2),  # no trumps: 7S is a mere discard, both hearts win
    ("H", 0, 2),   # hearts trumps: the two top trumps
    ("C", 0, 2),   # clubs trumps: only seat 2, the partner, could ruff
    ("S", 1, 1),   # seat 1 leads: 7S wins a trick whatever it does, QH never does
])
def test_the_ruff_ending(trump: str | None, leader: int, tricks: int) -> None:
    assert solve_plain(RUFF, leader, trump) == tricks


def test_drawing_the_last_trump_first_wins_every_trick() -> None:
    # Spades trumps. Seat 1's KS would ruff the second heart: leading AS first
    # draws it (seat 1 must follow), then AH and KH stand: 3 tricks. Cashing a
    # heart first gives up one (KH ruffed), so the value shows the right order.
    hands = hands_of("AS AH KH", "KS 7H 7C", "7D 8D 9D", "8C 9C TC")
    assert solve_plain(hands, 0, "S") == 3


def test_card_points_the_partner_feeds_a_ten_on_the_ace() -> None:
    # No trumps. AH wins a trick whenever it is played, JD too (nothing beats
    # it, and seat 3 must follow QH to a heart). Seat 2, void in hearts, drops
    # TC on the ace: AH 11 + KH 4 + QH 3 + TC 10 = 28 for seats 0+2; the
    # diamond trick's JD (2) goes to seats 1+3. One trick each way.
    hands = hands_of("AH 7D", "KH 8D", "TC 9D", "QH JD")
    assert solve_plain(hands, 0, None) == 1
    assert solve_plain(hands, 0, None, points=KOZEL_POINTS) == 28
    # ranks missing from the map count 0; the total of 30 is split 28 / 2
    assert solve_plain(hands, 0, None, points={"A": 11, "K": 4, "Q": 3, "J": 2, "T": 10}) == 28


def test_hands_as_text_and_trivial_sizes() -> None:
    assert solve_plain(["AS", "KS", "QS", "JS"], 1, "S") == 0
    assert solve_plain(["AS", "KS", "QS", "JS"], 0, None) == 1
    assert solve_plain([[], [], [], []], 2, "H") == 0


def test_sure_points_count_what_the_other_players_add_to_top_trump_tricks() -> None:
    # Spades trumps. Seat 0's AS and KS are the top live trumps (seat 1 holds
    # QS): each wins its own trick, and to those two tricks seats 1 and 3 must
    # each add two cards and the partner two (none of them run cards). Cheapest:
    # seat 1 QS+TH 13, seat 2 8C+JH 2, seat 3 9D+KH 4; with AS 11 and KS 4,
    # seats 0+2 surely take 34 of the 66 points, so seats 1+3 at most 32.
    hands = hands_of("AS KS 7H", "QS TH AD", "JH 8C AC", "KH TD 9D")
    code = _plain_code("S", _rank_points(KOZEL_POINTS))
    # ``few`` (ending3's two-card leaves) takes sets of one or two cards off
    # their points directly: the same bounds
    for few in (False, True):
        W = _load(np.zeros(W_SIZE, dtype=np.int64), code, hands, 0, 66)
        assert tuple(sure_points(W, few)) == (34, 66)
        W[SIDE] = 1
        assert tuple(sure_points(W, few)) == (0, 32)
    assert solve_plain(hands, 0, "S", points=KOZEL_POINTS) >= 34
    assert solve_plain(hands, 1, "S", points=KOZEL_POINTS) <= 32


# ================================================================ brute force
def brute(hands: Sequence[Sequence[Card]], leader: int, trump: str | None,
          points: dict[str, int] | None) -> int:
    """Plain minimax over every legal play (follow suit, else any card): the
    leader's side's tricks, or card points with ``points``."""
    side = leader & 1
    value = {r: (1 if points is None else points.get(r, 0)) for r in PLAIN_RANKS}

    def beats(a: Card, b: Card) -> bool:
        if a.suit == b.suit:
            return PLAIN_RANKS.index(a.rank) > PLAIN_RANKS.index(b.rank)
        return a.suit == trump

    def rec(hs: tuple[frozenset[Card], ...], lead: int, trick: tuple[Card, ...]) -> int:
        if len(trick) == 4:
            win = 0
            for i in range(1, 4):
                if beats(trick[i], trick[win]):
                    win = i
            winner = (lead + win) % 4
            took = sum(value[c.rank] for c in trick) if points is not None else 1
            rest = rec(hs, winner, ()) if hs[0] else 0
            return rest + (took if winner % 2 == side else 0)
        seat = (lead + len(trick)) % 4
        hand = hs[seat]
        legal = [c for c in hand if trick and c.suit == trick[0].suit] or list(hand)
        vals = []
        for c in legal:
            nh = tuple(h - {c} if s == seat else h for s, h in enumerate(hs))
            vals.append(rec(nh, lead, trick + (c,)))
        return max(vals) if seat % 2 == side else min(vals)

    return rec(tuple(frozenset(h) for h in hands), leader, ())


def random_hands(rng: random.Random, size: int, suits: str = "CDHS") -> list[list[Card]]:
    cards = [c for c in DECK if c.suit in suits]
    rng.shuffle(cards)
    return [cards[i * size:(i + 1) * size] for i in range(4)]


def test_random_small_endings_match_a_brute_force_minimax() -> None:
    rng = random.Random(7)
    for i in range(80):
        # few suits make voids (ruffs and discards) common
        hands = random_hands(rng, 3, rng.choice(["CDHS", "HS", "CHS"]))
        leader = rng.randrange(4)
        trump = rng.choice(["C", "D", "H", "S", None])
        points = None if i % 2 else KOZEL_POINTS
        assert solve_plain(hands, leader, trump, points) == brute(hands, leader, trump, points), \
            (hands, leader, trump, points)


# ================================================================ bad input
@pytest.mark.parametrize("hands, leader, trump, points, needle", [
    (hands_of("AS", "KS", "QS"), 0, "S", None, "4 hands"),
    ("AS KS QS JS", 0, "S", None, "4 hands"),
    (hands_of("AS", "KS", "QS", "AS"), 0, "S", None, "AS is dealt twice"),
    (hands_of("AS 7H", "KS", "QS", "JS"), 0, "S", None, "equal size"),
    (hands_of("6S", "KS", "QS", "JS"), 0, "S", None, "6S is not in the 32-card deck"),
    (["AS", "KS", "QS", "ZZ"], 0, "S", None, "not a card"),
    ([["AS"], ["KS"], ["QS"], ["JS"]], 0, "S", None, "not a card"),
    (hands_of("AS", "KS", "QS", "JS"), 4, "S", None, "leader must be a seat 0..3"),
    (hands_of("AS", "KS", "QS", "JS"), 0, "X", None, "trump_suit"),
    (hands_of("AS", "KS", "QS", "JS"), 0, "S", {"Z": 1}, "unknown rank 'Z'"),
    (hands_of("AS", "KS", "QS", "JS"), 0, "S", {"A": -1}, "whole number"),
    (hands_of("AS", "AH", "AD", "AC"), 0, "S", {"A": 40}, "160 points in play"),
])
def test_bad_input_is_one_line_solver_error(hands, leader, trump, points, needle) -> None:
    with pytest.raises(SolverError) as info:
        solve_plain(hands, leader, trump, points)
    assert isinstance(info.value, GoatError)
    assert needle in str(info.value) and "\n" not in str(info.value)


# ================================================================ DDS
def test_random_deals_agree_with_dds() -> None:
    pytest.importorskip("endplay")
    from endplay.dds import solve_board
    from endplay.dds.solve import SolveMode
    from endplay.types import Deal, Denom, Player

    rng = random.Random(2024)
    denoms = {"S": Denom.spades, "H": Denom.hearts, "D": Denom.diamonds, "C": Denom.clubs, None: Denom.nt}
    pbn_ranks = PLAIN_RANKS[::-1]  # PBN writes a suit's cards high to low
    for i in range(130):
        size = 8 if i < 110 else rng.randint(2, 7)  # whole 32-card deals, then some endings
        hands = random_hands(rng, size)
        leader = rng.randrange(4)
        trump = rng.choice(["S", "H", "D", "C", None])
        pbn = " ".join(".".join("".join(r for r in pbn_ranks if Card(r, s) in h) for s in "SHDC")
                       for h in hands)
        deal = Deal("N:" + pbn)  # seats 0..3 = N E S W; N+S is our side 0
        deal.trump = denoms[trump]
        deal.first = Player(leader)
        tricks = max(n for _, n in solve_board(deal, SolveMode.OptimalOne))
        assert solve_plain(hands, leader, trump) == tricks, (pbn, leader, trump)


def test_sharing_the_workspace_with_the_kozel_solver_changes_no_value() -> None:
    # Both solvers use one transposition table and work array (new generations,
    # the work array reloaded): solving a plain deal in between changes nothing.
    from goat.bench.solver import kozel_position
    from goat.fast.solver import solve

    state = kozel_position("classic", random.Random(11))
    before = solve(state, 0)
    hands = random_hands(random.Random(11), 8)
    tricks = solve_plain(hands, 1, "D")
    assert solve(state, 0) == before
    assert solve_plain(hands, 1, "D") == tricks


def test_rank_pattern_entries_only_where_a_suit_mixes_points() -> None:
    """Counting tricks (one point a card) the canonical table key already is the
    rank pattern, so the rank-pattern entries are switched off there (they only
    cost probes); counting card points they are on — with the same values
    either way (USE_QUASI off for comparison)."""
    from goat.fast import solver_core as core

    tricks, points = _plain_code("S", _rank_points(None)), _plain_code("S", _rank_points(KOZEL_POINTS))
    assert not tricks.mixed_points and points.mixed_points
    hands = hands_of("AS KS 7H QD", "QS TH AD 9C", "JH 8C AC TS", "KH TD 9D 7C")
    for code in (tricks, points):
        W = _load(np.zeros(W_SIZE, dtype=np.int64), code, hands, 0, 20)
        assert W[core.QUASI_ON] == int(code.mixed_points)
    rng = random.Random(8)
    for _ in range(6):
        deck = list(DECK)
        rng.shuffle(deck)
        deal = [deck[i * 6:(i + 1) * 6] for i in range(4)]
        on = (solve_plain(deal, 1, "H"), solve_plain(deal, 1, "H", points=KOZEL_POINTS))
        core.USE_QUASI = False
        try:
            off = (solve_plain(deal, 1, "H"), solve_plain(deal, 1, "H", points=KOZEL_POINTS))
        finally:
            core.USE_QUASI = True
        assert on == off
