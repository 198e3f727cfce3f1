"""docs/rules-coverage.md maps every rule of /work/shared/rules/*.md to its code
and the tests named after it. This file keeps that map from rotting: a test id
that no longer exists, a code reference that no longer imports, or a
[decision] option the ruleset does not have (or a value it refuses) fails here.

The reading and the checks shared with docs/records-coverage.md are in
``tests/coverage_map.py``; the option checks, which only rules have, are here.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from coverage_map import ROOT, TICKED, Row, broken_code, duplicate_ids, missing_tests, read_rows, untested

from goat.protocol import RulesError

DOC = ROOT / "docs" / "rules-coverage.md"
COLUMNS = ("id", "rule", "option", "code", "tests")
#: Games whose every rule must name at least one test (Spades rows may say "none"
#: while its missing tests are written elsewhere).
MUST_BE_TESTED = ("kozel", "yugioh")

ROWS = read_rows(DOC.read_text(encoding="utf-8"), COLUMNS, "docs/rules-coverage.md")


def _kozel() -> tuple[tuple[str, ...], Callable[[str, dict[str, Any]], Any], tuple[str, ...]]:
    from goat.games.kozel.rules import OPTION_NAMES, PRESETS, make_rules
    return OPTION_NAMES, lambda preset, options: make_rules(preset, options=options), tuple(PRESETS)


def _spades() -> tuple[tuple[str, ...], Callable[[str, dict[str, Any]], Any], tuple[str, ...]]:
    from goat.games.spades.rules import OPTION_NAMES, PRESETS, make_rules
    return OPTION_NAMES, lambda preset, options: make_rules(preset, options=options), tuple(PRESETS)


def _yugioh() -> tuple[tuple[str, ...], Callable[[str, dict[str, Any]], Any], tuple[str, ...]]:
    from goat.games.yugioh.rules import PRESETS, YugiohRules, make_rules
    names = tuple(f for f in YugiohRules.__dataclass_fields__ if f != "name")
    return names, make_rules, tuple(PRESETS)


RULESETS = {"kozel": _kozel, "spades": _spades, "yugioh": _yugioh}


def option_value(text: str) -> Any:
    """A value as the map writes it: JSON (``true``, ``4``, ``null``, ``"15"``) or
    else a bare string (``clubs-high``)."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def option_problems(row: Row) -> list[str]:
    """Why the row's option cell does not match its game's ruleset (``[]``: it does).

    The cell is ``\\`name\\`: \\`default\\`, \\`other\\`, ...``: the option must exist,
    every value must build some preset, and the first value must be some preset's."""
    ticked = TICKED.findall(row.cells["option"])
    if not ticked:
        return [f"{row.row_id}: a [decision] names no option"] if "[decision" in row.words else []
    names, build, presets = RULESETS[row.group]()
    name, values = ticked[0], [option_value(v) for v in ticked[1:]]
    if name not in names:
        return [f"{row.row_id}: {row.group} has no option {name!r}"]
    problems = []
    for value in values:
        accepted = []
        for preset in presets:
            try:
                accepted.append(getattr(build(preset, {name: value}), name) == value)
            except RulesError:
                continue
        if not any(accepted):
            problems.append(f"{row.row_id}: no {row.group} preset takes {name}={value!r}")
    if values and not any(getattr(build(p, {}), name) == values[0] for p in presets):
        problems.append(f"{row.row_id}: {name}={values[0]!r} is no preset's default")
    return problems


def test_the_map_has_a_table_per_rules_file() -> None:
    assert {row.group for row in ROWS} == set(RULESETS)
    assert not duplicate_ids(ROWS), "a rule id is listed twice"


def test_every_listed_test_exists() -> None:
    missing = missing_tests(ROWS)
    assert not missing, "tests named in docs/rules-coverage.md that do not exist:\n" + "\n".join(missing)


def test_every_kozel_and_yugioh_rule_names_a_test() -> None:
    bare = untested(row for row in ROWS if row.group in MUST_BE_TESTED)
    assert not bare, f"rules without a test: {bare}"


def test_every_code_reference_resolves() -> None:
    broken = broken_code(ROWS)
    assert not broken, "code references in docs/rules-coverage.md that do not resolve:\n" + "\n".join(broken)


def test_every_decision_names_an_option_of_its_ruleset() -> None:
    problems = [p for row in ROWS for p in option_problems(row)]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("cell, expected", [
    ("`trump_lead`: `free`", []),
    ("`no_such_option`: `x`", ["kozel.x: kozel has no option 'no_such_option'"]),
    ("`trump_lead`: `sometimes`", ["kozel.x: no kozel preset takes trump_lead='sometimes'",
                                   "kozel.x: trump_lead='sometimes' is no preset's default"]),
    ("", ["kozel.x: a [decision] names no option"]),
])
def test_a_bad_decision_option_is_named(cell: str, expected: list[str]) -> None:
    """The checker itself: a wrong option or value in a [decision] row is caught."""
    assert option_problems(Row("kozel.x", "[decision] who leads", cells={"option": cell})) == expected
