"""What standard RL trainers ask of the environments, checked without the trainers.

Found by training agents (``docs/envs.md``, "Training with Stable-Baselines3"):
sb3-contrib's ``MaskablePPO`` looks for an ``action_masks()`` method (through any
wrappers, and in ``SubprocVecEnv`` workers); Stable-Baselines3's ``make_vec_env``
first builds an env id with ``render_mode="rgb_array"`` and retries without it only
on a ``TypeError``; PettingZoo's parallel API is reached through
``turn_based_aec_to_parallel``. The last two tests (the page's training example among
them) run the real libraries when they are installed (the project's test venv has
neither, so they are skipped there).
"""

from __future__ import annotations

from pathlib import Path

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


def test_stable_baselines3_builds_and_masks_the_env_by_id() -> None:
    """With Stable-Baselines3 and sb3-contrib installed (not in the project's venv)."""
    pytest.importorskip("stable_baselines3")
    pytest.importorskip("sb3_contrib")
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
    from stable_baselines3.common.env_util import make_vec_env

    vec = make_vec_env("goat/Kozel-v0", n_envs=2, seed=0, env_kwargs={"rules": "street", "single_deal": True})
    obs = vec.reset()
    assert is_masking_supported(vec)
    assert np.array_equal(get_action_masks(vec), obs["action_mask"].astype(bool))
    vec.close()


def test_the_pages_stable_baselines3_example_runs() -> None:
    """docs/envs.md's training example, cut to a few steps and deals (with SB3 installed)."""
    pytest.importorskip("stable_baselines3")
    pytest.importorskip("sb3_contrib")
    text = (Path(__file__).resolve().parents[2] / "docs" / "envs.md").read_text(encoding="utf-8")
    code = text.split("### Training with Stable-Baselines3", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    cuts = {"total_timesteps=250_000": "total_timesteps=1024", "range(10_000, 14_000)": "range(10_000, 10_005)"}
    for old, new in cuts.items():
        assert old in code
        code = code.replace(old, new)
    exec(compile(code, "docs/envs.md", "exec"), {})
