"""The sampler's worlds are (close to) uniform over the deals that fit a view.

A search bot's prior over the hidden cards should weigh every initial deal that
fits what its seat saw alike. Binding each face-up card to a random slot its
player held and then dealing the rest is not that: a binding that leaves more
ways to deal the rest should be more likely, and careful binding (the fallback
for tight views) leans further off. ``KozelWorldSampler._mix`` corrects it
(Metropolis steps over replays weighted by their numbers of fitting deals, then
a uniform deal). This test counts the exact answer for one stored endgame view
by enumeration, independently of the sampler's code, and checks the sampler
against it.
"""

from __future__ import annotations

import json
import random
from itertools import permutations
from pathlib import Path

from goat.games.kozel import KozelWorldSampler

VIEW = Path(__file__).parent.parent / "data" / "views" / "kozel-classic-late-binding.json"

#: Seats 1 and 3 of the view, read off its history by hand. Each seat held four
#: dealt cards (arrival 0) and drew one after each of tricks 1-4 (arrival 1-4);
#: a card played at trick t was held in a slot that arrived before t. A void
#: shown at trick t: no card of that suit in a slot that arrived before t and
#: was still held after the play (played later, or still in the hand).
#: Effective suits: clubs, queens and jacks are trumps ("T").
ARRIVALS = (0, 0, 0, 0, 1, 2, 3, 4)
SEAT_3_PLAYS = [("H", 1), ("D", 2), ("T", 3), ("S", 4), ("T", 5), ("H", 6), ("T", 7)]   # TH 7D TC 8S QS 9H KC
SEAT_3_VOIDS = [(3, "S"), (5, "D")]                         # TC on a spade lead, QS on a diamond lead
SEAT_1_PLAYS = [("T", 1), ("D", 2), ("S", 3), ("T", 4), ("H", 5), ("T", 6), ("T", 7)]   # JS 8D KS 9C KH QD QH
SEAT_1_VOIDS = [(1, "H"), (4, "S"), (5, "D")]               # JS on hearts, 9C on spades, KH on diamonds
#: The unseen ace of diamonds can only be with seat 2 (both other seats showed a
#: diamond void before any slot they still hold arrived), so seats 1 and 3 hold
#: one each of the two other unseen cards, the ace of spades and the seven of clubs.


def bindings(plays: list[tuple[str, int]], voids: list[tuple[int, str]], held_suit: str) -> int:
    """Ways to put a seat's played cards and its one held card into its eight slots."""
    cards = [*plays, (held_suit, None)]
    count = 0
    for slots in permutations(range(8)):
        ok = True
        for (suit, trick), slot in zip(cards, slots):
            arrival = ARRIVALS[slot]
            if trick is not None and arrival >= trick:
                ok = False
            elif any(suit == void and arrival < at and (trick is None or trick > at) for at, void in voids):
                ok = False
            if not ok:
                break
        count += ok
    return count


def test_exact_share_of_a_card_is_matched() -> None:
    spades_with_3 = bindings(SEAT_3_PLAYS, SEAT_3_VOIDS, "S") * bindings(SEAT_1_PLAYS, SEAT_1_VOIDS, "T")
    spades_with_1 = bindings(SEAT_3_PLAYS, SEAT_3_VOIDS, "T") * bindings(SEAT_1_PLAYS, SEAT_1_VOIDS, "S")
    exact = spades_with_3 / (spades_with_3 + spades_with_1)
    assert abs(exact - 0.5418) < 1e-3      # 384 * 4200 / (384 * 4200 + 1536 * 888)

    view = json.loads(VIEW.read_text())
    sampler = KozelWorldSampler(view)
    rng = random.Random(2026)
    draws = 1500
    hits = sum(any(str(c) == "AS" for c in sampler.sample(rng).hands[3]) for _ in range(draws))
    # binomial sd at 1500 draws: 0.013; the sampler before _mix gave 0.47-0.50
    # here (careful binding pulls the ace away from seat 3)
    assert abs(hits / draws - exact) < 0.04
