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

from goat.bots import BOTS, SpadesPIMCBot, bot_factory, bots_for, make_bot
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



def spades_positions(count: int, seed: int):
    """Decision points of random Spades deals: bids, and cards from the first lead on."""
    from goat.games.spades import new_state as new_spades

    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = new_spades("standard", single_deal=True, first_dealer=rng.randrange(4))
        state.apply_chance(state.sample_chance(rng))
        for _ in range(rng.randrange(0, 30)):
            if state.is_terminal():
                break
            actions = state.legal_actions()
            numbers = [a for a in actions if a.verb != "bid" or a.bid.isdigit()]   # no nil: DDS decides
            state.apply_action(rng.choice(numbers))
        if not state.is_terminal():
            found.append(state)
    return found


SPADES_VIEW_ONLY = sorted(name for name in bots_for("spades")
                          if not getattr(bot_factory(name, "spades"), "sees_everything", False))


def test_every_spades_bot_is_checked_here() -> None:
    assert {"random", "heuristic", "ismcts"} <= set(SPADES_VIEW_ONLY)
    assert "pimc" in SPADES_VIEW_ONLY or not SpadesPIMCBot.available()


@pytest.mark.parametrize("name", SPADES_VIEW_ONLY)
def test_spades_bot_answers_from_a_detached_copy_of_the_view(name: str) -> None:
    settings = {"pimc": {"worlds": 3}, "ismcts": {"iterations": 30}}.get(name, {})
    for i, state in enumerate(spades_positions(4, seed=zlib.crc32(f"{name}/spades".encode()))):
        seat = state.current_player()
        view = state.view(seat)
        before = copy.deepcopy(view)
        detached = json.loads(json.dumps(view))
        a = make_bot(name, i, game="spades", **settings).choose(view)
        b = make_bot(name, i, game="spades", **settings).choose(detached)
        assert a == b and str(a) in view["legal_actions"]
        assert view == before


def yugioh_positions(count: int, seed: int):
    """Decision points with a choice, from random play of Goat Control mirror duels."""
    from goat.games.yugioh import new_state as new_duel

    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = new_duel("goat", seed=rng.randrange(1000), single_duel=True)
        for _ in range(rng.randrange(10, 150)):
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.apply_chance(state.sample_chance(rng))
            else:
                actions = state.legal_texts()
                state.apply_action(actions[rng.randrange(len(actions))])
        if not (state.is_terminal() or state.is_chance_node()) and len(state.legal_texts()) > 1:
            found.append(state)
    return found


YUGIOH_VIEW_ONLY = sorted(bots_for("yugioh"))


def test_every_yugioh_bot_is_checked_here() -> None:
    assert {"random", "greedy", "mc"} <= set(YUGIOH_VIEW_ONLY)


@pytest.mark.parametrize("name", YUGIOH_VIEW_ONLY)
def test_yugioh_bot_answers_from_a_detached_copy_of_the_view(name: str) -> None:
    settings = {"mc": {"worlds": 2, "top": 2}}.get(name, {})
    for i, state in enumerate(yugioh_positions(3, seed=zlib.crc32(f"{name}/yugioh".encode()))):
        seat = state.current_player()
        view = state.view(seat)
        before = copy.deepcopy(view)
        detached = json.loads(json.dumps(view))
        a = make_bot(name, i, game="yugioh", **settings).choose(view)
        b = make_bot(name, i, game="yugioh", **settings).choose(detached)
        assert a == b and str(a) in view["legal_actions"]
        assert view == before
