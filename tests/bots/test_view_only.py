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
import sys
import zlib
from pathlib import Path

import pytest

from goat.bots import BOTS, SpadesPIMCBot, bot_factory, bots_for, make_bot
from goat.games import sample_world
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
    """The bot's answer from a view equals its answer from a JSON copy of it handed
    over where another deal the view allows is the state at hand (it reads nothing
    but the view: not hidden cards through object references, not the real state
    through its caller's frames), is legal, and leaves the view as it was."""
    for i, state in enumerate(states):
        view = state.view(state.current_player())
        before = copy.deepcopy(view)
        detached = json.loads(json.dumps(view))
        a = make_bot(name, i, game=game, **settings).choose(view)
        b = choose_in_another_world(make_bot(name, i, game=game, **settings), detached,
                                    sample_world(view, random.Random(i)))
        assert a == b and str(a) in view["legal_actions"]
        assert view == before  # the bot did not write into the view


def choose_in_another_world(bot, view: dict, state) -> object:
    """``bot.choose(view)`` called where ``state`` — another deal consistent with
    ``view`` — is the state at hand, as the real one is where a driver calls it."""
    return bot.choose(view)



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


class PeekingBot:
    """An outside bot that cheats: it finds the state its driver holds (a local
    named ``state`` up the call stack, as in ``next_bot_action``) and lets the
    other seats' cards decide its move."""

    name = "peeking"

    def __init__(self, seed=None) -> None:
        pass

    def choose(self, view: dict):
        from goat.protocol import Action

        frame = sys._getframe(1)
        while not hasattr(frame.f_locals.get("state"), "view"):
            frame = frame.f_back
        state = frame.f_locals["state"]
        hidden = json.dumps([state.view(seat).get("hand") for seat in range(state.num_players)])
        legal = view["legal_actions"]
        return Action.parse(legal[zlib.crc32(hidden.encode()) % len(legal)])

    def out_of_turn(self, view: dict):
        return None


def test_an_outside_bot_that_peeks_at_the_state_is_refused_by_the_view_only_check(bot_registry: None) -> None:
    """Outside bots are held to the same contract: the check that passes every bot of
    the project fails a registered bot that reads the real state (the check once
    called both answers where the real state was at hand, so this bot passed it)."""
    from goat.bots import register_bot

    register_bot("peeking", PeekingBot, games=["kozel"])
    with pytest.raises(AssertionError):
        answers_from_the_view_alone("kozel", "peeking", {}, positions("classic", 4, seed=5))


def test_an_outside_bot_that_reads_only_its_view_passes_the_view_only_check(bot_registry: None) -> None:
    from goat.bots import load_bot_module

    load_bot_module(str(Path(__file__).resolve().parents[2] / "docs" / "examples" / "lowest.py"))
    for preset in ("classic", "full-hand", "street"):
        answers_from_the_view_alone("kozel", "lowest", {"random_ties": True}, positions(preset, 3, seed=6))
