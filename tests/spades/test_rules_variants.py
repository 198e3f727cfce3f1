"""One test per named variant of ``shared/rules/spades.md`` (each a preset, i.e.
an option set), with hands in card notation."""

from __future__ import annotations

import pytest

from goat.cards import Card
from goat.games.spades import PRESETS, make_rules
from goat.games.spades.bids import parse_bid
from goat.games.spades.cards import spades_order
from goat.games.spades.scoring import score_deal
from goat.protocol import Action, RulesError

from .conftest import SUIT_HANDS, act, bid, deal_state, legal_texts, play_first_legal
from .test_rules_standard import D1, refused

#: Seat 0 holds the 13 spades, the others one plain suit each.
SPADES_FIRST = [SUIT_HANDS[3], *SUIT_HANDS[:3]]


def test_every_variant_of_the_rules_table_is_a_preset() -> None:
    assert {"no-early-spades", "face-up-four", "wheels", "mirror", "joker-trumps", "partnership-fourteen",
            "low-club-lead", "boston", "bemo", "negative-reverse"} <= set(PRESETS)
    assert make_rules("spades") == make_rules("standard").__class__(name="spades")


def test_no_early_spades_breaks_spades_only_by_a_spade_played_to_beat_another_card() -> None:
    # A spade led from a hand of only spades breaks them in the standard game, not here.
    for preset, broken in (("standard", True), ("no-early-spades", False)):
        s = deal_state(SPADES_FIRST, rules=preset)
        bid(s, "3", "3", "3", "3")
        act(s, "0 play 2S", "1 play 2C", "2 play 2D", "3 play 2H")
        assert s.spades_broken is broken
    # Trumping a heart is playing a spade to beat it: spades are broken, leads open.
    s = deal_state(D1, rules="no-early-spades")
    bid(s, "3", "3", "3", "3")
    act(s, "0 play AH", "1 play 4S", "2 play 2H", "3 play JC")
    assert s.spades_broken and "1 play 5S" in legal_texts(s)


def test_face_up_four_deals_the_first_four_cards_of_each_hand_face_up() -> None:
    s = deal_state(D1, rules="face-up-four")
    view = s.view(1)
    assert view["face_up"][0] == ["AH", "KH", "QH", "JH"]
    assert view["face_up_held"][0] == ["JH", "QH", "KH", "AH"]
    assert "TH" not in str({k: v for k, v in view.items() if k != "options"})   # the fifth stays hidden
    bid(s, "3", "3", "3", "3")
    act(s, "0 play AH")
    assert s.view(2)["face_up_held"][0] == ["JH", "QH", "KH"]


def test_wheels_a_contract_of_10_or_more_scores_plus_or_minus_200() -> None:
    rules = make_rules("wheels")
    bids = [parse_bid(b) for b in "6 1 4 1".split()]
    assert score_deal(rules, bids, [6, 1, 5, 1], [], [0, 0]).score[0] == 200 + 1
    assert score_deal(rules, bids, [6, 2, 3, 2], [], [0, 0]).score[0] == -200
    assert score_deal(make_rules("standard"), bids, [6, 1, 5, 1], [], [0, 0]).score[0] == 100 + 1
    # "10 or more": a contract of 11 is a wheels contract too, and 9 is not.
    eleven = [parse_bid(b) for b in "6 1 5 1".split()]
    assert score_deal(rules, eleven, [6, 1, 5, 1], [], [0, 0]).score[0] == 200
    assert score_deal(rules, eleven, [5, 1, 5, 2], [], [0, 0]).score[0] == -200
    nine = [parse_bid(b) for b in "5 1 4 1".split()]
    assert score_deal(rules, nine, [5, 1, 4, 3], [], [0, 0]).score[0] == 90


def test_wheels_by_player_a_players_own_bid_of_10_or_more_scores_plus_or_minus_200() -> None:
    # The seed: "a player bids to win 10 tricks". With wheels_by="player" one bid of 10+ makes
    # the team's whole contract worth ±200; two bids adding up to 10 do not.
    rules = make_rules("wheels", options={"wheels_by": "player"})
    assert make_rules("wheels").wheels_by == "team"                  # the rules file's reading stays the default
    ten = [parse_bid(b) for b in "10 1 2 1".split()]
    assert score_deal(rules, ten, [10, 1, 3, 0], [], [0, 0]).score[0] == 200 + 1
    assert score_deal(rules, ten, [9, 1, 2, 1], [], [0, 0]).score[0] == -200
    five_five = [parse_bid(b) for b in "5 1 5 1".split()]
    assert score_deal(rules, five_five, [5, 1, 5, 2], [], [0, 0]).score[0] == 100
    assert score_deal(make_rules("wheels"), five_five, [5, 1, 5, 2], [], [0, 0]).score[0] == 200
    assert score_deal(rules, five_five, [4, 1, 5, 3], [], [0, 0]).score[0] == -100
    with pytest.raises(RulesError, match="wheels_by='seat' is not allowed"):
        make_rules("wheels", options={"wheels_by": "seat"})


def test_mirror_every_player_bids_exactly_the_spades_held() -> None:
    s = deal_state(D1, rules="mirror")
    assert legal_texts(s) == ["0 bid 2"]
    err = refused(s, "0 bid 3", "mirror")
    assert "must bid 2, the number of spades they hold" in err.reason
    bid(s, "2")
    assert legal_texts(s) == ["1 bid 3"]
    bid(s, "3")
    assert legal_texts(s) == ["2 bid nil"]                  # no spade: nil
    with pytest.raises(RulesError, match="mirror"):
        make_rules("mirror", options={"blind_nil": True})
    # With the jokers in, a joker is a spade: one spade and two jokers bid 3.
    hands = ["3C 4C 5C 6C 7C 8C 9C TC JC QC KC 2S BJ",
             "3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD LJ",
             " ".join(r + "H" for r in "23456789TJQKA"),
             "AC 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"]
    s = deal_state(hands, rules="mirror", options={"jokers": True})
    assert legal_texts(s) == ["0 bid 2"]
    bid(s, "2")
    assert legal_texts(s) == ["1 bid 1"]



def test_mirror_with_nil_off_is_refused_since_a_hand_without_spades_must_bid_nil() -> None:
    """``mirror`` with ``nil=false`` was accepted, and a hand without spades was then
    made to bid nil anyway: a table whose options contradict each other."""
    with pytest.raises(RulesError, match="^option mirror makes a hand without spades bid nil: it cannot be "
                                         "combined with nil=false$"):
        make_rules("mirror", options={"nil": False})


@pytest.mark.parametrize(("rules", "options", "said"), [
    ("standard", {"boston_wins_game": True}, "option boston_wins_game=true needs boston=true"),
    ("standard", {"wheels_by": "player"}, "option wheels_by='player' needs wheels=true"),
    ("standard", {"bemo_one_per_team": True}, "option bemo_one_per_team=true needs bemo=true"),
])
def test_an_option_that_refines_a_variant_not_played_is_refused_not_ignored(
        rules: str, options: dict[str, object], said: str) -> None:
    """``boston_wins_game`` without ``boston`` and ``wheels_by`` without ``wheels`` were
    accepted and did nothing: a table that asked for them played without them."""
    with pytest.raises(RulesError, match=f"^{said} "):
        make_rules(rules, options=options)
    make_rules("boston", options={"boston_wins_game": True})      # with their variant they are fine
    make_rules("wheels", options={"wheels_by": "player"})
    make_rules("bemo", options={"bemo_one_per_team": True})


def test_joker_trumps_adds_big_and_little_joker_above_the_ace_of_spades() -> None:
    rules = make_rules("joker-trumps")
    deck = {str(c) for c in rules.deck_cards}
    assert len(deck) == 52 and {"LJ", "BJ"} <= deck and not {"2C", "2D"} & deck
    order = spades_order(True)
    big, little, ace = Card.parse("BJ"), Card.parse("LJ"), Card.parse("AS")
    assert order.beats(big, little) and order.beats(little, ace) and order.beats(little, Card.parse("AH"))
    # Jokers are spades: barred from the opening lead, and they follow a spade lead.
    hands = ["3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC BJ",
             "3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD LJ",
             " ".join(r + "H" for r in "23456789TJQKA"),
             " ".join(r + "S" for r in "23456789TJQKA")]
    s = deal_state(hands, rules="joker-trumps")
    bid(s, "3", "3", "3", "3")
    refused(s, "0 play BJ", "spades-broken")
    act(s, "0 play 3C", "1 play LJ", "2 play 2H", "3 play AS")
    assert s.last_trick["winner"] == 1 and s.spades_broken
    # A spade lead is followed with a joker when the joker is the only "spade" held.
    hands = ["3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC BJ",
             "3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD LJ",
             "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH 2S",
             "AH 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"]
    s = deal_state(hands, rules="joker-trumps")
    bid(s, "3", "3", "3", "3")
    act(s, "0 play 3C", "1 play 3D", "2 play 2S", "3 play 3S")         # spades broken; seat 3 wins
    act(s, "3 play 4S")
    assert legal_texts(s) == ["0 play BJ"]                              # the joker follows spades
    refused(s, "0 play 4C", "follow-suit")
    act(s, "0 play BJ")
    assert legal_texts(s) == ["1 play LJ"]
    act(s, "1 play LJ", "2 play 2H")
    assert s.last_trick["winner"] == 0                                  # big joker over little joker


def test_partnership_fourteen_each_team_bids_exactly_7_and_no_bid_below_2() -> None:
    s = deal_state(D1, rules="partnership-fourteen")
    assert [t.split()[2] for t in legal_texts(s)] == ["2", "3", "4", "5"]
    refused(s, "0 bid nil", "nil")
    refused(s, "0 bid 6", "team-bid")
    bid(s, "3", "5")
    assert legal_texts(s) == ["2 bid 4"]
    err = refused(s, "2 bid 5", "team-bid")
    assert "with their partner's 3" in err.reason
    bid(s, "4")
    assert legal_texts(s) == ["3 bid 2"]



def test_bid_limits_met_only_by_a_blind_bid_are_refused_since_nobody_is_behind_at_the_start() -> None:
    """``partnership-fourteen`` with ``min_bid=4`` and blind nil on was accepted
    (4 + 3 cannot make 7, only blind nil + 7 can), and the first bidder then had no
    legal bid at all: ``goat random-games`` crashed, a table would wait for ever."""
    with pytest.raises(RulesError, match="^no two bids make a team total between 7 and 7 .*; a blind bid would, "
                                         "but only a team behind may make one$"):
        make_rules("partnership-fourteen", options={"min_bid": 4, "blind_nil": True})
    # Blind bids open to both teams at every deal (blind_nil_behind=0) do fill the gap.
    import random

    from goat.games.spades import new_state

    state = new_state("partnership-fourteen", options={"min_bid": 4, "blind_nil": True, "blind_nil_behind": 0},
                      first_dealer=3)
    state.apply_chance(state.sample_chance(random.Random(1)))
    assert state.view(0)["legal_actions"] == ["0 bid blind-nil", "0 bid look"]   # face down
    state.apply_action(Action.parse("0 bid look"))
    assert state.view(0)["legal_actions"] == ["0 bid 7"]

def test_low_club_lead_the_holder_of_the_lowest_club_leads_it() -> None:
    s = deal_state(D1, rules="low-club-lead")
    bid(s, "3", "3", "3", "3")
    assert s.current_player() == 1 and legal_texts(s) == ["1 play 2C"]     # seat 1 holds 2C
    assert s.view(1)["must_lead"] == "2C"
    refused(s, "1 play 3C", "low-club-lead")
    act(s, "1 play 2C")
    assert s.current_player() == 2
    # Only the first trick: its winner then leads as in the standard game.
    act(s, "2 play 8C", "3 play JC", "0 play AC")
    assert s.last_trick["winner"] == 0 and s.view(0)["must_lead"] is None
    assert legal_texts(s) == [f"0 play {c}" for c in "QC KC QD KD AD TH JH QH KH AH".split()]
    hands = ["3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC BJ", "3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD LJ",
             " ".join(r + "H" for r in "23456789TJQKA"), " ".join(r + "S" for r in "23456789TJQKA")]
    s = deal_state(hands, rules="low-club-lead", options={"jokers": True})
    bid(s, "3", "3", "3", "3")
    assert legal_texts(s) == ["0 play 3C"]                                    # 2C left the deck


def test_boston_a_team_bid_of_13_scores_plus_or_minus_200_and_may_win_the_game() -> None:
    # Seat 3 (all spades) takes 13 on a bid of 13, its partner's nil is made: 200 + 100.
    s = deal_state(SUIT_HANDS, rules="boston")
    bid(s, "1", "nil", "1", "13")
    play_first_legal(s)
    assert s.score_total == [-20, 300] and not s.match_over
    s = deal_state(SUIT_HANDS, rules="boston", options={"boston_wins_game": True})
    bid(s, "1", "nil", "1", "13")
    play_first_legal(s)
    assert s.match_over and s.winner_team == 1 and s.score_total[1] < 500
    bids = [parse_bid(b) for b in "7 1 6 1".split()]
    assert score_deal(make_rules("boston"), bids, [6, 1, 6, 0], [], [0, 0]).score[0] == -200
    assert score_deal(make_rules("standard"), bids, [6, 1, 6, 0], [], [0, 0]).score[0] == -130


def test_bemo_little_first_6_tricks_plus_or_minus_60_big_first_9_plus_or_minus_90() -> None:
    # Seat 3 takes every trick: team 1's little Bemo (6 toward the contract, 6 + 2 = 8)
    # makes 80 + 5 overtricks and +60; team 0's big Bemo (9 + 1) misses: -100 and -90.
    s = deal_state(SUIT_HANDS, rules="bemo")
    bid(s, "big-bemo", "2", "1", "little-bemo")
    play_first_legal(s)
    assert s.result()["deals"][0]["score"] == [-100 - 90, 85 + 60]
    refused(deal_state(SUIT_HANDS), "0 bid little-bemo", "bemo")              # not in the standard game
    rules = make_rules("bemo")
    bids = [parse_bid(b) for b in "little-bemo 1 1 1".split()]
    # Team 0 takes five of the first six tricks: 5 < 7 is set (-70) and the Bemo fails (-60).
    five_of_six = [0, 2, 0, 2, 0, 1, 1, 1, 1, 1, 1, 1, 1]
    assert score_deal(rules, bids, [3, 8, 2, 0], five_of_six, [0, 0]).score[0] == -70 - 60
    six_of_six = [0, 2, 0, 2, 0, 2, 0, 1, 1, 1, 1, 1, 1]
    assert score_deal(rules, bids, [4, 6, 3, 0], six_of_six, [0, 0]).score[0] == 70 + 60
    # The *first* six: seven tricks made, but the third went to the other side.
    third_lost = [0, 2, 1, 0, 2, 0, 0, 2, 1, 1, 1, 1, 1]
    assert score_deal(rules, bids, [4, 6, 3, 0], third_lost, [0, 0]).score[0] == 70 - 60


def test_bemo_one_per_team_the_partner_of_a_bemo_bidder_may_not_bid_bemo() -> None:
    """Both partners could bid Bemo and the team's one bet ("your team bets it takes the
    first six") scored twice: +120 for one run of six tricks. With ``bemo_one_per_team``
    the partner's Bemo of either size is neither offered nor accepted; the other team
    keeps its own."""
    options = {"bemo_one_per_team": True}
    s = deal_state(SUIT_HANDS, rules="bemo", options=options)
    bid(s, "little-bemo", "big-bemo")
    assert not [t for t in legal_texts(s) if "bemo" in t] and "2 bid 3" in legal_texts(s)
    for kind in ("little-bemo", "big-bemo"):
        error = refused(s, f"2 bid {kind}", "bemo")
        assert (f"seat 2 may not bid {kind}: their partner bid little-bemo, the team's one "
                "Bemo (option bemo_one_per_team)") in str(error)
    bid(s, "1")
    assert "3 bid little-bemo" not in legal_texts(s) and "3 bid 2" in legal_texts(s)
    # Off (the default, today's reading): each partner bids its own Bemo and each scores.
    s = deal_state(SUIT_HANDS, rules="bemo")
    bid(s, "1", "little-bemo", "1", "little-bemo")
    play_first_legal(s)
    assert s.result()["deals"][0]["score"][1] == 120 + 1 + 60 + 60    # contract 12 made, one overtrick
    assert make_rules("bemo").bemo_one_per_team is False


def test_bemo_one_per_team_limits_count_only_one_bemo_per_team() -> None:
    """A team total that only two Bemos reach (12 with bids of 10+) is refused at the
    table's creation under ``bemo_one_per_team``, as every unreachable total is: the
    first bidder would have had no legal bid."""
    limits = {"min_bid": 10, "nil": False, "blind_nil": False, "min_team_bid": 12, "max_team_bid": 12}
    make_rules("bemo", options=limits)                                  # 6 + 6: two little Bemos
    with pytest.raises(RulesError, match="^no two bids make a team total between 12 and 12"):
        make_rules("bemo", options={**limits, "bemo_one_per_team": True})
    # A total of 18 (12 + little Bemo, or two big Bemos) is more than a deal's 13 tricks:
    # no contract could ever be made, so such a table is refused too.
    eighteen = {**limits, "min_team_bid": 18, "max_team_bid": 18}
    for extra in ({}, {"bemo_one_per_team": True}):
        with pytest.raises(RulesError, match="^no team could ever make its contract"):
            make_rules("bemo", options={**eighteen, **extra})


def test_limits_whose_every_team_total_is_more_than_a_deals_tricks_are_refused() -> None:
    """``wheels`` with ``min_team_bid=14``, or ``min_bid=13`` without nil, were
    accepted: no contract could ever be made, both teams were set every deal, and
    with level scores (bots bidding alike) a game played on for ever. A total a team
    behind could reach only with a blind nil still counts (at the first deal nobody
    is behind, but every team gets behind once it is set)."""
    for preset, options in (("wheels", {"min_team_bid": 14}),
                            ("standard", {"min_bid": 13, "nil": False, "blind_nil": False}),
                            ("standard", {"min_team_bid": 14, "max_team_bid": 26})):
        with pytest.raises(RulesError, match=r"^no team could ever make its contract: every team total these "
                                             r"options allow is more than the 13 tricks of a deal \(min_bid="):
            make_rules(preset, options=options)
    make_rules("wheels", options={"min_team_bid": 13})                 # 13 tricks can be taken
    make_rules("standard", options={"min_bid": 13})                    # nil + 13


def test_negative_reverse_a_team_at_or_below_minus_target_loses() -> None:
    s = deal_state(SUIT_HANDS, rules="negative-reverse", score_total=[-450, 0])
    bid(s, "4", "1", "4", "1")
    play_first_legal(s)
    assert s.score_total[0] == -530 and s.match_over and s.winner_team == 1
    s = deal_state(SUIT_HANDS, score_total=[-450, 0])
    bid(s, "4", "1", "4", "1")
    play_first_legal(s)
    assert not s.match_over


@pytest.mark.parametrize("preset, option, values, matters", [
    ("standard", "double_nil_points", None, False),          # no double nil bid to score
    ("standard", "double_nil_points", {"double_nil": True}, True),
    ("standard", "exchange_cards", None, False),             # only a double nil exchanges
    ("standard", "bag_limit", {"bags": False}, False),       # scoring counts bags against it only under bags
    ("standard", "bag_penalty", None, True),
    ("standard", "boston_wins_game", None, False),
    ("boston", "boston_wins_game", None, True),
    ("standard", "set_penalty_per", {"set_penalty": False}, False),
    ("partnership-fourteen", "nil_points", None, False),
    ("bemo", "bemo_one_per_team", None, True),
    ("standard", "blind_nil_behind", None, True),             # bids.py: a blind bid of either kind
    ("standard", "blind_nil_behind", {"blind_nil": False}, False),
    ("standard", "blind_nil_behind", {"blind_nil": False, "double_nil": True}, True),
    ("mirror", "blind_nil_behind", None, False),              # neither blind bid
    ("mirror", "blind_nil_behind", {"double_nil": True}, True),
])
def test_applies_says_whether_a_refining_option_can_matter(
        preset: str, option: str, values: dict[str, object] | None, matters: bool) -> None:
    """An option that refines another (its points, its limit) matters only while
    that one is on: the create form shows its row only then."""
    assert make_rules(preset).applies(option, values) is matters
