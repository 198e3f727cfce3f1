"""The Spades heuristic bot's rules (``goat.bots.spades_heuristic``), each on a
hand-made deal whose right answer can be read off the cards, plus whole
matches against random play.

Seat order: the dealer is 3 unless said, so seat 0 bids and leads first.
"""

from __future__ import annotations

import random

import pytest

from goat.bots import make_bot
from goat.bots.spades_heuristic import SpadesHeuristicBot
from goat.protocol import Action

from .conftest import SUIT_HANDS, act, bid, deal_state

#: Seat 0: a strong hand (AS KS QS JS and side aces); seat 1: a hopeless one;
#: seats 2 and 3: middling.
STRONG = ["AS KS QS JS AH AD AC 2C 3C 4D 5D 6H 7H",
          "2S 3S 2H 3H 4H 5H 2D 3D 6D 7D 5C 6C 7C",
          "4S 5S 6S 8H 9H TH 8D 9D TD 8C 9C TC JC",
          "7S 8S 9S TS JH QH KH JD QD KD QC KC 4C"]


def choose(state, seat=None):
    seat = state.current_player() if seat is None else seat
    return SpadesHeuristicBot(seed=1).choose(state.view(seat))


def test_bids_near_its_count_of_sure_tricks() -> None:
    s = deal_state(STRONG)
    a = choose(s)
    assert a.verb == "bid" and 6 <= int(a.bid) <= 8   # four top spades and three side aces


def test_bids_nil_with_a_hand_that_takes_no_trick() -> None:
    s = bid(deal_state(STRONG), "7")
    assert choose(s).bid == "nil"                    # seat 1: no spade above 3, no ace or king


def test_bids_blind_nil_from_the_score_alone_when_far_behind() -> None:
    s = deal_state(STRONG, score_total=[0, 250])
    assert s.view(0)["hand"] == []                   # face down: the engine sends no card
    assert choose(s).bid == "blind-nil"
    s = deal_state(STRONG, score_total=[0, 150])
    assert choose(s).bid == "look"                   # 150 behind: not enough for the bot, it looks
    act(s, "0 bid look")
    assert choose(s).bid.isdigit()                   # then bids from the hand it sees


def test_a_stand_in_never_bids_blind() -> None:
    """Playing for a person who is away (a dropped player, a run-out clock at
    the table server: ``stand_in``), the bot leaves the blind gamble alone: it
    looks, and bids from the hand it holds, as it does when not far behind."""
    s = deal_state(STRONG, score_total=[0, 250])
    seat = s.current_player()
    stand_in = SpadesHeuristicBot(seed=1, stand_in=True)
    assert f"{seat} bid blind-nil" in s.view(seat)["legal_actions"]
    assert stand_in.choose(s.view(seat)).bid == "look"
    act(s, f"{seat} bid look")
    calm = act(deal_state(STRONG, score_total=[0, 150]), "0 bid look")
    assert stand_in.choose(s.view(seat)).bid == choose(calm).bid


def test_a_bot_never_looks_out_of_turn() -> None:
    """Seat 1 is face down while seat 0 bids: the bot waits for its turn, far
    behind or not, standing in for a person or not. Seeing its cards early gains
    a bot nothing, and at a table every look is an event: the bots' looks at a
    deal's start made a hint the person had just asked for come back stale. A
    person away (a stand-in plays for them) may also be back before the turn,
    a blind bid still theirs. On the turn it looks, then bids from the hand."""
    calm = deal_state(STRONG, options={"blind_nil_behind": 0})
    assert calm.view(1)["legal_actions"] == ["1 bid look"]
    behind = deal_state(STRONG, score_total=[250, 0])
    for bot in (SpadesHeuristicBot(seed=1), SpadesHeuristicBot(seed=1, stand_in=True)):
        assert bot.out_of_turn(calm.view(1)) is None and bot.out_of_turn(behind.view(1)) is None
        assert bot.choose(calm.view(0)) == Action.parse("0 bid look")


def test_does_not_bid_blind_nil_after_its_partner_bid_one() -> None:
    """Two nils leave the team no trick to make; a team that far behind would
    sink deal after deal (whole matches against random never ended)."""
    s = deal_state(STRONG, dealer=1, score_total=[0, 250])     # seat 2 bids first, then 3, then 0
    bid(s, "blind-nil", "4")
    assert s.current_player() == 0
    assert choose(s).bid == "look"
    act(s, "0 bid look")
    a = choose(s)
    assert a.bid not in ("blind-nil", "nil") and 6 <= int(a.bid) <= 8


def test_a_nil_bidder_plays_its_highest_card_that_loses_the_trick() -> None:
    # Seat 0 (clubs only) bid nil; seat 3 (spades only) leads: any club loses to a spade.
    s = deal_state(SUIT_HANDS, dealer=2)                       # seat 3 bids and leads first
    bid(s, "4", "nil", "3", "2")
    act(s, "3 play 2S")
    assert s.current_player() == 0
    assert choose(s) == Action.parse("0 play AC")              # the highest that still loses


def test_the_partner_of_a_nil_bidder_covers_the_trick() -> None:
    """Seat 0 bid nil and leads 9C; seat 1 is void and discards, so the nil
    bidder is winning. Seat 2 overtakes with its cheapest winning club, TC:
    without its partner's nil it would play low (3C), as TC is no master (JC,
    QC, KC are out) and the trick has a player to come."""
    hands = ["9C 2D 3D 4D 5D 6D 7D 8D 2H 3H 4H 5H 6H",
             "9D TD JD QD KD AD 7H 8H 9H TH 2S 3S 4S",
             "3C TC AC JH QH KH AH 5S 6S 7S 8S 9S TS",
             "2C 4C 5C 6C 7C 8C JC QC KC JS QS KS AS"]
    s = deal_state(hands, dealer=3)
    bid(s, "nil", "3", "4", "4")
    act(s, "0 play 9C", "1 play 9D")
    assert choose(s) == Action.parse("2 play TC")
    s = deal_state(hands, dealer=3)
    bid(s, "1", "3", "4", "4")                                  # the same cards, no nil
    act(s, "0 play 9C", "1 play 9D")
    assert choose(s) == Action.parse("2 play 3C")


@pytest.mark.parametrize("seed", [0, 1])
def test_whole_matches_against_random_end_and_the_bot_is_always_legal(seed: int) -> None:
    from goat.games.spades import new_state

    state = new_state("standard")
    rng = random.Random(seed)
    bots = {0: make_bot("heuristic", seed=seed, game="spades"), 2: make_bot("heuristic", seed=seed + 1, game="spades"),
            1: make_bot("random", seed=seed, game="spades"), 3: make_bot("random", seed=seed + 2, game="spades")}
    for _ in range(20_000):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_chance(state.sample_chance(rng))
            continue
        seat = state.current_player()
        action = bots[seat].choose(state.view(seat))
        assert state.is_legal(action)
        state.apply_action(action)
    assert state.is_terminal()
    assert state.returns()[0] > 0                  # the heuristic team won the match


def test_a_nil_written_0_is_played_as_a_nil() -> None:
    """A person's nil written "0" (the engine takes it as nil): a stand-in for
    them, or their partner, must read it as a nil. Before, the view said "0" and
    the heuristic read a number bid of 0: it played to win tricks for the nil."""
    from goat.bots.spades_heuristic import _Play
    from goat.games.spades.cards import spades_order

    s = deal_state(SUIT_HANDS)
    bid(s, "0", "3", "3", "3")
    assert s.current_player() == 0                       # the nil bidder leads the first trick
    actions = [a for a in s.legal_actions() if a.seat == 0]
    assert _Play(s.view(0), actions, spades_order(False)).i_am_nil
    assert _Play(s.view(2), actions, spades_order(False)).partner_nil
