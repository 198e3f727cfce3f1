"""``goat replay FILE [--json | --csv [--out FILE]] [--check]``: replay, score and check game records.

The report is per game: Kozel shows points and penalty points, Spades bids,
tricks, scores and bags; both list every trick and who took it. ``--csv`` writes
the same per-deal figures as a score sheet for a spreadsheet, one row a deal (a
duel), every record of the file under one header. The text report's deal lines
and running totals and the CSV come from one summary, :mod:`goat.scoresheet`.
With ``--out`` the CSV file gets a UTF-8 byte order mark (spreadsheets then read
names in any script); on standard output it has none, for pipes.

Exit status: 0 when every record replays (and, with ``--check``, its stored
result matches); 1 at the first illegal action or result mismatch; 2 when the
input is not a well-formed record (see :mod:`goat.records` for the split).
Records are taken in file order and the first problem decides (a file that is
not JSON fails before any replay). The problem is one line on standard error,
exactly as :mod:`goat.records` words it, e.g.
``deal 1, action 5 "2 play 8S": seat 2 must follow hearts (holds 9H)``; without
``--check``/``--json`` the report of the play up to it is printed first.

A file may hold millions of records: each file is read once to check it (a bad
line near its end still stops the command before anything is printed) and to
count its records, then replayed record by record, so the command holds one
record at a time (:class:`goat.records.RecordFile`; ``--csv`` keeps the sheets
in a temporary file until the header, which names every sheet's sides, is known).
"""

from __future__ import annotations

import json
from contextlib import ExitStack
from itertools import chain
from typing import Any, NoReturn

import typer
from rich.console import Console
from rich.text import Text

from goat.cards import SUIT_NAMES
from goat.cli.errors import in_file, user_errors
from goat.cli.output import check_csv_out, echo, write_csv
from goat.protocol import GoatError
from goat.records import (
    DealReport,
    RecordFile,
    RecordProblem,
    ReplayOutcome,
    check_result,
    replay,
    seat_label,
)
from goat.scoresheet import KozelRow, SheetError, SheetsCsv, score_sheet


def register(app: typer.Typer) -> None:
    app.command("replay")(replay_command)


def replay_command(
    files: list[str] = typer.Argument(..., metavar="FILE",
                                      help="A .json record, a .jsonl file of records, or - for stdin; several "
                                           "files are read as one list of records (an evening's games)."),
    as_json: bool = typer.Option(False, "--json", help="Print each record's result object, one compact line each."),
    check: bool = typer.Option(False, "--check",
                               help="Exit 0 only if every record is legal and its stored result matches."),
    as_csv: bool = typer.Option(False, "--csv",
                                help="Write the score sheet as CSV: one row a deal (a duel), with running totals."),
    out_file: str | None = typer.Option(None, "--out", metavar="FILE",
                                        help="With --csv: write to FILE (UTF-8 with a BOM); default: standard output (no BOM)."),
) -> None:
    """Replay game records: per deal the trick winners, points, penalty points and match state."""
    with user_errors():  # "error: …", as every command's mistakes
        if as_csv and as_json:
            raise GoatError("--csv and --json are two output formats: choose one")
        check_csv_out(out_file, as_csv)
        if files.count("-") > 1:
            raise GoatError("standard input (-) can be read only once")

    with ExitStack() as opened:
        sources = []
        for file in files:   # every file read and checked first: an unreadable third file prints nothing of the first
            try:
                sources.append(opened.enter_context(RecordFile(file)))
            except RecordProblem as problem:
                echo(in_file(file, problem, len(files) > 1), err=True)
                raise typer.Exit(problem.exit_status) from None
        sheets = opened.enter_context(SheetsCsv()) if as_csv else None
        _replay_files(sources, as_json, check, sheets, out_file)


def _replay_files(sources: list[RecordFile], as_json: bool, check: bool, sheets: SheetsCsv | None,
                  out_file: str | None) -> None:
    """Replay the records of ``sources`` in order, one at a time: the memory of one
    record, however long the files (``sheets``: with ``--csv``, where the score sheets wait)."""
    out = Console(highlight=False, soft_wrap=True)
    as_csv = sheets is not None
    total = sum(source.count for source in sources)
    several = total > 1
    unscored = 0
    index = 0
    for source in sources:
        try:
            for place, record in source.numbered():
                index += 1
                try:
                    outcome = replay(record)
                    if check:
                        check_result(record, outcome)
                        unscored += record.get("result") is None
                except RecordProblem as problem:
                    problem.in_record(place)
                    if problem.outcome is not None and not (as_json or check or as_csv):
                        _print_report(out, problem.outcome, index if several else None)
                    _stop(source.name, problem, len(sources) > 1)
                if as_json:
                    echo(json.dumps(outcome.result, separators=(",", ":")))
                elif sheets is not None:
                    sheets.add(index, score_sheet(outcome))
                elif not check:
                    _print_report(out, outcome, index if several else None)
        except RecordProblem as problem:  # read again, the file was no longer what was checked
            _stop(source.name, problem, len(sources) > 1)
    if sheets is not None:
        _write_csv(sheets, out_file)
    if check and not (as_json or as_csv):
        note = f" ({unscored} without a stored result)" if unscored else ""
        echo(f"ok: {total} record{'s' if several else ''} legal, stored results match{note}")


def _stop(file: str, problem: RecordProblem, several_files: bool) -> NoReturn:
    """The problem's one line on standard error, and its exit status."""
    echo(in_file(file, problem, several_files), err=True)
    raise typer.Exit(problem.exit_status) from None


def _write_csv(sheets: SheetsCsv, out_file: str | None) -> None:
    """The CSV of every record, all or nothing (a problem in record 3 writes no
    half sheet): to ``out_file`` with a BOM, else to standard output."""
    pieces = sheets.pieces()
    try:
        first = next(pieces)  # records of two games are refused here, before anything is written
    except SheetError as exc:
        echo(str(exc), err=True)
        raise typer.Exit(2) from None
    write_csv(chain([first], pieces), out_file)


# ================================================================= report
def _print_report(out: Console, outcome: ReplayOutcome, index: int | None) -> None:
    if hasattr(outcome.state, "summary_lines"):  # games with their own report (yugioh)
        title, *lines = outcome.state.summary_lines(index)
        out.print(Text(title))
        _print_seats(out, outcome)
        for line in lines:
            out.print(Text(line))
        return
    if outcome.record.get("game") == "spades":
        _print_spades_report(out, outcome, index)
    else:
        _print_kozel_report(out, outcome, index)


def _title(outcome: ReplayOutcome, index: int | None) -> Text:
    record, state = outcome.record, outcome.state
    title = f"{'Record ' + str(index) + ': ' if index else ''}{record['game']} {record['rules']}, " \
            f"{state.num_players} players, first dealer seat {record['first_dealer']}"
    if record.get("options"):
        title += ", options " + ", ".join(f"{k}={json.dumps(v)}" for k, v in record["options"].items())
    return Text(title, style="bold")


def _print_seats(out: Console, outcome: ReplayOutcome) -> None:
    """``Seats: 0 Anna · 1 heuristic (bot) · ...`` when the record says who sat where."""
    seats = outcome.seats
    if seats is not None:
        out.print(Text("Seats: " + " · ".join(f"{seat} {seat_label(entry)}" for seat, entry in enumerate(seats))))


def _print_kozel_report(out: Console, outcome: ReplayOutcome, index: int | None) -> None:
    state = outcome.state
    sheet = score_sheet(outcome)
    result = outcome.result
    teams = len(sheet.sides) != state.num_players
    out.print(_title(outcome, index))
    _print_seats(out, outcome)
    for report, row in zip(outcome.deals, sheet.rows):
        _print_deal(out, report, row, teams)
        out.print(Text(f"  penalty total {_join(row.totals)}", style="cyan"))
    for report in outcome.deals[len(sheet.rows):]:  # replay stopped before its result
        _print_deal(out, report, None, teams)
    final = sheet.final
    if result.get("match_over"):
        if final["goat"] is not None:
            verdict = f"{_side(final['goat'], teams)} is the goat"
        else:
            verdict = f"{_side(final['winner'], teams)} wins" if "winner" in final else "no loser"
        out.print(Text(f"Match over: {verdict} (penalty {_join(final['penalty'])})", style="bold"))
    else:
        out.print(Text(f"Match not over (penalty {_join(final['penalty'])})", style="bold"))


def _print_play(out: Console, report: DealReport) -> None:
    """The deal's header, its non-trick actions (bids, gives) and every trick."""
    head = f"Deal {report.number}"
    if report.dealer is not None:
        head += f": dealer seat {report.dealer}"
    if report.trump_card:
        head += f", trump card {report.trump_card}"
    if report.trump_suit:
        head += f", trumps {SUIT_NAMES.get(report.trump_suit, report.trump_suit)}"
    out.print(Text(head, style="bold"))
    if report.other_actions:
        out.print(Text("  " + " · ".join(report.other_actions)))
    for number, trick in enumerate(report.tricks, start=1):
        taker = f"→ seat {trick.winner}" if trick.winner is not None else "(not completed)"
        out.print(Text(f"  trick {number}: {' · '.join(trick.plays)}  {taker}"))


def _print_deal(out: Console, report: DealReport, row: KozelRow | None, teams: bool) -> None:
    _print_play(out, report)
    if row is None:
        return
    line = (f"  {row.ended_by}: points {_join(row.points)}, "
            f"tricks {_join(row.tricks)}, "
            f"penalty {_join(row.penalty)}")
    if row.winner_side is not None:
        line += f"; {_side(row.winner_side, teams)} wins the deal"
    line += "".join(f"; {note}" for note in row.eggs_notes)
    out.print(Text(line, style="green" if row.ended_by != "unfinished" else "yellow"))


def _print_spades_report(out: Console, outcome: ReplayOutcome, index: int | None) -> None:
    result = outcome.result
    sheet = score_sheet(outcome)
    out.print(_title(outcome, index))
    _print_seats(out, outcome)
    scores = [0, 0]
    for number, report in enumerate(outcome.deals, start=1):
        _print_play(out, report)
        if number > len(sheet.rows):
            continue  # the replay stopped before this deal had a result
        row = sheet.rows[number - 1]
        bids = "/".join("-" if b is None else str(b) for b in row.bids)
        if row.kind == "unfinished":
            out.print(Text(f"  unfinished: bids {bids}, tricks {_join(row.tricks)}", style="yellow"))
            continue
        if row.kind == "redeal":
            out.print(Text(f"  {row.notes[0]}; the same dealer deals again", style="yellow"))
            continue
        scores = row.totals
        out.print(Text(f"  bids {bids}, tricks {_join(row.tricks)}: "
                       f"score {'/'.join(f'{d:+d}' for d in row.score)}, bags {_join(row.bags)}"
                       + "".join(f"; {note}" for note in row.notes), style="green"))
        out.print(Text(f"  score total {_join(scores)}", style="cyan"))
    totals = f"score {_join(result.get('score_total', scores))}, bags {_join(result.get('bags_total', [0, 0]))}"
    winner = sheet.final["winner"]
    if result.get("match_over") and winner is not None:
        out.print(Text(f"Game over: {_side(winner, True)} wins ({totals})", style="bold"))
    else:
        out.print(Text(f"Game not over ({totals})", style="bold"))


def _side(index: int, teams: bool) -> str:
    return f"team {index} (seats {index}+{index + 2})" if teams else f"seat {index}"


def _join(values: list[Any]) -> str:
    return "/".join(str(v) for v in values)
