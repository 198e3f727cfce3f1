"""One test (at least) per rule, option and [decision] of "Ruleset full-hand"
(and its variant full-hand-24) in ``shared/rules/kozel.md``. Expected outcomes
are worked out by hand from the rules text; the comments give the reasoning."""

from __future__ import annotations

import random
from typing import Any

import pytest

from goat.cards import Card
from goat.games.kozel import KozelDeal, make_rules, new_state
from goat.games.kozel.trumps import trump_order
from goat.protocol import TERMINAL, InvalidChanceError, RulesError

from .conftest import (EGGS, EGGS_WINNERS, SWEEP, SWEEP_WINNERS, THREE_NO_WINNER,
                       THREE_NO_WINNER_WINNERS, THREE_WIN, THREE_WIN_WINNERS, assert_illegal, deal_state, hand_of, legal_strings, play,
                       play_scripted_deal, rotated, script_deal)

NO_EXCHANGE = {"partner_exchange": 0}

#: Full-hand deal, 8 cards each, used with the trump card 9H (hearts trump).
HEARTS_HANDS = {"0": "AS 8S 9S KS TS 7D 8D 9D", "1": "7H 8H 9H KH TH AH 8C 9C",
                "2": "7S AD KD TD JD JH JS JC", "3": "QD QH QS QC 7C TC KC AC"}


# ------------------------------------------------------------------ the deal
def test_full_hand_deals_all_32_cards_8_each_no_stock() -> None:
    r = make_rules("full-hand")
    assert (r.players, r.deck, r.hand_size, r.stock_size) == (4, "32", 8, 0)
    s = new_state("full-hand")
    deal = s.sample_chance(random.Random(3))
    assert [len(h) for h in deal.hands] == [8] * 4 and deal.stock == ()
    assert set().union(*deal.hands) == set(r.deck_cards)


def test_full_hand_same_points_deck_sums_120() -> None:
    from goat.games.kozel.scoring import card_points
    assert card_points(make_rules("full-hand").deck_cards) == 120


# ------------------------------------------------------------------ trump suit
def test_full_hand_trump_suit_from_drawn_card() -> None:
    # Trump card 9H: hearts are trumps under the permanent ones.
    s = deal_state("full-hand", hands=HEARTS_HANDS, trump_card="9H", options=NO_EXCHANGE)
    assert " ".join(map(str, s.order.trumps)) == "7H 8H 9H KH TH AH JD JH JS JC QD QH QS QC 7C"
    for seat in (None, 0, 1, 2, 3):   # the shown card is public
        assert s.view(seat)["trump_card"] == "9H" and s.view(seat)["trump_suit"] == "H"
    # T1 0:AS, 1 (void in spades) plays 7H: the lowest heart is a trump and wins.
    play(s, "0 play AS")
    play(s, "1 play 7H")
    assert legal_strings(s) == {"2 play 7S"}   # JS is a trump, 7S the only plain spade
    play(s, "2 play 7S")
    assert "3 play TC" in legal_strings(s)     # QS is a trump: seat 3 is void in spades
    play(s, "3 play TC")
    assert s.last_trick["winner"] == 1


def test_full_hand_clubs_plain_when_trump_is_hearts() -> None:
    s = deal_state("full-hand", hands=HEARTS_HANDS, trump_card="9H", options=NO_EXCHANGE)
    play(s, "0 play AS", "1 play 7H", "2 play 7S", "3 play TC")   # -> 1, as above
    play(s, "1 play 8C")   # a plain club
    # Seat 2's only club is JC, a permanent trump: void in clubs, free.
    assert len(legal_strings(s)) == 7
    play(s, "2 play AD")
    # Seat 3 holds plain KC AC and the trumps 7C, QC: must follow with KC or AC.
    assert legal_strings(s) == {"3 play KC", "3 play AC"}
    err = assert_illegal(s, "3 play 7C", "follow-suit")
    assert "clubs" in err.reason
    assert_illegal(s, "3 play QC", "follow-suit")
    play(s, "3 play AC", "0 play 7D")
    # Clubs plain, 8 9 K T A: AC wins; AD of another suit never wins.
    assert s.last_trick["winner"] == 3


def test_full_hand_opening_lead_plain_under_drawn_suit() -> None:
    # Dealer 1 holds six hearts (trumps now) and 8C 9C (plain): only clubs may open.
    s = deal_state("full-hand", hands=HEARTS_HANDS, trump_card="9H", dealer=1, options=NO_EXCHANGE)
    assert s.current_player() == 1
    assert legal_strings(s) == {"1 play 8C", "1 play 9C"}
    assert_illegal(s, "1 play AH", "trump-lead")


@pytest.mark.parametrize("suit, expected", [
    ("C", "8C 9C KC TC AC JD JH JS JC QD QH QS QC 7C"),   # exactly the classic order
    ("D", "7D 8D 9D KD TD AD JD JH JS JC QD QH QS QC 7C"),
    ("H", "7H 8H 9H KH TH AH JD JH JS JC QD QH QS QC 7C"),
    ("S", "7S 8S 9S KS TS AS JD JH JS JC QD QH QS QC 7C"),
])
def test_full_hand_trump_order_per_suit(suit: str, expected: str) -> None:
    order = trump_order(True, "32", suit)
    assert " ".join(map(str, order.trumps)) == expected
    # Clubs other than 7C, JC, QC are plain when the trump suit is not clubs.
    assert order.is_trump(Card.parse("AC")) is (suit == "C")
    assert order.is_trump(Card.parse("7C")) and order.is_trump(Card.parse("JC"))


def test_fixed_trump_suit_clubs_is_classic() -> None:
    r = make_rules("full-hand", options={"trump_suit": "C"})
    assert r.trump_suit == "C"
    assert trump_order(r.permanent_trumps, r.deck, "C").trumps == trump_order(True, "32", "C").trumps


@pytest.mark.parametrize("suit", "CDHS")
def test_jacks_ranked_like_queens_c_s_h_d(suit: str) -> None:
    # [decision] jacks and queens both rank C > S > H > D.
    order = trump_order(True, "32", suit)
    names = [str(c) for c in order.trumps]
    assert [n for n in names if n[0] == "J"] == ["JD", "JH", "JS", "JC"]
    assert [n for n in names if n[0] == "Q"] == ["QD", "QH", "QS", "QC"]
    js, jc, jh = Card.parse("JS"), Card.parse("JC"), Card.parse("JH")
    assert order.beats(jc, js) and order.beats(js, jh)   # not spades-high


@pytest.mark.parametrize("preset", ["full-hand", "classic"])
def test_jack_order_option_spades_high_puts_the_jack_of_spades_on_top(preset: str) -> None:
    """[decision, option ``jack_order``] The full-hand text ranks the jack of spades
    above the red jacks, hearts above diamonds, and does not place the clubs:
    ``"spades-high"`` reads it as JD JH JC JS. A whole deal's trick winners and
    the rules panel's facts follow the option; the queens keep C > S > H > D."""
    from goat.games.kozel.facts import rules_facts

    rules = make_rules(preset, options={"jack_order": "spades-high"})
    state = new_state(rules)
    state.apply_chance(state.sample_chance(random.Random(3)))
    js, jc, jh, qd = (Card.parse(t) for t in ("JS", "JC", "JH", "QD"))
    assert state.order.beats(js, jc) and state.order.beats(jc, jh) and state.order.beats(qd, js)
    names = [str(c) for c in state.order.trumps]
    assert [n for n in names if n[0] == "J"] == ["JD", "JH", "JC", "JS"]
    assert [n for n in names if n[0] == "Q"] == ["QD", "QH", "QS", "QC"]
    facts = rules_facts(rules)["trump_orders"]
    assert all(order["trumps"].index("JS") > order["trumps"].index("JC") for order in facts.values())
    # a trick with both jacks: the jack of spades takes it (the default gives it to the clubs)
    hands = {"0": "JS 7D 8D 9D TD KD AD QD", "1": "JC 7S 8S 9S TS KS AS QS",
             "2": "7H 8H 9H TH KH AH QH JH", "3": "JD 8C 9C TC KC AC QC 7C"}
    for jack_order, winner in (("spades-high", 0), ("clubs-high", 1)):
        r = make_rules("full-hand", options={"jack_order": jack_order, "partner_exchange": 0,
                                             "trump_lead": "free"})
        s = new_state(r)
        s.apply_chance(KozelDeal.from_json(r, {"dealer": 0, "trump_card": "8H",
                                               "hands": {k: v.split() for k, v in hands.items()}}))
        for seat, card in enumerate(("JS", "JC", "7H", "JD")):
            s.apply_action(next(a for a in s.legal_actions() if str(a) == f"{seat} play {card}"))
        assert s.view(None)["last_trick"]["winner"] == winner


#: Hearts trump (trump card 8H): seat 1 holds the spade 7S, the trumps 7H 8H and
#: plain diamonds and clubs, so on seat 0's AS it may follow, trump or discard.
TRUMP_ON_PLAIN_HANDS = {"0": "AS 8S 9S KS TS 7D 8D 9D", "1": "7S 7H 8H KD AD TD 8C 9C",
                        "2": "9H TH KH AH JH QH JD QD", "3": "JS QS 7C TC KC AC JC QC"}


@pytest.mark.parametrize("trump_on_plain, seat1", [
    ("when-void", {"1 play 7S"}),
    ("always", {"1 play 7S", "1 play 7H", "1 play 8H"}),
])
def test_trump_on_plain_option_a_player_holding_the_led_suit_may_trump_only_under_always(
        trump_on_plain: str, seat1: set[str]) -> None:
    """[decision, option ``trump_on_plain``] The full-hand text: players follow the
    first player's suit "but may also discard or cover with a trump", and trumps
    "may be played to the trick whatever suit is led". Under ``"always"`` a player
    holding the led suit may follow it or trump; under ``"when-void"`` (default,
    the rules file's following) only follow. A plain discard while holding the
    suit is illegal under both; the winner is the highest trump either way."""
    assert make_rules("full-hand").trump_on_plain == "when-void" == make_rules("classic").trump_on_plain
    s = deal_state("full-hand", hands=TRUMP_ON_PLAIN_HANDS, trump_card="8H",
                   options={**NO_EXCHANGE, "trump_lead": "free", "trump_on_plain": trump_on_plain})
    play(s, "0 play AS")
    assert legal_strings(s) == seat1
    err = assert_illegal(s, "1 play KD", "follow-suit")   # another plain suit: only when void
    assert "spades" in err.reason
    if trump_on_plain == "when-void":
        assert_illegal(s, "1 play 8H", "follow-suit")
        return
    assert "trump" in err.reason
    # 1 trumps although it holds 7S; 2 overtrumps; 3, void in plain spades, discards
    play(s, "1 play 8H", "2 play 9H", "3 play TC")
    assert s.last_trick["winner"] == 2 and s.view(None)["pile_points"] == [21, 0]


def test_drawn_trump_card_is_random_in_deck_and_shuffled_back() -> None:
    r = make_rules("full-hand")
    suits = set()
    for seed in range(40):
        s = new_state("full-hand")
        deal = s.sample_chance(random.Random(seed))
        assert deal.trump_card in r.deck_cards
        assert any(deal.trump_card in h for h in deal.hands)   # back in the deck, dealt
        s.apply_chance(deal)
        assert s.order.trump_suit == deal.trump_card.suit
        suits.add(deal.trump_card.suit)
    assert suits == set("CDHS")


def test_full_hand_deal_needs_a_trump_card() -> None:
    s = new_state("full-hand")
    obj = script_deal(s, SWEEP, SWEEP_WINNERS)   # no trump_card
    with pytest.raises(InvalidChanceError, match="trump_card"):
        KozelDeal.from_json(s.rules, obj)


# ------------------------------------------------------------ leading/following
def test_full_hand_shamok_catches_queen() -> None:
    s = deal_state("full-hand", trump_card="9C", options=NO_EXCHANGE,
                   hands={"0": "AH 8H 9H KH TH 7S 8S 9S", "1": "QC 7D 8D 9D KD TD AD JD",
                          "2": "7C TS AS KS QS JS JC 8C", "3": "7H JH QH QD 9C TC KC AC"})
    play(s, "0 play AH", "1 play QC", "2 play 7C")   # void in hearts both: caught
    assert s.deal_results[0]["ended_by"] == "shamok-caught-queen"
    assert s.deal_results[0]["penalty"] == [0, 4]


def test_full_hand_forced_exchange() -> None:
    # Dealer 0 holds eight trumps: gives one to seat 2, gets a plain card back, leads it.
    s = deal_state("full-hand", trump_card="9C", options=NO_EXCHANGE,
                   hands={"0": "7C QC QS QH QD JC JS JH", "1": "7H 8H 9H KH TH AH 8C 9C",
                          "2": "7S 8S 9S KS TS AS JD TC", "3": "7D 8D 9D KD TD AD KC AC"})
    assert legal_strings(s) == {f"0 give {c}" for c in "7C QC QS QH QD JC JS JH".split()}
    play(s, "0 give QD")
    assert legal_strings(s) == {f"2 give {c}" for c in "7S 8S 9S KS TS AS".split()}
    play(s, "2 give AS")
    assert legal_strings(s) == {"0 play AS"}


def test_full_hand_decided_deal_flat2() -> None:
    s = play_scripted_deal(new_state("full-hand", options=NO_EXCHANGE), SWEEP, SWEEP_WINNERS,
                           trump_card="9C")
    assert s.deal_results[0] == {"points": [120, 0], "tricks": [8, 0], "penalty": [0, 2],
                                 "ended_by": "cards-exhausted", "winner_team": 0}
    assert s.dealer == 1


# ------------------------------------------------------------ partner exchange
def _exchange_state():
    s = new_state("full-hand")
    obj = script_deal(s, SWEEP, SWEEP_WINNERS, trump_card="9C")
    s.apply_chance(KozelDeal.from_json(s.rules, obj))
    return s   # hands: 0 AH AS AD 7C QC QS QH TS | 1 7H 7S 7D 8C JD TC KH KS
    #                   2 8H 8S 8D 9C JH QD JC TD | 3 9H 9S 9D KC JS AC TH KD


def test_partner_exchange_default_one_card() -> None:
    assert make_rules("full-hand").partner_exchange == 1
    assert make_rules("full-hand", players=2).partner_exchange == 0   # no partners
    assert make_rules("full-hand", players=3).partner_exchange == 0


def test_partner_exchange_order_starts_left_of_dealer() -> None:
    s = _exchange_state()
    assert s.view(None)["phase"] == "partner-exchange" and s.current_player() == 1
    err = assert_illegal(s, "0 give AH", "turn")
    assert "seat 1" in err.reason
    assert_illegal(s, "1 play 7H", "verb")
    assert_illegal(s, "1 give 7H+7S", "card-count")
    assert_illegal(s, "1 give AH", "card-in-hand")
    order = []
    for seat, c in [(1, "KS"), (2, "9C"), (3, "KC"), (0, "QH")]:
        order.append(s.current_player())
        play(s, f"{seat} give {c}")
    assert order == [1, 2, 3, 0]
    assert s.deal_log()[0]["actions"] == ["1 give KS", "2 give 9C", "3 give KC", "0 give QH"]
    # Then the dealer makes the (plain) opening lead.
    assert s.view(None)["phase"] == "play" and s.current_player() == 0


def test_partner_exchange_simultaneous_face_down() -> None:
    s = _exchange_state()
    play(s, "1 give KS")
    # Seat 3 has not received KS yet and cannot tell which card is coming.
    assert "KS" not in hand_of(s, 3) and len(s.hands[3]) == 8 and len(s.hands[1]) == 7
    assert "3 give KS" not in legal_strings(s)
    other = _exchange_state()
    play(other, "1 give KH")
    for seat in (0, 2, 3):
        assert s.information_state_string(seat) == other.information_state_string(seat)
    assert s.view(3)["history"] == ["1 give ?"]
    play(s, "2 give 9C", "3 give KC")
    assert s.view(1)["history"] == ["1 give KS", "2 give ?", "3 give ?"]   # not yet KC
    play(s, "0 give QH")
    # All four gave: each receives the partner's card at once.
    assert "KS" in hand_of(s, 3) and "KC" in hand_of(s, 1)
    assert "9C" in hand_of(s, 0) and "QH" in hand_of(s, 2)
    assert [len(h) for h in s.hands] == [8, 8, 8, 8]
    assert s.view(3)["history"] == ["1 give KS", "2 give ?", "3 give KC", "0 give ?"]
    assert s.view(None)["history"] == ["1 give ?", "2 give ?", "3 give ?", "0 give ?"]


def test_partner_exchange_option_zero_skips_it() -> None:
    s = deal_state("full-hand", hands=HEARTS_HANDS, trump_card="9H", options=NO_EXCHANGE)
    assert s.view(None)["phase"] == "play" and s.current_player() == 0


# ------------------------------------------------------------------ royal goat
ROYAL = {"0": "7H 8H 9H KH 7S 8S 9S KS", "1": "7D 8D 9D KD TD JD QD 7C",
         "2": "AC AD AH AS TH TS JH QH", "3": "8C 9C TC JC QC KC JS QS"}


def test_royal_goat_wins_match() -> None:
    # Seat 2 is dealt all four aces: team 0 wins the whole match at once.
    assert make_rules("full-hand").royal_goat is True
    s = deal_state("full-hand", hands=ROYAL, trump_card="9C", dealer=3)
    assert s.is_terminal() and s.current_player() == TERMINAL
    assert s.deal_results[0]["ended_by"] == "royal-goat"
    assert s.deal_results[0]["winner_team"] == 0
    assert s.result()["match_over"] is True and s.result()["loser_team"] == 1
    assert s.returns() == [1.0, -1.0, 1.0, -1.0]
    assert_illegal(s, "0 give 7H", "game-over")


def test_royal_goat_option_off_play_goes_on() -> None:
    s = deal_state("full-hand", hands=ROYAL, trump_card="9C", options={"royal_goat": False})
    assert not s.deal_results and s.current_player() == 1   # partner exchange starts


def test_royal_goat_after_a_draw_two_players() -> None:
    # 2 players, spades trump. 0 leads 9H, 1 follows 7H: 9H > 7H -> 0 wins and draws
    # the stock's top card AC first: four aces in one hand -> seat 0 wins the match.
    s = deal_state("full-hand", players=2, trump_card="9S",
                   hands={"0": "9H AH AS AD 7D 8D 9D KD", "1": "7H 8H KH TH 7S 8S TD JD"},
                   stock="AC 7C 8C 9C TC JC QC KC QD JH QH 9S TS JS QS KS")
    assert not s.deal_results
    play(s, "0 play 9H", "1 play 7H")
    assert s.deal_results[0]["ended_by"] == "royal-goat"
    assert s.is_terminal() and s.loser_team == 1 and s.returns() == [1.0, -1.0]


def test_royal_goat_not_after_the_partner_exchange() -> None:
    """The rules name two moments: after the deal and after a draw. Four aces
    gathered by the partner exchange (seat 2 passes AC to seat 0) are neither:
    the deal is played on."""
    hands = {"0": "AH AS AD 7H 8H 9H KH 7S", "1": "8S 9S KS 7D 8D 9D KD TD",
             "2": "AC TH TS JH QH JD QD 8C", "3": "9C KC TC JC QC JS QS 7C"}
    s = deal_state("full-hand", hands=hands, trump_card="9C", dealer=3)
    play(s, "0 give 7S", "1 give 8S", "2 give AC", "3 give 9C")
    assert {"AH", "AS", "AD", "AC"} <= hand_of(s, 0)
    assert not s.deal_results and not s.is_terminal() and s.view(None)["phase"] == "play"


# ---------------------------------------------------------------- 60-60 annulled
def test_full_hand_60_60_annulled_same_dealer_redeals() -> None:
    assert make_rules("full-hand").tie == "annul"
    s = play_scripted_deal(new_state("full-hand", options=NO_EXCHANGE), EGGS, EGGS_WINNERS,
                           trump_card="9C")
    assert s.deal_results[0] == {"points": [60, 60], "tricks": [4, 4], "penalty": [0, 0],
                                 "ended_by": "annulled", "winner_team": None}
    assert s.penalty_total == [0, 0]
    assert s.is_chance_node() and s.dealer == 0      # the same dealer deals again
    s.apply_chance(s.sample_chance(random.Random(5)))  # with a new shuffle
    assert s.logs[-1]["dealer"] == 0 and s.current_player() == 0


def test_individual_no_side_above_60_annulled() -> None:
    # 3 players, points [11, 56, 53] (worked out in conftest): nobody above 60.
    s = play_scripted_deal(new_state("full-hand", players=3), THREE_NO_WINNER,
                           THREE_NO_WINNER_WINNERS, trump_card="9C")
    assert s.deal_results[0] == {"points": [11, 56, 53], "tricks": [1, 3, 4],
                                 "penalty": [0, 0, 0], "ended_by": "annulled", "winner_team": None}
    assert s.dealer == 0 and s.is_chance_node()


@pytest.mark.parametrize("preset, players, options", [
    ("full-hand", 3, {"opening_leader": "last-trick-winner"}),
    ("street", 4, {"tie": "annul"}),
])
def test_annulled_deal_is_replayed_with_the_same_opening_leader(
        preset: str, players: int, options: dict[str, Any]) -> None:
    """An annulled deal is replayed: with ``opening_leader="last-trick-winner"``
    its own last trick does not pick the replay's leader (an annulled deal is
    not "the previous deal", as for the trump-lead rule); the seat that led it
    leads again."""
    checked = 0
    for seed in range(40):
        rng = random.Random(seed)
        s = new_state(preset, players=players, options=options, first_dealer=seed % players)
        replay_of = None   # the seat that led an annulled deal whose last trick it did not win
        while not s.is_terminal() and checked < 3:
            if s.is_chance_node():
                s.apply_chance(s.sample_chance(rng))
                if replay_of is not None:
                    assert s.current_player() == replay_of, f"seed {seed}"
                    checked += 1
                opener, replay_of = s.current_player(), None
                continue
            s.apply_action(rng.choice([a for a in s.legal_actions() if a.seat == s.current_player()]))
            if s.is_chance_node() and s.deal_results[-1]["ended_by"] == "annulled" \
                    and s.last_trick["winner"] != opener:
                replay_of = opener
    assert checked


# ---------------------------------------------------------------- player counts
def test_full_hand_players_option_default_4() -> None:
    assert make_rules("full-hand").players == 4
    assert make_rules("full-hand", options={"players": 3}).players == 3


def test_full_hand_two_players_stock_and_draws() -> None:
    r = make_rules("full-hand", players=2)
    assert (r.deck, r.hand_size, r.stock_size, r.partnerships) == ("32", 8, 16, False)
    s = deal_state("full-hand", players=2, trump_card="9S",
                   hands={"0": "9H AH AS AD 7D 8D 9D KD", "1": "7H 8H KH TH 7S 8S TD JD"},
                   stock="AC 7C 8C 9C TC JC QC KC QD JH QH 9S TS JS QS KS")
    assert s.current_player() == 0 and s.view(None)["phase"] == "play"
    # 0:9H 1:KH -> 1 (K above 9). 1 draws first (AC), then 0 (7C); 1 leads.
    play(s, "0 play 9H")
    assert legal_strings(s) == {"1 play 7H", "1 play 8H", "1 play KH", "1 play TH"}
    play(s, "1 play KH")
    assert "AC" in hand_of(s, 1) and "7C" in hand_of(s, 0)
    assert [len(h) for h in s.hands] == [8, 8] and len(s.stock) == 14
    assert s.current_player() == 1


def test_full_hand_two_players_16_tricks_a_deal() -> None:
    from goat.protocol import play_randomly
    seen = 0
    for seed in range(12):
        s = new_state("full-hand", players=2, single_deal=True)
        play_randomly(s, random.Random(seed))
        d = s.deal_results[-1]
        if d["ended_by"] in ("cards-exhausted", "annulled"):
            assert sum(d["tricks"]) == 16   # 32 cards, 2 a trick
            assert sum(d["points"]) == 120
            seen += 1
    assert seen


def test_full_hand_three_players_24_cards() -> None:
    r = make_rules("full-hand", players=3)
    assert (r.deck, r.hand_size, r.stock_size) == ("24", 8, 0)
    assert {c.rank for c in r.deck_cards} == set("9TJQKA")
    deal = new_state("full-hand", players=3).sample_chance(random.Random(2))
    assert [len(h) for h in deal.hands] == [8, 8, 8] and set().union(*deal.hands) == set(r.deck_cards)


def test_individual_play_penalties() -> None:
    # THREE_WIN: points [75, 0, 45]: seat 0 wins, every other player gets 2, even
    # seat 1 with no trick (flat).
    s = play_scripted_deal(new_state("full-hand", players=3), THREE_WIN, THREE_WIN_WINNERS,
                           trump_card="9C")
    assert s.deal_results[0] == {"points": [75, 0, 45], "tricks": [4, 0, 4], "penalty": [0, 2, 2],
                                 "ended_by": "cards-exhausted", "winner_team": 0}
    assert s.dealer == 1


def test_individual_first_player_to_12_loses() -> None:
    s = new_state("full-hand", players=3)
    s.penalty_total = [10, 4, 0]   # documented attribute: as if earlier deals were played
    play_scripted_deal(s, THREE_WIN, THREE_WIN_WINNERS, trump_card="9C")
    assert s.penalty_total == [10, 6, 2] and not s.match_over
    # Dealer 1 leads: the same deal rotated one seat, seat 1 wins, seats 2 and 0 get 2.
    play_scripted_deal(s, rotated(THREE_WIN, 1, 3), [(w + 1) % 3 for w in THREE_WIN_WINNERS],
                       trump_card="9C")
    assert s.penalty_total == [12, 6, 4]
    assert s.is_terminal() and s.loser_team == 0
    assert s.returns()[0] < 0 < s.returns()[1] and sum(s.returns()) == 0



def _two_reach_12(before: list[int], options: dict[str, object] | None = None) -> Any:
    """THREE_WIN from ``before``: seat 0 wins the deal, seats 1 and 2 get 2 each."""
    s = new_state("full-hand", players=3, options=options)
    s.penalty_total = list(before)
    return play_scripted_deal(s, THREE_WIN, THREE_WIN_WINNERS, trump_card="9C")


def test_individual_first_player_to_12_loses_two_at_once_level_are_both_goats() -> None:
    # [decision] match_loser="most-penalty" (default): seats 1 and 2 reach 12 in the same
    # deal, level: neither was first, both are goats; the deal's winner wins the match.
    s = _two_reach_12([0, 10, 10])
    assert s.penalty_total == [0, 12, 12] and s.is_terminal()
    result = s.result()
    assert result["match_over"] is True and result["loser_team"] is None
    assert result["deals"][-1]["winner_team"] == 0
    assert s.returns() == [1.0, -0.5, -0.5]


def test_individual_first_player_to_12_loses_two_at_once_most_penalty_is_the_goat() -> None:
    # Seat 2 ends on 13, seat 1 on 12: by default only seat 2 is the goat.
    s = _two_reach_12([0, 10, 11])
    assert s.penalty_total == [0, 12, 13] and s.loser_team == 2
    assert s.returns() == [0.5, 0.5, -1.0]


def test_individual_first_player_to_12_loses_option_all_at_target() -> None:
    # match_loser="all-at-target": everyone at or over 12 is a goat, 13 and 12 alike.
    s = _two_reach_12([0, 10, 11], {"match_loser": "all-at-target"})
    assert s.loser_team is None and s.returns() == [1.0, -0.5, -0.5]
    # one player over the target is the one goat under either reading
    s = _two_reach_12([0, 10, 4], {"match_loser": "all-at-target"})
    assert s.penalty_total == [0, 12, 6] and s.loser_team == 1


def test_match_loser_option_checked() -> None:
    with pytest.raises(RulesError, match="match_loser"):
        make_rules("full-hand", players=3, options={"match_loser": "lowest-seat"})


# ------------------------------------------------------------------ full-hand-24
def test_full_hand_24_six_cards_each() -> None:
    r = make_rules("full-hand-24")
    assert (r.players, r.deck, r.hand_size, r.stock_size) == (4, "24", 6, 0)
    deal = new_state("full-hand-24").sample_chance(random.Random(9))
    assert [len(h) for h in deal.hands] == [6] * 4


def test_full_hand_24_deck_no_shamok() -> None:
    r = make_rules("full-hand-24")
    assert Card.parse("7C") not in r.deck_cards and not r.has_shamok
    order = trump_order(True, "24", "H")
    assert " ".join(map(str, order.trumps)) == "9H KH TH AH JD JH JS JC QD QH QS QC"
    qc = Card.parse("QC")
    assert all(order.beats(qc, c) for c in r.deck_cards if c is not qc)   # QC is top
    with pytest.raises(InvalidChanceError, match="7C"):
        deal_state("full-hand-24", trump_card="9H",
                   hands={"0": "7C TH JH QH KH AH", "1": "9D TD JD QD KD AD",
                          "2": "9S TS JS QS KS AS", "3": "TC JC QC KC AC 9H"})


def test_royal_goat_not_after_a_trick_without_a_draw() -> None:
    # "all four aces after the deal (or after any draw)": the fourth ace arriving
    # through the partner exchange is neither, and full-hand has no stock to draw
    # from, so seat 0 keeping AC AD AH AS through trick 1 does not end the match.
    s = deal_state("full-hand", hands={
        "0": "AC AD AH 7D 8D 9D 7H 8H",
        "1": "9H KH TH KD TD 7S 8S 9S",
        "2": "AS KS TS 8C 9C KC TC 7C",
        "3": "JC JD JH JS QC QD QH QS",
    }, trump_card="9S", dealer=0)
    play(s, "1 give 9H", "2 give AS", "3 give JC", "0 give 7H")
    assert {"AC", "AD", "AH", "AS"} <= {str(c) for c in s.hands[0]}
    # Spades are trump: 7D is a plain lead; seat 1 follows TD, seats 2 and 3 have no
    # diamond (seat 3 got 9H from its partner seat 1).
    play(s, "0 play 7D", "1 play TD", "2 play 8C", "3 play 9H")
    assert s.deal_results == [] and not s.match_over
    assert s.current_player() == 1  # TD won the trick; play goes on


def test_a_deck_that_does_not_share_out_evenly_is_refused():
    """Full-hand with 3 players and the 32-card deck (an option the table form
    offers) deals 8 each and a stock of 8: every trick takes one card from each
    player, so after ten tricks two cards were left, one player had none, and
    the deal stood still in play with no legal action. Such a table is refused
    with one line instead."""
    with pytest.raises(RulesError, match="deck") as info:
        make_rules("full-hand", players=3, options={"deck": "32"})
    assert "\n" not in str(info.value)
    for deck in ("24", "36"):   # 24 and 36 cards share out among three
        state = new_state("full-hand", players=3, options={"deck": deck}, single_deal=True)
        rng = random.Random(1)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_chance(state.sample_chance(rng))
                continue
            actions = state.legal_actions()
            assert actions, "a deal stood still"
            state.apply_action(actions[rng.randrange(len(actions))])
