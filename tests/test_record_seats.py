"""A record's ``seats``: who sat where (docs/records.md). Written by tournaments and
the table server, shown by ``goat replay`` and its CSV, and checked like every field:
a wrong shape is a one-line error (exit 2) before anything is replayed."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from goat.cli.main import app
from goat.games import get_game
from goat.records import MalformedRecordError, check_result, record_from_state, replay
from goat.scoresheet import score_sheet, sheets_csv

runner = CliRunner(env={"FORCE_COLOR": None})
GOOD = Path(__file__).parent / "data" / "records" / "good"
NAMES = [{"name": "Anna"}, {"name": "Bot 2", "bot": "pimc:worlds=16"}, None, {"name": "Gleb"}]


def classic() -> dict[str, Any]:
    record = json.loads((GOOD / "classic-shamok-match.json").read_text())
    assert record["game"] == "kozel" and record.get("players", 4) == 4
    return record


def test_seats_change_nothing_but_the_names_shown() -> None:
    plain, named = classic(), classic() | {"seats": NAMES}
    assert replay(named).result == replay(plain).result
    check_result(named, replay(named))  # --check passes: the result is the same
    assert replay(named).seats == NAMES and replay(plain).seats is None
    sheet = score_sheet(replay(named))
    assert sheet.seats == ["Anna", "Bot 2 (pimc:worlds=16)", "?", "Gleb"]
    assert sheet.players("0+2") == "Anna, ?" and sheet.players("1+3") == "Bot 2 (pimc:worlds=16), Gleb"


@pytest.mark.parametrize(("seats", "message"), [
    ("Anna", '"seats" must be a list, not a string'),
    ([{"name": "Anna"}], '"seats" must name 4 seats, not 1'),
    ([{"name": "Anna"}, 7, None, None], '"seats" entry 1 must be an object or null, not a number'),
    ([{}, None, None, None], '"seats" entry 0: "name" must be text of 1 to 200 characters'),
    ([{"name": ""}, None, None, None], '"seats" entry 0: "name" must be text of 1 to 200 characters'),
    ([{"name": "x" * 201}, None, None, None], '"seats" entry 0: "name" must be text of 1 to 200 characters'),
    ([None, None, {"name": "B", "bot": 3}, None], '"seats" entry 2: "bot" must be text of 1 to 200 characters'),
    # printed as it was: "\x1b[2J" cleared the terminal of whoever replayed the record
    ([{"name": "\x1b[2JAnna"}, None, None, None],
     '"seats" entry 0: "name" holds the control character U+001B; a name is printable text'),
    ([None, {"name": "B", "bot": "pimc\x9b31m"}, None, None],
     '"seats" entry 1: "bot" holds the control character U+009B; a name is printable text'),
    ([None, None, None, {"name": "An\tna"}],
     '"seats" entry 3: "name" holds the control character U+0009; a name is printable text'),
])
def test_a_wrong_seats_is_a_one_line_error(tmp_path: Path, seats: Any, message: str) -> None:
    record = classic() | {"seats": seats}
    with pytest.raises(MalformedRecordError, match=re.escape(message)):
        replay(record)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    result = runner.invoke(app, ["replay", str(path), "--check"])
    assert result.exit_code == 2 and result.stderr.strip().endswith(message)
    assert len(result.stderr.splitlines()) == 1


def test_a_duel_record_checks_its_seats_before_the_replay() -> None:
    state = get_game("yugioh").new_state()
    record = record_from_state(state)
    assert replay(record | {"seats": [{"name": "Аня"}, {"name": "greedy", "bot": "greedy"}]}).seats[0] == {"name": "Аня"}
    with pytest.raises(MalformedRecordError, match='"seats" must name 2 seats, not 3'):
        replay(record | {"seats": [None, None, None], "actions": ["not even an action"]})


def test_the_csv_names_each_side_where_a_record_says(tmp_path: Path) -> None:
    named, plain = classic() | {"seats": NAMES}, classic()
    text = sheets_csv([(1, score_sheet(replay(named))), (2, score_sheet(replay(plain)))])
    rows = list(csv.DictReader(io.StringIO(text)))
    header = text.splitlines()[0].split(",")
    assert header[:4] == ["record", "table", "players 0+2", "players 1+3"]
    assert {(r["record"], r["players 0+2"], r["players 1+3"]) for r in rows} == {
        ("1", "Anna, ?", "Bot 2 (pimc:worlds=16), Gleb"), ("2", "", "")}
    # without names anywhere, the sheet has no players columns at all
    assert "players" not in sheets_csv([(1, score_sheet(replay(plain)))]).splitlines()[0]


def test_replay_prints_the_seats() -> None:
    shown = runner.invoke(app, ["replay", "-"], input=json.dumps(classic() | {"seats": NAMES}))
    assert shown.exit_code == 0, shown.output
    assert "Seats: 0 Anna · 1 Bot 2 (pimc:worlds=16) · 2 ? · 3 Gleb" in shown.stdout


def test_a_name_that_begins_like_a_formula_is_text_in_the_csv() -> None:
    """Anyone types a name in the lobby; ``=HYPERLINK(...)`` in a cell of the score
    sheet was a live formula in the organiser's spreadsheet (CSV injection)."""
    seats = [{"name": '=HYPERLINK("http://evil.example","win")'}, {"name": "@SUM(A1)"}, {"name": "Vera"},
             {"name": "-Gleb"}]
    text = sheets_csv([(1, score_sheet(replay(classic() | {"seats": seats, "table": "+1"})))])
    for row in csv.DictReader(io.StringIO(text)):
        assert row["players 0+2"] == "'=HYPERLINK(\"http://evil.example\",\"win\"), Vera"
        assert row["players 1+3"] == "'@SUM(A1), -Gleb" and row["table"] == "'+1"
        assert not any(cell.startswith(("=", "+", "-", "@")) for cell in row.values() if not cell.lstrip("-").isdigit())
