"""How often a Yu-Gi-Oh! world draw fails (every one of ``max_tries``
attempts), for this tree's code next to a baseline tree's, on the same views
(see benchmarks/README.md, "Yu-Gi-Oh! world failures").

    PYTHONPATH=src .venv/bin/python benchmarks/yugioh_world_fails.py BASELINE_SRC [POSITIONS] [DRAWS] [--when-able]
        [--decks=PAIR] [--both-seats] [--late=N] [--rng=OFFSET] [--show] [--save-views=FILE]

``BASELINE_SRC``: the ``src`` folder of the code to compare with (e.g. ``git
worktree add --detach /tmp/base <commit>``'s ``/tmp/base/src``). Positions:
``POSITIONS`` (default 40) seeded random ``goat`` matches (seed 500 + k),
stopped in duel 2 or 3 (alternately) at turn 1 + k % 8 (the reference's
``position``), the view of seat k % 2, made once by this tree's code and passed
to both as JSON. Each tree, in its own process, draws ``DRAWS`` (default 2)
worlds per view with one ``YugiohWorldSampler`` at the default ``max_tries``
and ``random.Random(k)`` (``--rng=OFFSET``: ``random.Random(OFFSET + k)``,
other draws of the same views). Printed per tree: failed draws / draws with a 95 %
Wilson interval, the positions where every draw failed, the wall time.
``--when-able``: the matches are played with ``ask_responses="when-able"``
(where being asked to respond depends on hidden cards) instead of the default.
``--decks=PAIR``: the matches' ``decks`` option (e.g. ``chaos_warrior/goat_control``;
by default the Goat Control mirror). ``--both-seats``: both seats' views of
each position (the views are then numbered 2k and 2k + 1). ``--late=N``: late
positions instead, where duels are decided: seeded matches (seed k for k below
``POSITIONS``, random steps from ``random.Random(2k + s)``) stopped once seat s's
Deck holds at most ``N`` cards, at turn 2 or later, in the Main Phase 2 or End
Phase of the other seat, which is to act: that seat's view (both seats' turns,
s = 0 then 1, so up to two views a seed; a match that ends first gives none).
``--show``: each
failed draw's view, draw and the sampler's last problem. ``--save-views=FILE``:
the views as a JSON list (to replay a failed draw: view ``v``, draw ``d`` is the
``d + 1``-th ``YugiohWorldSampler(views[v]).sample`` with ``random.Random(OFFSET + v)``).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def child(views_file: str, draws: int, offset: int = 0) -> None:
    """Draw in this process's ``goat``: print per view the failures as JSON,
    and each failed draw's view, draw and last problem (``--show``)."""
    from goat.games.worlds import WorldSamplingError
    from goat.games.yugioh.worlds import YugiohWorldSampler

    views = json.loads(Path(views_file).read_text())
    out = []
    problems = []
    start = time.perf_counter()
    for k, view in enumerate(views):
        sampler = YugiohWorldSampler(view)
        rng = random.Random(offset + k)
        failed = 0
        for draw in range(draws):
            try:
                sampler.sample(rng)
            except WorldSamplingError as exc:
                failed += 1
                problems.append([k, draw, str(exc)])
        out.append(failed)
    print(json.dumps({"failed": out, "problems": problems, "seconds": time.perf_counter() - start}))


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """A 95 % interval for a proportion k / n."""
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def positions(count: int, options: dict[str, Any] | None = None, both_seats: bool = False) -> list[dict[str, Any]]:
    sys.path.insert(0, str(HERE.parent / "tests" / "yugioh"))
    from world_reference import position

    views = []
    for k in range(count):
        state = position("goat", options, 500 + k, 2 + k % 2, 1 + k % 8)
        for seat in (0, 1) if both_seats else (k % 2,):
            views.append(json.loads(json.dumps(state.view(seat))))
    return views


def late_positions(count: int, limit: int, options: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """Views late in a duel (``--late``): the benchmark's turn-1-to-8 positions seldom
    reach an empty Deck, where windows and glimpses are tightest and duels are decided."""
    from goat.games.yugioh import new_state
    from goat.protocol import play_random_steps

    views = []
    for k in range(count):
        for low in (0, 1):
            def there(s: Any, low: int = low) -> bool:
                d = s.duel
                return (d is not None and len(d.players[low].deck) <= limit and d.turn >= 2
                        and d.turn_player == 1 - low and s.current_player() == 1 - low
                        and d.phase in ("main2", "end"))

            state = play_random_steps(new_state("goat", options, seed=k), random.Random(2 * k + low), 100_000, there)
            if not state.is_terminal() and there(state):
                views.append(json.loads(json.dumps(state.view(1 - low))))
    return views


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="How often a Yu-Gi-Oh! world draw fails, for this tree "
                                     "and a baseline tree, on the same seeded views (see the module docstring).")
    parser.add_argument("baseline", metavar="BASELINE_SRC", help="the src folder of the code to compare with")
    parser.add_argument("count", metavar="POSITIONS", type=int, nargs="?", default=40,
                        help="seeded positions (default 40)")
    parser.add_argument("draws", metavar="DRAWS", type=int, nargs="?", default=2, help="draws per view (default 2)")
    parser.add_argument("--when-able", action="store_true", help='play the matches with ask_responses="when-able"')
    parser.add_argument("--decks", metavar="PAIR", help="the matches' decks option, e.g. chaos_warrior/goat_control")
    parser.add_argument("--both-seats", action="store_true",
                        help="draw from both seats' views of each position (default: seat k %% 2)")
    parser.add_argument("--late", metavar="N", type=int,
                        help="late positions instead: matches seed 0 to POSITIONS - 1 stopped once a seat's Deck "
                        "holds at most N cards, the other seat's view (both seats; see the module docstring)")
    parser.add_argument("--rng", metavar="OFFSET", type=int, default=0,
                        help="seed view k's draws with random.Random(OFFSET + k) (default 0): "
                        "other draws of the same views")
    parser.add_argument("--show", action="store_true",
                        help="print each failed draw: view, draw (0-based) and the sampler's last problem")
    parser.add_argument("--save-views", metavar="FILE",
                        help="write the views drawn from (a JSON list, numbered as printed) to FILE")
    args = parser.parse_args()
    if not Path(args.baseline).is_dir():
        parser.error(f"BASELINE_SRC {args.baseline!r} is not a folder")
    if args.count < 1 or args.draws < 1:
        parser.error("POSITIONS and DRAWS must be at least 1")
    if args.late is not None and args.late < 0:
        parser.error("--late=N needs N >= 0 (the most cards the Deck may hold)")
    if args.late is not None and args.both_seats:
        parser.error("--late already takes both seats' views; drop --both-seats")
    return args


def main() -> None:
    args = arguments()
    options: dict[str, Any] = {"ask_responses": "when-able"} if args.when_able else {}
    if args.decks:
        options["decks"] = args.decks
    draws = args.draws
    if args.late is not None:
        views = late_positions(args.count, args.late, options or None)
    else:
        views = positions(args.count, options or None, args.both_seats)
    if not views:
        sys.exit("no position: no match reached it (more POSITIONS or a larger --late=N)")
    if args.save_views:
        Path(args.save_views).write_text(json.dumps(views))
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(views, f)
    try:
        for name, src in (("baseline", args.baseline), ("this tree", str(HERE.parent / "src"))):
            env = dict(os.environ, PYTHONPATH=src)
            done = subprocess.run([sys.executable, __file__, "--child", f.name, str(draws), str(args.rng)], env=env,
                                  capture_output=True, text=True, check=True)
            result = json.loads(done.stdout)
            failed = result["failed"]
            k, n = sum(failed), draws * len(failed)
            low, high = wilson(k, n)
            never = [i for i, x in enumerate(failed) if x == draws]
            print(f"{name:9}: {k}/{n} draws failed ({k / n:.1%}, 95 % CI {low:.1%}-{high:.1%}); "
                  f"all failed at views {never}; {result['seconds']:.0f} s")
            if args.show:
                for view, draw, problem in result["problems"]:
                    print(f"  view {view} draw {draw}: {problem}")
    finally:
        os.unlink(f.name)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        child(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]) if len(sys.argv) > 4 else 0)
    else:
        main()
