"""One test per rule of "Ruleset street" in ``shared/rules/kozel.md``.

Every deal here is written out by hand and every expected outcome (legal
beats, trick winners, draws, points, penalty points) is worked out from the
rules text; the comments give the reasoning. Unless said otherwise the dealer
is seat 0, so seat 1 (left of the dealer) leads the first trick, and the shown
card ``QD`` (left in the stock) makes diamonds trump.
"""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from goat.cards import Card, parse_cards
from goat.games.kozel import KozelDeal, make_rules, new_state
from goat.games.kozel.scoring import card_points, deal_penalty
from goat.protocol import Action, InvalidChanceError, RulesError

from .conftest import assert_illegal, deal_state, hand_of, legal_strings, play

STREET_ORDER = "6789JQKTA"


def cs(text: str) -> set[str]:
    """``"KH AH"`` -> ``{"KH", "AH"}``."""
    return {str(c) for c in parse_cards(text)}


def moves(state, seat: int) -> set[tuple[str, frozenset[str]]]:
    """Legal actions of ``seat`` as (verb, card set): card order is not part of a move."""
    return {(a.verb, frozenset(map(str, a.cards))) for a in state.legal_actions() if a.seat == seat}


def passes(hand: str, k: int) -> set[tuple[str, frozenset[str]]]:
    return {("pass", frozenset(c)) for c in combinations(sorted(cs(hand)), k)}


def beat(cards: str) -> tuple[str, frozenset[str]]:
    return ("play", frozenset(cs(cards)))


def street(hands: dict[int, str], stock: str | None = None, trump_card: str = "QD",
           dealer: int = 0, options: dict | None = None):
    return deal_state("street", hands=hands, stock=stock, trump_card=trump_card, dealer=dealer,
                      options=options)


# ------------------------------------------------------------------ deck and order
def test_deck_is_36_cards_six_to_ace_summing_to_120() -> None:
    rules = make_rules("street")
    assert len(rules.deck_cards) == 36 == len(set(rules.deck_cards))
    assert {c.rank for c in rules.deck_cards} == set("6789TJQKA")
    assert {c.suit for c in rules.deck_cards} == set("CDHS")
    assert card_points(rules.deck_cards) == 120
    assert rules.players == 4 and rules.hand_size == 4 and rules.stock_size == 20


def test_rank_order_six_to_ace_with_ten_above_king() -> None:
    state = street({1: "KH 6C 7S 8S", 2: "TH QH 9C 6S", 3: "AH JH 7C AS", 0: "6H 7H 6D 9S"})
    order = state.order
    for suit in "CDHS":  # inside one suit (trump or not) the later rank beats the earlier
        for i, j in combinations(range(9), 2):
            hi, lo = Card(STREET_ORDER[j], suit), Card(STREET_ORDER[i], suit)
            assert order.beats(hi, lo) and not order.beats(lo, hi), (hi, lo)


# ----------------------------------------------------------------------- dealing
class _IdentityRng(random.Random):
    """A generator whose shuffle leaves the deck in deck order, so the deal can
    be predicted by hand; ``randint`` returns ``lo + offset``."""

    def __init__(self, offset: int) -> None:
        super().__init__(0)
        self.offset = offset
        self.randint_calls: list[tuple[int, int]] = []

    def shuffle(self, x, *args, **kwargs) -> None:  # noqa: D102
        return None

    def randint(self, a: int, b: int) -> int:
        self.randint_calls.append((a, b))
        return a + self.offset


def test_deal_one_card_at_a_time_clockwise_from_left_of_dealer() -> None:
    # Deck order 6C 7C 8C 9C TC JC QC KC AC 6D 7D ... AS, unshuffled. Dealer 2:
    # seat 3 gets cards 0, 4, 8, 12; seat 0 gets 1, 5, 9, 13; seat 1 gets 2, 6, 10, 14;
    # the dealer (seat 2) last: 3, 7, 11, 15. The stock is cards 16.. (KD first).
    rules = make_rules("street")
    rng = _IdentityRng(offset=4)
    deal = KozelDeal.shuffle(rules, dealer=2, rng=rng)
    assert [str(c) for c in deal.hands[3]] == ["6C", "TC", "AC", "9D"]
    assert [str(c) for c in deal.hands[0]] == ["7C", "JC", "6D", "TD"]
    assert [str(c) for c in deal.hands[1]] == ["8C", "QC", "7D", "JD"]
    assert [str(c) for c in deal.hands[2]] == ["9C", "KC", "8D", "QD"]
    assert [str(c) for c in deal.stock] == ["KD", "AD"] + [r + "H" for r in "6789TJQKA"] + \
        [r + "S" for r in "6789TJQKA"]
    # The shown card comes from the middle of the stock (never its top or bottom card):
    assert rng.randint_calls == [(1, 18)]
    assert str(deal.trump_card) == "9H"  # stock[1 + 4]


@pytest.mark.parametrize("seed", [0, 1, 7, 123])
def test_seeded_deal_positions(seed: int) -> None:
    # The same shuffle done by hand: deck position p goes to seat (dealer + 1 + p) % 4
    # for p < 16, the rest is the stock in order.
    rules, dealer = make_rules("street"), 1
    expected_deck = list(rules.deck_cards)
    random.Random(seed).shuffle(expected_deck)
    deal = KozelDeal.shuffle(rules, dealer, random.Random(seed))
    for p in range(16):
        seat = (dealer + 1 + p) % 4
        assert deal.hands[seat][p // 4] == expected_deck[p]
    assert list(deal.stock) == expected_deck[16:]


def test_first_deal_led_by_seat_left_of_dealer() -> None:
    for dealer in range(4):
        state = new_state("street", first_dealer=dealer)
        state.apply_chance(state.sample_chance(random.Random(dealer)))
        assert state.current_player() == (dealer + 1) % 4
        assert {a.seat for a in state.legal_actions()} == {(dealer + 1) % 4}


# -------------------------------------------------------------------- trump card
def test_shown_trump_card_lies_in_the_stock_and_stays_there() -> None:
    for seed in range(60):
        state = new_state("street")
        deal = state.sample_chance(random.Random(seed))
        assert deal.trump_card in deal.stock
        assert 1 <= deal.stock.index(deal.trump_card) <= len(deal.stock) - 2
        state.apply_chance(deal)
        assert state.order.trump_suit == deal.trump_card.suit
        assert list(state.stock) == list(deal.stock)  # shown, then put back in place
        assert state.view(None)["trump_card"] == str(deal.trump_card)


@pytest.mark.parametrize("place", ["hidden", "public"])
def test_trump_card_is_drawn_in_its_turn(place: str) -> None:
    # Stock top first: 7D 8D QD ...; QD (the shown card) is the third card drawn.
    stock = "7D 8D QD 9D " + " ".join(
        c for c in (r + s for s in "CDHS" for r in "6789TJQKA")
        if c not in cs("KH 6C 7S 8S TH QH 9C 6S AH JH 7C AS 6H 7H 6D 9S 7D 8D QD 9D"))
    state = street({1: "KH 6C 7S 8S", 2: "TH QH 9C 6S", 3: "AH JH 7C AS", 0: "6H 7H 6D 9S"},
                   stock=stock, options={"trump_card_place": place})
    assert state.stock[2] == Card.parse("QD")
    # "public": it lies face up in its place, the table sees where and who draws it;
    # "hidden": neither is in any view
    public = place == "public"
    view = state.view(1)
    assert ("trump_card_place" in view, "trump_card_drawn_by" in view) == (public, public)
    assert view.get("trump_card_place") == (2 if public else None) and view.get("trump_card_drawn_by") is None
    play(state, "1 play KH", "2 play TH", "3 play AH", "0 play 6D")  # seat 0 wins (trump)
    # Draws start with the winner: seat 0 7D, seat 1 8D, seat 2 QD, seat 3 9D.
    assert "QD" in hand_of(state, 2) and Card.parse("QD") not in state.stock
    assert state.view(None)["trump_card"] == "QD"  # still public knowledge
    assert all(state.view(seat).get("trump_card_drawn_by") == (2 if public else None)
               for seat in (None, 0, 1, 3))


def test_trump_card_outside_the_stock_is_refused() -> None:
    state = new_state("street")
    hands = {"1": ["KH", "6C", "7S", "8S"], "2": ["TH", "QH", "9C", "6S"],
             "3": ["AH", "JH", "7C", "AS"], "0": ["6H", "7H", "6D", "9S"]}
    used = {c for h in hands.values() for c in h}
    stock = [str(c) for c in state.rules.deck_cards if str(c) not in used]
    with pytest.raises(InvalidChanceError, match="stock"):
        KozelDeal.from_json(state.rules, {"hands": hands, "stock": stock, "trump_card": "KH"})


# ------------------------------------------------------------- card comparison
def test_card_comparison_trump_suit_and_other_suits() -> None:
    state = street({1: "KH 6C 7S 8S", 2: "TH QH 9C 6S", 3: "AH JH 7C AS", 0: "6H 7H 6D 9S"})
    play(state, "1 play KH")
    # Same suit, higher rank: only TH beats KH (QH is below K); 9C and 6S are other suits.
    assert moves(state, 2) == {beat("TH")} | passes("TH QH 9C 6S", 1)
    assert_illegal(state, "2 play QH", "street-beat")
    assert_illegal(state, "2 play 9C", "street-beat")
    play(state, "2 play TH")
    # The best card is now TH: AH beats it, JH does not, AS (another plain suit) never does.
    assert moves(state, 3) == {beat("AH")} | passes("AH JH 7C AS", 1)
    assert_illegal(state, "3 play AS", "street-beat")
    play(state, "3 play AH")
    # A trump beats every non-trump card, even the lowest trump 6D against AH.
    assert moves(state, 0) == {beat("6D")} | passes("6H 7H 6D 9S", 1)
    assert_illegal(state, "0 play 9S", "street-beat")
    play(state, "0 play 6D")
    assert state.last_trick["winner"] == 0


def test_trump_is_beaten_only_by_a_higher_trump() -> None:
    state = street({1: "8D 6C 7S 8S", 2: "AH 7D 9C 6S", 3: "TD JH 7C AS", 0: "9D 7H 6H 9S"})
    play(state, "1 play 8D")
    assert moves(state, 2) == passes("AH 7D 9C 6S", 1)  # AH is not trump, 7D is too low
    assert_illegal(state, "2 play AH", "street-beat")
    assert_illegal(state, "2 play 7D", "street-beat")
    play(state, "2 pass 7D", "3 play TD")
    assert_illegal(state, "0 play 9D", "street-beat")  # 9D is below TD, the current best
    play(state, "0 pass 9D")
    assert state.last_trick["winner"] == 3


# ------------------------------------------------------------------------ leads
def test_lead_one_to_four_cards_of_one_suit() -> None:
    state = street({1: "6H KH 7C 8C", 2: "AH 7H 9S TS", 3: "8H TH 6D JS", 0: "QH 9H 7S 8S"})
    assert legal_strings(state) == {"1 play 6H", "1 play KH", "1 play 7C", "1 play 8C",
                                    "1 play 6H+KH", "1 play 7C+8C"}
    assert_illegal(state, "1 play 6H+7C", "street-lead")
    assert_illegal(state, "1 play 6H+KH+7C", "street-lead")
    assert_illegal(state, "1 pass 6H", "verb")


def test_four_of_a_suit_led_in_turn_is_an_ordinary_lead() -> None:
    state = street({1: "6S 7S 8S 9S", 2: "AH 7H 9H TS", 3: "6C 7C 8C 9C", 0: "QH JH 7D 8D"})
    assert_illegal(state, "1 molodka 6S+7S+8S+9S", "molodka")  # no molodka before a lead
    play(state, "1 play 6S+7S+8S+9S")
    assert [(p.seat, p.verb) for p in state.trick] == [(1, "play")]
    assert state.molodkas == 0
    # ... so another seat may still declare the trick's one molodka.
    assert "3 molodka 6C+7C+8C+9C" in legal_strings(state, 3)


# ------------------------------------------------------------------------ beats
def test_beat_needs_a_one_to_one_matching_not_a_greedy_one() -> None:
    state = street({1: "6H KH 7C 8C", 2: "AH 7H 9S TS", 3: "8H TH 6D JS", 0: "QH 9H 7S 8S"})
    play(state, "1 play 6H+KH")
    # Written AH+7H: matching AH to the first card it beats (6H) would leave 7H against KH,
    # but AH->KH, 7H->6H is a matching, so this is a beat.
    play(state, "2 play AH+7H")
    assert state.trick[state.best_index].seat == 2
    # 8H+TH would beat the lead (8H->6H, TH->KH) but the best set is now AH+7H: both
    # beat only 7H, so no matching exists and it is refused.
    assert_illegal(state, "3 play 8H+TH", "street-beat")
    assert_illegal(state, "3 play TH+8H", "street-beat")
    # 6D (trump) takes AH and 8H or TH takes 7H.
    assert moves(state, 3) == {beat("6D 8H"), beat("6D TH")} | passes("8H TH 6D JS", 2)
    play(state, "3 play 8H+6D")
    # Best set 6D+8H: 9H beats 8H but QH cannot beat the trump 6D.
    assert moves(state, 0) == passes("QH 9H 7S 8S", 2)
    assert_illegal(state, "0 play QH+9H", "street-beat")
    play(state, "0 pass 7S+8S")
    assert state.last_trick["winner"] == 3


def test_greedy_failure_with_a_trump() -> None:
    state = street({1: "6H KH 7C 8C", 2: "6D 7H 9S TS", 3: "8H TH AD JS", 0: "QH 9H 7S 8S"})
    play(state, "1 play 6H+KH")
    # 6D written first could take 6H and leave 7H facing KH; 6D->KH, 7H->6H works.
    assert state.is_legal(Action.parse("2 play 6D+7H"))
    assert beat("6D 7H") in moves(state, 2)


def test_pass_face_down_with_exactly_as_many_cards() -> None:
    state = street({1: "6H KH 7C 8C", 2: "AH 7H 9S TS", 3: "8H TH 6D JS", 0: "QH 9H 7S 8S"})
    play(state, "1 play 6H+KH")
    assert_illegal(state, "2 pass 9S", "street-count")
    assert_illegal(state, "2 pass 9S+TS+7H", "street-count")
    assert_illegal(state, "2 play AH", "street-count")
    # Any cards may be passed, even ones that could beat.
    assert passes("AH 7H 9S TS", 2) <= moves(state, 2)
    play(state, "2 pass AH+7H")
    assert state.trick[-1].verb == "pass" and state.trick[state.best_index].seat == 1
    assert state.view(0)["trick"][-1] == {"seat": 2, "verb": "pass", "count": 2}


# ------------------------------------------------------------------ trick winner
def test_best_set_owner_wins_every_card_face_down_included() -> None:
    state = street({1: "8D 6C 7S 8S", 2: "AH 7D 9C 6S", 3: "TD JH 7C AS", 0: "9D 7H 6H 9S"})
    top = [str(c) for c in state.stock[:4]]
    play(state, "1 play 8D", "2 pass 7D", "3 play TD", "0 pass 9D")
    # Seat 3 (team 1) owns the best set: the pile gets 8D, TD and the face-down 7D and 9D.
    assert sorted(map(str, state.piles[1])) == sorted(["8D", "7D", "TD", "9D"])
    assert state.piles[0] == [] and state.tricks_won == [0, 1]
    assert state.current_player() == 3  # the winner leads next
    # Draws one at a time from the winner clockwise: 3, 0, 1, 2.
    assert [top[0] in hand_of(state, 3), top[1] in hand_of(state, 0),
            top[2] in hand_of(state, 1), top[3] in hand_of(state, 2)] == [True] * 4
    assert all(len(h) == 4 for h in state.hands)


def test_leader_wins_when_nobody_beats() -> None:
    state = street({1: "8D 6C 7S 8S", 2: "AH 7D 9C 6S", 3: "TD JH 7C AS", 0: "9D 7H 6H 9S"})
    play(state, "1 play 8D", "2 pass AH", "3 pass TD", "0 pass 9D")
    assert state.last_trick["winner"] == 1
    assert sorted(map(str, state.piles[1])) == sorted(["8D", "AH", "TD", "9D"])


# ---------------------------------------------------------------------- molodka
MOLODKA_HANDS = {1: "KH 7D 9H TH", 2: "AH 6H JD 9D", 3: "6C 7C 8C 9C", 0: "6S 7S 8S 9S"}


def test_molodka_out_of_turn_restarts_the_trick() -> None:
    state = street(MOLODKA_HANDS)
    play(state, "1 play KH", "2 play AH")
    assert state.current_player() == 3
    # Seat 0 declares out of turn: KH and AH go back, seat 0 leads its four spades.
    play(state, "0 molodka 6S+7S+8S+9S")
    assert hand_of(state, 1) == cs("KH 7D 9H TH") and hand_of(state, 2) == cs("AH 6H JD 9D")
    assert hand_of(state, 0) == set()
    assert [(p.seat, {str(c) for c in p.cards}) for p in state.trick] == [(0, cs("6S 7S 8S 9S"))]
    assert state.trick_leader == 0
    # Play continues clockwise from the molodka player, each answering with four cards.
    # Seat 1 holds one trump (7D): no four-card beat, so it must pass all four.
    assert state.current_player() == 1
    assert moves(state, 1) == passes("KH 7D 9H TH", 4)
    play(state, "1 pass KH+7D+9H+TH")
    assert state.current_player() == 2
    play(state, "2 pass AH+6H+JD+9D")
    assert state.current_player() == 3
    play(state, "3 pass 6C+7C+8C+9C")
    assert state.last_trick["winner"] == 0 and state.last_trick["leader"] == 0
    assert len(state.piles[0]) == 16 and state.tricks_won == [1, 0]


def test_molodka_returns_face_down_cards_too() -> None:
    state = street(MOLODKA_HANDS)
    play(state, "1 play KH", "2 pass 6H", "3 molodka 6C+7C+8C+9C")
    assert "6H" in hand_of(state, 2) and "KH" in hand_of(state, 1)
    assert state.current_player() == 0
    play(state, "0 pass 6S+7S+8S+9S", "1 pass KH+7D+9H+TH", "2 pass AH+6H+JD+9D")
    assert state.last_trick["winner"] == 3 and len(state.piles[1]) == 16


def test_molodka_offered_to_every_eligible_seat_after_the_lead() -> None:
    state = street(MOLODKA_HANDS)
    assert not any(a.verb == "molodka" for a in state.legal_actions())
    play(state, "1 play KH")
    molodkas = {str(a) for a in state.legal_actions() if a.verb == "molodka"}
    assert molodkas == {"0 molodka 6S+7S+8S+9S", "3 molodka 6C+7C+8C+9C"}


def test_molodka_not_before_a_lead() -> None:
    state = street(MOLODKA_HANDS)
    err = assert_illegal(state, "0 molodka 6S+7S+8S+9S", "molodka")
    assert "after a lead" in err.reason


def test_molodka_not_for_a_seat_that_already_played() -> None:
    state = street(MOLODKA_HANDS)
    play(state, "1 play KH", "2 pass 6H", "3 pass 6C")
    err = assert_illegal(state, "3 molodka 6C+7C+8C+9C", "molodka")
    assert "already played" in err.reason
    # Seat 0 has not played yet and still may.
    assert {str(a) for a in state.legal_actions() if a.verb == "molodka"} == {"0 molodka 6S+7S+8S+9S"}


def test_at_most_one_molodka_per_trick() -> None:
    state = street(MOLODKA_HANDS)
    play(state, "1 play KH", "0 molodka 6S+7S+8S+9S")
    # Seat 3 has not played to the restarted trick, but the trick already had a molodka.
    err = assert_illegal(state, "3 molodka 6C+7C+8C+9C", "molodka")
    assert "already had one" in err.reason
    assert not any(a.verb == "molodka" for a in state.legal_actions())

    # One per *trick*: the next trick may have its own. After the restarted trick
    # everyone draws four, one at a time from the winner (seat 0): seat 3 gets JC QC KC TC.
    state = street(MOLODKA_HANDS, stock="6D JS 7H JC  8D QH 8H QC  TD KS JH KC  AD TS AS TC  AC QD KD QS")
    play(state, "1 play KH", "0 molodka 6S+7S+8S+9S",
         "1 pass KH+7D+9H+TH", "2 pass AH+6H+JD+9D", "3 pass 6C+7C+8C+9C")
    assert state.last_trick["winner"] == 0 and hand_of(state, 3) == cs("JC QC KC TC")
    play(state, "0 play 6D")
    assert {str(a) for a in state.legal_actions() if a.verb == "molodka"} == {"3 molodka JC+QC+KC+TC"}
    play(state, "3 molodka JC+QC+KC+TC")
    assert state.trick_leader == 3 and state.current_player() == 0


def test_a_molodka_past_the_tables_limit_is_refused_in_the_limits_words() -> None:
    """``max_molodka_per_trick`` ([decision]) other than 1: the refusal said "this
    trick already had one" after two molodkas (limit 2) and at a table that allows
    none (limit 0, where the trick had none)."""
    state = street(MOLODKA_HANDS, options={"max_molodka_per_trick": 2})
    play(state, "1 play KH", "0 molodka 6S+7S+8S+9S", "3 molodka 6C+7C+8C+9C")
    err = assert_illegal(state, "0 molodka 6S+7S+8S+9S", "molodka")
    assert "already had 2" in err.reason and "max_molodka_per_trick=2" in err.reason
    state = street(MOLODKA_HANDS, options={"max_molodka_per_trick": 0})
    play(state, "1 play KH")
    err = assert_illegal(state, "0 molodka 6S+7S+8S+9S", "molodka")
    assert "already had" not in err.reason and "max_molodka_per_trick=0" in err.reason


def test_molodka_is_four_cards_of_one_suit() -> None:
    state = street(MOLODKA_HANDS)
    play(state, "1 play KH")
    assert_illegal(state, "0 molodka 6S+7S+8S", "molodka")
    assert_illegal(state, "2 molodka AH+6H+JD+9D", "molodka")


def test_molodka_priority_is_clockwise_distance_from_original_leader() -> None:
    state = street(MOLODKA_HANDS)  # seat 1 leads
    play(state, "1 play KH")
    # Seat 3 is two places after seat 1, seat 0 three: seat 3 goes first.
    assert state.molodka_priority([0, 3]) == [3, 0]
    assert state.molodka_priority([3, 0, 2]) == [2, 3, 0]
    state2 = street({2: "KH 7D 9H TH", 3: "AH 6H JD 9D", 0: "6C 7C 8C 9C", 1: "6S 7S 8S 9S"},
                    dealer=2)  # seat 3 leads
    play(state2, "3 play AH")
    assert state2.molodka_priority([2, 1, 0]) == [0, 1, 2]
    assert state2.molodka_priority([1, 2]) == [1, 2]


def test_molodka_priority_counts_from_the_original_leader_after_a_molodka() -> None:
    """With ``max_molodka_per_trick=2`` a restarted trick can see a second claim:
    priority still counts from the seat that originally led, not from the molodka
    player now leading (seat 1 led, seat 3 restarted: seat 2 before seat 0)."""
    state = deal_state("street", hands={1: "KH 7D 9H TH", 2: "AH 6H JH QH", 3: "6C 7C 8C 9C",
                                        0: "6S 7S 8S 9S"},
                       trump_card="QD", options={"max_molodka_per_trick": 2})
    play(state, "1 play KH", "3 molodka 6C+7C+8C+9C")
    assert state.trick_leader == 3
    assert {a.seat for a in state.legal_actions() if a.verb == "molodka"} == {0, 2}
    assert state.molodka_priority([0, 2]) == [2, 0]
    assert state.molodka_priority([0, 1, 2]) == [1, 2, 0]   # the original leader is nearest


# ------------------------------------------------ a whole deal, draws, penalties
# Three tricks on a hand-built deal (dealer 0, seat 1 leads, trump D):
#   trick 1: seat 1 leads four hearts; everybody passes: seat 1 wins 45 points
#     (TC JC QC KC AC TH JH QH = 10+2+3+4+11+10+2+3); 16 cards are drawn, 4 each;
#   trick 2: seat 1 leads four spades; the last 4 cards are drawn, 1 each, stock empty;
#   trick 3: one card each.
DEALT = {1: "6H 7H 8H 9H", 2: "6C 7C 8C 9C", 3: "TC JC QC KC", 0: "AC TH JH QH"}
TRICK1 = ["1 play 6H+7H+8H+9H", "2 pass 6C+7C+8C+9C", "3 pass TC+JC+QC+KC", "0 pass AC+TH+JH+QH"]


def stock_of(first16: dict[int, str], last4: list[str], first_drawer: int = 1,
             last_drawer: int = 1) -> str:
    """The stock, top first, for the given draws: round one after trick 1 (won by
    ``first_drawer``), four cards each one at a time; then one each after trick 2."""
    per_seat = {s: str(v).split() for s, v in first16.items()}
    order = [(first_drawer + i) % 4 for i in range(4)]
    cards = [per_seat[s][k] for k in range(4) for s in order]
    return " ".join(cards + last4)


def rotate(actions: list[str], k: int) -> list[str]:
    return [f"{(int(a.split()[0]) + k) % 4} {a.split(' ', 1)[1]}" for a in actions]


SIX_STOCK = stock_of({1: "6S 7S 8S 9S", 2: "TS JS QS KS", 3: "AS AH 9D TD", 0: "JD QD KD AD"},
                     ["KH", "6D", "7D", "8D"])  # after trick 2: seat 1 KH, 2 6D, 3 7D, 0 8D
SIX_ACTIONS = TRICK1 + ["1 play 6S+7S+8S+9S", "2 pass TS+JS+QS+KS", "3 pass AS+AH+9D+TD",
                        "0 pass JD+QD+KD+AD", "1 play KH", "2 play 6D", "3 play 7D", "0 pass 8D"]


def test_draws_one_at_a_time_until_four_each_or_stock_empty() -> None:
    stock = stock_of({1: "6S 7S 8S 9S", 2: "TS JS QS KS", 3: "AS 6D 7D 8D", 0: "9D JD QD KD"},
                     ["KH", "AH", "TD", "AD"])
    state = street(DEALT, stock=stock, trump_card="7D")
    play(state, *TRICK1)
    assert hand_of(state, 1) == cs("6S 7S 8S 9S") and hand_of(state, 2) == cs("TS JS QS KS")
    assert hand_of(state, 3) == cs("AS 6D 7D 8D") and hand_of(state, 0) == cs("9D JD QD KD")
    assert [str(c) for c in state.stock] == ["KH", "AH", "TD", "AD"]
    play(state, "1 play 6S+7S+8S+9S", "2 pass TS+JS+QS+KS", "3 pass AS+6D+7D+8D",
          "0 pass 9D+JD+QD+KD")
    # Four cards left for four hands of 0: one each from the winner (seat 1), then stop.
    assert [hand_of(state, s) for s in (1, 2, 3, 0)] == [{"KH"}, {"AH"}, {"TD"}, {"AD"}]
    assert state.stock == []


def test_deal_penalty_two_and_last_trick_winner_leads_next_deal() -> None:
    stock = stock_of({1: "6S 7S 8S 9S", 2: "TS JS QS KS", 3: "AS 6D 7D 8D", 0: "9D JD QD KD"},
                     ["KH", "AH", "TD", "AD"])
    state = street(DEALT, stock=stock, trump_card="7D")
    play(state, *TRICK1, "1 play 6S+7S+8S+9S", "2 pass TS+JS+QS+KS", "3 pass AS+6D+7D+8D",
         "0 pass 9D+JD+QD+KD")
    play(state, "1 play KH", "2 play AH", "3 play TD", "0 play AD")  # AD beats TD: seat 0
    # Team 1: 45 + trick 2 (TS JS QS KS AS JD QD KD = 10+2+3+4+11+2+3+4 = 39) = 84;
    # team 0: KH AH TD AD = 4+11+10+11 = 36, between 31 and 59: 2 penalty points.
    assert state.deal_results == [{"points": [36, 84], "tricks": [1, 2], "penalty": [2, 0],
                                   "ended_by": "cards-exhausted", "winner_team": 1}]
    assert state.penalty_total == [2, 0] and state.is_chance_node()
    assert state.dealer == 1  # the deal passes clockwise ...
    state.apply_chance(state.sample_chance(random.Random(5)))
    assert state.current_player() == 0  # ... but seat 0 won the last trick and leads


def test_deal_penalty_four_for_thirty_or_less_with_a_trick() -> None:
    state = street(DEALT, stock=SIX_STOCK, trump_card="9D")
    play(state, *SIX_ACTIONS[:-1], "0 play 8D")  # 8D beats 7D: seat 0 wins KH 6D 7D 8D
    # Team 0: 4 points and one trick -> 4; team 1: 45 + (19 + 11+11+10 + 2+3+4+11) = 116.
    assert state.deal_results[-1] == {"points": [4, 116], "tricks": [1, 2], "penalty": [4, 0],
                                      "ended_by": "cards-exhausted", "winner_team": 1}


def test_deal_penalty_six_for_no_trick() -> None:
    state = street(DEALT, stock=SIX_STOCK, trump_card="9D")
    play(state, *SIX_ACTIONS)  # seat 0 passes: seat 3's 7D wins the last trick
    assert state.deal_results[-1] == {"points": [0, 120], "tricks": [0, 3], "penalty": [6, 0],
                                      "ended_by": "cards-exhausted", "winner_team": 1}
    assert state.current_player() == -1  # the match goes on


def test_sixty_sixty_balls_no_penalty() -> None:
    # Trick 2 is won by seat 2's beat TS+JS+QS+KS, so the last four cards are drawn
    # from seat 2: seat 2 6D, seat 3 AS, seat 0 KH, seat 1 7D.
    stock = stock_of({1: "6S 7S 8S 9S", 2: "TS JS QS KS", 3: "AH 8D 9D TD", 0: "JD QD KD AD"},
                     ["6D", "AS", "KH", "7D"])
    state = street(DEALT, stock=stock, trump_card="9D")
    play(state, *TRICK1, "1 play 6S+7S+8S+9S", "2 play TS+JS+QS+KS", "3 pass AH+8D+9D+TD",
         "0 pass JD+QD+KD+AD")
    assert state.current_player() == 2 and [len(h) for h in state.hands] == [1, 1, 1, 1]
    play(state, "2 play 6D", "3 pass AS", "0 pass KH", "1 play 7D")
    # Team 0: 19 + 21 + 20 = 60 (trick 2); team 1: 45 + AS 11 + KH 4 = 60.
    assert state.deal_results[-1] == {"points": [60, 60], "tricks": [1, 2], "penalty": [0, 0],
                                      "ended_by": "cards-exhausted", "winner_team": None}
    assert state.penalty_total == [0, 0]


def test_graded_penalty_boundaries() -> None:
    rules = make_rules("street")
    assert deal_penalty(rules, [89, 31], [6, 2]).penalty == [0, 2]
    assert deal_penalty(rules, [90, 30], [6, 2]).penalty == [0, 4]
    assert deal_penalty(rules, [120, 0], [7, 1]).penalty == [0, 4]  # a trick without points
    assert deal_penalty(rules, [0, 120], [0, 8]).penalty == [6, 0]
    assert deal_penalty(rules, [59, 61], [3, 5]).penalty == [2, 0]
    score = deal_penalty(rules, [60, 60], [4, 4])
    assert score.penalty == [0, 0] and score.tie and score.winner_team is None


def test_match_lost_at_twelve_penalty_points() -> None:
    state = street(DEALT, stock=SIX_STOCK, trump_card="9D")
    play(state, *SIX_ACTIONS)
    assert state.penalty_total == [6, 0] and not state.is_terminal()
    # Deal 2 (dealer 1): seat 3 won the last trick and leads. The same deal turned two
    # seats clockwise keeps the teams, so team 0 again takes no trick: 6 + 6 = 12.
    state.apply_chance(KozelDeal.from_json(state.rules, {
        "hands": {str((s + 2) % 4): [str(c) for c in parse_cards(h)] for s, h in DEALT.items()},
        "stock": SIX_STOCK.split(), "trump_card": "9D"}))
    assert state.dealer == 1 and state.current_player() == 3
    play(state, *rotate(SIX_ACTIONS, 2))
    assert state.penalty_total == [12, 0]
    assert state.is_terminal() and state.result()["match_over"] and state.result()["loser_team"] == 0
    assert state.returns() == [-1.0, 1.0, -1.0, 1.0]


def test_trump_on_plain_is_refused_in_street() -> None:
    """Street's beats and passes have no following, so ``trump_on_plain`` (a
    single-card option) is not offered there (``applies``) and ``"always"`` is a
    one-line option error."""
    assert not make_rules("street").applies("trump_on_plain")
    assert make_rules("classic").applies("trump_on_plain")
    with pytest.raises(RulesError) as info:
        make_rules("street", options={"trump_on_plain": "always"})
    assert "trump_on_plain" in str(info.value) and "\n" not in str(info.value)


def test_trump_card_place_only_with_a_card_shown_from_the_stock() -> None:
    """``trump_card_place`` ([decision]) is about a card shown from the stock: where
    the card comes from the deck (shuffled back) or no card is shown it is not
    offered (``applies``), and ``"public"`` there is a one-line option error; the
    default ``"hidden"`` is the rules' words and any ruleset takes it."""
    assert make_rules("street").trump_card_place == "hidden"
    assert make_rules("street").applies("trump_card_place")
    assert make_rules("street", options={"trump_card_place": "public"}).trump_card_place == "public"
    assert make_rules("classic", options={"trump_suit": "drawn", "trump_card_from": "stock",
                                          "trump_card_place": "public"}).applies("trump_card_place")
    for preset, options in (("full-hand", {}), ("classic", {}), ("classic", {"trump_card_from": "stock"})):
        assert not make_rules(preset, options=options).applies("trump_card_place")
        with pytest.raises(RulesError) as info:
            make_rules(preset, options={**options, "trump_card_place": "public"})
        assert "trump_card_place" in str(info.value) and "\n" not in str(info.value)
    with pytest.raises(RulesError, match=r"^option trump_card_place='face-up' is not allowed"):
        make_rules("street", options={"trump_card_place": "face-up"})
