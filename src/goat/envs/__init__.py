"""Reinforcement-learning environments for every Goat game with an encoder.

* :class:`GoatAECEnv` — PettingZoo AEC, every seat an agent (:mod:`goat.envs.aec`);
  its ``state()`` is the global state for centralised training (every hidden card:
  a critic's input, never a policy's; :mod:`goat.envs.global_state`);
* :class:`GoatSingleAgentEnv` — Gymnasium, one learning seat against bots
  (:mod:`goat.envs.single_agent`; also ``gymnasium.make("goat/Kozel-v0", rules=...)``);
* :mod:`goat.envs.openspiel` — ``pyspiel`` registration (``goat_kozel``, ``goat_spades``,
  ``goat_yugioh``), imported separately because it needs OpenSpiel.

They know games only through :mod:`goat.protocol`, the game registry and one
small observation encoder per game (:mod:`goat.envs.encoders`); ``docs/envs.md``
documents observations, actions, rewards and how to add a game.

>>> env = aec_env("kozel", rules="full-hand", players=3)
>>> env.possible_agents
['seat_0', 'seat_1', 'seat_2']
"""

from __future__ import annotations

from typing import Any

import gymnasium

from goat.envs.aec import GoatAECEnv
from goat.envs.encoders import ENCODERS
from goat.envs.single_agent import GoatSingleAgentEnv


def aec_env(game: str = "kozel", rules: str | None = None, **kwargs: Any) -> GoatAECEnv:
    """A PettingZoo AEC environment (keyword arguments of :class:`GoatAECEnv`)."""
    return GoatAECEnv(game, rules, **kwargs)


def single_agent_env(game: str = "kozel", rules: str | None = None, **kwargs: Any) -> GoatSingleAgentEnv:
    """A Gymnasium environment (keyword arguments of :class:`GoatSingleAgentEnv`)."""
    return GoatSingleAgentEnv(game, rules, **kwargs)


def gymnasium_id(game: str) -> str:
    """The Gymnasium id of a game's single-agent environment: ``goat/Kozel-v0``."""
    return f"goat/{game.title()}-v0"


#: Gymnasium's time limit (learner steps; the episode ends ``truncated``) of a game
#: whose matches need not end: Spades to 500 with random bids is set deal after deal
#: and may go on for ever (its ``max_deals`` option is off by default, as the rules
#: have it). 2000 steps are over a hundred deals; ``gymnasium.make(...,
#: max_episode_steps=N)`` sets another limit.
MAX_EPISODE_STEPS: dict[str, int] = {"spades": 2000}

for _game in ENCODERS:
    if gymnasium_id(_game) not in gymnasium.registry:
        gymnasium.register(gymnasium_id(_game), entry_point="goat.envs.single_agent:GoatSingleAgentEnv",
                           kwargs={"game": _game}, max_episode_steps=MAX_EPISODE_STEPS.get(_game))

__all__ = ["GoatAECEnv", "GoatSingleAgentEnv", "aec_env", "gymnasium_id", "single_agent_env"]
