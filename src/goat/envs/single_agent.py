"""Gymnasium single-agent environment: one seat learns, bots play the others.

>>> env = GoatSingleAgentEnv("kozel", "classic", seat=0, opponents="heuristic")
>>> obs, info = env.reset(seed=3)
>>> obs["observation"].shape, env.action_space
((526,), Discrete(32))
>>> legal = obs["action_mask"].nonzero()[0]
>>> obs, reward, terminated, truncated, info = env.step(int(legal[0]))

It wraps :class:`~goat.envs.aec.GoatAECEnv`: the learner's decisions are the
AEC decisions of its seat, and every other decision is taken by a bot of
:func:`goat.bots.make_bot` — handed that seat's view only, never the state —
whose whole action is fed to the AEC environment token by token. The reward
of a step is everything the learner's seat earned since its previous
decision (deal rewards and the match outcome, as in the AEC environment).

:meth:`GoatSingleAgentEnv.action_masks` is the learner's mask as booleans, the
method sb3-contrib's ``MaskablePPO`` looks for (through any wrappers, and in
``SubprocVecEnv`` workers); it equals ``obs["action_mask"]``.

An illegal action (one the mask forbids) changes nothing: the step returns the
same observation with reward ``illegal_reward`` (default −1) and
``info["illegal_action"] = True``; with ``illegal_reward=None`` it raises
:class:`~goat.protocol.IllegalActionError` instead.
"""

from __future__ import annotations

import numbers
import operator
import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import gymnasium
import numpy as np

from goat.bots import Bot, BotError, default_bot, make_bot
from goat.envs.aec import RENDER_MODES, GoatAECEnv, check_seed
from goat.protocol import GoatError, IllegalActionError
from goat.tournament.specs import parse_bot_spec

OpponentSpec = str | Bot


class GoatSingleAgentEnv(gymnasium.Env):
    """See the module docstring.

    Args:
        rules: a preset name; ``None``: the game's usual one (``classic``,
            ``standard``, ``goat``).
        seat: the learner's seat.
        opponents: ``None`` for the game's default bot (:func:`goat.bots.default_bot`:
            ``heuristic``, Yu-Gi-Oh!'s ``greedy``), one bot spec for every other seat (``"heuristic"``,
            ``"pimc:worlds=50"``, ``"ismcts:iterations=200"``), or a list with one
            spec or :class:`~goat.bots.Bot` per other seat, in seat order. Specs
            are built anew at every seeded reset, with seeds drawn from it.
        illegal_reward: reward of an illegal action, or ``None`` to raise.
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": list(RENDER_MODES), "render_fps": 4}

    def __init__(self, game: str = "kozel", rules: str | None = None, players: int | None = None,
                 options: Mapping[str, Any] | None = None, seat: int = 0,
                 opponents: OpponentSpec | Sequence[OpponentSpec] | None = None,
                 single_deal: bool = False, deal_rewards: bool = True,
                 illegal_reward: float | None = -1.0, render_mode: str | None = None) -> None:
        self.aec = GoatAECEnv(game, rules, players, options, single_deal, deal_rewards, render_mode)
        n = len(self.aec.possible_agents)
        try:
            seat_index = operator.index(seat)  # ints and numpy integers
        except TypeError:
            seat_index = -1
        if isinstance(seat, bool) or not 0 <= seat_index < n:
            raise GoatError(f"seat must be 0..{n - 1}, not {seat!r}")
        self.seat = seat = seat_index
        self.agent = self.aec.possible_agents[seat]
        self.render_mode = render_mode
        if illegal_reward is not None and (isinstance(illegal_reward, bool)
                                           or not isinstance(illegal_reward, numbers.Real)):
            raise GoatError(f"illegal_reward must be a number or None (raise instead), not {illegal_reward!r}")
        self.illegal_reward = illegal_reward
        others = [s for s in range(n) if s != seat]
        if opponents is None:
            opponents = default_bot(game)
        if isinstance(opponents, (str, Bot)):
            opponents = [opponents] * len(others)
        if not isinstance(opponents, Sequence) or not all(isinstance(o, (str, Bot)) for o in opponents):
            raise GoatError(f"opponents must be a bot spec such as 'heuristic', a Bot, or a list of them, "
                            f"not {opponents!r}")
        opponents = list(opponents)
        if len(opponents) != len(others):
            raise GoatError(f"give one opponent or {len(others)} (one per other seat), not {len(opponents)}")
        self._opponent_specs = dict(zip(others, opponents))
        self.game_name = game
        for spec in opponents:  # an unknown bot or setting fails now, in one line
            self._make_bot(spec, 0)
        self.observation_space = self.aec.observation_space(self.agent)
        self.action_space = self.aec.action_space(self.agent)
        self.bots: dict[int, Bot] = {}

    def _make_bot(self, spec: OpponentSpec, seed: int) -> Bot:
        """A bot of this game (Kozel's registry unless the game has its own)."""
        if isinstance(spec, str):
            parsed = parse_bot_spec(spec)
            try:
                bot = make_bot(parsed.name, seed, game=self.game_name, **dict(parsed.settings))
            except GoatError as exc:
                raise BotError(f"bot {parsed.text!r}: {exc}") from None
            except (TypeError, ValueError) as exc:
                raise BotError(f"bot {parsed.text!r}: bad setting ({exc})") from None
        else:
            bot = spec
        if getattr(bot, "sees_everything", False):
            raise BotError(f"bot {getattr(bot, 'name', bot)!r} sees the whole state; "
                           "opponents in an environment see only their views")
        return bot

    # ------------------------------------------------------------------ API
    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        """New episode, starting at the learner's first decision (an episode
        that ends before it is dealt again). ``options`` are not used."""
        super().reset(seed=check_seed(seed))
        draw = random.Random(int(self.np_random.integers(2**62)))
        self.bots = {s: self._make_bot(spec, draw.getrandbits(32)) for s, spec in self._opponent_specs.items()}
        self.aec.reset(seed=draw.getrandbits(62))
        while True:
            self._play_bots()
            if not self.aec.terminations[self.agent]:
                break
            self.aec.reset()
        self.aec._cumulative_rewards[self.agent] = 0.0
        return self.aec.observe(self.agent), {}

    def step(self, action: Any) -> tuple[dict, float, bool, bool, dict]:
        if self.aec.game is None or self.aec.terminations.get(self.agent, True):
            raise GoatError("no episode is running (not reset, or over): call reset()")
        try:
            self.aec.step(action)
        except IllegalActionError:
            if self.illegal_reward is None:
                raise
            return self.aec.observe(self.agent), float(self.illegal_reward), False, False, {"illegal_action": True}
        self._play_bots()
        reward = float(self.aec._cumulative_rewards[self.agent])
        self.aec._cumulative_rewards[self.agent] = 0.0
        terminated = self.aec.terminations[self.agent]
        return self.aec.observe(self.agent), reward, terminated, False, {}

    def action_masks(self) -> np.ndarray:
        """The learner's legal tokens now, as booleans (``obs["action_mask"]`` of the
        last step): what ``sb3_contrib.MaskablePPO`` calls, so it needs no
        ``ActionMasker``. All ``False`` once the episode is over."""
        self.aec._check_reset()
        return self.aec.game.mask(self.seat).astype(bool)

    def _play_bots(self) -> None:
        """Let the bots decide until the learner must (or the game is over)."""
        aec = self.aec
        while not aec.terminations[self.agent] and aec.agent_selection != self.agent:
            game = aec.game
            seat = game.actor()
            bot = self.bots[seat]
            view = game.state.view(seat)
            action = bot.out_of_turn(view) if game.is_offer() else bot.choose(view)
            seq = game.tokens_of(action)
            if game.is_offer() and action is not None and seq not in game.sequences():
                seq = (game.wait,)  # a claim that is not allowed is no claim
            if seq not in game.sequences():
                raise BotError(f"bot {getattr(bot, 'name', '?')} at seat {seat} chose {action}, "
                               "which is not legal now")
            for token in seq:
                aec.step(token)

    def render(self) -> str | None:
        """The public table as text (``"ansi"``); ``"human"`` prints it after every decision."""
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()
