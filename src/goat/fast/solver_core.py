"""The numba kernel of the double-dummy solver (see :mod:`goat.fast.solver`):
the state layout and the rules helpers; the search is in :mod:`goat.fast.solver_search`.

Everything here works on small integers so numba can compile it, and on just
two arrays so that a recursive call passes almost nothing:

* cards are *compact* indices ``0..31`` assigned in (suit class, strength) order
  for the deal, so one class is a contiguous run of bits, weakest first; hands
  are ``int64`` bitmasks of them;
* ``W`` (one ``int64`` array) holds the mutable search state (hands, trick,
  stock, trump-lead state — changed in place and restored after each move), the
  constants of the deal (side, rule codes, strength / class / point tables, class
  masks), the per-depth move, score and trick-undo buffers and a node counter;
* ``TT``, the transposition table, holds 4 words an entry: two words of hands,
  one of leader / stock position / trump-lead state / *generation*, and the
  packed bounds and best move. A new generation makes every old entry a miss, so
  the table is never cleared. A solve with a node budget (``MAX_NODES``) that
  runs out sets ``ABORTED``: every frame then returns at once without storing
  (an unfinished subtree's bound would be wrong), and the drivers stop. The rank-pattern entries (``USE_QUASI``) share it:
  their key has a stock position no exact key has, their fourth word the bounds,
  the rank of the best lead and the live cards (:func:`goat.fast.solver_search.quasi_store`).

Values are side A's card points in the cards not yet in a finished trick, or a
decisive value (``±CATCH`` shamok catch, ``±ROYAL`` royal goat) that ends the
deal whatever the points. Which sign a catch gets is read from ``W[CATCH_FOR]``
and ``W[CATCH_AGAINST]`` (``+CATCH`` and ``-CATCH`` but in the null-window tests
of :mod:`goat.fast.solver_rank`, where a catch is a win or a loss of the test by
the table's options): see :func:`child_alpha` for how a window is carried
across a finished trick.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# The card-set questions (how many, lowest, highest) are single instructions.
from goat.fast.bits import highest_bit_index as highbit_index
from goat.fast.bits import lowest_bit_index as lowbit_index
from goat.fast.bits import popcount

# ------------------------------------------------- W: the search state
HANDS = 0          # 0..3: hands of seats 0..3
TRICK = 4          # 4..7: cards on the table, in play order
NTRICK = 8         # cards on the table (4: complete, not yet scored)
LEADER = 9         # seat that led this trick
SPOS = 10          # next stock card to draw
SLEN = 11          # stock length
FIRST = 12         # 1 while no trick is finished (the opening lead must be plain)
PREV_LT = 13       # team that led the previous trick (-1: none)
MUST_LEAD = 14     # card the leader must lead (after a forced exchange), -1: none
REM_PTS = 15       # points of the cards not yet in a finished trick
STOCK = 16         # 16..47: stock cards, top first
STOCK_LIVE = 48    # 48..80: mask of the stock cards from position i on
GEN = 81           # transposition-table generation of this solve
NODES = 82         # node counter
PASSES = 83        # null-window passes of the last solve
HORIZON = 84       # guess search: plies after which a trick start is estimated (0: exact)
Q_PROBES = 85      # rank-pattern entries (see USE_QUASI): probes made,
Q_HITS = 86        # ... entries found for the probed rank pattern,
Q_CUTS = 87        # ... of them settling the window,
Q_NARROW = 88      # ... of them narrowing it
QUASI_ON = 89      # 1: use the rank-pattern entries (USE_QUASI when the position is loaded)
Q_CATCH_CUTS = 90  # rank-pattern cut-offs made with a shamok catch possible
Q_STOCK_CUTS = 91  # rank-pattern cut-offs made with cards in the stock
# (92: the individual-play kernel's player count, goat.fast.solver_solo.NPL)
MAX_NODES = 93     # node budget of this solve: 0 none, else abort once NODES passes it
ABORTED = 94       # 1 once the budget ran out: the search unwinds, storing nothing
# ------------------------------------------------- W: the deal's constants
SIDE = 96          # team whose points are maximised (0: seats 0+2, 1: seats 1+3)
LEAD_RULE = 97     # 0 free, 1 opening-only, 2 previous-opener, 3 not-after-own-lead
PREV_OPEN = 98     # team that made the opening lead of the previous deal (-1: none)
FOLLOW_TRUMP = 99  # a trump lead must be followed with a trump
FORCED_EX = 100    # forced exchange enabled
SHAMOK_ON = 101    # shamok catches the queen of clubs
HAND_SIZE = 102
SHAMOK = 103       # compact index of 7C (-1: none)
QUEEN = 104        # compact index of QC (-1: none)
ROYAL_ON = 105     # royal goat checked after each trick
ACES = 106         # mask of the four aces
TRUMPS = 107       # mask of all trumps
CLASS_MASK = 108   # 108..112
NGROUPS = 113      # number of point groups of two cards or more (listed first)
SINGLES = 114      # mask of the cards that form a point group alone
NLEVELS = 115      # number of distinct card-point values in the deck
TRUMP_ON_PLAIN = 116  # 1: a player holding a plain lead's suit may trump it (trump_on_plain="always")
CATCH_FOR = 117    # value of a shamok catch of a queen of clubs the other side played (CATCH
CATCH_AGAINST = 118  # ... and of one ``side`` played (-CATCH); goat.fast.solver_rank may swap them
STRENGTH = 128     # 128..159
CLASS = 160        # 160..191: 0..3 plain suit, 4 trump
POINTS = 192       # 192..223
GROUP_OF = 224     # 224..255: point group of each card
GROUP_MASK = 256   # 256..287: cards of each point group
LEVEL_MASK = 288   # 288..295: the cards worth each point value, cheapest value first
LEVEL_PTS = 296    # 296..303: that value
# ------------------------------------------------- W: scratch
MAX_MOVES = 72     # 8 trumps x 8 plain cards of a forced exchange, plus margin
MAX_DEPTH = 40
MOVES = 304
SCORES = MOVES + MAX_DEPTH * MAX_MOVES
HIST = SCORES + MAX_DEPTH * MAX_MOVES   # history counts: (table position, seat, card)
SAVE = HIST + 4 * 4 * 32            # per depth: what close_trick changes, for reopen_trick
W_SIZE = SAVE + MAX_DEPTH * 12
CONST_START, CONST_END = SIDE, MOVES

TRUMP_CLASS = 4
CATCH = 1000       # shamok catches the queen: decisive, above any point total
ROYAL = 2000       # royal goat: wins the match, above everything
INF = 10000
NONE = -INF - 1
BOUND_BIAS = 1 << 14
USE_CANONICAL = True
# A second, rank-abstracted ("quasi-symmetric") table entry for each trick start
# with no royal goat checked and the stock empty or short (at most 12 cards):
# keyed on who holds the i-th live card of each class (a seat or a place in the
# stock; points ignored) and, when a shamok catch is possible, where the shamok
# and the queen of clubs sit among the live cards; its bounds corrected by the
# point difference of the rank-mapped cards on a hit
# (goat.fast.solver_search.quasi_probe).
# Read when a position is loaded (W[QUASI_ON]), so it can be switched off at run
# time without recompiling: the tests compare values with and without it.
USE_QUASI = True


@njit(cache=True, inline="always")
def ix(i: int) -> int:
    """``i`` as an unsigned index: numba then indexes ``W`` without its
    negative-index wraparound (a test and an add on every access LLVM cannot
    prove non-negative, such as the per-depth move buffers). Free: the cast is
    a no-op; only for indices that are never negative."""
    return np.uint64(i)


def set_groups(W: np.ndarray, groups: list[int]) -> None:
    """Write the deal's *point groups* (bitmasks of compact cards; see
    :func:`goat.fast.solver_search.canonical`) into ``W``: the groups of two cards
    or more first (the only ones the table key has to canonicalise), then the
    single cards, whose mask is ``SINGLES``; and the *point levels*, the cards of
    each point value, for :func:`goat.fast.solver_search.cheapest`."""
    ordered = [g for g in groups if g & (g - 1)] + [g for g in groups if not g & (g - 1)]
    W[NGROUPS] = sum(1 for g in groups if g & (g - 1))
    W[SINGLES] = sum(g for g in groups if not g & (g - 1))
    for k, g in enumerate(ordered):
        W[GROUP_MASK + k] = g
        x = g
        while x:
            low = x & -x
            W[GROUP_OF + low.bit_length() - 1] = k
            x ^= low
    # the *point levels* (the cards of each value, cheapest first; at most 8: the
    # ranks of a 32-card deck), for the cheapest cards a hand can give
    values = sorted({int(W[POINTS + i]) for g in groups for i in range(32) if g >> i & 1})
    W[NLEVELS] = len(values)
    for k, v in enumerate(values):
        W[LEVEL_PTS + k] = v
        W[LEVEL_MASK + k] = sum(1 << i for g in groups for i in range(32)
                                if g >> i & 1 and W[POINTS + i] == v)


def new_table(bits: int) -> np.ndarray:
    """An empty transposition table of ``2**bits`` entries."""
    tt = np.zeros(4 << bits, dtype=np.int64)
    tt[2::4] = -1  # no generation matches
    return tt


@njit(cache=True, inline="always")
def over_budget(W: np.ndarray) -> bool:
    """Has this solve searched more nodes than its budget (``MAX_NODES``)? One
    compare per node: as unsigned numbers ``MAX_NODES - 1`` is the largest value
    when there is no budget (0), so ``NODES - 1`` (``NODES`` >= 1 once counted)
    never exceeds it. Called by each kernel's ``search`` after counting its node;
    on ``True`` the search sets ``ABORTED`` and unwinds (see
    :mod:`goat.fast.solver`, "node budget")."""
    return np.uint64(W[MAX_NODES] - 1) < np.uint64(W[NODES] - 1)


@njit(cache=True, inline="always")
def beats(W: np.ndarray, a: int, b: int) -> bool:
    ca, cb = W[ix(CLASS + a)], W[ix(CLASS + b)]
    if ca == cb:
        return W[ix(STRENGTH + a)] > W[ix(STRENGTH + b)]
    return ca == TRUMP_CLASS


@njit(cache=True, inline="always")
def child_alpha(x: int, pts: int) -> int:
    """Lower window bound for the next trick's value, given ``pts`` taken in this one.

    The parent's value is ``f(v) = v + pts`` for a point value (``0..120``) and
    ``v`` for a decisive one; ``f`` is monotone. The child bound ``a`` must give
    ``v <= a <=> f(v) <= x``; when several ``a`` qualify (``x`` falls in a gap
    between possible values) the lowest is taken, and :func:`child_beta` takes the
    highest, so a null window never collapses into an empty one.
    """
    if x >= CATCH or x <= -CATCH:
        return x
    y = x - pts
    if y < 0:
        return -CATCH
    if y > 120:
        return 120
    return y


@njit(cache=True, inline="always")
def child_beta(x: int, pts: int) -> int:
    """Upper window bound: ``v >= b <=> f(v) >= x`` (see :func:`child_alpha`)."""
    if x >= CATCH or x <= -CATCH:
        return x
    y = x - pts
    if y <= 0:
        return 0
    if y > 120:
        return CATCH
    return y


@njit(cache=True, inline="always")
def combine(v: int, pts: int) -> int:
    if v >= CATCH or v <= -CATCH:
        return v
    return v + pts


@njit(cache=True, inline="always")
def tt_slot(k1: int, k2: int, k3: int, mask: int) -> int:
    h = (k1 * 0x1E3779B97F4A7C15) ^ (k2 * 0x42B2AE3D27D4EB4F) ^ (k3 * 0x165667B19E3779F9)
    h ^= h >> 31
    h *= 0x14D049BB133111EB
    h ^= h >> 29
    return (h & mask) * 4


@njit(cache=True, inline="always")
def lead_restricted(W: np.ndarray, seat: int) -> bool:
    rule = W[LEAD_RULE]
    if rule == 0:
        return False
    if W[FIRST] == 1:
        return True
    if rule == 1:
        return False
    team = seat & 1
    if rule == 2:
        return W[PREV_OPEN] == team
    return W[PREV_LT] == team


@njit(cache=True, inline="always")
def equivalent(W: np.ndarray, c: int, rep: int, others: int) -> bool:
    """Is card ``c`` equivalent to ``rep``, the card before it in one hand (-1:
    none)? Equal points, one class, none of ``others`` (the other seats' live
    cards) between them: playing either gives the same value, so only the lower
    is searched. The shamok and the queen of clubs are never merged."""
    if rep < 0 or W[ix(CLASS + c)] != W[ix(CLASS + rep)] or W[ix(POINTS + c)] != W[ix(POINTS + rep)]:
        return False
    if c == W[SHAMOK] or c == W[QUEEN] or rep == W[SHAMOK] or rep == W[QUEEN]:
        return False
    between = ((1 << c) - 1) & ~((1 << (rep + 1)) - 1)
    return (between & others) == 0


@njit(cache=True, inline="always")
def distinct_cards(W: np.ndarray, cards: int, others: int) -> int:
    """``cards`` (of one hand, ascending) without those :func:`equivalent` to the
    card kept before them. A hand's legal cards are whole classes of it, so
    this of the hand, masked, is this of its legal cards."""
    out = 0
    rep = -1
    x = cards
    while x:
        c = lowbit_index(x)
        x &= x - 1
        if not equivalent(W, c, rep, others):
            out |= 1 << c
            rep = c
    return out


@njit(cache=True, inline="always")
def gen_moves(W: np.ndarray, seat: int, base: int) -> int:
    """Write the moves of ``seat`` at ``W[base:]``; return their count.

    A move is a card index, or ``p + 32 * (t + 1)`` for a forced exchange
    (give trump ``t`` to the partner, lead the plain card ``p`` received).
    Equal-point cards of one class with no other seat's live card between them
    are played once (equivalent cards); the shamok and the queen of clubs are
    never merged.
    """
    hand = W[HANDS + seat]
    ntrick = W[NTRICK]
    if ntrick == 0:
        if W[MUST_LEAD] >= 0:
            W[base] = W[MUST_LEAD]
            return 1
        legal = hand
        if lead_restricted(W, seat):
            plain = hand & ~W[TRUMPS]
            if plain:
                legal = plain
            else:
                pplain = W[HANDS + ((seat + 2) & 3)] & ~W[TRUMPS]
                if W[FORCED_EX] == 1 and pplain:
                    n = 0
                    th = hand
                    while th:
                        t = lowbit_index(th)
                        th &= th - 1
                        pp = pplain
                        while pp:
                            p = lowbit_index(pp)
                            pp &= pp - 1
                            W[ix(base + n)] = p + 32 * (t + 1)
                            n += 1
                    return n
    else:
        legal = legal_in(W, hand, W[ix(CLASS + W[TRICK])])
    if (legal & (legal - 1)) == 0:  # a single legal card
        W[base] = lowbit_index(legal)
        return 1
    # live cards of the other seats: other hands, the stock still to draw, the table
    others = W[ix(STOCK_LIVE + W[SPOS])]
    for s in range(4):
        if s != seat:
            others |= W[HANDS + s]
    for i in range(ntrick):
        others |= 1 << W[TRICK + i]
    n = 0
    x = distinct_cards(W, legal, others)
    while x:
        W[ix(base + n)] = lowbit_index(x)
        x &= x - 1
        n += 1
    return n


# Order score malus of a trump played to a plain lead while holding its suit
# (:func:`later_ruffs`): below every follow score, above a picked key.
RUFF_LATER = 1 << 20


@njit(cache=True, inline="always")
def later_ruffs(W: np.ndarray, lc: int, hand: int, partner_wins: bool, second: bool) -> int:
    """The trumps of ``hand`` to try after its other follows to a lead of class
    ``lc``: those it may play only by ``TRUMP_ON_PLAIN`` (it holds the led plain
    suit), as the second seat or while the partner is winning the trick — there
    a trump mostly spends a trick-winner for nothing: the second seat's trick is
    still open to both later seats, the partner's is the team's already. A mask
    found once per move list (the per-card test is one bit). Always 0 under
    "when-void" (a trump while holding the suit is not legal), so that order is
    unchanged. Measured on the 40 full-hand deals of seed 0 under "always":
    90.8M -> 79.8M nodes (the second seat alone 85.0M, the partner's trick
    alone 87.0M); every such trump last: 142.5M; also in the third and last
    seat on a trick worth under 11: more nodes."""
    if (W[TRUMP_ON_PLAIN] == 0 or not (second or partner_wins) or lc == TRUMP_CLASS
            or (hand & W[ix(CLASS_MASK + lc)]) == 0):
        return 0
    return W[TRUMPS]


@njit(cache=True, inline="always")
def follow_score(pts: int, strength: int, last: bool, partner_wins: bool, wins: bool) -> int:
    """Order score of a card (``pts`` points, ``strength``) played to a trick, not
    led: feed points to a winning partner, else win cheaply, else throw low; the
    last card of the trick weights points more (its result is certain)."""
    if partner_wins:
        return 1000 + 20 * pts - strength if last else 500 + pts * 5 - strength
    if wins:
        return 2000 + 20 * pts - strength if last else 1500 - strength + pts
    return 100 - 5 * pts - strength


@njit(cache=True, inline="always")
def sure_lead(W: np.ndarray, seat: int, c: int) -> bool:
    """Does the lead ``c`` of ``seat`` surely win the trick for its team? No
    opponent holds a card of its class higher than ``c`` or the partner's
    highest one, and each opponent either must follow the class or holds no
    trump (for a trump lead: no opponent holds a trump that high; with
    ``TRUMP_ON_PLAIN`` an opponent holding a trump may always play it). Such leads
    are tried first (``SURE_LEAD``, above any history count; measured on 20
    deals after :func:`third_score`: full-hand 1.96M -> 1.84M nodes with the
    leader's own card only, 1.70M with the partner's too; classic 0.67M ->
    0.63M -> 0.60M). An ordering heuristic only: whether the partner does
    play its high card is left to the search."""
    o1 = W[(seat + 1) & 3]
    o3 = W[(seat + 3) & 3]
    cm = W[ix(CLASS_MASK + W[ix(CLASS + c)])]
    f1 = o1 & cm
    f3 = o3 & cm
    fp = W[(seat + 2) & 3] & cm
    if fp and highbit_index(fp) > c:
        c = highbit_index(fp)
    if ((f1 | f3) >> (c + 1)) != 0:
        return False
    t = W[TRUMPS]
    free = W[TRUMP_ON_PLAIN] == 1
    return (cm == t) or not (((f1 == 0 or free) and (o1 & t) != 0) or ((f3 == 0 or free) and (o3 & t) != 0))


@njit(cache=True, inline="always")
def sure_loser(W: np.ndarray, seat: int, c: int) -> bool:
    """Does the lead ``c`` of ``seat`` surely lose the trick? An opponent may
    play a card that beats ``c`` and every card the partner may play (a higher
    card of the class, or a trump when void). Such leads are tried last (minus
    ``SURE_LEAD``; measured on 20 deals after :func:`second_score`: full-hand
    1.37M -> 1.25M nodes, classic 0.53M -> 0.51M). A heuristic only."""
    lc = W[ix(CLASS + c)]
    wm = W[TRUMPS] | W[ix(CLASS_MASK + lc)]
    ob = (legal_in(W, W[(seat + 1) & 3], lc) | legal_in(W, W[(seat + 3) & 3], lc)) & wm
    pb = legal_in(W, W[(seat + 2) & 3], lc) & wm
    return ob != 0 and highbit_index(ob) > max(c, highbit_index(pb) if pb else -1)


@njit(cache=True, inline="always")
def legal_in(W: np.ndarray, hand: int, lc: int) -> int:
    """The cards of ``hand`` that may follow a lead of class ``lc``: the class if
    the hand holds it (and then, on a plain lead with ``TRUMP_ON_PLAIN``, its
    trumps too), else any card; any card on a trump lead without ``FOLLOW_TRUMP``.
    The one follow rule of the 4-player kernel (moves, endings, move order)."""
    if lc == TRUMP_CLASS and W[FOLLOW_TRUMP] == 0:
        return hand
    follow = hand & W[ix(CLASS_MASK + lc)]
    if follow == 0:
        return hand
    if lc != TRUMP_CLASS and W[TRUMP_ON_PLAIN] == 1:
        return follow | (hand & W[TRUMPS])
    return follow


@njit(cache=True, inline="always")
def second_mode(win: int, mine: int, beat3: int, beat4: int) -> int:
    """How the second seat's cards are ordered (:func:`second_score`), from the
    legal cards of the trick's other three seats that can beat the led class
    (``mine``: this seat's, ``beat3``: the next opponent's, ``beat4``: the
    partner's, who plays last; ``win``: the card led), all in the ``wmask`` of
    :func:`third_score`: 1 if the partner's best card beats everything the
    opponent can still play (the trick is the team's whatever this seat plays),
    2 if the opponent's best beats everything this team can play (it is
    theirs), else 0."""
    top3 = highbit_index(beat3) if beat3 else -1
    top4 = highbit_index(beat4) if beat4 else -1
    if top4 > max(win, top3):
        return 1
    if top3 > max(win, top4, highbit_index(mine) if mine else -1):
        return 2
    return 0


@njit(cache=True, inline="always")
def second_score(W: np.ndarray, c: int, win: int, wmask: int, mode: int) -> int:
    """Order score of card ``c`` played second to a trick led with ``win``: the
    other hands are known (double dummy), so when :func:`second_mode` finds the
    trick settled whatever this seat plays, feed the partner's sure trick the
    most points (1) or give the opponents' the fewest (2); else
    :func:`follow_score` (win cheaply, else throw low). Measured on 20 deals:
    full-hand 1.71M -> 1.37M nodes, classic 0.60M -> 0.53M (a card that wins
    and that the next opponent cannot beat given the points, instead, measured
    worse than :func:`follow_score`)."""
    pts = W[ix(POINTS + c)]
    strength = W[ix(STRENGTH + c)]
    if mode == 1:
        return 2000 + 20 * pts - strength
    if mode == 2:
        return 100 - 5 * pts - strength
    return follow_score(pts, strength, False, False, (wmask >> c) & 1 == 1 and c > win)


@njit(cache=True, inline="always")
def third_score(W: np.ndarray, c: int, win: int, partner_wins: bool, wmask: int, beat4: int) -> int:
    """Order score of card ``c`` played third to a trick: ``win`` is the card
    winning so far, ``wmask`` the cards that can beat a card of the led class
    (its class and the trumps: in compact order a card beats the lower ones of
    ``wmask``), ``beat4`` the last seat's legal cards among them.

    The last seat's hand is known (double dummy), so unlike :func:`follow_score`
    this looks one card ahead: if the trick stays with this team whatever the
    last seat plays, feed points (the last card's rule); if this card takes the
    lead but the last seat can still beat it, play the strongest, cheapest such
    card (the last seat has to spend its best to take the trick); else throw
    low. Measured on 20 deals: full-hand 2.52M -> 1.96M nodes, classic 0.74M ->
    0.67M, the same values (the first cut-off move of a third seat was 86-88%
    of cut-offs there, the weakest of the four seats). The same look-ahead for
    the second seat (a card the third seat cannot beat) measured worse than
    :func:`follow_score`, as did feeding a partner the last seat can beat."""
    pts = W[ix(POINTS + c)]
    strength = W[ix(STRENGTH + c)]
    nw = win
    ours = partner_wins
    if (wmask >> c) & 1 and c > win:
        nw = c
        ours = True
    if ours and (beat4 >> (nw + 1)) == 0:
        return 2000 + 20 * pts - strength
    if nw == c:
        return 1500 + strength - 5 * pts
    return 100 - 5 * pts - strength


SURE_LEAD = 1 << 20  # lead score bonus of a sure winner (sure_lead), malus of a sure
                     # loser (sure_loser): beyond the history counts


@njit(cache=True, inline="always")
def lead_score(W: np.ndarray, seat: int, c: int) -> int:
    """Order score of the lead ``c`` of ``seat`` (after the table's move): high,
    plus the history of cut-offs it made elsewhere in the solve, the sure
    winners (:func:`sure_lead`) above all and the sure losers (:func:`sure_loser`)
    below all. One rule for :func:`score_moves` and the three-trick ending's
    ``lead_order``."""
    sc = W[ix(STRENGTH + c)] + W[ix(HIST + seat * 32 + c)]
    if sure_lead(W, seat, c):
        return sc + SURE_LEAD
    if sure_loser(W, seat, c):
        return sc - SURE_LEAD
    return sc


# A scored move is one word, its *key*: the score, then the move's position in
# the list (reversed, so that of equal scores the earlier move is the larger key),
# then the move itself. Keys are distinct, so the best move is the plain maximum
# and picking it needs neither a tie rule nor a shift of the moves after it.
KEY_POS = 11              # the move takes the low 11 bits (a forced exchange: < 32 * 33)
KEY_SCORE = KEY_POS + 7   # positions 0..MAX_MOVES-1 < 128
TAKEN = -(1 << 62)        # a key already picked: below every score


@njit(cache=True, inline="always")
def score_moves(W: np.ndarray, seat: int, base: int, sbase: int, n: int, first: int) -> None:
    """Key the ``n`` moves at ``W[base:]`` (at ``W[sbase:]``) by a cheap heuristic,
    higher first (``first``, the table's best move, above all); :func:`next_best`
    picks them in that order lazily, since the first move usually cuts off."""
    ntrick = W[NTRICK]
    best = -1
    best_seat = -1
    for i in range(ntrick):
        c = W[TRICK + i]
        if best < 0 or beats(W, c, best):
            best = c
            best_seat = (W[LEADER] + i) & 3
    last = ntrick == 3
    ruffs = 0
    if ntrick > 0:
        ruffs = later_ruffs(W, W[ix(CLASS + W[TRICK])], W[seat], (best_seat & 1) == (seat & 1), ntrick == 1)
    wmask = beat4 = mode = 0
    if ntrick == 1 or ntrick == 2:  # what the seats after this one can beat with
        lc = W[ix(CLASS + W[TRICK])]
        wmask = W[TRUMPS] | W[ix(CLASS_MASK + lc)]
        beat4 = legal_in(W, W[(seat + 1) & 3], lc) & wmask
        if ntrick == 1:
            mode = second_mode(best, legal_in(W, W[seat], lc) & wmask, beat4,
                               legal_in(W, W[(seat + 2) & 3], lc) & wmask)
    for i in range(n):
        m = W[ix(base + i)]
        c = m % 32
        pts = W[POINTS + c]
        strength = W[STRENGTH + c]
        if m == first:
            sc = 1 << 40
        elif ntrick == 0:  # lead high (measured: fewer nodes than weighting points)
            # plus the history of cut-offs this lead made elsewhere in the solve
            # (measured: ~20% fewer nodes; for follows the heuristic below is better)
            sc = lead_score(W, seat, c)
        elif ntrick == 1:
            sc = second_score(W, c, best, wmask, mode)
        elif ntrick == 2:
            sc = third_score(W, c, best, (best_seat & 1) == (seat & 1), wmask, beat4)
        else:
            partner_wins = (best_seat & 1) == (seat & 1)
            sc = follow_score(pts, strength, last, partner_wins,
                              not partner_wins and beats(W, c, best))
        if (ruffs >> c) & 1:
            sc -= RUFF_LATER
        W[ix(sbase + i)] = (sc << KEY_SCORE) | ((127 - i) << KEY_POS) | m


@njit(cache=True, inline="always")
def next_best(W: np.ndarray, sbase: int, n: int) -> int:
    """The best of the keyed moves at ``W[sbase:sbase + n]`` not yet picked (see
    :func:`score_moves`), marked picked. The order is a stable sort's by score:
    equal scores in list order."""
    k = 0
    best = W[ix(sbase)]
    for j in range(1, n):
        key = W[ix(sbase + j)]
        if key > best:
            best = key
            k = j
    W[ix(sbase + k)] = TAKEN
    return best & ((1 << KEY_POS) - 1)


@njit(cache=True, inline="always")
def trick_winner(W: np.ndarray) -> int:
    """Seat that wins the full trick on the table."""
    best = W[TRICK]
    win = 0
    for i in range(1, 4):
        c = W[TRICK + i]
        if beats(W, c, best):
            best = c
            win = i
    return (W[LEADER] + win) & 3


@njit(cache=True, inline="always")
def trick_points(W: np.ndarray) -> int:
    return (W[ix(POINTS + W[TRICK])] + W[ix(POINTS + W[TRICK + 1])]
            + W[ix(POINTS + W[TRICK + 2])] + W[ix(POINTS + W[TRICK + 3])])


@njit(cache=True, inline="always")
def catch_value(W: np.ndarray, card: int, pos: int) -> int:
    """Decisive value if ``card`` (just put at table position ``pos``) completes
    a shamok catch, else 0."""
    if W[SHAMOK_ON] == 0:
        return 0
    sh, qc = W[SHAMOK], W[QUEEN]
    if card != sh and card != qc:
        return 0
    other = qc if card == sh else sh
    leader = W[LEADER]
    for i in range(pos):
        if W[TRICK + i] == other:
            seat_other = (leader + i) & 3
            seat_me = (leader + pos) & 3
            if (seat_other & 1) == (seat_me & 1):
                return 0
            queen_team = (seat_me if card == qc else seat_other) & 1
            return W[CATCH_AGAINST] if queen_team == W[SIDE] else W[CATCH_FOR]
    return 0


@njit(cache=True, inline="always")
def draw(W: np.ndarray, winner: int) -> None:
    """Draw from the stock one card at a time clockwise from the trick winner,
    up to the hand size (as :func:`goat.games.tricks.draw_to`)."""
    pos = W[SPOS]
    slen = W[SLEN]
    hs = W[HAND_SIZE]
    while pos < slen:
        progressed = False
        for i in range(4):
            if pos >= slen:
                break
            s = (winner + i) & 3
            if popcount(W[s]) < hs:
                W[s] |= 1 << W[STOCK + pos]
                pos += 1
                progressed = True
        if not progressed:
            break
    W[SPOS] = pos


@njit(cache=True, inline="always")
def royal_value(W: np.ndarray) -> int:
    """Decisive value if a hand holds all four aces after a trick (royal goat), else 0."""
    if W[ROYAL_ON] == 0:
        return 0
    for s in range(4):
        if (W[s] & W[ACES]) == W[ACES]:
            return ROYAL if (s & 1) == W[SIDE] else -ROYAL
    return 0


@njit(cache=True, inline="always")
def decisive_possible(W: np.ndarray) -> bool:
    """At a trick start: can the rest of the deal end with a shamok catch or a
    royal goat? If not, the value lies in ``0..REM_PTS`` (a free cut-off)."""
    if W[ROYAL_ON] == 1:
        for s in range(4):
            if (W[s] & W[ACES]) == W[ACES]:
                return True
    if W[SHAMOK_ON] == 0:
        return False
    both = (1 << W[SHAMOK]) | (1 << W[QUEEN])
    stock = W[ix(STOCK_LIVE + W[SPOS])]
    if both & stock:
        return ((W[0] | W[1] | W[2] | W[3] | stock) & both) == both
    team0 = (W[0] | W[2]) & both
    team1 = (W[1] | W[3]) & both
    return team0 != 0 and team1 != 0 and (team0 | team1) == both


@njit(cache=True, inline="always")
def close_trick(W: np.ndarray, depth: int) -> tuple:
    """Finish the complete trick on the table: score it, draw, make its winner
    the next leader (the undo information goes to ``depth``'s save slot, for
    :func:`reopen_trick`). Returns ``(decisive, mine, pts)``: a royal-goat value
    or 0, the points the trick gives side A and the trick's points."""
    winner = trick_winner(W)
    pts = trick_points(W)
    mine = pts if (winner & 1) == W[SIDE] else 0
    b = SAVE + depth * 12
    W[b], W[b + 1], W[b + 2], W[b + 3] = W[0], W[1], W[2], W[3]
    W[b + 4], W[b + 5], W[b + 6], W[b + 7] = W[SPOS], W[LEADER], W[FIRST], W[PREV_LT]
    W[b + 8], W[b + 9], W[b + 10], W[b + 11] = W[TRICK], W[TRICK + 1], W[TRICK + 2], W[TRICK + 3]
    draw(W, winner)
    v = royal_value(W)
    W[NTRICK] = 0
    W[PREV_LT] = W[LEADER] & 1
    W[LEADER] = winner
    W[FIRST] = 0
    W[REM_PTS] -= pts
    return v, mine, pts


@njit(cache=True, inline="always")
def reopen_trick(W: np.ndarray, depth: int, pts: int) -> None:
    """Undo :func:`close_trick` (the trick's cards are back on the table)."""
    b = SAVE + depth * 12
    W[0], W[1], W[2], W[3] = W[b], W[b + 1], W[b + 2], W[b + 3]
    W[SPOS], W[LEADER], W[FIRST], W[PREV_LT] = W[b + 4], W[b + 5], W[b + 6], W[b + 7]
    W[TRICK], W[TRICK + 1], W[TRICK + 2], W[TRICK + 3] = W[b + 8], W[b + 9], W[b + 10], W[b + 11]
    W[REM_PTS] += pts
    W[NTRICK] = 4
