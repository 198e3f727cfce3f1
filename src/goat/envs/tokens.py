"""A protocol game seen as a sequence of one-token decisions.

Learning libraries want one fixed, discrete action space. Most Kozel actions
are one card, but a street action is a *set* of cards (a lead, a beat, a pass,
a molodka), and a seat may act out of turn (the molodka). :class:`TokenGame`
turns any :class:`~goat.protocol.GameState` into decisions that each pick one
integer ("token") from ``0..num_actions-1``, using the game's
:class:`~goat.envs.encoders.Encoder`:

* **Multi-card actions are chosen token by token.** An action is the
  sequence ``encoder.tokens(action)`` (Kozel street: its cards in deck order,
  then ``play``/``pass``/``molodka``). At each step the mask allows exactly
  the tokens that extend the choice so far towards some legal action; when the
  choice equals a legal action, that action is applied to the game. The
  observation of the deciding seat carries the tokens chosen so far
  (``pending``). Nothing is applied before the action is complete, so the
  other seats see nothing of a half-made choice.
* **Out-of-turn actions are offers.** Before the current player acts, each
  seat of ``encoder.offer_seats(public view)`` listed before the current player
  (the list ranks claims; a seat after it would lose a same-moment claim to the
  current player's own move, so it is asked at a later position) is asked in
  turn: it may take one of its out-of-turn actions or answer ``wait`` (token
  ``num_tokens``).
  Who is asked depends on public facts only, so being asked reveals nothing
  (a seat with no molodka in hand is asked too and can only wait).

The same decisions drive the PettingZoo, Gymnasium and OpenSpiel adapters.

>>> import random
>>> from goat.envs.spec import GameSpec
>>> spec = GameSpec("kozel", "street")
>>> encoder, _ = spec.encoder()
>>> game = TokenGame(spec.new_state(first_dealer=0), encoder)
>>> game.deal(random.Random(3))
>>> game.actor(), game.num_actions
(1, 40)
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from goat.envs.encoders import Encoder, get_state_encoder
from goat.envs.layout import Field, Layout
from goat.protocol import Action, GameState, GoatError, IllegalActionError

WAIT_NAME = "wait"


def decision_fields(encoder: Encoder) -> list[Field]:
    """The fields :class:`TokenGame` appends to the encoder's observation."""
    fields = []
    if encoder.multi_token:
        fields.append(Field("pending", (encoder.num_tokens,),
                            "tokens this seat has chosen so far for the action it is making (multi-hot)"))
    if encoder.out_of_turn:
        fields.append(Field("offer", (1,), "1 when this seat is being asked whether to act out of turn"))
    return fields


class TokenGame:
    """A game state plus the decision in progress (see the module docstring).

    Attributes:
        state: the protocol state (never exposed to a seat but through ``view``).
        prefix: tokens chosen so far by :meth:`actor` for its current action.
        offers: seats still to be asked before the current player acts.
        version: bumped on every change, for observation caches.
    """

    def __init__(self, state: GameState, encoder: Encoder, fast: bool = True) -> None:
        self.state = state
        self.encoder = encoder
        self.wait = encoder.num_tokens if encoder.out_of_turn else None
        self.num_actions = encoder.num_tokens + (1 if encoder.out_of_turn else 0)
        self.layout = encoder.layout + Layout(decision_fields(encoder))
        self._pending_at = self.layout.offset("pending") if encoder.multi_token else None
        self._offer_at = self.layout.offset("offer") if encoder.out_of_turn else None
        self._encoded = encoder.layout.size
        # The game's fast observation path, if any and wanted (``fast=False``: every
        # observation encodes the seat's view, the reference the fast path must equal).
        self._fast = get_state_encoder(encoder) if fast else None
        self.version = 0
        self._new_position()

    # ------------------------------------------------------------ positions
    def _new_position(self) -> None:
        self.prefix: tuple[int, ...] = ()
        self._seqs: dict[tuple[int, ...], Action | None] | None = None
        self.offers: list[int] = []
        state = self.state
        if self.encoder.out_of_turn and not (state.is_chance_node() or state.is_terminal()):
            current = state.current_player()
            fast_offers = getattr(self._fast, "offer_seats", None)
            seats = fast_offers(state) if fast_offers else self.encoder.offer_seats(state.view(None))
            # Seats ranked after the current seat would lose a same-moment claim to
            # its own move: they are asked at a later position (or on their turn).
            self.offers = seats[:seats.index(current)] if current in seats else [s for s in seats if s != current]
        self.version += 1

    def is_decision(self) -> bool:
        return not (self.state.is_chance_node() or self.state.is_terminal())

    def actor(self) -> int:
        """The seat deciding now (or the protocol's CHANCE / TERMINAL)."""
        if not self.is_decision():
            return self.state.current_player()
        return self.offers[0] if self.offers else self.state.current_player()

    def is_offer(self) -> bool:
        """True when :meth:`actor` is being asked to act out of turn."""
        return bool(self.offers) and self.is_decision()

    def sequences(self) -> dict[tuple[int, ...], Action | None]:
        """Token sequence → action for every legal action of :meth:`actor`
        (``(wait,)`` → ``None`` on an offer)."""
        if self._seqs is None:
            seat = self.actor()
            legal = [a for a in self.state.legal_actions() if a.seat == seat]
            if getattr(self.encoder, "positional", False):  # token = the choice's index
                if len(legal) > self.encoder.num_tokens:
                    raise GoatError(f"{len(legal)} choices exceed the action space of "
                                    f"{self.encoder.num_tokens} ({self.encoder.game})")
                seqs: dict[tuple[int, ...], Action | None] = {(i,): a for i, a in enumerate(legal)}
            else:
                tokens = self.encoder.tokens
                seqs = {tokens(a): a for a in legal}
            if self.offers:
                seqs[(self.wait,)] = None
            self._firsts = sorted({seq[0] for seq in seqs})
            self._first_mask = np.zeros(self.num_actions, dtype=np.int8)
            self._first_mask[self._firsts] = 1
            self._seqs = seqs
        return self._seqs

    def legal_tokens(self) -> list[int]:
        """Tokens the actor may pick now, ascending (empty at chance / the end)."""
        if not self.is_decision():
            return []
        k, prefix = len(self.prefix), self.prefix
        if not k:
            self.sequences()
            return list(self._firsts)  # sorted when the sequences were built
        return sorted({seq[k] for seq in self.sequences() if len(seq) > k and seq[:k] == prefix})

    def tokens_of(self, action: Action | None) -> tuple[int, ...]:
        """The tokens of a whole action of :meth:`actor` (``None``: wait), as a bot
        chose it; a positional encoder's token depends on the choices now."""
        if action is None:
            return (self.wait,)
        if getattr(self.encoder, "positional", False):
            return next((seq for seq, a in self.sequences().items() if a == action), ())
        return self.encoder.tokens(action)

    def token_name(self, token: int) -> str:
        if token == self.wait:
            return WAIT_NAME
        if getattr(self.encoder, "positional", False):
            action = self.sequences().get((token,)) if self.is_decision() else None
            return f"{token}: {action}" if action is not None else f"choice {token}"
        return self.encoder.token_name(token)

    # -------------------------------------------------------------- changes
    def check_token(self, token: int) -> None:
        """Raise :class:`IllegalActionError` unless :meth:`actor` may pick ``token``
        now (an adapter that applies changes later checks them at once)."""
        legal = self.legal_tokens()
        if token not in legal:
            seat = self.actor()
            names = ", ".join(f"{t} ({self.token_name(t)})" for t in legal) or "none"
            shown = f"{token} ({self.token_name(token)})" if 0 <= token < self.num_actions else str(token)
            raise IllegalActionError(None, "action-mask",
                                     f"seat {seat} cannot take action {shown} now (legal: {names})")

    def apply_token(self, token: int) -> Action | None:
        """Pick ``token`` for :meth:`actor`; returns the game action it completed,
        if any. An illegal token raises :class:`IllegalActionError` and changes nothing."""
        self.check_token(token)
        prefix = self.prefix + (token,)
        seqs = self.sequences()
        if prefix not in seqs:
            self.prefix = prefix
            self.version += 1
            return None
        action = seqs[prefix]
        if action is None:  # wait: ask the next seat, or the current player
            self.offers.pop(0)
            self.prefix, self._seqs = (), None
            self.version += 1
            return None
        self.state.apply_action(action)
        self._new_position()
        return action

    def apply_action(self, action: Action | None) -> None:
        """Apply a whole action of :meth:`actor` (``None``: wait on an offer), as
        bots choose them. Checked first: an illegal one changes nothing."""
        seq = self.tokens_of(action)
        if self.prefix or seq not in self.sequences() or (action is not None and action.seat != self.actor()):
            raise IllegalActionError(action, "action-mask",
                                     f"seat {self.actor()} cannot take "
                                     f"{'no action' if action is None else repr(str(action))} now")
        for token in seq:
            self.apply_token(token)

    def deal(self, rng: random.Random) -> None:
        """Resolve a chance node from ``rng``."""
        self.state.apply_chance(self.state.sample_chance(rng))
        self._new_position()

    def apply_chance(self, outcome: Any) -> None:
        self.state.apply_chance(outcome)
        self._new_position()

    # ------------------------------------------------------------ what a seat sees
    def observation(self, seat: int, reference: bool = False) -> np.ndarray:
        """The seat's observation vector: its view encoded, plus its decision in progress.

        Written by the game's fast path when it has one
        (:func:`~goat.envs.encoders.get_state_encoder`), which equals the
        encoding of ``state.view(seat)``; ``reference=True`` encodes the view
        itself (what the tests compare the fast path with)."""
        out = self.layout.zeros()
        if self._fast is None or reference:
            self.encoder.encode(self.state.view(seat), out[:self._encoded])
        else:
            self._fast.encode_state(self.state, seat, out[:self._encoded])
        if (self._pending_at is not None or self._offer_at is not None) \
                and self.is_decision() and seat == self.actor():
            if self._pending_at is not None:
                for token in self.prefix:
                    out[self._pending_at + token] = 1.0
            if self._offer_at is not None and self.offers:
                out[self._offer_at] = 1.0
        return out

    def mask(self, seat: int) -> np.ndarray:
        """1 for each token ``seat`` may pick now (all zeros when it is not deciding)."""
        if self.is_decision() and seat == self.actor():
            if not self.prefix:
                self.sequences()
                return self._first_mask.copy()  # built with the sequences
            mask = np.zeros(self.num_actions, dtype=np.int8)
            mask[self.legal_tokens()] = 1
            return mask
        return np.zeros(self.num_actions, dtype=np.int8)

    def information_state_string(self, seat: int) -> str:
        """The game's information state string of ``seat``, plus its decision in
        progress: equal strings are positions the seat cannot tell apart."""
        text = self.state.information_state_string(seat)
        if self.is_decision() and seat == self.actor():
            if self.offers:
                text += "|offer"
            if self.prefix:
                text += "|pending=" + "+".join(self.token_name(t) for t in self.prefix)
        return text

    # ----------------------------------------------------------------- copies
    def clone(self) -> TokenGame:
        other = object.__new__(TokenGame)
        other.__dict__.update(self.__dict__)
        other.state = self.state.clone()
        other.offers = list(self.offers)
        return other

    def __deepcopy__(self, memo: dict) -> TokenGame:
        return self.clone()

    def with_state(self, state: GameState) -> TokenGame:
        """The same decision in progress on another state (a sampled world that
        the actor cannot tell from this one)."""
        other = object.__new__(TokenGame)
        other.__dict__.update(self.__dict__)
        other.state = state
        other.offers = list(self.offers)
        other._seqs = None
        return other
