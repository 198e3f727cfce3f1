"""Double-dummy solver for single-card Kozel (``classic``, ``full-hand``, ``full-hand-24``).

With every card known — all hands and, in ``classic``, the order of the stock — the
rest of a deal is a two-team zero-sum game of perfect information. :func:`solve`
gives its exact minimax value, :func:`evaluate_moves` the value after each legal
action of the seat to act. PIMC bots call them on sampled worlds; ``goat analyze``
on the true deal of a record.

**The value** is a single integer from one side's point of view (``side`` 0 =
seats 0+2, 1 = seats 1+3; in individual play a seat, see below):

* normally the card points that side holds at the end of the deal: what it has
  already won plus what it takes of the remaining cards with best play by both
  teams (0..120);
* ``+CATCH`` (1000) / ``-CATCH`` when the deal ends with the shamok ``7C``
  catching the queen of clubs played by the other / this side. The deal's points
  are then not counted and the side that played ``QC`` gets ``shamok_penalty``
  points. Under the defaults (4 against a lost deal's 2) that is better (worse)
  for a team than any point result, and the kernels rank a catch above (below)
  every point total. Under other options (``shamok_penalty`` below 2,
  ``penalty="graded"``) it is placed where the deal's result puts it, among the
  totals (:mod:`goat.fast.solver_rank`: ``shamok_penalty=1``, a catch for the
  side between 60 and 61): the search finds the value under that order (by that
  module's null-window tests, not the guess and MTD(f) below), and
  :func:`rank_of` orders such values (compare them by it, not as numbers);
* ``+ROYAL`` (2000) / ``-ROYAL`` when a player of this / the other side holds
  all four aces after a trick (royal goat, ``full-hand``; the engine checks it
  after every trick, and so does the solver): that wins the match.

This ranks every outcome of the deal consistently for a team as the deal's
result does, ties broken by card points (which never make a deal result worse). Maximising
it is what a team playing for the deal wants; the points between 61 and 120 are
the tie-breaker that makes the value exact and informative.

What the search does (:mod:`goat.fast.solver_search`, compiled by numba): fail-soft
alpha-beta over single card plays, driven by null-window searches that bisect
the value range, starting from the value of a two-trick search with the rest
estimated (galloping out from that guess, then bisecting); a transposition
table at trick starts,
keyed on the four hands (canonical: within a run of equal-point, adjacent cards
of one suit class only the number of live cards each seat holds matters), the
leader, the stock position and the trump-lead state, storing bounds on the value
of the *remaining* tricks (so the points already won never enter the key); a
second entry keyed on the *rank pattern* alone (who holds the i-th live card of
each class, points ignored: the same game tree up to the cards' points; with a
shamok catch possible, the places of the shamok and the queen of clubs too),
whose bounds another position with that pattern takes corrected by the point
difference of the rank-mapped cards — the "quasi-symmetry" of Kupferschmid and
Helmert's Skat solver (measured on 20 full-hand deals: 7.0M nodes without it,
2.5M with it; the same values). In classic the stock cards are live cards too,
their "holder" a place in the stock (a draw gives a place's card to the same
seat in both positions), for trick starts with at most 12 cards left in the
stock (all but the first; 20 classic deals: 737k nodes without, 638k with); free
bounds from the cards left and from each side's unbeatable top trumps; the last
three tricks enumerated directly (nested loops, no recursion; the values of their
trick starts kept in the table);
move ordering with the table's best move first, then, since every hand is
known, double-dummy rules: leads that surely win the trick first and leads that
surely lose it last (else "high, and what cut off elsewhere": a history
heuristic), and for follows "feed a trick the team surely keeps, throw low to
one it surely loses, else win cheaply" with the second and third seats looking
at the hands still to play (20 full-hand deals: 2.5M nodes with a plain
heuristic, 1.25M with these; the same values); and
equivalent-card pruning (two cards of one hand, adjacent in the live order of
one suit class with no other seat's card between them and with equal points, are
searched once; the shamok and the queen of clubs never merge).

Classic's forced exchange is part of the search: a restricted leader holding only
trumps gives any trump and its partner returns any plain card, which is then
led — one composite move of that team. The full-hand partner exchange is
*not*: solve from after it (positions in that phase are refused with
:class:`SolverError`).

**Individual play** (``full-hand`` with 2 or 3 players) is solved by a kernel of
its own, :mod:`goat.fast.solver_solo`, which :func:`solve`, :func:`evaluate_moves`
and :func:`unsupported` pick by the player count. There ``side`` is a *seat*
(each player is their own team, ``state.team_of(seat) == seat``) and the value
is the card points that seat takes, or the same decisive values (``+CATCH`` unless
``side`` played the caught queen, ``±ROYAL`` for a royal goat after a draw): the
``side`` seat maximises and every other seat minimises — the exact game with 2
players, the "paranoid" reading (the two others as one coalition) with 3.

Single-card rulesets with decks of up to 32 cards are taken (``classic``,
``full-hand``, ``full-hand-24`` and their options, 4 players or individual
play); ``street`` and a 36-card deck are refused (the work array's card tables
and the table keys have room for 32 cards).

**A node budget** (``max_nodes`` of :func:`solve` and :func:`evaluate_moves`)
lets a caller with a deadline stop a solve: one world at the first lead of a
2-player deal takes from a tenth of a second to several seconds, and a bot with
a time limit must keep it (:mod:`goat.bots.pimc`). The budget counts the search
nodes of the whole call (the guess search and every root move); when they pass
it the kernel's search unwinds at once, no frame storing a table entry (a
subtree left unfinished has no true bound), the drivers stop and the call raises
:class:`SolverBudgetExceeded`. Without a budget nothing changes (the same nodes,
the same values); :func:`nodes_used` tells how many nodes the last call took.
A deadline in time is :func:`stop_after` (a block within which the solves of
this thread stop when the time is up, whatever the node rate turns out to be).

**The deal's outcome** (who wins, the penalty points) without the exact value:
:func:`solve_outcome` (:mod:`goat.fast.solver_outcome`), null-window tests of
these kernels at the scoring lines only.
"""

from __future__ import annotations

import numbers

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from goat.cards import Card
from goat.fast import solver_core as core
from goat.fast import solver_rank as rank
from goat.fast import solver_search as search
from goat.fast import solver_solo as solo
from goat.fast.encoding import TRUMP_CLASS, tables
from goat.games.kozel.phases import FORCED_RETURN, PARTNER_EXCHANGE, PLAY
from goat.games.kozel.rules import QUEEN_OF_CLUBS, SHAMOK, KozelRules
from goat.games.kozel.scoring import card_points
from goat.games.kozel.state import KozelState
from goat.protocol import Action, GoatError

CATCH = core.CATCH
ROYAL = core.ROYAL
LEAD_RULES = {"free": 0, "opening-only": 1, "previous-opener": 2, "not-after-own-lead": 3}
#: Transposition table sizes, log2 of the entries (32 bytes each). The searches
#: of a 4- or 3-player deal under the default rules visit tens of thousands of
#: nodes, a few thousand of them trick starts: a 2 MB table holds them and stays
#: in a core's L2 cache, where a 32 MB one costs a cache miss a probe.
#: Measured on the bench's 40 full-hand deals (seed 0, CPU time, min of runs
#: alternated): 2**20 entries 4.99 ms a deal, 2**17 4.22, 2**16 4.14, 2**15 4.18
#: (nodes 2.67M, 2.69M, 2.70M, 2.78M), classic 2.96 → 2.42 ms, 3 players 1.70 →
#: 1.41 ms. The large searches — 2 players (about 5M nodes a deal) and
#: ``trump_on_plain="always"`` (2M) — need the large table: there 2**16 entries
#: cost 13% and 28% more time (more nodes than the cache saves).
TT_BITS = 20
SMALL_TT_BITS = 16
GUESS_TRICKS = 2   # depth of the guess search (measured best of 1..4)


class SolverError(GoatError):
    """A position the solver cannot take (wrong ruleset or phase); one line."""


class SolverBudgetExceeded(GoatError):
    """A solve given ``max_nodes`` (:func:`solve`, :func:`evaluate_moves`) searched
    that many nodes without finishing: there is no value, and nothing of the
    unfinished search is kept (the next call finds the exact value as ever).

    Not a :class:`SolverError`: that one says the solver cannot take a position
    at all, this one only that this call ran out of its budget — a caller that
    treats the first as "unsupported" (hand the position to another bot for
    good) must not do so for the second, which is "not now"."""


def describe(value: int) -> str:
    """Human wording of a solver value (see the module doc)."""
    if value >= ROYAL:
        return "royal goat (wins the match)"
    if value <= -ROYAL:
        return "royal goat against"
    if value >= CATCH:
        return "shamok catches QC (shamok_penalty to the other team)"
    if value <= -CATCH:
        return "QC caught by the shamok (shamok_penalty to this team)"
    return f"{value} points"


# ============================================================ tables
@dataclass(frozen=True)
class _DealCode:
    """Compact card numbering of one ruleset and deal (trump suit)."""

    cards: tuple[Card, ...]           # compact index -> card
    index: dict[Card, int]
    base: np.ndarray                  # the constant part of the work array


@lru_cache(maxsize=64)
def _deal_code(rules: KozelRules, trump_suit: str | None) -> _DealCode:
    t = tables(rules, trump_suit)
    # compact indices in (class, strength) order: a class is a contiguous run of bits
    cards = tuple(sorted(rules.deck_cards, key=lambda c: (t.suit_class[c.index], t.strength[c.index])))
    index = {c: i for i, c in enumerate(cards)}
    W = np.zeros(core.W_SIZE, dtype=np.int64)
    trumps = aces = 0
    class_masks = [0] * 5
    for i, c in enumerate(cards):
        k = c.index
        W[core.STRENGTH + i] = t.strength[k]
        W[core.CLASS + i] = t.suit_class[k]
        W[core.POINTS + i] = t.points[k]
        class_masks[t.suit_class[k]] |= 1 << i
        if t.suit_class[k] == TRUMP_CLASS:
            trumps |= 1 << i
        if c.rank == "A":
            aces |= 1 << i
    for k in range(5):
        W[core.CLASS_MASK + k] = class_masks[k]
    groups: list[int] = []  # point groups: adjacent in one class, equal points, not special
    special = {SHAMOK, QUEEN_OF_CLUBS}
    for i, c in enumerate(cards):
        prev = cards[i - 1] if i else None
        if (prev is None or c in special or prev in special
                or t.suit_class[c.index] != t.suit_class[prev.index]
                or t.points[c.index] != t.points[prev.index]):
            groups.append(0)
        groups[-1] |= 1 << i
    core.set_groups(W, groups)
    W[core.TRUMPS] = trumps
    W[core.ACES] = aces
    W[core.LEAD_RULE] = LEAD_RULES[rules.trump_lead]
    W[core.FOLLOW_TRUMP] = int(rules.must_follow_trump)
    W[core.TRUMP_ON_PLAIN] = int(rules.trump_on_plain == "always")
    W[core.FORCED_EX] = int(rules.forced_exchange)
    W[core.HAND_SIZE] = rules.hand_size
    W[core.SHAMOK] = index.get(SHAMOK, -1)
    W[core.QUEEN] = index.get(QUEEN_OF_CLUBS, -1)
    W[core.SHAMOK_ON] = int(rules.shamok_catches_queen and rules.has_shamok)
    W[core.CATCH_FOR], W[core.CATCH_AGAINST] = CATCH, -CATCH   # solver_rank's tests may swap them
    # Royal goat is checked after draws only; the solver refuses it with a stock,
    # so within a search it never fires (kept as a switch for stock support).
    W[core.ROYAL_ON] = int(rules.royal_goat and rules.stock_size > 0)
    return _DealCode(cards, index, W[core.CONST_START:core.CONST_END].copy())


class _Workspace:
    """The transposition tables and the work array, reused across solves
    (one per thread: see :func:`_workspace`). ``tt`` is the table of the position
    loaded last: the small one (2 MB), or the large one (32 MB, made on first
    use) for the searches that need it (:func:`_large_search`; sizes at
    :data:`TT_BITS`).

    Each top-level call takes a new *generation*, which turns every older table
    entry into a miss (no clearing); the generations are the workspace's, so an
    entry a table kept from an earlier solve is a miss too."""

    def __init__(self, bits: int = TT_BITS, small_bits: int = SMALL_TT_BITS) -> None:
        self.sizes = {False: small_bits, True: bits}
        self.tables: dict[bool, np.ndarray] = {}
        self.tt = self.table(large=False)
        self.W = np.zeros(core.W_SIZE, dtype=np.int64)
        self.gen = 0
        self.rank_gens: tuple[int | None, dict] = (None, {})   # goat.fast.solver_rank's generations
        self.nodes = 0   # nodes of the last top-level call (see nodes_used)
        # stop_after: the open block's token, whether its time ran out, and the
        # lock that orders its timer against the loading of a position
        self.alarm: object | None = None
        self.expired = False
        self.lock = threading.Lock()

    def next_gen(self) -> int:
        self.gen += 1
        return self.gen

    def table(self, large: bool) -> np.ndarray:
        """The small or the large table, made on first use."""
        tt = self.tables.get(large)
        if tt is None:
            tt = self.tables[large] = core.new_table(self.sizes[large])
        return tt

    def use(self, large: bool) -> None:
        """Search the next position in the small or the large table."""
        self.tt = self.table(large)


def _large_search(rules: KozelRules) -> bool:
    """Whether deals of ``rules`` search millions of nodes, and so the large table
    (see :data:`TT_BITS`): two players, or a trump allowed on a plain lead by a
    player who holds its suit."""
    return rules.players == 2 or rules.trump_on_plain == "always"


_LOCAL = threading.local()


def _workspace() -> _Workspace:
    """This thread's workspace, made on its first solve.

    One per thread, not one per process: the table server runs bots in worker
    threads, and two solves sharing one work array corrupt each other's state
    (measured: wrong values from two threads solving at once; the search also
    releases the GIL, so they really do run at once)."""
    ws = getattr(_LOCAL, "workspace", None)
    if ws is None:
        ws = _LOCAL.workspace = _Workspace()
    return ws


class _Budget:
    """The nodes one top-level call may still search (``left``; ``None``: no
    budget) and has searched (``used``), across the several loads of a forced
    exchange's replies."""

    def __init__(self, max_nodes: int | None) -> None:
        if max_nodes is not None and (isinstance(max_nodes, bool)
                                      or not isinstance(max_nodes, (int, np.integer))
                                      or max_nodes < 1):
            raise SolverError(f"max_nodes must be a whole number >= 1 or None, not {max_nodes!r}")
        self.limit = None if max_nodes is None else int(max_nodes)
        self.left = self.limit
        self.used = 0

    def load(self, ws: _Workspace) -> None:
        """Give the kernels in ``ws.W`` (just encoded) what is left of the budget;
        raise at once if it, or the time of a :func:`stop_after`, ran out. (Under
        the workspace's lock: an alarm going off now must not be overwritten.)"""
        with ws.lock:
            if ws.expired:
                raise SolverBudgetExceeded(TIME_RAN_OUT)
            if self.left is None:
                return
            if self.left <= 0:
                raise SolverBudgetExceeded(f"the solver's budget of {self.limit} nodes ran out")
            ws.W[core.MAX_NODES] = min(self.left, 1 << 62)

    def settle(self, ws: _Workspace) -> None:
        """Count the nodes the kernels searched in ``ws.W``; raise if they ran out."""
        W = ws.W
        nodes = int(W[core.NODES])
        self.used += nodes
        if self.left is not None:
            self.left -= nodes
        if W[core.ABORTED]:
            if ws.expired:
                raise SolverBudgetExceeded(TIME_RAN_OUT)
            raise SolverBudgetExceeded(f"the solver's budget of {self.limit} nodes ran out")


TIME_RAN_OUT = "the solver's time ran out"


@contextmanager
def stop_after(seconds: float) -> Iterator[None]:
    """Stop this thread's solves ``seconds`` from now: a :func:`solve` or
    :func:`evaluate_moves` running then unwinds within a node and raises
    :class:`SolverBudgetExceeded`, and so does every call after it inside the block.

    Why, besides ``max_nodes``: a node budget is made from a node rate, and the
    rate drops when the machine gets busier in the middle of a solve; a timer
    keeps the deadline whatever the rate. The search releases the GIL, so a timer
    thread runs beside it and cuts the running solve's budget (``MAX_NODES``) to
    one node; the workspace's lock keeps that from racing with the loading of
    the next position. One timer thread for the whole block (a decision's
    worlds), not one a solve: a thread costs about what a small solve does::

        with stop_after(0.5):
            for world in worlds:
                try:
                    values = evaluate_moves(world)
                except SolverBudgetExceeded:   # the half second is over
                    break
    """
    if not isinstance(seconds, (int, float)) or isinstance(seconds, bool) or seconds != seconds:
        raise SolverError(f"stop_after needs a number of seconds, not {seconds!r}")
    ws = _workspace()
    token = object()

    def expire() -> None:
        with ws.lock:
            if ws.alarm is token:   # this block is still open: not a late timer of an old one
                ws.expired = True
                ws.W[core.MAX_NODES] = 1
    with ws.lock:
        ws.alarm, ws.expired = token, False
    timer = threading.Timer(max(0.0, float(seconds)), expire)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        with ws.lock:
            ws.alarm, ws.expired = None, False
            ws.W[core.MAX_NODES] = 0


def nodes_used() -> int:
    """The search nodes of this thread's last :func:`solve` or :func:`evaluate_moves`
    call (one that ran out of its budget included): what a caller measures its
    node rate with, to turn a time limit into ``max_nodes``."""
    return _workspace().nodes


# ============================================================ encoding
def unsupported(state: Any) -> str | None:
    """Why the solver can never take positions of ``state``'s ruleset (else ``None``).

    Single-card Kozel with 4 players (partnerships) or 2-3 (individual play,
    :mod:`goat.fast.solver_solo`), decks of up to 32 cards: both kernels keep
    per-card tables of 32 entries (a 36-card deck overran them, and a 4-player
    search then never ended). Anything but a Kozel state (another game's
    state, a view's dict) is named as such."""
    if not isinstance(state, KozelState):
        kind = "a view (a dict): pass the state itself" if isinstance(state, dict) else f"a {type(state).__name__}"
        return f"the solver takes a Kozel state (classic, full-hand), not {kind}"
    rules = state.rules
    if rules.trick_style != "single":
        return (f"the solver handles single-card Kozel (classic, full-hand), "
                f"not {rules.name} with {rules.players} players")
    if len(rules.deck_cards) > 32:
        return f"the solver handles decks of up to 32 cards, not {len(rules.deck_cards)}"
    return None


def _solo(state: Any) -> bool:
    """Individual play: the :mod:`goat.fast.solver_solo` kernel, ``side`` a seat."""
    return not state.rules.partnerships


def _check(state: Any, side: int | None = None) -> None:
    reason = unsupported(state)
    if reason:
        raise SolverError(reason)
    if side is not None and (not isinstance(side, numbers.Integral) or isinstance(side, bool)
                             or not 0 <= side < state.rules.num_teams):
        who = "team" if state.rules.partnerships else "seat"
        raise SolverError(f"side must be a {who} 0..{state.rules.num_teams - 1}, not {side!r}")
    rules = state.rules
    if state.phase == PARTNER_EXCHANGE:
        raise SolverError("the solver starts after the partner exchange, not in it")
    if state.phase not in (PLAY, FORCED_RETURN):
        raise SolverError(f"no card play is due (phase {state.phase})")
    if rules.royal_goat and state.stock and rules.partnerships:
        raise SolverError("the solver does not take the royal goat while a stock is left")


def _encode(state: Any, side: int, ws: _Workspace, gen: int) -> tuple[np.ndarray, _DealCode]:
    """Load ``state`` into the workspace's work array (for ``side``, generation ``gen``)."""
    code = _deal_code(state.rules, state.order.trump_suit)
    idx = code.index
    ws.use(_large_search(state.rules))
    W = ws.W
    W[:] = 0
    W[core.CONST_START:core.CONST_END] = code.base
    W[core.SIDE] = side
    W[core.PREV_OPEN] = -1 if state.prev_opening_team is None else state.prev_opening_team
    W[core.GEN] = gen
    W[core.QUASI_ON] = int(core.USE_QUASI)
    W[solo.NPL] = state.rules.players  # read by the individual-play kernel only
    for seat in range(state.rules.players):
        m = 0
        for c in state.hands[seat]:
            m |= 1 << idx[c]
        W[core.HANDS + seat] = m
    for i, play in enumerate(state.trick):
        W[core.TRICK + i] = idx[play.cards[0]]
    W[core.NTRICK] = len(state.trick)
    W[core.LEADER] = state.trick_leader if state.trick else state.to_act
    W[core.SLEN] = len(state.stock)
    live = 0
    for i in range(len(state.stock) - 1, -1, -1):
        W[core.STOCK + i] = idx[state.stock[i]]
        live |= 1 << idx[state.stock[i]]
        W[core.STOCK_LIVE + i] = live
    left = [c for h in state.hands for c in h] + [p.cards[0] for p in state.trick] + list(state.stock)
    W[core.REM_PTS] = card_points(left)
    W[core.FIRST] = int(state.tricks_played == 0)
    W[core.PREV_LT] = -1 if state.prev_trick_leader_team is None else state.prev_trick_leader_team
    W[core.MUST_LEAD] = -1 if state.must_lead is None else idx[state.must_lead]
    return W, code


def _absolute(state: Any, side: int, remaining: int) -> int:
    if abs(remaining) >= CATCH:
        return int(remaining)
    return int(state.points()[side] + remaining)


def _remaining(state: Any, side: int, value: int) -> int:
    """``value`` on the answer's scale as the kernels read it, the inverse of
    :func:`_absolute`: card points still to take; the decisive ends, and the
    line just above a catch against (``-CATCH + 1``, a null-window bound), as
    they are."""
    if value >= CATCH or value <= -CATCH + 1:
        return int(value)
    return int(value - state.points()[side])


def _deal_over_value(state: Any, side: int, deals_before: int) -> int | None:
    """The value of a position where the deal has just ended (else ``None``)."""
    if len(state.deal_results) == deals_before:
        return None
    res = state.deal_results[-1]
    if res["ended_by"] == "shamok-caught-queen":
        if len(res["penalty"]) == 2:   # the shamok's side: also when shamok_penalty=0 leaves no trace
            return CATCH if res["winner_team"] == side else -CATCH
        return -CATCH if res["penalty"][side] else CATCH
    if res["ended_by"] == "royal-goat":
        return ROYAL if res["winner_team"] == side else -ROYAL
    return int(res["points"][side])


# ============================================================ API
def solve(state: Any, side: int = 0, guess: int | None = None, max_nodes: int | None = None) -> int:
    """Exact value of ``state`` (a classic/full-hand state with a card play or
    forced-exchange return due) for ``side`` (a team with 4 players, a seat in
    individual play); see the module doc for the scale.

    The state is not changed. It is read as a perfect-information position: the
    real hands and stock are used, so call it on the true state or a sampled world.

    ``guess``: where MTD(f) starts, on the answer's scale (by default the
    solver's own :func:`first_guess`). The answer is the same whatever the
    guess; only the time differs. Given the true value, the solve is the two
    null-window proofs that the value is at least that and not more: the floor
    of this driver (``goat bench solver --known-value`` times it).

    ``max_nodes``: stop after that many search nodes, raising
    :class:`SolverBudgetExceeded` (see "node budget" in the module doc).
    """
    _check(state, side)
    budget = _Budget(max_nodes)
    ws = _workspace()
    try:
        return _solve(state, side, ws, ws.next_gen(), budget, guess)
    finally:
        ws.nodes = budget.used


def _solve(state: Any, side: int, ws: _Workspace, gen: int, budget: _Budget,
           guess: int | None = None) -> int:
    if state.phase == FORCED_RETURN:
        values = _values_by_action(state, side, ws, gen, budget)
        mover = state.team_of(state.current_player())
        pick = max if mover == side else min
        return pick(values.values(), key=lambda v: rank.rank_of(state, v))
    W, _ = _encode(state, side, ws, gen)
    budget.load(ws)
    if not rank.fixed(state):   # the catches placed by the options: solver_rank's tests
        kernel = solo.search if _solo(state) else search.search
        value = rank.solve_loaded(state, W, ws, gen, kernel)
        budget.settle(ws)
        return value
    if _solo(state):
        if guess is None:
            remaining = solo_guess(state, W, ws)
        else:
            remaining = _remaining(state, side, guess)
        value = int(solo.mtdf(W, ws.tt, remaining))
    elif guess is None:
        value = guess_then_solve(W, ws, gen)
    else:
        remaining = _remaining(state, side, guess)
        value = int(search.mtdf(W, ws.tt, remaining))
    budget.settle(ws)
    return _absolute(state, side, value)


def guess_then_solve(W: np.ndarray, ws: _Workspace, gen: int) -> int:
    """The exact value of the position loaded in ``W`` (table generation ``gen``),
    by MTD(f) from :func:`first_guess`."""
    return int(search.mtdf(W, ws.tt, first_guess(W, ws, gen)))


def first_guess(W: np.ndarray, ws: _Workspace, gen: int) -> int:
    """A first guess for MTD(f): the value of the position in ``W`` with only the
    next ``GUESS_TRICKS`` tricks searched and the rest estimated (in a table
    generation of its own, so the estimates never meet exact entries; ``W`` is left
    at generation ``gen``). A close guess lets mtdf gallop instead of bisect."""
    W[core.GEN] = ws.next_gen()
    W[core.HORIZON] = 4 * GUESS_TRICKS
    guess = int(search.mtdf(W, ws.tt, int(W[core.REM_PTS]) // 2))
    W[core.HORIZON] = 0
    W[core.GEN] = gen
    return guess


SOLO_GUESS_TRICKS = 3   # depth of the individual-play guess search


def solo_guess(state: Any, W: np.ndarray, ws: _Workspace) -> int:
    """The first MTD(f) guess in individual play: a search of the next
    ``SOLO_GUESS_TRICKS`` tricks with the rest shared evenly
    (:func:`goat.fast.solver_solo.first_guess`)."""
    return int(solo.first_guess(W, ws.tt, ws.next_gen(), SOLO_GUESS_TRICKS * state.rules.players))


def evaluate_moves(state: Any, side: int | None = None,
                   max_nodes: int | None = None) -> dict[Action, int]:
    """The exact value after each legal action of the seat to act (every card,
    equivalent ones included; or each ``give`` of a forced exchange), for
    ``side`` — by default the team of the seat to act (in individual play: that
    seat, every other seat minimising).

    ``max_nodes``: stop after that many search nodes in all (the guess search
    and every action), raising :class:`SolverBudgetExceeded`: no values at all,
    rather than some."""
    _check(state, side)
    budget = _Budget(max_nodes)
    if side is None:
        side = state.team_of(state.current_player())
    ws = _workspace()
    try:
        return _values_by_action(state, side, ws, ws.next_gen(), budget)
    finally:
        ws.nodes = budget.used


def _values_by_action(state: Any, side: int, ws: _Workspace, gen: int,
                      budget: _Budget) -> dict[Action, int]:
    actions = state.legal_actions()
    if (state.phase == FORCED_RETURN or any(a.verb == "give" for a in actions)
            or not rank.fixed(state)):   # (the kernels' root_values take the fixed catch places)
        out: dict[Action, int] = {}
        for a in actions:
            child = state.clone()
            before = len(child.deal_results)
            child.apply_action(a)
            over = _deal_over_value(child, side, before)
            out[a] = over if over is not None else _solve(child, side, ws, gen, budget)
        return out
    W, code = _encode(state, side, ws, gen)
    budget.load(ws)
    cards = np.array([code.index[a.cards[0]] for a in actions], dtype=np.int64)
    values = np.zeros(len(actions), dtype=np.int64)
    if _solo(state):
        solo.root_values(W, ws.tt, cards, values, solo_guess(state, W, ws))
    else:
        search.root_values(W, ws.tt, cards, values, first_guess(W, ws, gen))
    budget.settle(ws)
    return {a: _absolute(state, side, int(v)) for a, v in zip(actions, values)}


_WARM = False


def warm_up() -> None:
    """Compile (or load from numba's cache) every kernel :func:`solve` and
    :func:`evaluate_moves` use, on a small classic position and a 3-player
    full-hand one (the individual-play kernel): about half a minute on
    a fresh install, well under a second afterwards. Call it before a game whose
    first solver decision should not wait for the compiler (once a process)."""
    global _WARM
    if _WARM:
        return
    _WARM = True
    import random

    from goat.games.kozel import new_state

    state = new_state("classic", single_deal=True)
    state.apply_chance(state.sample_chance(random.Random(0)))
    while state.phase != PLAY and not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance(state.sample_chance(random.Random(0)))
        else:
            state.apply_action(state.legal_actions()[0])
    if state.phase == PLAY:
        evaluate_moves(state)  # compiles what solve() uses too (search, mtdf) and root_values
    solo_state = new_state("full-hand", players=3, single_deal=True)  # the individual-play kernel
    solo_state.apply_chance(solo_state.sample_chance(random.Random(0)))
    for _ in range(12):   # four tricks in: a small solve
        if solo_state.phase != PLAY:
            return
        solo_state.apply_action(solo_state.legal_actions()[0])
    if solo_state.phase == PLAY:
        evaluate_moves(solo_state)


def best_actions(values: dict[Action, int], maximize: bool = True, state: Any = None) -> list[Action]:
    """The actions with the best value (for the side the values are for); with
    ``state`` (the position the values are of) ranked as its deal's results rank
    them (:func:`rank_of`: a catch may be worth less than a won deal), else as
    the numbers they are."""
    def key(v: int) -> int:
        return v if state is None else rank_of(state, v)
    target = max(map(key, values.values())) if maximize else min(map(key, values.values()))
    return [a for a, v in values.items() if key(v) == target]


def rank_of(state: Any, value: int) -> int:
    """A number ordering the values of ``state`` (:func:`solve`, :func:`evaluate_moves`,
    either side's) as the deal's results under its table's options do, ties broken
    by card points: the points apart (four steps a point), a shamok catch placed
    among them (:func:`goat.fast.solver_rank.rank_of`). Compare values by it, not
    as numbers: ``+CATCH`` ranks below 61 points under ``shamok_penalty=1``."""
    return rank.rank_of(state, value)


def catch_note(state: Any) -> str | None:
    """What a shamok catch is worth in ``state``'s deal, in words (``goat analyze``'s
    note): the penalty its table's ``shamok_penalty`` gives, and where :func:`rank_of`
    places it among the point totals — above every total only under penalties like
    the defaults' (``shamok_penalty=1``: between 60 and 61). ``None`` where the rules
    have no catch."""
    rules = state.rules
    if not (rules.shamok_catches_queen and rules.has_shamok):
        return None
    x_for, x_against = rank.catch_places(state)
    total = rank.total_points(state)
    penalty = rules.shamok_penalty
    for_words = ("better than any point result" if x_for >= total
                 else f"better than {x_for} points, worse than {x_for + 1}")
    against_words = ("worse" if x_against < 0
                     else f"better than {x_against} points, worse than {x_against + 1}")
    return (f"the shamok 7C catches QC: the deal ends at once, points are not counted and QC's "
            f"team takes {penalty} penalty point{'' if penalty == 1 else 's'} — for the catching "
            f"team {for_words}, for the other {against_words} ('caught')")



def __getattr__(name: str) -> Any:
    """``solve_outcome`` and ``DealOutcome`` (the deal's outcome class by
    null-window tests of these kernels) and ``outcome_of`` (the class a value
    stands for) live in :mod:`goat.fast.solver_outcome`, which builds on this
    module's encoding and workspace: handed out from here on first use, as they
    were defined here, without an import cycle."""
    if name in ("solve_outcome", "DealOutcome", "outcome_of"):
        from goat.fast import solver_outcome
        return getattr(solver_outcome, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
