"""The game protocol, bots and analysis from Python, off the happy road: the
mistakes a researcher makes on a first afternoon get one line that says what
to do, and states go to other processes (pickle) as vector environments and
process pools need."""

from __future__ import annotations

import copy
import pickle
import random

import numpy as np
import pytest

from goat.analysis import analyze_record
from goat.bots import BotError, make_bot
from goat.games import get_game
from goat.protocol import (GoatError, IllegalActionError, InvalidChanceError, play_random_steps, play_randomly)
from goat.records import MalformedRecordError, read_records, record_from_state, write_records

GAMES = [("kozel", "classic"), ("kozel", "street"), ("spades", "standard"), ("yugioh", "goat")]


def started(game: str, rules: str, steps: int = 6, seed: int = 1):
    state = get_game(game).new_state(rules)
    return play_random_steps(state, random.Random(seed), steps)


@pytest.mark.parametrize("game,rules", GAMES)
def test_a_seat_that_does_not_exist_is_refused_in_one_line(game: str, rules: str) -> None:
    state = started(game, rules)
    for bad in (9, -1, "0", True):  # Yu-Gi-Oh!'s view(-1) was seat 1's view, hand and all
        for call in (state.view, state.information_state_string):
            with pytest.raises(GoatError, match="there is no seat") as err:
                call(bad)
            assert "\n" not in str(err.value)
    assert state.information_state_string(np.int64(0)) == state.information_state_string(0)


@pytest.mark.parametrize("steps", [0, 7, 300])
def test_yugioh_states_pickle_and_deepcopy_as_their_replay(steps: int) -> None:
    state = started("yugioh", "goat", steps, seed=steps)
    for twin in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state)):
        assert twin is not state
        for seat in (0, 1, None):
            assert twin.information_state_string(seat) == state.information_state_string(seat)
        assert twin.legal_actions() == state.legal_actions()
        if twin.legal_actions():
            twin.apply_action(twin.legal_actions()[0])  # independent of the original
            assert twin.actions != state.actions


@pytest.mark.parametrize("game,rules", [("kozel", "classic"), ("spades", "standard")])
def test_text_where_an_action_or_a_deal_belongs_is_refused_with_a_hint(game: str, rules: str) -> None:
    state = get_game(game).new_state(rules)
    with pytest.raises(InvalidChanceError, match="not a .* deal"):
        state.apply_chance("garbage")  # Kozel: an AttributeError before
    state.apply_chance(state.sample_chance(random.Random(2)))
    before = state.information_state_string(None)
    text = str(state.legal_actions()[0])
    with pytest.raises(IllegalActionError, match=r"pass Action\.parse"):
        state.apply_action(text)
    assert state.information_state_string(None) == before


def test_bot_seeds_may_be_numpy_integers_and_a_bad_seed_is_not_a_bad_setting() -> None:
    assert make_bot("random", np.int64(4)).rng.random() == make_bot("random", 4).rng.random()
    with pytest.raises(BotError, match="seed is a number") as err:
        make_bot("random", [1])
    assert "settings" not in str(err.value)


def test_a_deal_number_of_the_wrong_type_is_named_as_such() -> None:
    state = get_game("kozel").new_state("classic")
    play_randomly(state, random.Random(3))
    with pytest.raises(GoatError, match=r"there is no deal '1'$"):
        analyze_record(record_from_state(state), deal="1")


def test_random_play_that_does_not_end_says_how_to_end_it() -> None:
    with pytest.raises(GoatError, match="max_deals") as err:
        play_randomly(get_game("spades").new_state("standard"), random.Random(1), max_steps=500)
    assert "\n" not in str(err.value)
    ended = play_randomly(get_game("spades").new_state("standard", options={"max_deals": 1}), random.Random(1))
    assert ended.is_terminal()


@pytest.mark.parametrize("game,rules", GAMES)
def test_options_that_are_not_a_dict_are_refused_in_one_line(game: str, rules: str) -> None:
    for bad in (["penalty"], "penalty=flat2", 3):
        with pytest.raises(GoatError, match="options must be") as err:
            get_game(game).new_state(rules, options=bad)
        assert "\n" not in str(err.value)


@pytest.mark.parametrize("name", ["random", "greedy", "mc"])
def test_yugioh_bots_refuse_another_games_view_in_one_line(name: str) -> None:
    state = started("kozel", "classic", 1)
    with pytest.raises(BotError, match="do not play 'kozel'"):  # was an AttributeError
        make_bot(name, 1, game="yugioh").choose(state.view(state.current_player()))


def test_write_records_takes_one_record_as_itself_and_refuses_what_is_not_a_record(tmp_path) -> None:
    state = get_game("kozel").new_state("classic")
    play_randomly(state, random.Random(4))
    record = record_from_state(state)
    path = tmp_path / "one.json"
    assert write_records(record, path) == 1  # a dict was iterated: its keys written as "records"
    assert read_records(path) == [record]
    with pytest.raises(MalformedRecordError, match="a record is a dict"):
        write_records(["game"], tmp_path / "bad.jsonl")
    with pytest.raises(MalformedRecordError, match="JSON values only") as err:
        write_records([{**record, "first_dealer": np.int64(0)}], tmp_path / "numpy.jsonl")
    assert "\n" not in str(err.value)


def test_solver_refuses_what_is_not_a_kozel_state_in_one_line() -> None:
    """Found by the API walk: ``solve`` on a Spades state or on a view's dict
    raised AttributeError, a text side TypeError."""
    from goat.fast.solver import SolverError, solve
    from goat.games import spades
    from goat.games.kozel import new_state as kozel_state

    spades_state = spades.new_state("standard")
    with pytest.raises(SolverError, match="takes a Kozel state .* not a SpadesState"):
        solve(spades_state)
    state = kozel_state("full-hand", single_deal=True)
    while state.is_chance_node() or state.phase != "play":
        if state.is_chance_node():
            state.apply_chance(state.sample_chance(random.Random(0)))
        else:
            state.apply_action(state.legal_actions()[0])
    with pytest.raises(SolverError, match="not a view"):
        solve(state.view(0))
    with pytest.raises(SolverError, match="side must be a team"):
        solve(state, side="0")
    assert isinstance(solve(state, side=0), int)
