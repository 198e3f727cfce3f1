"""The double-dummy solver in individual play (``full-hand`` with 2 or 3 players,
:mod:`goat.fast.solver_solo`): hand-made endings worked out by hand, and a
random cross-check against a brute-force minimax over the reference engine.

Values are for one *seat* (``side``): the card points it holds at the end, or
``±CATCH`` / ``±ROYAL``; that seat maximises and every other seat minimises (the
exact game with 2 players, the "paranoid" coalition with 3).
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from goat.cards import Card
from goat.fast import solver
from goat.fast.solver import CATCH, ROYAL, SolverError, evaluate_moves, solve
from goat.games.kozel import KozelRules, make_rules, new_state
from goat.games.kozel.phases import PLAY

from tests.fast.test_solver import act, play_the_best_line, reference, tree_events, values
from tests.fast.test_solver import position as solver_position


# ================================================================ helpers
def position(players: int, hands: dict[int, str], leader: int, trump_card: str, stock: str = "",
             tricks_played: int = 1, prev_opening_team: int | None = None,
             options: dict[str, Any] | None = None) -> Any:
    """A PLAY position at a trick start of individual ``full-hand`` with exactly
    these hands and stock (:func:`tests.fast.test_solver.position`)."""
    return solver_position("full-hand", hands, leader, stock, trump_card, tricks_played, prev_opening_team,
                           options, players=players)


# ================================================================ by hand: 2 players
def test_two_players_shamok_catch() -> None:
    """Trumps spades. Seat 0 ``9D 7C``, seat 1 ``QC 8H``, seat 0 leads.

    * ``7C``: seat 1 must follow trumps with its only trump, QC: the shamok
      catches the queen, ``+CATCH`` for seat 0.
    * ``9D``: seat 1 is void in diamonds. ``8H`` loses the trick (0 points) and
      seat 0 then leads 7C into QC: a catch. So it trumps with QC (0 + 3 for seat
      1), leads 8H, and seat 0, void in hearts, plays 7C and wins 0 points: 0.
    """
    s = position(2, {0: "9D 7C", 1: "QC 8H"}, leader=0, trump_card="9S")
    assert values(s) == {"0 play 7C": CATCH, "0 play 9D": 0}
    assert solve(s, 0) == CATCH and solve(s, 1) == -CATCH
    act(s, "0 play 9D")
    assert values(s) == {"1 play 8H": -CATCH, "1 play QC": 3}
    assert values(s, side=0) == {"1 play 8H": CATCH, "1 play QC": 0}
    assert solve(s, 0) == reference(s.clone(), 0, 0) == 0


def test_two_players_draw_from_the_trick_winner() -> None:
    """Trumps clubs. Seat 0 ``9H``, seat 1 ``AH``, stock ``TS AS``: AH takes the
    first trick (11 for seat 1), seat 1 draws TS first and seat 0 AS; seat 1
    leads TS and AS takes it: 21 for seat 0. (Drawing from seat 0 would give
    seat 0 TS and all 32 points to seat 1.)"""
    s = position(2, {0: "9H", 1: "AH"}, leader=0, trump_card="9C", stock="TS AS")
    assert solve(s, 0) == 21
    assert solve(s, 1) == 11


def test_two_players_royal_goat_after_a_draw() -> None:
    """Trumps spades. Seat 0 ``AC AD AH JD``, seat 1 ``KD TD KH 9C``, stock
    ``AS 9H``: whoever wins the first trick draws AS first. Seat 0 leads the
    permanent trump JD, which seat 1 (no trumps) cannot beat, and draws the
    fourth ace: a royal goat (``+ROYAL``). Winning the trick with an ace leaves
    three aces after the draw (and the deal goes on with points)."""
    s = position(2, {0: "AC AD AH JD", 1: "KD TD KH 9C"}, leader=0, trump_card="9S",
                 stock="AS 9H")
    assert solve(s, 0) == ROYAL and solve(s, 1) == -ROYAL
    v = values(s)
    assert v["0 play JD"] == ROYAL
    assert all(0 <= v[f"0 play A{suit}"] <= 120 for suit in "CDH")
    assert v["0 play AD"] == reference(act(s.clone(), "0 play AD"), 0, 0)


# ================================================================ by hand: 3 players
def test_three_players_paranoid_coalition() -> None:
    """24-card deck, trumps spades. Seat 0 ``9D AC``, seat 1 ``AD 9H``, seat 2
    ``TC KH``; seat 1 leads. For seat 0 (seats 1 and 2 minimising):

    * ``9H``: seat 2 follows KH and wins; seat 0 keeps AC (throws 9D); seat 2
      leads TC, seat 0 wins with AC, seat 1 (void) adds AD: 10+11+11 = 32.
    * ``AD``: AD wins (seat 2 throws a card, seat 0 follows 9D); then 9H is led
      and seat 0, void in hearts and trumps, only adds AC to someone's trick: 0.

    For seat 1: ``AD``, and seat 2 (now minimising seat 1) throws TC on it
    rather than KH: 11+10 = 21, then KH wins the hearts trick: 21. (Throwing KH
    instead would give seat 1 15 + 21.) Leading 9H gives seat 1 nothing.
    """
    s = position(3, {0: "9D AC", 1: "AD 9H", 2: "TC KH"}, leader=1, trump_card="9S")
    assert values(s, side=0) == {"1 play 9H": 32, "1 play AD": 0}
    assert solve(s, 0) == 0
    assert values(s) == {"1 play 9H": 0, "1 play AD": 21}
    assert solve(s, 1) == 21
    act(s, "1 play AD")
    assert values(s, side=1) == {"2 play KH": 36, "2 play TC": 21}
    assert solve(s, 1) == reference(s.clone(), 1, 0) == 21


def test_three_players_trump_lead_rule_is_per_player() -> None:
    """``not-after-own-lead``: seat 0 led the previous trick, so seat 0 may not
    lead a trump while it holds a plain card (and there is no partner to
    exchange with: with only trumps it leads one). Trumps hearts: seat 0 ``AH
    9C``, seat 1 ``TC KD``, seat 2 ``AC 9D``. Seat 0 must lead 9C: AC (seat 2)
    takes 0+10+11; seat 2 leads 9D, seat 0 (void) trumps with AH and seat 1
    follows KD: 15 for seat 0. With ``AH KH`` instead, seat 0 leads trumps no
    one can beat: every card, 40 points."""
    s = position(3, {0: "AH 9C", 1: "TC KD", 2: "AC 9D"}, leader=0, trump_card="9H",
                 options={"trump_lead": "not-after-own-lead"})
    s.prev_trick_leader_team = 0
    assert [str(a) for a in s.legal_actions()] == ["0 play 9C"]
    assert solve(s, 0) == reference(s.clone(), 0, 0) == 15
    assert values(s, side=0) == {"0 play 9C": 15}
    only_trumps = position(3, {0: "AH KH", 1: "TC KD", 2: "AC 9D"}, leader=0, trump_card="9H",
                           options={"trump_lead": "not-after-own-lead"})
    only_trumps.prev_trick_leader_team = 0
    assert sorted(str(a) for a in only_trumps.legal_actions()) == ["0 play AH", "0 play KH"]
    assert solve(only_trumps, 0) == reference(only_trumps.clone(), 0, 0) == 40


@pytest.mark.parametrize("players", [2, 3])
def test_any_first_guess_gives_the_same_value(players: int) -> None:
    """``guess`` only moves where MTD(f) starts (mid-deal, points already taken)."""
    rng = random.Random(5)
    state = new_state("full-hand", players=players, single_deal=True)
    state.apply_chance(state.sample_chance(rng))
    for _ in range(12 if players == 3 else 20):   # 4 and 10 tricks in
        state.apply_action(rng.choice(state.legal_actions()))
    for side in range(players):
        value = solve(state, side)
        for guess in (0, 120, value, value + 7, value - 13, -CATCH, CATCH):
            assert solve(state, side, guess=guess) == value, (side, guess)


def test_refusals_in_individual_play() -> None:
    s = position(3, {0: "9D AC", 1: "AD 9H", 2: "TC KH"}, leader=1, trump_card="9S")
    with pytest.raises(SolverError, match="seat 0..2, not 3"):
        solve(s, 3)
    with pytest.raises(SolverError, match="seat 0..2"):
        evaluate_moves(s, -1)
    big = new_state("full-hand", players=2, options={"deck": "36"}, single_deal=True)
    big.apply_chance(big.sample_chance(random.Random(1)))
    assert "32 cards" in (solver.unsupported(big) or "")
    with pytest.raises(SolverError, match="32 cards"):
        solve(big)
    for players in (2, 3):
        s = new_state("full-hand", players=players, single_deal=True)
        assert solver.unsupported(s) is None


# ================================================================ random cross-check
def three_with_32_cards(options: dict[str, Any]) -> KozelRules:
    """3-player full-hand rules with the 32-card deck, for the kernel's positions only.

    The rules refuse that deck with 3 players for a whole deal (32 cards do not
    share out among three: ten tricks leave two cards), and no ruleset the rules
    allow puts the shamok in 3-player play. The kernel still handles it, and the
    small positions built here (1–3 cards a hand, a stock of whole rounds) are
    sound ones, so they keep the shamok catch between two others and a stock
    under test: only the deck-sharing check is skipped."""
    return replace_unchecked(make_rules("full-hand", players=3, options=options), deck="32")


def replace_unchecked(rules: KozelRules, **changes: Any) -> KozelRules:
    """``dataclasses.replace`` without the rules' checks (only for the kernel
    positions of :func:`three_with_32_cards`, whose rules a whole deal refuses)."""
    with mock.patch.object(KozelRules, "validate", lambda self: None):
        return dataclasses.replace(rules, **changes)


def random_position(rng: random.Random, players: int, trump_on_plain: str = "when-void") -> Any:
    """A random individual-play position small enough for brute force: 1-3
    cards a hand and up to two tricks' draws in the stock (or, with 2 players, 4
    cards, three of them aces, with the fourth ace next in the stock: the royal
    goat after a draw); with 3 players also the 32-card deck (the shamok in play, a catch
    between two others possible, and a stock); random trump-lead rules; 0 to
    ``players - 1`` cards already in the trick."""
    options: dict[str, Any] = {
        "trump_lead": rng.choice(["previous-opener", "not-after-own-lead", "opening-only", "free"]),
        "must_follow_trump": rng.random() < 0.75, "trump_on_plain": trump_on_plain}
    if players == 3 and rng.random() < 0.5:
        state = new_state(three_with_32_cards(options), single_deal=True)
    else:
        state = new_state("full-hand", players=players, options=options, single_deal=True)
    state.apply_chance(state.sample_chance(rng))
    pool = [c for h in state.hands for c in h] + list(state.stock)
    rng.shuffle(pool)
    size = rng.choice([1, 2, 2, 3, 3])
    royal = players == 2 and rng.random() < 0.25   # (15 cards of 3 players: too slow to brute-force)
    if royal:  # three aces and another card in a hand, the fourth ace the next to draw
        size = 4
        aces = [c for c in pool if c.rank == "A"]
        rest = [c for c in pool if c.rank != "A"]
        seat = rng.randrange(players)
        pool = rest[:seat * size] + aces[:3] + rest[seat * size:]
        pool.insert(players * size, aces[3])
    elif state.rules.has_shamok and rng.random() < 0.4:  # shamok and QC in two hands (or the stock)
        for card, at in ((Card.parse("7C"), 0), (Card.parse("QC"), size * rng.randrange(1, players + 1))):
            pool.remove(card)
            pool.insert(at, card)
    state.hands = [pool[i * size:(i + 1) * size] for i in range(players)]
    stock = 0
    if state.rules.stock_size:
        per_trick = [0, players, 2 * players]
        stock = rng.choice(per_trick[1:2] if size == 4 else per_trick if size < 3 else per_trick[:2])
    state.stock = pool[players * size:players * size + stock]
    state.piles = [[] for _ in range(players)]
    state.phase = PLAY
    state.tricks_played = rng.choice([0, 1, 3])
    state.prev_opening_team = rng.choice([None, *range(players)])
    state.prev_trick_leader_team = None if state.tricks_played == 0 else rng.randrange(players)
    state.to_act = state.trick_leader = rng.randrange(players)
    for _ in range(rng.randrange(players)):  # some cards already on the table
        if state.phase != PLAY or len(state.trick) == players - 1:
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def check_position(state: Any) -> tuple[int, int]:
    """Solve and evaluate ``state`` for every seat against brute force; return
    (decisive values seen, royal values seen)."""
    before = len(state.deal_results)
    decisive = royal = 0
    for side in range(state.rules.players):
        expected = reference(state, side, before)
        assert solve(state, side) == expected, (side, state.hands, state.stock, state.trick)
        decisive += abs(expected) >= CATCH
        royal += abs(expected) >= ROYAL
    mover = state.current_player()
    for a, v in evaluate_moves(state).items():
        child = state.clone()
        child.apply_action(a)
        assert v == reference(child, mover, before), (str(a), state.hands, state.stock, state.trick)
    return decisive, royal


@pytest.mark.parametrize("players,chunk,trump_on_plain", [
    (2, 0, "when-void"), (2, 1, "when-void"), (3, 0, "when-void"), (3, 1, "when-void"),
    (2, 0, "always"), (3, 0, "always")])
def test_random_positions_agree_with_brute_force(players: int, chunk: int, trump_on_plain: str) -> None:
    """(``trump_on_plain="always"``: a seat holding a plain lead's suit may trump
    it too; moves, endings and bounds of the individual-play kernel allow for it.)"""
    rng = random.Random(7000 + 10 * players + chunk + (100 if trump_on_plain == "always" else 0))
    checked = decisive = royal = 0
    events: set[str] = set()
    for _ in range(150):
        state = random_position(rng, players, trump_on_plain)
        if state.phase != PLAY or state.is_terminal():
            continue
        if trump_on_plain == "always" and "trump on held suit" not in events:
            tree_events(state.clone(), events)
        d, r = check_position(state)
        checked += 1
        decisive += d
        royal += r
    assert checked > 100 and decisive > 0
    if players == 2:
        assert royal > 0
    assert ("trump on held suit" in events) == (trump_on_plain == "always")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3]))
def test_property_solver_matches_brute_force(seed: int, players: int) -> None:
    state = random_position(random.Random(seed), players)
    if state.phase == PLAY and not state.is_terminal():
        check_position(state)


@pytest.mark.parametrize("players", [2, 3])
def test_solve_agrees_with_the_best_move_values_down_a_deal(players: int) -> None:
    """On whole deals (too big for brute force), from the 4th trick on: the value
    of a position is the best of its moves' values for the seat to act, and
    after the best move the value for that seat stays the same."""
    rng = random.Random(11)
    state = new_state("full-hand", players=players, single_deal=True)
    state.apply_chance(state.sample_chance(rng))
    for _ in range(3 * players):
        state.apply_action(rng.choice(state.legal_actions()))
    play_the_best_line(state, lambda s: s.current_player(), (PLAY,), two_sides=players == 2)


# ================================================================ the leader's sure points
def stock_empty_position(rng: random.Random, size: int, trump_lead: str | None = None,
                         trump_on_plain: str = "when-void") -> Any:
    """A random 2-player trick start with ``size`` cards a hand and the stock
    empty (where :func:`goat.fast.solver_solo.lead_sure_points` applies), random
    trump-lead (unless given) and follow rules; the shamok and the queen of clubs
    sometimes both in play."""
    options: dict[str, Any] = {
        "trump_lead": trump_lead or rng.choice(["previous-opener", "not-after-own-lead",
                                                "opening-only", "free"]),
        "must_follow_trump": rng.random() < 0.75, "trump_on_plain": trump_on_plain}
    state = new_state("full-hand", players=2, options=options, single_deal=True)
    state.apply_chance(state.sample_chance(rng))
    pool = [c for h in state.hands for c in h] + list(state.stock)
    rng.shuffle(pool)
    if rng.random() < 0.3:
        for card in (Card.parse("7C"), Card.parse("QC")):
            pool.remove(card)
            pool.insert(rng.randrange(2 * size), card)
    state.hands = [pool[:size], pool[size:2 * size]]
    state.stock = []
    state.piles = [[], []]
    state.phase = PLAY
    state.tricks_played = 8
    state.prev_opening_team = rng.choice([None, 0, 1])
    state.prev_trick_leader_team = rng.choice([0, 1])
    state.to_act = state.trick_leader = rng.randrange(2)
    return state


def brute(state: Any, side: int) -> int:
    """The brute-force value for ``side`` (a deal dealt with a royal goat has a
    result already: only results after it count)."""
    return reference(state.clone(), side, len(state.deal_results))


@pytest.mark.parametrize("trump_on_plain", ["when-void", "always"])
def test_leader_sure_points_are_a_lower_bound(trump_on_plain: str) -> None:
    """Where the kernel uses it (no decisive end below 0 possible for the leader),
    the leader's sure points never exceed its brute-force value from a 2-player,
    stock-empty trick start; and the solver, which uses it at every such trick
    start, agrees with brute force there for both seats. The bound must bite:
    positive in many positions and equal to the value in some. Under
    ``trump_on_plain="always"`` a high plain card wins nothing sure against a
    hand holding a trump: the bound that counts it as it does under "when-void"
    exceeds the value in some positions (``naive``), so the kernel must not."""
    from goat.fast import solver_solo as solo
    from goat.fast.solver_core import TRUMP_ON_PLAIN

    always = trump_on_plain == "always"
    rng = random.Random(424242 + always)
    ws = solver._workspace()
    used = positive = tight = unsound = 0
    for _ in range(120):
        state = stock_empty_position(rng, rng.choice([3, 4, 4]), trump_on_plain=trump_on_plain)
        leader = state.to_act
        value = brute(state, leader)
        W, _ = solver._encode(state, leader, ws, ws.next_gen())
        minus, _plus = solo.decisive_sides(W)
        if not minus:
            bound = int(solo.lead_sure_points(W))
            assert bound <= value, (bound, value, state.hands, state.rules.trump_lead)
            if always:   # the bound read as if the other had to follow
                W[TRUMP_ON_PLAIN] = 0
                unsound += int(solo.lead_sure_points(W)) > value
                W[TRUMP_ON_PLAIN] = 1
            used += 1
            positive += bound > 0
            tight += bound == value
        for side in (0, 1):
            assert solve(state, side) == brute(state, side), (side, state.hands)
    # (fewer plain winners are sure under "always": 38 of 111 positive there)
    assert used > 80 and positive > (30 if always else 40) and tight > 5
    assert (unsound > 0) == always


def test_rank_pattern_entries_agree_with_brute_force() -> None:
    """Once the stock is empty the kernel also stores and reuses bounds under the
    hands' rank pattern (:func:`goat.fast.solver_solo.quasi_solo_key`), corrected
    by the points of the rank-mapped cards: on 2-player endings of five cards a
    hand (the shamok and the queen sometimes both in play) the values still
    match brute force for both seats, and some of those entries settle a window."""
    from goat.fast.solver_core import Q_CUTS

    rng = random.Random(99)
    ws = solver._workspace()
    cuts = 0
    for _ in range(8):
        state = stock_empty_position(rng, 5)
        for side in (0, 1):
            assert solve(state, side) == brute(state, side), (side, state.hands)
            cuts += int(ws.W[Q_CUTS])
    assert cuts > 0


def test_rank_pattern_entries_with_a_stock_agree_with_brute_force() -> None:
    """With cards still to draw the rank-pattern key places each stock card by
    its place in the stock (used only where no royal goat is possible): on
    2-player positions with three cards a hand and two tricks' draws left the
    values match brute force for both seats, and some of those entries settle a
    window."""
    from goat.fast.solver_core import Q_STOCK_CUTS

    rng = random.Random(2024)
    ws = solver._workspace()
    cuts = 0
    for _ in range(30):
        state = stock_empty_position(rng, 3)
        state.hands = [state.hands[0], state.hands[1]]
        dealt = set(state.hands[0]) | set(state.hands[1])
        rest = [c for c in state.rules.deck_cards if c not in dealt]
        rng.shuffle(rest)
        state.stock = rest[:4]
        state.tricks_played = 3
        for side in (0, 1):
            assert solve(state, side) == brute(state, side), (side, state.hands, state.stock)
            cuts += int(ws.W[Q_STOCK_CUTS])
    assert cuts > 0


@pytest.mark.parametrize("trump_on_plain", ["when-void", "always"])
def test_two_card_endings_agree_with_brute_force(trump_on_plain: str) -> None:
    """The last two tricks of a 2-player deal are enumerated without search
    (:func:`goat.fast.solver_solo.ending2`): every lead, every legal reply, the
    forced last trick, a catch in either trick. Values match brute force for both
    seats, catches included."""
    rng = random.Random(77 + (1000 if trump_on_plain == "always" else 0))
    decisive = 0
    for _ in range(200):
        state = stock_empty_position(rng, 2, trump_on_plain=trump_on_plain)
        for side in (0, 1):
            expected = brute(state, side)
            assert solve(state, side) == expected, (side, state.hands, state.rules.trump_lead)
            decisive += abs(expected) >= CATCH
    assert decisive > 0


@pytest.mark.parametrize("trump_on_plain", ["when-void", "always"])
def test_three_card_endings_agree_with_brute_force(trump_on_plain: str) -> None:
    """The last three tricks of a 2-player deal are enumerated too
    (:func:`goat.fast.solver_solo.ending3`: each first trick, then the two-card
    ending with the trick's winner leading and the lead rule moved on). Values
    match brute force for both seats, catches included."""
    rng = random.Random(78 + (1000 if trump_on_plain == "always" else 0))
    decisive = 0
    for i in range(250):  # the last 100 with a lead rule that moves with each trick
        state = stock_empty_position(rng, 3, "not-after-own-lead" if i >= 150 else None, trump_on_plain)
        for side in (0, 1):
            expected = brute(state, side)
            assert solve(state, side) == expected, (side, state.hands, state.rules.trump_lead)
            decisive += abs(expected) >= CATCH
    assert decisive > 0
