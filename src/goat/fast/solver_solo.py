"""The double-dummy kernel for *individual* single-card Kozel: ``full-hand`` with 2
or 3 players (see :mod:`goat.fast.solver`, which dispatches here by player count).

Why a kernel of its own: the 4-player search (:mod:`goat.fast.solver_search`) is
specialised for two partnerships — seats ``& 3``, the partner two seats on,
four-card tricks, the forced exchange, rank-pattern table entries and a direct
three-trick ending built on all that. Individual play has none of it: 2 or 3
seats, tricks of 2 or 3 cards, every seat for itself (the trump-lead rule per
player, no exchange). Sharing the work-array layout and the rules helpers of
:mod:`goat.fast.solver_core` that do not assume partners (card tables, class
masks, equivalent cards, the window arithmetic across a finished trick, the
transposition-table format) keeps the two kernels' conventions the same while
the 4-player one stays untouched.

**The game searched.** The value is the card points the ``side`` *seat* takes of
the cards not yet in a finished trick, or a decisive value on the scale of the
4-player solver: ``±CATCH`` when the shamok ``7C`` catches the queen of clubs
(``-CATCH`` if ``side`` played the queen, which takes the penalty; ``+CATCH``
otherwise), ``±ROYAL`` when a hand holds the four aces after a draw (the
engine's royal-goat check "after any draw"; ``+`` if it is ``side``'s). The
``side`` seat maximises and **every other seat minimises**. With 2 players that
is the exact zero-sum game. With 3 it is the *paranoid* reading — the two other
players as one coalition against ``side`` — the usual choice for search in
multi-player games (Sturtevant & Korf 2000): the value is what ``side`` can
guarantee whatever the others do, a lower bound of what it takes against
players who each play for themselves.

**The search**: fail-soft alpha-beta over single card plays under an MTD(f)
driver (null windows, galloping then bisecting, as :func:`goat.fast.solver_search.mtdf`),
starting from a three-trick search with the rest shared evenly (:func:`first_guess`);
a transposition table at trick starts keyed on the hands (canonical once the
stock is empty: :func:`goat.fast.solver_search.canonical`), the stock position,
the leader and the trump-lead state, storing bounds on the value of the
remaining tricks, in two-entry buckets (:func:`tt_pick`), and also under the
hands' rank pattern (:func:`quasi_solo_key`, the 4-player kernel's rank-pattern
entries: once the stock is empty, and with 2 players from the third trick where
no royal goat is possible); free bounds from the
points the top trumps surely take (:func:`sure_points`) and, with 2 players and
the stock empty, from the leader's sure winners (:func:`lead_sure_points`), each
used when no decisive end beyond it is possible (:func:`decisive_sides`: the
queen's holder can only lose a catch); the last two and three tricks of a 2-player
deal enumerated without search (:func:`ending2`, :func:`ending3`); move ordering (the table's best
move; leads that no other seat can beat, then high cards, those the next seat
can beat last; follows "feed a trick
the coalition keeps, else win cheaply, else throw low"); equivalent-card pruning
(:func:`goat.fast.solver_core.distinct_cards`: equal points, adjacent in one suit
class with no other live card between; the shamok and the queen never merge).

Measured on two-player deals from the first lead (the same values each time):
canonical keys 565M -> 338M nodes (8 deals), "high first" leads without the
4-player kernel's history of cut-offs 74M -> 45M (6 deals), the buckets 45M ->
40M; on 12 deals the guess search saves passes (112 -> 98) but hardly nodes:
the proofs themselves are the cost (``benchmarks/README.md``, "Individual play").
Tenth session: one-sided sure-point bounds 102.0M -> 91.9M nodes, 973 -> 885 ms a
deal (12 two-player deals); leads the next seat can beat last (with 2 players that
is every lead but the sure winners, so only 3 change) 3.37M -> 3.08M nodes (40
three-player deals); on the bench's 40 two-player deals both 369.9M -> 335.0M
nodes, 0.86x the time. Round 3, 12 two-player deals (same values; CPU time,
min of alternated runs): the leader's sure points 91.9M -> 80.9M nodes (0.89x the
time), rank-pattern entries with the stock empty -> 29.5M (3 players, 40 deals:
3.08M -> 0.97M), with a stock -> 19.3M, table replacement by generation -> 18.6M
(time about the same), :func:`ending2` -> 18.3M (0.93x), :func:`ending3` -> 17.1M
(0.92x). On 40 such deals 243.4M -> 47.7M nodes, 766 -> 211 ms a deal (0.28x) before
:func:`ending3`, 44.6M with it; 3 players 6.3 -> 2.7 ms.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from goat.fast.solver_core import (
    ABORTED,
    ACES,
    CATCH,
    CATCH_AGAINST,
    CATCH_FOR,
    CLASS,
    CLASS_MASK,
    FIRST,
    FOLLOW_TRUMP,
    GEN,
    HAND_SIZE,
    HIST,
    HORIZON,
    INF,
    LEAD_RULE,
    LEADER,
    MAX_MOVES,
    MOVES,
    NODES,
    NONE,
    NTRICK,
    PASSES,
    POINTS,
    PREV_LT,
    PREV_OPEN,
    QUASI_ON,
    QUEEN,
    REM_PTS,
    ROYAL,
    ROYAL_ON,
    SAVE,
    SCORES,
    SHAMOK,
    SHAMOK_ON,
    SIDE,
    SLEN,
    SPOS,
    STOCK,
    STOCK_LIVE,
    STRENGTH,
    TRICK,
    TRUMP_CLASS,
    TRUMP_ON_PLAIN,
    TRUMPS,
    USE_CANONICAL,
    beats,
    child_alpha,
    child_beta,
    combine,
    distinct_cards,
    follow_score,
    highbit_index,
    ix,
    legal_in,
    lowbit_index,
    next_best,
    over_budget,
    popcount,
    tt_slot,
    KEY_POS,
    KEY_SCORE,
    SURE_LEAD,
)
from goat.fast.solver_search import (
    canonical,
    cheapest,
    Q_MAX_HELD,
    Q_MAX_STOCK,
    quasi_key,
    quasi_probe,
    quasi_store,
    to_canonical,
    tt_probe,
    tt_store,
)

#: W slot of the number of seats (2 or 3); a scratch slot the 4-player kernel leaves unused.
NPL = 92
#: The low bits of this kernel's third key word: where the 4-player keys
#: (:func:`goat.fast.solver_search.tt_key`, ``quasi_key``) hold a stock position,
#: one they never use (they use 0..32, 62 and 63), so the two kernels' entries
#: in the workspace's shared table never meet whatever the generations.
SOLO_MARK = 61 << 2
#: The stock-position field of this kernel's rank-pattern keys, with the stock
#: empty and with cards in it (the 4-player ones use 63 and 62 there): see
#: :func:`quasi_solo_key`.
SOLO_QUASI = 60
SOLO_QUASI_STOCK = 59


@njit(cache=True, inline="always")
def seat_at(W: np.ndarray, leader: int, i: int) -> int:
    """The seat that plays the ``i``-th card of a trick led by ``leader``."""
    s = leader + i
    n = W[NPL]
    return s - n if s >= n else s


@njit(cache=True, inline="always")
def restricted(W: np.ndarray, seat: int) -> bool:
    """May ``seat`` not lead a trump now? The engine's rule, per player."""
    rule = W[LEAD_RULE]
    if rule == 0:
        return False
    if W[FIRST] == 1:
        return True
    if rule == 1:
        return False
    if rule == 2:
        return W[PREV_OPEN] == seat
    return W[PREV_LT] == seat


@njit(cache=True, inline="always")
def replies_to(W: np.ndarray, hand: int, lead: int) -> int:
    """The cards of ``hand`` that may answer the card ``lead``: its class if
    the hand holds one (trumps only where trumps must be followed; on a plain
    lead the trumps too under ``TRUMP_ON_PLAIN``), else any card
    (:func:`goat.fast.solver_core.legal_in`; :func:`legal_cards` for a follow,
    the endings' replies)."""
    return legal_in(W, hand, W[ix(CLASS + lead)])


@njit(cache=True, inline="always")
def legal_cards(W: np.ndarray, seat: int) -> int:
    """The cards ``seat`` may play now (a mask). A restricted leader with only
    trumps leads any of them: no partner, so no forced exchange."""
    hand = W[seat]
    if W[NTRICK] == 0:
        if restricted(W, seat):
            plain = hand & ~W[TRUMPS]
            if plain:
                return plain
        return hand
    return replies_to(W, hand, W[TRICK])


@njit(cache=True, inline="always")
def live_others(W: np.ndarray, seat: int) -> int:
    """The live cards outside ``seat``'s hand: other hands, the stock still to
    draw, the cards on the table."""
    others = W[ix(STOCK_LIVE + W[SPOS])]
    for s in range(W[NPL]):
        if s != seat:
            others |= W[s]
    for i in range(W[NTRICK]):
        others |= 1 << W[TRICK + i]
    return others


@njit(cache=True, inline="always")
def gen_moves(W: np.ndarray, seat: int, base: int) -> int:
    """Write ``seat``'s distinct legal cards at ``W[base:]``; return their count."""
    legal = legal_cards(W, seat)
    if (legal & (legal - 1)) == 0:
        W[base] = lowbit_index(legal)
        return 1
    x = distinct_cards(W, legal, live_others(W, seat))
    n = 0
    while x:
        W[ix(base + n)] = lowbit_index(x)
        x &= x - 1
        n += 1
    return n


@njit(cache=True, inline="always")
def sure_lead(W: np.ndarray, seat: int, c: int) -> bool:
    """Does the lead ``c`` surely win the trick? No other seat holds a higher card
    of its class, nor a trump while void in a plain class (under ``TRUMP_ON_PLAIN``
    while holding it too). Ordering only."""
    lc = W[ix(CLASS + c)]
    cm = W[ix(CLASS_MASK + lc)]
    t = W[TRUMPS]
    free = W[TRUMP_ON_PLAIN] == 1
    for s in range(W[NPL]):
        if s == seat:
            continue
        h = W[s]
        f = h & cm
        if f and highbit_index(f) > c:
            return False
        if (f == 0 or free) and lc != TRUMP_CLASS and (h & t) != 0:
            return False
    return True


@njit(cache=True, inline="always")
def beaten_lead(W: np.ndarray, seat: int, c: int) -> bool:
    """Can a seat next to play beat the lead ``c`` whatever the others do: the
    next seat holds a higher card of its class, or is void in its plain suit
    (or not, under ``TRUMP_ON_PLAIN``) and holds a trump? Ordering only (such
    leads go last)."""
    lc = W[ix(CLASS + c)]
    cm = W[ix(CLASS_MASK + lc)]
    h = W[seat_at(W, seat, 1)]
    f = h & cm
    if f and highbit_index(f) > c:
        return True
    if f and W[TRUMP_ON_PLAIN] == 0:
        return False
    return lc != TRUMP_CLASS and (h & W[TRUMPS]) != 0


@njit(cache=True, inline="always")
def score_moves(W: np.ndarray, seat: int, base: int, sbase: int, n: int, first: int) -> None:
    """Key the ``n`` moves at ``W[base:]`` for :func:`goat.fast.solver_core.next_best`:
    the table's move first; leads high (sure winners first, plus the history of
    cut-offs); follows by :func:`goat.fast.solver_core.follow_score`, the "partner"
    being the coalition (``side`` alone, or the others)."""
    ntrick = W[NTRICK]
    leader = W[LEADER]
    best = -1
    best_seat = -1
    for i in range(ntrick):
        c = W[TRICK + i]
        if best < 0 or beats(W, c, best):
            best = c
            best_seat = seat_at(W, leader, i)
    last = ntrick == W[NPL] - 1
    me_side = seat == W[SIDE]
    ally_wins = ntrick > 0 and ((best_seat == W[SIDE]) == me_side)
    for i in range(n):
        c = W[ix(base + i)]
        pts = W[ix(POINTS + c)]
        strength = W[ix(STRENGTH + c)]
        if c == first:
            sc = 1 << 40
        elif ntrick == 0:
            # high first (measured on 2- and 3-player deals: a history of
            # cut-offs, as the 4-player kernel adds, or low first, or points
            # weighted all took more nodes; 2 players ~40% more with history)
            sc = strength
            if sure_lead(W, seat, c):
                sc += SURE_LEAD
            elif beaten_lead(W, seat, c):
                sc -= SURE_LEAD
        else:
            sc = follow_score(pts, strength, last, ally_wins,
                              not ally_wins and beats(W, c, best))
        W[ix(sbase + i)] = (sc << KEY_SCORE) | ((127 - i) << KEY_POS) | c


@njit(cache=True, inline="always")
def catch_value(W: np.ndarray, card: int, pos: int) -> int:
    """Decisive value if ``card`` (just put at table position ``pos``) completes
    a shamok catch (always between two players in individual play), else 0."""
    if W[SHAMOK_ON] == 0:
        return 0
    sh, qc = W[SHAMOK], W[QUEEN]
    if card != sh and card != qc:
        return 0
    other = qc if card == sh else sh
    leader = W[LEADER]
    for i in range(pos):
        if W[TRICK + i] == other:
            queen_seat = seat_at(W, leader, pos) if card == qc else seat_at(W, leader, i)
            return W[CATCH_AGAINST] if queen_seat == W[SIDE] else W[CATCH_FOR]
    return 0


@njit(cache=True, inline="always")
def decisive_catch(W: np.ndarray, stock: int) -> bool:
    """At a trick start: can the rest end with a shamok catch?"""
    sh = 1 << W[SHAMOK]
    qc = 1 << W[QUEEN]
    if (stock & (sh | qc)) != 0:
        live = stock
        for s in range(W[NPL]):
            live |= W[s]
        return (live & (sh | qc)) == (sh | qc)
    for s in range(W[NPL]):
        h = W[s] & (sh | qc)
        if h == (sh | qc):   # one hand holds both: they never meet in a trick
            return False
        if h:
            for t in range(s + 1, W[NPL]):
                if W[t] & (sh | qc):
                    return True
            return False
    return False


@njit(cache=True, inline="always")
def decisive_sides(W: np.ndarray) -> tuple:
    """At a trick start: can the rest end with a decisive value *below* 0 (``side``
    caught or another seat's royal goat), and can it end with one *above*
    ``REM_PTS``? Each says which free bound may not be used: with the queen of
    clubs in ``side``'s hand a catch can only cost ``side``, so the upper bound
    still holds (with it in another hand, the lower one). A royal goat is
    possible for a seat only while no other seat holds an ace."""
    minus = False
    plus = False
    stock = W[ix(STOCK_LIVE + W[SPOS])]
    n = W[NPL]
    me = W[SIDE]
    if W[ROYAL_ON] == 1 and stock != 0:
        held = stock
        for s in range(n):
            held |= W[s]
        aces = W[ACES]
        if (held & aces) == aces:
            others = 0
            for s in range(n):
                if s != me:
                    others |= W[s]
            if (others & aces) == 0:
                plus = True
            if (W[me] & aces) == 0:
                minus = True
    if W[SHAMOK_ON] == 1 and decisive_catch(W, stock):
        qc = 1 << W[QUEEN]
        if (stock & qc) != 0:
            return True, True
        # the catch's value by who holds the queen (its sign: see solver_core.CATCH_FOR)
        v = W[CATCH_AGAINST] if (W[me] & qc) != 0 else W[CATCH_FOR]
        if v < 0:
            minus = True
        else:
            plus = True
    return minus, plus


@njit(cache=True, inline="always")
def sure_points(W: np.ndarray) -> tuple:
    """Bounds ``(low, high)`` on ``side``'s points from here (a trick start), as
    :func:`goat.fast.solver_search.sure_points` without partners: the highest live
    trumps held by one seat (the *top run*: nothing live elsewhere, stock included,
    beats them) each win the trick they are played to, so their points go to that
    seat, and once the stock is empty so do the cheapest cards each other seat can
    add to those tricks. Only valid where no decisive end comes first: the caller
    uses ``low`` only if nothing below 0 is possible, ``high`` only if nothing above
    (:func:`decisive_sides`)."""
    rem = W[REM_PTS]
    n = W[NPL]
    stock = W[ix(STOCK_LIVE + W[SPOS])]
    live = stock
    for s in range(n):
        live |= W[s]
    x = live & W[TRUMPS]
    if x == 0:
        return 0, rem
    top = highbit_index(x)
    p = -1
    for s in range(n):
        if (W[s] >> top) & 1:
            p = s
    if p < 0:  # the top trump is still in the stock
        return 0, rem
    rest = x & ~W[p]
    runmask = x if rest == 0 else x & ~((2 << highbit_index(rest)) - 1)
    run = 0
    r = runmask
    while r:
        run += W[ix(POINTS + lowbit_index(r))]
        r &= r - 1
    if stock == 0:
        t = popcount(runmask)
        for s in range(n):
            if s != p:
                run += cheapest(W, W[s], t, False)
    if p == W[SIDE]:
        return run, rem
    return 0, rem - run


@njit(cache=True, inline="always")
def most(W: np.ndarray, cards: int, k: int) -> int:
    """The most points ``k`` cards of ``cards`` can carry (all of them if fewer)."""
    n = popcount(cards)
    total = 0
    x = cards
    while x:
        total += W[ix(POINTS + lowbit_index(x))]
        x &= x - 1
    return total if k >= n else total - cheapest(W, cards, n - k, False)


@njit(cache=True, inline="always")
def lead_sure_points(W: np.ndarray) -> int:
    """Points the leader surely takes from here: 2 players, the stock empty, a trick
    start. In each class the leader's cards above all of the other's win while the
    other must follow (as many tricks as it holds cards of the class; every one if
    it holds no trump, so can never trump them; none of a plain class if it holds a
    trump under ``TRUMP_ON_PLAIN``, when it may trump at once); a trump above all
    of the other's wins whenever led. Leading those winners, plain classes first (the other
    follows suit, so its other classes and trumps stay as they were), then trumps,
    keeps the lead throughout, so their points, the cheapest cards the other must
    follow with and the cheapest of the rest it throws on the others are the
    leader's. Trumps count only if the leader may lead them all in a row (a
    lead rule that bars a seat after its own lead counts none). Only valid where
    no decisive end comes first (the caller's :func:`decisive_sides`)."""
    me = W[LEADER]
    hl = W[me]
    ho = W[1 - me]
    o_trumps = ho & W[TRUMPS]
    ruffs_any = o_trumps != 0 and W[TRUMP_ON_PLAIN] == 1   # it may trump every plain lead
    trumps_ok = W[LEAD_RULE] != 3 and not restricted(W, me)
    pts = 0
    wins = 0
    forced = 0
    pool = ho  # what the other may throw on the tricks it need not follow
    for c in range(TRUMP_CLASS + 1):
        cm = W[ix(CLASS_MASK + c)]
        lc = hl & cm
        if lc == 0 or (c == TRUMP_CLASS and not trumps_ok) or (c != TRUMP_CLASS and ruffs_any):
            continue
        oc = ho & cm
        if oc:
            above = lc & ~((2 << highbit_index(oc)) - 1)
            if above == 0:
                continue
            w = popcount(above)
            k = popcount(oc)
            if c != TRUMP_CLASS and o_trumps != 0 and w > k:
                w = k
            if c != TRUMP_CLASS or W[FOLLOW_TRUMP] == 1:
                # it follows with the class's cheapest cards; a class it must
                # give up whole leaves the pool (one partly used stays in it:
                # a bigger pool only lowers the bound)
                f = min(w, k)
                pts += cheapest(W, oc, f, False)
                forced += f
                if f == k:
                    pool &= ~cm
        elif c != TRUMP_CLASS and o_trumps != 0:
            continue
        else:
            above = lc
            w = popcount(above)
        pts += most(W, above, w)
        wins += w
    return pts + cheapest(W, pool, wins - forced, False)


@njit(cache=True, inline="always")
def duel(W: np.ndarray, leader: int, a: int, b: int) -> tuple:
    """A two-card trick ``a`` (led by ``leader``) then ``b``: ``(decisive, winner,
    points)``, ``decisive`` the catch value if the shamok and the queen of clubs
    meet in it (else 0)."""
    other = 1 - leader
    if W[SHAMOK_ON] == 1:
        sh, qc = W[SHAMOK], W[QUEEN]
        if (a == sh and b == qc) or (a == qc and b == sh):
            queen_seat = leader if a == qc else other
            return (W[CATCH_AGAINST] if queen_seat == W[SIDE] else W[CATCH_FOR]), leader, 0
    winner = other if beats(W, b, a) else leader
    return 0, winner, W[ix(POINTS + a)] + W[ix(POINTS + b)]


@njit(cache=True, inline="always")
def ending2(W: np.ndarray) -> int:
    """The exact value of a 2-player trick start with two cards a hand and the
    stock empty, by enumerating the first trick's plays (the last trick is then
    forced): no node, no table entry. The lead rule applies to the first lead
    (:func:`legal_cards`); the last lead is a single card, always legal."""
    leader = W[LEADER]
    other = 1 - leader
    side = W[SIDE]
    lead_max = leader == side
    lh = W[leader]
    oh = W[other]
    leads = legal_cards(W, leader)
    best = -INF if lead_max else INF
    while leads:
        a = lowbit_index(leads)
        leads &= leads - 1
        replies = replies_to(W, oh, a)
        reply = INF if lead_max else -INF
        while replies:
            b = lowbit_index(replies)
            replies &= replies - 1
            v, w, pts = duel(W, leader, a, b)
            if v == 0:
                x = lh & ~(1 << a)
                y = oh & ~(1 << b)
                first = x if w == leader else y
                second = y if w == leader else x
                v2, w2, pts2 = duel(W, w, lowbit_index(first), lowbit_index(second))
                if v2 != 0:
                    v = v2
                else:
                    v = (pts if w == side else 0) + (pts2 if w2 == side else 0)
            if lead_max:
                reply = min(reply, v)
            else:
                reply = max(reply, v)
        if lead_max:
            best = max(best, reply)
        else:
            best = min(best, reply)
    return best


@njit(cache=True, inline="always")
def ending3(W: np.ndarray) -> int:
    """The exact value of a 2-player trick start with three cards a hand and the
    stock empty: every first trick enumerated, the rest by :func:`ending2` (the
    hands, leader, previous leader and first-trick flag set for it and restored)."""
    leader = W[LEADER]
    other = 1 - leader
    side = W[SIDE]
    lead_max = leader == side
    lh = W[leader]
    oh = W[other]
    prev_lt = W[PREV_LT]
    first = W[FIRST]
    leads = legal_cards(W, leader)
    best = -INF if lead_max else INF
    while leads:
        a = lowbit_index(leads)
        leads &= leads - 1
        replies = replies_to(W, oh, a)
        reply = INF if lead_max else -INF
        while replies:
            b = lowbit_index(replies)
            replies &= replies - 1
            v, w, pts = duel(W, leader, a, b)
            if v == 0:
                W[leader] = lh & ~(1 << a)
                W[other] = oh & ~(1 << b)
                W[LEADER] = w
                W[PREV_LT] = leader
                W[FIRST] = 0
                v = ending2(W)
                W[leader] = lh
                W[other] = oh
                W[LEADER] = leader
                W[PREV_LT] = prev_lt
                W[FIRST] = first
                if v > -CATCH and v < CATCH and w == side:
                    v += pts
            if lead_max:
                reply = min(reply, v)
            else:
                reply = max(reply, v)
        if lead_max:
            best = max(best, reply)
        else:
            best = min(best, reply)
    return best


@njit(cache=True, inline="always")
def close_trick(W: np.ndarray, depth: int) -> tuple:
    """Finish the complete trick on the table: score it, draw (the winner first,
    one card at a time, up to the hand size, as :func:`goat.games.tricks.draw_to`),
    check the royal goat if anything was drawn, make the winner the leader (the
    undo information goes to ``depth``'s save slot). Returns ``(decisive, mine,
    pts)``."""
    n = W[NPL]
    leader = W[LEADER]
    best = W[TRICK]
    win = 0
    pts = W[ix(POINTS + best)]
    for i in range(1, n):
        c = W[TRICK + i]
        pts += W[ix(POINTS + c)]
        if beats(W, c, best):
            best = c
            win = i
    winner = seat_at(W, leader, win)
    mine = pts if winner == W[SIDE] else 0
    b = SAVE + depth * 12
    W[b], W[b + 1], W[b + 2] = W[0], W[1], W[2]
    W[b + 3], W[b + 4], W[b + 5], W[b + 6] = W[SPOS], W[LEADER], W[FIRST], W[PREV_LT]
    W[b + 7], W[b + 8], W[b + 9] = W[TRICK], W[TRICK + 1], W[TRICK + 2]
    pos = W[SPOS]
    slen = W[SLEN]
    hs = W[HAND_SIZE]
    while pos < slen:
        progressed = False
        for i in range(n):
            if pos >= slen:
                break
            s = seat_at(W, winner, i)
            if popcount(W[s]) < hs:
                W[s] |= 1 << W[STOCK + pos]
                pos += 1
                progressed = True
        if not progressed:
            break
    v = 0
    if pos != W[SPOS] and W[ROYAL_ON] == 1:
        for s in range(n):
            if (W[s] & W[ACES]) == W[ACES]:
                v = ROYAL if s == W[SIDE] else -ROYAL
                break
    W[SPOS] = pos
    W[NTRICK] = 0
    W[PREV_LT] = leader
    W[LEADER] = winner
    W[FIRST] = 0
    W[REM_PTS] -= pts
    return v, mine, pts


@njit(cache=True, inline="always")
def reopen_trick(W: np.ndarray, depth: int, pts: int) -> None:
    """Undo :func:`close_trick` (the trick's cards are back on the table)."""
    b = SAVE + depth * 12
    W[0], W[1], W[2] = W[b], W[b + 1], W[b + 2]
    W[SPOS], W[LEADER], W[FIRST], W[PREV_LT] = W[b + 3], W[b + 4], W[b + 5], W[b + 6]
    W[TRICK], W[TRICK + 1], W[TRICK + 2] = W[b + 7], W[b + 8], W[b + 9]
    W[REM_PTS] += pts
    W[NTRICK] = W[NPL]


@njit(cache=True, inline="always")
def entry_work(TT: np.ndarray, slot: int, slen: int) -> int:
    """How much is left to play at the position of the entry at ``slot`` (cards
    in hands, less the stock position; for a rank-pattern entry, its live cards
    less the stock length, the same measure): the bigger, the more it saves."""
    mark = (TT[slot + 2] >> 2) & 63
    if mark == SOLO_QUASI or mark == SOLO_QUASI_STOCK:
        return popcount((TT[slot + 3] >> 32) & 0xFFFFFFFF) - slen
    k2 = TT[slot + 1]
    return popcount(TT[slot]) + popcount(k2 & 0xFFFFFFFF) - ((k2 >> 32) & 63)


@njit(cache=True, inline="always")
def tt_pick(TT: np.ndarray, slot: int, k1: int, k2: int, k3: int, slen: int) -> int:
    """The slot of a two-entry bucket (``slot`` and its neighbour in the same
    cache line) for the key: the one holding it, else the one to replace — one
    of an older solve, else the one with less left to play (:func:`entry_work`)."""
    other = slot ^ 4
    if TT[slot] == k1 and TT[slot + 1] == k2 and TT[slot + 2] == k3:
        return slot
    if TT[other] == k1 and TT[other + 1] == k2 and TT[other + 2] == k3:
        return other
    if (TT[slot + 2] >> 12) != (k3 >> 12):
        return slot
    if (TT[other + 2] >> 12) != (k3 >> 12):
        return other
    if entry_work(TT, other, slen) < entry_work(TT, slot, slen):
        return other
    return slot


@njit(cache=True, inline="always")
def tt_key(W: np.ndarray, canon: bool) -> tuple:
    """The table key of the trick start in ``W``: two hands, then the third hand,
    stock position, leader and trump-lead state; the generation (with
    :data:`SOLO_MARK`, so no 4-player entry of the shared table ever matches). With
    ``canon`` (the stock empty) the hands are canonical
    (:func:`goat.fast.solver_search.canonical`: who holds the i-th live card of
    each point group, not which card it is; ``W[3]`` is always empty here)."""
    prev_lt = W[PREV_LT] + 1 if W[LEAD_RULE] == 3 else 0
    if canon:
        k1, k2 = canonical(W)
    else:
        k1 = W[0] | (W[1] << 32)
        k2 = W[2]
    k2 |= (W[SPOS] << 32) | (W[LEADER] << 38) | (W[FIRST] << 40) | (prev_lt << 41)
    return k1, k2, SOLO_MARK | (W[GEN] << 12)


@njit(cache=True, inline="always")
def royal_possible(W: np.ndarray, stock: int) -> bool:
    """At a trick start: can a royal goat still happen (a draw to come, the four
    aces all live and no two seats holding one)?"""
    if W[ROYAL_ON] == 0 or stock == 0:
        return False
    aces = W[ACES]
    held = stock
    seats = 0
    for s in range(W[NPL]):
        held |= W[s]
        if W[s] & aces:
            seats += 1
    return (held & aces) == aces and seats <= 1


@njit(cache=True, inline="always")
def quasi_stock_fits(W: np.ndarray) -> bool:
    """May a trick start with cards in the stock use the rank-pattern entries? No
    royal goat possible, and the stock and hands small enough for the key (2
    players from the third trick: 12 stock cards, 16 in hand)."""
    stock = W[ix(STOCK_LIVE + W[SPOS])]
    if popcount(stock) > Q_MAX_STOCK or popcount(W[0] | W[1] | W[2]) > Q_MAX_HELD:
        return False
    return not royal_possible(W, stock)


@njit(cache=True, inline="always")
def quasi_solo_key(W: np.ndarray, catch: bool) -> tuple:
    """The rank-pattern key of a trick start: that of
    :func:`goat.fast.solver_search.quasi_key` (two bits a hand card for its
    holder: 2 or 3 seats fit; with cards in the stock
    :func:`goat.fast.solver_search.quasi_stock_key`, a stock card's "holder" its
    place in the stock), marked with :data:`SOLO_QUASI` or
    :data:`SOLO_QUASI_STOCK` so that no other key of the shared table matches.
    ``catch``: a shamok catch is possible. Only where no royal goat is
    (:func:`royal_possible`): that depends on the cards, not their ranks."""
    q1, q2, q3 = quasi_key(W, catch)
    mark = SOLO_QUASI if W[SPOS] >= W[SLEN] else SOLO_QUASI_STOCK
    return q1, q2, (q3 & ~(63 << 2)) | (mark << 2)


SEARCH_SIG = types.int64(types.int64[::1], types.int64[::1], types.int64, types.int64, types.int64)


@njit(SEARCH_SIG, cache=True, _nrt=False, nogil=True)
def search(W, TT, depth, alpha, beta):  # type: ignore[no-untyped-def]
    """Fail-soft alpha-beta: the value of the position in ``W`` (module doc)."""
    W[NODES] += 1
    if over_budget(W):  # the node budget ran out: unwind (see goat.fast.solver_core.ABORTED)
        W[ABORTED] = 1
        return 0
    n = W[NPL]
    ntrick = W[NTRICK]
    if ntrick == n:  # a root position after the trick's last card
        v, mine, pts = close_trick(W, depth)
        if v == 0:
            v = combine(search(W, TT, depth, child_alpha(alpha, mine), child_beta(beta, mine)), mine)
        reopen_trick(W, depth, pts)
        return v
    slot = qslot = -1
    tt_move = -1
    k1 = k2 = k3 = q1 = q2 = q3 = 0
    canon = False
    if ntrick == 0:
        held = 0
        for s in range(n):
            held |= W[s]
        if held == 0 and W[SPOS] >= W[SLEN]:
            return 0
        if W[HORIZON] > 0 and depth >= W[HORIZON]:
            # the guess search's horizon: an even share of the rest (never stored as exact)
            return W[REM_PTS] // n
        if n == 2 and popcount(held) == 4 and W[SPOS] >= W[SLEN]:
            return ending2(W)
        minus, plus = decisive_sides(W)
        if not (minus and plus):
            low, high = sure_points(W)
            if n == 2 and W[SPOS] >= W[SLEN]:
                lead = lead_sure_points(W)
                if W[LEADER] == W[SIDE]:
                    low = max(low, lead)
                else:
                    high = min(high, W[REM_PTS] - lead)
            if not plus and high <= alpha:
                return high
            if not minus and low >= beta:
                return low
        canon = USE_CANONICAL and W[SPOS] >= W[SLEN]
        k1, k2, k3 = tt_key(W, canon)
        slot = tt_pick(TT, tt_slot(k1, k2, k3, (TT.shape[0] >> 2) - 1), k1, k2, k3, W[SLEN])
        v, alpha, beta, tt_move = tt_probe(W, TT, slot, k1, k2, k3, alpha, beta, canon)
        if v != NONE:
            return v
        if W[QUASI_ON] == 1 and W[HORIZON] == 0 and (canon or quasi_stock_fits(W)):
            # rank-pattern entries (where no royal goat is possible, a catch is
            # possible exactly when a decisive end is)
            catch = minus or plus
            q1, q2, q3 = quasi_solo_key(W, catch)
            qslot = tt_pick(TT, tt_slot(q1, q2, q3, (TT.shape[0] >> 2) - 1), q1, q2, q3, W[SLEN])
            v, alpha, beta, q_move = quasi_probe(W, TT, qslot, q1, q2, q3, alpha, beta, catch)
            if v != NONE:
                return v
            if tt_move < 0:
                tt_move = q_move
        if n == 2 and popcount(held) == 6 and canon:
            v = ending3(W)
            tt_store(TT, slot, k1, k2, k3, v, -INF, INF, -1)
            if qslot >= 0:
                quasi_store(W, TT, qslot, q1, q2, q3, v, -INF, INF, -1)
            return v
    seat = seat_at(W, W[LEADER], ntrick)
    maximizing = seat == W[SIDE]
    alpha0, beta0 = alpha, beta
    base = MOVES + depth * MAX_MOVES
    nm = gen_moves(W, seat, base)
    sbase = SCORES + depth * MAX_MOVES
    if nm > 1:
        score_moves(W, seat, base, sbase, nm, tt_move)
    best = -INF if maximizing else INF
    best_move = W[ix(base)]
    hand_before = W[seat]
    for i in range(nm):
        c = next_best(W, sbase, nm) if nm > 1 else W[ix(base)]
        W[seat] = hand_before & ~(1 << c)
        W[ix(TRICK + ntrick)] = c
        v = catch_value(W, c, ntrick)
        if v == 0 and ntrick == n - 1:  # the trick is complete: score it, draw, go on
            v, mine, pts = close_trick(W, depth + 1)
            if v == 0:
                v = combine(search(W, TT, depth + 1, child_alpha(alpha, mine),
                                   child_beta(beta, mine)), mine)
            reopen_trick(W, depth + 1, pts)
            W[NTRICK] = ntrick
        elif v == 0:
            W[NTRICK] = ntrick + 1
            v = search(W, TT, depth + 1, alpha, beta)
            W[NTRICK] = ntrick
        W[seat] = hand_before
        if W[ABORTED] != 0:  # the child's value is unfinished
            break
        if maximizing:
            if v > best:
                best = v
                best_move = c
                alpha = max(alpha, best)
        else:
            if v < best:
                best = v
                best_move = c
                beta = min(beta, best)
        if alpha >= beta:
            if ntrick == 0:  # history of cut-off leads, weighted by the subtree's size
                W[ix(HIST + seat * 32 + c)] += popcount(hand_before) ** 2
            break
    if slot >= 0 and W[ABORTED] == 0:   # an aborted subtree's bound is wrong: never stored
        if qslot >= 0:
            quasi_store(W, TT, qslot, q1, q2, q3, best, alpha0, beta0, best_move)
        if canon:
            best_move = to_canonical(W, best_move)
        tt_store(TT, slot, k1, k2, k3, best, alpha0, beta0, best_move)
    return best


@njit(cache=True, nogil=True)
def mtdf(W: np.ndarray, TT: np.ndarray, guess: int) -> int:
    """The exact value by null-window searches from ``guess`` (galloping, then
    bisecting; the driver of :func:`goat.fast.solver_search.mtdf`). A copy of it
    calling this kernel's :func:`search`, not one driver made by a factory for
    both: numba cannot keep such a closure in its on-disk cache (tried: it is
    compiled again at every start, and the kernels take tens of seconds)."""
    lower, upper = -INF, INF
    b = guess
    step = 1
    while lower < upper and W[ABORTED] == 0:   # (aborted: the caller raises)
        W[PASSES] += 1
        g = search(W, TT, 0, b - 1, b)
        if g < b:
            upper = g
        else:
            lower = g
        lo = max(lower, -ROYAL - 1)
        hi = min(upper, ROYAL + 1)
        b = (lo + hi + 1) // 2
        if upper >= INF:
            b = min(lower + step, b)
            step *= 2
        elif lower <= -INF:
            b = max(upper - step + 1, b)
            step *= 2
    return lower


@njit(cache=True, nogil=True)
def root_values(W: np.ndarray, TT: np.ndarray, cards: np.ndarray, out: np.ndarray,
                guess: int) -> None:
    """Exact value after each card of ``cards`` played by the seat to act (each
    searched, equivalent ones too), guessing the previous card's value."""
    ntrick = W[NTRICK]
    seat = seat_at(W, W[LEADER], ntrick)
    hand_before = W[seat]
    for i in range(cards.shape[0]):
        c = cards[i]
        W[seat] = hand_before & ~(1 << c)
        W[TRICK + ntrick] = c
        v = catch_value(W, c, ntrick)
        if v == 0:
            W[NTRICK] = ntrick + 1
            v = mtdf(W, TT, guess)
            W[NTRICK] = ntrick
            if -CATCH < v < CATCH:
                guess = v
        W[seat] = hand_before
        if W[ABORTED] != 0:   # the budget ran out: the rest of ``out`` is not set
            break
        out[i] = v


@njit(cache=True, nogil=True)
def first_guess(W: np.ndarray, TT: np.ndarray, gen: int, plies: int) -> int:
    """A first guess for :func:`mtdf`: the value with only the next ``plies``
    card plays searched and the rest shared evenly (in table generation ``gen``,
    its own, so the estimates never meet exact entries; ``W[GEN]`` is restored)."""
    exact = W[GEN]
    W[GEN] = gen
    W[HORIZON] = plies
    guess = mtdf(W, TT, W[REM_PTS] // W[NPL])
    W[HORIZON] = 0
    W[GEN] = exact
    return guess
