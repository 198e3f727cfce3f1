"""Test-wide settings.

In CI (``CI=true``) hypothesis runs derandomized, so a landing is never decided by
the luck of one run; locally it explores new examples every time and keeps failures
in its database.
"""

import copy
import importlib
import os
import subprocess
import sys
import tracemalloc
from collections.abc import Callable, Iterator

import pytest
from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

#: A child's work: import a module whose solver kernel is compiled at import (an
#: explicit numba signature), so that it lands in numba's cache. Each of
#: ``solver_search`` and ``solver_solo`` compiles for about a minute; ``solver_solo``
#: imports ``solver_search``, so its child imports that one with numba's ``njit``
#: ignoring signatures (``solver_search.search`` stays uncompiled there: the other
#: child compiles it) and the two compile side by side.
_COMPILE_AT_IMPORT = """
import importlib, sys
import numba
if sys.argv[1] == "goat.fast.solver_solo":
    eager = numba.njit
    numba.njit = lambda *args, **kw: eager(**kw) if args and not callable(args[0]) else eager(*args, **kw)
    import goat.fast.solver_search
    numba.njit = eager
importlib.import_module(sys.argv[1])
"""


def pytest_configure(config: pytest.Config) -> None:
    """Under ``pytest -n`` (``make test``), the solver kernels that compile at import
    are compiled (or found in numba's cache) once, in two children side by side,
    before the workers start: on a fresh clone (CI) every worker compiled both
    while collecting, one after the other (about two minutes of both cores, each
    worker doing the same work), and every test waited for collection. Best
    effort: a child that fails leaves the workers to compile, and to report why."""
    if hasattr(config, "workerinput") or not config.getoption("numprocesses", default=None):
        return
    children = [subprocess.Popen([sys.executable, "-c", _COMPILE_AT_IMPORT, module],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                for module in ("goat.fast.solver_search", "goat.fast.solver_solo")]
    for child in children:
        child.wait()


@pytest.fixture
def bot_registry() -> Iterator[None]:
    """The bot registry as it was before the test, afterwards: the outside bots
    a test (or a docs snippet) registers, loads from a bot module or finds as an
    entry point are forgotten, with the modules and ``sys.path`` entries that
    brought them, so no other test of the process sees them (``bots_for``
    lists are compared whole)."""
    import goat.bots as bots
    from goat.bots import outside

    tables = bots._tables()
    saved_tables = [dict(table) for table in tables]
    saved = {name: getattr(outside, name) for name in ("REGISTERED", "_pending", "_broken", "_modules", "_discovered")}
    for name, value in saved.items():
        setattr(outside, name, copy.copy(value))
    path, modules = list(sys.path), set(sys.modules)
    try:
        yield
    finally:
        for table, contents in zip(tables, saved_tables):
            table.clear()
            table.update(contents)
        # the bots' own modules: bot module files, and those from folders the test put on sys.path
        added, files = tuple(p for p in sys.path if p not in path), set(outside._modules)
        for name in set(sys.modules) - modules:
            file = str(getattr(sys.modules[name], "__file__", None) or "")
            if file and (file in files or (added and file.startswith(added))):
                del sys.modules[name]
        for name, value in saved.items():
            setattr(outside, name, value)
        sys.path[:] = path
        importlib.invalidate_caches()


@pytest.fixture
def peak_memory() -> Callable[[Callable[[], object]], int]:
    """``peak_memory(work)``: the most memory ``work()`` held at once, in bytes
    (``tracemalloc``: Python's own allocations, not the process's resident size,
    so the figure does not depend on what ran before in the process)."""

    def measure(work: Callable[[], object]) -> int:
        tracemalloc.start()
        try:
            work()
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    return measure
