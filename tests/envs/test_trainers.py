"""What standard RL trainers ask of the environments, checked without the trainers.

Found by training agents (``docs/envs.md``, "Training with Stable-Baselines3"):
sb3-contrib's ``MaskablePPO`` looks for an ``action_masks()`` method (through any
wrappers, and in ``SubprocVecEnv`` workers); Stable-Baselines3's ``make_vec_env``
first builds an env id with ``render_mode="rgb_array"`` and retries without it only
on a ``TypeError``; PettingZoo's parallel API is reached through
``turn_based_aec_to_parallel``. The trainers themselves (torch, Stable-Baselines3) are
not test dependencies: these tests pin what they rely on, and the page's example was
run with them as it says.
"""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from pettingzoo.test import parallel_api_test
from pettingzoo.utils import conversions

import goat.envs
from goat.envs import aec_env
from goat.protocol import GoatError

from .conftest import CASES


@pytest.mark.parametrize("label", ["classic", "street", "spades-standard"])
def test_action_masks_is_the_observed_mask_through_gymnasium_wrappers(label: str) -> None:
    case = CASES[label]
    env = gymnasium.make(goat.envs.gymnasium_id(case.game), rules=case.rules, opponents="random",
                         single_deal=True)
    action_masks = env.get_wrapper_attr("action_masks")  # how trainers reach it through wrappers
    rng = np.random.default_rng(1)
    obs, _ = env.reset(seed=4)
    terminated = False
    while not terminated:
        masks = action_masks()
        assert masks.dtype == np.bool_ and masks.shape == env.action_space.shape + (env.action_space.n,)
        assert np.array_equal(masks, obs["action_mask"].astype(bool)) and masks.any()
        obs, _, terminated, _, _ = env.step(int(rng.choice(np.flatnonzero(masks))))
    assert not action_masks().any()  # no decision once the episode is over


def test_action_masks_before_reset_and_in_a_vector_env() -> None:
    env = goat.envs.single_agent_env("kozel")
    with pytest.raises(GoatError, match="reset"):
        env.action_masks()
    envs = gymnasium.vector.SyncVectorEnv([lambda: gymnasium.make("goat/Kozel-v0", single_deal=True)] * 2)
    obs, _ = envs.reset(seed=3)
    masks = np.stack(envs.call("action_masks"))
    assert np.array_equal(masks, obs["action_mask"].astype(bool))


def test_an_image_render_mode_is_a_type_error_too_so_sb3_retries_without_it() -> None:
    """``make_vec_env("goat/Kozel-v0")`` asks for ``rgb_array``, then falls back on a TypeError."""
    with pytest.warns(UserWarning, match="rgb_array"), pytest.raises(TypeError, match="render_mode") as info:
        gymnasium.make("goat/Kozel-v0", render_mode="rgb_array")
    assert isinstance(info.value, GoatError) and "\n" not in str(info.value)
    with pytest.raises(TypeError, match="render_mode"):
        aec_env("kozel", render_mode="rgb_array")


@pytest.mark.parametrize("label", ["classic", "street"])
def test_the_parallel_api_through_turn_based_aec_to_parallel(label: str) -> None:
    case = CASES[label]
    env = conversions.turn_based_aec_to_parallel(aec_env(case.game, case.rules, single_deal=True))
    parallel_api_test(env, num_cycles=300)
    observations, _ = env.reset(seed=2)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    rng = np.random.default_rng(2)
    while env.agents:
        deciding = [a for a, o in observations.items() if o["action_mask"].any()]
        assert deciding == [env.unwrapped.agent_selection]  # one seat decides, the others' actions are ignored
        actions = {a: int(rng.choice(np.flatnonzero(o["action_mask"]))) if a in deciding else 0
                   for a, o in observations.items()}
        observations, rewards, _, _, _ = env.step(actions)
        for agent, reward in rewards.items():
            totals[agent] += reward
    # each reward arrives once: the episode's totals are the game's returns (single deal: zero-sum)
    assert list(totals.values()) == pytest.approx(env.unwrapped.game.state.returns())
    assert sum(totals.values()) == pytest.approx(0)
    with pytest.raises(AssertionError, match="is_parallelizable"):  # turns, not simultaneous moves
        conversions.aec_to_parallel(aec_env(case.game, case.rules))
