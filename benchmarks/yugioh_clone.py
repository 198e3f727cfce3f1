"""What a Yu-Gi-Oh! ``clone()`` costs late in a match, next to the from-start replay
in the same run (see benchmarks/README.md, "Yu-Gi-Oh! clone").

    PYTHONPATH=src .venv/bin/python benchmarks/yugioh_clone.py [POSITIONS] [ROUNDS] [CLONES]

Positions: seeded random ``goat`` matches (seeds 0, 1, ...; those that reach a
third duel), each stopped at turn 6 of its third duel; the first ``POSITIONS``
(default 3). For each, ``ROUNDS`` (default 7) alternating rounds of ``CLONES``
(default 50) copies the old way (``replayed()``: the whole match replayed) and the
new way (``clone()``: the current duel replayed from its ``DuelStart``), so that a
burst of load hits both. Printed: per-copy milliseconds, median over the rounds
and the min–max range, and old ÷ new.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from typing import Any

from goat.games.yugioh import new_state
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


def main(argv: list[str]) -> None:
    count, rounds, clones = (int(a) for a in (argv + ["3", "7", "50"][len(argv):]))
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


if __name__ == "__main__":
    main(sys.argv[1:])
