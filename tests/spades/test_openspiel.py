"""Differential test against a real peer: OpenSpiel's C++ ``spades`` (pyspiel).

The same cards are dealt in both engines, the same random legal sequence of
bids and cards is played in both, and at every step both must offer exactly
the same set of legal actions (and agree on whose turn it is); at the end of
each deal both must give the same score. Over 2,000 deals (four chunks of 500).

OpenSpiel's game and ours coincide under these options (``OPENSPIEL_OPTIONS``),
each chosen after reading ``open_spiel/games/spades/spades.cc``:

* ``nil_tricks="contract"`` — OpenSpiel counts a nil bidder's tricks toward
  the partner's contract (ours by default: 1 point and 1 bag each, outside it);
* ``spades_broken_by="never"`` — OpenSpiel never sets ``is_spades_broken_``, so
  a spade may be led only from a hand of nothing but spades (ours by default:
  any spade played to an earlier trick breaks them; checked separately below);
* ``max_team_bid=13`` — OpenSpiel refuses partner bids totalling more than 13;
* ``blind_nil=False`` — OpenSpiel has no blind nil (nor double nil, off by default,
  nor any named variant);
* one deal at a time: OpenSpiel's game is a single deal dealt by seat 3 (seat 0
  bids and leads first), so ours is ``single_deal`` with first dealer 3, and
  OpenSpiel's mercy rule and win bonus are off (they change its returns, not
  the score).

Bags across deals: OpenSpiel reads a team's bags from the last digit of its
score (``score % 10`` in C++), which is the bag count only while the score is
not negative; the multi-deal test compares the deals where that holds.
"""

from __future__ import annotations

import random

import pyspiel
import pytest

from goat.cards import RANKS, Card
from goat.games.spades import SpadesState, new_state
from goat.protocol import Action

OPENSPIEL_OPTIONS = {"nil_tricks": "contract", "spades_broken_by": "never", "max_team_bid": 13,
                     "blind_nil": False}
GAME = pyspiel.load_game("spades", {"use_mercy_rule": False, "win_or_loss_bonus": 0})
BID_BASE = 52   # OpenSpiel: actions 0..51 are cards (suit * 13 + rank), 52 + n bids n (0 = nil)


def os_card(card: Card) -> int:
    return "CDHS".index(card.suit) * 13 + RANKS.index(card.rank)


def os_action(action: Action) -> int:
    if action.verb == "bid":
        return BID_BASE + (0 if action.bid == "nil" else int(action.bid))
    return os_card(action.cards[0])


def start_deal(ours: SpadesState, rng: random.Random, scores: list[int] | None = None):
    """Deal the same cards in both engines. OpenSpiel's k-th chance card goes to
    its seat k % 4, and its seat 0 bids first; ours rotate the deal, so OpenSpiel's
    seat i is our seat ``i + rot`` with ``rot`` the seat left of our dealer."""
    rot = (ours.dealer + 1) % 4
    deal = ours.sample_chance(rng)
    ours.apply_chance(deal)
    theirs = GAME.new_initial_state()
    if scores is not None:
        theirs.set_current_scores([scores[(t + rot) % 2] for t in (0, 1)])
    for k in range(52):
        theirs.apply_action(os_card(deal.hands[(k + rot) % 4][k // 4]))
    return theirs, rot


def pick(actions: list[Action], rng: random.Random) -> Action:
    """A random legal action; bids lean low so that contracts, nils and bags all happen."""
    if actions[0].verb == "bid" and rng.random() < 0.7:
        low = [a for a in actions if a.bid == "nil" or int(a.bid) <= 4]
        return rng.choice(low)
    return rng.choice(actions)


def play_both(ours: SpadesState, theirs, rng: random.Random, rot: int = 0, spade_leads_differ: bool = False) -> int:
    """Play one deal in both engines; returns the number of steps compared."""
    compared = 0
    deal_number = len(ours.logs)
    while len(ours.logs) == deal_number and not (ours.is_chance_node() or ours.is_terminal()):
        legal = ours.legal_actions()
        mine = {os_action(a) for a in legal}
        their = set(theirs.legal_actions())
        assert ours.current_player() == (theirs.current_player() + rot) % 4
        if spade_leads_differ:
            # Ours opens spade leads once spades are broken; OpenSpiel never does.
            extra = mine - their
            assert their <= mine
            assert not extra or (not ours.trick and ours.spades_broken
                                 and all(a // 13 == 3 for a in extra)), (extra, ours)
            legal = [a for a in legal if os_action(a) in their]
        else:
            assert mine == their, (sorted(mine - their), sorted(their - mine), ours)
        action = pick(legal, rng)
        ours.apply_action(action)
        theirs.apply_action(os_action(action))
        compared += 1
    assert theirs.is_terminal()
    return compared


@pytest.mark.parametrize("chunk", range(4))
def test_same_legal_actions_and_scores_as_openspiel_over_2000_deals(chunk: int) -> None:
    steps = 0
    for d in range(500 * chunk, 500 * (chunk + 1)):
        rng = random.Random(f"openspiel/{d}")
        ours = new_state("standard", options=OPENSPIEL_OPTIONS, first_dealer=3, single_deal=True)
        theirs, rot = start_deal(ours, rng)
        assert rot == 0
        steps += play_both(ours, theirs, rng)
        score = ours.result()["deals"][0]["score"]
        assert theirs.returns() == [score[0], score[1], score[0], score[1]], (d, ours.result())
        assert ours.returns() == theirs.returns()
    assert steps == 500 * (4 + 52)   # every bid and every card was compared


def test_with_our_spades_breaking_only_spade_leads_after_a_break_differ() -> None:
    opened = 0
    for d in range(150):
        rng = random.Random(f"openspiel-broken/{d}")
        options = dict(OPENSPIEL_OPTIONS, spades_broken_by="any-spade")
        ours = new_state("standard", options=options, first_dealer=3, single_deal=True)
        theirs, _ = start_deal(ours, rng)
        play_both(ours, theirs, rng, spade_leads_differ=True)
        opened += ours.spades_broken
        score = ours.result()["deals"][0]["score"]
        assert theirs.returns()[:2] == score
    assert opened > 100


def test_scores_and_bag_penalties_carry_over_deals_like_openspiel() -> None:
    compared = penalties = 0
    for g in range(60):
        rng = random.Random(f"openspiel-game/{g}")
        ours = new_state("standard", options=dict(OPENSPIEL_OPTIONS, max_deals=6), first_dealer=3)
        while not ours.is_terminal():
            before, bags_before = list(ours.score_total), list(ours.bags_total)
            theirs, rot = start_deal(ours, rng, scores=before)
            play_both(ours, theirs, rng, rot)
            score = ours.deal_results[-1]["score"]
            for team in (0, 1):
                if before[team] >= 0 or bags_before[team] == 0:   # OpenSpiel's score % 10 = our bags
                    their_team = (team - rot) % 2
                    assert theirs.returns()[their_team] == score[team], (g, team, before, bags_before, score)
                    assert theirs.get_current_scores()[their_team] == ours.score_total[team]
                    compared += 1
                    penalties += bags_before[team] + ours.deal_results[-1]["bags"][team] >= 10
    assert compared > 300 and penalties > 10
