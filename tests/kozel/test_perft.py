"""Perft: the number of distinct legal action sequences from just after the
first deal to the end of the first trick, pinned for fixed seeds.

As in chess engines, perft catches any change in move generation (an extra or
missing lead, beat, pass, give or molodka). So the pinned numbers are not only
the engine agreeing with itself, every count is also checked against a brute
force written here straight from ``shared/rules/kozel.md`` that uses no engine
code beyond the dealt cards.
"""

from __future__ import annotations

import random
from itertools import combinations, product

import pytest

from goat.games.kozel import KozelDeal, KozelState, new_state


def perft(state: KozelState) -> int:
    """Distinct legal action sequences from ``state`` to the end of the first trick
    (or to an earlier end of the deal: shamok catching the queen, royal goat).

    The last card of a one-card trick always ends it, so that ply is counted
    without being played (the usual perft "bulk counting").
    """
    if state.is_chance_node() or state.is_terminal() or state.tricks_played >= 1:
        return 1
    actions = state.legal_actions()
    if (state.rules.trick_style == "single" and state.phase == "play"
            and len(state.trick) == state.rules.players - 1):
        return len(actions)
    total = 0
    for action in actions:
        child = state.clone()
        child.apply_action(action)
        total += perft(child)
    return total


# ====================================================== brute force: street
STREET_RANKS = "6789JQKTA"


def street_beats(a: str, b: str, trump: str) -> bool:
    """Rule "card comparison": same suit higher rank; else only a trump beats."""
    if a[1] == b[1]:
        return STREET_RANKS.index(a[0]) > STREET_RANKS.index(b[0])
    return a[1] == trump


def has_matching(challengers: tuple[str, ...], best: tuple[str, ...], trump: str) -> bool:
    """Each challenger beats a different card of ``best`` (augmenting paths)."""
    owner: dict[int, int] = {}

    def augment(i: int, seen: set[int]) -> bool:
        for j, b in enumerate(best):
            if j in seen or not street_beats(challengers[i], b, trump):
                continue
            seen.add(j)
            if j not in owner or augment(owner[j], seen):
                owner[j] = i
                return True
        return False

    return all(augment(i, set()) for i in range(len(challengers)))


def street_sequences(hands: list[list[str]], leader: int, trump: str) -> int:
    """Leads of 1-4 cards of one suit; answers: any pass of as many cards, or a
    beat of the current best set; a molodka (four of a suit) by any seat that has
    not played, after the lead and before the trick is complete, at most once:
    all cards go back and the molodka player leads them."""
    start = tuple(frozenset(h) for h in hands)

    def answer(hands, played: frozenset[int], best, k: int, seat: int, molodka_used: bool) -> int:
        if len(played) == 4:
            return 1
        total = 0
        for combo in combinations(sorted(hands[seat]), k):
            rest = tuple(h - set(combo) if s == seat else h for s, h in enumerate(hands))
            total += answer(rest, played | {seat}, best, k, (seat + 1) % 4, molodka_used)
            if has_matching(combo, best, trump):
                total += answer(rest, played | {seat}, combo, k, (seat + 1) % 4, molodka_used)
        if not molodka_used:
            for s in set(range(4)) - played:
                for suit in "CDHS":
                    for four in combinations(sorted(c for c in start[s] if c[1] == suit), 4):
                        rest = tuple(h - set(four) if t == s else h for t, h in enumerate(start))
                        total += answer(rest, frozenset({s}), four, 4, (s + 1) % 4, True)
        return total

    total = 0
    for size in range(1, 5):
        for combo in combinations(sorted(start[leader]), size):
            if len({c[1] for c in combo}) == 1:
                rest = tuple(h - set(combo) if s == leader else h for s, h in enumerate(start))
                total += answer(rest, frozenset({leader}), combo, size, (leader + 1) % 4, False)
    return total


# ========================================= brute force: one-card tricks
def single_sequences(hands: list[list[str]], leader: int, trump_suit: str,
                     partner_exchange: bool) -> int:
    """Classic and full-hand: permanent trumps (J, Q, 7C) plus the trump suit;
    the opening lead must be plain, with the forced exchange when the leader
    holds only trumps; followers follow the led (effective) suit or play
    anything; 7C and QC from two teams end the deal at once; four aces in one
    dealt hand end the match before any action."""
    n = len(hands)
    partners = n == 4

    def suit(c: str) -> str:
        return "trump" if c[0] in "JQ" or c == "7C" or c[1] == trump_suit else c[1]

    def team(s: int) -> int:
        return s % 2 if partners else s

    def trick(hands: list[list[str]], lead: str) -> int:
        def follow(i: int, played: list[tuple[int, str]]) -> int:
            who = {c: s for s, c in played}
            if "7C" in who and "QC" in who and team(who["7C"]) != team(who["QC"]):
                return 1
            if i == n:
                return 1
            seat = (leader + i) % n
            same = [c for c in hands[seat] if suit(c) == suit(lead)]
            return sum(follow(i + 1, played + [(seat, c)]) for c in (same or hands[seat]))
        return follow(1, [(leader, lead)])

    def opening(hands: list[list[str]]) -> int:
        plain = [c for c in hands[leader] if suit(c) != "trump"]
        if plain:
            return sum(trick(hands, c) for c in plain)
        if partners:
            p = (leader + 2) % n
            partner_plain = [c for c in hands[p] if suit(c) != "trump"]
            if partner_plain:
                total = 0
                for give, back in product(hands[leader], partner_plain):
                    new = [list(h) for h in hands]
                    new[leader].remove(give)
                    new[leader].append(back)
                    new[p].remove(back)
                    new[p].append(give)
                    total += trick(new, back)
                return total
        return sum(trick(hands, c) for c in hands[leader])

    if any({"AC", "AD", "AH", "AS"} <= set(h) for h in hands):
        return 1
    if not partner_exchange:
        return opening(hands)
    total = 0
    for gives in product(*hands):  # each seat gives one of its dealt cards
        new = [[c for c in h if c != g] for h, g in zip(hands, gives)]
        for s, g in enumerate(gives):
            new[(s + 2) % n].append(g)
        total += opening(new)
    return total


# ============================================================ the pins
CASES = [  # preset, players, seed, pinned count (dealer 0)
    ("classic", 4, 0, 17),         # one sequence ends early: 7C catches QC
    ("classic", 4, 1, 40),
    ("classic", 4, 286, 288),      # the dealer holds only trumps: forced exchange
    ("street", 4, 7, 1313),
    ("street", 4, 24, 1333),       # seat 0 can declare molodka
    ("street", 4, 39, 1100),       # seat 2 can declare molodka
    ("full-hand", 4, 0, 117288),   # 8^4 partner-exchange gives first
    ("full-hand", 4, 22, 65656),
    ("full-hand-24", 4, 4, 56928),
    ("full-hand-24", 4, 6, 66816),
    ("full-hand", 2, 0, 5),
    ("full-hand", 2, 3, 18),
    ("full-hand", 2, 83, 13),      # a draw after the first trick completes four aces
    ("full-hand", 3, 0, 26),
    ("full-hand", 3, 4, 88),
    ("full-hand", 3, 45, 1),       # royal goat: four aces dealt, the match is over
]
IDS = [f"{p}-{n}p-seed{s}" for p, n, s, _ in CASES]


def first_deal(preset: str, players: int, seed: int) -> tuple[KozelState, KozelDeal]:
    state = new_state(preset, players=players, first_dealer=0)
    deal = state.sample_chance(random.Random(seed))
    state.apply_chance(deal)
    return state, deal


@pytest.mark.parametrize("preset, players, seed, pinned", CASES, ids=IDS)
def test_perft_pinned(preset: str, players: int, seed: int, pinned: int) -> None:
    state, _ = first_deal(preset, players, seed)
    assert perft(state) == pinned


@pytest.mark.parametrize("preset, players, seed, pinned", CASES, ids=IDS)
def test_brute_force_from_the_rules_agrees(preset: str, players: int, seed: int, pinned: int) -> None:
    _, deal = first_deal(preset, players, seed)
    hands = [[str(c) for c in h] for h in deal.hands]
    trump = deal.trump_card.suit if deal.trump_card is not None else "C"
    if preset == "street":
        count = street_sequences(hands, leader=1, trump=trump)  # left of dealer 0 leads
    else:  # the dealer leads; 4-player full-hand starts with the partner exchange
        count = single_sequences(hands, leader=0, trump_suit=trump,
                                 partner_exchange=preset != "classic" and players == 4)
    assert count == pinned


def test_seeds_cover_what_they_claim() -> None:
    """The special seeds really exercise the forced exchange and the molodka."""
    state, _ = first_deal("classic", 4, 286)
    assert {a.verb for a in state.legal_actions()} == {"give"}
    for seed, seat in ((24, 0), (39, 2)):
        state, _ = first_deal("street", 4, seed)
        state.apply_action(state.legal_actions()[0])
        assert any(a.verb == "molodka" and a.seat == seat for a in state.legal_actions())
    state, _ = first_deal("full-hand", 3, 45)
    assert state.is_terminal() and state.result()["deals"][0]["ended_by"] == "royal-goat"
    state, _ = first_deal("full-hand", 4, 0)
    assert state.phase == "partner-exchange" and len(state.legal_actions()) == 8
