"""Seeded ISMCTS decisions pinned as a reference: the positions, how each is
decided, and the script that wrote ``tests/data/ismcts_reference.json``.

Why: ``ismcts`` is optimised for speed (world sampling, rollouts, the street
engine), and every such change must leave its decisions *exactly* as they were
for a fixed seed. A decision is recorded with more than its chosen action — the
visit count of every root child and the bot's next random number after the
search (so the number of random draws the search made) — so a change that
alters the search but happens to keep the move still shows.

Positions come from seeded random games in street (most of them, including
out-of-turn molodka chances), classic, full-hand with 2, 3 and 4 players,
full-hand-24 and Spades, each decided by a fresh seeded bot.

Regenerate (only when a change of behaviour is intended, and say so in the commit):

    PYTHONPATH=src python tests/bots/ismcts_reference.py
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from goat.bots.ismcts import ISMCTSBot, _Node
from goat.games import get_game

FIXTURE = Path(__file__).resolve().parents[1] / "data" / "ismcts_reference.json"

#: (game, rules, players, positions, out-of-turn positions, bot options)
CASES: list[tuple[str, str, int | None, int, int, dict[str, Any]]] = [
    ("kozel", "street", None, 14, 4, {}),
    ("kozel", "street", None, 2, 0, {"rollout": "random"}),
    ("kozel", "street", None, 2, 0, {"guide": 0}),
    ("kozel", "classic", None, 3, 0, {}),
    ("kozel", "full-hand", 4, 2, 0, {}),
    ("kozel", "full-hand", 3, 2, 0, {}),
    ("kozel", "full-hand", 2, 1, 0, {}),
    ("kozel", "full-hand-24", 4, 1, 0, {}),
    ("spades", "standard", None, 2, 0, {}),
]
#: Search iterations per decision (fewer than the default 500 to keep the test quick).
ITERATIONS = 150


def _decision_points(game: str, rules: str, players: int | None, seed: str) -> Iterator[tuple[Any, int, bool]]:
    """(state, seat, out_of_turn) at every decision point of seeded random deals;
    ``out_of_turn`` marks a seat other than the one to act that could declare a molodka."""
    module = get_game(game)
    rng = random.Random(seed)
    while True:
        kwargs = {"players": players} if players else {}
        state = module.new_state(rules=rules, single_deal=True, **kwargs)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_chance(state.sample_chance(rng))
                continue
            actions = state.legal_actions()
            current = state.current_player()
            for seat in sorted({a.seat for a in actions} - {current}):
                yield state.clone(), seat, True
            if len({str(a) for a in actions if a.seat == current}) > 1:
                yield state.clone(), current, False
            state.apply_action(actions[rng.randrange(len(actions))])


def positions() -> list[dict[str, Any]]:
    """Every pinned position: its state, the seat deciding, how, and the bot's options."""
    out = []
    for index, (game, rules, players, count, out_count, options) in enumerate(CASES):
        seed = f"ismcts-reference/{index}"
        rng = random.Random(seed)
        turns, outs = 0, 0
        for state, seat, out_of_turn in _decision_points(game, rules, players, seed):
            if turns >= count and outs >= out_count:
                break
            if rng.random() < 0.7:   # spread the positions over the deal
                continue
            if out_of_turn and outs < out_count:
                outs += 1
            elif not out_of_turn and turns < count:
                turns += 1
            else:
                continue
            out.append({"label": f"{game}/{rules}/{players or '-'}/{len(out)}", "state": state, "seat": seat,
                        "out_of_turn": out_of_turn, "options": options, "seed": f"{seed}/{len(out)}"})
    return out


class _Recording(ISMCTSBot):
    """The bot, keeping the root of its last search for the record."""

    last_root: _Node | None = None

    def _best_key(self, root: _Node, allowed: set[str]) -> str:  # type: ignore[override]
        type(self).last_root = root
        return ISMCTSBot._best_key(root, allowed)


def decide(position: dict[str, Any]) -> dict[str, Any]:
    """The bot's decision at ``position``, with its root visits and next random number."""
    bot = _Recording(position["seed"], iterations=ITERATIONS, **position["options"])
    _Recording.last_root = None
    view = position["state"].view(position["seat"])
    if position["out_of_turn"]:
        chosen = bot.out_of_turn(view)
    else:
        chosen = bot.choose(view)
    root = _Recording.last_root
    visits = {key: child.visits for key, child in sorted(root.children.items())} if root is not None else {}
    return {"label": position["label"], "action": None if chosen is None else str(chosen),
            "visits": visits, "next_random": bot.rng.random()}


def main() -> None:
    records = [decide(p) for p in positions()]
    FIXTURE.write_text(json.dumps(records, indent=1) + "\n")
    print(f"wrote {len(records)} decisions to {FIXTURE}")


if __name__ == "__main__":
    main()
