"""Scenario tests for every card of the Goat Control pool."""

from __future__ import annotations

from goat.games.yugioh.cards import CARDS, effects_for
from goat.games.yugioh.scenario import names, play, scenario


def log(s) -> list[str]:
    return [e.text for e in s.duel.log]


GOAT_CONTROL = ["Black Luster Soldier - Envoy of the Beginning", "Chaos Sorcerer", "Airknight Parshath", "Tsukuyomi",
                "Asura Priest", "Breaker the Magical Warrior", "Tribe-Infecting Virus", "D.D. Warrior Lady", "Sangan",
                "Magician of Faith", "Magical Merchant", "Sinister Serpent", "Morphing Jar", "Thousand-Eyes Restrict",
                "Sheep Token", "Pot of Greed", "Graceful Charity", "Delinquent Duo", "Heavy Storm",
                "Mystical Space Typhoon", "Snatch Steal", "Premature Burial", "Scapegoat", "Metamorphosis",
                "Book of Moon", "Nobleman of Crossout", "Mirror Force", "Torrential Tribute", "Ring of Destruction",
                "Call of the Haunted", "Sakuretsu Armor", "Dust Tornado"]


def test_every_goat_control_card_is_in_the_database_with_effects() -> None:
    known = {c.name: c for c in CARDS}
    for name in GOAT_CONTROL:
        assert name in known, name
        if name not in ("Sheep Token", "Asura Priest", "Airknight Parshath") and known[name].kind != "monster" \
                or known[name].subtype == "effect":
            assert effects_for(name) or known[name].traits, name


# --------------------------------------------------------------------- Sangan
def test_sangan_searches_when_destroyed_by_battle() -> None:
    s = scenario(turn_player=1, phase="battle", p0={"monsters": ["Sangan"], "deck": ["Summoned Skull", "Mystical Elf",
                                                                                   "Magician of Faith"]},
                 p1={"monsters": ["Vorse Raider"]})
    play(s, ["1 attack Vorse Raider@1M1 -> Sangan@0M1", "0 choose Magician of Faith"])
    p0 = s.duel.players[0]
    assert names(p0.hand) == ["Magician of Faith"] and names(p0.gy) == ["Sangan"]
    text = log(s)
    # It triggers at the end of the Damage Step, after the battle damage.
    assert text.index("0 takes 900 battle damage (7100 LP left)") < text.index(
        "0 activates Sangan's effect as chain link 1")
    assert "0 shuffles their deck" in text


def test_sangan_tributed_also_searches() -> None:
    s = scenario(p0={"hand": ["Summoned Skull"], "monsters": ["Sangan"], "deck": ["Mystical Elf"]})
    play(s, ["0 summon Summoned Skull", "0 choose Mystical Elf"])  # a search is asked even with one find
    assert names(s.duel.players[0].hand) == ["Mystical Elf"]


def test_stolen_sangan_searches_for_its_owner() -> None:
    # Sangan's effect activates in the Graveyard it went to, its owner's: the owner searches.
    s = scenario(p0={"hand": ["Snatch Steal"], "spells": ["Ring of Destruction"], "deck": ["Sinister Serpent"]},
                 p1={"monsters": ["Sangan"], "deck": ["Mystical Elf"]})
    play(s, ["0 activate Snatch Steal", "0 pass", "0 activate Ring of Destruction@0S1",  # one target
             "1 choose Mystical Elf"])
    assert names(s.duel.players[1].hand) == ["Mystical Elf"] and not s.duel.players[0].hand
    assert names(s.duel.players[1].gy) == ["Sangan"]


# ------------------------------------------------------- Thousand-Eyes Restrict
def restrict_board(rules: str = "goat"):
    s = scenario(rules, phase="main1", turn_player=0,
                 p0={"monsters": ["Thousand-Eyes Restrict"]},
                 p1={"monsters": ["Summoned Skull"]})
    play(s, ["0 activate Thousand-Eyes Restrict@0M1"])
    return s


def test_restrict_absorbs_and_takes_its_stats() -> None:
    s = restrict_board()
    duel = s.duel
    ter = duel.players[0].monsters[0]
    assert names(duel.players[0].spells) == ["Summoned Skull"] and not duel.monsters(1)
    assert duel.atk(ter) == 2500 and duel.defense(ter) == 1200
    assert "0 activate Thousand-Eyes Restrict@0M1" not in s.legal_texts()  # once per turn


def test_restrict_absorbed_monster_is_destroyed_in_its_place() -> None:
    # Restrict stops every *other* monster attacking, so Restrict attacks the stronger dragon itself.
    s = scenario(phase="battle", p0={"monsters": ["Thousand-Eyes Restrict"]},
                 p1={"monsters": ["Blue-Eyes White Dragon"]})
    duel = s.duel
    ter = duel.players[0].monsters[0]
    # Put a held monster under Restrict by hand (as if absorbed last turn).
    held = duel.new_card(__import__("goat.games.yugioh.cards.data", fromlist=["DATABASE"]).DATABASE["Vorse Raider"],
                         1, "limbo")  # owned by the opponent
    duel.players[0].spells[0] = held
    held.zone, held.index, held.controller, held.face_up = "spell", 0, 0, True
    held.equipped_to, held.equip_stamp = ter, ter.stamp
    assert duel.atk(ter) == 1900
    play(s, ["0 attack Thousand-Eyes Restrict@0M1 -> Blue-Eyes White Dragon@1M1"])
    assert names(duel.players[0].monsters) == ["Thousand-Eyes Restrict"]
    assert names(duel.players[1].gy) == ["Vorse Raider"]  # owner's Graveyard
    assert duel.players[0].lp == 8000 - 1100
    assert "Vorse Raider is destroyed in place of Thousand-Eyes Restrict" in log(s)


def test_restrict_holds_one_monster_at_a_time() -> None:
    # "Only 1 monster at a time": the next turn's use is refused while one is held.
    s = scenario(p0={"monsters": ["Thousand-Eyes Restrict"]}, p1={"monsters": ["Mystical Elf", "Vorse Raider"]})
    play(s, ["0 activate Thousand-Eyes Restrict@0M1", "0 choose Mystical Elf@1M1", "0 phase end", "1 phase end"])
    duel = s.duel
    assert duel.turn == 5 and duel.turn_player == 0 and names(duel.monsters(1)) == ["Vorse Raider"]
    assert "0 activate Thousand-Eyes Restrict@0M1" not in s.legal_texts()


def test_restrict_stops_other_monsters_attacking_and_changing_position() -> None:
    s = scenario(phase="main1", p0={"monsters": ["Thousand-Eyes Restrict", "Vorse Raider"]},
                 p1={"monsters": ["Mystical Elf:set"]})
    assert not any(a.startswith("0 position Vorse") for a in s.legal_texts())
    play(s, ["0 phase battle"])
    assert not any("attack Vorse" in a for a in s.legal_texts())
    assert any("attack Thousand-Eyes" in a for a in s.legal_texts())


def test_restrict_leaving_destroys_the_absorbed_monster() -> None:
    s2 = scenario(p0={"monsters": ["Thousand-Eyes Restrict"]}, p1={"monsters": ["Summoned Skull"],
                                                                    "spells": ["Ring of Destruction"]})
    play(s2, ["0 activate Thousand-Eyes Restrict@0M1", "1 pass", "1 pass"])
    play(s2, ["0 phase end", "1 activate Ring of Destruction@1S1"])
    duel = s2.duel
    assert not duel.spelltraps(0)
    assert names(duel.players[1].gy) == ["Summoned Skull", "Ring of Destruction"]
    assert names(duel.players[0].gy) == ["Thousand-Eyes Restrict"]
    assert duel.players[0].lp == 8000 - 2500 and duel.players[1].lp == 8000 - 2500


def test_metamorphosis_summons_restrict_from_a_sheep_token() -> None:
    s = scenario(p0={"hand": ["Metamorphosis"], "monsters": ["Sheep Token:def"], "fusion": ["Thousand-Eyes Restrict"]})
    play(s, ["0 activate Metamorphosis", "0 choose defense"])
    p = s.duel.players[0]
    assert names(p.monsters) == ["Thousand-Eyes Restrict"] and not p.fusion
    assert names(p.gy) == ["Metamorphosis"]  # the token vanished


# --------------------------------------------------------------- traps
def test_mirror_force_destroys_every_attack_position_monster() -> None:
    s = scenario(turn_player=1, phase="battle", p0={"spells": ["Mirror Force"]},
                 p1={"monsters": ["Vorse Raider", "Gene-Warped Warwolf", "Mystical Elf:def"]})
    play(s, ["1 attack Vorse Raider@1M1 -> direct", "0 activate Mirror Force@0S1"])
    assert names(s.duel.players[1].monsters) == ["Mystical Elf"]
    assert s.duel.players[0].lp == 8000


def test_sakuretsu_armor_destroys_the_attacker() -> None:
    s = scenario(turn_player=1, phase="battle", p0={"spells": ["Sakuretsu Armor"]},
                 p1={"monsters": ["Vorse Raider", "Gene-Warped Warwolf"]})
    play(s, ["1 attack Gene-Warped Warwolf@1M2 -> direct", "0 activate Sakuretsu Armor@0S1"])
    assert names(s.duel.players[1].monsters) == ["Vorse Raider"]


def test_torrential_tribute_answers_a_summon() -> None:
    s = scenario(p0={"hand": ["Vorse Raider"], "monsters": ["Mystical Elf"]},
                 p1={"spells": ["Torrential Tribute"], "monsters": ["Sangan:set"], "deck": ["Magician of Faith"]})
    play(s, ["0 summon Vorse Raider", "1 activate Torrential Tribute@1S1", "1 choose Magician of Faith"])
    duel = s.duel
    assert not duel.monsters()
    assert names(duel.players[1].hand) == ["Magician of Faith"]  # Sangan's search


def test_call_of_the_haunted_and_its_monster_are_linked() -> None:
    s = scenario(p0={"spells": ["Call of the Haunted"], "gy": ["Summoned Skull"]},
                 p1={"spells": ["Mystical Space Typhoon"]})
    play(s, ["0 activate Call of the Haunted@0S1", "1 pass", "1 pass"])
    assert names(s.duel.players[0].monsters) == ["Summoned Skull"]
    play(s, ["0 phase end", "1 activate Mystical Space Typhoon@1S1"])
    assert not s.duel.monsters(0) and names(s.duel.players[0].gy) == ["Call of the Haunted", "Summoned Skull"]


def test_call_of_the_haunted_goes_when_its_monster_is_destroyed() -> None:
    s = scenario(p0={"spells": ["Call of the Haunted"], "gy": ["Summoned Skull"]},
                 p1={"spells": ["Ring of Destruction"]})
    play(s, ["0 activate Call of the Haunted@0S1", "1 pass", "0 phase end", "1 activate Ring of Destruction@1S1"])
    assert not s.duel.spelltraps(0) and "Call of the Haunted" in names(s.duel.players[0].gy)


def test_ring_of_destruction_needs_a_face_up_target_at_resolution() -> None:
    s = scenario(p0={"spells": ["Ring of Destruction"]}, p1={"monsters": ["Vorse Raider"],
                                                            "spells": ["Book of Moon"]})
    play(s, ["0 activate Ring of Destruction@0S1", "1 activate Book of Moon@1S1"])
    duel = s.duel
    assert names(duel.players[1].monsters) == ["Vorse Raider"] and duel.players[0].lp == 8000


def test_dust_tornado_destroys_then_may_set() -> None:
    s = scenario(p0={"spells": ["Dust Tornado"], "hand": ["Mirror Force"]}, p1={"spells": ["Sakuretsu Armor"]})
    play(s, ["0 activate Dust Tornado@0S1", "0 choose Mirror Force"])
    duel = s.duel
    assert names(duel.players[1].gy) == ["Sakuretsu Armor"]
    assert names(duel.spelltraps(0)) == ["Mirror Force"] and not duel.spelltraps(0)[0].face_up


# -------------------------------------------------------------------- spells
def test_graceful_charity_draws_three_discards_two() -> None:
    s = scenario(p0={"hand": ["Graceful Charity"], "deck": ["Sangan", "Mystical Elf", "Vorse Raider"]})
    play(s, ["0 activate Graceful Charity", "0 choose Sangan", "0 choose Mystical Elf"])
    p = s.duel.players[0]
    assert names(p.hand) == ["Vorse Raider"] and names(p.gy) == ["Sangan", "Mystical Elf", "Graceful Charity"]


def test_heavy_storm_destroys_all_other_spells_and_traps() -> None:
    s = scenario(p0={"hand": ["Heavy Storm"], "spells": ["Mirror Force"]}, p1={"spells": ["Dust Tornado"]})
    play(s, ["0 activate Heavy Storm", "1 activate Dust Tornado@1S1", "1 choose face-down@0S1"])
    assert "chain link 2 resolves: Dust Tornado" in log(s)
    assert not s.duel.spelltraps()


def test_snatch_steal_standby_gain_and_return_of_control() -> None:
    s = scenario(p0={"hand": ["Snatch Steal"]}, p1={"monsters": ["Vorse Raider"], "hand": ["Mystical Space Typhoon"]})
    # seat 1 passes in its Draw Phase, then lets Snatch Steal's gain resolve
    play(s, ["0 activate Snatch Steal", "0 phase end", "1 pass", "1 pass"])
    duel = s.duel
    assert duel.turn_player == 1 and duel.phase == "standby" and duel.players[1].lp == 9000
    play(s, ["1 pass", "1 activate Mystical Space Typhoon"])  # the only target: Snatch Steal
    assert names(duel.players[1].monsters) == ["Vorse Raider"] and not duel.monsters(0)


def test_premature_burial_destroyed_destroys_the_monster() -> None:
    s = scenario(p0={"hand": ["Premature Burial"], "gy": ["Summoned Skull"]}, p1={"spells": ["Mystical Space Typhoon"]})
    play(s, ["0 activate Premature Burial", "1 pass", "1 pass", "0 phase end", "1 activate Mystical Space Typhoon@1S1"])
    assert not s.duel.monsters() and names(s.duel.players[0].gy) == ["Premature Burial", "Summoned Skull"]


def test_premature_burial_monster_turned_face_down_stays() -> None:
    # Book of Moon: a face-down monster cannot be equipped, so Premature Burial is destroyed, but
    # it equips nothing any more when it goes: its "destroy that monster" does not apply.
    s = scenario(p0={"hand": ["Premature Burial"], "gy": ["Summoned Skull"]}, p1={"spells": ["Book of Moon"]})
    play(s, ["0 activate Premature Burial", "1 activate Book of Moon@1S1"])
    duel = s.duel
    skull = duel.players[0].monsters[0]
    assert skull is not None and skull.name == "Summoned Skull" and not skull.face_up
    assert names(duel.players[0].gy) == ["Premature Burial"] and duel.players[0].lp == 7200


def test_scapegoat_forbids_call_of_the_haunted_that_turn() -> None:
    # "You cannot Summon other monsters the turn you activate this card": Special Summons by an
    # effect too, in a later chain or in the same one.
    s = scenario(turn_player=1, options={"ask_responses": "always"},
                 p0={"spells": ["Scapegoat", "Call of the Haunted"], "gy": ["Summoned Skull"]})
    play(s, ["1 phase end", "0 activate Scapegoat@0S1", "1 pass"])
    assert s.legal_texts() == ["0 pass"]  # no Call of the Haunted in response
    play(s, ["0 pass", "1 pass"])
    assert len(s.duel.monsters(0)) == 4 and s.pending().seat == 0
    assert s.legal_texts() == ["0 pass"]  # nor in the window after the chain
    # Call first, Scapegoat chained to it: Scapegoat resolves first, and Call summons nothing.
    s = scenario(turn_player=1, p0={"spells": ["Scapegoat", "Call of the Haunted"], "gy": ["Summoned Skull"]})
    play(s, ["1 phase end", "0 activate Call of the Haunted@0S2", "0 activate Scapegoat@0S1"])
    duel = s.duel
    assert names(duel.monsters(0)) == ["Sheep Token"] * 4 and names(duel.players[0].gy) == [
        "Summoned Skull", "Scapegoat", "Call of the Haunted"]


def test_scapegoat_chained_to_a_fusion_ritual_or_metamorphosis_forbids_its_summon() -> None:
    # As Call of the Haunted above: Scapegoat chained to the player's own summoning Spell
    # resolves first, and the Spell then Summons nothing (its materials and tributes stay).
    s = scenario(p0={"hand": ["Polymerization", "Curse of Dragon"], "monsters": ["Gaia The Fierce Knight"],
                     "spells": ["Scapegoat"], "fusion": ["Gaia the Dragon Champion"]})
    play(s, ["0 activate Polymerization", "0 activate Scapegoat@0S1"])
    p = s.duel.players[0]
    assert names(p.monsters) == ["Gaia The Fierce Knight"] + ["Sheep Token"] * 4
    assert names(p.hand) == ["Curse of Dragon"] and names(p.fusion) == ["Gaia the Dragon Champion"]
    assert "0 phase end" in s.legal_texts()   # back in the open Main Phase: nothing asked
    s = scenario("official", p0={"hand": ["Black Luster Ritual", "Black Luster Soldier", "Summoned Skull"],
                                 "monsters": ["Giant Soldier of Stone"], "spells": ["Scapegoat"]})
    play(s, ["0 activate Black Luster Ritual", "0 activate Scapegoat@0S1"])
    p = s.duel.players[0]
    assert names(p.monsters) == ["Giant Soldier of Stone"] + ["Sheep Token"] * 4
    assert names(p.hand) == ["Black Luster Soldier", "Summoned Skull"] and "0 phase end" in s.legal_texts()
    s = scenario(p0={"hand": ["Metamorphosis"], "monsters": ["Sheep Token:def"], "spells": ["Scapegoat"],
                     "fusion": ["Thousand-Eyes Restrict"]})
    play(s, ["0 activate Metamorphosis", "0 activate Scapegoat@0S1"])
    p = s.duel.players[0]
    assert names(p.monsters) == ["Sheep Token"] * 4 and names(p.fusion) == ["Thousand-Eyes Restrict"]
    assert "0 phase end" in s.legal_texts()


def test_scapegoat_cannot_be_activated_after_its_player_summoned_that_turn() -> None:
    # "You cannot Summon other monsters the turn you activate this card" binds backwards too:
    # a player who has Summoned this turn may not activate it. A Set is no Summon, and the
    # opponent's Summon does not count.
    s = scenario(p0={"hand": ["Vorse Raider", "Scapegoat"]})
    assert "0 activate Scapegoat" in s.legal_texts()
    play(s, ["0 summon Vorse Raider"])
    assert "0 activate Scapegoat" not in s.legal_texts()
    s = scenario(p0={"hand": ["Vorse Raider", "Scapegoat"]})
    play(s, ["0 set Vorse Raider"])
    assert "0 activate Scapegoat" in s.legal_texts()
    s = scenario(turn_player=1, p0={"spells": ["Scapegoat"]}, p1={"hand": ["Vorse Raider"]})
    play(s, ["1 summon Vorse Raider"])
    assert "0 activate Scapegoat@0S1" in s.legal_texts()


def test_scapegoat_tokens_block_summons_and_tributes_and_vanish() -> None:
    s = scenario(p0={"hand": ["Scapegoat", "Vorse Raider", "Summoned Skull"]}, p1={"spells": ["Torrential Tribute"]})
    play(s, ["0 activate Scapegoat", "1 pass"])
    duel = s.duel
    assert len(duel.monsters(0)) == 4 and all(not m.attack_pos for m in duel.monsters(0))
    legal = s.legal_texts()
    assert "0 set Vorse Raider" in legal and "0 summon Vorse Raider" not in legal
    assert "0 summon Summoned Skull" not in legal and "0 set Summoned Skull" not in legal


def test_scapegoat_tokens_vanish_and_torrential_sees_the_summon() -> None:
    s = scenario(turn_player=1, p0={"spells": ["Scapegoat"]}, p1={"spells": ["Torrential Tribute"]})
    play(s, ["1 phase end", "0 activate Scapegoat@0S1"])
    assert "1 activate Torrential Tribute@1S1" in s.legal_texts()
    play(s, ["1 activate Torrential Tribute@1S1"])
    assert not s.duel.monsters() and names(s.duel.players[0].gy) == ["Scapegoat"]


def test_book_of_moon_turns_face_down() -> None:
    s = scenario(p0={"hand": ["Book of Moon"]}, p1={"monsters": ["Summoned Skull"]})
    play(s, ["0 activate Book of Moon"])
    skull = s.duel.players[1].monsters[0]
    assert not skull.face_up and not skull.attack_pos


def test_nobleman_removes_flip_monsters_from_both_decks() -> None:
    s = scenario(p0={"hand": ["Nobleman of Crossout"], "deck": ["Morphing Jar", "Sangan"]},
                 p1={"monsters": ["Morphing Jar:set"], "deck": ["Morphing Jar", "Sangan"]})
    play(s, ["0 activate Nobleman of Crossout"])
    duel = s.duel
    assert names(duel.players[1].banished) == ["Morphing Jar", "Morphing Jar"]
    assert names(duel.players[0].banished) == ["Morphing Jar"]
    assert names(duel.players[0].deck) == names(duel.players[1].deck) == ["Sangan"]


def test_delinquent_duo_random_then_chosen_discard() -> None:
    s = scenario(p0={"hand": ["Delinquent Duo"]}, p1={"hand": ["Sangan", "Mystical Elf", "Vorse Raider"]})
    play(s, ["0 activate Delinquent Duo", "1 choose Vorse Raider"], chances=["Sangan"])
    assert names(s.duel.players[1].gy) == ["Sangan", "Vorse Raider"] and s.duel.players[0].lp == 7000


def test_delinquent_duo_discards_at_random_first_then_by_choice_and_says_so_in_that_order() -> None:
    # "Select 1 random card from your opponent's hand and discard it. Then your opponent selects and
    # discards 1 card": both seats' histories have the random discard (public) before the chosen one.
    s = scenario(p0={"hand": ["Delinquent Duo"]}, p1={"hand": ["Sangan", "Mystical Elf", "Vorse Raider"]})
    play(s, ["0 activate Delinquent Duo"], chances=["Mystical Elf"])
    assert s.pending().seat == 1 and names(s.duel.players[1].gy) == ["Mystical Elf"]  # asked after the random one
    play(s, ["1 choose Vorse Raider"])
    for seat in (0, 1):
        lines = s.history_of(seat)
        assert lines.index("chance discard 1 Mystical Elf") < lines.index("act 1 choose Vorse Raider")
    assert s.history_of(0)[-4:] == ["chance discard 1 Mystical Elf", "see hand 1 Mystical Elf",
                                    "act 1 choose Vorse Raider", "see hand 1 Vorse Raider"]
    assert names(s.duel.players[1].hand) == ["Sangan"]


def test_delinquent_duo_with_one_card_in_hand_discards_only_the_random_one() -> None:
    s = scenario(p0={"hand": ["Delinquent Duo"]}, p1={"hand": ["Sangan"]})
    assert "0 activate Delinquent Duo" in s.legal_texts()
    play(s, ["0 activate Delinquent Duo"])
    assert s.pending().seat == 0 and names(s.duel.players[1].gy) == ["Sangan"] and not s.duel.players[1].hand
    assert s.history_of(1)[-1] == "chance discard 1 Sangan" and s.duel.players[0].lp == 7000


# ------------------------------------------------------------------ monsters
def test_chaos_sorcerer_removes_and_cannot_attack() -> None:
    s = scenario(p0={"monsters": ["Chaos Sorcerer"]}, p1={"monsters": ["Summoned Skull"]})
    play(s, ["0 activate Chaos Sorcerer@0M1", "0 choose Summoned Skull@1M1"])
    assert names(s.duel.players[1].banished) == ["Summoned Skull"]
    play(s, ["0 phase battle"])
    assert s.legal_texts() == ["0 phase main2"]


def test_black_luster_soldier_second_attack() -> None:
    s = scenario(p0={"monsters": ["Black Luster Soldier - Envoy of the Beginning"]},
                 p1={"monsters": ["Vorse Raider", "Mystical Elf"]})
    play(s, ["0 activate Black Luster Soldier - Envoy of the Beginning@0M1 attack twice", "0 phase battle",
             "0 attack Black Luster Soldier - Envoy of the Beginning@0M1 -> Vorse Raider@1M1"])
    assert any(a.startswith("0 attack Black Luster") for a in s.legal_texts())
    play(s, ["0 attack Black Luster Soldier - Envoy of the Beginning@0M1 -> Mystical Elf@1M2"])
    assert s.legal_texts() == ["0 phase main2"] and s.duel.players[1].lp == 8000 - 1100 - 2200


def test_breaker_counter_and_destruction() -> None:
    s = scenario(p0={"hand": ["Breaker the Magical Warrior"]}, p1={"spells": ["Mirror Force"]})
    play(s, ["0 summon Breaker the Magical Warrior"])
    breaker = s.duel.players[0].monsters[0]
    assert breaker.counters == 1 and s.duel.atk(breaker) == 1900
    play(s, ["0 activate Breaker the Magical Warrior@0M1"])
    assert names(s.duel.players[1].gy) == ["Mirror Force"] and s.duel.atk(breaker) == 1600


def test_tsukuyomi_flips_down_and_returns_to_hand() -> None:
    s = scenario(p0={"hand": ["Tsukuyomi"]}, p1={"monsters": ["Summoned Skull"]})
    play(s, ["0 summon Tsukuyomi", "0 choose Summoned Skull@1M1", "0 phase end"])
    duel = s.duel
    assert not duel.players[1].monsters[0].face_up
    assert names(duel.players[0].hand) == ["Tsukuyomi"] and not duel.monsters(0)


def test_asura_priest_attacks_every_monster() -> None:
    s = scenario(phase="battle", p0={"monsters": ["Asura Priest"]},
                 p1={"monsters": ["Sheep Token:def", "Sheep Token:def"]})
    play(s, ["0 attack Asura Priest@0M1 -> Sheep Token@1M1"])
    play(s, ["0 attack Asura Priest@0M1 -> Sheep Token@1M2"])
    assert not s.duel.monsters(1) and s.legal_texts() == ["0 phase main2"]


def test_airknight_draws_after_battle_damage() -> None:
    s = scenario(phase="battle", p0={"monsters": ["Airknight Parshath"], "deck": ["Sangan"]}, p1={})
    play(s, ["0 attack Airknight Parshath@0M1 -> direct"])
    assert names(s.duel.players[0].hand) == ["Sangan"] and s.duel.players[1].lp == 6100


def test_dd_warrior_lady_removes_both() -> None:
    s = scenario(phase="battle", p0={"monsters": ["D.D. Warrior Lady"]}, p1={"monsters": ["Summoned Skull"]})
    play(s, ["0 attack D.D. Warrior Lady@0M1 -> Summoned Skull@1M1", "0 activate D.D. Warrior Lady@0M1"])
    duel = s.duel
    assert names(duel.players[0].banished) == ["D.D. Warrior Lady"]
    assert names(duel.players[1].banished) == ["Summoned Skull"]
    assert duel.players[0].lp == 7000


def test_book_of_moon_on_an_attacker_no_flip_summon_that_turn() -> None:
    # A monster turned face-down remembers that it declared an attack: it cannot change its
    # position (a Flip Summon) in Main Phase 2.
    s = scenario(phase="battle", p0={"monsters": ["Vorse Raider"]}, p1={"spells": ["Book of Moon"]})
    play(s, ["1 pass", "0 attack Vorse Raider@0M1 -> direct", "1 activate Book of Moon@1S1", "0 phase main2"])
    assert s.duel.phase == "main2" and s.legal_texts() == ["0 phase end"]
    # That turn only: its next turn it may be Flip Summoned (the attack was last turn's).
    play(s, ["0 phase end", "1 phase end"])
    assert s.duel.turn == 5 and "0 flip Vorse Raider@0M1" in s.legal_texts()
    # One that did not attack may be Flip Summoned the same turn (it was not summoned this turn).
    s = scenario(phase="battle", p0={"monsters": ["Vorse Raider"]}, p1={"spells": ["Book of Moon"]})
    play(s, ["1 activate Book of Moon@1S1", "0 phase main2"])
    assert "0 flip Vorse Raider@0M1" in s.legal_texts()


def test_magical_merchant_digs_for_a_spell_or_trap() -> None:
    s = scenario(p0={"monsters": ["Magical Merchant:set"], "deck": ["Sangan", "Mystical Elf", "Mirror Force", "Sangan"]})
    play(s, ["0 flip Magical Merchant@0M1"])
    p = s.duel.players[0]
    assert names(p.hand) == ["Mirror Force"] and names(p.gy) == ["Sangan", "Mystical Elf"]
    assert names(p.deck) == ["Sangan"]


def test_sinister_serpent_returns_in_the_standby_phase() -> None:
    s = scenario(turn_player=1, phase="end", p0={"gy": ["Sinister Serpent"], "deck": ["Sangan"]})
    play(s, ["0 activate Sinister Serpent"])
    assert sorted(names(s.duel.players[0].hand)) == ["Sangan", "Sinister Serpent"]


def test_morphing_jar_refills_both_hands() -> None:
    s = scenario(p0={"monsters": ["Morphing Jar:set"], "hand": ["Sangan"]},
                 p1={"hand": ["Mystical Elf", "Vorse Raider"]})
    play(s, ["0 flip Morphing Jar@0M1"])
    duel = s.duel
    assert len(duel.players[0].hand) == 5 and len(duel.players[1].hand) == 5
    assert names(duel.players[1].gy) == ["Mystical Elf", "Vorse Raider"]


def test_magician_of_faith_returns_a_spell() -> None:
    s = scenario(p0={"monsters": ["Magician of Faith:set"], "gy": ["Pot of Greed", "Mirror Force"]})
    play(s, ["0 flip Magician of Faith@0M1"])
    assert names(s.duel.players[0].hand) == ["Pot of Greed"]


def test_virus_destroys_face_up_monsters_of_the_declared_type() -> None:
    s = scenario(p0={"monsters": ["Tribe-Infecting Virus"], "hand": ["Sangan"]},
                 p1={"monsters": ["Mystical Elf", "Dark Magician", "Vorse Raider", "Chaos Sorcerer:set"]})
    play(s, ["0 activate Tribe-Infecting Virus@0M1", "0 choose Spellcaster"])
    assert sorted(names(s.duel.players[1].gy)) == ["Dark Magician", "Mystical Elf"]


# -------------------------------------------------------------------- SEGOC
def test_simultaneous_triggers_turn_player_first_on_the_chain() -> None:
    s = scenario(p0={"monsters": ["Sangan"], "spells": ["Ring of Destruction"], "deck": ["Mystical Elf"]},
                 p1={"monsters": ["Sangan"], "spells": [], "deck": ["Magician of Faith"]})
    play(s, ["0 activate Ring of Destruction@0S1", "0 choose Sangan@1M1", "1 choose Magician of Faith"])
    text = log(s)
    assert "1 activates Sangan's effect as chain link 1" in text
    # Now Torrential-like double: destroy both Sangans with one card.
    s2 = scenario(p0={"monsters": ["Sangan"], "hand": ["Vorse Raider"], "deck": ["Mystical Elf"]},
                  p1={"monsters": ["Sangan"], "spells": ["Torrential Tribute"], "deck": ["Magician of Faith"]})
    play(s2, ["0 summon Vorse Raider", "1 activate Torrential Tribute@1S1", "1 choose Magician of Faith",
              "0 choose Mystical Elf"])
    text = log(s2)
    first = text.index("0 activates Sangan's effect as chain link 1")
    second = text.index("1 activates Sangan's effect as chain link 2")
    assert first < second
    # Chain link 2 (the opponent's) resolves first.
    assert text.index("chain link 2 resolves: Sangan") < text.index("chain link 1 resolves: Sangan")


def test_restrict_may_absorb_a_sheep_token() -> None:
    s = scenario(p0={"monsters": ["Thousand-Eyes Restrict"]}, p1={"monsters": ["Sheep Token:def"]})
    play(s, ["0 activate Thousand-Eyes Restrict@0M1"])
    duel = s.duel
    assert names(duel.players[0].spells) == ["Sheep Token"] and not duel.monsters(1)
    assert duel.atk(duel.players[0].monsters[0]) == 0


def test_summoned_then_turned_face_down_cannot_flip_summon_that_turn() -> None:
    s = scenario(p0={"hand": ["Vorse Raider", "Book of Moon"]})
    play(s, ["0 summon Vorse Raider", "0 activate Book of Moon"])
    assert not s.duel.players[0].monsters[0].face_up
    assert not any(a.startswith("0 flip") for a in s.legal_texts())


def test_metamorphosis_may_tribute_a_face_down_monster() -> None:
    """The card says "Tribute 1 monster" and the rulings let it be a face-down one
    (its Level is seen as it goes to the Graveyard); only face-up ones were offered."""
    s = scenario(p0={"hand": ["Metamorphosis"], "monsters": ["Magician of Faith:set"],
                     "fusion": ["Thousand-Eyes Restrict"]})
    play(s, ["0 activate Metamorphosis", "0 choose defense"])
    p = s.duel.players[0]
    assert names(p.monsters) == ["Thousand-Eyes Restrict"]
    assert sorted(names(p.gy)) == ["Magician of Faith", "Metamorphosis"]
