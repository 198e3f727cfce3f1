"""``goat bench engine`` and the shared measuring code (no timing assertions)."""

from __future__ import annotations

import random

import pytest
from rich.console import Console
from typer.testing import CliRunner

from goat.bench import engine as bench
from goat.cli.main import app
from goat.games.kozel import make_rules
from goat.protocol import GoatError


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


# ================================================================ goat bench solver
def test_solver_bench_solves_dds_deals_with_our_kernel_and_checks_the_tricks() -> None:
    pytest.importorskip("endplay")
    from goat.bench import solver as sb

    results, note = sb.run(2, seed=5, with_dds=True, card_points=True)
    assert note is None
    by = {r.label: r for r in results}
    assert list(by) == ["full-hand", "classic", sb.DDS, sb.OURS_ON_DDS, sb.OURS_POINTS]
    assert all(len(r.seconds) == 2 and min(r.seconds) > 0 for r in results)
    assert by[sb.OURS_ON_DDS].values == by[sb.DDS].values
    assert all(0 <= v <= 8 for v in by[sb.DDS].values)
    assert all(0 <= v <= 120 for v in by[sb.OURS_POINTS].values)
    assert len(by[sb.DDS].deals) == 2 and all(d.startswith("N:") for d in by[sb.DDS].deals)
    assert sb.disagreements(results) == []
    lines = sb.summary_lines(results)
    assert lines[0].startswith("target full-hand mean ≤ DDS mean: ")
    assert lines[1].startswith("engine on the same deals: ours ") and "vs DDS" in lines[1]
    assert lines[2] == "tricks agree with DDS on all 2 deals"
    assert lines[3].startswith("card points on the same deals: ours ")
    console = Console(record=True, width=200)
    console.print(sb.table(results))
    text = console.export_text()
    assert sb.OURS_ON_DDS in text and sb.OURS_POINTS in text


def test_solver_bench_card_points_row_is_opt_in() -> None:
    pytest.importorskip("endplay")
    from goat.bench import solver as sb

    results, _ = sb.run(1, seed=2, with_dds=True, presets=())
    assert [r.label for r in results] == [sb.DDS, sb.OURS_ON_DDS]
    # without the full-hand row the target is not measured, the engine line still is
    assert sb.summary_lines(results)[0].startswith("engine on the same deals")


def test_solver_bench_converts_an_endplay_deal_to_our_seats_and_cards() -> None:
    pytest.importorskip("endplay")
    from endplay.types import Deal, Denom, Player

    from goat.bench import solver as sb
    from goat.cards import parse_cards

    deal = Deal("N:AK.7.8.9 Q8.A.7.T 9.KQ.JT. JT.8.9.8")
    deal.trump, deal.first = Denom.nt, Player.west
    hands, leader, trump = sb.plain_deal(deal)
    assert (leader, trump) == (3, None)
    assert [set(h) for h in hands] == [set(parse_cards(t)) for t in
                                       ("AS KS 7H 8D 9C", "QS 8S AH 7D TC", "9S KH QH JD TD", "JS TS 8H 9D 8C")]
    deal.trump = Denom.hearts
    assert sb.plain_deal(deal)[2] == "H"


def test_solver_bench_reports_a_disagreement_loudly() -> None:
    from goat.bench import solver as sb

    dds = sb.Timings(sb.DDS, "", seconds=[0.001, 0.002], values=[5, 3], deals=["deal one", "deal two"])
    ours = sb.Timings(sb.OURS_ON_DDS, "", seconds=[0.003, 0.004], values=[5, 4])
    assert sb.disagreements([dds, ours]) == ["DISAGREEMENT: ours 4 tricks, DDS 3, on deal two"]
    console = Console(record=True, width=200)
    assert sb.report(console, [dds, ours]) is False
    text = console.export_text()
    assert "DISAGREEMENT: ours and DDS differ on 1 of 2 deals" in text
    assert "ours 4 tricks, DDS 3, on deal two" in text
    assert sb.report(Console(record=True), [dds, sb.Timings(sb.OURS_ON_DDS, "", [0.1, 0.1], [5, 3])])
    unnamed = sb.Timings(sb.DDS, "", seconds=[0.001], values=[2])
    assert sb.disagreements([unnamed, sb.Timings(sb.OURS_ON_DDS, "", [0.1], [1])]) == [
        "DISAGREEMENT: ours 1 tricks, DDS 2, on deal 1"]


def test_cli_bench_solver_prints_the_same_deals_rows() -> None:
    pytest.importorskip("endplay")
    result = CliRunner().invoke(app, ["bench", "solver", "--deals", "1", "--card-points", "--known-value"])
    assert result.exit_code == 0, result.output
    assert "engine on the same deals: ours" in result.stdout
    assert "tricks agree with DDS on all 1 deals" in result.stdout
    assert "card points on the same deals" in result.stdout
    assert "full-hand with the value known in advance:" in result.stdout


def test_cli_bench_solver_fails_on_a_disagreement(monkeypatch: pytest.MonkeyPatch) -> None:
    from goat.bench import solver as sb

    dds = sb.Timings(sb.DDS, "", seconds=[0.001], values=[5], deals=["the deal"])
    ours = sb.Timings(sb.OURS_ON_DDS, "", seconds=[0.003], values=[4])
    monkeypatch.setattr(sb, "run", lambda deals, seed, **options: ([dds, ours], None))
    result = CliRunner().invoke(app, ["bench", "solver", "--deals", "1"])
    assert result.exit_code == 1
    assert "DISAGREEMENT: ours 4 tricks, DDS 5, on the deal" in result.stdout


def test_solver_bench_individual_rows_are_opt_in_and_compared_to_four_players() -> None:
    from goat.bench import solver as sb

    assert [sb.kozel_position(label, random.Random(1)).rules.players for label in sb.INDIVIDUAL] == [3, 2]
    plain, _ = sb.run(1, 0, with_dds=False, presets=("full-hand",))
    assert [r.label for r in plain] == ["full-hand"]
    results, _ = sb.run(1, 0, with_dds=False, presets=("full-hand",), individual=True)
    assert [r.label for r in results] == ["full-hand", *sb.INDIVIDUAL]
    assert all(len(r.values) == 1 and -2000 <= r.values[0] <= 2000 for r in results)
    lines = sb.summary_lines(results)
    assert [line.split(":")[0] for line in lines[1:]] == list(sb.INDIVIDUAL)
    assert all("× the 4-player full-hand" in line for line in lines[1:])


def test_solver_bench_outcome_row_is_opt_in_and_on_the_full_hand_deals() -> None:
    from goat.bench import solver as sb

    plain, _ = sb.run(2, 4, with_dds=False, presets=("full-hand", "classic"))
    assert [r.label for r in plain] == ["full-hand", "classic"]
    results, _ = sb.run(2, 4, with_dds=False, presets=("full-hand", "classic"), outcome=True)
    by = {r.label: r for r in results}
    assert list(by) == ["full-hand", "classic", sb.OUTCOME]
    row = by[sb.OUTCOME]
    assert len(row.seconds) == 2 and min(row.seconds) > 0 and row.mismatches == []
    assert all(1 <= n <= 8 for n in row.tests)
    assert plain[0].values == by["full-hand"].values   # the same deals, the exact rows unchanged
    assert plain[1].values == by["classic"].values
    lines = sb.summary_lines(results)
    assert lines[1].startswith("deal outcome (who wins, the penalty): ours ") and "(DDS skipped)" in lines[1]
    assert "null-window tests a deal" in lines[1] and "× our exact solve" in lines[1]
    assert lines[2] == "outcomes agree with the exact values' classes on all 2 deals"
    assert sb.outcome_lines(plain) == []


def test_solver_bench_reports_an_outcome_mismatch_loudly() -> None:
    from goat.bench import solver as sb

    row = sb.Timings(sb.OUTCOME, "", seconds=[0.001], tests=[2],
                     mismatches=["DISAGREEMENT: outcome team 0 wins the deal but ..."])
    exact = sb.Timings("full-hand", "", seconds=[0.004], values=[50])
    assert sb.disagreements([exact, row]) == row.mismatches
    console = Console(record=True, width=200)
    assert sb.report(console, [exact, row]) is False
    assert "outcomes differ from the exact value's class on 1 of 1 deals" in console.export_text()


def test_cli_bench_solver_outcome_line_next_to_dds() -> None:
    pytest.importorskip("endplay")
    result = CliRunner().invoke(app, ["bench", "solver", "--deals", "1", "--outcome"])
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.split())
    assert "deal outcome (who wins, the penalty): ours " in text and " vs DDS " in text
    assert "outcomes agree with the exact values' classes on all 1 deals" in text
    assert "target full-hand mean ≤ DDS mean: " in text   # the target: still the exact solve


def test_solver_bench_plays_the_kozel_rows_under_a_rules_option() -> None:
    from goat.bench import solver as sb

    always = {"trump_on_plain": "always"}
    assert sb.kozel_position("full-hand", random.Random(0), always).rules.trump_on_plain == "always"
    # the same deal either way: the option deals no card differently
    assert (sb.kozel_position("full-hand", random.Random(0), always).hands
            == sb.kozel_position("full-hand", random.Random(0)).hands)
    plain, _ = sb.run(1, 0, with_dds=False, presets=("full-hand",))
    ruffs, _ = sb.run(1, 0, with_dds=False, presets=("full-hand",), options=always)
    assert len(plain[0].nodes) == len(ruffs[0].nodes) == 1
    # a follower holding the led suit may also trump: a bigger search on that deal
    assert ruffs[0].nodes[0] > plain[0].nodes[0]
    lines = sb.node_lines(ruffs)
    assert lines == [f"full-hand: {ruffs[0].nodes[0]:,} search nodes in 1 deals, values crc32 "
                     f"{sb.values_crc(ruffs[0].values)}"]


def test_cli_bench_solver_takes_rules_options_and_refuses_a_bad_one() -> None:
    result = CliRunner().invoke(app, ["bench", "solver", "--deals", "1", "-o", "trump_on_plain=always"])
    assert result.exit_code == 0, result.output
    assert "Solving 1 deal(s) per contender, trump_on_plain=always…" in result.stdout
    assert "full-hand: " in result.stdout and "search nodes in 1 deals, values crc32 " in result.stdout
    bad = CliRunner().invoke(app, ["bench", "solver", "--deals", "1", "-o", "trump_on_plain=sometimes"])
    assert bad.exit_code == 2
    assert bad.output.count("\n") == 1 and "trump_on_plain" in bad.output


def test_cli_bench_solver_shows_the_outcome_beside_the_exact_target_by_default() -> None:
    """The exact target line alone reads as "the solver is 8x slower than DDS";
    what Kozel's score reads (the deal's outcome) is printed next to it unless
    --no-outcome leaves it out."""
    from goat.bench import solver as sb

    seen: list[bool] = []
    real = sb.run

    def spy(*args: object, **kwargs: object) -> object:
        seen.append(bool(kwargs.get("outcome")))
        return real(*args, **{**kwargs, "with_dds": False})   # type: ignore[arg-type]

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sb, "run", spy)
        assert CliRunner().invoke(app, ["bench", "solver", "--deals", "1"]).exit_code == 0
        assert CliRunner().invoke(app, ["bench", "solver", "--deals", "1", "--no-outcome"]).exit_code == 0
    assert seen == [True, False]


@pytest.mark.parametrize("seconds", [float("inf"), float("nan"), 0.0, -1.0])
def test_seconds_that_no_run_could_end_in_are_refused(seconds: float) -> None:
    """``--seconds inf`` (or ``1e400``, which parses as inf) passed ``not seconds > 0``
    and measured for ever; every bench with ``--seconds`` checks it in one place."""
    from goat.bench import server as server_bench
    from goat.bench.engine import check_seconds

    with pytest.raises(GoatError, match=r"^--seconds must be positive and finite, not "):
        check_seconds(seconds)
    with pytest.raises(GoatError, match=r"^--seconds must be positive and finite, not "):
        server_bench.check_args(400, 100, seconds, "classic")
