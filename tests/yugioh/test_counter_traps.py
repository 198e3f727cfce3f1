"""Counter Traps and negation (rulebook: spell speed 3; Goat rule 9's Damage Step
exception; the era's texts and rulings of Magic Jammer, Seven Tools of the
Bandit and Solemn Judgment)."""

from __future__ import annotations

from goat.games.yugioh.scenario import names, play, scenario


def log(s) -> list[str]:
    return [entry.line.text for entry in s.duel.log]


# ------------------------------------------------------------------ chains of Counter Traps
def test_a_counter_trap_answers_a_counter_trap_and_each_cost_stays_paid() -> None:
    """Pot of Greed <- Magic Jammer <- Seven Tools <- Solemn Judgment: Solemn
    negates Seven Tools, so Jammer's negation holds and Pot of Greed draws nothing;
    every cost (a discard, 1000 LP, half the LP) was paid on activation."""
    s = scenario(p0={"hand": ["Pot of Greed", "Sangan"], "spells": ["Seven Tools of the Bandit"]},
                 p1={"hand": ["Mystical Elf"], "spells": ["Magic Jammer", "Solemn Judgment"], "lp": 5001})
    play(s, ["0 activate Pot of Greed", "1 activate Magic Jammer@1S1", "0 activate Seven Tools of the Bandit@0S1",
             "1 activate Solemn Judgment@1S2"])
    duel = s.duel
    p0, p1 = duel.players
    assert p0.lp == 7000 and p1.lp == 2501               # 5001 - 2500: the LP left rounded up
    assert names(p0.hand) == ["Sangan"]                  # Pot of Greed drew nothing
    assert sorted(names(p0.gy)) == ["Pot of Greed", "Seven Tools of the Bandit"]
    assert sorted(names(p1.gy)) == ["Magic Jammer", "Mystical Elf", "Solemn Judgment"]
    lines = log(s)
    assert "Solemn Judgment negates the activation of Seven Tools of the Bandit" in lines
    assert "Seven Tools of the Bandit: its activation was negated, no effect" in lines
    assert "Magic Jammer negates the activation of Pot of Greed" in lines
    assert "Pot of Greed: its activation was negated, no effect" in lines


def test_a_speed_two_trap_or_quick_play_cannot_answer_a_counter_trap() -> None:
    """On a speed-3 link only another speed-3 card may chain: the Set Dust Tornado
    and Book of Moon (speed 2) are offered on Pot of Greed's activation, not on Magic Jammer's."""
    s = scenario(p0={"hand": ["Pot of Greed"], "spells": ["Dust Tornado", "Book of Moon", "Seven Tools of the Bandit"]},
                 p1={"hand": ["Sangan"], "spells": ["Magic Jammer"], "monsters": ["Mystical Elf"]})
    play(s, ["0 activate Pot of Greed"])
    assert "1 activate Magic Jammer@1S1" in s.legal_texts()
    play(s, ["1 activate Magic Jammer@1S1"])
    assert s.duel.chain[-1].speed == 3
    assert s.legal_texts() == ["0 pass", "0 activate Seven Tools of the Bandit@0S3"]


def test_magic_jammer_answers_only_a_spell_card_and_seven_tools_only_a_trap_card() -> None:
    s = scenario(p0={"spells": ["Dust Tornado", "Mystical Space Typhoon"]},
                 p1={"hand": ["Sangan"],
                     "spells": ["Magic Jammer", "Seven Tools of the Bandit", "Ring of Destruction"]})
    play(s, ["0 activate Mystical Space Typhoon@0S2", "0 choose face-down@1S3"])
    assert "1 activate Magic Jammer@1S1" in s.legal_texts()
    assert "1 activate Seven Tools of the Bandit@1S2" not in s.legal_texts()
    s2 = scenario(p0={"spells": ["Dust Tornado"]},
                  p1={"hand": ["Sangan"], "spells": ["Magic Jammer", "Seven Tools of the Bandit"]})
    play(s2, ["0 activate Dust Tornado@0S1", "0 choose face-down@1S1"])
    assert "1 activate Seven Tools of the Bandit@1S2" in s2.legal_texts()
    assert "1 activate Magic Jammer@1S1" not in s2.legal_texts()


def test_a_counter_trap_never_starts_a_chain() -> None:
    """Every Counter Trap of the pool answers an activation or a Summon: with
    nothing to answer none is offered (and a Set card is not asked to be one)."""
    s = scenario(p0={"hand": ["Sangan"], "spells": ["Solemn Judgment", "Magic Jammer", "Seven Tools of the Bandit"]})
    assert not any("activate" in a for a in s.legal_texts())


# ------------------------------------------------------------------ costs
def test_seven_tools_at_exactly_1000_lp_is_refused_under_goat_rule_15() -> None:
    def offered(rules: str, lp: int) -> bool:
        s = scenario(rules, p0={"spells": ["Dust Tornado", "Mystical Space Typhoon"]},
                     p1={"spells": ["Seven Tools of the Bandit", "Sakuretsu Armor"], "lp": lp})
        play(s, ["0 activate Dust Tornado@0S1", "0 choose face-down@1S2"])
        return "1 activate Seven Tools of the Bandit@1S1" in s.legal_texts()

    assert not offered("goat", 1000)    # rule 15: an LP cost must leave more than 0
    assert offered("goat", 1001)
    assert offered("official", 1000)


def test_magic_jammer_without_a_card_to_discard_is_refused() -> None:
    def offered(hand: list[str]) -> bool:
        s = scenario(p0={"hand": ["Pot of Greed"]}, p1={"hand": hand, "spells": ["Magic Jammer"]})
        play(s, ["0 activate Pot of Greed"])
        return "1 activate Magic Jammer@1S1" in s.legal_texts()

    assert not offered([])
    assert offered(["Sangan"])


def test_solemn_judgment_can_always_be_paid_and_leaves_the_half_rounded_up() -> None:
    s = scenario(p0={"hand": ["Pot of Greed"]}, p1={"spells": ["Solemn Judgment"], "lp": 1})
    play(s, ["0 activate Pot of Greed", "1 activate Solemn Judgment@1S1"])
    assert s.duel.players[1].lp == 1 and s.duel.winner is None
    assert names(s.duel.players[0].gy) == ["Pot of Greed"] and len(s.duel.players[0].hand) == 0


# ------------------------------------------------------------------ what a negated card does
def test_a_negated_continuous_or_equip_card_does_not_stay() -> None:
    """Call of the Haunted negated by Seven Tools: destroyed, no monster revived.
    Premature Burial negated by Magic Jammer: its 800 LP stay paid, nothing revived."""
    s = scenario(p0={"spells": ["Call of the Haunted"], "gy": ["Summoned Skull"]},
                 p1={"spells": ["Seven Tools of the Bandit"]})
    play(s, ["0 activate Call of the Haunted@0S1", "1 activate Seven Tools of the Bandit@1S1"])
    p0 = s.duel.players[0]
    assert not names(p0.monsters) and not names(p0.spells)
    assert sorted(names(p0.gy)) == ["Call of the Haunted", "Summoned Skull"]

    s = scenario(p0={"hand": ["Premature Burial"], "gy": ["Summoned Skull"]},
                 p1={"hand": ["Sangan"], "spells": ["Magic Jammer"]})
    play(s, ["0 activate Premature Burial", "1 activate Magic Jammer@1S1"])
    p0 = s.duel.players[0]
    assert p0.lp == 7200 and not names(p0.monsters) and not names(p0.spells)
    assert sorted(names(p0.gy)) == ["Premature Burial", "Summoned Skull"]


def test_scapegoat_negated_by_magic_jammer_leaves_summons_allowed() -> None:
    """The era's official rulings (Scapegoat): "If your opponent chains Magic Jammer
    to your Scapegoat you may still perform Summons that turn" — the no-Summon
    lock comes with an activation that is not negated. A Scapegoat that resolves
    locks as before."""
    s = scenario(p0={"hand": ["Vorse Raider", "Sangan"], "spells": ["Scapegoat", "Scapegoat"]},
                 p1={"hand": ["Mystical Elf"], "spells": ["Magic Jammer"]})
    play(s, ["0 activate Scapegoat@0S1", "1 activate Magic Jammer@1S1", "0 pass"])
    assert s.pending().kind == "open" and "0 summon Vorse Raider" in s.legal_texts()
    play(s, ["0 activate Scapegoat@0S2"])
    assert len(names(s.duel.players[0].monsters)) == 4
    assert "0 summon Vorse Raider" not in s.legal_texts() and "0 set Vorse Raider" in s.legal_texts()


def test_book_of_moon_negated_turns_nothing_face_down() -> None:
    s = scenario(p0={"spells": ["Book of Moon"]},
                 p1={"monsters": ["Summoned Skull"], "hand": ["Sangan"], "spells": ["Magic Jammer"]})
    play(s, ["0 activate Book of Moon@0S1", "1 activate Magic Jammer@1S1"])
    skull = s.duel.players[1].monsters[0]
    assert skull.face_up and skull.attack_pos
    assert names(s.duel.players[0].gy) == ["Book of Moon"]


def test_tribe_infecting_virus_effect_is_no_card_activation_and_cannot_be_negated() -> None:
    """Solemn Judgment negates a Spell/Trap *Card*'s activation or a Summon, not a
    monster's effect: Tribe-Infecting Virus's effect gets no Counter Trap answer."""
    s = scenario(p0={"monsters": ["Tribe-Infecting Virus"], "hand": ["Sangan"]},
                 p1={"monsters": ["Mystical Elf"], "spells": ["Solemn Judgment"]})
    play(s, ["0 activate Tribe-Infecting Virus@0M1", "0 choose Spellcaster"])
    assert "1 activate Solemn Judgment@1S1" not in s.legal_texts()


def test_jinzo_stops_counter_traps_too() -> None:
    s = scenario(p0={"hand": ["Pot of Greed"], "monsters": ["Jinzo"]},
                 p1={"hand": ["Sangan"], "spells": ["Magic Jammer", "Solemn Judgment"]})
    play(s, ["0 activate Pot of Greed"])
    assert s.duel.winner is None and len(s.duel.players[0].hand) == 2  # nobody was asked: Pot of Greed drew


# ------------------------------------------------------------------ Solemn Judgment and Summons
def test_solemn_judgment_on_a_tribute_summon_leaves_the_tributes_in_the_graveyard() -> None:
    """The Summon is negated: the monster is destroyed (never Summoned, nor sent from
    the field: no Torrential Tribute window, no "when summoned"),
    the tribute stays in the Graveyard (Sangan tributed still searches) and the
    Normal Summon of the turn is used."""
    s = scenario(p0={"hand": ["Summoned Skull", "Vorse Raider"], "monsters": ["Sangan"], "deck": ["Magician of Faith"]},
                 p1={"spells": ["Solemn Judgment", "Torrential Tribute"], "lp": 7999})
    play(s, ["0 summon Summoned Skull"])
    assert s.pending().prompt == "respond to the Summon of Summoned Skull?"
    assert s.legal_texts() == ["1 pass", "1 activate Solemn Judgment@1S1"]  # not Torrential Tribute
    play(s, ["1 activate Solemn Judgment@1S1", "0 choose Magician of Faith"])
    duel = s.duel
    p0, p1 = duel.players
    assert p1.lp == 4000
    assert sorted(names(p0.gy)) == ["Sangan", "Summoned Skull"] and not names(p0.monsters)
    assert names(p0.hand) == ["Vorse Raider", "Magician of Faith"]
    assert "the Summon of Summoned Skull is negated" in log(s)
    assert not any(a.startswith("0 summon") for a in s.legal_texts())  # the Normal Summon is used
    assert names(p1.spells) == ["Torrential Tribute"]


def test_a_negated_summon_of_sangan_searches_nothing() -> None:
    """Not sent to the Graveyard from the field: Sangan's effect does not activate."""
    s = scenario(p0={"hand": ["Sangan"], "deck": ["Magician of Faith"]}, p1={"spells": ["Solemn Judgment"]})
    play(s, ["0 summon Sangan", "1 activate Solemn Judgment@1S1"])
    assert names(s.duel.players[0].gy) == ["Sangan"] and not s.duel.players[0].hand
    assert s.pending().seat == 0 and "0 phase end" in s.legal_texts()


def test_a_negated_flip_summon_activates_no_flip_effect() -> None:
    s = scenario(p0={"monsters": ["Magician of Faith:set"], "gy": ["Pot of Greed"]},
                 p1={"spells": ["Solemn Judgment"]})
    play(s, ["0 flip Magician of Faith@0M1", "1 activate Solemn Judgment@1S1"])
    p0 = s.duel.players[0]
    assert sorted(names(p0.gy)) == ["Magician of Faith", "Pot of Greed"] and not p0.hand


def test_a_procedure_special_summon_may_be_negated_and_its_costs_stay_paid() -> None:
    s = scenario(p0={"hand": ["Chaos Sorcerer"], "gy": ["Sangan", "Magician of Faith"]},
                 p1={"spells": ["Solemn Judgment"]})
    play(s, ["0 special Chaos Sorcerer", "0 choose attack",
             "1 activate Solemn Judgment@1S1"])
    p0 = s.duel.players[0]
    assert names(p0.gy) == ["Chaos Sorcerer"] and not names(p0.monsters)
    assert sorted(names(p0.banished)) == ["Magician of Faith", "Sangan"]


def test_seven_tools_on_solemn_lets_the_summon_go_on() -> None:
    """Only the first link answers the Summon: Seven Tools negates Solemn Judgment,
    then the Summon is made and its own window follows (Torrential Tribute)."""
    s = scenario(p0={"hand": ["Vorse Raider"], "spells": ["Seven Tools of the Bandit"]},
                 p1={"spells": ["Solemn Judgment", "Torrential Tribute"]})
    play(s, ["0 summon Vorse Raider", "1 activate Solemn Judgment@1S1", "0 activate Seven Tools of the Bandit@0S1"])
    assert names(s.duel.players[0].monsters) == ["Vorse Raider"]
    assert "1 activate Torrential Tribute@1S2" in s.legal_texts()


def test_a_set_monster_is_no_summon_and_an_effect_summon_is_no_window() -> None:
    s = scenario(p0={"hand": ["Sangan"], "spells": ["Call of the Haunted"], "gy": ["Vorse Raider"]},
                 p1={"spells": ["Solemn Judgment"]})
    play(s, ["0 set Sangan"])
    assert s.pending().seat == 0                        # no window: a Set is not a Summon
    play(s, ["0 activate Call of the Haunted@0S1"])
    assert "1 activate Solemn Judgment@1S1" in s.legal_texts()  # the Trap's activation, not its Summon
    play(s, ["1 pass"])
    assert names(s.duel.players[0].monsters) == ["Sangan", "Vorse Raider"]
    assert not any("Solemn" in a for a in s.legal_texts())  # the Summon by the effect is not answered


# ------------------------------------------------------------------ Damage Step (Goat rule 9)
def test_a_counter_trap_answers_a_modifier_in_the_damage_step_under_damage_step_strict() -> None:
    s = scenario("goat", phase="battle",
                 p0={"monsters": ["Gene-Warped Warwolf"], "hand": ["Rush Recklessly"]},
                 p1={"monsters": ["Summoned Skull"], "hand": ["Sangan"], "spells": ["Magic Jammer", "Sakuretsu Armor"]})
    assert s.duel.rules.damage_step_strict
    play(s, ["0 pass", "0 attack Gene-Warped Warwolf@0M1 -> Summoned Skull@1M1", "0 pass", "1 pass"])
    assert s.duel.substep == "calc"
    play(s, ["0 activate Rush Recklessly", "0 choose Gene-Warped Warwolf@0M1"])
    assert s.legal_texts() == ["1 pass", "1 activate Magic Jammer@1S1"]  # not Sakuretsu Armor
    play(s, ["1 activate Magic Jammer@1S1"])
    p0, p1 = s.duel.players
    assert sorted(names(p0.gy)) == ["Gene-Warped Warwolf", "Rush Recklessly"]  # 2000 vs 2500
    assert p0.lp == 7500 and names(p1.monsters) == ["Summoned Skull"]


# ------------------------------------------------------------------ hidden information
def _summon_decisions(hidden: str, ask: str) -> list[tuple[int, str]]:
    s = scenario(options={"ask_responses": ask}, p0={"hand": ["Vorse Raider"]},
                 p1={"spells": [hidden], "hand": ["Sangan"]})
    play(s, ["0 summon Vorse Raider"])
    seen = []
    while s.pending().seat != 0 or s.pending().kind != "open":
        seen.append((s.pending().seat, s.pending().kind))
        play(s, [f"{s.pending().seat} pass"])
    return seen


def test_a_summon_window_asks_by_what_is_public_under_when_set_cards() -> None:
    """A Set card might be a Counter Trap: under ``when-set-cards`` the other seat
    is asked at a Summon's window whatever its Set card is (Solemn Judgment or
    Mirror Force) — then again at the window after the Summon — so being asked
    tells nothing; under ``when-able`` only Solemn Judgment is asked, and only
    before the Summon."""
    assert _summon_decisions("Solemn Judgment", "when-set-cards") == \
        _summon_decisions("Mirror Force", "when-set-cards") == [(1, "respond"), (1, "respond")]
    assert _summon_decisions("Solemn Judgment", "when-able") == [(1, "respond")]
    assert _summon_decisions("Mirror Force", "when-able") == []


def test_a_set_card_is_not_asked_about_as_a_counter_trap_on_a_monster_effect() -> None:
    """No Counter Trap of the pool answers a monster's effect, so on such a link
    (Tribe-Infecting Virus's; a Flip effect in the Damage Step, where no other Set
    card could answer) the counter shape gives no reason to ask."""
    s = scenario(options={"ask_responses": "always"}, p0={"monsters": ["Tribe-Infecting Virus"], "hand": ["Sangan"]},
                 p1={"spells": ["Magic Jammer"]})
    play(s, ["0 activate Tribe-Infecting Virus@0M1", "0 choose Spellcaster"])
    assert s.legal_texts() == ["1 pass"]
    jammer = s.duel.players[1].spells[0]
    assert s.duel.chain and not s.duel.card_timing_ok(1, jammer, jammer.data, False)


def test_solemn_judgment_answers_the_summon_of_jinzo() -> None:
    """Jinzo waiting to be Summoned stops no Trap yet: Solemn Judgment negates it."""
    s = scenario(p0={"hand": ["Jinzo"], "monsters": ["Sangan"], "deck": ["Magician of Faith"]},
                 p1={"spells": ["Solemn Judgment"]})
    play(s, ["0 summon Jinzo"])
    assert "1 activate Solemn Judgment@1S1" in s.legal_texts()
    play(s, ["1 activate Solemn Judgment@1S1", "0 choose Magician of Faith"])
    assert sorted(names(s.duel.players[0].gy)) == ["Jinzo", "Sangan"] and not names(s.duel.players[0].monsters)


# ------------------------------------------------------------------ bots
def test_greedy_answers_the_other_seat_with_a_counter_trap_never_itself() -> None:
    import random

    from goat.bots.yugioh import YugiohGreedyBot

    bot = YugiohGreedyBot(seed=1)

    def best(s) -> str:
        return bot.ranked(s.view(s.pending().seat), s.legal_texts(), random.Random(1))[0]

    # its own Summon (the other seat passed): pass, not Solemn Judgment
    s = scenario(p0={"hand": ["Vorse Raider"], "spells": ["Solemn Judgment"]}, p1={"spells": ["Solemn Judgment"]})
    play(s, ["0 summon Vorse Raider"])
    assert best(s) == "1 activate Solemn Judgment@1S1"   # the other seat's Summon
    play(s, ["1 pass"])
    assert s.legal_texts() == ["0 pass", "0 activate Solemn Judgment@0S1"] and best(s) == "0 pass"
    # its own Spell answered by the other seat's Magic Jammer: Seven Tools, not a second Jammer of its own
    s = scenario(p0={"hand": ["Pot of Greed", "Sangan"], "spells": ["Seven Tools of the Bandit", "Magic Jammer"]},
                 p1={"hand": ["Sangan"], "spells": ["Magic Jammer"]})
    play(s, ["0 activate Pot of Greed"])
    assert best(s) == "1 activate Magic Jammer@1S1"
    play(s, ["1 activate Magic Jammer@1S1"])
    assert best(s) == "0 activate Seven Tools of the Bandit@0S1"


def test_a_summon_kept_through_its_window_is_made_before_the_waiting_triggers_activate() -> None:
    """One chain in a Summon's negation window, resolved alone: Seven Tools negates
    Solemn Judgment, the Summon is made, and only then does the tributed Sangan's
    trigger activate, in the Summon's response window (the yugioh wiki's "Summon
    negation window"): Torrential Tribute may answer it, and Book of Moon turns a
    Summoned Skull that was Summoned face down."""
    s = scenario(p0={"hand": ["Summoned Skull"], "monsters": ["Sangan"], "deck": ["Magician of Faith"],
                     "spells": ["Seven Tools of the Bandit"]},
                 p1={"spells": ["Solemn Judgment", "Book of Moon", "Torrential Tribute"]})
    play(s, ["0 summon Summoned Skull", "1 activate Solemn Judgment@1S1", "0 activate Seven Tools of the Bandit@0S1"])
    skull = next(c for c in s.duel.players[0].monsters if c is not None)
    assert s.duel.chain and s.duel.chain[-1].card.name == "Sangan"
    assert skull.summoned_turn == s.duel.turn
    assert s.legal_texts() == ["1 pass", "1 activate Book of Moon@1S2", "1 activate Torrential Tribute@1S3"]
    play(s, ["1 activate Book of Moon@1S2", "1 pass"])  # its one target: the Summoned Skull
    assert s.legal_texts() == ["0 choose Magician of Faith"]  # Book of Moon resolved, then Sangan
    assert not skull.face_up and skull.summoned_turn == s.duel.turn


def test_a_jinzo_kept_through_its_window_stops_traps_in_answer_to_the_waiting_triggers() -> None:
    """Jinzo Tribute Summoned over Sangan, Solemn Judgment negated by Seven Tools:
    Jinzo is Summoned when that chain ends, so no Trap (Ring of Destruction on
    Jinzo) answers the tributed Sangan's trigger that follows."""
    s = scenario(p0={"hand": ["Jinzo"], "monsters": ["Sangan"], "deck": ["Magician of Faith"],
                     "spells": ["Seven Tools of the Bandit"]},
                 p1={"spells": ["Solemn Judgment", "Ring of Destruction"]})
    play(s, ["0 summon Jinzo", "1 activate Solemn Judgment@1S1", "0 activate Seven Tools of the Bandit@0S1"])
    assert s.pending().seat == 0 and s.legal_texts() == ["0 choose Magician of Faith"]  # Sangan resolved unanswered
    play(s, ["0 choose Magician of Faith"])
    assert names(s.duel.players[0].monsters) == ["Jinzo"] and names(s.duel.players[1].spells) == ["Ring of Destruction"]


# ------------------------------------------------------------------ more negated activations (a judge's list)
def test_negated_polymerization_or_ritual_spends_no_material_and_metamorphosis_its_tribute() -> None:
    """Fusion Materials and Ritual tributes go on resolution, so a negated
    Polymerization or Black Luster Ritual spends none; Metamorphosis's tribute is
    its cost and stays in the Graveyard, with no Fusion monster."""
    s = scenario(p0={"hand": ["Polymerization", "Gaia The Fierce Knight", "Curse of Dragon"],
                     "fusion": ["Gaia the Dragon Champion"]},
                 p1={"hand": ["Sangan"], "spells": ["Magic Jammer"]})
    play(s, ["0 activate Polymerization", "1 activate Magic Jammer@1S1"])
    p0 = s.duel.players[0]
    assert names(p0.hand) == ["Gaia The Fierce Knight", "Curse of Dragon"] and names(p0.gy) == ["Polymerization"]
    assert names(p0.fusion) == ["Gaia the Dragon Champion"]
    s = scenario(p0={"hand": ["Black Luster Ritual", "Black Luster Soldier", "Summoned Skull", "Vorse Raider"]},
                 p1={"hand": ["Sangan"], "spells": ["Magic Jammer"]})
    play(s, ["0 activate Black Luster Ritual", "1 activate Magic Jammer@1S1"])
    p0 = s.duel.players[0]
    assert names(p0.hand) == ["Black Luster Soldier", "Summoned Skull", "Vorse Raider"]
    assert names(p0.gy) == ["Black Luster Ritual"]
    s = scenario(p0={"hand": ["Metamorphosis"], "monsters": ["Gaia The Fierce Knight"],
                     "fusion": ["Gaia the Dragon Champion"]},
                 p1={"hand": ["Sangan"], "spells": ["Magic Jammer"]})
    play(s, ["0 activate Metamorphosis", "1 activate Magic Jammer@1S1"])
    p0 = s.duel.players[0]
    assert sorted(names(p0.gy)) == ["Gaia The Fierce Knight", "Metamorphosis"] and not names(p0.monsters)


def test_a_fusion_summon_by_polymerization_has_no_summon_window() -> None:
    s = scenario(p0={"hand": ["Polymerization", "Gaia The Fierce Knight", "Curse of Dragon"],
                     "fusion": ["Gaia the Dragon Champion"]},
                 p1={"spells": ["Solemn Judgment"]})
    play(s, ["0 activate Polymerization", "1 pass", "0 choose attack"])
    assert names(s.duel.players[0].monsters) == ["Gaia the Dragon Champion"]
    assert not any("Solemn" in a for a in s.legal_texts())


def test_a_negated_field_spell_or_heavy_storm_changes_nothing_on_the_field() -> None:
    """Goat rule 3: a new Field Spell destroys the other face-up one when it
    resolves, so a negated Sogen leaves the opponent's Yami; a negated Heavy Storm
    destroys nothing but itself."""
    s = scenario(p0={"hand": ["Sogen"]}, p1={"hand": ["Sangan"], "spells": ["Magic Jammer", "Yami:up"]})
    play(s, ["0 activate Sogen", "1 activate Magic Jammer@1S1"])
    assert names(s.duel.players[1].spells) == ["Yami"] and s.duel.players[1].spells[-1].face_up
    assert names(s.duel.players[0].gy) == ["Sogen"]
    s = scenario(p0={"hand": ["Heavy Storm"], "spells": ["Call of the Haunted"]},
                 p1={"hand": ["Sangan"], "spells": ["Magic Jammer", "Mirror Force"]})
    play(s, ["0 activate Heavy Storm", "1 activate Magic Jammer@1S1"])
    assert names(s.duel.players[0].spells) == ["Call of the Haunted"] and names(s.duel.players[1].spells) == \
        ["Mirror Force"]


def test_a_negated_answer_to_an_attack_lets_the_attack_go_on() -> None:
    """Mirror Force negated by Seven Tools, Book of Moon negated by Magic Jammer:
    the attack goes on to damage."""
    s = scenario(phase="battle", p0={"monsters": ["Vorse Raider"], "spells": ["Seven Tools of the Bandit"]},
                 p1={"monsters": ["Mystical Elf"], "spells": ["Mirror Force"]})
    play(s, ["0 attack Vorse Raider@0M1 -> Mystical Elf@1M1", "1 activate Mirror Force@1S1",
             "0 activate Seven Tools of the Bandit@0S1"])
    assert names(s.duel.players[0].monsters) == ["Vorse Raider"] and s.duel.players[1].lp == 8000 - 1100
    s = scenario(phase="battle", p0={"monsters": ["Vorse Raider"], "hand": ["Sangan"], "spells": ["Magic Jammer"]},
                 p1={"monsters": ["Mystical Elf"], "spells": ["Book of Moon"]})
    play(s, ["1 pass", "0 attack Vorse Raider@0M1 -> Mystical Elf@1M1", "1 activate Book of Moon@1S1",
             "1 choose Vorse Raider@0M1", "0 activate Magic Jammer@0S1"])
    assert s.duel.players[0].monsters[0].face_up and s.duel.players[1].lp == 8000 - 1100


def test_a_monster_whose_procedure_summon_was_negated_was_never_properly_summoned() -> None:
    """Chaos Sorcerer negated by Solemn Judgment cannot then be revived by Call of
    the Haunted or Premature Burial (it was never properly Special Summoned)."""
    s = scenario(p0={"hand": ["Chaos Sorcerer", "Premature Burial"], "gy": ["Sangan", "Magician of Faith"],
                     "spells": ["Call of the Haunted"]},
                 p1={"spells": ["Solemn Judgment"]})
    sorcerer = s.duel.players[0].hand[0]
    sorcerer.proper = False  # as in a real duel: scenario hand cards start revivable
    play(s, ["0 special Chaos Sorcerer", "0 choose attack", "1 activate Solemn Judgment@1S1"])
    assert names(s.duel.players[0].gy) == ["Chaos Sorcerer"]
    assert not any(a.startswith("0 activate") for a in s.legal_texts())
