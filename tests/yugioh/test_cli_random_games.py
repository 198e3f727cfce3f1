"""``goat random-games yugioh``: random Goat Control matches as records that
``goat replay --check`` accepts."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from goat.cli.main import app
from goat.records import check_result, read_records, replay

runner = CliRunner(env={"FORCE_COLOR": None})


def generate(tmp_path: Path, *args: str, name: str = "duels.jsonl"):
    out = tmp_path / name
    return runner.invoke(app, ["random-games", "yugioh", "--out", str(out), *args]), out


@pytest.mark.parametrize("args", [[], ["--rules", "official", "--single-deal"]], ids=["goat-match", "official-duel"])
def test_records_replay_and_check(tmp_path: Path, args: list[str]) -> None:
    result, out = generate(tmp_path, *args, "--n", "3", "--seed", "4")
    assert result.exit_code == 0, result.output
    records = read_records(out)
    assert len(records) == 3
    duels = 0
    for record in records:
        assert record["game"] == "yugioh" and record["rules"] == (args[1] if args else "goat")
        check_result(record, replay(record))
        assert record["result"]["match_over"]
        duels += len(record["result"]["duels"])
        if args:
            assert record["single_duel"] and len(record["result"]["duels"]) == 1
    assert result.stdout.startswith(f"wrote 3 yugioh {args[1] if args else 'goat'} records ({duels} duels) to {out}")
    check = runner.invoke(app, ["replay", str(out), "--check"])
    assert check.exit_code == 0, check.output
    assert check.stdout.startswith("ok: 3 records legal")


def test_same_seed_same_file(tmp_path: Path) -> None:
    _, a = generate(tmp_path, "--n", "2", "--seed", "5", "--single-deal", name="a.jsonl")
    _, b = generate(tmp_path, "--n", "2", "--seed", "5", "--single-deal", name="b.jsonl")
    assert a.read_text() == b.read_text() and len(set(a.read_text().splitlines())) == 2


def test_options_are_recorded(tmp_path: Path) -> None:
    result, out = generate(tmp_path, "--n", "1", "--seed", "2", "--single-deal", "--option", "ask_responses=when-able",
                           "--option", "starting_lp=4000")
    assert result.exit_code == 0, result.output
    record = read_records(out)[0]
    assert record["options"] == {"ask_responses": "when-able", "starting_lp": 4000}
    check_result(record, replay(record))


@pytest.mark.parametrize("args, message", [
    (["--rules", "goatt"], "error: unknown Yu-Gi-Oh! ruleset 'goatt'"),
    (["--option", "ask_responses=never"], "error: option ask_responses='never' is not allowed (one of"),
    (["--option", "first_player_draws=maybe"], "error: option first_player_draws must be true or false"),
])
def test_bad_input_is_one_line_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    result, out = generate(tmp_path, *args, "--n", "1")
    assert result.exit_code == 2
    assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith(message)
    assert not out.exists()
