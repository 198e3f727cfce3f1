"""Every command on a standard output that cannot write every character.

Windows writes output redirected to a file or a pipe in its ANSI code page
(cp1252: no ♣), an old terminal may be ISO-8859-1, a CI job may set
``PYTHONIOENCODING=ascii``: a suit symbol, a ``·`` or a seat named Анна ended
the command in ``UnicodeEncodeError``. Here each command runs as a user runs it
(a subprocess) in such an encoding: its usual exit status, no traceback, cards
in the records' notation, and JSON that reads back as the same data.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

import goat
from goat.records import dumps_record, parse_records, write_records

DATA = Path(__file__).parent / "data" / "records" / "good"
SRC = str(Path(goat.__file__).resolve().parents[1])
NAMES = ["Анна", "Zoë", "محمد", "Иван"]
#: The environments of a stream that cannot write every character (the C locale
#: is Python's UTF-8 mode, kept as a case a CI runner has).
NARROW = {"ascii": {"PYTHONIOENCODING": "ascii"}, "cp1252": {"PYTHONIOENCODING": "cp1252"},
          "C": {"LC_ALL": "C", "LANG": "C"}}
UTF8 = {"PYTHONIOENCODING": "utf-8"}
#: A hand of cards in the records' notation, as a narrow stream shows it.
NOTATION_HAND = re.compile(r"Your hand:( +[2-9TJQKA][CDHS])+\s*$", re.MULTILINE)


def goat_bytes(args: list[str], env: dict[str, str], input: str = "") -> subprocess.CompletedProcess[bytes]:
    """``goat ARGS`` in a subprocess with ``env`` added, its output as written."""
    environ = {k: v for k, v in os.environ.items() if k not in ("PYTHONIOENCODING", "LC_ALL", "LANG", "PYTHONUTF8")}
    environ.update(env, PYTHONPATH=SRC, COLUMNS="100")
    return subprocess.run([sys.executable, "-m", "goat", *args], input=input.encode(), capture_output=True,
                          env=environ, timeout=120)


def goat_run(args: list[str], env: dict[str, str], input: str = "") -> tuple[int, str, str]:
    """``goat ARGS`` in a subprocess with ``env`` added: status, stdout and stderr, decoded
    as the stream's encoding (cp1252, else UTF-8: the C locale's, and ASCII's superset)."""
    done = goat_bytes(args, env, input)
    encoding = "cp1252" if env.get("PYTHONIOENCODING") == "cp1252" else "utf-8"
    return done.returncode, done.stdout.decode(encoding, "replace"), done.stderr.decode(encoding, "replace")


def no_traceback(status: int, out: str, err: str, expected: int = 0) -> str:
    assert "Traceback" not in err and "Error" not in err, err
    assert status == expected, err
    return out


@cache
def wide(*args: str) -> str:
    """What ``goat ARGS`` writes on a UTF-8 standard output (run once for every encoding)."""
    return no_traceback(*goat_run(list(args), UTF8))


@pytest.fixture(scope="module")
def named_record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A whole Kozel match whose seats are named in Cyrillic, Latin with a diaeresis and Arabic."""
    record = json.loads((DATA / "classic-shamok-match.json").read_text(encoding="utf-8"))
    record["seats"] = [{"name": name} for name in NAMES]
    path = tmp_path_factory.mktemp("named") / "named.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    return path


@pytest.mark.parametrize("encoding", NARROW)
def test_play_every_game_then_quit(encoding: str) -> None:
    env = NARROW[encoding]
    kozel = no_traceback(*goat_run(["play", "kozel", "--seed", "1"], env, "1\nQ♣\nsheet\nhelp\nquit\n"))
    spades = no_traceback(*goat_run(["play", "spades", "--seed", "1"], env, "3\nquit\n"))
    duel = no_traceback(*goat_run(["play", "yugioh", "--seed", "1"], env, "1\n1\nquit\n"))
    assert "Bye" in kozel and "Bye" in spades and "Bye" in duel
    if encoding != "C":
        assert "not a card" in kozel  # a card typed with a symbol standard input cannot read: a bad move, told
        for game in (kozel, spades):
            assert NOTATION_HAND.search(game), game
            assert not set(game) & set("♣♦♥♠")


@pytest.mark.parametrize("encoding", NARROW)
def test_replay_and_standings_of_named_seats(named_record: Path, encoding: str) -> None:
    env, record = NARROW[encoding], named_record
    report = no_traceback(*goat_run(["replay", str(record)], env))
    assert report.startswith("kozel classic") and "trick 1:" in report
    checked = no_traceback(*goat_run(["replay", str(record), "--check"], env))
    assert checked.startswith("ok")
    results = no_traceback(*goat_run(["replay", str(record), "--json"], env))
    assert json.loads(results) == json.loads(record.read_text(encoding="utf-8"))["result"]
    sheet = no_traceback(*goat_run(["replay", str(record), "--csv"], env))
    assert sheet.startswith("record,table,")
    standings = no_traceback(*goat_run(["standings", str(record)], env))
    assert "Standings of 1 match" in standings
    no_traceback(*goat_run(["standings", str(record), "--csv"], env))
    if encoding != "C":  # each name still tells its own player
        zoe = "Zoë" if encoding == "cp1252" else "Zoe"  # cp1252 has ë
        assert {zoe, "\\u0410\\u043d\\u043d\\u0430", "\\u0418\\u0432\\u0430\\u043d"} <= set(standings.split())


@pytest.mark.parametrize("encoding", NARROW)
def test_analyze_text_and_json(named_record: Path, encoding: str) -> None:
    env, record = NARROW[encoding], named_record
    text = no_traceback(*goat_run(["analyze", str(record)], env))
    assert text.startswith("Deal 1 (classic): double-dummy analysis")
    narrow = no_traceback(*goat_run(["analyze", str(record), "--json"], env))
    assert json.loads(narrow) == json.loads(wide("analyze", str(record), "--json"))


@pytest.mark.parametrize("encoding", NARROW)
def test_records_to_stdout_tournament_and_decks(tmp_path: Path, encoding: str) -> None:
    env = NARROW[encoding]
    for args in (("random-games", "kozel", "--n", "2", "--seed", "1", "--out", "-"),
                 ("tournament", "--bots", "random,heuristic", "-n", "1", "--workers", "1", "--seed", "1", "--out", "-")):
        narrow = no_traceback(*goat_run(list(args), env))
        assert parse_records(narrow, jsonl=True) == parse_records(wide(*args), jsonl=True) != []
    table = no_traceback(*goat_run(["tournament", "--bots", "random,heuristic", "-n", "1", "--workers", "1",
                                    "--seed", "1"], env))
    assert "heuristic" in table and "Elo" in table
    listing = no_traceback(*goat_run(["deck", "builtin", "goat_control"], env))
    assert "#main" in listing
    deck = tmp_path / "мой.ydk"
    deck.write_text("#main\nКозёл\n", encoding="utf-8")
    verdict = no_traceback(*goat_run(["deck", "check", str(deck)], env), expected=1)
    assert "not legal" in verdict


def test_lines_click_writes_on_an_ascii_stream_are_ascii(named_record: Path, tmp_path: Path) -> None:
    """Every line goes out through ``typer.echo``, and click, finding a stream whose
    encoding is ASCII, took it for a mistake and wrote UTF-8 beneath it: a mistake
    naming ``é``, a usage error naming a Cyrillic letter typed by mistake, a score
    sheet's names came out as bytes an ASCII reader cannot decode, where the rest of
    the output is plain ASCII (``e``, ``\\u0410``)."""
    ascii_only = NARROW["ascii"]
    unknown_bot = goat_bytes(["play", "kozel", "--bots", "é"], ascii_only)
    assert unknown_bot.returncode == 2
    assert unknown_bot.stderr.decode("ascii").startswith("error: bot 'e': unknown bot 'e' (known: ")
    typo = goat_bytes(["play", "kozel", "--b\u043ets", "x"], ascii_only)   # a Cyrillic o
    assert typo.returncode == 2
    assert typo.stderr.decode("ascii").startswith("error: No such option: --b\\u043ets")
    sheet = goat_bytes(["replay", str(named_record), "--csv"], ascii_only)
    assert sheet.returncode == 0, sheet.stderr
    assert "\\u0410\\u043d\\u043d\\u0430" in sheet.stdout.decode("ascii")
    missing = goat_bytes(["replay", str(tmp_path / "мой.json")], ascii_only)
    assert missing.returncode == 2 and "\\u043c\\u043e\\u0439.json" in missing.stderr.decode("ascii")


def test_records_written_to_a_stream_that_cannot_hold_a_name_are_escaped() -> None:
    """``goat random-games --out -`` and ``goat tournament --out -`` write through
    :func:`write_records`: a name the stream cannot encode was a traceback."""
    record = json.loads((DATA / "classic-full-deal.json").read_text(encoding="utf-8"))
    record["seats"] = [{"name": name} for name in NAMES]
    for encoding in ("ascii", "cp1252", "latin-1"):
        raw = io.BytesIO()
        stream = io.TextIOWrapper(raw, encoding=encoding, newline="\n")
        assert write_records([record, record], stream) == 2
        stream.flush()
        text = raw.getvalue().decode("ascii")  # escaped: ASCII, hence UTF-8, as every record file is
        assert parse_records(text, jsonl=True) == [record, record]
    assert dumps_record(record, ascii_only=True).isascii()
    assert "Анна" in dumps_record(record)  # a file or a UTF-8 stream keeps the names as written


def test_plain_text_keeps_our_symbols_readable_and_names_apart() -> None:
    from goat.charset import plain

    shown = [plain(c) for c in "·→—♣±é"]
    assert shown == [".", "->", "-", "C", "+/-", "e"]
    assert plain("А") != plain("И") and plain("А").isascii()
    assert plain("✓") == "?"
