"""Who wins the deal with best play — the *outcome class* a Kozel deal's score reads.

:func:`goat.fast.solver.solve` gives the exact card-point value of a deal. Kozel's
score does not need it: a deal's penalty points depend only on which side of a few
lines the value falls (``flat2``: more than 60 / exactly 60 / less; ``graded`` also
the loser's 30/31 line; plus the decisive ends, a shamok catch and a royal goat).
As a Skat solver answers win/loss rather than exact points, :func:`solve_outcome`
answers only those lines: each is one null-window test of the very kernel
:func:`solve` drives (``value ≥ b?``, fail-soft), run until no line is left
between the bounds proven so far (with 2 or 3 players the individual-play
kernel's ``search``, which takes the same null window). So it costs one to three
null-window searches instead of MTD(f)'s eight or nine (measured on 4-player full-hand deals from
the first lead: 1.9-2.0 tests a deal, a tenth to a fifth of :func:`solve`'s time
and nodes; ``goat bench solver --outcome``, ``benchmarks/README.md``).

Which tests, in which order: the win line (61) first; then the pending line
nearest to it (60 for eggs, 90/31 in ``graded``), the decisive ends last
(``CATCH``, ``-CATCH + 1``; ``±ROYAL`` where a royal goat can still come, in
2-player play with a stock). A fail-soft result usually settles more than one
line (a failed 61 test returning 45 also rules out eggs), and lines that cannot
matter are never tested (no catch test once the shamok or the queen of clubs is
in a pile, or when one team holds both and neither is in the stock). All tests share one table
generation, so each reuses what the earlier ones proved, as MTD(f)'s passes do.

The lines assume the kernels' fixed catch places (a catch above / below every
total: the defaults). Where the options place a catch among the totals
(:mod:`goat.fast.solver_rank`) the tests are that module's, on its ranking
(:func:`goat.fast.solver_rank.bounds_loaded`): at the ends where the outcome
changes (the scoring lines, and a catch's place: a catch is an outcome of its
own), nearest the win line first, until the bounds hold one outcome — not the
exact value's bisection (measured at the first lead under ``shamok_penalty=1``:
40 full-hand deals 2.0 tests a side against 6.4, 2.4 ms against 6.7; 40 classic
deals 2.3 against 6.5, 1.2 ms against 3.4; 6 two-player deals 3.0 against 7.0,
91 ms against 389).
``low`` and ``high`` are then bounds in :func:`goat.fast.solver.rank_of`'s order
(a catch among the totals). A forced exchange's return (not a kernel position) is
tested through its replies under either ranking: each test is each reply's, the
mover's best of them, a reply that settles it cutting the rest off — not the exact
value (on the small returns of ``tests/fast/test_solver_outcome.py`` under
``shamok_penalty`` 0-3, ``flat2`` and ``graded``: 193 searches against 446, 1,351
nodes against 3,432).

What the card-point game cannot say (documented on :class:`DealOutcome` as
``note``): ``graded`` gives 6 instead of 4 to a side that takes *no trick* — the
search counts card points, not tricks, so a side held to 0 points with no trick
taken yet gets "4, or 6 without a trick"; and with 3 players (the others searched
as one coalition, as :func:`solve` does) a seat that does not pass 60 gets 2 or
sees the deal annulled depending on how the two others split the rest.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from goat.fast import solver as sv
from goat.fast import solver_core as core
from goat.fast import solver_search as search
from goat.fast import solver_solo as solo
from goat.fast import solver_rank as rank
from goat.fast.solver_rank import WIN_LINE, fixed, total_points
from goat.fast.solver_rank import catch_possible as _catch_possible
from goat.games.kozel.phases import FORCED_RETURN
from goat.games.kozel.scoring import deal_penalty

CATCH, ROYAL, INF = sv.CATCH, sv.ROYAL, core.INF

# DealOutcome.kind
WIN = "win"                      # the side takes more than 60 points
EGGS = "eggs"                    # 60-60: nobody penalised (the tie/eggs options apply)
LOSS = "loss"                    # the other side takes more than 60
NO_WIN = "no-win"                # 3 players: the seat does not pass 60 (see the module doc)
CATCH_FOR = "catch-for"          # the shamok catches a queen of clubs the side did not play
CATCH_AGAINST = "catch-against"  # the side's queen of clubs is caught
ROYAL_FOR = "royal-goat-for"     # a player of the side gets all four aces: the match is won
ROYAL_AGAINST = "royal-goat-against"


@dataclass(frozen=True)
class DealOutcome:
    """The deal's result for ``side`` with best play by every side.

    ``kind``: one of :data:`WIN`, :data:`EGGS`, :data:`LOSS`, :data:`NO_WIN`,
    :data:`CATCH_FOR`, :data:`CATCH_AGAINST`, :data:`ROYAL_FOR`, :data:`ROYAL_AGAINST`.
    ``penalty``: the penalty points each team (each seat in individual play)
    receives, as the engine would score the deal (a pending "eggs" doubling of
    the state included); ``None`` where the card-point search cannot tell (see
    ``note``). ``low``..``high``: the bounds on :func:`goat.fast.solver.solve`'s
    value the tests proved (its scale; ``±INF`` where unbounded): the exact value
    lies within them. ``tests``: the null-window searches run. ``note``: what
    the outcome leaves open, or the tie options that apply; "" if nothing."""

    side: int
    kind: str
    penalty: tuple[int, ...] | None
    low: int
    high: int
    tests: int = 0
    note: str = ""
    individual: bool = False   # ``side`` and ``penalty`` are per seat (2-3 players)

    def __str__(self) -> str:
        who = f"{'seat' if self.individual else 'team'} {self.side}"
        words = {WIN: "wins the deal", EGGS: "eggs (60–60)", LOSS: "loses the deal",
                 NO_WIN: "does not pass 60", CATCH_FOR: "catches the queen of clubs with the shamok",
                 CATCH_AGAINST: "has its queen of clubs caught by the shamok",
                 ROYAL_FOR: "gets a royal goat (wins the match)",
                 ROYAL_AGAINST: "loses the match to a royal goat"}[self.kind]
        text = f"{who} {words}"
        if self.penalty is not None and any(self.penalty):
            text += " (penalty " + ", ".join(f"{p}" for p in self.penalty) + ")"
        return text + (f"; {self.note}" if self.note else "")


def outcome_of(state: Any, side: int, value: int, low: int | None = None, high: int | None = None,
               tests: int = 0) -> DealOutcome:
    """The outcome a :func:`goat.fast.solver.solve` value of ``state`` for
    ``side`` stands for, scored as the engine scores a deal
    (:func:`goat.games.kozel.scoring.deal_penalty`); ``low``/``high``: the proven
    bounds (by default the value itself)."""
    rules = state.rules
    n = rules.num_teams
    others = [t for t in range(n) if t != side]
    low = value if low is None else low
    high = value if high is None else high
    penalty: list[int] | None = [0] * n
    note = ""
    decided = True
    if value >= ROYAL or value <= -ROYAL:
        kind = ROYAL_FOR if value > 0 else ROYAL_AGAINST
    elif value >= CATCH:
        kind = CATCH_FOR
        if len(others) == 1:
            penalty[others[0]] = rules.shamok_penalty
        else:
            penalty, note = None, "the queen's player gets the shamok penalty"
    elif value <= -CATCH:
        kind = CATCH_AGAINST
        penalty[side] = rules.shamok_penalty
    elif len(others) == 1:
        points = [0] * n
        points[side], points[others[0]] = value, total_points(state) - value
        # A side with points took a trick; one held to 0 may still take a trick
        # worth nothing: scored as if it does (4 in graded), the 6 left in the note.
        score = deal_penalty(rules, points, [max(t, 1) for t in state.tricks_won])
        penalty = score.penalty
        if score.tie:
            kind, decided, note = EGGS, False, _tie_note(rules)
        else:
            kind = WIN if score.winner_team == side else LOSS
            loser = others[0] if kind == WIN else side
            if rules.penalty == "graded" and points[loser] == 0 and state.tricks_won[loser] == 0:
                note = (f"6, not 4, if {loser} takes no trick at all "
                        "(the search counts card points, not tricks)")
    elif value > 60:
        kind = WIN
        if rules.penalty == "graded":
            penalty, note = None, "the others' graded penalties depend on how they split the rest"
        else:
            for t in others:
                penalty[t] = 2
    else:
        kind, penalty, decided = NO_WIN, None, False
        note = ("penalised if another seat passes 60, else the deal is a tie: "
                "the others' split of the rest decides")
    if penalty is not None and decided and state.double_next and any(penalty):
        penalty = [2 * p for p in penalty]
    return DealOutcome(side, kind, None if penalty is None else tuple(penalty), low, high, tests, note,
                       individual=not rules.partnerships)


def _tie_note(rules: Any) -> str:
    parts = ["annulled and dealt again" if rules.tie == "annul" else "no penalty"]
    if rules.eggs == "double-next":
        parts.append("the next decided deal counts double")
    return ", ".join(parts)


def cuts(state: Any, side: int) -> list[int]:
    """The lines ``b`` (tests "value ≥ b") that separate outcome classes of
    ``state`` for ``side``, in the order they are tried (nearest the win line first)."""
    rules = state.rules
    out = {WIN_LINE}
    if rules.num_teams == 2:
        total = total_points(state)     # 120, but for made-up endings
        out.add(total - 60)   # the other side above 60 (3 players: this seat's points cannot tell)
        if rules.penalty == "graded":
            out |= {total - 30, 31}   # the loser's 30/31 line, for either side
            if state.tricks_won[1 - side] == 0:
                out.add(total)   # the other side held to 0 points: "4, or 6" (see the note)
            if state.tricks_won[side] == 0:
                out.add(1)
    if _catch_possible(state):
        out |= {CATCH, -CATCH + 1}
    if rules.royal_goat and state.stock and not rules.partnerships:
        out |= {ROYAL, -ROYAL + 1}
    return sorted(out, key=lambda b: (abs(2 * b - 2 * WIN_LINE + 1), -b))


def solve_outcome(state: Any, side: int = 0, max_nodes: int | None = None) -> DealOutcome:
    """The deal's outcome for ``side`` with best play (see the module doc): the
    same positions and sides as :func:`goat.fast.solver.solve` (4 players; 2 and
    3 in individual play), refused alike with :class:`~goat.fast.solver.SolverError`;
    ``max_nodes`` as there (:class:`~goat.fast.solver.SolverBudgetExceeded`)."""
    sv._check(state, side)
    budget = sv._Budget(max_nodes)
    ws = sv._workspace()
    gen = ws.next_gen()
    lower, upper, tests = -INF, INF, 0
    if not fixed(state):   # catches placed by the options: the lines of their ranking
        try:
            return _ranked_outcome(state, side, ws, gen, budget)
        finally:
            ws.nodes = budget.used
    try:
        lines = cuts(state, side)
        while True:
            pending = [b for b in lines if lower < b <= upper]
            if not pending:
                break
            b = pending[0]
            g, n = _test(state, side, b, ws, gen, budget)
            tests += n
            if g >= b:
                lower = g
            else:
                upper = g
    finally:
        ws.nodes = budget.used
    value = lower if lower > -INF else upper
    return outcome_of(state, side, value, lower, upper, tests)


def _ranked_outcome(state: Any, side: int, ws: Any, gen: int, budget: Any) -> DealOutcome:
    """:func:`solve_outcome` where the options place a catch among the point
    totals (:mod:`goat.fast.solver_rank`): that module's null-window tests on its
    ranking, only at the lines where the outcome changes (the scoring lines and
    the catches' places), until the bounds hold one outcome. ``low``/``high``
    are then bounds in :func:`goat.fast.solver.rank_of`'s order. A forced
    exchange's return (not a kernel position) is tested through its replies,
    as :func:`_test` does."""
    points = _point_classes(state, side)
    total = len(points) - 1

    def class_of(value: int) -> tuple[Any, ...]:
        return points[value] if 0 <= value <= total else _class(outcome_of(state, side, value))

    kernel = solo.search if sv._solo(state) else search.search
    if state.phase == FORCED_RETURN:
        ends, tests = rank.ends_of(state, side), [0]
        test = _replies_test(state, side, ws, gen, budget, kernel, ends, tests)
        low, high = rank.bounds_by(ends, ws, gen, test, class_of)
        return outcome_of(state, side, low, low, high, tests[0])
    W, _ = sv._encode(state, side, ws, gen)
    budget.load(ws)
    low, high = rank.bounds_loaded(state, W, ws, gen, kernel, class_of)
    budget.settle(ws)
    return outcome_of(state, side, low, low, high, int(W[core.PASSES]))


def _replies_test(state: Any, side: int, ws: Any, gen: int, budget: Any, kernel: Any, ends: rank.Ends,
                  tests: list[int]) -> Any:
    """The test ``v -> bound`` of :func:`goat.fast.solver_rank.bounds_by` for a
    forced exchange's return: each reply's own null-window test (loaded in turn,
    each within the budget), the mover's best of them, a reply that settles the
    test cutting the rest off (as :func:`_test`); ``tests[0]`` counts them."""
    maximize = state.team_of(state.current_player()) == side
    replies = []
    for action in state.legal_actions():
        child = state.clone()
        before = len(child.deal_results)
        child.apply_action(action)
        over = sv._deal_over_value(child, side, before)
        replies.append((child, None if over is None else rank.rank_of(state, over)))

    def test(v: int) -> int:
        best = None
        for child, over in replies:
            if over is None:
                W, _ = sv._encode(child, side, ws, gen)
                budget.load(ws)
                g = rank.null_window(W, ws, gen, kernel, ends, v)
                budget.settle(ws)
                tests[0] += 1
            else:
                g = over
            best = g if best is None else (max(best, g) if maximize else min(best, g))
            if (g >= v) == maximize:   # a cut-off: this reply settles the test
                break
        assert best is not None
        return best

    return test


#: :func:`_point_classes` kept per what :func:`outcome_of` reads of a state: the
#: rules, the deal's total, the sides with no trick yet, an eggs doubling owed.
_CLASSES: dict[tuple[Any, ...], list[tuple[Any, ...]]] = {}


def _point_classes(state: Any, side: int) -> list[tuple[Any, ...]]:
    """The outcome class (:func:`_class`) of each point total ``side`` can end
    ``state``'s deal with. Kept: an :func:`outcome_of` for each of 121 totals
    costs more than the tests (1.6 ms against 2.4 for a whole deal's)."""
    total = total_points(state)
    key = (state.rules, total, tuple(t == 0 for t in state.tricks_won), state.double_next, side)
    classes = _CLASSES.get(key)
    if classes is None:
        if len(_CLASSES) > 256:
            _CLASSES.clear()
        classes = _CLASSES[key] = [_class(outcome_of(state, side, p)) for p in range(total + 1)]
    return classes


def _class(outcome: DealOutcome) -> tuple[Any, ...]:
    """What tells two outcomes apart (not the bounds, nor the tests run)."""
    return outcome.kind, outcome.penalty, outcome.note


def _test(state: Any, side: int, b: int, ws: Any, gen: int, budget: Any) -> tuple[int, int]:
    """A fail-soft null-window test of ``state``'s value against ``b`` (both on
    :func:`~goat.fast.solver.solve`'s scale) by the kernel :func:`solve` uses:
    ``(g, searches)``, ``g ≥ b`` a lower bound, else an upper one. A forced
    exchange's return (not a kernel position) is tested through its replies."""
    if state.phase == FORCED_RETURN:
        maximize = state.team_of(state.current_player()) == side
        best, runs = None, 0
        for action in state.legal_actions():
            child = state.clone()
            before = len(child.deal_results)
            child.apply_action(action)
            g = sv._deal_over_value(child, side, before)
            if g is None:
                g, n = _test(child, side, b, ws, gen, budget)
                runs += n
            best = g if best is None else (max(best, g) if maximize else min(best, g))
            if (g >= b) == maximize:   # a cut-off: this reply settles the test
                break
        assert best is not None
        return best, runs
    W, _ = sv._encode(state, side, ws, gen)
    budget.load(ws)
    rb = sv._remaining(state, side, b)   # the kernel counts the points still to take
    W[core.PASSES] += 1
    kernel = solo.search if sv._solo(state) else search.search
    g = int(kernel(W, ws.tt, 0, rb - 1, rb))
    budget.settle(ws)
    return sv._absolute(state, side, g), 1
