"""The search of the double-dummy solver: alpha-beta over card plays, the
transposition table, the direct evaluation of the last three tricks
(:func:`ending3`, :func:`ending2`), and the drivers (:func:`mtdf`,
:func:`root_values`). The state layout and the rules helpers live in
:mod:`goat.fast.solver_core`; see :mod:`goat.fast.solver` for the value scale.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from goat.fast.solver_core import (
    ABORTED,
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
    NLEVELS,
    NODES,
    NONE,
    NTRICK,
    PASSES,
    POINTS,
    PREV_LT,
    PREV_OPEN,
    Q_CATCH_CUTS,
    Q_CUTS,
    Q_HITS,
    Q_NARROW,
    Q_PROBES,
    Q_STOCK_CUTS,
    QUASI_ON,
    QUEEN,
    REM_PTS,
    ROYAL,
    RUFF_LATER,
    ROYAL_ON,
    SCORES,
    SHAMOK,
    SHAMOK_ON,
    SIDE,
    SINGLES,
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
    catch_value,
    child_alpha,
    child_beta,
    close_trick,
    combine,
    decisive_possible,
    distinct_cards,
    follow_score,
    gen_moves,
    highbit_index,
    ix,
    lead_restricted,
    lead_score,
    legal_in,
    lowbit_index,
    next_best,
    over_budget,
    popcount,
    later_ruffs,
    reopen_trick,
    score_moves,
    second_mode,
    second_score,
    third_score,
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
    return legal_in(W, hand, W[ix(CLASS + led)])


@njit(cache=True, inline="always")
def after_two(W: np.ndarray, leader: int, a: int, b: int, c: int, d: int) -> int:
    """Value of the last two tricks once the first of them is ``a b c d`` (in
    play order from ``leader``): catches, the trick, then the forced last trick
    (as :func:`last_trick` finds it, without changing the hands: each seat's
    last card is its hand without the cards of this trick)."""
    W[TRICK], W[TRICK + 1], W[TRICK + 2], W[TRICK + 3] = a, b, c, d
    for i in range(1, 4):
        v = catch_value(W, W[TRICK + i], i)
        if v != 0:
            return v
    winner = trick_winner(W)
    pts = trick_points(W)
    mine = pts if (winner & 1) == W[SIDE] else 0
    played = (1 << a) | (1 << b) | (1 << c) | (1 << d)
    partner = (winner + 2) & 3
    c0 = lowbit_index(W[winner] & ~played)
    c2 = lowbit_index(W[partner] & ~played)
    if (1 << c0) & W[TRUMPS] and W[FORCED_EX] == 1 and not (1 << c2) & W[TRUMPS]:
        # lead_restricted of the winner after a finished trick (no longer the
        # first) led by ``leader``'s team
        rule = W[LEAD_RULE]
        team = winner & 1
        if rule == 2 and W[PREV_OPEN] == team or rule == 3 and (leader & 1) == team:
            c0, c2 = c2, c0
    W[TRICK] = c0
    W[TRICK + 1] = lowbit_index(W[(winner + 1) & 3] & ~played)
    W[TRICK + 2] = c2
    W[TRICK + 3] = lowbit_index(W[(winner + 3) & 3] & ~played)
    W[LEADER] = winner
    v = 0
    for i in range(1, 4):
        v = catch_value(W, W[TRICK + i], i)
        if v != 0:
            break
    if v == 0:
        v = trick_points(W) if (trick_winner(W) & 1) == W[SIDE] else 0
    W[LEADER] = leader
    return combine(v, mine)


@njit(cache=True, inline="always")
def pick(maximizing: bool, best: int, v: int) -> int:
    if maximizing:
        return max(best, v)
    return min(best, v)


@njit(cache=True, inline="always")
def backup(maximizing: bool, best: int, v: int, a: int, b: int) -> tuple:
    """Fold a child's value ``v`` into a node's ``best`` and window ``(a, b)``
    (fail-soft): the loops of :func:`ending2` and :func:`ending3` stop when
    ``a >= b``."""
    if maximizing:
        best = max(best, v)
        return best, max(a, best), b
    best = min(best, v)
    return best, a, min(b, best)


@njit(cache=True)
def ending2(W: np.ndarray, alpha: int, beta: int) -> int:
    """Value of a trick start where every hand holds two cards and the stock is
    empty, by enumeration (at most 16 ways to play the trick, then the forced
    last one) with alpha-beta cut-offs (fail-soft). A forced exchange due at
    its lead is enumerated too (the leader's trump, the partner's plain card
    led), so that :func:`ending3` never needs the general search; ``NONE`` only
    for a position it does not take (cards in the stock, two-card hands
    missing, a card the leader must lead)."""
    if W[SPOS] < W[SLEN] or W[MUST_LEAD] >= 0:
        return NONE
    for s in range(4):
        if popcount(W[s]) != 2:
            return NONE
    leader = W[LEADER]
    s1, s2, s3 = (leader + 1) & 3, (leader + 2) & 3, (leader + 3) & 3
    side = W[SIDE]
    hand0, hand2 = W[leader], W[s2]
    legal = hand0
    exchange = False
    if lead_restricted(W, leader):
        plain = legal & ~W[TRUMPS]
        if plain:
            legal = plain
        elif W[FORCED_EX] == 1 and hand2 & ~W[TRUMPS]:
            # the leader gives one of its two trumps, the partner returns one of
            # its plain cards, which is led
            exchange = True
            legal = 0
    t0, t1, t2, t3 = W[TRICK], W[TRICK + 1], W[TRICK + 2], W[TRICK + 3]
    max0 = (leader & 1) == side   # seats leader and s2
    max1 = not max0               # seats s1 and s3
    best0 = -INF if max0 else INF
    a0, b0 = alpha, beta
    nlead = 4 if exchange else popcount(legal)
    for j in range(nlead):
        if exchange:  # j: bit 1 which trump, bit 0 which plain card of the partner
            t = lowbit_index(hand0) if (j >> 1) == 0 else highbit_index(hand0)
            pp = hand2 & ~W[TRUMPS]
            if j & 1:
                if (pp & (pp - 1)) == 0:
                    continue  # one plain card only
                a = highbit_index(pp)
            else:
                a = lowbit_index(pp)
            W[leader] = (hand0 & ~(1 << t)) | (1 << a)
            W[s2] = (hand2 & ~(1 << a)) | (1 << t)
        else:
            a = lowbit_index(legal)
            legal &= legal - 1
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
                best2, a2, b2 = backup(max0, best2, best3, a2, b2)
                if a2 >= b2:
                    break
            best1, a1, b1 = backup(max1, best1, best2, a1, b1)
            if a1 >= b1:
                break
        W[leader], W[s2] = hand0, hand2
        best0, a0, b0 = backup(max0, best0, best1, a0, b0)
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
    # the groups of two cards or more with a live card, each once (measured:
    # cheaper than a pass over every group once few cards are left)
    y = live & ~singles
    while y:
        gm = W[ix(GROUP_MASK + W[ix(GROUP_OF + lowbit_index(y))])]
        y &= ~gm
        x = gm & live
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
def cheapest(W: np.ndarray, cards: int, need: int, few: bool) -> int:
    """The fewest points ``need`` cards of ``cards`` can carry (all of them if fewer).

    ``few`` (a constant where inlined: the two-card leaves of :func:`ending3`)
    takes sets of one or two cards from their points directly, without the
    scan of the point levels (measured: cheaper there, dearer in the search)."""
    if few:
        if need <= 0 or cards == 0:
            return 0
        if (cards & (cards - 1)) == 0:
            return W[ix(POINTS + lowbit_index(cards))]
        rest = cards & (cards - 1)
        if (rest & (rest - 1)) == 0:
            p0 = W[ix(POINTS + lowbit_index(cards))]
            p1 = W[ix(POINTS + lowbit_index(rest))]
            return p0 + p1 if need >= 2 else min(p0, p1)
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
def sure_points(W: np.ndarray, few: bool) -> tuple:
    """Bounds on side A's points from here (trick start, no decisive end possible).

    The highest live trumps held by one side form a *top run*: each of them wins
    the trick it is played to (nothing live outside that side beats it), so their
    points surely go to that side — and, once the stock is empty, so do the
    cheapest cards the other players can add to those tricks (a player holding
    several run cards wins that many tricks — unless a forced exchange can still
    pass one to the partner: see :func:`exchange_possible`). Lower bound: what A
    surely takes; upper bound: everything left minus what B surely takes.
    ``few``: every hand holds two cards (see :func:`cheapest`).
    """
    rem = W[REM_PTS]
    h0, h1, h2, h3 = W[0], W[1], W[2], W[3]
    x = (h0 | h1 | h2 | h3 | W[ix(STOCK_LIVE + W[SPOS])]) & W[TRUMPS]
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
            run += cheapest(W, W[p] & ~runmask, t - np_, few) + cheapest(W, W[q] & ~runmask, t - nq, few)
        if exchange_possible(W, p + 1):  # their cards can change hands: 2t of both
            run += cheapest(W, o1 | o3, 2 * t, few)
        else:
            run += cheapest(W, o1, t, few) + cheapest(W, o3, t, few)
    if p == W[SIDE]:
        return run, rem
    return 0, rem - run


@njit(cache=True, inline="always")
def tighten(lo: int, hi: int, stored: int, best: int, alpha0: int, beta0: int) -> tuple:
    """Bounds ``(lo, hi)`` of a table entry tightened by a fail-soft result
    ``best`` of the window ``(alpha0, beta0)``, written as ``stored`` (the value,
    or its code in a rank-pattern entry): an upper bound when the search failed
    low, a lower one when it failed high, the exact value when inside."""
    if best <= alpha0:
        return lo, min(hi, stored)
    if best >= beta0:
        return max(lo, stored), hi
    return stored, stored


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
    lo, hi = tighten(lo, hi, best, best, alpha0, beta0)
    TT[slot], TT[slot + 1], TT[slot + 2] = k1, k2, k3
    TT[slot + 3] = (lo + BOUND_BIAS) | ((hi + BOUND_BIAS) << 16) | (move << 32)


@njit(cache=True, inline="always")
def tt_key(W: np.ndarray, canon: bool) -> tuple:
    """The table key of the trick start in ``W``: the hands (canonical if
    ``canon``, see :func:`canonical`), then leader, stock position, trump-lead
    state and generation in one word."""
    if canon:
        k1, k2 = canonical(W)
    else:
        k1 = W[0] | (W[1] << 32)
        k2 = W[2] | (W[3] << 32)
    # who led the previous trick matters only under "not after own lead"
    prev_lt = W[PREV_LT] + 1 if W[LEAD_RULE] == 3 else 0
    k3 = (W[LEADER] | (W[SPOS] << 2) | (W[FIRST] << 8) | (prev_lt << 9) | (canon << 11)
          | (W[GEN] << 12))
    return k1, k2, k3


@njit(cache=True, inline="always")
def tt_probe(W: np.ndarray, TT: np.ndarray, slot: int, k1: int, k2: int, k3: int,
             alpha: int, beta: int, canon: bool) -> tuple:
    """Look the key up at ``slot``: ``(value, alpha, beta, move)`` — a value
    (not ``NONE``) when the stored bounds settle the window, else the window
    narrowed by them and the stored best move (a live card, or -1)."""
    if TT[slot] == k1 and TT[slot + 1] == k2 and TT[slot + 2] == k3:
        packed = TT[slot + 3]
        lo = (packed & 0xFFFF) - BOUND_BIAS
        hi = ((packed >> 16) & 0xFFFF) - BOUND_BIAS
        if lo >= beta:
            return lo, alpha, beta, -1
        if hi <= alpha:
            return hi, alpha, beta, -1
        if lo == hi:
            return lo, alpha, beta, -1
        move = packed >> 32
        if canon and move >= 0:
            move = from_canonical(W, move)
        return NONE, max(alpha, lo), min(beta, hi), move
    return NONE, alpha, beta, -1


# The rank-pattern key with cards in the stock (quasi_stock_key) has room for at
# most this many stock cards and hand cards (see there).
Q_MAX_STOCK = 12
Q_MAX_HELD = 16


@njit(cache=True, inline="always")
def quasi_applies(W: np.ndarray) -> bool:
    """May the trick start in ``W`` use the rank-pattern entries (see
    :func:`quasi_probe`)? Only when switched on (``QUASI_ON``), in the exact
    search (the guess search's estimates depend on the depth), with no card the
    leader must lead, no royal goat checked (``ROYAL_ON``: four aces in one hand
    depend on the cards themselves, not their ranks, and a forced exchange could
    still hand a fourth ace to a partner), and with the stock empty or small
    enough for :func:`quasi_stock_key` (at most ``Q_MAX_STOCK`` cards left and
    ``Q_MAX_HELD`` in the hands: classic's trick starts after the first). A
    possible shamok catch is allowed: the key then fixes the shamok and the queen
    of clubs (:func:`quasi_key`)."""
    if W[QUASI_ON] == 0 or W[HORIZON] != 0 or W[MUST_LEAD] >= 0 or W[ROYAL_ON] != 0:
        return False
    left = W[SLEN] - W[SPOS]
    return left <= 0 or (left <= Q_MAX_STOCK
                         and popcount(W[0] | W[1] | W[2] | W[3]) <= Q_MAX_HELD)


@njit(cache=True, inline="always")
def quasi_live(W: np.ndarray) -> int:
    """The live cards of a trick start: the hands and the stock still to draw
    (all of them are rank-mapped by a rank-pattern hit)."""
    return W[0] | W[1] | W[2] | W[3] | W[ix(STOCK_LIVE + W[SPOS])]


@njit(cache=True, inline="always")
def quasi_key(W: np.ndarray, catch: bool) -> tuple:
    """The rank-pattern key of the trick start in ``W`` with the stock empty
    (else :func:`quasi_stock_key`): the holder of each live
    card in compact order, two bits each (``k1``); the live cards per class, six
    bits each (``k2``: up to 32), then, if a shamok ``catch`` is possible
    (:func:`goat.fast.solver_core.decisive_possible`), the index of the shamok
    and of the queen of clubs among the live cards, six bits each (63 for both
    when no catch is possible: no catch key has it); leader, trump-lead state,
    generation and a stock position no exact key has (63) in ``k3``. Two
    positions with one key differ only in which cards of a class are live, not
    in who holds the i-th of them, nor, with a catch possible, in which of them
    are the shamok and the queen: so a catch falls on the same lines in both.
    (In Kozel's order the shamok and the queen of clubs are the two highest
    trumps, so their places follow from the class counts once both are live:
    what the six-bit fields add today is the catch flag, without which a
    catch position would share entries with one whose two highest trumps are
    other cards; the places keep the key right for any card order.)"""
    if W[SPOS] < W[SLEN]:
        return quasi_stock_key(W, catch)
    h1, h2, h3 = W[1], W[2], W[3]
    live = W[0] | h1 | h2 | h3
    odd = h1 | h3
    high = h2 | h3
    b0 = b1 = 0
    bit = 1
    x = live
    while x:
        c = lowbit_index(x)
        x &= x - 1
        if (odd >> c) & 1:
            b0 |= bit
        if (high >> c) & 1:
            b1 |= bit
        bit <<= 1
    k2 = 0
    for k in range(5):
        k2 |= popcount(live & W[ix(CLASS_MASK + k)]) << (6 * k)
    if catch:  # both live (the stock is empty), one in each team
        k2 |= popcount(live & ((1 << W[SHAMOK]) - 1)) << 30
        k2 |= popcount(live & ((1 << W[QUEEN]) - 1)) << 36
    else:
        k2 |= 63 << 30 | 63 << 36
    prev_lt = W[PREV_LT] + 1 if W[LEAD_RULE] == 3 else 0
    k3 = W[LEADER] | (63 << 2) | (W[FIRST] << 8) | (prev_lt << 9) | (W[GEN] << 12)
    return b0 | (b1 << 32), k2, k3


@njit(cache=True, inline="always")
def quasi_stock_key(W: np.ndarray, catch: bool) -> tuple:
    """The rank-pattern key of a trick start with cards in the stock: here the
    "holder" of a live card is a seat or a place in the stock (counted from the
    next card to draw), and two positions with one key have the same holder of
    the i-th live card of each class. A draw hands the card at a stock place to
    the seat the trick winner and the hand sizes give — the same in both — so
    the rank map stays a map of the hands after every draw, and the argument of
    :func:`quasi_probe` holds with the stock cards among the live cards.

    ``k1``: the seat of each hand card in compact order, two bits each (at most
    ``Q_MAX_HELD`` cards: bits 0..31); from bit 32 the live cards per class
    (four bits for each plain suit, at most 9 cards; five for the trumps), then
    the indices of the shamok and of the queen of clubs among the live cards if
    a ``catch`` is possible, five bits each (31 for both if not: at most 28
    cards are live). ``k2``: the index among the live cards of each stock card,
    next to draw first, five bits each (at most ``Q_MAX_STOCK``: bits 0..59),
    and the number of stock cards (bits 60..63). These decode to the holders
    (the counts give the number of live cards, hence of hand cards and the class
    bounds), so equal keys are equal patterns: the key is exact. ``k3`` as in
    :func:`quasi_key` with stock position 62 (no exact key and no empty-stock
    rank-pattern key has it)."""
    h1, h2, h3 = W[1], W[2], W[3]
    hands = W[0] | h1 | h2 | h3
    spos = W[SPOS]
    left = W[SLEN] - spos
    live = hands | W[ix(STOCK_LIVE + spos)]
    odd = h1 | h3
    high = h2 | h3
    k1 = 0
    shift = 0
    x = hands
    while x:
        c = lowbit_index(x)
        x &= x - 1
        k1 |= (((odd >> c) & 1) | (((high >> c) & 1) << 1)) << shift
        shift += 2
    top = 32
    for k in range(4):
        k1 |= popcount(live & W[ix(CLASS_MASK + k)]) << top
        top += 4
    k1 |= popcount(live & W[ix(CLASS_MASK + 4)]) << top
    top += 5
    if catch:  # both live, one in the stock or one in each team
        k1 |= popcount(live & ((1 << W[SHAMOK]) - 1)) << top
        k1 |= popcount(live & ((1 << W[QUEEN]) - 1)) << (top + 5)
    else:
        k1 |= 31 << top | 31 << (top + 5)
    k2 = left << 60
    for j in range(left):
        c = W[ix(STOCK + spos + j)]
        k2 |= popcount(live & ((1 << c) - 1)) << (5 * j)
    prev_lt = W[PREV_LT] + 1 if W[LEAD_RULE] == 3 else 0
    k3 = W[LEADER] | (62 << 2) | (W[FIRST] << 8) | (prev_lt << 9) | (W[GEN] << 12)
    return k1, k2, k3


# A rank-pattern bound takes a byte: 0 is -CATCH, 1..121 the points 0..120, 255
# +CATCH. With no royal goat these are all the values a trick start can take, so
# -CATCH is also the unknown lower bound and +CATCH the unknown upper one; the
# code is monotone in the value, so bounds tighten by max / min of the codes.
Q_LOW, Q_HIGH = 0, 255


@njit(cache=True, inline="always")
def quasi_code(v: int) -> int:
    """The byte of a value (see ``Q_LOW``)."""
    if v <= -CATCH:
        return Q_LOW
    if v >= CATCH:
        return Q_HIGH
    return v + 1


@njit(cache=True, inline="always")
def quasi_probe(W: np.ndarray, TT: np.ndarray, slot: int, k1: int, k2: int, k3: int,
                alpha: int, beta: int, catch: bool) -> tuple:
    """``(value, alpha, beta, move)`` from the rank-pattern entry at ``slot``,
    like :func:`tt_probe` but with the stored bounds corrected for the points.

    The stored position P and this one P' have the same holders of the i-th live
    card of each class (a seat, or a place in the stock: :func:`quasi_stock_key`),
    the same leader and lead state and no royal goat: legality (follow the class
    or, with ``TRUMP_ON_PLAIN``, trump a plain lead; lead restrictions, the forced
    exchange of a trump for a plain card) and trick
    winners depend only on the class and relative strength, and a draw only on
    the trick winner and the hand sizes, so mapping P's i-th live card to P''s
    maps every line of play of one onto the other. If a ``catch`` is possible the key
    fixes the shamok's and the queen's places, so the map sends each to itself:
    a line ends in the same catch (same cards, seats, trick) in both. A line of
    points differs only by the points of the mapped cards side A takes, by
    ``-Dminus..Dplus`` (the sum of the point losses, gains, over all live
    cards, the stock's included: every one of them ends in a trick), and stays
    in ``0..REM_PTS``. (Within one solve the stock's share is 0 — a stock place
    holds the same card in every position that reaches it — but the sum does
    not rely on that.) The minimax value is monotone in the
    line values, so ``v(P') >= max(lo - Dminus, 0)`` for a lower bound ``lo`` in
    points, ``v(P') <= min(hi + Dplus, REM_PTS)`` for an upper bound in points,
    and a decisive bound (``-CATCH`` upper, ``+CATCH`` lower) carries over as it
    is. With no catch possible the value is points: the unknown bounds are ``0``
    and ``REM_PTS``. ``move``: P's best lead mapped (-1: none)."""
    if not (TT[slot] == k1 and TT[slot + 1] == k2 and TT[slot + 2] == k3):
        return NONE, alpha, beta, -1
    W[Q_HITS] += 1
    packed = TT[slot + 3]
    lo = packed & 0xFF
    hi = (packed >> 8) & 0xFF
    rank = ((packed >> 16) & 0xFF) - 1
    xs = (packed >> 32) & 0xFFFFFFFF
    live = quasi_live(W)
    xn = live
    dplus = dminus = 0
    if xs != xn:
        while xs:
            d = W[ix(POINTS + lowbit_index(xn))] - W[ix(POINTS + lowbit_index(xs))]
            if d > 0:
                dplus += d
            else:
                dminus -= d
            xs &= xs - 1
            xn &= xn - 1
    if lo == Q_HIGH:
        lo = CATCH
    elif lo == Q_LOW:
        lo = -CATCH if catch else 0
    else:
        lo = max(lo - 1 - dminus, 0)
    if hi == Q_LOW:
        hi = -CATCH
    elif hi == Q_HIGH:
        hi = CATCH if catch else W[REM_PTS]
    else:
        hi = min(hi - 1 + dplus, W[REM_PTS])
    if lo >= beta or hi <= alpha or lo == hi:
        W[Q_CUTS] += 1
        if catch:
            W[Q_CATCH_CUTS] += 1
        if W[SPOS] < W[SLEN]:
            W[Q_STOCK_CUTS] += 1
        return (lo if lo >= beta or lo == hi else hi), alpha, beta, -1
    if lo > alpha or hi < beta:
        W[Q_NARROW] += 1
    move = -1
    if rank >= 0:
        x = live
        for _ in range(rank):
            x &= x - 1
        move = lowbit_index(x)
    return NONE, max(alpha, lo), min(beta, hi), move


@njit(cache=True, inline="always")
def quasi_store(W: np.ndarray, TT: np.ndarray, slot: int, k1: int, k2: int, k3: int,
                best: int, alpha0: int, beta0: int, move: int) -> None:
    """Record a fail-soft result at a rank-pattern ``slot`` with the live cards
    of the position, stock included (the points a later probe compares with;
    :func:`quasi_live`) and the rank of
    the best lead ``move`` among them (-1: none); the bounds are tightened only
    for the same live cards, else replaced. A bound takes a byte (see
    ``Q_LOW``: points and the decisive values of a shamok catch)."""
    live = quasi_live(W)
    packed = TT[slot + 3]
    if (TT[slot] == k1 and TT[slot + 1] == k2 and TT[slot + 2] == k3
            and ((packed >> 32) & 0xFFFFFFFF) == live):
        lo = packed & 0xFF
        hi = (packed >> 8) & 0xFF
    else:
        lo, hi = Q_LOW, Q_HIGH
    lo, hi = tighten(lo, hi, quasi_code(best), best, alpha0, beta0)
    rank = 0 if move < 0 else popcount(live & ((1 << move) - 1)) + 1
    TT[slot], TT[slot + 1], TT[slot + 2] = k1, k2, k3
    TT[slot + 3] = lo | (hi << 8) | (rank << 16) | (live << 32)


@njit(cache=True, inline="always")
def two_tricks(W: np.ndarray, TT: np.ndarray, alpha: int, beta: int, decisive: bool) -> int:
    """Value of a trick start with two cards a hand and the stock empty, as
    :func:`search` finds it (the free bounds unless ``decisive``, a catch
    still possible; the table; :func:`ending2`, its result stored), without a
    call of it: the leaves of :func:`ending3`."""
    W[NODES] += 1
    if not decisive:
        low, high = sure_points(W, True)
        if high <= alpha:
            return high
        if low >= beta:
            return low
    k1, k2, k3 = tt_key(W, USE_CANONICAL)
    slot = tt_slot(k1, k2, k3, (TT.shape[0] >> 2) - 1)
    v, alpha, beta, move = tt_probe(W, TT, slot, k1, k2, k3, alpha, beta, USE_CANONICAL)
    if v != NONE:
        return v
    v = ending2(W, alpha, beta)
    tt_store(TT, slot, k1, k2, k3, v, alpha, beta, -1)
    return v


@njit(cache=True, inline="always")
def insert_move(n: int, order: int, s0: int, s1: int, s2: int, c: int, s: int) -> tuple:
    """Insert card ``c`` scored ``s`` into ``n`` (at most 2) moves kept best
    first, ``order`` their cards a byte each and ``s0..s2`` their scores; a
    tie keeps the earlier card first (the order :func:`next_best` gives)."""
    p = 0
    if n > 0 and s0 >= s:
        p = 1
        if n > 1 and s1 >= s:
            p = 2
    low = order & ((1 << (8 * p)) - 1)
    order = low | (c << (8 * p)) | ((order >> (8 * p)) << (8 * p + 8))
    if p == 0:
        return order, s, s0, s1
    if p == 1:
        return order, s0, s, s1
    return order, s0, s1, s


@njit(cache=True, inline="always")
def lead_order(W: np.ndarray, seat: int, cards: int, first: int) -> tuple:
    """``(n, order)``: the leads ``cards`` (at most three) in :func:`score_moves`'
    order — ``first`` (the table's move) first, then the sure winners
    (:func:`goat.fast.solver_core.sure_lead`), then high plus history, the sure
    losers last."""
    n = order = s0 = s1 = s2 = 0
    while cards:
        c = lowbit_index(cards)
        cards &= cards - 1
        s = (1 << 40) if c == first else lead_score(W, seat, c)
        order, s0, s1, s2 = insert_move(n, order, s0, s1, s2, c, s)
        n += 1
    return n, order


@njit(cache=True, inline="always")
def follow_order(W: np.ndarray, cards: int, win: int, wmask: int, partner_wins: bool,
                 last: bool, beat4: int, second: int) -> tuple:
    """``(n, order)``: the follows ``cards`` (at most three) in :func:`score_moves`'
    order, ``win`` the card winning the trick so far and ``wmask`` the cards that
    can beat a card of the led class (its class and the trumps): in compact
    order a card of one class beats the lower ones and every trump every plain
    card, so ``c`` beats ``win`` when it is in ``wmask`` and higher. ``beat4``:
    for the third seat, the last seat's legal cards in ``wmask``
    (:func:`goat.fast.solver_core.third_score`), else -1; ``second``: for the
    second seat, :func:`goat.fast.solver_core.second_mode`, else -1. A trump
    the hand may play only by ``TRUMP_ON_PLAIN`` goes after the other follows
    as :func:`goat.fast.solver_core.later_ruffs` says (``cards`` holds a card of
    the led class whenever the hand does: its legal cards keep one of each run
    of equivalent ones)."""
    n = order = s0 = s1 = s2 = 0
    ruffs = later_ruffs(W, W[ix(CLASS + W[TRICK])], cards, partner_wins, second >= 0)
    while cards:
        c = lowbit_index(cards)
        cards &= cards - 1
        if beat4 >= 0:
            s = third_score(W, c, win, partner_wins, wmask, beat4)
        elif second >= 0:
            s = second_score(W, c, win, wmask, second)
        else:
            s = follow_score(W[POINTS + c], W[STRENGTH + c], last, partner_wins,
                             not partner_wins and (wmask >> c) & 1 == 1 and c > win)
        if (ruffs >> c) & 1:
            s -= RUFF_LATER
        order, s0, s1, s2 = insert_move(n, order, s0, s1, s2, c, s)
        n += 1
    return n, order


@njit(cache=True, inline="always")
def legal_follows(hand: int, fmask: int, also: int) -> int:
    """The cards of ``hand`` that may follow a lead whose class mask is ``fmask``
    (-1 when anything may be played), with the cards of ``also`` besides when the
    hand holds the class (the trumps on a plain lead under ``TRUMP_ON_PLAIN``, else
    0): :func:`goat.fast.solver_core.legal_in` with the masks found once a lead."""
    follow = hand & fmask
    return follow | (hand & also) if follow else hand


@njit(cache=True, _nrt=False)
def ending3(W: np.ndarray, TT: np.ndarray, alpha: int, beta: int, first: int) -> tuple:
    """Value of a trick start where every hand holds three cards and the stock
    is empty (the third-to-last trick), and the best lead found (-1: none).

    The trick's four cards are enumerated in nested loops with the moves and
    the move order of :func:`search` (``first``, the table's move, leads first;
    :func:`distinct_cards`, :func:`follow_score`) and its window carried across
    the trick; each finished trick's two-trick position is evaluated in place
    (:func:`two_tricks`). So the values, the table entries and the nodes
    counted are :func:`search`'s; what is saved is its generality: the equivalent
    cards are found once per hand (no card leaves the other hands' live set
    during one trick but to the table, which counts as live), the trick's winner
    and points are kept as the cards fall, and no royal goat can arise (a
    two-card hand cannot hold the four aces). ``(NONE, -1)`` when a forced
    exchange is due at the lead (left to the general search), and when cards are
    still in the stock (three-card hands with a stock: classic with
    ``hand_size=3``; the tricks here draw nothing). Leaves ``W`` as it found it.
    """
    if W[SPOS] < W[SLEN]:
        return NONE, -1
    for s in range(4):
        if popcount(W[s]) != 3:
            return NONE, -1
    leader = W[LEADER]
    s1, s2, s3 = (leader + 1) & 3, (leader + 2) & 3, (leader + 3) & 3
    h0, h1, h2, h3 = W[leader], W[s1], W[s2], W[s3]
    trumps = W[TRUMPS]
    lead = h0
    if lead_restricted(W, leader):
        if h0 & ~trumps:
            lead = h0 & ~trumps
        elif W[FORCED_EX] == 1 and h2 & ~trumps:
            return NONE, -1
    live = h0 | h1 | h2 | h3
    lead = distinct_cards(W, lead, live & ~h0)
    d1 = distinct_cards(W, h1, live & ~h1)
    d2 = distinct_cards(W, h2, live & ~h2)
    d3 = distinct_cards(W, h3, live & ~h3)
    # a shamok catch is possible only with both cards live, one in each team
    both = 0
    if W[SHAMOK_ON] == 1:
        both = (1 << W[SHAMOK]) | (1 << W[QUEEN])
        team0 = (W[0] | W[2]) & both
        if team0 == 0 or team0 == both or (live & both) != both:
            both = 0
    side = W[SIDE]
    max0 = (leader & 1) == side   # seats leader and s2
    max1 = not max0               # seats s1 and s3
    first_t, prev_lt, rem = W[FIRST], W[PREV_LT], W[REM_PTS]
    t0, t1, t2, t3 = W[TRICK], W[TRICK + 1], W[TRICK + 2], W[TRICK + 3]
    free_trump = W[FOLLOW_TRUMP] == 0
    best_move = -1
    best0 = -INF if max0 else INF
    a0, b0 = alpha, beta
    n0, o0 = lead_order(W, leader, lead, first)
    for i0 in range(n0):
        a = (o0 >> (8 * i0)) & 0xFF
        W[NODES] += 1
        W[leader] = h0 & ~(1 << a)
        W[TRICK] = a
        lc = W[CLASS + a]
        wmask = trumps | W[CLASS_MASK + lc]
        fmask = -1 if lc == TRUMP_CLASS and free_trump else W[CLASS_MASK + lc]
        also = trumps if lc != TRUMP_CLASS and W[TRUMP_ON_PLAIN] == 1 else 0
        pa = W[POINTS + a]
        best1 = -INF if max1 else INF
        a1, b1 = a0, b0
        l1 = legal_follows(h1, fmask, also)
        l2 = legal_follows(h2, fmask, also)   # the hands after the lead stay as they are
        l3 = legal_follows(h3, fmask, also)   # until their own seat plays: once per lead
        n1, o1 = follow_order(W, l1 & d1, a, wmask, False, False, -1,
                              second_mode(a, l1 & wmask, l2 & wmask, l3 & wmask))
        for i1 in range(n1):
            b = (o1 >> (8 * i1)) & 0xFF
            W[s1] = h1 & ~(1 << b)
            W[TRICK + 1] = b
            v1 = catch_value(W, b, 1) if (both >> b) & 1 else 0
            if v1 == 0:
                W[NODES] += 1
                win1, wp1 = (b, 1) if (wmask >> b) & 1 and b > a else (a, 0)
                pb = pa + W[POINTS + b]
                best2 = -INF if max0 else INF
                a2, b2 = a1, b1
                n2, o2 = follow_order(W, l2 & d2, win1, wmask, wp1 == 0, False, l3 & wmask, -1)
                for i2 in range(n2):
                    c = (o2 >> (8 * i2)) & 0xFF
                    W[s2] = h2 & ~(1 << c)
                    W[TRICK + 2] = c
                    v2 = catch_value(W, c, 2) if (both >> c) & 1 else 0
                    if v2 == 0:
                        W[NODES] += 1
                        win2, wp2 = (c, 2) if (wmask >> c) & 1 and c > win1 else (win1, wp1)
                        pc = pb + W[POINTS + c]
                        best3 = -INF if max1 else INF
                        a3, b3 = a2, b2
                        n3, o3 = follow_order(W, l3 & d3, win2, wmask, wp2 == 1, True, -1, -1)
                        for i3 in range(n3):
                            d = (o3 >> (8 * i3)) & 0xFF
                            W[TRICK + 3] = d
                            v3 = catch_value(W, d, 3) if (both >> d) & 1 else 0
                            if v3 == 0:  # the trick is complete: the last two from its winner
                                wp3 = 3 if (wmask >> d) & 1 and d > win2 else wp2
                                pts = pc + W[POINTS + d]
                                winner = (leader + wp3) & 3
                                mine = pts if (winner & 1) == side else 0
                                W[s3] = h3 & ~(1 << d)
                                W[LEADER], W[FIRST], W[PREV_LT] = winner, 0, leader & 1
                                W[REM_PTS] = rem - pts
                                played = (1 << a) | (1 << b) | (1 << c) | (1 << d)
                                v3 = combine(two_tricks(W, TT, child_alpha(a3, mine),
                                                        child_beta(b3, mine),
                                                        both != 0 and (both & played) == 0),
                                             mine)
                                W[s3] = h3
                                W[LEADER], W[FIRST], W[PREV_LT] = leader, first_t, prev_lt
                                W[REM_PTS] = rem
                            best3, a3, b3 = backup(max1, best3, v3, a3, b3)
                            if a3 >= b3:
                                break
                        v2 = best3
                    W[s2] = h2
                    best2, a2, b2 = backup(max0, best2, v2, a2, b2)
                    if a2 >= b2:
                        break
                v1 = best2
            W[s1] = h1
            best1, a1, b1 = backup(max1, best1, v1, a1, b1)
            if a1 >= b1:
                break
        W[leader] = h0
        if best1 > best0 if max0 else best1 < best0:
            best_move = a
        best0, a0, b0 = backup(max0, best0, best1, a0, b0)
        if a0 >= b0:  # the history heuristic for leads, as in search
            W[HIST + leader * 32 + a] += 9
            break
    W[TRICK], W[TRICK + 1], W[TRICK + 2], W[TRICK + 3] = t0, t1, t2, t3
    return best0, best_move


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
    if over_budget(W):  # the node budget ran out: unwind (see goat.fast.solver_core.ABORTED)
        W[ABORTED] = 1
        return 0
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
    slot = qslot = -1
    tt_move = q_move = -1
    k1 = k2 = k3 = q1 = q2 = q3 = 0
    canon = False
    if ntrick == 0:
        held = popcount(W[0] | W[1] | W[2] | W[3])
        if held == 0 and W[SPOS] >= W[SLEN]:
            return 0
        if W[HORIZON] > 0 and depth >= W[HORIZON]:
            # the guess search's horizon: an estimate, never stored as exact
            low, high = sure_points(W, False)
            est = W[REM_PTS] // 2
            return min(max(est, low), high)
        if held == 4 and W[MUST_LEAD] < 0:
            t0, t1, t2, t3 = W[TRICK], W[TRICK + 1], W[TRICK + 2], W[TRICK + 3]
            v = last_trick(W)
            W[TRICK], W[TRICK + 1], W[TRICK + 2], W[TRICK + 3] = t0, t1, t2, t3
            if v != NONE:
                return v
        decisive = decisive_possible(W)
        if not decisive:
            low, high = sure_points(W, False)
            if high <= alpha:
                return high
            if low >= beta:
                return low
        if W[MUST_LEAD] < 0:
            canon = USE_CANONICAL and W[SPOS] >= W[SLEN]
            k1, k2, k3 = tt_key(W, canon)
            slot = tt_slot(k1, k2, k3, (TT.shape[0] >> 2) - 1)
            v, alpha, beta, tt_move = tt_probe(W, TT, slot, k1, k2, k3, alpha, beta, canon)
            if v != NONE:
                return v
            if quasi_applies(W):
                W[Q_PROBES] += 1
                q1, q2, q3 = quasi_key(W, decisive)
                qslot = tt_slot(q1, q2, q3, (TT.shape[0] >> 2) - 1)
                v, alpha, beta, q_move = quasi_probe(W, TT, qslot, q1, q2, q3, alpha, beta,
                                                     decisive)
                if v != NONE:
                    return v
                if tt_move < 0:
                    tt_move = q_move
            # the last two / three tricks: enumerated directly, the result kept in
            # the table (an ending is reached from many orders of the tricks before it)
            move = -1
            if held == 8:
                v = ending2(W, alpha, beta)
            elif held == 12 and (W[HORIZON] == 0 or depth + 4 < W[HORIZON]):
                v, move = ending3(W, TT, alpha, beta, tt_move)
                q_move = move
                if canon and move >= 0:
                    move = to_canonical(W, move)
            if v != NONE:
                tt_store(TT, slot, k1, k2, k3, v, alpha, beta, move)
                if qslot >= 0:
                    quasi_store(W, TT, qslot, q1, q2, q3, v, alpha, beta, q_move)
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
        m = next_best(W, sbase, n) if n > 1 else W[base]
        if m >= 32:  # forced exchange: give t, lead the returned p
            t = m // 32 - 1
            c = m % 32
            W[HANDS + seat] = hand_before & ~(1 << t)
            W[HANDS + partner] = (partner_before & ~(1 << c)) | (1 << t)
        else:
            c = m
            W[HANDS + seat] = hand_before & ~(1 << c)
        W[ix(TRICK + ntrick)] = c
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
        if W[ABORTED] != 0:  # the child's value is unfinished
            break
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
                W[ix(HIST + seat * 32 + m)] += popcount(hand_before) ** 2  # the subtree's size)
            break
    W[MUST_LEAD] = must_before
    if slot >= 0 and W[ABORTED] == 0:   # an aborted subtree's bound is wrong: never stored
        if best_move >= 32:
            best_move = -1
        q_move = best_move
        if canon and best_move >= 0:
            best_move = to_canonical(W, best_move)
        tt_store(TT, slot, k1, k2, k3, best, alpha0, beta0, best_move)
        if qslot >= 0:
            quasi_store(W, TT, qslot, q1, q2, q3, best, alpha0, beta0, q_move)
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
        if W[ABORTED] != 0:   # the budget ran out: the rest of ``out`` is not set
            break
        out[i] = v
