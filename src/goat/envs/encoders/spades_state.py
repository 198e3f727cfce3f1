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

from typing import Any

import numpy as np

from goat.envs.encoders.history import SeatHistories
from goat.envs.encoders.spades import BID_SLOTS, PHASES, SpadesEncoder, bid_slot
from goat.games.spades.bids import parse_bid
from goat.games.spades.rules import HAND_SIZE
from goat.protocol import GoatError

_PHASE_INDEX = {p: i for i, p in enumerate(PHASES)}


class SpadesReplay:
    """The reference ``_encode_history`` replay, one action at a time, on card tokens."""

    __slots__ = ("me", "partner", "gave", "received", "plays")

    def __init__(self, me: int) -> None:
        self.me, self.partner = me, (me + 2) % 4
        self.gave: set[int] = set()
        self.received: set[int] = set()
        self.plays: list[tuple[int, int]] = []

    def feed(self, seat: int, verb: str, visible: tuple[int, ...]) -> None:
        if verb == "give" and visible:
            if seat == self.me:
                self.gave.add(visible[0])
            elif seat == self.partner:
                self.received.add(visible[0])
        elif verb == "play":
            self.gave.discard(visible[0])
            self.plays.append((seat, visible[0]))


class SpadesStateEncoder:
    """Writes ``encoder.encode(state.view(seat))`` straight from a Spades state
    (see the module docstring); one per environment, it keeps each seat's replay."""

    def __init__(self, encoder: SpadesEncoder) -> None:
        self.encoder = encoder
        self.rules = encoder.rules
        self.d = encoder.deck_size
        self.index = {c: i for i, c in enumerate(encoder.deck)}  # cards are interned
        self.at = {f.name: encoder.layout.offset(f.name) for f in encoder.layout.fields}
        self.histories: SeatHistories[SpadesReplay] = SeatHistories(SpadesReplay, self.index)
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
        ones: list[int] = []
        where: list[int] = []
        values: list[float] = []

        a = at["hand"]
        ones += [a + index[c] for c in state.hands[me]]
        face_up = {c for cards in state.face_up for c in cards}
        if face_up:
            a_exposed, a_known = at["exposed"], at["known"]
            for s, hand in enumerate(state.hands):
                held = [index[c] for c in hand if c in face_up]
                if s == me:
                    ones += [a_exposed + c for c in held]
                else:
                    ones += [a_known + ((s - me) % 4 - 1) * d + c for c in held]

        pending = frozenset(giver for giver, _, _ in state.pending_gives)
        replay = self.histories.replay(state.logs, me, pending)
        a = at["received"]
        ones += [a + c for c in replay.received]
        a = at["played"]
        plays = replay.plays
        for s, c in plays[:len(plays) - len(state.trick)]:
            ones.append(a + ((s - me) % 4) * d + c)
        a = at["known"] + ((replay.partner - me) % 4 - 1) * d
        ones += [a + c for c in replay.gave]

        a = at["table"]
        for play in state.trick:
            r = (play.seat - me) % 4
            ones += [a + r * d + index[c] for c in play.cards]
        contract = [0, 0]
        a = at["bids"]
        for s, bid in enumerate(state.bids):
            if bid is not None:
                slot, tricks = self._bid(bid.text)
                if slot < BID_SLOTS:
                    ones.append(a + ((s - me) % 4) * BID_SLOTS + slot)
                contract[s % 2] += tricks
        a = at["tricks"]
        for s, won in enumerate(state.tricks_by_seat):
            where.append(a + (s - me) % 4)
            values.append(won / HAND_SIZE)
        if state.trick:
            ones.append(at["leader"] + (state.trick_leader - me) % 4)
            ones.append(at["best"] + (state.trick[state.best_index].seat - me) % 4)
        current = state.current_player()
        if 0 <= current < 4:
            ones.append(at["to_act"] + (current - me) % 4)
        ones.append(at["dealer"] + (state.dealer - me) % 4)
        phase = _PHASE_INDEX.get(state.phase)
        if phase is not None:
            ones.append(at["phase"] + phase)
        for side in (0, 1):
            r = (side - me) % 2
            where += [at["contract"] + r, at["score"] + r, at["bags"] + r, at["blind"] + r]
            values += [contract[side] / (2 * HAND_SIZE),
                       min(1.0, max(0.0, 0.5 + state.score_total[side] / (2 * rules.target))),
                       min(1.0, state.bags_total[side] / rules.bag_limit),
                       float(state.blind_teams[side])]
        a = at["flags"]
        where += [a, a + 1, a + 3]
        values += [float(bool(state.spades_broken)), state.tricks_played / HAND_SIZE,
                   float(state.must_lead is not None)]
        if rules.max_deals:
            where.append(a + 2)
            values.append(min(1.0, state.deals_played / rules.max_deals))
        out[ones] = 1.0
        out[where] = values
        a = at["to_give"]
        for giver, _ in state.exchange_queue:  # accumulated in float32, as the reference does
            out[a + (giver - me) % 4] += 1.0 / rules.exchange_cards


def make_state_encoder(encoder: SpadesEncoder) -> SpadesStateEncoder:
    """The fast path for ``encoder`` (see :data:`goat.envs.encoders.STATE_ENCODERS`)."""
    return SpadesStateEncoder(encoder)
