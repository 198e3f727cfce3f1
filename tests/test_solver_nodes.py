"""``benchmarks/solver_nodes.py``: its counting copy of the solver still fits the
kernel, and it counts the bench's very nodes (no timing assertions)."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "solver_nodes.py"


def load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("solver_nodes", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module   # (its dataclass looks its module up)
    spec.loader.exec_module(module)
    return module


def test_every_counting_hook_finds_its_place_in_the_kernel() -> None:
    nodes = load_script()
    source = (ROOT / "src" / "goat" / "fast" / "solver_search.py").read_text()
    patched = nodes.patched_search(source)
    for _, hook in nodes.PATCHES:
        assert hook in patched
    assert "cycles()" in patched and patched.count("W[NODES] += 1") == source.count("W[NODES] += 1")
    # a kernel whose hook place moved is refused, not counted wrongly
    moved = source.replace("        W[PASSES] += 1\n", "        W[PASSES] = W[PASSES] + 1\n")
    with pytest.raises(SystemExit, match="anchor found 0 times"):
        nodes.patched_search(moved)


def test_a_bad_count_is_one_line() -> None:
    with pytest.raises(SystemExit, match="DEALS must be at least 1, not 0"):
        load_script().main(["0", "--no-dds"])
    with pytest.raises(SystemExit, match="--runs must be at least 1, not 0"):
        load_script().main(["2", "--runs", "0", "--no-dds"])


@pytest.mark.slow
def test_the_counts_are_the_bench_nodes_and_add_up() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    out = subprocess.run([sys.executable, str(SCRIPT), "2", "3", "--no-dds", "--runs", "2"], env=env, cwd=ROOT,
                         capture_output=True, text=True, timeout=900, check=True).stdout
    found = re.search(r"nodes counted by cards left ([\d,]+) "
                      r"\(the kernel's own counter ([\d,]+)\)", out)
    assert found is not None, out
    counted, kernel = found.groups()
    total = int(kernel.replace(",", ""))
    assert counted == kernel and total > 0
    cards, passes, oracle = ([row for row in section.splitlines()[1:] if " | " in row]
                             for section in out.split("\n\n")[1:4])
    assert cards[0].startswith("32 | ") and cards[0].split(" | ")[4] != "0"   # the root is counted
    assert sum(int(row.split(" | ")[4].replace(",", "")) for row in cards) == total
    assert [row.split(" | ")[0] for row in passes][:2] == ["guess", "first"]
    # an oracle for more tricks leaves fewer nodes
    left = [int(row.split(" | ")[1].replace(",", "")) for row in oracle]
    assert len(left) == 4 and left == sorted(left, reverse=True) and left[0] < total
