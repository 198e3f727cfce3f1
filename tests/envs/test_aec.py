"""The PettingZoo AEC environment: PettingZoo's own API and seed tests for
every ruleset of every game (Kozel, each Spades preset), our determinism and reward checks, and one-line refusals."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from goat.envs import GoatAECEnv, aec_env
from goat.protocol import GoatError, IllegalActionError

from .conftest import CASES


def make(label: str, **kwargs) -> GoatAECEnv:
    return GoatAECEnv(*CASES[label].env_args(), **kwargs)


def play(env: GoatAECEnv, seed: int, policy_seed: int, max_steps: int = 20_000):
    """One episode with a seeded random masked policy; returns the trajectory
    (agent, observation bytes, reward, terminated) and each agent's total reward."""
    env.reset(seed=seed)
    rng = np.random.default_rng(policy_seed)
    trajectory, totals = [], {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter(max_steps):
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        trajectory.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward, terminated))
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
    assert not env.agents, "episode did not end"
    return trajectory, totals


#: api_test's advice for Dict observations (it exempts its own chess, go... by name).
DICT_OBSERVATION_NOTES = ("Observation is not a NumPy array",
                          "Observation space for each agent probably should be gymnasium.spaces.box")


@pytest.mark.parametrize("label", list(CASES))
def test_pettingzoo_api_test(label: str) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(make(label), num_cycles=300)
    others = {str(w.message) for w in caught if not str(w.message).startswith(DICT_OBSERVATION_NOTES)}
    assert not others


@pytest.mark.parametrize("label", list(CASES))
def test_pettingzoo_seed_test(label: str) -> None:
    seed_test(lambda: make(label), num_cycles=300)


@pytest.mark.parametrize("label", list(CASES))
def test_same_seed_same_trajectory_other_seed_other_game(label: str) -> None:
    first, _ = play(make(label, single_deal=True), seed=5, policy_seed=1)
    again, _ = play(make(label, single_deal=True), seed=5, policy_seed=1)
    other, _ = play(make(label, single_deal=True), seed=6, policy_seed=1)
    assert first == again
    assert first != other


@pytest.mark.parametrize("label", ["classic", "street", "full-hand-3p"])
def test_match_rewards_are_deal_balances_plus_the_outcome(label: str) -> None:
    env = make(label)
    _, totals = play(env, seed=3, policy_seed=3)
    state = env.game.state
    assert state.is_terminal()
    scores = env.encoder.scores(state.result())
    for seat, agent in enumerate(env.possible_agents):
        assert totals[agent] == pytest.approx(scores[seat] + state.returns()[seat])
    assert sum(totals.values()) == pytest.approx(0.0)
    # The deal rewards were paid as the deals ended, not all at the end.
    assert len(state.deal_results) >= 2


def test_deal_rewards_arrive_when_each_deal_ends() -> None:
    env = make("classic")
    env.reset(seed=8)
    rng = np.random.default_rng(0)
    paid = []
    for agent in env.agent_iter(20_000):
        obs, _, terminated, _, _ = env.last()
        if terminated:
            env.step(None)
            continue
        deals = len(env.game.state.deal_results)
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
        if len(env.game.state.deal_results) > deals and not env.game.state.is_terminal():
            pen = env.game.state.deal_results[-1]["penalty"]
            paid.append(([env.rewards[a] for a in env.possible_agents], pen))
    assert paid
    for rewards, pen in paid:
        assert rewards == [pen[1] - pen[0], pen[0] - pen[1]] * 2


def test_single_deal_reward_is_the_returns_and_deal_rewards_can_be_turned_off() -> None:
    env = make("street", single_deal=True)
    _, totals = play(env, seed=4, policy_seed=2)
    assert list(totals.values()) == env.game.state.returns()
    env = make("classic", deal_rewards=False)
    _, totals = play(env, seed=4, policy_seed=2)
    assert list(totals.values()) == env.game.state.returns()
    assert sorted(totals.values()) == [-1.0, -1.0, 1.0, 1.0]


def test_illegal_actions_raise_one_line_and_change_nothing() -> None:
    env = aec_env("kozel", "classic")
    env.reset(seed=1)
    agent = env.agent_selection
    obs, *_ = env.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    for bad in (illegal, 99, -3):
        with pytest.raises(IllegalActionError) as err:
            env.step(bad)
        assert "\n" not in str(err.value)
    for not_a_token in ("QC", 2.0, None):
        with pytest.raises(GoatError, match="integer token"):
            env.step(not_a_token)
    assert env.agent_selection == agent
    after, *_ = env.last()
    assert np.array_equal(after["observation"], obs["observation"])


def test_bad_construction_is_refused_in_one_line() -> None:
    for kwargs, needle in [({"rules": "poker"}, "unknown Kozel ruleset"),
                           ({"options": {"penalty": "huge"}}, "penalty"),
                           ({"game": "chess"}, "unknown game"),
                           ({"render_mode": "rgb_array"}, "render_mode")]:
        with pytest.raises(GoatError, match=needle) as err:
            GoatAECEnv(**kwargs)
        assert "\n" not in str(err.value)


def test_render_shows_the_public_table_only() -> None:
    env = make("street", render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert text.startswith("kozel street: deal 1")
    hands = env.game.state.hands
    assert not any(str(c) in text for hand in hands for c in hand if str(c) != env.game.state.view(None)["trump_card"])


def test_a_game_won_before_anyone_acts_is_dealt_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """A royal goat dealt to the first deal ends the match at once; reset deals a new game."""
    from goat.games.kozel import KozelDeal, KozelState

    shuffle = KozelState.sample_chance
    calls = []

    def royal_first(self, rng):
        deal = shuffle(self, rng)
        calls.append(deal)
        if len(calls) > 1:
            return deal
        cards = [c for hand in deal.hands for c in hand]
        aces = [c for c in cards if c.rank == "A"]
        rest = [c for c in cards if c.rank != "A"]
        size = len(deal.hands[0])
        hands = [tuple(aces + rest[:size - 4])] + [tuple(rest[size - 4 + i * size:size - 4 + (i + 1) * size])
                                                   for i in range(len(deal.hands) - 1)]
        return KozelDeal(tuple(hands), deal.stock, deal.trump_card)

    monkeypatch.setattr(KozelState, "sample_chance", royal_first)
    env = make("full-hand")
    env.reset(seed=1)
    assert len(calls) == 2  # the royal goat game was dropped, a second one dealt
    assert not any(env.terminations.values()) and not env.game.state.is_terminal()
    assert len(env.game.state.deal_results) == 0
