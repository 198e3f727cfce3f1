"""``goat play yugioh`` walked as a Goat Format player plays it: each test fails
without its fix."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from goat.cli.main import app
from goat.cli.play_yugioh import YugiohSession, parse_typed, prompt_words
from goat.games.yugioh import new_state
from goat.games.yugioh.prompts import Say

runner = CliRunner(env={"FORCE_COLOR": None})
SRC = Path(__file__).resolve().parent.parent / "src"


def goat(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input)


def test_typed_moves_need_no_capitals() -> None:
    """A player types card names as they say them: "choose FIRST", "summon
    magician of faith" were refused as not legal (the engine's texts are
    case-sensitive)."""
    result = goat("play", "yugioh", "--seed", "3", "--single", "--vs", "random",
                  input="choose FIRST\nsummon   magician of faith\nquit\n")
    out = result.stdout
    assert result.exit_code == 0, result.output
    assert "illegal" not in out
    assert "0 Normal Summons Magician of Faith" in out


def test_the_piles_and_a_cards_text_on_demand() -> None:
    """The board shows only pile counts and the top Graveyard card; "gy" lists
    both Graveyards, banished piles and one's Fusion Deck, "card NAME" says what
    a card does (the table shows both; the terminal had no way to)."""
    result = goat("play", "yugioh", "--seed", "3", "--single", "--vs", "random",
                  input="1\ngy\ncard sakuretsu armor\ncard sheep token\ncard Blue Eyes\nquit\n")
    out = result.stdout
    assert result.exit_code == 0, result.output
    assert "[opponent] Graveyard (0): -" in out and "[you] banished (0): -" in out
    assert "your Fusion Deck (1): Thousand-Eyes Restrict" in out
    assert "Sakuretsu Armor: Normal Trap" in out
    assert "Sheep Token: Token Monster, Level 1 EARTH Beast, ATK 0 / DEF 0" in out
    assert "? unknown card 'Blue Eyes'" in out
    assert "unknown verb" not in out


def _at_side_decking(seed: int):
    state = new_state("goat", seed=seed)
    rng = random.Random(seed)
    while not (state.current_player() == 0 and state.pending().kind == "side"):
        assert not state.is_terminal()
        if state.is_chance_node():
            state.apply_chance(state.sample_chance(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_side_decking_is_two_lists_not_hundreds_of_lines() -> None:
    """Between duels the terminal printed every main/side pair, 300 and more
    numbered lines a swap; now the cards that may go out and come in, how to
    type a swap (in any case), Done, and "list" for the whole list."""
    state = _at_side_decking(1)
    view = state.view(0)
    legal = view["legal_actions"]
    assert len(legal) > 100
    console = Console(record=True, width=200, highlight=False)
    session = YugiohSession(console, state, 0, None, random.Random(0))  # type: ignore[arg-type]
    session.show_choices(view)
    short = console.export_text()
    assert len(short.splitlines()) < 10
    assert "out (main deck): " in short and "in (side deck): " in short and "done" in short
    session.show_choices(view, every=True)
    assert len(console.export_text().splitlines()) > len(legal)
    swap = next(a for a in legal if " swap " in a)
    assert parse_typed(swap.split(" ", 1)[1].lower(), view) == state.legal_actions()[legal.index(swap)]


def test_python_dash_m_goat_runs_the_command() -> None:
    """``python -m goat`` (from a source tree) said "No module named goat.__main__"."""
    run = subprocess.run([sys.executable, "-m", "goat", "play", "yugioh", "--help"], capture_output=True,
                         text=True, env={"PYTHONPATH": str(SRC), "COLUMNS": "120", "PATH": "/usr/bin:/bin"},
                         timeout=120)
    assert run.returncode == 0, run.stderr
    assert "Play a Yu-Gi-Oh! (Goat Format) match" in run.stdout


@pytest.mark.parametrize(("say", "words"), [
    (Say("windowRespond", where=["draw"], events=["summoned"] * 4), "Draw Phase: respond to a summon?"),
    (Say("windowRespond", where=["battle", "battle"], events=["attack"]),
     "Battle Phase · Battle Step: respond to an attack?"),
    (Say("windowActivate", where=["battle", "damage", "calc"]),
     "Battle Phase · Damage Step · damage calculation: activate something?"),
    (Say("yourMove", phase="main2"), "Main Phase 2: your move"),
    (Say("respondChainLink", n=2), "respond to chain link 2?"),
])
def test_a_window_is_said_as_a_player_says_it(say: Say, words: str) -> None:
    """The terminal printed the engine's keys: "battle / damage / calc: activate
    something?", "draw: respond to summoned, summoned, summoned, summoned?" (four
    Sheep Tokens) — the table words them; now the terminal does too."""
    assert prompt_words({"prompt": say.text, "say": say.to_json()}) == words


def test_the_board_names_the_phase_in_words() -> None:
    out = goat("play", "yugioh", "--seed", "3", "--single", "--vs", "random", input="1\nquit\n").stdout
    assert "· player 0 · Main Phase 1\n" in out and "Main Phase 1: your move" in out
    assert "main1" not in out


def test_decks_shows_the_opponents_list_only_when_lists_are_open() -> None:
    """``--option open_decklists=true`` promised both lists, but the terminal showed
    neither; "decks" prints one's own list (and side deck now), the other's only
    when the lists are open."""
    def decks(*options: str) -> str:
        result = goat("play", "yugioh", "--seed", "3", "--single", "--vs", "random", *options,
                      input="1\ndecks\nquit\n")
        assert result.exit_code == 0, result.output
        return " ".join(result.stdout.split())    # as read, whatever the terminal's width wrapped

    shown = decks("-o", "open_decklists=true", "-o", "decks=goat_control/chaos_warrior")
    assert "the opponent's deck list as brought:" in shown and "2x Reinforcement of the Army" in shown
    assert "your side deck now (15): " in shown
    closed = decks("-o", "decks=goat_control/chaos_warrior")
    assert "the opponent's deck list: private" in closed and "Reinforcement of the Army" not in closed
    assert "your deck list as brought:" in closed


def test_going_second_says_who_chose() -> None:
    """A player the coin did not favour saw the opponent's turn 1 begin with no word
    of the toss or the choice."""
    said = {}
    for seed in range(1, 12):
        out = goat("play", "yugioh", "--seed", str(seed), "--single", "--vs", "random", input="1\nquit\n").stdout
        said[seed] = out
        if "Coin toss: the opponent chooses who goes first." in out:
            assert re.search(r"The opponent chooses to go (first|second)\.", out)
            assert "go first or second?" not in out
            break
    else:
        pytest.fail("no seed in 1..11 gave the opponent the choice")
    assert any("Coin toss: you choose who goes first." in out for out in said.values()) or \
        "Coin toss: you choose" in goat("play", "yugioh", "--seed", "3", "--single", input="quit\n").stdout


@pytest.mark.parametrize("typed", ["²", "² pass"])
def test_a_digit_int_does_not_read_is_a_re_prompt_not_a_traceback(typed: str) -> None:
    """"²" is a digit to ``str.isdigit`` but not to ``int``: typed as a choice
    it ended the match in a ValueError traceback."""
    result = goat("play", "yugioh", "--seed", "3", "--single", "--vs", "random", input=f"{typed}\nquit\n")
    assert result.exit_code == 0, result.output
    assert result.exception is None
    assert result.stdout.count("Your choice (number or text, help, quit)> ") == 2
    assert "Bye: match stopped." in result.stdout


@pytest.mark.parametrize("typed", ["x" * 200_000, "summon " + "x" * 200_000, "card " + "x" * 200_000])
def test_a_huge_typed_line_is_told_in_one_short_line(typed: str) -> None:
    """A pasted megabyte was echoed whole in the refusal ("unknown verb 'xxx…'",
    "unknown card 'xxx…'"); it keeps its two ends (goat.records.shortened)."""
    result = goat("play", "yugioh", "--seed", "3", "--single", "--vs", "random", input=f"{typed}\nquit\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    refusal = out[out.index("Your choice (number or text, help, quit)> "):].split("Bye")[0]
    assert len(refusal) < 2000
