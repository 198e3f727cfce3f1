"""The compiled part of the batch simulator: one ``@njit`` loop over many deals.

Everything here works on plain integers and numpy arrays (hands are ``uint64``
bitmasks over :attr:`goat.cards.Card.index`), so numba compiles it to a tight
loop with no Python objects. The rules are the ones of
:mod:`goat.games.kozel.single` and :mod:`goat.games.kozel.state`, step for step;
``tests/fast/test_sim.py`` replays the kernel's games through that engine and
compares every legal-action set and every result.

A random choice is uniform over the legal actions **in card-index order**: the
kernel draws ``r < m`` from a xorshift64 generator and takes the ``r``-th set bit
of the legal mask.

Speed notes: arrays are never passed to helper functions inside the loop (each
call would cost atomic reference-count updates: recording an action through a
helper made the kernel 4x slower); the helpers take and return integers only.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from goat.fast.bits import lowest_bit_index, popcount

# ---------------------------------------------------------------- constants
#: ``ended_by`` codes, in the order of :data:`ENDED_BY_NAMES`.
CARDS_EXHAUSTED, SHAMOK_CAUGHT, ROYAL_GOAT, ANNULLED = 0, 1, 2, 3
ENDED_BY_NAMES = ("cards-exhausted", "shamok-caught-queen", "royal-goat", "annulled")

#: ``trump_lead`` option codes.
TL_FREE, TL_OPENING_ONLY, TL_PREVIOUS_OPENER, TL_NOT_AFTER_OWN_LEAD = 0, 1, 2, 3

#: Indices of the rule parameters in the ``params`` array.
(P_PLAYERS, P_HAND_SIZE, P_STOCK_SIZE, P_PARTNERS, P_TRUMP_LEAD, P_FOLLOW_TRUMP, P_FORCED,
 P_SHAMOK, P_PARTNER_EXCHANGE, P_ROYAL, P_TIE_ANNUL, P_GRADED, P_SHAMOK_PENALTY,
 P_DECK_SIZE, P_TRUMP_ON_PLAIN) = range(15)
NUM_PARAMS = 15

#: Action codes: ``seat << SEAT_SHIFT | GIVE_FLAG (if a give) | card index``.
GIVE_FLAG = 64
SEAT_SHIFT = 7
CARD_MASK = 63
#: The most actions one deal can take: every card played, four partner gives and
#: a forced exchange (two gives) before each trick.
MAX_ACTIONS = 36 + 4 + 2 * 18

TRUMP = 4
SHAMOK_INDEX = 1   # 7C: clubs (suit 0) x rank "7" (1)
QUEEN_CLUBS_INDEX = 6  # QC

_ONE = np.uint64(1)
_ZERO = np.uint64(0)


# ------------------------------------------------------------ bit intrinsics
def _has_bmi2() -> bool:
    try:
        import llvmlite.binding as llvm

        return bool(llvm.get_host_cpu_features().get("bmi2", False))
    except Exception:  # noqa: BLE001 - any failure means "do not use it"
        return False


#: ``pdep`` (BMI2) turns "the r-th set bit" into two instructions; without it a
#: short loop does the same.
HAS_BMI2 = _has_bmi2()


@intrinsic
def _pdep(typingctx, src, mask):  # type: ignore[no-untyped-def]
    """BMI2 ``pdep``: deposit the low bits of ``src`` at the set bits of ``mask``."""
    if src != types.uint64 or mask != types.uint64:
        return None

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        i64 = ir.IntType(64)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i64, [i64, i64]),
                                            "llvm.x86.bmi.pdep.64")
        return builder.call(fn, args)

    return types.uint64(types.uint64, types.uint64), codegen


@njit(inline="always")
def bit(card: int) -> np.uint64:
    return _ONE << np.uint64(card)


@njit(inline="always")
def splitmix64(seed: np.uint64) -> np.uint64:
    """A well-mixed, non-zero xorshift state from any seed."""
    z = seed + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    if z == _ZERO:
        z = np.uint64(0x2545F4914F6CDD1D)
    return z


@njit(inline="always")
def xorshift(x: np.uint64) -> np.uint64:
    x ^= x << np.uint64(13)
    x ^= x >> np.uint64(7)
    x ^= x << np.uint64(17)
    return x


@njit(inline="always")
def below(x: np.uint64, m: np.uint64) -> np.uint64:
    """A number in ``0..m-1`` from the high half of the generator's state."""
    return ((x >> np.uint64(32)) * m) >> np.uint64(32)


@njit(inline="always")
def _nth_bit_loop(mask: np.uint64, r: np.uint64) -> np.uint64:
    for _ in range(r):
        mask &= mask - _ONE
    return lowest_bit_index(mask)


@njit(inline="always")
def _nth_bit_pdep(mask: np.uint64, r: np.uint64) -> np.uint64:
    return lowest_bit_index(_pdep(_ONE << r, mask))


#: Index of the ``r``-th (0-based, lowest first) set bit of ``mask``.
nth_bit = _nth_bit_pdep if HAS_BMI2 else _nth_bit_loop


# ------------------------------------------------------------------ dealing
#: ``trump_mode`` of :func:`random_deals`.
TRUMP_FIXED, TRUMP_FROM_DECK, TRUMP_FROM_STOCK = 0, 1, 2


@njit(cache=True)
def random_deals(params, deck, n, seed, trump_mode, fixed_trump,  # type: ignore[no-untyped-def]
                 hands, stock, trump_id, trump_card, dealer, prev_open):
    """Fill ``n`` random deals in place: shuffle ``deck`` (card indices), deal one
    card at a time clockwise from the seat left of the dealer, rest to the stock;
    a random dealer and a random previous opening team (``-1``: none). The trump
    suit is ``fixed_trump`` (``TRUMP_FIXED``; ``trump_card`` -1), or the suit of
    the shown ``trump_card``: a random deck card (``TRUMP_FROM_DECK``, drawn
    before the shuffle) or a card from the middle of the stock
    (``TRUMP_FROM_STOCK``: positions 1..len-2), as :meth:`KozelDeal.shuffle` does."""
    players = params[P_PLAYERS]
    size = params[P_HAND_SIZE]
    stock_size = params[P_STOCK_SIZE]
    teams = 2 if params[P_PARTNERS] else players
    cards = deck.copy()
    m = cards.shape[0]
    x = splitmix64(np.uint64(seed))
    for b in range(n):
        trump_id[b] = fixed_trump
        trump_card[b] = -1
        if trump_mode == TRUMP_FROM_DECK:
            x = xorshift(x)
            trump_card[b] = cards[below(x, np.uint64(m))]
        for i in range(m - 1, 0, -1):
            x = xorshift(x)
            j = below(x, np.uint64(i + 1))
            c = cards[i]
            cards[i] = cards[j]
            cards[j] = c
        x = xorshift(x)
        d = below(x, np.uint64(players))
        dealer[b] = d
        x = xorshift(x)
        prev_open[b] = np.int64(below(x, np.uint64(teams + 1))) - 1
        for s in range(players):
            hands[b, s] = _ZERO
        pos = 0
        for _ in range(size):
            for k in range(players):
                s = (d + 1 + k) % players
                hands[b, s] |= bit(cards[pos])
                pos += 1
        for k in range(stock_size):
            stock[b, k] = cards[pos + k]
        if trump_mode == TRUMP_FROM_STOCK:
            x = xorshift(x)
            if stock_size > 2:
                trump_card[b] = stock[b, 1 + below(x, np.uint64(stock_size - 2))]
            else:
                trump_card[b] = stock[b, below(x, np.uint64(stock_size))]
        if trump_card[b] >= 0:
            trump_id[b] = trump_card[b] // 9


# ---------------------------------------------------------------- one deal
@njit(inline="always")
def score_deal(pts, won, teams, graded, tie_annul, penalty_row):  # type: ignore[no-untyped-def]
    """A deal played out: (ended_by, winner side), penalties written to ``penalty_row``.

    The side above 60 wins; the others take 2 (``graded``: 2/4/6 by points and
    tricks). Nobody above 60: no penalty, or an annulled deal. Shared by the
    single-card and street kernels (once a deal, so the call costs nothing).
    """
    winner = -1
    for s in range(teams):
        if pts[s] > 60:
            winner = s
            break
    if winner < 0:
        return (ANNULLED if tie_annul else CARDS_EXHAUSTED), winner
    for s in range(teams):
        if s != winner:
            if not graded:
                penalty_row[s] = 2
            elif won[s] == 0:
                penalty_row[s] = 6
            elif pts[s] <= 30:
                penalty_row[s] = 4
            else:
                penalty_row[s] = 2
    return CARDS_EXHAUSTED, winner


@njit(inline="always")
def _team(seat, partners):  # type: ignore[no-untyped-def]
    return seat % 2 if partners else seat


@njit(cache=True)
def simulate_kernel(params, value, suit_class, class_mask, points_tab, aces,  # type: ignore[no-untyped-def]
                    hands0, stock, trump_id, dealer, leader, prev_open, seeds, record,
                    out_points, out_tricks, out_penalty, out_ended, out_winner,
                    out_actions, out_legal, out_nact):
    """Play every deal of the batch to its end with uniform random legal actions.

    Inputs per deal ``b``: ``hands0[b, seat]`` (bitmasks), ``stock[b, :]`` (card
    indices, top first), ``trump_id[b]`` (0..3 = C D H S: the row of the strength
    tables), ``dealer[b]``, ``leader[b]`` (the opening leader), ``prev_open[b]``
    (the team that made the opening lead of the previous deal, ``-1`` for none),
    ``seeds[b]``. ``record``: 0 results only, 1 also the actions, 2 also each
    step's legal mask. Outputs are written in place; returns the total number of
    actions taken (for rates).
    """
    players = params[P_PLAYERS]
    size = params[P_HAND_SIZE]
    stock_size = params[P_STOCK_SIZE]
    partners = params[P_PARTNERS] != 0
    trump_lead = params[P_TRUMP_LEAD]
    follow_trump = params[P_FOLLOW_TRUMP] != 0
    trump_on_plain = params[P_TRUMP_ON_PLAIN] != 0   # "always": a trump on a plain lead
    forced = params[P_FORCED] != 0 and partners
    shamok = params[P_SHAMOK] != 0
    partner_exchange = params[P_PARTNER_EXCHANGE] != 0 and partners
    royal = params[P_ROYAL] != 0
    tie_annul = params[P_TIE_ANNUL] != 0
    graded = params[P_GRADED] != 0
    shamok_penalty = params[P_SHAMOK_PENALTY]
    teams = 2 if partners else players

    hand = np.zeros(4, dtype=np.uint64)
    gives = np.zeros(4, dtype=np.int64)
    pts = np.zeros(4, dtype=np.int64)
    won = np.zeros(4, dtype=np.int64)
    total = 0

    for b in range(hands0.shape[0]):
        t = trump_id[b]
        tm = class_mask[t, TRUMP]
        x = splitmix64(np.uint64(seeds[b]))
        for s in range(players):
            hand[s] = hands0[b, s]
        for s in range(teams):
            pts[s] = 0
            won[s] = 0
            out_penalty[b, s] = 0
        sp = 0
        k = 0
        ended = -1
        winner = -1

        if royal:
            for s in range(players):
                if (hand[s] & aces) == aces:
                    ended = ROYAL_GOAT
                    winner = _team(s, partners)
                    break

        if ended < 0 and partner_exchange:
            s = (dealer[b] + 1) % players
            for _ in range(players):
                h = hand[s]
                x = xorshift(x)
                c = np.int64(nth_bit(h, below(x, popcount(h))))
                if record >= 1:
                    out_actions[b, k] = (s << SEAT_SHIFT) | GIVE_FLAG | c
                    if record >= 2:
                        out_legal[b, k] = h
                k += 1
                gives[s] = c
                hand[s] = h & ~bit(c)
                s = (s + 1) % players
            for s in range(players):
                hand[(s + 2) % 4] |= bit(gives[s])

        lead = leader[b]
        tricks_played = 0
        prev_leader_team = -1
        while ended < 0:
            # ------------------------------------------------------ the lead
            s = lead
            h = hand[s]
            team = _team(s, partners)
            if trump_lead == TL_FREE:
                restricted = False
            elif tricks_played == 0:
                restricted = True
            elif trump_lead == TL_OPENING_ONLY:
                restricted = False
            elif trump_lead == TL_PREVIOUS_OPENER:
                restricted = prev_open[b] == team
            else:
                restricted = prev_leader_team == team
            legal = h
            if restricted:
                plain = h & ~tm
                if plain != _ZERO:
                    legal = plain
                elif forced:
                    p = (s + 2) % 4
                    back = hand[p] & ~tm
                    if back != _ZERO:
                        # Forced exchange: any card to the partner, a plain one back.
                        x = xorshift(x)
                        c = np.int64(nth_bit(h, below(x, popcount(h))))
                        if record >= 1:
                            out_actions[b, k] = (s << SEAT_SHIFT) | GIVE_FLAG | c
                            if record >= 2:
                                out_legal[b, k] = h
                        k += 1
                        hand[s] = h & ~bit(c)
                        hand[p] |= bit(c)
                        x = xorshift(x)
                        r = np.int64(nth_bit(back, below(x, popcount(back))))
                        if record >= 1:
                            out_actions[b, k] = (p << SEAT_SHIFT) | GIVE_FLAG | r
                            if record >= 2:
                                out_legal[b, k] = back
                        k += 1
                        hand[p] &= ~bit(r)
                        hand[s] |= bit(r)
                        legal = bit(r)
            x = xorshift(x)
            c = np.int64(nth_bit(legal, below(x, popcount(legal))))
            if record >= 1:
                out_actions[b, k] = (s << SEAT_SHIFT) | c
                if record >= 2:
                    out_legal[b, k] = legal
            k += 1
            hand[s] &= ~bit(c)
            led = suit_class[t, c]
            best_value = value[t, led, c]
            best_seat = s
            trick_points = points_tab[c]
            seat7 = s if c == SHAMOK_INDEX else -1
            seatq = s if c == QUEEN_CLUBS_INDEX else -1
            follow_mask = class_mask[t, led]
            free = led == TRUMP and not follow_trump
            # trump_on_plain="always": a plain lead's followers may trump too
            also = tm if trump_on_plain and led != TRUMP else _ZERO
            # ---------------------------------------------------- the others
            for i in range(1, players):
                s = lead + i
                if s >= players:
                    s -= players
                h = hand[s]
                f = h & follow_mask
                # Follow if you can (branch-free): f (and the trumps ``also``
                # allows) when f is non-empty, else the hand.
                legal = f | (h & also) | (h & (_ZERO - np.uint64(f == _ZERO or free)))
                x = xorshift(x)
                c = np.int64(nth_bit(legal, below(x, popcount(legal))))
                if record >= 1:
                    out_actions[b, k] = (s << SEAT_SHIFT) | c
                    if record >= 2:
                        out_legal[b, k] = legal
                k += 1
                hand[s] = h & ~bit(c)
                trick_points += points_tab[c]
                # A card counts only in the led suit or as a trump; trumps' values
                # are above every plain value, so the best card is the largest value.
                v = value[t, led, c]
                if v > best_value:
                    best_value = v
                    best_seat = s
                if c == SHAMOK_INDEX:
                    seat7 = s
                elif c == QUEEN_CLUBS_INDEX:
                    seatq = s
                if (shamok and seat7 >= 0 and seatq >= 0
                        and _team(seat7, partners) != _team(seatq, partners)):
                    ended = SHAMOK_CAUGHT
                    winner = _team(seat7, partners)
                    out_penalty[b, _team(seatq, partners)] = shamok_penalty
                    break
            if ended >= 0:
                break
            # ----------------------------------------------- the trick is won
            wteam = _team(best_seat, partners)
            won[wteam] += 1
            pts[wteam] += trick_points
            prev_leader_team = _team(lead, partners)
            tricks_played += 1
            sp_before = sp
            while sp < stock_size:
                progressed = False
                for j in range(players):
                    if sp >= stock_size:
                        break
                    s = best_seat + j
                    if s >= players:
                        s -= players
                    if popcount(hand[s]) < np.uint64(size):
                        hand[s] |= bit(stock[b, sp])
                        sp += 1
                        progressed = True
                if not progressed:
                    break
            if royal and sp != sp_before:  # royal goat: after the deal or after a draw
                for s in range(players):
                    if (hand[s] & aces) == aces:
                        ended = ROYAL_GOAT
                        winner = _team(s, partners)
                        break
                if ended >= 0:
                    break
            empty = sp >= stock_size
            for s in range(players):
                if hand[s] != _ZERO:
                    empty = False
            if empty:
                ended, winner = score_deal(pts, won, teams, graded, tie_annul, out_penalty[b])
                break
            lead = best_seat

        counted = ended == CARDS_EXHAUSTED or ended == ANNULLED
        for s in range(teams):
            out_points[b, s] = pts[s] if counted else 0
            out_tricks[b, s] = won[s]
        out_ended[b] = ended
        out_winner[b] = winner
        out_nact[b] = k
        total += k
    return total
