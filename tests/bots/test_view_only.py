"""Every bot but the declared perfect-information one decides from the view alone.

Each bot is handed a JSON round-trip of a seat's view — plain dicts, lists and
strings with no path back to the state — and must answer exactly as it does from
the original view, without changing it. A bot that reached for the state (or for
hidden cards through object references) could not do that.
"""

from __future__ import annotations

import copy
import json
import random
import zlib

import pytest

from goat.bots import BOTS, make_bot
from goat.games.kozel import new_state

VIEW_ONLY = sorted(name for name, factory in BOTS.items() if not getattr(factory, "sees_everything", False))
SETTINGS = {"pimc": {"worlds": 3}, "ismcts": {"iterations": 30}}


def positions(preset: str, count: int, seed: int):
    """Mid-deal decision points of random games (each a fresh state)."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = new_state(preset, single_deal=True, first_dealer=rng.randrange(4))
        state.apply_chance(state.sample_chance(rng))
        for _ in range(rng.randrange(1, 12)):
            if state.is_terminal() or state.is_chance_node():
                break
            actions = state.legal_actions()
            state.apply_action(actions[rng.randrange(len(actions))])
        if not (state.is_terminal() or state.is_chance_node()):
            found.append(state)
    return found


def test_the_perfect_bot_is_the_only_one_that_sees_everything() -> None:
    assert [n for n in BOTS if getattr(BOTS[n], "sees_everything", False)] == ["perfect"]
    assert {"random", "heuristic", "pimc", "ismcts"} <= set(VIEW_ONLY)


@pytest.mark.parametrize("name", VIEW_ONLY)
@pytest.mark.parametrize("preset", ["classic", "full-hand", "street"])
def test_bot_answers_from_a_detached_copy_of_the_view(name: str, preset: str) -> None:
    for i, state in enumerate(positions(preset, 3, seed=zlib.crc32(f"{name}/{preset}".encode()))):
        seat = state.current_player()
        view = state.view(seat)
        before = copy.deepcopy(view)
        detached = json.loads(json.dumps(view))
        a = make_bot(name, i, **SETTINGS.get(name, {})).choose(view)
        b = make_bot(name, i, **SETTINGS.get(name, {})).choose(detached)
        assert a == b and str(a) in view["legal_actions"]
        assert view == before  # the bot did not write into the view

