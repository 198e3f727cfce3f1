"""Determinization: a complete Spades state sampled from ONE seat's view.

Search bots need whole states to simulate but may know only what their seat
knows. :func:`sample_world` reads nothing but the view dict and returns a
:class:`SpadesState` that the seat cannot tell from the real one (equal
``information_state_string`` and legal actions), like OpenSpiel's
``ResampleFromInfostate``.

How: Spades has no stock, so the current deal is rebuilt from what each seat
holds *after* the double nil's exchange (its current hand plus the cards it has
played). The cards the seat has not seen are dealt into the other seats'
unknown places under the constraints the play revealed:

* a seat that did not follow the led suit holds none of it any more
  (not under ``renege_penalty``, where a renege is possible);
* a seat that led a spade while spade leads were barred held only spades;
* under ``mirror`` a seat was dealt exactly as many spades as it bid;
* a hand shown for a redeal, and the face-up cards, are public;
* a seat whose hand is face down (it may still bid blind and has not looked)
  does not know its own cards either: they are drawn like the others'
  (its face-up cards, ``face-up-four``, stay its own).

The exchange's hidden cards are then chosen among what the receiving seat
holds, the initial deal is assembled (face-up cards first, in their places), and
the whole deal is replayed through the real engine, which guarantees legality; a
world the engine refuses is drawn again, a bounded number of times. Match facts
(scores, bags, earlier deal results, the dealer) are public and copied; earlier
deals are not rebuilt (their log entries are placeholders).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from goat.cards import Card
from goat.games.spades.bids import parse_bid
from goat.games.spades.cards import spades_order, trump_count
from goat.games.spades.deal import SpadesDeal
from goat.games.spades.phases import BID, DEAL, EXCHANGE, OVER, PLAY
from goat.games.spades.rules import HAND_SIZE, make_rules
from goat.games.spades.state import SpadesState
from goat.games.tricks.order import TRUMP
from goat.games.worlds import (
    Retry,
    WorldSamplingError,
    rules_of_view,
    sample_with_retries,
)
from goat.protocol import Action, IllegalActionError

__all__ = ["WorldSamplingError", "sample_world"]

PLAIN = frozenset("CDH")


@dataclass(frozen=True)
class _Move:
    seat: int
    verb: str
    cards: tuple[Card, ...] | None   # None: hidden from the viewer
    bid: str | None


def sample_world(view: dict[str, Any], rng: random.Random, max_tries: int = 200) -> SpadesState:
    """A complete state consistent with everything ``view``'s seat knows.

    Reads only ``view`` (a dict from ``SpadesState.view(seat)``, possibly through
    JSON). Raises :class:`WorldSamplingError` if ``max_tries`` draws all fail.
    """
    return sample_with_retries(_Context, view, rng, max_tries, "Spades")


def _parse_move(text: str) -> _Move:
    seat_text, verb, rest = text.split()
    if verb == "bid":
        return _Move(int(seat_text), verb, None, rest)
    parts = rest.split("+")
    if all(p == "?" for p in parts):
        return _Move(int(seat_text), verb, None, None)
    return _Move(int(seat_text), verb, tuple(Card.parse(p) for p in parts), None)


class _Context:
    """The deterministic part of a view, parsed once per :func:`sample_world` call."""

    def __init__(self, view: dict[str, Any]) -> None:
        if not isinstance(view, dict) or view.get("game") != "spades":
            raise WorldSamplingError("sample_world needs a Spades view dict")
        seat = view.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise WorldSamplingError("sample_world needs a seat's view, not a spectator's")
        self.view = view
        self.seat = seat
        self.rules = rules_of_view(make_rules, view)
        self.order = spades_order(self.rules.jokers)
        self.moves = [_parse_move(text) for text in view["history"]]
        self.hand = [Card.parse(c) for c in view["hand"]]
        if view.get("hand_face_down"):   # unseen by the seat itself, but for its face-up cards
            self.hand = [Card.parse(c) for c in view["face_up_held"][seat]]
        self.own_unknown = bool(view.get("hand_face_down"))
        self.face_up = [tuple(Card.parse(c) for c in cards) for cards in view["face_up"]]
        self.in_deal = view["phase"] in (BID, EXCHANGE, PLAY)
        self.shown = {int(s): [Card.parse(c) for c in cards] for s, cards in (view.get("shown_hand") or {}).items()}

    # ------------------------------------------------------------------ driver
    def attempt(self, rng: random.Random) -> SpadesState:
        if not self.view["deal_number"]:
            return self._restore(self._new_world(), final=True)
        deal, actions = _Draw(self, rng).run()
        return self._replay(deal, actions)

    def _new_world(self) -> SpadesState:
        v = self.view
        return SpadesState(self.rules, first_dealer=v["first_dealer"], single_deal=v["single_deal"])

    def _restore(self, world: SpadesState, final: bool) -> SpadesState:
        """Copy the public match facts (``final``: as they are now; else as they
        were when the current — or just finished — deal started)."""
        v, rules = self.view, self.rules
        results = [dict(d) for d in v["deal_results"]]
        if not final and not self.in_deal:
            results = results[:-1]
        world.deal_results = results
        world.score_total = [sum(d["score"][t] for d in results) for t in (0, 1)]
        bags = [0, 0]
        for d in results:
            for t in (0, 1):
                bags[t] += d["bags"][t]
                while rules.bags and bags[t] >= rules.bag_limit:
                    bags[t] -= rules.bag_limit
        world.bags_total = bags
        world.deals_played = sum(1 for d in results if "redeal" not in d["bids"])
        world.dealer = v["dealer"]
        if final:
            world.match_over = v["match_over"]
            world.winner_team = v["winner_team"]
        elif not self.in_deal and v["phase"] == DEAL and "redeal" not in v["deal_results"][-1]["bids"]:
            world.dealer = (v["dealer"] - 1) % rules.players   # the deal passed on after it
        return world

    def _replay(self, deal: SpadesDeal, actions: list[Action]) -> SpadesState:
        v = self.view
        world = self._restore(self._new_world(), final=False)
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
        if world.phase != v["phase"] or world.current_player() != v["current_player"] \
                or world.match_over != v["match_over"]:
            raise Retry
        return world


class _Draw:
    """One random draw of the unseen cards, and the deal and actions it implies."""

    def __init__(self, ctx: _Context, rng: random.Random) -> None:
        self.ctx = ctx
        self.rng = rng
        n = ctx.rules.players
        self.played: list[list[Card]] = [[] for _ in range(n)]
        self.excluded: list[set[str]] = [set() for _ in range(n)]
        self.bids: list[str | None] = [None] * n
        self.gives: list[tuple[int, Card | None]] = []     # in order; None: hidden
        self.play_moves: list[_Move] = []
        self._read_history()

    # --------------------------------------------------------- public facts
    def _read_history(self) -> None:
        ctx, order, rules = self.ctx, self.ctx.order, self.ctx.rules
        broken = False
        trick: list[Card] = []
        first_trick = True
        for move in ctx.moves:
            if move.verb == "bid":
                self.bids[move.seat] = move.bid
                continue
            if move.verb == "give":
                self.gives.append((move.seat, move.cards[0] if move.cards else None))
                continue
            card = move.cards[0]
            self.play_moves.append(move)
            self.played[move.seat].append(card)
            if not trick:
                lowest_lead = first_trick and rules.first_lead == "lowest-club"
                open_lead = broken and rules.spades_broken_by != "never"
                if order.is_trump(card) and not open_lead and not lowest_lead:
                    self.excluded[move.seat] |= PLAIN       # it held nothing but spades
            elif not rules.renege_penalty and order.suit_of(card) != order.suit_of(trick[0]):
                self.excluded[move.seat].add(order.suit_of(trick[0]))
            if order.is_trump(card) and (rules.spades_broken_by == "any-spade" or (
                    rules.spades_broken_by == "trumping" and trick and not order.is_trump(trick[0]))):
                broken = True
            trick.append(card)
            if len(trick) == rules.players:
                trick = []
                first_trick = False

    # ------------------------------------------------------------- drawing
    def run(self) -> tuple[SpadesDeal, list[Action]]:
        ctx, rules = self.ctx, self.ctx.rules
        n, me = rules.players, ctx.seat
        partner = (me + 2) % 4
        face_up_cards = {c for cards in ctx.face_up for c in cards}
        pending = self._pending_givers()
        # What the viewer can place: its hand, every played card, the face-up
        # cards still held, the cards it gave (wherever they are now), the shown hand.
        known_now: list[list[Card]] = [[] for _ in range(n)]
        known_now[me] = list(ctx.hand)
        for s, cards in enumerate(ctx.view["face_up_held"]):
            if s != me:
                known_now[s] = [Card.parse(c) for c in cards]
        my_gifts = [c for g, c in self.gives if g == me and c is not None]
        limbo_known = [c for g, c in self.gives if g in pending and c is not None]
        if me not in pending:   # delivered: what I gave that my partner still holds
            known_now[partner] += [c for c in my_gifts if c not in self.played[partner]
                                   and c not in known_now[partner]]
        for s, cards in ctx.shown.items():
            known_now[s] = list(cards)
        seen = {c for hand in known_now for c in hand} | {c for p in self.played for c in p} \
            | set(limbo_known) | set(my_gifts)
        unseen = [c for c in rules.deck_cards if c not in seen]
        sizes = ctx.view["hand_sizes"]
        limbo_hidden = [g for g, c in self.gives if g in pending and c is None]
        slots: list[tuple[int, str]] = []   # (seat or -1 for limbo, "any"/"trump"/"plain")
        for s in range(n):
            free = sizes[s] - len(known_now[s])
            if (s == me and not ctx.own_unknown) or free == 0:
                if free != 0:
                    raise WorldSamplingError("the view's hand does not fit its hand sizes")
                continue
            if free < 0:
                raise WorldSamplingError("the view's public cards do not fit its hand sizes")
            kinds = ["any"] * free
            if rules.mirror and self.bids[s] is not None:
                bid = parse_bid(self.bids[s])
                need = (bid.tricks if bid else 0) - trump_count(known_now[s] + self.played[s])
                if not 0 <= need <= free:
                    raise Retry
                kinds = ["trump"] * need + ["plain"] * (free - need)
            slots += [(s, k) for k in kinds]
        slots += [(-1, "any")] * len(limbo_hidden)
        if len(slots) != len(unseen):
            raise WorldSamplingError("the view's cards do not add up to the deck")
        assigned = self._assign(slots, unseen)
        now = [list(h) for h in known_now]
        limbo: list[Card] = []
        for (s, _), card in zip(slots, assigned):
            (limbo if s < 0 else now[s]).append(card)
        return self._assemble(now, limbo, limbo_hidden, face_up_cards, pending)

    def _fits(self, slot: tuple[int, str], suit: str) -> bool:
        """Whether a card of ``suit`` may fill ``slot`` (a seat, or -1 for a
        card given but not delivered, and the kind of card the slot takes)."""
        seat, kind = slot
        if seat >= 0 and suit in self.excluded[seat]:
            return False
        if kind == "trump":
            return suit == TRUMP
        if kind == "plain":
            return suit != TRUMP
        return True

    def _assign(self, slots: list[tuple[int, str]], unseen: list[Card]) -> list[Card]:
        """Deal ``unseen`` into ``slots`` at random, every constraint kept, and
        without dead ends: a draw fails only if no deal fits at all.

        Without constraints this is a shuffle. With them, the cards are taken
        in random order, and each goes to a kind of slot (seat and kind) drawn
        with weight = that kind's free places, among the kinds after which the
        rest can still be placed. That is Hall's condition: every set of suits
        still to deal fits in the free places that take some suit of the set
        (at most four suits, so fifteen sets, each with its *slack*, places
        minus cards, kept up to date). Filling places blindly, a seat void in
        one suit could take the last places another seat's only possible cards
        needed: in a real deal 48 of 50 draws failed so, and a search drawing
        thousands of worlds a move ran out of its retries."""
        rng = self.rng
        pool = list(unseen)
        rng.shuffle(pool)
        suit_of = self.ctx.order.suit_of
        kinds = sorted(set(slots))
        suits = sorted({suit_of(c) for c in pool})
        takes = [[self._fits(kind, g) for kind in kinds] for g in suits]
        if all(all(row) for row in takes):
            return pool
        kind_of = {kind: k for k, kind in enumerate(kinds)}
        suit_no = {g: i for i, g in enumerate(suits)}
        free = [0] * len(kinds)
        for slot in slots:
            free[kind_of[slot]] += 1
        sets = range(1, 1 << len(suits))
        reach = {S: {k for g in range(len(suits)) if S >> g & 1 for k in range(len(kinds)) if takes[g][k]}
                 for S in sets}
        slack = {S: sum(free[k] for k in reach[S]) for S in sets}
        for card in pool:
            g = suit_no[suit_of(card)]
            for S in sets:
                slack[S] -= S >> g & 1
        if min(slack.values()) < 0:
            raise Retry
        # Placing a card of suit g in kind k costs a place to every set that
        # kind k serves, and a card to every set holding g.
        change = {(g, k): [(S, (k in reach[S]) - (S >> g & 1)) for S in sets
                           if (k in reach[S]) != bool(S >> g & 1)]
                  for g in range(len(suits)) for k in range(len(kinds)) if takes[g][k]}
        placed: list[list[Card]] = [[] for _ in kinds]
        for card in pool:
            g = suit_no[suit_of(card)]
            options = [k for k in range(len(kinds)) if takes[g][k] and free[k]
                       and all(slack[S] > 0 for S, d in change[g, k] if d > 0)]
            k = rng.choices(options, [free[k] for k in options])[0]
            free[k] -= 1
            for S, d in change[g, k]:
                slack[S] -= d
            placed[k].append(card)
        return [placed[kind_of[slot]].pop() for slot in slots]

    def _pending_givers(self) -> set[int]:
        """Givers of gives not delivered yet (an exchange in progress)."""
        if self.ctx.view["phase"] != EXCHANGE or not self.gives:
            return set()
        to_give = self.ctx.view["exchange_to_give"]
        last = self.gives[-1][0]
        pair = {last, (last + 2) % 4}
        if to_give and to_give[0] in pair:
            return {g for g, _ in self.gives if g in pair}
        return set()

    # ------------------------------------------------------------ assembly
    def _assemble(self, now: list[list[Card]], limbo: list[Card], limbo_hidden: list[int],
                  face_up_cards: set[Card], pending: set[int]) -> tuple[SpadesDeal, list[Action]]:
        ctx, rng, n = self.ctx, self.rng, self.ctx.rules.players
        held = [now[s] + self.played[s] for s in range(n)]     # after the exchange (or so far)
        initial = [list(h) for h in held]
        gift_cards: list[Card] = []
        limbo_iter = iter(limbo)
        # Each give moves one card from giver to partner; undo them to find the deal.
        hidden_by_giver: dict[int, int] = {}
        for giver, card in self.gives:
            if card is None:
                hidden_by_giver[giver] = hidden_by_giver.get(giver, 0) + 1
        chosen: dict[int, list[Card]] = {}
        for giver, count in hidden_by_giver.items():
            receiver = (giver + 2) % 4
            if giver in pending:
                chosen[giver] = [next(limbo_iter) for _ in range(count)]
                continue
            visible = {c for g, c in self.gives if c is not None}
            pool = [c for c in held[receiver] if c not in visible and c not in ctx.face_up[receiver]
                    and c not in face_up_cards]
            if len(pool) < count:
                raise Retry
            chosen[giver] = rng.sample(pool, count)
        taken: dict[int, list[Card]] = {g: list(cs) for g, cs in chosen.items()}
        for giver, card in self.gives:
            receiver = (giver + 2) % 4
            real = card if card is not None else taken[giver].pop(0)
            gift_cards.append(real)
            if giver not in pending:
                if real not in initial[receiver]:
                    raise Retry
                initial[receiver].remove(real)
            initial[giver].append(real)
        if any(len(h) != HAND_SIZE for h in initial):
            raise WorldSamplingError("the view's history does not fit a deal of 13 cards each")
        hands = []
        for s in range(n):
            up = list(ctx.face_up[s])
            rest = [c for c in initial[s] if c not in up]
            if len(rest) + len(up) != HAND_SIZE:
                raise Retry
            if s in ctx.shown:
                rest = [c for c in ctx.shown[s] if c not in up]
            else:
                rng.shuffle(rest)
            hands.append(tuple(up + rest))
        deal = SpadesDeal(tuple(hands))
        actions: list[Action] = []
        gifts = iter(gift_cards)
        for move in ctx.moves:
            if move.verb == "bid":
                actions.append(Action(move.seat, "bid", (), move.bid))
            elif move.verb == "give":
                actions.append(Action(move.seat, "give", (next(gifts),)))
            else:
                actions.append(Action(move.seat, move.verb, move.cards))
        return deal, actions
