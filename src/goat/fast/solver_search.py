"""The search of the double-dummy solver: alpha-beta over card plays, the
transposition table, the direct evaluation of the last two tricks, and the
drivers (:func:`mtdf`, :func:`root_values`). The state layout and the rules
helpers live in :mod:`goat.fast.solver_core`; see :mod:`goat.fast.solver` for
the value scale.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from goat.fast.solver_core import (
    BOUND_BIAS,
    CATCH,
    CLASS,
    CLASS_MASK,
    FIRST,
    FOLLOW_TRUMP,
    FORCED_EX,
    GEN,
    GROUP_MASK,
    GROUP_OF,
    HANDS,
    HIST,
    HORIZON,
    INF,
    LEAD_RULE,
    LEADER,
    LEVEL_MASK,
    LEVEL_PTS,
    MAX_MOVES,
    MOVES,
    MUST_LEAD,
    NGROUPS,
    NLEVELS,
    NODES,
    NONE,
    NTRICK,
    PASSES,
    POINTS,
    PREV_LT,
    PREV_OPEN,
    REM_PTS,
    ROYAL,
    SCORES,
    SIDE,
    SINGLES,
    SLEN,
    SPOS,
    STOCK_LIVE,
    TRICK,
    TRUMP_CLASS,
    TRUMPS,
    USE_CANONICAL,
    catch_value,
    child_alpha,
    child_beta,
    close_trick,
    combine,
    decisive_possible,
    gen_moves,
    highbit_index,
    lead_restricted,
    lowbit_index,
    next_best,
    popcount,
    reopen_trick,
    score_moves,
    trick_points,
    trick_winner,
    tt_slot,
)


@njit(cache=True, inline="always")
def last_trick(W: np.ndarray) -> int:
    """Value of a trick start where every hand holds one card (``NONE`` if not).

    Every card is forced; a forced exchange, if due, is too (the leader's one
    trump for the partner's one plain card, which the leader then leads).
    Writes the table; the caller restores it."""
    leader = W[LEADER]
    if W[SPOS] < W[SLEN]:
        return NONE
    for s in range(4):
        h = W[s]
        if h == 0 or (h & (h - 1)) != 0:
            return NONE
    partner = (leader + 2) & 3
    c0 = lowbit_index(W[leader])
    c2 = lowbit_index(W[partner])
    if ((1 << c0) & W[TRUMPS] and W[FORCED_EX] == 1 and not (1 << c2) & W[TRUMPS]
            and lead_restricted(W, leader)):
        c0, c2 = c2, c0
    W[TRICK] = c0
    W[TRICK + 1] = lowbit_index(W[(leader + 1) & 3])
    W[TRICK + 2] = c2
    W[TRICK + 3] = lowbit_index(W[(leader + 3) & 3])
    for i in range(1, 4):
        v = catch_value(W, W[TRICK + i], i)
        if v != 0:
            return v
    return trick_points(W) if (trick_winner(W) & 1) == W[SIDE] else 0


@njit(cache=True, inline="always")
def follow_mask(W: np.ndarray, hand: int, led: int) -> int:
    """The cards of ``hand`` that may be played to a trick led with ``led``."""
    lc = W[CLASS + led]
    if lc == TRUMP_CLASS and W[FOLLOW_TRUMP] == 0:
        return hand
    follow = hand & W[CLASS_MASK + lc]
    return follow if follow else hand


@njit(cache=True)
def after_two(W: np.ndarray, leader: int, a: int, b: int, c: int, d: int) -> int:
    """Value of the last two tricks once the first of them is ``a b c d`` (in
    play order from ``leader``): catches, the trick, then the forced last trick."""
    W[TRICK], W[TRICK + 1], W[TRICK + 2], W[TRICK + 3] = a, b, c, d
    for i in range(1, 4):
        v = catch_value(W, W[TRICK + i], i)
        if v != 0:
            return v
    winner = trick_winner(W)
    pts = trick_points(W)
    mine = pts if (winner & 1) == W[SIDE] else 0
    h0, h1, h2, h3 = W[0], W[1], W[2], W[3]
    W[leader] &= ~(1 << a)
    W[(leader + 1) & 3] &= ~(1 << b)
    W[(leader + 2) & 3] &= ~(1 << c)
    W[(leader + 3) & 3] &= ~(1 << d)
    first, prev_lt = W[FIRST], W[PREV_LT]
    W[LEADER], W[FIRST], W[PREV_LT] = winner, 0, leader & 1
    v = last_trick(W)
    W[0], W[1], W[2], W[3] = h0, h1, h2, h3
    W[LEADER], W[FIRST], W[PREV_LT] = leader, first, prev_lt
    return combine(v, mine)


@njit(cache=True, inline="always")
def pick(maximizing: bool, best: int, v: int) -> int:
    if maximizing:
        return max(best, v)
    return min(best, v)


@njit(cache=True)
def ending2(W: np.ndarray, alpha: int, beta: int) -> int:
    """Value of a trick start where every hand holds two cards and the stock is
    empty, by enumeration (at most 16 ways to play the trick, then the forced
    last one) with alpha-beta cut-offs (fail-soft); ``NONE`` when a forced
    exchange is due at its lead (left to the general search)."""
    if W[SPOS] < W[SLEN] or W[MUST_LEAD] >= 0:
        return NONE
    for s in range(4):
        if popcount(W[s]) != 2:
            return NONE
    leader = W[LEADER]
    s1, s2, s3 = (leader + 1) & 3, (leader + 2) & 3, (leader + 3) & 3
    side = W[SIDE]
    legal = W[leader]
    if lead_restricted(W, leader):
        plain = legal & ~W[TRUMPS]
        if plain:
            legal = plain
        elif W[FORCED_EX] == 1 and W[s2] & ~W[TRUMPS]:
            return NONE
    t0, t1, t2, t3 = W[TRICK], W[TRICK + 1], W[TRICK + 2], W[TRICK + 3]
    max0 = (leader & 1) == side   # seats leader and s2
    max1 = not max0               # seats s1 and s3
    best0 = -INF if max0 else INF
    a0, b0 = alpha, beta
    x0 = legal
    while x0:
        a = lowbit_index(x0)
        x0 &= x0 - 1
        best1 = -INF if max1 else INF
        a1, b1 = a0, b0
        x1 = follow_mask(W, W[s1], a)
        while x1:
            b = lowbit_index(x1)
            x1 &= x1 - 1
            best2 = -INF if max0 else INF
            a2, b2 = a1, b1
            x2 = follow_mask(W, W[s2], a)
            while x2:
                c = lowbit_index(x2)
                x2 &= x2 - 1
                best3 = -INF if max1 else INF
                x3 = follow_mask(W, W[s3], a)
                while x3:
                    d = lowbit_index(x3)
                    x3 &= x3 - 1
                    best3 = pick(max1, best3, after_two(W, leader, a, b, c, d))
                    if (best3 <= a2) if not max1 else (best3 >= b2):
                        break
                best2 = pick(max0, best2, best3)
                if max0:
                    a2 = max(a2, best2)
                else:
                    b2 = min(b2, best2)
                if a2 >= b2:
                    break
            best1 = pick(max1, best1, best2)
            if max1:
                a1 = max(a1, best1)
            else:
                b1 = min(b1, best1)
            if a1 >= b1:
                break
        best0 = pick(max0, best0, best1)
        if max0:
            a0 = max(a0, best0)
        else:
            b0 = min(b0, best0)
        if a0 >= b0:
            break
    W[TRICK], W[TRICK + 1], W[TRICK + 2], W[TRICK + 3] = t0, t1, t2, t3
    return best0


@njit(cache=True, inline="always")
def canonical(W: np.ndarray) -> tuple:
    """The hands with every point group's live cards moved to its lowest cards.

    A *point group* is a run of cards of one class, adjacent in strength, with
    equal points (e.g. 7-8-9 of a plain suit, the jacks; the shamok, the queen of
    clubs and each ace stand alone). Which cards of a group are still live never
    matters — only who holds the 1st, 2nd... live card of it — so positions that
    differ only in that share a table entry (used once the stock is empty).
    """
    h0, h1, h2, h3 = W[0], W[1], W[2], W[3]
    live = h0 | h1 | h2 | h3
    singles = W[SINGLES]
    c0, c1, c2, c3 = h0 & singles, h1 & singles, h2 & singles, h3 & singles
    for g in range(W[NGROUPS]):  # the groups of two cards or more
        gm = W[GROUP_MASK + g]
        x = gm & live
        if x == 0:
            continue
        if x == gm or (x & (x - 1)) == 0 and x == (gm & -gm):
            # already canonical (all live, or only the lowest card live)
            c0 |= h0 & x
            c1 |= h1 & x
            c2 |= h2 & x
            c3 |= h3 & x
            continue
        target = 1 << lowbit_index(gm)
        while x:
            bit = x & -x
            x &= x - 1
            if h0 & bit:
                c0 |= target
            elif h1 & bit:
                c1 |= target
            elif h2 & bit:
                c2 |= target
            else:
                c3 |= target
            target <<= 1
    return c0 | (c1 << 32), c2 | (c3 << 32)


@njit(cache=True, inline="always")
def to_canonical(W: np.ndarray, card: int) -> int:
    """The canonical card standing for ``card`` (see :func:`canonical`)."""
    gm = W[GROUP_MASK + W[GROUP_OF + card]]
    live = W[0] | W[1] | W[2] | W[3]
    below = live & gm & ((1 << card) - 1)
    return lowbit_index(gm) + popcount(below)


@njit(cache=True, inline="always")
def from_canonical(W: np.ndarray, cc: int) -> int:
    """The live card a canonical card stands for (-1 if none)."""
    gm = W[GROUP_MASK + W[GROUP_OF + cc]]
    k = cc - lowbit_index(gm)
    x = gm & (W[0] | W[1] | W[2] | W[3])
    while x:
        card = lowbit_index(x)
        x &= x - 1
        if k == 0:
            return card
        k -= 1
    return -1


@njit(cache=True, inline="always")
def cheapest(W: np.ndarray, cards: int, need: int) -> int:
    """The fewest points ``need`` cards of ``cards`` can carry (all of them if fewer)."""
    total = 0
    for k in range(W[NLEVELS]):
        if need <= 0:
            break
        got = min(need, popcount(cards & W[LEVEL_MASK + k]))
        total += got * W[LEVEL_PTS + k]
        need -= got
    return total


@njit(cache=True, inline="always")
def exchange_possible(W: np.ndarray, team: int) -> bool:
    """Can a forced exchange still move cards between the players of ``team``
    (0 or 1) in this deal? Only a leader barred from leading trumps exchanges:
    anyone on the first trick, then the previous deal's opening team
    ("previous-opener") or either team ("not-after-own-lead")."""
    rule = W[LEAD_RULE]
    if W[FORCED_EX] == 0 or rule == 0:
        return False
    if W[FIRST] == 1 or rule == 3:
        return True
    return rule == 2 and W[PREV_OPEN] == (team & 1)


@njit(cache=True, inline="always")
def sure_points(W: np.ndarray) -> tuple:
    """Bounds on side A's points from here (trick start, no decisive end possible).

    The highest live trumps held by one side form a *top run*: each of them wins
    the trick it is played to (nothing live outside that side beats it), so their
    points surely go to that side — and, once the stock is empty, so do the
    cheapest cards the other players can add to those tricks (a player holding
    several run cards wins that many tricks — unless a forced exchange can still
    pass one to the partner: see :func:`exchange_possible`). Lower bound: what A
    surely takes; upper bound: everything left minus what B surely takes.
    """
    rem = W[REM_PTS]
    h0, h1, h2, h3 = W[0], W[1], W[2], W[3]
    x = (h0 | h1 | h2 | h3 | W[STOCK_LIVE + W[SPOS]]) & W[TRUMPS]
    if x == 0:
        return 0, rem
    top = highbit_index(x)
    if ((h0 | h2) >> top) & 1:
        p = 0
    elif ((h1 | h3) >> top) & 1:
        p = 1
    else:  # the top trump is still in the stock
        return 0, rem
    q = p + 2
    rest = x & ~(W[p] | W[q])  # live trumps outside the owner's team (stock included)
    runmask = x if rest == 0 else x & ~((2 << highbit_index(rest)) - 1)
    run = 0
    r = runmask
    while r:
        run += W[POINTS + lowbit_index(r)]
        r &= r - 1
    if W[SPOS] >= W[SLEN]:
        # each run card wins its own trick when one player holds several; the other
        # players add a card each to those tricks: at least their cheapest (the
        # owner's other player: outside the run, which is counted once already)
        np_ = popcount(W[p] & runmask)
        nq = popcount(W[q] & runmask)
        o1, o3 = W[p + 1], W[(p + 3) & 3]
        if exchange_possible(W, p):
            # a forced exchange can hand a run card to the partner, and the two
            # may then fall in one trick: only half of them surely win a trick,
            # and the hands change, so only the other team's cards are counted
            t = (np_ + nq + 1) // 2
        else:
            t = max(np_, nq)
            run += cheapest(W, W[p] & ~runmask, t - np_) + cheapest(W, W[q] & ~runmask, t - nq)
        if exchange_possible(W, p + 1):  # their cards can change hands: 2t of both
            run += cheapest(W, o1 | o3, 2 * t)
        else:
            run += cheapest(W, o1, t) + cheapest(W, o3, t)
    if p == W[SIDE]:
        return run, rem
    return 0, rem - run


@njit(cache=True, inline="always")
def tt_store(TT: np.ndarray, slot: int, k1: int, k2: int, k3: int, best: int,
             alpha0: int, beta0: int, move: int) -> None:
    """Record a fail-soft result ``best`` of the window ``(alpha0, beta0)`` at
    ``slot`` (tightening the bounds already there for the same key)."""
    if TT[slot] == k1 and TT[slot + 1] == k2 and TT[slot + 2] == k3:
        packed = TT[slot + 3]
        lo = (packed & 0xFFFF) - BOUND_BIAS
        hi = ((packed >> 16) & 0xFFFF) - BOUND_BIAS
    else:
        lo, hi = -INF, INF
    if best <= alpha0:
        hi = min(hi, best)
    elif best >= beta0:
        lo = max(lo, best)
    else:
        lo = hi = best
    TT[slot], TT[slot + 1], TT[slot + 2] = k1, k2, k3
    TT[slot + 3] = (lo + BOUND_BIAS) | ((hi + BOUND_BIAS) << 16) | (move << 32)


# Compiled eagerly (recursion needs the signature) for C-contiguous arrays, so every
# W[i] is one load instead of a multiply by a run-time stride, and without the
# runtime's reference counting (nothing here allocates), which otherwise increfs
# and decrefs both arrays on every call; the small helpers are inlined at numba's
# level (inline="always") because numba does not inline across functions.
# Measured with callgrind: 357M -> 212M instructions for the same two solves.
# The GIL is released (the drivers too): each thread has its own W and TT
# (goat.fast.solver._workspace), so bots at several tables can solve at once.
SEARCH_SIG = types.int64(types.int64[::1], types.int64[::1], types.int64, types.int64, types.int64)


@njit(SEARCH_SIG, cache=True, _nrt=False, nogil=True)
def search(W, TT, depth, alpha, beta):  # type: ignore[no-untyped-def]
    """Fail-soft alpha-beta: the value of the position in ``W`` (see module doc)."""
    W[NODES] += 1
    ntrick = W[NTRICK]
    if ntrick == 4:  # a root position after the 4th card (in the search: done in the loop below)
        v, mine, pts = close_trick(W, depth)
        if v == 0:
            v = combine(search(W, TT, depth, child_alpha(alpha, mine), child_beta(beta, mine)), mine)
        reopen_trick(W, depth, pts)
        return v
    leader = W[LEADER]
    seat = (leader + ntrick) & 3
    maximizing = (seat & 1) == W[SIDE]
    slot = -1
    tt_move = -1
    k1 = k2 = k3 = 0
    canon = False
    if ntrick == 0:
        held = popcount(W[0] | W[1] | W[2] | W[3])
        if held == 0 and W[SPOS] >= W[SLEN]:
            return 0
        if W[HORIZON] > 0 and depth >= W[HORIZON]:
            # the guess search's horizon: an estimate, never stored as exact
            low, high = sure_points(W)
            est = W[REM_PTS] // 2
            return min(max(est, low), high)
        if held == 4 and W[MUST_LEAD] < 0:
            t0, t1, t2, t3 = W[TRICK], W[TRICK + 1], W[TRICK + 2], W[TRICK + 3]
            v = last_trick(W)
            W[TRICK], W[TRICK + 1], W[TRICK + 2], W[TRICK + 3] = t0, t1, t2, t3
            if v != NONE:
                return v
        if not decisive_possible(W):
            low, high = sure_points(W)
            if high <= alpha:
                return high
            if low >= beta:
                return low
        if W[MUST_LEAD] < 0:
            canon = USE_CANONICAL and W[SPOS] >= W[SLEN]
            if canon:
                k1, k2 = canonical(W)
            else:
                k1 = W[0] | (W[1] << 32)
                k2 = W[2] | (W[3] << 32)
            # who led the previous trick matters only under "not after own lead"
            prev_lt = W[PREV_LT] + 1 if W[LEAD_RULE] == 3 else 0
            k3 = (leader | (W[SPOS] << 2) | (W[FIRST] << 8) | (prev_lt << 9) | (canon << 11)
                  | (W[GEN] << 12))
            slot = tt_slot(k1, k2, k3, (TT.shape[0] >> 2) - 1)
            if TT[slot] == k1 and TT[slot + 1] == k2 and TT[slot + 2] == k3:
                packed = TT[slot + 3]
                lo = (packed & 0xFFFF) - BOUND_BIAS
                hi = ((packed >> 16) & 0xFFFF) - BOUND_BIAS
                if lo >= beta:
                    return lo
                if hi <= alpha:
                    return hi
                if lo == hi:
                    return lo
                alpha = max(alpha, lo)
                beta = min(beta, hi)
                tt_move = packed >> 32
                if canon and tt_move >= 0:
                    tt_move = from_canonical(W, tt_move)
            # the last two tricks: enumerated directly, the result kept in the table
            # (an ending is reached from many orders of the tricks before it)
            v = ending2(W, alpha, beta) if held == 8 else NONE
            if v != NONE:
                tt_store(TT, slot, k1, k2, k3, v, alpha, beta, -1)
                return v
    alpha0, beta0 = alpha, beta
    base = MOVES + depth * MAX_MOVES
    n = gen_moves(W, seat, base)
    sbase = SCORES + depth * MAX_MOVES
    if n > 1:
        score_moves(W, seat, base, sbase, n, tt_move)
    best = -INF if maximizing else INF
    best_move = W[base]
    hand_before = W[HANDS + seat]
    partner = (seat + 2) & 3
    partner_before = W[HANDS + partner]
    must_before = W[MUST_LEAD]
    W[MUST_LEAD] = -1
    for i in range(n):
        m = next_best(W, base, sbase, i, n) if n > 1 else W[base]
        if m >= 32:  # forced exchange: give t, lead the returned p
            t = m // 32 - 1
            c = m % 32
            W[HANDS + seat] = hand_before & ~(1 << t)
            W[HANDS + partner] = (partner_before & ~(1 << c)) | (1 << t)
        else:
            c = m
            W[HANDS + seat] = hand_before & ~(1 << c)
        W[TRICK + ntrick] = c
        v = catch_value(W, c, ntrick)
        if v == 0 and ntrick == 3:  # the trick is complete: score it, draw, search the next
            v, mine, pts = close_trick(W, depth + 1)
            if v == 0:
                v = combine(search(W, TT, depth + 1, child_alpha(alpha, mine),
                                   child_beta(beta, mine)), mine)
            reopen_trick(W, depth + 1, pts)
            W[NTRICK] = 3
        elif v == 0:
            W[NTRICK] = ntrick + 1
            v = search(W, TT, depth + 1, alpha, beta)
            W[NTRICK] = ntrick
        W[HANDS + seat] = hand_before
        W[HANDS + partner] = partner_before
        if maximizing:
            if v > best:
                best = v
                best_move = m
                alpha = max(alpha, best)
        else:
            if v < best:
                best = v
                best_move = m
                beta = min(beta, best)
        if alpha >= beta:
            if ntrick == 0 and m < 32:  # history heuristic for leads (cut-offs, weighted by
                W[HIST + seat * 32 + m] += popcount(hand_before) ** 2  # the subtree's size)
            break
    W[MUST_LEAD] = must_before
    if slot >= 0:
        if best_move >= 32:
            best_move = -1
        elif canon:
            best_move = to_canonical(W, best_move)
        tt_store(TT, slot, k1, k2, k3, best, alpha0, beta0, best_move)
    return best



@njit(cache=True, nogil=True)
def mtdf(W: np.ndarray, TT: np.ndarray, guess: int) -> int:
    """The exact value by null-window searches: the first at ``guess``, then
    galloping away from it (steps 1, 2, 4...) while the value is bounded on one
    side only, then bisecting the interval the fail-soft results leave (plain
    MTD(f) creeps one bound at a time on a 0..120 point scale). A guess within a
    few points takes 2-4 passes; a blind one about log2(120)."""
    lower, upper = -INF, INF
    b = guess
    step = 1
    while lower < upper:
        W[PASSES] += 1
        g = search(W, TT, 0, b - 1, b)
        if g < b:
            upper = g
        else:
            lower = g
        lo = max(lower, -ROYAL - 1)
        hi = min(upper, ROYAL + 1)
        b = (lo + hi + 1) // 2
        # gallop outward from the guess (steps 1, 2, 4...) while one side is open
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
    """Exact value after each card of ``cards`` played by the seat to act
    (each legal under the engine; equivalent cards are each searched). Each is
    found by :func:`mtdf` on the position after it, guessing ``guess`` for the
    first card and then the previous card's value."""
    ntrick = W[NTRICK]
    seat = (W[LEADER] + ntrick) & 3
    hand_before = W[HANDS + seat]
    must_before = W[MUST_LEAD]
    for i in range(cards.shape[0]):
        c = cards[i]
        W[HANDS + seat] = hand_before & ~(1 << c)
        W[TRICK + ntrick] = c
        W[MUST_LEAD] = -1
        v = catch_value(W, c, ntrick)
        if v == 0:
            W[NTRICK] = ntrick + 1
            v = mtdf(W, TT, guess)
            W[NTRICK] = ntrick
            if -CATCH < v < CATCH:
                guess = v
        W[MUST_LEAD] = must_before
        W[HANDS + seat] = hand_before
        out[i] = v
