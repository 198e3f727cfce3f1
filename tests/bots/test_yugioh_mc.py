"""The Yu-Gi-Oh! ``mc`` bot: legal, seeded, budgeted, and it looks ahead where greedy does not.

Search runs in real match positions (a scenario board has no history a world
sampler could replay), kept early in a duel and with few worlds so the file stays fast.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from goat.bots import BotError, bots_for, make_bot
from goat.games.yugioh import DeckList, YugiohState, make_rules, world_sampler
from goat.games.yugioh.worlds import sample_world
from yugioh_positions import yugioh_positions


def attack_position(opponent: tuple[str, ...]) -> dict[str, Any]:
    """Seat 0's first Battle Phase: its Vorse Raider (1900) may attack the Giant
    Soldier of Stone (1300) that seat 1 summoned on turn 1, when seat 1 also Set
    the first Spell/Trap of ``opponent`` (its deck, that card on top). Deck lists
    are open, so every world knows what seat 1's Set card is."""
    rules = make_rules("goat", {"open_decklists": True})
    decks = [DeckList(("Vorse Raider",) * 20), DeckList(opponent)]
    state = YugiohState(rules, decks, single_duel=True, check_legal=False)
    state.apply_chance(1)  # seat 1 chooses, and goes first
    greedy = make_bot("greedy", 0, game="yugioh")
    while True:
        if state.is_chance_node():  # shuffles keep the lists' order
            state.apply_chance(list(state.pending().cards))
            continue
        seat = state.current_player()
        if seat == 0 and any(" attack " in text for text in state.legal_texts()):
            return state.view(0)
        state.apply_action(greedy.choose(state.view(seat)))


SOLDIERS = ("Giant Soldier of Stone",) * 19


def test_mc_holds_back_from_a_known_mirror_force_that_greedy_attacks_into() -> None:
    view = attack_position(("Mirror Force",) + SOLDIERS)
    attack = "0 attack Vorse Raider@0M1 -> Giant Soldier of Stone@1M1"
    assert attack in view["legal_actions"] and any(s and s["name"] == "?" for s in view["players"][1]["spells"])
    assert str(make_bot("greedy", 1, game="yugioh").choose(view)) == attack
    for seed in range(3):
        assert str(make_bot("mc", seed, game="yugioh", worlds=2).choose(view)) == "0 phase main2"


def test_mc_attacks_when_nothing_is_set() -> None:
    view = attack_position(SOLDIERS + ("Giant Soldier of Stone",))
    assert not any(view["players"][1]["spells"])
    for seed in range(3):
        assert str(make_bot("mc", seed, game="yugioh", worlds=2).choose(view)).startswith("0 attack ")


def test_mc_chooses_a_legal_action_and_is_seeded() -> None:
    for i, state in enumerate(yugioh_positions(4, seed=3, steps=(20, 160))):
        view = state.view(state.current_player())
        a = make_bot("mc", i, game="yugioh", worlds=2, top=3)
        b = make_bot("mc", i, game="yugioh", worlds=2, top=3)
        choice = a.choose(view)
        assert str(choice) in view["legal_actions"]
        assert choice == b.choose(json.loads(json.dumps(view)))
        assert a.last_worlds in (0, 1, 2)


def test_time_limit_stops_adding_worlds_but_plays_one() -> None:
    view = attack_position(("Mirror Force",) + SOLDIERS)
    bot = make_bot("mc", 1, game="yugioh", worlds=50, time_limit=1e-9)
    bot.choose(view)
    assert bot.last_worlds == 1
    full = make_bot("mc", 1, game="yugioh", worlds=3)
    full.choose(view)
    assert full.last_worlds == 3


def test_an_unreadable_view_falls_back_to_greedy() -> None:
    view = attack_position(("Mirror Force",) + SOLDIERS)
    broken = dict(view, decklists=[None, None])   # no own list: no world can be drawn
    bot = make_bot("mc", 1, game="yugioh", worlds=2)
    assert str(bot.choose(broken)) in view["legal_actions"] and bot.last_worlds == 0


@pytest.mark.parametrize("settings, message", [
    ({"worlds": 0}, "worlds must be a whole number >= 1"),
    ({"top": "4"}, "top must be a whole number >= 1"),
    ({"horizon": True}, "horizon must be a whole number >= 1"),
    ({"time_limit": -1}, "time_limit must be a positive number"),
    ({"depth": 3}, "does not take the settings depth"),
])
def test_bad_settings_are_one_line_bot_errors(settings: dict[str, Any], message: str) -> None:
    with pytest.raises(BotError, match=message) as error:
        make_bot("mc", 1, game="yugioh", **settings)
    assert "\n" not in str(error.value)


def test_mc_is_a_yugioh_bot_named_by_its_settings() -> None:
    assert "mc" in bots_for("yugioh") and "mc" not in bots_for("kozel")
    assert make_bot("mc", 1, game="yugioh").name == "mc"
    assert make_bot("mc", 1, game="yugioh", worlds=3, time_limit=0.8).name == "mc:worlds=3:time_limit=0.8"


def test_a_reused_sampler_draws_what_sample_world_draws() -> None:
    state = yugioh_positions(1, seed=8, steps=(20, 160))[0]
    seat = state.current_player()
    view = json.loads(json.dumps(state.view(seat)))
    target = json.dumps(view, sort_keys=True)
    sampler = world_sampler(view)
    one, two = random.Random(5), random.Random(5)
    for _ in range(3):
        world = sampler.sample(one)
        alone = sample_world(view, two)
        assert json.dumps(world.view(seat), sort_keys=True) == target
        assert (world.chances, world.actions) == (alone.chances, alone.actions)
    assert one.random() == two.random()   # the same use of the generator
