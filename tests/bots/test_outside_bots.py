"""A researcher's own bot: named by an entry point of the group ``goat.bots``, a bot
module (``--bot-module``) or ``goat.bots.register_bot``, it plays wherever the
project's bots do — worker processes included — and every mistake is one line.

Entry points come from a fake distribution made in ``tmp_path`` (a ``*.dist-info``
folder with ``METADATA`` and ``entry_points.txt``, and the bot's module) put on
``sys.path``. The ``bot_registry`` fixture (tests/conftest.py) forgets what a test
registers.
"""

from __future__ import annotations

import importlib
import json
import os
import re
import subprocess
import sys
import types
from pathlib import Path

import pytest
from typer.testing import CliRunner

import goat.bots as bots
from goat.bots import (BotError, bot_factory, bots_for, default_bot, load_bot_module, make_bot, next_bot_action,
                       outside, outside_bots, register_bot, unregister_bot, view_bots)
from goat.cli.main import app
from goat.games.kozel import new_state
from goat.records import read_records

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "examples" / "lowest.py"
runner = CliRunner(env={"FORCE_COLOR": None, "COLUMNS": "150"})

#: The module of the fake distribution: a Kozel bot that plays its first legal action.
BOT_MODULE = '''
from goat.bots import BaseBot
from goat.protocol import Action


class FirstBot(BaseBot):
    name = "first"
    games = ("kozel",)

    def __init__(self, seed=None, fail=False):
        if fail:
            raise ValueError("told to fail")

    def choose(self, view):
        return Action.parse(view["legal_actions"][0])
'''


def distribution(site: Path, entries: dict[str, str], modules: dict[str, str] | None = None,
                 name: str = "goat-test-bots") -> Path:
    """A fake installed distribution ``name`` 1.0 in ``site`` declaring ``entries``
    (``bot name -> "module:Factory"``) in the group ``goat.bots``, with ``modules``."""
    info = site / f"{name.replace('-', '_')}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[goat.bots]\n" + "".join(f"{k} = {v}\n" for k, v in entries.items()))
    for module, source in (modules or {}).items():
        (site / f"{module}.py").write_text(source)
    return site


def install(site: Path) -> None:
    """Put ``site`` on ``sys.path`` and let the registry read the entry points again."""
    sys.path.insert(0, str(site))
    importlib.invalidate_caches()
    outside._discovered = False


def one_line_error(result) -> str:
    """The run's one error line, its last (and no traceback)."""
    assert "Traceback" not in result.output, result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith("error: ")]
    assert errors == lines[-1:], result.stderr
    return errors[0]


def line_of(path: Path, text: str) -> int:
    """The number of the line of ``path`` that holds ``text``."""
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if text in line)


# ------------------------------------------------------------------ entry points
def test_an_entry_point_bot_is_made_by_name_and_listed_for_its_games(tmp_path: Path, bot_registry: None) -> None:
    install(distribution(tmp_path, {"first": "ownbot_first:FirstBot"}, {"ownbot_first": BOT_MODULE}))
    assert bot_factory("random") is not None
    assert "ownbot_first" not in sys.modules   # a name looked up imports only its own entry point
    bot = make_bot("first", 3)
    assert bot.name == "first" and "ownbot_first" in sys.modules
    assert "first" in bots_for("kozel") and "first" in view_bots("kozel")
    assert "first" not in bots_for("spades")   # its games: Kozel only
    assert outside_bots() == {"first": "entry point 'first = ownbot_first:FirstBot' of goat-test-bots 1.0"}
    state = new_state("classic", single_deal=True)
    state.apply_chance(state.sample_chance(__import__("random").Random(1)))
    seat = state.current_player()
    assert next_bot_action(state, [make_bot("first", seat)] * 4) == \
        __import__("goat.protocol", fromlist=["Action"]).Action.parse(state.view(seat)["legal_actions"][0])


def test_an_entry_point_bot_plays_a_tournament_on_two_worker_processes(tmp_path: Path) -> None:
    """The real thing: the ``goat`` command in a new process, its two spawned workers
    finding the entry point themselves (no registration is handed to them)."""
    site = distribution(tmp_path / "site", {"first": "ownbot_first:FirstBot"}, {"ownbot_first": BOT_MODULE})
    out = tmp_path / "games.jsonl"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(site)]), "COLUMNS": "150",
           "NO_COLOR": "1"}
    run = subprocess.run([sys.executable, "-m", "goat", "tournament", "--bots", "first,random", "--matches", "2",
                          "--seed", "5", "--workers", "2", "--out", str(out)],
                         capture_output=True, text=True, env=env, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "2 worker(s)" in run.stderr
    rows = [line.split("│")[1].strip() for line in run.stdout.splitlines() if line.startswith("│")]
    assert rows == ["first", "random"]
    records = read_records(out)
    assert len(records) == 4 and all(r["result"]["match_over"] for r in records)
    assert {seat["bot"] for r in records for seat in r["seats"]} == {"first", "random"}


def test_an_entry_point_that_fails_to_import_is_one_line_naming_it(tmp_path: Path, bot_registry: None) -> None:
    install(distribution(tmp_path, {"first": "ownbot_missing:FirstBot", "ok": "ownbot_ok:FirstBot"},
                         {"ownbot_ok": BOT_MODULE}))
    with pytest.raises(BotError) as caught:
        make_bot("first", 1)
    assert str(caught.value).startswith("entry point 'first = ownbot_missing:FirstBot' of goat-test-bots 1.0 "
                                        "cannot be loaded: ModuleNotFoundError: No module named 'ownbot_missing'")
    assert "first" not in bots_for("kozel") and "ok" in bots_for("kozel")   # the list still works
    result = runner.invoke(app, ["tournament", "--bots", "first,random", "--matches", "1", "--workers", "1"])
    assert result.exit_code == 2
    assert one_line_error(result).startswith("error: bot 'first': entry point 'first = ownbot_missing:FirstBot'")


def test_an_entry_point_naming_a_missing_class_points_nowhere_into_importlib(
        tmp_path: Path, bot_registry: None) -> None:
    """A typo in the class name of an entry point: the line said where importlib's
    ``EntryPoint.load`` raised (a file of the standard library, no help); it now
    ends with the message, the entry point itself naming the typo."""
    install(distribution(tmp_path, {"first": "ownbot_typo:FirstBott"}, {"ownbot_typo": BOT_MODULE}))
    with pytest.raises(BotError) as caught:
        make_bot("first", 1)
    assert str(caught.value) == ("entry point 'first = ownbot_typo:FirstBott' of goat-test-bots 1.0 cannot be "
                                 "loaded: AttributeError: module 'ownbot_typo' has no attribute 'FirstBott'")


def test_an_entry_point_named_like_a_built_in_bot_is_refused_not_obeyed(tmp_path: Path, bot_registry: None) -> None:
    install(distribution(tmp_path, {"heuristic": "ownbot_first:FirstBot"}, {"ownbot_first": BOT_MODULE}))
    with pytest.raises(BotError, match=r"^entry point 'heuristic = ownbot_first:FirstBot' of goat-test-bots 1.0 "
                                       r"takes the name of a built-in bot: rename the entry point$"):
        make_bot("heuristic", 1)
    assert "ownbot_first" not in sys.modules


def test_two_entry_points_with_one_name_are_refused(tmp_path: Path, bot_registry: None) -> None:
    distribution(tmp_path, {"first": "ownbot_first:FirstBot"}, {"ownbot_first": BOT_MODULE}, name="bots-one")
    install(distribution(tmp_path, {"first": "ownbot_other:FirstBot"}, {"ownbot_other": BOT_MODULE},
                         name="bots-two"))
    with pytest.raises(BotError, match=r"^two entry points are named 'first': .* of bots-one 1.0 and "
                                       r".* of bots-two 1.0; uninstall or rename one$|^two entry points .* bots-one"):
        make_bot("first", 1)


def test_a_factory_that_raises_is_one_line_naming_its_entry_point_and_file(tmp_path: Path,
                                                                           bot_registry: None) -> None:
    install(distribution(tmp_path, {"first": "ownbot_first:FirstBot"}, {"ownbot_first": BOT_MODULE}))
    with pytest.raises(BotError) as caught:
        make_bot("first", 1, fail=True)
    message = str(caught.value)
    assert message == (f"entry point 'first = ownbot_first:FirstBot' of goat-test-bots 1.0 failed to start: "
                       f"ValueError: told to fail ({tmp_path / 'ownbot_first.py'}, "
                       f"line {line_of(tmp_path / 'ownbot_first.py', 'told to fail')})")
    with pytest.raises(BotError, match=r"^bot 'first' does not take the settings depth$"):
        make_bot("first", 1, depth=2)
    result = runner.invoke(app, ["tournament", "--bots", "first:fail=true,random", "--matches", "1"])
    assert result.exit_code == 2
    assert one_line_error(result) == f"error: bot 'first:fail=true': {message}"


# ------------------------------------------------------------------ register_bot
class Lowest:
    """A bot without the base class: the factory contract is all it needs."""

    name = "mine"

    def __init__(self, seed=None, depth: int = 1) -> None:
        self.seed, self.depth = seed, depth

    def choose(self, view):
        from goat.protocol import Action

        return Action.parse(sorted(view["legal_actions"])[0])

    def out_of_turn(self, view):
        return None


def test_register_bot_names_a_bot_in_this_process(bot_registry: None) -> None:
    register_bot("Mine", Lowest, games=["kozel", "spades"])   # names are looked up in lower case
    bot = make_bot("mine", 7, depth=3)
    assert (bot.seed, bot.depth) == (7, 3)
    assert "mine" in bots_for("kozel") and "mine" in bots_for("spades") and "mine" not in bots_for("yugioh")
    with pytest.raises(BotError, match=r"^bot 'mine' does not play yugioh \(bots for yugioh: random, greedy, mc\)$"):
        make_bot("mine", 1, game="yugioh")
    assert outside_bots() == {"mine": f"{__name__}.Lowest"}
    register_bot("mine", Lowest, games=["kozel"])   # again: replaces (a notebook cell run twice)
    assert "mine" not in bots_for("spades")
    assert default_bot("kozel", preferred="mine") != "mine"   # a filler is never an outside bot
    unregister_bot("mine")
    assert "mine" not in bots_for("kozel") and outside_bots() == {}


@pytest.mark.parametrize(("call", "message"), [
    (lambda: register_bot("heuristic", Lowest),
     "register_bot('heuristic'): 'heuristic' is a built-in bot; give yours another name"),
    (lambda: register_bot("my:bot", Lowest),
     "register_bot('my:bot'): a bot name is lower-case letters, digits, '_', '.' and '-' "
     "(it is written in specs such as name:key=value)"),
    (lambda: register_bot("mine", 42), "register_bot('mine'): the factory must be callable "
                                       "(a class or a function of a seed), not 42"),
    (lambda: register_bot("mine", Lowest, games=["chess"]),
     "register_bot('mine'): unknown game chess (games: kozel, spades, yugioh)"),
    (lambda: unregister_bot("random"), "unregister_bot('random'): no outside bot has that name"),
])
def test_register_bot_mistakes_are_one_line(call, message: str, bot_registry: None) -> None:
    with pytest.raises(BotError) as caught:
        call()
    assert str(caught.value) == message


def test_a_registered_name_an_entry_point_holds_is_refused(tmp_path: Path, bot_registry: None) -> None:
    install(distribution(tmp_path, {"first": "ownbot_first:FirstBot"}, {"ownbot_first": BOT_MODULE}))
    with pytest.raises(BotError, match=r"^register_bot\('first'\): the name is taken by entry point 'first = "):
        register_bot("first", Lowest)


class Cheater(Lowest):
    """Declares that it sees everything, as ``perfect`` does."""

    sees_everything = True

    def choose_with_state(self, state, view):
        self.saw = state
        return self.choose(view)


def test_an_outside_bot_that_sees_everything_is_treated_as_perfect_is(bot_registry: None) -> None:
    """The tournament's driver hands it the state; nothing that seats bots with people
    (``view_bots``: the server's tables, the RL environments) offers it."""
    register_bot("cheater", Cheater, games=["kozel"])
    assert "cheater" in bots_for("kozel") and "cheater" not in view_bots("kozel")
    state = new_state("classic", single_deal=True)
    state.apply_chance(state.sample_chance(__import__("random").Random(2)))
    bot = make_bot("cheater", 1)
    next_bot_action(state, [bot] * 4)
    assert bot.saw.view(0) == state.view(0)


def test_the_lobby_offers_no_outside_bot(bot_registry: None) -> None:
    from goat.server.tables import table_bots

    register_bot("mine", Lowest)
    assert "mine" in view_bots("kozel") and "mine" not in table_bots("kozel")


def test_a_bot_of_an_interactive_session_is_refused_before_worker_processes_start(
        bot_registry: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """``spawn`` workers cannot import a class defined in a notebook: one line first,
    not an "unknown bot" from every worker."""
    from goat.tournament import TableConfig, parse_bot_list, schedule
    from goat.tournament.runner import TournamentError, run_all

    monkeypatch.setitem(sys.modules, "__main__", types.ModuleType("__main__"))   # no __file__: interactive
    interactive = type("Interactive", (Lowest,), {"__module__": "__main__"})
    register_bot("mine", interactive, games=["kozel"])
    games = schedule(parse_bot_list("mine,random"), TableConfig(), 4, (0, 1, 0, 1), 1, 1)
    with pytest.raises(TournamentError, match=r"^bot 'mine' \(__main__.Interactive\) cannot be sent to worker "
                                              r"processes: it is defined in an interactive session; "):
        run_all(games, workers=2)
    assert len(run_all(games, workers=1)) == 2   # in-process it plays


def test_register_bot_calls_reach_the_worker_processes(tmp_path: Path, bot_registry: None) -> None:
    """A factory registered by a call (not by a bot module or an entry point) is handed
    to the spawned workers by reference, and the results are the one-worker ones."""
    from goat.tournament import TableConfig, parse_bot_list, schedule
    from goat.tournament.runner import run_all

    (tmp_path / "ownbot_called.py").write_text(BOT_MODULE)
    sys.path.insert(0, str(tmp_path))
    register_bot("called", importlib.import_module("ownbot_called").FirstBot)
    games = schedule(parse_bot_list("called,random"), TableConfig(), 4, (0, 1, 0, 1), 2, 9)
    two = run_all(games, workers=2)
    assert [r.record for r in two] == [r.record for r in run_all(games, workers=1)]


# ------------------------------------------------------------------ bot modules
def test_the_docs_example_is_the_example_file() -> None:
    """docs/bots.md shows docs/examples/lowest.py whole (its block runs in
    tests/test_docs_snippets.py; the file is what the documented commands load)."""
    page = (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", page, flags=re.S)
    assert EXAMPLE.read_text(encoding="utf-8") in blocks


def test_a_bot_module_plays_a_tournament_on_two_workers(tmp_path: Path, bot_registry: None) -> None:
    out = tmp_path / "games.jsonl"
    result = runner.invoke(app, ["tournament", "--bot-module", str(EXAMPLE), "--bots",
                                 "lowest,lowest:random_ties=true", "--matches", "1", "--seed", "4",
                                 "--workers", "2", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert [json.loads(line)["seats"][0]["bot"] for line in out.read_text().splitlines()] == \
        ["lowest", "lowest:random_ties=true"]


def test_goat_play_seats_a_bot_of_a_bot_module(bot_registry: None) -> None:
    result = CliRunner().invoke(app, ["play", "kozel", "--bot-module", str(EXAMPLE), "--bots", "lowest",
                                      "--seed", "3"], input="quit\n")
    assert result.exit_code == 0, result.output
    assert "lowest" in result.output and "Bye" in result.output


@pytest.mark.parametrize(("source", "message"), [
    ("from goat.bots import register_bot\nregister_bot('ok', Actoin)\n",
     "NameError: name 'Actoin' is not defined ({file}, line 2)"),
    ("def broken(:\n", "SyntaxError: "),
    ("from goat.bots import register_bot\nregister_bot('random', dict)\n",
     "register_bot('random'): 'random' is a built-in bot; give yours another name"),
])
def test_a_bot_module_that_fails_is_one_line_naming_it(source: str, message: str, tmp_path: Path,
                                                       bot_registry: None) -> None:
    module = tmp_path / "ownbot_failing.py"
    module.write_text(source)
    result = runner.invoke(app, ["tournament", "--bot-module", str(module), "--bots", "random,random",
                                 "--matches", "1"])
    assert result.exit_code == 2
    line = one_line_error(result)
    assert line.startswith(f"error: bot module {str(module)!r}")
    assert message.format(file=module) in line


def test_a_missing_bot_module_is_one_line(tmp_path: Path, bot_registry: None) -> None:
    result = runner.invoke(app, ["play", "kozel", "--bot-module", "nowhere.py"], input="quit\n")
    assert result.exit_code == 2 and one_line_error(result) == (
        f"error: bot module 'nowhere.py': no such file (a relative path is read from the current directory, "
        f"{Path.cwd()})")
    with pytest.raises(BotError, match=r"^bot module 'ownbot_nowhere' cannot be imported: ModuleNotFoundError"):
        load_bot_module("ownbot_nowhere")


def test_a_relative_bot_module_path_from_another_directory_says_where_it_was_looked_for(
        tmp_path: Path, bot_registry: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--bot-module docs/examples/lowest.py`` run from another directory: "no such
    file" alone left the researcher to guess; the line names the directory read."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(BotError) as caught:
        load_bot_module("docs/examples/lowest.py")
    assert str(caught.value) == ("bot module 'docs/examples/lowest.py': no such file (a relative path is read "
                                 f"from the current directory, {tmp_path})")
    with pytest.raises(BotError, match=r"^bot module '/nowhere/lowest.py': no such file$"):
        load_bot_module("/nowhere/lowest.py")


def test_an_outside_bot_that_fails_mid_game_stops_the_run_with_one_line(tmp_path: Path, bot_registry: None) -> None:
    module = tmp_path / "ownbot_crashing.py"
    module.write_text(BOT_MODULE + "\n\nclass Crashing(FirstBot):\n    def choose(self, view):\n"
                                   "        return {}['no such key']\n\n"
                                   "from goat.bots import register_bot\nregister_bot('crashing', Crashing)\n")
    result = runner.invoke(app, ["tournament", "--bot-module", str(module), "--bots", "crashing,random",
                                 "--matches", "1", "--workers", "1", "--seed", "1"])
    assert result.exit_code == 1
    assert one_line_error(result).startswith("error: game 0 (crashing, random, crashing, random): "
                                             f"KeyError: 'no such key' ({module}, line {line_of(module, 'no such key')})")


def test_an_outside_bot_that_fails_mid_game_in_goat_play_is_one_line_and_the_record_is_kept(
        tmp_path: Path, bot_registry: None) -> None:
    """At the terminal too: the researcher's error is one line naming the bot and
    its file and line, exit 1, and the game so far is written to --record."""
    module = tmp_path / "ownbot_crashing_play.py"
    module.write_text(BOT_MODULE + "\n\nclass Crashing(FirstBot):\n    def choose(self, view):\n"
                                   "        return {}['no such key']\n\n"
                                   "from goat.bots import register_bot\nregister_bot('crashing', Crashing)\n")
    record = tmp_path / "game.json"
    result = runner.invoke(app, ["play", "kozel", "--bot-module", str(module), "--bots", "crashing",
                                 "--seat", "3", "--seed", "1", "--record", str(record)], input="quit\n")
    assert result.exit_code == 1
    assert one_line_error(result) == ("error: game stopped: bot crashing failed: KeyError: 'no such key' "
                                      f"({module}, line {line_of(module, 'no such key')})")
    assert read_records(record)[0]["rules"] == "classic"


def test_bots_module_registry_is_one_place() -> None:
    """Outside bots live in the same tables as the project's (no second registry)."""
    assert bots._table("kozel") is bots.BOTS and bots._table("spades") is bots.GAME_BOTS["spades"]


@pytest.mark.parametrize(("body", "message"), [
    ("return view['legal_actions'][0]",
     r"choose\(\) returned '\d play \w+' \(str\), not an Action: return Action.parse\(text\)"),
    ("return Action.parse('9' + view['legal_actions'][0][1:])",
     r"choose\(\) returned an illegal action: \"9 play \w+\": there is no seat 9"),
])
def test_an_outside_bot_answering_no_legal_action_in_goat_play_is_one_line_naming_it_and_the_record_is_kept(
        tmp_path: Path, bot_registry: None, body: str, message: str) -> None:
    """Text instead of an Action, or a move that is not legal: the engine's refusal
    named no bot and exited 2 like a usage mistake, with no record; now it is told as
    a bot that raises is — the bot named, exit 1, the game so far written."""
    module = tmp_path / "ownbot_wrong_answer.py"
    module.write_text(BOT_MODULE + "\n\nclass Wrong(FirstBot):\n    name = 'wrong'\n\n"
                                   f"    def choose(self, view):\n        {body}\n\n"
                                   "from goat.bots import register_bot\nregister_bot('wrong', Wrong)\n")
    record = tmp_path / "game.json"
    result = runner.invoke(app, ["play", "kozel", "--bot-module", str(module), "--bots", "wrong",
                                 "--seat", "3", "--seed", "1", "--record", str(record)], input="quit\n")
    assert result.exit_code == 1
    assert re.match(r"error: game stopped: bot wrong failed: " + message, one_line_error(result))
    assert record.exists()


#: A street bot that declares a molodka on its turn when it can (else plays its
#: first legal card) and, asked whether to claim out of turn (a molodka), answers
#: as the parameter says. A seat is asked out of turn only when its claim ranks
#: before the seat to act's: after a restart, so the tables allow a second molodka
#: (CLAIMING_OPTIONS) and the bot's own molodkas make restarts.
CLAIMING_BOT = BOT_MODULE + """

class Claiming(FirstBot):
    name = "claiming"

    def choose(self, view):
        molodkas = [text for text in view["legal_actions"] if " molodka " in text]
        return Action.parse(molodkas[0]) if molodkas else super().choose(view)

    def out_of_turn(self, view):
        legal = Action.parse(view["legal_actions"][0])
        {body}

from goat.bots import register_bot
register_bot("claiming", Claiming)
"""

#: Wrong claims: in another seat's name (the engine alone would take one that is
#: legal for that seat), as text, the current player's move.
WRONG_CLAIMS = [
    ("return Action((legal.seat + 1) % 4, legal.verb, legal.cards)",
     r'out_of_turn\(\) returned (an illegal action: "\d molodka [^"]+": seat \d|a move of seat \d, not of its own)'),
    ("return view['legal_actions'][0]",
     r"out_of_turn\(\) returned '\d molodka [^']+' \(str\), not an Action: return Action.parse\(text\)"),
]


#: The table options of the claiming bot's games (see CLAIMING_BOT). A seat is
#: asked out of turn only after a restart that puts it before the seat to act, a
#: few times a match at most: the seeds below are matches where that happens.
CLAIMING_OPTIONS = ["--option", "max_molodka_per_trick=2"]


@pytest.mark.parametrize(("body", "message"), WRONG_CLAIMS)
def test_an_outside_bot_claiming_no_legal_molodka_in_goat_play_is_one_line_naming_it_and_the_record_is_kept(
        tmp_path: Path, bot_registry: None, body: str, message: str) -> None:
    """A bot's out-of-turn claim was applied unchecked: a claim in another seat's
    name or as text stopped ``goat play`` with the engine's traceback. It is now
    checked as a turn's answer is: the bot named, exit 1, the game so far kept."""
    module = tmp_path / "ownbot_claiming.py"
    module.write_text(CLAIMING_BOT.format(body=body))
    record = tmp_path / "game.json"
    result = runner.invoke(app, ["play", "kozel", "--rules", "street", *CLAIMING_OPTIONS, "--bot-module", str(module),
                                 "--bots", "claiming", "--seat", "3", "--seed", "11", "--record", str(record)],
                           input="1\n" * 2000)
    assert result.exit_code == 1, result.output[-2000:]
    assert re.match(r"error: game stopped: bot claiming failed: " + message, one_line_error(result))
    assert read_records(record)[0]["rules"] == "street"


def test_an_outside_bot_claiming_no_legal_molodka_in_a_tournament_is_named(tmp_path: Path,
                                                                           bot_registry: None) -> None:
    """In a tournament the engine's refusal of a bot's claim named the game but
    not the bot that made it (two bots share every game)."""
    module = tmp_path / "ownbot_claiming_tournament.py"
    module.write_text(CLAIMING_BOT.format(body=WRONG_CLAIMS[0][0]))
    result = runner.invoke(app, ["tournament", "--rules", "street", *CLAIMING_OPTIONS, "--bot-module", str(module),
                                 "--bots", "claiming,random", "--matches", "1", "--workers", "1", "--seed", "34"])
    assert result.exit_code == 1, result.output[-2000:]
    assert re.match(r"error: game \d+ \(\w+, \w+, \w+, \w+\): bot claiming failed: " + WRONG_CLAIMS[0][1],
                    one_line_error(result))


YUGIOH_TEXT_BOT = """
from goat.bots import BaseBot, register_bot


class TextBot(BaseBot):
    name = "textbot"
    games = ("yugioh",)

    def __init__(self, seed=None):
        pass

    def choose(self, view):
        return view["legal_actions"][-1]

register_bot("textbot", TextBot)
"""


def test_a_duel_bot_answering_text_in_goat_play_is_one_line_naming_it(tmp_path: Path, bot_registry: None) -> None:
    """The duel engine takes a legal action's text (replays do), so a duel bot
    returning ``view["legal_actions"][i]`` was accepted in ``goat play yugioh``,
    while every other driver and game asks for a parsed action: the same
    interface is now checked the same way in every game."""
    module = tmp_path / "ownbot_text_duel.py"
    module.write_text(YUGIOH_TEXT_BOT)
    result = runner.invoke(app, ["play", "yugioh", "--bot-module", str(module), "--vs", "textbot",
                                 "--seed", "1"], input="1\n" * 2000)
    assert result.exit_code == 1, result.output[-2000:]
    assert re.match(r"error: match stopped: bot textbot failed: choose\(\) returned '1 [^']+' \(str\), "
                    r"not a DuelAction: return goat.games.get_game\(view\['game'\]\).parse_action\(text\)",
                    one_line_error(result))


def test_a_setting_of_the_wrong_type_for_an_outside_bot_is_one_line(bot_registry: None) -> None:
    """``lowest:random_ties=maybe`` reached the bot as the text 'maybe' (a spec's
    value that is not JSON stays text), truthy: it quietly meant true. A setting
    annotated bool, int, float or str is checked before the bot is made."""
    module = types.ModuleType("ownbot_typed")
    exec(BOT_MODULE + "\n\nclass Typed(FirstBot):\n"
         "    def __init__(self, seed=None, random_ties: bool = False, depth: 'int' = 1, c: float = 1.0):\n"
         "        pass\n", module.__dict__)
    register_bot("typed", module.Typed)
    for settings, line in [({"random_ties": "maybe"}, "setting random_ties must be true or false, not 'maybe'"),
                           ({"depth": True}, "setting depth must be a whole number, not True"),
                           ({"c": "x"}, "setting c must be a number, not 'x'")]:
        with pytest.raises(BotError) as caught:
            make_bot("typed", 1, **settings)
        assert str(caught.value) == f"bot 'typed': {line}"
    make_bot("typed", 1, random_ties=True, depth=3, c=2)   # right types, an int for a float: accepted
    result = runner.invoke(app, ["tournament", "--bots", "typed:random_ties=maybe,random", "--matches", "1"])
    assert result.exit_code == 2
    assert one_line_error(result) == ("error: bot 'typed:random_ties=maybe': bot 'typed': "
                                      "setting random_ties must be true or false, not 'maybe'")
