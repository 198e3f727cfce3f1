"""The compiled random playout of ``street`` (multi-card tricks), for the batch simulator.

The rules are those of :mod:`goat.games.kozel.street`: a lead of 1..``max_lead``
cards of one suit; each next seat beats (a one-to-one matching of stronger cards
against the current best set) or passes face down with as many cards; molodka
(four cards of one suit, out of turn, by a seat that has not played to the
trick) sends the table back to the hands and restarts the trick. Hands never
hold more than four cards, so every legal action is enumerated as a submask of
a hand, and a beat is checked with Hall's condition over the (at most four)
cards of the best set.

At each step the legal actions are listed into a small scratch array — the
current seat's leads, or its passes and beats, then every eligible molodka
in clockwise order from the seat left of the trick's leader — and one is drawn
uniformly. An action code is ``seat << 40 | verb << 36 | card mask``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from goat.fast.sim_kernel import (
    NUM_PARAMS,
    P_GRADED,
    P_HAND_SIZE,
    P_PLAYERS,
    P_STOCK_SIZE,
    P_TIE_ANNUL,
    below,
    bit,
    lowest_bit_index,
    popcount,
    score_deal,
    splitmix64,
    xorshift,
)

VERB_PLAY, VERB_PASS, VERB_MOLODKA = 0, 1, 2
VERB_NAMES = ("play", "pass", "molodka")
VERB_SHIFT = 36
STREET_SEAT_SHIFT = 40
CARDS_BITS = (1 << 36) - 1
#: Most legal actions at one step: 15 leads, or 6 beats + 6 passes + 3 molodkas.
MAX_LEGAL = 24

#: Street-only entries of the ``params`` array (after the shared ones).
P_MAX_LEAD, P_MOLODKA, P_MAX_MOLODKA = range(NUM_PARAMS, NUM_PARAMS + 3)
NUM_STREET_PARAMS = NUM_PARAMS + 3

_ZERO = np.uint64(0)
_ONE = np.uint64(1)


def max_steps(max_molodka_per_trick: int) -> int:
    """Action buffer per deal: at most 9 tricks (36 cards, four a trick at
    least); each molodka adds itself and can undo three plays."""
    return 9 * (4 + 4 * max_molodka_per_trick)


@njit(inline="always")
def _beats_all(cards: np.uint64, b0: np.uint64, b1: np.uint64, b2: np.uint64, b3: np.uint64,
               k: int) -> bool:
    """Hall's condition: every subset S of the best set's cards (whose beaters
    are ``b0..b{k-1}``) has at least |S| beaters among ``cards``."""
    for s in range(1, 1 << k):
        union = _ZERO
        size = 0
        if s & 1:
            union |= b0
            size += 1
        if s & 2:
            union |= b1
            size += 1
        if s & 4:
            union |= b2
            size += 1
        if s & 8:
            union |= b3
            size += 1
        if popcount(union & cards) < np.uint64(size):
            return False
    return True


@njit(cache=True)
def street_kernel(params, beaters, suit_masks, points_tab,  # type: ignore[no-untyped-def]
                  hands0, stock, trump_id, leader, seeds, record,
                  out_points, out_tricks, out_penalty, out_ended, out_winner,
                  out_actions, out_legal, out_nlegal, out_nact):
    """Play every street deal of the batch to its end with uniform random legal
    actions (see the module docstring). ``beaters[t, c]`` is the mask of cards
    that beat card ``c`` when suit ``t`` is trump; ``suit_masks[s]`` the deck's
    cards of suit ``s``. Outputs as :func:`goat.fast.sim_kernel.simulate_kernel`,
    plus, with ``record=2``, every step's legal codes and their number."""
    players = params[P_PLAYERS]
    size = params[P_HAND_SIZE]
    stock_size = params[P_STOCK_SIZE]
    tie_annul = params[P_TIE_ANNUL] != 0
    graded = params[P_GRADED] != 0
    max_lead = params[P_MAX_LEAD]
    molodka_on = params[P_MOLODKA] != 0
    max_molodka = params[P_MAX_MOLODKA]
    teams = 2

    hand = np.zeros(4, dtype=np.uint64)
    table = np.zeros(4, dtype=np.uint64)
    pts = np.zeros(2, dtype=np.int64)
    won = np.zeros(2, dtype=np.int64)
    acts = np.zeros(MAX_LEGAL, dtype=np.int64)
    total = 0

    for b in range(hands0.shape[0]):
        t = trump_id[b]
        x = splitmix64(np.uint64(seeds[b]))
        for s in range(players):
            hand[s] = hands0[b, s]
            table[s] = _ZERO
        for s in range(teams):
            pts[s] = 0
            won[s] = 0
            out_penalty[b, s] = 0
        sp = 0
        k = 0
        ended = -1
        winner = -1
        to_act = leader[b]
        trick_leader = to_act
        played = 0          # bitmask of seats with cards on the table
        count = 0           # sets on the table
        need = 0
        best_seat = -1
        best = _ZERO
        b0 = _ZERO
        b1 = _ZERO
        b2 = _ZERO
        b3 = _ZERO
        molodkas = 0

        while ended < 0:
            # ------------------------------------------------ list the actions
            n = 0
            s = to_act
            h = hand[s]
            if count == 0:
                sub = h
                while sub != _ZERO:
                    suit = lowest_bit_index(sub) // np.uint64(9)
                    if (sub & ~suit_masks[suit]) == _ZERO and popcount(sub) <= np.uint64(max_lead):
                        acts[n] = (s << STREET_SEAT_SHIFT) | (VERB_PLAY << VERB_SHIFT) | np.int64(sub)
                        n += 1
                    sub = (sub - _ONE) & h
            else:
                sub = h
                while sub != _ZERO:
                    if popcount(sub) == np.uint64(need):
                        acts[n] = (s << STREET_SEAT_SHIFT) | (VERB_PASS << VERB_SHIFT) | np.int64(sub)
                        n += 1
                        if (sub & b0) != _ZERO if need == 1 else _beats_all(sub, b0, b1, b2, b3, need):
                            acts[n] = (s << STREET_SEAT_SHIFT) | (VERB_PLAY << VERB_SHIFT) | np.int64(sub)
                            n += 1
                    sub = (sub - _ONE) & h
                if molodka_on and count < players and molodkas < max_molodka:
                    for j in range(1, players + 1):
                        m = trick_leader + j
                        if m >= players:
                            m -= players
                        hm = hand[m]
                        if (played >> m) & 1 or popcount(hm) < np.uint64(4):
                            continue
                        # Hands hold at most four cards: four of one suit is the whole
                        # hand, of the suit of its lowest card.
                        if (hm & ~suit_masks[lowest_bit_index(hm) // np.uint64(9)]) == _ZERO:
                            acts[n] = (m << STREET_SEAT_SHIFT) | (VERB_MOLODKA << VERB_SHIFT) | np.int64(hm)
                            n += 1
            # ------------------------------------------------- choose and apply
            x = xorshift(x)
            code = acts[below(x, np.uint64(n))]
            if record >= 1:
                out_actions[b, k] = code
                if record >= 2:
                    out_nlegal[b, k] = n
                    for i in range(n):
                        out_legal[b, k, i] = acts[i]
            k += 1
            seat = code >> STREET_SEAT_SHIFT
            verb = (code >> VERB_SHIFT) & 3
            cards = np.uint64(code & CARDS_BITS)
            if verb == VERB_MOLODKA:
                for s2 in range(players):
                    hand[s2] |= table[s2]
                    table[s2] = _ZERO
                molodkas += 1
                played = 0
                count = 0
                trick_leader = seat
            elif count == 0:
                trick_leader = seat
            hand[seat] &= ~cards
            table[seat] = cards
            played |= 1 << seat
            count += 1
            if verb != VERB_PASS:  # a lead, a beat or a molodka becomes the best set
                best = cards
                best_seat = seat
                need = np.int64(popcount(cards))
                rest = best
                b0 = b1 = b2 = b3 = _ZERO
                if rest != _ZERO:
                    b0 = beaters[t, lowest_bit_index(rest)]
                    rest &= rest - _ONE
                if rest != _ZERO:
                    b1 = beaters[t, lowest_bit_index(rest)]
                    rest &= rest - _ONE
                if rest != _ZERO:
                    b2 = beaters[t, lowest_bit_index(rest)]
                    rest &= rest - _ONE
                if rest != _ZERO:
                    b3 = beaters[t, lowest_bit_index(rest)]
            if count < players:
                to_act = seat + 1
                if to_act >= players:
                    to_act -= players
                continue
            # ----------------------------------------------- the trick is won
            wteam = best_seat % 2
            won[wteam] += 1
            trick_points = 0
            for s2 in range(players):
                rest = table[s2]
                while rest != _ZERO:
                    trick_points += points_tab[lowest_bit_index(rest)]
                    rest &= rest - _ONE
                table[s2] = _ZERO
            pts[wteam] += trick_points
            played = 0
            count = 0
            molodkas = 0
            # The draw loop is written out here and in sim_kernel on purpose: as a
            # shared njit helper taking the hand array it measured 10-15% slower.
            while sp < stock_size:
                progressed = False
                for j in range(players):
                    if sp >= stock_size:
                        break
                    s2 = best_seat + j
                    if s2 >= players:
                        s2 -= players
                    if popcount(hand[s2]) < np.uint64(size):
                        hand[s2] |= bit(stock[b, sp])
                        sp += 1
                        progressed = True
                if not progressed:
                    break
            empty = sp >= stock_size
            for s2 in range(players):
                if hand[s2] != _ZERO:
                    empty = False
            if empty:
                ended, winner = score_deal(pts, won, teams, graded, tie_annul, out_penalty[b])
                break
            to_act = best_seat
            trick_leader = best_seat

        for s in range(teams):
            out_points[b, s] = pts[s]
            out_tricks[b, s] = won[s]
        out_ended[b] = ended
        out_winner[b] = winner
        out_nact[b] = k
        total += k
    return total
