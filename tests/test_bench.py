"""``goat bench engine`` and the shared measuring code (no timing assertions)."""

from __future__ import annotations

import random

import pytest
from rich.console import Console
from typer.testing import CliRunner

from goat.bench import engine as bench
from goat.cli.main import app
from goat.games.kozel import make_rules


def test_every_ruleset_gives_positive_figures_and_a_table() -> None:
    results = bench.run(bench.select("all"), seconds=0.02, seed=1)
    assert [r.label for r in results] == list(bench.CONFIGS)
    for r in results:
        for tally in (r.engine, r.baseline):
            assert tally.deals > 0 and tally.actions > 0 and tally.seconds > 0
            assert tally.deals_per_second > 0 and tally.actions_per_second > 0
        assert r.deal_ratio > 0 and r.action_ratio > 0
    console = Console(record=True, width=100)
    console.print(bench.table(results))
    text = console.export_text()
    for label in bench.CONFIGS:
        assert label in text
    assert "ratio" in text and "1/" in text


@pytest.mark.parametrize("label", list(bench.CONFIGS))
def test_an_engine_deal_plays_the_whole_deck(label: str) -> None:
    preset, players = bench.CONFIGS[label]
    rules = make_rules(preset, players=players)
    deals, actions = bench.engine_deals(rules, random.Random(3))
    assert deals >= 1
    # Single-card rulesets play every card once, unless the shamok ends a deal early;
    # street plays several cards per action; exchanges add a few gives.
    assert 0 < actions <= deals * (len(rules.deck_cards) + 2 * rules.players)


def test_baseline_makes_the_requested_plays_capped_by_the_deck() -> None:
    rules = make_rules("classic")
    assert bench.baseline_deal(rules, 20, random.Random(1)) == 20
    assert bench.baseline_deal(rules, 32, random.Random(1)) == 32
    assert bench.baseline_deal(rules, 50, random.Random(1)) == 32


def test_cli_prints_the_table_and_rejects_bad_input() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["bench", "engine", "--seconds", "0.01", "--rules", "classic,street"])
    assert result.exit_code == 0, result.output
    assert "classic" in result.stdout and "street" in result.stdout and "ratio" in result.stdout
    assert "full-hand-3p" not in result.stdout
    for args, needle in [(["--rules", "bridge"], "unknown ruleset 'bridge'"),
                         (["--seconds", "0"], "--seconds must be positive")]:
        bad = runner.invoke(app, ["bench", "engine", *args])
        assert bad.exit_code == 2
        lines = bad.stderr.strip().splitlines()
        assert len(lines) == 1 and needle in lines[0]
