"""One scenario test (or more) per Goat Format difference, each against the
``official`` ruleset where the difference is observable with the card pool."""

from __future__ import annotations

import pytest

from goat.games.yugioh import DeckList, new_state
from goat.games.yugioh.cards.base import Link
from goat.games.yugioh.deck import builtin_deck
from goat.games.yugioh.scenario import names, play, resolve_chance, scenario
from goat.protocol import IllegalActionError

PLAIN = DeckList(tuple(["Giant Soldier of Stone"] * 3 + ["Mystical Elf"] * 3 + ["Vorse Raider"] * 3
                       + ["Gene-Warped Warwolf"] * 3 + ["Summoned Skull"] * 3 + ["Dark Magician"] * 3
                       + ["Blue-Eyes White Dragon"] * 3 + ["Book of Moon"] * 3 + ["Rush Recklessly"] * 3
                       + ["Sakuretsu Armor"] * 3 + ["Dust Tornado"] * 3 + ["Scapegoat"] * 3
                       + ["Airknight Parshath"] * 3 + ["Asura Priest"]))


def start_duel(rules: str):
    state = new_state(rules, {"ask_responses": "when-able"}, decks=(PLAIN, PLAIN), single_duel=True)
    resolve_chance(state)             # coin: seat 0 chooses
    state.apply_action("0 choose first")
    resolve_chance(state)             # both shuffles
    return state


# Rule 1 ---------------------------------------------------------------------
@pytest.mark.parametrize("rules, hand", [("goat", 6), ("official", 5)])
def test_rule1_first_player_draws_in_goat(rules: str, hand: int) -> None:
    state = start_duel(rules)
    duel = state.duel
    assert duel.turn == 1 and duel.phase == "main1" and duel.turn_player == 0
    assert len(duel.players[0].hand) == hand
    assert len(duel.players[1].hand) == 5
    # and the first player has no Battle Phase on turn 1
    assert "0 phase battle" not in state.legal_texts()


# Rule 2 ---------------------------------------------------------------------
def test_rule2_side_deck_is_0_or_15_and_no_maximum() -> None:
    from goat.games.yugioh.deck import deck_problems
    from goat.games.yugioh.rules import make_rules

    big = DeckList(PLAIN.main + ("Asura Priest", "Asura Priest", "Tsukuyomi", "Tsukuyomi"))
    assert deck_problems(big, make_rules("goat")) == []  # 44 cards: no maximum
    bad = DeckList(PLAIN.main, side=("Mystical Elf",))
    assert any("side deck" in p.text for p in deck_problems(bad, make_rules("goat")))


# Rule 4 ---------------------------------------------------------------------
def virus_board(rules: str):
    return scenario(rules, p0={"hand": ["Tribe-Infecting Virus", "Sangan"]},
                    p1={"monsters": ["Mystical Elf"], "spells": ["Book of Moon"]})


def test_rule4_goat_virus_resolves_before_book_of_moon_can_answer() -> None:
    s = virus_board("goat")
    play(s, ["0 summon Tribe-Infecting Virus"])
    # The turn player is asked first, and may start the ignition effect at once.
    assert s.current_player() == 0
    assert "0 activate Tribe-Infecting Virus@0M1" in s.legal_texts()
    play(s, ["0 activate Tribe-Infecting Virus@0M1", "0 choose Spellcaster",
             "1 activate Book of Moon@1S1", "1 choose Tribe-Infecting Virus@0M1"])
    duel = s.duel
    # Book of Moon resolved first (the Virus is face-down) but the Virus' effect still resolved.
    virus = duel.players[0].monsters[0]
    assert virus.name == "Tribe-Infecting Virus" and not virus.face_up
    assert names(duel.players[1].gy) == ["Book of Moon", "Mystical Elf"] or \
        sorted(names(duel.players[1].gy)) == ["Book of Moon", "Mystical Elf"]


def test_rule4_official_opponent_answers_the_summon_before_an_ignition_effect() -> None:
    s = virus_board("official")
    play(s, ["0 summon Tribe-Infecting Virus"])
    # Turn player's window has no ignition effect: it passes without being asked,
    # so the opponent may Book of Moon the Virus before it is ever activated.
    assert s.current_player() == 1
    play(s, ["1 activate Book of Moon@1S1", "1 choose Tribe-Infecting Virus@0M1"])
    assert not s.duel.players[0].monsters[0].face_up
    assert "0 activate Tribe-Infecting Virus@0M1" not in s.legal_texts()


# Rule 5 ---------------------------------------------------------------------
def replay_board(rules: str):
    return scenario(rules, phase="battle", p0={"monsters": ["Airknight Parshath", "D.D. Warrior Lady"]},
                    p1={"spells": ["Scapegoat"]})


def test_rule5_goat_replay_rewinds_to_the_battle_step() -> None:
    s = replay_board("goat")
    play(s, ["1 pass"])  # Start Step window (seat 0 has nothing to activate: not asked)
    play(s, ["0 attack Airknight Parshath@0M1 -> direct", "1 activate Scapegoat@1S1"])
    duel = s.duel
    assert len(duel.monsters(1)) == 4
    airknight = duel.players[0].monsters[0]
    assert airknight.attacks == 0, "the attack is undone"
    legal = s.legal_texts()
    assert s.pending().kind == "battle"
    assert "0 attack D.D. Warrior Lady@0M2 -> Sheep Token@1M1" in legal
    assert "0 attack Airknight Parshath@0M1 -> Sheep Token@1M2" in legal
    # Attack with the other monster first; Airknight may still attack later.
    play(s, ["0 attack D.D. Warrior Lady@0M2 -> Sheep Token@1M1", "0 pass"])  # no D.D. removal
    assert len(s.duel.monsters(1)) == 3
    assert "0 attack Airknight Parshath@0M1 -> Sheep Token@1M2" in s.legal_texts()


def test_rule5_official_replay_redirects_at_once() -> None:
    s = replay_board("official")
    play(s, ["1 pass"])
    play(s, ["0 attack Airknight Parshath@0M1 -> direct", "1 activate Scapegoat@1S1"])
    assert s.pending().kind == "replay"
    assert "0 pass" in s.legal_texts()
    play(s, ["0 pass"])  # stop the attack: it counts as made
    airknight = s.duel.players[0].monsters[0]
    assert airknight.attacks == 1
    assert not any(a.startswith("0 attack Airknight") for a in s.legal_texts())


# Rule 7 ---------------------------------------------------------------------
@pytest.mark.parametrize("rules, revealed", [("goat", True), ("official", False)])
def test_rule7_a_deck_checked_by_an_effect_is_revealed(rules: str, revealed: bool) -> None:
    """Nobleman of Crossout on a Flip monster checks both decks for copies: in
    Goat Format each deck is shown (a public line), officially it is not."""
    s = scenario(rules, p0={"hand": ["Nobleman of Crossout"], "deck": ["Morphing Jar", "Sangan"]},
                 p1={"monsters": ["Morphing Jar:set"], "deck": ["Sangan"]})
    play(s, ["0 activate Nobleman of Crossout"])
    shown = [e.text for e in s.duel.log if "reveals their Deck" in e.text]
    assert shown == ([f"{seat} reveals their Deck to check for Morphing Jar" for seat in (0, 1)] if revealed else [])
    assert names(s.duel.players[0].banished) == ["Morphing Jar"]


# Rule 8 ---------------------------------------------------------------------
@pytest.mark.parametrize("rules, searched", [("goat", True), ("official", False)])
def test_rule8_search_without_target(rules: str, searched: bool) -> None:
    s = scenario(rules, p0={"monsters": ["Sangan"], "deck": ["Summoned Skull"] * 3},
                 p1={"spells": ["Ring of Destruction"]})
    play(s, ["0 phase end", "1 activate Ring of Destruction@1S1"])
    log = [e.text for e in s.duel.log]
    assert any("finds no monster" in t for t in log) is searched
    assert any(t == "0 shuffles their deck" for t in log) is searched


# Rule 9 ---------------------------------------------------------------------
def damage_board(rules: str):
    return scenario(rules, phase="battle",
                    p0={"monsters": ["Gene-Warped Warwolf"], "hand": ["Rush Recklessly", "Rush Recklessly"]},
                    p1={"monsters": ["Summoned Skull"], "spells": ["Sakuretsu Armor"]})


def test_rule9_only_one_chain_at_damage_calculation() -> None:
    s = damage_board("goat")
    play(s, ["0 pass", "0 attack Gene-Warped Warwolf@0M1 -> Summoned Skull@1M1", "0 pass", "1 pass"])
    # No window at the start of the Damage Step or before damage calculation: modifiers wait for it.
    assert s.duel.substep == "calc"
    play(s, ["0 activate Rush Recklessly", "0 choose Gene-Warped Warwolf@0M1", "0 pass"])
    # After that one chain, damage is calculated at once: 2700 vs 2500, Skull destroyed.
    duel = s.duel
    assert names(duel.players[1].gy) == ["Summoned Skull"]
    assert duel.players[1].lp == 8000 - 200
    assert names(duel.players[0].hand) == ["Rush Recklessly"]


def test_rule9_official_allows_more_chains_before_damage() -> None:
    s = damage_board("official")
    play(s, ["0 pass", "0 attack Gene-Warped Warwolf@0M1 -> Summoned Skull@1M1", "0 pass", "1 pass"])
    assert s.duel.substep == "start"
    # Two Rush Recklessly in two chains: 2000 + 1400 = 3400 against 2500.
    play(s, ["0 activate Rush Recklessly", "0 choose Gene-Warped Warwolf@0M1", "0 pass"])
    play(s, ["0 activate Rush Recklessly", "0 choose Gene-Warped Warwolf@0M1"])
    assert s.duel.players[1].lp == 8000 - 900
    assert names(s.duel.players[1].gy) == ["Summoned Skull"]


def test_rule9_no_normal_trap_in_the_damage_step() -> None:
    s = damage_board("goat")
    play(s, ["0 pass", "0 attack Gene-Warped Warwolf@0M1 -> Summoned Skull@1M1", "0 pass"])
    # Sakuretsu Armor may answer the attack declaration ...
    assert "1 activate Sakuretsu Armor@1S1" in s.legal_texts()
    play(s, ["1 pass"])
    # ... but is never offered during the Damage Step.
    while s.duel.step == "damage":
        assert not any("Sakuretsu" in a for a in s.legal_texts())
        play(s, [s.legal_texts()[0]])


# Rule 10 --------------------------------------------------------------------
def test_rule10_goat_matches_have_no_draws() -> None:
    state = new_state("goat")
    state._match_decided  # noqa: B018 - exists
    state.wins = [0, 0]
    state.results = [{"winner": None}] * 3
    assert state._match_decided(3) is False
    official = new_state("official")
    official.wins = [1, 1]
    assert official._match_decided(3) is True and official.match_winner is None


# Rule 11 --------------------------------------------------------------------
@pytest.mark.parametrize("rules, seen", [("goat", True), ("official", False)])
def test_rule11_an_optional_trigger_is_seen_in_the_middle_of_a_chain(rules: str, seen: bool) -> None:
    """An optional "when" trigger whose event happens while a chain resolves:
    Goat Format still offers it; officially it misses its timing. No card of the
    pool makes such an event mid-chain, so the event is emitted while a chain
    link is marked as resolving (D.D. Warrior Lady's "battled")."""
    s = scenario(rules, p0={"monsters": ["D.D. Warrior Lady"]}, p1={"monsters": ["Vorse Raider"]})
    duel = s.duel
    lady, raider = duel.players[0].monsters[0], duel.players[1].monsters[0]
    duel.chain.append(Link(effect=None, card=raider, seat=1, speed=2))  # type: ignore[arg-type]
    duel.resolving = duel.chain[-1]
    duel.emit(("battled", lady, raider))
    assert [t.card.name for t in duel.pending] == (["D.D. Warrior Lady"] if seen else [])
    assert any(e.text == "D.D. Warrior Lady misses its timing" for e in duel.log) is not seen


def test_rule11_emit_looks_for_triggers_in_the_deck_too() -> None:
    """Triggers are looked for in every zone a card can be in, the Deck too."""
    s = scenario("goat", p0={"deck": ["Sangan"]})
    p = s.duel.players[0]
    assert any(c.name == "Sangan" for c in p.all_cards()) and p.deck[0] in p.all_cards()


# Rule 12 --------------------------------------------------------------------
@pytest.mark.parametrize("rules, stays", [("goat", True), ("official", False)])
def test_rule12_restrict_turned_face_down_before_absorbing(rules: str, stays: bool) -> None:
    s = scenario(rules, p0={"monsters": ["Thousand-Eyes Restrict"]},
                 p1={"monsters": ["Dark Magician"], "spells": ["Book of Moon"]})
    play(s, ["0 activate Thousand-Eyes Restrict@0M1", "1 activate Book of Moon@1S1",
             "1 choose Thousand-Eyes Restrict@0M1"])
    duel = s.duel
    assert (names(duel.players[1].monsters) == ["Dark Magician"]) is stays
    assert ("Dark Magician" in names(duel.players[1].gy)) is not stays


# Rule 13 --------------------------------------------------------------------
@pytest.mark.parametrize("rules, may", [("goat", True), ("official", False)])
def test_rule13_position_of_a_monster_the_opponent_summoned_this_turn(rules: str, may: bool) -> None:
    s = scenario(rules, p0={"hand": ["Snatch Steal"], "spells": []},
                 p1={"spells": ["Scapegoat"]})
    play(s, ["0 phase end", "1 activate Scapegoat@1S1"])  # opponent's tokens on our turn
    assert s.pending().kind == "open"
    play(s, ["0 activate Snatch Steal", "0 choose Sheep Token@1M1"])
    assert names(s.duel.players[0].monsters) == ["Sheep Token"]
    assert ("0 position Sheep Token@0M1" in s.legal_texts()) is may


# Rule 14 --------------------------------------------------------------------
@pytest.mark.parametrize("rules, destroyed", [("goat", True), ("official", False)])
def test_rule14_zero_atk_vs_zero_atk(rules: str, destroyed: bool) -> None:
    s = scenario(rules, phase="battle", p0={"monsters": ["Sheep Token"]}, p1={"monsters": ["Sheep Token"]})
    play(s, ["0 attack Sheep Token@0M1 -> Sheep Token@1M1"])
    duel = s.duel
    assert (not duel.monsters()) is destroyed
    assert duel.players[0].lp == duel.players[1].lp == 8000


# Rule 15 --------------------------------------------------------------------
@pytest.mark.parametrize("rules, legal", [("goat", False), ("official", True)])
def test_rule15_delinquent_duo_at_exactly_1000_lp(rules: str, legal: bool) -> None:
    s = scenario(rules, p0={"hand": ["Delinquent Duo"], "lp": 1000}, p1={"hand": ["Sangan", "Mystical Elf"]})
    assert ("0 activate Delinquent Duo" in s.legal_texts()) is legal
    if legal:
        play(s, ["0 activate Delinquent Duo"])
        assert s.is_terminal() and s.results[0]["winner"] == 1  # paid the last LP and lost


def test_rule15_delinquent_duo_above_1000_lp() -> None:
    s = scenario("goat", p0={"hand": ["Delinquent Duo"], "lp": 1001}, p1={"hand": ["Sangan", "Mystical Elf"]})
    play(s, ["0 activate Delinquent Duo"], chances=["Mystical Elf"])
    duel = s.duel
    assert duel.players[0].lp == 1
    assert sorted(names(duel.players[1].gy)) == ["Mystical Elf", "Sangan"]


@pytest.mark.parametrize("rules, legal", [("goat", True), ("official", False)])
def test_rule15_draw_effect_with_too_few_cards(rules: str, legal: bool) -> None:
    s = scenario(rules, p0={"hand": ["Pot of Greed"], "deck": ["Mystical Elf"]})
    assert ("0 activate Pot of Greed" in s.legal_texts()) is legal
    if legal:
        play(s, ["0 activate Pot of Greed"])
        assert s.is_terminal() and s.results[0] == {"winner": 1, "reason": "deck-out", "first": s.duel.first,
                                                    "turns": 3, "lp": [8000, 8000]}


def test_goat_switches_are_named_and_differ_between_presets() -> None:
    from goat.games.yugioh.rules import GOAT_SWITCHES, PRESETS

    goat, official = PRESETS["goat"].options(), PRESETS["official"].options()
    assert sorted(k for k in goat if goat[k] != official[k]) == sorted(GOAT_SWITCHES)
    assert len(GOAT_SWITCHES) >= 15


def test_goat_control_deck_is_legal_and_loads_by_name() -> None:
    deck = builtin_deck()
    assert len(deck.main) == 40 and deck.fusion == ("Thousand-Eyes Restrict",) and len(deck.side) == 15
    with pytest.raises(IllegalActionError):
        start_duel("goat").apply_action("1 summon Sangan")


def test_every_switch_and_preset_is_documented() -> None:
    from pathlib import Path

    from goat.games.yugioh.rules import PRESETS

    text = (Path(__file__).resolve().parents[2] / "docs" / "yugioh.md").read_text(encoding="utf-8")
    missing = [name for name in PRESETS["goat"].options() if f"`{name}`" not in text]
    assert not missing, f"switches missing from docs/yugioh.md: {missing}"
    assert all(f"`{p}`" in text for p in PRESETS)
