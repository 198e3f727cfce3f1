"""Scenario tests per rule of the rulebook section (``shared/rules/yugioh.md``)."""

from __future__ import annotations

import random

import pytest

from goat.games.yugioh import DeckList, new_state
from goat.games.yugioh.cards.data import DATABASE
from goat.games.yugioh.deck import builtin_deck, deck_problems
from goat.games.yugioh.rules import make_rules
from goat.games.yugioh.scenario import FILLER, names, play, resolve_chance, scenario
from goat.protocol import IllegalActionError


def log(s) -> list[str]:
    return [e.text for e in s.duel.log]


# ------------------------------------------------------------------ duel end
def test_drawing_from_an_empty_deck_loses() -> None:
    s = scenario(turn_player=1, phase="end", p0={"deck": []}, p1={})
    # Seat 1 ends its turn; seat 0 must draw from an empty deck.
    assert s.is_terminal()
    assert s.results[0]["winner"] == 1 and s.results[0]["reason"] == "deck-out"


def test_lp_zero_loses() -> None:
    s = scenario(phase="battle", p0={"monsters": ["Blue-Eyes White Dragon"]}, p1={"lp": 3000})
    play(s, ["0 attack Blue-Eyes White Dragon@0M1 -> direct"])
    assert s.is_terminal() and s.results[0]["winner"] == 0 and s.results[0]["reason"] == "lp"


def test_both_decking_out_by_one_effect_is_a_draw() -> None:
    # Morphing Jar makes both players draw five: each must draw from an empty deck at once.
    def flip_jar(p0_deck: int):
        s = scenario(phase="battle", p0={"monsters": ["Vorse Raider"], "deck": ["Sangan"] * p0_deck},
                     p1={"monsters": ["Morphing Jar:set"], "deck": ["Sangan"] * 2})
        return play(s, ["0 attack Vorse Raider@0M1 -> face-down@1M1"])

    both = flip_jar(3)
    assert both.is_terminal() and both.results[0]["winner"] is None and both.results[0]["reason"] == "deck-out"
    one = flip_jar(5)
    assert one.is_terminal() and one.results[0]["winner"] == 0 and one.results[0]["reason"] == "deck-out"


def test_both_at_zero_lp_is_a_draw() -> None:
    s = scenario(p0={"lp": 2500, "spells": ["Ring of Destruction"]},
                 p1={"lp": 2500, "monsters": ["Summoned Skull"]})
    play(s, ["0 activate Ring of Destruction@0S1"])
    assert s.is_terminal() and s.results[0]["winner"] is None and s.duel.players[0].lp == 0


def test_exodia_in_hand_wins() -> None:
    pieces = ["Exodia the Forbidden One", "Right Arm of the Forbidden One", "Left Arm of the Forbidden One",
              "Right Leg of the Forbidden One"]
    s = scenario(turn_player=1, phase="end", p0={"hand": pieces, "deck": ["Left Leg of the Forbidden One"]})
    assert s.is_terminal() and s.results[0] == {"winner": 0, "reason": "exodia", "first": s.duel.first,
                                                "turns": 4, "lp": [8000, 8000]}


# ---------------------------------------------------------------------- turn
def test_end_phase_discards_down_to_six() -> None:
    s = scenario(phase="main2", p0={"hand": ["Mystical Elf"] * 7 + ["Sangan"]})
    # Two cards to discard: Sangan, then a Mystical Elf (asked although every copy is the same:
    # whether a hand holds copies must not decide whether a player is asked).
    play(s, ["0 phase end", "0 choose Sangan", "0 choose Mystical Elf"])
    assert len(s.duel.players[0].hand) == 6
    assert names(s.duel.players[0].gy) == ["Sangan", "Mystical Elf"]


def test_a_trigger_of_the_end_phase_discard_resolves_in_that_end_phase() -> None:
    """Night Assailant discarded for hand size: its trigger resolves in this End
    Phase (it waited for the next turn's Standby Phase), and the Flip monster it
    returns makes 7 cards again: one more discard before the turn ends."""
    s = scenario(phase="main2", p0={"hand": ["Night Assailant"] + ["Mystical Elf"] * 6, "gy": ["Magician of Faith"]})
    play(s, ["0 phase end", "0 choose Night Assailant"])
    duel = s.duel
    assert duel.turn == 3 and duel.phase == "end"
    assert "Magician of Faith returns to 0's hand (from gy)" in log(s)
    assert s.pending().kind == "discard" and len(duel.players[0].hand) == 7
    play(s, ["0 choose Magician of Faith"])
    assert duel.turn == 4 and names(duel.players[0].gy) == ["Night Assailant", "Magician of Faith"]
    assert not any("Night Assailant's effect" in line for line in log(s)[log(s).index("turn 3 ends"):])


def test_turn_order_draw_standby_main() -> None:
    s = scenario(turn_player=1, phase="end", p0={"deck": ["Sangan", "Mystical Elf"]})
    duel = s.duel
    assert duel.turn == 4 and duel.turn_player == 0 and duel.phase == "main1"
    assert names(duel.players[0].hand) == ["Sangan"]


def test_the_phases_come_in_order_draw_standby_main1_battle_main2_end() -> None:
    # Each phase is seen where it acts: Sinister Serpent's Standby trigger after the draw, the
    # Battle Step after Main Phase 1, Main Phase 2 after it, the End Phase's discard last.
    s = scenario(turn_player=1, phase="end", p0={"gy": ["Sinister Serpent"], "hand": [FILLER] * 5,
                                                  "deck": ["Sangan", FILLER]})
    duel = s.duel
    seen = []
    for action in ("0 activate Sinister Serpent", "0 phase battle", "0 phase main2", "0 phase end"):
        seen.append((duel.turn, duel.phase, duel.step, len(duel.players[0].hand)))
        play(s, [action])
    seen.append((duel.turn, duel.phase, duel.step, len(duel.players[0].hand)))
    assert seen == [(4, "standby", None, 6), (4, "main1", None, 7), (4, "battle", "battle", 7),
                    (4, "main2", None, 7), (4, "end", None, 7)]
    play(s, [f"0 choose {FILLER}"])  # down to six in the End Phase, then the turn passes
    assert (duel.turn, duel.turn_player, len(duel.players[0].hand)) == (5, 1, 6)


# ------------------------------------------------------------------- summons
def test_one_normal_summon_or_set_per_turn() -> None:
    s = scenario(p0={"hand": ["Mystical Elf", "Vorse Raider"]})
    play(s, ["0 set Mystical Elf"])
    assert not any(a.startswith(("0 summon", "0 set Vorse")) for a in s.legal_texts())


@pytest.mark.parametrize("monster, tributes", [("Summoned Skull", 1), ("Blue-Eyes White Dragon", 2)])
def test_tribute_summons(monster: str, tributes: int) -> None:
    s = scenario(p0={"hand": [monster], "monsters": ["Mystical Elf", "Vorse Raider"]})
    play(s, [f"0 summon {monster}", "0 choose Mystical Elf@0M1"])  # a second tribute has no alternative
    assert monster in names(s.duel.players[0].monsters)
    assert len(s.duel.players[0].gy) == tributes


def test_a_tribute_summon_is_the_turns_normal_summon() -> None:
    s = scenario(p0={"hand": ["Summoned Skull", "Mystical Elf"], "monsters": ["Vorse Raider"]})
    play(s, ["0 summon Summoned Skull"])
    assert names(s.duel.players[0].monsters) == ["Summoned Skull"] and s.duel.normal_summon_used
    assert not any(a.startswith(("0 summon", "0 set Mystical Elf")) for a in s.legal_texts())


def test_tribute_needs_enough_monsters() -> None:
    s = scenario(p0={"hand": ["Blue-Eyes White Dragon"], "monsters": ["Mystical Elf"]})
    assert "0 summon Blue-Eyes White Dragon" not in s.legal_texts()


def test_set_monster_flip_summon_not_the_same_turn() -> None:
    s = scenario(p0={"hand": ["Mystical Elf"]})
    play(s, ["0 set Mystical Elf"])
    assert not any(a.startswith("0 flip") for a in s.legal_texts())
    s2 = scenario(p0={"monsters": ["Mystical Elf:set"]})
    play(s2, ["0 flip Mystical Elf@0M1"])
    elf = s2.duel.players[0].monsters[0]
    assert elf.face_up and elf.attack_pos


def test_position_change_once_per_turn_not_when_summoned() -> None:
    s = scenario(p0={"hand": ["Vorse Raider"], "monsters": ["Mystical Elf"]})
    play(s, ["0 summon Vorse Raider"])
    assert "0 position Vorse Raider@0M2" not in s.legal_texts()
    play(s, ["0 position Mystical Elf@0M1"])
    assert not s.duel.players[0].monsters[0].attack_pos
    assert "0 position Mystical Elf@0M1" not in s.legal_texts()


def test_no_position_change_the_turn_a_monster_is_special_or_flip_summoned() -> None:
    s = scenario(p0={"hand": ["Chaos Sorcerer"], "gy": ["Sangan", "Magician of Faith"]})
    play(s, ["0 special Chaos Sorcerer", "0 choose attack", "0 pass"])
    assert not any(a.startswith("0 position") for a in s.legal_texts())
    s = scenario(p0={"monsters": ["Mystical Elf:set"]})
    play(s, ["0 flip Mystical Elf@0M1"])
    assert not any(a.startswith("0 position") for a in s.legal_texts())


def test_at_most_five_monsters() -> None:
    s = scenario(p0={"hand": ["Mystical Elf"], "monsters": ["Vorse Raider"] * 5})
    assert not any(a.startswith(("0 summon", "0 set Mystical")) for a in s.legal_texts())


def test_light_and_dark_special_summon() -> None:
    s = scenario(p0={"hand": ["Chaos Sorcerer"], "gy": ["Sangan", "Magician of Faith"]})
    play(s, ["0 special Chaos Sorcerer", "0 choose attack"])
    p = s.duel.players[0]
    assert names(p.monsters) == ["Chaos Sorcerer"] and names(p.banished) == ["Magician of Faith", "Sangan"]
    assert not s.duel.normal_summon_used


def test_nomi_monster_cannot_be_normal_summoned() -> None:
    s = scenario(p0={"hand": ["Black Luster Soldier - Envoy of the Beginning"], "monsters": ["Sangan", "Sangan"]})
    assert not any("summon Black Luster" in a or "set Black Luster" in a for a in s.legal_texts())


# ------------------------------------------------------------ spells & traps
def test_trap_cannot_be_activated_the_turn_it_is_set() -> None:
    s = scenario(p0={"hand": ["Ring of Destruction"]}, p1={"monsters": ["Vorse Raider"]})
    play(s, ["0 set Ring of Destruction"])
    assert not any(a.startswith("0 activate") for a in s.legal_texts())


def test_normal_spell_goes_to_graveyard_equip_stays() -> None:
    s = scenario(p0={"hand": ["Pot of Greed", "Premature Burial"], "gy": ["Summoned Skull"]})
    play(s, ["0 activate Pot of Greed"])
    p = s.duel.players[0]
    assert names(p.gy) == ["Summoned Skull", "Pot of Greed"] and len(p.hand) == 3
    play(s, ["0 activate Premature Burial"])
    assert names(p.spells) == ["Premature Burial"] and names(p.monsters) == ["Summoned Skull"]
    assert p.lp == 7200


def test_speed_one_cannot_respond_and_chain_is_lifo() -> None:
    s = scenario(p0={"hand": ["Pot of Greed"], "spells": ["Mystical Space Typhoon", "Ring of Destruction"]},
                 p1={"spells": ["Dust Tornado", "Ring of Destruction"], "monsters": ["Vorse Raider"]})
    play(s, ["0 activate Mystical Space Typhoon@0S1", "0 choose face-down@1S1"])
    # Opponent chains Dust Tornado (speed 2) on the MST; Pot of Greed is never offered as a response.
    legal = s.legal_texts()
    assert "1 activate Dust Tornado@1S1" in legal
    play(s, ["1 activate Dust Tornado@1S1", "1 choose Mystical Space Typhoon@0S1"])
    assert "0 activate Ring of Destruction@0S2" in s.legal_texts()
    assert all("Pot of Greed" not in a for a in s.legal_texts())
    play(s, ["0 pass", "1 pass"])
    text = log(s)
    assert text.index("1 activates Dust Tornado as chain link 2") < text.index(
        "chain link 2 resolves: Dust Tornado") < text.index("chain link 1 resolves: Mystical Space Typhoon")


# -------------------------------------------------------------------- battle
def battle(p0_monster: str, p1_monster: str, rules: str = "official"):
    s = scenario(rules, phase="battle", p0={"monsters": [p0_monster]}, p1={"monsters": [p1_monster]})
    target = p1_monster.split(":")[0]
    label = "face-down@1M1" if p1_monster.endswith(":set") else f"{target}@1M1"
    play(s, [f"0 attack {p0_monster.split(':')[0]}@0M1 -> {label}"])
    return s


def test_atk_vs_atk_higher_wins() -> None:
    s = battle("Gene-Warped Warwolf", "Vorse Raider")
    assert names(s.duel.players[1].gy) == ["Vorse Raider"] and s.duel.players[1].lp == 7900


def test_atk_vs_atk_lower_loses() -> None:
    s = battle("Vorse Raider", "Gene-Warped Warwolf")
    assert names(s.duel.players[0].gy) == ["Vorse Raider"] and s.duel.players[0].lp == 7900


def test_atk_vs_atk_equal_both_destroyed() -> None:
    s = battle("Vorse Raider", "Vorse Raider")
    assert not s.duel.monsters() and s.duel.players[0].lp == s.duel.players[1].lp == 8000


def test_atk_vs_def() -> None:
    higher = battle("Gene-Warped Warwolf", "Vorse Raider:def")
    assert names(higher.duel.players[1].gy) == ["Vorse Raider"] and higher.duel.players[1].lp == 8000
    equal = battle("Gene-Warped Warwolf", "Mystical Elf:def")  # 2000 ATK vs 2000 DEF: nothing happens
    assert len(equal.duel.monsters()) == 2 and equal.duel.players[0].lp == equal.duel.players[1].lp == 8000
    lower = battle("Vorse Raider", "Mystical Elf:def")
    assert len(lower.duel.monsters()) == 2 and lower.duel.players[0].lp == 7900


def test_piercing_damage() -> None:
    s = battle("Airknight Parshath", "Sangan:def")
    assert s.duel.players[1].lp == 8000 - 1300


def test_face_down_defender_is_flipped_and_its_flip_effect_activates() -> None:
    s = scenario("official", phase="battle", p0={"monsters": ["Vorse Raider"]},
                 p1={"monsters": ["Magician of Faith:set"], "gy": ["Pot of Greed"]})
    play(s, ["0 attack Vorse Raider@0M1 -> face-down@1M1"])
    p1 = s.duel.players[1]
    assert names(p1.hand) == ["Pot of Greed"] and names(p1.gy) == ["Magician of Faith"]
    text = log(s)
    assert text.index("the attacked face-down monster is Magician of Faith (Defense Position)") < text.index(
        "1 activates Magician of Faith's effect as chain link 1")


def test_direct_attack_only_without_monsters() -> None:
    s = scenario(phase="battle", p0={"monsters": ["Vorse Raider"]}, p1={"monsters": ["Mystical Elf:set"]})
    assert not any(a.endswith("-> direct") for a in s.legal_texts())


def test_each_monster_attacks_once() -> None:
    s = scenario(phase="battle", p0={"monsters": ["Vorse Raider"]}, p1={})
    play(s, ["0 attack Vorse Raider@0M1 -> direct"])
    assert s.legal_texts() == ["0 phase main2"]


def test_first_player_has_no_battle_phase_on_turn_one() -> None:
    s = scenario(turn=1, p0={"monsters": ["Vorse Raider"]})
    assert "0 phase battle" not in s.legal_texts()


def test_destroyed_monsters_go_to_their_owners_graveyard() -> None:
    s = scenario(p0={"hand": ["Snatch Steal"], "spells": ["Ring of Destruction"]}, p1={"monsters": ["Vorse Raider"]})
    play(s, ["0 activate Snatch Steal", "0 pass"])
    assert names(s.duel.players[0].monsters) == ["Vorse Raider"]
    play(s, ["0 activate Ring of Destruction@0S1"])
    assert names(s.duel.players[1].gy) == ["Vorse Raider"]
    assert "Snatch Steal" in names(s.duel.players[0].gy)


def test_a_tributed_monster_goes_to_its_owners_graveyard() -> None:
    s = scenario(p0={"hand": ["Snatch Steal", "Summoned Skull"]}, p1={"monsters": ["Vorse Raider"]})
    play(s, ["0 activate Snatch Steal", "0 summon Summoned Skull"])  # the stolen Raider is the only tribute
    p0, p1 = s.duel.players
    assert names(p0.monsters) == ["Summoned Skull"]
    assert names(p1.gy) == ["Vorse Raider"] and names(p0.gy) == ["Snatch Steal"]


def test_only_attack_position_monsters_attack() -> None:
    s = scenario(phase="battle", p0={"monsters": ["Vorse Raider:def", "Gene-Warped Warwolf"]}, p1={})
    assert s.legal_texts() == ["0 attack Gene-Warped Warwolf@0M2 -> direct", "0 phase main2"]


def test_illegal_action_leaves_state_intact() -> None:
    s = scenario(p0={"hand": ["Mystical Elf"]})
    before = s.information_state_string(None)
    with pytest.raises(IllegalActionError) as info:
        s.apply_action("0 summon Blue-Eyes White Dragon")
    assert "\n" not in str(info.value)
    with pytest.raises(IllegalActionError):
        s.apply_action("1 summon Mystical Elf")
    assert s.information_state_string(None) == before


def test_a_monster_that_attacked_attacks_again_next_turn() -> None:
    """Once a *turn*: the attack counter of a monster that stays on the field is
    cleared when the turn ends — its next turn it may attack again, and change its
    position (which asks whether it attacked this turn) in the Main Phase before."""
    s = scenario(phase="battle", p0={"monsters": ["Vorse Raider"]}, p1={})
    play(s, ["0 attack Vorse Raider@0M1 -> direct", "0 phase main2", "0 phase end", "1 phase end"])
    assert s.duel.turn == 5 and s.duel.phase == "main1"
    assert "0 position Vorse Raider@0M1" in s.legal_texts()
    play(s, ["0 phase battle"])
    assert "0 attack Vorse Raider@0M1 -> direct" in s.legal_texts()


# ------------------------------------------------------- match, duel, decks
def test_the_first_duel_is_decided_by_a_coin_toss() -> None:
    """The match opens on a coin (a chance event, so a seed replays it); its
    winner chooses who goes first."""
    for coin in (0, 1):
        state = new_state("official")
        assert state.is_chance_node() and state.pending().kind == "coin"
        state.apply_chance(coin)
        assert state.pending().kind == "first" and state.current_player() == coin
        assert sorted(state.legal_texts()) == [f"{coin} choose first", f"{coin} choose second"]
    seeded = [new_state("official").sample_chance(random.Random(7)) for _ in range(2)]
    assert seeded[0] == seeded[1]


@pytest.mark.parametrize("rules", ["official", "goat"])
def test_a_duel_starts_at_8000_lp_with_five_cards_each(rules: str) -> None:
    state = new_state(rules, {"ask_responses": "when-able"}, single_duel=True)
    resolve_chance(state)
    state.apply_action("0 choose second")  # seat 1 goes first: seat 0's hand is untouched
    resolve_chance(state)
    duel = state.duel
    assert [p.lp for p in duel.players] == [8000, 8000]
    assert len(duel.players[0].hand) == 5


def test_fusion_deck_cards_do_not_count_toward_the_40() -> None:
    deck = builtin_deck()
    assert deck_problems(deck, make_rules("official")) == []          # 40 main + 1 fusion
    short = DeckList(deck.main[1:], deck.fusion + deck.fusion, deck.side)
    assert [p.kind for p in deck_problems(short, make_rules("official"))] == ["mainTooSmall"]


def test_at_most_three_copies_across_main_side_and_fusion() -> None:
    deck = builtin_deck()
    elf = "Gene-Warped Warwolf"
    assert elf not in deck.main + deck.side
    ok = DeckList(deck.main[:-2] + (elf, elf), deck.fusion, deck.side[:-1] + (elf,))
    assert deck_problems(ok, make_rules("official", {"banlist": "none"})) == []
    over = DeckList(deck.main[:-2] + (elf, elf), deck.fusion, deck.side[:-2] + (elf, elf))
    assert [p.kind for p in deck_problems(over, make_rules("official", {"banlist": "none"}))] == ["tooManyCopies"]
    fusions = DeckList(deck.main, deck.fusion * 4, deck.side)
    assert [p.kind for p in deck_problems(fusions, make_rules("official", {"banlist": "none"}))] == ["tooManyCopies"]


def test_at_most_five_spell_and_trap_zones() -> None:
    full = scenario(p0={"hand": ["Ring of Destruction", "Pot of Greed"], "spells": ["Dust Tornado"] * 5})
    assert not any("Ring of Destruction" in a or "Pot of Greed" in a for a in full.legal_texts())
    four = scenario(p0={"hand": ["Ring of Destruction", "Pot of Greed"], "spells": ["Dust Tornado"] * 4})
    assert {"0 set Ring of Destruction", "0 activate Pot of Greed"} <= set(four.legal_texts())


def test_graveyard_and_banished_cards_are_public() -> None:
    s = scenario(p0={"gy": ["Sangan"], "banished": ["Magician of Faith"], "hand": ["Mystical Elf"]})
    for seat in (0, 1, None):
        mine = s.view(seat)["players"][0]
        assert mine["gy"] == ["Sangan"] and mine["banished"] == ["Magician of Faith"]
    assert s.view(1)["players"][0]["hand"] is None


# ------------------------------------------------------------------ summons
def test_flip_summons_have_no_per_turn_limit() -> None:
    s = scenario(p0={"monsters": ["Mystical Elf:set", "Vorse Raider:set"]})
    play(s, ["0 flip Mystical Elf@0M1", "0 flip Vorse Raider@0M2"])
    flipped = [c for c in s.duel.players[0].monsters if c is not None]
    assert len(flipped) == 2 and all(c.face_up and c.attack_pos for c in flipped)


def test_special_summons_have_no_per_turn_limit() -> None:
    s = scenario(p0={"hand": ["Chaos Sorcerer", "Chaos Sorcerer"],
                     "gy": ["Sangan", "Sangan", "Magician of Faith", "Magician of Faith"]})
    # The first cost picks one of two copies; the second takes the last ones without asking.
    play(s, ["0 special Chaos Sorcerer", "0 choose Magician of Faith", "0 choose Sangan", "0 choose attack",
             "0 pass"])  # no ignition effect now
    assert "0 special Chaos Sorcerer" in s.legal_texts()
    play(s, ["0 special Chaos Sorcerer", "0 choose attack"])
    assert names(s.duel.players[0].monsters) == ["Chaos Sorcerer", "Chaos Sorcerer"]


def test_position_change_not_after_the_monster_attacked() -> None:
    s = scenario(phase="battle", p0={"monsters": ["Vorse Raider", "Mystical Elf"]}, p1={})
    play(s, ["0 attack Vorse Raider@0M1 -> direct", "0 phase main2"])
    assert s.duel.phase == "main2"
    legal = s.legal_texts()
    assert "0 position Vorse Raider@0M1" not in legal and "0 position Mystical Elf@0M2" in legal


# ----------------------------------------------------------- spells & traps
def test_a_set_quick_play_spell_cannot_be_activated_the_turn_it_is_set() -> None:
    s = scenario(p0={"hand": ["Book of Moon"], "spells": ["Book of Moon"]}, p1={"monsters": ["Vorse Raider"]})
    assert "0 activate Book of Moon@0S1" in s.legal_texts()   # Set on an earlier turn
    play(s, ["0 set Book of Moon"])
    legal = s.legal_texts()
    assert "0 activate Book of Moon@0S2" not in legal and "0 activate Book of Moon@0S1" in legal


def test_a_continuous_trap_stays_on_the_field_after_resolving() -> None:
    s = scenario(p0={"spells": ["Call of the Haunted"], "gy": ["Summoned Skull"]})
    play(s, ["0 activate Call of the Haunted@0S1"])
    p = s.duel.players[0]
    assert names(p.monsters) == ["Summoned Skull"]
    assert names(p.spells) == ["Call of the Haunted"] and p.spells[0].face_up and not p.gy


def test_a_response_needs_equal_or_higher_speed_and_a_counter_trap_answers_any() -> None:
    """Spell speed: on a speed-2 link only speed 2 or 3 may chain, never speed 1;
    on a speed-3 link (a Counter Trap: Magic Jammer) only another Counter Trap."""
    s = scenario(p0={"spells": ["Mystical Space Typhoon", "Book of Moon", "Sakuretsu Armor",
                                "Seven Tools of the Bandit"], "monsters": ["Vorse Raider"]},
                 p1={"spells": ["Dust Tornado", "Ring of Destruction", "Magic Jammer"], "hand": ["Sangan"]})
    play(s, ["0 activate Mystical Space Typhoon@0S1", "0 choose face-down@1S2"])
    duel = s.duel
    assert [link.speed for link in duel.chain] == [2]
    trap, jammer = duel.players[1].spells[0], duel.players[1].spells[2]
    assert duel.card_timing_ok(1, trap, trap.data, False)                       # speed 2 on speed 2
    assert duel.card_timing_ok(1, jammer, jammer.data, False)                   # speed 3 on speed 2
    assert duel.card_timing_ok(1, trap, DATABASE["Book of Moon"], False)        # a Set Quick-Play: speed 2
    assert not duel.card_timing_ok(1, trap, DATABASE["Pot of Greed"], False)    # speed 1 never responds
    assert set(s.legal_texts()) == {"1 pass", "1 activate Dust Tornado@1S1", "1 activate Ring of Destruction@1S2",
                                    "1 activate Magic Jammer@1S3"}
    play(s, ["1 activate Magic Jammer@1S3"])                                    # chain link 2: speed 3
    assert [link.speed for link in duel.chain] == [2, 3]
    assert s.legal_texts() == ["0 pass", "0 activate Seven Tools of the Bandit@0S4"]  # not Book of Moon, Sakuretsu


# ------------------------------------------------------------------ control
def test_an_equip_card_stays_in_its_controllers_zone() -> None:
    s = scenario(p0={"hand": ["Snatch Steal"]}, p1={"monsters": ["Vorse Raider"]})
    play(s, ["0 activate Snatch Steal"])
    p0, p1 = s.duel.players
    raider = p0.monsters[0]
    assert raider.name == "Vorse Raider" and raider.owner == 1 and raider.controller == 0
    assert names(p0.spells) == ["Snatch Steal"] and p0.spells[0].equipped_to is raider and not names(p1.spells)
