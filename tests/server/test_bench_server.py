"""``goat bench server`` on a tiny budget (no timing assertions): it drives a real
``goat serve``, checks the stored log against what clients were told, and
refuses bad arguments with one line."""

from __future__ import annotations

import pytest
from rich.console import Console
from typer.testing import CliRunner

from goat.bench import server as bench
from goat.cli.main import app


@pytest.mark.slow
def test_a_small_load_loses_and_duplicates_nothing() -> None:
    result = bench.run(clients=9, tables=2, seconds=1.5, seed=3)   # 8 seats and one spectator
    assert result.accepted > 20 and result.actions_per_second > 0
    assert result.lost == 0 and result.duplicated == 0 and result.missed_updates == 0
    assert result.stored_actions >= result.accepted and result.replayed_tables == 2
    # every resend is refused, or (no answer of its own) dropped by the rate limiter
    assert result.resends_refused + result.resends_dropped == result.resends
    assert len(result.latencies) == result.accepted and result.percentile(0.5) <= result.percentile(0.99)
    assert result.engine_actions_per_second > 0 and result.ratio > 0
    console = Console(record=True, width=100)
    console.print(bench.table(result))
    text = console.export_text()
    for needle in ("accepted actions/s", "latency p50", "latency p99", "lost actions", "duplicated actions",
                   "in-memory engine actions/s"):
        assert needle in text
    assert bench.verdict(result).startswith("PASS")


def test_the_cli_refuses_bad_arguments() -> None:
    runner = CliRunner()
    for args, needle in [(["--clients", "3", "--tables", "1"], "--clients must be at least --tables × 4 = 4"),
                         (["--seconds", "0"], "--seconds must be positive"),
                         (["--tables", "0"], "--tables must be at least 1"),
                         (["--rules", "bridge"], "unknown Kozel ruleset 'bridge'")]:
        result = runner.invoke(app, ["bench", "server", *args])
        assert result.exit_code == 2, result.output
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and needle in lines[0], lines


def test_an_unanswered_resend_is_excused_only_next_to_a_rate_limit_notice() -> None:
    """The server drops messages over its rate limit and says so at most once a
    second, so a resend it dropped may get no answer of its own. It is counted as
    dropped (not as a failure) only if its client got a notice from a second
    before it on; any other unanswered resend stays a failure of the check."""
    import random

    player = bench.Player("t", 0, None, random.Random(1), bench.ServerBenchResult(1, 1, "classic"), bench.Ledger())
    player.limit_notices = [10.0]
    assert bench._dropped_by_limit(player, 10.9)       # dropped silently right after a notice
    assert bench._dropped_by_limit(player, 9.5)        # the notice came after it
    assert not bench._dropped_by_limit(player, 11.2)   # more than a second after the last notice
    player.limit_notices = []
    assert not bench._dropped_by_limit(player, 10.0)
