"""A second, independent reading of ``shared/rules/kozel.md``, played against the
engine card by card.

The rule tests pin hand-built positions; this model is written from the rules
text alone (it shares no code with the engine beyond the state it drives) and
follows random matches of every ruleset and player count, checking at every
decision the exact set of legal actions (leads, the trump-lead rule, the forced
exchange, following, street beats and passes, who may declare molodka), every
trick winner, the draws, the shamok, the royal goat, each deal's points and
penalty, the dealer, the next deal's leader and the match end. Random play
reaches the rare rules (a few hundred matches hold forced exchanges, shamok
catches, royal goats and annulled deals); the seeds here keep the run to a few
seconds. Options the rules file leaves to a table ([decision]s) are modelled too:
``opening_leader="last-trick-winner"`` on single-card tables, street's
``max_molodka_per_trick`` (with the order of simultaneous claims) and ``tie``.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations, permutations
from typing import Any

import pytest

from goat.games.kozel import KozelDeal, new_state
from goat.protocol import Action

POINTS = {"6": 0, "7": 0, "8": 0, "9": 0, "J": 2, "Q": 3, "K": 4, "T": 10, "A": 11}
PLAIN_ORDER = "6789KTA"                     # classic / full-hand plain suits, J and Q being trumps
STREET_ORDER = "6789JQKTA"
DECKS = {"24": "9TJQKA", "32": "789TJQKA", "36": "6789TJQKA"}
ACES = {"AC", "AD", "AH", "AS"}


def trumps_lowest_first(ranks: str, suit: str) -> list[str]:
    """The trump list of "Ruleset full-hand" (classic: suit C): the suit's plain
    cards, then JD JH JS JC, QD QH QS QC, 7C."""
    trumps = [r + suit for r in PLAIN_ORDER if r in ranks and r + suit != "7C"]
    trumps += ["J" + s for s in "DHSC"] + ["Q" + s for s in "DHSC"]
    return trumps + (["7C"] if "7" in ranks else [])


def texts(actions: list[Action], verb: str | None = None) -> set[str]:
    """Actions as text with the cards sorted (card order is not part of a move)."""
    return {f"{a.seat} {a.verb} {' '.join(sorted(map(str, a.cards)))}"
            for a in actions if verb is None or a.verb == verb}


def moves(seat: int, verb: str, card_sets: Any) -> set[str]:
    return {f"{seat} {verb} {' '.join(sorted(cards))}" for cards in card_sets}


def draw(hands: list[list[str]], stock: list[str], first: int, size: int) -> bool:
    """Rule 6 / street rule 5: one card at a time clockwise from ``first``."""
    n, drew = len(hands), False
    while stock and any(len(h) < size for h in hands):
        for k in range(n):
            seat = (first + k) % n
            if stock and len(hands[seat]) < size:
                hands[seat].append(stock.pop(0))
                drew = True
    return drew


def choose(state: Any, rng: random.Random, actions: list[Action]) -> Action:
    action = rng.choice(actions)
    state.apply_action(action)
    return action


def single_card_match(preset: str, players: int, options: dict[str, Any], seed: int,
                      seen: Counter[str] | None = None) -> None:
    """One random match checked against the model; ``seen`` tallies the rare plays
    it met (``"trump on held suit"``)."""
    seen = Counter() if seen is None else seen
    rng = random.Random(seed)
    state = new_state(preset, players=players, options=options, first_dealer=rng.randrange(players))
    rules = state.rules
    n = players
    team = (lambda s: s % 2) if n == 4 else (lambda s: s)
    prev_opening_team: int | None = None
    last_ended_by: str | None = None
    # opening_leader="last-trick-winner" (street's leader rule on these tables): the
    # winner of the previous counted deal's last trick leads; a shamok catch's trick is
    # its deal's last, won by the 7C (the highest card); an annulled deal is replayed
    # as if it had not happened; before any counted deal, the seat left of the dealer.
    last_winner: int | None = None
    totals = [0] * rules.num_teams
    while True:
        dealer = state.dealer
        state.apply_chance(state.sample_chance(rng))
        deal = state.logs[-1]["deal"]
        suit = deal.trump_card.suit if deal.trump_card else rules.trump_suit
        trumps = trumps_lowest_first(DECKS[rules.deck], suit)
        is_trump = trumps.__contains__
        hands = [[str(c) for c in h] for h in deal.hands]
        stock = [str(c) for c in deal.stock]
        if rules.royal_goat and any(ACES <= set(h) for h in hands):
            assert state.deal_results[-1]["ended_by"] == "royal-goat" and state.is_terminal()
            return
        if rules.partner_exchange:          # one card each, face down, from left of the dealer
            for k in range(1, n + 1):
                assert state.current_player() == (dealer + k) % n
                give = choose(state, rng, state.legal_actions())
                hands[give.seat].remove(str(give.cards[0]))
                hands[(give.seat + 2) % 4].append(str(give.cards[0]))
        if rules.opening_leader == "dealer":
            leader = dealer
        else:
            leader = last_winner if last_winner is not None else (dealer + 1) % n
            seen["led by the last trick's winner" if last_winner is not None else "led left of the dealer"] += 1
            if last_ended_by is not None:
                seen[f"led after {last_ended_by}"] += 1
        piles: list[list[str]] = [[] for _ in range(rules.num_teams)]
        tricks = [0] * rules.num_teams
        played, opening_team, prev_trick_team, caught = 0, None, None, False

        def barred(seat: int) -> bool:
            """Rules 1 and 2: may ``seat`` not lead a trump now?"""
            if rules.trump_lead == "free":
                return False
            if played == 0:
                return True
            if rules.trump_lead == "opening-only":
                return False
            if rules.trump_lead == "previous-opener":
                return prev_opening_team == team(seat)
            return prev_trick_team == team(seat)

        while True:
            assert state.current_player() == leader
            hand = hands[leader]
            plain = [c for c in hand if not is_trump(c)]
            partner = (leader + 2) % 4 if n == 4 else None
            if barred(leader) and not plain and rules.forced_exchange and partner is not None \
                    and any(not is_trump(c) for c in hands[partner]):
                # Rule 3: give a trump, get a plain card of the partner's choice, lead it.
                assert texts(state.legal_actions()) == moves(leader, "give", [[c] for c in hand])
                give = choose(state, rng, state.legal_actions())
                hand.remove(str(give.cards[0]))
                hands[partner].append(str(give.cards[0]))
                back = [[c] for c in hands[partner] if not is_trump(c)]
                assert texts(state.legal_actions()) == moves(partner, "give", back)
                ret = choose(state, rng, state.legal_actions())
                hands[partner].remove(str(ret.cards[0]))
                hand.append(str(ret.cards[0]))
                expected = moves(leader, "play", [[str(ret.cards[0])]])
            elif barred(leader) and plain:
                expected = moves(leader, "play", [[c] for c in plain])
            else:
                expected = moves(leader, "play", [[c] for c in hand])
            assert texts(state.legal_actions()) == expected
            lead = str(choose(state, rng, state.legal_actions()).cards[0])
            hand.remove(lead)
            trick = [(leader, lead)]
            if opening_team is None:
                opening_team = team(leader)
            led = "trump" if is_trump(lead) else lead[1]
            for k in range(1, n):           # rule 4: follow the led (effective) suit
                seat = (leader + k) % n
                hand = hands[seat]
                follow = [c for c in hand if ("trump" if is_trump(c) else c[1]) == led]
                if led == "trump" and not rules.must_follow_trump:
                    follow = []
                if follow and led != "trump" and rules.trump_on_plain == "always":
                    # the full-hand text: trumps "may be played to the trick whatever
                    # suit is led", so also by a player who holds that suit
                    follow += [c for c in hand if is_trump(c)]
                assert texts(state.legal_actions()) == moves(seat, "play", [[c] for c in follow or hand])
                card = str(choose(state, rng, state.legal_actions()).cards[0])
                if led != "trump" and is_trump(card) and any(c[1] == led and not is_trump(c) for c in hand):
                    seen["trump on held suit"] += 1
                hand.remove(card)
                trick.append((seat, card))
                by_card = {c: s for s, c in trick}
                if rules.shamok_catches_queen and "7C" in trumps and {"7C", "QC"} <= set(by_card) \
                        and team(by_card["7C"]) != team(by_card["QC"]):
                    result = state.deal_results[-1]
                    assert result["ended_by"] == "shamok-caught-queen"
                    expected_penalty = [0] * rules.num_teams
                    expected_penalty[team(by_card["QC"])] = rules.shamok_penalty
                    assert result["penalty"] == expected_penalty
                    caught, deal_last_winner = True, by_card["7C"]
                    if played == 0:
                        seen["shamok caught in a first trick"] += 1
                    break
            if caught:
                break
            in_trumps = [(trumps.index(c), s) for s, c in trick if is_trump(c)]
            winner = max(in_trumps)[1] if in_trumps else \
                max((PLAIN_ORDER.index(c[0]), s) for s, c in trick if c[1] == led)[1]
            assert state.last_trick["winner"] == winner
            deal_last_winner = winner
            piles[team(winner)] += [c for _, c in trick]
            tricks[team(winner)] += 1
            prev_trick_team, played = team(leader), played + 1
            drew = draw(hands, stock, winner, rules.hand_size)
            if drew and rules.royal_goat and any(ACES <= set(h) for h in hands):
                assert state.deal_results[-1]["ended_by"] == "royal-goat" and state.is_terminal()
                return
            assert [sorted(h) for h in hands] == [sorted(map(str, h)) for h in state.hands]
            if not stock and not any(hands):
                break
            leader = winner
        result = state.deal_results[-1]
        if not caught:
            points = [sum(POINTS[c[0]] for c in pile) for pile in piles]
            assert result["points"] == points
            winners = [t for t in range(rules.num_teams) if points[t] > 60]
            if winners:
                assert result["penalty"] == [0 if t == winners[0] else 2 for t in range(rules.num_teams)]
            else:
                assert result["penalty"] == [0] * rules.num_teams
                assert result["ended_by"] == ("annulled" if rules.tie == "annul" else "cards-exhausted")
        totals = [a + b for a, b in zip(totals, result["penalty"])]
        assert state.penalty_total == totals
        if state.is_terminal():
            assert max(totals) >= rules.match_target
            return
        assert max(totals) < rules.match_target
        last_ended_by = result["ended_by"]
        if result["ended_by"] == "annulled":
            assert state.dealer == dealer       # the same dealer deals again
        else:
            prev_opening_team = opening_team
            last_winner = deal_last_winner
            assert state.dealer == (dealer + 1) % n


SINGLE_CARD = [
    ("classic", 4, {}),
    ("classic", 4, {"trump_lead": "not-after-own-lead"}),
    ("classic", 4, {"trump_lead": "opening-only", "must_follow_trump": False}),
    ("full-hand", 4, {}),
    ("full-hand", 4, {"trump_lead": "not-after-own-lead", "partner_exchange": 0}),
    ("full-hand", 2, {}),
    ("full-hand", 3, {}),
    ("full-hand-24", 4, {}),
    ("classic", 4, {"trump_on_plain": "always"}),
    ("full-hand", 4, {"trump_on_plain": "always"}),
    ("full-hand", 3, {"trump_on_plain": "always", "trump_lead": "free"}),
    ("full-hand", 2, {"trump_on_plain": "always", "must_follow_trump": False}),
    ("classic", 4, {"opening_leader": "last-trick-winner"}),
    ("full-hand", 4, {"opening_leader": "last-trick-winner"}),
    ("full-hand", 2, {"opening_leader": "last-trick-winner", "shamok_penalty": 0}),
]


@pytest.mark.parametrize("preset, players, options", SINGLE_CARD)
def test_single_card_rulesets_follow_an_independent_reading_of_the_rules(
        preset: str, players: int, options: dict[str, Any]) -> None:
    seen: Counter[str] = Counter()
    for seed in range(20):
        single_card_match(preset, players, options, seed, seen)
    # a trump on a plain lead by a player holding that suit: met, and only where allowed
    assert (seen["trump on held suit"] > 0) == (options.get("trump_on_plain") == "always")


@pytest.mark.parametrize("preset, players, seeds, met", [
    ("classic", 4, range(120), ["shamok caught in a first trick", "led after shamok-caught-queen"]),
    ("full-hand", 4, range(60), ["led after annulled", "led after shamok-caught-queen"]),
])
def test_the_last_tricks_winner_leads_after_a_shamok_catch_and_not_after_an_annulled_deal(
        preset: str, players: int, seeds: range, met: list[str]) -> None:
    """``opening_leader="last-trick-winner"`` on tables with the shamok and annulled
    deals, where the model says who leads: the 7C's player after a catch (also one in
    a deal's first trick), the annulled deal's own leader for its replay. The seeds
    reach both."""
    seen: Counter[str] = Counter()
    for seed in seeds:
        single_card_match(preset, players, {"opening_leader": "last-trick-winner"}, seed, seen)
    assert all(seen[what] > 0 for what in met), seen


def street_beats(challengers: tuple[str, ...], best: list[str], trump: str) -> bool:
    """Street rule 2: each challenger beats a different card of the best set."""
    def beats(a: str, b: str) -> bool:
        return STREET_ORDER.index(a[0]) > STREET_ORDER.index(b[0]) if a[1] == b[1] else a[1] == trump
    return any(all(beats(c, b) for c, b in zip(challengers, order)) for order in permutations(best))


def suited_deal(state: Any, rng: random.Random) -> KozelDeal:
    """A street deal whose four hands are four cards of one suit each (a suit a
    seat): every seat may declare molodka in the first trick, so claims meet."""
    deck = list(state.rules.deck_cards)
    suits = list("CDHS")
    rng.shuffle(suits)
    hands = tuple(tuple(rng.sample([c for c in deck if c.suit == suit], 4)) for suit in suits)
    stock = [c for c in deck if not any(c in h for h in hands)]
    rng.shuffle(stock)
    return KozelDeal(hands, tuple(stock), stock[rng.randint(1, len(stock) - 2)])


def street_match(seed: int, options: dict[str, Any] | None = None, seen: Counter[str] | None = None,
                 suited: bool = False) -> None:
    """One random street match checked against the model. ``options`` may set
    ``max_molodka_per_trick`` (the [decision]: how many molodkas a trick may have;
    claims are ordered from the seat that led the trick before any of them) and
    ``tie="annul"`` (a 60–60 deal is replayed by the same dealer, led by its leader).
    ``suited``: every deal is a :func:`suited_deal`."""
    options = options or {}
    seen = Counter() if seen is None else seen
    most = options.get("max_molodka_per_trick", 1)
    rng = random.Random(seed)
    state = new_state("street", first_dealer=rng.randrange(4), options=options)
    last_winner: int | None = None
    totals = [0, 0]
    while True:
        dealer = state.dealer
        state.apply_chance(suited_deal(state, rng) if suited else state.sample_chance(rng))
        deal = state.logs[-1]["deal"]
        trump = deal.trump_card.suit
        assert 0 < deal.stock.index(deal.trump_card) < len(deal.stock) - 1   # from the middle, left there
        hands = [[str(c) for c in h] for h in deal.hands]
        stock = [str(c) for c in deal.stock]
        leader = last_winner if last_winner is not None else (dealer + 1) % 4
        piles: list[list[str]] = [[], []]
        tricks = [0, 0]
        while True:
            assert state.current_player() == leader
            hand = hands[leader]
            leads = [c for k in range(1, min(4, len(hand)) + 1) for c in combinations(hand, k)
                     if len({x[1] for x in c}) == 1]
            assert texts(state.legal_actions()) == moves(leader, "play", leads)   # no molodka before a lead
            lead = choose(state, rng, state.legal_actions())
            table = [(leader, "play", [str(c) for c in lead.cards])]
            for c in table[0][2]:
                hand.remove(c)
            declared = 0
            while len(table) < 4:
                acted = {seat for seat, _, _ in table}
                molodkas = set() if declared >= most else {
                    f"{s} molodka {' '.join(sorted(four))}" for s in range(4) if s not in acted
                    for suit in "CDHS" for four in combinations([c for c in hands[s] if c[1] == suit], 4)}
                assert texts(state.legal_actions(), "molodka") == molodkas
                claimants = sorted({int(m.split()[0]) for m in molodkas})
                # "the one nearer clockwise to the player who originally led the trick goes first"
                assert state.molodka_priority(claimants) == sorted(claimants, key=lambda c: (c - leader) % 4)
                if len(claimants) > 1:
                    seen["claims to order" if declared == 0 else "claims to order after a molodka"] += 1
                if molodkas and rng.random() < 0.5:
                    claim = choose(state, rng, [a for a in state.legal_actions() if a.verb == "molodka"])
                    for seat, _, cards in table:         # every card goes back where it came from
                        hands[seat] += cards
                    table = [(claim.seat, "play", [str(c) for c in claim.cards])]
                    for c in table[0][2]:
                        hands[claim.seat].remove(c)
                    declared += 1
                    seen[f"molodka {declared} in a trick"] += 1
                    continue
                seat = (table[-1][0] + 1) % 4
                assert state.current_player() == seat
                need = len(table[0][2])
                best = [cards for _, verb, cards in table if verb == "play"][-1]
                sets = list(combinations(hands[seat], need))
                answers = [a for a in state.legal_actions() if a.seat == seat and a.verb != "molodka"]
                assert texts(answers) == (moves(seat, "play", [c for c in sets if street_beats(c, best, trump)])
                                          | moves(seat, "pass", sets))
                answer = choose(state, rng, answers)
                table.append((seat, answer.verb, [str(c) for c in answer.cards]))
                for c in table[-1][2]:
                    hands[seat].remove(c)
            winner = [seat for seat, verb, _ in table if verb == "play"][-1]
            assert state.last_trick["winner"] == winner
            for _, _, cards in table:
                piles[winner % 2] += cards
            tricks[winner % 2] += 1
            draw(hands, stock, winner, 4)
            assert [sorted(h) for h in hands] == [sorted(map(str, h)) for h in state.hands]
            if not stock and not any(hands):
                break
            leader = winner
        points = [sum(POINTS[c[0]] for c in pile) for pile in piles]
        penalty = [0, 0]
        if points[0] != 60:
            loser = 0 if points[0] < 60 else 1
            penalty[loser] = 6 if tricks[loser] == 0 else 4 if points[loser] <= 30 else 2
        result = state.deal_results[-1]
        assert result["points"] == points and result["penalty"] == penalty
        annulled = points[0] == 60 and options.get("tie") == "annul"
        assert result["ended_by"] == ("annulled" if annulled else "cards-exhausted")
        totals = [a + b for a, b in zip(totals, penalty)]
        assert state.penalty_total == totals
        if state.is_terminal():
            assert max(totals) >= 12
            return
        if annulled:   # replayed as if it had not happened: same dealer, same leader
            seen["annulled"] += 1
            assert max(totals) < 12 and state.dealer == dealer
            continue
        last_winner = winner
        assert max(totals) < 12 and state.dealer == (dealer + 1) % 4


def test_street_follows_an_independent_reading_of_the_rules() -> None:
    for seed in range(60):
        street_match(seed)


@pytest.mark.parametrize("options, suited, seeds, met", [
    ({"max_molodka_per_trick": 4, "trump_card_place": "public"}, True, range(10),
     ["molodka 4 in a trick", "claims to order after a molodka"]),
    ({"max_molodka_per_trick": 2}, True, range(10), ["molodka 2 in a trick", "claims to order after a molodka"]),
    ({"tie": "annul"}, False, range(150), ["annulled"]),
])
def test_street_options_follow_an_independent_reading_of_the_rules(
        options: dict[str, Any], suited: bool, seeds: range, met: list[str]) -> None:
    """Street's [decision] options against the model: more molodkas a trick (a claim
    order counted from the trick's first leader; deals of a suit a hand, so claims
    meet) with the trump card face up, and annulled 60–60 deals (the same dealer,
    the annulled deal's leader leads again)."""
    seen: Counter[str] = Counter()
    for seed in seeds:
        street_match(seed, options, seen, suited)
    assert all(seen[what] > 0 for what in met), seen
