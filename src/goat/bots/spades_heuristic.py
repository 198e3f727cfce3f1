"""A simple rule-based Spades bot, from the seat's view alone.

It reads ``state.view(seat)`` plus public rule knowledge (the card order of
:mod:`goat.games.spades.cards`). Its rules:

* **Bidding.** Count sure-ish tricks: the ace and a guarded king or queen of
  spades, every spade beyond the third, side aces, side kings with a small card,
  and a trick for a short side suit (void or singleton) while spare spades can
  ruff it. Bid the legal bid nearest that count; bid nil with less than one
  expected trick, no high spade and at most three spades. A blind nil is decided
  *before* looking at the hand, from the scores alone: when the team is at least
  200 points behind and the partner has not bid a nil (two nils leave the team
  no tricks to make: it falls further behind, deal after deal). The engine holds
  the hand face down while a blind bid is open (``hand_face_down``): the bot
  then bids blind or looks first, then bids from the hand. It never looks out
  of turn: a bot gains nothing by seeing its cards early, and at a table each
  look is an event that would change the version under a person deciding (a
  hint asked then came back stale); a stand-in, besides, must leave a blind bid
  to the person who may be back before the turn. A weak hand asks for a redeal when the rules allow it.
* **Nil.** A nil bidder plays the highest card that does not take the trick,
  else its lowest; it leads its lowest card. Its partner covers: when the nil
  partner is winning the trick or still to play, it takes the trick as cheaply as
  it can.
* **Contract.** While the team still needs tricks: win a trick it can win with
  the cheapest winning card (not when the partner already holds it safely), lead
  masters (the highest unseen card of a suit) and otherwise low from the longest
  side suit. Once the contract is made it ducks, to avoid bags.
* **Exchange** (double nil): the nil bidder passes its highest cards, its partner
  its lowest.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from goat.bots.base import BaseBot, View, required_actions
from goat.cards import Card
from goat.games.spades.bids import LOOK
from goat.games.spades.cards import spades_order
from goat.games.tricks.order import TrumpOrder
from goat.protocol import Action

NIL_BIDS = ("nil", "blind-nil", "double-nil")
BLIND_BEHIND = 200


class SpadesHeuristicBot(BaseBot):
    """Partner-aware Spades play from the view; reproducible from a seed (ties)."""

    name = "heuristic"

    def __init__(self, seed: int | str | None = None, stand_in: bool = False) -> None:
        """``stand_in``: playing for a person who is away (see :class:`goat.bots.base.Bot`):
        never a blind bid — a gamble of ±100 or more on an unseen hand is the
        player's own to take, not a stand-in's."""
        self.rng = random.Random(seed)
        self.stand_in = stand_in

    def choose(self, view: View) -> Action:
        actions = required_actions(view)
        if len(actions) == 1:
            return actions[0]
        if view.get("hand_face_down"):
            return self._blind_or_look(view, actions)
        order = spades_order(bool(view["options"]["jokers"]))
        if actions[0].verb == "bid":
            return self._bid(view, actions, order)
        if actions[0].verb == "give":
            return self._give(view, actions, order)
        return _Play(view, actions, order).choose()

    # ------------------------------------------------------------- bidding
    def _may_bid_blind(self, view: View) -> bool:
        """Blind bids are decided from the score alone (the hand is not looked at):
        far enough behind, the partner not (yet) a nil bidder, not a stand-in."""
        team = view["seat"] % 2
        behind = view["score_total"][1 - team] - view["score_total"][team]
        partner_bid = view["bids"][(view["seat"] + 2) % 4]
        return behind >= BLIND_BEHIND and partner_bid not in NIL_BIDS and not self.stand_in

    def _blind_or_look(self, view: View, actions: list[Action]) -> Action:
        """A face-down hand's turn: a blind bid, or a look (then the bid, next)."""
        by_text = {a.bid: a for a in actions}
        if self._may_bid_blind(view) or LOOK not in by_text:
            for blind in ("double-nil", "blind-nil"):
                if blind in by_text:
                    return by_text[blind]
        return by_text[LOOK]

    def _bid(self, view: View, actions: list[Action], order: TrumpOrder) -> Action:
        by_text = {a.bid: a for a in actions}
        if "redeal" in by_text:
            return by_text["redeal"]
        hand = [Card.parse(c) for c in view["hand"]]
        estimate = estimate_tricks(hand, order)
        high_spade = any(order.is_trump(c) and order.strength[c] >= order.strength[Card("Q", "S")] for c in hand)
        spades = sum(order.is_trump(c) for c in hand)
        if "nil" in by_text and estimate < 1.0 and not high_spade and spades <= 3:
            return by_text["nil"]
        numbers = [a for a in actions if a.bid.isdigit() and a.bid != "0"]
        if not numbers:
            return actions[0]
        return min(numbers, key=lambda a: (abs(int(a.bid) - estimate), int(a.bid)))

    # ------------------------------------------------------------ exchange
    def _give(self, view: View, actions: list[Action], order: TrumpOrder) -> Action:
        seat = view["seat"]
        my_bid = view["bids"][seat]
        ranked = sorted(actions, key=lambda a: order.strength[a.cards[0]] + (50 if order.is_trump(a.cards[0]) else 0))
        return ranked[-1] if my_bid in NIL_BIDS else ranked[0]


def estimate_tricks(hand: Sequence[Card], order: TrumpOrder) -> float:
    """Rough count of the tricks ``hand`` takes (see the module docstring)."""
    spades = sorted((c for c in hand if order.is_trump(c)), key=lambda c: order.strength[c], reverse=True)
    tops = [order.strength[c] for c in order.trumps[::-1]]   # strongest trump first
    tricks = 0.0
    for i, card in enumerate(spades[:3]):
        rank_from_top = tops.index(order.strength[card])
        if rank_from_top <= i:       # e.g. the ace, the king with one more spade...
            tricks += 1.0
        elif rank_from_top <= i + 1:
            tricks += 0.5
    tricks += max(0, len(spades) - 3)
    spare = max(0, len(spades) - 2)
    for suit in "CDH":
        cards = sorted((c for c in hand if c.suit == suit and not order.is_trump(c)),
                       key=lambda c: order.strength[c], reverse=True)
        ranks = [c.rank for c in cards]
        if "A" in ranks:
            tricks += 1.0
        if "K" in ranks and len(cards) >= 2:
            tricks += 0.7 if "A" in ranks else 0.5
        if len(cards) <= 1 and spare:
            tricks += 1.0 if not cards else 0.5
            spare -= 1
    return tricks


class _Play:
    """One card decision, from the view's public history of this deal."""

    def __init__(self, view: View, actions: list[Action], order: TrumpOrder) -> None:
        self.view, self.actions, self.order = view, actions, order
        self.seat = view["seat"]
        self.partner = (self.seat + 2) % 4
        self.cards = [a.cards[0] for a in actions]
        hand = {Card.parse(c) for c in view["hand"]}
        played = set()
        for text in view["history"]:
            _, verb, rest = text.split()
            if verb == "play":
                played.add(Card.parse(rest))
        self.unseen = [c for c in order.strength if c not in hand and c not in played]
        self.trick = [(p["seat"], Card.parse(p["cards"][0])) for p in view["trick"]]
        bids = view["bids"]
        self.i_am_nil = bids[self.seat] in NIL_BIDS
        self.partner_nil = bids[self.partner] in NIL_BIDS
        team_seats = (self.seat % 2, self.seat % 2 + 2)
        contract = sum(int(bids[s]) if bids[s] and bids[s].isdigit() else {"little-bemo": 6, "big-bemo": 9}.get(
            bids[s], 0) for s in team_seats)
        taken = sum(view["tricks_by_seat"][s] for s in team_seats if bids[s] not in NIL_BIDS)
        self.need = contract - taken

    # ------------------------------------------------------------- helpers
    def key(self, card: Card) -> int:
        return self.order.strength[card] + (100 if self.order.is_trump(card) else 0)

    def best(self) -> tuple[int, Card] | None:
        if not self.trick:
            return None
        best = self.trick[0]
        for play in self.trick[1:]:
            if self.order.beats(play[1], best[1]):
                best = play
        return best

    def winners(self) -> list[Card]:
        best = self.best()
        return [c for c in self.cards if best is None or self.order.beats(c, best[1])]

    def lowest(self, cards: Sequence[Card]) -> Card:
        return min(cards, key=lambda c: (self.order.is_trump(c), self.key(c)))

    def is_master(self, card: Card) -> bool:
        """No unseen card beats ``card`` in its suit (and, off spades, nobody can ruff... probably)."""
        suit = self.order.suit_of(card)
        return not any(self.order.suit_of(c) == suit and self.key(c) > self.key(card) for c in self.unseen)

    def action(self, card: Card) -> Action:
        return next(a for a in self.actions if a.cards[0] is card)

    # ------------------------------------------------------------ decisions
    def choose(self) -> Action:
        if self.i_am_nil:
            return self.action(self.duck())
        if not self.trick:
            return self.action(self.lead())
        best_seat, best_card = self.best()  # type: ignore[misc]
        to_play = 4 - len(self.trick) - 1
        if self.partner_nil and (best_seat == self.partner or self.partner not in [s for s, _ in self.trick]):
            wins = self.winners()
            if wins:   # cover the nil partner
                return self.action(max(wins, key=self.key) if best_seat != self.partner and to_play
                                   else min(wins, key=self.key))
        if self.need <= 0:
            return self.action(self.duck())
        partner_holds = best_seat == self.partner and (to_play == 0 or self.is_master(best_card))
        wins = self.winners()
        if wins and not partner_holds:
            cheapest = min(wins, key=self.key)
            if to_play == 0 or self.is_master(cheapest) or self.order.is_trump(cheapest):
                return self.action(cheapest)
        return self.action(self.lowest(self.cards))

    def lead(self) -> Card:
        if self.need <= 0:
            return self.lowest(self.cards)
        masters = [c for c in self.cards if self.is_master(c) and not self.order.is_trump(c)]
        if masters:
            return max(masters, key=self.key)
        trumps = [c for c in self.cards if self.order.is_trump(c)]
        if trumps and self.is_master(max(trumps, key=self.key)):
            return max(trumps, key=self.key)
        side = [c for c in self.cards if not self.order.is_trump(c)] or self.cards
        lengths = {s: sum(1 for c in side if self.order.suit_of(c) == s) for s in {self.order.suit_of(c) for c in side}}
        longest = max(lengths.values())
        pool = [c for c in side if lengths[self.order.suit_of(c)] == longest]
        return self.lowest(pool)

    def duck(self) -> Card:
        """The highest card that does not take the trick, else the lowest."""
        best = self.best()
        if best is None:
            return self.lowest(self.cards)
        losers = [c for c in self.cards if not self.order.beats(c, best[1])]
        if losers:   # shed the most dangerous card that still loses, spades last
            return max(losers, key=lambda c: (not self.order.is_trump(c), self.key(c)))
        return self.lowest(self.cards)
