"""``docs/records.md`` shows records and ``goat replay`` output: they must be true.

Every record printed on that page replays and matches its stored result; the
transcript of ``goat replay`` on the first record is what the command prints; and
each line of the table of problems is what ``goat replay --check`` says (with the
status it exits with) when the first record is changed as that row describes.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from goat.cli.main import app
from goat.records import check_result, replay

DOC = Path(__file__).resolve().parent.parent / "docs" / "records.md"
TEXT = DOC.read_text(encoding="utf-8")
runner = CliRunner(env={"FORCE_COLOR": None})


def blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", TEXT, flags=re.S | re.M)


RECORDS = [json.loads(block) for block in blocks("json")]
FIRST = RECORDS[0]


def test_the_page_shows_a_record_of_each_kind() -> None:
    kinds = {(r["game"], r["rules"]) for r in RECORDS}
    assert kinds == {("kozel", "classic"), ("kozel", "street"), ("kozel", "full-hand"),
                     ("spades", "standard")}
    verbs = {action.split()[1] for r in RECORDS for deal in r["deals"] for action in deal["actions"]}
    assert verbs == {"play", "pass", "molodka", "give", "bid"}   # every verb the page explains


@pytest.mark.parametrize("index", range(len(RECORDS)))
def test_every_record_on_the_page_replays_to_its_stored_result(index: int) -> None:
    record = RECORDS[index]
    check_result(record, replay(record))          # raises on an illegal action or another result


def test_the_transcript_is_what_goat_replay_prints(tmp_path: Path) -> None:
    (session,) = blocks("text")
    commands = re.split(r"^\$ (.*)\n", session, flags=re.M)[1:]
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(FIRST), encoding="utf-8")
    assert len(commands) == 6
    for command, shown in zip(commands[::2], commands[1::2]):
        args = command.split()
        assert args[:3] == ["goat", "replay", "deal.json"]
        result = runner.invoke(app, ["replay", str(path), *args[3:]])
        assert result.exit_code == 0, result.output
        printed = [line.rstrip() for line in result.stdout.splitlines()]
        assert printed == shown.rstrip("\n").splitlines(), command


def _action(index: int, text: str) -> Callable[[dict[str, Any]], None]:
    def change(record: dict[str, Any]) -> None:
        record["deals"][0]["actions"][index] = text
    return change


def _first_card_of_seat_1(card: str) -> Callable[[dict[str, Any]], None]:
    def change(record: dict[str, Any]) -> None:
        record["deals"][0]["hands"]["1"][0] = card
    return change


def _points(points: list[int]) -> Callable[[dict[str, Any]], None]:
    def change(record: dict[str, Any]) -> None:
        record["result"]["deals"][0]["points"] = points
    return change


def _field(name: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(record: dict[str, Any]) -> None:
        record[name] = value
    return change


# The rows of the page's table, in its order: how the first record is changed.
CHANGES = [
    _action(1, "0 play TS"),
    _action(0, "0 play TC"),
    _action(2, "1 plya 9S"),
    _points([47, 73]),
    _first_card_of_seat_1("TC"),
    _first_card_of_seat_1("6C"),
    _field("rules", "clasic"),
    _field("options", {"match_target": "ten"}),
]


def problem_rows() -> list[tuple[int, str]]:
    section = TEXT[TEXT.index("| what is wrong |"):]
    rows = re.findall(r"^\| .*? \| (\d) \| `(.*)` \|$", section, flags=re.M)
    return [(int(status), line) for status, line in rows]


def test_the_table_has_one_row_per_change() -> None:
    assert len(problem_rows()) == len(CHANGES)


@pytest.mark.parametrize("index", range(len(CHANGES)))
def test_each_problem_line_is_what_check_says(index: int, tmp_path: Path) -> None:
    status, line = problem_rows()[index]
    record = copy.deepcopy(FIRST)
    CHANGES[index](record)
    path = tmp_path / "changed.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path), "--check"])
    assert (result.exit_code, result.stderr.strip()) == (status, line)
    assert result.stdout == ""
