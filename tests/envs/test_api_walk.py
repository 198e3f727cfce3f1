"""What an AI researcher does with the environments off the happy road: use
them before ``reset`` or after the end, seed them with numpy integers or
negative numbers, leave the ruleset or the opponents to the defaults, pass
arguments of the wrong type. Each gets a working default or a one-line
:class:`~goat.protocol.GoatError`, never an ``AttributeError`` or ``KeyError``."""

from __future__ import annotations

import copy
import pickle
import re
import warnings

import gymnasium
import numpy as np
import pytest

import goat.envs  # noqa: F401  (registers the gymnasium ids)
from goat.bots import default_bot, view_bots
from goat.envs import aec_env, single_agent_env
from goat.envs.encoders import encoder_module
from goat.protocol import GoatError


def one_line(err: pytest.ExceptionInfo) -> str:
    text = str(err.value)
    assert "\n" not in text
    return text


def play_out(env) -> None:
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0]))


def test_using_the_aec_env_before_reset_after_close_or_after_the_end_is_one_line() -> None:
    env = aec_env("kozel", single_deal=True)
    for call in (env.last, lambda: env.step(0), lambda: env.observe("seat_0")):
        with pytest.raises(GoatError, match="call reset") as err:
            call()
        one_line(err)
    env.reset(seed=1)
    play_out(env)
    assert env.agents == []
    for call in (env.last, lambda: env.step(None), lambda: env.step(0)):
        with pytest.raises(GoatError, match="episode is over") as err:
            call()
        one_line(err)
    env.close()
    with pytest.raises(GoatError, match="call reset"):
        env.step(0)


def test_an_unknown_agent_is_named_in_one_line() -> None:
    env = aec_env("kozel")
    env.reset(seed=1)
    for call in (lambda: env.observe("seat_9"), lambda: env.action_space("bob"),
                 lambda: env.observation_space("seat_4")):
        with pytest.raises(GoatError, match="no agent") as err:
            call()
        assert "seat_0, seat_1, seat_2, seat_3" in one_line(err)


def first_observations(env, seed) -> bytes:
    env.reset(seed=seed)
    obs, *_ = env.last()
    return obs["observation"].tobytes() + obs["action_mask"].tobytes()


def test_seeds_are_non_negative_integers_numpy_ones_included() -> None:
    env = aec_env("kozel", "street")
    assert first_observations(env, np.int64(5)) == first_observations(env, 5)
    # random.Random seeds with the absolute value: -5 would silently replay 5's episode
    for bad in (-5, 1.5, "x", True):
        with pytest.raises(GoatError, match="seed must be") as err:
            env.reset(seed=bad)
        one_line(err)
    gym = single_agent_env("kozel", opponents="random")
    assert np.array_equal(gym.reset(seed=np.int64(3))[0]["observation"], gym.reset(seed=3)[0]["observation"])
    with pytest.raises(GoatError, match="seed must be"):
        gym.reset(seed=-3)


@pytest.mark.parametrize("game", ["kozel", "spades", "yugioh"])
def test_every_game_runs_with_its_own_default_ruleset_and_opponents(game: str) -> None:
    default = encoder_module(game).DEFAULT_RULES
    assert aec_env(game).game_spec.rules == default
    gym = gymnasium.make(f"goat/{game.title()}-v0")
    obs, _ = gym.reset(seed=1)
    assert gym.observation_space.contains(obs)
    assert gym.unwrapped.aec.game_spec.rules == default
    names = {getattr(bot, "name", None) for bot in gym.unwrapped.bots.values()}
    assert names == {default_bot(game)}


def test_the_default_bot_plays_from_its_view_and_prefers_the_heuristic() -> None:
    assert default_bot("kozel") == default_bot("spades") == "heuristic"
    assert default_bot("yugioh") == "greedy"  # Yu-Gi-Oh! has no heuristic
    assert "perfect" not in view_bots("kozel")
    assert default_bot("kozel", preferred="perfect") != "perfect"


def test_arguments_of_the_wrong_type_are_refused_in_one_line() -> None:
    for make, kwargs, needle in [(aec_env, {"options": ["penalty"]}, "options must be"),
                                 (single_agent_env, {"options": "penalty=flat2"}, "options must be"),
                                 (single_agent_env, {"opponents": 3}, "opponents must be"),
                                 (single_agent_env, {"opponents": ["random", 2, "random"]}, "opponents must be"),
                                 (single_agent_env, {"seat": "0"}, "seat must be"),
                                 (single_agent_env, {"seat": True}, "seat must be"),
                                 (single_agent_env, {"illegal_reward": "-1"}, "illegal_reward must be")]:
        with pytest.raises(GoatError, match=needle) as err:
            make("kozel", **kwargs)
        one_line(err)
    assert single_agent_env("kozel", seat=np.int64(2), opponents="random").seat == 2


def test_a_numpy_player_count_is_a_player_count() -> None:
    """Seeds and seats took numpy integers, a player count from ``np.arange`` was
    refused ("players must be a whole number, not np.int64(3)")."""
    env = aec_env("kozel", "full-hand", players=np.int64(3))
    assert env.possible_agents == aec_env("kozel", "full-hand", players=3).possible_agents
    assert env.game_spec.players == 3 and type(env.game_spec.players) is int
    assert single_agent_env("kozel", "full-hand", players=np.int32(2), opponents="random").aec.num_actions == 32
    for bad in ("3", 3.0, True):
        with pytest.raises(GoatError, match="players must be") as err:
            aec_env("kozel", "full-hand", players=bad)
        one_line(err)


@pytest.mark.parametrize("name", ["single_deal", "deal_rewards"])
@pytest.mark.parametrize("value", ["false", "yes", 0, 1, None])
def test_a_flag_that_is_not_a_boolean_is_refused_in_one_line(name: str, value: object) -> None:
    """``single_deal="false"`` (a config file's text) is true in Python: it once
    played single deals without a word. Both environments refuse it."""
    for make in (aec_env, single_agent_env):
        with pytest.raises(GoatError, match=rf"^{name} must be True or False, not {re.escape(repr(value))}$") as err:
            make("kozel", **{name: value})
        one_line(err)
    assert aec_env("kozel", single_deal=np.bool_(True), deal_rewards=np.False_).game_spec.single_deal is True


def test_the_options_dict_is_copied() -> None:
    options = {"penalty": "flat2"}
    env = aec_env("kozel", options=options)
    options["penalty"] = "nonsense"
    env.reset(seed=1)
    assert env.game.state.rules.penalty == "flat2"


def test_openspiel_games_and_states_pickle() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import goat.envs.openspiel  # noqa: F401  (registers the games)

    game = pyspiel.load_game("goat_kozel", {"rules": "street", "single_deal": True})
    twin = pickle.loads(pickle.dumps(game))
    assert twin.get_parameters() == game.get_parameters()
    assert twin.num_distinct_actions() == game.num_distinct_actions() == 40
    state = game.new_initial_state()
    state.apply_action(1)
    assert pickle.loads(pickle.dumps(state)).history() == [1]


def test_a_yugioh_environment_pickles_mid_duel() -> None:
    env = aec_env("yugioh")
    env.reset(seed=2)
    for _ in range(30):
        obs, *_ = env.last()
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    twin = pickle.loads(pickle.dumps(env))
    assert np.array_equal(twin.last()[0]["observation"], env.last()[0]["observation"])
    assert twin.agent_selection == env.agent_selection


@pytest.mark.parametrize("game", ["kozel", "spades"])
def test_a_deep_copy_is_independent_and_goes_on_as_the_original(game: str) -> None:
    env = aec_env(game, options={"max_deals": 2} if game == "spades" else None)
    env.reset(seed=4)
    twin = copy.deepcopy(env)
    before = env.last()[0]["observation"].copy()
    play_out(twin)
    assert np.array_equal(env.last()[0]["observation"], before)
    again = copy.deepcopy(env)
    trails = []
    for each in (env, again):  # same moves, same chance from the copied generator
        play_out(each)
        trails.append((each.game.state.information_state_string(None), each.rewards))
    assert trails[0] == trails[1]


def test_an_unpickled_openspiel_game_starts_new_states() -> None:
    """pyspiel pickled a game as its C++ part only: the copy had lost the
    ruleset, and ``new_initial_state()`` raised ``AttributeError``."""
    pyspiel = pytest.importorskip("pyspiel")
    import goat.envs.openspiel  # noqa: F401  (registers the games)

    for name, params in (("goat_kozel", {"rules": "street"}), ("goat_yugioh", {"single_deal": True})):
        game = pyspiel.load_game(name, params)
        twin = pickle.loads(pickle.dumps(game))
        assert str(twin.new_initial_state()) == str(game.new_initial_state())
        assert twin.get_parameters() == game.get_parameters()


def random_steps(env, seed: int, limit: int, ends: dict | None = None) -> int:
    """Play random legal tokens for at most ``limit`` live steps; the live steps
    played. ``ends`` gets each agent's ``(terminated, truncated)`` at its end."""
    env.reset(seed=seed)
    rng, live = np.random.default_rng(seed), 0
    for agent in env.agent_iter(limit):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            if ends is not None:
                ends[agent] = (terminated, truncated)
            env.step(None)
            continue
        live += 1
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return live


def test_a_step_limit_truncates_a_match_that_random_play_never_ends() -> None:
    """A random Spades match never reaches 500 (random bids are set deal after
    deal, the scores fall without end): the AEC episode of the docs' loop ran for
    ever. ``max_steps`` truncates it, every agent ``truncated``, as Gymnasium's
    time limit does for ``goat/Spades-v0``."""
    endless = aec_env("spades")
    assert random_steps(endless, seed=1, limit=3000) == 3000 and endless.agents  # still going
    env, ends = aec_env("spades", max_steps=np.int64(700)), {}
    assert random_steps(env, seed=1, limit=10_000, ends=ends) == 700
    assert not env.agents and not env.game.state.is_terminal()
    assert ends == dict.fromkeys(env.possible_agents, (False, True))
    assert len(env.game.state.deal_results) >= 5  # the deal rewards of the played deals were paid
    # A match that ends first ends terminated, as without a limit.
    short, ends = aec_env("kozel", single_deal=True, max_steps=10_000), {}
    random_steps(short, seed=1, limit=10_000, ends=ends)
    assert ends == dict.fromkeys(short.possible_agents, (True, False))


def test_the_step_limit_keeps_the_pettingzoo_api() -> None:
    from pettingzoo.test import api_test
    from pettingzoo.utils import conversions

    from .test_aec import DICT_OBSERVATION_NOTES

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(aec_env("spades", max_steps=120), num_cycles=100)
    assert not {str(w.message) for w in caught if not str(w.message).startswith(DICT_OBSERVATION_NOTES)}
    parallel = conversions.turn_based_aec_to_parallel(aec_env("spades", max_steps=40))
    observations, _ = parallel.reset(seed=2)
    truncated = {}
    while parallel.agents:
        actions = {a: int(np.flatnonzero(o["action_mask"])[0]) if o["action_mask"].any() else 0
                   for a, o in observations.items()}
        observations, _, _, truncated, _ = parallel.step(actions)
    assert truncated == dict.fromkeys(parallel.possible_agents, True)


@pytest.mark.parametrize("bad", [0, -5, 2.5, "100", True])
def test_a_bad_step_limit_is_one_line(bad: object) -> None:
    with pytest.raises(GoatError, match="max_steps must be") as err:
        aec_env("spades", max_steps=bad)
    one_line(err)
