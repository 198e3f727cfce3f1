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

Around the cards it checks the deal and the match: the exact set of bids each
seat is offered (numbers from ``min_bid``, nil, blind and double nil for a team
far enough behind, Bemo, the weak hand's redeal, mirror's forced bid, the team
limits such as ``partnership-fourteen``'s 7); a double nil's exchange (who gives
how many to whom, in which order, and that a receiver holds the cards only once
both have given and the opponents never see them); the running totals, who wins
after each deal (target, ``lose_at``, −target, the deal limit, a Boston that wins
the game; equal scores play on) and that the deal passes clockwise.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from goat.games.spades import new_state
from goat.protocol import Action

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


def tricks_bid(bid: str) -> int:
    return BEMO[bid][0] if bid in BEMO else 0 if bid in NIL_KINDS else int(bid)


def expected_bids(options: dict[str, Any], hand: list[str], partner_bid: str | None, behind: int) -> set[str]:
    """Every bid the rules give a seat holding ``hand`` (the blind ones before it looks):
    0-13 from ``min_bid`` and nil, blind nil and double nil for a team far enough
    behind at the deal's start, Bemo (one a team under ``bemo_one_per_team``), a redeal
    for no spade and no J, Q or K; under mirror only the spades held. A bid is offered
    only if the team's two bids can still total ``min_team_bid`` to ``max_team_bid``."""
    if options["mirror"]:
        spades = sum(is_spade(c) for c in hand)
        return {str(spades) if spades else "nil"}
    blind = options["blind_nil_behind"] == 0 or behind >= options["blind_nil_behind"]
    blind_bids = {b for b in ("blind-nil", "double-nil") if blind and options[b.replace("-", "_")]}
    plain = {str(n) for n in range(options["min_bid"], 14)} | ({"nil"} if options["nil"] else set()) | blind_bids
    bemo = set(BEMO) if options["bemo"] else set()
    bids = plain | (set() if options["bemo_one_per_team"] and partner_bid in BEMO else bemo)

    def fits(bid: str) -> bool:
        answers = [partner_bid] if partner_bid is not None else \
            plain | (set() if options["bemo_one_per_team"] and bid in BEMO else bemo)
        return any(options["min_team_bid"] <= tricks_bid(bid) + tricks_bid(q) <= options["max_team_bid"]
                   for q in answers)

    bids = {b for b in bids if fits(b)}
    if options["weak_hand_redeal"] and not any(is_spade(c) or c[0] in "JQK" for c in hand):
        bids.add("redeal")
    return bids


def exchange(state: Any, dealer: int, rng: random.Random) -> None:
    """A double nil's exchange: after the bidding, each double nil bidder in bidding
    order (partners who both bid it exchange once) gives ``exchange_cards`` cards to
    its partner, then the partner as many back; a receiver holds (and sees) the
    cards only once both have given, and the opponents never see one (unless dealt
    face up)."""
    k, bids = state.rules.exchange_cards, state.view(None)["bids"]
    pairs: list[tuple[int, int]] = []
    for seat in ((dealer + i) % 4 for i in range(1, 5)):
        if bids[seat] == "double-nil" and not any(seat in p for p in pairs):
            pairs.append((seat, (seat + 2) % 4))
    face_up = {str(c) for cards in state.face_up for c in cards}
    for bidder, partner in pairs:
        before = {s: {str(c) for c in state.hands[s]} for s in (bidder, partner)}
        given: dict[int, list[str]] = {bidder: [], partner: []}
        for giver, receiver in [(bidder, partner)] * k + [(partner, bidder)] * k:
            assert state.phase == "exchange" and state.current_player() == giver
            action = rng.choice(state.legal_actions())
            state.apply_action(action)
            card = str(action.cards[0])
            given[giver].append(card)
            if len(given[partner]) < k:
                assert card not in state.view(receiver)["hand"]
            for opponent in ((giver + 1) % 4, (giver + 3) % 4):
                seen = state.view(opponent)["history"][-1]
                assert seen == (f"{giver} give {card}" if card in face_up else f"{giver} give ?")
        for seat, other in ((bidder, partner), (partner, bidder)):
            assert set(state.view(seat)["hand"]) == (before[seat] - set(given[seat])) | set(given[other])
    assert state.phase == "play"


def expected_winner(options: dict[str, Any], scores: list[int], deals: int, boston: int | None) -> int | None:
    """The game's winner after a deal, or None to deal again: a Boston made wins at once
    under ``boston_wins_game``; else the game ends when a team reaches the target, falls
    to ``lose_at`` or (negative-reverse) to -target, or ``max_deals`` deals are played,
    and the higher score wins: equal scores play another deal."""
    if boston is not None and options["boston_wins_game"]:
        return boston
    ended = any(s >= options["target"] for s in scores) \
        or any(options["lose_at"] is not None and s <= options["lose_at"] for s in scores) \
        or any(options["negative_target_loses"] and s <= -options["target"] for s in scores) \
        or (options["max_deals"] is not None and deals >= options["max_deals"])
    return None if not ended or scores[0] == scores[1] else int(scores[1] > scores[0])


def boston_made(options: dict[str, Any], bids: list[str], tricks: list[int], team: int) -> bool:
    """A team contract of 13 made: its non-nil bids total 13 and the tricks counting toward it too."""
    seats = (team, team + 2)
    counted = [s for s in seats if options["nil_tricks"] == "contract" or bids[s] not in NIL_KINDS]
    contract = sum(tricks_bid(bids[s]) for s in seats if bids[s] not in NIL_KINDS)
    return options["boston"] and contract == 13 and sum(tricks[s] for s in counted) >= 13


def play_game(preset: str, options: dict[str, Any], seed: int) -> None:
    rng = random.Random(seed)
    state = new_state(preset, options=options, first_dealer=seed % 4)
    rules, options = state.rules, state.rules.options()
    scores, deals = [0, 0], 0
    for _ in range(6):
        if state.is_terminal():
            return
        dealer, bags_before = state.dealer, list(state.bags_total)
        state.apply_chance(state.sample_chance(rng))
        assert state.current_player() == (dealer + 1) % 4       # bidding starts left of the dealer
        behind = [state.score_total[1 - t] - state.score_total[t] for t in (0, 1)]   # at the deal's start
        while state.phase == "bid":
            seat = state.current_player()
            dealt = [str(c) for c in state.hands[seat]]
            offered = {a.bid for a in state.legal_actions() if a.seat == seat}
            face_down = "look" in offered
            if face_down:                             # the blind bids now, the others after a look
                seen = state.clone()
                seen.apply_action(Action(seat, "bid", (), "look"))
                offered = (offered - {"look"}) | {a.bid for a in seen.legal_actions() if a.seat == seat}
            partner_bid = state.view(None)["bids"][(seat + 2) % 4]
            assert offered == expected_bids(options, dealt, partner_bid, behind[seat % 2])
            special = sorted(offered & {*NIL_KINDS, *BEMO, "6", "7"})
            choice = rng.choice(special if special and rng.random() < 0.6 else sorted(offered))
            if face_down and choice not in ("blind-nil", "double-nil"):
                state.apply_action(Action(seat, "bid", (), "look"))
            state.apply_action(Action(seat, "bid", (), choice))
        if state.phase == "deal":                      # a weak hand was shown: the same dealer deals again
            assert state.deal_results[-1]["score"] == [0, 0] and state.dealer == dealer
            continue
        if state.phase == "exchange":
            exchange(state, dealer, rng)
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
        score, bags, totals = expected_score(options, result["bids"], result["tricks"],
                                             list(state.trick_winners), bags_before)
        assert (result["score"], result["bags"], state.bags_total) == (score, bags, totals)
        totals_before = list(scores)
        scores = [a + b for a, b in zip(scores, score)]
        deals += 1
        assert state.score_total == scores
        boston = next((t for t in (0, 1) if boston_made(options, result["bids"], result["tricks"], t)), None)
        winner = expected_winner(options, scores, deals, boston)
        assert (state.match_over, state.winner_team) == (winner is not None, winner), (totals_before, scores)
        if winner is None:
            assert state.dealer == (dealer + 1) % 4          # the deal passes clockwise


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
    ("standard", {"target": 150, "lose_at": -150, "weak_hand_redeal": True, "blind_nil_behind": 50}),
    ("negative-reverse", {"target": 200, "double_nil": True, "blind_nil_behind": 0, "exchange_cards": 2}),
    ("face-up-four", {"double_nil": True, "blind_nil_behind": 40, "max_deals": 3}),
    ("boston", {"boston_wins_game": True, "max_team_bid": 13, "min_bid": 3, "nil_tricks": "contract"}),
    ("partnership-fourteen", {"target": 100, "max_deals": 4}),
    ("mirror", {"jokers": True, "target": 200}),
    ("bemo", {"bemo_one_per_team": True, "max_team_bid": 13, "lose_at": -300}),
])
def test_play_and_scoring_follow_an_independent_reading_of_the_rules(preset: str, options: dict[str, Any]) -> None:
    for seed in range(12):
        play_game(preset, options, seed)
