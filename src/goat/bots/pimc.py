"""PIMC: Perfect-Information Monte Carlo, and its "cheating" upper bound.

:class:`PIMCBot` sees one seat's view. For each decision it samples ``worlds``
complete deals consistent with everything the seat knows
(:func:`goat.games.sample_world`: its hand, every face-up play, voids revealed by
failing to follow, cards given or received, the shown trump card — through
:func:`goat.games.world_sampler`, which reads the view once for all of them), solves each
with the double-dummy solver (:func:`goat.fast.solver.evaluate_moves`) and plays
the action with the best average *utility*. In individual play (``full-hand``
with 2 or 3 players) each world is solved for the seat to act with every other
seat playing against it (exact with 2 players, the "paranoid" reading with 3:
:mod:`goat.fast.solver_solo`). Positions the solver does not cover (street, the
partner exchange) are handed to a fallback bot (``heuristic`` by default).

Budget: ``worlds`` (default 100) and, optionally, ``time_limit`` seconds,
whichever runs out first; with only ``worlds`` the bot is deterministic for a
seed (every world solved in full) — use that in tournaments, and ``time_limit``
to keep an interactive game responsive at the first cards of a deal, where every
world is a whole deal to solve.

How the time limit is kept: one world can take longer than the whole limit
(with 2 players, one world at the first lead takes 0.4 s at the median and up to
about 7 s), so checking the clock between worlds is not enough. Each world is
solved with a *node budget* (``max_nodes`` of :func:`goat.fast.solver.evaluate_moves`)
made from the time left and the node rate this process has measured for that
solver kernel (:class:`NodeRate`: nodes a second of the solves so far, starting
from a conservative rate). A world that runs out of nodes is dropped — it counts
as not solved — and the next world gets what time is left (the rate varies from
world to world), until less than ``LAST_SHARE`` of the limit is left; if no world
was solved the fallback bot decides. So a decision ends close to its limit:
at the first lead of 20 two-player deals (``benchmarks/pimc_time_limit.py``, a
shared 2-core machine) ``time_limit=2`` took 1.96 s at the median and 2.1–3.1 s at
most (before, when every world ran to its end: 2.87 s median, 19.2 s at most);
``time_limit=0.8`` 0.8 s and 0.84–1.37 s (before: 2.60 s, 20.8 s). What ran over
there was a node rate that dropped during a world (the machine becoming busier),
so the whole decision also runs inside :func:`goat.fast.solver.stop_after`: at the
deadline a timer thread cuts the running world (the search releases the GIL), which
is then dropped like one out of nodes: the same 20 first leads then took at most
2.00 s and 0.80 s. Where worlds are that slow a short limit means few worlds or none
(with 0.8 s at the first lead: 0 to 5, 1.5 at the median).

The utility turns a solver value into what the match cares about: penalty
points. A deal won by more than 60 points is worth the penalty the opponents take
(2, or ``penalty="graded"``'s 4 for holding the loser to 30 or fewer), a lost one
the negative; a shamok catch is ±4 (the option's penalty), a royal goat ±12; and
the card-point margin breaks ties (it adds at most ±0.25), so among moves that
keep the same outcome the bot still prefers more points. A catch and a point
result of the same penalty are told apart as the solver's ranking does
(:func:`goat.fast.solver_rank.catch_result`): the catch ranks above, by a
quarter or a half of a penalty point (+4.5 for a catch, -3.75 for one against).

:class:`PerfectInformationBot` is the same search on the *true* state: it is the
upper bound a tournament table shows ("how much of the gap to perfect information
does a bot close"). It is the one bot that sees hidden cards — on purpose, and
only through :func:`goat.bots.base.next_bot_action`, which hands it a clone of
the state because it declares ``sees_everything = True``.
"""

from __future__ import annotations

import random
import threading
import time
from collections import defaultdict
from collections.abc import Iterator
from typing import Any

from goat.bots.base import BaseBot, BotError, View, check_time_limit, legal_actions, sampled_worlds
from goat.games.kozel.scoring import graded_penalty
from goat.protocol import Action

#: Solver values at or above this magnitude are special outcomes (see goat.fast.solver).
_CATCH = 1000
_ROYAL = 2000


def utility(value: int, shamok_penalty: int = 4, match_target: int = 12,
            penalty: str = "flat2") -> float:
    """A solver value for one side turned into penalty points gained (+) or lost (−);
    ``penalty="graded"``: a loser held to 30 points or fewer pays 4 (as the solver
    reads it, a side is scored as if it took a trick: never the 6 of none). A
    shamok catch is its penalty plus the solver's tie-break
    (:func:`goat.fast.solver_rank.catch_result`: above the point results of the
    same penalty, as the solver ranks it), a point result the penalty plus the
    card-point margin.

    >>> round(utility(67), 3), round(utility(53), 3), utility(60)
    (2.029, -2.029, 0.0)
    >>> utility(1000), utility(-1000), utility(-2000), round(utility(95, penalty="graded"), 3)
    (4.5, -3.75, -12.0, 4.146)
    """
    if abs(value) >= _ROYAL:
        return float(match_target if value > 0 else -match_target)
    if abs(value) >= _CATCH:   # the solver's place for it (its module is loaded: the value is its)
        from goat.fast.solver_rank import catch_result
        return catch_result(shamok_penalty, value > 0)
    margin = (value - 60) / 240  # ±0.25 at most: a tie-breaker between equal outcomes
    if value == 60:
        return 0.0
    loser_points = min(value, 120 - value)   # the losing side's, scored as if it took a trick
    paid = graded_penalty(loser_points, 1) if penalty == "graded" else 2
    return (paid if value > 60 else -paid) + margin


def _option_utility(options: dict[str, Any]) -> Any:
    """:func:`utility` with the table's options (``view["options"]``)."""
    def score(value: int) -> float:
        return utility(value, options.get("shamok_penalty", 4), options.get("match_target", 12),
                       options.get("penalty", "flat2"))
    return score


#: The clock a time limit is measured with (a module attribute, so tests can use a fake one).
_clock = time.perf_counter


class NodeRate:
    """The search nodes a second one solver kernel takes in this process, to turn
    the time left into a node budget.

    Kept as decayed sums of the nodes and seconds of the solves measured
    (each new solve weighs as much as all before it together times ``1 -
    DECAY``), so the rate follows a machine that becomes busier; it starts from
    ``start`` nodes a second, counted as ``START_SECONDS`` of solving, so one
    odd first measurement does not decide alone. Thread-safe (bots at several
    tables record at once)."""

    DECAY = 0.8
    START_SECONDS = 0.2

    def __init__(self, start: float) -> None:
        self.nodes = start * self.START_SECONDS
        self.seconds = self.START_SECONDS
        self.lock = threading.Lock()

    def per_second(self) -> float:
        with self.lock:
            return self.nodes / self.seconds

    def record(self, nodes: int, seconds: float) -> None:
        """Count a solve of ``nodes`` nodes that took ``seconds`` (wall time, the
        encoding and Python around the search included: a slightly low rate, so
        a budget errs on the short side). Solves too short to time well (under a
        millisecond) are left out."""
        if seconds < 1e-3 or nodes <= 0:
            return
        with self.lock:
            self.nodes = self.nodes * self.DECAY + nodes
            self.seconds = self.seconds * self.DECAY + seconds


#: Starting node rates (nodes/s) of the two kernels: the 4-player one
#: (goat.fast.solver_search) and the individual-play one (goat.fast.solver_solo).
#: Below what ``evaluate_moves`` measured on a loaded 2-core machine (first leads:
#: 4-player full-hand 7.1M/s overall, 4.1M the slowest of 30 deals; classic 8.2M;
#: 3 players 12.2M; 2 players 4.6M, 2.4M the slowest of 6), so a process's first
#: budgets are short rather than long; the measured rate takes over after a solve
#: or two.
START_RATE = {"search": 3.0e6, "solo": 2.0e6}
RATES = {kernel: NodeRate(rate) for kernel, rate in START_RATE.items()}
#: The share of the time left a world's node budget is made for: the rate is an
#: average and single solves vary around it.
BUDGET_SHARE = 0.9
#: No world is started with less than this share of the time limit left (it would
#: hardly finish: the decision ends there).
LAST_SHARE = 0.05


def node_budget(kernel: str, seconds_left: float) -> int:
    """The nodes a world may take with ``seconds_left`` to the deadline (at least 1)."""
    return max(1, int(seconds_left * BUDGET_SHARE * RATES[kernel].per_second()))


def _solver_ruleset(view: View) -> bool:
    """The view's ruleset is one the solver takes (single-card Kozel with a deck
    of at most 32 cards; :func:`goat.fast.solver.unsupported`)."""
    options = view.get("options", {})
    return (view.get("game") == "kozel" and options.get("trick_style") == "single"
            and options.get("deck") in ("24", "32"))


def _solvable(view: View) -> bool:
    options = view.get("options", {})
    return (_solver_ruleset(view) and view.get("phase") in ("play", "forced-exchange")
            and not (options.get("royal_goat") and view.get("stock_size", 0) > 0
                     and view.get("players") == 4))


def _prepare_solver(view: View) -> None:
    """Load the solver's compiled kernels (compiling them on a fresh install) when
    this game will use them."""
    if _solver_ruleset(view):
        from goat.fast.solver import warm_up

        warm_up()


class PIMCBot(BaseBot):
    """Sample ``worlds`` deals consistent with the view, solve each, play the best average."""

    name = "pimc"
    games = ("kozel",)   # the solver's game (other games' views go to the fallback)

    def __init__(self, seed: int | str | None = None, worlds: int = 100, fallback: str = "heuristic",
                 time_limit: float | None = None) -> None:
        if not isinstance(worlds, int) or worlds < 1:
            raise BotError(f"pimc needs worlds >= 1, not {worlds!r}")
        self.rng = random.Random(seed)
        self.worlds = worlds
        self.time_limit = check_time_limit("pimc", time_limit)
        self.seed = seed
        from goat.bots import make_bot

        self.fallback = make_bot(fallback, seed)
        self.name = f"pimc:worlds={worlds}" + (f":time_limit={time_limit}" if time_limit else "")

    def prepare(self, view: View) -> None:
        _prepare_solver(view)

    def choose(self, view: View) -> Action:
        legal = legal_actions(view)
        if len(legal) == 1:
            return legal[0]
        if not _solvable(view):
            return self.fallback.choose(view)
        from goat.games import world_sampler

        score = _option_utility(view["options"])
        totals: dict[str, float] = defaultdict(float)
        sampler = world_sampler(dict(view))  # the same worlds as sample_world, view read once
        solved = 0
        for values in self._solved_worlds(sampler):
            solved += 1
            for action, value in values.items():
                totals[str(action)] += score(value)
        if not solved:   # no world drawn or solved in time: play the plain policy, not nothing
            return self.fallback.choose(view)
        return max(legal, key=lambda a: totals.get(str(a), float("-inf")))

    def _solved_worlds(self, sampler: Any) -> Iterator[dict[Action, int]]:
        """The solver's values of each world solved: every drawn world without a
        time limit; with one, each world under a node budget for the time left
        (see the module doc) until less than ``LAST_SHARE`` of the limit is left;
        a world that runs out of its budget is dropped (not yielded)."""
        from goat.fast.solver import SolverBudgetExceeded, evaluate_moves, nodes_used, stop_after

        if self.time_limit is None:
            for world in sampled_worlds(sampler, self.rng, self.worlds, None):
                yield evaluate_moves(world)
            return
        deadline = _clock() + self.time_limit
        # The node budgets end most worlds near the deadline; stop_after is the
        # hard stop for a world whose node rate dropped while it ran.
        with stop_after(self.time_limit):
            for world in sampled_worlds(sampler, self.rng, self.worlds, None):
                left = deadline - _clock()
                if left <= self.time_limit * LAST_SHARE:
                    return
                kernel = "search" if world.rules.partnerships else "solo"
                start = _clock()
                values: dict[Action, int] | None
                try:
                    values = evaluate_moves(world, max_nodes=node_budget(kernel, left))
                except SolverBudgetExceeded:
                    values = None
                RATES[kernel].record(nodes_used(), _clock() - start)
                if values is not None:   # else dropped: a budget ends near the deadline, but a
                    yield values         # rate that was low for this world can leave time for another

    def out_of_turn(self, view: View) -> Action | None:
        return self.fallback.out_of_turn(view)


class PerfectInformationBot(BaseBot):
    """The upper bound: plays the solver's best move on the true deal ("cheats").

    Where the solver does not apply it plays like its fallback bot from the view.
    """

    name = "perfect"
    games = ("kozel",)
    sees_everything = True

    def __init__(self, seed: int | str | None = None, fallback: str = "heuristic") -> None:
        from goat.bots import make_bot

        self.rng = random.Random(seed)
        self.fallback = make_bot(fallback, seed)

    def prepare(self, view: View) -> None:
        _prepare_solver(view)

    def choose(self, view: View) -> Action:  # only used where the solver does not apply
        return self.fallback.choose(view)

    def choose_with_state(self, state: Any, view: View) -> Action:
        """Pick from the true ``state`` (a clone): the solver's best move, ties at random."""
        if not _solvable(view):
            return self.fallback.choose(view)
        from goat.fast.solver import evaluate_moves

        values = evaluate_moves(state)
        score = _option_utility(view["options"])
        scored = {a: score(v) for a, v in values.items()}
        best = max(scored.values())  # the utility decides (a catch beats any point total)
        choices = sorted((a for a, u in scored.items() if u == best), key=str)
        return choices[self.rng.randrange(len(choices))]

    def out_of_turn(self, view: View) -> Action | None:
        return self.fallback.out_of_turn(view)
