"""``goat bench bots``: decision times next to the random-bot baseline (no timing assertions)."""

from __future__ import annotations

from rich.console import Console
from typer.testing import CliRunner

from goat.bench import bots as bench
from goat.cli.main import app

runner = CliRunner(env={"FORCE_COLOR": None, "COLUMNS": "150"})


def test_nearest_rank_percentiles() -> None:
    assert bench.percentile([5, 1, 4, 2, 3], 50) == 3
    assert bench.percentile(list(range(1, 101)), 99) == 99
    assert bench.percentile(list(range(1, 201)), 99) == 198
    assert bench.percentile([7.0], 99) == 7.0


def test_every_bot_is_timed_on_the_same_positions() -> None:
    states = bench.positions("street", 30, seed=2)
    assert len(states) == 30 and all(not s.is_chance_node() and not s.is_terminal() for s in states)
    baseline, timings = bench.run(["random", "random"], "classic", 25, seed=1)
    assert [t.label for t in timings] == ["random", "random#2"]
    for t in (baseline, *timings):
        assert t.error is None and len(t.seconds) == 25 and all(s > 0 for s in t.seconds)
        assert 0 < t.median_ms <= t.p99_ms
    console = Console(record=True, width=120)
    console.print(bench.table(baseline, timings, "classic"))
    text = console.export_text()
    assert "baseline: random (view + parse)" in text and "random#2" in text and "×" in text


def test_the_pimc_target_verdict() -> None:
    fast = bench.Timing(bench.TARGET_SPEC, (0.05, 0.09, 0.2))   # median 90 ms
    slow = bench.Timing(bench.TARGET_SPEC, (0.15, 0.09, 0.2))   # median 150 ms
    assert "pass (90.0 ms)" in bench.target_verdict([fast])
    assert "miss (150.0 ms)" in bench.target_verdict([slow])
    assert bench.target_verdict([bench.Timing("random", (0.001,))]) is None


def test_cli_prints_the_table_and_rejects_unknown_bots() -> None:
    result = runner.invoke(app, ["bench", "bots", "--decisions", "5", "--bots", "random"])
    assert result.exit_code == 0, result.output
    assert "baseline: random" in result.stdout and "median ms" in result.stdout
    assert "pimc:worlds=100" in result.stdout
    bad = runner.invoke(app, ["bench", "bots", "--bots", "random,nobody"])
    assert bad.exit_code == 2 and bad.stderr.startswith("error: bot 'nobody'") and len(bad.stderr.splitlines()) == 1
    zero = runner.invoke(app, ["bench", "bots", "--decisions", "0", "--bots", "random"])
    assert zero.exit_code == 2 and zero.stderr.startswith("error: --decisions must be at least 1")
