"""``goat replay --csv``: the score sheet of random records of every game,
checked against the engine's own replay of the same records; its refusals.

The records come from ``goat random-games`` (the generator the other record
tests use); the CSV is read back with :mod:`csv` and every figure compared with
:func:`goat.records.replay`'s ``result`` — the CSV's totals are summed here
independently, so a wrong running total or a row off by one fails.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from goat.cli.main import app
from goat.records import read_records, replay

DATA = Path(__file__).parent / "data" / "records"
runner = CliRunner(env={"FORCE_COLOR": None})

GAMES = [
    ("kozel", "classic", []),
    ("kozel", "street", []),
    ("kozel", "full-hand", ["--players", "3"]),
    ("kozel", "full-hand-24", []),
    ("spades", "standard", []),
    ("spades", "bemo", []),
    ("yugioh", "goat", []),
]


def random_records(tmp_path: Path, game: str, rules: str, extra: list[str], n: int = 3) -> Path:
    path = tmp_path / f"{game}-{rules}.jsonl"
    made = runner.invoke(app, ["random-games", game, "--rules", rules, "--n", str(n), "--seed", "5",
                               "--out", str(path), *extra])
    assert made.exit_code == 0, made.output
    return path


def sheet_rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def side_labels(row: dict[str, str], prefix: str) -> list[str]:
    return [key[len(prefix):] for key in row if key.startswith(prefix) and row[key] != ""]


@pytest.mark.parametrize("game, rules, extra", GAMES, ids=lambda v: v if isinstance(v, str) else "")
def test_csv_of_random_records_equals_the_engines_replay(tmp_path: Path, game: str, rules: str,
                                                         extra: list[str]) -> None:
    path = random_records(tmp_path, game, rules, extra)
    result = runner.invoke(app, ["replay", str(path), "--csv"])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0].startswith("record,table,")
    rows = sheet_rows(result.stdout)
    records = read_records(path)
    for number, record in enumerate(records, start=1):
        mine = [r for r in rows if r["record"] == str(number)]
        engine = replay(record).result
        if game == "yugioh":
            duels = engine["duels"]
            assert len(mine) == len(duels) >= 1
            for row, duel in zip(mine, duels):
                assert row["winner"] == ("" if duel["winner"] is None else str(duel["winner"]))
                assert [int(row["LP 0"]), int(row["LP 1"])] == duel["lp"]
            continue
        deals = engine["deals"]
        assert [int(r["deal"]) for r in mine] == list(range(1, len(deals) + 1))
        sides = side_labels(mine[0], "total ")
        running = [0] * len(sides)
        for row, deal in zip(mine, deals):
            if game == "kozel":
                points = [int(row[f"points {s}"]) for s in sides]
                assert points == deal["points"]
                if deal["ended_by"] == "cards-exhausted":
                    assert sum(points) == 120
                penalty = [int(row[f"penalty {s}"]) for s in sides]
                assert penalty == deal["penalty"]
                assert row["trump"] in ("C", "D", "H", "S")
            else:
                penalty = [int(row[f"points {s}"]) for s in sides]
                if "redeal" in deal["bids"]:
                    assert penalty == [0, 0] and "redeal" in row["notes"]
                else:
                    assert penalty == deal["score"]
                    assert [int(row[f"bags {s}"]) for s in sides] == deal["bags"]
                    assert [int(row[f"tricks {s}"]) for s in sides] == [sum(deal["tricks"][t::2]) for t in (0, 1)]
            running = [a + b for a, b in zip(running, penalty)]
            assert [int(row[f"total {s}"]) for s in sides] == running
        assert running == (engine["penalty_total"] if game == "kozel" else engine["score_total"])


def test_kozel_notes_name_the_shamok_the_royal_goat_and_the_molodka() -> None:
    def notes(name: str) -> list[str]:
        result = runner.invoke(app, ["replay", str(DATA / "good" / f"{name}.json"), "--csv"])
        assert result.exit_code == 0, result.output
        return [row["notes"] for row in sheet_rows(result.stdout)]

    assert notes("classic-shamok-match") == ["shamok caught the queen of clubs"] * 3
    assert notes("full-hand-3p-royal-goat") == ["royal goat"]
    assert notes("street-molodka") == ["molodka"]
    assert notes("classic-unfinished")[-1] == "unfinished"


def test_csv_header_and_sides_of_a_three_player_sheet() -> None:
    result = runner.invoke(app, ["replay", str(DATA / "good" / "full-hand-3p-royal-goat.json"), "--csv"])
    header = result.stdout.splitlines()[0].split(",")
    assert header[:6] == ["record", "table", "deal", "dealer", "trump", "trump card"]
    assert "penalty 2" in header and "penalty 0+2" not in header and header[-1] == "notes"


def test_csv_names_the_table_a_record_carries(tmp_path: Path) -> None:
    record = json.loads((DATA / "good" / "classic-shamok-match.json").read_text())
    path = tmp_path / "t.json"
    path.write_text(json.dumps(record | {"table": "abc123"}))
    rows = sheet_rows(runner.invoke(app, ["replay", str(path), "--csv"]).stdout)
    assert {row["table"] for row in rows} == {"abc123"}


def test_csv_out_writes_utf8_with_a_bom(tmp_path: Path) -> None:
    target = tmp_path / "sheet.csv"
    source = str(DATA / "good" / "street-molodka.json")
    result = runner.invoke(app, ["replay", source, "--csv", "--out", str(target)])
    assert result.exit_code == 0 and result.stdout == ""
    data = target.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf")
    assert data[3:].decode().splitlines() == runner.invoke(app, ["replay", source, "--csv"]).stdout.splitlines()


def test_csv_with_json_is_one_line_exit_2() -> None:
    result = runner.invoke(app, ["replay", str(DATA / "good" / "street-molodka.json"), "--csv", "--json"])
    assert result.exit_code == 2
    assert len(result.stderr.splitlines()) == 1 and "--csv" in result.stderr and "--json" in result.stderr
    assert result.stdout == ""


def test_out_without_csv_is_refused(tmp_path: Path) -> None:
    result = runner.invoke(app, ["replay", str(DATA / "good" / "street-molodka.json"), "--out", str(tmp_path / "x")])
    assert result.exit_code == 2 and len(result.stderr.splitlines()) == 1
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize("name, status", [("malformed-duplicate-card.json", 2), ("malformed-not-json.json", 2),
                                          ("illegal-follow-suit.json", 1)])
def test_a_bad_record_under_csv_is_the_same_one_line_and_no_half_sheet(name: str, status: int) -> None:
    plain = runner.invoke(app, ["replay", str(DATA / "bad" / name), "--check"])
    result = runner.invoke(app, ["replay", str(DATA / "bad" / name), "--csv"])
    assert result.exit_code == status
    assert result.stderr.splitlines() == plain.stderr.splitlines() and len(result.stderr.splitlines()) == 1
    assert result.stdout == ""


def test_records_of_two_games_do_not_share_a_csv(tmp_path: Path) -> None:
    path = tmp_path / "mixed.jsonl"
    path.write_text("".join(json.dumps(json.loads((DATA / "good" / f"{n}.json").read_text())) + "\n"
                            for n in ("street-molodka", "spades-standard-full-deal")))
    result = runner.invoke(app, ["replay", str(path), "--csv"])
    assert result.exit_code == 2 and result.stderr.splitlines() == [
        "one CSV holds one game's score sheets, these records are kozel and spades"]


@pytest.mark.parametrize("rules, extra", [("classic", []), ("street", []), ("full-hand", ["--players", "2"])],
                         ids=["classic", "street", "full-hand-2p"])
def test_eggs_notes_say_which_tie_doubled_which_penalty(tmp_path: Path, rules: str, extra: list[str]) -> None:
    """Under ``eggs=double-next`` a 4 in ``flat2`` (or an 8 in ``graded``) is
    explained on the sheet: every deal noted "doubled" has exactly twice the
    penalty the engine's own scoring gives its points and tricks, every other
    played-out deal exactly that penalty, and each doubling follows a noted tie."""
    from goat.games.kozel.scoring import deal_penalty
    from goat.scoresheet import EGGS_NOTES, score_sheet

    path = tmp_path / "eggs.jsonl"
    made = runner.invoke(app, ["random-games", "kozel", "--rules", rules, "--n", "30", "--seed", "1",
                               "--option", "eggs=double-next", "--out", str(path), *extra])
    assert made.exit_code == 0, made.output
    doubled = 0
    for record in read_records(path):
        outcome = replay(record)
        owed = False
        for row in score_sheet(outcome).rows:
            if row.ended_by not in ("cards-exhausted", "annulled"):   # played out (full-hand annuls a tie)
                continue
            plain = deal_penalty(outcome.state.rules, row.points, row.tricks)
            if plain.tie:
                assert EGGS_NOTES["tie"] in row.notes and row.penalty == plain.penalty
                owed = True
            elif EGGS_NOTES["doubled"] in row.notes:
                assert owed and row.penalty == [2 * p for p in plain.penalty]
                doubled, owed = doubled + 1, False
            else:
                assert row.penalty == plain.penalty and not (owed and any(plain.penalty))
    assert doubled, "no tie was followed by a doubled deal: pick another seed"
    csv_text = runner.invoke(app, ["replay", str(path), "--csv"]).stdout
    assert any(EGGS_NOTES["doubled"] in row["notes"] for row in sheet_rows(csv_text))
