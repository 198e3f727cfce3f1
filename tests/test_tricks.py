"""The shared trick-taking helpers in ``goat.games.tricks.core``: seating,
drawing from a stock, and the follow rule — and in ``order``, ``deals`` and
``views`` the card order, deal reading and view hiding Kozel and Spades share.
Every trick game relies on these, so each is pinned here with hand-worked cases."""

from __future__ import annotations

import pytest

from goat.cards import parse_cards
from goat.games.tricks import (
    TablePlay,
    check_dealt_cards,
    play_view,
    read_hands,
    simple_order,
    trick_winner,
    visible_history,
)
from goat.games.tricks.core import clockwise, draw_to, left_of, must_follow
from goat.protocol import Action, InvalidChanceError


@pytest.mark.parametrize("seat, players, steps, expected", [
    (0, 4, 1, 1), (3, 4, 1, 0), (2, 4, 2, 0), (1, 3, 2, 0), (1, 2, 1, 0), (0, 4, 4, 0), (3, 4, 5, 0),
])
def test_left_of(seat: int, players: int, steps: int, expected: int) -> None:
    assert left_of(seat, players, steps) == expected


def test_clockwise_starts_at_start_and_visits_everyone_once() -> None:
    assert clockwise(0, 4) == [0, 1, 2, 3]
    assert clockwise(2, 4) == [2, 3, 0, 1]
    assert clockwise(2, 3) == [2, 0, 1]
    assert clockwise(1, 2) == [1, 0]


def test_draw_to_one_card_at_a_time_from_first_seat() -> None:
    hands: list[list[str]] = [[], [], [], []]
    stock = list("abcdefghij")
    draws = draw_to(hands, stock, first=2, hand_size=2)
    assert draws == [(2, "a"), (3, "b"), (0, "c"), (1, "d"),
                     (2, "e"), (3, "f"), (0, "g"), (1, "h")]
    assert hands == [["c", "g"], ["d", "h"], ["a", "e"], ["b", "f"]]
    assert stock == ["i", "j"]


def test_draw_to_stops_when_stock_runs_out() -> None:
    hands = [["x"], ["y"], ["z"], ["w"]]
    stock = ["a", "b"]
    draws = draw_to(hands, stock, first=3, hand_size=4)
    assert draws == [(3, "a"), (0, "b")]
    assert hands == [["x", "b"], ["y"], ["z"], ["w", "a"]]
    assert stock == []


def test_draw_to_skips_full_hands_and_leaves_stock_when_all_full() -> None:
    hands = [[1, 2], [3], [], [4, 5]]
    stock = [10, 11, 12, 13, 14]
    draws = draw_to(hands, stock, first=0, hand_size=2)
    assert draws == [(1, 10), (2, 11), (2, 12)]
    assert hands == [[1, 2], [3, 10], [11, 12], [4, 5]]
    assert stock == [13, 14]


def test_draw_to_with_empty_stock_draws_nothing() -> None:
    hands = [[], []]
    assert draw_to(hands, [], 0, 4) == []
    assert hands == [[], []]


def test_must_follow_uses_effective_suit() -> None:
    hand = ["7H", "JH", "9S", "QD"]

    def suit_of(c: str) -> str:  # jacks and queens are trumps, as in classic
        return "trump" if c[0] in "JQ" else c[1]

    assert must_follow(hand, "H", suit_of) == ["7H"]
    assert must_follow(hand, "trump", suit_of) == ["JH", "QD"]
    assert must_follow(hand, "C", suit_of) == []


# ------------------------------------------------ shared order, deals, views


def test_trick_winner_trump_beats_plain_and_off_suit_never_wins() -> None:
    deck = parse_cards("2S 3S 9H KH AH AD")
    order = simple_order(deck, trumps=parse_cards("2S 3S"), trump_suit="S")
    assert trick_winner(list(parse_cards("9H AD KH")), order) == 2       # AD is off suit
    assert trick_winner(list(parse_cards("9H 2S AH 3S")), order) == 3    # the higher trump


def test_read_hands_and_check_dealt_cards_name_the_problem() -> None:
    with pytest.raises(InvalidChanceError, match='must name seats 0, 1'):
        read_hands({"hands": {"0": ["2S"]}}, 2)
    with pytest.raises(InvalidChanceError, match="seat 1's hand must be a list of card strings"):
        read_hands({"hands": {"0": ["2S"], "1": "2S"}}, 2)
    deck = parse_cards("2S 3S 4S 5S")
    with pytest.raises(InvalidChanceError, match="card 2S is dealt twice"):
        check_dealt_cards([parse_cards("2S 3S"), parse_cards("2S 4S")], (), deck, 2, "test")
    with pytest.raises(InvalidChanceError, match="card AH in seat 0's hand is not in the 4-card deck"):
        check_dealt_cards([parse_cards("AH 3S"), parse_cards("5S 4S")], (), deck, 2, "test")
    assert check_dealt_cards([parse_cards("2S 3S"), parse_cards("5S 4S")], (), deck, 2, "test") == set(deck)


def test_visible_history_hides_private_cards_and_pending_gives() -> None:
    actions = [Action.parse("0 give QD"), Action.parse("2 give 3C"), Action.parse("1 play 9H")]
    private = [frozenset({0, 2}), frozenset({0, 2}), None]
    assert visible_history(actions, private, 1) == ["0 give ?", "2 give ?", "1 play 9H"]
    assert visible_history(actions, private, 0) == ["0 give QD", "2 give 3C", "1 play 9H"]
    # while seat 0's give is pending, its partner does not see it yet
    assert visible_history(actions, private, 2, pending_from=[0, 2]) == ["0 give ?", "2 give 3C", "1 play 9H"]
    assert visible_history(actions, private, None) == ["0 give ?", "2 give ?", "1 play 9H"]


def test_play_view_shows_a_face_down_pass_only_to_the_passer() -> None:
    play = TablePlay(1, "pass", parse_cards("6C 7D"))
    assert play_view(play, 1) == {"seat": 1, "verb": "pass", "cards": ["6C", "7D"]}
    assert play_view(play, 2) == {"seat": 1, "verb": "pass", "count": 2}
