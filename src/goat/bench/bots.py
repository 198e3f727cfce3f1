"""Bot decision time: median and p99 per bot and setting, next to a same-run baseline.

Positions come from seeded random games (every decision point of game after
game until there are enough), so every bot is timed on exactly the same
positions. A decision is timed from the state: building the seat's view, then
``bot.choose(view)`` — what a tournament or a server pays per move. Each bot
first makes a few untimed decisions, so one-off JIT compilation is not counted.

The baseline is the ``random`` bot on the same positions: its time is the cost
of building the view and parsing the legal actions, the floor under any bot.
The issue's target — ``pimc`` with 100 worlds at most 100 ms median per
decision on one core — is printed as pass/miss when a ``pimc`` bot exists.

Used by ``goat bench bots``.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rich.table import Table

from goat.games import get_game
from goat.protocol import GoatError
from goat.tournament.specs import BotSpec, parse_bot_list, parse_bot_spec

BASELINE = "random"
TARGET_SPEC = "pimc:worlds=100"
TARGET_MEDIAN_MS = 100.0
#: Untimed decisions per bot first (numba compiles on the first call).
WARMUP = 3


@dataclass(frozen=True)
class Timing:
    """Decision times (seconds) of one bot spec on the benchmark positions."""

    label: str
    seconds: tuple[float, ...]
    error: str | None = None

    @property
    def median_ms(self) -> float:
        return percentile(self.seconds, 50) * 1000

    @property
    def p99_ms(self) -> float:
        return percentile(self.seconds, 99) * 1000


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (``q`` in 0..100); nan for no values.

    >>> percentile([5, 1, 4, 2, 3], 50), percentile(range(1, 101), 99)
    (3, 99)
    """
    ordered = sorted(values)
    if not ordered:
        return math.nan
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def default_specs() -> list[str]:
    """Every registered bot with its default setting, plus the pimc target setting."""
    from goat.bots import BOTS

    names = [name for name in BOTS if name != BASELINE]
    if "pimc" in BOTS:
        names.append(TARGET_SPEC)
    return names


def positions(rules: str, count: int, seed: int, game: str = "kozel") -> list[Any]:
    """``count`` decision points (state copies) from seeded random games."""
    module = get_game(game)
    rng = random.Random(f"{seed}/positions")
    out: list[Any] = []
    seats = module.new_state(rules=rules).num_players
    while len(out) < count:
        state = module.new_state(rules=rules, first_dealer=rng.randrange(seats), single_deal=True)
        while not state.is_terminal() and len(out) < count:
            if state.is_chance_node():
                state.apply_chance(state.sample_chance(rng))
                continue
            out.append(state.clone())
            actions = state.legal_actions()
            state.apply_action(actions[rng.randrange(len(actions))])
    return out


def measure(spec: BotSpec, states: Sequence[Any], seed: int,
            tick: Callable[[], None] | None = None) -> Timing:
    """Time ``spec`` on every position: view building plus ``choose``."""
    try:
        bot = spec.make(f"{seed}/{spec.text}")
    except GoatError as exc:
        return Timing(spec.label, (), str(exc))
    times = []
    clock = time.perf_counter
    try:  # warm-up, untimed: JIT compilation and caches are not a decision's cost
        for state in states[:WARMUP]:
            bot.choose(state.view(state.current_player()))
    except GoatError as exc:
        return Timing(spec.label, (), str(exc))
    for state in states:
        seat = state.current_player()
        try:
            started = clock()
            bot.choose(state.view(seat))
            times.append(clock() - started)
        except GoatError as exc:  # e.g. a bot that does not play this ruleset
            return Timing(spec.label, (), str(exc))
        if tick is not None:
            tick()
    return Timing(spec.label, tuple(times))


def run(specs: Sequence[str], rules: str, decisions: int, seed: int,
        tick: Callable[[], None] | None = None) -> tuple[Timing, list[Timing]]:
    """The baseline's timing and each spec's, on the same ``decisions`` positions."""
    if decisions < 1:
        raise GoatError(f"--decisions must be at least 1, not {decisions}")
    parsed = parse_bot_list(",".join(specs)) if specs else []
    states = positions(rules, decisions, seed)
    baseline = measure(parse_bot_spec(BASELINE), states, seed, tick)
    return baseline, [measure(spec, states, seed, tick) for spec in parsed]


def target_verdict(timings: Sequence[Timing]) -> str | None:
    """"pass"/"miss" line for the pimc target, or None when it was not measured."""
    for t in timings:
        if t.label == TARGET_SPEC and t.error is None and t.seconds:
            verdict = "pass" if t.median_ms <= TARGET_MEDIAN_MS else "miss"
            return (f"target {TARGET_SPEC} ≤ {TARGET_MEDIAN_MS:g} ms median per decision: "
                    f"{verdict} ({t.median_ms:.1f} ms)")
    return None


def table(baseline: Timing, timings: Sequence[Timing], rules: str) -> Table:
    out = Table(title=f"bot decision time, kozel {rules}, {len(baseline.seconds)} positions")
    out.add_column("bot")
    out.add_column("median ms", justify="right")
    out.add_column("p99 ms", justify="right")
    out.add_column("median ÷ baseline", justify="right")
    base = baseline.median_ms
    out.add_row(f"baseline: {baseline.label} (view + parse)", f"{base:.3f}", f"{baseline.p99_ms:.3f}", "1.0×")
    for t in timings:
        if t.error is not None:
            out.add_row(t.label, "—", "—", t.error)
        else:
            out.add_row(t.label, f"{t.median_ms:.3f}", f"{t.p99_ms:.3f}",
                        f"{t.median_ms / base:.1f}×" if base > 0 else "—")
    return out
