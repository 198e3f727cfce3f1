"""Hidden information: what the other seat (or a spectator) can learn.

* Pairs of positions that differ only in which hidden card a player holds give
  the other seat exactly the same views, decision by decision — in particular
  the same sequence of (seat, decision kind), so a pending "respond" tells
  nothing (``ask_responses="when-set-cards"``, the default). Under
  ``"when-able"`` the same pairs differ: the test can see the leak it guards.
* Fuzz: over random duels, no view of a seat or of a spectator ever holds the
  name of a card that it has not seen yet (marker cards that nothing reveals
  but a public zone).
* A log line secret to one seat (a draw, a Set) reaches the others as its
  public line, whose key and arguments name no card its public text does not.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

import pytest

from goat.games.yugioh import DeckList, builtin_deck, new_state
from goat.games.yugioh.cards.data import DATABASE
from goat.games.yugioh.scenario import resolve_chance, scenario

SAFE = {"ask_responses": "when-set-cards"}


def drive(state: Any, script: Sequence[str], watcher: int | None, limit: int = 60) -> list[tuple[Any, ...]]:
    """Play ``script`` for its seats; any other seat passes (or takes its first
    choice). Returns what ``watcher`` saw before each decision: the pending
    (seat, kind) and its whole view."""
    todo = list(script)
    seen: list[tuple[Any, ...]] = []
    for _ in range(limit):
        resolve_chance(state)
        if state.is_terminal():
            break
        pending = state.pending()
        seen.append((pending.seat, pending.kind, json.dumps(state.view(watcher), sort_keys=True)))
        legal = state.legal_texts()
        if not todo:
            break
        if todo[0] in legal:
            state.apply_action(todo.pop(0))
        else:
            state.apply_action(f"{pending.seat} pass" if f"{pending.seat} pass" in legal else legal[0])
    assert not todo, f"script not used up: {todo}"
    return seen


def pair(options: dict[str, Any], board: dict[str, Any], hidden: tuple[str, str], where: str, seat: int,
         script: Sequence[str], watcher: int) -> tuple[list, list]:
    runs = []
    for card in hidden:
        players = {s: {k: list(v) for k, v in board.get(f"p{s}", {}).items()} for s in (0, 1)}
        players[seat][where] = [card] + list(players[seat].get(where, []))
        s = scenario(options=options, phase=board.get("phase", "main1"), turn_player=board.get("tp", 0),
                     p0=players[0], p1=players[1])
        runs.append(drive(s, script, watcher))
    return runs[0], runs[1]


ATTACK = {"phase": "battle", "p0": {"monsters": ["Vorse Raider"]}, "p1": {"monsters": ["Mystical Elf"]}}
# (board, the two hidden cards, zone, their seat, script, watcher)
PAIRS = {
    "set trap able vs not, attack": (ATTACK, ("Mirror Force", "Call of the Haunted"), "spells", 1,
                                     ["0 attack Vorse Raider@0M1 -> Mystical Elf@1M1", "0 phase main2",
                                      "0 phase end"], 0),
    "set quick-play in the Damage Step": (ATTACK, ("Rush Recklessly", "Torrential Tribute"), "spells", 1,
                                          ["0 attack Vorse Raider@0M1 -> Mystical Elf@1M1", "0 phase main2"], 0),
    "turn player's hand quick-play": ({"p0": {"hand": ["Sangan"]}, "p1": {"monsters": ["Mystical Elf"]}},
                                      ("Book of Moon", "Heavy Storm"), "hand", 0,
                                      ["0 summon Sangan", "0 phase battle", "0 phase main2", "0 phase end"], 1),
}


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_pending_decisions_do_not_depend_on_a_hidden_card(name: str) -> None:
    board, hidden, where, seat, script, watcher = PAIRS[name]
    a, b = pair(SAFE, board, hidden, where, seat, script, watcher)
    assert [x[:2] for x in a] == [x[:2] for x in b]
    assert a == b  # the whole view, step by step
    assert any(kind == "respond" and who == seat for who, kind, _ in a)  # the hidden card's owner was asked


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_when_able_leaks_and_the_test_sees_it(name: str) -> None:
    board, hidden, where, seat, script, watcher = PAIRS[name]
    a, b = pair({"ask_responses": "when-able"}, board, hidden, where, seat, script, watcher)
    assert [x[:2] for x in a] != [x[:2] for x in b]


def test_always_asks_at_every_window() -> None:
    a, b = pair({"ask_responses": "always"}, ATTACK, ("Mirror Force", "Call of the Haunted"), "spells", 1,
                PAIRS["set trap able vs not, attack"][4], 0)
    safe, _ = pair(SAFE, ATTACK, ("Mirror Force", "Call of the Haunted"), "spells", 1,
                   PAIRS["set trap able vs not, attack"][4], 0)
    assert a == b and len(a) >= len(safe)


def test_a_pass_only_window_is_still_asked_for_a_face_down_card() -> None:
    s = scenario(options=SAFE, phase="battle", p0={"monsters": ["Vorse Raider"]},
                 p1={"spells": ["Call of the Haunted"]})
    assert s.pending().seat == 1 and s.legal_texts() == ["1 pass"]  # the Battle Phase's start
    while s.pending().kind != "battle":
        s.apply_action(s.legal_texts()[0])
    s.apply_action("0 attack Vorse Raider@0M1 -> direct")
    assert s.pending().seat == 1 and s.pending().kind == "respond" and s.legal_texts() == ["1 pass"]


@pytest.mark.parametrize("hand", [["Mystical Elf"] * 7, ["Mystical Elf"] * 6 + ["Sangan"]])
def test_a_discard_is_asked_even_when_every_card_is_the_same(hand: list[str]) -> None:
    s = scenario(phase="main2", p0={"hand": hand})
    s.apply_action("0 phase end")
    assert s.pending().seat == 0 and s.pending().kind == "discard"


def test_dust_tornado_asks_to_set_whatever_the_hand_holds() -> None:
    views = []
    for card in ("Sangan", "Mirror Force"):
        s = scenario(options=SAFE, p0={"hand": [card], "spells": ["Dust Tornado"]}, p1={"spells": ["Scapegoat:up"]})
        views.append(drive(s, ["0 activate Dust Tornado@0S1", "0 done", "0 phase end"], 1))
    assert views[0] == views[1]


def test_sangan_search_is_asked_even_with_one_card_to_find() -> None:
    views = []
    for deck in (["Mystical Elf", "Summoned Skull"], ["Mystical Elf", "Mystical Elf"]):
        s = scenario(options=SAFE, p0={"spells": ["Ring of Destruction"], "monsters": ["Sangan"], "deck": deck},
                     p1={"monsters": ["Summoned Skull"]})
        views.append(drive(s, ["0 activate Ring of Destruction@0S1", "0 choose Sangan@0M1",
                               "0 choose Mystical Elf", "0 phase end"], 1))
    assert views[0] == views[1]


def test_history_masks_the_other_seats_hidden_choices() -> None:
    s = scenario(options=SAFE, p0={"hand": ["Mirror Force", "Summoned Skull"],
                                   "monsters": ["Sangan:set", "Mystical Elf:set"]})
    s.apply_action("0 set Mirror Force")
    s.apply_action("0 set Summoned Skull")
    s.apply_action("0 choose Sangan@0M1")
    mine, theirs = s.history_of(0), s.history_of(1)
    assert mine[:3] == ["act 0 set Mirror Force", "act 0 set Summoned Skull", "act 0 choose Sangan@0M1"]
    assert theirs[:4] == ["act 0 set ?spell", "act 0 set ?monster:1", "act 0 choose face-down@0M1",
                          "see slot 0 M1 Sangan"]
    assert s.history_of(None)[:3] == theirs[:3]


# ------------------------------------------------------------------- fuzzing
#: Markers: plain monsters strong enough that no card of the pool searches,
#: excavates to the hand or names them — only a public zone shows them.
MARKERS = ({"Blue-Eyes White Dragon", "Dark Magician"}, {"Summoned Skull", "Gene-Warped Warwolf", "Vorse Raider"})


def marked_decks() -> tuple[DeckList, DeckList]:
    base = builtin_deck("goat_control")
    decks = []
    for seat, markers in enumerate(MARKERS):
        main = list(base.main)
        for marker, victim in zip(sorted(markers), ("Asura Priest", "Asura Priest", "D.D. Warrior Lady")):
            main[main.index(victim)] = marker
        decks.append(DeckList(tuple(main), base.fusion, base.side))
    return decks[0], decks[1]


def exposed_now(state: Any) -> set[str]:
    duel = state.duel
    names = set()
    for p in duel.players:
        names.update(c.name for c in p.gy + p.banished)
        names.update(c.name for c in p.field_monsters() + p.field_spells() if c.face_up)
    return names


def check_no_marker_leaks(seed: int, options: dict[str, Any] | None = None, steps: int = 3000) -> None:
    state = new_state("goat", options, decks=marked_decks(), single_duel=False, seed=seed)
    rng = random.Random(seed)
    seen_by_all: set[str] = set()
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_chance(state.sample_chance(rng))
        else:
            actions = state.legal_texts()
            state.apply_action(actions[rng.randrange(len(actions))])
        if state.duel is None:
            continue
        seen_by_all |= exposed_now(state)
        if state.actions and state.actions[-1].split(" ")[1] == "summon":  # declared before its tributes
            seen_by_all.add(state.actions[-1].split(" ", 2)[2])
        for viewer in (0, 1, None):
            view = state.view(viewer)
            del view["decklists"]  # the open deck lists name every card brought
            text = json.dumps(view)
            secret = (MARKERS[0] | MARKERS[1]) if viewer is None else MARKERS[1 - viewer]
            leaked = [name for name in secret - seen_by_all if name in text]
            assert not leaked, (viewer, leaked, state.history_of(viewer)[-6:])


def test_marker_decks_are_legal_and_marked() -> None:
    a, b = marked_decks()
    assert MARKERS[0] <= set(a.main) and MARKERS[1] <= set(b.main)
    assert not MARKERS[1] & set(a.main) and len(a.main) == len(b.main) == 40


def card_names_in(value: Any) -> set[str]:
    """The card names anywhere in a JSON value (strings, lists, dicts' values)."""
    if isinstance(value, dict):
        return set().union(*map(card_names_in, value.values()))
    if isinstance(value, list):
        return set().union(*map(card_names_in, value))
    return {value} if isinstance(value, str) and value in DATABASE else set()


@pytest.mark.parametrize("seed", range(2))
def test_a_public_log_entry_names_no_card_its_text_does_not(seed: int) -> None:
    rng = random.Random(seed)
    state = new_state("goat", SAFE, single_duel=True, seed=seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance(state.sample_chance(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    log = state.duel.log
    secrets = [i for i, entry in enumerate(log) if entry.secret_seat is not None]
    assert len(secrets) > 10
    for viewer in (0, 1, None):
        view = state.view(viewer)["log"]
        assert len(view) == len(log)
        for i in secrets:
            entry, shown = log[i], view[i]
            if viewer == entry.secret_seat:
                assert shown["text"] == entry.secret_text and card_names_in(shown["say"]) == {entry.secret.args["card"]}
                continue
            assert shown["text"] == entry.text
            assert card_names_in(shown["say"]) == set(), (viewer, shown)  # "0 draws a card": no card at all
        for shown in view:
            assert all(name in shown["text"] for name in card_names_in(shown["say"])), (viewer, shown)


@pytest.mark.parametrize("seed", range(3))
def test_fuzz_no_view_names_a_card_its_viewer_has_not_seen(seed: int) -> None:
    check_no_marker_leaks(seed)


try:
    from hypothesis import given, settings
    from hypothesis import strategies as st
except ImportError:  # pragma: no cover
    pass
else:
    @settings(max_examples=5, deadline=None)
    @given(seed=st.integers(min_value=0, max_value=2**32 - 1),
           mode=st.sampled_from(["when-set-cards", "always", "when-able"]))
    def test_property_no_view_names_an_unseen_card(seed: int, mode: str) -> None:
        check_no_marker_leaks(seed, {"ask_responses": mode}, steps=1200)


# A Deck search's choices must not tell the searcher the Deck's order (hidden from its
# owner too): two Decks that differ only in their order give the same choices and views.
SEARCHES = {
    "Sangan": ({"p0": {"spells": ["Ring of Destruction"], "monsters": ["Sangan"]},
                "p1": {"monsters": ["Summoned Skull"]}}, 0,
               ["Mystical Elf", "Sangan", "Summoned Skull", "Magician of Faith", "Mystical Elf"],
               ["0 activate Ring of Destruction@0S1", "0 choose Sangan@0M1", "0 choose Mystical Elf"]),
    "Reinforcement of the Army": ({"p0": {"hand": ["Reinforcement of the Army"]}}, 0,
                                  ["Exiled Force", "Blade Knight", "Sangan", "D.D. Warrior Lady", "Blade Knight"],
                                  ["0 activate Reinforcement of the Army", "0 choose Blade Knight"]),
    "Last Turn": ({"tp": 1, "p0": {"lp": 1000, "monsters": ["Mystical Elf"], "spells": ["Last Turn"]},
                   "p1": {"monsters": ["Summoned Skull"]}}, 1,
                  ["Vorse Raider", "Pot of Greed", "Giant Soldier of Stone", "Vorse Raider"],
                  ["1 phase end", "0 activate Last Turn@0S1", "1 choose Vorse Raider"]),
}


@pytest.mark.parametrize("name", sorted(SEARCHES))
def test_a_deck_search_lists_its_choices_by_name_whatever_the_deck_order(name: str) -> None:
    board, seat, deck, script = SEARCHES[name]
    runs, choices = [], []
    for order in (deck, deck[::-1]):
        players = {s: dict(board.get(f"p{s}", {})) for s in (0, 1)}
        players[seat]["deck"] = list(order)
        s = scenario(options=SAFE, turn_player=board.get("tp", 0), p0=players[0], p1=players[1])
        runs.append(drive(s, script[:-1], seat))
        assert s.pending().seat == seat and s.pending().kind == "search"
        choices.append(s.legal_texts())
        runs[-1].append(json.dumps(s.view(seat), sort_keys=True))
    assert choices[0] == choices[1] == sorted(set(choices[0]))  # by name, each name once
    assert runs[0] == runs[1]  # the searcher's views, step by step
