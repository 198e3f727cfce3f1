"""Engine speed: random complete deals per second, next to a same-run baseline.

Absolute times mean little on shared, noisy machines, so every figure is
printed next to a baseline measured in the same run, in alternating slices:
the bare cost of shuffling and dealing the same deck and making the same
number of uniformly random card plays with no rules at all (a "rules-free
random trick loop"). The ratio engine ÷ baseline is the figure to compare
across machines and commits.

Used by ``goat bench engine`` and ``benchmarks/engine.py``.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from rich.console import Console
from rich.table import Table

from goat.bench import format_rate, select_labels
from goat.games.kozel import KozelRules, make_rules, new_state
from goat.protocol import GoatError

#: label -> (preset, players): every ruleset the bench covers.
CONFIGS: dict[str, tuple[str, int]] = {
    "classic": ("classic", 4),
    "full-hand": ("full-hand", 4),
    "full-hand-24": ("full-hand-24", 4),
    "street": ("street", 4),
    "full-hand-2p": ("full-hand", 2),
    "full-hand-3p": ("full-hand", 3),
}

#: Length of one alternating slice; engine and baseline take turns so that a
#: burst of load on the machine hits both.
SLICE_SECONDS = 0.05


@dataclass
class Tally:
    deals: int = 0
    actions: int = 0
    seconds: float = 0.0

    @property
    def deals_per_second(self) -> float:
        return self.deals / self.seconds if self.seconds else 0.0

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0


@dataclass
class BenchResult:
    """One ruleset's figures and the engine ÷ baseline ratios, per deal and per
    card action (the baseline makes as many card plays per deal as the engine's
    average, capped by the deck)."""

    label: str
    engine: Tally
    baseline: Tally

    @property
    def deal_ratio(self) -> float:
        base = self.baseline.deals_per_second
        return self.engine.deals_per_second / base if base else 0.0

    @property
    def action_ratio(self) -> float:
        base = self.baseline.actions_per_second
        return self.engine.actions_per_second / base if base else 0.0

    @property
    def actions_per_deal(self) -> float:
        return self.engine.actions / self.engine.deals if self.engine.deals else 0.0


def engine_deals(rules: KozelRules, rng: random.Random) -> tuple[int, int]:
    """Play a ``single_deal`` state to the end with random legal actions; return
    (deals, actions). Usually one deal; an annulled deal (60–60 in full-hand) is
    redealt, as the rules say, and each shuffle counts as a deal."""
    state = new_state(rules, first_dealer=rng.randrange(rules.players), single_deal=True)
    deals = actions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance(state.sample_chance(rng))
            deals += 1
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            actions += 1
    return deals, actions


def baseline_deal(rules: KozelRules, plays: int, rng: random.Random) -> int:
    """Shuffle and deal the same deck, then make ``plays`` uniformly random card
    plays from the hands with no rules: a full table is cleared, hands refill from
    the stock. Stops early when every card is played (an engine deal can hold a
    few more actions than cards: exchanges). Returns the number of plays made."""
    deck = list(rules.deck_cards)
    rng.shuffle(deck)
    n, size = rules.players, rules.hand_size
    hands = [deck[i * size:(i + 1) * size] for i in range(n)]
    stock = deck[n * size:]
    table: list = []
    seat = rng.randrange(n)
    made = 0
    while made < plays:
        hand = hands[seat]
        if not hand:
            if not any(hands):
                break
            seat = (seat + 1) % n
            continue
        table.append(hand.pop(rng.randrange(len(hand))))
        made += 1
        seat = (seat + 1) % n
        if len(table) == n:
            table.clear()
            for s in range(n):
                if stock and len(hands[s]) < size:
                    hands[s].append(stock.pop())
    return made


def bench_rules(label: str, rules: KozelRules, seconds: float, seed: int = 0) -> BenchResult:
    """Measure ``rules`` for about ``seconds`` in total, engine and baseline in
    alternating slices (at least one deal each)."""
    rng_engine, rng_base = random.Random(seed), random.Random(seed + 1)
    engine, baseline = Tally(), Tally()
    clock = time.perf_counter
    slice_seconds = min(SLICE_SECONDS, max(seconds / 4, 1e-4))
    start = clock()
    while engine.deals == 0 or clock() - start < seconds:
        t0 = clock()
        while True:
            deals, actions = engine_deals(rules, rng_engine)
            engine.deals += deals
            engine.actions += actions
            t1 = clock()
            if t1 - t0 >= slice_seconds:
                break
        engine.seconds += t1 - t0
        plays = min(len(rules.deck_cards), max(1, round(engine.actions / engine.deals)))
        t0 = clock()
        while True:
            baseline.actions += baseline_deal(rules, plays, rng_base)
            baseline.deals += 1
            t1 = clock()
            if t1 - t0 >= slice_seconds:
                break
        baseline.seconds += t1 - t0
    return BenchResult(label, engine, baseline)


def select(rules: str) -> list[str]:
    """``"all"`` or comma-separated labels of :data:`CONFIGS` (one-line errors)."""
    return select_labels(rules, list(CONFIGS), "bench")


def check_seconds(seconds: float) -> None:
    """``--seconds`` of every bench that measures for a time: ``inf`` (``1e400``
    parses as it) would measure for ever, ``nan`` compares false with the clock."""
    if not (math.isfinite(seconds) and seconds > 0):
        raise GoatError(f"--seconds must be positive and finite, not {seconds:g}")


def run(labels: Sequence[str], seconds: float, seed: int = 0) -> list[BenchResult]:
    """Bench every label for ``seconds`` each."""
    check_seconds(seconds)
    results = []
    for label in labels:
        preset, players = CONFIGS[label]
        results.append(bench_rules(label, make_rules(preset, players=players), seconds, seed))
    return results


def _ratio(x: float) -> str:
    return f"1/{1 / x:.0f}" if x else "–"


def table(results: Sequence[BenchResult]) -> Table:
    """The figures as a rich table (fits 80 columns)."""
    out = Table(title="Kozel engine vs a rules-free random trick loop, same run",
                title_justify="left", caption="ratio = engine ÷ baseline; compare ratios, not times "
                "(the baseline shuffles, deals and plays random cards with no rules)",
                caption_justify="left")
    out.add_column("ruleset", no_wrap=True)
    out.add_column("engine deals/s", justify="right")
    out.add_column("base deals/s", justify="right")
    out.add_column("ratio", justify="right", no_wrap=True)
    out.add_column("engine acts/s", justify="right")
    out.add_column("base plays/s", justify="right")
    out.add_column("ratio", justify="right", no_wrap=True)
    for r in results:
        out.add_row(r.label,
                    format_rate(r.engine.deals_per_second), format_rate(r.baseline.deals_per_second),
                    _ratio(r.deal_ratio),
                    format_rate(r.engine.actions_per_second), format_rate(r.baseline.actions_per_second),
                    _ratio(r.action_ratio))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """``python benchmarks/engine.py [--seconds S] [--rules all]``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per ruleset (engine + baseline)")
    parser.add_argument("--rules", default="all", help="all, or comma-separated: " + ", ".join(CONFIGS))
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    try:
        results = run(select(args.rules), args.seconds, args.seed)
    except GoatError as exc:
        parser.exit(2, f"error: {exc}\n")
    Console().print(table(results))
    return 0
