"""What drawing a Yu-Gi-Oh! world costs late in a match, and ``mc``'s decision
time there, for this tree's code next to a baseline tree's in the same run (see
benchmarks/README.md, "Yu-Gi-Oh! worlds").

    PYTHONPATH=src .venv/bin/python benchmarks/yugioh_worlds.py BASELINE_SRC [ROUNDS] [POSITIONS] [DRAWS]

``BASELINE_SRC``: the ``src`` folder of the code to compare with (e.g. a
``git worktree add --detach /tmp/base <commit>``'s ``/tmp/base/src``).
Positions: the views of ``POSITIONS`` (default 8) third-duel decisions of
greedy-played ``goat`` matches (``yugioh_clone.greedy_positions``), made once by
this tree's code and passed to both as JSON. Each of ``ROUNDS`` (default 4)
rounds runs one fresh process per tree, in alternating order, that for every
view (a) draws ``DRAWS`` (default 3) worlds with one ``YugiohWorldSampler``
and one ``random.Random(index)``, timing each, and (b) times one decision of a
fresh ``mc`` (6 worlds) and of ``mc:time_limit=0.8`` (a hint's budget) of
seed ``index``. Printed: per tree, the median ms a world and seconds a decision
with the range of the rounds' medians, the ratio baseline ÷ this tree, and
whether both drew the same worlds (hashes of chances, actions and both seats'
views) and chose the same actions.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def child(views_file: str) -> None:
    """One round in this process's ``goat``: print the timings as JSON."""
    from goat.bots import make_bot
    from goat.games.yugioh.worlds import YugiohWorldSampler

    views = json.loads(Path(views_file).read_text())
    YugiohWorldSampler(views[0]).sample(random.Random(-1))  # warm up (card tables load on first use)
    worlds_ms: list[float] = []
    digest = hashlib.sha256()
    for index, view in enumerate(views):
        sampler, rng = YugiohWorldSampler(view), random.Random(index)
        for _ in range(int(os.environ["DRAWS"])):
            started = time.perf_counter()
            world = sampler.sample(rng)
            worlds_ms.append((time.perf_counter() - started) * 1000)
            digest.update(json.dumps([world.chances, world.actions, world.view(0), world.view(1)],
                                     sort_keys=True).encode())
    decide: dict[str, list[float]] = {"mc": [], "mc:time_limit=0.8": []}
    chosen, played = [], []
    for index, view in enumerate(views):
        for spec, options in (("mc", {}), ("mc:time_limit=0.8", {"time_limit": 0.8})):
            bot = make_bot("mc", index, "yugioh", **options)
            started = time.perf_counter()
            action = bot.choose(view)
            decide[spec].append(time.perf_counter() - started)
            if spec == "mc":
                chosen.append(str(action))
            else:
                played.append(bot.last_worlds)
    print(json.dumps({"worlds_ms": worlds_ms, "decide": decide, "worlds_hash": digest.hexdigest(),
                      "chosen": chosen, "played": played}))


def run_child(src: str, views_file: str, draws: int) -> dict[str, Any]:
    env = dict(os.environ, PYTHONPATH=src, DRAWS=str(draws))
    out = subprocess.run([sys.executable, __file__, "--child", views_file], env=env, check=True,
                         capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def summary(values: list[list[float]]) -> tuple[float, float, float]:
    """Median over all, and the min and max of the rounds' medians."""
    medians = [statistics.median(v) for v in values]
    return statistics.median([x for v in values for x in v]), min(medians), max(medians)


def main(argv: list[str]) -> None:
    if argv[:1] == ["--child"]:
        child(argv[1])
        return
    baseline = argv[0]
    rounds, count, draws = (int(a) for a in (argv[1:] + ["4", "8", "3"][len(argv) - 1:]))
    sys.path.insert(0, str(HERE))
    from yugioh_clone import greedy_positions

    states = greedy_positions(count)
    views = [json.loads(json.dumps(s.view(s.current_player()))) for s in states]
    trees = {"this": str(HERE.parent / "src"), "baseline": baseline}
    results: dict[str, list[dict[str, Any]]] = {name: [] for name in trees}
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(views, f)
    try:
        for r in range(rounds):
            order = ["this", "baseline"] if r % 2 == 0 else ["baseline", "this"]
            for name in order:
                results[name].append(run_child(trees[name], f.name, draws))
    finally:
        os.unlink(f.name)
    print(f"{count} third-duel decisions of greedy matches "
          f"({min(len(s.actions) for s in states)}-{max(len(s.actions) for s in states)} actions in), "
          f"{draws} worlds each, {rounds} rounds")
    figures = {}
    for name in trees:
        runs = results[name]
        figures[name, "world"] = summary([run["worlds_ms"] for run in runs])
        for spec in ("mc", "mc:time_limit=0.8"):
            figures[name, spec] = summary([run["decide"][spec] for run in runs])
    for key, unit in (("world", "ms a world"), ("mc", "s a decision"), ("mc:time_limit=0.8", "s a decision")):
        for name in trees:
            med, lo, hi = figures[name, key]
            extra = ""
            if key == "mc:time_limit=0.8":
                extra = f", worlds played median {statistics.median(x for run in results[name] for x in run['played'])}"
            print(f"  {key:<18} {name:<8}: median {med:8.3f} {unit} (round medians {lo:.3f}-{hi:.3f}){extra}")
        print(f"  {key:<18} baseline / this: {figures['baseline', key][0] / figures['this', key][0]:.2f}x")
    same_worlds = len({run["worlds_hash"] for name in trees for run in results[name]}) == 1
    same_choice = len({tuple(run["chosen"]) for name in trees for run in results[name]}) == 1
    print(f"  same worlds drawn by both trees: {same_worlds}; mc (6 worlds) chose the same actions: {same_choice}")


if __name__ == "__main__":
    main(sys.argv[1:])
