"""``goat replay``: report, --json, --check, exit statuses, one-line problems.

Most cases go through typer's CliRunner; a few run the installed ``goat``
console script in a subprocess, to prove that a real user never sees a traceback.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from goat.cli.main import app

DATA = Path(__file__).parent / "data" / "records"
GOOD = sorted((DATA / "good").glob("*.json"))
BAD = sorted(p for p in (DATA / "bad").glob("*.json") if p.name != "malformed-not-json.json")
GOAT = Path(sys.executable).with_name("goat")

runner = CliRunner(env={"FORCE_COLOR": None})


def run(*args: str, input: str | None = None):
    return runner.invoke(app, ["replay", *args], input=input)


def test_check_accepts_every_golden_record() -> None:
    for path in GOOD:
        result = run(str(path), "--check")
        assert result.exit_code == 0, (path.name, result.output)
        assert result.stdout.startswith("ok: 1 record legal")
        assert result.stderr == ""


def test_json_prints_each_stored_result_on_one_line(tmp_path: Path) -> None:
    records = [json.loads(p.read_text()) for p in GOOD]
    path = tmp_path / "all.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    result = run(str(path), "--json")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == len(records)
    for line, record in zip(lines, records):
        assert json.loads(line) == record["result"]
        assert ": " not in line and ", " not in line  # compact


def test_report_shows_tricks_winners_points_penalties_and_match_state() -> None:
    result = run(str(DATA / "good" / "classic-full-deal.json"))
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "trick 2: 1 play TH · 2 play AH · 3 play KH · 0 play 8D  → seat 2" in out
    assert "cards-exhausted: points 54/66, tricks 3/5, penalty 2/0; team 1 (seats 1+3) wins the deal" in out
    assert "Match not over (penalty 2/0)" in out


def test_report_of_a_finished_match_names_the_goat() -> None:
    result = run(str(DATA / "good" / "classic-shamok-match.json"))
    assert result.exit_code == 0
    assert "shamok-caught-queen: points 0/0, tricks 1/0, penalty 4/0" in result.stdout
    assert "penalty total 8/0" in result.stdout
    assert "Match over: team 0 (seats 0+2) is the goat (penalty 12/0)" in result.stdout


def test_report_of_an_individual_royal_goat_names_the_winner() -> None:
    result = run(str(DATA / "good" / "full-hand-3p-royal-goat.json"))
    assert result.exit_code == 0
    assert "royal-goat: points 0/0/0" in result.stdout
    assert "Match over: seat 2 wins" in result.stdout


def test_report_of_an_unfinished_record() -> None:
    result = run(str(DATA / "good" / "classic-unfinished.json"))
    assert result.exit_code == 0
    assert "trick 2: 2 play 8H  (not completed)" in result.stdout
    assert "unfinished: points 11/0, tricks 1/0, penalty 0/0" in result.stdout


@pytest.mark.parametrize("path", BAD, ids=lambda p: p.stem)
def test_bad_record_exit_status_and_single_stderr_line(path: Path) -> None:
    expect = json.loads(path.read_text())["expect"]
    result = run(str(path), "--check")
    assert result.exit_code == expect["status"], result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1
    if "line" in expect:
        assert lines[0] == expect["line"]
    else:
        assert expect["contains"] in lines[0]
    assert result.stdout == ""


def test_illegal_record_without_check_shows_the_play_up_to_the_problem() -> None:
    result = run(str(DATA / "bad" / "illegal-follow-suit.json"))
    assert result.exit_code == 1
    assert "trick 1: 0 play 7D · 1 play AD · 2 play 7S · 3 play 9H  → seat 1" in result.stdout
    assert "trick 2: 1 play TH  (not completed)" in result.stdout
    assert result.stderr.splitlines() == ['deal 1, action 5 "2 play 8S": seat 2 must follow hearts (holds AH)']


def test_wrong_stored_result_is_only_an_error_under_check() -> None:
    path = str(DATA / "bad" / "illegal-wrong-result.json")
    assert run(path).exit_code == 0
    assert run(path, "--json").exit_code == 0
    assert run(path, "--json", "--check").exit_code == 1


def test_multi_record_file_prefixes_the_record_number(tmp_path: Path) -> None:
    good = json.loads((DATA / "good" / "street-molodka.json").read_text())
    bad = json.loads((DATA / "bad" / "illegal-follow-suit.json").read_text())
    path = tmp_path / "mixed.jsonl"
    path.write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\n" + json.dumps(good) + "\n")
    result = run(str(path), "--check")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        'record 2: deal 1, action 5 "2 play 8S": seat 2 must follow hearts (holds AH)']
    result = run(str(path), "--json")
    assert result.exit_code == 1
    assert len(result.stdout.splitlines()) == 1  # record 1's result, then the stop


def test_stdin_dash() -> None:
    text = (DATA / "good" / "street-molodka.json").read_text()
    result = run("-", "--json", input=text)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["penalty_total"] == [0, 2]


def test_missing_file_and_empty_input_exit_2() -> None:
    result = run("/nonexistent/game.json")
    assert result.exit_code == 2 and len(result.stderr.splitlines()) == 1
    assert "cannot read /nonexistent/game.json" in result.stderr
    result = run("-", input="")
    assert result.exit_code == 2
    assert result.stderr == "<stdin>: empty, no record in it\n"


# ------------------------------------------------- the real console script
def goat(*args: str, input: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(GOAT), *args], input=input, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("name, status, start", [
    ("good/full-hand-24-annulled-royal-goat.json", 0, None),
    ("bad/malformed-not-json.json", 2, "not valid JSON"),
    ("bad/malformed-duplicate-card.json", 2, "deal 1: card 8H is dealt twice"),
    ("bad/illegal-trump-lead.json", 1, 'deal 2, action 4 "2 play JD": seat 2 may not lead a trump'),
    ("bad/illegal-wrong-result.json", 1, "record result differs at deals[0].points"),
])
def test_console_script_exit_status_without_traceback(name: str, status: int, start: str | None) -> None:
    proc = goat("replay", str(DATA / name), "--check")
    assert proc.returncode == status, proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout
    if start is None:
        assert proc.stderr == ""
    else:
        assert len(proc.stderr.splitlines()) == 1
        assert start in proc.stderr


def test_console_script_reads_stdin() -> None:
    text = (DATA / "good" / "classic-shamok-match.json").read_text()
    proc = goat("replay", "-", input=text)
    assert proc.returncode == 0, proc.stderr
    assert "Match over: team 0 (seats 0+2) is the goat (penalty 12/0)" in proc.stdout


# ------------------------------------------------ several files: an evening's games
def _records(tmp_path: Path, name: str, game: str, n: int, seed: int) -> Path:
    path = tmp_path / name
    result = runner.invoke(app, ["random-games", game, "--n", str(n), "--out", str(path), "--seed", str(seed)])
    assert result.exit_code == 0, result.output
    return path


def test_several_files_are_one_list_of_records(tmp_path: Path) -> None:
    """An organiser's evening is a file per table: replay, check and the CSV
    sheet take them all (they took one file, so ``cat`` had to join them)."""
    first, second = _records(tmp_path, "t1.jsonl", "kozel", 2, 1), _records(tmp_path, "t2.jsonl", "kozel", 1, 2)
    result = run(str(first), str(second), "--check")
    assert result.exit_code == 0 and result.stdout.strip() == "ok: 3 records legal, stored results match"
    joined = tmp_path / "all.jsonl"
    joined.write_text(first.read_text() + second.read_text())
    for flag in ("--csv", "--json", None):
        args = [flag] if flag else []
        assert run(str(first), str(second), *args).stdout == run(str(joined), *args).stdout
    assert "Record 3: kozel" in run(str(first), str(second)).stdout


def test_a_problem_in_one_of_several_files_names_that_file(tmp_path: Path) -> None:
    good = _records(tmp_path, "good.jsonl", "kozel", 1, 1)
    record = json.loads(good.read_text())
    first = record["deals"][0]["actions"][0]
    seat = int(first.split(" ")[0])
    record["deals"][0]["actions"][0] = f"{(seat + 1) % 4} {first.split(' ', 1)[1]}"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record))
    result = run(str(good), str(bad), "--check")
    assert result.exit_code == 1
    assert result.stderr.strip().startswith(f"{bad}: deal 1, action ")
    assert result.stderr.count("\n") == 1
    broken = tmp_path / "broken.json"
    broken.write_text("{bad")
    result = run(str(good), str(broken))
    assert result.exit_code == 2 and result.stdout == ""   # nothing of the first file before the error
    assert result.stderr.strip().startswith(f"{broken}: not valid JSON") and str(broken) not in result.stderr[len(str(broken)):]
    result = run("-", "-")
    assert result.exit_code == 2 and result.stderr.strip() == "error: standard input (-) can be read only once"


def test_a_record_made_under_trump_on_plain_always_checks_and_needs_its_option(tmp_path: Path) -> None:
    """The option travels in the record's header: random full-hand matches under
    ``trump_on_plain="always"`` (trumps played while holding the suit led) pass
    ``--check``; the same records without the option fail on such a play."""
    path = tmp_path / "always.jsonl"
    made = runner.invoke(app, ["random-games", "kozel", "--rules", "full-hand", "--n", "5", "--seed", "3",
                               "--option", "trump_on_plain=always", "--out", str(path)])
    assert made.exit_code == 0, made.output
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert all(r["options"] == {"trump_on_plain": "always"} for r in records)
    result = run(str(path), "--check")
    assert result.exit_code == 0 and result.stdout.startswith("ok: 5 records legal"), result.output
    stripped = tmp_path / "stripped.jsonl"
    stripped.write_text("".join(json.dumps({**r, "options": {}}) + "\n" for r in records))
    result = run(str(stripped), "--check")
    assert result.exit_code == 1 and "must follow" in result.stderr, result.output


@pytest.mark.parametrize("mode", [[], ["--csv"], ["--check"]])
def test_a_lone_surrogate_escape_is_not_utf8_text_and_exits_2(tmp_path: Path, mode: list[str]) -> None:
    """``"\\ud800"`` is JSON syntax but half a character: the record loaded, and printing
    the seat name holding it (the report's ``Seats:`` line, the CSV) was a traceback."""
    record = json.loads((DATA / "good" / "classic-full-deal.json").read_text())
    record["seats"] = [{"name": "Anna"}, {"name": "B"}, None, None]
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record).replace('"Anna"', '"An\\ud800na"'))
    run = subprocess.run([sys.executable, "-m", "goat", "replay", str(path), *mode],
                         capture_output=True, text=True, errors="backslashreplace")
    assert run.returncode == 2, run.stderr
    assert run.stderr == f"{path}: not UTF-8 text: the escape \\ud800 is half a character (a lone surrogate)\n"
    assert run.stdout == ""
    # a pair of escapes is one character, and fine
    path.write_text(json.dumps(record).replace('"Anna"', '"An\\ud83d\\ude00na"'))
    assert subprocess.run([sys.executable, "-m", "goat", "replay", str(path)], capture_output=True).returncode == 0


def test_of_several_files_the_problem_names_its_file_whatever_its_name(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The file was named unless its name was *in* the line: a file called ``a`` is in
    every "action", so its problem came unnamed; ``./gone`` came twice ("./gone:
    cannot read gone: ...")."""
    monkeypatch.chdir(tmp_path)
    record = json.loads((DATA / "good" / "classic-full-deal.json").read_text())
    Path("x").write_text(json.dumps(record))
    record["deals"][0]["actions"][0] = "0 play AS"
    Path("a").write_text(json.dumps(record))
    result = run("x", "a", "--check")
    assert result.exit_code == 1
    assert result.stderr == 'a: deal 1, action 0 "0 play AS": seat 0 does not hold AS\n'
    result = run("x", "./gone", "--check")
    assert result.exit_code == 2
    assert result.stderr == "cannot read ./gone: No such file or directory\n"


@pytest.mark.parametrize("command", [["replay"], ["replay", "--check"], ["standings"], ["analyze"]])
def test_an_empty_file_name_says_so(command: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``goat replay ""`` (an unset shell variable) read the current folder:
    ``cannot read : Is a directory``, a line naming nothing."""
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, [*command, ""])
    assert result.exit_code == 2, result.output
    assert result.stderr.removeprefix("error: ") == "cannot read a file with an empty name (- reads standard input)\n"


@pytest.mark.parametrize("command", [["replay"], ["standings"]])
def test_csv_to_an_empty_file_name_says_so(command: list[str]) -> None:
    good = str(DATA / "good" / "classic-full-deal.json")
    result = runner.invoke(app, [*command, good, "--csv", "--out", ""])
    assert result.exit_code == 2, result.output
    assert result.stderr == "error: --out names no file (leave it out to write to standard output)\n"


@pytest.mark.parametrize("command", [["replay"], ["standings"]])
@pytest.mark.parametrize("where, why", [("folder", "it is a folder"), ("gone/sheet.csv", "no folder ")])
def test_csv_to_a_place_it_cannot_be_written_is_told_before_any_record_is_read(
        command: list[str], where: str, why: str, tmp_path: Path) -> None:
    """``--csv --out`` was tried only once every record was replayed: a typo in
    the folder cost the whole run (millions of records) and then said
    ``cannot write …: Is a directory``. It is checked first, as ``goat play
    --record`` and ``random-games --out`` are, in their words."""
    (tmp_path / "folder").mkdir()
    out = str(tmp_path / where)
    result = runner.invoke(app, [*command, str(tmp_path / "not-yet-read.json"), "--csv", "--out", out])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"error: cannot write {out}: {why}"), result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize("mode", [["--check"], ["--csv", "--out", "sheet.csv"], ["--json"]])
def test_a_long_file_is_replayed_in_the_memory_of_one_record(tmp_path: Path, mode: list[str],
                                                              peak_memory: Callable[..., int]) -> None:
    """Researchers replay files of millions of records, and the command held every
    record (and with ``--csv`` every score sheet) at once: 1.3 GB for 20,000 matches.
    The same records 16 times over instead of 4 (so no record is larger) must not
    take as much more memory as the text of the 12 more copies: a record held as
    Python objects takes several times its text, so no record is held for long."""
    ten = _records(tmp_path, "ten.jsonl", "kozel", 10, 1).read_text()
    four_times, sixteen_times = tmp_path / "four.jsonl", tmp_path / "sixteen.jsonl"
    four_times.write_text(ten * 4)
    sixteen_times.write_text(ten * 16)
    args = [str(tmp_path / arg) if arg.endswith(".csv") else arg for arg in mode]

    def replay_file(path: Path) -> None:
        result = run(str(path), *args)
        assert result.exit_code == 0, result.output
        shown.append(len(result.stdout_bytes))   # the runner keeps the output; a terminal would not

    shown: list[int] = []
    replay_file(four_times)   # imports and caches, not counted
    small, large = peak_memory(lambda: replay_file(four_times)), peak_memory(lambda: replay_file(sixteen_times))
    assert large - small - (shown[-1] - shown[-2]) < len(ten.encode()) * 12, (small, large)


@pytest.mark.parametrize("game", ["kozel", "yugioh"])
def test_a_seat_written_with_a_digit_int_does_not_read_is_one_line(tmp_path: Path, game: str) -> None:
    """A tampered action "² play 7D": "²" is a digit to ``str.isdigit`` but not
    to ``int``, and ``goat replay --check`` ended in a ValueError traceback."""
    if game == "kozel":
        record = json.loads((DATA / "good" / "classic-full-deal.json").read_text())
        actions = record["deals"][0]["actions"]
    else:
        path = tmp_path / "duel.jsonl"
        assert runner.invoke(app, ["random-games", "yugioh", "--n", "1", "--single-deal", "--seed", "1",
                                   "--out", str(path)]).exit_code == 0
        record = json.loads(path.read_text())
        actions = record["actions"]
    actions[0] = "²" + actions[0][1:]
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(record))
    result = run(str(path), "--check")
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.exit_code == 1, result.output
    (line,) = result.stderr.splitlines()
    assert "action 0" in line and "seat must be a number" in line
