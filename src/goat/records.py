"""Game records: read, write, replay and check them (``shared/spec/records.md``).

A record is to Goat what PGN is to chess: one JSON object holding the game, the
ruleset and its option overrides, the seats, the first dealer, every deal's cards
and actions, and the engine's ``result``. This module knows games only through the
protocol (:func:`goat.games.get_game` gives a module with ``new_state`` and
``chance_from_json``): Kozel and Spades records replay through the same code,
each state writing its own game's ``result`` object. The human report's trick
list reads only ``tricks_played`` and ``last_trick`` (every trick game has them);
actions off the table (bids, gives) are listed apart.

Problems come in exactly two kinds, because a caller (``goat replay``) must tell
them apart by exit status:

* :class:`MalformedRecordError` (exit status 2) — the input is not a record at all:
  not JSON (or JSON Python cannot load: nested too deeply, a number of 4300+
  digits), not an object, a missing or mistyped field, an unknown game, ruleset
  or option, a bad option value, a first dealer out of range, or a deal object the
  ruleset cannot have dealt (a card twice, a card the ruleset does not use, hands
  of the wrong size). Deal objects are checked *before* any action is replayed, so
  a malformed record is reported as malformed even when it also breaks the rules.
* :class:`IllegalRecordError` (exit status 1) — a well-formed record that breaks
  the rules: an action the engine refuses, an action written after its deal or the
  match is over, a deal after the match ended, an unfinished deal followed by
  another, and (with ``check_result``) a stored result that differs from the
  replay. An action *string* that cannot be parsed (``"2 plya 8S"``) is illegal at
  its position, not malformed: it is a move the table cannot accept, and naming
  its deal and index is the most useful report. A non-string action (``42``) is a
  shape error and therefore malformed.

Illegal actions are reported exactly as::

    deal 1, action 5 "2 play 8S": seat 2 must follow hearts (holds 9H)

(deal numbers 1-based, action index 0-based, the action text as written, in
JSON quotes so that a stray quote or newline cannot break the line), and a file
holding several records prefixes ``record K: `` (1-based).

A record whose actions stop mid-deal is legal: its result's last deal has
``"ended_by": "unfinished"``.
"""

from __future__ import annotations

import io
import json
import os
import re
import reprlib
import sys
import tempfile
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from itertools import chain
from pathlib import Path
from typing import Any, TextIO

from goat.charset import writes_unicode
from goat.games import get_game, is_glance
from goat.protocol import Action, ActionSyntaxError, GoatError, IllegalActionError

#: Fields every record must carry (``options``, ``players`` and ``result`` may be omitted).
REQUIRED_FIELDS = ("game", "rules", "first_dealer", "deals")


# ====================================================================== errors
class RecordProblem(GoatError):
    """A record that cannot be replayed or checked; one line for people.

    Attributes:
        detail: the problem without the ``record K: `` prefix.
        record: 1-based index of the record in its file, once known (``None``
            for a single-record file, where no prefix is printed).
        outcome: the replay up to the problem (illegal records only), so a
            report can show the play that led to it.
    """

    exit_status = 2

    def __init__(self, detail: str, outcome: "ReplayOutcome | None" = None) -> None:
        detail = shortened(detail.replace("\r", "\\r").replace("\n", "\\n"))  # always one short line
        super().__init__(detail)
        self.detail = detail
        self.record: int | None = None
        self.outcome = outcome

    def in_record(self, index: int | None) -> "RecordProblem":
        """Name the record (1-based) the problem belongs to; returns ``self``."""
        self.record = index
        return self

    def __str__(self) -> str:
        prefix = f"record {self.record}: " if self.record is not None else ""
        return prefix + self.detail


#: A problem line quotes the record's values (the action text, an unknown ruleset, a
#: card), and a stray 100,000-character value made a "one line" nobody reads. A run
#: of more than ``TOKEN_LIMIT`` characters without a space keeps its two ends; a
#: line still longer than ``PROBLEM_LIMIT`` (a long value with spaces) its two ends.
TOKEN_LIMIT, PROBLEM_LIMIT = 120, 600

_LONG_TOKEN = re.compile(r"\S{%d,}" % (TOKEN_LIMIT + 1))


def shortened(detail: str) -> str:
    """``detail`` with the middle of each overlong value cut out: the line still
    says where (deal, action) and why, and shows how the value starts and ends
    (a record's problem, and ``goat play``'s refusal of what a player pasted).

    >>> line = shortened("deal 1, action 0 '0 play " + "x" * 2000 + "': not an action")
    >>> line[:30], line[104:140], line[-30:], len(line)
    ("deal 1, action 0 '0 play xxxxx", 'x … [1,902 characters left out] … xx', "xxxxxxxxxxxxxx': not an action", 172)
    """
    detail = _LONG_TOKEN.sub(lambda m: _ends(m.group(), TOKEN_LIMIT), detail)
    return _ends(detail, PROBLEM_LIMIT)


def _ends(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    head, tail = limit * 2 // 3, limit // 6
    return f"{text[:head]} … [{len(text) - head - tail:,} characters left out] … {text[-tail:]}"


class MalformedRecordError(RecordProblem):
    """The input is not a well-formed record (exit status 2)."""

    exit_status = 2


class IllegalRecordError(RecordProblem):
    """A well-formed record that breaks the rules (exit status 1)."""

    exit_status = 1


class ResultMismatchError(IllegalRecordError):
    """The stored ``result`` differs from the replayed one (exit status 1)."""


# ================================================================ reading
def read_records(source: str | os.PathLike[str]) -> list[Any]:
    """Read the records of a file (``"-"``: standard input).

    A ``.jsonl`` file holds one record per line (blank lines are skipped); any
    other file holds one JSON object. Standard input, and a non-``.jsonl`` file
    that is not one JSON document, are read as JSON lines when every line is.
    Raises :class:`MalformedRecordError` for unreadable or invalid input.
    All the records at once: a program going through a long file (millions of
    records) takes them one at a time from :func:`iter_records` or :class:`RecordFile`.
    """
    return list(iter_records(source))


def iter_records(source: str | os.PathLike[str]) -> Iterator[Any]:
    """The records of a file (``"-"``: standard input) one at a time, read as
    :func:`read_records` reads them, in the memory of one line: a researcher's
    file of millions of records did not fit. Only a JSON document over several
    lines (one record, pretty-printed) is read whole, as it must be to be parsed.

    A problem is raised where it is met, after the records before it; it is the
    one :func:`read_records` raises, with one difference in kind only: a line
    that is not JSON waits for the rest of the file to be read, so that a file
    that is not UTF-8 text is reported as that, as when it was read whole.
    """
    if str(source) == "-":
        yield from _records(_stdin_lines(), None, "<stdin>")
        return
    if str(source) == "":  # an unset shell variable: Path("") is the current folder
        raise MalformedRecordError("cannot read a file with an empty name (- reads standard input)")
    name = str(source)  # the name as given: "./a.json" is not shortened to "a.json"
    try:
        stream = open(source, encoding="utf-8-sig", newline="")
    except OSError as exc:
        raise _unreadable(name, exc) from None
    with stream:
        yield from _records(_decoded(stream, name), True if Path(source).suffix == ".jsonl" else None, name)


class RecordFile:
    """The records of a file for a command that goes through all of them
    (``goat replay``, ``goat standings``): checked whole before the first is used,
    then read one at a time, in the memory of one record whatever the file's length.

    Making one reads the file once, raising the :class:`MalformedRecordError`
    :func:`read_records` would (so a file that is not JSON stops a command before
    it prints anything) and counting the records (the commands number them and show
    progress); iterating reads it again. Standard input, which cannot be read
    twice, is copied to a temporary file on the way. Close it (or use ``with``)
    to remove that copy.
    """

    def __init__(self, source: str | os.PathLike[str]) -> None:
        self.name = str(source)
        self._copy: TextIO | None = None
        first_reading: Iterator[Any]
        if self.name == "-":
            # the lines as read (a byte order mark dropped); "surrogatepass": a text stream put
            # in stdin's place may hold what UTF-8 cannot, and must read back as it was
            self._copy = tempfile.TemporaryFile("w+", encoding="utf-8", errors="surrogatepass", newline="")
            first_reading = _records(_copied(_stdin_lines(), self._copy), None, "<stdin>")
        else:
            first_reading = iter_records(source)
        try:
            #: How many records the file holds.
            self.count = sum(1 for _ in first_reading)
        except BaseException:
            self.close()
            raise

    def __iter__(self) -> Iterator[Any]:
        if self._copy is None:
            return iter_records(self.name)
        self._copy.seek(0)
        return _records(self._copy, None, "<stdin>")

    def numbered(self) -> Iterator[tuple[int | None, Any]]:
        """Each record with the number a problem in it is given (``record K: ``,
        1-based), ``None`` when the file holds only one."""
        for place, record in enumerate(self, start=1):
            yield (place if self.count > 1 else None), record

    def close(self) -> None:
        if self._copy is not None:
            self._copy.close()

    def __enter__(self) -> "RecordFile":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _unreadable(name: str, exc: OSError) -> MalformedRecordError:
    return MalformedRecordError(f"cannot read {name}: {exc.strerror or exc}")


def _decoded(stream: TextIO, name: str) -> Iterator[str]:
    """The lines of a file opened as UTF-8 text (``utf-8-sig``: a Windows editor's
    byte order mark skipped; ``newline=""``), each with its line break; bytes that
    are not UTF-8 are "not UTF-8 text" — the locale's decoding would let JSON report
    garbage obscurely. Lines end at a line feed, CR LF or a carriage return only,
    the only line breaks JSON keeps out of its strings; not at every break
    ``str.splitlines`` knows: :func:`dumps_record` writes U+2028, U+2029 and U+0085
    as they are (no ``ensure_ascii``), so a seat named with one was cut in two."""
    try:
        yield from stream
    except UnicodeDecodeError:
        raise MalformedRecordError(f"{name}: not UTF-8 text") from None
    except OSError as exc:
        raise _unreadable(name, exc) from None


def _stdin_lines() -> Iterator[str]:
    """Standard input's lines, read as a file's are (:func:`_decoded`)."""
    buffer = getattr(sys.stdin, "buffer", None)
    if buffer is None:  # a text stream put in its place (tests, embedding)
        yield from _text_lines(sys.stdin.read().removeprefix("\ufeff"))
        return
    text = io.TextIOWrapper(buffer, encoding="utf-8-sig", newline="")
    try:
        yield from _decoded(text, "<stdin>")
    finally:
        if not text.closed:  # (closed only if someone closed standard input meanwhile)
            text.detach()  # standard input stays open


def _text_lines(text: str) -> Iterator[str]:
    """The lines of ``text``, each with its line break, split as :func:`_decoded` splits a file."""
    return iter(io.StringIO(text, newline=""))


def _copied(lines: Iterable[str], copy: TextIO) -> Iterator[str]:
    for line in lines:
        copy.write(line)
        yield line


def parse_records(text: str, jsonl: bool | None = None, name: str = "<text>") -> list[Any]:
    """Records in ``text``: one JSON document (``jsonl=False``), one per line
    (``jsonl=True``), or either (``None``: one document first, else lines).

    The values are returned as parsed; :func:`replay` checks their shape, so a
    file's K-th record can be named in the message.
    """
    if not text.strip():  # not "Expecting value (line 1 column 1)": say what is wrong
        raise _empty(name)
    if jsonl is not True:
        try:
            return [_loads(text, name)]
        except json.JSONDecodeError as exc:
            if jsonl is False or exc.msg != "Extra data":
                raise MalformedRecordError(f"{name}: not valid JSON: {_json_error(exc)}") from None
            whole_error = exc
        records: list[Any] = []
        try:
            for record in _line_records(_text_lines(text), name):
                records.append(record)
        except _BadLine:
            if records:  # JSON lines with one bad line: name it, not the "extra data" after line 1
                raise
            raise MalformedRecordError(f"{name}: not valid JSON: {_json_error(whole_error)}") from None
        return records
    return list(_line_records(_text_lines(text), name))


def _records(lines: Iterable[str], jsonl: bool | None, name: str) -> Iterator[Any]:
    """The records of ``lines`` (each with its line break) as :func:`parse_records`
    finds them in the text they make, one at a time. Either form (``jsonl=None``)
    is decided by the first two lines that are not blank: JSON lines when the first
    is a JSON value by itself and a second follows; otherwise the text is one
    document (a record over several lines, or one line), read whole and parsed as one."""
    numbered: Iterator[tuple[int, str]] = enumerate(lines, start=1)
    if jsonl is None:
        head = _through_next_record(numbered)
        try:
            one_value = _is_json("".join(line for _, line in head), name)
        except MalformedRecordError:
            _read_to_end(numbered)
            raise
        if not one_value:
            yield from parse_records("".join(line for _, line in chain(head, numbered)), None, name)
            return
        after = _through_next_record(numbered)
        if not (after and after[-1][1].strip()):
            yield from parse_records("".join(line for _, line in chain(head, after)), None, name)
            return
        numbered = chain(head, after, numbered)
    yield from _line_records((line for _, line in numbered), name)


def _through_next_record(numbered: Iterator[tuple[int, str]]) -> list[tuple[int, str]]:
    """The lines up to and with the next one that is not blank (all that are left if none is)."""
    taken = []
    for number, line in numbered:
        taken.append((number, line))
        if line.strip():
            break
    return taken


def _is_json(text: str, name: str) -> bool:
    """Whether ``text`` is one JSON value; JSON Python cannot load is its
    :class:`MalformedRecordError` (named ``name``: met first when the whole text is parsed)."""
    try:
        _json_value(text, name)
    except json.JSONDecodeError:
        return False
    return True


def _empty(name: str) -> MalformedRecordError:
    return MalformedRecordError(f"{name}: empty, no record in it")


class _BadLine(MalformedRecordError):
    """A line of JSON lines that is not JSON."""


def _line_records(lines: Iterable[str], name: str) -> Iterator[Any]:
    """One record a line (blank lines skipped), lines numbered from 1."""
    lines = iter(lines)
    found = False
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"{name} line {number}"
        try:
            record = _loads(line.rstrip("\r\n"), where)
        except json.JSONDecodeError as exc:
            problem: MalformedRecordError = _BadLine(f"{where}: not valid JSON: {_json_error(exc)}")
        except MalformedRecordError as exc:
            problem = exc
        else:
            found = True
            yield record
            continue
        _read_to_end(lines)
        raise problem
    if not found:
        raise _empty(name)


def _read_to_end(lines: Iterator[object]) -> None:
    """Read the rest of the input before a line's problem is raised: a file that
    is not UTF-8 text is that first, as when files were read whole."""
    for _ in lines:
        pass


def _loads(text: str, name: str) -> Any:
    """``json.loads``, with the three ways valid JSON still fails to load — nesting
    deeper than Python's recursion limit, a number of more than 4300 digits, a
    ``\\ud800`` escape that is half a character — made one-line
    :class:`MalformedRecordError` (they were tracebacks: the first two here, the
    third when ``goat replay`` printed the seat name holding it).
    Syntax errors stay :class:`json.JSONDecodeError` for the caller to word."""
    value = _json_value(text, name)
    if _SURROGATE_ESCAPE.search(text):  # rare: only then look whether one is unpaired
        _check_text(value, name)
    return value


def _json_value(text: str, name: str) -> Any:
    """:func:`_loads` without the look for half characters."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise
    except RecursionError:
        raise MalformedRecordError(f"{name}: not a record: JSON nested too deeply") from None
    except ValueError as exc:  # int("9" * 5000): Python's limit on digits
        raise MalformedRecordError(f"{name}: not a record: {exc}".split(";")[0]) from None


#: A JSON escape of a UTF-16 surrogate: a pair of them is one character, one alone
#: is none, and no UTF-8 text (the contract's) can hold it.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _check_text(value: Any, name: str) -> None:
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError as exc:
        half = f"\\u{ord(exc.object[exc.start]):04x}"
        raise MalformedRecordError(f"{name}: not UTF-8 text: the escape {half} is half a character "
                                   "(a lone surrogate)") from None


def _json_error(exc: json.JSONDecodeError) -> str:
    return f"{exc.msg} (line {exc.lineno} column {exc.colno})"


# ================================================================ writing
def record_from_state(state: Any) -> dict[str, Any]:
    """The record of a game so far: what :func:`replay` turns back into ``state``.

    ``options`` holds only the options that differ from the ruleset preset (for
    the same player count), so records stay short and survive new options.
    """
    game = get_game(state.game_name)
    if hasattr(game, "record_from_state"):  # games with their own record shape (yugioh)
        return game.record_from_state(state)
    preset = game.new_state(rules=state.rules.name, players=state.num_players)
    mine, base = state.rules.options(), preset.rules.options()
    options = {k: v for k, v in mine.items() if k != "players" and base.get(k) != v}
    return {
        "game": state.game_name,
        "rules": state.rules.name,
        "options": options,
        "players": state.num_players,
        "first_dealer": state.first_dealer,
        "deals": state.deal_log(),
        "result": state.result(),
    }


def dumps_record(record: dict[str, Any], ascii_only: bool = False) -> str:
    """One record as one line of compact JSON (no trailing newline); a value
    JSON cannot hold (a numpy integer, a set) is a one-line :class:`MalformedRecordError`.
    Text is written as it is (``"Анна"``), or with ``ascii_only`` escaped
    (``"\\u0410..."``): the same record for a stream that cannot write every character."""
    try:
        text = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise MalformedRecordError(f"a record holds JSON values only: {exc}") from None
    if not text.isascii():  # a lone surrogate: no UTF-8 file can hold it (the write was a traceback)
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise MalformedRecordError(f"a record is UTF-8 text: {ord(exc.object[exc.start]):#x} is half a "
                                       "character (a lone surrogate)") from None
        if ascii_only:
            text = json.dumps(record, separators=(",", ":"))
    return text


def write_records(records: Iterable[dict[str, Any]], dest: str | os.PathLike[str] | TextIO) -> int:
    """Write records one per line (JSON lines); returns how many.

    ``dest`` is a path, ``"-"`` (standard output) or an open text stream. A
    single record written this way is also a valid ``.json`` record file, and
    a single record may be passed as itself (a dict is not iterated: that wrote
    its keys, one a line, as if they were records). A stream that does not write
    every character (standard output on Windows' cp1252, ``PYTHONIOENCODING=ascii``)
    gets what is not ASCII escaped, so its JSON reads back the same.
    """
    if isinstance(records, Mapping):
        records = [records]
    if isinstance(dest, (str, os.PathLike)):
        if str(dest) == "-":
            return write_records(records, sys.stdout)
        with open(dest, "w", encoding="utf-8", newline="\n") as stream:
            return write_records(records, stream)
    count = 0
    ascii_only = not writes_unicode(dest)
    for record in records:
        if not isinstance(record, Mapping):
            raise MalformedRecordError(f"a record is a dict (record_from_state makes one), "
                                       f"not {type(record).__name__} {reprlib.repr(record)}")
        dest.write(dumps_record(record, ascii_only) + "\n")
        count += 1
    return count


# ================================================================= replay
@dataclass
class TrickReport:
    """One trick as played: the action texts on the table and who took it
    (``None`` for a trick cut short, e.g. by the shamok, or still in progress)."""

    plays: list[str]
    winner: int | None


@dataclass
class DealReport:
    """What the human report shows of one deal."""

    number: int
    dealer: int | None
    trump_card: str | None
    trump_suit: str | None
    other_actions: list[str] = field(default_factory=list)  # gives (exchanges), bids
    tricks: list[TrickReport] = field(default_factory=list)


@dataclass
class ReplayOutcome:
    """A replayed record: the final state and what happened deal by deal."""

    record: dict[str, Any]
    state: Any
    deals: list[DealReport]

    @property
    def result(self) -> dict[str, Any]:
        return self.state.result()

    @property
    def seats(self) -> list[dict[str, Any] | None] | None:
        """Who sat where (the record's ``seats``), or ``None`` when it does not say."""
        return read_seats(self.record, self.state.num_players)


# ======================================================================= seats
#: The longest name or bot spec a record's seat may carry (the table server cuts names at 24;
#: a tournament's bot spec with every setting spelt out stays well under this).
SEAT_NAME_LIMIT = 200


def read_seats(record: dict[str, Any], players: int) -> list[dict[str, Any] | None] | None:
    """The record's optional ``seats``: per seat, who sat there, like PGN's
    White and Black tags — ``{"name": "Anna"}`` for a person, ``{"name": ..., "bot":
    "pimc:worlds=16"}`` for a bot, ``null`` where nobody is named. Tournaments write
    them (which bot played which seat of a duplicate pair), so does the table server
    (the names at the table). ``None`` when the record has none; a ``seats`` of the
    wrong shape, or a name holding a control character (every writer drops them,
    :func:`goat.standings.tidy_name`; printed, ESC sequences drive the terminal), is a
    :class:`MalformedRecordError`.

    >>> read_seats({"seats": [{"name": "Anna"}, {"name": "heuristic", "bot": "heuristic"}]}, 2)
    [{'name': 'Anna'}, {'name': 'heuristic', 'bot': 'heuristic'}]
    >>> read_seats({"seats": [{"name": "Anna"}]}, 4)
    Traceback (most recent call last):
    ...
    goat.records.MalformedRecordError: "seats" must name 4 seats, not 1
    """
    seats = record.get("seats")
    if seats is None:
        return None
    if not isinstance(seats, list):
        raise MalformedRecordError(f'"seats" must be a list, not {_json_type(seats)}')
    if len(seats) != players:
        raise MalformedRecordError(f'"seats" must name {players} seats, not {len(seats)}')
    for seat, entry in enumerate(seats):
        if entry is None:
            continue
        where = f'"seats" entry {seat}'
        if not isinstance(entry, dict):
            raise MalformedRecordError(f"{where} must be an object or null, not {_json_type(entry)}")
        for key in ("name", "bot"):
            value = entry.get(key)
            if (value is not None or key == "name") and not (isinstance(value, str) and 0 < len(value) <= SEAT_NAME_LIMIT):
                raise MalformedRecordError(f'{where}: "{key}" must be text of 1 to {SEAT_NAME_LIMIT} characters')
            control = next((ch for ch in value or "" if unicodedata.category(ch) == "Cc"), None)
            if control is not None:  # ESC: "\x1b[2J" cleared the terminal goat replay printed the name on
                raise MalformedRecordError(f'{where}: "{key}" holds the control character U+{ord(control):04X}; '
                                           "a name is printable text")
    return seats


def seat_label(entry: dict[str, Any] | None) -> str:
    """How a report names the one at a seat: ``Anna``, ``Bot 2 (heuristic)``, or
    ``heuristic (bot)`` where a bot's name is its own (tournaments); ``?`` for nobody.

    >>> seat_label({"name": "Anna"}), seat_label({"name": "pimc", "bot": "pimc"}), seat_label(None)
    ('Anna', 'pimc (bot)', '?')
    """
    if entry is None:
        return "?"
    name, bot = entry["name"], entry.get("bot")
    if bot is None:
        return name
    return f"{bot} (bot)" if name == bot else f"{name} ({bot})"


def new_state_for(record: Any) -> Any:
    """The state a record starts from; raises :class:`MalformedRecordError`."""
    if not isinstance(record, dict):
        raise MalformedRecordError(f"a record must be a JSON object, not {_json_type(record)}")
    if isinstance(record.get("game"), str):
        try:  # a record of another game says so, not which of our fields it lacks
            get_game(record["game"])
        except GoatError as exc:
            raise MalformedRecordError(str(exc)) from None
    for name in REQUIRED_FIELDS:
        if name not in record:
            raise MalformedRecordError(f'the record has no "{name}" field')
    game_name, rules, deals = record["game"], record["rules"], record["deals"]
    options = record.get("options")
    if options is None:  # omitted or null: the preset as it is (not any false value: [] and 0 are no object)
        options = {}
    players = record.get("players")
    first_dealer = record["first_dealer"]
    if not isinstance(game_name, str):
        raise MalformedRecordError(f'"game" must be a string, not {_json_type(game_name)}')
    if not isinstance(rules, str):
        raise MalformedRecordError(f'"rules" must be a string, not {_json_type(rules)}')
    if not isinstance(options, dict):
        raise MalformedRecordError(f'"options" must be an object, not {_json_type(options)}')
    if players is not None and not _is_int(players):
        raise MalformedRecordError(f'"players" must be a whole number, not {json.dumps(players)}')
    if not _is_int(first_dealer):
        raise MalformedRecordError(f'"first_dealer" must be a seat number, not {json.dumps(first_dealer)}')
    if not isinstance(deals, list):
        raise MalformedRecordError(f'"deals" must be a list, not {_json_type(deals)}')
    try:
        game = get_game(game_name)
        return game.new_state(rules=rules, options=options, players=players, first_dealer=first_dealer)
    except GoatError as exc:
        raise MalformedRecordError(str(exc)) from None
    except (TypeError, ValueError) as exc:  # an option value of a type the rules cannot compare
        raise MalformedRecordError(f"bad option value: {exc}") from None


def replay(record: Any) -> ReplayOutcome:
    """Replay a record deal by deal, action by action.

    Raises :class:`MalformedRecordError` or :class:`IllegalRecordError` (the
    latter carries the replay up to the problem in ``.outcome``). Does not look
    at the stored ``result``; see :func:`check_result`.
    """
    game_hook = _own_replay(record)
    if game_hook is not None:
        # checked before the (long) replay, as every malformed field is: the one game
        # with its own replay (Yu-Gi-Oh!) is a duel, and that replay insists on 2 players
        read_seats(record, 2)
        return _replay_by_game(record, game_hook)
    state = new_state_for(record)
    read_seats(record, state.num_players)
    game = get_game(record["game"])
    chances = [_read_deal(game, state, number, deal) for number, deal in enumerate(record["deals"], start=1)]
    outcome = ReplayOutcome(record, state, [])

    def illegal(detail: str) -> IllegalRecordError:
        return IllegalRecordError(detail, outcome)

    for number, (deal, chance) in enumerate(zip(record["deals"], chances), start=1):
        if state.is_terminal():
            raise illegal(f"deal {number}: the match is already over after deal {number - 1}")
        if not state.is_chance_node():
            raise illegal(f"deal {number}: deal {number - 1} is unfinished (seat {state.current_player()} "
                          f"to act) but another deal follows")
        try:
            state.apply_chance(chance)
        except GoatError as exc:
            raise illegal(f"deal {number}: {exc}") from None
        report = _deal_report(state, number)
        outcome.deals.append(report)
        tracker = _TrickTracker(state, report)
        for index, text in enumerate(deal["actions"]):
            where = f"deal {number}, action {index} {json.dumps(text, ensure_ascii=False)}"
            if state.is_terminal() or state.is_chance_node():
                raise illegal(f"{where}: {_over_reason(state)}")
            try:
                action = Action.parse(text)
            except ActionSyntaxError as exc:
                raise illegal(f"{where}: {_syntax_reason(exc, text)}") from None
            if is_glance(game, action):
                raise illegal(f"{where}: no record action: it only shows a seat its own cards and decides "
                              "nothing (a record holds the moves that decide the game)")
            try:
                state.apply_action(action)
            except IllegalActionError as exc:
                tracker.finish()
                raise illegal(f"{where}: {exc.reason}") from None
            tracker.after(action, text)
        tracker.finish()
    return outcome


def _own_replay(record: Any) -> Any:
    """The game module of ``record`` if it replays its records itself (a
    ``replay_record`` hook, as ``record_from_state`` has one), else ``None``."""
    name = record.get("game") if isinstance(record, dict) else None
    if not isinstance(name, str):
        return None
    try:
        game = get_game(name)
    except GoatError:
        return None  # reported as malformed by the common path
    return game if hasattr(game, "replay_record") else None


def _replay_by_game(record: dict[str, Any], game: Any) -> ReplayOutcome:
    """Games whose records extend the card-game format (Yu-Gi-Oh!: decks, chance
    outcomes and one action list; ``docs/yugioh-records.md``) replay through the
    game module's ``replay_record`` hook; its ``RecordStepError`` is an illegal
    record (exit 1), any other :class:`GoatError` a malformed one (exit 2)."""
    try:
        state = game.replay_record(record)
    except game.RecordStepError as exc:
        raise IllegalRecordError(exc.detail, ReplayOutcome(record, exc.state, [])) from None
    except GoatError as exc:
        raise MalformedRecordError(str(exc)) from None
    return ReplayOutcome(record, state, [])


def _read_deal(game: Any, state: Any, number: int, deal: Any) -> Any:
    """Validate one deal object before anything is replayed (malformed = exit 2)."""
    if not isinstance(deal, dict):
        raise MalformedRecordError(f"deal {number}: a deal must be a JSON object, not {_json_type(deal)}")
    actions = deal.get("actions")
    if actions is None:
        raise MalformedRecordError(f'deal {number}: the deal has no "actions" list')
    if not isinstance(actions, list):
        raise MalformedRecordError(f'deal {number}: "actions" must be a list, not {_json_type(actions)}')
    for index, text in enumerate(actions):
        if not isinstance(text, str):
            raise MalformedRecordError(
                f"deal {number}, action {index}: an action must be a string, not {json.dumps(text)}")
    try:
        return game.chance_from_json(state, deal)
    except GoatError as exc:
        raise MalformedRecordError(f"deal {number}: {exc}") from None


def _over_reason(state: Any) -> str:
    if state.is_terminal():
        return "the match is already over"
    deals = state.result().get("deals") or [{}]
    ended_by = deals[-1].get("ended_by")
    return "the deal is already over" + (f" ({ended_by})" if ended_by else "")


def _syntax_reason(exc: ActionSyntaxError, text: str) -> str:
    """The parser's message without repeating the action text (already shown)."""
    return f"not an action ({exc.detail})"


def _deal_report(state: Any, number: int) -> DealReport:
    view = state.view(None)
    return DealReport(number, view.get("dealer"), view.get("trump_card"), view.get("trump_suit"))


class _TrickTracker:
    """Turns the action stream of one deal into tricks for the human report.

    A trick is complete when the count of tricks played grows; its winner is
    the ``last_trick`` winner.
    """

    TABLE_VERBS = ("play", "pass", "molodka")

    def __init__(self, state: Any, report: DealReport) -> None:
        self.state = state
        self.report = report
        self.table: list[str] = []
        self.done = self._tricks_done()

    def _tricks_done(self) -> int:
        # ``tricks_played``/``last_trick`` are cheap state attributes; the view
        # (which rebuilds the whole history) is the fallback for other games.
        done = getattr(self.state, "tricks_played", None)
        return done if isinstance(done, int) else sum(self.state.view(None).get("tricks_won") or [])

    def _last_winner(self) -> int | None:
        last = getattr(self.state, "last_trick", None)
        if not isinstance(last, dict):
            last = self.state.view(None).get("last_trick") or {}
        return last.get("winner")

    def after(self, action: Action, text: str) -> None:
        if action.verb not in self.TABLE_VERBS:
            self.report.other_actions.append(text)
            return
        self.table.append(text)  # a molodka restarts the trick; the report keeps what it undid
        done = self._tricks_done()
        if done > self.done:
            self.report.tricks.append(TrickReport(self.table, self._last_winner()))
            self.table = []
        self.done = done

    def finish(self) -> None:
        """Keep a trick cut short (shamok, record end, illegal action) in the report."""
        if self.table:
            self.report.tricks.append(TrickReport(self.table, None))
            self.table = []


# ================================================================== check
def check_result(record: dict[str, Any], outcome: ReplayOutcome) -> None:
    """Compare the stored ``result`` with the replayed one.

    Only the engine's fields are compared (every key of the replayed result and
    of each replayed deal); extra stored keys are ignored and a record without
    ``result`` passes. Raises :class:`ResultMismatchError` naming the first
    differing field, e.g. ``deals[0].points: stored [60, 60], replayed [67, 53]``.
    """
    if "result" not in record or record["result"] is None:
        return
    stored = record["result"]
    if not isinstance(stored, dict):
        raise MalformedRecordError(f'"result" must be an object, not {_json_type(stored)}')
    difference = _first_difference(stored, outcome.result)
    if difference is not None:
        raise ResultMismatchError(f"record result differs at {difference}", outcome)


_MISSING = object()


def _first_difference(stored: dict[str, Any], replayed: dict[str, Any]) -> str | None:
    for key, mine in replayed.items():
        theirs = stored.get(key, _MISSING)
        if key == "deals" and isinstance(theirs, list) and isinstance(mine, list):
            for i, (s_deal, r_deal) in enumerate(zip(theirs, mine)):
                if not isinstance(s_deal, dict):
                    return f"deals[{i}]: stored {_show(s_deal)}, replayed {_show(r_deal)}"
                for field_name, r_value in r_deal.items():
                    s_value = s_deal.get(field_name, _MISSING)
                    if not _same(s_value, r_value):
                        return f"deals[{i}].{field_name}: stored {_show(s_value)}, replayed {_show(r_value)}"
            if len(theirs) != len(mine):
                return f"deals: stored {len(theirs)} deals, replayed {len(mine)}"
            continue
        if not _same(theirs, mine):
            return f"{key}: stored {_show(theirs)}, replayed {_show(mine)}"
    return None


def _same(a: Any, b: Any) -> bool:
    """JSON equality that keeps ``true`` and ``1`` apart."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return a is not _MISSING and b is not _MISSING and type(a) in (int, float, str, type(None)) \
        and type(b) in (int, float, str, type(None)) and a == b


def _show(value: Any, limit: int = 80) -> str:
    if value is _MISSING:
        return "(missing)"
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _json_type(value: Any) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "true/false",
             int: "a number", float: "a number", type(None): "null"}
    return names.get(type(value), type(value).__name__)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


__all__ = [
    "DealReport", "IllegalRecordError", "MalformedRecordError", "RecordFile", "RecordProblem", "ReplayOutcome",
    "ResultMismatchError", "TrickReport", "check_result", "dumps_record", "iter_records", "new_state_for",
    "parse_records", "read_records", "record_from_state", "replay", "write_records",
]
