"""A table's score sheet as CSV, and the lobby's list of finished games.

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
"""

from __future__ import annotations

import asyncio
from typing import Any

from goat.records import RecordProblem, ReplayOutcome, record_from_state, replay
from goat.scoresheet import ScoreSheet, final_result, score_sheet, sheets_csv
from goat.server.storage import FinishedRow
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
    record = record_from_state(state)
    deals = record["deals"]
    if not (state.is_chance_node() or state.is_terminal()):
        deals = deals[:-1]   # the deal in play: its hands are secret
    return {key: value for key, value in record.items() if key != "result"} | {"deals": deals, "table": table.id}


def _heading(table: Table) -> dict[str, Any]:
    return {"game": table.row.game, "rules": table.row.rules, "table": table.id}


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
