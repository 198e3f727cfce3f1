"""Decision time of Spades ``pimc`` (DDS) next to ``heuristic``, on the same positions.

    PYTHONPATH=src .venv/bin/python benchmarks/spades_pimc.py [DEALS] [REPS] [SPEC ...]

Positions: every decision of ``DEALS`` (default 12) ``standard`` single deals
played by ``heuristic`` at all four seats (seeded 0, 1, ...), so bids and play
look like a real table's (random play would bid nil a quarter of the time, and
``pimc`` hands nil positions to its fallback). Each bot spec (default ``heuristic``,
``pimc``) decides at every position from the seat's view, ``REPS`` times (default
3; a fresh bot of the same seed each time, so the same work) and the fastest time
counts: the machine is shared. One-card decisions (no choice) are left out.
Printed per spec: median, p99 and
max milliseconds over all decisions, over card plays DDS decided (no nil alive)
and over the first trick's plays (the slowest: whole hands to solve), and, for
``pimc``, the ratio of its median to ``heuristic``'s in the same run.
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from goat.bots import make_bot
from goat.bots.spades_pimc import unsupported
from goat.games.spades import new_state
from goat.tournament.specs import parse_bot_spec


def positions(deals: int) -> list:
    out = []
    for seed in range(deals):
        rng = random.Random(seed)
        state = new_state("standard", single_deal=True, first_dealer=seed % 4)
        state.apply_chance(state.sample_chance(rng))
        bot = make_bot("heuristic", seed, game="spades")
        while not state.is_terminal():
            view = state.view(state.current_player())
            if len(view["legal_actions"]) > 1:
                out.append(state.clone())
            state.apply_action(bot.choose(view))
    return out


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(q / 100 * len(ordered)) - 1))] * 1000 if ordered else float("nan")


def main(argv: list[str]) -> None:
    deals = int(argv[0]) if argv else 12
    reps = int(argv[1]) if len(argv) > 1 else 3
    specs = argv[2:] or ["heuristic", "pimc"]
    states = positions(deals)
    medians = {}
    for text in specs:
        spec = parse_bot_spec(text)
        spec.make("7", game="spades").choose(states[0].view(states[0].current_player()))   # load DDS
        every, dds, first = [], [], []
        for i, state in enumerate(states):
            view = state.view(state.current_player())
            seconds = float("inf")
            for _ in range(reps):
                bot = spec.make(f"7/{i}", game="spades")
                start = time.perf_counter()
                bot.choose(view)
                seconds = min(seconds, time.perf_counter() - start)
            every.append(seconds)
            if view["phase"] == "play" and unsupported(view) is None:
                dds.append(seconds)
                if view["tricks_played"] == 0:
                    first.append(seconds)
        medians[text] = statistics.median(every)
        parts = [f"{name} {len(xs)}: median {pct(xs, 50):.1f} ms, p99 {pct(xs, 99):.1f}, max {pct(xs, 100):.1f}"
                 for name, xs in (("all", every), ("DDS plays", dds), ("first trick", first)) if xs]
        print(f"{text:22} " + "; ".join(parts), flush=True)
    if "heuristic" in medians:
        for text, median in medians.items():
            if text != "heuristic":
                print(f"{text}: median {median / medians['heuristic']:.0f}x heuristic's")


if __name__ == "__main__":
    main(sys.argv[1:])
