"""The card notation shared by every game (``shared/rules/kozel.md``, "Notation",
and ``spades.md``): ranks ``2 3 4 5 6 7 8 9 T J Q K A`` (``10`` accepted as ``T``),
suits ``C D H S`` (the symbols ``♣ ♦ ♥ ♠`` accepted on input), and the jokers
``LJ``/``BJ`` of Spades' joker-trumps variant."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from goat.cards import HIGH_RANKS, RANKS, SUITS, Card, CardSyntaxError, format_cards, make_deck, parse_cards

ALL = make_deck(RANKS)
JOKERS = (Card.parse("LJ"), Card.parse("BJ"))


def test_notation_has_52_cards_two_to_ace_in_four_suits() -> None:
    assert RANKS == "23456789TJQKA" and SUITS == "CDHS"
    assert len(ALL) == 52 and len(set(ALL)) == 52


def test_indices_are_dense_and_six_to_ace_keep_0_to_35() -> None:
    # Kozel's bitmask kernels index the 36 cards six to ace as suit * 9 + rank.
    for card in make_deck(HIGH_RANKS):
        assert card.index == SUITS.index(card.suit) * 9 + HIGH_RANKS.index(card.rank)
    assert sorted(c.index for c in (*ALL, *JOKERS)) == list(range(54))


def test_jokers_parse_name_and_round_trip() -> None:
    little, big = JOKERS
    assert str(little) == "LJ" and str(big) == "BJ"
    assert Card.parse("bj") is big and little.is_joker and not Card.parse("JS").is_joker
    assert big.name() == "big joker" and big.symbol() == "BJ"
    with pytest.raises(CardSyntaxError):
        Card.parse("JJ")


@pytest.mark.parametrize("text, expected", [
    ("7C", "7C"), ("QS", "QS"), ("TH", "TH"),
    ("10H", "TH"), ("10h", "TH"),             # 10 is accepted as T
    ("qc", "QC"), ("th", "TH"), ("aS", "AS"), # lowercase
    ("Q♣", "QC"), ("10♥", "TH"), ("7♦", "7D"), ("A♠", "AS"),  # suit symbols
    ("  KD ", "KD"),                           # surrounding blanks
])
def test_parse_accepted_spellings(text: str, expected: str) -> None:
    c = Card.parse(text)
    assert str(c) == expected
    assert c.rank == expected[0] and c.suit == expected[1]


@pytest.mark.parametrize("card", ALL, ids=str)
def test_round_trip_text_and_symbol(card: Card) -> None:
    assert Card.parse(str(card)) is card
    assert Card.parse(card.symbol()) is card
    assert Card.parse(str(card).lower()) is card


def test_symbol_uses_suit_glyph_and_keeps_t() -> None:
    assert Card.parse("QC").symbol() == "Q♣"
    assert Card.parse("10D").symbol() == "T♦"


@pytest.mark.parametrize("text", [
    "", "   ", "Q", "C", "1H", "11H", "0H", "QX", "QQC", "ZC", "1C", "10", "♣Q", "Q C", "QC+", "AJ", "XJ",
])
def test_bad_card_text_is_refused_with_one_line_message(text: str) -> None:
    with pytest.raises(CardSyntaxError) as info:
        Card.parse(text)
    message = str(info.value)
    assert "\n" not in message and message
    if text.strip():
        assert repr(text) in message  # the offending text is quoted


@pytest.mark.parametrize("value", [None, 7, ("Q", "C")])
def test_non_string_is_refused(value: object) -> None:
    with pytest.raises(CardSyntaxError):
        Card.parse(value)  # type: ignore[arg-type]


def test_constructor_refuses_bad_rank_or_suit() -> None:
    with pytest.raises(CardSyntaxError):
        Card("1", "C")
    with pytest.raises(CardSyntaxError):
        Card("Q", "X")


def test_cards_are_interned_and_immutable() -> None:
    assert Card.parse("QC") is Card("Q", "C") is Card.parse("q♣")
    with pytest.raises(AttributeError):
        Card.parse("QC").rank = "K"  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(Card.parse("TH"))) is Card.parse("TH")


def test_equality_and_hash_follow_identity() -> None:
    assert Card.parse("10S") == Card.parse("TS")
    assert Card.parse("TS") != Card.parse("TH")
    assert len({Card.parse("TS"), Card.parse("10s"), Card.parse("T♠")}) == 1


@pytest.mark.parametrize("text", ["KH+AH", "KH AH", "KH,AH", "kh + ah", "K♥+A♥"])
def test_parse_cards_separators(text: str) -> None:
    assert [str(c) for c in parse_cards(text)] == ["KH", "AH"]


def test_parse_cards_list_and_order_kept() -> None:
    assert [str(c) for c in parse_cards(["10C", "7d", "A♠"])] == ["TC", "7D", "AS"]


@pytest.mark.parametrize("text", ["", "+", " , ", "KH+XX"])
def test_parse_cards_bad_input(text: str) -> None:
    with pytest.raises(CardSyntaxError):
        parse_cards(text)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(ALL), min_size=1, max_size=8))
def test_format_cards_is_inverse_of_parse_cards(cards: list[Card]) -> None:
    text = format_cards(cards)
    assert parse_cards(text) == tuple(cards)
    assert format_cards(cards, sep=" ") == text.replace("+", " ")


def test_display_order_is_stable_not_strength() -> None:
    # Ordering is only for stable display: suit-major C D H S (jokers last), then rank 2..A.
    assert sorted(parse_cards("AS 6C TD 7C 2C BJ LJ 5S")) == list(parse_cards("2C 6C 7C TD 5S AS LJ BJ"))
