"""Kozel scoring: card points, deal results, penalty points ("eyes") and the match.

>>> deal_penalty(make_rules("street"), points=[90, 30], tricks=[7, 1])
DealScore(penalty=[0, 4], winner_team=0, tie=False)
>>> match_losers(make_rules("full-hand", players=3), [12, 12, 6])
[0, 1]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from goat.cards import Card
from goat.games.kozel.rules import CARD_POINTS, KozelRules, make_rules  # noqa: F401 (doctest)


def card_points(cards: Iterable[Card]) -> int:
    """Sum of Kozel card points: J=2, Q=3, K=4, T=10, A=11, the rest 0."""
    return sum(CARD_POINTS[c.rank] for c in cards)


@dataclass
class DealScore:
    penalty: list[int]
    winner_team: int | None
    tie: bool


def graded_penalty(points: int, tricks: int) -> int:
    """Street's graded penalty for a losing side: 2 if it took 31–59 points,
    4 if 30 or fewer but at least one trick, 6 if no trick at all."""
    if tricks == 0:
        return 6
    if points <= 30:
        return 4
    return 2


def deal_penalty(rules: KozelRules, points: list[int], tricks: list[int]) -> DealScore:
    """Penalty points of a deal played to the end.

    The side with more than 60 points wins; every other side is penalised
    (``flat2``: 2 points; ``graded``: 2/4/6). When no side has more than 60 (60–60,
    "eggs"), ``tie`` is true and nobody is penalised here; the caller applies the
    ``tie`` and ``eggs`` options.
    """
    sides = len(points)
    winners = [s for s in range(sides) if points[s] > 60]
    if not winners:
        return DealScore([0] * sides, None, True)
    winner = winners[0]
    penalty = [0] * sides
    for side in range(sides):
        if side == winner:
            continue
        penalty[side] = graded_penalty(points[side], tricks[side]) if rules.penalty == "graded" else 2
    return DealScore(penalty, winner, False)


def match_losers(rules: KozelRules, penalty_total: list[int]) -> list[int]:
    """The sides that lose the match ("the goat") at these penalty totals; empty
    while no side has reached ``match_target``.

    The rules say only "the first to reach 12 loses". With partnerships (and with
    2 players) one side is penalised per deal, so one side reaches the target first.
    With 3 players the two losers of a deal are penalised together and may reach it
    together: the [decision] option ``match_loser`` says who is the goat then —
    ``"most-penalty"`` (who went further; level players are goats together) or
    ``"all-at-target"`` (everyone who reached it).

    >>> solo = make_rules("full-hand", players=3)
    >>> match_losers(solo, [13, 12, 4]), match_losers(solo, [10, 10, 4])
    ([0], [])
    >>> match_losers(make_rules("full-hand", players=3, options={"match_loser": "all-at-target"}), [13, 12, 4])
    [0, 1]
    """
    target = rules.match_target
    if max(penalty_total) < target:
        return []
    bar = max(penalty_total) if rules.match_loser == "most-penalty" else target
    return [side for side, total in enumerate(penalty_total) if total >= bar]
