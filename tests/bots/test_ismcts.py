"""The ISMCTS bot: legal play in every ruleset from views only, seeded
determinism, and hand-made positions where one move is clearly best."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

from goat.bots import BotError, ISMCTSBot, make_bot
from goat.bots.ismcts import deal_rewards
from goat.games.kozel import KozelState, new_state
from goat.protocol import Action

# tests/bots is not a package: reach the Kozel test helpers the way pytest
# itself imports them (tests/ on sys.path, module ``kozel.conftest``).
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from kozel.conftest import deal_state, play

RULESETS = [("classic", 4), ("full-hand", 4), ("full-hand", 3), ("full-hand", 2),
            ("full-hand-24", 4), ("street", 4)]


def as_json(view: dict) -> dict:
    """Only plain JSON reaches the bot: nothing it could follow to the state."""
    return json.loads(json.dumps(view))


def play_deal(state: KozelState, bots: list, rng: random.Random) -> list[str]:
    """Play to the end, handing each bot only its JSON view; check every answer
    is legal for that view (and out-of-turn answers too). Returns the actions."""
    actions = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance(state.sample_chance(rng))
            continue
        current = state.current_player()
        chosen = None
        for seat in sorted({a.seat for a in state.legal_actions()} - {current}):
            view = as_json(state.view(seat))
            claim = bots[seat].out_of_turn(view)
            if claim is not None:
                assert str(claim) in view["legal_actions"] and claim.verb == "molodka"
                chosen = claim
                break
        if chosen is None:
            view = as_json(state.view(current))
            chosen = bots[current].choose(view)
            assert str(chosen) in view["legal_actions"]
        state.apply_action(chosen)
        actions.append(str(chosen))
    return actions


@pytest.mark.parametrize("preset,players", RULESETS)
def test_plays_whole_deals_legally_from_views(preset, players):
    state = new_state(preset, players=players, single_deal=True, first_dealer=1 % players)
    bots = [make_bot("ismcts", seat, iterations=12) for seat in range(players)]
    actions = play_deal(state, bots, random.Random(3))
    assert state.is_terminal() and actions
    assert state.result()["deals"][-1]["ended_by"] != "unfinished"


def test_fixed_seed_is_deterministic():
    def run() -> list[str]:
        state = new_state("street", single_deal=True)
        return play_deal(state, [make_bot("ismcts", 7 + s, iterations=10) for s in range(4)], random.Random(5))

    assert run() == run()


def test_finds_the_shamok_catch():
    """Classic, dealer 0. Trick 1 (hearts): 0:9H 1:AH 2:8H 3:7H — AH wins, seat 1
    leads. Seat 1 leads QC; seat 2 holds the shamok 7C: playing it catches the
    queen of clubs (different teams), the deal ends and seat 1's team gets 4
    penalty points. Any other trump lets QC (or better) take the trick."""
    state = deal_state("classic", dealer=0, hands={
        "0": "9H 7S 8S 9S", "1": "AH QC 7D 8D", "2": "8H 7C 8C 9D", "3": "7H KS KD TD"})
    play(state, "0 play 9H", "1 play AH", "2 play 8H", "3 play 7H", "1 play QC")
    view = as_json(state.view(2))
    assert "2 play 7C" in view["legal_actions"] and len(view["legal_actions"]) > 1
    for seed in range(3):
        assert str(ISMCTSBot(seed, iterations=60).choose(view)) == "2 play 7C"


def test_street_takes_the_trick_it_cannot_lose():
    """Street, spades trump (KS shown). Seat 1 leads AH+TH; seat 2 holds AS+TS, the
    two highest trumps: beating with them wins the trick for sure (nobody can beat
    an ace and ten of trumps), taking at least 42 points; passing gives them away."""
    state = deal_state("street", dealer=0, trump_card="KS", hands={
        "1": "AH TH 6D 7D", "2": "AS TS 6C 7C", "3": "6H 7H 8H 9H", "0": "8D 9D JD QD"},
        stock="6S 7S 8S 9S JS QS KS 8C 9C JC QC KC TC AC KD TD AD JH QH KH")
    play(state, "1 play AH+TH")
    view = as_json(state.view(2))
    assert len(view["legal_actions"]) == 7
    for seed in range(3):
        assert str(ISMCTSBot(seed, iterations=80).choose(view)) == "2 play TS+AS"


def test_out_of_turn_answers_none_or_a_molodka():
    """Street, hearts trump. Seat 1 leads 6C; seat 3 holds four diamonds and may
    declare molodka out of turn. The bot answers None or that molodka."""
    state = deal_state("street", dealer=0, trump_card="KH", hands={
        "1": "6C 7S 8S 9S", "2": "7C 8C 9C JC", "3": "6D 7D 8D 9D", "0": "TS JS QS AD"},
        stock="AS 6S 6H 7H 8H 9H TH KH JH QH AH QC KC TC AC JD QD KD TD KS")
    play(state, "1 play 6C")
    view = as_json(state.view(3))
    assert "3 molodka 6D+7D+8D+9D" in view["legal_actions"]
    claim = ISMCTSBot(1, iterations=30).out_of_turn(view)
    assert claim is None or str(claim) == "3 molodka 6D+7D+8D+9D"
    # seat 0 has no molodka: it never claims
    assert ISMCTSBot(1, iterations=30).out_of_turn(as_json(state.view(0))) is None


def test_rewards_are_bounded_and_zero_sum_for_teams():
    state = new_state("street", single_deal=True)
    play_deal(state, [make_bot("random", s) for s in range(4)], random.Random(9))
    rewards = deal_rewards(state)
    assert all(-1.0 <= r <= 1.0 for r in rewards)
    assert rewards[0] == rewards[2] and rewards[1] == rewards[3]
    assert rewards[0] == pytest.approx(-rewards[1])


def test_registry_and_settings():
    bot = make_bot("ismcts", 3, iterations=5)
    assert isinstance(bot, ISMCTSBot) and bot.iterations == 5 and bot.name == "ismcts:iterations=5"
    with pytest.raises(BotError):
        make_bot("ismcts", 1, iterations=0)
    with pytest.raises(BotError):
        make_bot("ismcts", 1, nonsense=1)
    with pytest.raises(BotError):
        make_bot("ismcts", 1, exploration="high")
    assert isinstance(make_bot("ismcts", 1, time_limit=0.05), ISMCTSBot)


def test_time_limit_bounds_a_decision(monkeypatch):
    """A clock that jumps a second at every reading: the time limit (0.2 s) is
    over after the first iteration, so one is all the search gets (no wall-clock
    assertion: a shared machine cannot make this flaky)."""
    import types

    import goat.bots.base as base

    clock = iter(range(10**6))
    monkeypatch.setattr(base, "time", types.SimpleNamespace(perf_counter=lambda: float(next(clock))))
    iterations = []
    real = ISMCTSBot._iterate
    monkeypatch.setattr(ISMCTSBot, "_iterate", lambda self, *a, **k: (iterations.append(1), real(self, *a, **k)))
    state = new_state("full-hand", single_deal=True)
    state.apply_chance(state.sample_chance(random.Random(1)))
    view = as_json(state.view(state.current_player()))
    action = ISMCTSBot(1, iterations=100_000, time_limit=0.2).choose(view)
    assert len(iterations) == 1
    assert isinstance(action, Action) and str(action) in view["legal_actions"]


def test_greedy_rollout_moves():
    """The rollout policy, worked by hand. Classic: 0:9H 1:AH 2:8H, seat 3 holds
    TH KH 7H — its partner's AH cannot be beaten by a plain heart, so it feeds
    the ten (10 points). (Street rollouts use ``_street_policy``, tested below.)"""
    from goat.bots.ismcts import _greedy_kozel_action

    rng = random.Random(0)
    state = deal_state("classic", dealer=0, hands={
        "0": "9H 7S 8S 9S", "1": "AH 7D 8D 9D", "2": "8H 7C 8C KD", "3": "TH KH 7H TD"})
    play(state, "0 play 9H", "1 play AH", "2 play 8H")
    assert str(_greedy_kozel_action(state, state.legal_actions(), rng)) == "3 play TH"


def _street_lead_position():
    """Street, spades trump (KS in the stock), dealer 0 so seat 1 leads. Seat 1's
    opponents (0 and 2) hold no spade and no heart: AH+TH cannot be beaten."""
    return deal_state("street", dealer=0, trump_card="KS", hands={
        "1": "AH TH 6D 7D", "2": "6C 7C 8C 9C", "3": "KH 7H 8H QH", "0": "8D 9D JD QD"},
        stock="6S 7S 8S 9S JS QS KS AS TS JC QC KC TC AC KD TD AD JH 6H 9H")


def test_street_rollout_policy_by_hand():
    """The street rollout policy, worked by hand on the position above.
    Lead: AH+TH stands (no opponent holds a spade or a heart) and is the richest
    set that does (6D+7D falls to 8D+9D, AH alone is worth less). Seat 2 cannot
    beat it: pass the two cheapest cards (6C 7C). Seat 3's partner owns a set
    that seat 0 cannot beat: feed the two richest cards (KH 4 + QH 3 points).
    Earlier position: seat 2's only beat of AH+TH is TS+AS and nobody after can
    beat two top trumps, so it takes the trick."""
    from goat.bots.ismcts import _street_policy

    def cards(action: Action) -> set[str]:
        return {str(c) for c in action.cards}

    state = _street_lead_position()
    lead = _street_policy(state)
    assert (lead.seat, lead.verb, cards(lead)) == (1, "play", {"AH", "TH"})
    state.apply_action(lead)
    answer = _street_policy(state)
    assert (answer.seat, answer.verb, cards(answer)) == (2, "pass", {"6C", "7C"})
    state.apply_action(answer)
    feed = _street_policy(state)
    assert (feed.seat, feed.verb, cards(feed)) == (3, "pass", {"KH", "QH"})
    state = deal_state("street", dealer=0, trump_card="KS", hands={
        "1": "AH TH 6D 7D", "2": "AS TS 6C 7C", "3": "6H 7H 8H 9H", "0": "8D 9D JD QD"},
        stock="6S 7S 8S 9S JS QS KS 8C 9C JC QC KC TC AC KD TD AD JH QH KH")
    play(state, "1 play AH+TH")
    beat = _street_policy(state)
    assert (beat.seat, beat.verb, cards(beat)) == (2, "play", {"AS", "TS"})


def test_street_rollout_policy_is_always_legal():
    """Random street deals: every policy move is legal wherever it is asked."""
    from goat.bots.ismcts import _street_policy

    for seed in range(4):
        rng = random.Random(seed)
        state = new_state("street", single_deal=True)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_chance(state.sample_chance(rng))
                continue
            state.check_action(_street_policy(state))
            actions = [a for a in state.legal_actions() if a.verb != "molodka"]
            state.apply_action(actions[rng.randrange(len(actions))])


def test_heuristic_prior_steers_a_small_search():
    """With an overwhelming progressive bias and a small budget the search ends
    on the heuristic's move (the prior); with guide=0 no heuristic is consulted."""
    import copy

    state = _street_lead_position()
    view = as_json(state.view(1))
    for seed in range(3):
        bot = ISMCTSBot(seed, iterations=40, guide=1000.0)
        expected = copy.deepcopy(bot._guide_bot).choose(view)
        assert bot.choose(view) == expected
    assert ISMCTSBot(1, iterations=5, guide=0)._guide_bot is None
    with pytest.raises(BotError):
        make_bot("ismcts", 1, guide=-1)


@pytest.mark.parametrize("every", [2, None])
def test_a_draw_that_finds_no_world_is_skipped(monkeypatch, every):
    """Draws that find no world (WorldSamplingError, which a very tight view can
    still cause) are skipped, not the end of the decision; with no world at all the
    bot plays the heuristic's move (its guide), and claims no molodka."""
    import goat.bots.ismcts as ismcts
    from goat.games.worlds import WorldSamplingError

    real = ismcts.world_sampler
    draws: list[int] = []

    class Flaky:
        def __init__(self, view):
            self.inner = real(view)

        def sample(self, rng):
            draws.append(1)
            if every is None or len(draws) % every == 0:
                raise WorldSamplingError("no world consistent with seat 2's view found in 200 tries")
            return self.inner.sample(rng)

    monkeypatch.setattr(ismcts, "world_sampler", Flaky)
    state = deal_state("classic", dealer=0, hands={
        "0": "9H 7S 8S 9S", "1": "AH QC 7D 8D", "2": "8H 7C 8C 9D", "3": "7H KS KD TD"})
    play(state, "0 play 9H", "1 play AH", "2 play 8H", "3 play 7H", "1 play QC")
    view = as_json(state.view(2))
    move = str(ISMCTSBot(1, iterations=60).choose(view))
    assert len(draws) == 60
    if every is None:
        assert move == str(ISMCTSBot(1, iterations=60)._guide_bot.choose(view))
    else:
        assert move == "2 play 7C"   # the search still finds the catch on the other 30 worlds


def test_the_tree_lets_an_opponent_claim_a_molodka_only_where_the_drivers_ask_it():
    """Street: seat 0 leads 6H; seat 1 (the bot, to act), seat 2 and seat 3 all
    hold four of a suit. Searched on the true deal: after the bot's pass seat 2
    is to act and ranks before seat 3, so at that node the tree holds seat 2's
    moves (its molodka among them) and never seat 3's molodka, which would lose
    to seat 2's own move (street rule 4; ``goat.bots.asked_before_turn``)."""
    from goat.bots.ismcts import _Node

    state = deal_state("street", hands={"0": "6H 7H 8H 9H", "1": "6S 7S 8S 9S", "2": "6D 7D 8D 9D",
                                        "3": "6C 7C 8C 9C"}, trump_card="TC", dealer=3, single_deal=True)
    play(state, "0 play 6H")
    bot, root = ISMCTSBot(3, iterations=60), _Node()
    own = [Action.parse("1 pass 6S")]
    for _ in range(60):
        bot._iterate(state.clone(), root, 1, lambda world: own, None)
    after_pass = root.children["1 pass 6S"]
    keys = set(after_pass.children)
    assert "2 molodka 6D+7D+8D+9D" in keys and all(key.startswith("2 ") for key in keys), sorted(keys)
