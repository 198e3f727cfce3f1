"""The package's layers: the command line sits on top, and nothing below imports it.

``goat.cli`` is the ``goat`` command (typer, rich's bars, its ``--option`` text,
its exit statuses). The library — tournaments, benches, games, bots, the
server — is used from Python without it, so a module outside ``goat/cli/``
(and ``goat/__main__.py``, which starts the command) that imports it, at the
top or inside a function, turns the arrows of the design around. A module
name in a subprocess's command line (``python -m goat.cli.main``) is text,
not an import, and is fine.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"
PACKAGE = SRC / "goat"
#: What may import the command line: the command itself and ``python -m goat``.
ABOVE = (PACKAGE / "cli", PACKAGE / "__main__.py")
CLI = "goat.cli"


def _module_name(path: Path) -> str:
    """``src/goat/tournament/api.py`` -> ``goat.tournament.api`` (a package's
    ``__init__.py`` -> the package)."""
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_cli(name: str) -> bool:
    return name == CLI or name.startswith(CLI + ".")


def _absolute(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    """The module an ``ImportFrom`` reads from, relative imports resolved."""
    if not node.level:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def cli_imports(source: str, module: str = "goat.example", is_package: bool = False) -> list[tuple[int, str]]:
    """Each import of ``goat.cli`` in ``source`` (the text of ``module``): its line
    and what it imports. ``import goat.cli.x``, ``from goat.cli.x import y``,
    ``from goat import cli``, relative imports that reach ``goat.cli``, and
    ``importlib.import_module("goat.cli...")`` / ``__import__``, wherever they stand."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names if _is_cli(alias.name)]
        elif isinstance(node, ast.ImportFrom):
            origin = _absolute(node, module, is_package)
            if _is_cli(origin):
                found.append((node.lineno, origin))
            else:
                found += [(node.lineno, f"{origin}.{alias.name}") for alias in node.names
                          if _is_cli(f"{origin}.{alias.name}")]
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            called = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            name = node.args[0].value
            if called in ("import_module", "__import__") and isinstance(name, str) and _is_cli(name):
                found.append((node.lineno, name))
    return found


def _below_the_command() -> list[Path]:
    return sorted(path for path in PACKAGE.rglob("*.py")
                  if not any(path == top or top in path.parents for top in ABOVE))


def test_no_module_below_the_command_imports_it() -> None:
    modules = _below_the_command()
    assert len(modules) > 50 and PACKAGE / "tournament" / "api.py" in modules  # the walk did walk
    wrong = [f"{path.relative_to(SRC.parent)}:{line}: imports {name}"
             for path in modules
             for line, name in cli_imports(path.read_text(encoding="utf-8"), _module_name(path),
                                           path.name == "__init__.py")]
    assert not wrong, "the command line is imported from below it:\n" + "\n".join(wrong)


@pytest.mark.parametrize("source, module", [
    ("import goat.cli.options\n", "goat.tournament.api"),
    ("import goat.cli\n", "goat.tournament.api"),
    ("from goat.cli.output import check_writable\n", "goat.tournament.api"),
    ("from goat import cli\n", "goat.tournament.api"),
    ("def play():\n    from goat.cli.progress import progress\n", "goat.tournament.api"),
    ("class A:\n    def f(self):\n        import goat.cli.hangup as h\n", "goat.bench.solver"),
    ("from ..cli.options import parse_option_pairs\n", "goat.tournament.api"),
    ("from .. import cli\n", "goat.bench.solver"),
    ("import importlib\nimportlib.import_module('goat.cli.main')\n", "goat.server.app"),
])
def test_the_walk_sees_every_way_of_importing_the_command(source: str, module: str) -> None:
    assert [line for line, _ in cli_imports(source, module)] == [source.count("\n")]


@pytest.mark.parametrize("source", [
    "subprocess.run([sys.executable, '-m', 'goat.cli.main', 'serve'])\n",   # a command line: text
    "from goat.client import x\nimport goat.clippers\n",                     # a name that merely starts alike
    "from goat.games.options import parse_option_pairs\n",
    "from . import client\n",
])
def test_text_and_lookalikes_are_no_import_of_the_command(source: str) -> None:
    assert cli_imports(source, "goat.server.runner") == []
