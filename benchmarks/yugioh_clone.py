"""What a Yu-Gi-Oh! ``clone()`` costs late in a match, next to the from-start replay
in the same run (see benchmarks/README.md, "Yu-Gi-Oh! clone").

    PYTHONPATH=src .venv/bin/python benchmarks/yugioh_clone.py [POSITIONS] [ROUNDS] [CLONES] [MC]

1. **Clones.** Positions: seeded random ``goat`` matches (seeds 0, 1, ...; those
   that reach a third duel), each stopped at turn 6 of its third duel; the first
   ``POSITIONS`` (default 3). For each, ``ROUNDS`` (default 7) alternating rounds
   of ``CLONES`` (default 50) copies the old way (``replayed()``: the whole match
   replayed) and the new way (``clone()``: the current duel replayed from its
   ``DuelStart``), so that a burst of load hits both. Printed: per-copy
   milliseconds, median over the rounds and the min–max range, and old ÷ new.
2. **mc late in a match.** ``MC`` (default 8) decisions with a choice in the
   third duel of ``goat`` matches played by ``greedy`` (as ``goat bench bots``
   makes its positions, but whole matches), each decided by a fresh ``mc``
   (6 worlds) and ``mc:time_limit=0.8`` (a hint's budget) of the same seed,
   once with ``clone`` the old way (patched to ``replayed``) and once the new
   way, alternating. Printed: median and max seconds a decision, the worlds the
   0.8 s bot played (median), and whether both ways chose the same actions.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from typing import Any

from goat.bots import make_bot
from goat.games.yugioh import new_state
from goat.games.yugioh.state import YugiohState
from goat.protocol import play_random_steps


def third_duel(s: Any) -> bool:
    return s.duel is not None and s.duel.number == 3 and s.duel.turn >= 6


def positions(count: int) -> list[tuple[int, Any]]:
    found = []
    seed = 0
    while len(found) < count:
        state = play_random_steps(new_state("goat", seed=seed), random.Random(seed), 100_000, third_duel)
        if third_duel(state) and not state.is_terminal():
            found.append((seed, state))
        seed += 1
    return found


def per_copy_ms(copy: Any, clones: int) -> float:
    start = time.perf_counter()
    for _ in range(clones):
        copy()
    return (time.perf_counter() - start) / clones * 1000


def greedy_positions(count: int) -> list[Any]:
    """``count`` copies of decision points with a choice (not first/side) in the
    third duel of greedy-played matches, seeds 0, 1, ..., every third such point
    and at most four a match."""
    found: list[Any] = []
    seed = 0
    while len(found) < count:
        taken, seen = 0, 0
        bot, rng = make_bot("greedy", seed, "yugioh"), random.Random(seed)
        state = new_state("goat", seed=seed)
        while not state.is_terminal() and len(found) < count and taken < 4:
            if state.is_chance_node():
                state.apply_chance(state.sample_chance(rng))
                continue
            if (state.duel is not None and state.duel.number == 3 and len(state.legal_texts()) > 1
                    and state.pending().kind not in ("first", "side")):
                seen += 1
                if seen % 3 == 1:
                    found.append(state.clone())
                    taken += 1
            state.apply_action(bot.choose(state.view(state.current_player())))
        seed += 1
    return found


def mc_decisions(states: list[Any]) -> None:
    new_way = YugiohState.clone
    specs = {"mc": {}, "mc:time_limit=0.8": {"time_limit": 0.8}}
    times: dict[tuple[str, str], list[float]] = {(s, w): [] for s in specs for w in ("old", "new")}
    worlds: dict[str, list[int]] = {"old": [], "new": []}
    same = True
    for index, state in enumerate(states):
        for spec in specs:
            chosen = {}
            for way, clone in (("old", YugiohState.replayed), ("new", new_way)) if index % 2 else (
                    ("new", new_way), ("old", YugiohState.replayed)):
                YugiohState.clone = clone  # type: ignore[method-assign]
                try:
                    bot = make_bot("mc", index, "yugioh", **specs[spec])
                    view = state.view(state.current_player())
                    started = time.perf_counter()
                    chosen[way] = bot.choose(view)
                    times[spec, way].append(time.perf_counter() - started)
                finally:
                    YugiohState.clone = new_way  # type: ignore[method-assign]
                if spec != "mc":
                    worlds[way].append(bot.last_worlds)
            same = same and (spec != "mc" or chosen["old"] == chosen["new"])
    print(f"\nmc on {len(states)} third-duel decisions of greedy matches "
          f"({min(len(s.actions) for s in states)}-{max(len(s.actions) for s in states)} actions in):")
    for spec in specs:
        for way in ("old", "new"):
            t = times[spec, way]
            extra = f", worlds median {statistics.median(worlds[way])}" if spec != "mc" else ""
            print(f"  {spec:<20} {way}: median {statistics.median(t):.3f} s, max {max(t):.3f} s{extra}")
    print(f"  mc (6 worlds) chose the same actions both ways: {same}")


def main(argv: list[str]) -> None:
    count, rounds, clones, decisions = (int(a) for a in (argv + ["3", "7", "50", "8"][len(argv):]))
    print(f"{'seed':>4} {'steps':>6} {'duel steps':>10} {'old ms (range)':>22} {'new ms (range)':>22} {'old/new':>8}")
    for seed, state in positions(count):
        old, new = [], []
        for _ in range(rounds):
            old.append(per_copy_ms(state.replayed, clones))
            new.append(per_copy_ms(state.clone, clones))
        start = state._duel_start
        steps = len(state.chances) + len(state.actions)
        in_duel = steps - start.chances - start.actions
        o, n = statistics.median(old), statistics.median(new)
        print(f"{seed:>4} {steps:>6} {in_duel:>10} {o:8.2f} ({min(old):.2f}-{max(old):.2f}) "
              f"{n:8.2f} ({min(new):.2f}-{max(new):.2f}) {o / n:7.1f}x")
    if decisions:
        mc_decisions(greedy_positions(decisions))


if __name__ == "__main__":
    main(sys.argv[1:])
