"""A PNG of a tournament: win rate and per-deal score difference (Kozel's
penalty points, Spades' points, a duel's LP) per bot with their 95% intervals,
and each bot's cumulative difference over the deals (duels) it played.

Uses matplotlib's object API with the Agg canvas directly, so it never touches
the global backend (safe inside a CLI, a test run or a notebook).
"""

from __future__ import annotations

import io
import math
import os
from collections.abc import Sequence
from itertools import accumulate
from pathlib import Path

from goat.protocol import GoatError
from goat.tournament.games import SCORING, GameScoring
from goat.tournament.runner import GameResult
from goat.tournament.stats import BotSummary, Interval, deal_differences


def plot_path(path: str | os.PathLike[str]) -> Path:
    """The file the plot of ``path`` goes to, or a one-line :class:`GoatError`
    for a suffix matplotlib cannot write. A name without a suffix gets ``.png``,
    as matplotlib would add it, so the caller can check and name the very file.
    (A device or a pipe, ``/dev/null``, is named as it is: the caller's
    ``goat.files.written_in_place``; :func:`plot_results` gives it a PNG.)
    (Whether its folder takes it is the caller's check, before a run that can
    take hours: ``goat.files.check_writable``.)"""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    target = Path(path)
    suffix = target.suffix.lower().lstrip(".")
    formats = FigureCanvasAgg.get_supported_filetypes()
    if suffix and suffix not in formats:
        raise GoatError(f"cannot write {target}: the plot's format comes from its suffix, one of "
                        f"{', '.join(sorted(formats))} (not .{suffix})")
    return target if suffix or target.is_dir() else target.with_name(target.name + ".png")


def plot_results(rows: Sequence[BotSummary], results: Sequence[GameResult], path: str | os.PathLike[str],
                 title: str = "", scoring: GameScoring = SCORING["kozel"], unit: str = "match") -> None:
    """Write the figure to ``path`` (format from the suffix, PNG by default);
    ``scoring`` names the game's deal and its points on the axes, ``unit`` what a
    win is of (``"match"``, or the game's deal in a run of single deals), as the
    results table's column says."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(12, 4.2), layout="constrained")
    FigureCanvasAgg(figure)
    win_ax, diff_ax, cum_ax = figure.subplots(1, 3, width_ratios=[1, 1, 1.6])
    labels = [r.label for r in rows]
    x = list(range(len(rows)))

    def bars(ax, intervals: Sequence[Interval], ylabel: str, reference: float) -> None:
        # below and above the bar: a win rate's interval is not symmetric
        errors = [[i.mean - i.low if math.isfinite(i.low) else 0.0 for i in intervals],
                  [i.high - i.mean if math.isfinite(i.high) else 0.0 for i in intervals]]
        ax.bar(x, [i.mean for i in intervals], yerr=errors, capsize=6, color=[f"C{i}" for i in x], alpha=0.8)
        ax.axhline(reference, color="grey", linewidth=0.8, linestyle="--")
        ax.set_xticks(x, labels, rotation=20 if len(labels) > 2 else 0, ha="right" if len(labels) > 2 else "center")
        ax.set_ylabel(ylabel)

    bars(win_ax, [r.score for r in rows], f"{unit} win rate (95% CI)", 0.5)
    win_ax.set_ylim(0, 1)
    bars(diff_ax, [r.difference for r in rows], f"{scoring.difference} (95% CI)", 0.0)

    for i, label in enumerate(labels):
        series = [d for result in results if label in result.labels for d in deal_differences(result, label)]
        cum_ax.plot(range(1, len(series) + 1), list(accumulate(series)), color=f"C{i}", label=label)
    cum_ax.axhline(0, color="grey", linewidth=0.8, linestyle="--")
    cum_ax.set_xlabel(f"{scoring.deal}s played")
    cum_ax.set_ylabel(f"cumulative {scoring.points} difference")
    cum_ax.legend(loc="best", fontsize="small")
    if title:
        figure.suptitle(title)
    suffix = Path(path).suffix.lower().lstrip(".")
    known = suffix in FigureCanvasAgg.get_supported_filetypes()
    image = io.BytesIO()  # drawn whole first: PNG's writer seeks, which a pipe cannot
    figure.savefig(image, dpi=100, format=suffix if known else "png")
    with open(path, "wb") as stream:
        stream.write(image.getvalue())
