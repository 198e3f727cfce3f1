"""``goat.tournament.run_tournament``: the command's tournament in one Python call."""

from __future__ import annotations

import json
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from typer.testing import CliRunner

from goat.bots import BaseBot, outside_bots
from goat.cli.main import app
from goat.games import get_game
from goat.protocol import Action, GoatError, RulesError
from goat.records import read_records
from goat.tournament import Results, TournamentInterrupted, TournamentSetupError, run_tournament
from goat.tournament.api import TournamentPlan, plan_tournament
from goat.tournament.runner import GameResult

runner = CliRunner(env={"FORCE_COLOR": None, "COLUMNS": "200"})
ROOT = Path(__file__).resolve().parents[2]
TINY = {"matches": 2, "seed": 7, "options": {"match_target": 2}}  # short Kozel matches


class FirstLegalBot(BaseBot):
    """A bot of a researcher's own, given to the function as a class."""

    name = "first_legal"
    games = ("kozel",)

    def __init__(self, seed: object = None, last: bool = False) -> None:
        self.last = last

    def choose(self, view: dict) -> Action:
        return Action.parse(view["legal_actions"][-1 if self.last else 0])


def test_a_tiny_run_through_the_function_equals_the_commands(tmp_path: Path) -> None:
    """Same seed: the same records, and the numbers the command's table shows."""
    out = tmp_path / "cli.jsonl"
    cli = runner.invoke(app, ["tournament", "--rules", "classic", "--bots", "heuristic,random", "--matches", "2",
                              "--seed", "7", "--option", "match_target=2", "--workers", "1", "--out", str(out)])
    assert cli.exit_code == 0, cli.output
    results = run_tournament("kozel", "classic", ["heuristic", "random"], **TINY)
    assert isinstance(results, Results) and results.seed == 7
    assert json.loads(json.dumps(results.records)) == read_records(out)
    rows = {line.split("│")[1].strip(): line for line in cli.stdout.splitlines() if line.startswith("│")}
    assert list(rows) == [row.label for row in results.summary] == ["heuristic", "random"]
    for row in results.summary:
        shown = rows[row.label]
        assert f"{row.score.mean * 100:.1f}% ({row.score.low * 100:.1f}–{row.score.high * 100:.1f})" in shown
        assert f"{row.difference.mean:+.3f} ± {row.difference.half_width:.3f}" in shown
        assert f" {row.elo:.0f} (" in shown
    assert f"{len(results.games)} games, {results.deals} deals" in cli.stdout


def test_out_writes_the_records_as_the_command_does(tmp_path: Path) -> None:
    results = run_tournament(bots="heuristic,random", out=tmp_path / "games.jsonl", **TINY)
    assert read_records(tmp_path / "games.jsonl") == json.loads(json.dumps(results.records))
    check = runner.invoke(app, ["replay", str(tmp_path / "games.jsonl"), "--check"])
    assert check.exit_code == 0, check.output


@pytest.mark.parametrize("kwargs, cli_args", [
    ({"bots": "random,nobody"}, ["--bots", "random,nobody"]),
    ({"bots": ["random"]}, ["--bots", "random"]),
    ({"bots": ["random", "random:depth=3"]}, ["--bots", "random,random:depth=3"]),
    ({"rules": "bridge"}, ["--rules", "bridge"]),
    ({"options": {"royal_goat": "maybe"}}, ["--option", "royal_goat=maybe"]),
    ({"options": ["royal_goat"]}, ["--option", "royal_goat"]),
    ({"options": {"no_such_option": 1}}, ["--option", "no_such_option=1"]),
    ({"matches": 0}, ["--matches", "0"]),
    ({"workers": 0}, ["--workers", "0"]),
    ({"backend": "slurm"}, ["--backend", "slurm"]),
    ({"game": "chess"}, ["--game", "chess"]),
    ({"seed": -1}, ["--seed", "-1"]),
    ({"out": "missing/records.jsonl"}, ["--out", "missing/records.jsonl"]),
])
def test_a_mistake_is_the_commands_one_line_without_a_deep_traceback(
        kwargs: dict, cli_args: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    call = {"game": "kozel", "rules": "classic", "bots": "random,random", "matches": 1} | kwargs
    with pytest.raises(TournamentSetupError) as caught:
        run_tournament(**call)
    message = str(caught.value)
    assert isinstance(caught.value, GoatError) and isinstance(caught.value, ValueError)
    assert message and "\n" not in message
    # raised from the function's own module, the causes of deep inside suppressed
    frames = traceback.extract_tb(caught.tb)[1:]
    assert {Path(f.filename).name for f in frames} == {"api.py"}, frames
    assert caught.value.__cause__ is None and caught.value.__suppress_context__
    base = {"--rules": "classic", "--bots": "random,random", "--matches": "1"}
    argv = [x for pair in (base | dict(zip(cli_args[::2], cli_args[1::2]))).items() for x in pair]
    cli = runner.invoke(app, ["tournament", *argv])
    assert cli.exit_code == 2 and cli.stderr == f"error: {message}\n"


@pytest.mark.parametrize("kwargs, message", [
    ({"matches": "3"}, "--matches must be a whole number, not '3'"),
    ({"workers": 1.5}, "--workers must be a whole number, not 1.5"),
    ({"options": "royal_goat=false"}, "options: a dict such as"),
    ({"options": 12}, "options: a dict such as"),
    ({"options": [("royal_goat", False)]}, "options: a dict such as"),
    ({"seed": 1.5}, "--seed must be a whole number >= 0, not 1.5"),
    ({"seed": True}, "--seed must be a whole number >= 0, not True"),
    ({"progress": "yes"}, "progress: True"),
    ({"bots": ["random", 42]}, "--bots: each bot is a name such as 'random'"),
])
def test_mistakes_only_python_can_make_are_one_line_too(kwargs: dict, message: str) -> None:
    with pytest.raises(TournamentSetupError, match="^" + message.replace("(", r"\(").replace(".", r"\.")):
        run_tournament(**{"bots": "random,random", "matches": 1} | kwargs)


def test_a_bot_object_is_refused_with_what_to_pass_instead() -> None:
    with pytest.raises(TournamentSetupError, match="is a bot, not a bot's class.*pass its class"):
        run_tournament(bots=["random", FirstLegalBot()], matches=1)


def test_a_custom_bot_class_plays_with_its_settings_and_leaves_the_registry_as_it_was(bot_registry: None) -> None:
    before = outside_bots()
    results = run_tournament(bots=[FirstLegalBot, "first_legal:last=true", "random"], **TINY)
    assert [row.label for row in results.summary] == ["first_legal", "first_legal:last=true", "random"]
    assert {seat["bot"] for r in results.records for seat in r["seats"]} == {row.label for row in results.summary}
    assert len(results.head_to_head) == 3  # a round robin of three bots at a partnership table
    assert outside_bots() == before
    with pytest.raises(TournamentSetupError):  # a mistake after it was registered leaves no trace either
        run_tournament(bots=[FirstLegalBot, "random"], matches=0)
    assert outside_bots() == before


def test_a_class_named_as_a_bot_of_another_factory_is_refused(bot_registry: None) -> None:
    from goat.bots import RandomBot, register_bot

    register_bot("first_legal", RandomBot)
    with pytest.raises(TournamentSetupError, match="is named 'first_legal', a name given to goat.bots"):
        run_tournament(bots=[FirstLegalBot, "random"], matches=1)
    assert run_tournament(bots=[RandomBot, "first_legal"], **TINY).summary[0].label == "random"  # the project's own


def test_bot_modules_are_the_commands_bot_module(bot_registry: None) -> None:
    results = run_tournament(bots="lowest,random", bot_modules=[str(ROOT / "docs/examples/lowest.py")], **TINY)
    assert [row.label for row in results.summary] == ["lowest", "random"]


def test_ctrl_c_keeps_the_finished_games(monkeypatch: pytest.MonkeyPatch) -> None:
    from goat.tournament.runner import play_game

    def interrupted_run(games: list, *args: object, on_result: object = None, **kwargs: object) -> None:
        on_result(play_game(games[1]))  # type: ignore[operator]
        raise KeyboardInterrupt

    monkeypatch.setattr("goat.tournament.api.run_all", interrupted_run)
    with pytest.raises(TournamentInterrupted) as caught:
        run_tournament(bots="random,random", **TINY)
    assert [r.index for r in caught.value.finished] == [1] and caught.value.seconds is not None
    assert isinstance(caught.value, KeyboardInterrupt)


@pytest.mark.parametrize("game, rules, options", [
    ("kozel", "classic", {"deck": 32}),                 # a number where the rules want one of the texts
    ("kozel", "classic", {"match_target": "2"}),        # text where they want a whole number
    ("kozel", "classic", {"royal_goat": "false"}),      # text where they want true or false
    ("spades", "standard", {"lose_at": "-200"}),
])
def test_an_options_dict_is_checked_by_the_rules_as_they_check_their_own(game: str, rules: str,
                                                                         options: dict) -> None:
    """A dict went out as ``key=value`` text and back through the command line's
    parser, so it took the text's types: ``{"deck": 32}`` became ``"32"`` and
    ``{"royal_goat": "false"}`` ``False``, values the rules themselves refuse."""
    with pytest.raises(RulesError) as own:
        get_game(game).new_state(rules=rules, options=options)
    with pytest.raises(TournamentSetupError) as caught:
        run_tournament(game, rules, "random,random", matches=1, options=options)
    assert str(caught.value) == str(own.value) and "\n" not in str(caught.value)


def test_an_options_dict_reaches_the_rules_as_it_is() -> None:
    typed = {"deck": "36", "hand_size": 9, "royal_goat": True, "match_target": 2}
    plan = plan_tournament("kozel", "classic", "random,random", 1, seed=1, options=typed)
    assert plan.given == typed and plan.config.options == typed
    assert get_game("kozel").new_state(rules="classic", options=plan.config.options).rules == \
        get_game("kozel").new_state(rules="classic", options=typed).rules
    as_text = plan_tournament("kozel", "classic", "random,random", 1, seed=1,
                              options=["deck=36", "hand_size=9", "royal_goat=yes", "match_target=2"])
    assert as_text.config == plan.config   # the command's text, parsed, means the same


def test_a_numpy_seed_is_its_python_int() -> None:
    np = pytest.importorskip("numpy")
    plan = plan_tournament("kozel", "classic", "random,random", 1, seed=np.int64(5))
    assert type(plan.seed) is int and plan.schedule == plan_tournament("kozel", "classic", "random,random", 1,
                                                                       seed=5).schedule


def test_progress_is_a_hook_told_of_the_run_and_of_every_game() -> None:
    """The display was the command's rich bar, imported from ``goat.cli`` by the
    library; a caller now passes a hook of their own (the command passes its bar)."""
    told: list[object] = []

    @contextmanager
    def watch(plan: TournamentPlan, where: str) -> Iterator[Callable[[GameResult], None]]:
        told.append((len(plan.schedule), where))
        yield lambda result: told.append(result.index)
        told.append("done")

    results = run_tournament(bots="random,random", progress=watch, **TINY)
    assert told[0] == (len(results.games), "1 worker(s), backend local") and told[-1] == "done"
    assert sorted(told[1:-1]) == [r.index for r in results.games]


def test_progress_true_shows_the_commands_first_line_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    """``progress=True`` is the command's display (``show_progress``, below the CLI:
    ``goat.progress``), not an error; without it nothing is printed."""
    run_tournament(bots="random,random", **TINY)
    assert capsys.readouterr().err == ""
    results = run_tournament(bots="random,random", progress=True, **TINY)
    err = capsys.readouterr().err
    assert f"{len(results.games)} games" in err and "backend local" in err, err
