"""Where the exact full-hand solve spends its nodes and time (benchmarks/README.md,
"Where the nodes are, 2026-12-05").

    PYTHONPATH=src .venv/bin/python benchmarks/solver_nodes.py [DEALS] [SEED] [--no-dds] [--runs N]

Runs ``goat.bench.solver.run`` (the very solves of ``goat bench solver --deals DEALS
--seed SEED``: the same deals, the same solves before each one in the process, so the
same node counts) on a *counting copy* of the package: ``src/goat`` is copied under
the temporary directory and ``goat/fast/solver_search.py`` patched there (the source
in ``src`` is never touched, so the kernel the bench times stays as it is). The copy
counts, per full-hand solve, every search node by the cards left in the hands at the
node (32..1), apart for the recursive :func:`search`, the enumerated third-to-last
trick (:func:`ending3`'s positions after one, two and three cards) and its two-trick
leaves (:func:`two_tricks`, which solve by :func:`ending2`); and the cycles
(``llvm.readcyclecounter``) of every subtree entered by a call, by the cards left at
its root. The node total and the values' crc32 are printed next to the bench's own,
so the counting can be seen not to change the search.

From the inclusive cycles of the subtrees at ``4k`` cards (the trick starts with k
tricks left) follows what a *free exact oracle* for those positions would leave:
the nodes above them and the time outside those subtrees. The time is that of the
counting kernel (the clock reads add about a fifth, most of it deep in the tree, so
the share an oracle would save comes out a little too large), so read it as shares.
The clock is the wall clock: on a shared machine take ``--runs N`` (each run in its
own process, the same nodes; the least cycles of each count kept).
"""

from __future__ import annotations

import argparse
import hashlib
import pickle
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

SRC = Path(__file__).resolve().parent.parent / "src" / "goat"
#: Kinds of counter: nodes of search, of ending3, of two_tricks; cycles of the subtrees of
#: search calls, of ending3's leads, of two_tricks calls.
NCAT = 6
MAX_PASSES = 48   # null-window passes counted apart (the guess search's and the exact ones)
LEVELS = 33       # cards left in the hands: 0..32

HELPERS = '''
from numba.core import cgutils as _cgutils
from numba.extending import intrinsic as _intrinsic
from llvmlite import ir as _ir
from goat.fast.solver_core import PROF, PROF_G, PROF_PASSES


@_intrinsic
def cycles(typingctx):  # type: ignore[no-untyped-def]
    """The CPU's cycle counter (rdtsc on x86)."""
    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        fn = _cgutils.get_or_insert_function(builder.module, _ir.FunctionType(_ir.IntType(64), []),
                                             "llvm.readcyclecounter")
        return builder.call(fn, [])
    return types.int64(), codegen


@njit(cache=True, inline="always")
def cards_held(W: np.ndarray) -> int:
    return popcount(W[HANDS] | W[HANDS + 1] | W[HANDS + 2] | W[HANDS + 3])


@njit(cache=True, inline="always")
def prof_add(W: np.ndarray, cat: int, level: int, x: int) -> None:
    p = min(W[PASSES], PROF_PASSES - 1)
    W[ix(PROF + (p * %d + cat) * %d + level)] += x
''' % (NCAT, LEVELS)

CORE_TAIL = f'''
# ---- counting copy (benchmarks/solver_nodes.py): counters after the scratch
PROF_PASSES = {MAX_PASSES}
PROF_G = W_SIZE                  # passes of the guess search
PROF = W_SIZE + 1                # (pass, category, cards left) counters
W_SIZE = PROF + PROF_PASSES * {NCAT} * {LEVELS}
'''

#: (anchor in solver_search.py, replacement): each anchor must occur exactly once.
PATCHES = [
    ("\n\n@njit(cache=True, inline=\"always\")\ndef last_trick(",
     HELPERS + "\n\n@njit(cache=True, inline=\"always\")\ndef last_trick("),
    # node counts
    ("    W[NODES] += 1\n    if over_budget(W):",
     "    W[NODES] += 1\n    prof_add(W, 0, cards_held(W), 1)\n    if over_budget(W):"),
    ("        W[NODES] += 1\n        W[leader] = h0 & ~(1 << a)\n",
     "        W[NODES] += 1\n        prof_add(W, 1, 11, 1)\n        _tl = cycles()\n"
     "        W[leader] = h0 & ~(1 << a)\n"),
    ("                W[NODES] += 1\n                win1",
     "                W[NODES] += 1\n                prof_add(W, 1, 10, 1)\n                win1"),
    ("                        W[NODES] += 1\n                        win2",
     "                        W[NODES] += 1\n                        prof_add(W, 1, 9, 1)\n"
     "                        win2"),
    ("    W[NODES] += 1\n    if not decisive:\n",
     "    W[NODES] += 1\n    prof_add(W, 2, 8, 1)\n    if not decisive:\n"),
    # cycles of subtrees
    ("        W[leader] = h0\n        if best1 > best0",
     "        prof_add(W, 4, 11, cycles() - _tl)\n        W[leader] = h0\n        if best1 > best0"),
    ("                                v3 = combine(two_tricks(",
     "                                _t2 = cycles()\n"
     "                                v3 = combine(two_tricks("),
    ("                                W[s3] = h3\n                                W[LEADER], W[FIRST]",
     "                                prof_add(W, 5, 8, cycles() - _t2)\n"
     "                                W[s3] = h3\n                                W[LEADER], W[FIRST]"),
    ("            if v == 0:\n                v = combine(search(W, TT, depth + 1,",
     "            if v == 0:\n                _h = cards_held(W)\n                _t = cycles()\n"
     "                v = combine(search(W, TT, depth + 1,"),
    ("                                   child_beta(beta, mine)), mine)\n",
     "                                   child_beta(beta, mine)), mine)\n"
     "                prof_add(W, 3, _h, cycles() - _t)\n"),
    ("            v = search(W, TT, depth + 1, alpha, beta)\n",
     "            _h = cards_held(W)\n            _t = cycles()\n"
     "            v = search(W, TT, depth + 1, alpha, beta)\n"
     "            prof_add(W, 3, _h, cycles() - _t)\n"),
    ("        W[PASSES] += 1\n        g = search(W, TT, 0, b - 1, b)\n",
     "        W[PASSES] += 1\n        if W[HORIZON] > 0:\n            W[PROF_G] = W[PASSES]\n"
     "        _h = cards_held(W)\n        _t = cycles()\n        g = search(W, TT, 0, b - 1, b)\n"
     "        prof_add(W, 3, _h, cycles() - _t)\n"),
]


def patched_search(text: str) -> str:
    """``solver_search.py`` with the counting hooks; fails loudly when an anchor moved."""
    for anchor, new in PATCHES:
        n = text.count(anchor)
        if n != 1:
            raise SystemExit(f"solver_nodes: the kernel changed, anchor found {n} times: {anchor!r}")
        text = text.replace(anchor, new)
    return text


def counting_copy() -> Path:
    """A copy of ``src/goat`` with the counting kernel, kept by the hash of the sources
    (so numba's cache of the copy survives between runs); returns its parent directory."""
    search_src = (SRC / "fast" / "solver_search.py").read_text()
    core_src = (SRC / "fast" / "solver_core.py").read_text()
    patch = HELPERS + CORE_TAIL + repr(PATCHES)
    digest = hashlib.sha1((search_src + core_src + patch).encode()).hexdigest()
    root = Path(tempfile.gettempdir()) / f"goat-solver-nodes-{digest[:12]}"
    if not (root / "goat" / ".done").exists():
        shutil.rmtree(root, ignore_errors=True)
        shutil.copytree(SRC, root / "goat", ignore=shutil.ignore_patterns("__pycache__"))
        (root / "goat" / "fast" / "solver_search.py").write_text(patched_search(search_src))
        (root / "goat" / "fast" / "solver_core.py").write_text(core_src + CORE_TAIL)
        (root / "goat" / ".done").write_text("")
    return root


@dataclass
class Profile:
    """Counters summed over the full-hand solves, by pass class."""

    classes: tuple[str, ...] = ("guess", "first", "middle", "last two")
    counts: dict[str, np.ndarray] = field(default_factory=dict)  # class -> (NCAT, LEVELS)
    passes: list[tuple[int, int]] = field(default_factory=list)  # (guess passes, all passes) a deal

    def add(self, W: np.ndarray, prof: int, guess_passes: int, passes: int) -> None:
        table = W[prof:prof + MAX_PASSES * NCAT * LEVELS].reshape(MAX_PASSES, NCAT, LEVELS)
        self.passes.append((guess_passes, passes))
        for p in range(1, min(passes, MAX_PASSES - 1) + 1):
            if p <= guess_passes:
                cls = "guess"
            elif p == guess_passes + 1:
                cls = "first"
            elif p >= passes - 1:
                cls = "last two"
            else:
                cls = "middle"
            self.counts.setdefault(cls, np.zeros((NCAT, LEVELS), dtype=np.int64))
            self.counts[cls] += table[p]

    def total(self) -> np.ndarray:
        return sum(self.counts.values())  # type: ignore[return-value]


def profile_bench(deals: int, seed: int, with_dds: bool) -> tuple[Profile, dict[str, "Row"]]:
    """Run the bench on the counting copy; the full-hand solves' counters and its results."""
    sys.path.insert(0, str(counting_copy()))
    for name in [m for m in sys.modules if m == "goat" or m.startswith("goat.")]:
        del sys.modules[name]
    import goat.bench.solver as bench
    import goat.fast.solver as solver
    import goat.fast.solver_core as core

    assert "goat-solver-nodes" in bench.__file__, bench.__file__
    prof = Profile()
    timed = bench._timed

    def counting_timed(fn: Any, into: Any, count_nodes: bool = False) -> None:
        timed(fn, into, count_nodes)
        if into.label == "full-hand":
            W = solver._workspace().W
            prof.add(W, core.PROF, int(W[core.PROF_G]), int(W[core.PASSES]))

    bench._timed = counting_timed
    results, _ = bench.run(deals, seed, with_dds=with_dds, outcome=True)
    return prof, {r.label: Row(list(r.nodes), list(r.values), r.mean_ms) for r in results}


@dataclass
class Row:
    """What the report reads of one bench row (plain data: it crosses processes)."""

    nodes: list[int]
    values: list[int]
    mean_ms: float


def min_of_runs(runs: list[tuple[Profile, dict[str, Row]]]) -> tuple[Profile, dict[str, Row]]:
    """Several runs' counters as one: the nodes (the same in every run: checked), the
    least cycles of each (pass, kind, cards left) and the least mean times, since the
    load of a shared machine only ever adds time."""
    prof, rows = runs[0]
    for other, other_rows in runs[1:]:
        if other_rows["full-hand"].nodes != rows["full-hand"].nodes:
            raise SystemExit("solver_nodes: the runs searched different nodes")
        for cls, c in prof.counts.items():
            c[3:] = np.minimum(c[3:], other.counts[cls][3:])
        for label, row in rows.items():
            row.mean_ms = min(row.mean_ms, other_rows[label].mean_ms)
    return prof, rows


def report(prof: Profile, by_label: dict[str, Row], runs: int = 1) -> list[str]:
    """The tables of benchmarks/README.md's "Where the nodes are" section, as text."""
    import zlib

    fh = by_label["full-hand"]
    out = [f"full-hand: {sum(fh.nodes):,} nodes in {len(fh.nodes)} deals, values crc32 "
           f"{zlib.crc32(str(fh.values).encode())}; passes a deal: guess "
           f"{np.mean([g for g, _ in prof.passes]):.2f}, exact "
           f"{np.mean([n - g for g, n in prof.passes]):.2f}"]
    if "DDS (endplay)" in by_label:
        dds = by_label["DDS (endplay)"]
        least = f", least of {runs} runs" if runs > 1 else ""
        out.append(f"counting kernel{least}: full-hand {fh.mean_ms:.2f} ms, DDS {dds.mean_ms:.2f} ms "
                   f"({fh.mean_ms / dds.mean_ms:.2f}x)")
    tot = prof.total()
    nodes = tot[0] + tot[1] + tot[2]
    all_nodes = int(nodes.sum())
    incl = tot[3].astype(float)        # subtrees entered by a call of search, by cards at the root
    incl[11] += tot[4][11]             # ... and ending3's leads
    incl[8] += tot[5][8]               # ... and its two-trick leaves
    kernel = incl[32] if incl[32] else incl.max()
    out.append(f"nodes counted by cards left {all_nodes:,} "
               f"(the kernel's own counter {sum(fh.nodes):,})")
    if all_nodes != sum(fh.nodes):   # the script checks itself: the slow test of it cost CI minutes
        raise SystemExit(f"error: the hooks counted {all_nodes:,} nodes, the kernel {sum(fh.nodes):,}: "
                         "a counting hook is misplaced (the kernel changed?)")
    out.append("")
    out.append("cards | search | ending3 | two_tricks | nodes | % nodes | cum. % "
               "| subtree time % | own time %")
    cum = 0
    for h in range(32, 0, -1):
        n = int(nodes[h])
        if n == 0 and incl[h] == 0:
            continue
        cum += n
        below = next((incl[j] for j in range(h - 1, 0, -1) if incl[j]), 0.0)
        own = f"{100 * (incl[h] - below) / kernel:.1f}" if incl[h] else "(in 11)"
        out.append(f"{h} | {int(tot[0][h]):,} | {int(tot[1][h]):,} | {int(tot[2][h]):,} | {n:,} | "
                   f"{100 * n / all_nodes:.1f} | {100 * cum / all_nodes:.1f} | "
                   f"{100 * incl[h] / kernel:.1f} | {own}")
    starts = range(32, 0, -4)   # trick starts (the ones at 8 cards: with ending2's enumeration)
    start_nodes = sum(int(nodes[h]) for h in starts)
    start_own = sum(incl[h] - next((incl[j] for j in range(h - 1, 0, -1) if incl[j]), 0.0)
                    for h in starts if incl[h])
    out.append(f"trick starts: {100 * start_nodes / all_nodes:.1f}% of the nodes, "
               f"{100 * start_own / kernel:.1f}% of the time (their own work)")
    out.append("")
    out.append("pass | nodes | % nodes | time % | % of its nodes at <= 8 / 12 / 16 / 20 cards")
    for cls in prof.classes:
        c = prof.counts.get(cls)
        if c is None:
            continue
        cn = c[0] + c[1] + c[2]
        ci = c[3][32] if c[3][32] else 0
        shares = " / ".join(f"{100 * cn[:4 * k + 1].sum() / max(cn.sum(), 1):.0f}" for k in (2, 3, 4, 5))
        out.append(f"{cls} | {int(cn.sum()):,} | {100 * cn.sum() / all_nodes:.1f} | "
                   f"{100 * ci / kernel:.1f} | {shares}")
    out.append("")
    out.append("free oracle for k tricks left | nodes left | x today | oracle calls | time left "
               "| ... also inside the trick before: nodes left, time left")
    for k in (2, 3, 4, 5):
        h = 4 * k
        left = int(nodes[h + 1:].sum())
        calls = int(nodes[h])
        inner_left = int(nodes[h + 4:].sum())
        out.append(f"{k} | {left:,} | {left / all_nodes:.3f} | {calls:,} | "
                   f"{1 - incl[h] / kernel:.3f} | {inner_left:,} ({inner_left / all_nodes:.3f}), "
                   f"{1 - incl[h + 3] / kernel:.3f}")
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("deals", nargs="?", type=int, default=40)
    parser.add_argument("seed", nargs="?", type=int, default=0)
    parser.add_argument("--no-dds", action="store_true", help="leave DDS's deals out (no endplay)")
    parser.add_argument("--runs", type=int, default=1,
                        help="runs, each in its own process; the least cycles of each count are kept")
    parser.add_argument("--raw", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.deals < 1:
        raise SystemExit(f"solver_nodes: DEALS must be at least 1, not {args.deals}")
    if args.runs < 1:
        raise SystemExit(f"solver_nodes: --runs must be at least 1, not {args.runs}")
    with_dds = not args.no_dds
    if with_dds:
        try:
            import endplay  # noqa: F401
        except ImportError:
            with_dds = False
            print("endplay missing: DDS's deals left out (the rng then draws other full-hand deals)")
    if args.raw:   # one run of several (--runs): its counters to the parent process
        with open(args.raw, "wb") as f:
            pickle.dump(profile_bench(args.deals, args.seed, with_dds), f)
        return
    if args.runs == 1:
        print("\n".join(report(*profile_bench(args.deals, args.seed, with_dds))))
        return
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        raw = Path(tmp) / "run.pickle"
        for _ in range(args.runs):
            subprocess.run([sys.executable, __file__, str(args.deals), str(args.seed), "--raw", str(raw),
                            *([] if with_dds else ["--no-dds"])], check=True)
            with open(raw, "rb") as f:
                runs.append(pickle.load(f))
    print("\n".join(report(*min_of_runs(runs), runs=args.runs)))


if __name__ == "__main__":
    main()
