"""Kozel's observation encoder: fixed size, values in [0, 1], fields that mean
what docs/envs.md says, and nothing a seat may not know."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from goat.envs.encoders import get_encoder
from goat.envs.tokens import TokenGame
from goat.games import sample_world
from goat.games.kozel import new_state
from goat.games.kozel.trumps import trump_order
from goat.protocol import GoatError

from .conftest import KOZEL_LABELS, decisions, new_game


def fields(game: TokenGame, seat: int) -> dict[str, np.ndarray]:
    return game.layout.views(game.observation(seat))


@settings(max_examples=30, deadline=None)
@given(label=st.sampled_from(KOZEL_LABELS), seed=st.integers(0, 2**32))
def test_observations_have_a_fixed_size_and_values_in_0_1(label: str, seed: int) -> None:
    game, rng = new_game(label, seed, single_deal=False)
    size = game.layout.size
    for step, g in enumerate(decisions(game, rng)):
        if step % 3:
            continue
        for seat in range(g.state.num_players):
            obs = g.observation(seat)
            assert obs.shape == (size,) and obs.dtype == np.float32
            assert obs.min() >= 0.0 and obs.max() <= 1.0


@settings(max_examples=25, deadline=None)
@given(label=st.sampled_from(KOZEL_LABELS), seed=st.integers(0, 2**32))
def test_a_seat_cannot_tell_worlds_apart_so_neither_can_its_observation(label: str, seed: int) -> None:
    """Observations are a function of the seat's view only: a world sampled from
    that view (other hidden cards) gives the very same vector."""
    game, rng = new_game(label, seed)
    for step, g in enumerate(decisions(game, rng)):
        if step % 4:
            continue
        seat = g.actor()
        world = g.with_state(sample_world(g.state.view(seat), random.Random(step)))
        assert np.array_equal(world.observation(seat), g.observation(seat))
        assert world.information_state_string(seat) == g.information_state_string(seat)


@settings(max_examples=30, deadline=None)
@given(label=st.sampled_from(KOZEL_LABELS), seed=st.integers(0, 2**32))
def test_card_fields_match_the_view(label: str, seed: int) -> None:
    game, rng = new_game(label, seed)
    deck = game.encoder.deck
    n = game.state.num_players
    for g in decisions(game, rng):
        seat = g.actor()
        view = g.state.view(seat)
        f = fields(g, seat)
        on = {str(deck[i]) for i in np.flatnonzero(f["hand"])}
        assert on == set(view["hand"])
        for play in view["trick"]:
            r = (play["seat"] - seat) % n
            if play["verb"] == "play":
                assert {str(deck[i]) for i in np.flatnonzero(f["table"][r])} == set(play["cards"])
        # Cards seen leaving the game are neither in the hand nor on the table.
        gone = f["played"].sum(axis=0) + f["passed"]
        assert gone.max() <= 1 and not (gone * f["hand"]).any()
        assert not (f["played"].sum(axis=0) * f["table"].sum(axis=0)).any()
        assert f["trumps"].sum() == sum(g.state.order.is_trump(c) for c in deck)
        assert f["to_act"][(g.state.current_player() - seat) % n] == 1


def test_finished_tricks_are_remembered_by_seat() -> None:
    game, rng = new_game("classic", 4)
    n, deck = 4, game.encoder.deck
    for g in decisions(game, rng):
        state = g.state
        if state.tricks_played == 3 and not state.trick:
            seat = g.actor()
            f = fields(g, seat)
            expected = {r: set() for r in range(n)}
            log = state.deal_log()[-1]["actions"]
            for text in log[:12]:
                s, _, card = text.split()
                expected[(int(s) - seat) % n].add(card)
            for r in range(n):
                assert {str(deck[i]) for i in np.flatnonzero(f["played"][r])} == expected[r]
            return
    pytest.fail("no position after three tricks")


def test_a_card_given_to_the_partner_is_known_until_played() -> None:
    game, rng = new_game("full-hand", 8)
    deck = game.encoder.deck
    for g in decisions(game, rng):
        state = g.state
        if state.phase == "play" and state.tricks_played == 0 and not state.trick:
            break
    log = state.deal_log()[-1]["actions"]
    gives = {int(t.split()[0]): t.split()[2] for t in log if " give " in t}
    for seat, card in gives.items():
        partner_row = 1  # the partner sits two places left: relative seat 2 -> row 1 of "known"
        f = fields(g, seat)
        assert {str(deck[i]) for i in np.flatnonzero(f["known"][partner_row])} == {card}
        # Nobody else knows where it went.
        for other in range(4):
            if other not in (seat, (seat + 2) % 4):
                assert not fields(g, other)["known"][:, g.encoder.card_token(card)].any()


def test_molodka_returns_cards_to_known_hands() -> None:
    seen = 0
    for seed in range(400):
        game, rng = new_game("street", seed)
        for g in decisions(game, rng):
            history = g.state.view(None)["history"]
            if g.is_offer() or not history or " molodka " not in history[-1]:
                continue
            trick_before = g.state.logs[-1]["actions"]
            # The plays since the last completed trick before the molodka went back to hands.
            observer = int(history[-1].split()[0])
            f = fields(g, observer)
            back = [a for a in trick_before[:-1][-3:] if a.verb == "play" and a.seat != observer]
            for action in back:
                if all(c in g.state.hands[action.seat] for c in action.cards):
                    row = (action.seat - observer) % 4 - 1
                    for c in action.cards:
                        assert f["known"][row, g.encoder.card_token(c)] == 1
                        seen += 1
            break
        if seen >= 3:
            return
    pytest.fail("no molodka with returned face-up cards in 400 random street deals")


def test_classic_trumps_and_tokens() -> None:
    enc = get_encoder(new_state("classic").view(None))
    order = trump_order(True, "32", "C")
    plane = enc._trump_plane("C")
    assert [str(c) for c, on in zip(enc.deck, plane) if on] == sorted(map(str, order.trumps),
                                                                    key=lambda t: enc.card_token(t))
    assert plane.sum() == 14
    assert [enc.token_name(enc.card_token(c)) for c in enc.deck] == [str(c) for c in enc.deck]
    with pytest.raises(ValueError):
        enc.token_name(32)


@pytest.mark.parametrize("label", KOZEL_LABELS)
def test_scores_are_zero_sum_and_move_by_the_deal_penalty(label: str) -> None:
    game, rng = new_game(label, 21, single_deal=False)
    enc, state = game.encoder, game.state
    before = enc.scores(state.result())
    deals = 0
    for _ in decisions(game, rng):
        if len(state.deal_results) > deals:
            result = state.result()
            after = enc.scores(result)
            assert abs(sum(after)) < 1e-9
            pen = state.deal_results[-1]["penalty"]  # (result()["deals"] ends with the deal in play)
            sides = state.rules.num_teams
            for seat in range(state.num_players):
                side = state.rules.team_of(seat)
                balance = (sum(pen) - pen[side]) / (sides - 1) - pen[side]
                assert after[seat] - before[seat] == pytest.approx(balance)
            before, deals = after, len(state.deal_results)
    assert deals >= 2


def test_unknown_games_have_no_encoder() -> None:
    with pytest.raises(GoatError, match="no RL environment for game 'chess'"):
        get_encoder({"game": "chess"})


def test_table_passed_stays_in_0_1_when_a_molodka_brings_more_cards_than_max_lead() -> None:
    """Street with ``max_lead=2`` (the molodka on, as in the preset): a seat that
    passes four cards under a molodka once read ``table_passed`` = 4 ÷ 2 = 2, outside
    the observation space. The divisor is the most cards a seat may put in a trick."""
    from goat.envs.tokens import TokenGame

    spec_state = new_state("street", options={"max_lead": 2})
    encoder = get_encoder(spec_state.view(None))
    four_passed = False
    for seed in range(40):
        rng = random.Random(seed)
        game = TokenGame(new_state("street", options={"max_lead": 2}, first_dealer=seed % 4), encoder)
        for g in decisions(game, rng):
            four_passed = four_passed or any(p.verb == "pass" and len(p.cards) == 4 for p in g.state.trick)
            for seat in range(4):
                passed = fields(g, seat)["table_passed"]
                assert passed.min() >= 0.0 and passed.max() <= 1.0, (seed, seat, passed)
        if four_passed:
            break
    assert four_passed  # the walk met the case
    assert encoder.max_trick_cards == 4
    assert get_encoder(new_state("street", options={"max_lead": 2, "molodka": False}).view(None)).max_trick_cards == 2


def test_street_with_the_partner_exchange_has_a_give_token_and_plays_through() -> None:
    """Street under ``partner_exchange=1`` starts each deal with a face-down
    ``give``: its tokens end with a ``give`` verb token after the usual three (the
    plain street action space keeps its size), and a random match plays through
    the environment, every give going to the partner."""
    from goat.envs import GoatAECEnv

    plain = get_encoder(new_state("street").view(None))
    state = new_state("street", options={"partner_exchange": 1})
    enc = get_encoder(state.view(None))
    assert enc.num_tokens == plain.num_tokens + 1 == enc.deck_size + 4
    assert [enc.token_name(enc.deck_size + i) for i in range(4)] == ["play", "pass", "molodka", "give"]
    env = GoatAECEnv("kozel", "street", options={"partner_exchange": 1})
    env.reset(seed=5)
    rng = random.Random(5)
    gives = 0
    for _ in range(3000):
        if not env.agents:
            break
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        token = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        gives += token == enc.deck_size + 3
        env.step(token)
    assert gives >= 4  # at least one deal's four gives went through the give token


@pytest.mark.parametrize("seed", range(4))
def test_a_public_trump_card_place_and_drawer_are_observed(seed: int) -> None:
    """Street under ``trump_card_place="public"``: the shown trump card lies face up in
    its place, and every view gives where and, once drawn, who drew it. The observation
    dropped both: a seat did not know that another held the trump card it had watched
    being drawn. Now ``trump_card_place`` says how deep it lies (cards above it + 1, ÷
    the stock at the deal) and the drawer's ``known`` row holds it until it is seen in
    play. Under ``"hidden"`` the field does not exist (``test_hidden_swaps`` checks that
    nothing shows the place or drawer there)."""
    options = {"trump_card_place": "public"}
    state = new_state("street", options=options, first_dealer=seed % 4, single_deal=True)
    encoder = get_encoder(state.view(None))
    hidden = get_encoder(new_state("street").view(None))
    assert encoder.layout.size == hidden.layout.size + 1
    assert "trump_card_place" not in {f.name for f in hidden.layout.fields}
    game, rng = TokenGame(state, encoder), random.Random(seed)
    stock_at_deal = encoder.rules.stock_size
    lying = drawn_and_held = 0
    for g in decisions(game, rng):
        s = g.state
        trump = s.trump_card
        drawer = next((seat for seat in range(4) if trump in s.drawn[seat]), None)
        seen_in_play = any(trump in a.cards for a in s.logs[-1]["actions"])
        for seat in range(4):
            f = fields(g, seat)
            depth = round(float(f["trump_card_place"][0]) * stock_at_deal)
            if drawer is None:
                assert depth == s.stock.index(trump) + 1
                lying += 1
            else:
                assert depth == 0
                if drawer != seat and not seen_in_play:
                    assert f["known"][(drawer - seat) % 4 - 1, encoder.card_token(trump)] == 1.0
                    drawn_and_held += 1
    assert lying and drawn_and_held
