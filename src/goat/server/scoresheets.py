"""A table's score sheet as CSV, the lobby's list of finished games, and the
club standings of the finished games (``GET /api/standings``, ``.csv``).

Both are made by :mod:`goat.scoresheet`, the summary ``goat replay`` prints and
writes, so the server's CSV of a finished table is exactly ``goat replay
--csv`` of its record (the record carries the table's id).

A table in play gives the sheet of its *completed* deals: the record of the
game so far cut before the deal in play, replayed. Every figure in it (points,
penalties, bids, tricks, the dealer, the trump) was shown to everyone at the
table when its deal ended; the deal in play, whose hands that record would hold,
is not replayed at all, so none of its cards can reach the sheet. A game that
replays its own records (Yu-Gi-Oh!, where a replay costs the whole match) gives
the sheet of its state as it stands: its result lists finished duels only.

Replays run on a worker thread: a long match must not hold up the tables.

The standings are :func:`goat.standings.standings` of the stored results
(:meth:`~goat.server.storage.Storage.finished_results`: no replay, no deal is
read), with the same rule as the finished list: private tables are in neither.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from goat.records import RecordProblem, ReplayOutcome, replay
from goat.games import GAMES
from goat.scoresheet import ScoreSheet, final_result, score_sheet, sheets_csv
from goat.server.storage import FinishedRow
from goat.standings import FinishedGame, Standing, StandingsError, moment, places, standings, standings_csv
from goat.server.tables import LobbyError, Table

#: The lobby's finished list: how many by default, and at most.
FINISHED_DEFAULT, FINISHED_MAX = 20, 100

#: The BOM that tells a spreadsheet (Excel) the file is UTF-8: Russian names stay readable.
BOM = "\ufeff"


def file_name(table: Table) -> str:
    """``goat-<game>-<rules>-<table id>.csv``."""
    return f"goat-{table.row.game}-{table.row.rules}-{table.id}.csv"


async def table_csv(table: Table, stored: dict[str, Any] | None) -> bytes:
    """The CSV (UTF-8 with a BOM) of ``table``'s sheet: of ``stored``, its
    record, once finished; else of the deals completed so far."""
    if stored is not None:
        sheet = await asyncio.to_thread(_sheet_of_record, stored)
    elif hasattr(table.game, "replay_record"):
        sheet = score_sheet(ReplayOutcome(_heading(table), table.state, []))
    else:
        sheet = await asyncio.to_thread(_sheet_of_record, completed_record(table))
    return (BOM + sheets_csv([(1, sheet)])).encode("utf-8")


def completed_record(table: Table) -> dict[str, Any]:
    """The record of ``table``'s completed deals only (no ``result``: the replay
    makes it). Read at once from the current state, which the table replaces
    and never changes in place, so it is one consistent moment of the game."""
    state = table.state
    record = table.record_of(state)
    deals = record["deals"]
    if not (state.is_chance_node() or state.is_terminal()):
        deals = deals[:-1]   # the deal in play: its hands are secret
    return {key: value for key, value in record.items() if key != "result"} | {"deals": deals}


def _heading(table: Table) -> dict[str, Any]:
    return {"game": table.row.game, "rules": table.row.rules, "table": table.id, "seats": table.record_seats()}


def _sheet_of_record(record: dict[str, Any]) -> ScoreSheet:
    try:
        return score_sheet(replay(record))
    except RecordProblem as problem:   # the server's own records replay; one line if one ever does not
        raise LobbyError(f"the table's record does not replay: {problem}", status=500) from None


def finished_limit(status: str | None, limit: str | None) -> int | None:
    """The ``limit`` of ``GET /api/tables?status=finished`` (``None``: the
    open tables were asked for); :class:`LobbyError` 400, one line, for
    anything else."""
    if status is None:
        if limit is not None:
            raise LobbyError("limit: only with status=finished (the open tables are all listed)")
        return None
    if status != "finished":
        raise LobbyError(f"status: only 'finished' may be asked for, not {status[:40]!r} "
                         "(without it: the tables in their lobby or in play)")
    if limit is None:
        return FINISHED_DEFAULT
    if not (limit.isascii() and limit.isdigit()) or not 1 <= int(limit) <= FINISHED_MAX:
        raise LobbyError(f"limit: a whole number from 1 to {FINISHED_MAX}, not {limit[:40]!r}")
    return int(limit)


def finished_entry(row: FinishedRow) -> dict[str, Any]:
    """One finished game of the lobby's list: no token, no card."""
    return {"id": row.id, "game": row.game, "rules": row.rules, "players": row.players,
            "seats": [{"seat": s.seat, "kind": s.kind, "name": s.name, "bot": s.bot} for s in row.seats],
            "finished_at": row.finished_at.isoformat(timespec="seconds"),
            "result": final_result(row.game, row.result)}


# ================================================================ standings
@dataclass
class StandingsQuery:
    """The filters of ``GET /api/standings``: ``None`` is no filter."""

    game: str | None = None
    since: datetime | None = None
    until: datetime | None = None
    bots: bool = False


def _moment(name: str, value: str, end_of_day: bool) -> datetime:
    """:func:`goat.standings.moment`, a bad one a 400 (:class:`LobbyError`)."""
    try:
        return moment(name, value, end_of_day)
    except StandingsError as exc:
        raise LobbyError(str(exc)) from None


def standings_query(game: str | None, since: str | None, until: str | None, bots: str | None) -> StandingsQuery:
    """The checked filters of the standings; :class:`LobbyError` 400, one line, for a bad one.
    ``until`` is exclusive as a moment and inclusive as a day (``until=2025-03-01``: that day too)."""
    if game is not None and game not in GAMES:
        raise LobbyError(f"game: one of {', '.join(GAMES)}, not {game[:40]!r}")
    if bots not in (None, "0", "1"):
        raise LobbyError(f"bots: 0 (people only) or 1 (bots too), not {bots[:40]!r}")
    query = StandingsQuery(game, None if since is None else _moment("since", since, False),
                           None if until is None else _moment("until", until, True), bots == "1")
    if query.since and query.until and query.since >= query.until:
        raise LobbyError("since must be before until")
    return query


def standings_of(rows: list[FinishedRow], query: StandingsQuery) -> list[Standing]:
    """The standings of stored finished games (the rows' results as stored: made short here)."""
    return standings((FinishedGame(row.game, row.players, row.seats, final_result(row.game, row.result),
                                   row.finished_at) for row in rows), bots=query.bots)


def standings_json(rows: list[FinishedRow], query: StandingsQuery) -> dict[str, Any]:
    """``GET /api/standings``: the filters as understood, how many games, the rows."""
    table = standings_of(rows, query)
    return {"game": query.game, "since": _iso(query.since), "until": _iso(query.until), "bots": query.bots,
            "games": len(rows),
            "players": [{"place": place, **row.to_json()} for place, row in zip(places(table), table)]}


def standings_file(rows: list[FinishedRow], query: StandingsQuery) -> tuple[bytes, str]:
    """``GET /api/standings.csv``: the CSV (UTF-8 with a BOM, as the score
    sheets) and its file name, ``goat-standings[-game][-since][-until].csv``."""
    parts = ["goat-standings", query.game or "", query.since.date().isoformat() if query.since else "",
             query.until.date().isoformat() if query.until else ""]
    name = "-".join(p for p in parts if p) + ".csv"
    return (BOM + standings_csv(standings_of(rows, query))).encode("utf-8"), name


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat(timespec="seconds")
