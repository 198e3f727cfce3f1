"""Kozel's hidden facts for the global state (``GoatAECEnv.state()``).

A seat's observation (:mod:`goat.envs.encoders.kozel`) holds what that seat may
know; the global state adds every seat's observation and, from here, what *no*
seat's observation shows: the hands, the stock in draw order, the face-down
cards of the current trick and of the piles (street), and the cards of a
partner exchange not yet handed over. Seats and sides are **absolute** (row
``s`` is seat ``s``), card indices are the encoder's, every value in ``[0, 1]``.

It reads the engine's attributes (never changes them) and exists for
centralised training only: it reveals every hidden card.

>>> from goat.envs.encoders.kozel import make_encoder
>>> from goat.games.kozel import new_state
>>> [f.name for f in make_hidden_encoder(make_encoder(new_state("street").view(None))).layout.fields]
['hands', 'stock_order', 'table_hidden', 'piles']
"""

from __future__ import annotations

from typing import Any

import numpy as np

from goat.envs.encoders.kozel import KozelEncoder, stock_depth
from goat.envs.layout import Field, Layout


class KozelHiddenEncoder:
    """See the module docstring; built by :func:`make_hidden_encoder`."""

    def __init__(self, encoder: KozelEncoder) -> None:
        rules = encoder.rules
        n, d, s = encoder.n, encoder.deck_size, encoder.sides
        self.index = {c: i for i, c in enumerate(encoder.deck)}  # cards are interned
        self.stock_size = rules.stock_size
        fields = [Field("hands", (n, d), "every seat's hand, by absolute seat")]
        if self.stock_size:
            fields.append(Field("stock_order", (d,), "each card still in the stock: its depth, (cards above "
                                "it + 1) ÷ the stock at the deal (as trump_card_place); 0 if not in it"))
        if encoder.street:
            fields.append(Field("table_hidden", (n, d), "face-down cards of the current trick, by the "
                                "absolute seat that passed them"))
        fields.append(Field("piles", (s, d), "cards in each side's pile this deal, by absolute side "
                            "(face-down passes included)"))
        if rules.partner_exchange:
            fields.append(Field("giving", (n, d), "cards given in the partner exchange and not yet "
                                "handed over, by absolute giver"))
        self.layout = Layout(fields)

    def encode_hidden(self, state: Any, out: np.ndarray) -> None:
        """Write the hidden facts of ``state`` into ``out`` (zeroed, ``layout.size``)."""
        f, index = self.layout.views(out), self.index
        for seat, hand in enumerate(state.hands):
            f["hands"][seat, [index[c] for c in hand]] = 1.0
        if self.stock_size:
            for place, card in enumerate(state.stock):
                f["stock_order"][index[card]] = stock_depth(place, self.stock_size)
        if "table_hidden" in f:
            for play in state.trick:
                if play.verb != "play":
                    f["table_hidden"][play.seat, [index[c] for c in play.cards]] = 1.0
        for side, pile in enumerate(state.piles):
            f["piles"][side, [index[c] for c in pile]] = 1.0
        if "giving" in f:
            for giver, card in state.pending_gives:
                f["giving"][giver, index[card]] = 1.0


def make_hidden_encoder(encoder: KozelEncoder) -> KozelHiddenEncoder:
    """The hidden part of the global state for ``encoder``'s ruleset."""
    return KozelHiddenEncoder(encoder)
