"""docs/envs.md and the README's RL example cannot rot: the page names every
observation field and states each ruleset's sizes, and the README example runs."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

from goat.envs.spec import GameSpec
from goat.envs.tokens import TokenGame

from .conftest import CASES, SPADES

ROOT = Path(__file__).resolve().parents[2]
DOC_ROWS = {"classic": "`classic`", "full-hand": "`full-hand` (4 players)",
            "full-hand-3p": "`full-hand` (3 players)", "full-hand-2p": "`full-hand` (2 players)",
            "full-hand-24": "`full-hand-24`", "street": "`street`",
            "street-public": "`street`, `trump_card_place=public`",
            **{label: "`spades` (every preset)" for label in SPADES}}


def layout_of(label: str) -> TokenGame:
    spec = CASES[label].spec(single_deal=False)
    encoder, _ = spec.encoder()
    return TokenGame(spec.new_state(), encoder)


@pytest.mark.parametrize("label", list(CASES))
def test_the_page_names_every_field_and_the_sizes(label: str) -> None:
    text = (ROOT / "docs" / "envs.md").read_text(encoding="utf-8")
    game = layout_of(label)
    missing = [f.name for f in game.layout.fields if f"| `{f.name}` |" not in text]
    assert not missing, f"fields missing from docs/envs.md: {missing}"
    row = next(line for line in text.splitlines() if line.startswith(f"| {DOC_ROWS[label]} |"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert int(cells[4]) == game.layout.size
    assert cells[3].startswith(f"{game.num_actions}:")
    assert int(cells[1]) == len(game.encoder.deck) and int(cells[2]) == game.state.num_players


@pytest.mark.parametrize("label", list(CASES))
def test_the_global_state_section_names_every_field(label: str) -> None:
    from goat.envs import GoatAECEnv

    text = (ROOT / "docs" / "envs.md").read_text(encoding="utf-8")
    section = text.split("## Global state", 1)[1].split("\n## ", 1)[0]
    env = GoatAECEnv(*CASES[label].env_args())
    missing = [f.name for f in env.global_state.layout.fields if f"| `{f.name}` |" not in section]
    assert not missing, f"global state fields missing from docs/envs.md: {missing}"


def test_the_page_names_every_yugioh_field_and_its_sizes() -> None:
    text = (ROOT / "docs" / "envs.md").read_text(encoding="utf-8")
    spec = GameSpec("yugioh", "goat")
    encoder, n = spec.encoder()
    game = TokenGame(spec.new_state(), encoder)
    section = text.split("## Yu-Gi-Oh!", 1)[1]
    missing = [f.name for f in game.layout.fields if f"| `{f.name}` |" not in section]
    assert not missing, f"fields missing from the Yu-Gi-Oh! section: {missing}"
    row = next(line for line in section.splitlines() if line.startswith("| `yugioh`"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert (int(cells[1]), int(cells[2]), int(cells[4])) == (encoder.cards, n, game.layout.size)
    assert cells[3].startswith(f"{game.num_actions}:")


def test_readme_rl_example_runs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## RL environments", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, flags=re.DOTALL)
    assert blocks and ">>>" in blocks[0]
    test = doctest.DocTestParser().get_doctest("\n".join(blocks), {}, "README RL environments", "README.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0
    assert runner.summarize(verbose=False).attempted >= 8


def test_the_page_gives_no_stale_reason_for_a_game_left_out_of_openspiel() -> None:
    """The page once said Yu-Gi-Oh! was not registered because its engine had no
    ``sample_world``, long after the engine got one. Every game registers now
    (that check had nothing left to check): the section names each one."""
    import importlib

    from goat.envs.encoders import ENCODERS
    from goat.games import get_game

    page = (ROOT / "docs" / "envs.md").read_text(encoding="utf-8")
    sentence = re.search(r"`import goat\.envs\.openspiel` registers (.*?)\swith `pyspiel`", page, re.S)
    assert sentence, "the OpenSpiel section says what it registers"
    registers = sentence[1]
    for game, module in ENCODERS.items():
        if getattr(importlib.import_module(module), "OPENSPIEL", True):
            # every game registers now, so the check below never ran: the section names each one
            assert f"`goat_{game}`" in registers, (game, registers)
        elif hasattr(get_game(game), "sample_world"):
            assert "offers no `sample_world`" not in page, game
