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

from functools import partial
from typing import Any

import numpy as np

from goat.envs.encoders.history import SeatHistories
from goat.envs.encoders.kozel import PHASES, SUITS, TOTAL_POINTS, KozelEncoder, stock_depth
from goat.games.kozel.phases import PARTNER_EXCHANGE
from goat.protocol import GoatError

_PHASE_INDEX = {p: i for i, p in enumerate(PHASES)}
_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}


class KozelReplay:
    """The reference ``_encode_history`` replay, one action at a time, on card
    tokens. Besides the sets the replay needs, it keeps the three fields they
    encode (``played``, ``known``, ``passed``) written in :attr:`vector`, a
    vector of the encoder's layout that an observation starts from."""

    __slots__ = ("me", "n", "d", "partner", "known", "played", "passed", "seen", "trick", "vector", "_v",
                 "_played_at", "_known_at", "_passed_at")

    def __init__(self, me: int, encoder: KozelEncoder) -> None:
        self.me, self.n, d = me, encoder.n, encoder.deck_size
        self.d = d
        self.partner = (me + 2) % 4 if encoder.rules.partnerships else None
        self.known: list[set[int]] = [set() for _ in range(self.n)]
        self.played: list[set[int]] = [set() for _ in range(self.n)]
        self.passed: set[int] = set()
        self.seen: set[int] = set()  # every card the observer saw in an action of this deal
        self.trick: list[tuple[int, str, tuple[int, ...]]] = []
        layout = encoder.layout
        self.vector = layout.zeros()
        self._v = memoryview(self.vector)
        # Row starts by absolute seat (the observer's own "known" row is never written).
        self._played_at = [layout.offset("played") + ((s - me) % self.n) * d for s in range(self.n)]
        self._known_at = [layout.offset("known") + ((s - me) % self.n - 1) * d if s != me else None
                          for s in range(self.n)]
        self._passed_at = layout.offset("passed")

    def _know(self, seat: int, cards: tuple[int, ...], value: float) -> None:
        at = self._known_at[seat]
        if at is not None:
            for c in cards:
                self._v[at + c] = value

    def feed(self, seat: int, verb: str, visible: tuple[int, ...]) -> None:
        known, v = self.known, self._v
        self.seen.update(visible)
        held = known[seat]
        if held:  # cards seen leaving a hand are no longer known to be in it
            gone = held.intersection(visible)
            if gone:
                held.difference_update(gone)
                self._know(seat, tuple(gone), 0.0)
        if verb == "give":
            if seat == self.me and self.partner is not None:
                known[self.partner].update(visible)
                self._know(self.partner, visible, 1.0)
            return
        if verb == "molodka":  # the table goes back to the hands it came from
            for s, verb_s, cs in self.trick:
                if verb_s == "play":
                    known[s].update(cs)
                    self._know(s, cs, 1.0)
                elif s == self.me:
                    self.passed.difference_update(cs)
                    for c in cs:
                        v[self._passed_at + c] = 0.0
            self.trick = []
        if verb == "pass" and seat == self.me:
            self.passed.update(visible)
            for c in visible:
                v[self._passed_at + c] = 1.0
        self.trick.append((seat, verb, visible))
        if len(self.trick) == self.n:
            for s, verb_s, cs in self.trick:
                if verb_s != "pass":
                    self.played[s].update(cs)
                    at = self._played_at[s]
                    for c in cs:
                        v[at + c] = 1.0
            self.trick = []


class KozelStateEncoder:
    """Writes ``encoder.encode(state.view(seat))`` straight from a Kozel state
    (see the module docstring); one per environment, it keeps each seat's replay."""

    def __init__(self, encoder: KozelEncoder) -> None:
        self.encoder = encoder
        rules = self.rules = encoder.rules
        self.n, self.d, self.sides = encoder.n, encoder.deck_size, encoder.sides
        self.index = {c: i for i, c in enumerate(encoder.deck)}  # cards are interned
        at = self.at = {f.name: encoder.layout.offset(f.name) for f in encoder.layout.fields}
        self.all_seats = frozenset(range(self.n))
        self.histories: SeatHistories[KozelReplay] = SeatHistories(partial(KozelReplay, encoder=encoder), self.index)
        self.single = rules.trick_style == "single"
        self._points: tuple[Any, list[int], list[int]] | None = None  # (piles, their sizes, points)
        self._tricks = [at["tricks"], at["pile_sizes"], at["pile_points"], at["penalty"]]

    def _pile_points(self, state: Any) -> list[int]:
        """``state.points()``, recomputed only when a pile grew (piles only grow in a deal)."""
        piles = state.piles
        sizes = [len(p) for p in piles]
        cached = self._points
        if cached is None or cached[0] is not piles or cached[1] != sizes:
            cached = self._points = (piles, sizes, state.points())
        return cached[2]

    def offer_seats(self, state: Any) -> list[int]:
        """``encoder.offer_seats(state.view(None))`` from the state (street's molodka offers)."""
        rules, n = self.rules, self.n
        trick = state.trick
        if (not rules.molodka or state.phase != "play" or not trick or len(trick) >= n
                or state.molodkas >= rules.max_molodka_per_trick):
            return []
        opened_by = state.trick_opened_by   # the rules' priority: from the first lead
        played = {p.seat for p in trick}
        return [seat for seat in ((opened_by + k) % n for k in range(n)) if seat not in played]

    def encode_state(self, state: Any, seat: int, out: np.ndarray) -> None:
        """Write the observation of ``seat`` into ``out`` (zeroed, ``layout.size``)."""
        n, d, at, index, rules, enc = self.n, self.d, self.at, self.index, self.rules, self.encoder
        if not (isinstance(seat, int) and 0 <= seat < n):
            raise GoatError(f"there is no seat {seat}")
        me = seat
        pending = self.all_seats if state.phase == PARTNER_EXCHANGE else frozenset()
        replay = self.histories.replay(state.logs, me, pending)
        out[:] = replay.vector  # played, known, passed
        v = memoryview(out)

        a = at["hand"]
        for c in state.hands[me]:
            v[a + index[c]] = 1.0
        a_table, a_tp = at["table"], at["table_passed"]
        for play in state.trick:
            r = (play.seat - me) % n
            if play.verb == "play":
                a = a_table + r * d
                for c in play.cards:
                    v[a + index[c]] = 1.0
            else:  # a pass: the reference counts its cards, shown or not
                v[a_tp + r] = len(play.cards) / enc.max_trick_cards
        if state.trump_card:
            v[at["trump_card"] + index[state.trump_card]] = 1.0
        suit = state.order.trump_suit if state.order else None
        a = at["trumps"]
        out[a:a + d] = enc._trump_plane(suit)
        if suit:
            v[at["trump_suit"] + _SUIT_INDEX[suit]] = 1.0
        a = at["hand_sizes"]
        hand_size = rules.hand_size
        for s, hand in enumerate(state.hands):
            v[a + (s - me) % n] = min(1.0, len(hand) / hand_size)
        if rules.stock_size:
            v[at["stock"]] = len(state.stock) / rules.stock_size
        if state.trick:
            v[at["leader"] + (state.trick_leader - me) % n] = 1.0
            v[at["best"] + (state.trick[state.best_index].seat - me) % n] = 1.0
        current = state.current_player()
        if 0 <= current < n:
            v[at["to_act"] + (current - me) % n] = 1.0
        v[at["dealer"] + (state.dealer - me) % n] = 1.0
        phase = _PHASE_INDEX.get(state.phase)
        if phase is not None:
            v[at["phase"] + phase] = 1.0
        sides = self.sides
        side_me = rules.team_of(me)
        points = self._pile_points(state) if self.single else None
        a_tricks, a_sizes, a_points, a_penalty = self._tricks
        for side in range(sides):
            r = (side - side_me) % sides
            v[a_tricks + r] = state.tricks_won[side] / enc.max_tricks
            v[a_sizes + r] = len(state.piles[side]) / d
            if points is not None:
                v[a_points + r] = points[side] / TOTAL_POINTS
            v[a_penalty + r] = min(1.0, state.penalty_total[side] / rules.match_target)
        a = at["flags"]
        v[a] = state.prev_opening_team == side_me
        v[a + 1] = state.opening_team == side_me
        v[a + 2] = state.prev_trick_leader_team == side_me
        v[a + 3] = bool(state.double_next)
        v[a + 4] = state.molodkas > 0
        v[a + 5] = min(1.0, state.tricks_played / enc.max_tricks)
        if enc.trump_place_public and state.trump_card_place is not None:
            self._public_trump_card(state, replay, v)

    def _public_trump_card(self, state: Any, replay: KozelReplay, v: memoryview) -> None:
        """``trump_card_place="public"``: the shown card's depth in the stock, or its
        drawer's ``known`` bit (as the reference reads the view's place and drawer)."""
        drawer, stock_at_deal = state.trump_card_drawn_by, self.rules.stock_size
        if drawer is None:
            drawn = stock_at_deal - len(state.stock)
            v[self.at["trump_card_place"]] = stock_depth(state.trump_card_place - drawn, stock_at_deal)
            return
        card = self.index[state.trump_card]
        at = replay._known_at[drawer]
        if at is not None and card not in replay.seen:
            v[at + card] = 1.0


def make_state_encoder(encoder: KozelEncoder) -> KozelStateEncoder:
    """The fast path for ``encoder`` (see :data:`goat.envs.encoders.STATE_ENCODERS`)."""
    return KozelStateEncoder(encoder)
