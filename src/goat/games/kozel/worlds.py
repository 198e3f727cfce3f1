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
constrained slots first; should that quick deal run into a dead end, they are
dealt again so that a fit stays possible at every step (Hall's condition over
the suits), so a draw fails there only when no deal fits at all. The resulting
initial deal is replayed through the real engine (``apply_chance`` +
``apply_action``), which guarantees legality; a world the engine refuses (e.g.
an unseen royal goat) or a slot replay with no fitting deal is rejected and
redrawn, a bounded number of times. After a few rejections of one world, face-up
cards are bound to their player's most constrained slots (:meth:`_SlotReplay.bind`):
in the tight views where binding at random mostly fails, that trades a little of
the spread of worlds for finding one at all.

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

import random
from functools import lru_cache
from typing import Any, NamedTuple

from goat.cards import Card, make_deck
from goat.games.kozel.deal import KozelDeal
from goat.games.kozel.phases import DEAL, OVER, PLAY
from goat.games.kozel.rules import DECK_RANKS, QUEEN_OF_CLUBS, SHAMOK, KozelRules, make_rules
from goat.games.kozel.single import SingleCardTricks
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
#: Metropolis moves per world (:meth:`KozelWorldSampler._mix`), and the share of
#: them that move a face-down card's slot when the history has face-down moves.
_MIX_STEPS = 60
_PICK_MOVES = 0.2
#: The share of moves that rotate three slots, and of swaps whose second slot
#: was dealt or drawn to the first one's seat (the swaps that rebind a face-up card).
_CYCLES = 0.1
_SAME_SEAT = 0.7
_FREE_MOVES = 0.5
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
def _deck_tables(permanent_trumps: bool, deck: str, trump_suit: str | None, dealt: bool) -> _DeckTables:
    """The tables of a deck and trump suit (``dealt`` False: no trump order yet),
    built once: a bot reads a new view every decision."""
    cards = make_deck(DECK_RANKS.get(deck, ""))
    card_of: list[Card | None] = [None] * _INDICES
    suit_bit = [0] * _INDICES
    strength = [0] * _INDICES
    order = trump_order(permanent_trumps, deck, trump_suit) if dealt else None
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
        self.order: TrumpOrder | None = (trump_order(rules.permanent_trumps, rules.deck, view["trump_suit"])
                                         if self.dealt else None)
        tables = _deck_tables(rules.permanent_trumps, rules.deck, view["trump_suit"] if self.dealt else None,
                              self.dealt)
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
        if rules.trump_suit == "drawn" and rules.trump_card_from == "stock":
            size = rules.stock_size
            self.trump_range = (1, size - 2) if size > 2 else (0, size - 1)
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
        self.hand_all_trumps = self.order is not None and all(self.order.is_trump(c) for c in self.hand)
        self.caught_rule = (rules.trick_style == "single" and rules.shamok_catches_queen and rules.has_shamok)
        self.start_fields = self._deal_start_fields() if self.dealt and self.in_deal else None
        self._tries = 0
        self.mix_steps = _MIX_STEPS

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
        replay = _SlotReplay(self, rng, careful=self._tries > _CAREFUL_AFTER)
        replay.replay()
        deal, actions = self._mix(replay, rng, self.mix_steps).result()
        if self.in_deal:
            return self._replay(deal, actions, self._fresh(self.start_fields))
        return self._replay_ended(deal, actions)

    def _mix(self, replay: _SlotReplay, rng: random.Random, steps: int) -> _SlotReplay:
        """``steps`` Metropolis moves from ``replay``'s slot assignment, towards
        the uniform distribution over every assignment that fits the history
        (see the module docstring).

        A move swaps the cards of two slots (the viewer's own excepted) or
        rotates three, or, if the history has face-down moves, sends one card of
        one to another slot; it is kept iff the result still fits. Each kind of
        move is as likely back as forth (:meth:`_propose`), so the uniform
        distribution is stationary. When every slot moved is free (dealt an
        unseen card at the end: its history is the same whatever card it
        holds), only the exclusions are checked; otherwise the whole history is
        replayed in check mode (:meth:`_SlotReplay.check`), so the rules are
        the replay's own and not restated here."""
        cards = replay.card
        movable = [s for s in range(len(cards)) if s not in replay.own]
        if len(movable) < 2:
            return replay
        same_seat: dict[int, list[int]] = {}
        for s in movable:
            same_seat.setdefault(replay.receiver[s], []).append(s)
        free = set(replay.free)
        for _ in range(steps):
            move = rng.random()
            if move < _PICK_MOVES and replay.picks:
                picks = [list(p) for p in replay.picks]
                pick = picks[rng.randrange(len(picks))]
                slot = rng.choice(movable)
                if slot in pick:
                    continue
                pick[rng.randrange(len(pick))] = slot
                trial = _SlotReplay(self, rng, target=list(cards), picks=picks, aces_to=replay.aces_to)
            else:
                slots = self._propose(replay, rng, move, movable, same_seat)
                if slots is None:
                    continue
                rotated = [cards[slots[-1]]] + [cards[s] for s in slots[:-1]]
                if free.issuperset(slots):
                    if all(replay.fits_free(s, c) for s, c in zip(slots, rotated)):
                        old = [cards[s] for s in slots]
                        for s, c in zip(slots, rotated):
                            cards[s] = c
                        if not replay.partner_has_plain():
                            for s, c in zip(slots, old):
                                cards[s] = c
                    continue
                target = list(cards)
                for s, c in zip(slots, rotated):
                    target[s] = c
                trial = _SlotReplay(self, rng, target=target, picks=replay.picks, aces_to=replay.aces_to)
            if trial.check():
                replay, cards, free = trial, trial.card, set(trial.free)
        return replay

    def _propose(self, replay: _SlotReplay, rng: random.Random, move: float, movable: list[int],
                 same_seat: dict[int, list[int]]) -> list[int] | None:
        """The slots whose cards a move rotates (None: a move that changes nothing).

        Three random slots (``_CYCLES`` of the moves: swaps alone cannot always
        reach every assignment), else two: a free slot and another free one or
        one dealt or drawn to its seat (``_FREE_MOVES``: the number of free slots
        does not change, so the move back is as likely), else any slot and one
        of its seat's or any other. Each rule is symmetric in the slots it
        names, which is what the Metropolis rule needs."""
        receiver = replay.receiver
        if move > 1 - _CYCLES and len(movable) > 2:
            return rng.sample(movable, 3)
        if move > 1 - _CYCLES - _FREE_MOVES and len(replay.free) > 1:
            a, b = rng.sample(replay.free, 2)
            if rng.random() < 0.5:
                b = rng.choice(same_seat[receiver[a]])
        else:
            a = rng.choice(movable)
            b = rng.choice(same_seat[receiver[a]] if rng.random() < _SAME_SEAT else movable)
        if b == a or (receiver[a] == receiver[b] and self.stock_pos[a] < 0 and self.stock_pos[b] < 0):
            return None     # the same slot, or two of one initial hand: the same deal
        return [a, b]

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
            self._restore_match(world)
            world.phase = v["phase"]
            return world
        raise Retry


class _SlotReplay:
    """One random slot-level replay of the current deal (see the module docstring).

    Slot ``i`` holds ``card[i]``, a card index or ``_NONE``; ``excl[i]`` is the
    mask of effective suits it may not hold."""

    def __init__(self, sampler: KozelWorldSampler, rng: random.Random, careful: bool = False,
                 target: list[int] | None = None, picks: list[list[int]] | None = None,
                 aces_to: int | None = None) -> None:
        self.s = sampler
        self.rng = rng
        self.careful = careful
        #: Check mode (see :meth:`check`): every choice is read from ``target``
        #: (slot -> card) and ``picks`` instead of drawn; nothing uses ``rng``.
        self.target = target
        self.pos: list[int] | None = None
        if target is not None:
            self.pos = pos = [-1] * _INDICES
            for slot, card in enumerate(target):
                pos[card] = slot
        #: The slots of each face-down move, in history order (drawn, or read in check mode).
        self.picks: list[list[int]] = []
        self._picks_in = iter(picks or ())
        #: Slots whose card the viewer knows where it is (its own): no mixing move touches them.
        self.own: set[int] = set()
        #: After a royal goat: the seat that held every ace (see :meth:`_royal_goat_seat`).
        self.aces_to = aces_to
        #: The slots dealt unseen cards at the end, and the partner that must
        #: hold a plain card (see :meth:`_own_lead_facts`).
        self.free: list[int] = []
        self.needs_plain: int | None = None
        #: The seat each slot was dealt or drawn to (-1: still in the stock).
        self.receiver = [seat for seat, hand in enumerate(sampler.initial_hands) for _ in hand]
        self.receiver += [-1] * len(sampler.initial_stock)
        self.card = [_NONE] * len(sampler.stock_pos)
        self.excl = [0] * len(sampler.stock_pos)
        self.hands = [list(h) for h in sampler.initial_hands]
        self.stock = list(sampler.initial_stock)
        self.trump_bound = sampler.trump_range is None or sampler.trump_card is None
        self.suit_bit = sampler.suit_bit
        #: The card whose binding is checked against the trump range (street's shown card).
        self.watched = sampler.trump_index if sampler.trump_range is not None else _NO_CARD

    # ------------------------------------------------------------ slot helpers
    def _in_trump_range(self, slot: int) -> bool:
        lo, hi = self.s.trump_range  # type: ignore[misc]
        return lo <= self.s.stock_pos[slot] <= hi

    def bind(self, seat: int, card: int) -> int:
        """The slot of ``seat`` that holds the face-up ``card`` (binding a free one).

        A free slot is picked at random among those that may hold the card, or,
        when ``careful`` (after :data:`_CAREFUL_AFTER` failed attempts), among
        those that exclude the most suits: the slots drawn after a void was
        shown are the only places for a later card of that suit, and a random
        pick often used them up (classic; measured on the stored views of
        ``tests/kozel/test_world_dead_ends.py``: from about 30 attempts a world
        to one careful attempt)."""
        held = self.hands[seat]
        cards = self.card
        for slot in held:
            if cards[slot] == card:
                return slot
        excl = self.excl
        bit = self.suit_bit[card]
        free = [s for s in held if cards[s] == _NONE and not excl[s] & bit]
        if not self.trump_bound and seat != self.s.seat:
            if card == self.s.trump_index:
                free = [s for s in free if self._in_trump_range(s)]
            elif self.pos is None:  # keep the slots that could hold the shown trump card for it
                free = [s for s in free if not self._in_trump_range(s)] or free
        if self.pos is not None:    # check mode: the card's slot in the target, if it may be
            free = [s for s in free if s == self.pos[card]]
        if not free:
            raise Retry
        if self.careful and len(free) > 1:
            # keep the slots that exclude fewer suits free for what comes later
            most = max(_POPCOUNT[excl[s]] for s in free)
            free = [s for s in free if _POPCOUNT[excl[s]] == most]
        slot = free[0] if len(free) == 1 else self.rng.choice(free)
        if seat == self.s.seat:
            self.own.add(slot)
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
            slots = self._pick(held, move.count)
        for s in slots:
            held.remove(s)
        return slots

    def _pick(self, held: list[int], count: int) -> list[int]:
        """The slots a face-down move of ``count`` cards takes from ``held``:
        drawn at random, or in check mode the recorded ones (if still allowed)."""
        if self.target is None:
            slots = self.rng.sample(held, count)
        else:
            slots = next(self._picks_in, [])
            if len(slots) != count or any(s not in held for s in slots):
                raise Retry
        self.picks.append(slots)
        return slots

    def constrain(self, seat: int, suits: int) -> None:
        """None of ``seat``'s current (unknown) slots holds a card of the ``suits`` mask."""
        if seat == self.s.seat:
            return
        cards, excl, suit_bit = self.card, self.excl, self.s.suit_bit
        for s in self.hands[seat]:
            card = cards[s]
            if card == _NONE:
                excl[s] |= suits
            elif suit_bit[card] & suits:
                raise Retry

    # ------------------------------------------------------------------ replay
    def run(self) -> tuple[KozelDeal, list[Action]]:
        """A random slot replay and the deal and actions it makes."""
        self.replay()
        return self.result()

    def check(self) -> bool:
        """Check mode: whether ``target`` (and ``picks``) fit the history — the
        same replay, with every choice read instead of drawn."""
        try:
            self.replay()
        except Retry:
            return False
        return True

    def replay(self) -> None:
        """Replay the history at slot level and deal the unseen cards (raises
        :class:`Retry` at a contradiction); :meth:`result` then reads the deal."""
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
                    slot = self._pick(plain, 1)[0]
                    self.hands[seat].remove(slot)
                    excl[slot] |= _TRUMP_BIT
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
            slots = self.take(seat, move)
            action_slots.append(slots)
            trick.append((seat, verb, slots))
            if single and not lead:
                played = move.cards[0]  # type: ignore[index]
                led = suit_bit[cards[trick[0][2][0]]]
                if suit_bit[played] != led and (led != _TRUMP_BIT or rules.must_follow_trump):
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
            probe.prev_trick_leader_team = rules.team_of(trick[0][0])
            probe.tricks_played += 1
            trick = []
            for s, slot in draw_to(self.hands, self.stock, winner, rules.hand_size):
                self.receiver[slot] = s
                if s == smp.seat:
                    if drawn_next >= len(smp.drawn_indices):
                        raise WorldSamplingError("the view's draws do not fit its history")
                    if cards[slot] != _NONE:
                        raise Retry
                    self._set(slot, smp.drawn_indices[drawn_next])
                    self.own.add(slot)
                    drawn_next += 1
        self._check_sizes()
        self._bind_own_hand()
        self.needs_plain = self._own_lead_facts(probe, trick, must_lead)
        if self.target is None:
            self.aces_to = self._royal_goat_seat()
        self._deal_unseen(self.aces_to)
        if not self.partner_has_plain():
            raise Retry
        if self.target is not None and cards != self.target:
            raise Retry     # a slot the replay fills itself (own draws, a card led back) differs
        self.action_slots = action_slots

    def partner_has_plain(self) -> bool:
        """False if the partner that must hold a plain card (:meth:`_own_lead_facts`) holds none."""
        seat = self.needs_plain
        suit_bit, cards = self.s.suit_bit, self.card
        return seat is None or any(suit_bit[cards[s]] != _TRUMP_BIT for s in self.hands[seat])

    def fits_free(self, slot: int, card: int) -> bool:
        """Whether the unseen ``card`` may lie in the free ``slot`` (one dealt at
        the end, whose history does not depend on its card)."""
        if self.s.suit_bit[card] & self.excl[slot]:
            return False
        if card == self.watched and not self._in_trump_range(slot):
            return False
        aces = self.aces_to
        return aces is None or slot in self.hands[aces] or self.s.card_of[card].rank != "A"  # type: ignore[union-attr]

    def result(self) -> tuple[KozelDeal, list[Action]]:
        """The initial deal and the history's actions with every card filled in."""
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
        return self.rng.choice(seats) if seats else None

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
        if self.target is not None:
            rest = [self.target[s] for s in free]
            if sorted(rest) != sorted(c for c in self.s.hand_indices if c not in known):
                raise Retry
        for s, c in zip(free, rest):
            self._set(s, c)
        self.own.update(free)

    def _deal_unseen(self, aces_to: int | None) -> None:
        """Deal every card the seat has not seen into the free slots: the shown
        trump card (street) first, then (after a royal goat) the aces to the
        seat that held them all, then the constrained slots, then the rest."""
        smp, rng = self.s, self.rng
        cards, excl, suit_bit = self.card, self.excl, smp.suit_bit
        bound = set(cards)
        unseen = [c for c in smp.deck_indices if c not in bound]
        free = [s for s, c in enumerate(cards) if c == _NONE]
        if len(unseen) != len(free):
            raise WorldSamplingError("the view's cards do not add up to the deck")
        self.free = list(free)
        if self.target is not None:
            for s in free:
                card = self.target[s]
                if not self.fits_free(s, card):
                    raise Retry
                cards[s] = card
            return
        if not self.trump_bound:
            trump = smp.trump_index
            spots = [s for s in free if self._in_trump_range(s) and not excl[s] & suit_bit[trump]]
            if not spots:
                raise Retry
            slot = rng.choice(spots)
            self._set(slot, trump)
            free.remove(slot)
            unseen.remove(trump)
        if aces_to is not None:
            card_of = smp.card_of
            aces = [c for c in unseen if card_of[c].rank == "A"]  # type: ignore[union-attr]
            spots = [s for s in self.hands[aces_to] if cards[s] == _NONE]
            if len(spots) < len(aces):
                raise Retry
            for slot, card in zip(rng.sample(spots, len(aces)), aces):
                cards[slot] = card
                free.remove(slot)
                unseen.remove(card)
        rng.shuffle(unseen)
        tight = [s for s in free if excl[s]]
        loose = [s for s in free if not excl[s]]
        rng.shuffle(tight)
        tight.sort(key=lambda s: -_POPCOUNT[excl[s]])
        pool = list(unseen)
        for s in tight:
            mask = excl[s]
            options = [i for i, c in enumerate(unseen) if not suit_bit[c] & mask]
            if not options:
                # the quick deal ran into a dead end (earlier slots took the cards
                # this one needed): deal again keeping a fit possible at every step
                self._deal_fitting(free, pool)
                return
            cards[s] = unseen.pop(rng.choice(options))
        for s, c in zip(loose, unseen):
            cards[s] = c

    def _deal_fitting(self, free: list[int], unseen: list[int]) -> None:
        """Deal ``unseen`` into the ``free`` slots so that no slot holds a suit it
        excludes, never entering a dead end: a card goes to a slot only if the
        slots left can still all be filled (Hall's condition, :func:`_fits`).
        Raises :class:`Retry` only when no deal fits at all (the history's slot
        choices made one impossible).

        Why not just redraw: when voids leave only a few slots for some suit,
        a blind deal puts those suits' cards elsewhere most of the time (in a
        full-hand position measured, 67 draws a world on average, so a search
        drawing 100 worlds a decision sometimes ran out of its 200 tries)."""
        rng, cards, excl, suit_bit = self.rng, self.card, self.excl, self.s.suit_bit
        by_suit: dict[int, list[int]] = {}
        for c in unseen:
            by_suit.setdefault(suit_bit[c], []).append(c)
        slots = list(free)
        rng.shuffle(slots)
        slots.sort(key=lambda s: -_POPCOUNT[excl[s]])
        need: dict[int, int] = {}
        for s in slots:
            need[excl[s]] = need.get(excl[s], 0) + 1
        if not _fits(need, {bit: len(group) for bit, group in by_suit.items()}):
            raise Retry
        for s in slots:
            mask = excl[s]
            need[mask] -= 1
            have = {bit: len(group) for bit, group in by_suit.items() if group}
            options: list[int] = []
            for bit, group in by_suit.items():
                if group and not bit & mask:
                    have[bit] -= 1
                    if _fits(need, have):
                        options.extend(group)
                    have[bit] += 1
            card = rng.choice(options)   # not empty: the deal fitted before this slot
            by_suit[suit_bit[card]].remove(card)
            cards[s] = card


def _fits(need: dict[int, int], have: dict[int, int]) -> bool:
    """Whether slots can take the cards one each with no slot holding a suit it
    excludes: ``need`` counts slots by exclusion mask, ``have`` cards by suit bit
    (0: a card without a suit yet, which any slot takes). Hall's condition: for
    every set of suits, the slots that take nothing outside it are no more than
    its cards (one check a subset of the suits present: at most 2**6)."""
    suits = [bit for bit, n in have.items() if n]
    index = {bit: 1 << i for i, bit in enumerate(suits)}
    takes: dict[int, int] = {}   # exclusion mask -> the present suits its slots take, as a subset
    for mask, n in need.items():
        if n:
            takes[mask] = sum(i for bit, i in index.items() if not bit & mask)
    for subset in range(1 << len(suits)):
        slots = sum(need[mask] for mask, t in takes.items() if t & ~subset == 0)
        if slots > sum(have[bit] for bit, i in index.items() if i & subset):
            return False
    return True
