"""Scenario tests per rule of the rulebook section (``shared/rules/yugioh.md``)."""

from __future__ import annotations

import pytest

from goat.games.yugioh.scenario import names, play, scenario
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


def test_turn_order_draw_standby_main() -> None:
    s = scenario(turn_player=1, phase="end", p0={"deck": ["Sangan", "Mystical Elf"]})
    duel = s.duel
    assert duel.turn == 4 and duel.turn_player == 0 and duel.phase == "main1"
    assert names(duel.players[0].hand) == ["Sangan"]


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
