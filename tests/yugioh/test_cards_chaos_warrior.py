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
