"""TokenGame: every legal action, and nothing else, is reachable token by
token; offers follow public facts only; refusals change nothing."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from goat.envs.tokens import TokenGame
from goat.protocol import Action, IllegalActionError

from .conftest import CASES, decisions, new_game


def completions(game: TokenGame) -> set[Action | None]:
    """Every action reachable from the current decision by following masks
    (depth first on clones); ``None`` stands for wait."""
    found: set[Action | None] = set()
    seat = game.actor()

    def walk(g: TokenGame) -> None:
        for token in g.legal_tokens():
            child = g.clone()
            before = len(child.state.deal_log()[-1]["actions"])
            offers = list(child.offers)
            applied = child.apply_token(token)
            if applied is not None:
                found.add(applied)
            elif child.prefix:
                walk(child)
            else:  # a wait: the next seat is asked, nothing applied
                assert child.offers == offers[1:] and len(child.state.deal_log()[-1]["actions"]) == before
                found.add(None)
        assert g.actor() == seat

    walk(game)
    return found


@settings(max_examples=60, deadline=None)
@given(label=st.sampled_from(list(CASES)), seed=st.integers(0, 2**32))
def test_masks_reach_exactly_the_legal_actions(label: str, seed: int) -> None:
    game, rng = new_game(label, seed)
    for g in decisions(game, rng):
        seat = g.actor()
        legal = {a for a in g.state.legal_actions() if a.seat == seat}
        if g.prefix:  # half-way through a choice: the actions that extend it
            legal = {a for a in legal if g.encoder.tokens(a)[:len(g.prefix)] == g.prefix}
        expected = legal | ({None} if g.is_offer() and not g.prefix else set())
        assert completions(g) == expected


@settings(max_examples=60, deadline=None)
@given(label=st.sampled_from(list(CASES)), seed=st.integers(0, 2**32))
def test_token_sequences_are_distinct_and_prefix_free(label: str, seed: int) -> None:
    game, rng = new_game(label, seed)
    for g in decisions(game, rng):
        seqs = list(g.sequences())
        assert len(seqs) == len(set(seqs))
        for a in seqs:
            assert all(0 <= t < g.num_actions for t in a)
            assert not any(b != a and b[:len(a)] == a for b in seqs), f"{a} is a prefix"


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_street_offers_every_possible_molodka_and_only_on_public_grounds(seed: int) -> None:
    game, rng = new_game("street", seed)
    offered_without_molodka = 0
    for g in decisions(game, rng):
        if g.prefix or g.is_offer():
            continue  # look at positions where the current player has not started yet
        # Rewind to the start of this position: the offers were asked before the current player.
        state = g.state
        current = state.current_player()
        claimants = {a.seat for a in state.legal_actions() if a.seat != current}
        fresh = TokenGame(state.clone(), g.encoder)
        assert claimants <= set(fresh.offers), "a seat that may declare molodka is never asked"
        public = fresh.encoder.offer_seats(state.view(None))
        assert [s for s in public if s != current] == fresh.offers
        for seat in fresh.offers:
            if seat not in claimants:
                offered_without_molodka += 1
    # Seats without four of a suit are asked too (else being asked would reveal a hand).
    assert offered_without_molodka > 0


@pytest.mark.parametrize("fast", [True, False])
def test_offers_after_a_molodka_follow_the_engines_priority_from_the_original_leader(fast: bool) -> None:
    """Street with ``max_molodka_per_trick=2``: seat 0 leads, seat 1 (left of it)
    restarts the trick with a molodka, so seat 2 is to act and seats 3 and 0 may
    claim the second molodka. The rules order claims from the seat that
    *originally* led (``KozelState.molodka_priority``: 0 before 3); the offers
    counted from the molodka player now leading asked seat 3 first, so its claim
    beat seat 0's. Both the fast path and the public view's must ask 0 first."""
    from goat.envs.spec import GameSpec
    from tests.kozel.conftest import deal_state, play

    options = {"max_molodka_per_trick": 2}
    state = deal_state("street", hands={"0": "6H 7H 8H 9H", "1": "6S 7S 8S 9S",
                                        "2": "6D 7D 8D 9D", "3": "6C 7C 8C 9C"},
                       trump_card="TC", dealer=3, options=options, single_deal=True)
    play(state, "0 play 6H")
    play(state, "1 molodka 6S+7S+8S+9S")
    assert (state.current_player(), state.trick_leader) == (2, 1)
    claimants = sorted({a.seat for a in state.legal_actions() if a.verb == "molodka" and a.seat != 2})
    assert claimants == [0, 3]
    encoder, _ = GameSpec("kozel", "street", options=options, single_deal=True).encoder()
    game = TokenGame(state, encoder, fast=fast)
    assert game.offers == state.molodka_priority(claimants) == [0, 3]
    assert [s for s in encoder.offer_seats(state.view(None)) if s != 2] == [0, 3]


def test_an_offered_seat_without_molodka_can_only_wait() -> None:
    game, rng = new_game("street", 5)
    seen = 0
    for g in decisions(game, rng):
        if g.is_offer():
            seat = g.actor()
            if not any(a.seat == seat for a in g.state.legal_actions()):
                assert g.legal_tokens() == [g.wait]
                assert g.mask(seat).tolist() == [0] * g.wait + [1]
                seen += 1
    assert seen


@pytest.mark.parametrize("label", ["classic", "street"])
def test_illegal_tokens_raise_one_line_and_change_nothing(label: str) -> None:
    game, rng = new_game(label, 11)
    g = next(decisions(game, rng))
    before = (g.information_state_string(g.actor()), g.prefix, list(g.offers), g.version)
    bad = next(t for t in range(g.num_actions) if t not in g.legal_tokens())
    for token in (bad, -1, g.num_actions, 10**6):
        with pytest.raises(IllegalActionError) as err:
            g.apply_token(token)
        assert "\n" not in str(err.value) and "legal:" in str(err.value)
        assert (g.information_state_string(g.actor()), g.prefix, list(g.offers), g.version) == before


def test_whole_actions_apply_as_their_tokens_and_illegal_ones_change_nothing() -> None:
    game, rng = new_game("street", 2)
    g = next(decisions(game, rng))
    seat = g.actor()
    action = next(a for a in g.state.legal_actions() if a.seat == seat)
    other = g.clone()
    for token in g.encoder.tokens(action):
        other.apply_token(token)
    foreign = Action((seat + 1) % 4, "play", action.cards)
    before = g.state.information_state_string(seat)
    for bad in (foreign, None):
        with pytest.raises(IllegalActionError):
            g.apply_action(bad)
        assert g.state.information_state_string(seat) == before and g.prefix == ()
    g.apply_action(action)
    assert g.state.deal_log() == other.state.deal_log()
    assert g.state.deal_log()[-1]["actions"][-1] == str(action)


def test_the_pending_choice_is_visible_to_its_seat_only() -> None:
    game, rng = new_game("street", 9)
    g = next(d for d in decisions(game, rng) if not d.is_offer())
    seat = g.actor()
    first = g.legal_tokens()[0]
    g.apply_token(first)
    assert g.prefix == (first,) and g.actor() == seat
    pending = g.layout.offset("pending")
    mine = g.observation(seat)
    assert mine[pending + first] == 1.0 and mine[pending:pending + g.encoder.num_tokens].sum() == 1
    for other in range(4):
        if other != seat:
            assert g.observation(other)[pending:pending + g.encoder.num_tokens].sum() == 0
            assert "|pending" not in g.information_state_string(other)
            assert not g.mask(other).any()
    assert g.information_state_string(seat).endswith("|pending=" + g.token_name(first))
