"""``goat tournament``: duplicate tournaments between bots.

Every deal sequence is played by every seating of the bots (partnerships
swapped, seats rotated), so the luck of the cards cancels out; see
:mod:`goat.tournament.schedule` for the format, :mod:`goat.tournament.stats`
for the intervals and the Elo method. Games run on a local process pool by
default, on Ray with ``--backend ray``; the results depend only on ``--seed``.
"""

from __future__ import annotations

import secrets
import sys
import time
from typing import Any

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from goat.cli.options import parse_options
from goat.games import get_game
from goat.protocol import GoatError
from goat.records import dumps_record
from goat.tournament.runner import BACKENDS, GameResult, default_workers, run_all
from goat.tournament.schedule import TableConfig, schedule
from goat.tournament.specs import parse_bot_list
from goat.tournament.stats import BotSummary, HeadToHead, head_to_head, summarize

ELO_NOTE = ("Elo: Bradley–Terry fit of all pairwise game results (draw = ½), one virtual draw per "
            "pairing, mean 1500. Intervals: Student-t 95% over duplicate sets.")


def register(app: typer.Typer) -> None:
    app.command("tournament")(tournament_command)


def tournament_command(
    game: str = typer.Option("kozel", "--game", help="The game."),
    rules: str = typer.Option(..., "--rules", help="Ruleset preset: classic, full-hand, full-hand-24, street."),
    bots: str = typer.Option(..., "--bots", help="Comma-separated bots, each name or name:key=value "
                                                 "(e.g. random,pimc:worlds=100); at least two."),
    matches: int = typer.Option(..., "--matches", "-n", help="Duplicate sets per pairing: each deal sequence "
                                                            "is played once per seating (2 games in 4-seat play)."),
    workers: int | None = typer.Option(None, "--workers", help="Parallel games (default: CPU count)."),
    backend: str = typer.Option("local", "--backend", help="local (process pool) or ray."),
    out: str | None = typer.Option(None, "--out", help="Write every game's record here (JSON lines)."),
    plot: str | None = typer.Option(None, "--plot", help="Write a PNG of the results here."),
    seed: int | None = typer.Option(None, "--seed", help="Seed (default: a fresh one, printed)."),
    deals_only: bool = typer.Option(False, "--deals-only", help="Single deals instead of whole matches."),
    players: int | None = typer.Option(None, "--players", help="Number of seats (default: the preset's)."),
    option: list[str] = typer.Option([], "--option", help="key=value overriding a ruleset option; repeatable."),
) -> None:
    """Play a duplicate tournament between bots and report win rates, penalty-point
    differences (95% intervals) and Elo."""
    try:
        specs, config, probe = _prepare(game, rules, bots, matches, workers, backend, players, option, deals_only)
    except GoatError as exc:
        _fail(str(exc))
    seed = secrets.randbelow(2**31) if seed is None else seed
    workers = workers or default_workers()
    teams = [probe.rules.team_of(s) for s in range(probe.num_players)]
    games = schedule(specs, config, probe.num_players, teams, matches, seed)
    unit = "deal" if deals_only else "match"
    console = Console(stderr=True)
    kind = "single deals" if deals_only else "whole matches"
    console.print(f"{game} {rules}, {len(specs)} bots, {len(games)} games ({kind}, duplicate), "
                  f"seed {seed}, {workers} worker(s), backend {backend}")
    started = time.perf_counter()
    try:
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                      TimeRemainingColumn(), console=console, transient=True) as progress:
            task = progress.add_task("tournament", total=len(games))
            results = run_all(games, workers, backend, on_result=lambda _: progress.advance(task))
    except GoatError as exc:
        _fail(str(exc), status=1)
    seconds = time.perf_counter() - started
    rows = summarize(results, [s.label for s in specs])
    out_console = Console(stderr=out == "-")  # records on stdout: keep the table off it
    out_console.print(results_table(rows, unit, f"{game} {rules}: {len(games)} games, "
                                               f"{sum(r.deals for r in results)} deals, {seconds:.1f} s"))
    pairs = head_to_head(results)
    if len(pairs) > 1:
        out_console.print(head_to_head_table(pairs, unit))
    out_console.print(ELO_NOTE, style="dim")
    if out is not None:
        _write_records(results, out)
        typer.echo(f"wrote {len(results)} records to {out}", err=True)
    if plot is not None:
        from goat.tournament.plot import plot_results

        try:
            plot_results(rows, results, plot, title=f"{game} {rules}, seed {seed}")
        except OSError as exc:
            _fail(f"cannot write {plot}: {exc.strerror or exc}")
        typer.echo(f"wrote plot to {plot}", err=True)


def _prepare(game: str, rules: str, bots: str, matches: int, workers: int | None, backend: str,
             players: int | None, option: list[str], deals_only: bool) -> tuple[list, TableConfig, Any]:
    """Check everything before the first game (one-line GoatError on a mistake)."""
    if matches < 1:
        raise GoatError(f"--matches must be at least 1, not {matches}")
    if workers is not None and workers < 1:
        raise GoatError(f"--workers must be at least 1, not {workers}")
    if backend not in BACKENDS:
        raise GoatError(f"--backend must be one of {', '.join(BACKENDS)}, not {backend!r}")
    if backend == "ray":
        from goat.tournament.runner import ray_available

        if not ray_available():
            raise GoatError("the ray backend needs Ray: pip install 'goat[ray]'")
    module = get_game(game)
    options = parse_options(module, rules, players, option)
    probe = module.new_state(rules=rules, options=options, players=players)
    if "penalty_total" not in probe.result():
        raise GoatError(f"tournaments are scored in penalty points: {game} is not supported yet (kozel is)")
    specs = parse_bot_list(bots)
    if len(specs) < 2:
        raise GoatError("--bots needs at least two bots (the same one twice is fine: random,random)")
    for spec in specs:
        spec.make(0)  # unknown bot or setting: fail now, not in a worker
    return specs, TableConfig(game, rules, options, players, deals_only), probe


def results_table(rows: list[BotSummary], unit: str, title: str) -> Table:
    table = Table(title=title)
    table.add_column("bot")
    table.add_column("games", justify="right")
    table.add_column("deals", justify="right")
    table.add_column(f"{unit} win rate ±95%", justify="right")
    table.add_column("pen. diff/deal ±95%", justify="right")
    table.add_column("Elo", justify="right")
    for r in rows:
        table.add_row(r.label, str(r.games), str(r.deals),
                      _interval(r.score.mean * 100, r.score.half_width * 100, "%"),
                      _interval(r.difference.mean, r.difference.half_width, ""),
                      f"{r.elo:.0f}" if r.elo == r.elo and abs(r.elo) != float("inf") else str(r.elo))
    return table


def head_to_head_table(pairs: list[HeadToHead], unit: str) -> Table:
    """Each pairing of a round robin, from the first bot's side."""
    table = Table(title="head to head (first bot's side)")
    table.add_column("bot")
    table.add_column("vs")
    table.add_column("deals", justify="right")
    table.add_column(f"{unit} win rate ±95%", justify="right")
    table.add_column("pen. gain/deal ±95%", justify="right")
    table.add_column("CI excludes 0", justify="center")
    for p in pairs:
        table.add_row(p.first, p.second, str(p.deals),
                      _interval(p.score.mean * 100, p.score.half_width * 100, "%"),
                      _interval(p.difference.mean, p.difference.half_width, ""),
                      "yes" if p.difference.excludes(0.0) else "no")
    return table


def _interval(mean: float, half: float, suffix: str) -> str:
    if half == float("inf"):
        return f"{mean:+.2f}{suffix} ± ?" if not suffix else f"{mean:.1f}{suffix} ± ?"
    if suffix:
        return f"{mean:.1f}{suffix} ± {half:.1f}"
    return f"{mean:+.3f} ± {half:.3f}"


def _write_records(results: list[GameResult], out: str) -> None:
    try:
        stream = open(out, "w", encoding="utf-8", newline="\n") if out != "-" else sys.stdout
    except OSError as exc:
        _fail(f"cannot write {out}: {exc.strerror or exc}")
    try:
        for result in results:
            stream.write(dumps_record(result.record) + "\n")
    finally:
        if stream is not sys.stdout:
            stream.close()


def _fail(message: str, status: int = 2) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(status)
