"""One test (at least) per rule of "Common to all Kozel rulesets" in
``shared/rules/kozel.md``, plus option validation. Expected results are worked
out by hand from the rules text (see the comments and ``conftest.py``)."""

from __future__ import annotations

import random

import pytest

from goat.cards import Card, make_deck
from goat.games.kozel import CARD_POINTS, PRESETS, KozelDeal, make_rules, new_state
from goat.games.kozel.rules import DECK_RANKS
from goat.games.kozel.scoring import card_points
from goat.protocol import TERMINAL, Action, GoatError, RulesError

from .conftest import (EGGS, EGGS_WINNERS, SWEEP, SWEEP_WINNERS, THREE_WIN, THREE_WIN_WINNERS,
                       apply_deal, assert_illegal, deal_state, play, play_scripted_deal, play_tricks,
                       rotated, script_deal)


# ------------------------------------------------------------------ card points
def test_card_points_table() -> None:
    # "6 7 8 9 = 0, J = 2, Q = 3, K = 4, T = 10, A = 11"
    assert CARD_POINTS == {"6": 0, "7": 0, "8": 0, "9": 0, "J": 2, "Q": 3, "K": 4, "T": 10, "A": 11}


@pytest.mark.parametrize("deck", ["24", "32", "36"])
def test_card_points_sum_to_120_in_every_deck(deck: str) -> None:
    # Each suit holds J+Q+K+T+A = 2+3+4+10+11 = 30 whatever else it holds: 4 x 30 = 120.
    assert card_points(make_deck(DECK_RANKS[deck])) == 120


@pytest.mark.parametrize("preset, players", [("classic", 4), ("full-hand", 4), ("full-hand", 2),
                                             ("full-hand", 3), ("full-hand-24", 4), ("street", 4)])
def test_every_preset_deck_sums_to_120(preset: str, players: int) -> None:
    assert card_points(make_rules(preset, players=players).deck_cards) == 120


def test_card_points_same_for_trumps_and_plain_cards() -> None:
    # Trick: 0 leads 9H, 1 follows KH, 2 (void in plain hearts) plays QC, a trump,
    # 3 follows AH. QC wins. Points 0 + 4 + 3 + 11 = 18: QC counts 3 although it
    # is a trump, AH 11 although it lost.
    s = deal_state("classic", hands={"0": "9H 8S 9S KS", "1": "KH 7D 8D 9D",
                                     "2": "QC TS AS 7S", "3": "AH TD AD KD"},
                   options={"shamok_catches_queen": False})
    play(s, "0 play 9H", "1 play KH", "2 play QC", "3 play AH")
    assert s.last_trick["winner"] == 2
    assert s.view(None)["pile_points"] == [18, 0]


# ---------------------------------------------------------------- clockwise play
@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_play_is_clockwise(dealer: int) -> None:
    # Seats are numbered clockwise; after the dealer's lead (classic), seat dealer+1
    # plays, then dealer+2, dealer+3.
    hands = {str((dealer + i) % 4): h for i, h in
             enumerate(["9H 8S 9S KS", "KH 7D 8D 9D", "TH TS AS 7S", "AH TD AD KD"])}
    s = deal_state("classic", hands=hands, dealer=dealer)
    order = [s.current_player()]
    for i, c in enumerate(["9H", "KH", "TH"]):
        play(s, f"{(dealer + i) % 4} play {c}")
        order.append(s.current_player())
    assert order == [dealer, (dealer + 1) % 4, (dealer + 2) % 4, (dealer + 3) % 4]


def test_out_of_turn_action_refused() -> None:
    s = deal_state("classic", hands={"0": "9H 8S 9S KS", "1": "KH 7D 8D 9D",
                                     "2": "TH TS AS 7S", "3": "AH TD AD KD"})
    err = assert_illegal(s, "1 play KH", "turn")
    assert "seat 0" in err.reason


def test_seats_0_2_and_1_3_are_partners() -> None:
    r = make_rules("classic")
    assert [r.team_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert r.partnerships and r.num_teams == 2


# ----------------------------------------------------- trick goes to team's pile
def test_trick_cards_go_to_winners_team_pile() -> None:
    # 0:9H 1:7H 2:AH 3:KH: seat 2 wins (AH) -> all four cards to team 0 (seats 0+2),
    # points 0 + 0 + 11 + 4 = 15.
    s = deal_state("classic", hands={"0": "9H 8S 9S KS", "1": "7H 7D 8D 9D",
                                     "2": "AH TS AS 7S", "3": "KH TD AD KD"})
    play(s, "0 play 9H", "1 play 7H", "2 play AH", "3 play KH")
    assert sorted(map(str, s.piles[0])) == ["7H", "9H", "AH", "KH"]
    assert s.piles[1] == []
    assert s.tricks_won == [1, 0]
    assert s.view(None)["pile_sizes"] == [4, 0]


def test_face_down_cards_also_go_to_trick_winner_street() -> None:
    # Street: 1 (left of dealer 0) leads AH; 2 passes 6S face down; 3 beats? no: 3
    # passes 7S; 0 passes 8S. Seat 1 wins; all four cards, face-down ones included,
    # go to team 1: AH = 11 points.
    s = deal_state("street", hands={"0": "8S 9C TC JC", "1": "AH 6D 7D 8D",
                                    "2": "6S QC KC AC", "3": "7S 9D TD JD"},
                   stock=None, trump_card="6C")
    play(s, "1 play AH", "2 pass 6S", "3 pass 7S", "0 pass 8S")
    assert s.last_trick["winner"] == 1
    assert sorted(map(str, s.piles[1])) == ["6S", "7S", "8S", "AH"]
    assert s.tricks_won == [0, 1]


# ------------------------------------------------------------------- deal end
def test_deal_ends_when_stock_and_hands_empty() -> None:
    s = new_state("classic")
    s.apply_chance(KozelDeal.from_json(s.rules, script_deal(s, SWEEP, SWEEP_WINNERS)))
    assert play_tricks(s, SWEEP[:7]) == SWEEP_WINNERS[:7]
    assert s.stock == [] and all(len(h) == 1 for h in s.hands)
    assert s.deal_results == [] and not s.is_chance_node()
    play_tricks(s, SWEEP[7:])
    assert not any(s.hands) and s.stock == []
    assert len(s.deal_results) == 1 and s.deal_results[0]["ended_by"] == "cards-exhausted"
    assert s.is_chance_node()  # the next deal is due


def test_deal_points_counted_per_team() -> None:
    # EGGS: team 0 took 11+11+11+27... worked out in conftest: 60 and 60, 4 tricks each.
    s = play_scripted_deal(new_state("classic"), EGGS, EGGS_WINNERS)
    assert s.deal_results[0]["points"] == [60, 60]
    assert s.deal_results[0]["tricks"] == [4, 4]


def test_deal_points_counted_per_player_in_individual_play() -> None:
    s = play_scripted_deal(new_state("full-hand", players=3), THREE_WIN, THREE_WIN_WINNERS,
                           trump_card="9C")
    assert s.deal_results[0]["points"] == [75, 0, 45]
    assert s.penalty_total == [0, 2, 2]


# --------------------------------------------------------------------- the match
def shamok_deal(state, queen_team: int) -> None:
    """A classic deal ended at once by the shamok: the leader (dealer) leads AH, the
    next two seats (void in hearts) play QC and 7C; the team given plays QC."""
    lead = state.dealer
    a, b = (lead + 1) % 4, (lead + 2) % 4
    q, k = (a, b) if state.rules.team_of(a) == queen_team else (b, a)
    hands = {str(lead): "AH 8S 9S KS", str(q): "QC 7D 8D 9D",
             str(k): "7C 7S KD TD", str((lead + 3) % 4): "7H 8H 9H KH"}
    apply_deal(state, hands)
    play(state, f"{lead} play AH", f"{a} play {'QC' if a == q else '7C'}",
         f"{b} play {'QC' if b == q else '7C'}")


def test_match_lost_at_12_penalty_points() -> None:
    # Three shamok deals against team 1: 4, 8, 12 -> team 1 reaches 12 and loses at once.
    s = new_state("classic")
    for expected in ([0, 4], [0, 8]):
        shamok_deal(s, queen_team=1)
        assert s.penalty_total == expected and not s.is_terminal()
    shamok_deal(s, queen_team=1)
    assert s.penalty_total == [0, 12]
    assert s.is_terminal() and s.current_player() == TERMINAL
    assert s.result()["match_over"] is True and s.result()["loser_team"] == 1
    assert s.returns() == [1.0, -1.0, 1.0, -1.0]
    err = assert_illegal(s, "0 play AH", "game-over")
    assert "over" in err.reason


def test_match_ends_when_12_is_passed_and_not_before() -> None:
    # dealer 0: sweep by seat 0 -> team 1 +2 (2); dealer 1: shamok vs team 1 (6);
    # dealer 2: shamok vs team 1 (10: not over); dealer 3: shamok (14: over).
    s = new_state("classic")
    play_scripted_deal(s, SWEEP, SWEEP_WINNERS)
    assert s.penalty_total == [0, 2]
    shamok_deal(s, 1)
    shamok_deal(s, 1)
    assert s.penalty_total == [0, 10] and s.is_chance_node() and not s.match_over
    shamok_deal(s, 1)
    assert s.penalty_total == [0, 14] and s.is_terminal() and s.loser_team == 1


def test_no_deal_after_match_over() -> None:
    s = new_state("classic", options={"match_target": 4})
    shamok_deal(s, 0)
    assert s.is_terminal() and s.loser_team == 0
    with pytest.raises(GoatError) as info:
        s.sample_chance(random.Random(1))
    assert "\n" not in str(info.value)


# ------------------------------------------------------------------------ dealer
def test_dealer_passes_clockwise() -> None:
    # [decision] the deal passes clockwise after every deal.
    s = new_state("classic", first_dealer=2)
    dealers = [s.dealer]
    for _ in range(4):
        shamok_deal(s, queen_team=len(dealers) % 2)  # alternate who is penalised
        dealers.append(s.dealer)
    assert dealers == [2, 3, 0, 1, 2]
    assert [log["dealer"] for log in s.logs] == [2, 3, 0, 1]


def test_dealer_stays_with_next_dealer_same_option() -> None:
    s = new_state("classic", first_dealer=1, options={"next_dealer": "same"})
    shamok_deal(s, 0)
    shamok_deal(s, 1)
    assert s.dealer == 1


def test_first_dealer_is_a_parameter_of_the_match() -> None:
    # The first dealer is drawn by lot outside the engine (seeded RNG) and given here.
    for d in range(4):
        s = new_state("classic", first_dealer=d)
        s.apply_chance(s.sample_chance(random.Random(d)))
        assert s.dealer == d and s.current_player() == d  # classic: dealer leads
    with pytest.raises(GoatError) as info:
        new_state("classic", first_dealer=4)
    assert "first_dealer" in str(info.value)


# -------------------------------------------------------------------------- eggs
def test_60_60_gives_no_penalty() -> None:
    s = play_scripted_deal(new_state("classic"), EGGS, EGGS_WINNERS)
    assert s.deal_results[0] == {"points": [60, 60], "tricks": [4, 4], "penalty": [0, 0],
                                 "ended_by": "cards-exhausted", "winner_team": None}
    assert s.penalty_total == [0, 0]


def test_eggs_nothing_is_default() -> None:
    assert make_rules("classic").eggs == "nothing"
    # 60-60, then seat 1 (dealer 1) sweeps: team 0 gets the plain 2.
    s = play_scripted_deal(new_state("classic"), EGGS, EGGS_WINNERS)
    play_scripted_deal(s, rotated(SWEEP, 1), [1] * 8)
    assert s.deal_results[1]["penalty"] == [2, 0]


def test_eggs_double_next() -> None:
    # eggs="double-next": the 60-60 deal doubles the next decided deal only.
    s = new_state("classic", options={"eggs": "double-next"})
    play_scripted_deal(s, EGGS, EGGS_WINNERS)
    assert s.deal_results[0]["penalty"] == [0, 0]
    play_scripted_deal(s, rotated(SWEEP, 1), [1] * 8)   # team 1 wins 120-0: team 0 2 x 2
    assert s.deal_results[1]["penalty"] == [4, 0]
    play_scripted_deal(s, rotated(SWEEP, 2), [2] * 8)   # team 0 wins: team 1 2, not doubled
    assert s.deal_results[2]["penalty"] == [0, 2]
    assert s.penalty_total == [4, 2]
    # The engine marks both deals, the one place the sheet, page and terminal
    # read it from; the record's result keeps its contract's fields only.
    assert [d.get("eggs") for d in s.deal_results] == ["tie", "doubled", None]
    assert all("eggs" not in d for d in s.result()["deals"])
    assert [d.get("eggs") for d in s.view(0)["deal_results"]] == ["tie", "doubled", None]


def test_eggs_double_next_doubles_a_shamok_deal_too() -> None:
    # A deal the shamok ends is decided (it has a winner and a penalty): after a
    # 60-60 deal its 4 penalty points are doubled too.
    s = new_state("classic", options={"eggs": "double-next"})
    play_scripted_deal(s, EGGS, EGGS_WINNERS)
    apply_deal(s, {"1": "AH 8S 9S KS", "2": "QC 7D 8D 9D", "3": "7C 7S KD TD", "0": "7H 8H 9H KH"})
    play(s, "1 play AH", "2 play QC", "3 play 7C")   # QC by team 0, caught by team 1
    assert s.deal_results[1]["ended_by"] == "shamok-caught-queen"
    assert s.deal_results[1]["penalty"] == [8, 0] and s.deal_results[1]["eggs"] == "doubled"


def test_eggs_nothing_marks_no_deal() -> None:
    s = play_scripted_deal(new_state("classic"), EGGS, EGGS_WINNERS)
    play_scripted_deal(s, rotated(SWEEP, 1), [1] * 8)
    assert all("eggs" not in d for d in s.deal_results)


# ------------------------------------------------------------- option validation
@pytest.mark.parametrize("options, name", [
    ({"egg": "nothing"}, "egg"),
    ({"eggs": "triple"}, "eggs"),
    ({"trump_lead": "sometimes"}, "trump_lead"),
    ({"must_follow_trump": "yes"}, "must_follow_trump"),
    ({"shamok_catches_queen": 1}, "shamok_catches_queen"),
    ({"penalty": "flat3"}, "penalty"),
    ({"match_target": 0}, "match_target"),
    ({"match_target": "12"}, "match_target"),
    ({"partner_exchange": 2}, "partner_exchange"),
    ({"trump_suit": "X"}, "trump_suit"),
    ({"next_dealer": "anticlockwise"}, "next_dealer"),
    ({"trump_on_plain": "never"}, "trump_on_plain"),
])
def test_bad_option_is_one_line_rules_error(options: dict, name: str) -> None:
    with pytest.raises(RulesError) as info:
        make_rules("classic", options=options)
    message = str(info.value)
    assert name in message and "\n" not in message


@pytest.mark.parametrize("value", [36, 36.0])
def test_a_choice_given_as_a_number_is_told_to_be_a_string(value: object) -> None:
    """``deck=36`` from Python once read "deck=36 is not allowed (one of 24, 32, 36)":
    36 seemed to be among the choices. The choices are texts and the line says so."""
    with pytest.raises(RulesError, match=rf"^option deck must be a string, one of '24', '32', '36', not {value!r}$"):
        make_rules("classic", options={"deck": value})
    assert make_rules("classic", options={"deck": "36"}).deck == "36"


def test_a_choice_outside_the_list_names_the_choices_quoted() -> None:
    with pytest.raises(RulesError, match=r"^option deck='40' is not allowed \(one of '24', '32', '36'\)$"):
        make_rules("classic", options={"deck": "40"})


def test_unknown_ruleset_and_player_count_are_rules_errors() -> None:
    with pytest.raises(RulesError, match="ruleset"):
        make_rules("klassik")
    for preset, players in [("classic", 3), ("full-hand", 5), ("full-hand-24", 2), ("street", 2)]:
        with pytest.raises(RulesError) as info:
            make_rules(preset, players=players)
        assert str(players) in str(info.value) and "\n" not in str(info.value)
    with pytest.raises(RulesError):
        new_state("classic", options={"nope": True})


def test_every_preset_builds_and_option_override_applies() -> None:
    assert set(PRESETS) == {"classic", "full-hand", "full-hand-24", "street"}
    r = make_rules("classic", options={"eggs": "double-next", "trump_lead": "free"})
    assert (r.eggs, r.trump_lead) == ("double-next", "free")


def test_action_refusal_names_seat_action_and_rule() -> None:
    s = deal_state("classic", hands={"0": "9H 8S 9S KS", "1": "KH 7D 8D 9D",
                                     "2": "TH TS AS 7S", "3": "AH TD AD KD"})
    err = assert_illegal(s, "0 play AH", "card-in-hand")
    assert '"0 play AH"' in str(err) and "[card-in-hand]" in str(err)
    assert_illegal(s, Action(7, "play", (Card.parse("9H"),)), "seat")


@pytest.mark.parametrize("target", [0, -5, 2.5, True])
def test_match_target_below_one_is_one_line_naming_the_least(target: object) -> None:
    """0 and −5 get the same sentence (it once said "at least 1" for 0 and ">= 0" for −5)."""
    with pytest.raises(RulesError, match=rf"option match_target must be a whole number >= 1, not {target!r}"):
        make_rules("classic", options={"match_target": target})


@pytest.mark.parametrize("name, most, preset", [
    ("match_target", 100, "classic"), ("shamok_penalty", 100, "classic"),
    ("max_molodka_per_trick", 4, "street"),
])
def test_whole_number_options_have_a_sensible_upper_bound(name: str, most: int, preset: str) -> None:
    """A number that makes no sense (a target of 10**30: a match that never ends;
    it also overflowed the simulator's int64 parameters) is one line naming the
    option and its bound; the bound itself is accepted."""
    assert getattr(make_rules(preset, options={name: most}), name) == most
    for value in (most + 1, 10**30):
        with pytest.raises(RulesError, match=rf"^option {name}={value} is too large \(at most {most}: .+\)$"):
            make_rules(preset, options={name: value})


@pytest.mark.parametrize("preset, option, matters", [
    ("classic", "molodka", False),                 # street.py alone reads it
    ("classic", "max_molodka_per_trick", False),
    ("classic", "max_lead", False),                # a one-card trick leads one card
    ("classic", "must_follow_trump", True),
    ("street", "must_follow_trump", False),        # single.py's following only
    ("street", "forced_exchange", False),          # single.py's trump-lead swap only
    ("street", "molodka", True),
    ("street", "max_lead", True),
    ("street", "jack_order", False),
    ("full-hand-24", "shamok_catches_queen", False),   # no 7C in a 24-card deck
    ("classic", "trump_card_from", False),         # a fixed trump suit shows no card
    ("classic", "trump_lead", True),               # single.py's lead rule
    ("street", "trump_lead", False),               # street takes only "free": no choice is left
    ("classic", "permanent_trumps", True),
    ("street", "permanent_trumps", False),         # street tricks take none: no choice is left
])
def test_applies_says_whether_an_option_can_matter_under_the_presets_values(
        preset: str, option: str, matters: bool) -> None:
    """``applies`` answers from the rules' one table of dependencies, checked
    against the code that reads each option: the create form hides the rest."""
    assert make_rules(preset).applies(option) is matters


def test_classic_made_street_takes_the_free_trump_lead_street_forces() -> None:
    """Street tricks refuse every trump lead but "free", so classic's own
    ("previous-opener", the dataclass default too) gives way to "free", not to
    the default, once the player makes its tricks street: the create form hides
    the row and sends nothing, and the table is made. Street made single keeps
    its "free" (allowed there); a trump lead the player gives to street tricks is
    still refused in the same one line."""
    street = {"trick_style": "street", "permanent_trumps": False}
    made = make_rules("classic", options=street)
    assert made.trump_lead == "free" and not made.applies("trump_lead")
    assert make_rules("classic").applies("trump_lead", {"trick_style": "street"}) is False
    assert make_rules("street", options={"trick_style": "single", "permanent_trumps": True}).trump_lead == "free"
    for lead in ("previous-opener", "opening-only"):
        with pytest.raises(RulesError, match=r"^option trump_lead must be 'free' with trick_style='street' "
                                             r"\(street leads are sets of cards; no trump-lead rule applies\)$"):
            make_rules("classic", options=street | {"trump_lead": lead})


def test_classic_made_street_drops_the_permanent_trumps_street_forces_and_their_rows() -> None:
    """Street tricks refuse permanent trumps, so classic's (and full hand's) give
    way to False once the player makes the tricks street, and the options that
    need them (the jacks' order, the shamok's catch and its penalty) stop
    mattering too: the create form hides those rows and sends only the trick
    style. Street made single keeps its own False (allowed there), and the rows
    follow the value; permanent trumps the player gives to street tricks are
    still refused in the same one line."""
    for preset in ("classic", "full-hand"):
        made = make_rules(preset, options={"trick_style": "street"})
        assert made.permanent_trumps is False and made.trump_lead == "free" and not made.has_shamok
        assert not any(made.applies(key) for key in ("permanent_trumps", "jack_order", "shamok_catches_queen",
                                                     "shamok_penalty"))
        assert not make_rules(preset).applies("jack_order", {"trick_style": "street"})   # the form's live rows
    # street's own tricks given again move nothing (its catch stays off, not the default's on)
    assert make_rules("street", options={"trick_style": "street"}).options() == make_rules("street").options()
    single = make_rules("street", options={"trick_style": "single"})
    assert single.permanent_trumps is False and single.applies("permanent_trumps")
    assert not single.applies("jack_order") and single.applies("jack_order", {"permanent_trumps": True})
    with pytest.raises(RulesError, match=r"^option trick_style='street' needs permanent_trumps=false$"):
        make_rules("classic", options={"trick_style": "street", "permanent_trumps": True})


def test_applies_follows_the_values_given_and_street_molodka_gives_way_to_single_tricks() -> None:
    """An option comes to matter once the others take the values it needs (the
    form's live rows), and a preset's value that stops mattering because the
    player changed what it needs gives way: street made of one-card tricks with
    permanent trumps is a table (its molodka does not refuse it), and offers the
    jacks' order; a player's own molodka there is still refused."""
    classic, street = make_rules("classic"), make_rules("street")
    assert classic.applies("molodka", {"trick_style": "street"})
    assert not classic.applies("max_molodka_per_trick", {"trick_style": "street"})          # molodka still off
    assert classic.applies("max_molodka_per_trick", {"trick_style": "street", "molodka": True})
    assert street.applies("jack_order", {"trick_style": "single", "permanent_trumps": True})
    assert not street.applies("jack_order", {"permanent_trumps": True})       # street tricks take none
    single = make_rules("street", options={"trick_style": "single", "permanent_trumps": True})
    assert single.molodka is False and single.applies("jack_order") and not single.applies("molodka")
    assert make_rules("street", options={"penalty": "flat2"}).options() | {"penalty": "graded"} == street.options()
    with pytest.raises(RulesError, match="molodka needs trick_style='street'"):
        make_rules("street", options={"trick_style": "single", "permanent_trumps": True, "molodka": True})
