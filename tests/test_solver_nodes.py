"""``benchmarks/solver_nodes.py``: its counting copy of the solver still fits the
kernel and refuses bad input (no timing assertions). That its counts are the
bench's very nodes the script checks itself on every run (an error otherwise):
a test running it compiled a kernel copy, minutes of CI for a benchmark."""

from __future__ import annotations

import importlib.util
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
