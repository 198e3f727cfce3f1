"""PettingZoo AEC environment for any Goat game with an encoder.

>>> env = GoatAECEnv("kozel", "classic")
>>> env.reset(seed=7)
>>> env.agent_selection
'seat_2'
>>> obs, reward, terminated, truncated, info = env.last()
>>> obs["observation"].shape, obs["action_mask"].shape, int(obs["action_mask"].sum())
((526,), (32,), 3)

Agents are ``seat_0 .. seat_{n-1}``. Each step one agent picks a token (see
:mod:`goat.envs.tokens`): a card in the single-card rulesets, a card or a verb
(or ``wait``) in street. Chance (shuffle and deal, the first dealer) is drawn
inside the environment from the ``reset`` seed, so a seed and the agents'
actions fix the whole trajectory.

Rewards (zero-sum, see ``docs/envs.md``): when a deal ends, every seat gets the
change of the encoder's score — in Kozel the penalty points its side avoided
minus those it took (classic: −2 to the losers of a deal, +2 to the winners);
when the match ends, every seat also gets ``state.returns()`` (Kozel: −1 for the
goat side, +1 for the others). With ``single_deal=True`` an episode is one deal
and its only reward is ``returns()`` at the end (the same penalty balance,
or ±1 for a royal goat). ``deal_rewards=False`` keeps only the match outcome.
``max_steps=N`` cuts an episode short after ``N`` decisions, every agent
``truncated`` (random play never ends a Spades match to 500).

Observations come from the game's fast path when it has one (Kozel, Spades:
:mod:`goat.envs.encoders.kozel_state`), equal bit for bit to the encoding of
the seat's own view; ``fast=False`` encodes ``state.view(seat)`` instead.

``state()`` is PettingZoo's *global* state for centralised training (a
centralised critic): every hand, the stock and every seat's observation in one
vector of ``state_space`` (:mod:`goat.envs.global_state`; Kozel and Spades). It
reveals every hidden card; agents act on ``observe(agent)``, their own view.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Mapping
from typing import Any, ClassVar

import gymnasium
import numpy as np
from pettingzoo import AECEnv

from goat.envs.global_state import GlobalState, NoGlobalStateError
from goat.envs.spec import GameSpec
from goat.envs.tokens import TokenGame
from goat.protocol import GoatError
from goat.protocol import check_seed as protocol_check_seed

RENDER_MODES = ("ansi", "human")


class RenderModeError(GoatError, TypeError):
    """A render mode the environments do not have (they render text only).

    Also a ``TypeError``: Stable-Baselines3's ``make_vec_env`` builds an env id with
    ``render_mode="rgb_array"`` first and, on a ``TypeError`` only, again without it;
    any other error would stop it from building ``gymnasium.make("goat/Kozel-v0")``."""


def check_seed(seed: Any) -> int | None:
    """``seed`` as a Python int (numpy integers too), or ``None``. Refused in one
    line: anything else, and negative seeds — ``random.Random`` seeds with the
    absolute value, so ``-3`` would replay the episode of ``3``."""
    return None if seed is None else protocol_check_seed(seed, allowed=" or None")


def check_flag(name: str, value: Any) -> bool:
    """``value`` as a ``bool`` (numpy booleans too), else a one-line :class:`GoatError`.
    Only a real boolean: ``single_deal="false"`` read from a config file is a
    true value in Python and would silently play single deals."""
    if not isinstance(value, (bool, np.bool_)):
        raise GoatError(f"{name} must be True or False, not {value!r}")
    return bool(value)


def check_max_steps(value: Any) -> int | None:
    """``max_steps`` as a positive int (numpy integers too) or ``None``, else one line.
    A limit matters for matches random play never ends (Spades to 500: random bids
    are set deal after deal, and the scores only fall)."""
    if value is None:
        return None
    try:
        steps = operator.index(value)
    except TypeError:
        steps = 0
    if isinstance(value, (bool, np.bool_)) or steps < 1:
        raise GoatError(f"max_steps must be a whole number from 1, or None (no limit), not {value!r}")
    return steps


def observation_space(game_layout_size: int, num_actions: int) -> gymnasium.spaces.Dict:
    """``{"observation": Box[0,1], "action_mask": Box{0,1}}`` — the same for every seat."""
    return gymnasium.spaces.Dict({
        "observation": gymnasium.spaces.Box(0.0, 1.0, (game_layout_size,), np.float32),
        "action_mask": gymnasium.spaces.Box(0, 1, (num_actions,), np.int8),
    })


class GoatAECEnv(AECEnv):
    """One game and ruleset as a PettingZoo AEC environment (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": list(RENDER_MODES), "name": "goat_v0", "is_parallelizable": False}

    def __init__(self, game: str = "kozel", rules: str | None = None, players: int | None = None,
                 options: Mapping[str, Any] | None = None, single_deal: bool = False,
                 deal_rewards: bool = True, render_mode: str | None = None, fast: bool = True,
                 max_steps: int | None = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise RenderModeError(f"render_mode must be one of {', '.join(RENDER_MODES)} or None, not {render_mode!r}")
        self.game_spec = GameSpec(game, rules, players, {} if options is None else options,
                                  check_flag("single_deal", single_deal))
        self.encoder, n = self.game_spec.encoder()
        self.render_mode = render_mode
        self.deal_rewards = check_flag("deal_rewards", deal_rewards)
        self.fast = check_flag("fast", fast)  # False: observe through state.view(seat) (the reference; slower)
        self.max_steps = check_max_steps(max_steps)
        self.metadata = dict(self.metadata, name=f"goat_{self.game_spec.label.replace('-', '_')}_v0")
        self.possible_agents = [f"seat_{i}" for i in range(n)]
        probe = TokenGame(self.game_spec.new_state(), self.encoder)
        self.num_actions = probe.num_actions
        self.layout = probe.layout
        space = observation_space(probe.layout.size, probe.num_actions)
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: gymnasium.spaces.Discrete(probe.num_actions) for a in self.possible_agents}
        try:  # the global state, for games that have one (no ``state_space`` otherwise, as PettingZoo expects)
            self.global_state: GlobalState | None = GlobalState(self.encoder, probe.layout, n)
            self.state_space = self.global_state.space
        except NoGlobalStateError:
            self.global_state = None
        self.game: TokenGame | None = None
        self._rng: random.Random | None = None

    # --------------------------------------------------------------- spaces
    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.observation_spaces[self._known(agent)]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.action_spaces[self._known(agent)]

    def _known(self, agent: str) -> str:
        if agent not in self.action_spaces:
            raise GoatError(f"no agent {agent!r} (agents: {', '.join(self.possible_agents)})")
        return agent

    # ---------------------------------------------------------------- reset
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a new episode. ``seed`` fixes chance; without it the generator
        of the previous episode continues. ``options`` are not used.

        An episode always has a decision: a game that ends before anyone acts
        (a royal goat dealt at the first deal) is dealt again."""
        seed = check_seed(seed)
        if seed is not None or self._rng is None:
            self._rng = random.Random(seed)
        n = len(self.possible_agents)
        while True:
            self.game = TokenGame(self.game_spec.new_state(first_dealer=self._rng.randrange(n)), self.encoder,
                                  fast=self.fast)
            while self.game.state.is_chance_node():
                self.game.deal(self._rng)
            if not self.game.state.is_terminal():
                break
        self._scores = self.encoder.scores(self.game.state.result())
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.actor()]
        self._steps = 0

    # ----------------------------------------------------------------- step
    def step(self, action: Any) -> None:
        """The selected agent picks token ``action`` (an integer the mask allows).
        An illegal token raises :class:`~goat.protocol.IllegalActionError` and
        changes nothing."""
        self._check_live()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        try:
            token = operator.index(action)  # ints and numpy integers, not floats or text
        except TypeError:
            raise GoatError(f"an action is an integer token, not {action!r}") from None
        game.apply_token(token)  # raises before any change if illegal
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._advance()
        self._steps += 1
        if self.max_steps is not None and self._steps >= self.max_steps and not any(self.terminations.values()):
            self.truncations = {a: True for a in self.agents}  # the time limit: every agent is done
            self.agent_selection = self.agents[0]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _advance(self) -> None:
        """After a token: score finished deals, deal the next one, find the next agent."""
        game, state = self.game, self.game.state
        while state.is_chance_node() or state.is_terminal():
            if not self.game_spec.single_deal and self.deal_rewards:
                self._reward_deal()
            if state.is_terminal():
                break
            game.deal(self._rng)
        if state.is_terminal():
            for agent, value in zip(self.possible_agents, state.returns()):
                self.rewards[agent] += float(value)
            self.terminations = {a: True for a in self.agents}
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[game.actor()]

    def _reward_deal(self) -> None:
        scores = self.encoder.scores(self.game.state.result())
        for agent, new, old in zip(self.possible_agents, scores, self._scores):
            self.rewards[agent] += new - old
        self._scores = scores

    def _check_live(self) -> None:
        """One line, not an ``AttributeError`` or ``KeyError``, for a step or
        ``last()`` before ``reset()``, after ``close()`` or after every agent has
        been removed at the end of the episode."""
        self._check_reset()
        if not self.agents:
            raise GoatError("the episode is over (every agent is done): call reset()")

    def _check_reset(self) -> None:
        if self.game is None:
            raise GoatError("the environment is not reset: call reset() first")

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict]:
        self._check_live()
        return super().last(observe)

    # -------------------------------------------------------------- observe
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        self._check_reset()
        seat = self.possible_agents.index(self._known(agent))
        return {"observation": self.game.observation(seat), "action_mask": self.game.mask(seat)}

    def state(self) -> np.ndarray:
        """The global state: every hand, the stock and every seat's observation
        (``float32[state_space.shape]``, see :mod:`goat.envs.global_state`).

        For centralised training only (a critic): it **reveals the hidden cards
        of every seat**. A policy that acts must be given ``observe(agent)``."""
        if self.global_state is None:
            raise NoGlobalStateError(f"no global state (state()) for {self.game_spec.game} yet")
        self._check_reset()
        return self.global_state.encode(self.game)

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode (use 'ansi' or 'human')")
            return None
        text = self.encoder.describe(self.game.state.view(None)) if self.game else "(not reset)"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.game = None
