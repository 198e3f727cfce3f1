"""The Spades game state: a whole game to 500 (or one deal), deal after deal.

Implements :class:`goat.protocol.GameState`:

>>> import random
>>> from goat.games.spades import new_state
>>> state = new_state("standard", first_dealer=3)
>>> state.apply_chance(state.sample_chance(random.Random(7)))
>>> state.phase, state.current_player()       # bidding starts left of the dealer
('bid', 0)
>>> state.apply_action(Action.parse("0 bid 4"))
>>> state.bids[0].text
'4'

A deal runs: chance (the deal) → one bid per seat, starting left of the dealer →
the double nil exchange, when someone bid it → 13 tricks → scoring.

**Face down.** Blind nil is "a bid of nil made before looking at the hand", so
the engine, not a client, keeps it: while a seat may still bid blind (see
:meth:`SpadesState.face_down`) its view holds no card of its hand, and its bids
are the blind ones and ``"k bid look"``, which turns the hand over. A look is no
bid (not in ``bids``, the turn stays) and may come out of turn, like street
Kozel's molodka. The records contract has no look, so :meth:`deal_log` leaves
looks out and a number (or nil, Bemo, redeal) bid from a face-down seat is
*accepted*, never offered, as "looked, then bid": every record replays.

Every refusal is an :class:`IllegalActionError` whose ``reason`` names the seat and
the rule, and it leaves the state exactly as it was: :meth:`check_action` runs
before anything changes.
"""

from __future__ import annotations

import random
from typing import Any

from goat.cards import Card
from goat.games.spades.bids import LOOK, REDEAL, Bid, BidContext, is_glance, parse_bid
from goat.games.spades.cards import lowest_club, sort_hand, spades_order, suit_name
from goat.games.spades.deal import SpadesDeal
from goat.games.spades.phases import BID, DEAL, EXCHANGE, OVER, PLAY
from goat.games.spades.rules import HAND_SIZE, SpadesRules
from goat.games.spades.scoring import game_winner, score_deal
from goat.games.spades.view import SpadesViews
from goat.games.tricks import TablePlay, left_of, must_follow
from goat.games.tricks.phases import PhaseTurns
from goat.protocol import (
    Action,
    CheckedActions,
    check_rng,
    GoatError,
    IllegalActionError,
    InvalidChanceError,
    require_action,
)

__all__ = ["BID", "DEAL", "EXCHANGE", "OVER", "PLAY", "SpadesState"]


class SpadesState(PhaseTurns, CheckedActions, SpadesViews):
    """A Spades game in progress. Create with :func:`goat.games.spades.new_state`."""

    game_name = "spades"

    def __init__(self, rules: SpadesRules, first_dealer: int = 0, single_deal: bool = False) -> None:
        if not isinstance(first_dealer, int) or isinstance(first_dealer, bool) \
                or not 0 <= first_dealer < rules.players:
            raise GoatError(f"first_dealer must be a seat 0..{rules.players - 1}, not {first_dealer!r}")
        self.rules = rules
        self.num_players = rules.players
        self.single_deal = single_deal
        self.first_dealer = first_dealer
        self.dealer = first_dealer
        self.order = spades_order(rules.jokers)
        self.score_total = [0, 0]
        self.bags_total = [0, 0]
        self.deal_results: list[dict[str, Any]] = []
        #: Beside each entry of ``deal_results``, the teams that reneged in that deal
        #: (``renege_penalty``): the score sheet names them once the deal is over. Not
        #: in ``result()``, whose keys the records contract fixes.
        self.renege_log: list[tuple[int, ...]] = []
        self.deals_played = 0            # deals scored (a redeal does not count)
        self.match_over = False
        self.winner_team: int | None = None
        #: One entry a deal: {"deal": SpadesDeal, "dealer": int, "actions": [Action], "private": [...]}
        self.logs: list[dict[str, Any]] = []
        self.phase = DEAL
        self._reset_deal_fields()

    def _reset_deal_fields(self) -> None:
        n = self.rules.players
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        self.face_up: tuple[tuple[Card, ...], ...] = tuple(() for _ in range(n))
        self.bids: list[Bid | None] = [None] * n
        #: Seats that turned their hand over this deal (``bid look``).
        self.looked: set[int] = set()
        self.blind_teams: tuple[bool, bool] = (False, False)
        self.exchange_queue: list[tuple[int, int]] = []   # (giver, receiver), one card each
        self.pending_gives: list[tuple[int, int, Card]] = []
        self.trick: list[TablePlay] = []
        self.trick_leader = 0
        self.best_index = 0
        self.to_act = 0
        self.must_lead: Card | None = None
        self.tricks_by_seat = [0] * n
        self.trick_winners: list[int] = []
        self.tricks_played = 0
        self.spades_broken = False
        self.last_trick: dict[str, Any] | None = None
        self.reneged: set[int] = set()

    # ================================================================ protocol
    @staticmethod
    def team_of(seat: int) -> int:
        return seat % 2

    @staticmethod
    def partner_of(seat: int) -> int:
        return (seat + 2) % 4

    # ---------------------------------------------------------------- chance
    def sample_chance(self, rng: random.Random) -> SpadesDeal:
        """Shuffle and deal from ``rng`` (only at a chance node)."""
        check_rng(rng)
        if self.phase != DEAL:
            raise GoatError("no deal is due now")
        return SpadesDeal.shuffle(self.rules, self.dealer, rng)

    def apply_chance(self, outcome: SpadesDeal) -> None:
        """Start the next deal with ``outcome`` (validated against the rules)."""
        if self.phase != DEAL:
            raise InvalidChanceError("no deal is due now" + (": the game is over" if self.phase == OVER else ""))
        if not isinstance(outcome, SpadesDeal):
            raise InvalidChanceError(f"not a Spades deal: {outcome!r}")
        outcome.validate(self.rules)
        self._reset_deal_fields()
        self.hands = [list(h) for h in outcome.hands]
        self.face_up = outcome.face_up(self.rules)
        self.blind_teams = (self._may_bid_blind(0), self._may_bid_blind(1))
        self.logs.append({"deal": outcome, "dealer": self.dealer, "actions": [], "private": []})
        self.phase = BID
        self.to_act = left_of(self.dealer, self.rules.players)

    def _may_bid_blind(self, team: int) -> bool:
        """Whether ``team`` may bid blind this deal: at least ``blind_nil_behind``
        points behind at its start ([decision]), or always when that option is 0 —
        the leading team too, as docs/spades.md promises (a difference of "at least
        0" would have shut out the team ahead)."""
        behind = self.rules.blind_nil_behind
        return behind == 0 or self.score_total[1 - team] - self.score_total[team] >= behind

    # --------------------------------------------------------------- actions
    def legal_actions(self) -> list[Action]:
        """Every action any seat may take now, the seat to act's first. Only a
        look comes out of turn: while bidding, every other face-down seat may
        turn its hand over (``k bid look``)."""
        seat = self.to_act
        if self.phase == BID:
            return self._bid_actions(seat) + [Action(s, "bid", (), LOOK) for s in range(self.rules.players)
                                              if s != seat and self.face_down(s)]
        if self.phase == EXCHANGE:
            return [Action(seat, "give", (c,)) for c in sort_hand(self.hands[seat])]
        if self.phase == PLAY:
            return [Action(seat, "play", (c,)) for c in self._playable(seat)]
        return []

    def apply_action(self, action: Action) -> None:
        """Apply a legal action; an illegal one raises and changes nothing."""
        kind = self._check(action)
        log = self.logs[-1]
        log["actions"].append(action)
        log["private"].append(frozenset({action.seat, self.partner_of(action.seat)})
                              if kind == "give" and not self._public_card(action) else None)
        if kind == "look":
            self.looked.add(action.seat)
        elif kind == "bid":
            self._apply_bid(action)
        elif kind == "give":
            self._apply_give(action)
        else:
            self._apply_play(action, reneging=kind == "renege")

    def face_down(self, seat: int) -> bool:
        """Whether ``seat`` holds its hand face down now: in the bidding, not bid
        and not looked this deal, and a blind bid open to it (its team far enough
        behind, the option on, the team's limits allowing a nil). A seat with no
        blind bid open has nothing to keep blind: its hand is shown. Public:
        everyone may see that a seat has not looked."""
        return (self.phase == BID and self.bids[seat] is None and seat not in self.looked
                and bool(self._bid_context(seat).blind()))

    def _bid_actions(self, seat: int) -> list[Action]:
        """The bids offered to ``seat`` on its turn: face down, the blind bids
        and a look; else the bids a seen hand allows (:meth:`BidContext.after_looking`)."""
        context = self._bid_context(seat)
        if self.face_down(seat):
            return [Action(seat, "bid", (), b.text) for b in context.blind()] + [Action(seat, "bid", (), LOOK)]
        return [Action(seat, "bid", (), b.text) for b in context.after_looking()]

    # ============================================================ validation
    def _bid_context(self, seat: int) -> BidContext:
        return BidContext(self.rules, seat, self.hands[seat], self.bids[self.partner_of(seat)],
                          self.blind_teams[self.team_of(seat)])

    def _playable(self, seat: int) -> list[Card]:
        """The cards ``seat`` is offered. A renege is never among them, even under
        ``renege_penalty``: that option makes the table *accept* one (an imported
        record replays, :meth:`_check_play`), but a bot choosing from these, or a
        person from the move list, follows suit — offered, the heuristic bot reneged
        about twenty times a deal and its team scored the penalty every deal."""
        hand = sort_hand(self.hands[seat])
        if not self.trick:
            if self.must_lead is not None:
                return [self.must_lead]
            if not self._spade_lead_open():
                plain = [c for c in hand if not self.order.is_trump(c)]
                if plain:
                    return plain
            return hand
        follow = must_follow(hand, self._led_suit(), self.order.suit_of)
        return follow or hand

    def _spade_lead_open(self) -> bool:
        return self.spades_broken and self.rules.spades_broken_by != "never"

    def _led_suit(self) -> str:
        return self.order.suit_of(self.trick[0].cards[0])

    def _check(self, action: Action) -> str:
        """Validate and classify ``action``: the single gate every action passes."""
        require_action(action)
        seat = action.seat
        if self.phase == OVER:
            raise IllegalActionError(action, "game-over", f"seat {seat} cannot act: the game is over")
        if self.phase == DEAL:
            raise IllegalActionError(action, "no-deal", f"seat {seat} cannot act: the cards have not been dealt yet")
        if not 0 <= seat < self.rules.players:
            raise IllegalActionError(action, "seat", f"there is no seat {seat} (seats 0..{self.rules.players - 1})")
        if action.verb == "bid" and action.bid == LOOK:
            return self._check_look(action)
        if seat != self.to_act:
            raise IllegalActionError(action, "turn", f"it is seat {self.to_act}'s turn, not seat {seat}'s")
        if self.phase == BID:
            return self._check_bid(action)
        expected = "give" if self.phase == EXCHANGE else "play"
        if action.verb != expected:
            what = "give a card to their partner" if expected == "give" else "play a card"
            raise IllegalActionError(action, "verb", f"seat {seat} must {what} now, not {action.verb}")
        if len(action.cards) != 1:
            raise IllegalActionError(action, "card-count", f"seat {seat} must use exactly 1 card, "
                                                           f"not {len(action.cards)}")
        card = action.cards[0]
        if card not in self.hands[seat]:
            raise IllegalActionError(action, "card-in-hand", f"seat {seat} does not hold {card}")
        if self.phase == EXCHANGE:
            return "give"
        return self._check_play(action, card)

    def _check_bid(self, action: Action) -> str:
        seat = action.seat
        if action.verb != "bid":
            raise IllegalActionError(action, "verb", f"seat {seat} must bid now, not {action.verb}")
        bid = parse_bid(action.bid or "")
        if bid is None:
            raise IllegalActionError(action, "bid-syntax",
                                     f"seat {seat} bids {action.bid!r}, which is not a bid (a number 1-13, "
                                     "nil, blind-nil, double-nil, little-bemo, big-bemo or redeal; "
                                     "or look)")
        context = self._bid_context(seat)
        if bid.is_blind and seat in self.looked and not context.refusal(bid) \
                and not any(bid.same_as(b) for b in context.after_looking()):
            raise IllegalActionError(action, "looked", f"seat {seat} has looked at their cards: "
                                                       f"a {bid.kind.replace('-', ' ')} is bid before looking")
        refusal = context.refusal(bid)
        if refusal is not None:
            raise IllegalActionError(action, *refusal)
        return "bid"

    def _check_look(self, action: Action) -> str:
        """A look: any face-down seat during the bidding, in turn or not."""
        seat = action.seat
        if self.phase != BID:
            raise IllegalActionError(action, "look", f"seat {seat} may look at their cards only while "
                                                     "bidding: they are face up now")
        if self.bids[seat] is not None:
            raise IllegalActionError(action, "look", f"seat {seat} has bid: their cards are face up")
        if seat in self.looked:
            raise IllegalActionError(action, "look", f"seat {seat} has already looked at their cards")
        if not self.face_down(seat):
            raise IllegalActionError(action, "look", f"seat {seat}'s cards are face up: no blind bid is "
                                                     "open to them")
        return "look"

    def _check_play(self, action: Action, card: Card) -> str:
        seat, hand = action.seat, self.hands[action.seat]
        if not self.trick:
            if self.must_lead is not None and card != self.must_lead:
                raise IllegalActionError(action, "low-club-lead",
                                         f"seat {seat} must lead {self.must_lead}, the lowest club")
            plain = [c for c in hand if not self.order.is_trump(c)]
            if self.order.is_trump(card) and plain and not self._spade_lead_open():
                why = "in the first trick" if self.tricks_played == 0 else "before spades are broken"
                raise IllegalActionError(action, "spades-broken",
                                         f"seat {seat} may not lead a spade {why} "
                                         f"(holds {' '.join(map(str, sort_hand(plain)))})")
            return "play"
        led = self._led_suit()
        follow = must_follow(hand, led, self.order.suit_of)
        if follow and card not in follow:
            if self.rules.renege_penalty:
                return "renege"
            raise IllegalActionError(action, "follow-suit",
                                     f"seat {seat} must follow {suit_name(led)} "
                                     f"(holds {' '.join(map(str, sort_hand(follow)))})")
        return "play"

    def _public_card(self, action: Action) -> bool:
        """A face-up card stays public when it is given away."""
        return all(c in self.face_up[action.seat] for c in action.cards)

    # ============================================================= appliers
    def _apply_bid(self, action: Action) -> None:
        seat = action.seat
        bid = parse_bid(action.bid or "")
        assert bid is not None
        self.bids[seat] = bid
        if bid.kind == REDEAL:
            self._void_deal()
            return
        if any(b is None for b in self.bids):
            self.to_act = left_of(seat, self.rules.players)
            return
        self._start_exchange_or_play()

    def _start_exchange_or_play(self) -> None:
        n = self.rules.players
        k = self.rules.exchange_cards
        done: set[int] = set()
        for seat in (left_of(self.dealer, n, i) for i in range(1, n + 1)):
            bid = self.bids[seat]
            if bid is not None and bid.kind == "double-nil" and seat not in done:
                partner = self.partner_of(seat)
                self.exchange_queue += [(seat, partner)] * k + [(partner, seat)] * k
                done |= {seat, partner}
        if self.exchange_queue:
            self.phase = EXCHANGE
            self.to_act = self.exchange_queue[0][0]
        else:
            self._start_play()

    def _apply_give(self, action: Action) -> None:
        giver, receiver = self.exchange_queue.pop(0)
        card = action.cards[0]
        self.hands[giver].remove(card)
        self.pending_gives.append((giver, receiver, card))
        pair = {giver, receiver}
        if not self.exchange_queue or set(self.exchange_queue[0]) != pair:
            for g, r, c in self.pending_gives:     # the pair's exchange is complete
                self.hands[r].append(c)
            self.pending_gives = []
        if self.exchange_queue:
            self.to_act = self.exchange_queue[0][0]
        else:
            self._start_play()

    def _start_play(self) -> None:
        self.phase = PLAY
        if self.rules.first_lead == "lowest-club":
            club = lowest_club(self.rules.deck_cards)
            self.to_act = next(s for s, h in enumerate(self.hands) if club in h)
            self.must_lead = club
        else:
            self.to_act = left_of(self.dealer, self.rules.players)
        self.trick_leader = self.to_act

    def _apply_play(self, action: Action, reneging: bool) -> None:
        seat, card = action.seat, action.cards[0]
        if reneging:
            self.reneged.add(self.team_of(seat))
        self.hands[seat].remove(card)
        if not self.trick:
            self.trick_leader = seat
            self.must_lead = None
            self.best_index = 0
        elif self.order.beats(card, self.trick[self.best_index].cards[0]):
            self.best_index = len(self.trick)
        if self.order.is_trump(card) and (
                self.rules.spades_broken_by == "any-spade"
                or (self.rules.spades_broken_by == "trumping" and self.trick and not self.order.is_trump(
                    self.trick[0].cards[0]))):
            self.spades_broken = True
        self.trick.append(TablePlay(seat, "play", (card,)))
        if len(self.trick) < self.rules.players:
            self.to_act = left_of(seat, self.rules.players)
            return
        self._finish_trick()

    def _finish_trick(self) -> None:
        winner = self.trick[self.best_index].seat
        self.tricks_by_seat[winner] += 1
        self.trick_winners.append(winner)
        self.last_trick = {"leader": self.trick_leader, "winner": winner, "plays": list(self.trick)}
        self.tricks_played += 1
        self.trick = []
        if self.tricks_played == HAND_SIZE:
            self._score_deal()
            return
        self.to_act = self.trick_leader = winner

    # ============================================================ deal end
    def _bid_texts(self) -> list[str | None]:
        return [b.text if b is not None else None for b in self.bids]

    def _void_deal(self) -> None:
        """A weak hand was shown: the deal is void and the same dealer deals again."""
        self.deal_results.append({"bids": self._bid_texts(), "tricks": [0] * self.rules.players,
                                  "score": [0, 0], "bags": [0, 0]})
        self.renege_log.append(())
        self.trick = []
        self.phase = DEAL

    def _score_deal(self) -> None:
        rules = self.rules
        bids = [b for b in self.bids if b is not None]
        result = score_deal(rules, bids, self.tricks_by_seat, self.trick_winners, self.bags_total, self.reneged)
        self.deal_results.append({"bids": self._bid_texts(), "tricks": list(self.tricks_by_seat),
                                  "score": list(result.score), "bags": list(result.bags)})
        self.renege_log.append(tuple(sorted(self.reneged)))
        for team in (0, 1):
            self.score_total[team] += result.score[team]
        self.bags_total = list(result.bags_total)
        self.deals_played += 1
        winner = game_winner(rules, self.score_total, self.deals_played, result.boston_made_by)
        if winner is not None:
            self.match_over = True
            self.winner_team = winner
        if self.match_over or self.single_deal:
            self.phase = OVER
            return
        self.dealer = left_of(self.dealer, rules.players)
        self.phase = DEAL

    # ============================================================== results
    def returns(self) -> list[float]:
        """At the end of a game: +1 for each seat of the winning team, −1 for
        the others. A single deal (``single_deal``): each seat gets its team's
        score for the deal (as OpenSpiel's one-deal ``spades`` returns)."""
        n = self.rules.players
        if self.phase != OVER:
            return [0.0] * n
        if self.match_over and self.winner_team is not None:
            return [1.0 if self.team_of(s) == self.winner_team else -1.0 for s in range(n)]
        score = self.deal_results[-1]["score"] if self.deal_results else [0, 0]
        return [float(score[self.team_of(s)]) for s in range(n)]

    def result(self) -> dict[str, Any]:
        """The record's ``result`` object (``shared/spec/records.md``, Spades)."""
        deals = [dict(d, bids=list(d["bids"]), tricks=list(d["tricks"]), score=list(d["score"]),
                      bags=list(d["bags"])) for d in self.deal_results]
        if self.phase in (BID, EXCHANGE, PLAY):  # an unfinished deal: nothing scored yet
            deals.append({"bids": self._bid_texts(), "tricks": list(self.tricks_by_seat),
                          "score": [0, 0], "bags": [0, 0]})
        return {
            "deals": deals,
            "score_total": list(self.score_total),
            "bags_total": list(self.bags_total),
            "match_over": self.match_over,
            "winner_team": self.winner_team,
        }

    def deal_log(self) -> list[dict[str, Any]]:
        """The record's ``deals`` array: every deal's cards and actions so far.
        Looks are left out: the contract has none, and a look changes no outcome
        (a face-down seat's bid replays as "looked, then bid")."""
        return [log["deal"].to_json() | {"actions": [str(a) for a in log["actions"] if not is_glance(a)]}
                for log in self.logs]

    # ================================================================ clone
    def clone(self) -> SpadesState:
        """An independent copy (cheaper than ``copy.deepcopy``)."""
        other = object.__new__(SpadesState)
        other.__dict__.update(self.__dict__)
        other.score_total = list(self.score_total)
        other.bags_total = list(self.bags_total)
        other.deal_results = [dict(d) for d in self.deal_results]
        other.renege_log = list(self.renege_log)
        other.logs = [{"deal": log["deal"], "dealer": log["dealer"], "actions": list(log["actions"]),
                       "private": list(log["private"])} for log in self.logs]
        other.hands = [list(h) for h in self.hands]
        other.bids = list(self.bids)
        other.exchange_queue = list(self.exchange_queue)
        other.pending_gives = list(self.pending_gives)
        other.trick = list(self.trick)
        other.tricks_by_seat = list(self.tricks_by_seat)
        other.trick_winners = list(self.trick_winners)
        other.reneged = set(self.reneged)
        other.looked = set(self.looked)
        return other

    def __repr__(self) -> str:
        return (f"SpadesState(rules={self.rules.name!r}, deal={len(self.logs)}, phase={self.phase!r}, "
                f"to_act={self.current_player()}, score={self.score_total})")
