"""Spades' fast observation path: the encoding of ``state.view(seat)`` without the view.

As :mod:`goat.envs.encoders.kozel_state` for Kozel: :class:`SpadesStateEncoder`
writes exactly :meth:`SpadesEncoder.encode <goat.envs.encoders.spades.SpadesEncoder.encode>`
of ``state.view(seat)``, reading the state attributes that
:meth:`~goat.games.spades.view.SpadesViews.view` reads for that seat and
replaying the deal's history incrementally (:mod:`goat.envs.encoders.history`).
``tests/envs/test_fast_observations.py`` holds it to the reference at every
step of random episodes of every preset.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np

from goat.envs.encoders.history import SeatHistories
from goat.envs.encoders.spades import BID_SLOTS, PHASES, SpadesEncoder, bid_slot
from goat.games.spades.bids import parse_bid
from goat.games.spades.rules import HAND_SIZE
from goat.protocol import GoatError

_PHASE_INDEX = {p: i for i, p in enumerate(PHASES)}


class SpadesReplay:
    """The reference ``_encode_history`` replay, one action at a time, on card
    tokens, keeping the fields it encodes (``received``, ``known`` of the partner
    for the cards given it, ``played``) written in :attr:`vector`, a vector of
    the encoder's layout that an observation starts from."""

    __slots__ = ("me", "partner", "gave", "plays", "committed", "vector", "_v", "_received_at",
                 "_known_at", "_played_at")

    def __init__(self, me: int, encoder: SpadesEncoder) -> None:
        self.me, self.partner = me, (me + 2) % 4
        d, layout = encoder.deck_size, encoder.layout
        self.gave: set[int] = set()
        self.plays: list[tuple[int, int]] = []
        self.committed = 0  # plays written to ``played`` (those of finished tricks)
        self.vector = layout.zeros()
        self._v = memoryview(self.vector)
        self._received_at = layout.offset("received")
        self._known_at = layout.offset("known") + ((self.partner - me) % 4 - 1) * d
        self._played_at = [layout.offset("played") + ((s - me) % 4) * d for s in range(4)]

    def feed(self, seat: int, verb: str, visible: tuple[int, ...]) -> None:
        if verb == "give" and visible:
            if seat == self.me:
                self.gave.add(visible[0])
                self._v[self._known_at + visible[0]] = 1.0
            elif seat == self.partner:
                self._v[self._received_at + visible[0]] = 1.0
        elif verb == "play":
            card = visible[0]
            if card in self.gave:
                self.gave.discard(card)
                self._v[self._known_at + card] = 0.0
            self.plays.append((seat, card))

    def commit(self, finished: int) -> bool:
        """Write the plays of finished tricks (the first ``finished``) into
        ``played``; False if fewer are finished than already written (then
        the replay must be rebuilt)."""
        if finished < self.committed:
            return False
        for s, c in self.plays[self.committed:finished]:
            self._v[self._played_at[s] + c] = 1.0
        self.committed = finished
        return True


class SpadesStateEncoder:
    """Writes ``encoder.encode(state.view(seat))`` straight from a Spades state
    (see the module docstring); one per environment, it keeps each seat's replay."""

    def __init__(self, encoder: SpadesEncoder) -> None:
        self.encoder = encoder
        self.rules = encoder.rules
        self.d = encoder.deck_size
        self.index = {c: i for i, c in enumerate(encoder.deck)}  # cards are interned
        self.at = {f.name: encoder.layout.offset(f.name) for f in encoder.layout.fields}
        self.histories: SeatHistories[SpadesReplay] = SeatHistories(partial(SpadesReplay, encoder=encoder),
                                                                     self.index)
        self._bids: dict[str, tuple[int, int]] = {}

    def _bid(self, text: str) -> tuple[int, int]:
        """A bid's slot and the tricks it adds to its side's contract (0 for nils)."""
        known = self._bids.get(text)
        if known is None:
            bid = parse_bid(text)
            known = self._bids[text] = (bid_slot(text), bid.tricks if bid is not None and not bid.is_nil else 0)
        return known

    def encode_state(self, state: Any, seat: int, out: np.ndarray) -> None:
        """Write the observation of ``seat`` into ``out`` (zeroed, ``layout.size``)."""
        d, at, index, rules = self.d, self.at, self.index, self.rules
        if not (isinstance(seat, int) and 0 <= seat < 4):
            raise GoatError(f"there is no seat {seat}")
        me = seat
        pending = frozenset(giver for giver, _, _ in state.pending_gives)
        replay = self.histories.replay(state.logs, me, pending)
        if not replay.commit(len(replay.plays) - len(state.trick)):
            self.histories.forget(me)
            replay = self.histories.replay(state.logs, me, pending)
            replay.commit(len(replay.plays) - len(state.trick))
        out[:] = replay.vector  # received, known (cards given), played
        v = memoryview(out)

        a = at["face_down"]
        face_down = [state.face_down(s) for s in range(4)] if state.phase == "bid" else [False] * 4
        for s in range(4):
            if face_down[s]:
                v[a + (s - me) % 4] = 1.0
        if not face_down[me]:
            a = at["hand"]
            for c in state.hands[me]:
                v[a + index[c]] = 1.0
        face_up = {c for cards in state.face_up for c in cards}
        if face_up:
            a_exposed, a_known = at["exposed"], at["known"]
            for s, hand in enumerate(state.hands):
                a = a_exposed if s == me else a_known + ((s - me) % 4 - 1) * d
                for c in hand:
                    if c in face_up:
                        v[a + index[c]] = 1.0
        a = at["table"]
        for play in state.trick:
            r = a + ((play.seat - me) % 4) * d
            for c in play.cards:
                v[r + index[c]] = 1.0
        contract = [0, 0]
        a = at["bids"]
        for s, bid in enumerate(state.bids):
            if bid is not None:
                slot, tricks = self._bid(bid.text)
                if slot < BID_SLOTS:
                    v[a + ((s - me) % 4) * BID_SLOTS + slot] = 1.0
                contract[s % 2] += tricks
        a = at["tricks"]
        for s, won in enumerate(state.tricks_by_seat):
            v[a + (s - me) % 4] = won / HAND_SIZE
        if state.trick:
            v[at["leader"] + (state.trick_leader - me) % 4] = 1.0
            v[at["best"] + (state.trick[state.best_index].seat - me) % 4] = 1.0
        current = state.current_player()
        if 0 <= current < 4:
            v[at["to_act"] + (current - me) % 4] = 1.0
        v[at["dealer"] + (state.dealer - me) % 4] = 1.0
        phase = _PHASE_INDEX.get(state.phase)
        if phase is not None:
            v[at["phase"] + phase] = 1.0
        for side in (0, 1):
            r = (side - me) % 2
            v[at["contract"] + r] = contract[side] / (2 * HAND_SIZE)
            v[at["score"] + r] = min(1.0, max(0.0, 0.5 + state.score_total[side] / (2 * rules.target)))
            v[at["bags"] + r] = min(1.0, state.bags_total[side] / rules.bag_limit)
            v[at["blind"] + r] = float(state.blind_teams[side])
        a = at["flags"]
        v[a] = bool(state.spades_broken)
        v[a + 1] = state.tricks_played / HAND_SIZE
        if rules.max_deals:
            v[a + 2] = min(1.0, state.deals_played / rules.max_deals)
        v[a + 3] = state.must_lead is not None
        a = at["to_give"]
        for giver, _ in state.exchange_queue:  # accumulated in float32, as the reference does
            out[a + (giver - me) % 4] += 1.0 / rules.exchange_cards


def make_state_encoder(encoder: SpadesEncoder) -> SpadesStateEncoder:
    """The fast path for ``encoder`` (see :data:`goat.envs.encoders.STATE_ENCODERS`)."""
    return SpadesStateEncoder(encoder)
