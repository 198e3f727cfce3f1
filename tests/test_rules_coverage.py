"""docs/rules-coverage.md maps every rule of /work/shared/rules/*.md to its code
and the tests named after it. This file keeps that map from rotting: a test id
that no longer exists, a code reference that no longer imports, or a
[decision] option the ruleset does not have (or a value it refuses) fails here.

The tests are found by parsing the test files with ``ast`` (not by collecting
or running them), so this check costs well under a second.
"""

from __future__ import annotations

import ast
import functools
import importlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from goat.protocol import RulesError

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "rules-coverage.md"
#: Games whose every rule must name at least one test (Spades rows may say "none"
#: while its missing tests are written elsewhere).
MUST_BE_TESTED = ("kozel", "yugioh")
TICKED = re.compile(r"`([^`]+)`")


@dataclass(frozen=True)
class Row:
    """One rule of the map: its id, words, option cell, code and tests."""

    rule_id: str
    words: str
    option: str
    code: tuple[str, ...]
    tests: tuple[str, ...]

    @property
    def game(self) -> str:
        return self.rule_id.split(".")[0]


def read_rows(text: str) -> list[Row]:
    """The rows of every table whose header starts ``| id | rule | option | code | tests |``."""
    rows: list[Row] = []
    in_table = False
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("|") else None
        if cells is None:
            in_table = False
            continue
        if cells[:5] == ["id", "rule", "option", "code", "tests"]:
            in_table = True
            continue
        if not in_table or set("".join(cells)) <= set("-: "):
            continue
        assert len(cells) == 5, f"a row of docs/rules-coverage.md needs 5 cells: {line}"
        rule_id = cells[0].strip("`")
        rows.append(Row(rule_id, cells[1], cells[2], tuple(TICKED.findall(cells[3])),
                        tuple(TICKED.findall(cells[4]))))
    return rows


ROWS = read_rows(DOC.read_text(encoding="utf-8"))


@functools.cache
def defined_tests(path: str) -> frozenset[str]:
    """``name`` and ``Class::name`` of every test function in a test file."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
            names.add(node.name)
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            names.update(f"{node.name}::{item.name}" for item in node.body
                         if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))
                         and item.name.startswith("test"))
    return frozenset(names)


def resolve(reference: str) -> Any:
    """The object a ``package.module:Qual.name`` reference names (raises if none)."""
    module_name, _, qualname = reference.partition(":")
    obj: Any = importlib.import_module(module_name)
    for part in filter(None, qualname.split(".")):
        obj = getattr(obj, part)
    return obj


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
    ticked = TICKED.findall(row.option)
    if not ticked:
        return [f"{row.rule_id}: a [decision] names no option"] if "[decision" in row.words else []
    names, build, presets = RULESETS[row.game]()
    name, values = ticked[0], [option_value(v) for v in ticked[1:]]
    if name not in names:
        return [f"{row.rule_id}: {row.game} has no option {name!r}"]
    problems = []
    for value in values:
        accepted = []
        for preset in presets:
            try:
                accepted.append(getattr(build(preset, {name: value}), name) == value)
            except RulesError:
                continue
        if not any(accepted):
            problems.append(f"{row.rule_id}: no {row.game} preset takes {name}={value!r}")
    if values and not any(getattr(build(p, {}), name) == values[0] for p in presets):
        problems.append(f"{row.rule_id}: {name}={values[0]!r} is no preset's default")
    return problems


def test_the_map_has_a_table_per_rules_file() -> None:
    assert {row.game for row in ROWS} == set(RULESETS)
    ids = [row.rule_id for row in ROWS]
    assert len(ids) == len(set(ids)), "a rule id is listed twice"


def test_every_listed_test_exists() -> None:
    missing = []
    for row in ROWS:
        for test_id in row.tests:
            path, _, name = test_id.partition("::")
            if not (ROOT / path).is_file() or name not in defined_tests(path):
                missing.append(f"{row.rule_id}: {test_id}")
    assert not missing, "tests named in docs/rules-coverage.md that do not exist:\n" + "\n".join(missing)


def test_every_kozel_and_yugioh_rule_names_a_test() -> None:
    untested = [row.rule_id for row in ROWS if row.game in MUST_BE_TESTED and not row.tests]
    assert not untested, f"rules without a test: {untested}"


def test_every_code_reference_resolves() -> None:
    broken = []
    for row in ROWS:
        if not row.code:
            broken.append(f"{row.rule_id}: no code")
        for reference in row.code:
            try:
                resolve(reference)
            except (ImportError, AttributeError) as exc:
                broken.append(f"{row.rule_id}: {reference} ({exc})")
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
    assert option_problems(Row("kozel.x", "[decision] who leads", cell, (), ())) == expected
