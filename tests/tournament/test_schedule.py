"""The duplicate schedule: shared deals, swapped teams, rotated seats, seeds."""

from __future__ import annotations

import pytest

from goat.tournament.runner import play_game
from goat.tournament.schedule import TableConfig, schedule, seatings
from goat.tournament.specs import BotSpecError, parse_bot_list, parse_bot_spec

TEAMS4 = [0, 1, 0, 1]


def labels(games, **where):
    return [g.labels for g in games if all(getattr(g, k) == v for k, v in where.items())]


def deals_without_actions(record):
    return [{k: v for k, v in deal.items() if k != "actions"} for deal in record["deals"]]


def test_partnership_pairs_swap_teams_and_share_the_set_seed() -> None:
    a, b = parse_bot_list("random,random")
    games = schedule([a, b], TableConfig(rules="classic"), 4, TEAMS4, sets=3, seed=9)
    assert len(games) == 6
    assert [g.index for g in games] == list(range(6))
    for k in range(3):
        pair = [g for g in games if g.set_index == k]
        assert [g.labels for g in pair] == [("random", "random#2", "random", "random#2"),
                                            ("random#2", "random", "random#2", "random")]
        assert pair[0].seed_root == pair[1].seed_root == f"9/0/{k}"
        assert pair[0].deal_seed(3) == pair[1].deal_seed(3)
        assert pair[0].first_dealer == pair[1].first_dealer == k % 4  # dealer rotates by set
        assert pair[0].bot_seed(0) != pair[1].bot_seed(0)           # bots differ by game
    assert len({g.seed_root for g in games}) == 3


def test_duplicate_games_are_dealt_the_same_cards() -> None:
    a, b = parse_bot_list("random,random")
    games = schedule([a, b], TableConfig(rules="classic"), 4, TEAMS4, sets=2, seed=4)
    records = [play_game(g).record for g in games]
    for first, second in (records[0:2], records[2:4]):
        d1, d2 = deals_without_actions(first), deals_without_actions(second)
        common = min(len(d1), len(d2))
        assert common >= 1 and d1[:common] == d2[:common]
        assert first["first_dealer"] == second["first_dealer"]
        assert first["deals"][0]["actions"] != second["deals"][0]["actions"]  # different players, different play
    assert deals_without_actions(records[0])[0] != deals_without_actions(records[2])[0]


def decided_places(record):
    """The first deal at each place of a match: an annulled (60-60) deal and the
    deals that replace it are one place, dealt by the same dealer."""
    places, fresh = [], True
    for deal, result in zip(deals_without_actions(record), record["result"]["deals"]):
        if fresh:
            places.append(deal)
        fresh = result["ended_by"] != "annulled"
    return places


def test_duplicate_matches_stay_in_step_after_an_annulled_deal() -> None:
    """full-hand annuls a 60-60 deal and the same dealer deals again. With one
    deal stream, the game that had it drew every later deal one step ahead of
    its twin, dealt from a seat further back: from there on the two matches held
    different hands (seed 1: places 3 to 7 of 8 differed)."""
    a, b = parse_bot_list("random,random")
    checked = 0
    for seed in range(1, 9):
        games = schedule([a, b], TableConfig(rules="full-hand", players=2), 2, [0, 1], sets=1, seed=seed)
        records = [play_game(g).record for g in games]
        annulled = [[d["ended_by"] == "annulled" for d in r["result"]["deals"][:-1]] for r in records]
        places = [decided_places(r) for r in records]
        common = min(len(p) for p in places)
        if annulled[0][:common] != annulled[1][:common]:  # one game annulled a deal its twin did not
            checked += 1
            assert places[0][:common] == places[1][:common], seed
    assert checked >= 1  # the case happened (seed 1 has it)


def test_deals_only_pairs_share_their_single_deal() -> None:
    a, b = parse_bot_list("random,random")
    games = schedule([a, b], TableConfig(rules="street", deals_only=True), 4, TEAMS4, sets=1, seed=2)
    first, second = (play_game(g) for g in games)
    assert first.record["deals"][0]["hands"] == second.record["deals"][0]["hands"]
    assert first.record["deals"][0]["stock"] == second.record["deals"][0]["stock"]
    assert first.deals == len(first.record["deals"]) >= 1


def test_individual_play_rotates_the_bots_over_every_seat() -> None:
    a, b, c = parse_bot_list("random,random,random")
    two = [[s.label for s in seating] for seating in seatings([a, b], 3, [0, 1, 2])]
    assert two == [["random", "random#2", "random"], ["random", "random", "random#2"],
                   ["random#2", "random", "random"]]
    three = [[s.label for s in seating] for seating in seatings([a, b, c], 3, [0, 1, 2])]
    assert len(three) == 6
    for seat in range(3):  # each bot sits at each seat equally often
        assert sorted(row[seat] for row in three) == ["random", "random", "random#2", "random#2",
                                                      "random#3", "random#3"]
    assert [[s.label for s in x] for x in seatings([a, b], 2, [0, 1])] == [["random", "random#2"],
                                                                         ["random#2", "random"]]


def test_three_bots_each_sit_right_after_each_other_equally_often() -> None:
    """Play passes to seat + 1. Rotating ``A B C`` alone gave each bot each seat, but B
    always played right after A (seeing A's card first) and never A after B, so a
    bot gaining from its right-hand neighbour tilted every duplicate set alike."""
    from collections import Counter

    bots = parse_bot_list("random,heuristic,pimc")
    games = schedule(bots, TableConfig(rules="full-hand", players=3), 3, [0, 1, 2], sets=1, seed=1)
    after = Counter((g.labels[s], g.labels[(s + 1) % 3]) for g in games for s in range(3))
    assert set(after) == {(x.label, y.label) for x in bots for y in bots if x is not y}
    assert set(after.values()) == {len(games) // 2}
    seats = Counter((g.labels[s], s) for g in games for s in range(3))
    assert set(seats.values()) == {len(games) // 3}
    assert len({g.seed_root for g in games}) == 1  # one duplicate set: the same cards in every seating


def test_more_bots_than_sides_play_a_round_robin() -> None:
    bots = parse_bot_list("random,random,random")
    games = schedule(bots, TableConfig(rules="classic"), 4, TEAMS4, sets=2, seed=1)
    assert len(games) == 3 * 2 * 2
    met = {frozenset(g.labels) for g in games}
    assert met == {frozenset({"random", "random#2"}), frozenset({"random", "random#3"}),
                   frozenset({"random#2", "random#3"})}
    assert {g.pairing for g in games} == {0, 1, 2}


def test_bot_specs_parse_settings_and_label_repeats() -> None:
    spec = parse_bot_spec("PIMC:worlds=100:mode=fast")
    assert spec.name == "pimc" and spec.settings == (("worlds", 100), ("mode", "fast"))
    assert [s.label for s in parse_bot_list("random, random ,random:x=1")] == ["random", "random#2", "random:x=1"]
    for bad in ("random:worlds", ":x=1", "random,,random", ""):
        with pytest.raises(BotSpecError):
            parse_bot_list(bad)
    with pytest.raises(BotSpecError, match="unknown bot"):
        parse_bot_spec("nobody").make(0)
    with pytest.raises(BotSpecError, match="random:depth=3"):
        parse_bot_spec("random:depth=3").make(0)


WEAK_FIRST = [  # seat 0: no spade and no face card, so it may show the hand for a redeal
    "2C 3C 4C 5C 6C 7C 8C 9C TC AC 2D 3D 4D", "JC QC KC 5D 6D 7D 8D 9D TD JD QD KD AD",
    " ".join(r + "H" for r in "23456789TJQKA"), " ".join(r + "S" for r in "23456789TJQKA")]


def test_a_spades_weak_hand_redeal_draws_from_its_own_stream() -> None:
    """Under ``weak_hand_redeal`` a shown weak hand voids the deal and the same
    dealer deals again, as after Kozel's annulled deal. On the one ``deal``
    stream a game that had such a redeal drew its later deals one step ahead
    of a twin that had not (the bots choose whether to show the hand), with the
    dealer a seat behind: other hands at each seat for the rest of the match."""
    import random

    from goat.cards import parse_cards
    from goat.games.spades import SpadesDeal, new_state
    from goat.protocol import Action
    from goat.tournament import SCORING

    stream = SCORING["spades"].chance_stream
    weak = SpadesDeal(tuple(parse_cards(hand) for hand in WEAK_FIRST))
    state = new_state("standard", options={"weak_hand_redeal": True}, first_dealer=3)
    assert stream(state) == "deal"
    state.apply_chance(weak)
    state.apply_action(Action.parse("0 bid redeal"))
    assert (state.phase, state.dealer) == ("deal", 3)
    assert stream(state) == "deal/0/redeal"          # the first place's redeal, not the second place's deal
    state.apply_chance(state.sample_chance(random.Random(1)))
    rng = random.Random(2)
    while state.phase != "deal":                     # play the counted deal out
        state.apply_action(rng.choice(state.legal_actions()))
    assert stream(state) == "deal"                   # the second place: the twin's second deal
    state.apply_chance(SpadesDeal(weak.hands[-1:] + weak.hands[:-1]))   # dealer 0: seat 1 bids first
    state.apply_action(Action.parse("1 bid redeal"))
    assert stream(state) == "deal/1/redeal"
    single = new_state("standard", options={"weak_hand_redeal": True}, first_dealer=3, single_deal=True)
    single.apply_chance(weak)
    single.apply_action(Action.parse("0 bid redeal"))
    assert stream(single) == "deal"                  # a single deal keeps its redeals on 'deal'


def test_the_schedule_module_is_importable_by_its_path_and_the_old_imports_still_work() -> None:
    """``goat.tournament`` exports the function ``schedule``, so the module of that
    name could not be reached by ``import goat.tournament.schedule as s`` (that gave
    the function) nor patched by its dotted path. The module is ``scheduling``; the
    old imports keep working."""
    import importlib
    import inspect

    import goat.tournament.scheduling as scheduling
    from goat.tournament import schedule as exported
    from goat.tournament.schedule import GameSpec as OldSpec
    from goat.tournament.schedule import schedule as old

    assert inspect.ismodule(scheduling) and scheduling.seatings is seatings
    assert exported is old is scheduling.schedule is schedule and callable(exported)
    assert OldSpec is scheduling.GameSpec and OldSpec.__module__ == "goat.tournament.scheduling"
    assert importlib.import_module("goat.tournament.schedule") is scheduling
    import goat.tournament.schedule as attribute   # read from the package: the function, as docs/tournaments.md says

    assert attribute is scheduling.schedule
