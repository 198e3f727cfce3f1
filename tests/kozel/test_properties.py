"""Property-based tests of the Kozel engine over random games in every ruleset.

Random legal play (seeded by hypothesis) must never break the invariants the
rest of the project relies on: cards are conserved, a played-out deal holds
120 points, there is always something to do, ``is_legal`` and
``legal_actions`` agree, a refusal changes nothing, games are reproducible
from their seed and clones are independent.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from goat.cards import Card
from goat.games.kozel import KozelState, new_state
from goat.protocol import VERBS, Action, IllegalActionError
from goat.records import check_result, dumps_record, parse_records, record_from_state, replay

from .conftest import snapshot

RULESETS = [("classic", 4), ("full-hand", 4), ("full-hand-24", 4), ("street", 4),
            ("full-hand", 2), ("full-hand", 3)]

rulesets = st.sampled_from(RULESETS)
seeds = st.integers(min_value=0, max_value=2**32 - 1)
SETTINGS = settings(max_examples=50, deadline=None)


def decisions(preset: str, players: int, seed: int, single_deal: bool = False,
              options: dict | None = None) -> Iterator[KozelState]:
    """Play a random match; yield the state at every decision node, then apply a
    random legal action (the caller may inspect the state before that)."""
    state = new_state(preset, players=players, options=options, first_dealer=seed % players,
                      single_deal=single_deal)
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance(state.sample_chance(rng))
            continue
        yield state
        actions = state.legal_actions()
        state.apply_action(actions[rng.randrange(len(actions))])
    yield state


def table_cards(state: KozelState) -> list[Card]:
    return ([c for h in state.hands for c in h] + list(state.stock)
            + [c for p in state.trick for c in p.cards] + [c for p in state.piles for c in p]
            + [c for _, c in state.pending_gives])


def key(action: Action) -> tuple[int, str, frozenset[Card], str | None]:
    """A move regardless of the order its cards are written in."""
    return (action.seat, action.verb, frozenset(action.cards), action.bid)


def random_actions(state: KozelState, rng: random.Random, count: int) -> list[Action]:
    """Mostly illegal candidates: random seats, verbs and cards, and legal actions
    with one thing changed (seat, verb, a card added or dropped)."""
    n = state.rules.players
    deck = list(state.rules.deck_cards)
    legal = state.legal_actions()
    out: list[Action] = []
    for _ in range(count):
        roll = rng.random()
        if roll < 0.4 and legal:
            base = rng.choice(legal)
            change = rng.randrange(5)
            cards = list(base.cards)
            if change == 0:
                out.append(Action(rng.randrange(n + 1), base.verb, base.cards))
            elif change == 1:
                out.append(Action(base.seat, rng.choice(VERBS[:4]), base.cards))
            elif change == 2:
                out.append(Action(base.seat, base.verb, tuple(cards + [rng.choice(deck)])))
            elif change == 3 and len(cards) > 1:
                out.append(Action(base.seat, base.verb, tuple(cards[1:])))
            else:
                out.append(Action(base.seat, base.verb, tuple(reversed(cards))))
            continue
        seat = rng.choice([state.current_player(), rng.randrange(n)])
        verb = rng.choice(VERBS)
        if verb == "bid":
            out.append(Action(seat, "bid", (), "4"))
            continue
        pool = list(state.hands[seat]) if roll < 0.8 and state.hands[seat] else deck
        cards = rng.sample(pool, min(len(pool), rng.randint(1, 4)))
        out.append(Action(seat, verb, tuple(cards)))
    return out


@SETTINGS
@given(rules=rulesets, seed=seeds)
def test_cards_are_conserved_at_every_step(rules: tuple[str, int], seed: int) -> None:
    preset, players = rules
    for state in decisions(preset, players, seed):
        if state.is_terminal():
            break
        deck = Counter(state.rules.deck_cards)
        assert Counter(table_cards(state)) == deck, state


@SETTINGS
@given(rules=rulesets, seed=seeds)
def test_played_out_deals_hold_120_points(rules: tuple[str, int], seed: int) -> None:
    preset, players = rules
    *_, final = decisions(preset, players, seed)
    results = final.result()["deals"]
    assert results
    for deal in results:
        assert deal["ended_by"] in ("cards-exhausted", "shamok-caught-queen", "royal-goat", "annulled")
        if deal["ended_by"] in ("cards-exhausted", "annulled"):
            assert sum(deal["points"]) == 120, deal
            assert sum(deal["tricks"]) >= 1
    assert final.result()["match_over"]


@SETTINGS
@given(rules=rulesets, seed=seeds)
def test_legal_actions_never_empty_and_all_accepted(rules: tuple[str, int], seed: int) -> None:
    preset, players = rules
    rng = random.Random(seed ^ 0x5EED)
    for state in decisions(preset, players, seed, single_deal=True):
        if state.is_terminal():
            assert state.legal_actions() == []
            break
        actions = state.legal_actions()
        assert actions, state
        assert len(set(actions)) == len(actions)
        assert all(state.is_legal(a) for a in actions)
        for a in rng.sample(actions, min(3, len(actions))):
            child = state.clone()
            child.apply_action(a)  # must not raise
            assert child.logs[-1]["actions"][-1] == a or child.is_chance_node() or child.is_terminal()


@SETTINGS
@given(rules=rulesets, seed=seeds)
def test_is_legal_agrees_with_legal_actions_and_refusals_change_nothing(
        rules: tuple[str, int], seed: int) -> None:
    preset, players = rules
    rng = random.Random(seed ^ 0xBAD)
    refused = decided = 0
    for state in decisions(preset, players, seed, single_deal=True):
        if state.is_terminal():
            break
        decided += 1
        legal = {key(a) for a in state.legal_actions()}
        for action in random_actions(state, rng, 4):
            expected = len(set(action.cards)) == len(action.cards) and key(action) in legal
            assert state.is_legal(action) == expected, (str(action), state)
            if not expected:
                before = snapshot(state)
                try:
                    state.apply_action(action)
                except IllegalActionError as err:
                    assert "\n" not in str(err)
                else:
                    raise AssertionError(f"illegal {action} was applied")
                assert snapshot(state) == before
                refused += 1
    # A deal can end before anyone acts (a royal goat in the deal itself).
    assert refused > 0 or decided == 0


@SETTINGS
@given(rules=rulesets, seed=seeds)
def test_same_seed_same_game(rules: tuple[str, int], seed: int) -> None:
    preset, players = rules
    *_, a = decisions(preset, players, seed)
    *_, b = decisions(preset, players, seed)
    assert a.deal_log() == b.deal_log()
    assert a.result() == b.result()
    assert a.information_state_string(None) == b.information_state_string(None)


@SETTINGS
@given(rules=rulesets, seed=seeds, cut=st.integers(min_value=0, max_value=60))
def test_clone_is_independent(rules: tuple[str, int], seed: int, cut: int) -> None:
    preset, players = rules
    for step, state in enumerate(decisions(preset, players, seed)):
        if step == cut or state.is_terminal():
            break
    before = snapshot(state)
    result_before = state.result()
    clone = state.clone()
    assert snapshot(clone) == before
    rng = random.Random(seed)
    while not clone.is_terminal():  # play the clone to the end of the match
        if clone.is_chance_node():
            clone.apply_chance(clone.sample_chance(rng))
        else:
            actions = clone.legal_actions()
            clone.apply_action(actions[rng.randrange(len(actions))])
    assert snapshot(state) == before
    assert state.result() == result_before
    if not state.is_terminal():  # and the other way round
        frozen = snapshot(clone)
        state.apply_action(state.legal_actions()[0])
        assert snapshot(clone) == frozen


# ------------------------------------------------- tables with [decision] options
#: Tables of the options a preset leaves at their defaults: street with the shown
#: trump card face up and up to four molodkas a trick, street with two and annulled
#: ties, the shamok and annulled deals under street's leader rule
#: (``opening_leader="last-trick-winner"``), and the options' upper bounds.
OPTION_TABLES = [
    ("street", 4, {"trump_card_place": "public", "max_molodka_per_trick": 4}),
    ("street", 4, {"max_molodka_per_trick": 2, "tie": "annul", "eggs": "double-next"}),
    ("classic", 4, {"opening_leader": "last-trick-winner", "shamok_penalty": 100}),
    ("full-hand", 4, {"opening_leader": "last-trick-winner", "match_target": 20}),
    ("full-hand", 2, {"opening_leader": "last-trick-winner", "shamok_penalty": 0}),
    ("full-hand", 3, {"opening_leader": "last-trick-winner", "match_target": 100,
                      "match_loser": "all-at-target"}),
]


def option_match(table: tuple[str, int, dict], seed: int) -> Iterator[KozelState]:
    """:func:`decisions` for a table of :data:`OPTION_TABLES`."""
    preset, players, options = table
    return decisions(preset, players, seed, options=options)


@settings(max_examples=25, deadline=None)
@given(table=st.sampled_from(OPTION_TABLES), seed=seeds)
def test_option_tables_conserve_cards_and_hold_120_points(table: tuple[str, int, dict], seed: int) -> None:
    deck = None
    for state in option_match(table, seed):
        deck = deck or Counter(state.rules.deck_cards)
        if not state.is_terminal():
            assert Counter(table_cards(state)) == deck, state
    for deal in state.result()["deals"]:
        if deal["ended_by"] in ("cards-exhausted", "annulled"):
            assert sum(deal["points"]) == 120, deal
    assert state.result()["match_over"]
    assert (max(state.penalty_total) >= state.rules.match_target
            or state.result()["deals"][-1]["ended_by"] == "royal-goat")


@settings(max_examples=25, deadline=None)
@given(table=st.sampled_from(OPTION_TABLES), seed=seeds)
def test_option_tables_round_trip_through_their_records(table: tuple[str, int, dict], seed: int) -> None:
    """A finished match written as a record (one JSON line, as ``goat play
    --record`` writes it) keeps its options, replays move by move (``goat replay
    --check``) to the same result, and every seat's view at the end is the same."""
    *_, state = option_match(table, seed)
    record = parse_records(dumps_record(record_from_state(state)))[0]
    assert record["options"] == table[2]   # each differs from the preset, so each is stored
    outcome = replay(record)
    check_result(record, outcome)
    replayed = outcome.state
    assert replayed.rules == state.rules
    for seat in [None, *range(state.rules.players)]:
        assert replayed.information_state_string(seat) == state.information_state_string(seat)
