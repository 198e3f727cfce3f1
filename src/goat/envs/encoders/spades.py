"""Spades' observation encoder for the RL environments (every preset and option).

Seats are *relative*, as in every encoder: row 0 is the observing seat, row
``r`` the seat ``r`` places to its left; side 0 is the observer's team (itself
and row 2), side 1 the opponents. Cards are indexed in the ruleset's deck,
suit-major ``C D H S`` with ranks ``2`` low to ``A`` high (``QC`` is 10, ``AS``
51); with ``jokers`` ``2C`` and ``2D`` leave and the little and big jokers are
the last two indices. Every value lies in ``[0, 1]``.

Tokens — the same 72 under every ruleset, so a policy moves between variants:

* ``0..51`` a card: the card played, or in a double nil's exchange the card
  given (the engine gives one card per action, ``exchange_cards`` actions
  per partner; the verb follows from the phase);
* ``52..65`` a number bid ``0..13`` (``0`` is ``nil``), then ``blind-nil``
  (66), ``double-nil`` (67), ``little-bemo`` (68), ``big-bemo`` (69) and
  ``redeal`` (70, a weak hand shown);
* ``71`` ``bid look``: turn a face-down hand over (the engine holds a hand
  face down while its seat may still bid blind). The environments have no
  out-of-turn offers for Spades, so a seat looks on its own turn only.

The observation fields are declared once, in :meth:`SpadesEncoder._fields`;
``docs/envs.md`` lists them.

>>> from goat.games.spades import new_state
>>> enc = make_encoder(new_state("standard").view(None))
>>> enc.num_tokens, enc.multi_token, enc.out_of_turn, enc.layout.size
(72, False, False, 843)
>>> from goat.protocol import Action
>>> enc.tokens(Action.parse("2 bid nil")), enc.tokens(Action.parse("2 bid 4")), enc.token_name(68)
((52,), (56,), 'bid little-bemo')
>>> enc.token_name(10), enc.tokens(Action.parse("1 give QC")), enc.tokens(Action.parse("3 bid look"))
('QC', (10,), (71,))
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from goat.envs.layout import Field, Layout
from goat.games.spades.bids import LOOK, parse_bid
from goat.games.spades.rules import BEMO, HAND_SIZE, SpadesRules, make_rules
from goat.protocol import Action

View = Mapping[str, Any]

#: For the OpenSpiel registration: the default ruleset and the seat counts.
DEFAULT_RULES = "standard"
PLAYERS = (4, 4)
#: A single deal's returns are each team's own deal score (not zero-sum), so
#: the OpenSpiel game type is general-sum; whole matches are zero-sum (±1).
ZERO_SUM = False

PHASES = ("bid", "exchange", "play")
#: Bid tokens after the cards: numbers 0 (nil) to 13, then the named bids.
NAMED_BIDS = ("blind-nil", "double-nil", *BEMO, "redeal")
#: A seat's bid as the observation shows it: the tricks 0 (nil) .. 13, then the
#: named bids (a ``redeal`` ends the deal, so it is never seen standing).
BID_SLOTS = HAND_SIZE + 1 + len(NAMED_BIDS) - 1
NUM_BID_TOKENS = HAND_SIZE + 1 + len(NAMED_BIDS)


def bid_slot(text: str) -> int:
    """Index of a bid among the bid tokens: ``nil``/``0`` → 0, ``4`` → 4, ``blind-nil`` → 14."""
    bid = parse_bid(text)
    if bid is None:
        raise ValueError(f"not a Spades bid: {text!r}")
    if bid.kind in ("number", "nil"):
        return bid.tricks
    return HAND_SIZE + 1 + NAMED_BIDS.index(bid.kind)


class SpadesEncoder:
    """See the module docstring; built by :func:`make_encoder`."""

    game = "spades"
    multi_token = False
    out_of_turn = False

    def __init__(self, rules: SpadesRules, single_deal: bool) -> None:
        self.rules = rules
        self.n = 4
        self.deck = rules.deck_cards
        self.index = {str(c): i for i, c in enumerate(self.deck)}
        self._token_of = {c: i for i, c in enumerate(self.deck)}  # by card: cards are interned
        self.deck_size = len(self.deck)
        self.look_token = self.deck_size + NUM_BID_TOKENS
        self.num_tokens = self.look_token + 1
        # Four bids, both pairs' exchanges, 52 card plays.
        self.max_tokens_per_deal = 4 + 4 * rules.exchange_cards + 4 * HAND_SIZE
        self.single_deal = single_deal
        self.zero_sum = not single_deal
        self.layout = Layout(self._fields())

    # ------------------------------------------------------------------ layout
    def _fields(self) -> list[Field]:
        n, d = self.n, self.deck_size
        return [
            Field("hand", (d,), "1 for each card in the observer's hand"),
            Field("exposed", (d,), "cards of the observer's hand the others know of: dealt face up "
                  "(face-up-four) and still held"),
            Field("known", (n - 1, d), "cards the observer knows seat r+1 holds: face-up cards still held, "
                  "and cards it gave its partner in the exchange, until played"),
            Field("received", (d,), "cards the observer's partner gave it in this deal's exchange "
                  "(once the pair's exchange is complete)"),
            Field("table", (n, d), "cards of the current trick, by the seat that played them"),
            Field("played", (n, d), "cards each seat played to finished tricks of this deal"),
            Field("bids", (n, BID_SLOTS), "each seat's bid this deal, one-hot: 0 (nil) .. 13, blind-nil, "
                  "double-nil, little-bemo, big-bemo (all zeros: not bid yet)"),
            Field("contract", (2,), "each side's contract so far (its non-nil bids) ÷ 26"),
            Field("tricks", (n,), "tricks each seat won this deal ÷ 13"),
            Field("to_give", (n,), "cards each seat still has to give in the exchange ÷ exchange_cards"),
            Field("leader", (n,), "seat that led the current trick (one-hot; zeros between tricks)"),
            Field("best", (n,), "seat whose card currently wins the trick (one-hot)"),
            Field("to_act", (n,), "seat whose turn it is (one-hot)"),
            Field("dealer", (n,), "dealer of this deal (one-hot)"),
            Field("phase", (len(PHASES),), "phase one-hot: bid, exchange, play"),
            Field("score", (2,), "each side's game score: 0.5 + score ÷ (2 × target), clipped to [0, 1] "
                  "(0.5 is 0, 1 is the target or more, 0 is −target or less)"),
            Field("bags", (2,), "each side's bags carried over ÷ bag_limit (capped at 1)"),
            Field("blind", (2,), "1 if the side may bid blind nil / double nil this deal (far enough behind)"),
            Field("face_down", (n,), "1 for each seat whose hand is face down: it may still bid blind and has "
                  "not looked (the observer's own hand is then empty)"),
            Field("flags", (4,), "[spades broken, tricks played this deal ÷ 13, deals played ÷ max_deals "
                  "(0 without a deal limit, capped at 1), the lead must be the lowest club]"),
        ]

    # ------------------------------------------------------------------ tokens
    def tokens(self, action: Action) -> tuple[int, ...]:
        if action.verb == "bid":
            if action.bid == LOOK:
                return (self.look_token,)
            return (self.deck_size + bid_slot(action.bid or ""),)
        return (self._token_of[action.cards[0]],)  # play, or give (the phase says which)

    def token_name(self, token: int) -> str:
        if 0 <= token < self.deck_size:
            return str(self.deck[token])
        if token == self.look_token:
            return f"bid {LOOK}"
        k = token - self.deck_size
        if 0 <= k <= HAND_SIZE:
            return f"bid {k if k else 'nil'}"
        if 0 <= k - HAND_SIZE - 1 < len(NAMED_BIDS):
            return f"bid {NAMED_BIDS[k - HAND_SIZE - 1]}"
        raise ValueError(f"no token {token}")

    # ----------------------------------------------------------- turn structure
    def offer_seats(self, public_view: View) -> list[int]:
        return []  # Spades has no out-of-turn actions

    def scores(self, result: View) -> list[float]:
        """The game-score balance ÷ ``target``: each seat's side total minus the
        other side's (so a deal's reward is the change of that lead, and a whole
        match's deal rewards add up to the final lead ÷ target)."""
        s0, s1 = result["score_total"]
        lead = (s0 - s1) / self.rules.target
        return [lead if seat % 2 == 0 else -lead for seat in range(self.n)]

    def utility_range(self, single_deal: bool) -> tuple[float, float]:
        """Matches: ±1. A single deal: a bound on a team's deal score under the
        rules (contract or set, overtricks, two nils, Bemo, bag penalties)."""
        if not single_deal:
            return (-1.0, 1.0)
        r = self.rules
        contract = max(10 * r.max_team_bid, 200 if (r.wheels or r.boston) else 0)
        nils = 2 * max(r.nil_points, r.blind_nil_points, r.double_nil_points)
        bemo = 2 * max(v for _, v in BEMO.values()) if r.bemo else 0
        penalties = ((r.bag_limit - 1 + HAND_SIZE) // r.bag_limit) * r.bag_penalty if r.bags else 0
        bound = float(contract + HAND_SIZE + nils + bemo + penalties)
        return (-bound, bound)

    def describe(self, public_view: View) -> str:
        v = public_view
        bids = " ".join(b or "-" for b in v["bids"])
        lines = [(f"spades {v['rules']}: deal {v['deal_number']}, dealer {v['dealer']}, phase {v['phase']}, "
                  f"to act {v['current_player']}, bids {bids}, tricks {v['tricks_by_seat']}, "
                  f"score {v['score_total']}, bags {v['bags_total']}")]
        if v["trick"]:
            lines.append("trick: " + "  ".join(f"{p['seat']}:{'+'.join(p['cards'])}" for p in v["trick"]))
        if v["history"]:
            lines.append("last: " + v["history"][-1])
        return "\n".join(lines)

    # ------------------------------------------------------------------ encode
    def encode(self, view: View, out: np.ndarray) -> None:
        f = self.layout.views(out)
        n, rules, index = self.n, self.rules, self.index
        me = view["seat"]

        def rel(seat: int) -> int:
            return (seat - me) % n

        def rel_side(side: int) -> int:
            return (side - me) % 2

        for c in view["hand"] or ():
            f["hand"][index[c]] = 1.0
        for seat, cards in enumerate(view["face_up_held"]):
            for c in cards:
                if seat == me:
                    f["exposed"][index[c]] = 1.0
                else:
                    f["known"][rel(seat) - 1, index[c]] = 1.0
        self._encode_history(view, me, f)
        for play in view["trick"]:
            for c in play["cards"]:
                f["table"][rel(play["seat"]), index[c]] = 1.0
        contract = [0, 0]
        for seat, text in enumerate(view["bids"]):
            if text is not None:
                slot = bid_slot(text)
                if slot < BID_SLOTS:
                    f["bids"][rel(seat), slot] = 1.0
                bid = parse_bid(text)
                if bid is not None and not bid.is_nil:
                    contract[seat % 2] += bid.tricks
        for seat, down in enumerate(view["hands_face_down"]):
            f["face_down"][rel(seat)] = float(down)
        for seat, won in enumerate(view["tricks_by_seat"]):
            f["tricks"][rel(seat)] = won / HAND_SIZE
        for giver in view["exchange_to_give"]:
            f["to_give"][rel(giver)] += 1.0 / rules.exchange_cards
        if view["trick"]:
            f["leader"][rel(view["trick_leader"])] = 1.0
            f["best"][rel(view["trick"][view["trick_best"]]["seat"])] = 1.0
        if 0 <= view["current_player"] < n:
            f["to_act"][rel(view["current_player"])] = 1.0
        f["dealer"][rel(view["dealer"])] = 1.0
        if view["phase"] in PHASES:
            f["phase"][PHASES.index(view["phase"])] = 1.0
        for side in (0, 1):
            r = rel_side(side)
            f["contract"][r] = contract[side] / (2 * HAND_SIZE)
            f["score"][r] = min(1.0, max(0.0, 0.5 + view["score_total"][side] / (2 * rules.target)))
            f["bags"][r] = min(1.0, view["bags_total"][side] / rules.bag_limit)
            f["blind"][r] = float(view["blind_nil_teams"][side])
        flags = f["flags"]
        flags[0] = bool(view["spades_broken"])
        flags[1] = view["tricks_played"] / HAND_SIZE
        if rules.max_deals:
            flags[2] = min(1.0, view["deals_played"] / rules.max_deals)
        flags[3] = view["must_lead"] is not None

    def _encode_history(self, view: View, me: int, f: dict[str, np.ndarray]) -> None:
        """Replay this deal's history for the cards played to finished tricks,
        the cards given to the partner (still held) and the cards received."""
        partner = (me + 2) % 4
        index = self.index
        gave: set[str] = set()
        plays: list[tuple[int, str]] = []
        for text in view["history"]:
            seat_text, verb, arg = text.split(" ", 2)
            seat = int(seat_text)
            if verb == "give" and arg != "?":
                if seat == me:
                    gave.add(arg)
                elif seat == partner:
                    f["received"][index[arg]] = 1.0
            elif verb == "play":
                gave.discard(arg)
                plays.append((seat, arg))
        finished = len(plays) - len(view["trick"])
        for seat, card in plays[:finished]:
            f["played"][(seat - me) % 4, index[card]] = 1.0
        for card in gave:
            f["known"][(partner - me) % 4 - 1, index[card]] = 1.0


def make_encoder(view: View) -> SpadesEncoder:
    """The encoder for the ruleset of ``view`` (any Spades view; the options are public)."""
    return SpadesEncoder(make_rules(view["rules"], options=dict(view["options"])), bool(view.get("single_deal")))
