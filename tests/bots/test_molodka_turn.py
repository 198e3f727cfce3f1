"""Who the drivers ask for an out-of-turn molodka (street rule 4: of two claims at
the same moment, the one nearer clockwise to the trick's original leader goes
first). The seat to act declares by its own move, so only the seats ranking
before it are asked before it moves; the others are asked at a later position."""

from __future__ import annotations

from typing import Any

from goat.bots import asked_before_turn, next_bot_action, out_of_turn_claim
from goat.bots.base import BaseBot
from goat.protocol import Action
from tests.kozel.conftest import deal_state, play


class Claimer(BaseBot):
    """Declares its first molodka whenever it may, in turn or out of it, and
    notes every out-of-turn question (in ``asked``, shared by the table)."""

    name = "claimer"

    def __init__(self, asked: list[int]) -> None:
        self.asked = asked

    def _molodka(self, view: Any) -> Action | None:
        return next((Action.parse(t) for t in view["legal_actions"] if " molodka " in t), None)

    def choose(self, view: Any) -> Action:
        return self._molodka(view) or Action.parse(view["legal_actions"][0])

    def out_of_turn(self, view: Any) -> Action | None:
        self.asked.append(view["seat"])
        return self._molodka(view)


def claimers() -> tuple[list[Claimer], list[int]]:
    asked: list[int] = []
    return [Claimer(asked) for _ in range(4)], asked


def first_trick(options: dict[str, Any] | None = None):
    """Seat 0 leads 6H; seat 1 (to act), seat 2 and seat 3 hold four of a suit,
    as does seat 0 once the 6H is back in its hand."""
    return deal_state("street", hands={"0": "6H 7H 8H 9H", "1": "6S 7S 8S 9S",
                                       "2": "6D 7D 8D 9D", "3": "6C 7C 8C 9C"},
                      trump_card="TC", dealer=3, options=options, single_deal=True)


def test_the_seat_to_acts_molodka_wins_over_a_later_seats() -> None:
    state = play(first_trick(), "0 play 6H")
    assert state.current_player() == 1
    assert {a.seat for a in state.legal_actions() if a.verb == "molodka"} == {1, 2, 3}
    bots, asked = claimers()
    assert out_of_turn_claim(state, bots) is None
    assert str(next_bot_action(state, bots)) == "1 molodka 6S+7S+8S+9S"
    assert asked == [], "seats 2 and 3 rank after seat 1: they are not asked before seat 1 moves"


def test_a_later_seat_is_asked_once_the_seat_to_act_has_moved() -> None:
    state = play(first_trick(), "0 play 6H", "1 pass 6S")
    assert state.current_player() == 2
    bots, asked = claimers()
    # Seat 2 is now the seat to act: it declares by its own move, no one is asked.
    assert str(next_bot_action(state, bots)) == "2 molodka 6D+7D+8D+9D"
    assert asked == [], "seat 3 ranks after seat 2"


def test_after_a_restart_the_seats_ahead_of_the_seat_to_act_are_asked_first() -> None:
    """``max_molodka_per_trick=2``: seat 1's molodka restarts the trick, seat 2 is
    to act. Counted from the original leader (seat 0), seat 0 ranks before seat 2
    and is asked; seat 3 ranks after it and is not asked yet."""
    state = play(first_trick({"max_molodka_per_trick": 2}), "0 play 6H", "1 molodka 6S+7S+8S+9S")
    assert (state.current_player(), state.trick_opened_by) == (2, 0)
    assert {a.seat for a in state.legal_actions() if a.verb == "molodka"} == {0, 2, 3}
    assert asked_before_turn(state, [0, 3]) == [0]
    bots, asked = claimers()
    assert str(next_bot_action(state, bots)) == "0 molodka 6H+7H+8H+9H"
    assert asked == [0]


def test_without_molodka_priority_every_seat_is_asked() -> None:
    """A state without ``molodka_priority`` (Spades' look): the seats as given."""

    class Plain:
        def current_player(self) -> int:
            return 2

    assert asked_before_turn(Plain(), [3, 0, 3, 1]) == [3, 0, 1]
