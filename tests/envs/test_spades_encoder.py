"""Spades in the RL environments: the encoder's fields mean what docs/envs.md
says and hold nothing a seat may not know, bids and exchange gives are tokens,
deal rewards are the change of the score lead, and OpenSpiel runs ``goat_spades``."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from goat.envs import GoatAECEnv, GoatSingleAgentEnv
from goat.envs.encoders import get_encoder
from goat.envs.encoders.spades import BID_SLOTS, bid_slot
from goat.envs.tokens import TokenGame
from goat.games import sample_world
from goat.games.spades import PRESETS, new_state
from goat.protocol import Action

from .conftest import SPADES, decisions, new_game


def fields(game: TokenGame, seat: int) -> dict[str, np.ndarray]:
    return game.layout.views(game.observation(seat))


def test_every_preset_has_the_same_spaces() -> None:
    sizes = {(get_encoder(new_state(p).view(None)).num_tokens, get_encoder(new_state(p).view(None)).layout.size)
             for p in PRESETS}
    assert sizes == {(72, 843)}


@settings(max_examples=30, deadline=None)
@given(label=st.sampled_from(list(SPADES)), seed=st.integers(0, 2**32))
def test_observations_are_fixed_size_in_0_1_and_a_function_of_the_view(label: str, seed: int) -> None:
    game, rng = new_game(label, seed)
    size = game.layout.size
    for step, g in enumerate(decisions(game, rng)):
        seat = g.actor()
        obs = g.observation(seat)
        assert obs.shape == (size,) and obs.dtype == np.float32
        assert obs.min() >= 0.0 and obs.max() <= 1.0
        if step % 5 == 0:  # another world the seat cannot tell apart: the same vector
            world = g.with_state(sample_world(g.state.view(seat), random.Random(step)))
            assert np.array_equal(world.observation(seat), obs)


@settings(max_examples=25, deadline=None)
@given(label=st.sampled_from(list(SPADES)), seed=st.integers(0, 2**32))
def test_fields_match_the_state(label: str, seed: int) -> None:
    game, rng = new_game(label, seed)
    index = game.encoder.index
    for g in decisions(game, rng):
        state = g.state
        seat = g.actor()
        f = fields(g, seat)
        rel = [(seat + r) % 4 for r in range(4)]
        down = state.face_down(seat)
        assert {game.encoder.deck[i] for i in np.flatnonzero(f["hand"])} == (set() if down else set(state.hands[seat]))
        assert f["face_down"].tolist() == [float(state.face_down(s)) for s in rel]
        for r, s in enumerate(rel):
            bid = state.bids[s]
            assert f["bids"][r].sum() == (bid is not None)
            if bid is not None:
                assert f["bids"][r, bid_slot(bid.text)] == 1.0
            assert f["tricks"][r] == pytest.approx(state.tricks_by_seat[s] / 13)
        for play in state.trick:
            assert f["table"][rel.index(play.seat), index[str(play.cards[0])]] == 1.0
        assert f["table"].sum() == len(state.trick)
        assert f["played"].sum() == 4 * state.tricks_played
        assert f["phase"].tolist() == [state.phase == p for p in ("bid", "exchange", "play")]
        assert f["to_act"][0] == 1.0
        assert f["flags"][0] == state.spades_broken
        assert f["score"][0] == pytest.approx(min(1, max(0, 0.5 + state.score_total[seat % 2] / 1000)))


def test_the_double_nil_exchange_is_given_card_by_card_and_seen_by_the_pair_only() -> None:
    game, rng = new_game("spades-double-nil", 0)
    saw_exchange = False
    for g in decisions(game, rng):
        state = g.state
        if state.phase == "bid":
            seat = g.actor()
            if any(a.bid == "double-nil" and a.seat == seat for a in state.legal_actions()) and not saw_exchange:
                # Steer the walk into an exchange: bid double nil with the token for it.
                token = g.encoder.tokens(Action(seat, "bid", (), "double-nil"))[0]
                assert g.token_name(token) == "bid double-nil"
                saw_exchange = True
                g.apply_token(token)
                assert g.actor() != seat
        while state.phase == "exchange":  # give by give, by hand (the walk would skip some)
            giver = g.actor()
            f = fields(g, giver)
            assert f["to_give"][0] > 0 and f["phase"][1] == 1.0
            tokens = g.legal_tokens()
            assert {g.encoder.deck[t] for t in tokens} == set(state.hands[giver])
            card = g.encoder.deck[tokens[0]]
            g.apply_token(tokens[0])
            partner, i = (giver + 2) % 4, g.encoder.index[str(card)]
            assert fields(g, giver)["known"][1, i] == 1.0  # the giver knows where it went
            for opponent in ((giver + 1) % 4, (giver + 3) % 4):
                assert fields(g, opponent)["known"][:, i].sum() == 0 and fields(g, opponent)["received"][i] == 0
            done = state.phase == "play" or g.actor() not in (giver, partner)
            assert fields(g, partner)["received"][i] == float(done)  # shown once the pair's exchange is over
            if done:
                return
    raise AssertionError("the walk never reached a double nil's exchange")


def test_a_face_down_seat_observes_no_card_and_may_bid_blind_or_look() -> None:
    """While a blind bid is open the engine holds the hand face down: the
    observation's hand is empty and the mask allows the blind bids and the look
    token (71) only; after the look, the hand and the other bids."""
    game, rng = new_game("spades-double-nil", 3)
    game.deal(rng)
    seat, enc = game.actor(), game.encoder
    f = fields(game, seat)
    assert f["hand"].sum() == 0 and f["face_down"][0] == 1.0 and f["face_down"].sum() == 4
    blind = [enc.tokens(Action(seat, "bid", (), b))[0] for b in ("blind-nil", "double-nil")]
    assert game.legal_tokens() == [*blind, enc.look_token] and enc.token_name(71) == "bid look"
    game.apply_token(enc.look_token)
    f = fields(game, seat)
    assert game.actor() == seat and f["hand"].sum() == 13 and f["face_down"][0] == 0.0
    assert enc.tokens(Action(seat, "bid", (), "4"))[0] in game.legal_tokens()
    assert not set(blind) & set(game.legal_tokens())


def run_match(env: GoatAECEnv, seed: int) -> tuple[list[list[float]], dict[str, float]]:
    """A seeded random match; the rewards paid at each deal end, and the totals."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = {a: 0.0 for a in env.possible_agents}
    paid = []
    for agent in env.agent_iter(5000):
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        deals = len(env.game.state.deal_results)
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(legal.size)]))
        if len(env.game.state.deal_results) > deals:
            paid.append(([env.rewards[a] for a in env.possible_agents], env.game.state.deal_results[-1]["score"]))
    assert not env.agents
    return paid, totals


def test_deal_rewards_are_the_change_of_the_score_lead_over_target() -> None:
    env = GoatAECEnv("spades", "standard", options={"max_deals": 3})
    paid, totals = run_match(env, seed=2)
    state = env.game.state
    assert len(paid) == 3 and state.is_terminal()
    for i, (rewards, score) in enumerate(paid):
        lead = (score[0] - score[1]) / 500
        outcome = state.returns() if i == len(paid) - 1 else [0.0] * 4
        assert rewards == pytest.approx([lead + outcome[0], -lead + outcome[1], lead + outcome[2],
                                         -lead + outcome[3]])
    s0, s1 = state.score_total
    for seat, agent in enumerate(env.possible_agents):
        lead = (s0 - s1) / 500 * (1 if seat % 2 == 0 else -1)
        assert totals[agent] == pytest.approx(lead + state.returns()[seat])
    assert sum(totals.values()) == pytest.approx(0.0)


def test_a_single_deal_pays_each_team_its_deal_score() -> None:
    env = GoatAECEnv("spades", "standard", single_deal=True)
    _, totals = run_match(env, seed=5)
    score = env.game.state.deal_results[-1]["score"]
    assert list(totals.values()) == [score[0], score[1], score[0], score[1]]


def test_bid_tokens_are_distinct_for_every_bid_of_every_preset() -> None:
    enc = get_encoder(new_state("bemo").view(None))
    texts = ["nil", *map(str, range(1, 14)), "blind-nil", "double-nil", "little-bemo", "big-bemo", "redeal", "look"]
    tokens = [enc.tokens(Action(0, "bid", (), t)) for t in texts]
    assert len(set(tokens)) == len(texts) == enc.num_tokens - 52
    assert enc.tokens(Action(0, "bid", (), "0")) == enc.tokens(Action(0, "bid", (), "nil"))
    assert [enc.token_name(t[0]) for t in tokens] == [f"bid {t}" for t in texts]
    assert bid_slot("big-bemo") == BID_SLOTS - 1
    jokers = get_encoder(new_state("joker-trumps").view(None))
    assert jokers.token_name(50) == "LJ" and jokers.token_name(51) == "BJ" and jokers.token_name(0) == "3C"


@pytest.mark.parametrize("opponents", ["random", "ismcts:iterations=10"])
def test_gymnasium_learner_plays_spades_against_bots(opponents: str) -> None:
    env = GoatSingleAgentEnv("spades", "standard", seat=2, opponents=opponents, single_deal=True)
    obs, _ = env.reset(seed=4)
    rng = np.random.default_rng(0)
    for _ in range(100):
        legal = np.flatnonzero(obs["action_mask"])
        obs, reward, terminated, _, _ = env.step(int(legal[rng.integers(legal.size)]))
        if terminated:
            break
    assert terminated and reward == env.aec.game.state.returns()[2]
    assert len(env.aec.game.state.deal_log()[-1]["actions"]) >= 56


def test_render_shows_the_public_table() -> None:
    env = GoatAECEnv("spades", "standard", render_mode="ansi")
    env.reset(seed=3)
    text = env.render()
    assert text.startswith("spades standard: deal 1") and "bids - - - -" in text
    assert not any(str(c) in text.split("\n")[0].split("bids")[1] for c in env.game.state.hands[0])


@pytest.mark.parametrize("preset", list(PRESETS))
def test_pyspiel_random_sim_test_goat_spades(preset: str) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import goat.envs.openspiel  # noqa: F401  (registers goat_spades)

    game = pyspiel.load_game("goat_spades", {"rules": preset, "single_deal": True})
    assert game.num_distinct_actions() == 72 and game.num_players() == 4
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_pyspiel_goat_spades_whole_match_and_an_openspiel_bot() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import ismcts, mcts

    import goat.envs.openspiel  # noqa: F401

    match = pyspiel.load_game("goat_spades", {"options": json.dumps({"max_deals": 2})})
    assert (match.min_utility(), match.max_utility()) == (-1.0, 1.0)
    pyspiel.random_sim_test(match, num_sims=1, serialize=True, verbose=False)
    game = pyspiel.load_game("goat_spades", {"single_deal": True})
    rs = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    bots = [ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=8, random_state=rs) for _ in range(4)]
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rs.randint(len(outcomes))][0])
        else:
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    score = state.core.state.deal_results[-1]["score"]
    assert state.returns() == [score[0], score[1], score[0], score[1]]


def test_gymnasium_make_spades_by_id() -> None:
    import gymnasium

    env = gymnasium.make("goat/Spades-v0", rules="wheels", opponents="random", single_deal=True)
    obs, _ = env.reset(seed=1)
    assert env.observation_space.contains(obs) and env.action_space.n == 72
    assert env.unwrapped.aec.game.state.rules.wheels
