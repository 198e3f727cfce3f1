"""``goat bench env`` and its measuring code (no timing assertions)."""

from __future__ import annotations

import pytest
from rich.console import Console
from typer.testing import CliRunner

from goat.bench import env as bench
from goat.cli.main import app


def test_every_contender_makes_steps_and_the_table_shows_ratios() -> None:
    results, note = bench.run(bench.select("classic,street"), seconds=0.05, seed=1)
    assert note is None  # OpenSpiel is a test dependency
    assert [r.label for r in results] == ["classic", "street"]
    for r in results:
        for tally in (r.aec, r.spades, r.spades_obs):
            assert tally.steps > 0 and tally.seconds > 0 and tally.steps_per_second > 0
        assert r.ratio(r.spades) > 0 and r.ratio(r.spades_obs) > 0
    console = Console(record=True, width=120)
    console.print(bench.table(results))
    text = console.export_text()
    assert "classic" in text and "street" in text and "spades+obs" in text


def test_without_openspiel_the_aec_column_stands_alone() -> None:
    results, note = bench.run(["full-hand-3p"], seconds=0.02, use_spades=False)
    assert note is None and results[0].spades is None and results[0].ratio(None) is None
    assert results[0].aec.steps > 0


def test_episodes_restart_inside_a_measurement() -> None:
    tally = bench.StepTally()
    runner = bench.AECRunner("classic", seed=2)
    runner.env.reset(seed=2)
    while tally.episodes == 0:
        runner.run(tally, 0.05)
    assert tally.steps > 30  # at least one whole match of one-card steps


def test_ratio_text() -> None:
    assert bench._ratio(0.05) == "1/20" and bench._ratio(2.5) == "2.50×" and bench._ratio(None) == "–"


def test_cli_prints_the_table_and_rejects_bad_input() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["bench", "env", "--seconds", "0.02", "--rules", "street"])
    assert result.exit_code == 0, result.output
    assert "street" in result.stdout and "spades" in result.stdout
    for args, needle in [(["--rules", "bridge"], "unknown ruleset 'bridge'"),
                         (["--seconds", "-1"], "--seconds must be positive")]:
        bad = runner.invoke(app, ["bench", "env", *args])
        assert bad.exit_code == 2
        lines = bad.stderr.strip().splitlines()
        assert len(lines) == 1 and needle in lines[0]


@pytest.mark.parametrize("argv", [["--rules", "classic", "--seconds", "0.02"]])
def test_module_entry_point(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(argv) == 0
    assert "classic" in capsys.readouterr().out


def test_the_spades_row_is_our_spades_under_openspiels_rules_one_deal_an_episode() -> None:
    import ast
    from pathlib import Path

    differential = (Path(__file__).parent / "spades" / "test_openspiel.py").read_text(encoding="utf-8")
    assign = next(node for node in ast.parse(differential).body if isinstance(node, ast.Assign)
                  and getattr(node.targets[0], "id", None) == "OPENSPIEL_OPTIONS")
    OPENSPIEL_OPTIONS = ast.literal_eval(assign.value)
    assert bench.OPENSPIEL_SPADES_OPTIONS == OPENSPIEL_OPTIONS  # the differential test's common ground
    runner = bench.AECRunner("spades", seed=3)
    state = runner.env.game.state
    assert state.rules.name == "standard" and state.single_deal
    assert all(getattr(state.rules, k) == v for k, v in OPENSPIEL_OPTIONS.items())
    tally = bench.StepTally()
    while tally.episodes < 2:
        runner.run(tally, 0.05)
    assert tally.steps >= 2 * 56  # whole deals: four bids and 52 cards each
    assert bench.select("all")[-1] == "spades"
