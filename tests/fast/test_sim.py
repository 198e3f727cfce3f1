"""The batch simulator agrees with the reference engine, step by step.

For every covered ruleset, seeded random deals (shuffled by the engine's own
:meth:`KozelDeal.shuffle`) are played by the compiled simulator with
``record=2``; each game is then replayed through :class:`KozelState`, and at
every step the simulator's legal set must equal the engine's
``legal_actions()``; at the end the engine's deal result (points, tricks,
penalty, ended_by, winner) must equal the simulator's. ``classic`` and
``full-hand`` are checked on 10,000 deals each, split in chunks so that
``pytest -n auto`` spreads them over the cores.
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from goat.cards import Card
from goat.fast.sim import (
    ENDED_BY_NAMES,
    batch_from_deals,
    compile_rules,
    random_batch,
    simulate,
)
from goat.fast.sim_kernel import MAX_ACTIONS
from goat.games.kozel import KozelDeal, KozelRules, make_rules, new_state
from goat.protocol import GoatError
from tests.fast.test_solver import trumps_on_held_suit

CHUNK = 2500


def _deals(rules: KozelRules, n: int, seed: int) -> tuple[list[KozelDeal], list[int], list[int | None]]:
    rng = random.Random(seed)
    deals, dealers, prev = [], [], []
    for _ in range(n):
        dealer = rng.randrange(rules.players)
        deals.append(KozelDeal.shuffle(rules, dealer, rng))
        dealers.append(dealer)
        prev.append(rng.choice([None, *range(rules.num_teams)]))
    return deals, dealers, prev


def replay_and_compare(rules: KozelRules, n: int, seed: int) -> Counter[str]:
    """Simulate ``n`` deals and replay each through the engine, comparing every
    step; returns a tally of what the games exercised (to show coverage)."""
    deals, dealers, prev = _deals(rules, n, seed)
    batch = batch_from_deals(rules, deals, dealers, prev)
    out = simulate(rules, batch, seeds=np.arange(seed * n, seed * n + n), record=2)
    seen: Counter[str] = Counter()
    for b in range(n):
        state = new_state(rules, first_dealer=dealers[b], single_deal=True)
        state.prev_opening_team = prev[b]
        state.apply_chance(deals[b])
        actions = out.actions_of(b)
        for k, action in enumerate(actions):
            sim_legal = [(a.seat, a.verb, frozenset(a.cards)) for a in out.legal_of(b, k)]
            engine_legal = [(a.seat, a.verb, frozenset(a.cards)) for a in state.legal_actions()]
            assert len(set(sim_legal)) == len(sim_legal)  # no action listed twice
            assert set(sim_legal) == set(engine_legal), (b, k, state.deal_log())
            if trumps_on_held_suit(state, action):
                seen["trump-on-held-suit"] += 1
            state.apply_action(action)
            seen[action.verb] += 1
            seen["cards"] += len(action.cards)
        # The deal is over for the engine too (an annulled one waits for a redeal).
        assert state.is_terminal() or state.is_chance_node(), (b, state.deal_log())
        assert len(state.deal_results) == 1
        result = state.deal_results[0]
        sim_result = {
            "points": out.points[b].tolist(),
            "tricks": out.tricks[b].tolist(),
            "penalty": out.penalty[b].tolist(),
            "ended_by": ENDED_BY_NAMES[out.ended_by[b]],
            "winner_team": None if out.winner_team[b] < 0 else int(out.winner_team[b]),
        }
        assert sim_result == result, (b, state.deal_log())
        seen[result["ended_by"]] += 1
    return seen


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(4))
@pytest.mark.parametrize("preset", ["classic", "full-hand"])
def test_ten_thousand_deals_agree_with_the_engine(preset: str, chunk: int) -> None:
    seen = replay_and_compare(make_rules(preset), CHUNK, seed=100 + chunk)
    # The chunk exercised the rules that matter, not just plain tricks.
    assert seen["give"] > 0 and seen["shamok-caught-queen"] > 0 and seen["cards-exhausted"] > 0
    if preset == "full-hand":
        assert seen["royal-goat"] > 0 and seen["annulled"] > 0


@pytest.mark.parametrize("preset,players,options", [
    ("full-hand-24", 4, {}),
    ("full-hand", 2, {}),
    ("full-hand", 3, {}),
    ("classic", 4, {"trump_lead": "not-after-own-lead"}),
    ("classic", 4, {"trump_lead": "opening-only", "must_follow_trump": False}),
    ("classic", 4, {"trump_lead": "free", "shamok_catches_queen": False, "tie": "annul"}),
    ("classic", 4, {"forced_exchange": False, "penalty": "graded", "royal_goat": True}),
    ("full-hand", 4, {"partner_exchange": 0, "opening_leader": "last-trick-winner"}),
    ("full-hand", 4, {"jack_order": "spades-high"}),
    ("classic", 4, {"trump_on_plain": "always"}),
    ("full-hand", 4, {"trump_on_plain": "always", "jack_order": "spades-high"}),
    ("full-hand", 3, {"trump_on_plain": "always"}),
    ("full-hand", 2, {"trump_on_plain": "always", "must_follow_trump": False}),
])
def test_other_rulesets_and_options_agree_with_the_engine(preset: str, players: int,
                                                          options: dict[str, object]) -> None:
    rules = make_rules(preset, players=players, options=options)
    seen = replay_and_compare(rules, 500, seed=7)
    assert seen["play"] >= 500 * len(rules.deck_cards) // 2
    # trump_on_plain="always": trumps were played on a plain lead while holding
    # it (never otherwise), so the agreement covered that rule
    assert (seen["trump-on-held-suit"] > 0) == (rules.trump_on_plain == "always")


def test_the_compiled_shuffler_makes_valid_deals_the_engine_agrees_with() -> None:
    for preset, players in [("classic", 4), ("full-hand", 4), ("full-hand", 3), ("street", 4)]:
        rules = make_rules(preset, players=players)
        n = 300
        batch = random_batch(rules, n, seed=5)
        out = simulate(rules, batch, seeds=np.arange(n), record=1)
        trumps = Counter()
        for b in range(n):
            deal = batch.deal(b)
            deal.validate(rules)  # sizes, no duplicates, deck membership
            dealer = int(batch.dealer[b])
            state = new_state(rules, first_dealer=dealer, single_deal=True)
            state.prev_opening_team = None if batch.prev_open[b] < 0 else int(batch.prev_open[b])
            state.apply_chance(deal)
            for action in out.actions_of(b):
                state.apply_action(action)  # raises if the sim played an illegal action
            assert state.deal_results[0]["points"] == out.points[b].tolist()
            trumps[deal.trump_suit(rules)] += 1
        assert set(batch.prev_open.tolist()) == set(range(-1, rules.num_teams))
        assert set(batch.dealer.tolist()) == set(range(players))
        assert len(trumps) == (4 if rules.trump_suit == "drawn" else 1)


def test_a_deal_is_a_function_of_its_cards_and_seed() -> None:
    rules = make_rules("full-hand")
    batch = random_batch(rules, 50, seed=9)
    a = simulate(rules, batch, seeds=np.arange(50))
    b = simulate(rules, batch, seeds=np.arange(50))
    c = simulate(rules, batch, seeds=np.arange(1, 51))
    assert (a.actions == b.actions).all() and (a.points == b.points).all()
    assert not (a.actions == c.actions).all()
    fast = simulate(rules, batch, seeds=np.arange(50), record=0)
    assert (fast.points == a.points).all() and fast.total_actions == int(a.n_actions.sum())


def test_a_hand_made_shamok_catch() -> None:
    """Classic, dealer 0 holds only hearts and leads one. Seats 1 and 2 hold no
    heart (1: 7C 8C 9C KC, 2: QC TC AC JD — all trumps), so
    both may play any card. When 1 plays 7C and 2 plays QC, the shamok (team 1)
    has caught the queen (team 0) and the deal ends at once: team 0 gets 4
    penalty points, no trick points are counted (rules: "shamok catches QC")."""
    rules = make_rules("classic")
    hands = [[Card.parse(c) for c in h.split()] for h in
             ("8H 9H KH AH", "7C 8C 9C KC", "QC TC AC JD", "7S 8S 9S KS")]
    used = {c for h in hands for c in h}
    stock = [c for c in rules.deck_cards if c not in used]
    deal = KozelDeal(tuple(map(tuple, hands)), tuple(stock))
    batch = batch_from_deals(rules, [deal] * 200, [0] * 200)
    out = simulate(rules, batch, seeds=np.arange(200), record=2)
    for b in range(200):
        first, second, third = out.actions_of(b)[:3]
        assert first.seat == 0 and first.cards[0].suit == "H"       # opening lead plain: any heart
        assert out.legal[b, 0] == sum(1 << c.index for c in hands[0])
        assert out.legal[b, 1] == sum(1 << c.index for c in hands[1])  # void in hearts: free
        assert out.legal[b, 2] == sum(1 << c.index for c in hands[2])
        if {second.cards[0], third.cards[0]} == {Card.parse("7C"), Card.parse("QC")}:
            assert ENDED_BY_NAMES[out.ended_by[b]] == "shamok-caught-queen"
            assert out.penalty[b].tolist() == [4, 0] and out.winner_team[b] == 1
            assert out.points[b].tolist() == [0, 0] and out.n_actions[b] == 3
    caught = [b for b in range(200) if out.ended_by[b] == 1]
    assert 0 < len(caught) < 200  # 1/16 of first tricks (7C then QC), plus later ones


def test_street_tables_the_kernel_cannot_hold_are_refused_with_one_line() -> None:
    with pytest.raises(GoatError, match="hands of at most 4 cards"):
        compile_rules(make_rules("street", options={"hand_size": 5}))


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(2))
def test_street_agrees_with_the_engine(chunk: int) -> None:
    seen = replay_and_compare(make_rules("street"), 1000, seed=200 + chunk)
    assert seen["molodka"] > 0 and seen["pass"] > 0 and seen["play"] > 0
    assert seen["cards-exhausted"] == 1000


@pytest.mark.parametrize("options", [{"max_lead": 2, "penalty": "flat2"},
                                     {"molodka": False, "tie": "annul"},
                                     {"max_molodka_per_trick": 2}])
def test_street_options_agree_with_the_engine(options: dict[str, object]) -> None:
    seen = replay_and_compare(make_rules("street", options=options), 200, seed=11)
    assert seen["cards"] >= 200 * 36  # molodkas replay cards, so at least the deck


# ------------------------------------------------------------ goat bench sim
def test_bench_sim_figures_without_openspiel(monkeypatch: pytest.MonkeyPatch) -> None:
    from rich.console import Console

    from goat.bench import sim as sim_bench

    monkeypatch.setattr(sim_bench, "load_spades", lambda: None)
    results, note = sim_bench.run(["classic", "full-hand-3p"], seconds=0.05, seed=1)
    assert note is not None and "pip install" in note and "bench" in note
    for r in results:
        assert r.spades is None and r.vs_spades is None
        assert r.sim.deals >= sim_bench.BATCH and r.python.deals > 0
        # A deal can end after 0 actions (royal goat) but not on average; never
        # more than the kernel's action buffer.
        assert 2 * r.sim.deals < r.sim.actions <= r.sim.deals * MAX_ACTIONS
        assert r.vs_python > 0
    console = Console(record=True, width=80)
    console.print(sim_bench.table(results))
    text = console.export_text()
    assert "classic" in text and "full-hand-3p" in text and ("pass" in text or "miss" in text)
    lines = sim_bench.summary_lines(results)
    assert len(lines) == 2 and "ns/deal" in lines[0] and "spades" not in lines[0]


def test_bench_sim_spades_baseline_when_pyspiel_is_installed() -> None:
    pytest.importorskip("pyspiel")
    from goat.bench import sim as sim_bench

    game = sim_bench.load_spades()
    actions, plays = sim_bench.spades_game(game, random.Random(0))
    assert plays == 52 and actions == 52 + 4 + 52  # deal, bids, card plays
    r = sim_bench.bench_rules("classic", make_rules("classic"), 0.05, spades=game)
    assert r.spades is not None and r.spades.plays > 0 and r.vs_spades and r.vs_spades_plays
    assert r.vs_spades_plays > r.vs_spades  # fewer card plays than actions in spades


def test_cli_bench_sim(monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from goat.bench import sim as sim_bench
    from goat.cli.main import app

    monkeypatch.setattr(sim_bench, "load_spades", lambda: None)
    runner = CliRunner()
    result = runner.invoke(app, ["bench", "sim", "--seconds", "0.05", "--rules", "full-hand"])
    assert result.exit_code == 0, result.output
    assert "full-hand" in result.stdout and "open-spiel" in result.stdout
    for args, needle in [(["--rules", "bridge"], "unknown ruleset 'bridge'"),
                         (["--seconds", "-1"], "--seconds must be positive")]:
        bad = runner.invoke(app, ["bench", "sim", *args])
        assert bad.exit_code == 2
        lines = bad.stderr.strip().splitlines()
        assert len(lines) == 1 and needle in lines[0]


def test_a_batch_for_other_rules_or_of_wrong_shapes_is_refused_not_a_crash() -> None:
    """The compiled kernels trust their arrays: a classic batch simulated under
    street read past them and killed the interpreter (a segmentation fault)."""
    import dataclasses

    classic, street = make_rules("classic"), make_rules("street")
    batch = random_batch(classic, 5, seed=1)
    with pytest.raises(GoatError, match="other rules"):
        simulate(street, batch, seeds=np.arange(5))
    unlabelled = dataclasses.replace(batch, rules=None)  # built by hand
    with pytest.raises(GoatError, match=r"batch.stock has shape \(5, 16\)"):
        simulate(street, unlabelled, seeds=np.arange(5))
    with pytest.raises(GoatError, match="record must be"):
        simulate(classic, batch, seeds=np.arange(5), record=3)
    assert simulate(classic, unlabelled, seeds=np.arange(5)).points.shape == (5, 2)
    with pytest.raises(GoatError, match="whole number of deals"):
        random_batch(classic, -1, seed=1)


def test_bench_sim_takes_a_large_seed() -> None:
    """The batch seeds run on from ``seed * 1_000_003 * 4096``: a --seed of 10**14
    overflowed numpy's uint64 (a traceback). The bench takes the batch count and
    the deals' seeds mod 2**64 itself (random_batch and simulate refuse a seed past
    64 bits), so they still differ. (A
    --seed of 2**64 or more, which would wrap onto a smaller one's, ``goat
    bench`` refuses: tests/test_cli_usage.py.)"""
    from goat.bench import sim as sim_bench

    rules = make_rules("full-hand")
    r = sim_bench.bench_rules("full-hand", rules, 0.01, seed=10**14)
    assert r.sim.deals >= sim_bench.BATCH and r.sim.actions > 0


@pytest.mark.parametrize("seed", [-1, 2**64, 2**64 + 3, 1.5, True, "7"])
def test_random_batch_refuses_a_seed_outside_64_bits_in_one_line(seed: object) -> None:
    """The kernels' seeds are 64-bit: ``random_batch`` took ``seed % 2**64``, so
    ``-1`` dealt ``2**64 - 1``'s deals and ``2**64 + 3`` dealt ``3``'s, in silence
    (the wrap ``goat bench`` refuses for its --seed); text was a TypeError."""
    rules = make_rules("classic")
    with pytest.raises(GoatError, match="seed must be a whole number from 0 to 2\\*\\*64 - 1"):
        random_batch(rules, 3, seed=seed)
    top = random_batch(rules, 3, seed=2**64 - 1)   # the whole range is taken, and keeps its own deals
    assert not (top.hands == random_batch(rules, 3, seed=0).hands).all()


@pytest.mark.parametrize("seeds", [[-1, 2, 3], [2**64, 2, 3], [1.5, 2, 3], np.array([0.0, 1.0, 2.0]),
                                   [True, False, True]])
def test_simulate_refuses_seeds_outside_64_bits_in_one_line(seeds: object) -> None:
    """``simulate`` cast its seeds to ``uint64``: ``-1`` played ``2**64 - 1``'s
    random actions, ``1.5`` played ``1``'s, and ``2**64`` raised numpy's
    OverflowError from inside."""
    rules = make_rules("classic")
    batch = random_batch(rules, 3, seed=1)
    with pytest.raises(GoatError, match="seeds must be whole numbers from 0 to 2\\*\\*64 - 1"):
        simulate(rules, batch, seeds=seeds)
    ok = simulate(rules, batch, seeds=[2**64 - 1, 0, np.uint64(5)])   # Python ints of the whole range and numpy ones
    assert ok.points.shape == (3, 2)
    assert simulate(rules, random_batch(rules, 0, seed=1), seeds=[]).points.shape == (0, 2)


def test_rules_that_are_not_kozel_rules_are_refused_in_one_line() -> None:
    """A ruleset's name where its rules belong (``random_batch("classic", ...)``)
    was an AttributeError from inside ``compile_rules``."""
    with pytest.raises(GoatError, match=r"make_rules\('classic'\)"):
        random_batch("classic", 3, seed=1)   # type: ignore[arg-type]
    batch = random_batch(make_rules("classic"), 3, seed=1)
    with pytest.raises(GoatError, match="not 'classic'"):
        simulate("classic", batch, seeds=np.arange(3))   # type: ignore[arg-type]
