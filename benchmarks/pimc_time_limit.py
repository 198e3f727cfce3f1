"""How well ``pimc`` keeps its ``time_limit`` where worlds are slowest: the first
lead of 2-player ``full-hand`` deals (see benchmarks/README.md, "Individual play").

    PYTHONPATH=src .venv/bin/python benchmarks/pimc_time_limit.py [DEALS] [LIMIT ...]

For each time limit (default 2 and 0.8 s: a table bot's and a hint's), one
``pimc:worlds=100:time_limit=LIMIT`` decision at the first lead of ``DEALS``
(default 20) deals with a choice (``goat.bench.solver.kozel_position``, seeds 0,
1, ...): median and max seconds, how many decisions ran more than 10% over, and
the worlds solved. Runs on older code too (it only counts ``evaluate_moves``
calls that returned), so a before/after is the same command on both.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from typing import Any

from goat.bench.solver import kozel_position
from goat.bots.pimc import PIMCBot
from goat.fast import solver


def main(argv: list[str]) -> None:
    deals = int(argv[0]) if argv else 20
    limits = [float(x) for x in argv[1:]] or [2.0, 0.8]
    states = []
    seed = 0
    while len(states) < deals:   # first leads with a choice (one legal card: no search at all)
        state = kozel_position("full-hand, 2 players", random.Random(seed))
        seed += 1
        if len(state.legal_actions()) > 1:
            states.append(state)
    solver.warm_up()
    real = solver.evaluate_moves
    solved = [0]

    def counting(*args: Any, **kwargs: Any) -> Any:
        values = real(*args, **kwargs)
        solved[0] += 1
        return values

    solver.evaluate_moves = counting   # pimc looks it up at each decision
    for limit in limits:
        times, worlds = [], []
        for i, state in enumerate(states):
            bot = PIMCBot(seed=i, worlds=100, time_limit=limit)
            solved[0] = 0
            start = time.perf_counter()
            bot.choose(state.view(state.current_player()))
            times.append(time.perf_counter() - start)
            worlds.append(solved[0])
        print(f"time_limit={limit}: median {statistics.median(times):.2f} s, max {max(times):.2f} s, "
              f"{sum(t > limit * 1.1 for t in times)}/{deals} over by >10%; worlds solved median "
              f"{statistics.median(worlds)}, min {min(worlds)}, max {max(worlds)}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
