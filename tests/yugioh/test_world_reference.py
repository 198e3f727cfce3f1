"""The world sampler draws exactly the worlds it drew when
``tests/data/yugioh_world_reference.json`` was recorded: for the same view and
rng state, the same chances, actions, views, histories and legal texts, the
same failures, and the rng left in the same state — across duels 1–3, both
seats, the ``ask_responses`` settings and other rules and decks. Speed work on
:mod:`goat.games.yugioh.worlds` must not change a drawn world; see
``tests/yugioh/world_reference.py`` for how the fixture is made and when it may
be regenerated."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest

from .world_reference import CASES, FIXTURE, positions, reference

REFERENCE = json.loads(FIXTURE.read_text())


@cache
def _positions() -> list[tuple[str, Any]]:
    return positions()


def test_the_fixture_covers_every_case() -> None:
    assert [r["label"] for r in REFERENCE] == [c[0] for c in CASES]
    draws = [d for r in REFERENCE for seat in r["seats"] for d in seat]
    assert sum("error" not in d for d in draws) >= 40  # mostly worlds, not failures
    assert any(r["label"].startswith("goat/d3/") and all("error" not in d for d in r["seats"][0])
               for r in REFERENCE)
    states = [state for _, state in _positions()]
    assert {s.duel.number for s in states} == {1, 2, 3}
    assert sum(any(e.endswith(" swap ?") for e in s.history_of(0)) for s in states) >= 3  # hidden side-decking


@pytest.mark.parametrize("index", range(len(REFERENCE)), ids=[r["label"] for r in REFERENCE])
def test_drawn_worlds_match_the_reference(index: int) -> None:
    label, state = _positions()[index]
    assert reference(label, state) == REFERENCE[index]
