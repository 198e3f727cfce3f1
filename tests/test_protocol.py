"""The game protocol: action text round trips, one-line syntax errors, and the
Kozel state satisfying :class:`goat.protocol.GameState`.

Actions are the currency of records, the CLI and the server, so their text form
must round-trip exactly and bad text must give a one-line user error.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from goat.cards import Card, make_deck
from goat.games.kozel import new_state
from goat.protocol import (
    CHANCE,
    TERMINAL,
    Action,
    ActionSyntaxError,
    GameState,
    GoatError,
    IllegalActionError,
    play_random_steps,
    play_randomly,
)

ALL_CARDS = make_deck("6789TJQKA")


@pytest.mark.parametrize("text", [
    "1 play KH+AH",
    "0 play 9H",
    "2 pass 6C+7D",
    "3 molodka 6S+9S+KS+AS",
    "0 give QD",
    "1 bid 4",
    "3 bid nil",
    "2 bid blind-nil",
])
def test_canonical_text_round_trips(text: str) -> None:
    action = Action.parse(text)
    assert str(action) == text
    assert Action.parse(str(action)) == action


def test_parse_fields() -> None:
    a = Action.parse("1 play KH+AH")
    assert (a.seat, a.verb, a.cards, a.bid) == (1, "play", (Card("K", "H"), Card("A", "H")), None)
    b = Action.parse("3 bid nil")
    assert (b.seat, b.verb, b.cards, b.bid) == (3, "bid", (), "nil")


@pytest.mark.parametrize("text, canonical", [
    ("1 PLAY kh+ah", "1 play KH+AH"),
    ("0 play 10h", "0 play TH"),
    ("2 play Q♣+10♥", "2 play QC+TH"),
    ("  3   give   7c  ", "3 give 7C"),
    ("1 bid NIL", "1 bid nil"),
])
def test_lenient_input_normalises(text: str, canonical: str) -> None:
    assert str(Action.parse(text)) == canonical


@pytest.mark.parametrize("text", [
    "",
    "   ",
    "1 play",
    "play KH",
    "x play KH",
    "-1 play KH",
    "1 jump KH",
    "1 play ZZ",
    "1 play KH AH",      # a space splits into four words
    "1 play 1H",
    "1 play +",
    "1\nplay\nKH\nextra",  # the message quotes the text, so it stays one line
    "² play KH",         # a digit to str.isdigit, not to int(): was a ValueError traceback
    "٣ play KH",         # a seat is written 0-9, as every record writes it
])
def test_bad_text_is_a_one_line_syntax_error(text: str) -> None:
    with pytest.raises(ActionSyntaxError) as info:
        Action.parse(text)
    message = str(info.value)
    assert isinstance(info.value, GoatError)
    assert message and "\n" not in message
    assert "not an action" in message or "must be" in message


def test_cards_split_by_a_space_are_told_to_be_joined_by_plus() -> None:
    """ "0 play QS QS" was refused as 'expected "<seat> <verb> <cards>"', a form the text
    already has: what is wrong is the space between the cards."""
    with pytest.raises(ActionSyntaxError, match=r'several cards joined by "\+" \(e.g. "1 play KH\+AH"\)'):
        Action.parse("1 play KH AH")
    with pytest.raises(ActionSyntaxError, match=r'expected "<seat> <verb> <cards>"\)$'):
        Action.parse("1 play")                      # too few parts: the form alone


def test_non_string_is_a_syntax_error() -> None:
    with pytest.raises(ActionSyntaxError):
        Action.parse(42)  # type: ignore[arg-type]


@settings(max_examples=200, deadline=None)
@given(
    seat=st.integers(min_value=0, max_value=9),
    verb=st.sampled_from(["play", "pass", "molodka", "give"]),
    cards=st.lists(st.sampled_from(ALL_CARDS), min_size=1, max_size=4, unique=True),
)
def test_round_trip_property(seat: int, verb: str, cards: list[Card]) -> None:
    action = Action(seat, verb, tuple(cards))
    assert Action.parse(str(action)) == action


def test_actions_are_hashable_values() -> None:
    assert Action.parse("1 play KH") == Action(1, "play", (Card.parse("KH"),))
    assert len({Action.parse("1 play KH"), Action.parse("1 play kh")}) == 1


def test_kozel_state_satisfies_game_state() -> None:
    for preset in ("classic", "full-hand", "full-hand-24", "street"):
        state = new_state(preset)
        assert isinstance(state, GameState)
        assert state.current_player() == CHANCE
        assert isinstance(state.clone(), GameState)


@pytest.mark.parametrize("game, rules", [("kozel", "classic"), ("spades", "standard")])
def test_is_legal_refuses_text_as_apply_action_does_instead_of_answering_false(game: str, rules: str) -> None:
    """``is_legal("0 play 9D")`` once answered ``False`` for a legal play written as
    text (``apply_action`` refuses text with a hint): asked, it must not lie."""
    from goat.games import get_game

    state = get_game(game).new_state(rules, first_dealer=0)
    state.apply_chance(state.sample_chance(random.Random(3)))
    legal = state.legal_actions()[0]
    assert state.is_legal(legal)
    for call in (state.is_legal, state.apply_action):
        with pytest.raises(IllegalActionError, match=rf"^not an Action: '{legal}': pass Action.parse\('{legal}'\)"):
            call(str(legal))
    assert state.is_legal(legal)  # nothing changed


def test_illegal_action_error_carries_seat_rule_reason() -> None:
    state = new_state("classic", first_dealer=0)
    state.apply_chance(state.sample_chance(random.Random(3)))
    wrong_seat = next(s for s in range(4) if s != state.current_player())
    action = Action(wrong_seat, "play", (state.hands[wrong_seat][0],))
    with pytest.raises(IllegalActionError) as info:
        state.apply_action(action)
    err = info.value
    assert err.seat == wrong_seat and err.action == action
    assert err.rule == "turn"
    assert "\n" not in str(err) and str(action) in str(err)


def test_play_random_steps_takes_that_many_steps_and_stops_early_where_asked() -> None:
    a = play_random_steps(new_state("classic"), random.Random(3), 10)
    b = play_random_steps(new_state("classic"), random.Random(3), 10)
    assert len(a.deal_log()[0]["actions"]) == 9 and a.deal_log() == b.deal_log()   # one step dealt the cards
    half = play_random_steps(new_state("classic"), random.Random(3), 10,
                             until=lambda s: len(s.deal_log()[-1]["actions"]) == 4 if s.deal_log() else False)
    assert half.deal_log()[0]["actions"] == a.deal_log()[0]["actions"][:4]
    whole = play_random_steps(new_state("classic", single_deal=True), random.Random(3), 10_000)
    assert whole.is_terminal()


def test_play_randomly_reaches_terminal_deterministically() -> None:
    a = play_randomly(new_state("street"), random.Random(11))
    b = play_randomly(new_state("street"), random.Random(11))
    assert a.current_player() == TERMINAL and a.is_terminal()
    assert a.result() == b.result() and a.deal_log() == b.deal_log()


def test_a_game_that_does_not_end_is_one_line_that_does_not_blame_a_missing_max_deals() -> None:
    """A Spades match whose options keep the scores level plays on even with a
    ``max_deals`` option; the message used to tell the user to add one, as if it
    were missing (the spadeswalk helper met it with ``max_deals`` set)."""
    from goat.games.spades import new_state as new_spades
    from goat.protocol import play_out

    state = new_spades("standard", options={"max_deals": 1})
    with pytest.raises(GoatError) as refused:
        play_out(state, lambda s: s.legal_actions()[0], random.Random(0), max_steps=5)
    message = str(refused.value)
    assert "\n" not in message and message.startswith("the game did not end within 5 steps")
    assert "ends for sure only with a max_deals option" in message and "play on even then" in message


def _scribble(value: object) -> None:
    """Change every list and dict inside ``value`` in place (a careless bot)."""
    if isinstance(value, dict):
        for item in list(value.values()):
            _scribble(item)
        value["scribbled"] = True
    elif isinstance(value, list):
        for item in value:
            _scribble(item)
        for i, item in enumerate(value):
            if isinstance(item, int) and not isinstance(item, bool):
                value[i] = item + 1000
        value.append("scribbled")


@pytest.mark.parametrize(("game", "rules", "finished"), [
    ("kozel", "classic", "deal_results"), ("spades", "standard", "deal_results"), ("yugioh", "goat", "duel_results")])
def test_a_bot_that_changes_its_view_or_a_result_does_not_change_the_game(game: str, rules: str,
                                                                         finished: str) -> None:
    """A view (and ``result()``) is handed to bots and outside code: it must be
    the caller's own copy. The finished deals' results were copied one level
    deep only, so ``view["deal_results"][0]["penalty"][0] += 1000`` changed the
    state's own penalty list — the match, its record — and every other seat's view.
    (Yu-Gi-Oh!'s ``log``, kept per seat for speed, is left out: see its view.)"""
    from goat.games import get_game

    state = get_game(game).new_state(rules)
    rng = random.Random(1)
    while not state.view(None)[finished] or state.is_chance_node():
        assert not state.is_terminal()
        if state.is_chance_node():
            state.apply_chance(state.sample_chance(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    seats = [*range(len(state.returns())), None]

    def snapshot() -> list[str]:
        return [json.dumps({k: v for k, v in state.view(s).items() if k != "log"}, sort_keys=True) for s in seats] + [
            json.dumps(state.result(), sort_keys=True)]

    before = snapshot()
    for seat in seats:
        view = state.view(seat)
        view.pop("log", None)
        _scribble(view)
        _scribble(state.result())
    assert snapshot() == before


@pytest.mark.parametrize("game", ["kozel", "spades", "yugioh"])
@pytest.mark.parametrize("rng", [7, None, "7"])
def test_a_seed_where_a_random_random_belongs_is_one_line(game: str, rng: object) -> None:
    """``play_randomly(state, 7)`` and ``state.sample_chance(7)`` — a seed where a
    ``random.Random`` belongs — were an AttributeError (``'int' object has no
    attribute 'shuffle'``) from inside the deal; the state is left as it was."""
    from goat.games import get_game

    state = get_game(game).new_state(single_deal=True)
    before = state.information_state_string(None)
    for call in (lambda: state.sample_chance(rng), lambda: play_randomly(state, rng)):
        with pytest.raises(GoatError, match=r"rng must be a random\.Random \(random\.Random\(7\) for the seed 7\)"):
            call()
    assert state.is_chance_node() and state.information_state_string(None) == before
    play_randomly(state, random.Random(7))   # what the message says works
    assert state.is_terminal()
