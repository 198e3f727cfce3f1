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
whichever runs out first (at least one world is always solved); with only
``worlds`` the bot is deterministic for a seed — use that in tournaments, and
``time_limit`` to keep an interactive game responsive at the first cards of a
deal, where every world is a whole deal to solve.

The utility turns a solver value into what the match cares about: penalty
points. A deal won by more than 60 points is worth the penalty the opponents take
(2, or street's graded 2/4/6 — the solver only covers flat penalties), a lost one
the negative; a shamok catch is ±4 (the option's penalty), a royal goat ±12; and
the card-point margin breaks ties (it adds at most ±0.25), so among moves that
keep the same outcome the bot still prefers more points.

:class:`PerfectInformationBot` is the same search on the *true* state: it is the
upper bound a tournament table shows ("how much of the gap to perfect information
does a bot close"). It is the one bot that sees hidden cards — on purpose, and
only through :func:`goat.bots.base.next_bot_action`, which hands it a clone of
the state because it declares ``sees_everything = True``.
"""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Any

from goat.bots.base import BaseBot, BotError, View, check_time_limit, legal_actions, sampled_worlds
from goat.protocol import Action

#: Solver values at or above this magnitude are special outcomes (see goat.fast.solver).
_CATCH = 1000
_ROYAL = 2000


def utility(value: int, shamok_penalty: int = 4, match_target: int = 12) -> float:
    """A solver value for one side turned into penalty points gained (+) or lost (−).

    >>> round(utility(67), 3), round(utility(53), 3), utility(60)
    (2.029, -2.029, 0.0)
    >>> utility(1000), utility(-2000)
    (4.0, -12.0)
    """
    if abs(value) >= _ROYAL:
        return float(match_target if value > 0 else -match_target)
    if abs(value) >= _CATCH:
        return float(shamok_penalty if value > 0 else -shamok_penalty)
    margin = (value - 60) / 240  # ±0.25 at most: a tie-breaker between equal outcomes
    if value > 60:
        return 2.0 + margin
    if value < 60:
        return -2.0 + margin
    return 0.0


def _solver_ruleset(view: View) -> bool:
    """The view's ruleset is one the solver takes (single-card Kozel: 4 players,
    or 2-3 with a deck of at most 32 cards; :func:`goat.fast.solver.unsupported`)."""
    options = view.get("options", {})
    return (view.get("game") == "kozel" and options.get("trick_style") == "single"
            and (view.get("players") == 4 or options.get("deck") in ("24", "32")))


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
        from goat.fast.solver import evaluate_moves
        from goat.games import world_sampler

        options = view["options"]
        totals: dict[str, float] = defaultdict(float)
        sampler = world_sampler(dict(view))  # the same worlds as sample_world, view read once
        solved = 0
        for world in sampled_worlds(sampler, self.rng, self.worlds, self.time_limit):
            solved += 1
            for action, value in evaluate_moves(world).items():
                totals[str(action)] += utility(value, options.get("shamok_penalty", 4),
                                               options.get("match_target", 12))
        if not solved:   # no world could be drawn: play the plain policy, not nothing
            return self.fallback.choose(view)
        return max(legal, key=lambda a: totals.get(str(a), float("-inf")))

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
        options = view["options"]
        scored = {a: utility(v, options.get("shamok_penalty", 4), options.get("match_target", 12))
                  for a, v in values.items()}
        best = max(scored.values())  # the utility decides (a catch beats any point total)
        choices = sorted((a for a, u in scored.items() if u == best), key=str)
        return choices[self.rng.randrange(len(choices))]

    def out_of_turn(self, view: View) -> Action | None:
        return self.fallback.out_of_turn(view)
