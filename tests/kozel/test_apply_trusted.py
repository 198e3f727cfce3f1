"""``KozelState.apply_trusted`` (the unchecked path search bots and the world
sampler take for actions known to be legal) leaves exactly the state that
``apply_action`` leaves, and still refuses between deals with the same error;
``apply_action`` keeps refusing an illegal action."""

from __future__ import annotations

import random

import pytest

from goat.games.kozel import new_state
from goat.games.tricks import draw_to
from goat.protocol import Action, IllegalActionError

CASES = [("street", None, None), ("street", {"partner_exchange": 1}, None), ("classic", None, None),
         ("full-hand", None, 3), ("full-hand-24", None, None)]


def _fingerprint(state) -> tuple:
    """Everything a later move, view or score reads from the state."""
    return (state.phase, state.to_act, [list(h) for h in state.hands], list(state.stock),
            [list(p) for p in state.piles], list(state.tricks_won), list(state.tricks_by_seat),
            list(state.trick), state.best_index, state.trick_leader, state.opening_team, state.molodkas,
            state.last_trick, state.must_lead, state.forced, [list(d) for d in state.drawn],
            list(state.logs[-1]["actions"]), list(state.logs[-1]["private"]), state.deal_results,
            state.penalty_total, state.last_trick_winner,
            [state.information_state_string(s) for s in range(state.num_players)])


@pytest.mark.parametrize(("rules", "options", "players"), CASES)
def test_trusted_and_checked_paths_leave_the_same_state(rules, options, players):
    rng = random.Random(f"trusted/{rules}/{options}")
    molodkas = 0
    for _ in range(40):
        checked = new_state(rules, options=options, players=players, single_deal=True)
        checked.apply_chance(checked.sample_chance(rng))
        trusted = checked.clone()
        while not (checked.is_terminal() or checked.is_chance_node()):   # an annulled deal ends at one
            actions = checked.legal_actions()
            claims = [a for a in actions if a.verb == "molodka"]   # rare at random: taken when offered
            action = claims[0] if claims else actions[rng.randrange(len(actions))]
            molodkas += action.verb == "molodka"
            checked.apply_action(action)
            trusted.apply_trusted(action)
            assert _fingerprint(trusted) == _fingerprint(checked)
        assert trusted.returns() == checked.returns()
    if rules == "street":
        assert molodkas   # the random games reached the molodka path too


def test_trusted_path_refuses_between_deals_like_apply_action():
    state = new_state("street", single_deal=True)
    action = Action(0, "play", ())
    with pytest.raises(IllegalActionError) as checked:
        state.apply_action(action)
    with pytest.raises(IllegalActionError) as trusted:
        state.apply_trusted(action)
    assert str(trusted.value) == str(checked.value)


def test_apply_action_still_refuses_an_illegal_street_play():
    state = new_state("street", single_deal=True)
    state.apply_chance(state.sample_chance(random.Random(3)))
    seat = state.current_player()
    foreign = next(c for c in state.hands[(seat + 1) % 4])
    before = _fingerprint(state)
    with pytest.raises(IllegalActionError, match="does not hold"):
        state.apply_action(Action(seat, "play", (foreign,)))
    assert _fingerprint(state) == before


@pytest.mark.parametrize("first", range(4))
def test_draw_to_matches_one_card_at_a_time_clockwise(first):
    rng = random.Random(first)
    for _ in range(200):
        hands = [list(range(rng.randrange(5))) for _ in range(4)]
        stock = list(range(100, 100 + rng.randrange(12)))
        expect_hands, expect_stock, expected = [list(h) for h in hands], list(stock), []
        while expect_stock and any(len(h) < 4 for h in expect_hands):   # the rule, spelled out
            for i in range(4):
                seat = (first + i) % 4
                if expect_stock and len(expect_hands[seat]) < 4:
                    card = expect_stock.pop(0)
                    expect_hands[seat].append(card)
                    expected.append((seat, card))
        assert draw_to(hands, stock, first, 4) == expected
        assert (hands, stock) == (expect_hands, expect_stock)
