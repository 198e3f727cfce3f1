"""Duel records (``docs/yugioh-records.md``): seed + decks + chance + decisions.

A record holds the ruleset and options, both deck lists, the chance outcomes
in the order the engine asked for them (coin tosses, shuffles as card names
top first, random discards) and every decision as its action text. ``seed``
is kept too: a record without ``chance`` is replayed by drawing the chance
outcomes from ``random.Random(seed)``, exactly as ``goat play`` does.

This module raises only its own errors, so the records layer can sort them:
:class:`RecordFormatError` (not a well-formed record, exit 2) and
:class:`RecordStepError` (a legal-looking record that breaks the rules at one
step, exit 1; it carries the state replayed so far).
"""

from __future__ import annotations

import json
import random
from typing import Any

from goat.games.yugioh.deck import DeckList
from goat.games.yugioh.decisions import DuelAction
from goat.games.yugioh.rules import PRESETS, make_rules
from goat.games.yugioh.state import YugiohState
from goat.protocol import ActionSyntaxError, GoatError, IllegalActionError, InvalidChanceError

FIELDS = ("game", "rules", "decks", "actions")


class RecordFormatError(GoatError):
    """The input is not a well-formed Yu-Gi-Oh! record."""


class RecordStepError(GoatError):
    """A step of the record is illegal; ``state`` is the replay up to it."""

    def __init__(self, detail: str, state: YugiohState) -> None:
        super().__init__(detail)
        self.detail = detail
        self.state = state


def record_from_state(state: YugiohState) -> dict[str, Any]:
    """The record of a match so far."""
    base = PRESETS[state.rules.name].options() if state.rules.name in PRESETS else {}
    options = {k: v for k, v in state.rules.options().items() if base.get(k) != v}
    record: dict[str, Any] = {
        "game": "yugioh",
        "rules": state.rules.name,
        "options": options,
        "players": 2,
        "single_duel": state.single_duel,
        "decks": [d.to_json() for d in state.start_decks],
        "chance": list(state.chances),
        "actions": list(state.actions),
        "result": state.result(),
    }
    if state.seed is not None:
        record["seed"] = state.seed
    return record


def _new_state(record: Any) -> YugiohState:
    if not isinstance(record, dict):
        raise RecordFormatError("a record must be a JSON object")
    for name in FIELDS:
        if name not in record:
            raise RecordFormatError(f'the record has no "{name}" field')
    if not isinstance(record["rules"], str):
        raise RecordFormatError('"rules" must be a string')
    options = record.get("options")
    if options is None:  # omitted or null: the preset's switches ([] or 0 is no object, and refused)
        options = {}
    if not isinstance(options, dict):
        raise RecordFormatError('"options" must be an object')
    decks = record["decks"]
    if not isinstance(decks, list) or len(decks) != 2:
        raise RecordFormatError('"decks" must be a list of two deck objects')
    players = record.get("players")
    if players is not None and (type(players) is not int or players != 2):  # 2.0, true: no seat count
        raise RecordFormatError('"players" must be 2 for yugioh')
    if not isinstance(record["actions"], list) or not all(isinstance(a, str) for a in record["actions"]):
        raise RecordFormatError('"actions" must be a list of action strings')
    chance = record.get("chance")
    seed = record.get("seed")
    if seed is not None and type(seed) is not int:  # also when "chance" makes it unused: a wrong type is no seed
        raise RecordFormatError(f'"seed" must be a whole number, not {json.dumps(seed)}')
    if chance is None and seed is None:
        raise RecordFormatError('the record needs a "chance" list or an integer "seed"')
    if chance is not None and not isinstance(chance, list):
        raise RecordFormatError('"chance" must be a list')
    single = record.get("single_duel", False)
    if not isinstance(single, bool):
        raise RecordFormatError('"single_duel" must be true or false')
    try:
        rules = make_rules(record["rules"], options)
        lists = [DeckList.from_json(d) for d in decks]
        return YugiohState(rules, lists, single_duel=single, seed=seed)
    except (GoatError, ValueError) as exc:
        raise RecordFormatError(str(exc)) from None


def replay_record(record: Any) -> YugiohState:
    """Replay a record; raises :class:`RecordFormatError` or :class:`RecordStepError`."""
    state = _new_state(record)
    chances = record.get("chance")
    rng = random.Random(record.get("seed")) if chances is None else None
    chance_index = 0
    for index, text in enumerate(record["actions"]):
        where = f"action {index} {json.dumps(text, ensure_ascii=False)}"
        while state.is_chance_node():
            chance_index = _next_chance(state, chances, chance_index, rng, where)
        if state.is_terminal():
            raise RecordStepError(f"{where}: the match is already over", state)
        try:
            state.apply_action(DuelAction.parse(text))
        except ActionSyntaxError as exc:
            raise RecordStepError(f"{where}: {exc.detail}", state) from None
        except IllegalActionError as exc:
            raise RecordStepError(f"{where}: {exc.reason}", state) from None
    while state.is_chance_node() and (rng is not None or chance_index < len(chances)):
        chance_index = _next_chance(state, chances, chance_index, rng, "after the last action")
    if chances is not None and chance_index < len(chances):
        raise RecordStepError(f"chance {chance_index}: {len(chances) - chance_index} chance outcome(s) "
                              f"left over at the end of the record", state)
    return state


def _next_chance(state: YugiohState, chances: list[Any] | None, index: int, rng: random.Random | None,
                 where: str) -> int:
    if chances is None:
        assert rng is not None
        state.apply_chance(state.sample_chance(rng))
        return index
    if index >= len(chances):
        raise RecordStepError(f"{where}: a chance outcome ({state.pending().kind}) is due but the "
                              f'"chance" list has ended', state)
    try:
        state.apply_chance(chances[index])
    except InvalidChanceError as exc:
        raise RecordStepError(f"chance {index}: {exc}", state) from None
    return index + 1


def summary_lines(state: YugiohState) -> list[str]:
    """A short human report of a replayed match (``goat replay``)."""
    lines = [f"yugioh {state.rules.name}: {len(state.actions)} decisions, {len(state.chances)} chance outcomes"]
    for number, r in enumerate(state.results, start=1):
        who = f"seat {r['winner']} wins" if r["winner"] is not None else "draw"
        lines.append(f"  duel {number}: seat {r['first']} went first; {who} ({r['reason']}) on turn "
                     f"{r['turns']}; LP {r['lp'][0]}/{r['lp'][1]}")
    if state.over:
        w = state.match_winner
        lines.append(f"Match over: {'seat ' + str(w) + ' wins' if w is not None else 'drawn'} "
                     f"({state.wins[0]}-{state.wins[1]})")
    else:
        lines.append(f"Match not over ({state.wins[0]}-{state.wins[1]})")
    return lines
