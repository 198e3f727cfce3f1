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
from yugioh_positions import yugioh_positions

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
    answers_from_the_view_alone("kozel", name, SETTINGS.get(name, {}),
                                positions(preset, 3, seed=zlib.crc32(f"{name}/{preset}".encode())))


def answers_from_the_view_alone(game: str, name: str, settings: dict, states: list) -> None:
    """The bot's answer from a view equals its answer from a JSON copy of it (it reads
    nothing but the view), is legal, and leaves the view as it was."""
    for i, state in enumerate(states):
        view = state.view(state.current_player())
        before = copy.deepcopy(view)
        detached = json.loads(json.dumps(view))
        a = make_bot(name, i, game=game, **settings).choose(view)
        b = make_bot(name, i, game=game, **settings).choose(detached)
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
    answers_from_the_view_alone("spades", name, settings, spades_positions(4, seed=zlib.crc32(f"{name}/spades".encode())))


YUGIOH_VIEW_ONLY = sorted(bots_for("yugioh"))


def test_every_yugioh_bot_is_checked_here() -> None:
    assert {"random", "greedy", "mc"} <= set(YUGIOH_VIEW_ONLY)


@pytest.mark.parametrize("name", YUGIOH_VIEW_ONLY)
def test_yugioh_bot_answers_from_a_detached_copy_of_the_view(name: str) -> None:
    settings = {"mc": {"worlds": 2, "top": 2}}.get(name, {})
    answers_from_the_view_alone("yugioh", name, settings, yugioh_positions(3, seed=zlib.crc32(f"{name}/yugioh".encode())))
