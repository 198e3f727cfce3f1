"""Spades ``pimc`` (:mod:`goat.bots.spades_pimc`): PIMC on Bo Haglund's DDS.

The endings are real deals played to their last two tricks (:data:`ENDING`),
so every view comes from a real state and the world sampler sees a real
history. The conversion to ``endplay`` is checked against a brute-force
search through our own engine on random small endings.
"""

from __future__ import annotations

import random
import sys
from typing import Any

import pytest

from goat.bots import BotError, bots_for, make_bot
from goat.bots.spades_pimc import (
    INSTALL_HINT,
    BidInference,
    SpadesPIMCBot,
    dd_tricks,
    deal_utility,
    fits_bids,
    unsupported,
)
from goat.cards import Card
from goat.games.spades import new_state
from goat.protocol import Action

from .conftest import act, bid, deal_state

pytest.importorskip("endplay")

#: A deal whose first eleven tricks are forced enough to write down (dealer 3, so
#: seat 0 leads): seat 2 ruffs clubs from trick 2 on (spades are broken), seat 0
#: ruffs every diamond; seat 0 wins trick 11 and leads trick 12 holding AH and 2C.
#: Then AH takes a trick for sure (no spade and no other heart is left), while
#: 2C loses to KC or QC — both with the opponents (seat 2 showed out of clubs) —
#: and may lose the last trick too. Tricks after 11: seats 3, 3, 3, 2 (team 0: 6).
ENDING_HANDS = [
    "3C 8C JC 4H 6H TH 4S 5S 8S 9S QS AH 2C",
    "AC 6C 9C KH 7H 9H 7D 9D AD AS TS KC 3D",
    "4C 2S 3S 6S JS 2H 5H JH 8D TD QD 4D 5D",
    "5C 7C TC 3H QH 8H 2D JD KD 7S KS QC 6D",
]
ENDING_PLAYS = [
    "0 play 3C", "1 play AC", "2 play 4C", "3 play 5C",
    "1 play 6C", "2 play 2S", "3 play 7C", "0 play 8C",
    "2 play 2H", "3 play 3H", "0 play 4H", "1 play KH",
    "1 play 9C", "2 play 3S", "3 play TC", "0 play JC",
    "2 play 5H", "3 play QH", "0 play 6H", "1 play 7H",
    "3 play 2D", "0 play 4S", "1 play 7D", "2 play 8D",
    "0 play 5S", "1 play AS", "2 play 6S", "3 play 7S",
    "1 play 9D", "2 play TD", "3 play JD", "0 play 8S",
    "0 play 9S", "1 play TS", "2 play JS", "3 play KS",
    "3 play 8H", "0 play TH", "1 play 9H", "2 play JH",
    "2 play QD", "3 play KD", "0 play QS", "1 play AD",
]
AH, LOW_CLUB = Action.parse("0 play AH"), Action.parse("0 play 2C")


def ending(bids: tuple[str, str, str, str], **match: Any):
    """The state at trick 12 of :data:`ENDING_HANDS` after ``bids`` (seats 0..3)."""
    state = deal_state(ENDING_HANDS, dealer=3, **match)
    bid(state, *bids)
    act(state, *ENDING_PLAYS)
    assert state.tricks_played == 11 and state.current_player() == 0
    assert state.tricks_by_seat == [3, 3, 3, 2]
    return state


def earlier_deal(bags: list[int]) -> dict[str, Any]:
    """Match facts after one earlier deal in which team 0 gathered ``bags[0]`` bags."""
    result = {"bids": ["1", "3", "1", "3"], "tricks": [5, 1, 5, 2], "score": [20 + bags[0], -60], "bags": bags}
    return {"deal_results": [result], "score_total": list(result["score"]), "bags_total": list(bags),
            "deals_played": 1}


def pimc(seed: int = 1, **settings: Any) -> SpadesPIMCBot:
    bot = make_bot("pimc", seed, game="spades", **settings)
    assert isinstance(bot, SpadesPIMCBot)
    return bot


# ------------------------------------------------------------- decisions
def test_plays_the_only_card_that_makes_the_contract() -> None:
    """Team 0 bid 7 and has 6: AH makes it in every world, 2C is set wherever the
    opponents also win the last trick."""
    view = ending(("4", "3", "3", "3"), single_deal=True).view(0)
    values = pimc().action_values(view)
    assert values[str(AH)] > values[str(LOW_CLUB)]
    assert pimc().choose(view) == AH


def test_ducks_a_trick_whose_bag_costs_the_bag_penalty() -> None:
    """Team 0 bid 5 and has 6 (one bag this deal) and carries 8 bags: AH's trick
    would be the tenth bag, −100. Without the carried bags AH is the better card
    (a bag is +1, and the opponents lose one); with them the bot ducks (2C)."""
    bids = ("2", "3", "3", "3")
    carried = ending(bids, **earlier_deal([8, 0])).view(0)
    assert carried["bags_total"] == [8, 0]
    assert pimc().choose(carried) == LOW_CLUB
    values = pimc().action_values(carried)
    assert values[str(AH)] < values[str(LOW_CLUB)]
    fresh = ending(bids, **earlier_deal([0, 0])).view(0)
    assert pimc().choose(fresh) == AH


def test_sets_the_opponents_where_the_heuristic_ducks() -> None:
    """Team 0 has made its 5; team 1 bid 7 and has 5, so it needs both last tricks.
    The heuristic ducks once its contract is made (2C) and lets them make it; the
    score says take the trick: AH sets them."""
    view = ending(("2", "4", "3", "3"), single_deal=True).view(0)
    assert make_bot("heuristic", 1, game="spades").choose(view) == LOW_CLUB
    assert pimc().choose(view) == AH


def test_utility_is_the_engines_score_difference() -> None:
    state = ending(("4", "3", "3", "3"), single_deal=True)
    # Team 0 takes both last tricks: 8 of 7 bid (+71); team 1 has 5 of 6 (−60).
    assert deal_utility(state, 0, 2) == 71 + 60
    # Team 0 takes none: 6 of 7 (−70); team 1 7 of 6 (+61). Seen from seat 1: the negative.
    assert deal_utility(state, 0, 0) == -70 - 61
    assert deal_utility(state, 1, 2) == 61 + 70


def test_a_deal_that_ends_the_match_counts_the_match() -> None:
    from goat.bots.spades_pimc import MATCH_VALUE

    match = {"deal_results": [{"bids": ["4", "4", "4", "1"], "tricks": [4, 4, 4, 1], "score": [450, 450],
                               "bags": [0, 0]}], "score_total": [450, 450], "bags_total": [0, 0], "deals_played": 1}
    state = ending(("4", "3", "3", "3"), **match)
    # 450 + 70 = 520 against 450 + 60: team 0 wins the match with one more trick...
    assert deal_utility(state, 0, 1) == 70 - 60 + MATCH_VALUE
    # ...and loses it with none: 450 - 70 against 450 + 61.
    assert deal_utility(state, 0, 0) == -70 - 61 - MATCH_VALUE


# ------------------------------------------------------------- bids as evidence
def test_hands_fit_bids_near_their_trick_estimate() -> None:
    """The heuristic estimates :data:`ENDING_HANDS` at 4.0, 4.2, 1.5 and 1.0 tricks."""
    assert fits_bids(ending(("4", "4", "2", "1"), single_deal=True), 0)
    assert not fits_bids(ending(("4", "7", "2", "1"), single_deal=True), 0)   # seat 1 holds no 7 tricks
    assert fits_bids(ending(("4", "7", "2", "1"), single_deal=True), 1)       # a seat's own bid is not evidence
    nil = deal_state(ENDING_HANDS, single_deal=True)
    bid(nil, "4", "4", "2", "nil")
    assert fits_bids(nil, 0)                                                   # 1.0 trick: a nil hand
    strong_nil = deal_state(ENDING_HANDS, single_deal=True)
    bid(strong_nil, "4", "nil", "2", "1")
    assert not fits_bids(strong_nil, 0)
    blind = deal_state(ENDING_HANDS, single_deal=True, score_total=[200, 0])
    bid(blind, "4", "blind-nil", "2", "1")
    assert fits_bids(blind, 0)                                                 # made unseen: no evidence


def test_bid_inference_takes_the_first_world_that_fits_within_its_tries() -> None:
    fitting = ending(("4", "4", "2", "1"), single_deal=True)
    misfit = ending(("4", "7", "2", "1"), single_deal=True)

    class Worlds:
        def __init__(self, *worlds):
            self.worlds, self.drawn = list(worlds), 0

        def sample(self, rng):
            self.drawn += 1
            return self.worlds.pop(0)

    sampler = Worlds(misfit, misfit, fitting, misfit)
    assert BidInference(sampler, 0, 8).sample(random.Random(1)) is fitting and sampler.drawn == 3
    sampler = Worlds(misfit, fitting)
    assert BidInference(sampler, 0, 1).sample(random.Random(1)) is misfit and sampler.drawn == 1
    last = ending(("4", "7", "2", "1"), single_deal=True)
    sampler = Worlds(misfit, misfit, last)
    assert BidInference(sampler, 0, 3).sample(random.Random(1)) is last      # none fits: the last draw


# ------------------------------------------------------------- conversion
def _brute(state) -> dict[Card, int]:
    """Tricks the side to play takes from here (this trick included) after each
    legal card, by playing every line out in our own engine."""
    team = state.current_player() % 2
    before = state.tricks_by_seat[team] + state.tricks_by_seat[team + 2]

    def final(s) -> int:
        if s.tricks_played == 13:
            return s.tricks_by_seat[team] + s.tricks_by_seat[team + 2]
        outcomes = []
        for a in s.legal_actions():
            child = s.clone()
            child.apply_action(a)
            outcomes.append(final(child))
        return max(outcomes) if s.current_player() % 2 == team else min(outcomes)

    out = {}
    for a in state.legal_actions():
        child = state.clone()
        child.apply_action(a)
        out[a.cards[0]] = final(child) - before
    return out


def _small_endings(count: int, seed: int):
    """Random positions with at most three cards a hand, some mid-trick, spades
    broken (so our engine's leads are DDS's free leads)."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = new_state("standard", single_deal=True, first_dealer=rng.randrange(4))
        state.apply_chance(state.sample_chance(rng))
        while state.phase == "bid":
            state.apply_action(rng.choice([a for a in state.legal_actions() if a.bid.isdigit()]))
        target = rng.randrange(40, 51)    # 10 tricks and 0..3 cards of the 11th, up to 12 tricks
        while state.tricks_played * 4 + len(state.trick) < target:
            state.apply_action(rng.choice(state.legal_actions()))
        if state.spades_broken and state.phase == "play":
            found.append(state)
    return found


def test_dds_on_the_converted_position_agrees_with_brute_force_in_our_engine() -> None:
    positions = _small_endings(40, seed=5)
    assert any(p.trick for p in positions) and any(not p.trick for p in positions)
    for state in positions:
        dds = dd_tricks(state)
        brute = _brute(state)
        assert {c: dds[c] for c in brute} == brute, (state.hands, state.trick)


# ------------------------------------------------------------- fallbacks
class Recorder:
    """A fallback that records being asked and answers with its first legal action."""

    name = "recorder"

    def __init__(self) -> None:
        self.asked = 0

    def choose(self, view):
        self.asked += 1
        return Action.parse(view["legal_actions"][0])

    def out_of_turn(self, view):
        return None


def _with_recorder(bot: SpadesPIMCBot) -> Recorder:
    """The recorder in place of both bots that decide where DDS cannot."""
    recorder = Recorder()
    bot.fallback = bot.nil_bot = recorder
    return recorder


def _until(state, predicate, rng: random.Random):
    while not predicate(state):
        actions = state.legal_actions()
        state.apply_action(rng.choice(actions))
    return state


def test_fallback_positions_and_their_reasons() -> None:
    rng = random.Random(3)
    cases = []
    s = deal_state(ENDING_HANDS)
    cases.append(("bid", s.view(0)))
    s = deal_state(ENDING_HANDS, options={"double_nil": True}, score_total=[0, 200])
    bid(s, "double-nil", "3", "3", "3")
    cases.append(("exchange", s.view(s.current_player())))
    s = new_state("joker-trumps", single_deal=True)
    s.apply_chance(s.sample_chance(rng))
    bid(s, "3", "3", "3", "3")
    cases.append(("jokers", s.view(s.current_player())))
    s = deal_state(ENDING_HANDS, options={"renege_penalty": True})
    bid(s, "3", "3", "3", "3")
    cases.append(("renege", s.view(0)))
    s = deal_state(ENDING_HANDS)
    bid(s, "nil", "3", "3", "3")
    cases.append(("nil", s.view(0)))                         # a live nil
    s = deal_state(ENDING_HANDS, rules="bemo")
    bid(s, "little-bemo", "3", "3", "3")
    cases.append(("bemo", s.view(0)))
    for reason, view in cases:
        assert unsupported(view) == reason, reason
        bot = pimc()
        recorder = _with_recorder(bot)
        assert str(bot.choose(view)) == view["legal_actions"][0] and recorder.asked, reason


def test_a_nil_bot_plays_the_live_nil_positions_and_only_those() -> None:
    s = deal_state(ENDING_HANDS)
    bid(s, "nil", "3", "3", "3")
    live_nil = s.view(0)
    s = deal_state(ENDING_HANDS, options={"renege_penalty": True})
    bid(s, "3", "3", "3", "3")
    renege = s.view(0)
    from goat.bots.ismcts import ISMCTSBot

    default = pimc(time_limit=0.5)
    assert isinstance(default.nil_bot, ISMCTSBot) and default.nil_bot.time_limit == 0.5   # a table's think time
    assert "nil_bot" not in default.name
    bot = pimc(nil_bot="random")
    assert bot.name == "pimc:worlds=20:nil_bot=random"
    fallback, nil = _with_recorder(bot), Recorder()
    bot.nil_bot = nil
    bot.choose(live_nil)
    assert (nil.asked, fallback.asked) == (1, 0)
    bot.choose(renege)
    bot.choose(deal_state(ENDING_HANDS).view(0))          # bidding: the fallback's
    assert (nil.asked, fallback.asked) == (1, 2)


def test_a_failed_nil_is_settled_only_where_its_tricks_count_toward_the_contract() -> None:
    """Seat 0 bids nil and takes trick 6 (it ruffs a diamond): the nil is lost. Under
    ``nil_tricks="bags"`` its later tricks still score apart from its partner's (the
    fallback decides); under ``"contract"`` only the side's total matters (DDS does)."""
    for nil_tricks, reason in (("bags", "nil"), ("contract", None)):
        state = deal_state(ENDING_HANDS, options={"nil_tricks": nil_tricks})
        bid(state, "nil", "3", "3", "3")
        act(state, *ENDING_PLAYS[:24])
        assert state.tricks_by_seat[0] == 1 and state.current_player() == 0
        view = state.view(0)
        assert unsupported(view) == reason
        bot = pimc(worlds=3)
        if reason is None:
            assert set(bot.action_values(view)) == set(view["legal_actions"])
        else:
            recorder = _with_recorder(bot)
            assert str(bot.choose(view)) == view["legal_actions"][0] and recorder.asked


def test_a_decided_bemo_is_scored_by_dds() -> None:
    """Team 0's little bemo is lost once team 1 takes trick 1: from then on the
    side totals are all the score needs."""
    state = deal_state(ENDING_HANDS, rules="bemo")
    bid(state, "little-bemo", "3", "3", "3")
    act(state, *ENDING_PLAYS[:4])                   # seat 1 wins trick 1 with AC
    assert unsupported(state.view(1)) is None


# ------------------------------------------------------------- the bot's contract
def _play_deal(rules: str, options: dict[str, Any] | None, bots: list, seed: int) -> list[str]:
    rng = random.Random(seed)
    state = new_state(rules, options=options, single_deal=True, first_dealer=seed % 4)
    state.apply_chance(state.sample_chance(rng))
    played = []
    while not state.is_terminal():
        seat = state.current_player()
        view = state.view(seat)
        action = bots[seat].choose(view)
        assert str(action) in view["legal_actions"]
        state.apply_action(action)
        played.append(str(action))
    return played


@pytest.mark.parametrize(("rules", "options"), [
    ("standard", None),
    ("standard", {"double_nil": True, "blind_nil_behind": 0, "nil_tricks": "contract"}),
    ("joker-trumps", None),
    ("bemo", None),
    ("no-early-spades", {"renege_penalty": True}),
])
def test_only_legal_actions_in_every_phase_and_deterministic_for_a_seed(rules: str, options) -> None:
    first = _play_deal(rules, options, [pimc(seat, worlds=3) for seat in range(4)], seed=11)
    again = _play_deal(rules, options, [pimc(seat, worlds=3) for seat in range(4)], seed=11)
    assert first == again


def test_a_time_limit_still_solves_one_world(monkeypatch: pytest.MonkeyPatch) -> None:
    import goat.bots.spades_pimc as module

    solved = []
    real = module.dd_tricks
    monkeypatch.setattr(module, "dd_tricks", lambda state: solved.append(1) or real(state))
    view = ending(("4", "3", "3", "3"), single_deal=True).view(0)
    bot = pimc(worlds=50, time_limit=1e-9)
    assert bot.choose(view) == AH
    assert len(solved) == 1                 # the deadline passed at once: one world, not none


def test_settings_and_registration() -> None:
    from goat.bots.pimc import PIMCBot

    assert isinstance(make_bot("pimc", 1), PIMCBot)                       # Kozel's stays
    assert pimc(worlds=7, time_limit=0.5).name == "pimc:worlds=7:time_limit=0.5"
    assert pimc(infer=1).name == "pimc:worlds=20:infer=1"
    assert "pimc" in bots_for("spades") and "perfect" not in bots_for("spades")
    for settings in ({"worlds": 0}, {"worlds": "many"}, {"time_limit": -1}, {"fallback": "pimc"}, {"infer": 0},
                     {"fallback": "nonsense"}, {"nonsense": 1}, {"nil_bot": "pimc"}, {"nil_bot": "nonsense"},
                     {"nil_bot": 3}):
        with pytest.raises(BotError) as err:
            make_bot("pimc", 1, game="spades", **settings)
        assert "\n" not in str(err.value)
    assert make_bot("pimc", 1, game="spades").fallback.name == "heuristic"
    assert make_bot("pimc", 1, game="spades", fallback="random").fallback.name == "random"   # the one named
    stand_in = make_bot("pimc", 1, game="spades", stand_in=True)
    assert stand_in.fallback.stand_in                      # the fallback bids: no blind gamble


def test_without_endplay_the_bot_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("endplay", "endplay.dds", "endplay.types"):
        monkeypatch.setitem(sys.modules, name, None)       # `import endplay...` now fails
    assert not SpadesPIMCBot.available()
    with pytest.raises(BotError, match=r"pip install 'goat\[dds\]'") as err:
        make_bot("pimc", 1, game="spades")
    assert "\n" not in str(err.value) and INSTALL_HINT in str(err.value)
    assert "pimc" not in bots_for("spades") and {"random", "heuristic", "ismcts"} <= set(bots_for("spades"))
    from goat.server.tables import table_bots

    assert "pimc" not in table_bots("spades") and "pimc" in table_bots("kozel")


def test_a_nil_written_0_is_a_live_nil_to_the_bot() -> None:
    """"0" is a nil bid too: the view spells it "nil" (before, the bot read "0"
    as a number bid and let DDS play the live nil for tricks)."""
    s = deal_state(ENDING_HANDS)
    bid(s, "0", "3", "3", "3")
    assert unsupported(s.view(1)) == "nil"
