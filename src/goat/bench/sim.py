"""Batch simulator speed, next to two baselines measured in the same run.

For each ruleset, three contenders play random complete deals in alternating
slices (so a burst of load on a shared machine hits all of them):

* **sim** — :mod:`goat.fast.sim`: the compiled shuffler and the compiled
  random playout, batch after batch (one core, ``record=0``);
* **python** — the pure-Python reference engine, the loop of
  :func:`goat.bench.engine.engine_deals` (random legal actions on a
  ``single_deal`` state);
* **spades** — OpenSpiel's C++ ``spades`` through ``pyspiel``: a new game, uniform
  random chance outcomes and legal actions to the end (52 dealing chance actions,
  4 bids, 52 card plays). Skipped with a note when ``pyspiel`` is not installed.

Reported: deals per second, actions per second (plays, passes, gives, molodkas; for
spades every action, chance ones included, and card plays separately), and the ratios
against the issue's targets: sim ≥ 100× the Python engine (per deal) and sim ≥
50× OpenSpiel's per-action rate. Targets are shown as pass/miss, not asserted.

Used by ``goat bench sim`` and ``python -m goat.bench.sim``.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from rich import box
from rich.console import Console
from rich.table import Table

from goat.bench import format_rate, select_labels
from goat.bench.engine import CONFIGS as ENGINE_CONFIGS
from goat.bench.engine import Tally, check_seconds, engine_deals
from goat.games.kozel import KozelRules, make_rules
from goat.protocol import GoatError

#: label -> (preset, players): every ruleset (the simulator covers them all).
CONFIGS: dict[str, tuple[str, int]] = dict(ENGINE_CONFIGS)
DEFAULT_RULES = "classic,full-hand"

#: Targets from issue 3.
TARGET_VS_PYTHON = 100.0
TARGET_VS_SPADES = 50.0

SLICE_SECONDS = 0.1
#: Deals per compiled batch: big enough to hide the Python call, small enough
#: for many slices.
BATCH = 4096

INSTALL_HINT = ("OpenSpiel (pyspiel) is not installed: the spades column is skipped. "
                "Install the bench extra: pip install -e '.[bench]'  (or: pip install open-spiel)")


@dataclass
class SpadesTally(Tally):
    """Spades figures: ``actions`` counts every action, ``plays`` card plays only."""

    plays: int = 0

    @property
    def plays_per_second(self) -> float:
        return self.plays / self.seconds if self.seconds else 0.0


@dataclass
class SimBenchResult:
    label: str
    sim: Tally
    python: Tally
    spades: SpadesTally | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def vs_python(self) -> float:
        """sim deals/s ÷ Python engine deals/s."""
        base = self.python.deals_per_second
        return self.sim.deals_per_second / base if base else 0.0

    @property
    def vs_spades(self) -> float | None:
        """sim actions/s ÷ OpenSpiel spades actions/s (every action)."""
        if self.spades is None or not self.spades.actions_per_second:
            return None
        return self.sim.actions_per_second / self.spades.actions_per_second

    @property
    def vs_spades_plays(self) -> float | None:
        """sim actions/s ÷ OpenSpiel spades card plays/s."""
        if self.spades is None or not self.spades.plays_per_second:
            return None
        return self.sim.actions_per_second / self.spades.plays_per_second


# ------------------------------------------------------------------ contenders
def load_spades() -> Any | None:
    """The pyspiel ``spades`` game, or ``None`` when OpenSpiel is not installed."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    return pyspiel.load_game("spades")


def spades_game(game: Any, rng: random.Random) -> tuple[int, int]:
    """One random spades game to its end; returns (actions, card plays)."""
    state = game.new_initial_state()
    actions = plays = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
            if action < 52:  # spades: 0..51 are cards, 52.. are bids
                plays += 1
            state.apply_action(action)
        actions += 1
    return actions, plays


def _sim_step(rules: KozelRules, seed_counter: list[int]) -> tuple[int, int]:
    """One compiled batch: shuffle and play ``BATCH`` deals; (deals, actions)."""
    from goat.fast.sim import random_batch, simulate

    seed = seed_counter[0]
    seed_counter[0] += 1
    # the batch count starts at seed * 1_000_003, past 64 bits for a large --seed: it
    # and the deals' seeds, which follow on from batch to batch, are taken mod 2**64
    # here (random_batch and simulate refuse a seed past 64 bits; goat bench refuses
    # a --seed of 2**64 or more, which would wrap onto a smaller one's deals, where
    # every --seed below it keeps deals of its own)
    batch = random_batch(rules, BATCH, seed % 2**64)
    seeds = np.arange(BATCH, dtype=np.uint64) + np.uint64(seed * BATCH % 2**64)
    out = simulate(rules, batch, seeds, record=0)
    return BATCH, out.total_actions


def _slice(tally: Tally, step: Callable[[], tuple[int, int]], seconds: float,
           extra: Callable[[], None] | None = None) -> None:
    clock = time.perf_counter
    t0 = clock()
    while True:
        deals, actions = step()
        tally.deals += deals
        tally.actions += actions
        t1 = clock()
        if t1 - t0 >= seconds:
            break
    tally.seconds += t1 - t0


def bench_rules(label: str, rules: KozelRules, seconds: float, seed: int = 0,
                spades: Any | None = None) -> SimBenchResult:
    """Measure ``rules`` for about ``seconds``: sim, Python engine and (if given)
    spades take turns in slices; the sim is compiled and warmed up first."""
    from goat.fast.sim import random_batch, simulate

    warm = random_batch(rules, 8, seed)
    simulate(rules, warm, np.arange(8), record=0)
    result = SimBenchResult(label, Tally(), Tally(), SpadesTally() if spades is not None else None)
    counter = [seed * 1_000_003 + 1]
    rng_py, rng_spades = random.Random(seed), random.Random(seed + 1)
    slice_seconds = min(SLICE_SECONDS, max(seconds / 6, 1e-3))

    def py_step() -> tuple[int, int]:
        return engine_deals(rules, rng_py)

    def spades_step() -> tuple[int, int]:
        actions, plays = spades_game(spades, rng_spades)
        assert result.spades is not None
        result.spades.plays += plays
        return 1, actions

    start = time.perf_counter()
    while result.python.deals == 0 or time.perf_counter() - start < seconds:
        _slice(result.sim, lambda: _sim_step(rules, counter), slice_seconds)
        _slice(result.python, py_step, slice_seconds)
        if result.spades is not None:
            _slice(result.spades, spades_step, slice_seconds)
    return result


def select(rules: str) -> list[str]:
    """``"all"`` or comma-separated labels of :data:`CONFIGS` (one-line errors)."""
    return select_labels(rules, list(CONFIGS), "sim bench")


def run(labels: Sequence[str], seconds: float, seed: int = 0,
        use_spades: bool = True) -> tuple[list[SimBenchResult], str | None]:
    """Bench every label for ``seconds`` each; returns the results and a note
    (the install hint) when spades could not be measured."""
    check_seconds(seconds)
    spades = load_spades() if use_spades else None
    note = INSTALL_HINT if use_spades and spades is None else None
    results = []
    for label in labels:
        preset, players = CONFIGS[label]
        results.append(bench_rules(label, make_rules(preset, players=players), seconds, seed, spades))
    return results, note


# -------------------------------------------------------------------- output


def _ratio(x: float | None, target: float | None = None) -> str:
    if x is None:
        return "–"
    text = f"{x:.0f}×" if x >= 10 else f"{x:.2f}×"
    if target is not None:
        text += " pass" if x >= target else " miss"
    return text


def table(results: Sequence[SimBenchResult]) -> Table:
    """The figures as a rich table."""
    out = Table(title="Batch simulator vs the Python engine and OpenSpiel spades, same run, one core",
                title_justify="left", box=box.SIMPLE_HEAVY,
                caption=(f"targets: sim ≥ {TARGET_VS_PYTHON:.0f}× python (deals/s), "
                         f"sim ≥ {TARGET_VS_SPADES:.0f}× spades (actions/s; a spades game has "
                         "52 deal + 4 bid + 52 play actions). sim acts = plays, passes, gives, molodkas."),
                caption_justify="left")
    for name in ("ruleset", "sim\ndeals/s", "sim\nns/act", "python\ndeals/s", "sim ÷\npython",
                 "spades\nacts/s", "sim ÷\nspades/act"):
        out.add_column(name, justify="left" if name == "ruleset" else "right", no_wrap=True)
    for r in results:
        ns = 1e9 / r.sim.actions_per_second if r.sim.actions_per_second else 0.0
        sp = r.spades
        out.add_row(r.label, format_rate(r.sim.deals_per_second), f"{ns:.1f}",
                    format_rate(r.python.deals_per_second), _ratio(r.vs_python, TARGET_VS_PYTHON),
                    format_rate(sp.actions_per_second) if sp else "–",
                    _ratio(r.vs_spades, TARGET_VS_SPADES))
    return out


def summary_lines(results: Sequence[SimBenchResult]) -> list[str]:
    """One plain line per ruleset (ns per deal and per action, the two targets)."""
    lines = []
    for r in results:
        per_deal = 1e9 / r.sim.deals_per_second if r.sim.deals_per_second else 0.0
        line = (f"{r.label}: sim {per_deal:.0f} ns/deal, {r.sim.actions / max(r.sim.deals, 1):.1f} acts/deal; "
                f"{_ratio(r.vs_python)} the Python engine (target {TARGET_VS_PYTHON:.0f}×: "
                f"{'pass' if r.vs_python >= TARGET_VS_PYTHON else 'miss'})")
        if r.vs_spades is not None:
            line += (f"; {_ratio(r.vs_spades)} OpenSpiel spades per action (target "
                     f"{TARGET_VS_SPADES:.0f}×: {'pass' if r.vs_spades >= TARGET_VS_SPADES else 'miss'}), "
                     f"{_ratio(r.vs_spades_plays)} per spades card play")
        lines.append(line)
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m goat.bench.sim [--seconds S] [--rules classic,full-hand]``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per ruleset (all contenders)")
    parser.add_argument("--rules", default=DEFAULT_RULES, help="all, or comma-separated: " + ", ".join(CONFIGS))
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    try:
        results, note = run(select(args.rules), args.seconds, args.seed)
    except GoatError as exc:
        parser.exit(2, f"error: {exc}\n")
    console = Console()
    if note:
        console.print(note)
    console.print(table(results))
    for line in summary_lines(results):
        console.print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
