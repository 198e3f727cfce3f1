"""``goat bench engine``: engine speed next to a same-run baseline.

The measuring lives in :mod:`goat.bench.engine` so ``benchmarks/engine.py``
and this command print the same figures.
"""

from __future__ import annotations

import typer
from rich.console import Console

from goat.bench import engine as engine_bench
from goat.bench import env as env_bench
from goat.cli.errors import user_errors
from goat.cli.options import BENCH_SEED_LIMIT
from goat.cli.output import print_table
from goat.protocol import GoatError, check_seed


def bench_engine(
    seconds: float = typer.Option(2.0, "--seconds", help="Time per ruleset (engine and baseline together)."),
    rules: str = typer.Option("all", "--rules", help="all, or comma-separated: "
                              + ", ".join(engine_bench.CONFIGS)),
    seed: int = typer.Option(0, "--seed", help="Seed of the random deals."),
) -> None:
    """Kozel engine: random complete deals per second next to a rules-free baseline.

    Per ruleset, the ratio to a rules-free random trick loop measured in the same run."""
    with user_errors():
        check_seed(seed, BENCH_SEED_LIMIT, name="--seed")
        labels = engine_bench.select(rules)
        engine_bench.check_seconds(seconds)
        console = Console()
        console.print(f"Measuring {len(labels)} ruleset(s), about {seconds:g} s each…")
        results = engine_bench.run(labels, seconds, seed)
    print_table(console, engine_bench.table(results))


def bench_bots(
    decisions: int = typer.Option(100, "--decisions", help="Positions each bot decides (the same for all)."),
    bots: str | None = typer.Option(None, "--bots", help="Comma-separated bot specs, e.g. random,pimc:worlds=100 "
                                    "(default: every bot of the game, plus Kozel's pimc:worlds=100)."),
    game: str = typer.Option("kozel", "--game", help="The game whose bots and positions: kozel, spades or yugioh."),
    rules: str | None = typer.Option(None, "--rules", help="Ruleset the positions come from (default: "
                                     "the game's usual one: classic, standard, goat)."),
    seed: int = typer.Option(0, "--seed", help="Seed of the random games the positions come from."),
) -> None:
    """Bots: median and p99 decision time per bot, next to the random bot.

    Every bot decides the same positions; the game's random bot is the baseline (the cost of building the view and parsing the legal actions)."""
    from goat.bench import bots as bots_bench
    from goat.progress import progress
    from goat.games import get_game
    from goat.tournament.specs import parse_bot_list

    console = Console()
    with user_errors():
        check_seed(seed, BENCH_SEED_LIMIT, name="--seed")
        module = get_game(game)  # unknown game: one line, exit 2
        rules = bots_bench.default_rules(game) if rules is None else rules
        module.new_state(rules=rules)  # unknown ruleset: one line, exit 2
        if bots is not None:
            specs = [s.text for s in parse_bot_list(bots)]
            for spec in parse_bot_list(bots):
                spec.make(0, game)  # unknown bot, setting or a bot of another game: one line, exit 2
        else:
            specs = bots_bench.default_specs(game)
        if decisions < 1:
            raise GoatError(f"--decisions must be at least 1, not {decisions}")
        # no time left: the bots' decisions differ too much in cost for a mean pace
        with progress(Console(stderr=True), "decisions", decisions * (len(specs) + 1), eta=False) as advance:
            baseline, timings = bots_bench.run(specs, rules, decisions, seed, advance, game)
    print_table(console, bots_bench.table(baseline, timings, rules, game))
    if game == "kozel":
        verdict = bots_bench.target_verdict(timings)
        console.print(verdict if verdict is not None else
                      f"target {bots_bench.TARGET_SPEC} ≤ {bots_bench.TARGET_MEDIAN_MS:g} ms median: not measured "
                      "(no pimc bot in this run)")


def bench_sim(
    seconds: float = typer.Option(3.0, "--seconds", help="Time per ruleset (all contenders together)."),
    rules: str = typer.Option("classic,full-hand", "--rules", help="all, or comma-separated: "
                              "classic, full-hand, full-hand-24, full-hand-2p, full-hand-3p, street"),
    seed: int = typer.Option(0, "--seed", help="Seed of the random deals."),
) -> None:
    """Batch simulator (numba): deals per second next to the Python engine and OpenSpiel.

    OpenSpiel's C++ spades runs through pyspiel, all measured in the same run."""
    from goat.bench import sim as sim_bench

    with user_errors():
        check_seed(seed, BENCH_SEED_LIMIT, name="--seed")
        labels = sim_bench.select(rules)
        engine_bench.check_seconds(seconds)
        console = Console()
        console.print(f"Measuring {len(labels)} ruleset(s), about {seconds:g} s each…")
        results, note = sim_bench.run(labels, seconds, seed)
    if note:
        console.print(note)
    print_table(console, sim_bench.table(results))
    for line in sim_bench.summary_lines(results):
        console.print(line)


def bench_solver(
    deals: int = typer.Option(50, "--deals", help="Deals solved per contender."),
    seed: int = typer.Option(0, "--seed", help="Seed of the random deals."),
    card_points: bool = typer.Option(False, "--card-points",
                                     help="Also solve DDS's deals for Kozel card points (about doubles the run)."),
    known_value: bool = typer.Option(False, "--known-value",
                                     help="Also solve each full-hand deal again from its true value: "
                                          "the two proofs MTD(f) cannot avoid, the floor of any first guess."),
    individual: bool = typer.Option(False, "--individual",
                                    help="Also solve 2- and 3-player full-hand deals (individual play; "
                                         "2-player deals from the first lead take seconds)."),
    outcome: bool = typer.Option(True, "--outcome/--no-outcome",
                                 help="Also answer each full-hand deal's outcome (who wins, the penalty: "
                                      "null-window tests at the scoring lines, not the exact value), next to "
                                      "DDS: what Kozel's score reads, beside the exact target."),
    option: list[str] = typer.Option([], "--option", "-o", metavar="KEY=VALUE",
                                     help="Rules option of the Kozel deals (repeatable), e.g. "
                                          "trump_on_plain=always (DDS's bridge deals are unchanged)."),
) -> None:
    """Double-dummy solver: mean and p99 solve time next to Bo Haglund's DDS.

    Full-hand and classic deals from trick 1; DDS (endplay) on 32-card bridge-like deals and our kernel on those very deals (tricks checked against DDS's)."""
    from goat.bench import solver as solver_bench
    from goat.games.options import parse_option_pairs

    console = Console()
    with user_errors():
        check_seed(seed, BENCH_SEED_LIMIT, name="--seed")
        solver_bench.check_deals(deals)
        options = parse_option_pairs(option)
        solver_bench.check_options(options)
        under = "".join(f", {k}={v}" for k, v in options.items())
        console.print(f"Solving {deals} deal(s) per contender{under}…")
        results, note = solver_bench.run(deals, seed, card_points=card_points, known_value=known_value,
                                         individual=individual, outcome=outcome, options=options)
    if note:
        console.print(note)
    print_table(console, solver_bench.table(results))
    if not solver_bench.report(console, results):
        raise typer.Exit(1)


def bench_env(
    seconds: float = typer.Option(2.0, "--seconds", help="Time per ruleset (all contenders together)."),
    rules: str = typer.Option("classic,street,spades", "--rules", help="all, or comma-separated: "
                              + ", ".join(env_bench.ENV_CONFIGS)),
    seed: int = typer.Option(0, "--seed", help="Seed of the environments and the random actions."),
) -> None:
    """RL environments: steps per second next to OpenSpiel's C++ spades.

    Our PettingZoo AEC environment against OpenSpiel's spades through pyspiel (random legal actions, same run); the spades row is our Spades under OpenSpiel's rules, like for like."""
    with user_errors():
        check_seed(seed, BENCH_SEED_LIMIT, name="--seed")
        labels = env_bench.select(rules)
        engine_bench.check_seconds(seconds)
        console = Console()
        console.print(f"Measuring {len(labels)} ruleset(s), about {seconds:g} s each…")
        results, note = env_bench.run(labels, seconds, seed)
    if note:
        console.print(note)
    print_table(console, env_bench.table(results))


def bench_server(
    clients: int = typer.Option(400, "--clients", help="WebSocket clients: a person at every seat, the rest watch."),
    tables: int = typer.Option(100, "--tables", help="Tables played at the same time."),
    seconds: float = typer.Option(20.0, "--seconds", help="How long the clients play (then a short drain)."),
    rules: str = typer.Option("classic", "--rules", help="Ruleset of every table."),
    seed: int = typer.Option(0, "--seed", help="Seed of the tables and of the clients' choices."),
) -> None:
    """Load on goat serve: actions/s and latency next to the in-memory engine.

    `goat serve` runs as a subprocess on loopback: accepted actions/s, p50/p99 latency send → update, lost and duplicated actions (must be 0)."""
    from goat.bench import server as server_bench

    console = Console()
    with user_errors():
        check_seed(seed, BENCH_SEED_LIMIT, name="--seed")
        server_bench.check_args(clients, tables, seconds, rules)  # before "Starting" announces a bad run
        console.print(f"Starting goat serve, {tables} tables, {clients} clients, {seconds:g} s of play…")
        result = server_bench.run(clients, tables, seconds, rules, seed)
    print_table(console, server_bench.table(result))
    console.print(server_bench.verdict(result))
    if result.lost or result.duplicated:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    bench_app = typer.Typer(help="Measure speed (figures next to a same-run baseline).",
                            no_args_is_help=True)
    bench_app.command("engine")(bench_engine)
    bench_app.command("sim")(bench_sim)
    bench_app.command("bots")(bench_bots)
    bench_app.command("solver")(bench_solver)
    bench_app.command("env")(bench_env)


    bench_app.command("server")(bench_server)
    app.add_typer(bench_app, name="bench")
