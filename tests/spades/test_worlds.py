"""World sampling for Spades (``goat.games.spades.worlds``) on hand-made deals
whose constraints can be read off the play."""

from __future__ import annotations

import random

from goat.cards import Card
from goat.games.spades import sample_world

from .conftest import act, bid, deal_state

#: Seat 1 deals. Trick 1: KC wins. Trick 2: seat 3 ruffs TD (void in diamonds).
#: Trick 3: seat 3 leads 3C, seats 0 and 1 show out of clubs. So the four clubs
#: seat 2 has not seen (6C 9C TC QC) can only be with seat 3.
HANDS = ["7C JD QD 4D 7D 8D QH KH AH 2S 5S 6S 7S",
         "8C 2D 4S 9D KD AD 8S 9S TS JS QS KS AS",
         "KC TD 4C 5C JC AC 3D 5D 6D 3H 6H 7H 9H",
         "2C 3S 3C 6C 9C TC QC 2H 4H 5H 8H TH JH"]
PLAYS = ["2 play KC", "3 play 2C", "0 play 7C", "1 play 8C",
         "2 play TD", "3 play 3S", "0 play JD", "1 play 2D",
         "3 play 3C", "0 play QD", "1 play 4S"]


def test_voids_that_leave_one_seat_for_some_cards_never_run_out_of_draws() -> None:
    """Every draw succeeds at the first try (drawing places blindly, 48 of 50
    draws failed here, and ISMCTS, drawing thousands of worlds a move, ran out
    of retries in a tournament), and each world keeps the constraints."""
    state = act(bid(deal_state(HANDS, dealer=1), "3", "3", "2", "6"), *PLAYS)
    view = state.view(2)
    clubs = {Card.parse(c) for c in ("6C", "9C", "TC", "QC")}
    for seed in range(100):
        world = sample_world(view, random.Random(seed), max_tries=1)
        assert world.information_state_string(2) == state.information_state_string(2)
        assert clubs <= set(world.hands[3])
        assert not any(c.suit == "D" for c in world.hands[3])
        assert not any(c.suit == "C" for seat in (0, 1) for c in world.hands[seat])
