"""``goat bench engine``: engine speed next to a same-run baseline.

The measuring lives in :mod:`goat.bench.engine` so ``benchmarks/engine.py``
and this command print the same figures.
"""

from __future__ import annotations

import typer
from rich.console import Console

from goat.bench import engine as engine_bench
from goat.protocol import GoatError


def bench_engine(
    seconds: float = typer.Option(2.0, "--seconds", help="Time per ruleset (engine and baseline together)."),
    rules: str = typer.Option("all", "--rules", help="all, or comma-separated: "
                              + ", ".join(engine_bench.CONFIGS)),
    seed: int = typer.Option(0, "--seed", help="Seed of the random deals."),
) -> None:
    """Random complete deals per second for each Kozel ruleset, and the ratio to a
    rules-free random trick loop measured in the same run."""
    try:
        labels = engine_bench.select(rules)
        engine_bench.check_seconds(seconds)
        console = Console()
        console.print(f"Measuring {len(labels)} ruleset(s), about {seconds:g} s each…")
        results = engine_bench.run(labels, seconds, seed)
    except GoatError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    console.print(engine_bench.table(results))


def register(app: typer.Typer) -> None:
    bench_app = typer.Typer(help="Measure speed (figures next to a same-run baseline).",
                            no_args_is_help=True)
    bench_app.command("engine")(bench_engine)
    app.add_typer(bench_app, name="bench")
