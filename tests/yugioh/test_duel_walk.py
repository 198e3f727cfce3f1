"""Defects a Goat Format player met walking whole duels (terminal and table)."""

from __future__ import annotations

from goat.games.yugioh.scenario import play, scenario


def test_book_of_moon_never_turns_a_sheep_token_face_down() -> None:
    """A Token is always face up: Book of Moon offers only real monsters, and
    with nothing but Sheep Tokens face up it cannot be activated at all (a
    face-down Sheep Token was then Flip Summoned in a walked duel)."""
    s = scenario(p0={"hand": ["Book of Moon"], "monsters": ["Mystical Elf"]},
                 p1={"monsters": ["Sheep Token:def", "Vorse Raider"]})
    play(s, ["0 activate Book of Moon"])
    assert s.pending().prompt == "turn which monster face-down?"
    assert s.legal_texts() == ["0 choose Mystical Elf@0M1", "0 choose Vorse Raider@1M2"]
    only_tokens = scenario(p0={"hand": ["Book of Moon"]}, p1={"monsters": ["Sheep Token:def", "Sheep Token"]})
    assert "0 activate Book of Moon" not in only_tokens.legal_texts()


def test_tsukuyomi_turns_no_sheep_token_face_down() -> None:
    """Tsukuyomi's trigger with only Sheep Tokens beside it: its one target is
    itself, and the tokens stay face up."""
    s = scenario(p0={"hand": ["Tsukuyomi"]}, p1={"monsters": ["Sheep Token:def", "Sheep Token:def"]})
    play(s, ["0 summon Tsukuyomi"])
    assert not s.duel.players[0].monsters[0].face_up
    assert all(c.face_up for c in s.duel.monsters(1)) and len(s.duel.monsters(1)) == 2
