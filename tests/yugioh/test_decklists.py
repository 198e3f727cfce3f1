"""Deck lists are private unless the option ``open_decklists`` says otherwise;
``sample_world`` then assumes a list for the other seat (a mirror by default)."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from goat.games.yugioh import DeckList, YugiohState, builtin_deck, make_rules, sample_world

CONTROL = builtin_deck("goat_control")
# Another legal list: the Goat Control main deck with six cards of its side in.
_OUT = ["Sakuretsu Armor", "Dust Tornado", "Book of Moon", "Scapegoat", "Sangan", "Magician of Faith"]
_IN = ["Mystical Elf", "Mystical Elf", "Giant Soldier of Stone", "Giant Soldier of Stone",
       "Rush Recklessly", "Rush Recklessly"]


def _other_deck() -> DeckList:
    main = list(CONTROL.main)
    side = list(CONTROL.side)
    for out, into in zip(_OUT, _IN):
        main.remove(out)
        side.remove(into)
        main.append(into)
        side.append(out)
    return DeckList(tuple(main), CONTROL.fusion, tuple(side))


def _play(state: YugiohState, seed: int, steps: int, each: Any = None) -> YugiohState:
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_chance(state.sample_chance(rng))
        else:
            actions = state.legal_texts()
            state.apply_action(actions[rng.randrange(len(actions))])
        if each is not None:
            each(state)
    return state


def test_by_default_no_view_holds_the_other_list() -> None:
    other = _other_deck()
    other_json = json.dumps(other.to_json(), sort_keys=True)
    state = YugiohState(make_rules("goat"), (CONTROL, other), single_duel=False, seed=3)
    seen = []

    def check(s: YugiohState) -> None:
        for seat in (0, 1):
            lists = s.view(seat)["decklists"]
            assert lists[1 - seat] is None and lists[seat] == s.start_decks[seat].to_json()
        assert s.view(None)["decklists"] == [None, None]
        assert other_json not in json.dumps(s.view(0), sort_keys=True)
        seen.append(1)

    _play(state, 3, 1500, check)
    assert len(seen) > 100


def test_open_decklists_shows_both() -> None:
    other = _other_deck()
    state = YugiohState(make_rules("goat", {"open_decklists": True}), (CONTROL, other), seed=4)
    _play(state, 4, 200)
    for seat in (0, 1, None):
        assert state.view(seat)["decklists"] == [CONTROL.to_json(), other.to_json()]
    world = sample_world(json.loads(json.dumps(state.view(0))), random.Random(1))
    assert world.start_decks[1] == other  # the open list is used as it is


def _sampled(state: YugiohState, seat: int, seed: int, **kw: Any) -> YugiohState:
    view = json.loads(json.dumps(state.view(seat)))
    world = sample_world(view, random.Random(seed), **kw)
    assert json.dumps(world.view(seat), sort_keys=True) == json.dumps(view, sort_keys=True)
    return world


def test_closed_lists_sample_with_a_mirror_made_consistent() -> None:
    """The other seat plays a different list: the mirror assumption gets every
    card it has shown (in place of unseen ones), at the sizes the view shows."""
    other = _other_deck()
    for seed in (5, 6, 7, 8):
        state = _play(YugiohState(make_rules("goat"), (CONTROL, other), single_duel=True, seed=seed), seed, 600)
        world = _sampled(state, 0, seed)
        assumed = world.start_decks[1]
        assert len(assumed.main) == len(other.main) and assumed.fusion == other.fusion
        shown = Counter(state.view(0)["players"][1]["gy"])
        assert not shown - Counter(assumed.main + assumed.fusion + ("Sheep Token",) * 4)


def test_an_explicit_assumed_list_and_seat_one() -> None:
    other = _other_deck()
    state = _play(YugiohState(make_rules("official"), (other, CONTROL), single_duel=True, seed=9), 9, 500)
    world = _sampled(state, 1, 2, opponent_deck=other)
    assert Counter(world.start_decks[0].main) == Counter(other.main)  # nothing shown that it lacks
    _sampled(state, 0, 3)  # seat 0 assumes a mirror of its own (different) list
