"""Seeded random-bot fuzzing of matches with the cards beyond Goat Control:
the shipped Chaos Warrior list against a list built to exercise Field Spells,
Fusion, Ritual and Union monsters (same invariants as ``test_fuzz``)."""

from __future__ import annotations

import json
import random

import pytest

from goat.games.yugioh import DeckList, YugiohState, builtin_deck, check_deck, make_rules, record_from_state
from goat.protocol import play_out, play_random_steps
from goat.records import check_result, replay

from .invariants import check_invariants

MECHANICS = DeckList(
    tuple(["Yami", "Sogen", "Mystic Plasma Zone", "Polymerization", "Polymerization", "Gaia The Fierce Knight",
           "Curse of Dragon", "Curse of Dragon", "Black Luster Ritual", "Black Luster Ritual",
           "Black Luster Soldier", "X-Head Cannon", "X-Head Cannon", "Y-Dragon Head", "Y-Dragon Head",
           "Z-Metal Tank", "Z-Metal Tank", "Skull Lair", "Skull Lair", "Jinzo", "Exiled Force",
           "Spirit Reaper", "Night Assailant", "Dekoichi the Battlechanted Locomotive", "Sangan",
           "Magician of Faith", "Graceful Charity", "Mystical Space Typhoon", "Heavy Storm", "Book of Moon",
           "Scapegoat", "Call of the Haunted", "Premature Burial", "Mirror Force", "Sakuretsu Armor",
           "Blade Knight", "Vorse Raider", "Mystical Elf", "Summoned Skull", "Giant Soldier of Stone"]),
    ("Gaia the Dragon Champion", "Gaia the Dragon Champion", "Thousand-Eyes Restrict"))


@pytest.mark.parametrize("seed, rules", [(s, "goat") for s in range(8)] + [(s, "official") for s in range(4)])
def test_random_pool_match_ends_and_replays(seed: int, rules: str) -> None:
    decks = (builtin_deck("chaos_warrior"), MECHANICS)
    rule_set = make_rules(rules)
    for deck in decks:
        check_deck(deck, rule_set)
    state = YugiohState(rule_set, decks, single_duel=False, seed=seed)
    rng = random.Random(seed)
    steps = 0

    def choose(s):
        nonlocal steps
        steps += 1
        if steps % 3 == 0:
            check_invariants(s)
        actions = s.legal_actions()
        return actions[rng.randrange(len(actions))]

    play_out(state, choose, rng, max_steps=50_000)
    check_invariants(state)
    assert state.is_terminal()
    record = json.loads(json.dumps(record_from_state(state)))
    outcome = replay(record)
    check_result(record, outcome)
    assert outcome.state.information_state_string(1) == state.information_state_string(1)


@pytest.mark.parametrize("seed, open_lists", [(0, True), (1, True), (2, False), (3, False)])
def test_sample_world_with_the_wider_pool(seed: int, open_lists: bool) -> None:
    """The world's view equals the seat's (Field Spell Sets, Fusion and Ritual
    Summons, Unions included): with open lists, and with closed ones given the
    other seat's list as the assumption."""
    from goat.games.yugioh import sample_world

    decks = (builtin_deck("chaos_warrior"), MECHANICS)
    state = YugiohState(make_rules("goat", {"open_decklists": open_lists}), decks, single_duel=True, seed=seed)
    play_random_steps(state, random.Random(seed), 400)
    for seat in (0, 1):
        view = json.loads(json.dumps(state.view(seat)))
        world = sample_world(view, random.Random(seed), opponent_deck=None if open_lists else decks[1 - seat])
        assert json.dumps(world.view(seat), sort_keys=True) == json.dumps(view, sort_keys=True)


def test_sample_world_after_a_hidden_field_spell_set() -> None:
    from goat.games.yugioh import sample_world

    state = YugiohState(make_rules("goat"), (builtin_deck("chaos_warrior"), MECHANICS), single_duel=True, seed=1)
    rng = random.Random(1)
    while "act 1 set ?field" not in state.history_of(0):  # seed 1: within the first 20 steps
        assert len(state.actions) < 200
        if state.is_chance_node():
            state.apply_chance(state.sample_chance(rng))
        else:
            actions = state.legal_texts()
            state.apply_action(actions[rng.randrange(len(actions))])
    view = json.loads(json.dumps(state.view(0)))
    for k in range(3):
        world = sample_world(view, random.Random(k), opponent_deck=MECHANICS)
        assert json.dumps(world.view(0), sort_keys=True) == json.dumps(view, sort_keys=True)
        hidden = world.duel.players[1].field_spell()
        assert hidden is not None and hidden.data.subtype == "field" and not hidden.face_up


def _swordsmen() -> DeckList:
    """The Chaos Warrior list with the Mystic Swordsman line: two LV4 for the Spirit
    Reapers, two LV6 for the Night Assailants (LV4's level-up, LV6's return to the Deck)."""
    base = builtin_deck("chaos_warrior")
    main = list(base.main)
    for old, new in (("Spirit Reaper", "Mystic Swordsman LV4"), ("Night Assailant", "Mystic Swordsman LV6")):
        main = [new if name == old else name for name in main]
    return DeckList(tuple(main), base.fusion)


#: Seeds whose 600 steps play LV6 (3: it puts a monster back on the Deck, 5: to the Graveyard),
#: and seeds 2, 7 and 8, where seat 1 activates Black Luster Ritual (from the hand, or Set):
#: its Soldier and tributes are shown in the hand only as it resolves (``_Renamer.hand_now``).
@pytest.mark.parametrize("seed", [0, 2, 3, 5, 7, 8, 9])
def test_random_match_with_the_mystic_swordsman_line_ends_replays_and_samples(seed: int) -> None:
    from goat.games.yugioh import sample_world

    decks = (_swordsmen(), MECHANICS)
    rule_set = make_rules("goat", {"open_decklists": True})
    check_deck(decks[0], rule_set)
    state = YugiohState(rule_set, decks, single_duel=True, seed=seed)
    rng = random.Random(seed)
    play_random_steps(state, rng, 600)
    check_invariants(state)
    for seat in (0, 1):
        view = json.loads(json.dumps(state.view(seat)))
        world = sample_world(view, random.Random(seed))
        assert json.dumps(world.view(seat), sort_keys=True) == json.dumps(view, sort_keys=True)
    play_out(state, lambda s: s.legal_actions()[rng.randrange(len(s.legal_actions()))], rng, max_steps=50_000)
    assert state.is_terminal()
    record = json.loads(json.dumps(record_from_state(state)))
    outcome = replay(record)
    check_result(record, outcome)
