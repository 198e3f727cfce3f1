"""``goat standings FILE...``: club standings from records that name their seats."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from goat.cli.main import app

WINNERS, LOSERS = ("Anna", "Vera"), ("Boris", "Gleb")


def run(*args: str) -> Any:
    return CliRunner().invoke(app, ["standings", *args])


def random_records(tmp_path: Path, game: str, n: int, *extra: str) -> list[dict[str, Any]]:
    path = tmp_path / f"{game}-{n}-{'-'.join(extra)}.jsonl"
    result = CliRunner().invoke(app, ["random-games", game, "--n", str(n), "--out", str(path), "--seed", "5", *extra])
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def name_by_result(record: dict[str, Any]) -> dict[str, Any]:
    """Seat the winners' names on the side that won (as the stored result says) and
    the losers' on the side that lost: then the standings' sums are known."""
    result, players = record["result"], record["players"]
    if record["game"] == "kozel":
        losing = result["loser_team"]
        side = [seat % 2 for seat in range(players)]
        record["seats"] = [{"name": (LOSERS if side[seat] == losing else WINNERS)[seat // 2]} for seat in range(players)]
    else:   # spades: a winning team of seats t and t + 2
        winning = result["winner_team"]
        record["seats"] = [{"name": (WINNERS if seat % 2 == winning else LOSERS)[seat // 2]} for seat in range(players)]
    return record


def write(path: Path, records: list[dict[str, Any]]) -> str:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return str(path)


def table_rows(output: str) -> dict[str, list[str]]:
    """The printed table's rows by name: the cells after the name."""
    rows = {}
    for line in output.splitlines():
        cells = [c.strip() for c in line.replace("┃", "│").split("│") if c.strip()]
        if len(cells) >= 7 and cells[0].isdigit():
            rows[cells[1]] = cells[2:]
    return rows


def test_winners_and_losers_of_every_record_are_counted(tmp_path: Path) -> None:
    kozel = [name_by_result(r) for r in random_records(tmp_path, "kozel", 3, "--rules", "classic")]
    spades = [name_by_result(r) for r in random_records(tmp_path, "spades", 2)]
    result = run(write(tmp_path / "k.jsonl", kozel), write(tmp_path / "s.jsonl", spades))
    assert result.exit_code == 0, result.output
    rows = table_rows(result.stdout)
    # played, won, lost, drawn, goats (Kozel matches lost), win rate
    assert rows["Anna"] == ["5", "5", "0", "0", "0", "100%"]
    assert rows["Boris"] == ["5", "0", "5", "0", "3", "0%"]
    assert set(rows) == set(WINNERS + LOSERS)
    assert "Standings of 5 matches" in result.stdout
    assert result.stderr == ""


@pytest.mark.parametrize("times, shown", [
    (["2026-12-03T21:00:00+00:00", "2026-12-03T20:00:00+00:00", None], "ANNA"),   # the latest time wins
    (["2026-12-03T21:00:00", "2026-12-03T23:30:00+03:00", "soon"], "ANNA"),     # no zone: UTC; not a time: none
    ([None, None, None], "anna"),                                                # no times: the last record
])
def test_a_name_is_shown_as_spelt_in_the_game_that_ended_last(tmp_path: Path, times: list[str | None],
                                                              shown: str) -> None:
    """The server's downloads say when each game ended (``finished_at``): the
    spelling of the latest one is shown, whatever the files' order; a record
    without a readable time counts as older than one with, and among those the
    later record is the more recent, as before."""
    records = [name_by_result(r) for r in random_records(tmp_path, "kozel", 3, "--rules", "classic")]
    for record, spelling, moment in zip(records, ["ANNA", "Anna", "anna"], times):
        record["seats"][record["seats"].index({"name": "Anna"})] = {"name": spelling}
        if moment is not None:
            record["finished_at"] = moment
    result = run(write(tmp_path / "k.jsonl", records))
    assert result.exit_code == 0, result.output
    assert shown in table_rows(result.stdout) and result.stderr == ""


def test_records_without_seats_or_an_end_are_left_out_with_the_reason(tmp_path: Path) -> None:
    named = [name_by_result(r) for r in random_records(tmp_path, "kozel", 2, "--rules", "classic")]
    unnamed = random_records(tmp_path, "kozel", 1, "--rules", "classic")
    single = random_records(tmp_path, "kozel", 1, "--rules", "classic", "--single-deal")
    single[0]["seats"] = [{"name": "Dora"}] * 4
    result = run(write(tmp_path / "mixed.jsonl", named + unnamed + single))
    assert result.exit_code == 0, result.output
    rows = table_rows(result.stdout)
    assert rows["Anna"][:2] == ["2", "2"] and "Dora" not in rows
    assert result.stderr.strip() == ('2 of 4 records counted; left out: 1 do not say who sat where (no "seats"); '
                                     "1 end before their match is over")


def test_since_and_until_count_only_the_games_that_ended_between(tmp_path: Path) -> None:
    """An organiser's evening out of a season's downloads: ``--since`` inclusive,
    ``--until`` exclusive as a moment and through its end as a day, offsets
    honoured (as the server's standings filter); a record that does not say when
    it ended cannot be placed, so it is left out with the reason."""
    records = [name_by_result(r) for r in random_records(tmp_path, "kozel", 4, "--rules", "classic")]
    ended = ["2026-12-02T23:59:59+00:00", "2026-12-03T18:00:00+00:00", "2026-12-04T01:30:00+03:00", None]
    for record, spelling, when in zip(records, ["Anna1", "Anna2", "Anna3", "Anna4"], ended):
        record["seats"][record["seats"].index({"name": "Anna"})] = {"name": spelling}
        if when is not None:
            record["finished_at"] = when
    path = write(tmp_path / "season.jsonl", records)
    result = run(path, "--since", "2026-12-03", "--until", "2026-12-03")   # the UTC day 3 December
    assert result.exit_code == 0, result.output
    rows = table_rows(result.stdout)
    assert {"Anna2", "Anna3"} <= set(rows) and not {"Anna1", "Anna4"} & set(rows)   # 01:30+03:00 is 22:30 UTC
    assert result.stderr.strip() == ('2 of 4 records counted; left out: 1 do not say when they ended '
                                     '(no "finished_at"); 1 ended outside --since/--until')
    result = run(path, "--since", "2026-12-03T18:00:00Z")
    assert set(table_rows(result.stdout)) & {"Anna1", "Anna2", "Anna3"} == {"Anna2", "Anna3"}
    result = run(path, "--until", "2026-12-03T18:00:00Z")
    assert set(table_rows(result.stdout)) & {"Anna1", "Anna2", "Anna3"} == {"Anna1"}


def test_game_filter_csv_and_bots(tmp_path: Path) -> None:
    kozel = [name_by_result(r) for r in random_records(tmp_path, "kozel", 2, "--rules", "classic")]
    spades = [name_by_result(r) for r in random_records(tmp_path, "spades", 1)]
    losing = 1 - spades[0]["result"]["winner_team"]
    for seat in (losing, losing + 2):
        spades[0]["seats"][seat] = {"name": "heuristic bot", "bot": "heuristic"}
    files = [write(tmp_path / "k.jsonl", kozel), write(tmp_path / "s.jsonl", spades)]
    out = tmp_path / "sheet.csv"
    result = run(*files, "--game", "spades", "--bots", "--csv", "--out", str(out))
    assert result.exit_code == 0, result.output
    raw = out.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    rows = list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig"))))
    by_name = {row["name"]: row for row in rows}
    # one Spades match: the bot's two partnered seats count once
    assert [by_name["heuristic (bot)"][k] for k in ("bot", "played", "lost", "goats")] == ["heuristic", "1", "1", "0"]
    assert [by_name["Anna"][k] for k in ("place", "played", "won", "win rate")] == ["1", "1", "1", "1.000"]
    assert set(by_name) == {"Anna", "Vera", "heuristic (bot)"}
    assert result.stderr.strip() == "1 of 3 records counted; left out: 2 are not spades records"
    without_bots = run(*files, "--game", "spades", "--csv")
    assert "heuristic" not in without_bots.stdout


def test_a_bad_record_stops_with_one_line_naming_its_file(tmp_path: Path) -> None:
    records = [name_by_result(r) for r in random_records(tmp_path, "kozel", 2, "--rules", "classic")]
    good = write(tmp_path / "good.jsonl", records)
    actions = records[1]["deals"][0]["actions"]
    actions[1] = actions[0]          # the same card again, by the same seat
    bad = write(tmp_path / "bad.jsonl", records)
    result = run(good, bad)
    assert result.exit_code == 1
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{bad}: record 2: deal 1, action "), result.stderr
    assert "turn" in lines[0]
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    result = run(str(broken))
    assert result.exit_code == 2 and result.stdout == "" and len(result.stderr.strip().splitlines()) == 1
    records[0]["seats"] = [{"name": "Anna"}]
    result = run(write(tmp_path / "seats.jsonl", records[:1]))
    assert result.exit_code == 2 and '"seats" must name 4 seats, not 1' in result.stderr


@pytest.mark.parametrize("args,needle", [
    (["--game", "chess"], "--game must be one of kozel, spades, yugioh"),
    (["--out", "x.csv"], "--out is where --csv writes"),
    (["-", "-"], "standard input (-) can be read only once"),
    (["--since", "yesterday"], "--since: a date YYYY-MM-DD or an ISO 8601 time"),
    (["--since", "2026-12-04", "--until", "2026-12-03"], "--since must be before --until"),
])
def test_option_mistakes_are_one_line(tmp_path: Path, args: list[str], needle: str) -> None:
    files = [] if "-" in args else [write(tmp_path / "none.jsonl", [])]
    result = run(*files, *args)
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], result.stderr


def test_only_bots_or_nothing_to_rank_says_so(tmp_path: Path) -> None:
    record = name_by_result(random_records(tmp_path, "spades", 1)[0])
    record["seats"] = [{"name": "random bot", "bot": "random"}] * 4
    result = run(write(tmp_path / "bots.jsonl", [record]))
    assert result.exit_code == 0 and "add --bots" in result.stdout
    del record["seats"]
    result = run(write(tmp_path / "unnamed.jsonl", [record]))
    assert result.exit_code == 0 and "No finished match" in result.stdout


def test_a_long_file_is_counted_in_the_memory_of_one_record(tmp_path: Path, peak_memory: Callable[..., int]) -> None:
    """A tournament's file of millions of records: every record (and every finished
    game) was held until the table was made. The same records 16 times over instead
    of 4 must not take as much more memory as the text of the 12 more copies."""
    records = [name_by_result(r) for r in random_records(tmp_path, "kozel", 10, "--rules", "classic")]
    four_times = write(tmp_path / "four.jsonl", records * 4)
    sixteen_times = write(tmp_path / "sixteen.jsonl", records * 16)

    def count(path: str, matches: int) -> None:
        result = run(path)
        assert result.exit_code == 0 and f"Standings of {matches} matches" in result.stdout, result.output

    count(four_times, 40)   # imports and caches, not counted
    small, large = peak_memory(lambda: count(four_times, 40)), peak_memory(lambda: count(sixteen_times, 160))
    assert large - small < 12 * Path(four_times).stat().st_size // 4, (small, large)
