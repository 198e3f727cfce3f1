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
def test_street_offers_every_molodka_ranking_first_and_only_on_public_grounds(seed: int) -> None:
    game, rng = new_game("street", seed)
    for g in decisions(game, rng):
        if g.prefix or g.is_offer():
            continue  # look at positions where the current player has not started yet
        # Rewind to the start of this position: the offers were asked before the current player.
        state = g.state
        current = state.current_player()
        fresh = TokenGame(state.clone(), g.encoder)
        public = fresh.encoder.offer_seats(state.view(None))
        assert public == state.molodka_priority(public), "listed in the order claims rank"
        claimants = {a.seat for a in state.legal_actions() if a.seat != current}
        assert claimants <= set(public), "a seat that may declare molodka is never listed"
        # Asked now: the seats ranking before the current player, whatever they hold.
        assert fresh.offers == (public[:public.index(current)] if public else [])
        ahead = {s for s in claimants if state.molodka_priority([s, current])[0] == s}
        assert ahead <= set(fresh.offers), "a seat ranking before the current player is not asked"


def street_deal(hands: dict[str, str], options: dict | None = None):
    from tests.kozel.conftest import deal_state

    return deal_state("street", hands=hands, trump_card="TC", dealer=3, options=options, single_deal=True)


def token_game(state, fast: bool, options: dict | None = None) -> TokenGame:
    from goat.envs.spec import GameSpec

    encoder, _ = GameSpec("kozel", "street", options=options, single_deal=True).encoder()
    return TokenGame(state, encoder, fast=fast)


@pytest.mark.parametrize("fast", [True, False])
def test_the_current_players_molodka_wins_over_a_later_seats(fast: bool) -> None:
    """Seat 0 leads; seat 1 (to act) and seats 2 and 3 all hold four of a suit.
    Seat 1 ranks first (nearest clockwise to the leader): no one is asked before
    it moves, and its molodka, token by token, is the one applied."""
    from tests.kozel.conftest import play

    state = play(street_deal({"0": "6H 7H 8H 9H", "1": "6S 7S 8S 9S", "2": "6D 7D 8D 9D",
                              "3": "6C 7C 8C 9C"}), "0 play 6H")
    assert {a.seat for a in state.legal_actions() if a.verb == "molodka"} == {1, 2, 3}
    game = token_game(state, fast)
    assert (game.offers, game.actor(), game.is_offer()) == ([], 1, False)
    molodka = Action.parse("1 molodka 6S+7S+8S+9S")
    applied = None
    for token in game.encoder.tokens(molodka):
        assert token in game.legal_tokens()
        applied = game.apply_token(token)
    assert applied == molodka and game.state.trick_leader == 1


@pytest.mark.parametrize("fast", [True, False])
def test_offers_after_a_molodka_follow_the_engines_priority_from_the_original_leader(fast: bool) -> None:
    """Street with ``max_molodka_per_trick=2``: seat 0 leads, seat 1 (left of it)
    restarts the trick with a molodka, so seat 2 is to act and seats 0 and 3 may
    claim the second molodka. The rules order claims from the seat that
    *originally* led (``KozelState.molodka_priority``: 0, then 2, then 3): seat 0
    is asked before seat 2 moves, seat 3 (after seat 2) is not. Once seat 2 has
    played, seat 3 is to act and seat 0 is asked again. Both the fast path and
    the public view's."""
    from tests.kozel.conftest import play

    state = play(street_deal({"0": "6H 7H 8H 9H", "1": "6S 7S 8S 9S", "2": "6D 7D 8D 9D",
                              "3": "6C 7C 8C 9C"}, {"max_molodka_per_trick": 2}),
                 "0 play 6H", "1 molodka 6S+7S+8S+9S")
    assert (state.current_player(), state.trick_leader) == (2, 1)
    claimants = sorted({a.seat for a in state.legal_actions() if a.verb == "molodka" and a.seat != 2})
    assert claimants == [0, 3]
    game = token_game(state, fast, {"max_molodka_per_trick": 2})
    assert game.offers == [0] and game.actor() == 0 and game.is_offer()
    assert game.encoder.offer_seats(state.view(None)) == state.molodka_priority([0, 2, 3]) == [0, 2, 3]
    assert game.apply_token(game.wait) is None
    assert (game.offers, game.actor()) == ([], 2)
    for token in game.encoder.tokens(Action.parse("2 pass 6D+7D+8D+9D")):
        game.apply_token(token)
    assert (game.state.current_player(), game.offers, game.actor()) == (3, [0], 0)


@pytest.mark.parametrize("fast", [True, False])
def test_an_offered_seat_without_molodka_can_only_wait(fast: bool) -> None:
    """After a restart seat 0, the original leader, ranks before the seat to act
    and is asked whatever it holds (being asked reveals nothing): without four
    of a suit it can only wait."""
    from tests.kozel.conftest import play

    state = play(street_deal({"0": "6H 7S 8D 9C", "1": "6S 8S 9S JS", "2": "6D 7D QH KH",
                              "3": "7C 8C JH QS"}, {"max_molodka_per_trick": 2}),
                 "0 play 6H", "1 molodka 6S+8S+9S+JS")
    g = token_game(state, fast, {"max_molodka_per_trick": 2})
    assert g.is_offer() and g.actor() == 0
    assert not any(a.seat == 0 for a in g.state.legal_actions())
    assert g.legal_tokens() == [g.wait]
    assert g.mask(0).tolist() == [0] * g.wait + [1]


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
