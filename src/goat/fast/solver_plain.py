"""The double-dummy kernel on a *plain* trick-taking deal: no Kozel rules.

Why: :mod:`goat.fast.solver` solves Kozel, whose card points (0..120) and
shamok / royal-goat ends make a search far harder than counting tricks. To
compare our engine with Bo Haglund's DDS on equal terms (``goat bench
solver``) and to test it against DDS, the same kernel
(:mod:`goat.fast.solver_search`) runs here on the game DDS solves: four hands,
follow suit, any card when void, the highest trump or else the highest card of
the suit led wins, the winner leads next. Only the constant tables of the work
array differ from a Kozel deal:

* cards are the 32 of a 7–A deck, numbered in (suit class, strength) order:
  the plain suits keep their class ``C D H S`` = 0..3, the trump suit is the
  trump class (so it is the top run of bits, as the kernel's top-trump bound
  expects); strength 7 < 8 < ... < A (the ten between the nine and the jack);
* every card is worth 1 point by default, so the kernel's value — the points
  a side takes — is 4 × its tricks; with ``points`` (rank → points, e.g.
  Kozel's A 11, T 10, K 4, Q 3, J 2) it is that side's card points;
* point groups are runs of adjacent equal-point cards of one suit (with 1 point
  a card: whole suits), so the table's canonical keys are relative ranks and
  equal cards are searched once;
* no lead restriction, no forced exchange, no shamok, no royal goat, no stock.

>>> from goat.cards import parse_cards
>>> hands = [parse_cards("AH KH"), parse_cards("QH 7S"), parse_cards("7C 8C"), parse_cards("JH TH")]
>>> solve_plain(hands, leader=0, trump_suit="S")   # the second heart is ruffed
1
>>> solve_plain(hands, leader=0, trump_suit=None)  # no trumps: both hearts stand
2
>>> solve_plain(hands, 0, None, points={"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2})
30
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from goat.cards import SUITS, Card, CardSyntaxError, parse_cards
from goat.fast import solver_core as core
from goat.fast.solver import SolverError, _workspace, guess_then_solve

#: The ranks of the 32-card deck, weakest first (the usual trick-taking order).
PLAIN_RANKS = "789TJQKA"
#: Kozel's card points, for solving a plain deal "for points" (ranks not named: 0).
KOZEL_POINTS: dict[str, int] = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}
#: The kernel's point scale ends at 120 (Kozel's total): more points in play are refused.
MAX_POINTS = 120

DECK: tuple[Card, ...] = tuple(Card(r, s) for s in SUITS for r in PLAIN_RANKS)


@dataclass(frozen=True)
class _PlainCode:
    """Compact numbering and constant work-array tables of one trump suit and point scale."""

    index: dict[Card, int]
    points: dict[Card, int]
    base: np.ndarray  # W[CONST_START:CONST_END]
    #: Some suit holds cards of different points. Only then do the solver's
    #: rank-pattern entries pay: with one point group a suit (trick counting)
    #: the canonical table key already is the rank pattern, so they would only
    #: add probes (measured on DDS's deals counting tricks: 1.6 against 1.0 ms).
    mixed_points: bool = True


@lru_cache(maxsize=32)
def _plain_code(trump_suit: str | None, rank_points: tuple[int, ...]) -> _PlainCode:
    """The constant tables for ``trump_suit`` (``None``: no trumps) and the points
    of each rank of :data:`PLAIN_RANKS` (cached: a bench or test solves many deals
    of one kind)."""
    def klass(c: Card) -> int:
        return core.TRUMP_CLASS if c.suit == trump_suit else SUITS.index(c.suit)

    cards = sorted(DECK, key=lambda c: (klass(c), PLAIN_RANKS.index(c.rank)))
    index = {c: i for i, c in enumerate(cards)}
    pts = {c: rank_points[PLAIN_RANKS.index(c.rank)] for c in cards}
    W = np.zeros(core.W_SIZE, dtype=np.int64)
    class_masks = [0] * 5
    groups: list[int] = []
    for i, c in enumerate(cards):
        W[core.STRENGTH + i] = PLAIN_RANKS.index(c.rank)
        W[core.CLASS + i] = klass(c)
        W[core.POINTS + i] = pts[c]
        class_masks[klass(c)] |= 1 << i
        prev = cards[i - 1] if i else None
        if prev is None or prev.suit != c.suit or pts[prev] != pts[c]:
            groups.append(0)
        groups[-1] |= 1 << i
    for k in range(5):
        W[core.CLASS_MASK + k] = class_masks[k]
    core.set_groups(W, groups)
    W[core.TRUMPS] = class_masks[core.TRUMP_CLASS]
    W[core.ACES] = 0
    W[core.LEAD_RULE] = 0       # any card may be led
    W[core.FOLLOW_TRUMP] = 1    # a trump lead is followed with a trump, like any suit
    W[core.TRUMP_ON_PLAIN] = 0  # a plain lead is followed when possible (no trumping then)
    W[core.FORCED_EX] = 0
    W[core.SHAMOK] = -1
    W[core.QUEEN] = -1
    W[core.SHAMOK_ON] = 0
    W[core.ROYAL_ON] = 0
    W[core.PREV_OPEN] = -1
    mixed = any(len({pts[c] for c in DECK if c.suit == suit}) > 1 for suit in SUITS)
    return _PlainCode(index, pts, W[core.CONST_START:core.CONST_END].copy(), mixed)


def _rank_points(points: Mapping[str, int] | None) -> tuple[int, ...]:
    if points is None:
        return (1,) * len(PLAIN_RANKS)
    if not isinstance(points, Mapping):
        raise SolverError(f"points must map ranks to points, e.g. {{'A': 11}}, not {points!r}")
    unknown = [r for r in points if r not in PLAIN_RANKS]
    if unknown:
        raise SolverError(f"points: unknown rank {unknown[0]!r} (ranks: {' '.join(PLAIN_RANKS)})")
    bad = [r for r, p in points.items() if isinstance(p, bool) or not isinstance(p, int) or p < 0]
    if bad:
        raise SolverError(f"points: {bad[0]} has {points[bad[0]]!r}, not a whole number ≥ 0")
    return tuple(int(points.get(r, 0)) for r in PLAIN_RANKS)


def _read_hands(hands: Sequence[Iterable[Card] | str]) -> list[list[Card]]:
    """The hands as lists of cards, checked: 4 of them, equal sizes, 32-card deck, no duplicates."""
    if isinstance(hands, str) or not isinstance(hands, Sequence) or len(hands) != 4:
        raise SolverError("solve_plain needs 4 hands (a list of 4 lists of cards)")
    out: list[list[Card]] = []
    seen: set[Card] = set()
    for hand in hands:
        try:
            cards = list(parse_cards(hand)) if isinstance(hand, str) else list(hand)
        except CardSyntaxError as exc:
            raise SolverError(str(exc)) from None
        for c in cards:
            if not isinstance(c, Card):
                raise SolverError(f"not a card: {c!r} (use goat.cards.Card, e.g. Card.parse('AS'))")
            if c.suit not in SUITS or c.rank not in PLAIN_RANKS:
                raise SolverError(f"{c} is not in the 32-card deck (ranks {PLAIN_RANKS}, suits {SUITS})")
            if c in seen:
                raise SolverError(f"{c} is dealt twice")
            seen.add(c)
        out.append(cards)
    sizes = [len(h) for h in out]
    if len(set(sizes)) != 1:
        raise SolverError(f"the hands must be of equal size, not {', '.join(map(str, sizes))}")
    return out


def solve_plain(hands: Sequence[Iterable[Card] | str], leader: int, trump_suit: str | None,
                points: Mapping[str, int] | None = None) -> int:
    """Double-dummy value of a plain trick-taking deal for the leader's side.

    ``hands`` are the four seats' cards (seats 0+2 against 1+3; a hand may also
    be text such as ``"AS KS 7H"``), ``leader`` (0..3) leads the first trick,
    ``trump_suit`` is ``"C" "D" "H" "S"`` or ``None`` for no trumps. Returns the
    tricks the leader's side takes with best play by both sides (DDS's answer
    for the side on lead), or with ``points`` (rank → points, other ranks 0, at
    most :data:`MAX_POINTS` in play) the card points it takes.
    """
    cards = _read_hands(hands)
    if isinstance(leader, bool) or not isinstance(leader, (int, np.integer)) or not 0 <= leader <= 3:
        raise SolverError(f"leader must be a seat 0..3, not {leader!r}")
    if trump_suit is not None and trump_suit not in SUITS:
        raise SolverError(f"trump_suit must be one of {' '.join(SUITS)} or None, not {trump_suit!r}")
    code = _plain_code(trump_suit, _rank_points(points))
    total = sum(code.points[c] for h in cards for c in h)
    if total > MAX_POINTS:
        raise SolverError(f"{total} points in play; the solver's scale ends at {MAX_POINTS}")
    if not cards[0]:
        return 0
    ws = _workspace()
    ws.use(large=False)    # a few hundred thousand nodes at most: the small table
    W = _load(ws.W, code, cards, int(leader), total)
    value = guess_then_solve(W, ws, ws.next_gen())
    return value if points is not None else value // 4


def _load(W: np.ndarray, code: _PlainCode, cards: list[list[Card]], leader: int, total: int) -> np.ndarray:
    """Write a deal into the work array ``W`` (the leader's side is side A)."""
    W[:] = 0
    W[core.CONST_START:core.CONST_END] = code.base
    W[core.HAND_SIZE] = len(cards[0])
    for seat, hand in enumerate(cards):
        m = 0
        for c in hand:
            m |= 1 << code.index[c]
        W[core.HANDS + seat] = m
    W[core.LEADER] = leader
    W[core.SIDE] = leader & 1
    W[core.REM_PTS] = total
    W[core.PREV_LT] = -1
    W[core.MUST_LEAD] = -1
    W[core.QUASI_ON] = int(core.USE_QUASI and code.mixed_points)
    return W
