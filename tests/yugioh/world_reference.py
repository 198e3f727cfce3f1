"""Seeded Yu-Gi-Oh! worlds pinned as a reference: the positions, how each world
is drawn and fingerprinted, and the script that wrote
``tests/data/yugioh_world_reference.json``.

Why: the world sampler (:mod:`goat.games.yugioh.worlds`) is optimised for
speed, and such a change must leave the drawn worlds *exactly* as they were for
a fixed view and ``random.Random`` state. A draw is recorded by hashes of what
makes a world: its chance and action lists, its view and history for both seats
and the spectator, its legal texts — and of the rng's state after the draw (so
the number of random draws it made). A draw that fails records its error.

Positions: seeded random matches of the built-in decks (with side decks: the
hidden side-decking between duels is redrawn), stopped in duels 1, 2 and 3, at
both seats, under ``ask_responses`` "when-set-cards" (the default), "always"
and "when-able" (which may give up), the official preset, a Chaos Warrior vs
Goat Control match and open deck lists. Each view gets one sampler drawing two
worlds in a row (as ``mc`` does), then ``sample_world`` once more.

Regenerate (only when a change of the drawn worlds is intended, and say so in the commit):

    PYTHONPATH=src python tests/yugioh/world_reference.py
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

from goat.games.worlds import WorldSamplingError
from goat.games.yugioh import new_state
from goat.games.yugioh.worlds import YugiohWorldSampler, sample_world
from goat.protocol import play_random_steps

FIXTURE = Path(__file__).resolve().parents[1] / "data" / "yugioh_world_reference.json"

#: (label, rules, options, match seed, duel number, turn reached in it)
CASES: list[tuple[str, str, dict[str, Any] | None, int, int, int]] = [
    ("goat/d1/t1", "goat", None, 1, 1, 1),
    ("goat/d1/t5", "goat", None, 2, 1, 5),
    ("goat/d2/t3", "goat", None, 3, 2, 3),
    ("goat/d3/t2", "goat", None, 0, 3, 2),
    ("goat/d3/t6", "goat", None, 4, 3, 6),
    ("goat/d3/t4", "goat", None, 13, 3, 4),
    ("goat/d3/t9", "goat", None, 12, 3, 9),
    ("always/d2/t4", "goat", {"ask_responses": "always"}, 5, 2, 4),
    ("when-able/d1/t3", "goat", {"ask_responses": "when-able"}, 6, 1, 3),
    ("when-able/d2/t2", "goat", {"ask_responses": "when-able"}, 12, 2, 2),
    ("official/d2/t2", "official", None, 7, 2, 2),
    ("chaos/d3/t3", "goat", {"decks": "chaos_warrior/goat_control"}, 8, 3, 3),
    ("open/d2/t3", "goat", {"open_decklists": True}, 9, 2, 3),
]
#: Tries per draw (the sampler's default is 30; fewer keep "when-able" quick).
MAX_TRIES = 10


def position(rules: str, options: dict[str, Any] | None, seed: int, number: int, turn: int) -> Any:
    """The first seeded random match from ``seed`` on that reaches turn ``turn``
    of duel ``number`` (stopped there, not over)."""
    def there(s: Any) -> bool:
        return s.duel is not None and s.duel.number == number and s.duel.turn >= turn

    for k in range(seed, seed + 200):
        state = play_random_steps(new_state(rules, options, seed=k), random.Random(k), 100_000, there)
        if there(state) and not state.is_terminal():
            return state
    raise AssertionError(f"no match reaches duel {number}, turn {turn}")  # pragma: no cover


def positions() -> list[tuple[str, Any]]:
    return [(label, position(rules, options, seed, number, turn))
            for label, rules, options, seed, number, turn in CASES]


def _hash(obj: Any) -> str:
    return hashlib.sha256(json.dumps(obj, sort_keys=True).encode()).hexdigest()[:16]


def fingerprint(world: Any) -> dict[str, str]:
    """Hashes of what makes a drawn world (see the module docstring)."""
    return {"chances": _hash(world.chances), "actions": _hash(world.actions),
            "views": _hash([world.view(s) for s in (0, 1, None)]),
            "histories": _hash([world.history_of(s) for s in (0, 1, None)]),
            "legal": _hash(world.legal_texts())}


def draw(draw_one: Any, rng: random.Random) -> dict[str, Any]:
    try:
        out: dict[str, Any] = fingerprint(draw_one(rng))
    except WorldSamplingError as exc:
        out = {"error": str(exc)}
    out["rng"] = _hash(rng.getstate())
    return out


def draws(state: Any, seat: int, seed: int) -> list[dict[str, Any]]:
    """Two worlds from one sampler, then one from :func:`sample_world`, all
    with one rng seeded ``seed``."""
    view = json.loads(json.dumps(state.view(seat)))  # as a bot gets it
    rng = random.Random(seed)
    sampler = YugiohWorldSampler(view, MAX_TRIES)
    out = [draw(sampler.sample, rng), draw(sampler.sample, rng)]
    out.append(draw(lambda r: sample_world(view, r, MAX_TRIES), rng))
    return out


def reference(label: str, state: Any) -> dict[str, Any]:
    return {"label": label, "steps": len(state.chances) + len(state.actions),
            "seats": [draws(state, seat, 1000 * seat + len(state.actions)) for seat in (0, 1)]}


def main() -> None:
    out = [reference(label, state) for label, state in positions()]
    FIXTURE.write_text(json.dumps(out, indent=1) + "\n")
    failed = sum("error" in d for r in out for seat in r["seats"] for d in seat)
    print(f"wrote {FIXTURE} ({len(out)} positions, {failed} failed draws)")


if __name__ == "__main__":
    main()
