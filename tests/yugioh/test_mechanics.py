"""Field Spells (Goat rule 3), Fusion and Ritual Summons (rulebook), Union
monsters (rule 17), a Continuous Trap with an ignition-like effect (rule 6):
scenario tests, each switch against the ``official`` ruleset."""

from __future__ import annotations

import pytest

from goat.games.yugioh.scenario import names, play, scenario
from goat.games.yugioh.zones import FIELD_SLOT


def _stats(state, name):
    duel = state.duel
    card = next(c for c in duel.monsters() if c.name == name)
    return duel.atk(card), duel.defense(card)


# ----------------------------------------------------------------- Field Spells
def test_field_spells_modify_by_type_and_attribute() -> None:
    s = scenario("goat", p0={"hand": ["Yami"], "monsters": ["Dark Magician", "Airknight Parshath", "Vorse Raider"]})
    play(s, ["0 activate Yami"])
    assert s.duel.players[0].spells[FIELD_SLOT].name == "Yami"
    assert _stats(s, "Dark Magician") == (2700, 2300)          # Spellcaster +200
    assert _stats(s, "Airknight Parshath") == (1700, 1200)     # Fairy -200
    assert _stats(s, "Vorse Raider") == (1900, 1200)           # Beast-Warrior: not Yami's
    s = scenario("goat", p0={"spells": ["Mystic Plasma Zone:up"], "monsters": ["Dark Magician", "Mystical Elf"]})
    assert _stats(s, "Dark Magician") == (3000, 1700) and _stats(s, "Mystical Elf") == (800, 2000)
    s = scenario("goat", p0={"spells": ["Sogen:up"], "monsters": ["Vorse Raider", "Gaia The Fierce Knight"]})
    assert _stats(s, "Vorse Raider") == (2100, 1400) and _stats(s, "Gaia The Fierce Knight") == (2500, 2300)


def test_a_field_spell_uses_the_field_zone_and_replaces_its_owners() -> None:
    s = scenario("goat", p0={"hand": ["Yami", "Mirror Force", "Book of Moon", "Heavy Storm", "Snatch Steal",
                                      "Sogen"],
                             "spells": ["Sakuretsu Armor"] * 5})
    assert "0 activate Yami" in s.legal_texts() and "0 set Yami" in s.legal_texts()
    assert "0 set Mirror Force" not in s.legal_texts()  # the five Spell & Trap Zones are full
    play(s, ["0 activate Yami", "0 activate Sogen"])
    assert s.duel.players[0].spells[FIELD_SLOT].name == "Sogen" and "Yami" in names(s.duel.players[0].gy)


@pytest.mark.parametrize("rules, set_one_stays", [("goat", True), ("official", False)])
def test_rule3_a_set_field_spell_survives_only_in_goat(rules: str, set_one_stays: bool) -> None:
    s = scenario(rules, p0={"hand": ["Yami"]}, p1={"spells": ["Sogen"]})  # Sogen Set in p1's Field zone
    play(s, ["0 activate Yami"])
    assert (s.duel.players[1].field_spell() is not None) == set_one_stays
    assert s.duel.players[0].field_spell().name == "Yami"


@pytest.mark.parametrize("rules, during_chain", [("goat", True), ("official", False)])
def test_rule3_the_other_face_up_field_spell_goes_on_resolution_in_goat(rules: str, during_chain: bool) -> None:
    s = scenario(rules, p0={"hand": ["Yami"]}, p1={"spells": ["Sogen:up", "Mystical Space Typhoon"]})
    play(s, ["0 activate Yami"])
    assert s.pending().seat == 1  # p1 may chain its Set Quick-Play
    assert (s.duel.players[1].field_spell() is not None) == during_chain
    play(s, ["1 pass"])
    assert s.duel.players[1].field_spell() is None and "Sogen" in names(s.duel.players[1].gy)


def test_a_set_field_spell_is_public_as_a_field_spell_only() -> None:
    s = scenario("goat", p0={"hand": ["Yami", "Mirror Force"]})
    play(s, ["0 set Yami"])
    view = s.view(1)
    assert view["players"][0]["spells"][FIELD_SLOT] == {"name": "?", "face_up": False}
    assert view["history"][-1] == "act 0 set ?field"


# ----------------------------------------------------------------------- Fusion
def test_polymerization_fusion_summons_from_hand_and_field() -> None:
    s = scenario("goat", p0={"hand": ["Polymerization", "Curse of Dragon"], "monsters": ["Gaia The Fierce Knight"],
                             "fusion": ["Gaia the Dragon Champion", "Thousand-Eyes Restrict"]})
    play(s, ["0 activate Polymerization", "0 choose attack"])
    duel = s.duel
    assert names(duel.players[0].monsters) == ["Gaia the Dragon Champion"]
    assert sorted(names(duel.players[0].gy)) == ["Curse of Dragon", "Gaia The Fierce Knight", "Polymerization"]
    assert names(duel.players[0].fusion) == ["Thousand-Eyes Restrict"]
    champion = duel.players[0].monsters[0]
    assert champion.summon_how == "fusion" and champion.proper and duel.atk(champion) == 2600


def test_polymerization_needs_every_material() -> None:
    s = scenario("goat", p0={"hand": ["Polymerization", "Curse of Dragon"], "fusion": ["Gaia the Dragon Champion"]})
    assert "0 activate Polymerization" not in s.legal_texts()
    assert "0 summon Gaia the Dragon Champion" not in s.legal_texts()


# ----------------------------------------------------------------------- Ritual
def test_ritual_summon_tributes_levels_from_hand_and_field() -> None:
    s = scenario("official", p0={"hand": ["Black Luster Ritual", "Black Luster Soldier", "Summoned Skull"],
                                 "monsters": ["Giant Soldier of Stone"]})
    assert "0 summon Black Luster Soldier" not in s.legal_texts()  # a Ritual monster: Ritual Summon only
    assert "0 set Black Luster Soldier" not in s.legal_texts()
    # Summoned Skull (6) first; Giant Soldier of Stone (3), the only card left, is taken without asking
    play(s, ["0 activate Black Luster Ritual", "0 choose Summoned Skull", "0 choose attack"])
    duel = s.duel
    assert names(duel.players[0].monsters) == ["Black Luster Soldier"]
    assert duel.players[0].monsters[0].summon_how == "ritual"
    assert sorted(names(duel.players[0].gy)) == ["Black Luster Ritual", "Giant Soldier of Stone", "Summoned Skull"]


def test_ritual_needs_enough_levels() -> None:
    s = scenario("goat", p0={"hand": ["Black Luster Ritual", "Black Luster Soldier", "Mystical Elf"],
                             "monsters": ["Giant Soldier of Stone"]})  # 4 + 3 < 8
    assert "0 activate Black Luster Ritual" not in s.legal_texts()


# ------------------------------------------------------------------------ Union
def _union_board(rules: str, **p1):
    return scenario(rules, p0={"monsters": ["X-Head Cannon", "Y-Dragon Head", "Z-Metal Tank", "Exiled Force"]},
                    p1=p1 or None)


@pytest.mark.parametrize("rules, second_union", [("goat", False), ("official", True)])
def test_rule17_one_union_per_monster_in_goat(rules: str, second_union: bool) -> None:
    s = _union_board(rules)
    play(s, ["0 activate Y-Dragon Head@0M2 equip"])
    assert _stats(s, "X-Head Cannon") == (2200, 1900)
    assert "0 activate Y-Dragon Head@0S1 equip" not in s.legal_texts()  # once per turn, shared
    assert ("0 activate Z-Metal Tank@0M3 equip" in s.legal_texts()) == second_union
    if second_union:
        play(s, ["0 activate Z-Metal Tank@0M3 equip"])
        assert _stats(s, "X-Head Cannon") == (2800, 2500)


@pytest.mark.parametrize("rules, host_survives", [("goat", False), ("official", True)])
def test_rule17_unions_protect_from_battle_only_in_goat(rules: str, host_survives: bool) -> None:
    s = _union_board(rules)
    play(s, ["0 activate Y-Dragon Head@0M2 equip", "0 activate Exiled Force@0M4", "0 choose X-Head Cannon@0M1"])
    duel = s.duel
    assert ("X-Head Cannon" in names(duel.players[0].monsters)) == host_survives
    assert "Y-Dragon Head" in names(duel.players[0].gy)


@pytest.mark.parametrize("rules", ["goat", "official"])
def test_union_takes_a_battle_destruction(rules: str) -> None:
    s = scenario(rules, p0={"monsters": ["X-Head Cannon", "Y-Dragon Head"]}, p1={"monsters": ["Blue-Eyes White Dragon"]})
    play(s, ["0 activate Y-Dragon Head@0M2 equip", "0 phase battle",
             "0 attack X-Head Cannon@0M1 -> Blue-Eyes White Dragon@1M1"])
    duel = s.duel
    assert names(duel.players[0].monsters) == ["X-Head Cannon"] and "Y-Dragon Head" in names(duel.players[0].gy)
    assert duel.players[0].lp == 8000 - 800


def test_union_unequips_a_later_turn() -> None:
    s = _union_board("goat")
    play(s, ["0 activate Y-Dragon Head@0M2 equip"])
    s.duel.turn += 2  # a later turn of the same player
    s.refresh()
    assert "0 activate Y-Dragon Head@0S1 unequip" in s.legal_texts()
    play(s, ["0 activate Y-Dragon Head@0S1 unequip"])
    assert "Y-Dragon Head" in names(s.duel.players[0].monsters) and _stats(s, "X-Head Cannon") == (1800, 1500)


# ------------------------------------------------------------------- Skull Lair
def _lair_board(rules: str):
    return scenario(rules, options={"ask_responses": "always"},
                    p0={"hand": ["Scapegoat"], "monsters": ["Giant Soldier of Stone"]},
                    p1={"spells": ["Skull Lair"], "gy": ["Sangan", "Mystical Elf", "Vorse Raider"]})


@pytest.mark.parametrize("rules, same_chain", [("goat", False), ("official", True)])
def test_rule6_a_continuous_trap_flipped_in_a_chain_cannot_use_its_effect_there(rules: str, same_chain: bool) -> None:
    s = _lair_board(rules)
    play(s, ["0 activate Scapegoat", "1 activate Skull Lair@1S1", "0 pass"])
    assert s.pending().seat == 1
    assert ("1 activate Skull Lair@1S1 destroy" in s.legal_texts()) == same_chain


def test_rule6_goat_skull_lair_already_face_up_answers_at_once() -> None:
    s = _lair_board("goat")
    s.duel.players[1].spells[0].face_up = True
    # the only face-up monster is the target without asking; the third cost card likewise
    play(s, ["0 phase battle", "1 activate Skull Lair@1S1 destroy", "1 choose Mystical Elf", "1 choose Sangan", "0 pass", "1 pass"])
    duel = s.duel
    assert "Giant Soldier of Stone" in names(duel.players[0].gy)
    assert sorted(names(duel.players[1].banished)) == ["Mystical Elf", "Sangan", "Vorse Raider"]


def test_a_properly_fusion_summoned_monster_may_be_revived_a_metamorphosed_one_not() -> None:
    s = scenario("goat", p0={"hand": ["Polymerization", "Curse of Dragon", "Gaia The Fierce Knight", "Ring of Destruction"],
                             "fusion": ["Gaia the Dragon Champion"]})
    play(s, ["0 activate Polymerization", "0 choose attack"])
    champion = s.duel.players[0].monsters[0]
    s.duel.destroy([champion])
    assert s.duel.can_special(champion)
    s = scenario("goat", p0={"hand": ["Metamorphosis"], "monsters": ["Magician of Faith"],
                             "fusion": ["Thousand-Eyes Restrict"]})
    play(s, ["0 activate Metamorphosis", "0 choose attack"])
    restrict = s.duel.players[0].monsters[0]
    assert restrict.name == "Thousand-Eyes Restrict"
    s.duel.destroy([restrict])
    assert not s.duel.can_special(restrict)
