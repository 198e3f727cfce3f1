"""Yu-Gi-Oh! in the RL environments: choice-index actions (the mask is exactly
the legal list), PettingZoo's API and seed tests, Gymnasium's checker, and an
observation built from the seat's view (hidden cards stay hidden)."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from goat.envs import GoatAECEnv, GoatSingleAgentEnv
from goat.envs.encoders.yugioh import HIDDEN, MAX_CHOICES
from goat.envs.spec import GameSpec
from goat.envs.tokens import TokenGame
from goat.games.yugioh import PRESETS
from goat.protocol import GoatError

from .conftest import decisions


def new_game(rules: str, seed: int, single_deal: bool = False) -> tuple[TokenGame, random.Random]:
    spec = GameSpec("yugioh", rules, None, {}, single_deal)
    encoder, _ = spec.encoder()
    return TokenGame(spec.new_state(), encoder), random.Random(seed)


@pytest.mark.parametrize("rules", list(PRESETS))
@pytest.mark.parametrize("single_deal", [False, True])
def test_pettingzoo_api_and_seed_tests(rules: str, single_deal: bool) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test's notes on Dict observations (as for every game)
        api_test(GoatAECEnv("yugioh", rules, single_deal=single_deal), num_cycles=300)
    seed_test(lambda: GoatAECEnv("yugioh", rules, single_deal=single_deal), num_cycles=300)


@pytest.mark.parametrize("seed", [1, 2])
def test_the_mask_is_the_list_of_choices_and_token_i_applies_choice_i(seed: int) -> None:
    g, rng = new_game("goat", seed)
    steps = 0
    while not g.state.is_terminal():
        if g.state.is_chance_node():
            g.deal(rng)
            continue
        seat, legal = g.actor(), g.state.legal_actions()
        assert 0 < len(legal) <= MAX_CHOICES
        mask = g.mask(seat)
        assert mask[:len(legal)].all() and not mask[len(legal):].any() and not g.mask(1 - seat).any()
        assert g.tokens_of(legal[-1]) == (len(legal) - 1,)
        i = rng.randrange(len(legal))
        before = len(g.state.actions)
        g.apply_token(i)  # the engine logs exactly the i-th choice
        assert g.state.actions[before] == str(legal[i])
        steps += 1
    assert steps > 100


def test_observations_come_from_the_view_and_hide_what_it_hides() -> None:
    game, rng = new_game("goat", 3)
    enc = game.encoder
    seen_hidden = 0
    for step, g in enumerate(decisions(game, rng, max_steps=20_000)):
        if step % 3:
            continue
        for seat in (0, 1):
            obs = g.observation(seat)
            assert obs.shape == (g.layout.size,) and obs.min() >= 0.0 and obs.max() <= 1.0
            if g.state.duel is None:
                continue
            f = g.layout.views(obs)
            me, other = g.state.duel.players[seat], g.state.duel.players[1 - seat]
            assert f["hand"].sum() == pytest.approx(len(me.hand) / 3)
            assert f["lp"][1] == pytest.approx(min(1.0, max(0, other.lp) / 8000))
            for z, card in enumerate(other.monsters):
                if card is not None and not card.face_up:  # the opponent's face-down monster: unseen
                    assert f["monsters"][1, z, HIDDEN] == 1.0 and f["monsters"][1, z].sum() == 1.0
                    seen_hidden += 1
                if card is not None and card.face_up:
                    assert f["monsters"][1, z, enc.index[card.name]] == 1.0
    assert seen_hidden


def test_the_goat_control_mirror_fits_the_action_space() -> None:
    """Side-deck lists are the longest: "done" or swap a main card for a side card
    (distinct names); siding keeps the pool of names, so this bounds every one."""
    from goat.games.yugioh.deck import builtin_deck

    deck = builtin_deck("goat_control")
    pool = len(set(deck.main) | set(deck.side))
    assert 1 + min(pool, len(deck.main)) * min(pool, len(deck.side)) <= MAX_CHOICES


def test_more_choices_than_the_action_space_are_refused_in_one_line() -> None:
    game, rng = new_game("goat", 4)
    g = next(d for d in decisions(game, rng) if len(d.state.legal_actions()) > 3)
    g.encoder.num_tokens = 3  # this encoder instance only
    g._seqs = None
    with pytest.raises(GoatError, match="exceed the action space") as err:
        g.legal_tokens()
    assert "\n" not in str(err.value)


def test_match_rewards_are_duel_wins_plus_the_outcome() -> None:
    env = GoatAECEnv("yugioh", "goat")
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    totals = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter(50_000):
        obs, reward, terminated, _, _ = env.last()
        totals[agent] += reward
        if terminated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(legal.size)]))
    wins = env.game.state.result()["wins"]
    returns = env.game.state.returns()
    assert totals == {"seat_0": wins[0] - wins[1] + returns[0], "seat_1": wins[1] - wins[0] + returns[1]}
    assert abs(returns[0]) == 1 and sum(totals.values()) == 0


@pytest.mark.parametrize("opponent", ["random", "greedy"])
def test_gymnasium_checker_and_an_episode_against_yugioh_bots(opponent: str) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(GoatSingleAgentEnv("yugioh", "goat", opponents=opponent))
    assert all("not having a spec" in str(w.message) for w in caught)
    env = GoatSingleAgentEnv("yugioh", "goat", seat=1, opponents=opponent, single_deal=True)
    obs, _ = env.reset(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(20_000):
        legal = np.flatnonzero(obs["action_mask"])
        obs, reward, terminated, _, _ = env.step(int(legal[rng.integers(legal.size)]))
        if terminated:
            break
    assert terminated and reward == env.aec.game.state.returns()[1]
