"""``goat tournament``: duplicate tournaments between bots, for every game.

Every deal sequence (a duel's coin tosses and shuffles) is played by every
seating of the bots (partnerships swapped, seats rotated), so the luck of the
cards cancels out; see :mod:`goat.tournament.scheduling` for the format,
:mod:`goat.tournament.games` for what each game's deal scores,
:mod:`goat.tournament.stats` for the intervals and the Elo method. Games run on a local process pool by
default, on Ray with ``--backend ray``; the results depend only on ``--seed``.
"""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from goat.cli.hangup import STOPPED_BY, stop_as_interrupt
from goat.cli.options import BOT_MODULE_HELP
from goat.cli.output import echo, print_table
from goat.files import check_named, check_writable, partial_path, written_in_place
from goat.protocol import GoatError
from goat.tournament.api import (Results, TournamentInterrupted, TournamentPlan, TournamentSetupError,
                                 plan_tournament, play_tournament, save_records)
from goat.tournament.games import GameScoring, scoring_for
from goat.tournament.runner import GameResult, unfinished_cancelled
from goat.tournament.scheduling import GameSpec
from goat.tournament.stats import BotSummary, HeadToHead, Interval

ELO_NOTE = ("Elo: Bradley–Terry fit of all pairwise game results (draw = ½), one virtual draw per "
            "pairing, mean 1500; an Elo gap's interval is the head-to-head win rate's read on the Elo "
            "scale (two bots: each rating ± half of it). Intervals over duplicate sets: win rate "
            "Wilson (effective sample size), difference Student-t.")


def register(app: typer.Typer) -> None:
    app.command("tournament")(tournament_command)


def tournament_command(
    game: str = typer.Option("kozel", "--game", help="The game: kozel, spades or yugioh."),
    rules: str | None = typer.Option(None, "--rules", help="Ruleset preset (default: classic for kozel, "
                                                           "standard for spades, goat for yugioh)."),
    bots: str = typer.Option(..., "--bots", help="Comma-separated bots, each name or name:key=value "
                                                 "(e.g. random,pimc:worlds=100); at least two. "
                                                 "Kozel: random, heuristic, pimc, ismcts, perfect; "
                                                 "spades: random, heuristic, ismcts, pimc (dds extra); yugioh: random, greedy, mc; "
                                                 "your own bots: docs/bots.md."),
    matches: int = typer.Option(..., "--matches", "-n", help="Duplicate sets per pairing: each deal sequence "
                                                            "(a duel's coin and shuffles) is played once per "
                                                            "seating (2 games in 4-seat play and in a duel, 3 for two "
                                                            "bots on three seats, 6 for three)."),
    workers: int | None = typer.Option(None, "--workers", help="Parallel games (default: CPU count)."),
    backend: str = typer.Option("local", "--backend", help="local (process pool) or ray (a local Ray instance "
                                                           "of --workers CPUs, or the cluster RAY_ADDRESS names)."),
    out: str | None = typer.Option(None, "--out", help="Write every game's record here (JSON lines; - for stdout), "
                                                        "once the run is over; after Ctrl+C the finished "
                                                        "games' go to NAME.partial.jsonl beside it."),
    plot: str | None = typer.Option(None, "--plot", help="Write a plot of the results here: PNG, or the format "
                                                          "of the suffix (.svg, .pdf, ...)."),
    seed: int | None = typer.Option(None, "--seed", help="Seed (default: a fresh one, printed)."),
    deals_only: bool = typer.Option(False, "--deals-only", help="Single deals (yugioh: single duels) "
                                                                "instead of whole matches."),
    players: int | None = typer.Option(None, "--players", help="Number of seats (default: the preset's)."),
    option: list[str] = typer.Option([], "--option", metavar="KEY=VALUE", help="key=value overriding a ruleset option; repeatable."),
    bot_module: list[str] = typer.Option([], "--bot-module", metavar="MODULE", help=BOT_MODULE_HELP),
) -> None:
    """Play a duplicate tournament between bots: win rates, score differences and Elo.

    Per bot: the match (or deal) win rate, the mean difference per deal in the game's own score (Kozel's penalty points, Spades' points, a duel's LP), each with a 95% interval, and an Elo rating."""
    try:
        plan = plan_tournament(game, rules, bots, matches, seed, workers, backend, option, players, deals_only,
                               bot_module, out)
        if plot is not None:
            plot = _checked_plot(plot, out)
    except GoatError as exc:
        _fail(str(exc))
    terminated: list[int] = []  # SIGTERM or SIGHUP, once received
    try:
        with stop_as_interrupt(terminated):
            results = play_tournament(plan, progress=True)
    except TournamentSetupError as exc:  # a Ray cluster that cannot be reached: before the first line
        _fail(str(exc))
    except GoatError as exc:
        _fail(str(exc), status=1)
    except TournamentInterrupted as stop:
        how = STOPPED_BY.get(terminated[0], "interrupted") if terminated else "interrupted"
        if stop.seconds is None:
            echo(f"{how} while connecting to Ray: no game played", err=True)
        else:
            _interrupted(stop.finished, plan, stop.seconds, out, how=how, cancelled=backend == "ray")
        raise typer.Exit(128 + terminated[0] if terminated else 130) from None
    reader_gone: SystemExit | None = None
    config, scoring = plan.config, plan.scoring
    try:
        _print_results(results, f"{config.game} {config.rules}: {len(results.games)} games, "
                                f"{results.deals} {scoring.deal}s, {results.seconds:.1f} s", out)
    except SystemExit as exc:  # rich's answer to a broken pipe: the table's reader went away (| head -3)
        if not isinstance(exc.__context__, BrokenPipeError):
            raise
        reader_gone = exc  # an hour's records and the plot are still written; then rich's exit status 1, in silence
    if out is not None:
        try:
            save_records(results.games, out)
        except GoatError as exc:
            _fail(str(exc))
        echo(f"wrote {len(results.games)} records to {out}", err=True)
    if plot is not None:
        from goat.tournament.plot import plot_results  # matplotlib: imported only when asked for

        try:
            plot_results(results.summary, results.games, plot, title=f"{config.game} {config.rules}, seed {plan.seed}",
                         scoring=scoring, unit=plan.unit)
        except OSError as exc:
            _fail(f"cannot write {plot}: {exc.strerror or exc}")
        echo(f"wrote plot to {plot}", err=True)
    if reader_gone is not None:
        raise reader_gone


def _checked_plot(plot: str, out: str | None) -> str:
    """The file ``--plot`` writes (``result`` is ``result.png``), checked before
    the run: it can be written, and it is not ``--out``'s file."""
    from goat.tournament.plot import plot_path  # matplotlib: only when asked for

    check_named(plot, "--plot")  # told as empty, not as the folder "." that Path("") is
    if not written_in_place(plot):  # a pipe or a device (/dev/null) is named as it is
        plot = str(plot_path(plot))  # the file written: "result" becomes result.png
    check_writable(plot, option="--plot")
    if out not in (None, "-") and Path(out).resolve() == Path(plot).resolve():
        # the plot is written after the records: it would replace them, in silence
        raise GoatError(f"--out and --plot name the same file, {plot}: the plot would replace the records")
    return plot


def results_table(rows: list[BotSummary], unit: str, title: str, scoring: GameScoring | None = None) -> Table:
    """One row per bot; the difference column is the game's (``scoring``, Kozel's by default)."""
    scoring = scoring or scoring_for("kozel")
    table = Table(title=title)
    table.add_column("bot")
    table.add_column("games", justify="right")
    table.add_column(f"{scoring.deal}s", justify="right")
    table.add_column(f"{unit} win rate (95% CI)", justify="right")
    table.add_column(f"{scoring.column} ±95%", justify="right")
    with_bounds = any(r.elo_bounds is not None for r in rows)
    table.add_column("Elo (95% CI)" if with_bounds else "Elo", justify="right")
    for r in rows:
        elo = _elo(r.elo)
        if r.elo_bounds is not None:
            elo += f" ({_elo(r.elo_bounds[0])}–{_elo(r.elo_bounds[1])})"
        table.add_row(r.label, str(r.games), str(r.deals), _win_rate(r.score),
                      _interval(r.difference.mean, r.difference.half_width, ""), elo)
    return table


def head_to_head_table(pairs: list[HeadToHead], unit: str, scoring: GameScoring | None = None) -> Table:
    """Each pairing of a round robin, from the first bot's side."""
    scoring = scoring or scoring_for("kozel")
    table = Table(title="head to head (first bot's side)")
    table.add_column("bot")
    table.add_column("vs")
    table.add_column(f"{scoring.deal}s", justify="right")
    table.add_column(f"{unit} win rate (95% CI)", justify="right")
    table.add_column(f"{scoring.gain_column} ±95%", justify="right")
    table.add_column("CI excludes 0", justify="center")
    table.add_column("Elo gap (95% CI)", justify="right")
    for p in pairs:
        table.add_row(p.first, p.second, str(p.deals), _win_rate(p.score),
                      _interval(p.difference.mean, p.difference.half_width, ""),
                      "yes" if p.difference.excludes(0.0) else "no", _elo_gap(p.elo_gap))
    return table


def _elo(value: float, sign: bool = False) -> str:
    """A rating (or with ``sign`` a gap) rounded to a point; ``∞`` past a clean sweep."""
    if value != value:
        return "nan"
    if math.isinf(value):
        return "∞" if value > 0 else "-∞"
    return f"{value:+.0f}" if sign else f"{value:.0f}"


def _elo_gap(gap: Interval) -> str:
    """``+191 (+100, +288)``: the gap and its bounds (``± ?`` from a single set)."""
    if gap.half_width == float("inf") and gap.bounds is None:
        return f"{_elo(gap.mean, sign=True)} ± ?"
    return f"{_elo(gap.mean, sign=True)} ({_elo(gap.low, sign=True)}, {_elo(gap.high, sign=True)})"


def _win_rate(score: Interval) -> str:
    """``87.5% (31.6–99.1)``: a win rate's interval is not symmetric near 0 or
    100% (:func:`goat.tournament.stats.proportion_ci`)."""
    if score.half_width == float("inf"):
        return _interval(score.mean * 100, score.half_width, "%")
    return f"{score.mean * 100:.1f}% ({score.low * 100:.1f}–{score.high * 100:.1f})"


def _interval(mean: float, half: float, suffix: str) -> str:
    if half == float("inf"):
        return f"{mean:+.2f}{suffix} ± ?" if not suffix else f"{mean:.1f}{suffix} ± ?"
    if suffix:
        return f"{mean:.1f}{suffix} ± {half:.1f}"
    return f"{mean:+.3f} ± {half:.3f}"


def _print_results(results: Results, title: str, out: str | None) -> None:
    """The results table (and the head-to-head one in a round robin), then the Elo note."""
    plan = results.plan
    out_console = Console(stderr=out == "-")  # records on stdout: keep the table off it
    print_table(out_console, results_table(results.summary, plan.unit, title, plan.scoring))
    if len(results.head_to_head) > 1:
        print_table(out_console, head_to_head_table(results.head_to_head, plan.unit, plan.scoring))
    out_console.print(ELO_NOTE, style="dim")


def complete_sets(finished: list[GameResult], games: list[GameSpec]) -> list[GameResult]:
    """The finished games of the duplicate sets that finished whole, in schedule order.

    A set's games share their cards: only whole sets cancel the deal's luck out,
    so an interrupted run's table is made of them alone (a set cut in half would
    count one seating's cards and not the other's)."""
    size = Counter((g.pairing, g.set_index) for g in games)
    done = Counter((r.pairing, r.set_index) for r in finished)
    return sorted((r for r in finished if done[r.pairing, r.set_index] == size[r.pairing, r.set_index]),
                  key=lambda r: r.index)


def _interrupted(finished: list[GameResult], plan: TournamentPlan, seconds: float, out: str | None,
                 how: str = "interrupted", cancelled: bool = False) -> None:
    """Ctrl+C (or SIGTERM, ``how``): say how far the run got — and with
    ``cancelled`` (Ray) that its unfinished games were cancelled, not left to run
    on the cluster — show the whole duplicate sets' results and keep the finished
    games' records beside ``--out`` (an hour's run is not thrown away). The plot,
    a whole-run output, is not drawn."""
    games = plan.schedule
    whole = complete_sets(finished, list(games))
    sets = len({(r.pairing, r.set_index) for r in whole})
    note = unfinished_cancelled(len(games) - len(finished)) if cancelled else ""
    echo(f"{how} after {len(finished)} of {len(games)} games ({seconds:.0f} s{'; ' + note if note else ''}): "
               + (f"the results of the {sets} whole duplicate set(s) ({len(whole)} games) below"
                  if whole else "no duplicate set finished whole: no results"), err=True)
    if whole:
        part = Results.of(plan, whole, seconds)
        _print_results(part, f"{plan.config.game} {plan.config.rules}, interrupted: {len(whole)} of {len(games)} "
                             f"games, {part.deals} {plan.scoring.deal}s", out)
    if out is None or out == "-" or not finished:
        echo("nothing written" + (" (records go to --out only once a run is over)" if out == "-" else ""),
                   err=True)
        return
    records = sorted(finished, key=lambda r: r.index)
    in_place = written_in_place(out)  # a pipe or a device: no file beside it (root made /dev/null.partial.jsonl)
    target = out if in_place else partial_path(out)
    done = (f"the {len(records)} finished games' records went to {out}" if in_place else
            f"wrote the {len(records)} finished games' records to {target} (--out is written only by a whole run)")
    try:
        save_records(records, target)
    except GoatError as exc:
        done = f"error: {exc}"
    echo(done, err=True)


def _fail(message: str, status: int = 2) -> None:
    echo(f"error: {message}", err=True)
    raise typer.Exit(status)
