"""Which game an environment plays: a game name, a ruleset and its options.

The environments build their states only through the game registry
(:func:`goat.games.get_game`) and their encoder only through
:func:`goat.envs.encoders.get_encoder`, so this is the one place where an
environment turns user arguments into a protocol state.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from goat.envs.encoders import ENCODERS, Encoder, encoder_module, get_encoder
from goat.games import get_game
from goat.protocol import GameState, GoatError


@dataclass(frozen=True)
class GameSpec:
    """``game`` under ``rules`` (a preset name; ``None``: the game's usual one,
    its encoder module's ``DEFAULT_RULES``) with ``players`` (``None``: the
    preset's default) and option overrides. ``single_deal``: an episode is one
    deal (redealt if annulled) instead of a whole match."""

    game: str = "kozel"
    rules: str | None = None
    players: int | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    single_deal: bool = False

    def __post_init__(self) -> None:
        get_game(self.game)  # an unknown game, before its encoder is looked for
        if self.players is not None and not isinstance(self.players, bool):
            try:  # numpy integers too (a sweep's np.arange), as seeds and seats; the rules refuse the rest
                object.__setattr__(self, "players", operator.index(self.players))
            except TypeError:
                pass
        if self.rules is None:
            object.__setattr__(self, "rules", encoder_module(self.game).DEFAULT_RULES)
        if isinstance(self.options, Mapping):  # anything else: the game's new_state refuses it
            object.__setattr__(self, "options", dict(self.options))  # the caller's dict may change later

    def new_state(self, first_dealer: int = 0) -> GameState:
        """A fresh state at its first chance node; bad rules or options raise a
        one-line :class:`~goat.protocol.GoatError`."""
        if not isinstance(self.rules, str):
            raise GoatError(f"rules must be a ruleset name, not {self.rules!r}")
        module = get_game(self.game)
        extra = {}
        if self.single_deal:  # the game's own name for "one deal" (Yu-Gi-Oh!: single_duel)
            name = getattr(encoder_module(self.game), "SINGLE_EPISODE_ARGUMENT", "single_deal") \
                if self.game in ENCODERS else "single_deal"
            extra[name] = True
        return module.new_state(self.rules, options=self.options, players=self.players,
                                first_dealer=first_dealer, **extra)

    def encoder(self) -> tuple[Encoder, int]:
        """The game's encoder for this ruleset, and the number of seats."""
        state = self.new_state()
        return get_encoder(state.view(None)), state.num_players

    @property
    def label(self) -> str:
        players = f"-{self.players}p" if self.players else ""
        return f"{self.game}-{self.rules}{players}"
