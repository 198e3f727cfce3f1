"""The OpenSpiel registration: pyspiel's own random simulation test, and
OpenSpiel's ISMCTS and MCTS bots playing whole deals unchanged (Kozel), and
Yu-Gi-Oh! duels (short ones: a low ``starting_lp``)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts

import goat.envs.openspiel  # noqa: F401  (registers goat_kozel, goat_spades, goat_yugioh)
from goat.games.kozel import chance_from_json, new_state
from goat.games.yugioh import new_state as yugioh_state
from goat.protocol import Action, GoatError
from goat.records import record_from_state

from .conftest import RULESETS


def load(label: str, **params) -> pyspiel.Game:
    rules, players = RULESETS[label]
    params = {"rules": rules, **({"players": players} if players else {}), **params}
    return pyspiel.load_game("goat_kozel", params)


@pytest.mark.parametrize("label", list(RULESETS))
def test_pyspiel_random_sim_test_single_deal(label: str) -> None:
    pyspiel.random_sim_test(load(label, single_deal=True), num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize("label", ["classic", "street"])
def test_pyspiel_random_sim_test_whole_match(label: str) -> None:
    pyspiel.random_sim_test(load(label), num_sims=1, serialize=True, verbose=False)


def test_game_facts_follow_the_ruleset() -> None:
    classic, street = load("classic"), load("street", single_deal=True)
    assert classic.num_distinct_actions() == 32 and street.num_distinct_actions() == 36 + 3 + 1
    assert (classic.min_utility(), classic.max_utility()) == (-1.0, 1.0)
    assert (street.min_utility(), street.max_utility()) == (-6.0, 6.0)
    assert load("full-hand-3p").num_players() == 3
    assert classic.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    overridden = pyspiel.load_game("goat_kozel", {"rules": "street", "options": json.dumps({"penalty": "flat2"}),
                                                 "single_deal": True})
    assert overridden.max_utility() == 2.0


@pytest.mark.parametrize("params, reason", [
    ({"rules": "poker"}, "unknown Kozel ruleset 'poker'"),
    ({"options": "{not json"}, "options of goat_kozel must be a JSON object"),
    ({"options": '{"penalty": "huge"}'}, "option penalty='huge' is not allowed"),
])
def test_bad_parameters_are_refused(params: dict[str, str], reason: str) -> None:
    """Each in its own words, as the game's error (any exception whose text held
    "ruleset", "JSON" or "penalty" passed before, for any of the three)."""
    with pytest.raises(GoatError) as refused:
        pyspiel.load_game("goat_kozel", params)
    assert str(refused.value).startswith(reason) and "\n" not in str(refused.value)


def play_deal(game, bots, seed: int) -> pyspiel.State:
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randint(len(outcomes))][0])
            continue
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    return state


def replays_in_the_engine(state) -> None:
    """The deal OpenSpiel played is a legal Kozel deal with the same result."""
    engine = state.core.state
    rules = engine.rules
    fresh = new_state(rules, first_dealer=engine.logs[-1]["dealer"], single_deal=True)
    log = engine.deal_log()[-1]
    fresh.apply_chance(chance_from_json(fresh, log))
    for text in log["actions"]:
        fresh.apply_action(Action.parse(text))
    assert fresh.result()["deals"][-1] == engine.result()["deals"][-1]


def test_openspiel_ismcts_plays_a_full_classic_deal() -> None:
    game = load("classic", single_deal=True)
    rs = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    bots = [ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=25, random_state=rs)
            for _ in range(game.num_players())]
    state = play_deal(game, bots, seed=7)
    returns = state.returns()
    assert sum(returns) == 0 and max(abs(r) for r in returns) in (0, 2, 4)
    replays_in_the_engine(state)


def test_openspiel_mcts_and_ismcts_play_a_full_street_deal() -> None:
    game = load("street", single_deal=True)
    rs = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    bots = [ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=10, random_state=rs)
            if seat % 2 == 0 else mcts.MCTSBot(game, uct_c=2.0, max_simulations=10, evaluator=evaluator,
                                               random_state=rs)
            for seat in range(4)]
    state = play_deal(game, bots, seed=3)
    assert sum(state.returns()) == 0
    replays_in_the_engine(state)


def test_resampled_worlds_look_the_same_to_the_seat_and_differ_elsewhere() -> None:
    game = load("full-hand", single_deal=True)
    state = game.new_initial_state()
    rng = np.random.RandomState(1)
    while state.is_chance_node():
        state.apply_action(int(rng.randint(state.chance_outcomes().__len__())))
    for _ in range(6):  # into the play
        state.apply_action(state.legal_actions()[0])
    seat = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    worlds = [state.resample_from_infostate(seat, sampler) for _ in range(5)]
    for world in worlds:
        assert world.information_state_string(seat) == state.information_state_string(seat)
        assert world.legal_actions() == state.legal_actions()
        assert np.array_equal(world.observation_tensor(seat), state.observation_tensor(seat))
    others = {str(sorted(map(str, w.core.state.hands[(seat + 1) % 4]))) for w in worlds}
    assert len(others) > 1


class _FailingSampler:
    """A world sampler whose first ``fails`` draws find no world (as a tight
    Yu-Gi-Oh! view under ``ask_responses="when-able"`` can), then the real ones."""

    def __init__(self, real: Any, fails: int) -> None:
        self.real, self.fails, self.draws = real, fails, 0

    def sample(self, rng: random.Random) -> Any:
        self.draws += 1
        if self.draws <= self.fails:
            from goat.games.worlds import WorldSamplingError

            raise WorldSamplingError("no world (test)")
        return self.real.sample(rng)


def _mid_play_state() -> Any:
    game = load("full-hand", single_deal=True)
    state = game.new_initial_state()
    rng = np.random.RandomState(1)
    while state.is_chance_node():
        state.apply_action(int(rng.randint(state.chance_outcomes().__len__())))
    for _ in range(6):
        state.apply_action(state.legal_actions()[0])
    return state


def _failing_samplers(monkeypatch: pytest.MonkeyPatch, fails: int) -> list[_FailingSampler]:
    made: list[_FailingSampler] = []
    real = goat.envs.openspiel.world_sampler

    def fake(view: dict[str, Any]) -> _FailingSampler:
        made.append(_FailingSampler(real(view), fails))
        return made[-1]

    monkeypatch.setattr(goat.envs.openspiel, "world_sampler", fake)
    return made


def test_resample_from_infostate_draws_again_when_a_draw_finds_no_world(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _mid_play_state()
    seat = state.current_player()
    made = _failing_samplers(monkeypatch, goat.envs.openspiel.RESAMPLE_DRAWS - 1)
    world = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert world.information_state_string(seat) == state.information_state_string(seat)
    assert made[0].draws == goat.envs.openspiel.RESAMPLE_DRAWS


def test_resample_from_infostate_gives_up_with_a_one_line_error_after_its_draws(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from goat.games.worlds import WorldSamplingError

    state = _mid_play_state()
    seat = state.current_player()
    made = _failing_samplers(monkeypatch, goat.envs.openspiel.RESAMPLE_DRAWS)
    with pytest.raises(WorldSamplingError) as caught:
        state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert made[0].draws == goat.envs.openspiel.RESAMPLE_DRAWS
    message = str(caught.value)
    assert "\n" not in message and f"{goat.envs.openspiel.RESAMPLE_DRAWS} draws" in message


def test_the_same_history_replays_the_same_game() -> None:
    game = load("street", single_deal=True)
    a = game.new_initial_state()
    rng = np.random.RandomState(5)
    while not a.is_terminal():
        legal = a.legal_actions()
        a.apply_action(legal[rng.randint(len(legal))])
    b = game.new_initial_state()
    for action in a.history():
        b.apply_action(action)
    assert str(b) == str(a) and b.returns() == a.returns()
    # Seed bytes never reach an information state.
    assert "seed" not in a.information_state_string(0)


def test_resampling_for_another_seat_forgets_the_actors_half_made_choice() -> None:
    game = load("street", single_deal=True)
    state = game.new_initial_state()
    rng = np.random.RandomState(4)
    while state.is_chance_node() or state.core.is_offer():
        legal = state.legal_actions()
        state.apply_action(legal[rng.randint(len(legal))])
    actor = state.current_player()
    state.apply_action(state.legal_actions()[0])  # the first card of a lead
    assert state.core.prefix and state.current_player() == actor
    other = (actor + 1) % 4
    world = state.resample_from_infostate(other, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert world.core.prefix == () and world.current_player() == actor
    assert world.information_state_string(other) == state.information_state_string(other)
    mine = state.resample_from_infostate(actor, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert mine.core.prefix == state.core.prefix


@pytest.mark.parametrize("label", ["classic", "street"])
def test_openspiels_rl_environment_plays_a_deal_to_its_returns(label: str) -> None:
    """OpenSpiel's own RL loop (its DQN and policy-gradient agents use it)."""
    from open_spiel.python import rl_environment

    game = load(label, single_deal=True)
    env = rl_environment.Environment(game, seed=3)
    rng = np.random.default_rng(3)
    step = env.reset()
    assert len(step.observations["info_state"][0]) == game.observation_tensor_size()
    while not step.last():
        player = step.observations["current_player"]
        step = env.step([int(rng.choice(step.observations["legal_actions"][player]))])
    assert step.rewards == env.get_state.returns() and sum(step.rewards) == 0


def test_outcome_sampling_mccfr_runs_and_its_policy_plays_legal_cards() -> None:
    from open_spiel.python.algorithms import outcome_sampling_mccfr

    game = load("classic", single_deal=True)
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(3):
        solver.iteration()
    policy = solver.average_policy()
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    probabilities = policy.action_probabilities(state)
    assert set(probabilities) == set(state.legal_actions()) and sum(probabilities.values()) == pytest.approx(1)


# ------------------------------------------------------------------ Yu-Gi-Oh!
#: A short duel: random play at 8000 LP takes 400 to 1000 decisions.
SHORT_DUEL = json.dumps({"starting_lp": 300})


def load_duel(**params) -> pyspiel.Game:
    return pyspiel.load_game("goat_yugioh", {"single_deal": True, "options": SHORT_DUEL, **params})


def play_randomly(state: pyspiel.State, rng: np.random.RandomState, decisions: int | None = None) -> pyspiel.State:
    """Random chance outcomes and legal actions, to the end or for ``decisions`` decisions."""
    while not state.is_terminal() and decisions != 0:
        if state.is_chance_node():
            state.apply_action(int(rng.randint(len(state.chance_outcomes()))))
            continue
        legal = state.legal_actions()
        state.apply_action(legal[rng.randint(len(legal))])
        decisions = None if decisions is None else decisions - 1
    return state


def engine_replay(history: list[int], options: dict) -> Any:
    """The duel of an OpenSpiel history, played by the engine alone: every four
    chance actions are the bytes of a seed for ``sample_chance``, every decision
    the index of a choice in ``legal_actions()``."""
    engine = yugioh_state("goat", options=options, single_duel=True)
    seed: list[int] = []
    for action in history:
        if engine.is_chance_node():
            seed.append(action)
            if len(seed) == 4:
                engine.apply_chance(engine.sample_chance(random.Random(int.from_bytes(bytes(seed), "big"))))
                seed = []
        else:
            engine.apply_action(engine.legal_actions()[action])
    return engine


def test_pyspiel_random_sim_test_of_short_duels() -> None:
    pyspiel.random_sim_test(load_duel(), num_sims=2, serialize=True, verbose=False)


def test_pyspiel_random_sim_test_of_a_duel_replays_fewer_decisions_than_it_plays(monkeypatch) -> None:
    """A duel's copy is a replay of its decisions (its engine is a generator); when
    every clone was a copy, ``random_sim_test`` of one 8000 LP duel replayed
    millions of decisions and took minutes (over a hundred replayed per decision
    played here). Clones now share the game until one changes; what is still
    replayed is pyspiel's deserializations, at some of the steps, each up to there."""
    import goat.games.yugioh.state as engine_state

    counts = {"replayed": 0, "played": 0}
    replay, apply_action = engine_state.replay, engine_state.YugiohState.apply_action

    def counting_replay(state, chances, actions) -> None:
        counts["replayed"] += len(actions) - len(state.actions)
        replay(state, chances, actions)

    def counting_apply(self, action) -> None:
        counts["played"] += 1
        apply_action(self, action)

    monkeypatch.setattr(engine_state, "replay", counting_replay)
    monkeypatch.setattr(engine_state.YugiohState, "apply_action", counting_apply)
    pyspiel.random_sim_test(load_duel(), num_sims=1, serialize=True, verbose=False)
    played = counts["played"] - counts["replayed"]
    assert played > 50 and counts["replayed"] < 3 * played


def test_duel_game_facts() -> None:
    game = load_duel()
    assert (game.num_players(), game.num_distinct_actions()) == (2, 512)
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.max_game_length() == 2000  # one duel (a size hint)
    match = pyspiel.load_game("goat_yugioh")
    assert match.max_game_length() == 5 * 2000 and match.get_parameters()["rules"] == "goat"
    state = game.new_initial_state()
    # No first dealer is drawn: the duel's coin toss is its first chance event.
    assert state.is_chance_node() and len(state.chance_outcomes()) == 256
    assert str(state).startswith("{") and json.loads(str(state))["record"]["game"] == "yugioh"


def test_a_random_duel_through_pyspiel_ends_as_the_engine_replaying_its_history() -> None:
    state = play_randomly(load_duel().new_initial_state(), np.random.RandomState(11))
    engine = engine_replay(state.history(), json.loads(SHORT_DUEL))
    assert engine.is_terminal() and engine.returns() == state.returns() != [0.0, 0.0]
    assert engine.result() == state.core.state.result()
    assert json.loads(str(state))["record"] == record_from_state(engine)


def test_a_seat_never_sees_the_opponents_hand_or_set_cards() -> None:
    """Neither ``information_state_string(p)`` nor ``observation_tensor(p)`` says
    which cards the opponent holds or has Set: they are the same in worlds that
    deal the opponent other hidden cards (``resample_from_infostate``), and the
    view's JSON has the opponent's hand as a count and Set cards as ``?``."""
    game = load_duel(options=json.dumps({"starting_lp": 300, "decks": "goat_control/chaos_warrior"}))
    state = game.new_initial_state()
    rng = np.random.RandomState(5)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    checked = other_hands = 0
    while not state.is_terminal() and checked < 12:
        play_randomly(state, rng, decisions=7)
        if state.is_terminal() or state.is_chance_node():
            continue
        checked += 1
        duel = state.core.state.duel
        for p in (0, 1):
            opponent = duel.players[1 - p]
            info = json.loads(state.information_state_string(p))["players"][1 - p]
            assert info["hand"] is None and info["hand_count"] == len(opponent.hand)
            for zone in ("monsters", "spells"):
                for card, shown in zip(getattr(opponent, zone), info[zone]):
                    if card is not None and not card.face_up:
                        assert shown["name"] == "?"
            real_hand = sorted(card.name for card in opponent.hand)
            for _ in range(3):
                world = state.resample_from_infostate(p, sampler)
                assert world.information_state_string(p) == state.information_state_string(p)
                assert np.array_equal(world.observation_tensor(p), state.observation_tensor(p))
                other_hands += sorted(c.name for c in world.core.state.duel.players[1 - p].hand) != real_hand
    assert checked >= 6 and other_hands > 0  # the worlds did deal the opponent other cards


def test_a_duel_serialized_mid_way_goes_on_as_the_original() -> None:
    game = load_duel()
    state = play_randomly(game.new_initial_state(), np.random.RandomState(6), decisions=40)
    text = pyspiel.serialize_game_and_state(game, state)
    assert "chance seed" not in text and "first dealer" not in text  # an action history, not a text
    _, twin = pyspiel.deserialize_game_and_state(text)
    assert str(twin) == str(state) and twin.history() == state.history()
    for p in (0, 1):
        assert twin.information_state_string(p) == state.information_state_string(p)
        assert np.array_equal(twin.observation_tensor(p), state.observation_tensor(p))
    play_randomly(state, np.random.RandomState(9))
    play_randomly(twin, np.random.RandomState(9))
    assert str(twin) == str(state) and twin.returns() == state.returns()


def test_openspiel_ismcts_and_mcts_play_duel_decisions_that_the_engine_replays() -> None:
    game = load_duel()
    rs = np.random.RandomState(2)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    bots = [ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=8, random_state=rs),
            mcts.MCTSBot(game, uct_c=2.0, max_simulations=8, evaluator=evaluator, random_state=rs)]
    state = game.new_initial_state()
    for _ in range(4):
        play_randomly(state, rs, decisions=0)  # through chance
        while state.is_chance_node():
            state.apply_action(int(rs.randint(256)))
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    play_randomly(state, rs)
    assert engine_replay(state.history(), json.loads(SHORT_DUEL)).returns() == state.returns()


@pytest.mark.parametrize("game", ["kozel", "yugioh"])
def test_clones_and_their_originals_go_on_independently(game: str) -> None:
    """States share their game with their clones until they change (copy on
    write): whatever is cloned, changed and read in whatever order, every state
    is the game its own history replays."""
    loaded = load("street", single_deal=True) if game == "kozel" else load_duel()
    rng = np.random.RandomState(8)
    states = [play_randomly(loaded.new_initial_state(), rng, decisions=3)]
    for _ in range(120):
        state = states[rng.randint(len(states))]
        move = rng.randint(4)
        if move == 0 and len(states) < 8:
            states.append(state.clone())
        elif move == 1 and len(states) > 1:
            states.remove(state)
        elif not state.is_terminal():
            play_randomly(state, rng, decisions=1)
        if rng.randint(3) == 0:
            state = states[rng.randint(len(states))]
            fresh = loaded.new_initial_state()
            for action in state.history():
                fresh.apply_action(action)
            assert str(fresh) == str(state) and fresh.legal_actions() == state.legal_actions()
    for state in states:
        fresh = loaded.new_initial_state()
        for action in state.history():
            fresh.apply_action(action)
        assert str(fresh) == str(state)


@pytest.mark.parametrize("game", ["kozel", "yugioh"])
def test_an_illegal_action_is_refused_at_once_and_changes_nothing(game: str) -> None:
    """A change is made when the changed state is next read (clones share the
    game); an illegal action must still be refused by ``apply_action`` itself,
    not by some later read of a state already moved on."""
    from goat.protocol import IllegalActionError

    loaded = load("street", single_deal=True) if game == "kozel" else load_duel()
    state = play_randomly(loaded.new_initial_state(), np.random.RandomState(2), decisions=2)
    while state.is_chance_node():
        state.apply_action(0)
    twin = state.clone()
    illegal = next(a for a in range(loaded.num_distinct_actions()) if a not in state.legal_actions())
    with pytest.raises(IllegalActionError, match="cannot take action"):
        state.apply_action(illegal)
    assert str(state) == str(twin) and state.history() == twin.history()
    assert state.legal_actions() == twin.legal_actions()


@pytest.mark.parametrize(("game", "example"), [("goat_yugioh", '{"starting_lp": 8000}'),
                                               ("goat_kozel", '{"deck": "32"}')])
@pytest.mark.parametrize("options", ['{"starting_lp": 300', "[1]"])
def test_broken_options_json_is_one_line_with_an_example_of_the_games_own_options(
        game: str, example: str, options: str) -> None:
    """A duel's broken options were answered with a Kozel example ('{"penalty":
    "flat2"}'), an option a duel refuses; the example is now the game's own."""
    with pytest.raises(GoatError) as caught:
        pyspiel.load_game(game, {"options": options})
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"options of {game} must be a JSON object of option values, e.g. '{example}'")


def test_a_game_of_several_options_or_a_comma_in_one_is_written_and_read_again() -> None:
    """OpenSpiel splits a game string at commas: ``'{"penalty": "flat2", "eggs":
    "nothing"}'`` (or a duel's ``side_deck_sizes`` ``"0,15"``) made a game whose
    string did not load, whose states neither serialized nor pickled, and on which
    ``random_sim_test(serialize=True)`` failed."""
    import pickle

    kozel_options = {"penalty": "flat2", "eggs": "nothing"}
    kozel = pyspiel.load_game("goat_kozel", {"rules": "street", "single_deal": True,
                                             "options": json.dumps(kozel_options)})
    pyspiel.random_sim_test(kozel, num_sims=1, serialize=True, verbose=False)
    duel_options = {"starting_lp": 300, "side_deck_sizes": "0,15", "decks": "goat_control/chaos_warrior"}
    duel = load_duel(options=json.dumps(duel_options))
    for game, options in ((kozel, kozel_options), (duel, duel_options)):
        again = pyspiel.load_game(str(game))
        assert str(again) == str(game) and again.spec.options == game.spec.options == options
        state = play_randomly(game.new_initial_state(), np.random.RandomState(0), decisions=5)
        restored = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]
        assert str(restored) == str(state) and restored.history() == state.history()
        assert str(pickle.loads(pickle.dumps(state))) == str(state)


def test_options_as_a_dict_are_refused_by_pyspiel_and_json_text_is_the_way() -> None:
    """docs/envs.md tells a researcher who passes ``options`` as a dict (natural in
    Python) what pyspiel's message means: pyspiel takes the dict for a nested game
    before our game sees it. Pinned, so the page's quote stays what pyspiel says."""
    options = {"double_nil": True, "bags": False}
    with pytest.raises(pyspiel.SpielError, match="Wrong type for parameter options. Expected type: kString, got kGame"):
        pyspiel.load_game("goat_spades", {"options": options})
    game = pyspiel.load_game("goat_spades", {"options": json.dumps(options)})
    assert game.spec.options == options
    page = (Path(__file__).resolve().parents[2] / "docs" / "envs.md").read_text(encoding="utf-8")
    assert "Wrong type for parameter options. Expected type: kString, got kGame" in " ".join(page.split())
