"""Observation encoders: the only per-game part of the RL environments.

The environments (:mod:`goat.envs.aec`, :mod:`goat.envs.single_agent`,
:mod:`goat.envs.openspiel`) drive any game through the protocol of
:mod:`goat.protocol`. What they cannot know generically — how a seat's view
becomes a fixed-size tensor, how an :class:`~goat.protocol.Action` becomes
integers, which seats may act out of turn, how a deal is scored — each game
says in one small module here that offers ``make_encoder(view)``, returning an
object that satisfies :class:`Encoder`. Adding a game to the environments is
that module plus one line in :data:`ENCODERS` (see ``docs/envs.md``).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any, Protocol

import numpy as np

from goat.envs.layout import Layout
from goat.protocol import Action, GoatError

#: game name (``view["game"]``) -> module offering ``make_encoder(view) -> Encoder``.
ENCODERS: dict[str, str] = {
    "kozel": "goat.envs.encoders.kozel",
    "spades": "goat.envs.encoders.spades",
    "yugioh": "goat.envs.encoders.yugioh",
}

#: game name -> module offering ``make_state_encoder(encoder) -> StateEncoder``: the
#: fast path that writes ``encoder.encode(state.view(seat))`` from the state itself.
#: Optional; a game without one is observed through its view.
STATE_ENCODERS: dict[str, str] = {
    "kozel": "goat.envs.encoders.kozel_state",
    "spades": "goat.envs.encoders.spades_state",
}

#: game name -> module offering ``make_hidden_encoder(encoder) -> HiddenEncoder``: what
#: no seat observes, for the global state of centralised training
#: (:mod:`goat.envs.global_state`). A game without one has no ``state()``.
HIDDEN_ENCODERS: dict[str, str] = {
    "kozel": "goat.envs.encoders.kozel_hidden",
    "spades": "goat.envs.encoders.spades_hidden",
}

View = Mapping[str, Any]


class Encoder(Protocol):
    """What an environment needs to know about one game under one ruleset.

    Built once per environment from the spectator view of a fresh state
    (``state.view(None)``), so it may depend on the ruleset but never on a deal.

    Attributes:
        game: the registry name (``"kozel"``).
        layout: the fields :meth:`encode` writes, a fixed size for the ruleset.
        num_tokens: actions are sequences of tokens ``0..num_tokens-1``.
        multi_token: some action takes more than one token (the environment then
            adds a ``pending`` field to the observation: the tokens chosen so far).
        out_of_turn: seats may be offered an action out of turn (the environment
            then adds the ``wait`` token ``num_tokens`` and an ``offer`` field).
        max_tokens_per_deal: an upper bound on decisions (tokens) in one deal.
        zero_sum: ``returns()`` and the deal scores always sum to zero.
        positional: (optional, default ``False``) a token is the *index* of an
            action in ``state.legal_actions()`` rather than ``tokens(action)``,
            for games whose decisions are variable lists of choices (Yu-Gi-Oh!);
            ``num_tokens`` is then the largest list allowed.
    """

    game: str
    layout: Layout
    num_tokens: int
    multi_token: bool
    out_of_turn: bool
    max_tokens_per_deal: int
    zero_sum: bool

    def encode(self, view: View, out: np.ndarray) -> None:
        """Write ``view`` (a seat's view, never the state) into ``out``, a zeroed
        ``float32`` vector of ``layout.size``; every value in ``[0, 1]``."""
        ...

    def tokens(self, action: Action) -> tuple[int, ...]:
        """The tokens of ``action``. Distinct legal actions of one seat at one
        moment must give distinct sequences, none a prefix of another."""
        ...

    def token_name(self, token: int) -> str:
        """A short name for a token (``"QC"``, ``"pass"``), for logs and OpenSpiel."""
        ...

    def offer_seats(self, public_view: View) -> list[int]:
        """Seats that may act out of turn now, in the order their claims rank (the
        current player among them when it ranks too). Those listed before the
        current player are asked, in this order, before it acts; those after it
        wait for a later position (see :mod:`goat.envs.tokens`); a list without
        the current player is asked whole. It must depend on the public
        (spectator) view only, so that who is asked reveals nothing; a seat with
        no such action can only answer ``wait``."""
        ...

    def scores(self, result: View) -> list[float]:
        """Per-seat running score from ``state.result()``; the environment's deal
        reward is the change of it when a deal ends."""
        ...

    def utility_range(self, single_deal: bool) -> tuple[float, float]:
        """Bounds of ``returns()`` (OpenSpiel's min/max utility)."""
        ...

    def describe(self, public_view: View) -> str:
        """A few lines of text about the table (the environments' ``render``)."""
        ...


def encoder_module(game: str) -> Any:
    """The encoder module of ``game`` (its constants: ``DEFAULT_RULES``, ``PLAYERS``,
    and optionally ``ZERO_SUM``, ``OPENSPIEL``, ``SINGLE_EPISODE_ARGUMENT``, and for
    OpenSpiel ``FIRST_DEALER``, ``SINGLE_DEAL_BOUND``, ``MATCH_DEALS_BOUND``)."""
    if game not in ENCODERS:
        raise GoatError(f"no RL environment for game {game!r} yet (have: {', '.join(ENCODERS)})")
    return importlib.import_module(ENCODERS[game])


def get_encoder(view: View) -> Encoder:
    """The encoder for the game and ruleset of ``view`` (a fresh state's
    spectator view); a one-line :class:`GoatError` if the game has none."""
    game = view.get("game")
    module_name = ENCODERS.get(game) if isinstance(game, str) else None
    if module_name is None:
        raise GoatError(f"no RL environment for game {game!r} yet (have: {', '.join(ENCODERS)})")
    return importlib.import_module(module_name).make_encoder(view)


class StateEncoder(Protocol):
    """A game's fast observation path (optional, see :data:`STATE_ENCODERS`).

    Building a seat's view and encoding it is most of an environment step;
    a state encoder writes the same vector straight from the state's
    attributes, reading only what ``state.view(seat)`` would show. The
    encoding of the view stays the reference: ``tests/envs/test_fast_observations.py``
    checks the two are equal at every step of random episodes.
    """

    def encode_state(self, state: Any, seat: int, out: np.ndarray) -> None:
        """Write exactly ``encoder.encode(state.view(seat), out)`` into ``out`` (zeroed)."""
        ...


def get_state_encoder(encoder: Encoder) -> StateEncoder | None:
    """The fast path for ``encoder``'s game, or ``None`` if it has none."""
    module_name = STATE_ENCODERS.get(encoder.game)
    if module_name is None:
        return None
    return importlib.import_module(module_name).make_state_encoder(encoder)


class HiddenEncoder(Protocol):
    """What no seat observes, for the global state (see :data:`HIDDEN_ENCODERS`).

    It reads the state itself and reveals every hidden card, so it feeds
    ``GoatAECEnv.state()`` (centralised training) only, never an observation.

    Attributes:
        layout: its fields (absolute seats and sides), a fixed size for the ruleset.
    """

    layout: Layout

    def encode_hidden(self, state: Any, out: np.ndarray) -> None:
        """Write the hidden facts of ``state`` into ``out`` (zeroed, ``layout.size``), values in ``[0, 1]``."""
        ...


def get_hidden_encoder(encoder: Encoder) -> HiddenEncoder | None:
    """The hidden part of the global state for ``encoder``'s game, or ``None``."""
    module_name = HIDDEN_ENCODERS.get(encoder.game)
    if module_name is None:
        return None
    return importlib.import_module(module_name).make_hidden_encoder(encoder)
