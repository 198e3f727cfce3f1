"""``goat random-games``: reproducible random self-play records that replay and check."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from typer.testing import CliRunner

from goat.cli.main import app
from goat.records import check_result, read_records, replay

GOAT = Path(sys.executable).with_name("goat")
runner = CliRunner(env={"FORCE_COLOR": None})


def generate(tmp_path: Path, *args: str, name: str = "games.jsonl"):
    out = tmp_path / name
    result = runner.invoke(app, ["random-games", "kozel", "--out", str(out), *args])
    return result, out


@pytest.mark.parametrize("args", [
    ["--rules", "classic"],
    ["--rules", "full-hand"],
    ["--rules", "full-hand", "--players", "2"],
    ["--rules", "full-hand", "--players", "3"],
    ["--rules", "full-hand-24"],
    ["--rules", "street"],
    ["--rules", "street", "--single-deal"],
], ids=lambda a: "-".join(a[1:]).replace("--", ""))
def test_output_passes_replay_check(tmp_path: Path, args: list[str]) -> None:
    result, out = generate(tmp_path, *args, "--n", "4", "--seed", "11")
    assert result.exit_code == 0, result.output
    records = read_records(out)
    assert len(records) == 4
    for record in records:
        check_result(record, replay(record))
        assert record["rules"] == args[1]
    check = runner.invoke(app, ["replay", str(out), "--check"])
    assert check.exit_code == 0, check.output
    if "--single-deal" in args:
        assert all(not r["result"]["match_over"] or r["result"]["deals"][-1]["ended_by"] == "royal-goat"
                   for r in records)
        # one decided deal, after any annulled ones
        assert all(sum(d["ended_by"] != "annulled" for d in r["result"]["deals"]) == 1 for r in records)
    else:
        assert all(r["result"]["match_over"] for r in records)


def test_same_seed_same_file_and_game_i_alone(tmp_path: Path) -> None:
    _, a = generate(tmp_path, "--rules", "street", "--n", "3", "--seed", "5", name="a.jsonl")
    _, b = generate(tmp_path, "--rules", "street", "--n", "3", "--seed", "5", name="b.jsonl")
    _, c = generate(tmp_path, "--rules", "street", "--n", "3", "--seed", "6", name="c.jsonl")
    assert a.read_text() == b.read_text()
    assert a.read_text() != c.read_text()
    lines = a.read_text().splitlines()
    assert len(set(lines)) == 3  # each game has its own generator
    from goat.cli.random_games import parse_options, play_one
    from goat.games import get_game
    kozel = get_game("kozel")
    options = parse_options(kozel, "street", None, [])
    assert json.dumps(play_one(kozel, "street", options, None, 5, 2, False), separators=(",", ":")) == lines[2]


def test_first_dealer_is_drawn(tmp_path: Path) -> None:
    _, out = generate(tmp_path, "--rules", "classic", "--n", "24", "--seed", "1", "--single-deal")
    assert len({r["first_dealer"] for r in read_records(out)}) > 1


def test_options_are_json_parsed_and_recorded(tmp_path: Path) -> None:
    result, out = generate(tmp_path, "--rules", "full-hand", "--n", "2", "--seed", "3",
                           "--option", "royal_goat=false", "--option", "eggs=double-next",
                           "--option", "match-target=4")
    assert result.exit_code == 0, result.output
    for record in read_records(out):
        assert record["options"] == {"royal_goat": False, "eggs": "double-next", "match_target": 4}
        check_result(record, replay(record))


def test_text_option_given_a_number_stays_text(tmp_path: Path) -> None:
    result, out = generate(tmp_path, "--rules", "full-hand", "--n", "1", "--seed", "3",
                           "--option", "deck=24", "--option", "hand_size=6")
    assert result.exit_code == 0, result.output
    assert read_records(out)[0]["options"] == {"deck": "24", "hand_size": 6}


def test_summary_line(tmp_path: Path) -> None:
    result, out = generate(tmp_path, "--rules", "classic", "--n", "3", "--seed", "9")
    lines = result.stdout.splitlines()
    assert len(lines) == 1
    deals = sum(len(r["deals"]) for r in read_records(out))
    assert lines[0].startswith(f"wrote 3 kozel classic records ({deals} deals) to {out}, seed 9, ")



def test_summary_names_both_goats_of_a_three_player_match(tmp_path: Path) -> None:
    """Two players reaching 12 in one deal are both goats: the tally names them
    together ("seats 0+2"), counted from the records' own results."""
    result, out = generate(tmp_path, "--rules", "full-hand", "--players", "3", "--n", "40", "--seed", "1")
    assert result.exit_code == 0, result.output
    tally = {}
    for record in read_records(out):
        res = record["result"]
        if res["loser_team"] is not None:
            label = f"seat {res['loser_team']}"
        else:
            winner = res["deals"][-1]["winner_team"]
            label = "seats " + "+".join(str(s) for s in range(3) if s != winner)
        tally[label] = tally.get(label, 0) + 1
    assert any(label.startswith("seats ") for label in tally), "no match ended with two goats"
    expected = ", ".join(f"{label} ×{n}" for label, n in sorted(tally.items()))
    assert result.stdout.rstrip().endswith(f"loser: {expected}")


@pytest.mark.parametrize("args, message", [
    (["--rules", "klassik"], "error: unknown Kozel ruleset 'klassik'"),
    (["--rules", "classic", "--option", "royal_gaot=true"], "error: unknown option 'royal_gaot'"),
    (["--rules", "classic", "--option", "eggs=plenty"], "error: option eggs='plenty' is not allowed"),
    (["--rules", "classic", "--option", "royal_goat"], "error: --option 'royal_goat': write key=value"),
    (["--rules", "classic", "--players", "3"], "error: players=3 is not allowed for classic"),
])
def test_bad_ruleset_or_option_is_one_line_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    result, out = generate(tmp_path, *args, "--n", "1")
    assert result.exit_code == 2
    assert len(result.stderr.splitlines()) == 1
    assert result.stderr.startswith(message)
    assert not out.exists()


def test_unknown_game_is_exit_2(tmp_path: Path) -> None:
    result = runner.invoke(app, ["random-games", "chess", "--rules", "classic", "--n", "1",
                                 "--out", str(tmp_path / "x.jsonl")])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: unknown game 'chess'")


def test_console_script_output_passes_console_script_check(tmp_path: Path) -> None:
    out = tmp_path / "street.jsonl"
    env = {k: v for k, v in os.environ.items() if k != "FORCE_COLOR"}
    made = subprocess.run([str(GOAT), "random-games", "kozel", "--rules", "street", "--n", "5", "--seed", "2",
                           "--out", str(out)], capture_output=True, text=True, timeout=120, env=env)
    assert made.returncode == 0, made.stderr
    assert "Traceback" not in made.stderr
    checked = subprocess.run([str(GOAT), "replay", str(out), "--check"], capture_output=True, text=True,
                             timeout=120, env=env)
    assert checked.returncode == 0, checked.stderr
    assert checked.stdout.startswith("ok: 5 records legal")
    bad = subprocess.run([str(GOAT), "random-games", "kozel", "--rules", "street", "--n", "1",
                          "--out", str(out), "--option", "nope=1"], capture_output=True, text=True,
                         timeout=120, env=env)
    assert bad.returncode == 2
    assert "Traceback" not in bad.stderr and len(bad.stderr.splitlines()) == 1


def ctrl_c_at_the_third_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl+C as the third game starts: two games finished."""
    from goat.cli import random_games

    play_one = random_games.play_one
    calls: list[tuple[object, ...]] = []

    def interrupted_at_the_third(*args: object) -> dict:
        calls.append(args)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return play_one(*args)

    monkeypatch.setattr(random_games, "play_one", interrupted_at_the_third)


def test_ctrl_c_keeps_an_earlier_out_whole_and_the_finished_games_beside_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Interrupted, the command once left --out cut after the games played so far (an
    # earlier file of that name truncated), in whole lines that read as a whole run.
    ctrl_c_at_the_third_game(monkeypatch)
    out = tmp_path / "games.jsonl"
    out.write_text("an earlier run\n", encoding="utf-8")
    result, _ = generate(tmp_path, "--n", "5", "--seed", "4")
    assert result.exit_code == 130
    assert out.read_text(encoding="utf-8") == "an earlier run\n"
    partial = tmp_path / "games.partial.jsonl"
    assert result.stderr.strip() == (f"interrupted after 2 of 5 games (seed 4): wrote the 2 finished games' "
                                     f"records to {partial} (--out is written only by a whole run)")
    records = read_records(partial)
    assert len(records) == 2
    for record in records:
        check_result(record, replay(record))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.jsonl", "games.partial.jsonl"]


def test_ctrl_c_before_a_game_is_finished_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from goat.cli import random_games

    def interrupted(*args: object) -> dict:
        raise KeyboardInterrupt

    monkeypatch.setattr(random_games, "play_one", interrupted)
    result, out = generate(tmp_path, "--n", "5", "--seed", "4")
    assert result.exit_code == 130
    assert result.stderr.strip() == "interrupted after 0 of 5 games (seed 4): nothing written"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("where, reason", [("folder", "it is a folder"), ("missing/x.jsonl", "no folder")])
def test_an_out_that_cannot_be_written_is_one_line_before_any_game(tmp_path: Path, where: str, reason: str) -> None:
    (tmp_path / "folder").mkdir()
    result = runner.invoke(app, ["random-games", "kozel", "--n", "2", "--out", str(tmp_path / where)])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: cannot write {tmp_path / where}: {reason}")
    assert len(result.stderr.splitlines()) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder"]


@contextmanager
def draining(fifo: Path) -> Iterator[list[bytes]]:
    """A reader of the FIFO ``fifo`` for the block: what it read, once the block ends."""
    import select
    import threading

    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # so the writer's open does not block
    got: list[bytes] = []
    done = threading.Event()

    def drain() -> None:
        while not done.is_set() or select.select([reader], [], [], 0)[0]:
            if select.select([reader], [], [], 0.05)[0]:
                chunk = os.read(reader, 65536)
                if chunk:
                    got.append(chunk)
                elif done.is_set():
                    break

    thread = threading.Thread(target=drain)
    thread.start()
    try:
        yield got
    finally:
        done.set()
        thread.join(timeout=30)
        os.close(reader)


def test_an_out_that_is_a_pipe_is_written_into_not_replaced(tmp_path: Path) -> None:
    """The whole-run file was made beside --out and renamed onto it: a FIFO (or,
    run as root, /dev/null itself) was replaced by a regular file."""
    import stat

    fifo = tmp_path / "records.fifo"
    os.mkfifo(fifo)
    with draining(fifo) as got:
        result = runner.invoke(app, ["random-games", "kozel", "--n", "2", "--seed", "3", "--out", str(fifo)])
    assert result.exit_code == 0, result.output
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert len(b"".join(got).decode("utf-8").splitlines()) == 2
    assert [p.name for p in tmp_path.iterdir()] == ["records.fifo"]


def test_ctrl_c_with_a_pipe_as_out_says_the_games_went_into_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The records go into a pipe as games finish, yet Ctrl+C said they were written
    to records.partial.fifo beside it: a file that was never made."""
    ctrl_c_at_the_third_game(monkeypatch)
    fifo = tmp_path / "records.fifo"
    os.mkfifo(fifo)
    with draining(fifo) as got:
        result = runner.invoke(app, ["random-games", "kozel", "--n", "5", "--seed", "4", "--out", str(fifo)])
    assert result.exit_code == 130
    assert len(b"".join(got).decode("utf-8").splitlines()) == 2
    assert [p.name for p in tmp_path.iterdir()] == ["records.fifo"]
    assert result.stderr.strip() == f"interrupted after 2 of 5 games (seed 4): the 2 finished game(s) went to {fifo}"


def test_an_out_whose_name_is_near_the_longest_a_file_may_have_is_written(tmp_path: Path) -> None:
    """The hidden file beside --out was named ``.NAME.XXXXXXXX.tmp``: for a name of
    249 characters (a file may have 255) that is too long, and the run was refused
    (``File name too long``) though --out itself could be made."""
    name = "r" * 243 + ".jsonl"
    result, out = generate(tmp_path, "--n", "1", "--seed", "3", name=name)
    assert result.exit_code == 0, result.output
    assert len(read_records(out)) == 1
    assert [p.name for p in tmp_path.iterdir()] == [name]


def test_an_empty_out_is_named_as_empty(tmp_path: Path) -> None:
    """``--out "$OUT"`` with OUT unset read "cannot write .: it is a folder"; then
    "leave it out for none", but random-games needs its --out."""
    result = runner.invoke(app, ["random-games", "kozel", "--n", "2", "--out", ""])
    assert result.exit_code == 2
    assert result.stderr == "error: --out names no file: it is empty (- writes to standard output)\n"


def test_the_whole_run_file_has_the_usual_permissions(tmp_path: Path) -> None:
    result, out = generate(tmp_path, "--n", "1", "--seed", "1")
    assert result.exit_code == 0
    plain = tmp_path / "plain"
    plain.write_text("")
    assert out.stat().st_mode == plain.stat().st_mode


def test_stdout_closed_early_ends_quietly(tmp_path: Path) -> None:
    # `goat random-games ... --out - | head`: no "error: cannot write -" for a reader that has had enough.
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent / "src")}
    process = subprocess.Popen([sys.executable, "-m", "goat", "random-games", "kozel", "--n", "2000",
                                "--out", "-", "--seed", "1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env=env, cwd=tmp_path)
    assert process.stdout is not None and process.stdout.read(10) == b'{"game":"k'
    process.stdout.close()
    _, err = process.communicate(timeout=120)
    assert process.returncode == 1 and err == b""


def test_records_on_stdout_are_said_to_go_there() -> None:
    """With ``--out -`` the summary said "wrote 2 … records (… deals) to -, seed 1":
    a dash where the reader looks for where their records are."""
    result = runner.invoke(app, ["random-games", "kozel", "--n", "2", "--out", "-", "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert len(result.stdout.splitlines()) == 2                  # the records alone
    (summary,) = result.stderr.splitlines()
    assert " to standard output, seed 1, " in summary and " to -" not in summary


def test_the_short_options_of_goat_play_work_here_too(tmp_path: Path) -> None:
    """``goat play kozel -r street -s 1 -p 4 -o match_target=8`` works, and the
    same short options on random-games were "No such option: -r"."""
    out = tmp_path / "street.jsonl"
    result = runner.invoke(app, ["random-games", "kozel", "-r", "street", "-s", "1", "-p", "4", "-o", "match_target=8",
                                 "-n", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    (record,) = read_records(out)
    assert (record["rules"], record["players"], record["options"]) == ("street", 4, {"match_target": 8})
    assert "seed 1," in result.stderr + result.stdout


@pytest.mark.parametrize("game, args, side", [
    ("kozel", ["--rules", "classic"], "team"),
    ("kozel", ["--rules", "full-hand", "--players", "3"], "seat"),
    ("spades", [], "team"),
])
def test_single_deal_summary_counts_who_won_each_deal(tmp_path: Path, game: str, args: list[str], side: str) -> None:
    """With --single-deal the summary said "loser: none (match not over) ×N" whatever
    the deals gave: a single deal never ends a match. It now counts the deals'
    winners (Kozel's winner_team, Spades' higher deal score; "none": a tie)."""
    out = tmp_path / "deals.jsonl"
    result = runner.invoke(app, ["random-games", game, *args, "--single-deal", "--n", "12", "--seed", "4",
                                 "--out", str(out)])
    assert result.exit_code == 0, result.output
    winners: Counter[str] = Counter()
    for record in read_records(out):
        deal = record["result"]["deals"][-1]
        if "winner_team" in deal:
            winner = deal["winner_team"]
        else:
            score0, score1 = deal["score"]
            winner = None if score0 == score1 else int(score1 > score0)
        winners["none" if winner is None else f"{side} {winner}"] += 1
    tally = ", ".join(f"{label} ×{count}" for label, count in sorted(winners.items()))
    assert result.output.strip().endswith(f"; deal winner: {tally}")
    assert len(winners) > 1          # the seed gives each side some deals: the count is read, not assumed
