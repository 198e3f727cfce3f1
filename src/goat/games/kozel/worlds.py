"""Determinization: a complete Kozel state sampled from ONE seat's view.

Search bots (``ismcts``, ``pimc``) need whole states to simulate, but may only
know what their seat knows. :func:`sample_world` takes nothing but the view dict
(``state.view(seat)``) and builds a :class:`KozelState` that the seat cannot tell
from the real one: ``world.information_state_string(seat)`` equals the real
one and the seat's legal actions are the same. It plays the role of OpenSpiel's
``ResampleFromInfostate``.

How (why it is always legal): the current deal is rebuilt from its *initial*
deal. Every card position of that deal is a *slot* — ``hand_size`` slots a seat,
one a stock position. The deal's history (hidden cards shown as ``?``) is first
replayed at slot level: draws go clockwise from each trick's winner exactly as
the engine does, a face-up card is bound to one of its player's slots held at
that moment, a face-down pass or give takes some slot of its player, and what
the play reveals becomes a constraint on the slots held at that moment:

* failing to follow a suit (single-card tricks) — none of that seat's slots
  holds the led (effective) suit;
* a forced exchange — all of the leader's slots are trumps, the card given back
  is plain (and is the card led next);
* a trump lead although trump leads are barred — the leader (and, when a forced
  exchange exists, the partner) holds only trumps;
* street's shown trump card lies in the stock at a position 1..len-2.

The seat's own slots are its known cards (own hand, own plays, passes, gives,
and its draws in order). The unseen cards are then dealt into the free slots,
constrained slots first, and the resulting initial deal is replayed through the
real engine (``apply_chance`` + ``apply_action``), which guarantees legality;
a world the engine refuses (e.g. an unseen royal goat) is rejected and redrawn,
a bounded number of times.

Match-level facts (penalty totals, deal results, dealer, eggs, openers) are
public and are copied from the view. Earlier deals of a world are not rebuilt:
their log entries are placeholders, so a world's ``deal_log()`` is only
meaningful for its current deal.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from goat.cards import Card
from goat.games.kozel.deal import KozelDeal
from goat.games.kozel.phases import DEAL, OVER, PLAY
from goat.games.kozel.rules import QUEEN_OF_CLUBS, SHAMOK, KozelRules, make_rules
from goat.games.kozel.single import SingleCardTricks
from goat.games.kozel.state import KozelState
from goat.games.kozel.trumps import TRUMP, TrumpOrder, trump_order
from goat.games.tricks import draw_to
from goat.games.worlds import (
    Retry,
    WorldSamplingError,
    rules_of_view,
    sample_with_retries,
)
from goat.protocol import Action, IllegalActionError

__all__ = ["WorldSamplingError", "sample_world"]

PLAIN_SUITS = frozenset("CDHS")


@dataclass(frozen=True)
class _Move:
    seat: int
    verb: str
    cards: tuple[Card, ...] | None  # None: hidden from the viewer
    count: int


class _RestrictionProbe:
    """Just enough of a state for :meth:`SingleCardTricks._lead_restriction`."""

    def __init__(self, rules: KozelRules, prev_opening_team: int | None) -> None:
        self.rules = rules
        self.prev_opening_team = prev_opening_team
        self.prev_trick_leader_team: int | None = None
        self.tricks_played = 0

    def team_of(self, seat: int) -> int:
        return self.rules.team_of(seat)

    def barred(self, seat: int) -> bool:
        return SingleCardTricks._lead_restriction(self, seat) is not None  # type: ignore[arg-type]


def sample_world(view: dict[str, Any], rng: random.Random, max_tries: int = 200) -> KozelState:
    """A complete state consistent with everything ``view``'s seat knows.

    Reads only ``view`` (a dict from ``KozelState.view(seat)``, possibly through
    JSON). Raises :class:`WorldSamplingError` if ``max_tries`` draws all fail.
    """
    return sample_with_retries(_Context, view, rng, max_tries, "Kozel")


class _Context:
    """The deterministic part of a view, parsed once per :func:`sample_world` call."""

    def __init__(self, view: dict[str, Any]) -> None:
        if not isinstance(view, dict) or view.get("game") != "kozel":
            raise WorldSamplingError("sample_world needs a Kozel view dict")
        seat = view.get("seat")
        if not isinstance(seat, int):
            raise WorldSamplingError("sample_world needs a seat's view, not a spectator's")
        self.view = view
        self.seat = seat
        self.rules = rules = rules_of_view(make_rules, view)
        self.n = rules.players
        self.order: TrumpOrder | None = (trump_order(rules.permanent_trumps, rules.deck, view["trump_suit"])
                                         if view["deal_number"] else None)
        self.trump_card = Card.parse(view["trump_card"]) if view.get("trump_card") else None
        self.moves = [_parse_move(text) for text in view["history"]]
        self.hand = [Card.parse(c) for c in view["hand"]]
        self.drawn = [Card.parse(c) for c in view["drawn"]]
        self.in_deal = view["phase"] not in (DEAL, OVER)
        # Street shows the trump card from the middle of the stock and puts it back.
        self.trump_range: tuple[int, int] | None = None
        if rules.trump_suit == "drawn" and rules.trump_card_from == "stock":
            size = rules.stock_size
            self.trump_range = (1, size - 2) if size > 2 else (0, size - 1)

    # ------------------------------------------------------------------ driver
    def attempt(self, rng: random.Random) -> KozelState:
        view = self.view
        if not view["deal_number"]:  # nothing dealt yet: only public match facts
            return self._bare_state()
        deal, actions = _SlotReplay(self, rng).run()
        if self.in_deal:
            return self._replay(deal, actions, self._deal_start_fields())
        return self._replay_ended(deal, actions)

    def _bare_state(self) -> KozelState:
        world = KozelState(self.rules, first_dealer=self.view["first_dealer"], single_deal=self.view["single_deal"])
        self._restore_match(world)
        return world

    def _restore_match(self, world: KozelState) -> None:
        v = self.view
        world.dealer = v["dealer"]
        world.penalty_total = list(v["penalty_total"])
        world.deal_results = [dict(d) for d in v["deal_results"]]
        world.double_next = v["double_next"]
        world.prev_opening_team = v["prev_opening_team"]
        world.last_trick_winner = v["last_trick_winner"]
        world.match_over = v["match_over"]
        world.loser_team = v["loser_team"]

    def _opening_leader(self) -> int | None:
        """The seat that led (or gave in a forced exchange) first this deal."""
        skip = self.n if self.rules.partner_exchange else 0
        for move in self.moves[skip:]:
            return move.seat
        return None

    def _deal_start_fields(self) -> dict[str, Any]:
        v = self.view
        ltw = v["last_trick_winner"]
        if v["tricks_played"] and self.rules.opening_leader == "last-trick-winner":
            ltw = self._opening_leader()
        return {"dealer": v["dealer"], "prev_opening_team": v["prev_opening_team"],
                "last_trick_winner": ltw, "penalty_total": list(v["penalty_total"]),
                "deal_results": [dict(d) for d in v["deal_results"]], "double_next": v["double_next"]}

    def _replay(self, deal: KozelDeal, actions: list[Any], start: dict[str, Any]) -> KozelState:
        v = self.view
        world = KozelState(self.rules, first_dealer=v["first_dealer"], single_deal=v["single_deal"])
        for key, value in start.items():
            setattr(world, key, value)
        # Earlier deals are not rebuilt: placeholder log entries keep deal_number right.
        world.logs = [{"deal": deal, "dealer": None, "actions": [], "private": []}
                      for _ in range(v["deal_number"] - 1)]
        world.apply_chance(deal)
        try:
            for action in actions:
                if world.phase in (DEAL, OVER):
                    raise Retry
                world.apply_action(action)
        except IllegalActionError:
            raise Retry from None
        if self.in_deal and (world.phase != v["phase"] or world.current_player() != v["current_player"]):
            raise Retry
        return world

    def _replay_ended(self, deal: KozelDeal, actions: list[Any]) -> KozelState:
        """The view is between deals (or the match is over): replay the last deal
        from its start, then restore the public match facts as they are now."""
        v = self.view
        last = v["deal_results"][-1]
        annulled = last["ended_by"] == "annulled"
        dealer = v["dealer"]
        if v["phase"] == DEAL and not annulled and self.rules.next_dealer == "clockwise":
            dealer = (dealer - 1) % self.n
        totals = [t - p for t, p in zip(v["penalty_total"], last["penalty"])]
        ltw = self._opening_leader() if self.rules.opening_leader == "last-trick-winner" else None
        # Who opened the deal before is not public any more; any value under which
        # the deal replays legally gives the same view.
        candidates = [v["prev_opening_team"], None, *range(self.rules.num_teams)]
        for prev in dict.fromkeys(candidates):
            start = {"dealer": dealer, "prev_opening_team": prev, "last_trick_winner": ltw,
                     "penalty_total": totals, "deal_results": [dict(d) for d in v["deal_results"][:-1]],
                     "double_next": False}
            try:
                world = self._replay(deal, actions, start)
            except Retry:
                continue
            if world.phase not in (DEAL, OVER):
                continue
            self._restore_match(world)
            world.phase = v["phase"]
            return world
        raise Retry


def _parse_move(text: str) -> _Move:
    seat_text, verb, cards_text = text.split()
    parts = cards_text.split("+")
    if all(p == "?" for p in parts):
        return _Move(int(seat_text), verb, None, len(parts))
    cards = tuple(Card.parse(p) for p in parts)
    return _Move(int(seat_text), verb, cards, len(cards))


class _SlotReplay:
    """One random slot-level replay of the current deal (see the module docstring)."""

    def __init__(self, ctx: _Context, rng: random.Random) -> None:
        self.ctx = ctx
        self.rng = rng
        rules = ctx.rules
        self.card: list[Card | None] = []
        self.excl: list[set[str]] = []
        self.stock_pos: list[int] = []
        self.hands = [[self._new_slot(-1) for _ in range(rules.hand_size)] for _ in range(ctx.n)]
        self.initial = [list(h) for h in self.hands]
        self.stock = [self._new_slot(i) for i in range(rules.stock_size)]
        self.initial_stock = list(self.stock)
        self.trump_bound = ctx.trump_range is None or ctx.trump_card is None

    def _new_slot(self, stock_pos: int) -> int:
        self.card.append(None)
        self.excl.append(set())
        self.stock_pos.append(stock_pos)
        return len(self.card) - 1

    # ------------------------------------------------------------ slot helpers
    def _in_trump_range(self, slot: int) -> bool:
        lo, hi = self.ctx.trump_range  # type: ignore[misc]
        return lo <= self.stock_pos[slot] <= hi

    def _allows(self, slot: int, card: Card) -> bool:
        order = self.ctx.order
        return order is None or order.suit_of(card) not in self.excl[slot]

    def bind(self, seat: int, card: Card) -> int:
        """The slot of ``seat`` that holds the face-up ``card`` (binding a free one)."""
        held = self.hands[seat]
        for slot in held:
            if self.card[slot] is card:
                return slot
        free = [s for s in held if self.card[s] is None and self._allows(s, card)]
        if not self.trump_bound and seat != self.ctx.seat:
            if card is self.ctx.trump_card:
                free = [s for s in free if self._in_trump_range(s)]
            else:  # keep the slots that could hold the shown trump card for it
                free = [s for s in free if not self._in_trump_range(s)] or free
        if not free:
            raise Retry
        slot = free[0] if len(free) == 1 else self.rng.choice(free)
        self._set(slot, card)
        return slot

    def _set(self, slot: int, card: Card) -> None:
        self.card[slot] = card
        if card is self.ctx.trump_card and self.ctx.trump_range is not None:
            if not self._in_trump_range(slot):
                raise Retry
            self.trump_bound = True

    def take(self, seat: int, move: _Move) -> list[int]:
        """Remove the slots of ``move``'s cards from ``seat``'s hand."""
        held = self.hands[seat]
        if move.cards is not None:
            slots = [self.bind(seat, c) for c in move.cards]
        else:
            if len(held) < move.count:
                raise WorldSamplingError("the view's history does not fit its hand sizes")
            slots = self.rng.sample(held, move.count)
        for s in slots:
            held.remove(s)
        return slots

    def constrain(self, seat: int, suits: frozenset[str] | set[str]) -> None:
        """None of ``seat``'s current (unknown) slots holds a card of ``suits``."""
        if seat == self.ctx.seat:
            return
        for s in self.hands[seat]:
            card = self.card[s]
            if card is None:
                self.excl[s] |= suits
            elif self.ctx.order.suit_of(card) in suits:
                raise Retry

    # ------------------------------------------------------------------ replay
    def run(self) -> tuple[KozelDeal, list[Any]]:
        ctx, rules, n = self.ctx, self.ctx.rules, self.ctx.n
        order = ctx.order
        single = rules.trick_style == "single"
        probe = _RestrictionProbe(rules, ctx.view["prev_opening_team"] if ctx.in_deal else None)
        partner = (lambda s: (s + 2) % 4) if rules.partnerships else (lambda s: None)
        gives_left = n if rules.partner_exchange else 0
        pending: list[tuple[int, int]] = []
        forced: int | None = None          # the leader during a forced exchange
        must_lead: int | None = None       # slot of the card given back
        trick: list[tuple[int, str, list[int]]] = []
        best = 0
        drawn_next = 0
        action_slots: list[list[int]] = []
        moves = ctx.moves
        for i, move in enumerate(moves):
            seat, verb = move.seat, move.verb
            if verb == "give" and gives_left:
                slots = self.take(seat, move)
                pending.append((seat, slots[0]))
                gives_left -= 1
                if not gives_left:
                    for giver, slot in pending:
                        self.hands[partner(giver)].append(slot)
                action_slots.append(slots)
                continue
            if verb == "give" and forced is None:   # leader with only trumps
                self.constrain(seat, PLAIN_SUITS)
                slots = self.take(seat, move)
                self.hands[partner(seat)].append(slots[0])
                forced = seat
                action_slots.append(slots)
                continue
            if verb == "give":                      # the partner gives a plain card back
                nxt = moves[i + 1] if i + 1 < len(moves) else None
                if move.cards is None and nxt is not None and nxt.cards is not None:
                    move = _Move(seat, verb, nxt.cards[:1], 1)   # it is the card led next
                if move.cards is None:
                    plain = [s for s in self.hands[seat]
                             if (self.card[s] is None or not order.is_trump(self.card[s]))
                             and not PLAIN_SUITS <= self.excl[s]]
                    if not plain:
                        raise Retry
                    slot = self.rng.choice(plain)
                    self.hands[seat].remove(slot)
                    self.excl[slot].add(TRUMP)
                    slots = [slot]
                else:
                    if order.is_trump(move.cards[0]):
                        raise Retry
                    slots = self.take(seat, move)
                self.hands[forced].append(slots[0])
                must_lead = slots[0]
                forced = None
                action_slots.append(slots)
                continue
            if verb == "molodka":
                for s_seat, _, s_slots in trick:
                    self.hands[s_seat].extend(s_slots)
                trick = []
                slots = self.take(seat, move)
                trick.append((seat, "play", slots))
                best = 0
                action_slots.append(slots)
                continue
            # play or pass
            lead = not trick
            if single and lead and must_lead is None and move.cards and order.is_trump(move.cards[0]) \
                    and probe.barred(seat):
                self.constrain(seat, PLAIN_SUITS)
                if rules.forced_exchange and partner(seat) is not None:
                    self.constrain(partner(seat), PLAIN_SUITS)
            if lead and must_lead is not None:
                if move.cards is None or self.card[must_lead] not in (None, move.cards[0]) \
                        or not self._allows(must_lead, move.cards[0]):
                    raise Retry
                self._set(must_lead, move.cards[0])
                must_lead = None
            slots = self.take(seat, move)
            action_slots.append(slots)
            trick.append((seat, verb, slots))
            if single and not lead:
                led = order.suit_of(self.card[trick[0][2][0]])
                played = order.suit_of(move.cards[0])
                if played != led and (led != TRUMP or rules.must_follow_trump):
                    self.constrain(seat, {led})
                if order.beats(move.cards[0], self.card[trick[best][2][0]]):
                    best = len(trick) - 1
            elif not single and verb == "play":
                best = len(trick) - 1
            if lead:
                best = 0
            if single and rules.shamok_catches_queen and rules.has_shamok and self._caught(trick):
                break
            if len(trick) < n:
                continue
            winner = trick[best][0]
            probe.prev_trick_leader_team = rules.team_of(trick[0][0])
            probe.tricks_played += 1
            trick = []
            for s, slot in draw_to(self.hands, self.stock, winner, rules.hand_size):
                if s == ctx.seat:
                    if drawn_next >= len(ctx.drawn):
                        raise WorldSamplingError("the view's draws do not fit its history")
                    if self.card[slot] is not None:
                        raise Retry
                    self._set(slot, ctx.drawn[drawn_next])
                    drawn_next += 1
        self._check_sizes()
        self._bind_own_hand()
        partner_needs_plain = self._own_lead_facts(probe, trick, must_lead)
        self._deal_unseen(self._royal_goat_seat())
        if partner_needs_plain is not None and not any(
                not order.is_trump(self.card[s]) for s in self.hands[partner_needs_plain]):
            raise Retry
        deal = KozelDeal(tuple(tuple(self.card[s] for s in h) for h in self.initial),
                         tuple(self.card[s] for s in self.initial_stock), ctx.trump_card)
        actions = []
        for move, slots in zip(moves, action_slots):
            cards = move.cards if move.cards is not None else tuple(self.card[s] for s in slots)
            actions.append(Action(move.seat, move.verb, cards))
        return deal, actions

    def _own_lead_facts(self, probe: _RestrictionProbe, trick: list[Any], must_lead: int | None) -> int | None:
        """What the seat's own legal actions reveal: when it must lead, may not
        lead a trump and holds only trumps, a forced exchange is offered exactly
        when the partner holds a plain card. Returns the partner's seat if it
        must hold one (checked after dealing), constrains it otherwise."""
        ctx, rules = self.ctx, self.ctx.rules
        v = ctx.view
        if (rules.trick_style != "single" or not rules.forced_exchange or not rules.partnerships
                or v["phase"] != PLAY or v["current_player"] != ctx.seat or trick or must_lead is not None
                or "must_lead" in v or not all(ctx.order.is_trump(c) for c in ctx.hand)
                or not probe.barred(ctx.seat)):
            return None
        partner = (ctx.seat + 2) % 4
        if any(text.split()[1] == "give" for text in v["legal_actions"]):
            return partner
        self.constrain(partner, PLAIN_SUITS)
        return None

    def _royal_goat_seat(self) -> int | None:
        """The seat that must hold every ace: the deal in the view ended with a
        royal goat (public) and the viewer does not hold the aces itself."""
        ctx = self.ctx
        results = ctx.view["deal_results"]
        if ctx.in_deal or not results or results[-1]["ended_by"] != "royal-goat":
            return None
        winner = results[-1]["winner_team"]
        if sum(c.rank == "A" for c in ctx.hand) == 4:
            return None
        seats = [s for s in range(ctx.n) if ctx.rules.team_of(s) == winner and s != ctx.seat]
        return self.rng.choice(seats) if seats else None

    def _caught(self, trick: list[tuple[int, str, list[int]]]) -> bool:
        seats = {self.card[slots[0]]: s for s, _, slots in trick}
        return (SHAMOK in seats and QUEEN_OF_CLUBS in seats
                and self.ctx.rules.team_of(seats[SHAMOK]) != self.ctx.rules.team_of(seats[QUEEN_OF_CLUBS]))

    def _check_sizes(self) -> None:
        ctx = self.ctx
        if [len(h) for h in self.hands] != list(ctx.view["hand_sizes"]) or len(self.stock) != ctx.view["stock_size"]:
            raise WorldSamplingError("the view's history does not fit its hand and stock sizes")

    def _bind_own_hand(self) -> None:
        seat = self.ctx.seat
        held = self.hands[seat]
        known = {self.card[s] for s in held if self.card[s] is not None}
        rest = [c for c in self.ctx.hand if c not in known]
        free = [s for s in held if self.card[s] is None]
        if len(rest) != len(free):
            raise WorldSamplingError(f"seat {seat}'s hand does not fit the view's history")
        for s, c in zip(free, rest):
            self._set(s, c)

    def _deal_unseen(self, aces_to: int | None) -> None:
        """Deal every card the seat has not seen into the free slots: the shown
        trump card (street) first, then (after a royal goat) the aces to the
        seat that held them all, then the constrained slots, then the rest."""
        ctx, rng = self.ctx, self.rng
        bound = {c for c in self.card if c is not None}
        unseen = [c for c in ctx.rules.deck_cards if c not in bound]
        free = [s for s, c in enumerate(self.card) if c is None]
        if len(unseen) != len(free):
            raise WorldSamplingError("the view's cards do not add up to the deck")
        if not self.trump_bound:
            spots = [s for s in free if self._in_trump_range(s) and self._allows(s, ctx.trump_card)]
            if not spots:
                raise Retry
            slot = rng.choice(spots)
            self._set(slot, ctx.trump_card)
            free.remove(slot)
            unseen.remove(ctx.trump_card)
        if aces_to is not None:
            aces = [c for c in unseen if c.rank == "A"]
            spots = [s for s in self.hands[aces_to] if self.card[s] is None]
            if len(spots) < len(aces):
                raise Retry
            for slot, card in zip(rng.sample(spots, len(aces)), aces):
                self.card[slot] = card
                free.remove(slot)
                unseen.remove(card)
        rng.shuffle(unseen)
        tight = [s for s in free if self.excl[s]]
        loose = [s for s in free if not self.excl[s]]
        rng.shuffle(tight)
        tight.sort(key=lambda s: -len(self.excl[s]))
        for s in tight:
            options = [i for i, c in enumerate(unseen) if self._allows(s, c)]
            if not options:
                raise Retry
            self.card[s] = unseen.pop(rng.choice(options))
        for s, c in zip(loose, unseen):
            self.card[s] = c
