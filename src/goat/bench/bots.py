"""Bot decision time: median and p99 per bot and setting, next to a same-run baseline.

Positions come from seeded random games (every decision point of game after
game until there are enough), so every bot is timed on exactly the same
positions. A decision is timed from the state as a tournament asks for it
(:func:`goat.bots.base.bot_choice`): building the seat's view, then
``bot.choose(view)`` — or, for ``perfect``, which sees everything,
``choose_with_state`` on a copy of the state: its ``choose`` is only the fallback
for positions the solver does not take, and timing it timed the heuristic. Each bot
first makes a few untimed decisions, so one-off JIT compilation is not counted.

Every game has bots (``--game kozel|spades|yugioh``); each game's bots are
timed on that game's positions. The baseline is the game's ``random`` bot on
the same positions: its time is the cost of building the view and parsing the
legal actions, the floor under any bot. The issue's target — Kozel's ``pimc``
with 100 worlds at most 100 ms median per decision on one core — is printed as
pass/miss when that bot was timed.

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

from goat.bots.base import bot_choice
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


def default_specs(game: str = "kozel") -> list[str]:
    """Every bot that plays ``game`` here with its default setting, plus (Kozel) the
    pimc target setting.

    >>> default_specs("yugioh")[:1]
    ['greedy']
    """
    from goat.bots import bots_for

    names = [name for name in bots_for(game) if name != BASELINE]
    if game == "kozel" and "pimc" in names:
        names.append(TARGET_SPEC)
    return names


def default_rules(game: str) -> str:
    """The ruleset positions come from when none is named: the game's tournament default."""
    from goat.tournament.games import scoring_for

    return scoring_for(game).default_rules


#: The bot that plays the games positions come from, where random play gives no
#: positions worth timing: random Spades bids make a nil in most deals (and a search
#: bot hands a live nil to another bot), random Yu-Gi-Oh! duels pass their turns
#: away. These games' positions are also only those with a choice: most of a duel's
#: decision points offer one action (a window to respond with nothing to respond
#: with), which every bot plays at once. Kozel's positions stay random play, forced
#: cards included (the pimc target was set on them).
POSITION_BOTS: dict[str, str] = {"spades": "heuristic", "yugioh": "greedy"}


def positions(rules: str, count: int, seed: int, game: str = "kozel") -> list[Any]:
    """``count`` decision points (state copies) from seeded games of ``game``,
    played by its :data:`POSITION_BOTS` bot, only those with a choice (random
    play and every decision point where none is named)."""
    from goat.bots import make_bot

    module = get_game(game)
    rng = random.Random(f"{seed}/positions")
    player = make_bot(POSITION_BOTS[game], f"{seed}/positions", game) if game in POSITION_BOTS else None
    out: list[Any] = []
    seats = module.new_state(rules=rules).num_players
    while len(out) < count:
        state = module.new_state(rules=rules, first_dealer=rng.randrange(seats), single_deal=True)
        while not state.is_terminal() and len(out) < count:
            if state.is_chance_node():
                state.apply_chance(state.sample_chance(rng))
                continue
            if player is None or len(state.legal_actions()) > 1:
                out.append(state.clone())
            if player is None:
                actions = state.legal_actions()
                state.apply_action(actions[rng.randrange(len(actions))])
            else:
                state.apply_action(player.choose(state.view(state.current_player())))
    return out


def measure(spec: BotSpec, states: Sequence[Any], seed: int,
            tick: Callable[[], None] | None = None, game: str = "kozel") -> Timing:
    """Time ``spec`` (a bot of ``game``) on every position: view building plus its
    choice (:func:`~goat.bots.base.bot_choice`, as a tournament asks for it).

    Each bot decides on its own copies of the positions, made untimed, so no bot
    gains from what an earlier bot left cached in a state (Yu-Gi-Oh!'s parsed
    legal actions)."""
    states = [state.clone() for state in states]
    try:
        bot = spec.make(f"{seed}/{spec.text}", game)
    except GoatError as exc:
        return Timing(spec.label, (), str(exc))
    times = []
    clock = time.perf_counter
    try:  # warm-up, untimed: JIT compilation and caches are not a decision's cost
        for state in states[:WARMUP]:
            bot_choice(bot, state, state.current_player())
    except GoatError as exc:
        return Timing(spec.label, (), str(exc))
    for state in states:
        seat = state.current_player()
        try:
            started = clock()
            bot_choice(bot, state, seat)
            times.append(clock() - started)
        except GoatError as exc:  # e.g. a bot that does not play this ruleset
            return Timing(spec.label, (), str(exc))
        if tick is not None:
            tick()
    return Timing(spec.label, tuple(times))


def run(specs: Sequence[str], rules: str, decisions: int, seed: int,
        tick: Callable[[], None] | None = None, game: str = "kozel") -> tuple[Timing, list[Timing]]:
    """The baseline's timing and each spec's, on the same ``decisions`` positions of ``game``."""
    if decisions < 1:
        raise GoatError(f"--decisions must be at least 1, not {decisions}")
    parsed = parse_bot_list(",".join(specs)) if specs else []
    states = positions(rules, decisions, seed, game)
    baseline = measure(parse_bot_spec(BASELINE), states, seed, tick, game)
    return baseline, [measure(spec, states, seed, tick, game) for spec in parsed]


def target_verdict(timings: Sequence[Timing]) -> str | None:
    """"pass"/"miss" line for the pimc target, or None when it was not measured."""
    for t in timings:
        if t.label == TARGET_SPEC and t.error is None and t.seconds:
            verdict = "pass" if t.median_ms <= TARGET_MEDIAN_MS else "miss"
            return (f"target {TARGET_SPEC} ≤ {TARGET_MEDIAN_MS:g} ms median per decision: "
                    f"{verdict} ({t.median_ms:.1f} ms)")
    return None


def table(baseline: Timing, timings: Sequence[Timing], rules: str, game: str = "kozel") -> Table:
    out = Table(title=f"bot decision time, {game} {rules}, {len(baseline.seconds)} positions")
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
