"""The solver's rank-pattern ("quasi-symmetric") table entries never change a value.

A hit there takes the bounds stored for another position with the same holders
of the i-th live card of each class (a seat, or in classic a place in the stock)
and corrects them by the point difference of the rank-mapped cards, the stock's
included (:func:`goat.fast.solver_search.quasi_probe`). A wrong correction, or a
position the argument does not cover (a forced exchange, a lead restriction, a
possible shamok catch whose cards the key does not fix, a stock order the key
does not fix) would show as a value that differs from the solve without them
(``USE_QUASI`` off), which the other solver tests check against brute force on
small endings only: these positions are too big for that.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from goat.cards import Card
from goat.fast import solver, solver_core as core, solver_search as search
from goat.fast.encoding import tables
from goat.fast.solver import evaluate_moves, solve
from goat.games.kozel import new_state
from goat.games.kozel.phases import FORCED_RETURN, PARTNER_EXCHANGE, PLAY
from goat.games.kozel.rules import CARD_POINTS, QUEEN_OF_CLUBS, SHAMOK


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


def classic_with_stock(rng: random.Random) -> Any:
    """A classic deal (random trump-lead options, sometimes three- or five-card
    hands) played randomly 0-3 tricks in, a few cards into the next trick in half
    of them, with cards still in the stock: every trick start of its search
    until the stock runs out is one with a stock (five-card hands: more held
    cards than the stock key takes, so those stay without rank-pattern entries)."""
    options = random_options(rng) | {"hand_size": rng.choice([4, 4, 4, 3, 5])}
    state = new_state("classic", options=options, single_deal=True)
    state.apply_chance(state.sample_chance(rng))
    for _ in range(4 * rng.randrange(4) + rng.choice([0, 0, 1, 2, 3])):
        if state.phase not in (PLAY, FORCED_RETURN) or state.deal_results or len(state.stock) <= 4:
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
    and those with a shamok catch possible or cards in the stock."""
    monkeypatch.setattr(core, "USE_QUASI", quasi)
    both = (solve(state, 0), solve(state, 1))
    W = solver._workspace().W
    cuts = (int(W[core.Q_CUTS]), int(W[core.Q_CATCH_CUTS]), int(W[core.Q_STOCK_CUTS]))
    moves = {str(a): v for a, v in evaluate_moves(state).items()}
    return both, moves, cuts


MAKERS = {"whole deals": whole_deal, "endings": ending,
          "catch endings": lambda rng: ending(rng, catch_share=1.0),
          "classic with a stock": classic_with_stock}


@pytest.mark.parametrize("kind", list(MAKERS))
def test_rank_pattern_entries_do_not_change_values(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(4000 + list(MAKERS).index(kind))
    cuts = catch_cuts = stock_cuts = 0
    for _ in range(16):
        state = MAKERS[kind](rng)
        if state.phase not in (PLAY, FORCED_RETURN) or state.deal_results:
            continue
        on, moves_on, (cut, catch_cut, stock_cut) = values_of(state, True, monkeypatch)
        off, moves_off, no_cuts = values_of(state, False, monkeypatch)
        assert (on, moves_on) == (off, moves_off), (state.hands, state.stock, state.trick,
                                                    state.trick_leader)
        assert no_cuts == (0, 0, 0)
        cuts += cut
        catch_cuts += catch_cut
        stock_cuts += stock_cut
    assert cuts > 100  # the entries were used, not just stored
    assert catch_cuts > 0  # ... also where a catch was possible (their bounds may be decisive)
    if kind == "classic with a stock":
        assert stock_cuts > 100  # ... and with cards in the stock


def stock_twins(rng: random.Random) -> tuple[Any, Any, int]:
    """A classic trick start one trick in (12 cards in the stock) and its *twin*:
    one stock card swapped with a card of the first trick next to it in its class
    worth other points. The two have one rank pattern (the swapped cards hold the
    same place among the live cards), so one rank-pattern key; and the difference
    of the two cards' points (twin minus original)."""
    while True:
        state = dealt(rng, "classic")
        while state.tricks_played == 0 and state.phase in (PLAY, FORCED_RETURN):
            state.apply_action(rng.choice(state.legal_actions()))
        if state.phase != PLAY or state.trick or state.deal_results:
            continue
        code = solver._deal_code(state.rules, state.order.trump_suit)
        suit_class = tables(state.rules, state.order.trump_suit).suit_class
        live = {c for h in state.hands for c in h} | set(state.stock)
        for j, card in enumerate(state.stock):
            i = code.index[card]
            for other in (code.cards[k] for k in (i - 1, i + 1) if 0 <= k < len(code.cards)):
                if (other not in live and other not in (SHAMOK, QUEEN_OF_CLUBS)
                        and card not in (SHAMOK, QUEEN_OF_CLUBS)
                        and suit_class[other.index] == suit_class[card.index]
                        and CARD_POINTS[other.rank] != CARD_POINTS[card.rank]):
                    twin = state.clone()
                    twin.stock[j] = other
                    twin.piles = [[card if c == other else c for c in pile] for pile in twin.piles]
                    return state, twin, CARD_POINTS[other.rank] - CARD_POINTS[card.rank]


def test_rank_pattern_bounds_are_corrected_for_the_stock_cards() -> None:
    """Within one solve the stock at a given place holds the same cards, so the
    stock's share of the point correction is always 0 there and the value
    comparisons above cannot see it: here an entry stored for one position is
    probed from its twin (another stock card, same key) directly. The probe's
    bounds must widen by the swapped cards' point difference and hold the twin's
    value."""
    rng = random.Random(77)
    ws = solver._workspace()
    checked = 0
    for _ in range(10):
        state, twin, diff = stock_twins(rng)
        v = solve(state, 0) - state.points()[0]     # the value of the remaining tricks
        v_twin = solve(twin, 0) - twin.points()[0]
        if abs(v) >= core.CATCH:
            continue
        gen = ws.next_gen()
        W = solver._encode(state, 0, ws, gen)[0].copy()
        W_twin = solver._encode(twin, 0, ws, gen)[0].copy()
        catch = bool(core.decisive_possible(W))
        assert search.quasi_applies(W) and catch == bool(core.decisive_possible(W_twin))
        key = search.quasi_key(W, catch)
        assert key == search.quasi_key(W_twin, catch)
        tt = core.new_table(4)
        slot = core.tt_slot(*key, 15)
        search.quasi_store(W, tt, slot, *key, v, v - 1, v + 1, -1)  # exact: v
        got, lo, hi, _ = search.quasi_probe(W_twin, tt, slot, *key, -core.INF, core.INF, catch)
        assert got == core.NONE
        rem = int(W_twin[core.REM_PTS])
        assert (lo, hi) == (max(v - max(-diff, 0), 0), min(v + max(diff, 0), rem))
        assert lo <= v_twin <= hi
        checked += 1
    assert checked >= 5
