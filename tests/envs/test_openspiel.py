"""The OpenSpiel registration: pyspiel's own random simulation test, and
OpenSpiel's ISMCTS and MCTS bots playing whole deals unchanged."""

from __future__ import annotations

import json

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts

import goat.envs.openspiel  # noqa: F401  (registers goat_kozel)
from goat.games.kozel import chance_from_json, new_state
from goat.protocol import Action

from .conftest import RULESETS


def load(label: str, **params) -> pyspiel.Game:
    rules, players = RULESETS[label]
    params = {"rules": rules, **({"players": players} if players else {}), **params}
    return pyspiel.load_game("goat_kozel", params)


@pytest.mark.parametrize("label", list(RULESETS))
def test_pyspiel_random_sim_test_single_deal(label: str) -> None:
    pyspiel.random_sim_test(load(label, single_deal=True), num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize("label", ["classic", "street"])
def test_pyspiel_random_sim_test_whole_match(label: str) -> None:
    pyspiel.random_sim_test(load(label), num_sims=1, serialize=True, verbose=False)


def test_game_facts_follow_the_ruleset() -> None:
    classic, street = load("classic"), load("street", single_deal=True)
    assert classic.num_distinct_actions() == 32 and street.num_distinct_actions() == 36 + 3 + 1
    assert (classic.min_utility(), classic.max_utility()) == (-1.0, 1.0)
    assert (street.min_utility(), street.max_utility()) == (-6.0, 6.0)
    assert load("full-hand-3p").num_players() == 3
    assert classic.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    overridden = pyspiel.load_game("goat_kozel", {"rules": "street", "options": json.dumps({"penalty": "flat2"}),
                                                 "single_deal": True})
    assert overridden.max_utility() == 2.0


def test_bad_parameters_are_refused() -> None:
    for params in ({"rules": "poker"}, {"options": "{not json"}, {"options": '{"penalty": "huge"}'}):
        with pytest.raises(Exception, match="ruleset|JSON|penalty"):
            pyspiel.load_game("goat_kozel", params)


def play_deal(game, bots, seed: int) -> pyspiel.State:
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randint(len(outcomes))][0])
            continue
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    return state


def replays_in_the_engine(state) -> None:
    """The deal OpenSpiel played is a legal Kozel deal with the same result."""
    engine = state.core.state
    rules = engine.rules
    fresh = new_state(rules, first_dealer=engine.logs[-1]["dealer"], single_deal=True)
    log = engine.deal_log()[-1]
    fresh.apply_chance(chance_from_json(fresh, log))
    for text in log["actions"]:
        fresh.apply_action(Action.parse(text))
    assert fresh.result()["deals"][-1] == engine.result()["deals"][-1]


def test_openspiel_ismcts_plays_a_full_classic_deal() -> None:
    game = load("classic", single_deal=True)
    rs = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    bots = [ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=25, random_state=rs)
            for _ in range(game.num_players())]
    state = play_deal(game, bots, seed=7)
    returns = state.returns()
    assert sum(returns) == 0 and max(abs(r) for r in returns) in (0, 2, 4)
    replays_in_the_engine(state)


def test_openspiel_mcts_and_ismcts_play_a_full_street_deal() -> None:
    game = load("street", single_deal=True)
    rs = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    bots = [ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=10, random_state=rs)
            if seat % 2 == 0 else mcts.MCTSBot(game, uct_c=2.0, max_simulations=10, evaluator=evaluator,
                                               random_state=rs)
            for seat in range(4)]
    state = play_deal(game, bots, seed=3)
    assert sum(state.returns()) == 0
    replays_in_the_engine(state)


def test_resampled_worlds_look_the_same_to_the_seat_and_differ_elsewhere() -> None:
    game = load("full-hand", single_deal=True)
    state = game.new_initial_state()
    rng = np.random.RandomState(1)
    while state.is_chance_node():
        state.apply_action(int(rng.randint(state.chance_outcomes().__len__())))
    for _ in range(6):  # into the play
        state.apply_action(state.legal_actions()[0])
    seat = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    worlds = [state.resample_from_infostate(seat, sampler) for _ in range(5)]
    for world in worlds:
        assert world.information_state_string(seat) == state.information_state_string(seat)
        assert world.legal_actions() == state.legal_actions()
        assert np.array_equal(world.observation_tensor(seat), state.observation_tensor(seat))
    others = {str(sorted(map(str, w.core.state.hands[(seat + 1) % 4]))) for w in worlds}
    assert len(others) > 1


def test_the_same_history_replays_the_same_game() -> None:
    game = load("street", single_deal=True)
    a = game.new_initial_state()
    rng = np.random.RandomState(5)
    while not a.is_terminal():
        legal = a.legal_actions()
        a.apply_action(legal[rng.randint(len(legal))])
    b = game.new_initial_state()
    for action in a.history():
        b.apply_action(action)
    assert str(b) == str(a) and b.returns() == a.returns()
    # Seed bytes never reach an information state.
    assert "seed" not in a.information_state_string(0)


def test_resampling_for_another_seat_forgets_the_actors_half_made_choice() -> None:
    game = load("street", single_deal=True)
    state = game.new_initial_state()
    rng = np.random.RandomState(4)
    while state.is_chance_node() or state.core.is_offer():
        legal = state.legal_actions()
        state.apply_action(legal[rng.randint(len(legal))])
    actor = state.current_player()
    state.apply_action(state.legal_actions()[0])  # the first card of a lead
    assert state.core.prefix and state.current_player() == actor
    other = (actor + 1) % 4
    world = state.resample_from_infostate(other, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert world.core.prefix == () and world.current_player() == actor
    assert world.information_state_string(other) == state.information_state_string(other)
    mine = state.resample_from_infostate(actor, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert mine.core.prefix == state.core.prefix


@pytest.mark.parametrize("label", ["classic", "street"])
def test_openspiels_rl_environment_plays_a_deal_to_its_returns(label: str) -> None:
    """OpenSpiel's own RL loop (its DQN and policy-gradient agents use it)."""
    from open_spiel.python import rl_environment

    game = load(label, single_deal=True)
    env = rl_environment.Environment(game, seed=3)
    rng = np.random.default_rng(3)
    step = env.reset()
    assert len(step.observations["info_state"][0]) == game.observation_tensor_size()
    while not step.last():
        player = step.observations["current_player"]
        step = env.step([int(rng.choice(step.observations["legal_actions"][player]))])
    assert step.rewards == env.get_state.returns() and sum(step.rewards) == 0


def test_outcome_sampling_mccfr_runs_and_its_policy_plays_legal_cards() -> None:
    from open_spiel.python.algorithms import outcome_sampling_mccfr

    game = load("classic", single_deal=True)
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(3):
        solver.iteration()
    policy = solver.average_policy()
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    probabilities = policy.action_probabilities(state)
    assert set(probabilities) == set(state.legal_actions()) and sum(probabilities.values()) == pytest.approx(1)
