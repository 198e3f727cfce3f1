"""ISMCTS decides exactly as it did when ``tests/data/ismcts_reference.json``
was recorded: same move, same root visit counts, same random draws, on seeded
positions across the Kozel rulesets (mostly street, out-of-turn molodkas too)
and Spades. Speed work on the search, the world sampler or the engine must not
change a seeded decision; see ``tests/bots/ismcts_reference.py`` for how the
fixture is made and when it may be regenerated."""

from __future__ import annotations

import json
import sys
from functools import cache
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ismcts_reference import FIXTURE, decide, positions

REFERENCE = json.loads(FIXTURE.read_text())


@cache
def _positions() -> list[dict]:
    return positions()


def test_the_fixture_covers_every_position():
    assert [p["label"] for p in _positions()] == [r["label"] for r in REFERENCE]
    assert sum(p["out_of_turn"] for p in _positions()) >= 4
    assert sum(r["label"].startswith("kozel/street/") for r in REFERENCE) >= 20


@pytest.mark.parametrize("index", range(len(REFERENCE)), ids=[r["label"] for r in REFERENCE])
def test_decision_matches_the_reference(index):
    assert decide(_positions()[index]) == REFERENCE[index]
