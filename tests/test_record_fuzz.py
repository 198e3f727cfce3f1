"""Any change to a good record is either still a record or refused in one line.

``goat replay`` reads records that people edit by hand and programs write: a
field of the wrong type, a key gone, a list cut short, an action mistyped. The
golden records (and a seeded Yu-Gi-Oh! match) are mutated at random places —
a value replaced by one of another JSON type or by a neighbour's value, a key
deleted or added, a list shortened or lengthened — and replaying (and checking)
the result must either succeed or raise :class:`~goat.records.RecordProblem`
with a one-line message: never another exception, which the command would show
as a traceback.
"""

from __future__ import annotations

import copy
import json
import random
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from goat.games import get_game
from goat.protocol import play_random_steps
from goat.records import RecordProblem, check_result, record_from_state, replay

GOOD = sorted((Path(__file__).parent / "data" / "records" / "good").glob("*.json"))

#: Values a mutation puts in place of another: every JSON type, edge numbers, text
#: that looks like an action or a card.
ODD_VALUES: list[Any] = [None, True, False, 0, -1, 1, 7, 2**70, -(2**70), 0.5, float("1e308"), "", "x", "0",
                         "0 play 9H", "9 play AS", "QC", "1 bid 3", "0 pass", [], [0], ["0 play 9H"], {}, {"a": 1}]


@cache
def originals() -> list[dict[str, Any]]:
    records = [json.loads(path.read_text()) for path in GOOD]
    state = get_game("yugioh").new_state("goat", first_dealer=0)
    play_random_steps(state, random.Random(3), 300)
    records.append(record_from_state(state))
    for record in records:
        record.pop("comment", None)
        record.pop("expect", None)
    return records


def places(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside ``value`` (dict keys and list indices)."""
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += places(item, path + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += places(item, path + (i,))
    return found


def mutate(record: dict[str, Any], rng: random.Random) -> None:
    """One random change somewhere in ``record`` (never the whole record)."""
    path = rng.choice(places(record)[1:])
    parent = record
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    kind = rng.randrange(5)
    if kind == 0:
        parent[last] = copy.deepcopy(rng.choice(ODD_VALUES))
    elif kind == 1:        # a value from elsewhere in the record: right type, wrong place
        other = rng.choice(places(record)[1:])
        value: Any = record
        for step in other:
            value = value[step]
        parent[last] = copy.deepcopy(value)
    elif kind == 2:
        if isinstance(parent, dict):
            del parent[last]
        else:
            del parent[last:]
    elif kind == 3 and isinstance(parent, list):
        parent.insert(last, copy.deepcopy(rng.choice(parent + ODD_VALUES)))
    elif kind == 3:
        parent[rng.choice(["extra", "seed", "rules", "options", "players", "result", "deals"])] = (
            copy.deepcopy(rng.choice(ODD_VALUES)))
    else:                  # an action's or a card's text with one word changed
        target = parent[last]
        if isinstance(target, str) and " " in target:
            words = target.split(" ")
            words[rng.randrange(len(words))] = rng.choice(["9", "-1", "play", "bid", "AS", "QC", "", "pass", "x"])
            parent[last] = " ".join(words)
        else:
            parent[last] = copy.deepcopy(rng.choice(ODD_VALUES))


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(which=st.integers(0, len(GOOD)), seed=st.integers(0, 2**32 - 1), changes=st.integers(1, 3))
def test_a_changed_record_replays_or_is_refused_in_one_line(which: int, seed: int, changes: int) -> None:
    record = copy.deepcopy(originals()[which])
    rng = random.Random(seed)
    for _ in range(changes):
        mutate(record, rng)
    try:
        outcome = replay(record)
        check_result(record, outcome)
    except RecordProblem as problem:
        assert str(problem) and "\n" not in str(problem), repr(str(problem))


def test_a_shuffle_that_lists_objects_is_refused_in_one_line() -> None:
    """Found by the property above: a deck's shuffle listing JSON objects instead
    of card names was counted as it was and raised ``TypeError: unhashable type``."""
    record = copy.deepcopy(originals()[-1])
    assert record["game"] == "yugioh" and isinstance(record["chance"][1], list)
    record["chance"][1] = [{"card": name} for name in record["chance"][1]]
    try:
        replay(record)
    except RecordProblem as problem:
        assert str(problem) == "chance 1: a shuffle of seat 0's deck must list its 40 cards, top first"
    else:
        raise AssertionError("a shuffle of objects was taken")
