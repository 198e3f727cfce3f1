"""The docs hold what they say: their snippets run, their commands exist.

Users copy the snippets and commands of ``README.md``, ``docs/*.md`` and
``benchmarks/README.md`` as they are; nothing else runs them, so a renamed
function, a changed signature or a moved option would rot them silently.

* Each ```` ```python ```` block of ``README.md`` and ``docs/*.md`` is executed in
  the order of its page, in one namespace per page (later blocks may use what
  earlier ones defined, as a reader does), in a temporary working directory. A
  block written as an interactive session (``>>>`` lines) is checked as a
  doctest: its printed results must be what the page shows. A block that cannot
  run in a test says so in the page itself, on the line right before its fence
  (any other error fails); it is still compiled, and what it imports from
  ``goat`` must exist::

      <!-- snippet: not run (needs stable-baselines3) -->

* Each distinct ``goat <command>`` in the pages' code exists (its ``--help``
  exits 0, one subprocess a command) and has every option written after it.
* The bots and ``--option`` values of the documented command lines set up a
  table of their game.
* Relative links and their anchors, repository paths and ``goat.<module>.<name>``
  in the pages' code exist.
"""

from __future__ import annotations

import ast
import doctest
import importlib
import importlib.util
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from goat.games.options import parse_options
from goat.games import get_game
from goat.tournament.games import SCORING
from goat.tournament.specs import parse_bot_list

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
NOT_RUN = re.compile(r"<!--\s*snippet:\s*not run\s*\((?P<reason>[^)]+)\)\s*-->")
FENCE = re.compile(r"^```(?P<lang>\S*)\s*$")


@dataclass(frozen=True)
class Block:
    """One fenced block of a page: its language, first line (1-based), text and
    the reason it is not run (``None``: it is run)."""

    lang: str
    line: int
    text: str
    not_run: str | None


def fenced_blocks(path: Path) -> list[Block]:
    """Every fenced block of a Markdown page, with the marker line before it."""
    lines = path.read_text(encoding="utf-8").splitlines()
    blocks: list[Block] = []
    i = 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if opening is None:
            i += 1
            continue
        end = next(j for j in range(i + 1, len(lines)) if lines[j].rstrip() == "```")
        previous = next((lines[j] for j in range(i - 1, -1, -1) if lines[j].strip()), "")
        marker = NOT_RUN.search(previous)
        blocks.append(Block(opening["lang"], i + 2, "\n".join(lines[i + 1:end]) + "\n",
                            marker["reason"] if marker else None))
        i = end + 1
    return blocks


def python_pages() -> list[Path]:
    return [page for page in PAGES if any(b.lang == "python" for b in fenced_blocks(page))]


def run_block(block: Block, name: str, namespace: dict[str, object]) -> None:
    """Run one block in ``namespace``: a session as a doctest, anything else as code."""
    if block.text.lstrip().startswith(">>>"):
        test = doctest.DocTestParser().get_doctest(block.text, namespace, name, name, block.line - 1)
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        out: list[str] = []
        runner.run(test, out=out.append, clear_globs=False)
        assert not runner.failures, "".join(out)
    else:
        exec(compile(block.text, name, "exec"), namespace)  # noqa: S102 - the docs' own code


def block_name(page: Path, block: Block) -> str:
    return f"{page.relative_to(ROOT).as_posix()}:{block.line}"


@pytest.mark.parametrize("page", python_pages(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_python_snippet_runs(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                   bot_registry: None) -> None:
    """(A page's snippets may register a bot, docs/bots.md's ``lowest``: forgotten after the page.)"""
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {"__name__": "__snippet__"}
    for block in fenced_blocks(page):
        if block.lang == "python" and block.not_run is None:
            run_block(block, block_name(page, block), namespace)


NOT_RUN_BLOCKS = [(block_name(page, block), block) for page in PAGES for block in fenced_blocks(page)
                  if block.not_run is not None]


@pytest.mark.parametrize(("name", "block"), NOT_RUN_BLOCKS, ids=[name for name, _ in NOT_RUN_BLOCKS])
def test_a_snippet_marked_not_run_still_names_what_exists(name: str, block: Block) -> None:
    """A block the page marks not run (it needs a library the project does not
    depend on) is still Python, and what it takes from ``goat`` exists: it is
    compiled, and each ``from goat... import ...`` / ``import goat...`` of it is
    imported here. So only the outside library's part goes unchecked."""
    assert block.lang == "python", f"{name}: the not-run marker stands before a {block.lang or 'plain'} block"
    tree = ast.parse(block.text, name)                       # a SyntaxError fails the test
    ours = [node for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))]
    for node in ours:
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "goat":
            module = importlib.import_module(node.module)
            missing = [a.name for a in node.names if not hasattr(module, a.name)
                       and importlib.util.find_spec(f"{node.module}.{a.name}") is None]
            assert not missing, f"{name}: {node.module} has no {', '.join(missing)}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "goat":
                    importlib.import_module(alias.name)


COMMAND_PAGES = [*PAGES, ROOT / "benchmarks" / "README.md"]
# A command line as the docs write it: after an optional "$ " prompt, environment
# assignments and a path to the script, "goat" and up to two lower-case words (the
# command and, for a group such as "bench" or "play", its sub-command; a file name
# or an option ends it).
COMMAND = re.compile(r"^(?:\$ )?(?:[A-Z_]+=\S+ )*(?:\S*/)?goat((?: [a-z][a-z0-9-]*(?![\w./*-])){1,2})")


def code_texts(text: str) -> list[str]:
    """The code a page shows: the lines of its code blocks, and its inline code spans
    (one may wrap onto the next line of a paragraph)."""
    lines, prose, in_fence = [], [], False
    for line in text.splitlines():
        if FENCE.match(line):
            in_fence = not in_fence
        elif in_fence or line.startswith("    "):
            if lines and lines[-1].endswith("\\"):  # a shell line continued
                lines[-1] = lines[-1][:-1] + line.strip()
            else:
                lines.append(line.strip())
        else:
            prose.append(line)
    spans = re.findall(r"`([^`]+)`", "\n".join(prose))
    return lines + [" ".join(span.split()) for span in spans if "\n\n" not in span]


@dataclass
class Command:
    """A ``goat`` command as the docs use it: the pages naming it and the options
    written after it."""

    pages: list[str]
    options: set[str]


def documented_commands() -> dict[str, Command]:
    """Each distinct ``goat <command>`` of the docs, with its pages and options."""
    commands: dict[str, Command] = {}
    for page in COMMAND_PAGES:
        name = page.relative_to(ROOT).as_posix()
        for code in code_texts(page.read_text(encoding="utf-8")):
            match = COMMAND.match(code.strip())
            if match:
                command = commands.setdefault(match[1].strip(), Command([], set()))
                command.pages += [name] if name not in command.pages else []
                rest = code.strip()[match.end():].split(" #")[0]
                command.options |= set(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", rest))
    return commands


COMMANDS = documented_commands()


def test_the_docs_name_the_commands_a_reader_needs() -> None:
    """The extraction finds the commands (an empty list would pass everything below)."""
    assert {"serve", "play kozel", "replay", "tournament", "bench engine", "deck check"} <= set(COMMANDS)
    assert {"--rules", "--seed", "--record"} <= COMMANDS["play kozel"].options


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_documented_goat_command_exists_with_its_options(name: str) -> None:
    """``goat <command> --help`` exits 0 and names every option the docs give it
    (a group's help lists its sub-commands, not their options: only its status counts)."""
    command = COMMANDS[name]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "COLUMNS": "200", "NO_COLOR": "1"}
    run = subprocess.run([sys.executable, "-m", "goat", *name.split(), "--help"], capture_output=True,
                         text=True, env=env, timeout=120)
    assert run.returncode == 0, f"goat {name} (named in {', '.join(command.pages)}): {run.stderr.strip()}"
    if not re.search(r"─ Commands ─", run.stdout):
        missing = sorted(o for o in command.options if not re.search(re.escape(o) + r"(?![\w-])", run.stdout))
        assert not missing, f"goat {name} has no {', '.join(missing)} (named in {', '.join(command.pages)})"


# A repository path in a page's code: from the root (src/, tests/, benchmarks/, docs/, .ci/)
# or inside src (goat/... in lower case: "goat/Kozel-v0" is a Gymnasium id). Made by a run,
# not kept: tests/artifacts/.
REPO_PATH = re.compile(r"(?<![\w./-])((?:(?:src|tests|benchmarks|docs|\.ci)/|goat/(?=[a-z_]))[\w./*-]*[\w*/])")
MADE_BY_RUNS = ("tests/artifacts",)


def heading_anchors(path: Path) -> set[str]:
    """GitHub's anchors of a page's headings: lower case, punctuation dropped, spaces as hyphens."""
    headings = re.findall(r"^#+ (.+)$", path.read_text(encoding="utf-8"), flags=re.M)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in headings}


@pytest.mark.parametrize("page", COMMAND_PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_links_and_paths_of_a_page_exist(page: Path) -> None:
    """Each relative link (and its #anchor) and each repository path in the page's code exists."""
    text = page.read_text(encoding="utf-8")
    broken = []
    for link in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", link):
            continue
        target, _, anchor = link.partition("#")
        path = (page.parent / target).resolve() if target else page
        if not path.exists() or (anchor and path.suffix == ".md" and anchor not in heading_anchors(path)):
            broken.append(f"link {link}")
    for code in code_texts(text):
        for found in REPO_PATH.findall(code):
            path = found.rstrip("/")
            if path.startswith(MADE_BY_RUNS):
                continue
            relative = f"src/{path}" if path.startswith("goat/") else path
            if not list(ROOT.glob(relative)):
                broken.append(f"path {found}")
    assert not broken, f"{page.relative_to(ROOT)}: {broken}"


# Dotted names in the pages' code that are files, not Python: the server's SQLite file.
NOT_PYTHON = {"goat.db", "goat.db.serve",   # file names: the SQLite database, its lock (goat.db.serve-lock)
              "goat.ping"}                  # the ASGI scope extension goat.server.wsping adds


def resolves(dotted: str) -> bool:
    """Whether ``goat.a.b.c`` is a module or an attribute reached from the longest importable prefix."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for name in parts[cut:]:
            if not hasattr(obj, name):
                return False
            obj = getattr(obj, name)
        return True
    return False


@pytest.mark.parametrize("page", COMMAND_PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_python_names_of_a_page_exist(page: Path) -> None:
    """Each ``goat.<module>[.<name>]`` in the page's code imports (a renamed function fails here)."""
    names = {name for code in code_texts(page.read_text(encoding="utf-8"))
             for name in re.findall(r"(?<![\w.])goat(?:\.[A-Za-z_]\w*)+", code)} - NOT_PYTHON
    missing = sorted(name for name in names if not resolves(name))
    assert not missing, f"{page.relative_to(ROOT)} names what does not exist: {missing}"


@dataclass(frozen=True)
class Table:
    """The table a documented command line sets up: its game and what it seats and sets."""

    game: str
    rules: str | None
    players: int | None
    bots: tuple[str, ...]
    options: tuple[str, ...]
    bot_modules: tuple[str, ...] = ()


def documented_tables() -> list[Table]:
    """The tables of every documented command line that seats bots (``--bots``, ``--vs``,
    with the ``--bot-module`` files that name outside bots)
    or sets options (``--option``): the game is its ``--game``, or the one after
    ``play``/``random-games``, else Kozel. Placeholders (``NAME``, ``...``,
    ``max_deals=N``, a usage line's ``[--bots ...]``) are left out."""
    tables = set()
    for page in COMMAND_PAGES:
        for code in code_texts(page.read_text(encoding="utf-8")):
            match = COMMAND.match(code.strip())
            if match is None:
                continue
            words = match[1].split()
            game = re.search(r"--game[ =]([a-z]+)(?!\S)", code)
            table_words = words[0] in ("play", "random-games") and len(words) > 1
            rules = re.search(r"--rules[ =]([a-z0-9-]+)(?!\S)", code)
            players = re.search(r"--players[ =]([0-9])(?!\S)", code)
            tables.add(Table(
                game[1] if game else words[1] if table_words else "kozel",
                rules[1] if rules else None, int(players[1]) if players else None,
                tuple(re.findall(r"--(?:bots|vs)[ =]([a-z][\w:=.,#-]*)(?!\S)", code)),
                tuple(o for o in re.findall(r"--option[ =]([a-z_]+=[a-z0-9_./-]*[a-z0-9])(?!\S)", code)
                      if not o.startswith("key=")),
                tuple(re.findall(r"--bot-module[ =](\S+)", code))))
    return sorted((t for t in tables if t.bots or t.options), key=repr)


TABLES = documented_tables()


@pytest.mark.parametrize("table", TABLES, ids=[" ".join((t.game, *t.bots, *t.options, *t.bot_modules)) for t in TABLES])
def test_every_documented_table_can_be_set_up(table: Table, bot_registry: None) -> None:
    """The bots (name and settings) and the options as the docs write them are ones the
    game takes: ``pimc:world=16`` or ``--option royal_goats=false`` would pass ``--help``
    and fail the run. A ``--bot-module`` is a file of the repository (docs/examples)."""
    from goat.bots import load_bot_module

    for module in table.bot_modules:
        load_bot_module(str(ROOT / module))
    module = get_game(table.game)
    rules = table.rules or SCORING[table.game].default_rules
    options = parse_options(module, rules, table.players, table.options)
    module.new_state(rules=rules, players=table.players, options=options)
    for bots in table.bots:
        for spec in parse_bot_list(bots):
            spec.make(0, table.game)
