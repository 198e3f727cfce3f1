"""Blind nil is "a bid of nil made before looking at the hand": the engine keeps
the hand face down while a blind bid is open to its seat, so every consumer
(server, CLI, bots, RL envs) gets it without trusting a client.

The deal ``STRONG`` is dealt by seat 3 unless said, so seat 0 bids first.
"""

from __future__ import annotations

import json
import random

import pytest

from goat.bots import make_bot, play_bots
from goat.games.spades import new_state
from goat.protocol import Action, IllegalActionError
from goat.records import check_result, record_from_state, replay

from .conftest import act, bid, deal_state

STRONG = ["AS KS QS JS AH AD AC 2C 3C 4D 5D 6H 7H",
          "2S 3S 2H 3H 4H 5H 2D 3D 6D 7D 5C 6C 7C",
          "4S 5S 6S 8H 9H TH 8D 9D TD 8C 9C TC JC",
          "7S 8S 9S TS JH QH KH JD QD KD QC KC 4C"]
EVERYONE = {"blind_nil_behind": 0, "double_nil": True}


def secret_cards(state, seat: int) -> set[str]:
    return {str(c) for c in state.hands[seat]} - {str(c) for c in state.face_up[seat]}


def test_a_face_down_seat_is_sent_no_card_of_its_hand() -> None:
    s = deal_state(STRONG, options=EVERYONE)
    for seat in range(4):
        view = s.view(seat)
        assert view["hand"] == [] and view["hand_face_down"] is True
        assert view["hand_sizes"] == [13, 13, 13, 13]
        text = json.dumps(view) + s.information_state_string(seat)
        assert not any(card in text for card in secret_cards(s, seat))
    public = s.view(None)
    assert public["hand_face_down"] is False and public["hands_face_down"] == [True] * 4


def test_a_face_down_seat_on_its_turn_may_bid_blind_or_look() -> None:
    s = deal_state(STRONG, options=EVERYONE)
    assert s.view(0)["legal_actions"] == ["0 bid blind-nil", "0 bid double-nil", "0 bid look"]


def test_after_looking_the_hand_is_shown_and_a_blind_bid_is_refused_in_one_line() -> None:
    s = act(deal_state(STRONG, options=EVERYONE), "0 bid look")
    view = s.view(0)
    assert view["hand_face_down"] is False and len(view["hand"]) == 13
    assert "0 bid look" in view["history"] and s.current_player() == 0 and s.bids == [None] * 4
    assert "0 bid blind-nil" not in view["legal_actions"] and "0 bid 4" in view["legal_actions"]
    for blind, words in (("blind-nil", "blind nil"), ("double-nil", "double nil")):
        with pytest.raises(IllegalActionError) as info:
            s.apply_action(Action.parse(f"0 bid {blind}"))
        assert info.value.rule == "looked"
        assert str(info.value.reason) == f"seat 0 has looked at their cards: a {words} is bid before looking"
    with pytest.raises(IllegalActionError, match="already looked") as again:
        s.apply_action(Action.parse("0 bid look"))
    assert again.value.rule == "look"


def test_a_number_bid_from_a_face_down_seat_is_accepted_as_looked_then_bid() -> None:
    """Records have no look (the contract fixes the bids), so a record's number
    bid by a seat that could have bid blind must replay: accepted, never offered."""
    s = deal_state(STRONG, options=EVERYONE)
    assert "0 bid 4" not in s.view(0)["legal_actions"]
    act(s, "0 bid 4")
    assert s.bids[0].text == "4" and s.view(0)["hand_face_down"] is False and len(s.view(0)["hand"]) == 13


def test_a_face_down_seat_may_look_out_of_turn() -> None:
    s = deal_state(STRONG, options=EVERYONE)
    assert s.view(2)["legal_actions"] == ["2 bid look"]          # seat 0 is to bid
    assert Action.parse("2 bid look") in s.legal_actions()
    act(s, "2 bid look")
    assert s.current_player() == 0 and len(s.view(2)["hand"]) == 13 and s.view(2)["legal_actions"] == []
    assert s.view(1)["history"] == ["2 bid look"]                # a look is public
    with pytest.raises(IllegalActionError) as info:
        s.apply_action(Action.parse("2 bid 4"))                  # looking does not give the turn
    assert info.value.rule == "turn"


def test_a_seat_with_no_blind_bid_possible_is_never_face_down() -> None:
    s = deal_state(STRONG)                                       # nobody is 100 behind at the start
    assert all(not s.view(seat)["hand_face_down"] and len(s.view(seat)["hand"]) == 13 for seat in range(4))
    assert not any(a.bid == "look" for a in s.legal_actions())
    with pytest.raises(IllegalActionError) as info:
        s.apply_action(Action.parse("1 bid look"))
    assert info.value.rule == "look" and "face up" in info.value.reason
    behind = deal_state(STRONG, score_total=[0, 250])            # only seats 0 and 2 may bid blind
    assert [behind.view(seat)["hand_face_down"] for seat in range(4)] == [True, False, True, False]


def test_a_seat_whose_partner_bid_closes_the_blind_bid_is_face_up() -> None:
    """With nil off and a team limit of 4, a blind nil is open only while the
    partner's bid leaves room for a 0 (at 4 it would be the one bid left)."""
    s = deal_state(STRONG, dealer=1, options={"nil": False, "max_team_bid": 5, "blind_nil_behind": 0,
                                              "min_team_bid": 5})
    assert s.view(0)["hand_face_down"]
    bid(s, "4")                                                  # seat 2: 0 + 4 cannot make 5
    assert not s.view(0)["hand_face_down"] and len(s.view(0)["hand"]) == 13


def test_a_blind_bid_left_alone_by_the_team_limit_stays_open_after_looking() -> None:
    """Nil off and the partner at the team's maximum: blind nil is the one bid
    left, so after a look it stays offered (else the game could not go on)."""
    s = deal_state(STRONG, dealer=1, options={"nil": False, "max_team_bid": 4, "blind_nil_behind": 0})
    bid(s, "4", "2")
    assert s.view(0)["legal_actions"] == ["0 bid blind-nil", "0 bid look"]
    act(s, "0 bid look")
    assert s.view(0)["legal_actions"] == ["0 bid blind-nil"]
    act(s, "0 bid blind-nil")


def test_records_leave_looks_out_and_replay_to_the_same_result() -> None:
    s = act(deal_state(STRONG, options=EVERYONE, single_deal=True), "2 bid look", "0 bid look", "0 bid 4",
            "1 bid blind-nil", "2 bid 3", "3 bid look", "3 bid 2")
    actions = record_from_state(s)["deals"][0]["actions"]
    assert actions == ["0 bid 4", "1 bid blind-nil", "2 bid 3", "3 bid 2"]
    while not s.is_terminal():
        s.apply_action(s.legal_actions()[0])
    record = json.loads(json.dumps(record_from_state(s)))
    assert not any("look" in a for deal in record["deals"] for a in deal["actions"])
    outcome = replay(record)
    check_result(record, outcome)
    assert outcome.result == s.result()


def test_a_record_holding_a_look_is_refused_since_the_contract_has_none() -> None:
    from goat.records import IllegalRecordError

    s = act(deal_state(STRONG, options=EVERYONE, single_deal=True), "0 bid 4")
    record = json.loads(json.dumps(record_from_state(s)))
    record["deals"][0]["actions"].insert(0, "1 bid look")
    with pytest.raises(IllegalRecordError, match=r"^deal 1, action 0 \"1 bid look\": no record action: it only "
                                                 r"shows a seat its own cards") as info:
        replay(record)
    assert "\n" not in str(info.value)


def test_a_clone_keeps_who_looked_apart() -> None:
    s = deal_state(STRONG, options=EVERYONE)
    copy = s.clone()
    act(copy, "1 bid look")
    assert s.view(1)["hand_face_down"] and not copy.view(1)["hand_face_down"]


@pytest.mark.parametrize(("bot", "settings"), [("heuristic", {}), ("random", {}), ("ismcts", {"iterations": 20}),
                                             ("pimc", {"worlds": 2})])
def test_bots_play_whole_games_where_every_seat_may_bid_blind(bot: str, settings: dict) -> None:
    """Every seat is face down at every deal's start (``blind_nil_behind=0``): the
    bots bid blind or look (in turn or out of it), then bid and play as usual."""
    state = new_state("standard", options={**EVERYONE, "max_deals": 2})
    bots = [make_bot(bot, seed=seat, game="spades", **settings) for seat in range(4)]
    play_bots(state, bots, random.Random(5))
    assert state.is_terminal() and state.deals_played == 2
