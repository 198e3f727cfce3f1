"""A second, independent reading of ``shared/rules/spades.md``, played against
the engine card by card.

Written from the rules text alone (no engine code besides the state it drives):
random games of the standard game and the variants that change play or scoring,
checking at every card the exact set of legal cards (the first lead, spades
broken — by any spade or, in ``no-early-spades``, by trumping — following with
the jokers as spades, the lowest-club lead), every trick winner, and every deal's
score, bags and bag total (contracts, nil kinds, overtricks, the bag penalty,
wheels by the team's or one player's bid, Boston, Bemo), under the scoring
options too (a nil bidder's tricks toward the contract, the set counted on the
missing tricks only, another bag limit and penalty, no bag rule), and that no
partner of a Bemo bidder is offered a Bemo under ``bemo_one_per_team``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from goat.games.spades import new_state

RANKS = "23456789TJQKA"
NIL_KINDS = {"nil": 100, "0": 100, "blind-nil": 100, "double-nil": 200}
BEMO = {"little-bemo": (6, 60), "big-bemo": (9, 90)}


def is_spade(card: str) -> bool:
    return card[1] in "SJ"          # the jokers (LJ, BJ) are spades


def strength(card: str) -> int:
    """Higher wins among spades: BJ > LJ > AS > ... > 2S."""
    jokers = {"BJ": 101, "LJ": 100}
    return jokers[card] if card in jokers else RANKS.index(card[0])


def expected_score(options: dict[str, Any], bids: list[str], tricks: list[int], winners: list[int],
                   bags_before: list[int]) -> tuple[list[int], list[int], list[int]]:
    """Each team's score and bags for the deal, and the bags carried on."""
    score, bags, totals = [0, 0], [0, 0], list(bags_before)
    for team in (0, 1):
        seats = (team, team + 2)
        nil = [s for s in seats if bids[s] in NIL_KINDS]
        bid = [BEMO[bids[s]][0] if bids[s] in BEMO else int(bids[s]) for s in seats if s not in nil]
        contract = sum(bid)
        counted = sum(tricks[s] for s in seats if options["nil_tricks"] == "contract" or s not in nil)
        loose = 0 if options["nil_tricks"] == "contract" else sum(tricks[s] for s in nil)
        wheel = max(bid, default=0) if options["wheels_by"] == "player" else contract   # one bid, or the team's
        flat = 200 if (options["boston"] and contract == 13) or (options["wheels"] and wheel >= 10) else None
        points = 0
        if counted >= contract:
            points += (10 * contract if flat is None else flat) + counted - contract
            bags[team] += counted - contract
        elif options["set_penalty"]:
            short = contract - counted if options["set_penalty_per"] == "missing-trick" else contract
            points -= 10 * short if flat is None else flat
        points, bags[team] = points + loose, bags[team] + loose   # a nil bidder's tricks: a point and a bag
        for s in nil:
            points += NIL_KINDS[bids[s]] if tricks[s] == 0 else -NIL_KINDS[bids[s]]
        for s in seats:
            if bids[s] in BEMO:
                first, value = BEMO[bids[s]]
                points += value if all(w % 2 == team for w in winners[:first]) else -value
        totals[team] += bags[team]
        while options["bags"] and totals[team] >= options["bag_limit"]:
            points, totals[team] = points - options["bag_penalty"], totals[team] - options["bag_limit"]
        score[team] = points
    return score, bags, totals


def play_game(preset: str, options: dict[str, Any], seed: int) -> None:
    rng = random.Random(seed)
    state = new_state(preset, options=options, first_dealer=seed % 4)
    rules = state.rules
    for _ in range(5):
        if state.is_terminal():
            return
        dealer, bags_before = state.dealer, list(state.bags_total)
        state.apply_chance(state.sample_chance(rng))
        assert state.current_player() == (dealer + 1) % 4       # bidding starts left of the dealer
        while state.phase in ("bid", "exchange"):
            actions = state.legal_actions()
            partner_bid = state.view(None)["bids"][(state.current_player() + 2) % 4]
            if options.get("bemo_one_per_team") and partner_bid in BEMO:   # the team's one Bemo is bid
                assert not [a for a in actions if a.bid in BEMO]
            special = [a for a in actions if a.bid in (*NIL_KINDS, *BEMO, "6", "7")]
            state.apply_action(rng.choice(special if special and rng.random() < 0.6 else actions))
        hands = [[str(c) for c in h] for h in state.hands]
        if rules.first_lead == "lowest-club":
            low = min((c for h in hands for c in h if c[1] == "C"), key=lambda c: RANKS.index(c[0]))
            leader = next(s for s in range(4) if low in hands[s])
        else:
            leader = (dealer + 1) % 4
        broken = False
        for number in range(13):
            assert state.current_player() == leader
            hand = hands[leader]
            plain = [c for c in hand if not is_spade(c)]
            if number == 0 and rules.first_lead == "lowest-club":
                legal = [low]
            elif (broken and rules.spades_broken_by != "never") or not plain:
                legal = hand
            else:
                legal = plain
            assert {str(a.cards[0]) for a in state.legal_actions()} == set(legal)
            action = rng.choice(state.legal_actions())
            state.apply_action(action)
            trick = [(leader, str(action.cards[0]))]
            hand.remove(trick[0][1])
            spade_led = is_spade(trick[0][1])
            broken |= spade_led and rules.spades_broken_by == "any-spade"
            for k in range(1, 4):
                seat, hand = (leader + k) % 4, hands[(leader + k) % 4]
                follow = [c for c in hand if is_spade(c) == spade_led and (spade_led or c[1] == trick[0][1][1])]
                assert {str(a.cards[0]) for a in state.legal_actions()} == set(follow or hand)
                action = rng.choice(state.legal_actions())
                state.apply_action(action)
                card = str(action.cards[0])
                hand.remove(card)
                trick.append((seat, card))
                if is_spade(card):
                    broken |= rules.spades_broken_by == "any-spade" or not spade_led
            spades = [(strength(c), s) for s, c in trick if is_spade(c)]
            led = trick[0][1][1]
            leader = max(spades)[1] if spades else max((RANKS.index(c[0]), s) for s, c in trick if c[1] == led)[1]
            assert state.last_trick["winner"] == leader
        result = state.deal_results[-1]
        score, bags, totals = expected_score(rules.options(), result["bids"], result["tricks"],
                                             list(state.trick_winners), bags_before)
        assert (result["score"], result["bags"], state.bags_total) == (score, bags, totals)


@pytest.mark.parametrize("preset, options", [
    ("standard", {}),
    ("standard", {"double_nil": True, "blind_nil_behind": 0, "spades_broken_by": "never"}),
    ("no-early-spades", {}),
    ("joker-trumps", {}),
    ("low-club-lead", {"jokers": True}),
    ("wheels", {}),
    ("wheels", {"set_penalty": False}),
    ("wheels", {"wheels_by": "player"}),
    ("boston", {}),
    ("bemo", {}),
    ("bemo", {"bemo_one_per_team": True}),
    ("standard", {"nil_tricks": "contract", "set_penalty_per": "missing-trick"}),
    ("standard", {"bag_limit": 4, "bag_penalty": 50}),
    ("standard", {"bags": False, "blind_nil_behind": 0}),
])
def test_play_and_scoring_follow_an_independent_reading_of_the_rules(preset: str, options: dict[str, Any]) -> None:
    for seed in range(12):
        play_game(preset, options, seed)
