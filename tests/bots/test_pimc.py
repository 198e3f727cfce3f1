"""PIMC and the perfect-information upper bound: hand-made positions, the
fallback outside the solver's reach, and the one declared view exception."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from goat.bots import make_bot
from goat.bots.base import BaseBot, next_bot_action, play_bots
from goat.bots.pimc import PerfectInformationBot, PIMCBot, utility
from goat.bots.base import BotError
from goat.games.kozel import new_state
from goat.protocol import Action

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from kozel.conftest import deal_state, play  # noqa: E402

# Full-hand, hearts trump, no partner exchange, trumps may be led at once.
# Seat 0 leads QC; seat 1 must follow with a trump: 7C or JD. 7C catches the queen
# of clubs (deal over, 4 penalty points to seats 0+2): better than any card play,
# in every world consistent with seat 1's view.
CATCH_HANDS = {
    "0": "QC AH TH KH AD TD KD 9D",
    "1": "7C JD 8S 9S KS 8D 7D 7S",
    "2": "QS QH QD JS JH JC AS TS",
    "3": "7H 8H 9H AC TC KC 9C 8C",
}
CATCH_OPTIONS = {"partner_exchange": 0, "trump_lead": "free"}


def catch_position():
    state = deal_state("full-hand", hands=CATCH_HANDS, trump_card="9H", dealer=0,
                       options=CATCH_OPTIONS, single_deal=True)
    return play(state, "0 play QC")


def test_utility_ranks_outcomes_by_penalty_points() -> None:
    # a won deal (+2) < a shamok catch (+4) < a royal goat (+12); margins only break ties
    assert utility(61) < utility(120) < utility(1000) < utility(2000)
    assert utility(59) > utility(0) > utility(-1000) > utility(-2000)
    assert utility(60) == 0.0


def test_utility_reads_the_graded_penalty() -> None:
    # graded: holding the losers to 30 or fewer costs them 4, more than a catch of 3
    assert utility(95, 3, penalty="graded") > utility(1000, 3) > utility(95, 3) > utility(89, 3, penalty="graded")
    assert utility(25, penalty="graded") < utility(-1000, 3) < utility(35, penalty="graded")


def test_perfect_bot_scores_moves_by_the_graded_penalty() -> None:
    from tests.fast.test_solver_rank import big_win_or_catch

    for options, best in (({"shamok_penalty": 3}, "0 play 7C"),
                          ({"shamok_penalty": 3, "penalty": "graded"}, "0 play AS")):
        state = big_win_or_catch(options)
        assert str(PerfectInformationBot(seed=1).choose_with_state(state.clone(), state.view(0))) == best


def test_pimc_plays_the_shamok_onto_the_queen_of_clubs() -> None:
    state = catch_position()
    assert sorted(state.view(1)["legal_actions"]) == ["1 play 7C", "1 play JD"]
    bot = PIMCBot(seed=3, worlds=8)
    assert str(bot.choose(state.view(1))) == "1 play 7C"


def test_perfect_bot_plays_the_shamok_onto_the_queen_of_clubs() -> None:
    state = catch_position()
    bots = [None, PerfectInformationBot(seed=1), None, None]
    assert str(next_bot_action(state, bots)) == "1 play 7C"


def test_only_a_bot_that_declares_it_gets_the_state() -> None:
    seen: list[str] = []

    class Probe(BaseBot):
        def __init__(self, sees: bool) -> None:
            self.sees_everything = sees

        def choose(self, view):
            seen.append("view")
            return make_bot("random", 0).choose(view)

        def choose_with_state(self, state, view):
            seen.append(type(state).__name__)
            assert state is not real  # a copy: the bot cannot disturb the game
            return make_bot("random", 0).choose(view)

    real = catch_position()
    next_bot_action(real, [None, Probe(False), None, None])
    next_bot_action(real, [None, Probe(True), None, None])
    assert seen == ["view", "KozelState"]


@pytest.mark.parametrize("preset,players,options", [("street", 4, {}), ("classic", 4, {"deck": "36"})])
def test_pimc_falls_back_where_the_solver_does_not_apply(preset: str, players: int, options: dict) -> None:
    """Street, and a 36-card deck (whose 4-player search never ended: the
    kernel's card tables hold 32 cards), are played by the fallback."""
    state = new_state(preset, players=players, options=options, single_deal=True)
    bots = [PIMCBot(seed=s, worlds=2) for s in range(players)]
    play_bots(state, bots, random.Random(4))
    assert state.is_terminal()


def test_pimc_plays_a_whole_classic_deal_legally() -> None:
    state = new_state("classic", single_deal=True)
    bots = [PIMCBot(seed=1, worlds=3), make_bot("random", 2), PIMCBot(seed=3, worlds=3), make_bot("random", 4)]
    play_bots(state, bots, random.Random(11))
    assert state.is_terminal() and state.deal_results


def test_pimc_settings_are_checked() -> None:
    with pytest.raises(BotError):
        make_bot("pimc", 1, worlds=0)
    for bad in (0, -1, "fast", True):
        with pytest.raises(BotError, match="time_limit"):
            make_bot("pimc", 1, time_limit=bad)
    assert make_bot("pimc", 1, worlds=7).name == "pimc:worlds=7"
    assert make_bot("pimc", 1, worlds=7, time_limit=0.5).name == "pimc:worlds=7:time_limit=0.5"


class FakeClock:
    """``pimc``'s clock under test control: it moves only when told."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def timed(monkeypatch: pytest.MonkeyPatch):
    """A fake clock for ``pimc`` and fresh node rates of 1000 nodes/s for both kernels."""
    import goat.bots.pimc as pimc

    clock = FakeClock()
    monkeypatch.setattr(pimc, "_clock", clock)
    monkeypatch.setattr(pimc, "RATES", {k: pimc.NodeRate(1000.0) for k in pimc.START_RATE})
    return clock


def test_pimc_without_a_time_limit_solves_every_world_without_a_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """No ``time_limit``: every world is solved in full (no ``max_nodes``), as
    before — deterministic for a seed, whatever the clock says."""
    import goat.fast.solver as solver

    budgets: list = []
    real = solver.evaluate_moves
    monkeypatch.setattr(solver, "evaluate_moves",
                        lambda world, **kw: (budgets.append(kw.get("max_nodes")), real(world))[1])
    bot = PIMCBot(seed=3, worlds=6)
    assert str(bot.choose(catch_position().view(1))) == "1 play 7C"
    assert budgets == [None] * 6


def solves_taking(monkeypatch: pytest.MonkeyPatch, clock: FakeClock, seconds: float, nodes: int) -> list[int]:
    """Make every solve take ``seconds`` on ``clock`` and ``nodes`` nodes (the
    true values are still computed); returns the list the node budgets asked
    for are appended to."""
    import goat.fast.solver as solver

    budgets: list[int] = []
    real = solver.evaluate_moves

    def solve(world, max_nodes=None):
        budgets.append(max_nodes)
        clock.now += seconds
        return real(world)

    monkeypatch.setattr(solver, "evaluate_moves", solve)
    monkeypatch.setattr(solver, "nodes_used", lambda: nodes)
    return budgets


def test_pimc_budget_shrinks_as_time_runs_out(monkeypatch: pytest.MonkeyPatch, timed: FakeClock) -> None:
    """Each world's node budget is the time left times the measured node rate
    (times ``BUDGET_SHARE``): with each solve taking 0.5 s at 1000 nodes/s and
    a limit of 2.2 s, the budgets fall 1980, 1530, 1080, 630, 180 nodes, and no
    sixth world starts once the deadline has passed."""
    import goat.bots.pimc as pimc

    budgets = solves_taking(monkeypatch, timed, 0.5, 500)   # 500 nodes in 0.5 s: the rate stays
    bot = PIMCBot(seed=3, worlds=10, time_limit=2.2)
    assert str(bot.choose(catch_position().view(1))) == "1 play 7C"
    expected = [2.2 * pimc.BUDGET_SHARE * 1000 - 0.5 * pimc.BUDGET_SHARE * 1000 * k for k in range(5)]
    assert len(budgets) == 5
    assert all(abs(b - e) <= 1 for b, e in zip(budgets, expected)), budgets
    assert budgets == sorted(budgets, reverse=True)


def test_pimc_node_rate_follows_the_measured_solves(monkeypatch: pytest.MonkeyPatch, timed: FakeClock) -> None:
    """The rate a budget is made from is measured: solves of 4000 nodes a
    second make the next budgets larger than the starting 1000 nodes/s would."""
    import goat.bots.pimc as pimc

    budgets = solves_taking(monkeypatch, timed, 0.25, 1000)   # 1000 nodes in 0.25 s
    PIMCBot(seed=3, worlds=3, time_limit=100.0).choose(catch_position().view(1))
    assert budgets[0] == int(100.0 * pimc.BUDGET_SHARE * 1000)
    assert budgets[1] > 2 * budgets[0] and budgets[2] > budgets[1]
    assert 1000 < pimc.RATES["search"].per_second() < 4000
    assert pimc.RATES["solo"].per_second() == pytest.approx(1000)   # kept per kernel


class Marked(BaseBot):
    """A fallback whose choice is known (the last legal action) and counted."""

    def __init__(self) -> None:
        self.calls = 0

    def choose(self, view):
        self.calls += 1
        return Action.parse(sorted(view["legal_actions"])[-1])


@pytest.mark.parametrize("abort_from, solved", [(3, 2), (1, 0)])
def test_pimc_drops_a_world_that_runs_out_of_nodes(monkeypatch: pytest.MonkeyPatch, timed: FakeClock,
                                                   abort_from: int, solved: int) -> None:
    """A world whose solve runs out of its node budget is dropped (it adds
    nothing and does not count as solved); the next worlds get the time left
    (here the clock stands still: all six are tried); if no world is solved,
    the fallback bot decides."""
    import goat.fast.solver as solver

    calls: list[int] = []
    real = solver.evaluate_moves

    def solve(world, max_nodes=None):
        calls.append(1)
        if len(calls) >= abort_from:
            raise solver.SolverBudgetExceeded("the solver's budget of 5 nodes ran out")
        return real(world)

    monkeypatch.setattr(solver, "evaluate_moves", solve)
    bot = PIMCBot(seed=3, worlds=6, time_limit=10.0)
    bot.fallback = Marked()
    view = catch_position().view(1)
    move = str(bot.choose(view))
    assert len(calls) == 6
    if solved:
        assert move == "1 play 7C" and bot.fallback.calls == 0
    else:
        assert move == "1 play JD" and bot.fallback.calls == 1


def test_prepare_loads_the_solver_only_where_it_will_play(monkeypatch: pytest.MonkeyPatch) -> None:
    """`goat play` prepares bots before the game: PIMC and the perfect bot load the
    solver's kernels (compiling them on a fresh install) for solver rulesets only."""
    import goat.fast.solver as solver
    from goat.bots.base import prepare_bots

    calls: list[int] = []
    monkeypatch.setattr(solver, "warm_up", lambda: calls.append(1))
    for rules, options, per_bot in (("classic", {}, 1), ("full-hand", {}, 1), ("street", {}, 0),
                                    ("classic", {"deck": "36"}, 0), ("full-hand", {"deck": "36", "hand_size": 9}, 0)):
        state = new_state(rules, options=options)
        calls.clear()
        prepare_bots([None, PIMCBot(seed=1), None, PerfectInformationBot(seed=2)], state.view)
        assert len(calls) == 2 * per_bot, rules


class FlakySampler:
    """A world sampler whose draws fail as ``fails`` says (True: this draw finds
    no world), as a very tight view can make them."""

    def __init__(self, view: dict, fails, real) -> None:
        self.real = real(view)
        self.fails = fails
        self.draws = 0

    def sample(self, rng: random.Random):
        from goat.games.worlds import WorldSamplingError

        self.draws += 1
        if self.fails(self.draws):
            raise WorldSamplingError("no world consistent with seat 1's view found in 200 tries")
        return self.real.sample(rng)


@pytest.mark.parametrize("fails, solved", [(lambda k: k % 2 == 0, 3), (lambda k: True, 0)])
def test_pimc_skips_a_draw_that_finds_no_world(monkeypatch: pytest.MonkeyPatch, fails, solved) -> None:
    """A draw that finds no world is skipped, not the end of the decision (before,
    the error stopped the bot and, in a tournament, the whole run); with no world
    at all the bot plays its fallback's move."""
    import goat.fast.solver as solver
    import goat.games as games

    samplers: list[FlakySampler] = []
    real_sampler = games.world_sampler
    monkeypatch.setattr(games, "world_sampler",
                        lambda view: samplers.append(FlakySampler(view, fails, real_sampler)) or samplers[-1])
    calls: list[int] = []
    real = solver.evaluate_moves
    monkeypatch.setattr(solver, "evaluate_moves", lambda world: (calls.append(1), real(world))[1])
    state = catch_position()
    bot = PIMCBot(seed=3, worlds=6)
    move = bot.choose(state.view(1))
    assert samplers[0].draws == 6 and len(calls) == solved
    expected = "1 play 7C" if solved else str(PIMCBot(seed=3).fallback.choose(state.view(1)))
    assert str(move) == expected


class NoFallback(BaseBot):
    """A fallback that must not be asked: the solver is expected to decide."""

    def choose(self, view):
        raise AssertionError("pimc fell back to its fallback bot")


def individual_positions(players: int, count: int, seed: int, skip: int):
    """Decision points of random ``full-hand`` deals with 2 or 3 players, at
    least ``skip`` actions in (a 2-player world is a whole deal to solve at the
    first tricks: seconds; later, milliseconds)."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = new_state("full-hand", players=players, single_deal=True,
                          first_dealer=rng.randrange(players))
        state.apply_chance(state.sample_chance(rng))
        for _ in range(skip + rng.randrange(6)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal() and len(state.legal_actions()) > 1:
            found.append(state)
    return found


@pytest.mark.parametrize("players,skip", [(2, 18), (3, 3)])
def test_pimc_solves_individual_play_from_the_view_alone(monkeypatch: pytest.MonkeyPatch,
                                                         players: int, skip: int) -> None:
    """With 2 and 3 players pimc solves its worlds (each of ``worlds`` draws
    calls the solver; the fallback is never asked) and decides from the view
    alone: a JSON round-trip of it, with no path back to the state, gives the
    same move, and the view is left as it was."""
    import copy
    import json

    import goat.fast.solver as solver

    calls: list[int] = []
    real = solver.evaluate_moves
    monkeypatch.setattr(solver, "evaluate_moves", lambda world: (calls.append(1), real(world))[1])
    for i, state in enumerate(individual_positions(players, 3, seed=40 + players, skip=skip)):
        view = state.view(state.current_player())
        before = copy.deepcopy(view)
        detached = json.loads(json.dumps(view))
        bot = PIMCBot(seed=i, worlds=4)
        bot.fallback = NoFallback()
        calls.clear()
        a = bot.choose(view)
        assert len(calls) == 4
        twin = PIMCBot(seed=i, worlds=4)
        twin.fallback = NoFallback()
        assert twin.choose(detached) == a and str(a) in view["legal_actions"]
        assert view == before


def test_pimc_plays_the_shamok_onto_the_queen_with_two_players() -> None:
    """2 players, trumps hearts, trump leads free: seat 0 leads QC and seat 1
    must follow with a trump, 7C or JD. 7C catches the queen (+4 penalty to seat
    0, the deal over): in every world seat 1's view allows, the best move."""
    hands = {"0": "QC AH TH KH AD TD KD 9D", "1": "7C JD 8S 9S KS 8D 7D 7S"}
    state = deal_state("full-hand", hands=hands, trump_card="9H", dealer=0, players=2,
                       stock="QS QH QD JS JH JC AS TS 7H 8H 9H AC TC KC 9C 8C",
                       options={"trump_lead": "free"}, single_deal=True)
    play(state, "0 play QC")
    assert sorted(state.view(1)["legal_actions"]) == ["1 play 7C", "1 play JD"]
    bot = PIMCBot(seed=3, worlds=4)
    bot.fallback = NoFallback()
    assert str(bot.choose(state.view(1))) == "1 play 7C"


def test_pimc_stops_a_world_at_its_deadline_when_the_node_budget_does_not(monkeypatch: pytest.MonkeyPatch) -> None:
    """The node budget comes from a measured rate, and a machine that gets busier
    mid-world makes it too large: ``stop_after`` then ends the world at the
    deadline. With a rate so high that no budget ever binds, a 10 ms limit at the
    first lead of 2-player deals (each world tens of milliseconds at least) cuts
    worlds by time, and the bot still answers with a legal move."""
    import goat.bots.pimc as pimc
    import goat.fast.solver as solver

    monkeypatch.setattr(pimc, "RATES", {k: pimc.NodeRate(1e15) for k in pimc.START_RATE})
    outcomes: list[str] = []
    real = solver.evaluate_moves

    def solve(world, max_nodes=None):
        try:
            values = real(world, max_nodes=max_nodes)
        except solver.SolverBudgetExceeded as exc:
            outcomes.append(str(exc))
            raise
        outcomes.append("solved")
        return values

    monkeypatch.setattr(solver, "evaluate_moves", solve)
    for i, state in enumerate(individual_positions(2, 3, seed=7, skip=0)):
        view = state.view(state.current_player())
        action = PIMCBot(seed=i, worlds=100, time_limit=0.01).choose(view)
        assert str(action) in view["legal_actions"]
    assert "the solver's time ran out" in outcomes
    assert not any("nodes ran out" in o for o in outcomes)   # the budgets never bound


@pytest.mark.parametrize("shamok_penalty", [0, 1, 2, 3, 4, 5])
@pytest.mark.parametrize("penalty", ["flat2", "graded"])
def test_utility_orders_the_ends_as_the_solver_ranks_them(shamok_penalty: int, penalty: str) -> None:
    """pimc's utility and the solver's ``rank_of`` order every end of a deal
    alike, ties included (a catch and a point result of the same penalty: the
    catch first, as :func:`goat.fast.solver_rank.catch_result` says for both)."""
    from goat.fast.solver import rank_of
    from goat.fast.solver_rank import total_points
    from tests.fast.test_solver import position
    from tests.fast.test_solver_rank import with_piles

    options = {"shamok_penalty": shamok_penalty, "penalty": penalty}
    state = with_piles(position("full-hand", {0: "7C", 1: "QC", 2: "AH", 3: "TH"}, leader=0,
                                options=options), "")
    assert total_points(state) == 120   # a real deal's: pimc's utility reads 120
    ends = [*range(121), 1000, -1000]
    by_rank = sorted(ends, key=lambda v: rank_of(state, v))
    by_utility = sorted(ends, key=lambda v: utility(v, shamok_penalty, penalty=penalty))
    assert by_rank == by_utility
    # (no two ends tie in either: every end has a place of its own)
    assert len({rank_of(state, v) for v in ends}) == len({utility(v, shamok_penalty, penalty=penalty) for v in ends})
