"""Batch simulator: many random Kozel deals in one compiled loop.

Covers every ruleset: the single-card ones — ``classic``, ``full-hand``,
``full-hand-24`` and ``full-hand`` with 2 or 3 players — with their options
(``trump_lead``, ``must_follow_trump``, ``trump_on_plain``, ``forced_exchange``, the shamok, the
partner exchange, the royal goat, ``tie``, ``penalty``) in
:mod:`goat.fast.sim_kernel`, and ``street`` (multi-card leads, beats, passes,
molodka; ``max_lead``, ``max_molodka_per_trick``) in :mod:`goat.fast.sim_street`.

Each deal is played as one deal of a match: ``prev_open`` says which team made
the opening lead of the previous deal (``-1``: none, as in a match's first
deal), which is what the ``previous-opener`` trump-lead rule needs; the opening
leader is an input too (the dealer, or for ``last-trick-winner`` tables the seat
left of the dealer unless the caller says otherwise). Penalties are those of a
deal with no pending ``eggs = "double-next"`` doubling, and a deal ended by the
royal goat is reported as such (the match consequence is the caller's). Actions
are uniform random over the legal set (single-card rulesets: in card-index
order), so a deal is a pure function of its cards and its seed.

Typical use (the reference engine's deals in, arrays out)::

    batch = batch_from_deals(rules, deals, dealers, prev_opening_teams)
    out = simulate(rules, batch, seeds, record=1)
    out.points, out.ended_by, out.actions_of(0)

>>> from goat.games.kozel import make_rules
>>> rules = make_rules("classic")
>>> batch = random_batch(rules, 1000, seed=1)
>>> out = simulate(rules, batch, seeds=np.arange(1000))
>>> bool(((out.points.sum(axis=1) == 120) | (out.ended_by == SHAMOK_CAUGHT)).all())
True
>>> str(out.actions_of(0)[0]).startswith(str(batch.leader[0]) + " play ")
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from goat.fast.encoding import ALL_CARDS, NUM_CARDS, TRUMP_CLASS, mask, tables
from goat.fast.sim_kernel import (
    ANNULLED,
    CARD_MASK,
    CARDS_EXHAUSTED,
    ENDED_BY_NAMES,
    GIVE_FLAG,
    MAX_ACTIONS,
    P_DECK_SIZE,
    P_FOLLOW_TRUMP,
    P_FORCED,
    P_GRADED,
    P_HAND_SIZE,
    P_PARTNER_EXCHANGE,
    P_PARTNERS,
    P_PLAYERS,
    P_ROYAL,
    P_SHAMOK,
    P_SHAMOK_PENALTY,
    P_STOCK_SIZE,
    P_TIE_ANNUL,
    P_TRUMP_LEAD,
    P_TRUMP_ON_PLAIN,
    ROYAL_GOAT,
    SEAT_SHIFT,
    SHAMOK_CAUGHT,
    TRUMP_FIXED,
    TRUMP_FROM_DECK,
    TRUMP_FROM_STOCK,
    random_deals,
    simulate_kernel,
)
from goat.fast.sim_street import (
    CARDS_BITS,
    MAX_LEGAL,
    NUM_STREET_PARAMS,
    P_MAX_LEAD,
    P_MAX_MOLODKA,
    P_MOLODKA,
    STREET_SEAT_SHIFT,
    VERB_NAMES,
    VERB_SHIFT,
    max_steps,
    street_kernel,
)
from goat.games.kozel.deal import KozelDeal
from goat.games.kozel.phases import sort_for_display
from goat.games.kozel.rules import KozelRules
from goat.games.kozel.trumps import trump_order
from goat.protocol import Action, GoatError
from goat.protocol import check_seed as protocol_check_seed

__all__ = ["ANNULLED", "CARDS_EXHAUSTED", "ENDED_BY_NAMES", "ROYAL_GOAT", "SHAMOK_CAUGHT",
           "DealBatch", "SimResult", "SimRules", "batch_from_deals", "compile_rules", "decode_action",
           "decode_street_action", "random_batch", "simulate"]

SUIT_IDS = "CDHS"
_TRUMP_LEAD = {"free": 0, "opening-only": 1, "previous-opener": 2, "not-after-own-lead": 3}


@dataclass(frozen=True)
class SimRules:
    """A ruleset turned into the kernel's arrays (see :func:`compile_rules`).

    ``value``/``suit_class``/``class_mask`` have one row per trump suit
    ``C D H S``; ``class_mask[t, k]`` is the deck's cards of effective suit ``k``
    (0..3 plain suits, 4 trumps) when ``t`` is trump. ``value`` orders cards for
    the trick winner: ``value[t, led, c]`` is 0 for a card that cannot win a trick
    led in effective suit ``led`` (another plain suit), 1..9 by rank for the led
    plain suit and 100 and up for trumps, so the largest value wins the trick.
    """

    rules: KozelRules
    params: np.ndarray
    value: np.ndarray
    suit_class: np.ndarray
    class_mask: np.ndarray
    points: np.ndarray
    aces: np.uint64
    deck: np.ndarray
    #: street: ``beaters[t, c]`` = the cards that beat ``c`` with trump suit ``t``.
    beaters: np.ndarray
    #: the deck's cards of each real suit C D H S.
    suit_masks: np.ndarray

    @property
    def street(self) -> bool:
        return self.rules.trick_style == "street"

    @property
    def max_actions(self) -> int:
        return max_steps(self.rules.max_molodka_per_trick) if self.street else MAX_ACTIONS

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def num_teams(self) -> int:
        return self.rules.num_teams


_compiled: dict[KozelRules, SimRules] = {}


def compile_rules(rules: KozelRules) -> SimRules:
    """The kernel's view of ``rules`` (cached); a one-line :class:`GoatError`
    for what the kernels do not cover (street tables that are not four partners
    with hands of at most four cards), and for anything that is not a :class:`KozelRules`."""
    if not isinstance(rules, KozelRules):
        raise GoatError(f"rules must be a ruleset's KozelRules (goat.games.kozel.make_rules('classic')), "
                        f"not {rules!r}")
    if rules in _compiled:
        return _compiled[rules]
    street = rules.trick_style == "street"
    if street and (rules.players != 4 or rules.hand_size > 4 or rules.max_molodka_per_trick > 4):
        raise GoatError("the batch simulator covers street with 4 players, hands of at most 4 cards "
                        "and max_molodka_per_trick <= 4 only")
    params = np.zeros(NUM_STREET_PARAMS, dtype=np.int64)
    params[P_MAX_LEAD] = rules.max_lead
    params[P_MOLODKA] = rules.molodka
    params[P_MAX_MOLODKA] = rules.max_molodka_per_trick
    params[P_PLAYERS] = rules.players
    params[P_HAND_SIZE] = rules.hand_size
    params[P_STOCK_SIZE] = rules.stock_size
    params[P_PARTNERS] = rules.partnerships
    params[P_TRUMP_LEAD] = _TRUMP_LEAD[rules.trump_lead]
    params[P_FOLLOW_TRUMP] = rules.must_follow_trump
    params[P_TRUMP_ON_PLAIN] = rules.trump_on_plain == "always"
    params[P_FORCED] = rules.forced_exchange
    params[P_SHAMOK] = rules.shamok_catches_queen and rules.has_shamok
    params[P_PARTNER_EXCHANGE] = rules.partner_exchange
    params[P_ROYAL] = rules.royal_goat
    params[P_TIE_ANNUL] = rules.tie == "annul"
    params[P_GRADED] = rules.penalty == "graded"
    params[P_SHAMOK_PENALTY] = rules.shamok_penalty
    params[P_DECK_SIZE] = len(rules.deck_cards)
    value = np.zeros((4, TRUMP_CLASS + 1, NUM_CARDS), dtype=np.int32)
    suit_class = np.zeros((4, NUM_CARDS), dtype=np.int8)
    class_mask = np.zeros((4, TRUMP_CLASS + 1), dtype=np.uint64)
    points = None
    for t, suit in enumerate(SUIT_IDS):
        tab = tables(rules, suit)
        trump = tab.suit_class == TRUMP_CLASS
        for led in range(TRUMP_CLASS + 1):
            counts = trump | (tab.suit_class == led)
            value[t, led] = np.where(trump, tab.strength, np.where(counts, tab.strength + 1, 0))
        assert (tab.strength[trump] >= 100).all() and (tab.strength[~trump] < 99).all()
        suit_class[t] = np.maximum(tab.suit_class, 0)
        for k in range(TRUMP_CLASS + 1):
            class_mask[t, k] = np.uint64(mask(c for c in rules.deck_cards
                                              if tab.suit_class[c.index] == k))
        points = tab.points
    aces = np.uint64(mask(c for c in rules.deck_cards if c.rank == "A"))
    deck = np.array([c.index for c in rules.deck_cards], dtype=np.int8)
    beaters = np.zeros((4, NUM_CARDS), dtype=np.uint64)
    for t, suit in enumerate(SUIT_IDS):
        order = trump_order(rules.permanent_trumps, rules.deck, suit, rules.jack_order)
        for c in rules.deck_cards:
            beaters[t, c.index] = np.uint64(mask(d for d in rules.deck_cards if order.beats(d, c)))
    suit_masks = np.array([mask(c for c in rules.deck_cards if c.suit == suit) for suit in SUIT_IDS],
                          dtype=np.uint64)
    compiled = SimRules(rules, params, value, suit_class, class_mask, points, aces, deck,
                        beaters, suit_masks)
    _compiled[rules] = compiled
    return compiled


@dataclass
class DealBatch:
    """The cards and seats of ``n`` deals, as the kernel reads them.

    Attributes:
        hands: ``(n, players)`` uint64 bitmasks.
        stock: ``(n, stock_size)`` int8 card indices, top first.
        trump_id: ``(n,)`` trump suit 0..3 (``C D H S``).
        trump_card: ``(n,)`` index of the shown trump card, ``-1`` for none.
        dealer, leader: ``(n,)`` seats; the leader makes the opening lead.
        prev_open: ``(n,)`` team that opened the previous deal, ``-1`` for none.
        rules: the rules the deals were made for (:func:`simulate` refuses
            others: compiled kernels trust their arrays, and a street kernel
            reading a classic batch crashes the interpreter).
    """

    hands: np.ndarray
    stock: np.ndarray
    trump_id: np.ndarray
    trump_card: np.ndarray
    dealer: np.ndarray
    leader: np.ndarray
    prev_open: np.ndarray
    rules: KozelRules | None = None

    def __len__(self) -> int:
        return int(self.hands.shape[0])

    def deal(self, b: int) -> KozelDeal:
        """Deal ``b`` as a :class:`KozelDeal` (hands in card-index order)."""
        hands = tuple(tuple(ALL_CARDS[i] for i in range(NUM_CARDS) if int(h) >> i & 1)
                      for h in self.hands[b])
        stock = tuple(ALL_CARDS[int(i)] for i in self.stock[b])
        shown = int(self.trump_card[b])
        return KozelDeal(hands, stock, ALL_CARDS[shown] if shown >= 0 else None)


def _leaders(rules: KozelRules, dealer: np.ndarray) -> np.ndarray:
    """Opening leader of a deal: the dealer, or (``last-trick-winner``, as in a
    match's first deal) the seat left of the dealer."""
    if rules.opening_leader == "dealer":
        return dealer.copy()
    return (dealer + 1) % rules.players


def batch_from_deals(rules: KozelRules, deals: Sequence[KozelDeal], dealers: Sequence[int],
                     prev_opening_teams: Sequence[int | None] | None = None) -> DealBatch:
    """A batch from reference-engine deals (validated against ``rules``)."""
    compile_rules(rules)
    n = len(deals)
    if len(dealers) != n or (prev_opening_teams is not None and len(prev_opening_teams) != n):
        raise GoatError("deals, dealers and prev_opening_teams must have the same length")
    hands = np.zeros((n, rules.players), dtype=np.uint64)
    stock = np.zeros((n, rules.stock_size), dtype=np.int8)
    trump_id = np.zeros(n, dtype=np.int64)
    trump_card = np.full(n, -1, dtype=np.int64)
    for b, deal in enumerate(deals):
        deal.validate(rules)
        for s, hand in enumerate(deal.hands):
            hands[b, s] = np.uint64(mask(hand))
        stock[b] = [c.index for c in deal.stock]
        trump_id[b] = SUIT_IDS.index(deal.trump_suit(rules))
        if deal.trump_card is not None:
            trump_card[b] = deal.trump_card.index
    dealer = np.asarray(dealers, dtype=np.int64)
    prev = np.array([-1 if t is None else t for t in (prev_opening_teams or [None] * n)], dtype=np.int64)
    return DealBatch(hands, stock, trump_id, trump_card, dealer, _leaders(rules, dealer), prev, rules)


#: The kernels' seeds are numpy ``uint64``: a seed outside ``0 .. 2**64 - 1`` would
#: wrap round onto another one's deals (``-1`` onto ``2**64 - 1``'s), and a
#: fraction would be cut to a whole number, in silence; both are refused.
SEED_LIMIT = 2**64


def check_seed(seed: Any) -> int:
    """``seed`` as a Python int in ``0 .. 2**64 - 1`` (numpy integers too), else a
    one-line :class:`GoatError` (:func:`goat.protocol.check_seed`)."""
    return protocol_check_seed(seed, limit=SEED_LIMIT)


def seed_array(seeds: Any, n: int) -> np.ndarray:
    """``n`` per-deal seeds as ``uint64``, each in ``0 .. 2**64 - 1``, else a
    one-line :class:`GoatError` (the shape, or the first seed out of range). A
    list is read seed by seed: numpy would make ``[2**64 - 1, np.uint64(5)]``
    floats, and round them."""
    array = seeds if isinstance(seeds, np.ndarray) else np.asarray(seeds, dtype=object)
    if array.shape != (n,):
        raise GoatError(f"need one seed per deal ({n}), got shape {array.shape}")
    if array.dtype.kind == "u" or (array.dtype.kind == "i" and (n == 0 or array.min() >= 0)):
        return array.astype(np.uint64)
    values = []
    for seed in array.tolist():
        try:
            values.append(check_seed(seed))
        except GoatError:
            raise GoatError(f"seeds must be whole numbers from 0 to 2**64 - 1, not {seed!r}") from None
    return np.array(values, dtype=np.uint64)


def random_batch(rules: KozelRules, n: int, seed: int) -> DealBatch:
    """``n`` random deals made by the compiled shuffler (random dealer, random
    previous opening team including ``-1``, trump suit as the rules draw it);
    ``seed`` is a whole number from 0 to ``2**64 - 1``."""
    seed = check_seed(seed)
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise GoatError(f"n must be a whole number of deals >= 0, not {n!r}")
    sim = compile_rules(rules)
    hands = np.zeros((n, rules.players), dtype=np.uint64)
    stock = np.zeros((n, rules.stock_size), dtype=np.int8)
    trump_id = np.zeros(n, dtype=np.int64)
    trump_card = np.zeros(n, dtype=np.int64)
    dealer = np.zeros(n, dtype=np.int64)
    prev = np.zeros(n, dtype=np.int64)
    if rules.trump_suit != "drawn":
        mode, fixed = TRUMP_FIXED, SUIT_IDS.index(rules.trump_suit)
    else:
        mode, fixed = (TRUMP_FROM_STOCK if rules.trump_card_from == "stock" else TRUMP_FROM_DECK), 0
    random_deals(sim.params, sim.deck, n, np.uint64(seed), mode, fixed,
                 hands, stock, trump_id, trump_card, dealer, prev)
    return DealBatch(hands, stock, trump_id, trump_card, dealer, _leaders(rules, dealer), prev, rules)


@dataclass
class SimResult:
    """What :func:`simulate` returns, one row per deal.

    ``points``/``tricks``/``penalty`` are per team (per player in individual
    play) as in the record's ``result.deals`` (points are 0 when the shamok or
    the royal goat ended the deal); ``ended_by`` indexes :data:`ENDED_BY_NAMES`;
    ``winner_team`` is ``-1`` for none. ``actions[b, :n_actions[b]]`` are action
    codes (:func:`decode_action`), ``legal`` the legal card mask of each step
    (``record=2`` only). In ``street`` (``street=True``) codes are
    ``seat << 40 | verb << 36 | cards`` (:func:`decode_street_action`) and
    ``legal[b, k, :n_legal[b, k]]`` lists every legal code of a step.
    """

    points: np.ndarray
    tricks: np.ndarray
    penalty: np.ndarray
    ended_by: np.ndarray
    winner_team: np.ndarray
    actions: np.ndarray
    legal: np.ndarray
    n_actions: np.ndarray
    total_actions: int
    street: bool = False
    n_legal: np.ndarray | None = None

    def actions_of(self, b: int) -> list[Action]:
        decode = decode_street_action if self.street else decode_action
        return [decode(int(a)) for a in self.actions[b, :self.n_actions[b]]]

    def legal_of(self, b: int, k: int) -> list[Action]:
        """The legal actions of step ``k`` of deal ``b`` (``record=2``)."""
        if self.street:
            assert self.n_legal is not None
            return [decode_street_action(int(c)) for c in self.legal[b, k, :self.n_legal[b, k]]]
        code, legal = int(self.actions[b, k]), int(self.legal[b, k])
        base = code & ~CARD_MASK
        return [decode_action(base | i) for i in range(NUM_CARDS) if legal >> i & 1]

    def ended_by_name(self, b: int) -> str:
        return ENDED_BY_NAMES[int(self.ended_by[b])]


def decode_action(code: int) -> Action:
    """An action code as an :class:`Action` (``seat play|give card``)."""
    verb = "give" if code & GIVE_FLAG else "play"
    return Action(code >> SEAT_SHIFT, verb, (ALL_CARDS[code & CARD_MASK],))


def decode_street_action(code: int) -> Action:
    """A street action code as an :class:`Action` (cards in display order)."""
    cards = code & CARDS_BITS
    return Action(code >> STREET_SEAT_SHIFT, VERB_NAMES[(code >> VERB_SHIFT) & 3],
                  tuple(sort_for_display([ALL_CARDS[i] for i in range(NUM_CARDS) if cards >> i & 1])))


def _check_batch(rules: KozelRules, batch: DealBatch) -> None:
    """Refuse, in one line, a batch the kernel would read out of bounds: one
    made for other rules, or arrays of the wrong shapes."""
    if batch.rules is not None and batch.rules != rules:
        raise GoatError(f"the batch was made for other rules ({batch.rules.name}, {batch.rules.players} players) "
                        f"than these ({rules.name}, {rules.players} players): make it with these rules")
    n = len(batch)
    shapes = {"hands": (n, rules.players), "stock": (n, rules.stock_size), "trump_id": (n,),
              "trump_card": (n,), "dealer": (n,), "leader": (n,), "prev_open": (n,)}
    for name, shape in shapes.items():
        if np.shape(getattr(batch, name)) != shape:
            raise GoatError(f"batch.{name} has shape {np.shape(getattr(batch, name))}, "
                            f"{rules.name} needs {shape}")


def simulate(rules: KozelRules, batch: DealBatch, seeds: np.ndarray | Sequence[int],
             record: int = 1) -> SimResult:
    """Play every deal of ``batch`` to its end with uniform random legal actions.

    ``record``: 0 results only (fastest), 1 also the actions, 2 also the legal
    mask of every step. ``seeds``: one a deal, each a whole number from 0 to
    ``2**64 - 1``.
    """
    sim = compile_rules(rules)
    n = len(batch)
    _check_batch(rules, batch)
    if record not in (0, 1, 2):
        raise GoatError(f"record must be 0, 1 or 2, not {record!r}")
    seeds = seed_array(seeds, n)
    teams = sim.num_teams
    points = np.zeros((n, teams), dtype=np.int16)
    tricks = np.zeros((n, teams), dtype=np.int8)
    penalty = np.zeros((n, teams), dtype=np.int8)
    ended = np.zeros(n, dtype=np.int8)
    winner = np.zeros(n, dtype=np.int8)
    steps = sim.max_actions
    n_act = np.zeros(n, dtype=np.int16)
    if sim.street:
        actions = np.zeros((n, steps if record >= 1 else 0), dtype=np.int64)
        legal = np.zeros((n, steps, MAX_LEGAL) if record >= 2 else (n, 0, 0), dtype=np.int64)
        n_legal = np.zeros((n, steps) if record >= 2 else (n, 0), dtype=np.int8)
        total = street_kernel(sim.params, sim.beaters, sim.suit_masks, sim.points,
                              batch.hands, batch.stock, batch.trump_id, batch.leader, seeds, record,
                              points, tricks, penalty, ended, winner, actions, legal, n_legal, n_act)
        return SimResult(points, tricks, penalty, ended, winner, actions, legal, n_act, int(total),
                         street=True, n_legal=n_legal)
    actions = np.zeros((n, steps if record >= 1 else 0), dtype=np.int16)
    legal = np.zeros((n, steps if record >= 2 else 0), dtype=np.uint64)
    total = simulate_kernel(sim.params, sim.value, sim.suit_class, sim.class_mask, sim.points,
                            sim.aces, batch.hands, batch.stock, batch.trump_id, batch.dealer,
                            batch.leader, batch.prev_open, seeds, record,
                            points, tricks, penalty, ended, winner, actions, legal, n_act)
    return SimResult(points, tricks, penalty, ended, winner, actions, legal, n_act, int(total))
