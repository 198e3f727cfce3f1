"""The Gymnasium single-agent environment: Gymnasium's checker, bots that see
only views, rewards, determinism and refusals."""

from __future__ import annotations

import json
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from goat.bots import BaseBot, BotError, make_bot
from goat.envs import GoatSingleAgentEnv, gymnasium_id, single_agent_env
from goat.protocol import Action, GoatError, IllegalActionError

from .conftest import CASES, SPADES


def make(label: str, **kwargs) -> GoatSingleAgentEnv:
    return GoatSingleAgentEnv(*CASES[label].env_args(), **kwargs)


def run_episode(env: GoatSingleAgentEnv, seed: int, policy_seed: int = 0) -> tuple[list, float]:
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(policy_seed)
    steps, total = [], 0.0
    for _ in range(5000):
        legal = np.flatnonzero(obs["action_mask"])
        assert legal.size, "the learner is asked with no legal action"
        action = int(legal[rng.integers(legal.size)])
        obs, reward, terminated, truncated, info = env.step(action)
        assert not truncated and not info.get("illegal_action")
        steps.append((action, obs["observation"].tobytes(), reward, terminated))
        total += reward
        if terminated:
            return steps, total
    raise AssertionError("episode did not end")


@pytest.mark.parametrize("label,opponents", [("classic", "random"), ("street", "heuristic"),
                                             ("full-hand-3p", "heuristic"), ("full-hand-24", "random"),
                                             *((label, "heuristic") for label in SPADES)])
def test_gymnasium_env_checker(label: str, opponents: str) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(make(label, opponents=opponents))
    assert all("not having a spec" in str(w.message) for w in caught)


def test_gymnasium_make_and_the_checker_with_render_modes() -> None:
    env = gymnasium.make(gymnasium_id("kozel"), rules="street", opponents="random")
    assert env.spec.id == "goat/Kozel-v0"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert not [str(w.message) for w in caught]
    obs, _ = env.reset(seed=1)
    assert env.observation_space.contains(obs)


def test_a_spades_match_that_need_not_end_is_cut_by_a_time_limit() -> None:
    """Spades to 500 with random bids is set deal after deal and may never end
    (``max_deals`` is off by default): ``gymnasium.make`` wraps it in a time limit
    so that a trainer's episode ends, ``truncated``, not ``terminated``; the limit
    is the caller's to change. Kozel matches always end, so they have none."""
    assert gymnasium.spec(gymnasium_id("kozel")).max_episode_steps is None
    env = gymnasium.make(gymnasium_id("spades"), opponents="random")
    limit = env.spec.max_episode_steps
    assert limit == 2000
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    for step in range(1, limit + 2):
        obs, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if terminated or truncated:
            break
    assert (step, terminated, truncated) == (limit, False, True)
    short = gymnasium.make(gymnasium_id("spades"), opponents="random", max_episode_steps=30)
    obs, _ = short.reset(seed=0)
    for step in range(1, 32):
        obs, _, terminated, truncated, _ = short.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if terminated or truncated:
            break
    assert (step, truncated) == (30, True)


@pytest.mark.parametrize("label", list(CASES))
def test_an_episode_ends_with_the_learners_returns(label: str) -> None:
    env = make(label, opponents="heuristic", single_deal=True, seat=1)
    steps, total = run_episode(env, seed=7)
    assert total == env.aec.game.state.returns()[1]
    assert all(reward == 0 for *_, reward, terminated in steps if not terminated)


def test_same_seed_same_episode_including_the_bots() -> None:
    def episode(seed: int):
        return run_episode(make("street", opponents="random", single_deal=True), seed=seed, policy_seed=4)

    assert episode(11) == episode(11)
    assert episode(11) != episode(12)


class SpyBot(BaseBot):
    """Records what it is handed; plays the first legal action."""

    name = "spy"

    def __init__(self) -> None:
        self.seen: list = []

    def choose(self, view):
        self.seen.append(view)
        return Action.parse(view["legal_actions"][0])

    def out_of_turn(self, view):
        self.seen.append(view)


def test_bots_are_handed_their_own_view_and_nothing_else() -> None:
    spies = [SpyBot(), SpyBot(), SpyBot()]
    env = make("street", opponents=spies, single_deal=True)
    run_episode(env, seed=3)
    assert all(spy.seen for spy in spies)
    for seat, spy in zip((1, 2, 3), spies):
        for view in spy.seen:
            assert isinstance(view, dict) and view["seat"] == seat
            json.dumps(view)  # plain data, no path back to the state


def test_bots_that_see_everything_are_refused() -> None:
    with pytest.raises(BotError, match="see only their views"):
        make("classic", opponents="perfect")
    with pytest.raises(BotError, match="see only their views"):
        make("classic", opponents=[make_bot("random"), make_bot("perfect"), "random"])


def test_illegal_actions_cost_a_step_or_raise() -> None:
    env = make("classic", opponents="random")
    obs, _ = env.reset(seed=2)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    again, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info) == (-1.0, False, False, {"illegal_action": True})
    assert np.array_equal(again["observation"], obs["observation"])
    strict = make("classic", opponents="random", illegal_reward=None)
    obs, _ = strict.reset(seed=2)
    with pytest.raises(IllegalActionError):
        strict.step(illegal)


def test_bad_arguments_are_refused_in_one_line() -> None:
    for kwargs, needle in [({"seat": 4}, "seat must be 0..3"),
                           ({"opponents": ["random", "random"]}, "one per other seat"),
                           ({"opponents": "genius"}, "unknown bot 'genius'"),
                           ({"opponents": "pimc:depth=3"}, "pimc")]:
        with pytest.raises(GoatError, match=needle) as err:
            single_agent_env("kozel", "classic", **kwargs)
        assert "\n" not in str(err.value)
    with pytest.raises(GoatError, match="bot 'perfect' does not play spades"):   # its solver is Kozel's
        single_agent_env("spades", "standard", opponents="perfect")
    env = make("classic", opponents="random", single_deal=True)
    run_episode(env, seed=1)
    with pytest.raises(GoatError, match="call reset"):
        env.step(0)


def test_search_bots_play_too() -> None:
    env = make("classic", opponents="ismcts:iterations=20", single_deal=True)
    _, total = run_episode(env, seed=5)
    assert total == env.aec.game.state.returns()[0]
