"""The shared trick-taking helpers in ``goat.games.tricks.core``: seating,
drawing from a stock, and the follow rule. Every trick game relies on these, so
each is pinned here with hand-worked cases."""

from __future__ import annotations

import pytest

from goat.games.tricks.core import clockwise, draw_to, left_of, must_follow


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
