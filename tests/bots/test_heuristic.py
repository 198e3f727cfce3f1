"""The heuristic bot: hand-made positions (each expected card reasoned from the
rules and the bot's documented policy), legality across whole matches, and a
duplicate strength check against the random bot."""

from __future__ import annotations

import json
import random
import statistics
import sys
from pathlib import Path
from typing import Any

import pytest

from goat.bots import make_bot
from goat.bots.base import play_bots
from goat.bots.heuristic import HeuristicBot, read_view
from goat.bots.random_bot import RandomBot
from goat.cards import Card
from goat.games.kozel import new_state
from goat.games.kozel.rules import CARD_POINTS, QUEEN_OF_CLUBS, SHAMOK
from goat.protocol import Action

# tests/bots is not a package: reach the Kozel test helpers the way pytest
# itself imports them (tests/ on sys.path, module ``kozel.conftest``).
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from kozel.conftest import apply_deal, deal_state, play
from tests.fast.test_solver import trumps_on_held_suit

RULESETS = [("classic", 4), ("full-hand", 4), ("full-hand", 3), ("full-hand", 2),
            ("full-hand-24", 4), ("street", 4)]


def choice(state, seed: int = 0) -> str:
    """The heuristic's move for the seat to act, from that seat's view only."""
    seat = state.current_player()
    action = HeuristicBot(seed=seed).choose(state.view(seat))
    assert str(action) in state.view(seat)["legal_actions"]
    return str(action)


def test_registry_knows_the_heuristic_bot() -> None:
    bot = make_bot("heuristic", seed=1)
    assert isinstance(bot, HeuristicBot) and bot.name == "heuristic"


# ------------------------------------------------------------- single-card play
def test_does_not_overtake_partners_winning_ace_with_a_trump() -> None:
    # Dealer 0 leads AH; seat 1 follows 7H. Seat 2 (seat 0's partner) has no
    # heart: any card is legal. Its trumps JD/QS would only take its partner's
    # trick; it throws a zero plain card instead.
    s = deal_state("classic", hands={"0": "AH 9C KC TC", "1": "7H 8H 9H KH",
                                     "2": "JD QS 8S 9D", "3": "7S AS TS KS"}, dealer=0)
    play(s, "0 play AH", "1 play 7H")
    assert choice(s) in {"2 play 8S", "2 play 9D"}


def test_feeds_an_ace_to_a_partner_whose_shamok_lead_cannot_be_beaten() -> None:
    # Trick 1: 0:9H 1:7H 2:AH 3:8H -> seat 2 (AH). Draws from seat 2: KH, JH, 7S, 7D.
    # Trick 2: seat 2 leads 7C (the highest card: no one can beat it); seat 3
    # follows 8C. Seat 0 holds no trump, so any card: it feeds its ace AD.
    hands = {"0": "9H AD 8D 9S", "1": "7H KS 8S TS", "2": "AH 7C KD 9D", "3": "8H 8C 9C TD"}
    stock = "KH JH 7S 7D TC JC QC KC AC JD QD TH QH JS QS AS"
    s = deal_state("classic", hands=hands, stock=stock, dealer=0)
    play(s, "0 play 9H", "1 play 7H", "2 play AH", "3 play 8H")
    play(s, "2 play 7C", "3 play 8C")
    assert choice(s) == "0 play AD"


def test_dumps_a_zero_point_card_when_the_trick_is_lost() -> None:
    # Dealer 1 leads AH; seat 2 has no heart and no trump, so it cannot win:
    # it throws 7D (0 points), not KS, TS or AD.
    s = deal_state("classic", hands={"1": "AH 8H 9H KH", "2": "KS 7D AD TS",
                                     "3": "7H 8S 9S JD", "0": "QC 7C TH 9D"}, dealer=1)
    play(s, "1 play AH")
    assert choice(s) == "2 play 7D"


def test_wins_with_the_cheapest_winning_trump_when_last() -> None:
    # Dealer 1 leads KH; 2 follows 7H; 3 (void in hearts) trumps with JD. Seat 0
    # is last and void in hearts: JS, QH and QS all beat JD; the cheapest is JS.
    s = deal_state("classic", hands={"1": "KH 8H 9H AH", "2": "7H 8S 9S TS",
                                     "3": "JD 7D 8D 9D", "0": "JS QH QS 8C"}, dealer=1)
    play(s, "1 play KH", "2 play 7H", "3 play JD")
    assert choice(s) == "0 play JS"


def test_wins_with_the_cheapest_plain_card_when_last() -> None:
    # Dealer 1 leads 9S; 2 follows 7S; 3 plays KS. Seat 0 must follow spades with
    # TS or AS: both win; the cheaper TS is enough (10 points on our side).
    s = deal_state("classic", hands={"1": "9S 8H 9H AH", "2": "7S 8S TH KH",
                                     "3": "KS 7D 8D 9D", "0": "TS AS 8C 9C"}, dealer=1)
    play(s, "1 play 9S", "2 play 7S", "3 play KS")
    assert choice(s) == "0 play TS"


@pytest.mark.parametrize("trump_on_plain, expected", [("when-void", "0 play 7H"), ("always", "0 play JD")])
def test_trumps_a_rich_trick_instead_of_following_low_under_trump_on_plain_always(
        trump_on_plain: str, expected: str) -> None:
    # Dealer 1 leads AH; 2 follows 8H; 3 follows TH: 21 points, seat 1's ace wins.
    # Seat 0 is last and holds 7H, which cannot win. Under "when-void" it must
    # follow with it; under "always" it may trump though it holds a heart, and
    # takes the 21 points with JD (a sure win: it is last).
    s = deal_state("classic", hands={"1": "AH 7S 8S 9S", "2": "8H 7D 8D KS",
                                     "3": "TH 9H TS AS", "0": "7H JD 9D KD"}, dealer=1,
                   options={"trump_on_plain": trump_on_plain})
    play(s, "1 play AH", "2 play 8H", "3 play TH")
    assert choice(s) == expected


def test_feeds_the_ten_to_a_partner_holding_the_trick_when_last() -> None:
    # Dealer 1 leads 9S; seat 2 wins it with AS; seat 3 follows 7S. Seat 0
    # (seat 2's partner) is last and must follow spades with KS or TS; neither
    # overtakes AS, and the ten puts the most points on its side.
    s = deal_state("classic", hands={"1": "9S 8H 9H AH", "2": "AS 8S TH KH",
                                     "3": "7S 7D 8D 9D", "0": "KS TS 8C 9C"}, dealer=1)
    play(s, "1 play 9S", "2 play AS", "3 play 7S")
    assert choice(s) == "0 play TS"


@pytest.mark.parametrize("lead, expected", [("8D", "2 play 7H"), ("AD", "2 play QS")])
def test_ruffs_with_a_queen_only_a_trick_worth_it(lead: str, expected: str) -> None:
    # Dealer 1 leads a diamond; seat 2 has none and holds 7C QS 7H 9S. QS would
    # very probably win, but on 8D it would take nothing but its own 3 points:
    # the queen is kept for a richer trick and a zero card goes. On AD (11
    # points) the queen is well spent.
    hands = {"1": f"{lead} 8H 9H AH", "2": "7C QS 7H 9S", "3": "9D KH TS KS",
             "0": f"{'AD' if lead == '8D' else '8D'} 8S JD 9C"}
    s = deal_state("classic", hands=hands, dealer=1)
    play(s, f"1 play {lead}")
    assert choice(s) == expected


def test_does_not_spend_the_shamok_to_guard_a_partners_ace() -> None:
    # Dealer 0 leads AD; seat 1 follows 8D. Seat 2 has no diamond; its only sure
    # winner is the shamok. Seat 3 may ruff the ace (about half the time), but
    # the 11 points at risk are not worth the highest card of the deck: seat 2
    # throws a zero card and keeps 7C.
    s = deal_state("classic", hands={"0": "AD 8H 9H AH", "1": "8D KH TS KS",
                                     "2": "7C 7H 9S 8S", "3": "9D 9C JD QD"}, dealer=0)
    play(s, "0 play AD", "1 play 8D")
    assert choice(s) == "2 play 7H"


def test_gives_a_queen_not_the_shamok_under_a_partners_ace() -> None:
    # Dealer 1 leads 9H; seat 2 (seat 0's partner) wins it with AH; seat 3
    # follows 7H. Seat 0 is last, has no heart and holds only trumps: 7C QH QS
    # QC. The trick is its side's whatever it plays, and no card is worth
    # feeding; the cheapest to part with is QH (its 3 points come to us), never
    # the shamok, which would win a later trick on its own.
    s = deal_state("classic", hands={"1": "9H 8S 9S KS", "2": "AH 7D 8D 9D",
                                     "3": "7H KD TD AD", "0": "7C QH QS QC"}, dealer=1)
    play(s, "1 play 9H", "2 play AH", "3 play 7H")
    assert choice(s) == "0 play QH"


def test_plays_the_shamok_to_catch_an_opponents_queen_of_clubs() -> None:
    # Dealer 1 leads 9S; 2 follows 8S; 3 (void in spades) trumps with QC. Seat 0,
    # void in spades, plays 7C: the shamok catches the queen, the deal ends and
    # seat 3's team gets 4 penalty points.
    s = deal_state("classic", hands={"1": "9S 8H 9H AH", "2": "8S 7H TH KH",
                                     "3": "QC 7D 8D 9D", "0": "7C AD 8C KD"},
                   dealer=1, single_deal=True)
    play(s, "1 play 9S", "2 play 8S", "3 play QC")
    action = choice(s)
    assert action == "0 play 7C"
    play(s, action)
    assert s.deal_results[-1]["ended_by"] == "shamok-caught-queen"
    assert s.deal_results[-1]["penalty"] == [0, 4]


def test_does_not_play_the_queen_of_clubs_while_an_opponent_may_hold_the_shamok() -> None:
    # Dealer 1 leads AS (11 points); seat 2 is void in spades and holds QC, JD
    # and two zero cards. QC would be beaten only by 7C — which seat 3 may hold —
    # and would then cost 4 penalty points: the bot keeps the queen.
    s = deal_state("classic", hands={"1": "AS 8H 9H AH", "2": "QC JD 8D 7H",
                                     "3": "7S 7C 9D TD", "0": "KS TS 8C 9C"}, dealer=1)
    play(s, "1 play AS")
    assert choice(s) != "2 play QC"


def test_forced_exchange_gives_the_lowest_trump_and_returns_a_plain_card() -> None:
    # Classic, dealer 3: seat 3 makes the opening lead, which must be plain, but
    # holds only trumps: it gives one to its partner (seat 1), who gives back a
    # plain card that seat 3 must lead.
    state = new_state("classic", first_dealer=3)
    apply_deal(state, {"3": "8C JD QS KC", "0": "7H 8H 9H TH", "1": "AD KD 9D 8D",
                       "2": "7S AS 9S KS"})
    action = choice(state)
    assert action == "3 give 8C"  # the lowest trump
    play(state, action)
    # Seat 1 (partner of 3) holds only diamonds as plain cards, and 4 of the 6
    # diamonds: the opponents are most likely void and would trump any diamond
    # lead, so it returns the cheapest one, 8D (not the ace, not the king).
    assert choice(state) == "1 give 8D"
    play(state, "1 give 8D")
    assert choice(state) == "3 play 8D"


def test_partner_exchange_sheds_a_singleton() -> None:
    # Full-hand, trump card 9H: hearts are trump. Seat 1 (left of dealer 0) gives
    # first. Its only diamond is 8D, a singleton: giving it makes a void.
    hands = {"0": "7C 8C 9C TC JC QC KC AC", "1": "8D 7S 8S 9S TS AS KS JD",
             "2": "7D 9D TD QD KD AD 7H 8H", "3": "9H TH JH QH KH AH JS QS"}
    s = deal_state("full-hand", hands=hands, trump_card="9H", dealer=0)
    assert s.current_player() == 1
    assert choice(s) == "1 give 8D"


def test_knowledge_tracks_cards_out_and_voids() -> None:
    s = deal_state("classic", hands={"1": "AH 8H 9H KH", "2": "KS 7D AD TS",
                                     "3": "7H 8S 9S JD", "0": "QC 7C TH 9D"}, dealer=1)
    play(s, "1 play AH", "2 play 7D", "3 play 7H", "0 play TH")
    know = read_view(s.view(0))
    assert {Card.parse(c) for c in ("AH", "7D", "7H", "TH")} <= know.out
    # Seat 2 showed out of hearts, but then drew from the stock: no longer known void.
    assert know.voids[2] == set()
    assert Card.parse("QC") not in know.unseen and Card.parse("AH") not in know.unseen


# ------------------------------------------------------------------ street
def street(hands: dict[int, str], trump_card: str = "QD", dealer: int = 0):
    return deal_state("street", hands={str(k): v for k, v in hands.items()}, trump_card=trump_card,
                      dealer=dealer)


def test_street_passes_the_lowest_cards_when_it_cannot_beat() -> None:
    # Diamonds trump (QD shown). Seat 1 leads AD+TD, the two top trumps: nothing
    # beats them. Seat 2 must pass two cards: the cheapest are 6S and 7C.
    s = street({1: "AD TD 6H 7H", 2: "6S KH 7C AS", 3: "8S 8C 8H 9C", 0: "9S 9H JC JH"})
    play(s, "1 play AD+TD")
    action = Action.parse(choice(s))
    assert action.verb == "pass" and {str(c) for c in action.cards} == {"6S", "7C"}


def test_street_beats_a_rich_lead_when_last() -> None:
    # Seat 1 leads TS (10 points); 2 and 3 pass. Seat 0 is last and holds AS: the
    # only beat, and a sure one: 21 points for one ace.
    s = street({1: "TS 6H 7H 8H", 2: "6S 7S 8C 9C", 3: "6C 7C 8D 9D", 0: "AS 9H JC JH"})
    play(s, "1 play TS", "2 pass 6S", "3 pass 6C")
    assert choice(s) == "0 play AS"


def test_street_does_not_beat_a_partners_sure_trick_and_feeds_it() -> None:
    # Diamonds trump. Seat 1 leads 6S; seat 2 (seat 0's partner) beats it with
    # KD; seat 3 passes. Seat 0 is last: it could beat KD with AD, but the trick
    # is already its side's, so it passes — feeding its plain ace AS, not AD.
    s = street({1: "6S 6H 7H 8H", 2: "KD 7S 8C 9C", 3: "6C 7C 8D 9D", 0: "AD AS 9H JC"})
    play(s, "1 play 6S", "2 play KD", "3 pass 6C")
    assert "0 play AD" in s.view(0)["legal_actions"]
    assert choice(s) == "0 pass AS"


def test_street_declares_molodka_with_four_top_trumps() -> None:
    # Seat 1 leads 6S; seat 3 holds AD TD KD JD: four trumps including the top
    # one, a set nobody can beat. It declares molodka out of turn.
    s = street({1: "6S 6H 7H 8H", 2: "7S 8S 8C 9C", 3: "AD TD KD JD", 0: "AS 9H JC 6D"})
    play(s, "1 play 6S")
    claim = HeuristicBot(seed=1).out_of_turn(s.view(3))
    assert claim is not None and str(claim) == "3 molodka JD+KD+TD+AD"
    play(s, claim)
    assert s.trick_leader == 3 and s.current_player() == 0


def test_street_no_molodka_into_the_trumps_the_restart_hands_back() -> None:
    # Hearts trump (QH shown). Seat 0 leads four trumps 7H+8H+JH+AH. Seat 3 could
    # declare molodka with 6C 7C 9C AC, but the restart gives seat 0 its four
    # trumps back, and they beat any four clubs: the molodka would hand the
    # opponents AC and the trick. Passing three low clubs costs nothing.
    s = street({0: "7H 8H JH AH", 1: "6S 8S 9D TD", 2: "7S 9S 6D 7D", 3: "6C 7C 9C AC"},
               trump_card="QH", dealer=3)
    play(s, "0 play 7H+8H+JH+AH")
    assert "3 molodka 6C+7C+9C+AC" in s.view(3)["legal_actions"]
    assert all(HeuristicBot(seed=seed).out_of_turn(s.view(3)) is None for seed in range(3))


# ------------------------------------------------------------ legality, strength
class Checked:
    """Wraps a bot; fails unless every answer is one of the view's legal actions."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.name, self.calls = inner, inner.name, 0

    def choose(self, view: dict[str, Any]) -> Action:
        self.calls += 1
        action = self.inner.choose(view)
        assert str(action) in view["legal_actions"] and action.seat == view["seat"]
        return action

    def out_of_turn(self, view: dict[str, Any]) -> Action | None:
        action = self.inner.out_of_turn(view)
        assert action is None or str(action) in view["legal_actions"]
        return action


@pytest.mark.parametrize("rules,players", RULESETS)
def test_always_legal_across_whole_matches(rules: str, players: int) -> None:
    for game in range(3):
        state = new_state(rules, players=players, first_dealer=game % players)
        bots = [Checked(HeuristicBot(seed=10 * game + i) if (i + game) % 3 else RandomBot(seed=i))
                for i in range(players)]
        play_bots(state, bots, random.Random(game))
        assert state.is_terminal() and state.match_over
        assert sum(b.calls for b in bots if b.name == "heuristic") > 0


@pytest.mark.parametrize("rules,players", [("classic", 4), ("full-hand", 4), ("full-hand", 3), ("full-hand", 2)])
def test_always_legal_under_trump_on_plain_always(rules: str, players: int) -> None:
    """Under ``trump_on_plain="always"`` the heuristic plays only legal cards, and
    it does use the rule: some of its follows are trumps played while holding
    the plain suit led."""
    trumped = 0
    for game in range(2):
        state = new_state(rules, players=players, first_dealer=game % players,
                          options={"trump_on_plain": "always"})
        bots = [Checked(HeuristicBot(seed=10 * game + i)) for i in range(players)]
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_chance(state.sample_chance(random.Random(game * 1000 + len(state.deal_results))))
                continue
            seat = state.current_player()
            action = bots[seat].choose(state.view(seat))
            trumped += trumps_on_held_suit(state, action)
            state.apply_action(action)
    assert trumped > 0


def duplicate_balance(rules: str, deals: int) -> list[int]:
    """Each deal twice: heuristic as team 0 then team 1 against random, the same
    cards (same chance seed). Returns the heuristic team's penalty balance
    (opponents' penalty − own) of each game."""
    balances = []
    for deal in range(deals):
        for team in (0, 1):
            state = new_state(rules, first_dealer=deal % 4, single_deal=True)
            bots = [HeuristicBot(seed=deal * 8 + seat) if seat % 2 == team
                    else RandomBot(seed=deal * 8 + seat + 4) for seat in range(4)]
            play_bots(state, bots, random.Random(1000 + deal))
            pen = state.penalty_total
            balances.append(pen[1 - team] - pen[team])
    return balances


@pytest.mark.parametrize("rules,deals,margin", [("classic", 200, 0.15), ("full-hand", 200, 0.15),
                                                ("street", 100, 2.0)])
def test_beats_random_in_duplicate_deals(rules: str, deals: int, margin: float) -> None:
    balances = duplicate_balance(rules, deals)
    mean = statistics.mean(balances)
    half_width = 1.96 * statistics.stdev(balances) / len(balances) ** 0.5
    print(f"{rules}: heuristic vs random {mean:+.2f} ± {half_width:.2f} penalty points per deal")
    assert mean - half_width > margin


def test_registry_passes_settings_and_rejects_unknown_ones() -> None:
    from goat.bots import BotError
    assert make_bot("heuristic", 2, samples=8).samples == 8
    with pytest.raises(BotError):
        make_bot("heuristic", 2, iterations=5)


def test_leads_the_top_trump_once_the_shamok_and_queen_of_clubs_are_out() -> None:
    # Dealer 1. Trick 1: 1:9H 2:QC (void) 3:8H 0:7C (void) -> seat 0 (the
    # shamok; QC came from its own partner, so nothing is caught). Seat 0 draws AH.
    # Now QS is the highest trump left, seat 0 holds three trumps (QS JD 8C) and
    # the opponents may hold more: it leads QS rather than risk AH to a ruff.
    hands = {"1": "9H 7H KD 9D", "2": "QC 8D 9S 7S", "3": "8H KH TD 7D", "0": "7C QS JD 8C"}
    stock = "AH 9C TC JC KC AC QD AD TH JH QH 8S TS JS KS AS"
    s = deal_state("classic", hands=hands, stock=stock, dealer=1)
    play(s, "1 play 9H", "2 play QC", "3 play 8H", "0 play 7C")
    assert s.current_player() == 0 and "AH" in {str(c) for c in s.hands[0]}
    know = read_view(s.view(0))
    assert Card.parse("7C") in know.out and Card.parse("QC") in know.out
    assert choice(s) == "0 play QS"


@pytest.mark.parametrize("rules,players", RULESETS)
def test_decides_from_the_plain_view_alone_and_leaves_it_untouched(rules: str, players: int) -> None:
    # Random positions: the bot's answer from the view equals its answer from a
    # JSON copy of it (nothing but the view's data matters), and the view is not
    # modified.
    rng = random.Random(11)
    for game in range(4):
        state = new_state(rules, players=players, first_dealer=game % players, single_deal=True)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_chance(state.sample_chance(rng))
                continue
            seat = state.current_player()
            view = state.view(seat)
            before = json.dumps(view, sort_keys=True)
            action = HeuristicBot(seed=5).choose(view)
            assert json.dumps(view, sort_keys=True) == before
            assert HeuristicBot(seed=5).choose(json.loads(before)) == action
            state.apply_action(action if rng.random() < 0.5 else rng.choice(state.legal_actions()))


def test_a_seat_that_receives_a_trump_in_a_forced_exchange_is_no_longer_void_in_trumps() -> None:
    # Full-hand, clubs trump (8C shown), no partner exchange, trump_lead
    # "not-after-own-lead". Trick 2: seat 1 leads 8C and seat 2 shows void in
    # trumps (7S). Trick 3 is led by seat 0, so seat 0 may not lead a trump in
    # trick 4 and holds only trumps: it gives JH to its partner, seat 2, who
    # returns its only diamond 7D, and seat 0 leads it. Seat 2 now holds a trump
    # and no diamond. Seat 1 must not count AD as a sure winner on the strength
    # of seat 2's old void: it keeps the ace and follows low.
    hands = {"0": "7H QC JD JH JS QD QH AC", "1": "AH 8C KC JC 8D 9D AD KH",
             "2": "8H 7S 8S 9S KS TS AS 7D", "3": "9H 9C TC QS 7C TD KD TH"}
    s = deal_state("full-hand", hands=hands, trump_card="8C", dealer=0,
                   options={"partner_exchange": 0, "trump_lead": "not-after-own-lead"})
    play(s, "0 play 7H", "1 play AH", "2 play 8H", "3 play 9H")
    play(s, "1 play 8C", "2 play 7S", "3 play 9C", "0 play QC")
    assert "trump" in read_view(s.view(1)).voids[2]
    play(s, "0 play JD", "1 play KC", "2 play 8S", "3 play TC")
    play(s, "0 give JH", "2 give 7D", "0 play 7D")
    assert read_view(s.view(1)).voids[2] == set()
    assert choice(s) != "1 play AD"


# ------------------------------------------------- invariants over random play
SCAN = [("classic", 4, {}), ("full-hand", 4, {}), ("full-hand", 3, {}), ("full-hand", 2, {}),
        ("full-hand-24", 4, {}), ("classic", 4, {"trump_on_plain": "always", "trump_lead": "not-after-own-lead"}),
        ("full-hand", 4, {"must_follow_trump": False, "partner_exchange": 0, "trump_lead": "not-after-own-lead"})]


def check_knowledge(state, seat: int) -> None:
    """What read_view deduces is true of the hidden state: every card another
    seat or the stock holds is unseen (or known to be with the partner), a seat
    said to be void in a suit holds none of it, the cards given to the partner
    are in its hand."""
    know = read_view(state.view(seat))
    hidden = {c for s, hand in enumerate(state.hands) if s != seat for c in hand} | set(state.stock)
    assert hidden <= set(know.unseen) | know.with_partner, (seat, hidden - set(know.unseen))
    for other, voids in enumerate(know.voids):
        held = {state.order.suit_of(c) for c in state.hands[other]}
        assert not voids & held, (seat, other, voids & held)
    if know.with_partner and state.phase == "play":
        assert know.with_partner <= set(state.hands[(seat + 2) % 4])


def check_follow(state, view, card: Card) -> None:
    """Single-card follows a player would never get wrong:

    * an opponent's QC on the table and 7C playable: the shamok catches it;
    * the partner holds the trick and no card any later opponent may hold beats
      it (the seat's own knowledge, checked true by check_knowledge): no
      zero-point card takes the trick from the partner if another card does not;
      a plain ten or ace that may be played under it feeds the trick;
    * an opponent holds the trick and no playable card beats it (and no partner
      is still to play): a zero-point card goes if there is one besides 7C.
    """
    order, n, seat = state.order, state.rules.players, view["seat"]
    know = read_view(view)
    plays = [(p.seat, p.cards[0]) for p in state.trick]
    legal = [Card.parse(a.split()[2]) for a in view["legal_actions"]]
    led = order.suit_of(plays[0][1])
    best_seat, best = plays[0]
    for s, c in plays[1:]:
        if order.beats(c, best):
            best_seat, best = s, c
    after = [(seat + i) % n for i in range(1, n - len(plays))]
    points = {c: CARD_POINTS[c.rank] for c in legal}
    on_table = {c: s for s, c in plays}
    if QUEEN_OF_CLUBS in on_table and not know.mate(on_table[QUEEN_OF_CLUBS]) and SHAMOK in legal \
            and state.rules.shamok_catches_queen:
        assert card == SHAMOK
        return
    if know.mate(best_seat):
        safe = not any(order.beats(c, best) for s in after if not know.mate(s) for c in know.pool(s))
        under = [c for c in legal if not order.beats(c, best)]
        if safe and under:
            assert not (order.beats(card, best) and points[card] == 0), (view["hand"], plays, card)
            if any(c.rank in "TA" and not order.is_trump(c) for c in under):
                assert points[card] >= 10, (view["hand"], plays, card)
    elif not any(order.beats(c, best) for c in legal) and not any(know.mate(s) for s in after):
        zero = [c for c in legal if points[c] == 0 and c != SHAMOK]
        if zero:
            assert points[card] == 0, (view["hand"], plays, card)


def check_street_answer(state, view, action: Action) -> None:
    """Street: the partner owns the best set and one of its cards is beaten by
    no card still unseen: the trick is ours, so the bot passes (feeds) rather
    than beat its partner."""
    know = read_view(view)
    best = state.trick[state.best_index]
    if know.mate(best.seat) and any(not any(state.order.beats(c, b) for c in know.unseen) for b in best.cards):
        assert action.verb == "pass", (view["hand"], [str(c) for c in best.cards], str(action))


@pytest.mark.parametrize("rules,players,options", [*SCAN, ("street", 4, {})])
def test_invariants_over_random_deals(rules: str, players: int, options: dict[str, Any]) -> None:
    """40 deals per ruleset, every seat the heuristic: its knowledge is true of
    the real state at every step, and its follows keep the invariants above."""
    checked = 0
    for deal in range(40):
        rng = random.Random(deal)
        state = new_state(rules, players=players, options=options, first_dealer=deal % players,
                          single_deal=True)
        bots = [HeuristicBot(seed=deal * 10 + seat) for seat in range(players)]
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_chance(state.sample_chance(rng))
                continue
            seat = state.current_player()
            check_knowledge(state, seat)
            view = state.view(seat)
            action = bots[seat].choose(view)
            if state.trick and rules == "street":
                check_street_answer(state, view, action)
                checked += 1
            elif state.trick and action.verb == "play":
                check_follow(state, view, action.cards[0])
                checked += 1
            state.apply_action(action)
    assert checked > 100
