"""Measuring code shared by ``goat bench`` and the scripts in ``benchmarks/``.

Every figure is printed next to a baseline measured in the same run, because
the machines these run on are shared and noisy: compare ratios, not times.
"""

from __future__ import annotations

from collections.abc import Sequence

from goat.protocol import GoatError


def select_labels(text: str, known: Sequence[str], bench: str = "bench") -> list[str]:
    """``"all"`` or comma-separated labels out of ``known``; a one-line
    :class:`GoatError` for an unknown or empty choice."""
    if text.strip().lower() == "all":
        return list(known)
    labels = [r.strip() for r in text.split(",") if r.strip()]
    for label in labels:
        if label not in known:
            raise GoatError(f"unknown ruleset {label!r} for the {bench} (all, {', '.join(known)})")
    if not labels:
        raise GoatError(f"no ruleset given (all, {', '.join(known)})")
    return labels


def format_rate(x: float) -> str:
    """Compact rate for bench tables: ``1,921``, ``58.5k``, ``1.23M``."""
    if x >= 1e6:
        return f"{x / 1e6:.2f}M"
    if x >= 1e4:
        return f"{x / 1e3:.1f}k"
    return f"{x:,.0f}"
