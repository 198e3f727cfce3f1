"""One test (at least) per rule, option and [decision] of "Ruleset classic" in
``shared/rules/kozel.md``. Every expected outcome is worked out by hand from
the rules text; the comments give the reasoning."""

from __future__ import annotations

import random

import pytest

from goat.cards import Card, parse_cards
from goat.games.kozel import KozelDeal, make_rules, new_state
from goat.games.kozel.trumps import trump_order
from goat.protocol import Action, InvalidChanceError

from .conftest import (EGGS, EGGS_WINNERS, SWEEP, SWEEP_WINNERS, apply_deal, assert_illegal,
                       deal_state, hand_of, legal_strings, play, play_scripted_deal, play_tricks,
                       rotated, script_deal)

CLASSIC_TRUMPS = "8C 9C KC TC AC JD JH JS JC QD QH QS QC 7C"


def cards(text: str) -> list[Card]:
    return list(parse_cards(text))


# ---------------------------------------------------------------- deck and trumps
def test_classic_four_players_32_cards_seven_to_ace() -> None:
    r = make_rules("classic")
    assert r.players == 4 and r.partnerships
    assert len(r.deck_cards) == 32
    assert {c.rank for c in r.deck_cards} == set("789TJQKA")


def test_classic_trump_order_lowest_to_highest() -> None:
    order = trump_order(True, "32", "C")
    assert " ".join(map(str, order.trumps)) == CLASSIC_TRUMPS
    assert len(order.trumps) == 14
    trumps = cards(CLASSIC_TRUMPS)
    for low, high in zip(trumps, trumps[1:]):  # each one beats the one below it
        assert order.beats(high, low) and not order.beats(low, high)


def test_shamok_is_the_highest_card() -> None:
    order = trump_order(True, "32", "C")
    seven = Card.parse("7C")
    for c in make_rules("classic").deck_cards:
        if c is not seven:
            assert order.beats(seven, c) and not order.beats(c, seven)


@pytest.mark.parametrize("suit", "SHD")
def test_classic_plain_suit_order_7_8_9_K_T_A_without_J_Q(suit: str) -> None:
    order = trump_order(True, "32", "C")
    plain = [c for c in make_rules("classic").deck_cards if c.suit == suit and not order.is_trump(c)]
    assert {str(c) for c in plain} == {r + suit for r in "789KTA"}
    ranked = cards(" ".join(r + suit for r in "789KTA"))
    for low, high in zip(ranked, ranked[1:]):
        assert order.beats(high, low) and not order.beats(low, high)
    assert order.is_trump(Card.parse("J" + suit)) and order.is_trump(Card.parse("Q" + suit))


def test_every_trump_beats_every_plain_card() -> None:
    order = trump_order(True, "32", "C")
    deck = make_rules("classic").deck_cards
    low_trump = Card.parse("8C")
    for c in deck:
        if not order.is_trump(c):
            assert order.beats(low_trump, c) and not order.beats(c, low_trump)


# ------------------------------------------------------------------------ deal
@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_classic_deal_4_each_stock_16_dealer_leads(dealer: int) -> None:
    s = new_state("classic", first_dealer=dealer)
    deal = s.sample_chance(random.Random(dealer))
    assert [len(h) for h in deal.hands] == [4, 4, 4, 4] and len(deal.stock) == 16
    assert set(deal.stock).union(*deal.hands) == set(s.rules.deck_cards)
    assert deal.trump_card is None  # trumps are permanent: no card is shown
    s.apply_chance(deal)
    assert s.current_player() == dealer  # "The dealer makes the first lead of the deal."
    assert s.view(None)["stock_size"] == 16


def test_classic_deal_with_wrong_sizes_is_invalid() -> None:
    with pytest.raises(InvalidChanceError, match="seat 0"):
        deal_state("classic", hands={"0": "7C 8C 9C", "1": "7D 8D 9D TD", "2": "7H 8H 9H TH",
                                     "3": "7S 8S 9S TS"})
    with pytest.raises(InvalidChanceError, match="6C"):
        deal_state("classic", hands={"0": "6C 8C 9C TC", "1": "7D 8D 9D TD",
                                     "2": "7H 8H 9H TH", "3": "7S 8S 9S TS"})


# ---------------------------------------------------------- rule 1: opening lead
def test_opening_lead_must_be_plain() -> None:
    # Dealer 0 holds 7C and JD (trumps) and 9H, 8S (plain): only the plain leads.
    s = deal_state("classic", hands={"0": "7C 9H 8S JD", "1": "7H 8H KH 7S",
                                     "2": "TH AH 9S KS", "3": "7D 8D 9D KD"})
    assert legal_strings(s) == {"0 play 9H", "0 play 8S"}
    err = assert_illegal(s, "0 play 7C", "trump-lead")
    assert "opening lead" in err.reason
    assert_illegal(s, "0 play JD", "trump-lead")   # a jack is a trump, not a diamond
    play(s, "0 play 8S")
    assert s.current_player() == 1


# -------------------------------------------------------- rule 2: trump_lead
def test_trump_lead_default_is_previous_opener() -> None:
    assert make_rules("classic").trump_lead == "previous-opener"


def test_trump_lead_first_deal_only_rule_1() -> None:
    # Deal 1, previous-opener: no team is restricted beyond rule 1. Seat 0 (team 0)
    # opens 9H, partner seat 2 wins with AH; team 0 may lead a trump at trick 2.
    s = deal_state("classic", hands={"0": "9H 8S 9S QD", "1": "7H 8D 9D KD",
                                     "2": "AH JC 7S KS", "3": "8H 7D TD AD"})
    play(s, "0 play 9H", "1 play 7H", "2 play AH", "3 play 8H")
    assert s.current_player() == 2
    assert s.is_legal(Action.parse("2 play JC"))


def _deal_two_after_team0_opened(option: str):
    """Deal 1 (dealer 0, opened by seat 0, team 0) is the 60-60 EGGS deal; deal 2 is
    dealt by seat 1 and seat 2 wins its first trick with AH."""
    s = new_state("classic", options={"trump_lead": option})
    play_scripted_deal(s, EGGS, EGGS_WINNERS)
    assert s.dealer == 1 and s.current_player() == -1
    apply_deal(s, {"0": "9H 7S TS AS", "1": "7H 8S 9S KS", "2": "AH QC 8D 9D", "3": "8H 7D TD AD"},
               stock="KH TH 8C 9C  TC JD KC AC  JS QS 7C QD JC QH JH KD")
    # T1: 1:7H 2:AH 3:8H 0:9H -> 2 (AH highest heart). Draws from 2: 2 KH, 3 TH, 0 8C, 1 9C.
    play(s, "1 play 7H", "2 play AH", "3 play 8H", "0 play 9H")
    assert s.current_player() == 2 and hand_of(s, 2) == {"QC", "8D", "9D", "KH"}
    return s


def test_trump_lead_previous_opener_bars_team_for_whole_deal() -> None:
    s = _deal_two_after_team0_opened("previous-opener")
    # Team 0 made the opening lead of deal 1: seat 2 may not lead QC, at trick 2 ...
    err = assert_illegal(s, "2 play QC", "trump-lead")
    assert "previous deal" in err.reason
    assert legal_strings(s) == {"2 play 8D", "2 play 9D", "2 play KH"}
    # T2: 2:8D 3:7D 0:7S 1:8S -> 2 (8D > 7D; spades never win). Draws: 2 TC, 3 JD, 0 KC, 1 AC.
    play(s, "2 play 8D", "3 play 7D", "0 play 7S", "1 play 8S")
    assert s.current_player() == 2 and hand_of(s, 2) == {"QC", "9D", "KH", "TC"}
    # ... and at trick 3.
    assert_illegal(s, "2 play QC", "trump-lead")
    assert_illegal(s, "2 play TC", "trump-lead")
    # T3: 2:9D 3:TD 0:AS 1:9S -> 3 (TD > 9D). Team 1 is not barred: 3 may lead JD.
    play(s, "2 play 9D", "3 play TD", "0 play AS", "1 play 9S")
    assert s.current_player() == 3 and "JD" in hand_of(s, 3)
    assert s.is_legal(Action.parse("3 play JD"))


# (not-after-own-lead cannot replay the EGGS deal 1: seat 0 leads 8C after leading
# trick 3; it has its own test below.)
@pytest.mark.parametrize("option, legal", [
    ("previous-opener", False),     # team 0 opened deal 1
    ("opening-only", True),         # only the opening lead must be plain
    ("free", True),
])
def test_trump_lead_option_table_at_trick_two_of_deal_two(option: str, legal: bool) -> None:
    s = _deal_two_after_team0_opened(option)
    assert s.is_legal(Action.parse("2 play QC")) is legal


def test_trump_lead_not_after_own_lead() -> None:
    # Round read as trick: a player may not lead a trump if their own team led the
    # previous trick. Stock in deck order: 7C 8C 9C TC QC KC AC JD TH JH QH KH TS JS QS AS.
    s = deal_state("classic", options={"trump_lead": "not-after-own-lead"},
                   hands={"0": "9H 8S 9S QD", "1": "7H 8D 9D KD",
                          "2": "AH JC 7S KS", "3": "8H 7D TD AD"})
    assert_illegal(s, "0 play QD", "trump-lead")  # rule 1 still holds
    # T1 0:9H 1:7H 2:AH 3:8H -> 2. Draws 2 7C, 3 8C, 0 9C, 1 TC.
    play(s, "0 play 9H", "1 play 7H", "2 play AH", "3 play 8H")
    # Partner seat 0 led trick 1: seat 2 may not lead a trump.
    err = assert_illegal(s, "2 play JC", "trump-lead")
    assert "previous trick" in err.reason
    assert legal_strings(s) == {"2 play 7S", "2 play KS"}
    # T2 2:7S 3:7D(void) 0:8S 1:TC(void, trumps in) -> 1. Draws 1 QC, 2 KC, 3 AC, 0 JD.
    play(s, "2 play 7S", "3 play 7D", "0 play 8S", "1 play TC")
    assert s.last_trick["winner"] == 1
    # Team 0 led trick 2, so seat 1 (team 1) may lead its trump QC.
    assert s.is_legal(Action.parse("1 play QC"))
    # T3 1:8D 2:KS(void) 3:AD 0:9S(void: QD, JD are trumps) -> 3. Draws 3 TH, 0 JH, 1 QH, 2 KH.
    play(s, "1 play 8D", "2 play KS", "3 play AD", "0 play 9S")
    assert s.last_trick["winner"] == 3
    # Partner seat 1 led trick 3: seat 3 may not lead AC or 8C.
    assert_illegal(s, "3 play AC", "trump-lead")
    assert legal_strings(s) == {"3 play TD", "3 play TH"}


def test_trump_lead_opening_only() -> None:
    s = deal_state("classic", options={"trump_lead": "opening-only"},
                   hands={"0": "9H 8S 9S QD", "1": "7H 8D 9D KD",
                          "2": "AH JC 7S KS", "3": "8H 7D TD AD"})
    assert_illegal(s, "0 play QD", "trump-lead")  # rule 1
    play(s, "0 play 9H", "1 play 7H", "2 play AH", "3 play 8H")
    # Seat 2's partner led trick 1; under opening-only that does not matter.
    assert s.is_legal(Action.parse("2 play JC"))


def test_trump_lead_free() -> None:
    # "free": no restriction, not even rule 1; a hand of only trumps just leads one.
    s = deal_state("classic", options={"trump_lead": "free"},
                   hands={"0": "7C QD JD 8C", "1": "7H 8H KH 7S", "2": "TH AH 9S KS",
                          "3": "7D 8D 9D KD"})
    assert legal_strings(s) == {"0 play 7C", "0 play QD", "0 play JD", "0 play 8C"}
    play(s, "0 play JD")
    assert s.trick[0].cards == (Card.parse("JD"),)


# ------------------------------------------------------ rule 3: forced exchange
def test_forced_exchange_leader_gives_trump_partner_returns_plain() -> None:
    # Dealer 0 must open with a plain card but holds only trumps: they give one trump
    # to seat 2, seat 2 gives back a plain card of their choice, seat 0 leads it.
    s = deal_state("classic", hands={"0": "7C QC JD 8C", "1": "7H 8H 9H KH",
                                     "2": "JH 9S TS AS", "3": "7D 8D 9D KD"})
    assert legal_strings(s) == {"0 give 7C", "0 give QC", "0 give JD", "0 give 8C"}
    err = assert_illegal(s, "0 play 8C", "forced-exchange")
    assert "only trumps" in err.reason
    play(s, "0 give JD")
    assert s.current_player() == 2
    assert hand_of(s, 0) == {"7C", "QC", "8C"} and hand_of(s, 2) == {"JH", "JD", "9S", "TS", "AS"}
    assert legal_strings(s) == {"2 give 9S", "2 give TS", "2 give AS"}  # partner's choice
    assert_illegal(s, "2 give JH", "forced-exchange")   # a trump cannot go back
    assert_illegal(s, "2 give JD", "forced-exchange")
    assert_illegal(s, "2 play 9S", "verb")
    assert_illegal(s, "1 give 7H", "turn")
    play(s, "2 give TS")
    assert s.current_player() == 0 and hand_of(s, 0) == {"7C", "QC", "8C", "TS"}
    assert legal_strings(s) == {"0 play TS"}   # the leader leads that plain card
    err = assert_illegal(s, "0 play 7C", "forced-exchange")
    assert "TS" in err.reason
    play(s, "0 play TS")
    assert s.current_player() == 1
    # The exchange is in the record: two give actions, the leader's first.
    assert s.deal_log()[0]["actions"] == ["0 give JD", "2 give TS", "0 play TS"]


def test_forced_exchange_cards_seen_only_by_giver_and_receiver() -> None:
    s = deal_state("classic", hands={"0": "7C QC JD 8C", "1": "7H 8H 9H KH",
                                     "2": "JH 9S TS AS", "3": "7D 8D 9D KD"})
    play(s, "0 give JD", "2 give TS")
    for seat in (0, 2):
        assert s.view(seat)["history"] == ["0 give JD", "2 give TS"]
    for seat in (1, 3, None):
        assert s.view(seat)["history"] == ["0 give ?", "2 give ?"]


def test_forced_exchange_without_partner_plain_card_leads_trump() -> None:
    # Partner seat 2 holds only trumps: no exchange, seat 0 may lead any trump.
    s = deal_state("classic", hands={"0": "7C QC JD 8C", "1": "7H 8H 9H KH",
                                     "2": "JH QH 9C KC", "3": "7D 8D 9D KD"})
    assert legal_strings(s) == {"0 play 7C", "0 play QC", "0 play JD", "0 play 8C"}
    assert_illegal(s, "0 give JD", "forced-exchange")
    play(s, "0 play 8C")
    # Trump led: seat 1 holds no trump and may play anything.
    assert legal_strings(s) == {"1 play 7H", "1 play 8H", "1 play 9H", "1 play KH"}


def test_forced_exchange_not_when_plain_card_held() -> None:
    s = deal_state("classic", hands={"0": "7C QC JD 9H", "1": "7H 8H TH KH",
                                     "2": "JH 9S TS AS", "3": "7D 8D 9D KD"})
    assert legal_strings(s) == {"0 play 9H"}
    assert_illegal(s, "0 give JD", "forced-exchange")


# ------------------------------------------------------------ rule 4: following
def _follow_state():
    return deal_state("classic", hands={"0": "9H 8S 7D AD", "1": "KH JH 7S 8C",
                                        "2": "QH 9S TS AS", "3": "7H TH QD KS"})


def test_follow_plain_suit() -> None:
    s = _follow_state()
    play(s, "0 play 9H")
    # Seat 1 holds KH (a plain heart) and JH (a trump): must play KH.
    assert legal_strings(s) == {"1 play KH"}
    err = assert_illegal(s, "1 play 7S", "follow-suit")
    assert "hearts" in err.reason and "KH" in err.reason
    assert_illegal(s, "1 play JH", "follow-suit")   # JH does not follow hearts
    assert_illegal(s, "1 play 8C", "follow-suit")   # no obligation to trump, nor right to
    play(s, "1 play KH")
    # Seat 2 holds QH only, a trump: void in plain hearts, may play anything.
    assert legal_strings(s) == {"2 play QH", "2 play 9S", "2 play TS", "2 play AS"}


def test_no_obligation_to_trump() -> None:
    s = _follow_state()
    play(s, "0 play 9H", "1 play KH", "2 play 9S")   # 2 discards instead of trumping
    assert legal_strings(s) == {"3 play 7H", "3 play TH"}
    play(s, "3 play TH")
    # Hearts 9H KH TH, 9S off-suit: TH is highest (7 8 9 K T A) -> seat 3.
    assert s.last_trick["winner"] == 3 and s.view(None)["pile_points"] == [0, 14]


@pytest.mark.parametrize("must_follow, expected", [
    (True, {"1 play JH"}),
    (False, {"1 play JH", "1 play 7H", "1 play 8H", "1 play 9S"}),
])
def test_must_follow_trump_option(must_follow: bool, expected: set[str]) -> None:
    # [decision] a trump lead is followed with a trump (default true).
    assert make_rules("classic").must_follow_trump is True
    s = deal_state("classic", options={"trump_lead": "free", "must_follow_trump": must_follow},
                   hands={"0": "8C 9H 8S 7D", "1": "JH 7H 8H 9S",
                          "2": "TH AH TS KS", "3": "7S 8D 9D KD"})
    play(s, "0 play 8C")   # 8C is a trump: clubs are all trumps in classic
    assert legal_strings(s) == expected
    if must_follow:
        err = assert_illegal(s, "1 play 7H", "follow-suit")
        assert "trumps" in err.reason and "JH" in err.reason


def test_trump_lead_followed_by_any_trump_incl_clubs_jacks_queens() -> None:
    s = deal_state("classic", options={"trump_lead": "free"},
                   hands={"0": "8C 9H 8S 7D", "1": "AC QS 7H 9S",
                          "2": "TH AH TS KS", "3": "7S 8D 9D KD"})
    play(s, "0 play 8C")
    assert legal_strings(s) == {"1 play AC", "1 play QS"}


# ------------------------------------------------------------ rule 5: winner
def _one_trick(plays: str, options: dict | None = None):
    """A first trick: every seat holds its card and three fillers that are not of
    the led (effective) suit, so the scripted plays are legal."""
    order = trump_order(True, "32", "C")
    items = [p.split(":") for p in plays.split()]
    played = {Card.parse(c) for _, c in items}
    led = order.suit_of(Card.parse(items[0][1]))
    fillers = [c for c in make_rules("classic").deck_cards
               if c not in played and order.suit_of(c) != led and str(c) not in ("7C", "QC")]
    hands = {}
    for i, (seat, c) in enumerate(items):
        hands[seat] = [c] + [str(f) for f in fillers[3 * i:3 * i + 3]]
    s = deal_state("classic", hands=hands, options={"trump_lead": "free", **(options or {})})
    play(s, *(f"{seat} play {c}" for seat, c in items))
    return s


@pytest.mark.parametrize("plays, winner", [
    ("0:9H 1:AS 2:KH 3:7H", 2),   # no trump: highest heart KH; AS of another suit never wins
    ("0:KH 1:TH 2:9H 3:AH", 3),   # plain order 7 8 9 K T A
    ("0:KH 1:TH 2:AD 3:9H", 1),   # TH > KH; AD off-suit
    ("0:TH 1:KH 2:8C 3:AH", 2),   # the lowest trump 8C beats AH
    ("0:AS 1:JD 2:QD 3:JC", 2),   # any queen above any jack
    ("0:AC 1:JD 2:KC 3:TC", 1),   # any jack above all clubs
    ("0:JS 1:JC 2:JH 3:JD", 1),   # jacks C > S > H > D
    ("0:QH 1:QS 2:QD 3:JC", 1),   # queens C > S > H > D (QS highest here)
    ("0:8C 1:9C 2:KC 3:TC", 3),   # clubs 8 9 K T A
    ("0:7S 1:8S 2:9S 3:KS", 3),
    ("0:9D 1:8S 2:7H 3:8D", 0),   # nobody follows higher: the leader wins
])
def test_trick_winner_highest_trump_else_highest_of_led_suit(plays: str, winner: int) -> None:
    s = _one_trick(plays)
    assert s.last_trick["winner"] == winner
    assert s.current_player() == winner       # the trick winner leads the next trick
    assert len(s.piles[winner % 2]) == 4


def test_shamok_wins_trick_when_catching_rule_off() -> None:
    s = _one_trick("0:9D 1:QC 2:7C 3:AD", {"shamok_catches_queen": False})
    assert s.last_trick["winner"] == 2 and not s.deal_results
    assert s.view(None)["pile_points"] == [3 + 11, 0]  # 9D 0 + QC 3 + 7C 0 + AD 11


# ------------------------------------------------------------ rule 6: drawing
def test_draw_after_trick_winner_first_clockwise() -> None:
    s = deal_state("classic", hands={"0": "9H 8S 7D AD", "1": "7H 7S 9D TD",
                                     "2": "AH KH 8C JD", "3": "8H AS KD QD"},
                   stock="KS TS 9S 8D 7C 9C TC JC QC KC AC TH JH QH JS QS")
    play(s, "0 play 9H", "1 play 7H", "2 play AH", "3 play 8H")   # AH -> seat 2
    # Seat 2 draws first (KS), then 3 (TS), 0 (9S), 1 (8D).
    assert "KS" in hand_of(s, 2) and "TS" in hand_of(s, 3)
    assert "9S" in hand_of(s, 0) and "8D" in hand_of(s, 1)
    assert [len(h) for h in s.hands] == [4, 4, 4, 4]
    assert [str(c) for c in s.stock[:2]] == ["7C", "9C"] and len(s.stock) == 12
    assert s.current_player() == 2


def test_classic_deal_has_8_tricks() -> None:
    s = new_state("classic")
    s.apply_chance(KozelDeal.from_json(s.rules, script_deal(s, SWEEP, SWEEP_WINNERS)))
    play_tricks(s, SWEEP[:4])
    # 16 stock cards, 4 draws a trick: the stock is empty after trick 4, hands full.
    assert s.stock == [] and [len(h) for h in s.hands] == [4, 4, 4, 4]
    play_tricks(s, SWEEP[4:5])
    assert [len(h) for h in s.hands] == [3, 3, 3, 3]   # no draw while the stock is empty
    play_tricks(s, SWEEP[5:])
    assert s.tricks_played == 8 and s.deal_results[0]["tricks"] == [8, 0]
    assert not any(s.hands) and s.stock == []


# -------------------------------------------------------------------- shamok
def _shamok_hands():
    return {"0": "AH 8S 9S KS", "1": "QC 7D 8D 9D", "2": "7C 7S KD TD", "3": "7H 8H 9H KH"}


@pytest.mark.parametrize("order", ["queen-first", "shamok-first"])
def test_shamok_catches_queen_ends_deal_with_4_penalty(order: str) -> None:
    hands = _shamok_hands()
    if order == "shamok-first":   # seats 1 and 2 swap: 7C by team 1, QC by team 0
        hands["1"], hands["2"] = hands["2"], hands["1"]
    s = deal_state("classic", hands=hands)
    first, second = ("QC", "7C") if order == "queen-first" else ("7C", "QC")
    play(s, "0 play AH", f"1 play {first}")
    assert not s.deal_results
    play(s, f"2 play {second}")   # ends at once, seat 3 never plays
    queen_team = 1 if order == "queen-first" else 0
    result = s.deal_results[0]
    assert result["ended_by"] == "shamok-caught-queen"
    assert result["penalty"] == ([0, 4] if queen_team == 1 else [4, 0])
    assert result["winner_team"] == 1 - queen_team
    assert result["points"] == [0, 0]            # trick points are not counted
    assert s.is_chance_node() and s.dealer == 1   # next deal, next dealer
    assert make_rules("classic").shamok_catches_queen is True


def test_shamok_catches_queen_later_trick_points_not_counted() -> None:
    # T1 0:AH 1:7H 2:TH 3:KH -> 0 (team 0: 25 points). T2: 0 leads QC (trick 2, deal 1:
    # allowed), 1 must follow trumps with 7C -> caught: team 0 gets 4, the 25 points vanish.
    s = deal_state("classic", hands={"0": "AH QC 9S KS", "1": "7H 7C 8D 9D",
                                     "2": "TH 7S KD TD", "3": "KH 8H 9H AS"},
                   stock="8S TS 8C 9C" + " TC JC KC AC JD QD 7D AD JH QH JS QS")
    play(s, "0 play AH", "1 play 7H", "2 play TH", "3 play KH")
    assert s.view(None)["pile_points"] == [25, 0]
    play(s, "0 play QC", "1 play 7C")
    assert s.deal_results[0]["penalty"] == [4, 0]
    assert s.deal_results[0]["ended_by"] == "shamok-caught-queen"


def test_shamok_same_team_does_not_end_deal() -> None:
    # 7C by seat 1, QC by its partner seat 3: same team, play goes on; 7C wins.
    s = deal_state("classic", hands={"0": "AH 8S 9S KS", "1": "7C 7D 8D 9D",
                                     "2": "7H 7S KD TD", "3": "QC TS AS JS"})
    play(s, "0 play AH", "1 play 7C", "2 play 7H", "3 play QC")
    assert not s.deal_results
    assert s.last_trick["winner"] == 1 and s.view(None)["pile_points"] == [0, 11 + 3]


def test_shamok_option_off_does_not_end_deal() -> None:
    s = deal_state("classic", hands=_shamok_hands(), options={"shamok_catches_queen": False})
    play(s, "0 play AH", "1 play QC", "2 play 7C", "3 play 7H")
    assert not s.deal_results and s.last_trick["winner"] == 2


def test_shamok_caught_in_a_deals_first_trick_its_player_leads_next_with_last_trick_winner() -> None:
    """With ``opening_leader="last-trick-winner"`` a shamok deal's last trick is the
    catching one, won by 7C (nothing beats it) although it stops there: the
    shamok's player leads the next deal, not the previous deal's last winner."""
    options = {"opening_leader": "last-trick-winner"}
    s = new_state("classic", options=options, first_dealer=3)   # the first deal: seat 0 leads
    play_scripted_deal(s, SWEEP, SWEEP_WINNERS)                  # seat 0 wins the last trick
    assert s.is_chance_node() and s.dealer == 0
    apply_deal(s, _shamok_hands())
    assert s.current_player() == 0                               # deal 1's last trick winner
    play(s, "0 play AH", "1 play QC", "2 play 7C")               # caught in trick 1 by seat 2
    assert s.deal_results[-1]["ended_by"] == "shamok-caught-queen" and s.dealer == 1
    apply_deal(s, {"0": "AH 8S 9S KS", "1": "7D 8D 9D TD", "2": "7S KD AD QC", "3": "7H 8H 9H KH"})
    assert s.current_player() == 2


def test_shamok_caught_in_a_later_trick_its_player_leads_next_with_last_trick_winner() -> None:
    # T1 won by seat 0; T2 0:QC 1:7C is the catch: seat 1 won the deal's last trick.
    s = deal_state("classic", hands={"0": "AH QC 9S KS", "1": "7H 7C 8D 9D",
                                     "2": "TH 7S KD TD", "3": "KH 8H 9H AS"},
                   stock="8S TS 8C 9C" + " TC JC KC AC JD QD 7D AD JH QH JS QS",
                   dealer=3, options={"opening_leader": "last-trick-winner"})
    play(s, "0 play AH", "1 play 7H", "2 play TH", "3 play KH", "0 play QC", "1 play 7C")
    assert s.deal_results[0]["ended_by"] == "shamok-caught-queen"
    apply_deal(s, _shamok_hands())
    assert s.current_player() == 1


# --------------------------------------------------------------- deal result
def test_flat2_penalty() -> None:
    # SWEEP: team 0 takes all 120 points and 8 tricks. Flat: the loser gets exactly 2,
    # even with no trick (graded would give 6).
    assert make_rules("classic").penalty == "flat2"
    s = play_scripted_deal(new_state("classic"), SWEEP, SWEEP_WINNERS)
    assert s.deal_results[0] == {"points": [120, 0], "tricks": [8, 0], "penalty": [0, 2],
                                 "ended_by": "cards-exhausted", "winner_team": 0}
    assert s.penalty_total == [0, 2]


def test_graded_penalty_option_on_classic() -> None:
    s = play_scripted_deal(new_state("classic", options={"penalty": "graded"}), SWEEP, SWEEP_WINNERS)
    assert s.deal_results[0]["penalty"] == [0, 6]   # no trick at all: 6


def test_flat2_penalty_for_either_team() -> None:
    # The sweep rotated by one seat: seat 1 deals, leads and wins all: team 0 gets 2.
    s = new_state("classic", first_dealer=1)
    play_scripted_deal(s, rotated(SWEEP, 1), [1] * 8)
    assert s.deal_results[0]["points"] == [0, 120] and s.deal_results[0]["penalty"] == [2, 0]


def test_60_60_no_penalty_in_classic() -> None:
    s = play_scripted_deal(new_state("classic"), EGGS, EGGS_WINNERS)
    assert s.deal_results[0]["penalty"] == [0, 0]
    assert s.deal_results[0]["ended_by"] == "cards-exhausted"   # not annulled in classic
    assert s.dealer == 1


def test_classic_has_no_royal_goat() -> None:
    s = deal_state("classic", hands={"0": "AC AD AH AS", "1": "7H 8H 9H KH",
                                     "2": "7S 8S 9S KS", "3": "7D 8D 9D KD"})
    assert not s.deal_results and s.current_player() == 0
