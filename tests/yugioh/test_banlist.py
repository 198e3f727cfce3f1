"""The April 2005 (Goat Format) Forbidden/Limited list, as sourced in ``deck.py``."""

from __future__ import annotations

import pytest

from goat.games.yugioh import DeckError, DeckList, builtin_deck, make_rules, parse_ydk
from goat.games.yugioh.deck import BANLIST, deck_problems

GOAT = make_rules("goat")


def with_copies(name: str, copies: int) -> DeckList:
    base = [n for n in builtin_deck().main if n != name]
    filler = ["Mystical Elf"] * 3 + ["Giant Soldier of Stone"] * 3 + ["Vorse Raider"] * 3
    main = base[: 40 - copies] + [name] * copies
    while len(main) < 40:
        main.append(filler.pop())
    return DeckList(tuple(main))


@pytest.mark.parametrize("name, allowed", [
    ("D.D. Warrior Lady", 1),        # newly Limited in April 2005
    ("Sangan", 1), ("Graceful Charity", 1), ("Delinquent Duo", 1), ("Mirror Force", 1),  # back from Forbidden
    ("Nobleman of Crossout", 2),
    ("Magician of Faith", 3), ("Metamorphosis", 3), ("Scapegoat", 3), ("Book of Moon", 3),  # unlimited then
])
def test_copies_allowed(name: str, allowed: int) -> None:
    assert not deck_problems(with_copies(name, allowed), GOAT)
    if allowed < 3:
        problems = deck_problems(with_copies(name, allowed + 1), GOAT)
        assert any(name in p.text and ("Limited" in p.text or "Semi-limited" in p.text) for p in problems), problems
    assert not deck_problems(with_copies(name, min(3, allowed + 1)), make_rules("goat", {"banlist": "none"}))


def test_thousand_eyes_restrict_is_unlimited() -> None:
    deck = builtin_deck()
    two = DeckList(deck.main, ("Thousand-Eyes Restrict",) * 2, deck.side)
    assert not deck_problems(two, GOAT)


@pytest.mark.parametrize("name", ["Confiscation", "Change of Heart", "Dark Hole", "Yata-Garasu", "Fiber Jar"])
def test_forbidden_cards_are_refused_by_name(name: str) -> None:
    with pytest.raises(DeckError, match=f"{name} is Forbidden"):
        parse_ydk(f"#main\n{name}\n")


def test_list_shape() -> None:
    statuses = list(BANLIST.values())
    assert (statuses.count(0), statuses.count(1), statuses.count(2)) == (17, 41, 15)
    assert BANLIST["Cyber Jar"] == 1 and "Magician of Faith" not in BANLIST


def test_shipped_deck_is_legal() -> None:
    assert not deck_problems(builtin_deck(), GOAT)
