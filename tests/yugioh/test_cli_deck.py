"""``goat deck check`` lists every problem of a deck file at once; ``goat deck
builtin`` lists the shipped decks and prints one as a file the checker and
``goat play yugioh --deck`` accept."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from goat.cli.main import app
from goat.games.yugioh import builtin_deck, parse_ydk
from goat.games.yugioh.deck import DeckError, read_ydk

runner = CliRunner(env={"FORCE_COLOR": None})


def check(*args: str):
    return runner.invoke(app, ["deck", "check", *args])


def write(tmp_path: Path, text: str, name: str = "deck.ydk") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_builtin_deck_printed_is_legal_and_the_same_deck(tmp_path: Path) -> None:
    printed = runner.invoke(app, ["deck", "builtin", "goat_control"])
    assert printed.exit_code == 0, printed.output
    assert parse_ydk(printed.output) == builtin_deck("goat_control")
    result = check(str(write(tmp_path, printed.output)))
    assert result.exit_code == 0, result.output
    assert "deck.ydk: legal" in result.output
    assert "40 main (18 monsters, 14 spells, 8 traps), 1 fusion, 15 side" in result.output


def test_every_problem_is_listed_not_only_the_first(tmp_path: Path) -> None:
    path = write(tmp_path, "#main\nSangan\nBlue Eyes\nRaigeki\n12345\nsangan\n!side\nPot of Greed\n")
    result = check(str(path))
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[0].startswith(f"{path}: not legal")
    assert lines[1:] == [
        "  - deck.ydk line 3: unknown card 'Blue Eyes'",
        "  - deck.ydk line 4: Raigeki is Forbidden in the Goat Format",
        "  - deck.ydk line 5: passcodes are not supported, write the card name",
        "  - the main deck has 2 cards (at least 40)",
        "  - the side deck has 1 cards (0 or 15 allowed)",
        "  - 2 copies of Sangan (Limited)",
    ]


def test_the_exit_status_counts_any_illegal_file(tmp_path: Path) -> None:
    good = write(tmp_path, builtin_deck("chaos_warrior").to_ydk(), "good.ydk")
    bad = write(tmp_path, "#main\nSangan\n", "bad.ydk")
    assert check(str(good)).exit_code == 0
    result = check(str(good), str(bad))
    assert result.exit_code == 1
    assert "good.ydk: legal" in result.output and "bad.ydk: not legal" in result.output


def test_options_change_what_is_legal(tmp_path: Path) -> None:
    deck = builtin_deck("goat_control")
    two_sangans = deck.to_ydk().replace("#main\n", "#main\nSangan\n", 1)
    path = write(tmp_path, two_sangans)
    assert check(str(path)).exit_code == 1
    assert check(str(path), "--rules", "official").exit_code == 1  # the same list
    assert check(str(path), "-o", "banlist=none").exit_code == 0
    assert check(str(path), "-o", "banlist=none", "-o", "side_deck_sizes=0").exit_code == 1


@pytest.mark.parametrize("args, message", [
    (["nofile.ydk"], "error: cannot read deck nofile.ydk"),
    (["--rules", "nope", "x.ydk"], "error: unknown Yu-Gi-Oh! ruleset 'nope'"),
    (["-o", "banlist=old", "x.ydk"], "error: option banlist='old' is not allowed (one of 'goat', 'none')"),
    (["-o", "colour=red", "x.ydk"], "error: unknown yugioh option 'colour'"),
])
def test_user_mistakes_are_one_line(args: list[str], message: str) -> None:
    result = check(*args)
    assert result.exit_code == 2
    assert result.output.strip().startswith(message)
    assert "Traceback" not in result.output


def test_an_empty_file_name_is_told_as_empty_and_the_rest_are_checked(tmp_path: Path) -> None:
    """``goat deck check "$DECK"`` with DECK unset read "cannot read deck .: Is a
    directory" (``Path("")`` is the current folder)."""
    good = tmp_path / "good.ydk"
    good.write_text(builtin_deck("goat_control").to_ydk(), encoding="utf-8")
    result = check("", str(good))
    assert result.exit_code == 2
    assert result.stderr == "error: cannot read a deck file with an empty name\n"
    assert f"{good}: legal" in result.stdout


def test_a_binary_file_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "deck.ydk"
    path.write_bytes(b"\xff\xfe\x00\x81garbage")
    result = check(str(path))
    assert result.exit_code == 2
    assert "not a UTF-8 text file" in result.output


def test_builtin_lists_the_shipped_decks_and_refuses_others() -> None:
    listed = runner.invoke(app, ["deck", "builtin"])
    assert listed.exit_code == 0
    assert [line.split(":")[0] for line in listed.output.splitlines()] == ["chaos_warrior", "goat_control"]
    missing = runner.invoke(app, ["deck", "builtin", "../decks/goat_control"])
    assert missing.exit_code == 2
    assert "no built-in deck" in missing.output


def test_parse_stops_at_the_first_problem_read_collects_them() -> None:
    text = "#main\nBlue Eyes\nRaigeki\n"
    with pytest.raises(DeckError, match="line 2: unknown card 'Blue Eyes'"):
        parse_ydk(text)
    deck, problems = read_ydk(text)
    assert deck.main == () and len(problems) == 2


def test_an_unreadable_file_among_several_does_not_hide_the_others(tmp_path: Path) -> None:
    """``goat deck check *.ydk`` stopped at the first file it could not read:
    the decks after it went unchecked, their problems unlisted. Each file is now
    told (the unreadable one in its one line), and the status is 2 for it."""
    good = tmp_path / "good.ydk"
    good.write_text(builtin_deck("goat_control").to_ydk(), encoding="utf-8")
    binary = tmp_path / "binary.ydk"
    binary.write_bytes(b"\xff\xfe\x00\x81garbage")
    bad = write(tmp_path, "#main\nSangann\n", "bad.ydk")
    result = check(str(binary), str(tmp_path / "missing.ydk"), str(bad), str(good))
    assert result.exit_code == 2
    assert f"error: cannot read deck {binary}: not a UTF-8 text file" in result.stderr
    assert f"error: cannot read deck {tmp_path / 'missing.ydk'}: " in result.stderr
    assert f"{bad}: not legal" in result.stdout and "did you mean Sangan?" in result.stdout
    assert f"{good}: legal" in result.stdout
    assert check(str(bad), str(good)).exit_code == 1   # readable but not legal: 1, as before
