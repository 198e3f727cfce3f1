"""The Chaos and Warrior decks' extra cards, one scenario (or more) each."""

from __future__ import annotations

import pytest

from goat.games.yugioh.scenario import ScenarioState, names, play, scenario


def test_exiled_force_tributes_itself_to_destroy_a_monster() -> None:
    s = scenario("goat", p0={"monsters": ["Exiled Force"]}, p1={"monsters": ["Blue-Eyes White Dragon", "Mystical Elf"]})
    play(s, ["0 activate Exiled Force@0M1", "0 choose Blue-Eyes White Dragon@1M1"])
    duel = s.duel
    assert names(duel.players[0].gy) == ["Exiled Force"] and names(duel.players[1].monsters) == ["Mystical Elf"]
    assert "Blue-Eyes White Dragon" in names(duel.players[1].gy)


def test_blade_knight_gains_400_with_one_card_or_none_in_hand() -> None:
    s = scenario("goat", p0={"monsters": ["Blade Knight"], "hand": ["Mystical Elf", "Vorse Raider"]})
    knight = s.duel.players[0].monsters[0]
    assert s.duel.atk(knight) == 1600
    s.duel.players[0].hand.pop()
    assert s.duel.atk(knight) == 2000


def test_jinzo_stops_trap_activation() -> None:
    s = scenario("goat", p0={"hand": ["Jinzo"], "monsters": ["Sangan"]},
                 p1={"spells": ["Torrential Tribute", "Mystical Space Typhoon"]})
    play(s, ["0 summon Jinzo"])  # Sangan is the tribute (the only one)
    # p1 may still answer the summon with a Quick-Play Spell, but not with the Trap
    assert s.pending().seat == 1
    assert not any("Torrential Tribute" in a for a in s.legal_texts())


def test_spirit_reaper_survives_battle_and_makes_a_random_discard() -> None:
    s = scenario("goat", p0={"monsters": ["Spirit Reaper"]}, p1={"monsters": ["Vorse Raider"], "hand": ["Sangan"]})
    play(s, ["0 phase battle", "0 attack Spirit Reaper@0M1 -> Vorse Raider@1M1"])
    duel = s.duel
    assert names(duel.players[0].monsters) == ["Spirit Reaper"] and duel.players[0].lp == 8000 - 1600
    s = scenario("goat", p0={"monsters": ["Spirit Reaper"]}, p1={"hand": ["Sangan"]})
    play(s, ["0 phase battle", "0 attack Spirit Reaper@0M1 -> direct"])
    assert s.duel.players[1].lp == 8000 - 300 and names(s.duel.players[1].gy) == ["Sangan"]


def test_spirit_reaper_is_destroyed_when_targeted() -> None:
    s = scenario("goat", p0={"hand": ["Book of Moon"]}, p1={"monsters": ["Spirit Reaper"]})
    play(s, ["0 activate Book of Moon"])  # the only face-up monster: the target without asking
    assert names(s.duel.players[1].gy) == ["Spirit Reaper"]


def test_dd_warrior_lady_does_not_target_spirit_reaper() -> None:
    # "Remove that monster" is no target: Spirit Reaper is removed from play with D.D. Warrior Lady.
    s = scenario("goat", phase="battle", p0={"monsters": ["D.D. Warrior Lady"]}, p1={"monsters": ["Spirit Reaper"]})
    play(s, ["0 attack D.D. Warrior Lady@0M1 -> Spirit Reaper@1M1", "0 activate D.D. Warrior Lady@0M1"])
    duel = s.duel
    assert names(duel.players[1].banished) == ["Spirit Reaper"] and not duel.players[1].gy
    assert names(duel.players[0].banished) == ["D.D. Warrior Lady"]


def test_jinzo_negates_call_of_the_haunted_link() -> None:
    # Jinzo revived by Call of the Haunted negates Call's effect: Call destroyed, Jinzo stays.
    s = scenario("goat", p0={"spells": ["Call of the Haunted"], "gy": ["Jinzo"]},
                 p1={"hand": ["Mystical Space Typhoon"]}, turn_player=1)
    play(s, ["1 phase end", "0 activate Call of the Haunted@0S1", "1 pass", "1 activate Mystical Space Typhoon"])
    duel = s.duel
    assert names(duel.players[0].monsters) == ["Jinzo"] and names(duel.players[0].gy) == ["Call of the Haunted"]
    # Without Jinzo face up the link holds: the revived monster goes with its Call.
    s = scenario("goat", p0={"spells": ["Call of the Haunted"], "gy": ["Summoned Skull"]},
                 p1={"hand": ["Mystical Space Typhoon"]}, turn_player=1)
    play(s, ["1 phase end", "0 activate Call of the Haunted@0S1", "1 pass", "1 activate Mystical Space Typhoon"])
    assert not s.duel.monsters() and names(s.duel.players[0].gy) == ["Call of the Haunted", "Summoned Skull"]


def _mirror_force_answered_by_call(revived: str) -> ScenarioState:
    """0 attacks directly; 1 activates Mirror Force; 0 chains Call of the Haunted on ``revived``."""
    s = scenario("goat", phase="battle", p0={"monsters": ["Vorse Raider"], "spells": ["Call of the Haunted"],
                                             "gy": [revived]}, p1={"spells": ["Mirror Force"]})
    return play(s, ["0 pass", "0 attack Vorse Raider@0M1 -> direct", "0 pass", "1 activate Mirror Force@1S1",
                    "0 activate Call of the Haunted@0S1"])


def test_jinzo_face_up_mid_chain_negates_a_trap_linked_before_it() -> None:
    # Jinzo negates Trap effects while face up: Mirror Force (link 1) resolves after Call of the
    # Haunted (link 2) brought Jinzo face up, and does nothing; the attack goes on.
    duel = _mirror_force_answered_by_call("Jinzo").duel
    assert names(duel.players[0].monsters) == ["Vorse Raider", "Jinzo"] and not duel.players[0].gy
    assert names(duel.players[1].gy) == ["Mirror Force"] and duel.players[1].lp == 8000 - 1900
    assert "Mirror Force: negated by Jinzo" in [e.text for e in duel.log]      # the log says why
    # The same chain reviving another monster: Mirror Force destroys both attackers.
    duel = _mirror_force_answered_by_call("Summoned Skull").duel
    assert not duel.monsters(0) and duel.players[1].lp == 8000
    assert sorted(names(duel.players[0].gy)) == ["Call of the Haunted", "Summoned Skull", "Vorse Raider"]


def test_jinzo_does_not_negate_a_trap_destroyed_earlier_in_the_chain() -> None:
    # Jinzo negates "the effects of all face-up Trap Cards". Mirror Force (link 1), Call of the
    # Haunted on Jinzo (link 2), Mystical Space Typhoon on Mirror Force (link 3): when Mirror
    # Force resolves it is in the Graveyard, not a face-up card on the field, so its effect
    # resolves (as destroying an activated Normal Trap never stops it) and takes Jinzo too.
    s = scenario("goat", phase="battle", p0={"monsters": ["Vorse Raider"], "spells": ["Call of the Haunted"],
                                             "hand": ["Mystical Space Typhoon"], "gy": ["Jinzo"]},
                 p1={"spells": ["Mirror Force"]})
    play(s, ["0 pass", "0 attack Vorse Raider@0M1 -> direct", "0 pass", "1 activate Mirror Force@1S1",
             "0 activate Call of the Haunted@0S1", "0 activate Mystical Space Typhoon", "0 choose Mirror Force@1S1"])
    duel = s.duel
    assert not duel.monsters(0) and duel.players[1].lp == 8000
    assert sorted(names(duel.players[0].gy)) == ["Call of the Haunted", "Jinzo", "Mystical Space Typhoon",
                                                 "Vorse Raider"]
    assert "Mirror Force: negated by Jinzo" not in [e.text for e in duel.log]


def test_jinzo_face_up_mid_chain_negates_a_call_of_the_haunted_linked_before_it() -> None:
    # Only the effect is negated: the first Call stays face up on the field and revives nothing.
    s = scenario("goat", p0={"spells": ["Call of the Haunted"] * 2, "gy": ["Summoned Skull", "Jinzo"]})
    play(s, ["0 activate Call of the Haunted@0S1", "0 choose Summoned Skull",
             "0 activate Call of the Haunted@0S2", "0 choose Jinzo"])
    duel = s.duel
    assert names(duel.players[0].monsters) == ["Jinzo"] and names(duel.players[0].gy) == ["Summoned Skull"]
    assert [(c.name, c.face_up) for c in duel.players[0].field_spells()] == [("Call of the Haunted", True)] * 2
    assert [e.text for e in duel.log].count("Call of the Haunted: negated by Jinzo") == 1


def test_night_assailant_flip_destroys_and_discard_returns_a_flip_monster() -> None:
    s = scenario("goat", p0={"monsters": ["Night Assailant:set"]}, p1={"monsters": ["Blue-Eyes White Dragon"]})
    play(s, ["0 flip Night Assailant@0M1", "0 choose Blue-Eyes White Dragon@1M1"])
    assert names(s.duel.players[1].gy) == ["Blue-Eyes White Dragon"]
    s = scenario("goat", p0={"hand": ["Graceful Charity", "Night Assailant", "Vorse Raider", "Mystical Elf"],
                             "deck": ["Sangan"] * 5, "gy": ["Magician of Faith"]})
    play(s, ["0 activate Graceful Charity", "0 choose Night Assailant", "0 choose Vorse Raider"])
    assert "Magician of Faith" in names(s.duel.players[0].hand)


def test_night_assailant_tributed_from_the_hand_is_not_discarded() -> None:
    # "When discarded": a Ritual tribute from the hand is sent to the Graveyard, not discarded.
    s = scenario("goat", p0={"hand": ["Black Luster Ritual", "Black Luster Soldier", "Night Assailant",
                                      "Summoned Skull"], "gy": ["Magician of Faith"]})
    play(s, ["0 activate Black Luster Ritual", "0 choose Summoned Skull", "0 choose attack"])  # Assailant: the rest
    duel = s.duel
    assert names(duel.players[0].monsters) == ["Black Luster Soldier"]
    assert "Night Assailant" in names(duel.players[0].gy) and "Magician of Faith" in names(duel.players[0].gy)
    assert not duel.players[0].hand


def test_dekoichi_flip_draws() -> None:
    s = scenario("goat", p0={"monsters": ["Dekoichi the Battlechanted Locomotive:set"], "deck": ["Sangan"]})
    play(s, ["0 flip Dekoichi the Battlechanted Locomotive@0M1"])
    assert names(s.duel.players[0].hand) == ["Sangan"]


def test_mobius_destroys_up_to_two_spells_and_traps_when_tribute_summoned() -> None:
    s = scenario("goat", p0={"hand": ["Mobius the Frost Monarch"], "monsters": ["Vorse Raider"]},
                 p1={"spells": ["Mirror Force", "Call of the Haunted", "Sakuretsu Armor"]})
    play(s, ["0 summon Mobius the Frost Monarch", "0 activate Mobius the Frost Monarch@0M1",
             "0 choose face-down@1S1", "0 choose face-down@1S3"])
    assert sorted(names(s.duel.players[1].gy)) == ["Mirror Force", "Sakuretsu Armor"]


def test_zaborg_destroys_a_monster_when_tribute_summoned() -> None:
    s = scenario("goat", p0={"hand": ["Zaborg the Thunder Monarch"], "monsters": ["Vorse Raider"]},
                 p1={"monsters": ["Blue-Eyes White Dragon", "Mystical Elf"]})
    play(s, ["0 summon Zaborg the Thunder Monarch", "0 choose Blue-Eyes White Dragon@1M1"])
    assert names(s.duel.players[1].monsters) == ["Mystical Elf"]


def test_reinforcement_of_the_army_searches_a_low_level_warrior() -> None:
    s = scenario("goat", p0={"hand": ["Reinforcement of the Army"],
                             "deck": ["Exiled Force", "Blade Knight", "Gaia The Fierce Knight", "Sangan"]})
    play(s, ["0 activate Reinforcement of the Army"])
    assert sorted(a.split(" ", 2)[2] for a in s.legal_texts()) == ["Blade Knight", "Exiled Force"]
    play(s, ["0 choose Blade Knight"])
    assert names(s.duel.players[0].hand) == ["Blade Knight"]
    s = scenario("official", p0={"hand": ["Reinforcement of the Army"], "deck": ["Sangan"]})
    assert "0 activate Reinforcement of the Army" not in s.legal_texts()  # rule 8 off: nothing to find


def test_mystic_swordsman_lv2_destroys_a_face_down_defender_unflipped() -> None:
    s = scenario("goat", p0={"monsters": ["Mystic Swordsman LV2"], "hand": ["Sangan"]},
                 p1={"monsters": ["Morphing Jar:set"], "hand": ["Mirror Force"]})
    play(s, ["0 phase battle", "0 attack Mystic Swordsman LV2@0M1 -> face-down@1M1"])
    duel = s.duel
    assert names(duel.players[1].gy) == ["Morphing Jar"]
    assert names(duel.players[0].hand) == ["Sangan"] and names(duel.players[1].hand) == ["Mirror Force"]  # no Flip
    assert duel.players[0].lp == 8000 and duel.players[1].lp == 8000
    s = scenario("goat", p0={"monsters": ["Mystic Swordsman LV2"]}, p1={"monsters": ["Mystical Elf:def"]})
    play(s, ["0 phase battle", "0 attack Mystic Swordsman LV2@0M1 -> Mystical Elf@1M1"])
    assert names(s.duel.players[1].monsters) == ["Mystical Elf"] and s.duel.players[0].lp == 8000 - 1100


@pytest.mark.parametrize("rules", ["goat", "official"])
def test_mystic_swordsman_lv2_destroys_in_the_first_damage_step_substep(rules: str) -> None:
    """Goat rule 9A lists Mystic Swordsman LV2 among the effects of sub-step 1 (start of
    the Damage Step), before the target would be flipped: the destroyed Sangan's search
    comes in that sub-step, and no window of it is offered first (officially ATK
    modifiers could be activated there: Rush Recklessly was offered before the
    destruction, on a battle that never happens)."""
    s = scenario(rules, phase="battle", p0={"monsters": ["Mystic Swordsman LV2"], "hand": ["Rush Recklessly"]},
                 p1={"monsters": ["Sangan:set"], "deck": ["Mystical Elf"]})
    play(s, ["0 pass", "0 attack Mystic Swordsman LV2@0M1 -> face-down@1M1", "0 pass"])
    duel = s.duel
    # The first decision of the Damage Step: Sangan is already gone, in sub-step 1.
    assert (duel.step, duel.substep) == ("damage", "start") and names(duel.players[1].gy) == ["Sangan"]
    assert s.pending().kind == ("search" if rules == "goat" else "respond")  # officially Rush may answer Sangan


def test_blade_knight_alone_negates_the_flip_effect_of_a_monster_it_destroys_by_battle() -> None:
    """Its second clause: the only monster its controller controls, Blade Knight
    negates the Flip effect of a Flip monster it destroys by battle (Magician of
    Faith returns no Spell); with another monster beside it, the Flip effect works."""
    def attack(p0_monsters: list[str]) -> ScenarioState:
        s = scenario("goat", phase="battle", p0={"monsters": p0_monsters},
                     p1={"monsters": ["Magician of Faith:set"], "gy": ["Pot of Greed"]})
        play(s, ["0 attack Blade Knight@0M1 -> face-down@1M1"])
        return s

    s = attack(["Blade Knight"])
    duel = s.duel
    assert names(duel.players[1].gy) == ["Pot of Greed", "Magician of Faith"] and not duel.players[1].hand
    assert any("negated by Blade Knight" in e.text for e in duel.log)
    s = attack(["Blade Knight", "Mystical Elf"])
    assert names(s.duel.players[1].hand) == ["Pot of Greed"]


def test_the_shipped_list_holds_every_chaos_and_warrior_card_the_pool_allows() -> None:
    """The source Chaos and Warrior decks' cards beyond Goat Control, less the two the
    April 2005 list forbids (Chaos Emperor Dragon, Fiber Jar): each is in the shipped
    list (Last Turn was left out, Skull Lair in its place, until it was implemented)."""
    from goat.games.yugioh import builtin_deck, check_deck, make_rules

    deck = builtin_deck("chaos_warrior")
    check_deck(deck, make_rules("goat"))
    source = {"Exiled Force", "Blade Knight", "Jinzo", "Spirit Reaper", "Night Assailant",
              "Dekoichi the Battlechanted Locomotive", "Mobius the Frost Monarch", "Zaborg the Thunder Monarch",
              "Reinforcement of the Army", "Mystic Swordsman LV2", "Last Turn"}
    assert source <= set(deck.main), source - set(deck.main)
    assert len(deck.main) == 40


# ------------------------------------------------------------------ Mystic Swordsman LV2's level-up, LV4
# The era's text (SOD-EN011): "During the End Phase of a turn that this card destroyed a monster as a
# result of battle, send this card to the Graveyard to Special Summon 1 Mystic Swordsman LV4 from your hand
# or Deck." Its own face-down destruction is by its effect, not by battle (so no level-up from it).
LV2, LV4 = "Mystic Swordsman LV2", "Mystic Swordsman LV4"


def _battle_then_end(p0: dict, p1: dict, attack: str, rules: str = "goat") -> ScenarioState:
    s = scenario(rules, phase="battle", p0=p0, p1=p1)
    play(s, [f"0 attack {LV2}@0M1 -> {attack}", "0 phase main2", "0 phase end"])
    return s


def _lines(s: ScenarioState) -> list[str]:
    return [str(e.line) for e in s.duel.log]


def test_mystic_swordsman_lv2_levels_up_in_the_end_phase_after_destroying_a_monster_by_battle() -> None:
    s = _battle_then_end({"monsters": [LV2], "deck": ["Sangan", LV4, "Mystical Elf"]},
                         {"monsters": ["Right Arm of the Forbidden One"]}, "Right Arm of the Forbidden One@1M1")
    assert s.pending().kind == "trigger" and s.legal_texts() == ["0 pass", f"0 activate {LV2}@0M1"]  # optional
    play(s, [f"0 activate {LV2}@0M1"])
    assert names(s.duel.players[0].gy) == [LV2]          # the cost, paid on activation
    play(s, [f"0 choose {LV4}", "0 choose defense"])     # a Deck search: asked by name; any position
    p0 = s.duel.players[0]
    lv4 = p0.monsters[0]
    assert lv4.name == LV4 and lv4.face_up and not lv4.attack_pos and names(p0.deck) == ["Sangan", "Mystical Elf"]
    lines = _lines(s)
    assert lines.index("0 shuffles their deck") > lines.index("0 Special Summons Mystic Swordsman LV4 in Defense Position")
    assert s.duel.turn == 4                              # the turn ended as usual


def test_mystic_swordsman_lv2_level_up_may_be_declined() -> None:
    s = _battle_then_end({"monsters": [LV2], "deck": [LV4, "Sangan"]},
                         {"monsters": ["Right Arm of the Forbidden One"]}, "Right Arm of the Forbidden One@1M1")
    play(s, ["0 pass"])
    assert names(s.duel.players[0].monsters) == [LV2] and s.duel.turn == 4


def test_mystic_swordsman_lv2_face_down_destruction_is_not_by_battle_no_level_up() -> None:
    s = _battle_then_end({"monsters": [LV2], "deck": [LV4, "Sangan"]}, {"monsters": ["Mystical Elf:set"]},
                         "face-down@1M1")
    assert names(s.duel.players[1].gy) == ["Mystical Elf"]
    assert s.duel.turn == 4 and names(s.duel.players[0].monsters) == [LV2]  # never offered


def test_mystic_swordsman_lv2_without_a_battle_destruction_no_level_up() -> None:
    s = scenario("goat", p0={"monsters": [LV2], "deck": [LV4, "Sangan"]})
    play(s, ["0 phase end"])
    assert s.duel.turn == 4 and names(s.duel.players[0].monsters) == [LV2]


def test_mystic_swordsman_lv2_destroying_its_attacker_levels_up_in_the_opponents_end_phase() -> None:
    """"A turn that this card destroyed a monster as a result of battle": any turn, as the
    attacked monster too (an 800-ATK attacker against its 900 ATK)."""
    s = scenario("goat", turn_player=1, phase="battle", p0={"monsters": [LV2], "deck": [LV4, "Sangan"]},
                 p1={"monsters": ["Right Arm of the Forbidden One"]})
    play(s, [f"1 attack Right Arm of the Forbidden One@1M1 -> {LV2}@0M1", "1 phase main2", "1 phase end"])
    assert s.pending().seat == 0 and f"0 activate {LV2}@0M1" in s.legal_texts()
    play(s, [f"0 activate {LV2}@0M1", f"0 choose {LV4}", "0 choose attack"])
    assert names(s.duel.players[0].monsters) == [LV4]


def test_mystic_swordsman_lv2_turned_face_down_loses_its_level_up() -> None:
    """TCG ruling on LV monsters: flipped face-down after meeting the condition, it is reset
    (turned face-down after the battle, as by Book of Moon: no trigger in the End Phase)."""
    s = scenario("goat", phase="battle", p0={"monsters": [LV2], "deck": [LV4, "Sangan"]},
                 p1={"monsters": ["Right Arm of the Forbidden One"]})
    play(s, [f"0 attack {LV2}@0M1 -> Right Arm of the Forbidden One@1M1", "0 phase main2"])
    lv2 = s.duel.players[0].monsters[0]
    assert lv2.destroyed_by_battle_turn == s.duel.turn
    s.duel.flip_down(lv2)   # as Book of Moon's resolution does
    play(s, ["0 phase end"])
    assert s.pending().kind != "trigger"
    assert not any("activate Mystic" in a for a in s.legal_texts())


def test_mystic_swordsman_lv2_takes_lv4_from_the_hand_when_the_deck_has_none() -> None:
    s = _battle_then_end({"monsters": [LV2], "hand": [LV4, "Sangan"], "deck": ["Mystical Elf", "Sangan"]},
                         {"monsters": ["Right Arm of the Forbidden One"]}, "Right Arm of the Forbidden One@1M1")
    play(s, [f"0 activate {LV2}@0M1", "0 choose attack"])   # the one hand copy: taken without asking
    p0 = s.duel.players[0]
    assert names(p0.monsters) == [LV4] and names(p0.hand) == ["Sangan"]
    assert "see nofind 0 lv4" in s.history[1]            # the Deck was searched and shown to hold none
    assert "0 shuffles their deck" in _lines(s)


@pytest.mark.parametrize("rules, offered", [("goat", True), ("official", False)])
def test_mystic_swordsman_lv2_level_up_with_lv4_in_neither_hand_nor_deck(rules: str, offered: bool) -> None:
    """Goat rule 8: a Deck search may be activated with nothing to find (the Deck is still
    shuffled); officially not. Activated, LV2 is gone for nothing."""
    s = _battle_then_end({"monsters": [LV2], "deck": ["Sangan", "Mystical Elf"]},
                         {"monsters": ["Right Arm of the Forbidden One"]}, "Right Arm of the Forbidden One@1M1",
                         rules)
    assert (f"0 activate {LV2}@0M1" in s.legal_texts()) == offered
    if offered:
        play(s, [f"0 activate {LV2}@0M1"])
        p0 = s.duel.players[0]
        assert names(p0.gy) == [LV2] and not names(p0.monsters)
        assert "0 finds no Mystic Swordsman LV4 in the Deck or hand" in _lines(s)
        assert "0 shuffles their deck" in _lines(s) and "see nofind 0 lv4 hand" in s.history[1]


def test_mystic_swordsman_lv4_summoned_by_the_level_up_gets_no_negation_window() -> None:
    """A Special Summon by a resolving effect is not answered by Solemn Judgment (Counter Traps)."""
    s = _battle_then_end({"monsters": [LV2], "deck": [LV4, "Sangan"]},
                         {"monsters": ["Right Arm of the Forbidden One"], "spells": ["Solemn Judgment"]},
                         "Right Arm of the Forbidden One@1M1")
    play(s, [f"0 activate {LV2}@0M1"])
    assert "1 activate Solemn Judgment@1S1" not in s.legal_texts()  # an optional trigger's activation: no Spell/Trap
    while s.pending().kind != "search":
        play(s, [f"{s.pending().seat} pass"])
    play(s, [f"0 choose {LV4}", "0 choose attack"])
    assert names(s.duel.players[0].monsters) == [LV4]
    assert not any("Solemn" in a for a in s.legal_texts())


def test_mystic_swordsman_lv4_is_normal_summoned_only_face_down() -> None:
    s = scenario("goat", p0={"hand": [LV4]})
    assert f"0 set {LV4}" in s.legal_texts() and f"0 summon {LV4}" not in s.legal_texts()


def test_mystic_swordsman_lv4_destroys_a_face_down_defender_unflipped() -> None:
    s = scenario("goat", phase="battle", p0={"monsters": [LV4]}, p1={"monsters": ["Morphing Jar:set"]})
    play(s, [f"0 attack {LV4}@0M1 -> face-down@1M1"])
    assert names(s.duel.players[1].gy) == ["Morphing Jar"] and s.duel.players[1].hand == []  # no Flip
    assert "Mystic Swordsman LV4 destroys the face-down monster without flipping it" in _lines(s)


def test_mystic_swordsman_lv4_may_be_revived_summoned_by_its_lv2_or_not() -> None:
    """LV4 has no Summoning condition (only its Normal Summon must be a Set): revived from the
    Graveyard by Premature Burial however it got there."""
    s = scenario("goat", p0={"hand": ["Premature Burial"], "gy": [LV4]})   # never summoned: discarded, say
    play(s, ["0 activate Premature Burial"])                               # its only target, taken at once
    assert names(s.duel.players[0].monsters) == [LV4]
    s = _battle_then_end({"monsters": [LV2], "deck": [LV4, "Sangan"], "hand": ["Premature Burial"]},
                         {"monsters": ["Right Arm of the Forbidden One"], "hand": ["Exiled Force"]},
                         "Right Arm of the Forbidden One@1M1")
    play(s, [f"0 activate {LV2}@0M1", f"0 choose {LV4}", "0 choose attack"])
    lv4 = s.duel.players[0].monsters[0]
    assert lv4.name == LV4 and lv4.proper


# ------------------------------------------------------------------ Mystic Swordsman LV4's level-up, LV6
# The era's texts: LV4 (SOD-EN012) "During the End Phase of a turn that this card destroys a monster as a
# result of battle, send this card to the Graveyard to Special Summon 1 Mystic Swordsman LV6 from hand or
# Deck"; LV6 (RDS-EN008) Set when Normal Summoned, the same face-down destruction, and "You can return the
# monster destroyed with this effect to the top of your opponent's Deck instead of sending it to the
# Graveyard". One level-up mechanism serves LV2 and LV4 (SwordsmanLevelUp).
LV6 = "Mystic Swordsman LV6"
ARM = "Right Arm of the Forbidden One"


def _lv4_battle_then_end(p0: dict, p1: dict, attack: str, rules: str = "goat") -> ScenarioState:
    s = scenario(rules, phase="battle", p0=p0, p1=p1)
    play(s, [f"0 attack {LV4}@0M1 -> {attack}", "0 phase main2", "0 phase end"])
    return s


def test_mystic_swordsman_lv4_levels_up_in_the_end_phase_after_destroying_a_monster_by_battle() -> None:
    s = _lv4_battle_then_end({"monsters": [LV4], "deck": ["Sangan", LV6, "Mystical Elf"]},
                             {"monsters": [ARM]}, f"{ARM}@1M1")
    assert s.pending().kind == "trigger" and s.legal_texts() == ["0 pass", f"0 activate {LV4}@0M1"]  # optional
    play(s, [f"0 activate {LV4}@0M1"])
    assert names(s.duel.players[0].gy) == [LV4]          # the cost, paid on activation
    play(s, [f"0 choose {LV6}", "0 choose attack"])
    p0 = s.duel.players[0]
    lv6 = p0.monsters[0]
    assert lv6.name == LV6 and lv6.face_up and lv6.attack_pos and lv6.proper
    assert names(p0.deck) == ["Sangan", "Mystical Elf"]
    lines = _lines(s)
    assert lines.index("0 shuffles their deck") > lines.index("0 Special Summons Mystic Swordsman LV6 in Attack Position")
    assert s.duel.turn == 4


def test_mystic_swordsman_lv4_levels_up_only_in_the_end_phase_of_a_turn_it_destroyed_by_battle() -> None:
    # no battle destruction this turn: no level-up in the End Phase
    s = scenario("goat", p0={"monsters": [LV4], "deck": [LV6, "Sangan"]})
    play(s, ["0 phase end"])
    assert s.duel.turn == 4 and names(s.duel.players[0].monsters) == [LV4]
    # a battle destruction: nothing before the End Phase (Main Phase 2 offers no activation)
    s = scenario("goat", phase="battle", p0={"monsters": [LV4], "deck": [LV6, "Sangan"]}, p1={"monsters": [ARM]})
    play(s, [f"0 attack {LV4}@0M1 -> {ARM}@1M1", "0 phase main2"])
    assert not any(f"activate {LV4}" in a for a in s.legal_texts())
    play(s, ["0 phase end"])
    assert f"0 activate {LV4}@0M1" in s.legal_texts()
    # declined: the turn ends as usual
    play(s, ["0 pass"])
    assert s.duel.turn == 4
    lv4 = s.duel.players[0].monsters[0]
    assert lv4.name == LV4 and lv4.destroyed_by_battle_turn == 3


def test_mystic_swordsman_lv4_face_down_destruction_is_not_by_battle_no_level_up() -> None:
    s = _lv4_battle_then_end({"monsters": [LV4], "deck": [LV6, "Sangan"]}, {"monsters": ["Mystical Elf:set"]},
                             "face-down@1M1")
    assert names(s.duel.players[1].gy) == ["Mystical Elf"]
    assert s.duel.turn == 4 and names(s.duel.players[0].monsters) == [LV4]  # never offered


def test_mystic_swordsman_lv4_takes_lv6_from_the_deck_first() -> None:
    """With LV6 in both the hand and the Deck, the Deck's is summoned: the hand keeps its copy."""
    s = _lv4_battle_then_end({"monsters": [LV4], "hand": [LV6], "deck": [LV6, "Sangan"]},
                             {"monsters": [ARM]}, f"{ARM}@1M1")
    play(s, [f"0 activate {LV4}@0M1", f"0 choose {LV6}", "0 choose defense"])
    p0 = s.duel.players[0]
    assert names(p0.monsters) == [LV6] and names(p0.hand) == [LV6] and names(p0.deck) == ["Sangan"]
    assert not any(e.startswith("see nofind 0") for e in s.history[1])


def test_mystic_swordsman_lv4_takes_lv6_from_the_hand_when_the_deck_has_none() -> None:
    s = _lv4_battle_then_end({"monsters": [LV4], "hand": [LV6, "Sangan"], "deck": ["Mystical Elf", "Sangan"]},
                             {"monsters": [ARM]}, f"{ARM}@1M1")
    play(s, [f"0 activate {LV4}@0M1", "0 choose attack"])   # the one hand copy: taken without asking
    p0 = s.duel.players[0]
    assert names(p0.monsters) == [LV6] and names(p0.hand) == ["Sangan"]
    assert "see nofind 0 lv6" in s.history[1]            # the Deck was searched and shown to hold none


@pytest.mark.parametrize("rules, offered", [("goat", True), ("official", False)])
def test_mystic_swordsman_lv4_level_up_with_lv6_in_neither_hand_nor_deck(rules: str, offered: bool) -> None:
    s = _lv4_battle_then_end({"monsters": [LV4], "deck": ["Sangan", "Mystical Elf"]},
                             {"monsters": [ARM]}, f"{ARM}@1M1", rules)
    assert (f"0 activate {LV4}@0M1" in s.legal_texts()) == offered
    if offered:
        play(s, [f"0 activate {LV4}@0M1"])
        p0 = s.duel.players[0]
        assert names(p0.gy) == [LV4] and not names(p0.monsters)
        assert "0 finds no Mystic Swordsman LV6 in the Deck or hand" in _lines(s)
        assert "see nofind 0 lv6 hand" in s.history[1]


def test_mystic_swordsman_lv6_is_normal_summoned_only_face_down_with_a_tribute() -> None:
    s = scenario("goat", p0={"hand": [LV6], "monsters": ["Sangan"]})
    assert f"0 set {LV6}" in s.legal_texts() and f"0 summon {LV6}" not in s.legal_texts()
    s = scenario("goat", p0={"hand": [LV6]})
    assert not any(LV6 in a for a in s.legal_texts())     # Level 6: one Tribute needed


def test_mystic_swordsman_lv6_destroys_a_face_down_defender_unflipped_to_the_graveyard_if_declined() -> None:
    s = scenario("goat", phase="battle", p0={"monsters": [LV6]}, p1={"monsters": ["Morphing Jar:set"]})
    play(s, [f"0 attack {LV6}@0M1 -> face-down@1M1"])
    assert s.pending().seat == 0 and s.legal_texts() == ["0 choose deck", "0 choose graveyard"]
    play(s, ["0 choose graveyard"])
    assert names(s.duel.players[1].gy) == ["Morphing Jar"] and s.duel.players[1].hand == []  # no Flip
    assert "Mystic Swordsman LV6 destroys the face-down monster without flipping it" in _lines(s)
    assert s.duel.players[0].monsters[0].destroyed_by_battle_turn != s.duel.turn    # by its effect, not battle


def test_mystic_swordsman_lv6_puts_the_destroyed_monster_on_top_of_the_opponents_deck_unseen() -> None:
    s = scenario("goat", phase="battle", p0={"monsters": [LV6]},
                 p1={"monsters": ["Morphing Jar:set"], "deck": ["Sangan", "Mystical Elf"]})
    play(s, [f"0 attack {LV6}@0M1 -> face-down@1M1", "0 choose deck"])
    p1 = s.duel.players[1]
    assert names(p1.deck) == ["Morphing Jar", "Sangan", "Mystical Elf"] and not p1.gy and not p1.hand
    assert not any(c for c in p1.monsters) and s.duel.players[0].lp == 8000 == p1.lp
    views = {seat: " ".join(str(e["text"]) for e in s.duel.log_view(seat)) for seat in (0, 1, None)}
    assert "Morphing Jar" not in views[0] and "Morphing Jar" not in views[None]   # the attacker never sees it
    assert "Morphing Jar goes on top of 1's Deck" in views[1]                    # its owner is told
    assert "the destroyed face-down monster goes on top of 1's Deck" in views[0]
    assert not any("Morphing Jar" in e for e in s.history[0] + s.history[2])
    play(s, ["0 phase main2", "0 phase end"])    # the opponent draws it next
    assert names(s.duel.players[1].hand) == ["Morphing Jar"]


def test_mystic_swordsman_lv6_returns_only_a_monster_its_opponent_owns() -> None:
    """"Your opponent's Deck": a face-down monster of its own player's, controlled by the
    opponent, goes to the Graveyard without a choice."""
    s = scenario("goat", p0={"monsters": [LV6, "Mystical Elf:set"]})
    elf = s.duel.players[0].monsters[1]
    assert s.duel.change_control(elf, 1)    # as Change of Heart's resolution does, before the Battle Phase
    play(s, ["0 phase battle", f"0 attack {LV6}@0M1 -> face-down@1M1"])
    assert names(s.duel.players[0].gy) == ["Mystical Elf"] and s.pending().kind != "select"


def test_mystic_swordsman_lv6_returns_a_face_down_fusion_monster_to_the_fusion_deck() -> None:
    """A card that would go to the Deck goes to the Fusion Deck if it is a Fusion monster
    (turned face-down by Book of Moon: a known card, so shown on the way)."""
    s = scenario("goat", p0={"monsters": [LV6]}, p1={"monsters": ["Gaia the Dragon Champion"]})
    s.duel.flip_down(s.duel.players[1].monsters[0])    # as Book of Moon's resolution does
    play(s, ["0 phase battle", f"0 attack {LV6}@0M1 -> face-down@1M1", "0 choose deck"])
    p1 = s.duel.players[1]
    assert names(p1.fusion) == ["Gaia the Dragon Champion"] and not p1.gy and "Gaia" not in " ".join(names(p1.deck))
    assert "Gaia the Dragon Champion goes back to 1's Fusion Deck instead of the Graveyard" in _lines(s)
