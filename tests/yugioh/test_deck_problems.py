"""Deck problems by kind: each refusal of a deck names its kind of
``DECK_PROBLEMS`` and the arguments a page words it with, and its English
line is made from them — the same line as before problems had kinds (the CLI,
records and programs read that line; the browser the kind)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from goat.games.yugioh import DeckError, DeckList, builtin_deck, check_deck, make_rules, parse_ydk, seat_data_from_json
from goat.games.yugioh import deck as deck_module
from goat.games.yugioh.deck import DECK_PROBLEMS, DeckProblem, deck_problems, read_ydk
from goat.games.yugioh.prompts import JOINS, template_fields

GOAT = make_rules("goat")
BASE = builtin_deck()      # Goat Control: 40 main, Thousand-Eyes Restrict, 15 side; legal


def with_main(*extra: str, drop: int = 0) -> DeckList:
    return DeckList(BASE.main[drop:] + extra, BASE.fusion, BASE.side)


def refusal(obj: Any, options: dict[str, Any] | None = None) -> DeckError:
    """The error the table's check (the server's path) raises for ``obj``."""
    with pytest.raises(DeckError) as refused:
        seat_data_from_json("goat", options or {}, obj)
    return refused.value


def kinds(exc: DeckError) -> list[tuple[str, dict[str, Any]]]:
    return [(p.kind, p.args) for p in exc.problems]


# A .ydk text for each kind a line can have, the line it is on, the English line.
YDK_LINES = [
    ("#main\nSangan\nBlue Eyes\n", ("unknownCard", {"card": "Blue Eyes", "line": 3}),
     "the deck line 3: unknown card 'Blue Eyes'"),
    ("#main\nSangan\nThousand Eyes Restrict\n",     # a mistyped name says the card it most likely means
     ("unknownCardLike", {"card": "Thousand Eyes Restrict", "like": "Thousand-Eyes Restrict", "line": 3}),
     "the deck line 3: unknown card 'Thousand Eyes Restrict' (did you mean Thousand-Eyes Restrict?)"),
    ("#main\nmystic space typhoon\n", ("unknownCardLike", {"card": "mystic space typhoon",
                                                            "like": "Mystical Space Typhoon", "line": 2}),
     "the deck line 2: unknown card 'mystic space typhoon' (did you mean Mystical Space Typhoon?)"),
    ("#main\nraigeki\n", ("forbiddenCard", {"card": "Raigeki", "line": 2}),
     "the deck line 2: Raigeki is Forbidden in the Goat Format"),
    ("#created\n#main\n89631139\n", ("passcode", {"line": 3}),
     "the deck line 3: passcodes are not supported, write the card name"),
]


@pytest.mark.parametrize("text, problem, line", YDK_LINES)
def test_a_bad_line_names_its_kind_card_and_line(text: str, problem: tuple[str, dict[str, Any]], line: str) -> None:
    exc = refusal(text)
    assert str(exc) == line
    assert kinds(exc) == [problem]


def test_parse_gives_the_first_bad_line_read_gives_them_all() -> None:
    text = "#main\nBlue Eyes\nRaigeki\n89631139\n"
    with pytest.raises(DeckError) as first:
        parse_ydk(text, "my.ydk")
    assert str(first.value) == "my.ydk line 2: unknown card 'Blue Eyes'"
    assert kinds(first.value) == [("unknownCard", {"card": "Blue Eyes", "line": 2})]
    _, problems = read_ydk(text, "my.ydk")
    assert [(p.kind, p.args["line"]) for p in problems] == [("unknownCard", 2), ("forbiddenCard", 3), ("passcode", 4)]
    assert problems[1].text == "my.ydk line 3: Raigeki is Forbidden in the Goat Format"


LEGALITY = [
    (with_main(drop=3), ("mainTooSmall", {"count": 37, "min": 40}), "the main deck has 37 cards (at least 40)"),
    (DeckList(BASE.main, BASE.fusion, BASE.side[:4]), ("sideSize", {"count": 4, "sizes": [0, 15]}),
     "the side deck has 4 cards (0 or 15 allowed)"),
    (with_main("Thousand-Eyes Restrict"), ("fusionInMain", {"card": "Thousand-Eyes Restrict"}),
     "Thousand-Eyes Restrict belongs in the Fusion Deck"),
    (DeckList(BASE.main, ("Mystical Elf",), BASE.side), ("notFusion", {"card": "Mystical Elf"}),
     "Mystical Elf is not a Fusion monster"),
    (with_main("Sinister Serpent", "Sinister Serpent"), ("limitedCopies", {"count": 3, "card": "Sinister Serpent"}),
     "3 copies of Sinister Serpent (Limited)"),
    (with_main("Nobleman of Crossout"), ("semiLimitedCopies", {"count": 3, "card": "Nobleman of Crossout"}),
     "3 copies of Nobleman of Crossout (Semi-limited)"),
    (with_main("Scapegoat"), ("tooManyCopies", {"count": 4, "card": "Scapegoat", "max": 3}),
     "4 copies of Scapegoat (at most 3)"),
]


@pytest.mark.parametrize("deck, problem, text", LEGALITY)
def test_each_legality_problem_names_its_kind_and_args(deck: DeckList, problem: tuple[str, dict[str, Any]],
                                                       text: str) -> None:
    found = deck_problems(deck, GOAT)
    assert [(p.kind, p.args) for p in found] == [problem]
    assert [p.text for p in found] == [text]
    exc = refusal(deck.to_json())           # through the table's check: the same kind, the one line
    assert kinds(exc) == [problem] and str(exc) == f"the deck is not legal: {text}"


def test_a_forbidden_card_of_the_pool_is_a_forbidden_copies_problem(monkeypatch: pytest.MonkeyPatch) -> None:
    """No card of today's pool is Forbidden in April 2005; one that is would be
    refused by its own kind, not as "at most 0"."""
    monkeypatch.setitem(deck_module.BANLIST, "Scapegoat", 0)
    found = deck_problems(BASE, GOAT)
    assert [(p.kind, p.args, p.text) for p in found] == [
        ("forbiddenCopies", {"count": 3, "card": "Scapegoat"}, "3 copies of Scapegoat (Forbidden)")]


def test_the_rules_limit_without_the_list_is_too_many_copies() -> None:
    """With ``banlist=none`` a Limited card is only held to ``max_copies``."""
    rules = make_rules("goat", {"banlist": "none", "max_copies": 2})
    found = deck_problems(with_main("Sinister Serpent", "Sinister Serpent"), rules)
    assert [(p.kind, p.args) for p in found if p.args["card"] == "Sinister Serpent"] == [
        ("tooManyCopies", {"count": 3, "card": "Sinister Serpent", "max": 2})]


def test_several_problems_are_all_named_in_the_order_of_the_line() -> None:
    deck = DeckList(BASE.main[1:] + ("Sinister Serpent",) * 3, BASE.fusion, BASE.side[:1])
    with pytest.raises(DeckError) as refused:
        check_deck(deck, GOAT, "seat 1's deck")
    exc = refused.value
    assert [p.kind for p in exc.problems] == ["sideSize", "limitedCopies"]
    assert str(exc) == ("seat 1's deck is not legal: the side deck has 1 cards (0 or 15 allowed); "
                        "4 copies of Sinister Serpent (Limited)")


JSON_SHAPES = [
    (42, ("notDeck", {}), "a deck is .ydk text or an object of main, fusion and side card name lists"),
    ({"main": "Sangan"}, ("listNotNames", {"list": "main"}), 'deck "main" must be a list of card names'),
    ({"main": [], "extra": []}, ("noSuchList", {"name": "extra"}),
     "a deck has no list 'extra' (its lists: main, fusion, side)"),
    ({"main": ["Blue Eyes"]}, ("unknownCard", {"card": "Blue Eyes"}), "unknown card 'Blue Eyes'"),
]


@pytest.mark.parametrize("obj, problem, line", JSON_SHAPES)
def test_a_deck_of_the_wrong_shape_names_its_kind(obj: Any, problem: tuple[str, dict[str, Any]], line: str) -> None:
    exc = refusal(obj)
    assert kinds(exc) == [problem] and str(exc) == line


def test_a_deck_that_is_no_object_names_its_kind() -> None:
    with pytest.raises(DeckError) as refused:
        DeckList.from_json(["Sangan"])
    assert kinds(refused.value) == [("notDeckShape", {})]
    assert str(refused.value) == "a deck must be an object with main, fusion and side lists"


def test_a_problem_takes_exactly_its_templates_arguments() -> None:
    """The English text names every argument and the page is sent no other
    (but the line a problem was read at)."""
    with pytest.raises(ValueError, match="unknown deck problem"):
        DeckProblem.of("noSuchKind")
    with pytest.raises(ValueError, match="takes"):
        DeckProblem.of("unknownCard", card="X", extra=1)
    assert all(kind[0].islower() and kind.isalnum() for kind in DECK_PROBLEMS)
    for kind, template in DECK_PROBLEMS.items():
        args = {name: [1] if name in JOINS else 1 for name in template_fields(template)}
        assert DeckProblem.of(kind, **args).args == args


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(sorted(set(BASE.main)) + ["Thousand-Eyes Restrict", "Sinister Serpent"]),
                max_size=45),
       st.lists(st.sampled_from(sorted(set(BASE.side))), max_size=16))
def test_the_line_is_the_problems_texts_joined(main: list[str], side: list[str]) -> None:
    """For any deck the one line is the texts of its problems, each made from its kind and args."""
    deck = DeckList(tuple(main), BASE.fusion, tuple(side))
    problems = deck_problems(deck, GOAT)
    for p in problems:
        assert p == DeckProblem.of(p.kind, **p.args)
    try:
        check_deck(deck, GOAT)
    except DeckError as exc:
        assert exc.problems == tuple(problems)
        assert str(exc) == "deck is not legal: " + "; ".join(p.text for p in problems)
    else:
        assert problems == []
