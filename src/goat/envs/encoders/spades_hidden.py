"""Spades' hidden facts for the global state (``GoatAECEnv.state()``).

As :mod:`goat.envs.encoders.kozel_hidden`: what no seat's observation shows —
every hand (face-down hands included) and, where a double nil exchanges, the
cards given and not yet handed over. Absolute seats, the encoder's card indices, values in ``[0, 1]``.
For centralised training only: it reveals every hidden card.

>>> from goat.envs.encoders.spades import make_encoder
>>> from goat.games.spades import new_state
>>> [f.name for f in make_hidden_encoder(make_encoder(new_state("standard").view(None))).layout.fields]
['hands']
>>> view = new_state("standard", options={"double_nil": True}).view(None)
>>> [f.name for f in make_hidden_encoder(make_encoder(view)).layout.fields]
['hands', 'giving']
"""

from __future__ import annotations

from typing import Any

import numpy as np

from goat.envs.encoders.spades import SpadesEncoder
from goat.envs.layout import Field, Layout


class SpadesHiddenEncoder:
    """See the module docstring; built by :func:`make_hidden_encoder`."""

    def __init__(self, encoder: SpadesEncoder) -> None:
        n, d = encoder.n, encoder.deck_size
        self.index = {c: i for i, c in enumerate(encoder.deck)}  # cards are interned
        fields = [Field("hands", (n, d), "every seat's hand, by absolute seat (face-down hands too)")]
        if encoder.rules.double_nil:   # only a double nil exchanges (as Kozel's ``giving``: left out where none)
            fields.append(Field("giving", (n, d), "cards given in the exchange and not yet handed over, "
                                "by absolute giver"))
        self.layout = Layout(fields)

    def encode_hidden(self, state: Any, out: np.ndarray) -> None:
        """Write the hidden facts of ``state`` into ``out`` (zeroed, ``layout.size``)."""
        f, index = self.layout.views(out), self.index
        for seat, hand in enumerate(state.hands):
            f["hands"][seat, [index[c] for c in hand]] = 1.0
        if "giving" in f:
            for giver, _, card in state.pending_gives:
                f["giving"][giver, index[card]] = 1.0


def make_hidden_encoder(encoder: SpadesEncoder) -> SpadesHiddenEncoder:
    """The hidden part of the global state for ``encoder``'s ruleset."""
    return SpadesHiddenEncoder(encoder)
