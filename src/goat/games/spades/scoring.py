"""Spades scoring: contracts, nils, bags, the variants' bonuses, and the game end.

Pure functions of the bids and tricks, so every rule of ``spades.md``'s scoring
section can be checked by hand:

>>> from goat.games.spades.bids import parse_bid
>>> from goat.games.spades.rules import make_rules
>>> bids = [parse_bid(b) for b in ("3", "nil", "4", "2")]
>>> s = score_deal(make_rules("standard"), bids, tricks=[3, 1, 5, 4], trick_winners=[], bags_before=[0, 0])
>>> s.score, s.bags, s.bags_total
([71, -77], [1, 3], [1, 3])
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from goat.games.spades.bids import Bid
from goat.games.spades.rules import (
    BEMO,
    BOSTON_POINTS,
    HAND_SIZE,
    WHEELS_CONTRACT,
    WHEELS_POINTS,
    SpadesRules,
)


@dataclass
class DealScore:
    """What each team gained in a deal (bag penalties included in ``score``),
    the bags gained, the bags after penalties, a team that made a Boston, and
    whether each team made its contract (its number bids, with the tricks that
    count toward it: a team caught reneging did not)."""

    score: list[int]
    bags: list[int]
    bags_total: list[int]
    boston_made_by: int | None = None
    made: tuple[bool, ...] = (False, False)


def team_seats(team: int) -> tuple[int, int]:
    return (team, team + 2)


def flat_value(rules: SpadesRules, team_bids: Sequence[int]) -> int | None:
    """A variant's flat value of a team's contract (Boston, wheels), or ``None``.

    ``team_bids`` are the tricks its non-nil bidders bid; the contract is their
    sum. Wheels is reached by the contract, or under ``wheels_by="player"`` by
    one player's own bid (the seed: "a player bids to win 10 tricks").

    >>> from goat.games.spades.rules import make_rules
    >>> flat_value(make_rules("wheels"), [5, 5]), flat_value(make_rules("wheels", options={"wheels_by": "player"}), [5, 5])
    (200, None)
    """
    contract = sum(team_bids)
    if rules.boston and contract == HAND_SIZE:
        return BOSTON_POINTS
    reach = max(team_bids, default=0) if rules.wheels_by == "player" else contract
    if rules.wheels and reach >= WHEELS_CONTRACT:
        return WHEELS_POINTS
    return None


def contract_value(rules: SpadesRules, team_bids: Sequence[int]) -> int:
    """Points a made contract is worth: 10 a trick, or a variant's flat value."""
    flat = flat_value(rules, team_bids)
    return 10 * sum(team_bids) if flat is None else flat


def set_loss(rules: SpadesRules, team_bids: Sequence[int], counted: int) -> int:
    """Points a missed contract loses (``set_penalty``): its whole value, or with
    ``set_penalty_per="missing-trick"`` 10 a trick short of it (a flat value is
    lost whole: the variants say "lose 200").

    >>> from goat.games.spades.rules import make_rules
    >>> set_loss(make_rules("standard"), [4, 3], 5), set_loss(make_rules("standard", options={"set_penalty_per": "missing-trick"}), [4, 3], 5)
    (70, 20)
    """
    flat = flat_value(rules, team_bids)
    if flat is not None:
        return flat
    contract = sum(team_bids)
    return 10 * (contract - counted if rules.set_penalty_per == "missing-trick" else contract)


def nil_value(rules: SpadesRules, bid: Bid) -> int:
    return {"nil": rules.nil_points, "blind-nil": rules.blind_nil_points,
            "double-nil": rules.double_nil_points}[bid.kind]


def score_deal(rules: SpadesRules, bids: Sequence[Bid], tricks: Sequence[int], trick_winners: Sequence[int],
               bags_before: Sequence[int], reneged: Collection[int] = ()) -> DealScore:
    """Score a deal played to the end.

    ``tricks`` per seat, ``trick_winners`` the seat that took each trick in
    order (for Bemo), ``bags_before`` each team's bags before the deal, and
    ``reneged`` the teams caught failing to follow suit (``renege_penalty``).
    """
    score, bags, totals = [0, 0], [0, 0], list(bags_before)
    made = [False, False]
    boston_by = None
    for team in (0, 1):
        seats = team_seats(team)
        team_bids = [bids[s].tricks for s in seats if not bids[s].is_nil]
        contract = sum(team_bids)
        if team in reneged:  # 0 for the deal and -10 per bid trick
            score[team] = -10 * contract
            continue
        nil_seats = [s for s in seats if bids[s].is_nil]
        if rules.nil_tricks == "bags":
            counted = sum(tricks[s] for s in seats if not bids[s].is_nil)
            loose = sum(tricks[s] for s in nil_seats)     # each 1 point and 1 bag
        else:
            counted, loose = sum(tricks[s] for s in seats), 0
        points = 0
        made[team] = counted >= contract
        if counted >= contract:
            over = counted - contract
            points += contract_value(rules, team_bids) + over
            bags[team] += over
            if rules.boston and contract == HAND_SIZE:
                boston_by = team
        elif rules.set_penalty:
            points -= set_loss(rules, team_bids, counted)
        points += loose
        bags[team] += loose
        for s in nil_seats:
            value = nil_value(rules, bids[s])
            points += value if tricks[s] == 0 else -value
        for s in seats:
            if bids[s].kind in BEMO:
                first, value = BEMO[bids[s].kind]
                won_all = all(w % 2 == team for w in trick_winners[:first]) and len(trick_winners) >= first
                points += value if won_all else -value
        totals[team] += bags[team]
        if rules.bags:
            while totals[team] >= rules.bag_limit:
                points -= rules.bag_penalty
                totals[team] -= rules.bag_limit
        score[team] = points
    return DealScore(score, bags, totals, boston_by, tuple(made))


def bag_penalties(rules: SpadesRules, deal_bags: Sequence[Sequence[int]]) -> list[list[int]]:
    """How many bag penalties each team paid in each deal, from the bags each
    deal gained (a record's ``deals[i].bags``; a redeal gained none).

    A deal's ``score`` already holds them (``records.md``), so a sheet showing
    "+11 bags, −69" says where the 100 went. The bags left after penalties are
    the gained ones modulo the limit, so the count is read off the running sums.

    >>> from goat.games.spades.rules import make_rules
    >>> bag_penalties(make_rules("standard"), [[8, 1], [3, 0], [9, 20]])
    [[0, 0], [1, 0], [1, 2]]
    """
    gained, out = [0, 0], []
    for bags in deal_bags:
        before = list(gained)
        gained = [g + b for g, b in zip(gained, bags)]
        out.append([(g // rules.bag_limit - b // rules.bag_limit) if rules.bags else 0
                    for g, b in zip(gained, before)])
    return out


def bag_penalty_words(count: int, bag_penalty: int, bag_limit: int) -> str:
    """How a score line names ``count`` bag penalties a deal's score holds, the
    one wording of the terminal, ``goat replay`` and the CSV's notes.

    >>> bag_penalty_words(1, 100, 10)
    '-100 for 10 bags'
    """
    return f"-{count * bag_penalty} for {count * bag_limit} bags"


def game_winner(rules: SpadesRules, scores: Sequence[int], deals_played: int,
                boston_made_by: int | None = None) -> int | None:
    """The team that wins the game after a deal, or ``None`` to play on.

    A team at ``target`` or more, or a team at or below ``lose_at`` (or −target
    under ``negative_target_loses``), ends the game, and so does the deal limit;
    the higher score wins and equal scores play another deal. A Boston wins at
    once under ``boston_wins_game``.
    """
    if boston_made_by is not None and rules.boston_wins_game:
        return boston_made_by
    reached = any(s >= rules.target for s in scores)
    sunk = any((rules.lose_at is not None and s <= rules.lose_at)
               or (rules.negative_target_loses and s <= -rules.target) for s in scores)
    limit = rules.max_deals is not None and deals_played >= rules.max_deals
    if (reached or sunk or limit) and scores[0] != scores[1]:
        return 0 if scores[0] > scores[1] else 1
    return None
