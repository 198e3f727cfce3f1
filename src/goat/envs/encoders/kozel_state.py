"""Kozel's fast observation path: the encoding of ``state.view(seat)`` without the view.

:meth:`KozelEncoder.encode <goat.envs.encoders.kozel.KozelEncoder.encode>` of
``state.view(seat)`` is the reference, and most of an environment step: the
view is a dict of every public fact with the deal's history as text, and the
encoder replays that history from the start. :class:`KozelStateEncoder` writes
the same vector, bit for bit, from the very attributes of the state that
:meth:`~goat.games.kozel.view.KozelViews.view` reads for that seat — its own
hand, face-up and public facts, the history through the hiding rule — and
replays the history incrementally (:mod:`goat.envs.encoders.history`).

It reads the engine's attributes (never changes them), so it must follow
the view function: ``tests/envs/test_fast_observations.py`` compares it with the
reference at every step of many random episodes of every ruleset, which fails
as soon as the two differ — including if it ever showed a hidden card.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from goat.envs.encoders.history import SeatHistories
from goat.envs.encoders.kozel import PHASES, SUITS, TOTAL_POINTS, KozelEncoder
from goat.games.kozel.phases import PARTNER_EXCHANGE
from goat.protocol import GoatError

_PHASE_INDEX = {p: i for i, p in enumerate(PHASES)}
_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}


class KozelReplay:
    """The reference ``_encode_history`` replay, one action at a time, on card tokens."""

    __slots__ = ("me", "n", "partner", "known", "played", "passed", "trick")

    def __init__(self, me: int, n: int, partnerships: bool) -> None:
        self.me, self.n = me, n
        self.partner = (me + 2) % 4 if partnerships else None
        self.known: list[set[int]] = [set() for _ in range(n)]
        self.played: list[set[int]] = [set() for _ in range(n)]
        self.passed: set[int] = set()
        self.trick: list[tuple[int, str, tuple[int, ...]]] = []

    def feed(self, seat: int, verb: str, visible: tuple[int, ...]) -> None:
        known = self.known
        for c in visible:
            known[seat].discard(c)
        if verb == "give":
            if seat == self.me and self.partner is not None:
                known[self.partner].update(visible)
            return
        if verb == "molodka":  # the table goes back to the hands it came from
            for s, v, cs in self.trick:
                if v == "play":
                    known[s].update(cs)
                elif s == self.me:
                    self.passed.difference_update(cs)
            self.trick = []
        if verb == "pass" and seat == self.me:
            self.passed.update(visible)
        self.trick.append((seat, verb, visible))
        if len(self.trick) == self.n:
            for s, v, cs in self.trick:
                if v != "pass":
                    self.played[s].update(cs)
            self.trick = []


class KozelStateEncoder:
    """Writes ``encoder.encode(state.view(seat))`` straight from a Kozel state
    (see the module docstring); one per environment, it keeps each seat's replay."""

    def __init__(self, encoder: KozelEncoder) -> None:
        self.encoder = encoder
        rules = self.rules = encoder.rules
        self.n, self.d = encoder.n, encoder.deck_size
        self.index = {c: i for i, c in enumerate(encoder.deck)}  # cards are interned
        self.at = {f.name: encoder.layout.offset(f.name) for f in encoder.layout.fields}
        self.all_seats = frozenset(range(self.n))
        self.histories: SeatHistories[KozelReplay] = SeatHistories(
            lambda me: KozelReplay(me, self.n, rules.partnerships), self.index)

    def encode_state(self, state: Any, seat: int, out: np.ndarray) -> None:
        """Write the observation of ``seat`` into ``out`` (zeroed, ``layout.size``)."""
        n, d, at, index, rules, enc = self.n, self.d, self.at, self.index, self.rules, self.encoder
        if not (isinstance(seat, int) and 0 <= seat < n):
            raise GoatError(f"there is no seat {seat}")
        me = seat
        side_me = rules.team_of(me)
        sides = enc.sides
        ones: list[int] = []  # flat indices set to 1.0
        where: list[int] = []  # flat indices set to other values...
        values: list[float] = []  # ...these, in order (later writes win, as in the reference)

        a = at["hand"]
        ones += [a + index[c] for c in state.hands[me]]

        pending = self.all_seats if state.phase == PARTNER_EXCHANGE else frozenset()
        replay = self.histories.replay(state.logs, me, pending)
        a_played, a_known = at["played"], at["known"]
        for s in range(n):
            r = (s - me) % n
            ones += [a_played + r * d + c for c in replay.played[s]]
            if r:
                ones += [a_known + (r - 1) * d + c for c in replay.known[s]]
        a = at["passed"]
        ones += [a + c for c in replay.passed]

        a_table, a_tp = at["table"], at["table_passed"]
        for play in state.trick:
            r = (play.seat - me) % n
            if play.verb == "play":
                ones += [a_table + r * d + index[c] for c in play.cards]
            else:  # a pass: the reference counts its cards, shown or not
                where.append(a_tp + r)
                values.append(len(play.cards) / rules.max_lead)
        if state.trump_card:
            ones.append(at["trump_card"] + index[state.trump_card])
        suit = state.order.trump_suit if state.order else None
        a = at["trumps"]
        out[a:a + d] = enc._trump_plane(suit)
        if suit:
            ones.append(at["trump_suit"] + _SUIT_INDEX[suit])
        a = at["hand_sizes"]
        for s, hand in enumerate(state.hands):
            where.append(a + (s - me) % n)
            values.append(min(1.0, len(hand) / rules.hand_size))
        if rules.stock_size:
            where.append(at["stock"])
            values.append(len(state.stock) / rules.stock_size)
        if state.trick:
            ones.append(at["leader"] + (state.trick_leader - me) % n)
            ones.append(at["best"] + (state.trick[state.best_index].seat - me) % n)
        current = state.current_player()
        if 0 <= current < n:
            ones.append(at["to_act"] + (current - me) % n)
        ones.append(at["dealer"] + (state.dealer - me) % n)
        phase = _PHASE_INDEX.get(state.phase)
        if phase is not None:
            ones.append(at["phase"] + phase)
        points = state.points() if rules.trick_style == "single" else None
        for side in range(sides):
            r = (side - side_me) % sides
            where += [at["tricks"] + r, at["pile_sizes"] + r]
            values += [state.tricks_won[side] / enc.max_tricks, len(state.piles[side]) / d]
            if points is not None:
                where.append(at["pile_points"] + r)
                values.append(points[side] / TOTAL_POINTS)
            where.append(at["penalty"] + r)
            values.append(min(1.0, state.penalty_total[side] / rules.match_target))
        a = at["flags"]
        where += [a, a + 1, a + 2, a + 3, a + 4, a + 5]
        values += [float(state.prev_opening_team == side_me), float(state.opening_team == side_me),
                   float(state.prev_trick_leader_team == side_me), float(bool(state.double_next)),
                   float(state.molodkas > 0), min(1.0, state.tricks_played / enc.max_tricks)]
        out[ones] = 1.0
        out[where] = values


def make_state_encoder(encoder: KozelEncoder) -> KozelStateEncoder:
    """The fast path for ``encoder`` (see :data:`goat.envs.encoders.STATE_ENCODERS`)."""
    return KozelStateEncoder(encoder)
