"""A mistake in the command line itself (an unknown option or command, a
missing argument, a value of the wrong type) is told in one line on stderr,
as every other user mistake is: ``error: <click's message> (see '<command>
--help')``, exit status 2 — not typer's five-line boxed panel."""

from __future__ import annotations

import pytest
import typer
from typer.testing import CliRunner

import goat
from goat.cli.main import OneLineErrors, app

runner = CliRunner(env={"FORCE_COLOR": None, "COLUMNS": "60"})


@pytest.mark.parametrize("args, message, command", [
    (["play", "--bogus"], "No such option: --bogus", "goat play"),
    (["play", "kozel", "--bog"], "No such option: --bog (Possible options: --bots)", "goat play kozel"),
    (["replay"], "Missing argument 'FILE'", "goat replay"),
    (["random-games", "kozel", "--n", "x"], "Invalid value for '--n'", "goat random-games"),
    (["tournament", "--matches", "two"], "Invalid value for '--matches'", "goat tournament"),
    (["nosuch"], "No such command 'nosuch'", "goat"),
])
def test_command_line_mistake_is_one_line(args: list[str], message: str, command: str) -> None:
    result = runner.invoke(app, args, prog_name="goat")
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"error: {message}")
    assert lines[0].endswith(f"(see '{command} --help')")
    assert "╭" not in result.stderr and "Usage:" not in result.stderr


def test_long_message_is_not_cut_at_the_terminal_width() -> None:
    """The boxed panel wrapped click's message at the frame (60 columns here)."""
    result = runner.invoke(app, ["random-games", "kozel", "--n", "x"], prog_name="goat")
    line = result.stderr.strip()
    assert len(line) > 60 and "\n" not in line
    assert "unable to parse string as an integer" in line


def test_goat_alone_still_prints_its_help() -> None:
    result = runner.invoke(app, [], prog_name="goat")
    assert result.exit_code == 2
    assert "Commands" in result.stdout and "tournament" in result.stdout
    assert "error:" not in result.output


def test_version_option_prints_the_package_version() -> None:
    result = runner.invoke(app, ["--version"], prog_name="goat")
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == f"goat {goat.__version__}"


def test_a_goat_error_raised_by_a_command_is_one_line_through_the_group() -> None:
    """The group itself turns a stray GoatError into ``error: …`` (before, only
    ``main()`` did, so typer's runner saw the exception instead of the line)."""
    from goat.protocol import GoatError

    demo = typer.Typer(cls=OneLineErrors)

    @demo.command()
    def load(name: str) -> None:
        raise GoatError(f"no table called {name!r}")

    @demo.command()
    def other() -> None:
        pass

    result = runner.invoke(demo, ["load", "x"], prog_name="demo")
    assert result.exit_code == 2
    assert result.stderr == "error: no table called 'x'\n"
    assert result.exception is None or isinstance(result.exception, SystemExit)


@pytest.mark.parametrize("args, message", [
    (["replay", "x.json", "--csv", "--json"], "--csv and --json are two output formats: choose one"),
    (["replay", "x.json", "--out", "x.csv"], "--out is where --csv writes: add --csv"),
    (["replay", "-", "-"], "standard input (-) can be read only once"),
    (["replay", "x.json", "--csv", "--out", "{missing}/x.csv"], "cannot write {missing}/x.csv: "),
    (["standings", "x.json", "--game", "chess"], "--game must be one of kozel, spades, yugioh, not 'chess'"),
    (["standings", "x.json", "--out", "x.csv"], "--out is where --csv writes: add --csv"),
    (["standings", "x.json", "--since", "yesterday"], "--since: a date YYYY-MM-DD"),
    (["standings", "x.json", "--since", "2026-12-04", "--until", "2026-12-03"], "--since must be before --until"),
    (["standings", "x.json", "--csv", "--out", "{missing}/x.csv"], "cannot write {missing}/x.csv: "),
])
def test_option_mistakes_of_replay_and_standings_begin_with_error_too(
        tmp_path, args: list[str], message: str) -> None:
    # They were the only mistakes told without "error: " (the README's form for every one).
    from goat.records import record_from_state
    from goat.games.kozel import new_state
    import json

    record = tmp_path / "x.json"
    record.write_text(json.dumps(record_from_state(new_state("classic"))), encoding="utf-8")
    missing = tmp_path / "missing"
    args = [a.replace("x.json", str(record)).replace("{missing}", str(missing)) for a in args]
    result = runner.invoke(app, args, prog_name="goat")
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr.splitlines() == [result.stderr.strip()]
    assert result.stderr.startswith("error: " + message.replace("{missing}", str(missing))), result.stderr


#: Every command that takes ``--seed``; the bench and tournament ones with a second
#: mistake that stops them before any work, should the seed ever pass unchecked.
SEEDED = [
    ["play", "kozel"],
    ["play", "spades"],
    ["play", "yugioh"],
    ["random-games", "kozel", "--n", "1", "--out", "-"],
    ["tournament", "--bots", "random,heuristic", "--matches", "0"],
    ["bench", "engine", "--seconds", "0"],
    ["bench", "sim", "--seconds", "0"],
    ["bench", "bots", "--decisions", "0"],
    ["bench", "solver", "--deals", "0"],
    ["bench", "env", "--seconds", "0"],
    ["bench", "server", "--tables", "0"],
]


@pytest.mark.parametrize("command", SEEDED, ids=lambda c: " ".join(c[:2]))
def test_a_negative_seed_is_refused_by_every_command(command: list[str]) -> None:
    """``random.Random(-7)`` is ``random.Random(7)``: ``goat play kozel --seed -7``
    dealt ``--seed 7``'s game, while ``random-games`` and ``tournament`` (string
    seeds) made negatives games of their own. One rule now: a seed is >= 0."""
    result = runner.invoke(app, [*command, "--seed", "-7"], input="quit\n", prog_name="goat")
    assert result.exit_code == 2, result.output
    # one check, goat.protocol.check_seed: it names the range, which a bench's seeds end (2**64)
    wanted = "from 0 to 2**64 - 1" if command[0] == "bench" else ">= 0"
    assert result.stderr == f"error: --seed must be a whole number {wanted}, not -7\n"
    assert result.stdout == ""


@pytest.mark.parametrize("command", [c for c in SEEDED if c[0] == "bench"], ids=lambda c: " ".join(c[:2]))
def test_a_bench_seed_of_64_bits_or_more_is_refused(command: list[str]) -> None:
    """``goat bench sim``'s compiled simulator takes its seeds as ``uint64``:
    ``--seed 2**64 + 5`` measured the deals of ``--seed 5`` without a word. Every
    bench refuses such a seed; the largest below passes on to the next check."""
    result = runner.invoke(app, [*command, "--seed", str(2**64 + 5)], prog_name="goat")
    assert result.exit_code == 2, result.output
    # the one seed check's wording (goat.protocol.check_seed), as the batch simulator's own
    assert result.stderr == f"error: --seed must be a whole number from 0 to 2**64 - 1, not {2**64 + 5}\n"
    assert result.stdout == ""
    largest = runner.invoke(app, [*command, "--seed", str(2**64 - 1)], prog_name="goat")
    assert largest.exit_code == 2 and "--seed" not in largest.stderr, largest.output


def test_seed_zero_is_still_a_seed() -> None:
    result = runner.invoke(app, ["random-games", "kozel", "--n", "1", "--out", "-", "--seed", "0"], prog_name="goat")
    assert result.exit_code == 0 and "seed 0" in result.stderr


def test_goat_help_names_every_kozel_ruleset() -> None:
    """``goat --help`` named three of Kozel's four presets (no ``full-hand-24``)."""
    from goat.games.kozel import PRESETS

    kozel = app.info.help.split("Kozel (", 1)[1].split(")", 1)[0]
    assert kozel.split(", ") == list(PRESETS)


def _commands(group: object, path: tuple[str, ...] = ()):
    """Every leaf command under ``group`` with its path (``("play", "kozel")``)."""
    subs = getattr(group, "commands", None)
    if subs is None:
        yield path, group
        return
    for name, sub in subs.items():
        yield from _commands(sub, (*path, name))


PLAYER_COMMANDS = ("play", "replay", "standings", "deck", "random-games", "analyze")


@pytest.mark.parametrize("path, command", [
    pytest.param(path, command, id=" ".join(path)) for path, command in _commands(typer.main.get_command(app))
    if path[0] in PLAYER_COMMANDS])
def test_every_optional_setting_says_its_default(path: tuple[str, ...], command: object) -> None:
    """A player reads ``--help`` to know what happens when they leave an option
    out: ``--record`` (nothing written?), ``--option`` (the ruleset's own?),
    ``standings --game`` (every game?), ``--since`` (all time?) said nothing.
    Each option that is neither a flag nor required shows ``[default: …]`` or
    says its default in words."""
    silent = []
    for param in command.params:  # type: ignore[attr-defined]
        if param.required or getattr(param, "is_flag", False) or param.name == "help":
            continue
        shown = param.show_default and param.default not in (None, [], (), "")
        if not shown and "default" not in (getattr(param, "help", None) or "").lower():
            silent.append(param.opts[0])
    assert not silent, f"goat {' '.join(path)}: {silent} do not say their default"
