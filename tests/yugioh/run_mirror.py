"""Run N random-bot Goat Control mirror duels, replay each from its record.

    PYTHONPATH=src python -m tests.yugioh.run_mirror 1000

Prints how many finished without an engine error and how many replayed
identically (same decisions, same result, same final view). Not part of the
test suite (it takes minutes); the fuzz tests run a smaller number.
"""

from __future__ import annotations

import json
import random
import sys
import time
import traceback

from goat.bots import make_bot
from goat.bots.base import play_bots
from goat.games.yugioh import new_state, record_from_state
from goat.records import check_result, replay

from .invariants import check_invariants


def main(count: int, first_seed: int = 0) -> int:
    started = time.time()
    finished = identical = 0
    failures: list[str] = []
    for seed in range(first_seed, first_seed + count):
        state = new_state("goat", single_duel=True, seed=seed)
        bots = [make_bot("random", seed * 2 + s, game="yugioh") for s in (0, 1)]
        try:
            play_bots(state, bots, random.Random(seed), max_steps=50_000)
            check_invariants(state)
            finished += 1
        except Exception as exc:  # noqa: BLE001 - counting engine errors is the point
            failures.append(f"seed {seed}: {type(exc).__name__}: {exc}")
            traceback.print_exc(limit=-3)
            continue
        record = json.loads(json.dumps(record_from_state(state)))
        try:
            outcome = replay(record)
            check_result(record, outcome)
            same = (outcome.state.actions == state.actions
                    and outcome.state.information_state_string(None) == state.information_state_string(None))
        except Exception as exc:  # noqa: BLE001
            failures.append(f"seed {seed}: replay {type(exc).__name__}: {exc}")
            continue
        identical += same
    took = time.time() - started
    print(f"{count} duels: {finished} finished without an engine error, {identical} replayed identically "
          f"({took:.0f} s)")
    for line in failures[:20]:
        print("  " + line)
    return 0 if finished == identical == count else 1


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 100))
