"""Last Turn (a Normal Trap of the Chaos and Warrior decks), one scenario per ruling.

Seat 0 holds Last Turn Set at 1000 LP; seat 1 is the turn player. The Goat-era
rulings (goatfmt.com's Individual Card FAQs): the chain link only keeps a monster
and sends every other card on the field and in the hands to the Graveyard; after
the chain the opponent Special Summons a monster of their choice from their Deck
and it attacks the kept monster in a special Battle Phase (battle damage 0); in
the End Phase of the turn the player who alone controls monsters wins, anything
else is a draw — also when nothing could be summoned (the Jowgen ruling).
"""

from __future__ import annotations

from typing import Any

import pytest

from goat.games.yugioh.recording import summary_lines
from goat.games.yugioh.scenario import ScenarioState, names, play, scenario

ACTIVATE = "0 activate Last Turn@0S1"


def _board(kept: str, deck: list[str] | None = None, lp: int = 1000, **p1: Any) -> ScenarioState:
    """Seat 1's Main Phase 1; seat 0 at ``lp`` with ``kept`` and Last Turn Set."""
    return scenario("goat", turn_player=1,
                    p0={"lp": lp, "monsters": [kept], "spells": ["Last Turn"], "hand": ["Sangan"]},
                    p1={"monsters": ["Summoned Skull"], "hand": ["Pot of Greed"],
                        "deck": deck or ["Vorse Raider", "Pot of Greed", "Giant Soldier of Stone"], **p1})


def _last_turn(kept: str, summoned: str = "Vorse Raider", **kw: Any) -> ScenarioState:
    """Seat 1 moves to end its turn, seat 0 answers with Last Turn, seat 1 summons ``summoned``."""
    return play(_board(kept, **kw), ["1 phase end", ACTIVATE, f"1 choose {summoned}"])


def _verdict(s: ScenarioState) -> tuple[int | None, str]:
    play(s, ["1 phase end"])
    assert s.is_terminal(), s.legal_texts()
    return s.results[0]["winner"], s.results[0]["reason"]


def test_only_in_the_opponents_turn_at_1000_lp_or_less_with_a_monster() -> None:
    assert ACTIVATE in play(_board("Mystical Elf"), ["1 phase end"]).legal_texts()
    assert ACTIVATE not in play(_board("Mystical Elf", lp=1001), ["1 phase end"]).legal_texts()
    s = scenario("goat", turn_player=1, p0={"lp": 1000, "spells": ["Last Turn"], "hand": ["Sangan"]},
                 p1={"monsters": ["Summoned Skull"]})
    assert ACTIVATE not in play(s, ["1 phase end"]).legal_texts()   # no monster to keep
    s = scenario("goat", turn_player=0, p0={"lp": 1000, "monsters": ["Mystical Elf"], "spells": ["Last Turn"]},
                 p1={"hand": ["Mystical Space Typhoon"]})
    assert not any("Last Turn" in a for a in s.legal_texts())        # not in its own turn


def test_everything_else_goes_and_the_opponent_chooses_from_the_deck() -> None:
    s = play(_board("Blue-Eyes White Dragon"), ["1 phase end", ACTIVATE])
    assert s.pending().seat == 1 and s.pending().kind == "search"
    assert s.legal_texts() == ["1 choose Giant Soldier of Stone", "1 choose Vorse Raider"]  # by name; no Pot of Greed
    duel = s.duel
    assert names(duel.players[0].gy) == ["Last Turn", "Sangan"] and not duel.players[0].hand
    assert names(duel.players[1].gy) == ["Summoned Skull", "Pot of Greed"] and not duel.players[1].hand
    assert names(duel.players[0].monsters) == ["Blue-Eyes White Dragon"]


def test_the_kept_monster_wins_the_battle_and_the_duel_at_the_end_phase() -> None:
    s = _last_turn("Blue-Eyes White Dragon")
    duel = s.duel
    assert not s.is_terminal() and duel.phase == "main1"   # the turn goes on where it was
    assert "Vorse Raider" in names(duel.players[1].gy) and duel.players[1].lp == 8000  # no battle damage
    assert _verdict(s) == (0, "last-turn")


def test_the_summoned_monster_wins_and_its_battle_damage_is_zero() -> None:
    s = _last_turn("Mystical Elf")           # 800 ATK against 1900: 1100 would take seat 0's last 1000 LP
    assert s.duel.players[0].lp == 1000 and "Mystical Elf" in names(s.duel.players[0].gy)
    assert _verdict(s) == (1, "last-turn")


@pytest.mark.parametrize("kept", ["Vorse Raider", "Mystical Elf:def"])
def test_both_destroyed_or_both_left_is_a_draw(kept: str) -> None:
    s = _last_turn(kept)                      # equal ATK: both go; 2000 DEF against 1900 ATK: both stay
    assert len(s.duel.monsters()) == (0 if kept == "Vorse Raider" else 2)
    assert s.duel.players[1].lp == 8000       # the 100 reflected from Mystical Elf's DEF is 0 too
    assert _verdict(s) == (None, "last-turn")
    assert any("draw (last-turn)" in line for line in summary_lines(s))


def test_no_monster_in_the_deck_nothing_battles_and_the_kept_monster_wins() -> None:
    # Black Luster Soldier - Envoy and Chaos Sorcerer must be summoned their own way first:
    # from the Deck an effect cannot Special Summon them.
    s = play(_board("Mystical Elf", deck=["Black Luster Soldier - Envoy of the Beginning", "Chaos Sorcerer"]),
             ["1 phase end", ACTIVATE])
    assert "1 Special Summons no monster for Last Turn" in [e.text for e in s.duel.log]
    assert not s.duel.monsters(1) and not s.is_terminal()
    assert _verdict(s) == (0, "last-turn")


def test_a_face_down_kept_monster_is_flipped_by_the_attack_and_its_flip_effect_resolves() -> None:
    # Night Assailant (500 DEF) flipped by Vorse Raider: destroyed by battle, but its Flip
    # effect destroys Vorse Raider first (sub-step 5): nobody controls a monster — a draw.
    s = _last_turn("Night Assailant:set")
    assert s.pending().seat == 0 and "0 choose Vorse Raider@1M1" in s.legal_texts()
    play(s, ["0 choose Vorse Raider@1M1"])
    assert not s.duel.monsters() and "the attacked face-down monster is Night Assailant (Defense Position)" \
        in [e.text for e in s.duel.log]
    assert _verdict(s) == (None, "last-turn")


def test_a_response_turns_the_kept_monster_face_down_it_battles_face_down() -> None:
    # Seat 1 answers Last Turn with Book of Moon: Blue-Eyes battles in face-down Defense
    # Position (2500 DEF): Vorse Raider bounces off, no battle damage, both stay — a draw.
    s = play(_board("Blue-Eyes White Dragon", hand=["Book of Moon"]),
             ["1 phase end", ACTIVATE, "1 activate Book of Moon", "1 choose Blue-Eyes White Dragon@0M1",
              "1 choose Vorse Raider"])
    duel = s.duel
    assert names(duel.players[1].gy)[:1] == ["Summoned Skull"] and "Book of Moon" in names(duel.players[1].gy)
    assert names(duel.monsters()) == ["Blue-Eyes White Dragon", "Vorse Raider"] and duel.players[1].lp == 8000
    assert _verdict(s) == (None, "last-turn")


def test_the_summoned_monster_may_attack_again_in_the_turns_own_battle_phase() -> None:
    s = play(_board("Mystical Elf:def"), ["1 phase battle", ACTIVATE, "1 choose Vorse Raider", "1 phase battle"])
    assert "1 attack Vorse Raider@1M1 -> Mystical Elf@0M1" in s.legal_texts()
    play(s, ["1 attack Vorse Raider@1M1 -> Mystical Elf@0M1"])
    assert s.duel.players[1].lp == 8000 - 100  # an ordinary battle: its damage counts


@pytest.mark.parametrize("kept, winner", [("Blue-Eyes White Dragon", 0), ("Mystical Elf", 1)])
def test_two_last_turns_in_one_chain_each_summon_and_battle_in_turn(kept: str, winner: int) -> None:
    """No Goat-era ruling covers two Last Turns in one chain (goatfmt.com's Last
    Turn FAQs; docs/yugioh.md): each resolved Last Turn sets up its own Summon
    and special Battle Phase, after the whole chain, in the order the links
    resolved; one whose kept monster is gone Summons and does not attack; the
    End Phase check is one."""
    s = scenario("goat", turn_player=1,
                 p0={"lp": 1000, "monsters": [kept], "spells": ["Last Turn", "Last Turn"], "hand": ["Sangan"]},
                 p1={"monsters": ["Summoned Skull"], "deck": ["Vorse Raider", "Pot of Greed", "Giant Soldier of Stone"]})
    play(s, ["1 phase end", ACTIVATE, "0 activate Last Turn@0S2"])
    assert s.legal_texts() == ["1 choose Giant Soldier of Stone", "1 choose Vorse Raider"]
    play(s, ["1 choose Vorse Raider"])   # the second link's (it resolved first), then the first's
    duel = s.duel
    assert s.legal_texts() == ["1 choose Giant Soldier of Stone"] and duel.players[0].lp == 1000
    play(s, ["1 choose Giant Soldier of Stone"])
    if winner == 0:   # Blue-Eyes beat both, one battle each
        assert names(duel.players[1].gy)[-2:] == ["Vorse Raider", "Giant Soldier of Stone"]
    else:             # Vorse Raider destroyed Mystical Elf: Giant Soldier of Stone is Summoned, attacks nothing
        assert names(duel.players[1].monsters) == ["Vorse Raider", "Giant Soldier of Stone"]
        assert "Mystical Elf" in names(duel.players[0].gy)
    assert duel.players[0].lp == 1000 and duel.players[1].lp == 8000 and duel.phase == "main1"
    assert _verdict(s) == (winner, "last-turn")


def test_activated_in_the_end_phase_the_check_follows_at_once() -> None:
    s = play(_board("Blue-Eyes White Dragon"), ["1 phase end", "0 pass", ACTIVATE, "1 choose Vorse Raider"])
    assert s.is_terminal() and (s.results[0]["winner"], s.results[0]["reason"]) == (0, "last-turn")


@pytest.mark.parametrize("deck, hand", [(["Pot of Greed", "Chaos Sorcerer"], []),        # nothing to summon
                                        (["Vorse Raider", "Pot of Greed"], ["Scapegoat"])])  # Scapegoat's lock
def test_activated_in_the_end_phase_with_nothing_summoned_the_check_follows_at_once(
        deck: list[str], hand: list[str]) -> None:
    # The check is the End Phase's, whether or not a monster came and battled: without
    # a summon the duel went on into the next turn, the check never made.
    s = _board("Blue-Eyes White Dragon", deck=deck, hand=hand)
    if hand:
        play(s, ["1 activate Scapegoat", "0 pass", "0 pass"])
    play(s, ["1 phase end", "0 pass", ACTIVATE])
    assert "1 Special Summons no monster for Last Turn" in [e.text for e in s.duel.log]
    assert s.is_terminal() and (s.results[0]["winner"], s.results[0]["reason"]) == (0, "last-turn")


def test_a_kept_monster_revived_by_call_of_the_haunted_goes_with_its_call() -> None:
    # Last Turn sends Call of the Haunted to the Graveyard: Call destroys its monster,
    # seat 0 keeps nothing, seat 1's monster stands alone at the End Phase.
    s = scenario("goat", turn_player=1,
                 p0={"lp": 1000, "monsters": ["Blue-Eyes White Dragon"], "spells": ["Last Turn", "Call of the Haunted:up"]},
                 p1={"deck": ["Vorse Raider", "Giant Soldier of Stone"]})
    s.duel.players[0].spells[1].linked = s.duel.players[0].monsters[0]
    s.duel.players[0].spells[1].linked_stamp = s.duel.players[0].monsters[0].stamp
    play(s, ["1 phase end", ACTIVATE, "1 choose Vorse Raider"])
    assert not s.duel.monsters(0) and names(s.duel.monsters(1)) == ["Vorse Raider"]
    assert _verdict(s) == (1, "last-turn")


# ------------------------------------------------------------------ whole matches
LAST_TURN_DECK = (["Last Turn"] * 2 + ["Vorse Raider", "Mystical Elf", "Giant Soldier of Stone", "Blade Knight",
                                          "Spirit Reaper", "Night Assailant", "Sangan", "Book of Moon",
                                          "Mystical Space Typhoon", "Sakuretsu Armor"] * 3
                  + ["Scapegoat", "Mirror Force", "Call of the Haunted", "Chaos Sorcerer", "Summoned Skull",
                     "Exiled Force", "Jinzo", "Dekoichi the Battlechanted Locomotive"])


def _random_duel_with_last_turn(seed: int) -> Any:
    """A single duel at 1000 LP (Last Turn is live from the start) between two lists
    with Last Turn, with open lists; not started yet."""
    from goat.games.yugioh import DeckList, YugiohState, make_rules

    deck = DeckList(tuple(LAST_TURN_DECK))
    return YugiohState(make_rules("goat", {"starting_lp": 1000, "banlist": "none", "open_decklists": True}),
                       (deck, deck), single_duel=True, seed=seed)


def test_random_duels_with_last_turn_end_replay_and_resample() -> None:
    """Random duels: every one ends and replays from its record; some end by Last Turn;
    worlds drawn at the steps after a Last Turn resolved (the Deck search, the summon, a
    "nofind" glimpse) give exactly the seat's view."""
    import json
    import random

    from goat.games.yugioh import record_from_state, sample_world
    from goat.records import check_result, replay

    from .invariants import check_invariants

    reasons, drawn = set(), 0
    for seed in range(12):
        state, rng = _random_duel_with_last_turn(seed), random.Random(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_chance(state.sample_chance(rng))
            else:
                actions = state.legal_texts()
                state.apply_action(actions[rng.randrange(len(actions))])
            resolved = state.duel is not None and any(e.text.endswith("resolves: Last Turn") for e in state.duel.log)
            if resolved and not state.is_terminal() and drawn < 40 and rng.random() < 0.5:
                for seat in (0, 1):
                    view = json.loads(json.dumps(state.view(seat)))
                    world = sample_world(view, random.Random(drawn))
                    assert json.dumps(world.view(seat), sort_keys=True) == json.dumps(view, sort_keys=True)
                    drawn += 1
        check_invariants(state)
        reasons.add(state.results[0]["reason"])
        record = json.loads(json.dumps(record_from_state(state)))
        check_result(record, replay(record))
    assert "last-turn" in reasons and drawn, (reasons, drawn)  # seeds 0-11 have both


def test_greedy_keeps_its_strongest_monster() -> None:
    from goat.bots.yugioh import YugiohGreedyBot

    s = scenario("goat", turn_player=1,
                 p0={"lp": 1000, "monsters": ["Mystical Elf", "Blue-Eyes White Dragon", "Sangan"],
                     "spells": ["Last Turn"]}, p1={"monsters": ["Summoned Skull"]})
    play(s, ["1 phase end", ACTIVATE])
    assert s.pending().seat == 0 and s.pending().prompt == "keep which monster?"
    picks = {str(YugiohGreedyBot(seed).choose(s.view(0))) for seed in range(5)}
    assert picks == {"0 choose Blue-Eyes White Dragon@0M2"}
