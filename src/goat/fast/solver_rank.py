"""Where a shamok catch ranks among a deal's card-point results, by the table's options.

The kernels (:mod:`goat.fast.solver_search`, :mod:`goat.fast.solver_solo`) value a
deal's end as the card points ``side`` takes, or ``±CATCH`` when the shamok catches
the queen of clubs: ranked above (below) every point total. That is the order of
the deal's *results* (the other side's penalty minus ``side``'s own, as
:func:`goat.games.kozel.scoring.deal_penalty` and the shamok rule give them) only
while a catch's penalty beats every point result — the defaults, ``shamok_penalty``
4 against a lost deal's 2. Under a ``shamok_penalty`` below 2, or
``penalty="graded"`` (a lost deal costs 2 or 4), a catch is worth less than some
won deals (or a caught queen more than some lost ones).

:func:`catch_places` places each catch in the point order instead: just above the
highest card-point total whose result it equals or beats (``shamok_penalty`` 1:
a catch for ``side`` between 60 and 61, one against it between 59 and 60). Card
points cannot tell how many tricks a side took; the reading is
:mod:`goat.fast.solver_outcome`'s (a side is scored as if it took a trick: a
``graded`` loser held to 30 points or fewer gets 4, never the 6 of no trick).
The tie (60-60) is a result of 0 whatever ``tie`` says (annulled or not, nobody is
penalised in that deal; an ``eggs`` doubling it leaves for the next deal is not
this deal's result), and the ``eggs`` doubling of this deal doubles every result
alike: neither moves a catch. With 3 players a seat's points do not decide the
deal's result (the two others' split does): the fixed places stay.

Where both catches keep their fixed places (the defaults) nothing here runs: the
kernels' MTD(f) searches as before, node for node. Elsewhere (:func:`solve_loaded`)
the value is found by null-window tests on a finer scale (:func:`rank_of`: four
steps a card point, a catch between two totals): each test "is the value at least
``v``?" is a win/loss game in which a catch is a win exactly when its place is at
least ``v``, so the kernel runs it with ``W[CATCH_FOR]`` and ``W[CATCH_AGAINST]``
(:mod:`goat.fast.solver_core`) set to ``+CATCH`` or ``-CATCH`` accordingly and its
catch stays what it is to the search: a constant that ends the deal. Bounds the
table keeps are bounds of one such game, so each sign pair searches in a table
generation of its own (at most three a call). A fail-soft result counts beyond its
test only up to the next catch place (past it the game differs); the same tests
stop at the deal's outcome for :func:`goat.fast.solver_outcome.solve_outcome`
(:func:`bounds_loaded`: only at the ends where it changes). The answer keeps
the solver's scale (a catch is ``±CATCH``); :func:`rank_of` orders such values as
the deal's results do (:func:`goat.fast.solver.best_actions`, ``goat analyze``).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from functools import lru_cache
from typing import Any, NamedTuple

import numpy as np

from goat.fast import solver_core as core
from goat.games.kozel.rules import QUEEN_OF_CLUBS, SHAMOK
from goat.games.kozel.scoring import card_points, deal_penalty

CATCH, ROYAL = core.CATCH, core.ROYAL
WIN_LINE = 61   # more than 60 card points wins a deal
STEP = 4   # rank_of's steps a card point: a catch sits at 4x+2 (4x+3 for one for side on a shared place)


def total_points(state: Any) -> int:
    """The card points of the whole deal: 120 in a real one; a made-up ending
    (tests) may hold fewer cards, and the scoring lines move with it."""
    left = [c for h in state.hands for c in h] + [p.cards[0] for p in state.trick] + list(state.stock)
    return sum(state.points()) + card_points(left)


def point_result(rules: Any, points: int, total: int) -> int:
    """The deal's result for a side of two that ends with ``points`` of
    ``total``: the other side's penalty minus its own (each side scored as if it
    took a trick: see the module doc)."""
    score = deal_penalty(rules, [points, total - points], [1, 1])
    return score.penalty[1] - score.penalty[0]


def catch_places(state: Any) -> tuple[int, int]:
    """``(x_for, x_against)``: a shamok catch for ``side`` ranks just above the
    card-point total ``x_for`` and below ``x_for + 1``, one against it just above
    ``x_against``. The fixed places are ``x_for = total`` (above every total) and
    ``x_against = -1`` (below every total); they are kept with 3 players and where
    no catch can happen. The same for either side (the results are symmetric)."""
    return _places(state.rules, total_points(state))


def catch_result(shamok_penalty: int, for_side: bool) -> float:
    """Where a shamok catch ranks among the deal's results for a side: its result
    (``+shamok_penalty`` for the shamok's side, ``-shamok_penalty`` for the
    queen's) plus a tie-break that puts it above every point end of that result
    and below the next one (results are whole numbers; a point end's own
    tie-break, :func:`goat.bots.pimc.utility`'s card-point margin, is at most
    1/4 and never above 0 for a result of 0 or less): 1/2 for a catch for the
    side, 1/4 against, so that under ``shamok_penalty=0`` a catch for ranks above
    one against. The one place of that rule: :func:`catch_places` places the
    catches by it, pimc's utility values them by it."""
    return shamok_penalty + 0.5 if for_side else -shamok_penalty + 0.25


@lru_cache(maxsize=256)
def _places(rules: Any, total: int) -> tuple[int, int]:
    if rules.num_teams != 2 or not (rules.shamok_catches_queen and rules.has_shamok):
        return total, -1
    results = [point_result(rules, p, total) for p in range(total + 1)]

    def place(for_side: bool) -> int:
        rank = catch_result(rules.shamok_penalty, for_side)
        return max((p for p, r in enumerate(results) if r < rank), default=-1)

    return place(True), place(False)


def fixed(state: Any) -> bool:
    """Do both catches keep the kernels' fixed places (the search runs as ever)?
    Asked before every solve: the table's rules answer it alone where they keep
    the places whatever the deal's total (the defaults), without counting the
    cards left."""
    if _fixed_for_every_total(state.rules):
        return True
    total = total_points(state)
    x_for, x_against = _places(state.rules, total)
    return x_for >= total and x_against < 0


@lru_cache(maxsize=64)
def _fixed_for_every_total(rules: Any) -> bool:
    """Whether ``rules`` keep both catches in their fixed places for every deal
    total (a made-up ending's too), so :func:`fixed` need not count the cards."""
    for total in range(121):
        x_for, x_against = _places(rules, total)
        if x_for < total or x_against >= 0:
            return False
    return True


def _steps(state: Any) -> tuple[int, int, int]:
    """The catches' places on :func:`rank_of`'s scale and the royal goat's."""
    x_for, x_against = catch_places(state)
    u_for, u_against = STEP * x_for + 2, STEP * x_against + 2
    if u_for == u_against:   # the same place (shamok_penalty 0): a catch for side first
        u_for += 1
    return u_for, u_against, STEP * (total_points(state) + 2)


def rank_of(state: Any, value: int) -> int:
    """``value`` (a :func:`goat.fast.solver.solve` value of ``state``, either
    side's) as a number that orders every end of the deal as its result does,
    ties broken by card points: four steps a card point, a catch between the two
    totals :func:`catch_places` names, a royal goat beyond all."""
    u_for, u_against, royal = _steps(state)
    if value >= ROYAL:
        return royal
    if value <= -ROYAL:
        return -royal
    if value >= CATCH:
        return u_for
    if value <= -CATCH:
        return u_against
    return STEP * value


def _ceil_div(a: int, b: int) -> int:
    return -((-a) // b)


def solve_loaded(state: Any, W: np.ndarray, ws: Any, gen: int, kernel: Any) -> int:
    """The exact value (the answer's scale: absolute points, ``±CATCH``,
    ``±ROYAL``) of ``state`` loaded in ``W`` for ``W[SIDE]``, its catches placed
    by :func:`catch_places`: null-window tests of ``kernel`` (the ``search`` of
    either kernel) bisecting the ends the deal can still have. ``gen``: the
    call's generation; the sign pairs' generations are kept in ``ws.rank_gens``
    for the whole call (a forced exchange's or the root moves' positions share
    them). Stops early if the kernel's budget runs out (``W[ABORTED]``: the
    caller raises)."""
    return bounds_loaded(state, W, ws, gen, kernel)[0]


def bounds_loaded(state: Any, W: np.ndarray, ws: Any, gen: int, kernel: Any,
                  class_of: Callable[[int], Hashable] | None = None) -> tuple[int, int]:
    """Bounds ``(low, high)`` on the value of ``state`` loaded in ``W`` (the
    answer's scale; in :func:`rank_of`'s order ``low <= value <= high``), by the
    tests of :func:`solve_loaded`. Without ``class_of`` they bisect until the
    value is exact (``low == high``). With it — a value's class (e.g. the deal's
    outcome it stands for; the same for equal values) — they test only the
    lines where the class changes, nearest the win line (61) first, and stop as
    soon as every end between the bounds is of one class
    (:func:`goat.fast.solver_outcome.solve_outcome`)."""
    ends = ends_of(state, int(W[core.SIDE]))
    try:
        return bounds_by(ends, ws, gen, lambda v: null_window(W, ws, gen, kernel, ends, v), class_of)
    finally:
        W[core.CATCH_FOR], W[core.CATCH_AGAINST] = CATCH, -CATCH
        W[core.GEN] = gen


class Ends(NamedTuple):
    """The ends a deal can still have, on :func:`rank_of`'s scale (``cands``,
    ascending), the catches' and the royal goat's places among them, and the
    card points ``side`` holds already (``mine``)."""

    cands: list[int]
    u_for: int
    u_against: int
    royal: int
    mine: int


def ends_of(state: Any, side: int) -> Ends:
    """The :class:`Ends` of ``state`` for ``side``: every point total it can
    still end with, the catches' places while a catch can come, the royal
    goat's while one can (2-3 players with a stock)."""
    u_for, u_against, royal = _steps(state)
    mine = state.points()[side]
    rem = total_points(state) - sum(state.points())
    ends = {STEP * p for p in range(mine, mine + rem + 1)}
    if catch_possible(state):
        ends |= {u_for, u_against}
    if state.rules.royal_goat and state.stock and not state.rules.partnerships:
        ends |= {royal, -royal}
    return Ends(sorted(ends), u_for, u_against, royal, mine)


def bounds_by(ends: Ends, ws: Any, gen: int, test: Callable[[int], int],
              class_of: Callable[[int], Hashable] | None = None) -> tuple[int, int]:
    """:func:`bounds_loaded`'s loop over null-window tests of any position with
    these ``ends``: ``test(v)`` answers "is the value at least ``v``?" (on
    :func:`rank_of`'s scale) fail-soft — a bound ``>= v`` (a lower one) or
    ``< v`` (an upper one). A position loaded in ``W`` is tested by
    :func:`null_window`; a forced exchange's return, not a kernel position, by
    its replies' (:func:`goat.fast.solver_outcome.solve_outcome`). Stops early
    if the kernel's budget runs out (``W[ABORTED]``: the caller raises)."""
    cands, u_for, u_against, royal, mine = ends
    lines = None
    if class_of is not None:   # the ends where the class changes from the one below
        kinds = [class_of(_value_at(c, mine, u_for, u_against, royal)) for c in cands]
        lines = {c for c, k, below in zip(cands[1:], kinds[1:], kinds) if k != below}
    lower, upper = cands[0], cands[-1]
    while lower < upper and ws.W[core.ABORTED] == 0:
        inside = [c for c in cands if lower < c <= upper]
        if lines is None:
            v = inside[(len(inside) - 1) // 2]
        else:
            pending = [c for c in inside if c in lines]
            if not pending:
                break
            v = min(pending, key=lambda c: (abs(2 * c - STEP * (2 * WIN_LINE - 1)), -c))
        bound = test(v)
        if bound >= v:
            lower = min(c for c in cands if c >= bound)
        else:
            upper = max(c for c in cands if c <= bound)
    return (_value_at(lower, mine, u_for, u_against, royal), _value_at(upper, mine, u_for, u_against, royal))


def null_window(W: np.ndarray, ws: Any, gen: int, kernel: Any, ends: Ends, v: int) -> int:
    """One fail-soft null-window test of the position loaded in ``W``: "is its
    value at least ``v``?" on :func:`rank_of`'s scale, a win/loss game of
    ``kernel`` in which a catch wins exactly when its place is at least ``v``
    (in the generation of that sign pair: ``ws.rank_gens``, the call ``gen``'s).
    Returns a bound on that scale as :func:`bounds_by` reads it; leaves ``W``'s
    catches and generation set for that game."""
    _, u_for, u_against, royal, mine = ends
    if getattr(ws, "rank_gens", (None,))[0] != gen:
        ws.rank_gens = (gen, {})
    gens = ws.rank_gens[1]
    signs = (u_for >= v, u_against >= v)
    if signs not in gens:
        gens[signs] = ws.next_gen()
    W[core.GEN] = gens[signs]
    W[core.CATCH_FOR] = CATCH if signs[0] else -CATCH
    W[core.CATCH_AGAINST] = CATCH if signs[1] else -CATCH
    line = ROYAL if v == royal else _ceil_div(v, STEP) - mine
    W[core.PASSES] += 1
    g = int(kernel(W, ws.tt, 0, line - 1, line))
    places = (u_against, u_for)
    if g >= line:   # the value is at least v; a point bound counts up to the next place
        if not -CATCH < g < CATCH:
            return v
        nxt = min((t for t in places if t >= v), default=royal)
        return max(v, min(STEP * (mine + g), nxt))
    if not -CATCH < g < CATCH:   # below v; a point bound counts down to the place before
        return v - 1
    before = max((t for t in places if t < v), default=-royal)
    return min(v - 1, max(STEP * (mine + g), before))


def _value_at(u: int, mine: int, u_for: int, u_against: int, royal: int) -> int:
    if u == royal:
        return ROYAL
    if u == -royal:
        return -ROYAL
    if u == u_for:
        return CATCH
    if u == u_against:
        return -CATCH
    return u // STEP


def catch_possible(state: Any) -> bool:
    """Can the shamok still catch the queen of clubs? Both must be unplayed,
    and not both held by one team: cards in hand only ever pass between
    partners (a forced exchange), so only one in the stock can change that."""
    rules = state.rules
    if not (rules.shamok_catches_queen and rules.has_shamok):
        return False
    holder = {}
    for seat, hand in enumerate(state.hands):
        for card in (SHAMOK, QUEEN_OF_CLUBS):
            if card in hand:
                holder[card] = seat
    on_table = {p.cards[0]: p.seat for p in state.trick}
    in_stock = set(state.stock)
    where = {c: holder.get(c, on_table.get(c)) for c in (SHAMOK, QUEEN_OF_CLUBS)}
    if any(w is None and c not in in_stock for c, w in where.items()):
        return False   # one of them is already in a pile
    if in_stock & {SHAMOK, QUEEN_OF_CLUBS}:
        return True
    return state.team_of(where[SHAMOK]) != state.team_of(where[QUEEN_OF_CLUBS])
