"""The match as a protocol state (:class:`goat.protocol.GameState`).

A match is up to three duels (Goat rule 10: until someone has won two). The
first duel's chooser is decided by a coin toss (a chance event); the loser of
a duel chooses who goes first in the next, after both players may side-deck.
Everything random is a chance event with an explicit outcome — the coin, each
shuffle (the new deck order, top first, by card names), each random discard —
so a match is a pure function of its chance outcomes and decisions. The state
keeps both lists; :meth:`YugiohState.clone` replays them.

The flow is a generator, which cannot be copied, so a copy is a replay. Between
duels, though, the match is plain data (the decks after side-decking, wins,
results, who goes first, how far the lists and histories had got): the state
keeps that as a :class:`DuelStart` when each duel begins, and a copy starts its
flow there and replays only the current duel's steps, not the whole match.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from goat.games.yugioh.deck import DeckList, check_deck
from goat.games.yugioh.decisions import REFRESH, ChanceRequest, Decision, DuelAction, DuelOver, ask, chance
from goat.games.yugioh.duel import Duel
from goat.games.yugioh.prompts import Say
from goat.games.yugioh.rules import YugiohRules
from goat.protocol import (CHANCE, TERMINAL, ActionSyntaxError, GoatError, IllegalActionError, InvalidChanceError,
                           check_rng, results_copy)

MAX_SIDE_SWAPS = 15


@dataclass(frozen=True)
class DuelStart:
    """The match just before duel ``number`` is built, ``first`` going first:
    all the flow needs to go on from there, as plain data, and how long the
    chance and action lists and the three histories (seat 0, seat 1, spectator)
    were then (the decision "choose first/second" included)."""

    number: int
    first: int
    decks: tuple[DeckList, ...]
    wins: tuple[int, ...]
    results: list[dict[str, Any]]  # a deep copy, never changed
    chances: int
    actions: int
    history: tuple[int, ...]


class YugiohState:
    """A Yu-Gi-Oh! match (or a single duel) driven through the game protocol."""

    game_name = "yugioh"
    num_players = 2
    #: Where the current duel (the one ``duel`` is, finished or not) began;
    #: ``None`` before the first duel is built (see :meth:`clone`).
    _duel_start: DuelStart | None = None

    def __init__(self, rules: YugiohRules, decks: Sequence[DeckList], single_duel: bool = False,
                 check_legal: bool = True, seed: int | None = None) -> None:
        if len(decks) != 2:
            raise ValueError("a duel needs two decks")
        if check_legal:
            for seat, deck in enumerate(decks):
                check_deck(deck, rules, f"seat {seat}'s deck")
        self._setup(rules, decks, single_duel, seed)
        self._start(None)

    def _setup(self, rules: YugiohRules, decks: Sequence[DeckList], single_duel: bool, seed: int | None) -> None:
        """The plain data of a match not begun (the flow is started by :meth:`_start`)."""
        self.rules = rules
        self.first_dealer = 0  # records.py compatibility: no dealer in a duel
        self.seed = seed
        self.start_decks = tuple(decks)
        self.decks = list(decks)
        self.single_duel = single_duel
        self.chances: list[Any] = []
        self.actions: list[str] = []
        self.results: list[dict[str, Any]] = []
        self.wins = [0, 0]
        self.duel: Duel | None = None
        self.match_winner: int | None = None
        self.over = False
        self._pending: Decision | ChanceRequest | None = None
        self._legal_cache: list[DuelAction] | None = None
        self.history: tuple[list[str], list[str], list[str]] = ([], [], [])
        self.last_facts: list[tuple[tuple[str | None, ...], Any]] = []

    def _start(self, start: DuelStart | None) -> None:
        """Run the match's flow (from the beginning, or from the duel ``start``
        with the data already restored) to its first question."""
        self._flow = self._match(start)
        self._advance(None)

    # ---------------------------------------------------------------- flow
    def _advance(self, value: Any) -> None:
        self._legal_cache = None
        self.last_facts = []
        try:
            self._pending = self._flow.send(value)
        except StopIteration:
            self._pending = None
            self.over = True
        self._drain_facts()

    def _drain_facts(self) -> None:
        """Move what the duel showed each viewer into their history (and keep
        the cards concerned of the last step for :mod:`.worlds`)."""
        duel = self.duel
        if duel is None or not duel.facts:
            return
        for fact, _card in duel.facts:
            for index, text in enumerate(fact):
                if text is not None:
                    self.history[index].append("see " + text)
        self.last_facts.extend(duel.facts)
        duel.facts.clear()

    def _record(self, texts: Sequence[str]) -> None:
        for index, text in enumerate(texts):
            self.history[index].append(text)

    def _match(self, start: DuelStart | None = None) -> Any:
        """The match: a coin decides who chooses first, then duels until it is
        decided, side-decking and choosing between them. With ``start`` it
        begins at that duel's :class:`DuelStart` (the data restored by :meth:`clone`)."""
        if start is None:
            chooser = yield from chance(lambda: ChanceRequest("coin", -1, ["0", "1"]))
            number = 1
            first = yield from self._ask_first(chooser, number)
        else:
            number, first = start.number, start.first
        while True:
            self._duel_start = DuelStart(number, first, tuple(self.decks), tuple(self.wins),
                                         copy.deepcopy(self.results), len(self.chances), len(self.actions),
                                         tuple(len(h) for h in self.history))
            duel = Duel(self.rules, self.decks, first, number)
            self._drain_facts()
            self.duel = duel
            try:
                yield from duel.run()
            except DuelOver as over:
                winner, reason = over.winner, over.reason
            self.results.append({"winner": winner, "reason": reason, "first": first, "turns": duel.turn,
                                 "lp": [duel.players[0].lp, duel.players[1].lp]})
            if winner is not None:
                self.wins[winner] += 1
            if self._match_decided(number):
                return
            for seat in (0, 1):
                if self.decks[seat].side:
                    yield from self._side_deck(seat)
            if winner is None:
                chooser = yield from chance(lambda: ChanceRequest("coin", -1, ["0", "1"]))
            else:
                chooser = 1 - winner
            number += 1
            first = yield from self._ask_first(chooser, number)

    @staticmethod
    def _ask_first(chooser: int, number: int) -> Any:
        return (yield from ask(chooser, "first", Say("first", n=number),
                               [("choose first", chooser), ("choose second", 1 - chooser)], auto=False))

    def _match_decided(self, played: int) -> bool:
        if self.single_duel:
            last = self.results[-1]["winner"]
            self.match_winner = last
            return True
        need = self.rules.match_duels // 2 + 1
        for seat in (0, 1):
            if self.wins[seat] >= need:
                self.match_winner = seat
                return True
        if not self.rules.match_no_draws and played >= self.rules.match_duels:
            if self.wins[0] != self.wins[1]:
                self.match_winner = 0 if self.wins[0] > self.wins[1] else 1
            return True
        return False

    def _side_deck(self, seat: int) -> Any:
        """Swap cards between side and main deck, one pair at a time, keeping the count."""
        for _ in range(MAX_SIDE_SWAPS):
            deck = self.decks[seat]
            options: list[tuple[str, Any]] = [("done", None)]
            for out in sorted(set(deck.main)):
                for into in sorted(set(deck.side)):
                    if out != into:
                        options.append((f"swap {out} / {into}", (out, into)))
            pick = yield from ask(seat, "side", Say("sideDeck"),
                                  options, auto=False)
            if pick is None:
                return
            out, into = pick
            main, side = list(deck.main), list(deck.side)
            main.remove(out)
            side.remove(into)
            main.append(into)
            side.append(out)
            self.decks[seat] = DeckList(tuple(main), deck.fusion, tuple(side))

    # ------------------------------------------------------------ protocol
    def current_player(self) -> int:
        if self._pending is None:
            return TERMINAL
        if isinstance(self._pending, ChanceRequest):
            return CHANCE
        return self._pending.seat

    def is_chance_node(self) -> bool:
        return isinstance(self._pending, ChanceRequest)

    def is_terminal(self) -> bool:
        return self._pending is None

    def pending(self) -> Decision | ChanceRequest | None:
        return self._pending

    def legal_actions(self) -> list[DuelAction]:
        if not isinstance(self._pending, Decision):
            return []
        if self._legal_cache is None:
            self._legal_cache = [DuelAction.parse(t) for t in self._pending.actions]
        return list(self._legal_cache)

    def legal_texts(self) -> list[str]:
        return list(self._pending.actions) if isinstance(self._pending, Decision) else []

    def check_action(self, action: DuelAction | str) -> int:
        """Raise :class:`IllegalActionError` unless ``action`` is legal; returns its index."""
        if isinstance(action, str):
            # A legal text as the engine wrote it (replays, world sampling, bots):
            # found as is; legal texts are canonical, so parsing would give the same index.
            if isinstance(self._pending, Decision) and action in self._pending.actions:
                return self._pending.actions.index(action)
            action = DuelAction.parse(action)
        text = str(action)
        pending = self._pending
        if not isinstance(pending, Decision):
            raise IllegalActionError(action, "turn", "no decision is pending"
                                     + (" (the match is over)" if pending is None else " (a chance event is due)"))
        if action.seat != pending.seat:
            raise IllegalActionError(action, "turn", f"seat {pending.seat} is to decide ({pending.kind}), "
                                                     f"not seat {action.seat}")
        try:
            return pending.actions.index(text)
        except ValueError:
            shown = ", ".join(f'"{a}"' for a in pending.actions[:6]) + (" ..." if len(pending.actions) > 6 else "")
            raise IllegalActionError(action, pending.kind, f"not a legal choice now ({pending.prompt}; "
                                                           f"legal: {shown})") from None

    def is_legal(self, action: DuelAction | str) -> bool:
        try:
            self.check_action(action)
        except (IllegalActionError, ActionSyntaxError):
            return False
        return True

    def apply_action(self, action: DuelAction | str) -> None:
        index = self.check_action(action)
        pending = self._pending
        assert isinstance(pending, Decision)
        text = pending.actions[index]
        self.actions.append(text)
        public = public_action(self.duel, pending, text)
        self._record([f"act {text if seat == pending.seat else public}" for seat in (0, 1, None)])
        self._advance(index)

    def sample_chance(self, rng: random.Random) -> Any:
        check_rng(rng)
        pending = self._pending
        if not isinstance(pending, ChanceRequest):
            raise InvalidChanceError("no chance event is due")
        if pending.kind == "coin":
            return rng.randrange(2)
        if pending.kind == "shuffle":
            order = list(pending.cards)
            rng.shuffle(order)
            return order
        return pending.cards[rng.randrange(len(pending.cards))]

    def check_chance(self, outcome: Any) -> None:
        pending = self._pending
        if not isinstance(pending, ChanceRequest):
            raise InvalidChanceError("no chance event is due")
        if pending.kind == "coin":
            if type(outcome) is not int or outcome not in (0, 1):  # not true, not 1.0 (it became "seat 1.0")
                raise InvalidChanceError(f"a coin toss is 0 or 1, not {json.dumps(outcome)}")
        elif pending.kind == "shuffle":
            # (card names are text: a list of lists or objects is not counted, it is refused)
            if (not isinstance(outcome, list) or not all(isinstance(card, str) for card in outcome)
                    or Counter(outcome) != Counter(pending.cards)):
                raise InvalidChanceError(f"a shuffle of seat {pending.seat}'s deck must list its "
                                         f"{len(pending.cards)} cards, top first")
        elif outcome not in pending.cards:
            raise InvalidChanceError(f"a random discard must name a card in seat {pending.seat}'s hand, "
                                     f"not {json.dumps(outcome)}")

    def apply_chance(self, outcome: Any) -> None:
        self.check_chance(outcome)
        self.chances.append(outcome)
        pending = self._pending
        assert isinstance(pending, ChanceRequest)
        # The coin and a random discard are seen by all; a new Deck order by nobody.
        shown = {"coin": f" {outcome}", "shuffle": f" {pending.seat}"}.get(pending.kind, f" {pending.seat} {outcome}")
        self._record([f"chance {pending.kind}{shown}"] * 3)
        self._advance(outcome)

    def refresh(self) -> None:
        """Ask the pending question again, its choices (or a chance request's
        card names) written from the cards as they are now. For world sampling,
        which renames hidden cards while a question is pending; records and
        histories are untouched."""
        if self._pending is not None:
            self._advance(REFRESH)

    def returns(self) -> list[float]:
        if not self.over or self.match_winner is None:
            return [0.0, 0.0]
        return [1.0 if s == self.match_winner else -1.0 for s in (0, 1)]

    def clone(self) -> "YugiohState":
        """An independent copy: a match whose flow starts where the current duel
        began (:class:`DuelStart`) and replays that duel's chance outcomes and
        decisions — the same state as :meth:`replayed` gives, for a fraction of
        the work late in a match."""
        return resumed(*self._copy_data())

    def _copy_data(self) -> tuple[Any, ...]:
        """The plain data a copy is rebuilt from (:func:`resumed`)."""
        return (self.rules, self.start_decks, self.single_duel, self.seed, self._duel_start,
                self.chances, self.actions, self.history)

    def __deepcopy__(self, memo: dict) -> "YugiohState":
        return self.clone()  # the flow generator cannot be copied: a copy is a replay

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled as its plain data and rebuilt like :meth:`clone` (so states go
        to worker processes, as vector environments and process pools need)."""
        if type(self).clone is not YugiohState.clone:  # a state that is not a replay (test scenarios)
            raise TypeError(f"{type(self).__name__} cannot be pickled")
        return resumed, self._copy_data()

    def replayed(self) -> "YugiohState":
        """An independent copy rebuilt from the start of the match: the
        reference :meth:`clone` must equal (tests and the clone benchmark)."""
        twin = YugiohState(self.rules, self.start_decks, self.single_duel, check_legal=False, seed=self.seed)
        replay(twin, self.chances, self.actions)
        return twin

    def history_of(self, seat: int | None) -> list[str]:
        """What ``seat`` (``None``: a spectator) has seen happen, in order:
        ``"act ..."`` decisions (the other seat's hidden choices masked, see
        :func:`public_action`), ``"chance ..."`` events and ``"see ..."`` facts
        about hidden cards (``Duel.facts``)."""
        return list(self.history[2 if seat is None else seat])

    def view(self, seat: int | None) -> dict[str, Any]:
        from goat.games.yugioh.view import view

        return view(self, seat)

    def information_state_string(self, seat: int | None) -> str:
        return json.dumps(self.view(seat), sort_keys=True, separators=(",", ":"))

    def summary_lines(self, index: int | None = None) -> list[str]:
        """The human report of ``goat replay``."""
        from goat.games.yugioh.recording import summary_lines

        lines = summary_lines(self)
        if index:
            lines[0] = f"Record {index}: {lines[0]}"
        return lines

    def result(self) -> dict[str, Any]:
        """The record's ``result`` object (``docs/yugioh-records.md``)."""
        return {"duels": results_copy(self.results), "wins": list(self.wins), "match_over": self.over,
                "winner": self.match_winner if self.over else None}


def resumed(rules: YugiohRules, start_decks: Sequence[DeckList], single_duel: bool, seed: int | None,
            start: DuelStart | None, chances: Sequence[Any], actions: Sequence[str],
            history: tuple[list[str], list[str], list[str]]) -> YugiohState:
    """A match at the end of ``chances`` and ``actions``: from the beginning
    when ``start`` is ``None``, else from the current duel's :class:`DuelStart`
    (the state's own data, restored) — :meth:`YugiohState.clone`."""
    if start is None:
        twin = YugiohState(rules, start_decks, single_duel, check_legal=False, seed=seed)
        replay(twin, chances, actions)
        return twin
    twin = YugiohState.__new__(YugiohState)
    twin._setup(rules, start_decks, single_duel, seed)
    twin.decks = list(start.decks)
    twin.wins = list(start.wins)
    twin.results = copy.deepcopy(start.results)
    twin.chances = list(chances[:start.chances])
    twin.actions = list(actions[:start.actions])
    seat0, seat1, spectator = (h[:n] for h, n in zip(history, start.history))
    twin.history = (seat0, seat1, spectator)
    twin._start(start)
    replay(twin, chances, actions)
    return twin


def replay(state: YugiohState, chances: Sequence[Any], actions: Sequence[str]) -> None:
    """Bring ``state`` to the end of ``chances`` and ``actions``, the chance
    outcomes and decisions of a match whose beginnings ``state`` already holds
    (its own lists are their prefixes). Raises :class:`GoatError` when one runs
    out (or an outcome or decision is not legal) before the other is used up."""
    while len(state.chances) < len(chances) or len(state.actions) < len(actions):
        if state.is_chance_node():
            if len(state.chances) >= len(chances):
                raise GoatError("the replay ran out of chance outcomes")
            state.apply_chance(chances[len(state.chances)])
        else:
            if len(state.actions) >= len(actions):
                raise GoatError("the replay ran out of decisions")
            state.apply_action(actions[len(state.actions)])


def public_action(duel: Duel | None, pending: Decision, text: str) -> str:
    """How the other seat and spectators see the decision ``text``.

    Hidden choices keep only what the table sees: Setting a card from the hand
    (``"0 set ?monster:1"`` — a monster needing one tribute — ``"0 set
    ?spell"``, or ``"0 set ?field"`` into the Field Spell zone), Dust
    Tornado's Set (``"0 choose ?spell"``), a side-deck swap (``"0 swap ?"``). The decider's own face-down cards are ``face-down@...``
    as in the other seat's labels."""
    from goat.games.yugioh.cards.data import DATABASE

    seat = pending.seat
    parts = text.split(" ", 2)
    verb, args = (parts + ["", ""])[1:3]
    if pending.kind == "side" and verb == "swap":
        return f"{seat} swap ?"
    if pending.kind == "open" and verb == "set":
        data = DATABASE[args]
        if data.is_monster:
            return f"{seat} set ?monster:{data.tributes_needed()}"
        # A Field Spell is Set in the Field Spell zone, so the table knows it is one.
        return f"{seat} set ?field" if data.subtype == "field" else f"{seat} set ?spell"
    if pending.kind == "set" and verb == "choose":
        return f"{seat} choose ?spell"
    if duel is not None and "@" in text:
        for card in duel.players[seat].field_monsters() + duel.players[seat].field_spells():
            if not card.face_up:
                text = text.replace(duel.label(card, seat), duel.label(card, 1 - seat))
    return text
