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
  holds the led (effective) suit (a trump on a plain lead proves nothing under
  ``trump_on_plain="always"``: :func:`goat.games.kozel.single.shows_void`);
* a forced exchange — all of the leader's slots are trumps, the card given back
  is plain (and is the card led next);
* a trump lead although trump leads are barred — the leader (and, when a forced
  exchange exists, the partner) holds only trumps;
* street's shown trump card lies in the stock at any position 1..len-2 (its
  place is unknown: ``trump_card_place="hidden"``, the default), or at the
  place the view gives (``"public"``: it lies face up there);
* street, between deals: the deal's points are public, so the unseen (passed)
  cards in team 0's pile make up its total with the face-up ones
  (:mod:`goat.games.kozel.point_split` draws that split uniformly).

The seat's own slots are its known cards (own hand, own plays, passes, gives,
and its draws in order). The unseen cards are then dealt into the free slots.
The resulting initial deal is replayed through the real engine
(``apply_chance`` + ``apply_action``), which guarantees legality (in street,
where every move of a slot replay is legal by construction — face-up cards and
beats are the view's, passes take held cards — through the unchecked
``KozelState._start_deal`` + ``apply_trusted``, which build the same state); a world the
engine refuses (e.g. an unseen royal goat) or a slot replay with no fitting deal
is rejected and redrawn, a bounded number of times. After a few rejections of
one world, face-up cards are bound to their player's most constrained slots
(:meth:`_SlotReplay.bind`): in the tight views where binding at random mostly
fails, that finds one at all.

Uniform worlds. A search bot's prior should weigh every initial deal that fits
the view alike: every assignment of cards to slots in which each face-up card
sits in a slot its player held when playing it, no slot holds a suit excluded
on it, the seat's own cards are where it knows them, and the engine accepts the
replay. Binding at random and then dealing the rest is not that — a binding
that leaves more ways to deal the unseen cards should be drawn more often, and
careful binding leans further off. So a slot replay is only a start:
:meth:`KozelWorldSampler._mix` draws a few more replays as proposals (binding
each card carefully or at random at even odds) and keeps one of the start and
the proposals in proportion to their *weights* — the number of fitting deals
of the unseen cards, counted exactly over card kinds and slot exclusions
(:meth:`_SlotReplay.completions`), over the chance that a proposal makes that
replay. That step (iterated sampling importance resampling) keeps the uniform
distribution stationary; every replay that fits can be proposed, so repeated
it converges from any start, and one step already takes most of the careful
start's lean away. Then the unseen cards are dealt uniformly over the deals
that fit (:meth:`_SlotReplay.deal_uniform`: a draw weighted by those counts, so
it never runs into a dead end; it fails only when no deal fits). A failed
proposal only weighs 0, so worlds are found as reliably as before. When
nothing but the face-up plays shapes the deal, or no slot reaches a hand after
play began (full-hand), every replay is as good as any other and only the deal
is drawn by counts.

Measured (summed |P(card at seat) - exact| over the unseen cards, 10000 worlds;
exact by enumerating slot bindings; in brackets what sampling noise alone
gives): stored views classic-late-binding 0.24 before, 0.06 now (0.016),
classic-binding 0.09 / 0.06 (0.055), full-hand-dead-end 0.07 / 0.08 (0.09);
heuristic-played classic after 20 plays 0.35 / 0.13 (0.10) and 0.26 / 0.09
(0.09), full-hand after 12 plays 0.86 / 0.17 (0.18). Most of the old error was
the dealing (constrained slots first), the rest careful binding. The reference
ignores the engine's refusals (an unseen royal goat): what is left in early
full-hand views. The cost: 1.8-4.5 times the time a world in classic (a slot
replay per proposal), 0.7-1.7 times in full-hand.

Reading a view (rules, trump order, every move of the history) is done once by
a :class:`KozelWorldSampler`, which then draws as many worlds as asked for:
``KozelWorldSampler(view).sample(rng)`` is exactly ``sample_world(view, rng)``
(same world, same use of ``rng``), but a search bot drawing a hundred worlds
from one view pays for reading it once. Inside an attempt, cards are their
dense indices (:attr:`goat.cards.Card.index`) and effective suits are bits, so
the slot replay does integer work only; the deal is still replayed through the
real engine.

Match-level facts (penalty totals, deal results, dealer, eggs, openers) are
public and are copied from the view. Earlier deals of a world are not rebuilt:
their log entries are placeholders, so a world's ``deal_log()`` is only
meaningful for its current deal.
"""

from __future__ import annotations

import math
import random
from bisect import bisect_right
from functools import lru_cache
from typing import Any, NamedTuple

from goat.cards import Card, make_deck
from goat.games.kozel.deal import KozelDeal
from goat.games.kozel.phases import DEAL, OVER, PLAY
from goat.games.kozel.point_split import count_splits, sample_split
from goat.games.kozel.rules import CARD_POINTS, DECK_RANKS, QUEEN_OF_CLUBS, SHAMOK, KozelRules, make_rules
from goat.games.kozel.single import SingleCardTricks, shows_void
from goat.games.kozel.state import KozelState
from goat.games.kozel.trumps import TRUMP, TrumpOrder, trump_order
from goat.games.tricks import draw_to
from goat.games.worlds import Retry, RetrySampler, WorldSamplingError, rules_of_view
from goat.protocol import Action, IllegalActionError

__all__ = ["KozelWorldSampler", "WorldSamplingError", "sample_world", "world_sampler"]

#: Effective suits as bits: a slot's exclusions and a card's suit are ints.
_SUIT_BITS = {"C": 1, "D": 2, "H": 4, "S": 8, TRUMP: 16}
_PLAIN = 1 | 2 | 4 | 8
_TRUMP_BIT = 16
#: How many suits an exclusion mask names (dealing fills the most excluded slots first).
_POPCOUNT = tuple(bin(mask).count("1") for mask in range(32))
#: Card indices run 0..53 (:attr:`goat.cards.Card.index`).
_INDICES = 54
#: Failed attempts of one world after which face-up cards are bound carefully
#: (see :meth:`_SlotReplay.bind`).
_CAREFUL_AFTER = 10
#: Proposals per world (:meth:`KozelWorldSampler._mix`).
_MIX_STEPS = 4
#: A proposal binds each face-up card carefully with this probability, else at random.
_LEAN = 0.5
#: Dealing uniformly while the partner that must hold a plain card gets none
#: (:meth:`_SlotReplay.deal_uniform`): redeals before giving up the attempt.
_REDEALS = 50
_NONE = -1          # a slot whose card is not decided yet
_NO_CARD = -2       # stands for "no shown trump card": matches no slot
_SHAMOK = SHAMOK.index
_QUEEN = QUEEN_OF_CLUBS.index


class _Move(NamedTuple):
    seat: int
    verb: str
    cards: tuple[int, ...] | None  # card indices; None: hidden from the viewer
    count: int
    action: Action | None          # the action itself when its cards are known
    #: It plays the shamok or the queen of clubs: only such a play can complete a catch.
    catches: bool = False


class _DeckTables(NamedTuple):
    """A deck under one trump suit, by card index: what an attempt looks up."""

    card_of: tuple[Card | None, ...]       # the card of each index (None: not in the deck)
    deck_indices: tuple[int, ...]          # the deck's indices, in deck order
    suit_bit: tuple[int, ...]              # effective suit as a bit (0: no order yet)
    strength: tuple[int, ...]              # TrumpOrder.strength
    index_of_text: dict[str, int]          # "QC" -> its index, for reading the view


@lru_cache(maxsize=None)
def _deck_tables(permanent_trumps: bool, deck: str, trump_suit: str | None, dealt: bool,
                 jack_order: str = "clubs-high") -> _DeckTables:
    """The tables of a deck and trump suit (``dealt`` False: no trump order yet),
    built once: a bot reads a new view every decision."""
    cards = make_deck(DECK_RANKS.get(deck, ""))
    card_of: list[Card | None] = [None] * _INDICES
    suit_bit = [0] * _INDICES
    strength = [0] * _INDICES
    order = trump_order(permanent_trumps, deck, trump_suit, jack_order) if dealt else None
    for c in cards:
        card_of[c.index] = c
        if order is not None:
            suit_bit[c.index] = _SUIT_BITS[order.suit_of(c)]
            strength[c.index] = order.strength[c]
    return _DeckTables(tuple(card_of), tuple(c.index for c in cards), tuple(suit_bit), tuple(strength),
                       {str(c): c.index for c in cards})


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
    To draw many worlds from one view, use :class:`KozelWorldSampler`.
    """
    return KozelWorldSampler(view, max_tries).sample(rng)


def world_sampler(view: dict[str, Any], max_tries: int = 200) -> KozelWorldSampler:
    """A :class:`KozelWorldSampler` for ``view`` (the game registry's name)."""
    return KozelWorldSampler(view, max_tries)


class KozelWorldSampler(RetrySampler[KozelState]):
    """Reads one seat's view once; ``sample(rng)`` draws a world (see the module
    docstring). Raises :class:`WorldSamplingError` for a view it cannot use.

    The view must not change while the sampler is in use (a bot makes one per
    decision)."""

    game = "Kozel"

    def _read(self, view: dict[str, Any]) -> None:
        if not isinstance(view, dict) or view.get("game") != "kozel":
            raise WorldSamplingError("sample_world needs a Kozel view dict")
        seat = view.get("seat")
        if not isinstance(seat, int):
            raise WorldSamplingError("sample_world needs a seat's view, not a spectator's")
        self.view = view = dict(view)
        self.seat = seat
        self.rules = rules = rules_of_view(make_rules, view)
        self.n = rules.players
        self.dealt = bool(view["deal_number"])
        self.order: TrumpOrder | None = (trump_order(rules.permanent_trumps, rules.deck, view["trump_suit"],
                                                     rules.jack_order)
                                         if self.dealt else None)
        tables = _deck_tables(rules.permanent_trumps, rules.deck, view["trump_suit"] if self.dealt else None,
                              self.dealt, rules.jack_order)
        self.card_of, self.deck_indices = tables.card_of, tables.deck_indices
        self.suit_bit, self.strength = tables.suit_bit, tables.strength
        self._index_of_text = tables.index_of_text
        self.trump_card = Card.parse(view["trump_card"]) if view.get("trump_card") else None
        history = view["history"]
        self.hand = [Card.parse(c) for c in view["hand"]]
        self.drawn = [Card.parse(c) for c in view["drawn"]]
        self.in_deal = view["phase"] not in (DEAL, OVER)
        # Street shows the trump card from the middle of the stock and puts it back.
        self.trump_range: tuple[int, int] | None = None
        if rules.shows_stock_card:
            size = rules.stock_size
            self.trump_range = (1, size - 2) if size > 2 else (0, size - 1)
            place = view.get("trump_card_place")   # only under "public": it lies face up there
            if isinstance(place, int) and 0 <= place < size:
                self.trump_range = (place, place)
        self.moves = [self._parse_move(text) for text in history]
        self.trump_index = self._index(self.trump_card) if self.trump_card is not None else _NO_CARD
        self.hand_indices = [self._index(c) for c in self.hand]
        self.drawn_indices = [self._index(c) for c in self.drawn]
        # Slots: seat s holds hand_size..., then the stock (see _SlotReplay).
        hs = rules.hand_size
        self.initial_hands = [list(range(s * hs, (s + 1) * hs)) for s in range(self.n)]
        first_stock = self.n * hs
        self.initial_stock = list(range(first_stock, first_stock + rules.stock_size))
        self.stock_pos = [-1] * first_stock + list(range(rules.stock_size))
        #: Whether each slot is a stock position where street's shown trump card may lie.
        self.slot_in_trump_range: list[bool] | None = None
        if self.trump_range is not None:
            lo, hi = self.trump_range
            self.slot_in_trump_range = [lo <= pos <= hi for pos in self.stock_pos]
        self.hand_all_trumps = self.order is not None and all(self.order.is_trump(c) for c in self.hand)
        self.caught_rule = (rules.trick_style == "single" and rules.shamok_catches_queen and rules.has_shamok)
        self.start_fields = self._deal_start_fields() if self.dealt and self.in_deal else None
        #: Street, after a deal that was counted: the points team 0 took (public), which the
        #: unseen (passed) cards must make up with the face-up ones (see point_split).
        self.points_target: int | None = None
        results = view["deal_results"]
        if (self.dealt and not self.in_deal and results and rules.trick_style == "street"
                and rules.num_teams == 2 and results[-1]["ended_by"] in ("cards-exhausted", "annulled")):
            self.points_target = results[-1]["points"][0]
            self.card_points = [CARD_POINTS[c.rank] if c is not None else 0 for c in self.card_of]
        self._tries = 0
        self.mix_steps = _MIX_STEPS
        self._kinds: dict[tuple[tuple[int, ...], int, bool], Any] = {}
        self._draws: dict[tuple[int, int], list[tuple[int, int]]] = {}   # see _SlotReplay._draw

    def kinds_of(self, unseen: tuple[int, ...], watched: int,
                 ace_kind: bool) -> tuple[list[tuple[int, bool, bool]], list[list[int]]]:
        """The kinds of the ``unseen`` cards (see :meth:`_SlotReplay._layout`),
        sorted, and the unseen cards of each kind in deck order. Remembered per
        unseen set: a view's replays mostly leave the same cards unseen."""
        key = (unseen, watched, ace_kind)
        found = self._kinds.get(key)
        if found is None:
            suit_bit, card_of = self.suit_bit, self.card_of
            kind_of = {c: (suit_bit[c], c == watched, ace_kind and card_of[c].rank == "A")  # type: ignore[union-attr]
                       for c in unseen}
            kinds = sorted(set(kind_of.values()))
            found = self._kinds[key] = (kinds, [[c for c in unseen if kind_of[c] == k] for k in kinds])
        kinds, by_kind = found
        return kinds, [list(group) for group in by_kind]   # the caller's own lists

    def _index(self, card: Card) -> int:
        if self.card_of[card.index] is not card:
            raise WorldSamplingError(f"the view names {card}, which is not in the {self.rules.name} deck")
        return card.index

    def _parse_move(self, text: str) -> _Move:
        seat_text, verb, cards_text = text.split()
        parts = cards_text.split("+")
        seat = int(seat_text)
        if all(p == "?" for p in parts):
            return _Move(seat, verb, None, len(parts), None)
        known = self._index_of_text
        indices = tuple(known[p] if p in known else self._index(Card.parse(p)) for p in parts)
        cards = tuple(self.card_of[i] for i in indices)
        return _Move(seat, verb, indices, len(cards), Action(seat, verb, cards),  # type: ignore[arg-type]
                     indices[0] == _SHAMOK or indices[0] == _QUEEN)

    # ------------------------------------------------------------------ driver
    def sample(self, rng: random.Random) -> KozelState:
        self._tries = 0
        return super().sample(rng)

    def attempt(self, rng: random.Random) -> KozelState:
        if not self.dealt:  # nothing dealt yet: only public match facts
            return self._bare_state()
        self._tries += 1   # attempts at the world being drawn (see _CAREFUL_AFTER)
        careful = self._tries > _CAREFUL_AFTER
        # Careful attempts keep the range slots for the shown trump card only every other
        # time: the preference is a heuristic, and at times it is what fails (binding every
        # ace of a seat out of the range, into its dealt hand: a royal goat the history
        # rules out, on every attempt)
        replay = _SlotReplay(self, rng, careful=careful, keep_range=not careful or self._tries % 2 == 1)
        replay.replay()
        deal, actions = self._mix(replay, rng).result()
        if self.in_deal:
            return self._replay(deal, actions, self._fresh(self.start_fields))
        return self._replay_ended(deal, actions)

    def _mix(self, replay: _SlotReplay, rng: random.Random) -> _SlotReplay:
        """Towards uniform worlds: a replay chosen among ``replay`` and
        :attr:`mix_steps` fresh proposals by their weights, then the unseen
        cards dealt uniformly over the deals that fit.

        The target weighs a replay (its bindings of face-up cards and slots of
        face-down moves) by its number of fitting deals of the unseen cards,
        :meth:`_SlotReplay.completions`. A proposal is a fresh replay binding
        card by card carefully or at random (``lean``), whose probability
        :attr:`_SlotReplay.chance` is known; its weight is completions over
        chance. Choosing among the current replay and the proposals in
        proportion to their weights (iterated sampling importance resampling,
        a Metropolis-type step that keeps the target stationary whatever the
        first replay was) moves a careful first replay of a tight view towards
        the target; a proposal that fails has weight 0, so a world is found
        exactly as often as before. Every binding that fits can be proposed."""
        if not (replay.shaped and replay.late):
            # every replay leaves as many deals and is as likely (see ``shaped``, ``late``)
            replay.deal()
            return replay
        weight = replay.weight()
        if not weight:
            raise Retry
        replays, weights = [replay], [weight]
        for _ in range(self.mix_steps):
            trial = _SlotReplay(self, rng, lean=_LEAN)
            try:
                trial.replay()
            except Retry:
                continue
            other = trial.weight()
            if other:
                replays.append(trial)
                weights.append(other)
        pick = rng.random() * sum(weights)
        for replay, weight in zip(replays, weights):
            if pick < weight:
                break
            pick -= weight
        replay.deal()
        return replay

    @staticmethod
    def _fresh(fields: dict[str, Any]) -> dict[str, Any]:
        """``fields`` with its lists and result dicts copied: every world owns its own."""
        out = dict(fields)
        out["penalty_total"] = list(fields["penalty_total"])
        out["deal_results"] = [dict(d) for d in fields["deal_results"]]
        return out

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

    def _replay(self, deal: KozelDeal, actions: list[Action], start: dict[str, Any]) -> KozelState:
        v = self.view
        world = KozelState(self.rules, first_dealer=v["first_dealer"], single_deal=v["single_deal"])
        for key, value in start.items():
            setattr(world, key, value)
        # Earlier deals are not rebuilt: placeholder log entries keep deal_number right.
        world.logs = [{"deal": deal, "dealer": None, "actions": [], "private": []}
                      for _ in range(v["deal_number"] - 1)]
        if self.rules.trick_style == "street":   # the whole deck in slots, the shown card in the stock
            world._start_deal(deal)
        else:
            world.apply_chance(deal)
        # Street: every move of the history fits the slot replay's deal (face-up
        # cards and beats are the view's, passes take cards their seat held, turns
        # and molodkas are public), so the engine need not check it again.
        apply = world.apply_trusted if self.rules.trick_style == "street" else world.apply_action
        try:
            for action in actions:
                if world.phase in (DEAL, OVER):
                    raise Retry
                apply(action)
        except IllegalActionError:
            raise Retry from None
        if self.in_deal and (world.phase != v["phase"] or world.current_player() != v["current_player"]):
            raise Retry
        return world

    def _replay_ended(self, deal: KozelDeal, actions: list[Action]) -> KozelState:
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
            # The deal's points are public once it ends; street's face-down passes
            # decide whose pile holds which card, so a replay may not give them
            # (single-card tricks: every card was face up, they always agree).
            done = world.deal_results[-1]
            if done["points"] != last["points"] or done["ended_by"] != last["ended_by"]:
                raise Retry
            self._restore_match(world)
            world.phase = v["phase"]
            return world
        raise Retry


class _SlotReplay:
    """One random slot-level replay of the current deal (see the module docstring).

    Slot ``i`` holds ``card[i]``, a card index or ``_NONE``; ``excl[i]`` is the
    mask of effective suits it may not hold."""

    def __init__(self, sampler: KozelWorldSampler, rng: random.Random, careful: bool = False,
                 lean: float | None = None, keep_range: bool = True) -> None:
        self.s = sampler
        self.rng = rng
        self.careful = careful
        #: Whether a face-up card other than the shown trump card avoids the slots that
        #: could hold the shown card (a start replay's preference; see :meth:`bind`).
        self.keep_range = keep_range
        #: Proposals (``lean`` not None) bind carefully or at random bind by bind,
        #: carefully with probability ``lean``; ``chance`` is the probability of
        #: this replay's choices when ``lean`` is :data:`_LEAN`, however it was made.
        self.lean = lean
        self.chance = 1.0
        #: Whether anything but the face-up plays shapes the deal: exclusions on
        #: slots, street's shown trump card, a royal goat's aces, a partner that
        #: must hold a plain card. A fact of the view, the same in every replay.
        self.shaped = False
        #: Whether a slot reaches a hand after play began (a draw, a forced
        #: exchange, a molodka): without one, a seat's slots are alike and every
        #: replay is as good as any other. Also a fact of the view.
        self.late = False
        #: After a royal goat, the seat that held every ace (:meth:`_royal_goat_seat`);
        #: the partner that must hold a plain card (:meth:`_own_lead_facts`).
        self.aces_to: int | None = None
        self.needs_plain: int | None = None
        self.laid_out: _Layout | None = None   # see _layout
        #: The team whose pile each slot's card went to (only with a points target).
        self.pile_team: dict[int, int] = {}
        self.card = [_NONE] * len(sampler.stock_pos)
        self.excl = [0] * len(sampler.stock_pos)
        #: Whether any slot excludes a suit yet (without, binding skips the exclusions).
        self.excluding = False
        self.hands = [list(h) for h in sampler.initial_hands]
        self.stock = list(sampler.initial_stock)
        self.trump_bound = sampler.trump_range is None or sampler.trump_card is None
        self.suit_bit = sampler.suit_bit
        #: The card whose binding is checked against the trump range (street's shown card).
        self.watched = sampler.trump_index if sampler.trump_range is not None else _NO_CARD

    # ------------------------------------------------------------ slot helpers
    def _in_trump_range(self, slot: int) -> bool:
        return self.s.slot_in_trump_range[slot]  # type: ignore[index]

    def bind(self, seat: int, card: int) -> int:
        """The slot of ``seat`` that holds the face-up ``card`` (binding a free one).

        A free slot is picked at random among those that may hold the card, or,
        when ``careful`` (after :data:`_CAREFUL_AFTER` failed attempts), among
        those that exclude the most suits: the slots drawn after a void was
        shown are the only places for a later card of that suit, and a random
        pick often used them up (classic; measured on the stored views of
        ``tests/kozel/test_world_dead_ends.py``: from about 30 attempts a world
        to one careful attempt). A proposal of :meth:`KozelWorldSampler._mix`
        binds card by card carefully or at random (see ``lean``), without the
        street preference below, so that every binding that fits can be proposed."""
        held = self.hands[seat]
        cards = self.card
        if card in cards:   # bound before (e.g. back in hand after a molodka)
            for slot in held:
                if cards[slot] == card:
                    return slot
            # Bound to a slot this seat no longer holds: a face-down pass drawn
            # earlier in this replay took it (street: the card a partner gave,
            # passed before it is played face up). Binding a second slot would
            # put the card in the deal twice; this replay is not a world.
            raise Retry
        excl = self.excl
        if self.excluding:
            bit = self.suit_bit[card]
            free = [s for s in held if cards[s] == _NONE and not excl[s] & bit]
        else:   # no slot excludes a suit (street): every unbound slot fits
            free = [s for s in held if cards[s] < 0]   # _NONE: the only negative value a slot holds
        watching = not self.trump_bound and seat != self.s.seat
        if watching and card == self.s.trump_index:
            in_range = self.s.slot_in_trump_range
            free = [s for s in free if in_range[s]]  # type: ignore[index]
        if not free:
            raise Retry
        tight = _tightest(free, excl) if self.excluding else free
        if self.lean is not None:   # a proposal
            if len(free) > 1:
                rng = self.rng
                pool = tight if rng.random() < self.lean else free
                slot = pool[rng._randbelow(len(pool))]   # rng.choice(pool), the same draw
            else:
                slot = free[0]
        else:
            pool = free
            if self.careful:   # first: the suits a slot may still hold are a fact, the range a preference
                pool = _tightest(pool, excl)
            if watching and card != self.s.trump_index and self.keep_range:
                # keep the slots that could hold the shown trump card for it; careful, only
                # among the tightest: the one slot out of the range was at times also the only
                # one left for a plain card still to come (a trump led while barred had shown
                # that every other slot held trumps), so every careful attempt failed
                in_range = self.s.slot_in_trump_range
                pool = [s for s in pool if not in_range[s]] or pool  # type: ignore[index]
            slot = pool[self.rng._randbelow(len(pool))] if len(pool) > 1 else pool[0]   # rng.choice's draw
        if len(free) > 1:
            self.chance *= _LEAN * (slot in tight) / len(tight) + (1 - _LEAN) / len(free)
        cards[slot] = card
        if card == self.watched:
            self._set(slot, card)
        return slot

    def _set(self, slot: int, card: int) -> None:
        self.card[slot] = card
        if card == self.watched:
            if not self._in_trump_range(slot):
                raise Retry
            self.trump_bound = True

    def take(self, seat: int, move: _Move) -> list[int]:
        """Remove the slots of ``move``'s cards from ``seat``'s hand."""
        held = self.hands[seat]
        if move.count == 1 and move.cards is not None:
            slot = self.bind(seat, move.cards[0])
            held.remove(slot)
            return [slot]
        if move.cards is not None:
            slots = [self.bind(seat, c) for c in move.cards]
        else:
            if len(held) < move.count:
                raise WorldSamplingError("the view's history does not fit its hand sizes")
            slots = _sample(self.rng, held, move.count)
            self._chose(math.comb(len(held), move.count))
        for s in slots:
            held.remove(s)
        return slots

    def _chose(self, options: int) -> None:
        """One of ``options`` equally likely choices was made."""
        self.chance /= options

    def constrain(self, seat: int, suits: int) -> None:
        """None of ``seat``'s current (unknown) slots holds a card of the ``suits`` mask."""
        if seat == self.s.seat:
            return
        self.shaped = True
        cards, excl, suit_bit = self.card, self.excl, self.s.suit_bit
        for s in self.hands[seat]:
            card = cards[s]
            if card == _NONE:
                excl[s] |= suits
                self.excluding = True
            elif suit_bit[card] & suits:
                raise Retry

    # ------------------------------------------------------------------ replay
    def replay(self) -> None:
        """Replay the history at slot level (raises :class:`Retry` at a
        contradiction), up to dealing the unseen cards: :meth:`weight`,
        :meth:`deal_uniform` and :meth:`result` follow."""
        smp = self.s
        rules, n = smp.rules, smp.n
        suit_bit, strength = smp.suit_bit, smp.strength
        cards = self.card
        single = rules.trick_style == "single"
        probe = _RestrictionProbe(rules, smp.view["prev_opening_team"] if smp.in_deal else None)
        partner = (lambda s: (s + 2) % 4) if rules.partnerships else (lambda s: None)
        gives_left = n if rules.partner_exchange else 0
        pending: list[tuple[int, int]] = []
        forced: int | None = None          # the leader during a forced exchange
        must_lead: int | None = None       # slot of the card given back
        trick: list[tuple[int, str, list[int]]] = []
        best = 0
        drawn_next = 0
        action_slots: list[list[int]] = []
        moves = smp.moves
        bind = self.bind
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
                self.constrain(seat, _PLAIN)
                slots = self.take(seat, move)
                self.hands[partner(seat)].append(slots[0])
                forced = seat
                self.late = True
                action_slots.append(slots)
                continue
            if verb == "give":                      # the partner gives a plain card back
                nxt = moves[i + 1] if i + 1 < len(moves) else None
                if move.cards is None and nxt is not None and nxt.cards is not None:
                    move = _Move(seat, verb, nxt.cards[:1], 1, None)   # it is the card led next
                if move.cards is None:
                    excl = self.excl
                    plain = [s for s in self.hands[seat]
                             if (cards[s] == _NONE or suit_bit[cards[s]] != _TRUMP_BIT)
                             and excl[s] & _PLAIN != _PLAIN]
                    if not plain:
                        raise Retry
                    slot = self.rng.choice(plain)
                    self._chose(len(plain))
                    self.hands[seat].remove(slot)
                    excl[slot] |= _TRUMP_BIT
                    self.excluding = True
                    self.shaped = True
                    slots = [slot]
                else:
                    if suit_bit[move.cards[0]] == _TRUMP_BIT:
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
                self.late = True
                trick = []
                slots = self.take(seat, move)
                trick.append((seat, "play", slots))
                best = 0
                action_slots.append(slots)
                continue
            # play or pass
            lead = not trick
            if single and lead and must_lead is None and move.cards \
                    and suit_bit[move.cards[0]] == _TRUMP_BIT and probe.barred(seat):
                self.constrain(seat, _PLAIN)
                if rules.forced_exchange and partner(seat) is not None:
                    self.constrain(partner(seat), _PLAIN)
            if lead and must_lead is not None:
                if move.cards is None or cards[must_lead] not in (_NONE, move.cards[0]) \
                        or suit_bit[move.cards[0]] & self.excl[must_lead]:
                    raise Retry
                self._set(must_lead, move.cards[0])
                must_lead = None
            if move.cards is not None and move.count == 1:   # take()'s common case, inline
                slot = bind(seat, move.cards[0])
                self.hands[seat].remove(slot)
                slots = [slot]
            else:
                slots = self.take(seat, move)
            action_slots.append(slots)
            trick.append((seat, verb, slots))
            if single and not lead:
                played = move.cards[0]  # type: ignore[index]
                led = suit_bit[cards[trick[0][2][0]]]
                if suit_bit[played] != led and shows_void(led == _TRUMP_BIT, suit_bit[played] == _TRUMP_BIT,
                                                          rules.must_follow_trump, rules.trump_on_plain):
                    self.constrain(seat, led)
                top = cards[trick[best][2][0]]
                bit, top_bit = suit_bit[played], suit_bit[top]
                if (strength[played] > strength[top]) if bit == top_bit else bit == _TRUMP_BIT:
                    best = len(trick) - 1
            elif not single and verb == "play":
                best = len(trick) - 1
            if lead:
                best = 0
            # (a catch needs both cards in the trick: it is made by the later one)
            if smp.caught_rule and move.catches and self._caught(trick):
                break
            if len(trick) < n:
                continue
            winner = trick[best][0]
            if smp.points_target is not None:
                team = rules.team_of(winner)
                for _, _, played in trick:
                    for slot in played:
                        self.pile_team[slot] = team
            probe.prev_trick_leader_team = rules.team_of(trick[0][0])
            probe.tricks_played += 1
            trick = []
            for s, slot in self._draw(probe.tricks_played, winner):
                self.late = True
                if s == smp.seat:
                    if drawn_next >= len(smp.drawn_indices):
                        raise WorldSamplingError("the view's draws do not fit its history")
                    if cards[slot] != _NONE:
                        raise Retry
                    self._set(slot, smp.drawn_indices[drawn_next])
                    drawn_next += 1
        self._check_sizes()
        self._bind_own_hand()
        self.needs_plain = self._own_lead_facts(probe, trick, must_lead)
        self.aces_to = self._royal_goat_seat()
        if not self.trump_bound or self.aces_to is not None or self.needs_plain is not None:
            self.shaped = True
        self.action_slots = action_slots

    def result(self) -> tuple[KozelDeal, list[Action]]:
        """The initial deal (after :meth:`deal_uniform`) and the history's actions, every card filled in."""
        smp, cards, moves = self.s, self.card, self.s.moves
        card_of = smp.card_of
        deal = KozelDeal(tuple(tuple([card_of[cards[s]] for s in h]) for h in smp.initial_hands),
                         tuple([card_of[cards[s]] for s in smp.initial_stock]), smp.trump_card)
        actions = []
        for move, slots in zip(moves, self.action_slots):
            if move.action is not None:
                actions.append(move.action)
            else:
                actions.append(Action(move.seat, move.verb, tuple([card_of[cards[s]] for s in slots])))
        return deal, actions

    def _own_lead_facts(self, probe: _RestrictionProbe, trick: list[Any], must_lead: int | None) -> int | None:
        """What the seat's own legal actions reveal: when it must lead, may not
        lead a trump and holds only trumps, a forced exchange is offered exactly
        when the partner holds a plain card. Returns the partner's seat if it
        must hold one (checked after dealing), constrains it otherwise."""
        smp, rules = self.s, self.s.rules
        v = smp.view
        if (rules.trick_style != "single" or not rules.forced_exchange or not rules.partnerships
                or v["phase"] != PLAY or v["current_player"] != smp.seat or trick or must_lead is not None
                or "must_lead" in v or not smp.hand_all_trumps
                or not probe.barred(smp.seat)):
            return None
        partner = (smp.seat + 2) % 4
        if any(text.split()[1] == "give" for text in v["legal_actions"]):
            return partner
        self.constrain(partner, _PLAIN)
        return None

    def _royal_goat_seat(self) -> int | None:
        """The seat that must hold every ace: the deal in the view ended with a
        royal goat (public) and the viewer does not hold the aces itself."""
        smp = self.s
        results = smp.view["deal_results"]
        if smp.in_deal or not results or results[-1]["ended_by"] != "royal-goat":
            return None
        winner = results[-1]["winner_team"]
        if sum(c.rank == "A" for c in smp.hand) == 4:
            return None
        seats = [s for s in range(smp.n) if smp.rules.team_of(s) == winner and s != smp.seat]
        if not seats:
            return None
        self._chose(len(seats))
        return self.rng.choice(seats)

    def _caught(self, trick: list[tuple[int, str, list[int]]]) -> bool:
        shamok = queen = None
        cards = self.card
        for seat, _, slots in trick:
            card = cards[slots[0]]
            if card == _SHAMOK:
                shamok = seat
            elif card == _QUEEN:
                queen = seat
        team_of = self.s.rules.team_of
        return shamok is not None and queen is not None and team_of(shamok) != team_of(queen)

    def _draw(self, tricks: int, winner: int) -> list[tuple[int, int]]:
        """The draws after trick number ``tricks`` (won by ``winner``), made on
        this replay's hands and stock. Which slot goes to which seat depends on
        nothing but hand sizes and the stock's order, which are the same in
        every replay of the view, so the sampler remembers them."""
        key = (tricks, winner)
        cached = self.s._draws.get(key)
        if cached is None:
            cached = self.s._draws[key] = draw_to(self.hands, self.stock, winner, self.s.rules.hand_size)
            return cached
        hands = self.hands
        for seat, slot in cached:
            hands[seat].append(slot)
        del self.stock[:len(cached)]
        return cached

    def _check_sizes(self) -> None:
        v = self.s.view
        if [len(h) for h in self.hands] != list(v["hand_sizes"]) or len(self.stock) != v["stock_size"]:
            raise WorldSamplingError("the view's history does not fit its hand and stock sizes")

    def _bind_own_hand(self) -> None:
        seat = self.s.seat
        held = self.hands[seat]
        cards = self.card
        known = {cards[s] for s in held if cards[s] != _NONE}
        rest = [c for c in self.s.hand_indices if c not in known]
        free = [s for s in held if cards[s] == _NONE]
        if len(rest) != len(free):
            raise WorldSamplingError(f"seat {seat}'s hand does not fit the view's history")
        for s, c in zip(free, rest):
            self._set(s, c)

    def _layout(self) -> _Layout:
        """What dealing the unseen cards into the free slots must respect, by kinds
        (worked out once, after :meth:`replay`: :meth:`weight` and then, for the
        replay kept, :meth:`deal_uniform` both need it).

        A card's kind is its effective suit, whether it is street's shown trump
        card (not bound yet: it goes to a stock position in range) and whether
        it is an ace that a royal goat gave one seat (it goes to that seat's
        slots); cards of one kind are interchangeable. A slot is described by
        the kinds it may take (its exclusions, its stock position, its seat)."""
        if self.laid_out is None:
            self.laid_out = self._lay_out()
        return self.laid_out

    def _lay_out(self) -> _Layout:
        smp = self.s
        cards, excl, suit_bit = self.card, self.excl, smp.suit_bit
        bound = set(cards)
        unseen = [c for c in smp.deck_indices if c not in bound]
        free = [s for s, c in enumerate(cards) if c == _NONE]
        if len(unseen) != len(free):
            raise WorldSamplingError("the view's cards do not add up to the deck")
        watched = _NO_CARD if self.trump_bound else smp.trump_index
        aces = set(self.hands[self.aces_to]) if self.aces_to is not None else None

        ace_kind = aces is not None
        kinds, by_kind = smp.kinds_of(tuple(unseen), watched, ace_kind)
        # the partner that must hold a plain card, if none of its known cards is one
        partner = self.needs_plain
        if partner is not None and any(cards[s] != _NONE and suit_bit[cards[s]] != _TRUMP_BIT
                                       for s in self.hands[partner]):
            partner = None
        partner_slots = set(self.hands[partner]) if partner is not None else set()

        # A slot's key: its exclusions (5 bits), whether it may take the shown
        # trump card (bit 5), whether it is a royal goat's ace slot (bit 6), and
        # whether only trumps may go there (bit 7). Its mask of kinds is worked
        # out once per key: a replay has about 30 free slots and a few keys.
        in_range = smp.slot_in_trump_range if watched != _NO_CARD else None
        known: dict[int, int] = {}

        def takes(key: int) -> int:
            mask = 0
            ex, in_range_, in_aces, trumps_only = key & 31, key & 32, key & 64, key & 128
            for i, (bit, trump_card, ace) in enumerate(kinds):
                if not (bit & ex or (trump_card and not in_range_) or (ace and not in_aces)
                        or (trumps_only and bit != _TRUMP_BIT)):
                    mask |= 1 << i
            known[key] = mask
            return mask

        groups: dict[int, list[int]] = {}
        short: dict[int, int] = {}   # the same with the partner holding trumps only
        if partner is None and not ace_kind and not self.excluding:
            # only street's trump range tells slots apart (key 0 or 32): the same
            # groups as the loop below, without its per-slot work
            if in_range is None:
                if free:
                    groups[takes(0)] = free
            else:
                outside, inside = takes(0), takes(32)
                for slot in free:
                    mask = inside if in_range[slot] else outside
                    group = groups.get(mask)
                    if group is None:
                        groups[mask] = [slot]
                    else:
                        group.append(slot)
            return _Layout(by_kind, groups, None, (1 << len(kinds)) - 1)
        for slot in free:
            key = excl[slot]
            if in_range is not None and in_range[slot]:
                key |= 32
            if ace_kind and slot in aces:  # type: ignore[operator]
                key |= 64
            mask = known.get(key)
            if mask is None:
                mask = takes(key)
            group = groups.get(mask)
            if group is None:
                groups[mask] = [slot]
            else:
                group.append(slot)
            if partner is not None:
                if slot in partner_slots:
                    key |= 128
                mask = known.get(key)
                if mask is None:
                    mask = takes(key)
                short[mask] = short.get(mask, 0) + 1
        return _Layout(by_kind, groups, short if partner is not None else None, (1 << len(kinds)) - 1)

    def completions(self) -> int:
        """In how many ways the unseen cards can be dealt into the free slots,
        up to permuting cards of one kind (the same factor for every replay)."""
        if self.s.points_target is not None:
            return self._point_split()[0]
        layout = self._layout()
        counts = tuple(len(group) for group in layout.by_kind)
        total = _type_count(*_shape({m: len(g) for m, g in layout.groups.items()}, layout.full), counts)
        if layout.short is not None:   # minus the deals that leave the partner no plain card
            total -= _type_count(*_shape(layout.short, layout.full), counts)
        return total

    def weight(self) -> float:
        """The Metropolis weight of this replay: :meth:`completions` over the
        chance that a proposal makes it."""
        return self.completions() / self.chance

    def deal(self) -> None:
        """Deal the unseen cards into the free slots, every fitting deal equally likely."""
        if self.s.points_target is not None:
            self._deal_points()
        else:
            self.deal_uniform()

    def _point_split(self) -> tuple[int, list[int], list[int], list[int], int, list[int]]:
        """After a street deal whose points are public: every free slot's card went
        to a pile, and team 0's free slots (``inside``) must hold unseen cards worth
        ``need`` points. Returns the number of fitting deals (the shown trump card,
        unseen, goes to a stock position in its range; the other cards are alike
        but for their points), the unseen cards, the free slots inside and outside,
        ``need``, and the ways with the shown card inside and outside."""
        smp, cards = self.s, self.card
        points = smp.card_points
        bound = set(cards)
        unseen = [c for c in smp.deck_indices if c not in bound]
        free = [s for s, c in enumerate(cards) if c == _NONE]
        if len(unseen) != len(free) or any(s not in self.pile_team for s in free):
            raise Retry
        inside = [s for s in free if self.pile_team[s] == 0]
        outside = [s for s in free if self.pile_team[s] != 0]
        need = smp.points_target - sum(points[c] for s, c in enumerate(cards)  # type: ignore[operator]
                                       if c != _NONE and self.pile_team.get(s) == 0)
        z, m = len(inside), len(free)
        watched = smp.trump_index if not self.trump_bound else _NO_CARD
        if watched not in unseen:
            values = [points[c] for c in unseen]
            total = count_splits(values, z, need) * math.factorial(z) * math.factorial(m - z)
            return total, unseen, inside, outside, need, [total, 0]
        in_range = smp.slot_in_trump_range
        values = [points[c] for c in unseen if c != watched]
        w = points[watched]
        r_in = sum(1 for s in inside if in_range[s])     # type: ignore[index]
        r_out = sum(1 for s in outside if in_range[s])   # type: ignore[index]
        ways_in = (count_splits(values, z - 1, need - w) * r_in * math.factorial(z - 1) * math.factorial(m - z)
                   if z else 0)
        ways_out = (count_splits(values, z, need) * r_out * math.factorial(z) * math.factorial(m - z - 1)
                    if m - z else 0)
        return ways_in + ways_out, unseen, inside, outside, need, [ways_in, ways_out]

    def _deal_points(self) -> None:
        """:meth:`deal_uniform` for a street deal whose points are public: the
        unseen cards team 0's pile gets are a uniform draw among those worth the
        points it needs (:func:`~goat.games.kozel.point_split.sample_split`)."""
        total, unseen, inside, outside, need, ways = self._point_split()
        if not total:
            raise Retry
        rng, cards, smp = self.rng, self.card, self.s
        watched = smp.trump_index if not self.trump_bound else _NO_CARD
        rest = [c for c in unseen if c != watched]
        inside, outside = list(inside), list(outside)
        size = len(inside)
        if watched in unseen:
            goes_in = rng.randrange(total) < ways[0]
            side = inside if goes_in else outside
            in_range = smp.slot_in_trump_range
            slot = rng.choice([s for s in side if in_range[s]])   # type: ignore[index]
            side.remove(slot)
            cards[slot] = watched
            if goes_in:
                size, need = size - 1, need - smp.card_points[watched]
        chosen = set(sample_split(rng, [smp.card_points[c] for c in rest], size, need))
        to_inside = [c for i, c in enumerate(rest) if i in chosen]
        to_outside = [c for i, c in enumerate(rest) if i not in chosen]
        rng.shuffle(to_inside)
        rng.shuffle(to_outside)
        for slot, card in zip(inside, to_inside):
            cards[slot] = card
        for slot, card in zip(outside, to_outside):
            cards[slot] = card

    def deal_uniform(self) -> None:
        """Deal the unseen cards into the free slots, every fitting deal equally
        likely: group by group of slots (those that take every kind last), the
        number of each kind a group gets is drawn in proportion to the deals
        that complete it (:func:`_type_count`), then the cards at random.
        Raises :class:`Retry` when no deal fits (or, rarely, when the partner
        that must hold a plain card keeps getting none)."""
        layout = self._layout()
        rng, cards = self.rng, self.card
        ordered = sorted((m, g) for m, g in layout.groups.items() if m != layout.full)
        tail = layout.groups.get(layout.full, [])
        for _ in range(_REDEALS):
            counts = tuple(len(group) for group in layout.by_kind)
            pools = [_sample(rng, group, len(group)) for group in layout.by_kind]
            for i, (mask, slots) in enumerate(ordered):
                rest = tuple((m, len(g)) for m, g in ordered[i + 1:])
                kinds, upto = _group_options(len(slots), mask, counts, rest, len(tail))
                pick = rng.randrange(upto[-1] if upto else 1)
                if not upto or not upto[-1]:
                    raise Retry   # no deal fits
                ks = kinds[bisect_right(upto, pick)]
                labels = [kind for kind, n in enumerate(ks) for _ in range(n)]
                rng.shuffle(labels)
                for slot, kind in zip(slots, labels):
                    cards[slot] = pools[kind].pop()
                counts = tuple(c - k for c, k in zip(counts, ks))
            rest_cards = [c for pool in pools for c in pool]
            rng.shuffle(rest_cards)
            for slot, card in zip(tail, rest_cards):
                cards[slot] = card
            if self.needs_plain is None or any(self.s.suit_bit[cards[s]] != _TRUMP_BIT
                                               for s in self.hands[self.needs_plain]):
                return
        raise Retry


def _sample(rng: random.Random, population: list[int], k: int) -> list[int]:
    """``rng.sample(population, k)`` for a short list: the same draws and the
    same result (CPython's pool method, which it uses while the list is no
    longer than its small-set size; other lists go to ``rng.sample`` itself),
    without its general-case overhead — a slot replay samples every face-down
    move of the history, and dealing shuffles every kind's cards, hundreds of
    times a decision."""
    n = len(population)
    setsize = 21 if k <= 5 else 21 + 4 ** math.ceil(math.log(k * 3, 4))   # as random.sample
    if n > setsize or not 0 <= k <= n:
        return rng.sample(population, k)
    randbelow = rng._randbelow   # what rng.sample draws with
    pool = list(population)
    result = []
    for i in range(k):
        j = randbelow(n - i)
        result.append(pool[j])
        pool[j] = pool[n - i - 1]
    return result


def _tightest(free: list[int], excl: list[int]) -> list[int]:
    """The slots of ``free`` that exclude the most suits (careful binding's choice)."""
    if len(free) < 2:
        return free
    pops = [_POPCOUNT[excl[s]] for s in free]
    most = max(pops)
    return [s for s, p in zip(free, pops) if p == most] if most else free


class _Layout(NamedTuple):
    """The unseen cards and free slots of a replay (see :meth:`_SlotReplay._layout`)."""

    by_kind: list[list[int]]            # the unseen cards of each kind
    groups: dict[int, list[int]]        # kinds a slot takes (bit per kind) -> the free slots
    short: dict[int, int] | None        # the same counted with the partner given trumps only
    full: int                           # the mask of every kind


def _shape(groups: dict[int, int], full: int) -> tuple[tuple[tuple[int, int], ...], int]:
    """Slot counts by the kinds they take, as :func:`_type_count` wants them."""
    return tuple(sorted((m, n) for m, n in groups.items() if m != full and n)), groups.get(full, 0)


@lru_cache(maxsize=1 << 14)
def _group_options(size: int, mask: int, counts: tuple[int, ...], rest: tuple[tuple[int, int], ...],
                   tail: int) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """How a group of ``size`` slots taking the kinds of ``mask`` may be dealt,
    with ``rest`` (restricted groups) and ``tail`` (free slots) still to come:
    the cards of each kind it may get, and the running totals of the deals
    that complete each (so a draw is a bisection). Cached: a search bot draws
    hundreds of worlds of one view, and they share these shapes (measured:
    4.5x the time a world in street without it)."""
    kinds: list[tuple[int, ...]] = []
    upto: list[int] = []
    total = 0
    for ks, ways in _compositions(size, mask, counts):
        total += ways * _type_count(rest, tail, tuple(c - k for c, k in zip(counts, ks)))
        kinds.append(ks)
        upto.append(total)
    return tuple(kinds), tuple(upto)


@lru_cache(maxsize=1 << 14)
def _compositions(size: int, mask: int, counts: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every way to give ``size`` slots kinds of ``mask`` within ``counts``:
    (cards of each kind, the number of arrangements over the slots). Cached
    (see :func:`_group_options`)."""
    kinds = [i for i in range(len(counts)) if mask >> i & 1 and counts[i]]
    ks = [0] * len(counts)
    out: list[tuple[tuple[int, ...], int]] = []

    def fill(j: int, left: int, ways: int) -> None:
        if not left:
            out.append((tuple(ks), ways))
            return
        if j == len(kinds):
            return
        i = kinds[j]
        for n in range(min(left, counts[i]), -1, -1):
            ks[i] = n
            fill(j + 1, left - n, ways * math.comb(left, n))
        ks[i] = 0

    fill(0, size, 1)
    return tuple(out)


@lru_cache(maxsize=1 << 16)
def _type_count(groups: tuple[tuple[int, int], ...], tail: int, counts: tuple[int, ...]) -> int:
    """In how many ways slots can be given kinds, ``counts[i]`` slots kind ``i``:
    ``groups`` are (kinds taken as a mask, number of slots) of the restricted
    slots, ``tail`` the number that take any kind. Cached: the replays of one
    view mostly share their shapes."""
    if not groups:
        if sum(counts) != tail:
            return 0
        ways = math.factorial(tail)
        for n in counts:
            ways //= math.factorial(n)
        return ways
    (mask, size), rest = groups[0], groups[1:]
    upto = _group_options(size, mask, counts, rest, tail)[1]
    return upto[-1] if upto else 0
