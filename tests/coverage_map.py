"""The one reader and checker of the project's coverage maps.

``docs/rules-coverage.md`` (every rule of ``shared/rules/*.md``) and
``docs/records-coverage.md`` (every clause of ``shared/spec/records.md``) are
tables with the same idea: an id, the requirement in a few words, the code that
implements it (``package.module:Qual.name``) and the tests named after it
(``path::test_function``). A map that names a renamed test or a moved function
is worse than none, so both are checked by this module's code — one place, so
the two maps cannot drift apart in what "checked" means
(``tests/test_rules_coverage.py``, ``tests/test_records_coverage.py``).

The tests are found by parsing the test files with ``ast`` (not by collecting
or running them), so a check costs well under a second.
"""

from __future__ import annotations

import ast
import functools
import importlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TICKED = re.compile(r"`([^`]+)`")


@dataclass(frozen=True)
class Row:
    """One requirement of a map: its id, its words, every cell by column name,
    and the code references and test ids of its ``code`` and ``tests`` cells."""

    row_id: str
    words: str
    code: tuple[str, ...] = ()
    tests: tuple[str, ...] = ()
    cells: dict[str, str] = field(default_factory=dict, compare=False, hash=False)

    @property
    def group(self) -> str:
        """The id's first part: the game of a rule (``kozel``), ``records`` for a clause."""
        return self.row_id.split(".")[0]


def read_rows(text: str, columns: Sequence[str], doc: str = "the map") -> list[Row]:
    """The rows of every table whose header is exactly ``columns`` (the first is
    the id, the second the words; ``code`` and ``tests`` are read by name)."""
    rows: list[Row] = []
    in_table = False
    for line in text.splitlines():
        if not line.startswith("|"):
            in_table = False
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells == list(columns):
            in_table = True
            continue
        if not in_table or set("".join(cells)) <= set("-: "):
            continue
        assert len(cells) == len(columns), f"a row of {doc} needs {len(columns)} cells: {line}"
        named = dict(zip(columns, cells))
        rows.append(Row(cells[0].strip("`"), cells[1], tuple(TICKED.findall(named.get("code", ""))),
                        tuple(TICKED.findall(named.get("tests", ""))), named))
    return rows


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


def duplicate_ids(rows: Iterable[Row]) -> list[str]:
    """Ids listed more than once (an id must name one requirement)."""
    seen: set[str] = set()
    twice = []
    for row in rows:
        if row.row_id in seen:
            twice.append(row.row_id)
        seen.add(row.row_id)
    return twice


def missing_tests(rows: Iterable[Row]) -> list[str]:
    """``id: path::name`` for every listed test that does not exist."""
    missing = []
    for row in rows:
        for test_id in row.tests:
            path, _, name = test_id.partition("::")
            if not (ROOT / path).is_file() or name not in defined_tests(path):
                missing.append(f"{row.row_id}: {test_id}")
    return missing


def untested(rows: Iterable[Row]) -> list[str]:
    """Ids of rows that name no test."""
    return [row.row_id for row in rows if not row.tests]


def broken_code(rows: Iterable[Row]) -> list[str]:
    """``id: reference (why)`` for a row without code or a reference that does not resolve."""
    broken = []
    for row in rows:
        if not row.code:
            broken.append(f"{row.row_id}: no code")
        for reference in row.code:
            try:
                resolve(reference)
            except (ImportError, AttributeError) as exc:
                broken.append(f"{row.row_id}: {reference} ({exc})")
    return broken
