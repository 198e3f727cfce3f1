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


def test_other_games_time_their_own_bots_on_positions_their_bots_played() -> None:
    from goat.bots import make_bot

    states = bench.positions("goat", 6, seed=3, game="yugioh")
    assert all(not s.is_chance_node() and not s.is_terminal() and len(s.legal_actions()) > 1 for s in states)
    # the positions are one greedy duel's decision points with a choice, in order:
    # greedy's own choices from each lead to the next
    greedy = make_bot("greedy", "3/positions", game="yugioh")
    for here, there in zip(states, states[1:]):
        follow = here.clone()
        while len(follow.actions) < len(there.actions):
            if follow.is_chance_node():
                follow.apply_chance(there.chances[len(follow.chances)])
            else:
                follow.apply_action(greedy.choose(follow.view(follow.current_player())))
        assert follow.actions == there.actions
    assert bench.default_specs("yugioh") == ["greedy", "mc"] and "pimc:worlds=100" not in bench.default_specs("spades")
    baseline, [timing] = bench.run(["greedy"], "goat", 4, seed=3, game="yugioh")
    assert baseline.error is None and timing.error is None and len(timing.seconds) == 4


def test_a_bot_decides_on_its_own_copies_of_the_positions() -> None:
    states = bench.positions("goat", 3, seed=4, game="yugioh")
    before = [(len(s.actions), len(s.chances)) for s in states]
    bench.measure(bench.parse_bot_spec("greedy"), states, seed=4, game="yugioh")
    assert [(len(s.actions), len(s.chances)) for s in states] == before
    assert all(s._legal_cache is None for s in states)  # nothing parsed into the shared positions


def test_cli_other_games() -> None:
    result = runner.invoke(app, ["bench", "bots", "--game", "yugioh", "--decisions", "3", "--bots", "greedy"])
    assert result.exit_code == 0, result.output
    assert "yugioh goat" in result.stdout and "greedy" in result.stdout and "target" not in result.stdout
    wrong = runner.invoke(app, ["bench", "bots", "--game", "spades", "--bots", "greedy"])
    assert wrong.exit_code == 2 and wrong.stderr.startswith("error: bot 'greedy'") and len(wrong.stderr.splitlines()) == 1
    game = runner.invoke(app, ["bench", "bots", "--game", "chess"])
    assert game.exit_code == 2 and game.stderr.startswith("error: unknown game 'chess'")


def test_the_perfect_bot_is_timed_on_the_true_state_as_a_tournament_asks_it(monkeypatch) -> None:
    """``perfect``'s ``choose`` is only its heuristic fallback: timing it gave the
    heuristic's 0.1 ms in the "perfect" row. It is asked as a tournament asks it."""
    from goat.bots.pimc import PerfectInformationBot

    asked: list[str] = []
    real = PerfectInformationBot.choose_with_state

    def counted(self, state, view):
        asked.append("with_state")
        return real(self, state, view)

    monkeypatch.setattr(PerfectInformationBot, "choose_with_state", counted)
    states = bench.positions("classic", 4, seed=5)
    timing = bench.measure(bench.parse_bot_spec("perfect"), states, seed=5)
    assert timing.error is None and len(timing.seconds) == 4
    assert len(asked) == 4 + min(bench.WARMUP, 4)
