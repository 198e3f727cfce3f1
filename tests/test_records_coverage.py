"""docs/records-coverage.md maps every clause of the records contract
(shared/spec/records.md) to its code and tests. This file keeps that map from
rotting, with the same checker as docs/rules-coverage.md (``tests/coverage_map.py``):
a test id that no longer exists, a code reference that no longer imports, an id
listed twice, or a clause without a test fails here.
"""

from __future__ import annotations

import pytest
from coverage_map import ROOT, Row, broken_code, duplicate_ids, missing_tests, read_rows, untested

DOC = ROOT / "docs" / "records-coverage.md"
COLUMNS = ("id", "clause", "code", "tests")
ROWS = read_rows(DOC.read_text(encoding="utf-8"), COLUMNS, "docs/records-coverage.md")
#: The contract's parts, each with at least one clause here.
PARTS = ("common", "file", "field", "deal", "action", "cli", "result")


def test_every_clause_id_is_a_records_id_listed_once() -> None:
    assert ROWS, "docs/records-coverage.md has no clause table"
    assert {row.group for row in ROWS} == {"records"}
    assert {row.row_id.split(".")[1] for row in ROWS} == set(PARTS)
    assert not duplicate_ids(ROWS), f"clause ids listed twice: {duplicate_ids(ROWS)}"


def test_every_listed_test_exists() -> None:
    missing = missing_tests(ROWS)
    assert not missing, "tests named in docs/records-coverage.md that do not exist:\n" + "\n".join(missing)


def test_every_clause_names_a_test() -> None:
    assert not untested(ROWS), f"clauses without a test: {untested(ROWS)}"


def test_every_code_reference_resolves() -> None:
    broken = broken_code(ROWS)
    assert not broken, "code references in docs/records-coverage.md that do not resolve:\n" + "\n".join(broken)


@pytest.mark.parametrize("row, problem", [
    (Row("records.x", "a clause", ("goat.records:no_such_function",), ()), "records.x: goat.records:no_such_function"),
    (Row("records.x", "a clause", (), ()), "records.x: no code"),
])
def test_a_bad_code_reference_is_named(row: Row, problem: str) -> None:
    """The checker itself: a reference that does not resolve, or none, is caught."""
    assert broken_code([row])[0].startswith(problem)


def test_a_missing_test_and_an_untested_clause_are_named() -> None:
    """The checker itself: a test that does not exist, and a clause without one, are caught."""
    rows = [Row("records.x", "a clause", (), ("tests/test_records.py::test_no_such_test",)),
            Row("records.y", "a clause")]
    assert missing_tests(rows) == ["records.x: tests/test_records.py::test_no_such_test"]
    assert untested(rows) == ["records.y"]
    assert duplicate_ids(rows + rows[:1]) == ["records.x"]


def test_the_table_reader_reads_a_row_by_its_columns() -> None:
    text = ("| id | clause | code | tests |\n| --- | --- | --- | --- |\n"
            "| `records.a` | words with `ticks` | `goat.records:replay` | `tests/t.py::test_a`, `tests/t.py::test_b` |\n"
            "\nnot a table\n| `records.b` | outside the table | | |\n")
    [row] = read_rows(text, COLUMNS)
    assert row == Row("records.a", "words with `ticks`", ("goat.records:replay",),
                      ("tests/t.py::test_a", "tests/t.py::test_b"))
