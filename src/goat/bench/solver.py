"""Double-dummy solver speed, next to Bo Haglund's DDS measured in the same run.

Contenders, each solving whole deals from the first lead, one position at a time
on one core:

* **full-hand** — :func:`goat.fast.solver.solve` on random ``full-hand`` deals
  (32 cards, 8 a hand, a drawn trump suit), after a random partner exchange;
  the exact card-point value (0..120, or a shamok / royal-goat outcome);
* **classic** — the same on random ``classic`` deals with the stock order known
  (4 cards a hand, 16 in the stock);
* **DDS** — ``endplay.dds.solve_board`` in ``OptimalOne`` mode (one best card and
  its trick count: the same question our ``solve`` answers) on random 32-card
  bridge-like deals: ranks 7–A in four suits, 8 cards a hand, spades trumps,
  a random leader. Skipped with an install hint when ``endplay`` is missing;
* **ours on DDS's deals** — our kernel on the very deals DDS solves, counting
  tricks (:func:`goat.fast.solver_plain.solve_plain`): engine against engine on
  identical problems, where the Kozel rows mix in a harder game (card points).
  Its trick counts are checked against DDS's on every deal; a disagreement is
  printed loudly (and makes the command fail): it would be a solver bug;
* **ours on DDS's deals, Kozel card points** (``card_points``, off by default:
  it costs about as much as the full-hand row) — the same deals scored A 11,
  T 10, K 4, Q 3, J 2: how much harder card points make the same deals;
* **full-hand, 3 players** and **full-hand, 2 players** (``individual``, off by
  default: a 2-player deal from the first lead takes seconds) — individual play
  (:mod:`goat.fast.solver_solo`): seat 0's points with every other seat playing
  against it; 3 players: 24 cards, 8 a hand, three-card tricks; 2 players: 8 a
  hand and a stock of 16 whose order is known;
* **full-hand, value known** (``known_value``, off by default) — each full-hand
  deal solved again with its true value as MTD(f)'s first guess, so the solve is
  just the two null-window proofs of that value: the floor of the driver, what
  no better first guess could go below;
* **full-hand, deal outcome** (``outcome``, off by default) — the same full-hand
  deals answered only as Kozel's score reads them: who wins the deal and the
  penalty points (:func:`goat.fast.solver.solve_outcome`: null-window tests at the
  scoring lines, 61 / 60 and the shamok catch, instead of the exact value), with
  the number of null-window tests a deal; each outcome is checked against the
  class of that deal's exact value (a mismatch fails the command, as a trick
  count differing from DDS's does).

Deals are interleaved (one of each contender in turn) so a burst of load on a
shared machine hits all of them. Reported: mean, median, p99 and max solve time,
and for each Kozel row its search nodes and a checksum of its values (so a
change to the solver that must keep both can be checked on the bench's deals).
``options`` (``--option key=value``) plays the Kozel rows under rules options,
e.g. ``trump_on_plain=always``; DDS's deals are bridge deals whatever they say.
The issue's target — our ``full-hand`` mean ≤ DDS's mean — is printed as pass or
miss, never asserted; next to it the engine-on-the-same-deals ratio.

Used by ``goat bench solver`` and ``python -m goat.bench.solver``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table

from goat.cards import Card
from goat.games.kozel import make_rules, new_state
from goat.protocol import GoatError

INSTALL_HINT = ("endplay (Bo Haglund's DDS) is not installed: the DDS column is skipped. "
                "Install the bench extra: pip install -e '.[bench]'  (or: pip install endplay)")
RANKS = "AKQJT987"
DDS = "DDS (endplay)"
OURS_ON_DDS = "ours on DDS's deals"
OURS_POINTS = "ours on DDS's deals, Kozel card points"
KNOWN = "full-hand, value known"
OUTCOME = "full-hand, deal outcome"
DISAGREE = "DISAGREEMENT"


@dataclass
class Timings:
    label: str
    what: str
    seconds: list[float] = field(default_factory=list)
    values: list[int] = field(default_factory=list)
    deals: list[str] = field(default_factory=list)   # the deals solved (DDS's row: for reports)
    tests: list[int] = field(default_factory=list)   # null-window tests a deal (the outcome row)
    mismatches: list[str] = field(default_factory=list)   # outcomes off their exact value's class
    nodes: list[int] = field(default_factory=list)   # search nodes a deal (the Kozel rows)

    def ms(self, q: float) -> float:
        s = sorted(self.seconds)
        if not s:
            return float("nan")
        k = min(len(s) - 1, max(0, round(q * (len(s) - 1))))
        return 1000 * s[k]

    @property
    def mean_ms(self) -> float:
        return 1000 * statistics.fmean(self.seconds) if self.seconds else float("nan")


#: Row labels of individual play (``individual``): the ruleset and the player count.
INDIVIDUAL = {"full-hand, 3 players": ("full-hand", 3), "full-hand, 2 players": ("full-hand", 2)}


def kozel_position(preset: str, rng: random.Random, options: dict[str, Any] | None = None) -> Any:
    """A random deal of ``preset`` (or of an :data:`INDIVIDUAL` row) at its first
    lead (partner exchange made at random), under the rules ``options``. The
    options change no card dealt: the same ``rng`` gives the same deals."""
    preset, players = INDIVIDUAL.get(preset, (preset, None))
    state = new_state(preset, options=options, players=players, single_deal=True)
    state.apply_chance(state.sample_chance(rng))
    while state.phase != "play":
        if state.is_terminal() or state.is_chance_node():  # royal goat at the deal: redeal
            state = new_state(preset, options=options, players=players, single_deal=True)
            state.apply_chance(state.sample_chance(rng))
            continue
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def dds_available() -> bool:
    try:
        import endplay.dds  # noqa: F401
    except ImportError:
        return False
    return True


def dds_deal(rng: random.Random) -> Any:
    """A 32-card bridge-like deal (7–A, 8 a hand), spades trumps, a random leader."""
    from endplay.types import Deal, Denom, Player

    cards = [s + r for s in "SHDC" for r in RANKS]
    rng.shuffle(cards)
    hands = [cards[i * 8:(i + 1) * 8] for i in range(4)]
    pbn = " ".join(".".join("".join(r for r in RANKS if s + r in h) for s in "SHDC") for h in hands)
    deal = Deal("N:" + pbn)
    deal.trump = Denom.spades
    deal.first = rng.choice([Player.north, Player.east, Player.south, Player.west])
    return deal


def plain_deal(deal: Any) -> tuple[list[list[Card]], int, str | None]:
    """An ``endplay`` deal as :func:`goat.fast.solver_plain.solve_plain`'s hands,
    leader (N E S W = seats 0..3, N+S our side 0) and trump suit (``None``: no trumps)."""
    hands = [[Card(c.rank.name[1:], "SHDC"[int(c.suit)]) for c in deal[seat]] for seat in range(4)]
    trump = int(deal.trump)
    return hands, int(deal.first), "SHDC"[trump] if trump < 4 else None


def describe_deal(deal: Any) -> str:
    return f"{deal.to_pbn()} (leader {deal.first.name}, trumps {deal.trump.name})"


def _timed(fn: Callable[[], int], into: Timings, count_nodes: bool = False) -> None:
    t = time.perf_counter()
    v = fn()
    into.seconds.append(time.perf_counter() - t)
    into.values.append(v)
    if count_nodes:
        from goat.fast.solver import nodes_used

        into.nodes.append(nodes_used())


def values_crc(values: list[int]) -> int:
    """A checksum of a row's values in deal order (CRC-32 of their list's text,
    as the solver's notes in ``benchmarks/README.md`` quote them)."""
    return zlib.crc32(str(values).encode())


def check_options(options: dict[str, Any]) -> None:
    """One line for an option the Kozel rows cannot take (unknown, a bad value,
    or one the rulesets refuse)."""
    for preset in ("full-hand", "classic"):
        make_rules(preset, options=options)


def _timed_outcome(state: Any, value: int, into: Timings) -> None:
    """Time :func:`goat.fast.solver.solve_outcome` on ``state`` for team 0 and
    check it against the class of the deal's exact ``value``."""
    from goat.fast.solver_outcome import outcome_of, solve_outcome

    t = time.perf_counter()
    got = solve_outcome(state, 0)
    into.seconds.append(time.perf_counter() - t)
    into.tests.append(got.tests)
    want = outcome_of(state, 0, value)
    if (got.kind, got.penalty) != (want.kind, want.penalty):
        into.mismatches.append(f"{DISAGREE}: outcome {got} but the exact value {value} says {want}, "
                               f"on full-hand deal {len(into.seconds)}")


def check_deals(deals: int) -> None:
    """One line for a deal count that is not a positive number."""
    if deals < 1:
        raise GoatError(f"--deals must be at least 1, not {deals}")


def run(deals: int, seed: int = 0, with_dds: bool | None = None,
        presets: tuple[str, ...] = ("full-hand", "classic"),
        card_points: bool = False, known_value: bool = False,
        individual: bool = False, outcome: bool = False,
        options: dict[str, Any] | None = None) -> tuple[list[Timings], str | None]:
    """Solve ``deals`` deals of each contender; returns the timings and a note
    (the install hint when DDS is skipped). With DDS, our kernel also solves each
    DDS deal counting tricks (and, with ``card_points``, for Kozel card points).
    ``known_value``: each full-hand deal is solved again from its true value.
    ``individual``: also the :data:`INDIVIDUAL` rows (2- and 3-player full-hand).
    ``outcome``: each full-hand deal's outcome too (:data:`OUTCOME`).
    ``options``: rules options of every Kozel deal (e.g. ``{"trump_on_plain": "always"}``)."""
    from goat.fast.solver import solve
    from goat.fast.solver_plain import KOZEL_POINTS, solve_plain

    check_deals(deals)
    check_options(options or {})
    if with_dds is None:
        with_dds = dds_available()
    note = None if with_dds else INSTALL_HINT
    rng = random.Random(seed)
    solve(kozel_position("full-hand", random.Random(-1), options))  # load / compile the kernel
    if individual:
        presets = (*presets, *INDIVIDUAL)
        solve(kozel_position("full-hand, 3 players", random.Random(-1), options))  # and the individual one
    results = [Timings(p, "card points, exact" + (" (stock order known)" if p == "classic" else "")
                       + (", seat 0 against the others" if p in INDIVIDUAL else ""))
               for p in presets]
    dds = Timings(DDS, "tricks, 32-card bridge-like deal, one best card")
    ours = Timings(OURS_ON_DDS, "tricks, the same deals as DDS (solve_plain)")
    points = Timings(OURS_POINTS, "card points A11 T10 K4 Q3 J2, the same deals")
    plain = [ours] + ([points] if card_points else [])
    known = Timings(KNOWN, "card points, the true value as first guess (two proofs)")
    dealt = Timings(OUTCOME, "who wins, the penalty (tests at the scoring lines), the same deals")
    if with_dds:
        from endplay.dds import solve_board
        from endplay.dds.solve import SolveMode
        warm = dds_deal(random.Random(-1))
        solve_board(warm, SolveMode.OptimalOne)
        solve_plain(*plain_deal(warm))
    for _ in range(deals):
        for t in results:
            state = kozel_position(t.label, rng, options)
            _timed(lambda state=state: solve(state, 0), t, count_nodes=True)
            if known_value and t.label == "full-hand":
                _timed(lambda state=state, v=t.values[-1]: solve(state, 0, guess=v), known)
            if outcome and t.label == "full-hand":
                _timed_outcome(state, t.values[-1], dealt)
        if with_dds:
            deal = dds_deal(rng)
            dds.deals.append(describe_deal(deal))
            _timed(lambda deal=deal: max(n for _, n in solve_board(deal, SolveMode.OptimalOne)), dds)
            hands, leader, trump = plain_deal(deal)
            for t, pts in zip(plain, (None, KOZEL_POINTS)):
                _timed(lambda t=t, pts=pts: solve_plain(hands, leader, trump, pts), t)
    extra = ([known] if known_value and "full-hand" in presets else []) + \
        ([dealt] if outcome and "full-hand" in presets else [])
    return results + extra + ([dds, *plain] if with_dds else []), note


def table(results: list[Timings]) -> Table:
    t = Table(title="Double-dummy solves from the first lead (one core)", box=box.SIMPLE_HEAVY)
    for name in ("solver", "deals", "mean ms", "median ms", "p99 ms", "max ms", "solves"):
        t.add_column(name, justify="left" if name in ("solver", "solves") else "right")
    for r in results:
        t.add_row(r.label, str(len(r.seconds)), f"{r.mean_ms:.2f}", f"{r.ms(0.5):.2f}", f"{r.ms(0.99):.2f}",
                  f"{r.ms(1.0):.2f}", r.what)
    return t


def summary_lines(results: list[Timings]) -> list[str]:
    """The issue's target (full-hand vs DDS), the engine-vs-engine ratio on the
    same deals, and whether our trick counts agree with DDS's."""
    by = {r.label: r for r in results}
    ours, dds = by.get("full-hand"), by.get(DDS)
    individual = individual_lines(results)
    outcome = outcome_lines(results)
    if dds is None:
        return ["target full-hand mean ≤ DDS mean: not measured (DDS skipped)", *outcome, *individual]
    lines = []
    if ours is not None:
        ratio = ours.mean_ms / dds.mean_ms
        verdict = "pass" if ours.mean_ms <= dds.mean_ms else "miss"
        lines.append(f"target full-hand mean ≤ DDS mean: {verdict} "
                     f"({ours.mean_ms:.2f} ms vs {dds.mean_ms:.2f} ms, ratio {ratio:.2f}×)")
    lines += outcome
    same = by.get(OURS_ON_DDS)
    if same is not None:
        lines.append(f"engine on the same deals: ours {same.mean_ms:.2f} ms vs DDS {dds.mean_ms:.2f} ms "
                     f"({same.mean_ms / dds.mean_ms:.2f}×)")
        bad = disagreements(results)
        lines.append(f"{DISAGREE}: ours and DDS differ on {len(bad)} of {len(same.values)} deals" if bad
                     else f"tricks agree with DDS on all {len(same.values)} deals")
    points = by.get(OURS_POINTS)
    if points is not None and same is not None:
        lines.append(f"card points on the same deals: ours {points.mean_ms:.2f} ms "
                     f"({points.mean_ms / same.mean_ms:.1f}× our tricks)")
    known = by.get(KNOWN)
    if known is not None:
        lines.append(f"full-hand with the value known in advance: {known.mean_ms:.2f} ms "
                     f"({known.mean_ms / dds.mean_ms:.2f}× DDS): no first guess can beat this")
    return lines + individual


def outcome_lines(results: list[Timings]) -> list[str]:
    """The deal-outcome row next to DDS and to our exact solve of the same deals,
    its null-window tests a deal, and whether it agrees with the exact values."""
    by = {r.label: r for r in results}
    row, dds, exact = by.get(OUTCOME), by.get(DDS), by.get("full-hand")
    if row is None or not row.seconds:
        return []
    line = f"deal outcome (who wins, the penalty): ours {row.mean_ms:.2f} ms"
    line += f" vs DDS {dds.mean_ms:.2f} ms ({row.mean_ms / dds.mean_ms:.2f}×)" if dds else " (DDS skipped)"
    if exact is not None and exact.seconds:
        line += f", {row.mean_ms / exact.mean_ms:.2f}× our exact solve"
    line += f"; {statistics.fmean(row.tests):.2f} null-window tests a deal"
    agree = (f"{DISAGREE}: outcomes differ from the exact value's class on {len(row.mismatches)} "
             f"of {len(row.seconds)} deals" if row.mismatches
             else f"outcomes agree with the exact values' classes on all {len(row.seconds)} deals")
    return [line, agree]


def individual_lines(results: list[Timings]) -> list[str]:
    """The individual-play rows as ratios to the 4-player full-hand row of the same run."""
    by = {r.label: r for r in results}
    four = by.get("full-hand")
    out = []
    for label in INDIVIDUAL:
        r = by.get(label)
        if r is not None and r.seconds and four is not None and four.seconds:
            out.append(f"{label}: mean {r.mean_ms:.2f} ms ({r.mean_ms / four.mean_ms:.2f}× the "
                       f"4-player full-hand), p99 {r.ms(0.99):.2f} ms ({r.ms(0.99) / four.ms(0.99):.2f}×)")
    return out


def disagreements(results: list[Timings]) -> list[str]:
    """One line per deal where our trick count differs from DDS's, or a deal
    outcome from its exact value's class (should be none)."""
    by = {r.label: r for r in results}
    dds, ours = by.get(DDS), by.get(OURS_ON_DDS)
    outcome = by[OUTCOME].mismatches if OUTCOME in by else []
    if dds is None or ours is None:
        return outcome
    names = dds.deals + [f"deal {i + 1}" for i in range(len(dds.deals), len(dds.values))]
    return [f"{DISAGREE}: ours {v} tricks, DDS {n}, on {name}"
            for v, n, name in zip(ours.values, dds.values, names) if v != n] + outcome


def node_lines(results: list[Timings]) -> list[str]:
    """Each Kozel row's search nodes and values' checksum (:func:`values_crc`):
    what a change meant to keep the solver's search as it was must leave equal."""
    return [f"{r.label}: {sum(r.nodes):,} search nodes in {len(r.nodes)} deals, values crc32 "
            f"{values_crc(r.values)}" for r in results if r.nodes]


def report(console: Console, results: list[Timings]) -> bool:
    """Print the summary lines and each Kozel row's nodes and values' checksum,
    disagreements in bold red; ``True`` if all agree."""
    for line in summary_lines(results) + node_lines(results):
        console.print(line, style="bold red" if line.startswith(DISAGREE) else None, markup=False)
    bad = disagreements(results)
    for line in bad:
        console.print(line, style="bold red", markup=False)
    return not bad


def main(argv: list[str] | None = None) -> None:
    from goat.games.options import parse_option_pairs   # the --option text of every goat command

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--card-points", action="store_true",
                        help="also solve DDS's deals for Kozel card points (about doubles the run)")
    parser.add_argument("--known-value", action="store_true",
                        help="also solve each full-hand deal from its true value (the driver's floor)")
    parser.add_argument("--individual", action="store_true",
                        help="also solve 2- and 3-player full-hand deals (individual play)")
    parser.add_argument("--outcome", action=argparse.BooleanOptionalAction, default=True,
                        help="also answer each full-hand deal's outcome (who wins, the penalty); on by default")
    parser.add_argument("--option", "-o", action="append", default=[], metavar="KEY=VALUE",
                        help="rules option of the Kozel deals (repeatable), e.g. trump_on_plain=always")
    args = parser.parse_args(argv)
    results, note = run(args.deals, args.seed, card_points=args.card_points, known_value=args.known_value,
                        individual=args.individual, outcome=args.outcome,
                        options=parse_option_pairs(args.option))
    console = Console()
    if note:
        console.print(note)
    console.print(table(results))
    if not report(console, results):
        raise SystemExit(1)


if __name__ == "__main__":
    main()
