"""The global state of a game for centralised training (PettingZoo's ``state()``).

A centralised critic (MAPPO, QMIX, ...) learns from everything at once; the
agents still act on their own observations. :class:`GlobalState` builds that
one fixed-size ``float32`` vector from the pieces the observations are made
of, so each concept is encoded in one place:

* the game's *hidden* facts — every hand, the stock in draw order, face-down
  cards — from its hidden encoder (:data:`goat.envs.encoders.HIDDEN_ENCODERS`),
  absolute seats;
* ``observations``: every seat's observation, row ``s`` for seat ``s``, each
  exactly ``observe(seat)["observation"]`` (relative to that seat, with the
  decision fields: the actor's ``pending`` tokens and ``offer``). The public
  table, tricks, scores and phase are in every row.

It **reveals the hidden cards of every seat**: never give it to an acting policy
(``observe(agent)`` stays each seat's own view). Every value is in ``[0, 1]``.

>>> from goat.envs.spec import GameSpec
>>> from goat.envs.tokens import TokenGame
>>> encoder, n = GameSpec("kozel", "classic").encoder()
>>> gs = GlobalState(encoder, TokenGame(GameSpec("kozel", "classic").new_state(), encoder).layout, n)
>>> [f.name for f in gs.layout.fields], gs.layout.size
(['hands', 'stock_order', 'piles', 'observations'], 2328)
"""

from __future__ import annotations

import gymnasium
import numpy as np

from goat.envs.encoders import Encoder, get_hidden_encoder
from goat.envs.layout import Field, Layout
from goat.envs.tokens import TokenGame
from goat.protocol import GoatError


class NoGlobalStateError(GoatError, NotImplementedError):
    """The game has no hidden encoder, so no global state. Also a
    ``NotImplementedError``, what PettingZoo's ``state()`` raises when absent."""


class GlobalState:
    """The global state layout of one ruleset and its encoding (see the module docstring).

    Args:
        encoder: the game's observation encoder.
        observation_layout: a seat's whole observation (``TokenGame.layout``).
        players: the number of seats.
    """

    def __init__(self, encoder: Encoder, observation_layout: Layout, players: int) -> None:
        hidden = get_hidden_encoder(encoder)
        if hidden is None:
            raise NoGlobalStateError(f"no global state (state()) for {encoder.game} yet")
        self.hidden = hidden
        self.players = players
        self.observation_layout = observation_layout
        self.layout = hidden.layout + Layout([
            Field("observations", (players, observation_layout.size),
                  "every seat's observation, row s for seat s (observe(seat)['observation'])")])
        self._hidden_size = hidden.layout.size
        self.space = gymnasium.spaces.Box(0.0, 1.0, (self.layout.size,), np.float32)

    def encode(self, game: TokenGame) -> np.ndarray:
        """The global state of ``game`` (a new vector)."""
        out = self.layout.zeros()
        self.hidden.encode_hidden(game.state, out[:self._hidden_size])
        rows = out[self._hidden_size:].reshape(self.players, self.observation_layout.size)
        for seat in range(self.players):
            rows[seat] = game.observation(seat)
        return out

    def decode(self, vector: np.ndarray) -> dict[str, np.ndarray]:
        """Named views of a global state vector: the hidden fields, and
        ``observations`` (``players`` × observation size; cut a row with
        ``observation_layout.views``)."""
        return self.layout.views(vector)
