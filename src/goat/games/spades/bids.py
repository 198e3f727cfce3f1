"""Spades bids: what a bid's text means and which bids a seat may make.

A bid is written as in the record (``"1 bid 4"``): a number ``1``–``13``,
``nil`` (``0`` is read as nil too), ``blind-nil``, ``double-nil``, the Bemo bids
``little-bemo`` / ``big-bemo``, or ``redeal`` (a weak hand shown instead of a
bid). Each is worth a number of tricks toward the team's contract; the nil kinds
are worth 0.

``look`` (``"1 bid look"``) is written with the bid verb but is no bid: a seat
that may still bid blind holds its hand face down until it looks (or bids), so
that a blind bid is really made before looking (:class:`~goat.games.spades.state.SpadesState`
keeps that; :func:`parse_bid` names no bid for it).

>>> parse_bid("nil").kind, parse_bid("0").is_nil, parse_bid("7").tricks, parse_bid("big-bemo").tricks
('nil', True, 7, 9)
>>> parse_bid("14") is None
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from dataclasses import dataclass

from goat.cards import Card
from goat.games.spades.cards import is_weak_hand, trump_count
from goat.games.spades.rules import BEMO, HAND_SIZE, SpadesRules

NIL_KINDS = ("nil", "blind-nil", "double-nil")
BLIND_KINDS = ("blind-nil", "double-nil")
REDEAL = "redeal"
WORDS = (*NIL_KINDS, *BEMO, REDEAL)
#: The action that turns a face-down hand over (not a bid: never in ``state.bids``).
LOOK = "look"


def is_glance(action: Any) -> bool:
    """Whether ``action`` only turns information over for its own seat — a look
    at a face-down hand (``"1 bid look"``) — and so changes no outcome and
    decides nothing. The record's deals leave it out (:meth:`SpadesState.deal_log`),
    and the game-blind layers read it from the game module
    (:func:`goat.games.is_glance`): records refuse it (the contract has no such
    action), and a clock timing the seat's decision keeps running through it."""
    return action.verb == "bid" and action.bid == LOOK


@dataclass(frozen=True)
class Bid:
    """One bid: the text as written, its kind and the tricks it adds to the contract."""

    text: str
    kind: str      # "number", one of NIL_KINDS, "little-bemo", "big-bemo" or "redeal"
    tricks: int

    @property
    def is_nil(self) -> bool:
        return self.kind in NIL_KINDS

    @property
    def name(self) -> str:
        """The bid's one spelling (``nil`` for a nil written ``0``): what views
        show, so that a reader of a view (a bot, the page) need not know both."""
        return "nil" if self.kind == "nil" else self.text

    @property
    def is_blind(self) -> bool:
        return self.kind in BLIND_KINDS

    def same_as(self, other: "Bid") -> bool:
        """The same bid whatever the spelling (``0`` and ``nil``)."""
        return self.kind == other.kind and self.tricks == other.tricks


def parse_bid(text: str) -> Bid | None:
    """The bid ``text`` names, or ``None`` when it names none."""
    if text in (str(n) for n in range(HAND_SIZE + 1)):
        n = int(text)
        return Bid(text, "nil", 0) if n == 0 else Bid(text, "number", n)
    if text in NIL_KINDS:
        return Bid(text, text, 0)
    if text in BEMO:
        return Bid(text, text, BEMO[text][0])
    if text == REDEAL:
        return Bid(text, REDEAL, 0)
    return None


@dataclass(frozen=True)
class BidContext:
    """What decides a seat's bids: its hand, its partner's bid (if made), and
    whether its team may bid blind (far enough behind at the start of the deal)."""

    rules: SpadesRules
    seat: int
    hand: Sequence[Card]
    partner_bid: Bid | None
    blind_allowed: bool

    # ----------------------------------------------------------- the list
    def legal(self) -> list[Bid]:
        """Every bid the seat may make, in display order."""
        rules = self.rules
        if rules.mirror:
            n = trump_count(self.hand)
            return [Bid("nil", "nil", 0) if n == 0 else Bid(str(n), "number", n)]
        candidates = [Bid("nil", "nil", 0)] if rules.nil else []
        candidates += [Bid(str(n), "number", n) for n in range(rules.min_bid, HAND_SIZE + 1)]
        if self.blind_allowed:
            candidates += [Bid(k, k, 0) for k, on in (("blind-nil", rules.blind_nil),
                                                      ("double-nil", rules.double_nil)) if on]
        if rules.bemo and not self._partner_bid_bemo():
            candidates += [Bid(k, k, n) for k, (n, _) in BEMO.items()]
        legal = [b for b in candidates if self._team_total_possible(b)]
        if rules.weak_hand_redeal and is_weak_hand(self.hand):
            legal.append(Bid(REDEAL, REDEAL, 0))
        return legal

    def _partner_bid_bemo(self) -> bool:
        """Whether the partner's Bemo is the team's one (``bemo_one_per_team``):
        then this seat may bid no Bemo."""
        return (self.rules.bemo_one_per_team and self.partner_bid is not None
                and self.partner_bid.kind in BEMO)

    def _partner_values(self, bid: Bid) -> set[int]:
        """What the partner, yet to bid, may still add once this seat bids ``bid``."""
        rules = self.rules
        values = rules.bid_values(blind=self.blind_allowed)
        if not (rules.bemo_one_per_team and bid.kind in BEMO):
            values |= rules.bemo_values()
        return values

    def _team_total_possible(self, bid: Bid) -> bool:
        lo, hi = self.rules.min_team_bid, self.rules.max_team_bid
        if self.partner_bid is not None:
            return lo <= bid.tricks + self.partner_bid.tricks <= hi
        return any(lo <= bid.tricks + q <= hi for q in self._partner_values(bid))

    def blind(self) -> list[Bid]:
        """The blind bids the seat may make now. Needs no card of the hand (a
        blind bid is made before looking): which seats hold their hands face
        down follows from it."""
        return [b for b in self.legal() if b.is_blind]

    def after_looking(self) -> list[Bid]:
        """The bids once the hand is seen: every bid but the blind ones — unless
        the team's limits leave nothing else (nil off, the partner's bid at the
        team's maximum), where the blind bid stays, or the seat could not bid."""
        legal = self.legal()
        return [b for b in legal if not b.is_blind] or legal

    # --------------------------------------------------------- refusals
    def refusal(self, bid: Bid) -> tuple[str, str] | None:
        """``(rule, reason)`` when ``bid`` is not allowed, else ``None``."""
        if any(bid.same_as(b) for b in self.legal()):
            return None
        rules, who = self.rules, f"seat {self.seat}"
        if rules.mirror:
            n = trump_count(self.hand)
            return "mirror", f"{who} must bid {n or 'nil'}, the number of spades they hold (mirror)"
        if bid.kind == REDEAL:
            if not rules.weak_hand_redeal:
                return "weak-hand", "a redeal for a weak hand is not played (option weak_hand_redeal is off)"
            return "weak-hand", f"{who} may ask for a redeal only holding no spade and no face card"
        if bid.kind == "nil" and not rules.nil:
            return "nil", f"{who} may not bid nil (option nil is off)"
        if bid.is_blind:
            option = bid.kind.replace("-", "_")
            if not getattr(rules, option):
                return bid.kind, f"{bid.kind} is not played (option {option} is off)"
            if not self.blind_allowed:
                return bid.kind, (f"{who} may bid {bid.kind} only when their team is at least "
                                  f"{rules.blind_nil_behind} points behind")
        if bid.kind in BEMO and not rules.bemo:
            return "bemo", f"{bid.kind} is not played (option bemo is off)"
        partner = self.partner_bid
        if bid.kind in BEMO and partner is not None and self._partner_bid_bemo():
            return "bemo", (f"{who} may not bid {bid.kind}: their partner bid {partner.text}, "
                            "the team's one Bemo (option bemo_one_per_team)")
        if bid.kind == "number" and bid.tricks < rules.min_bid:
            return "min-bid", f"{who} may not bid below {rules.min_bid}"
        lo, hi = rules.min_team_bid, rules.max_team_bid
        if self.partner_bid is not None:
            return "team-bid", (f"a team's bids must total {lo} to {hi}: with their partner's "
                                f"{self.partner_bid.text}, {who} may not bid {bid.text}")
        return "team-bid", f"a team's bids must total {lo} to {hi}: no partner's bid completes {bid.text}"
