"""Goat rule 16: a voluntary action that would create an infinite loop is
illegal; a loop nobody chose destroys the card that causes it.

No card of the pool can loop, so these tests register a TEST-ONLY card,
"Test Pole (test-only)", shaped like Pole Position (Continuous Trap: the one
face-up monster with strictly the highest ATK is unaffected by Spell cards).
It exists only inside this module's fixture and is never in the database."""

from __future__ import annotations

import pytest

from goat.games.yugioh.cards import continuous, data
from goat.games.yugioh.scenario import names, play, scenario

TEST_POLE = "Test Pole (test-only)"


def _highest_unaffected(duel, source, stats):
    if not stats:
        return frozenset()
    top = max(stats.values())
    leaders = [m for m, atk in stats.items() if atk == top]
    return frozenset(leaders) if len(leaders) == 1 else frozenset()


@pytest.fixture(autouse=True)
def pole_card(monkeypatch: pytest.MonkeyPatch) -> None:
    card = data.CardData(TEST_POLE, "trap", "continuous",
                         "TEST-ONLY: the face-up monster with the highest ATK is unaffected by Spell cards.")
    monkeypatch.setitem(data.DATABASE, TEST_POLE, card)
    monkeypatch.setitem(data._FOLDED, TEST_POLE.casefold(), card)
    monkeypatch.setitem(continuous.SPELL_IMMUNITY, TEST_POLE, _highest_unaffected)


def _board(rules: str):
    # Vorse Raider (DARK 1900) with Mystic Plasma Zone: 2400 > Warwolf's 2000, so it
    # leads, so it loses the Field Spell's +500, so 1900 < 2000, so it does not lead ...
    return scenario(rules, p0={"hand": ["Vorse Raider"], "monsters": ["Gene-Warped Warwolf"],
                               "spells": ["Mystic Plasma Zone:up", f"{TEST_POLE}:up"]})


def test_goat_a_summon_that_would_loop_is_illegal() -> None:
    s = _board("goat")
    assert "0 summon Vorse Raider" not in s.legal_texts()
    assert "0 set Vorse Raider" in s.legal_texts()  # face down: no ATK, no loop
    play(s, ["0 set Vorse Raider"])
    s.duel.turn += 1  # a later turn: the Set monster may be Flip Summoned ... but not into a loop
    s.refresh()
    assert not any(a.startswith("0 flip") for a in s.legal_texts())


def test_official_the_summon_is_allowed_and_the_loop_destroys_its_cause() -> None:
    s = _board("official")
    play(s, ["0 summon Vorse Raider"])
    duel = s.duel
    assert TEST_POLE in names(duel.players[0].gy)
    vorse = next(c for c in duel.monsters() if c.name == "Vorse Raider")
    assert duel.atk(vorse) == 2400


def test_without_the_field_spell_there_is_no_loop() -> None:
    s = scenario("goat", p0={"hand": ["Vorse Raider"], "monsters": ["Gene-Warped Warwolf"],
                             "spells": [f"{TEST_POLE}:up"]})
    play(s, ["0 summon Vorse Raider"])
    assert TEST_POLE in names(s.duel.players[0].spells)


@pytest.mark.parametrize("rules", ["goat", "official"])
def test_an_involuntary_loop_destroys_the_card_that_causes_it(rules: str) -> None:
    # Blade Knight (Warrior 1600, +400 with one card or none in hand) and Sogen (+200)
    # against Asura Priest (1700): with one card in hand Blade Knight leads without
    # Sogen (2000); the Draw Phase's draw makes two cards, and the lead flips forever.
    s = scenario(rules, phase="draw", p0={"hand": ["Mystical Elf"], "monsters": ["Blade Knight"],
                                          "spells": ["Sogen:up", f"{TEST_POLE}:up"]},
                 p1={"monsters": ["Asura Priest"]})
    duel = s.duel
    assert TEST_POLE in names(duel.players[0].gy)
    knight = next(c for c in duel.monsters() if c.name == "Blade Knight")
    assert duel.atk(knight) == 1800 and len(duel.players[0].hand) == 2
