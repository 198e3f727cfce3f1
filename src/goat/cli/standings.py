"""``goat standings FILE... [--game G] [--bots] [--csv [--out FILE]]``: club standings from records.

The table server shows a club night's standings from its own database
(``/api/standings``). An organiser who keeps records instead — games played
with ``goat play --record``, downloaded from a server, or written by a
tournament — gets the same table here: per person the matches played, won,
lost and drawn, in Kozel how often they were the goat, and the win rate.

Only a record that says who sat where (its ``seats``, see
:func:`goat.records.read_seats`) and whose match is over can count, the way a
finished table does on the server. Every record is replayed first — the
standings trust the cards, never a stored ``result`` — so a record that is not
legal stops the command with the same one line ``goat replay`` prints (exit
status 1; 2 for one that cannot be read) and no half table. Records left out
are counted in a note, with the reason. Who won, how names are grouped and how
places are shared are :mod:`goat.standings`' rules, the same as the server's; a
name is shown as it was last spelt: by the records' ``finished_at`` where they
have it (the server's downloads do), else later records are the more recent.
"""

from __future__ import annotations

from contextlib import ExitStack
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from goat.cli.errors import in_file, user_errors
from goat.cli.output import check_csv_out, echo, print_table, write_csv
from goat.progress import progress
from goat.games import GAMES
from goat.protocol import GoatError
from goat.records import RecordFile, RecordProblem, ReplayOutcome, replay
from goat.scoresheet import final_result
from goat.standings import FinishedGame, Standing, StandingsError, StandingsTally, moment, places, standings_csv

@dataclass(frozen=True)
class RecordSeat:
    """A record's ``seats`` entry in the shape :mod:`goat.standings` reads
    (``kind``: ``"human"``, ``"bot"`` or ``"empty"``)."""

    seat: int
    kind: str
    name: str
    bot: str | None


def record_seats(entries: list[dict[str, Any] | None]) -> list[RecordSeat]:
    """The seats of a record's checked ``seats`` list."""
    return [RecordSeat(seat, "empty", "", None) if entry is None else
            RecordSeat(seat, "bot" if entry.get("bot") else "human", entry["name"], entry.get("bot"))
            for seat, entry in enumerate(entries)]


def finished_at(record: Any) -> datetime | None:
    """When a record's game ended, if it says (``finished_at``, ISO 8601: the table
    server's downloads and ``goat play``'s finished games do; a time without a zone is
    UTC), else ``None``. A name is
    shown as spelt in the game that ended last, so the records of a server's club
    night give the server's spelling whatever order the files come in; without the
    time the later record counts as the more recent. Anything else there is ignored,
    as a reader ignores a field it does not know."""
    text = record.get("finished_at") if isinstance(record, dict) else None
    try:
        moment = datetime.fromisoformat(text) if isinstance(text, str) else None
    except ValueError:
        return None
    return moment if moment is None or moment.tzinfo else moment.replace(tzinfo=timezone.utc)


@dataclass
class Collected:
    """The finished games of the records read, added up as they came (``tally``), and
    how many records were left out and why."""

    tally: StandingsTally
    records: int = 0
    unnamed: int = 0
    unfinished: int = 0
    other_game: int = 0
    undated: int = 0     # with --since/--until: no finished_at to say when it ended
    outside: int = 0     # with --since/--until: ended outside them


class InputProblem(Exception):
    """A record that stops the command: its one line, and the exit status
    :mod:`goat.records` gives it (1 illegal, 2 unreadable or malformed)."""

    def __init__(self, line: str, exit_status: int) -> None:
        super().__init__(line)
        self.exit_status = exit_status


def collect(files: list[str], game: str | None, console: Console,
            since: datetime | None = None, until: datetime | None = None, bots: bool = False) -> Collected:
    """Read and replay every record of ``files`` one at a time (a file of millions of
    records takes the memory of one); :class:`InputProblem` at the first bad one (its
    line names the file when there are several). With ``since`` (inclusive) or
    ``until`` (exclusive) only the games whose ``finished_at`` falls between them count,
    as the server's standings filter its stored games; ``bots``: rank bots too."""

    def problem_line(file: str, problem: RecordProblem) -> InputProblem:
        return InputProblem(in_file(file, problem, len(files) > 1), problem.exit_status)

    with ExitStack() as opened:
        sources = []
        for file in files:   # every file read and checked first: a bad third file replays nothing
            try:
                sources.append(opened.enter_context(RecordFile(file)))
            except RecordProblem as problem:
                raise problem_line(file, problem) from None
        collected = Collected(StandingsTally(bots))
        with progress(console, "replaying", sum(source.count for source in sources)) as advance:
            for source in sources:
                try:
                    for place, record in source.numbered():
                        try:
                            outcome = replay(record)
                            seats = outcome.seats
                        except RecordProblem as problem:
                            raise problem_line(source.name, problem.in_record(place)) from None
                        advance()
                        _count(collected, record, outcome, seats, game, since, until)
                except RecordProblem as problem:  # read again, the file was no longer what was checked
                    raise problem_line(source.name, problem) from None
    return collected


def _count(collected: Collected, record: Any, outcome: ReplayOutcome, seats: list[dict[str, Any] | None] | None,
           game: str | None, since: datetime | None, until: datetime | None) -> None:
    """Add one replayed record to the standings, or to the reasons it was left out."""
    collected.records += 1
    name, result = outcome.state.game_name, outcome.result
    if game is not None and name != game:
        collected.other_game += 1
    elif seats is None or all(entry is None for entry in seats):
        collected.unnamed += 1
    elif not result.get("match_over"):
        collected.unfinished += 1
    elif (since or until) and (when := finished_at(record)) is None:
        collected.undated += 1
    elif (since and when < since) or (until and when >= until):
        collected.outside += 1
    else:
        collected.tally.add(FinishedGame(name, outcome.state.num_players, record_seats(seats),
                                         final_result(name, result), finished_at(record)))


def standings_command(
    files: list[str] = typer.Argument(..., metavar="FILE",
                                      help="Records: .json files, .jsonl files of records, or - for stdin."),
    game: str | None = typer.Option(None, "--game", help="Count only this game's records: kozel, spades or yugioh "
                                                         "(default: every game)."),
    bots: bool = typer.Option(False, "--bots", help="Rank bots too, one row a bot spec (as a tournament names them)."),
    as_csv: bool = typer.Option(False, "--csv", help="Write the standings as CSV: place, name, bot, played, won, "
                                                     "lost, drawn, goats, win rate."),
    out_file: str | None = typer.Option(None, "--out", metavar="FILE",
                                        help="With --csv: write to FILE (UTF-8 with a BOM); default: standard output (no BOM)."),
    since: str | None = typer.Option(None, "--since", metavar="WHEN",
                                     help="Count only games that ended at or after WHEN: a day YYYY-MM-DD (UTC) or "
                                          "an ISO 8601 time such as 2026-12-01T18:00+03:00 (records say when "
                                          "they ended in finished_at, as the table server's downloads and goat play's finished "
                                          "games do); default: no start."),
    until: str | None = typer.Option(None, "--until", metavar="WHEN",
                                     help="Count only games that ended before WHEN (a day: through its end); default: no end."),
) -> None:
    """Club standings from game records: per person the matches played, won, lost and drawn (and the goats)."""
    with user_errors():  # "error: …", as every command's mistakes
        if game is not None and game not in GAMES:
            raise GoatError(f"--game must be one of {', '.join(GAMES)}, not {game!r}")
        check_csv_out(out_file, as_csv)
        if files.count("-") > 1:
            raise GoatError("standard input (-) can be read only once")
        try:
            start = None if since is None else moment("--since", since)
            end = None if until is None else moment("--until", until, end_of_day=True)
        except StandingsError as exc:
            raise GoatError(str(exc)) from None
        if start and end and start >= end:
            raise GoatError("--since must be before --until")
    err = Console(stderr=True, highlight=False)
    try:
        collected = collect(files, game, err, start, end, bots)
    except InputProblem as problem:
        echo(str(problem), err=True)
        raise typer.Exit(problem.exit_status) from None
    rows = collected.tally.rows()
    if as_csv:
        write_csv(standings_csv(rows), out_file)
    else:
        _print_table(Console(highlight=False, soft_wrap=True), rows, collected)
    note = left_out_note(collected, game)
    if note:
        echo(note, err=True)


def left_out_note(collected: Collected, game: str | None) -> str:
    """One line on the records that did not count, or ``""`` when all did."""
    reasons = [(collected.unnamed, "do not say who sat where (no \"seats\")"),
               (collected.unfinished, "end before their match is over"),
               (collected.other_game, f"are not {game} records"),
               (collected.undated, "do not say when they ended (no \"finished_at\")"),
               (collected.outside, "ended outside --since/--until")]
    parts = [f"{count} {reason}" for count, reason in reasons if count]
    if not parts:
        return ""
    return (f"{collected.tally.games} of {collected.records} record{'s' if collected.records != 1 else ''} "
            f"counted; left out: {'; '.join(parts)}")


def _print_table(out: Console, rows: list[Standing], collected: Collected) -> None:
    games = collected.tally.games
    if not rows:
        out.print("Nobody to rank: only bots played these matches (add --bots to rank them)." if games
                  else "No finished match that names its players among these records.")
        return
    kozel = "kozel" in collected.tally.kinds
    table = Table(title=f"Standings of {games} match{'es' if games != 1 else ''}")
    for column in ("place", "name", "played", "won", "lost", "drawn") + (("goats",) if kozel else ()) + ("win rate",):
        table.add_column(column, justify="left" if column == "name" else "right")
    for place, row in zip(places(rows), rows):
        # a name is text, not markup: "[red]Bob[/red]" is what the player typed
        cells = [str(place), Text(row.name), str(row.played), str(row.won), str(row.lost), str(row.drawn)]
        if kozel:
            cells.append(str(row.goats))
        table.add_row(*cells, f"{row.win_rate:.0%}")
    print_table(out, table)


def register(app: typer.Typer) -> None:
    app.command("standings")(standings_command)
