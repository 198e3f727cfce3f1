"""Deal reviews: the double-dummy analysis of each deal (:mod:`goat.analysis`,
what ``goat analyze`` prints) for the browser table, of a finished game or of a
record a player opens from a file ("Open a record", as lichess imports a PGN).

Only a finished game is reviewed, like its record is only given then: the
analysis uses every hand and the stock order, so it shows what the record
shows and nothing more. A record sent by a player shows only what that player
has already. Solving a deal takes a CPU second or more, so one review runs at a
time (in a worker thread, so the event loop and the tables go on) and each
answer is kept (:mod:`goat.server.work`) — a sent record's by its content, so
its deals asked again cost nothing; the record itself is stored nowhere (no
database, no standings, no finished games).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Hashable
from typing import Any

from goat.analysis import analyze_record, check_deal, check_game
from goat.protocol import GoatError
from goat.records import RecordProblem, check_result, parse_records, replay
from goat.server.solverload import SolverLoad, solver_game
from goat.server.tables import LobbyError
from goat.server.work import KeptWork

#: Reviews kept (a table's deals each take one; 15-30 KB each, with every move's position).
KEEP = 256

#: The largest record file a player may send: a long Kozel match's record is 20-40 KB, so
#: this holds a match many times over, or a .jsonl file of a club night's games.
RECORD_BYTES = 512 * 1024

#: What a sent file is called in the records module's lines ("the file: not valid JSON: ...").
RECORD_NAME = "the file"


def refused_review(exc: GoatError) -> LobbyError:
    """A review that cannot be given (a deal the record does not have, a game or
    ruleset no solver takes): 404 with the analysis's one line."""
    return LobbyError(str(exc), status=404)


def opened_record(text: str, index: int = 1) -> dict[str, Any]:
    """Record ``index`` (1-based, as ``goat analyze --record K``) of a file's ``text``
    (one record, or a .jsonl file of several), checked as ``goat replay --check``
    checks it, in its words (``record K: `` before them when the file holds
    several): a :class:`LobbyError` 422 for a record that is not well-formed, does
    not replay or whose stored result differs, 404 for a record the file does not
    have (``goat analyze``'s line)."""
    try:
        records = parse_records(text, name=RECORD_NAME)
    except RecordProblem as problem:
        raise LobbyError(str(problem), status=422) from None
    count = len(records)
    if not 1 <= index <= count:
        raise LobbyError(f"the file has {count} record{'s' if count != 1 else ''}; there is no record {index}",
                         status=404)
    record = records[index - 1]
    try:
        check_result(record, replay(record))
    except RecordProblem as problem:
        raise LobbyError(str(problem.in_record(index if count > 1 else None)), status=422) from None
    return record


def checked_record(text: str, index: int) -> tuple[dict[str, Any], str]:
    """:func:`opened_record` and the key of its content (the digest of its canonical
    JSON: tens of milliseconds for a long record, so taken here, in the check's
    worker thread, not on the event loop once for each request that shares the check)."""
    record = opened_record(text, index)
    content = json.dumps(record, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return record, hashlib.sha256(content.encode("utf-8", "surrogatepass")).hexdigest()


def refused_record(exc: GoatError) -> LobbyError:
    """A sent record's check refused (:func:`opened_record`'s own line and status)."""
    return exc if isinstance(exc, LobbyError) else LobbyError(str(exc), status=422)


class Reviews:
    """The reviews computed so far, by (table, deal) (:class:`KeptWork`)."""

    def __init__(self, keep: int = KEEP, solver: SolverLoad | None = None) -> None:
        self.work = KeptWork(keep)
        #: Sent records' checks: one at a time, bounded, nothing kept. A 512 KiB record
        #: replays in most of a CPU second, holding the interpreter; run each in a
        #: thread of its own, a burst of them would fill the worker threads the bots'
        #: moves wait for and take turns with every table for the interpreter.
        self.checks = KeptWork(0)
        #: The solver's kernels loading: a review waits for them rather than
        #: compiling them itself (:mod:`goat.server.solverload`).
        self.solver = solver or SolverLoad()

    async def deal(self, table_id: Hashable, record: dict[str, Any], deal: int) -> dict[str, Any]:
        """The review of deal ``deal`` (1-based) of a finished game's ``record``
        (kept as ``table_id``'s); :class:`LobbyError` 404 with one line for a deal
        the record does not have or a game or ruleset no solver takes."""
        if solver_game(str(record.get("game")), str(record.get("rules"))):
            await self.solver.ready()
        answer: dict[str, Any] = await self.work.get(
            (table_id, deal), lambda: analyze_record(record, deal).to_json(), refused_review)
        return answer

    async def opened(self, text: str, deal: int, index: int = 1) -> dict[str, Any]:
        """The review of deal ``deal`` of record ``index`` of a file's ``text`` a
        player sent: the same answer, queue and refusals as a finished table's
        (:meth:`deal`), the record checked first (:func:`opened_record`, in a worker
        thread, one at a time in the checks' own bounded queue: beyond it the 503
        ``busy``) and a deal it does not have or a game no solver takes told before
        it waits for its turn. Kept by the record's content: the same record sent
        again (another deal chosen, then this one) is not solved again."""
        checked: tuple[dict[str, Any], str] = await self.checks.get(
            (index, text), lambda: checked_record(text, index), refused_record)
        record, digest = checked
        try:
            check_deal(record, deal)
            check_game(str(record.get("game")))
        except GoatError as exc:
            raise refused_review(exc) from None
        return await self.deal(("record", digest), record, deal)

    async def close(self) -> None:
        """Cancel the reviews and checks still waiting (the server is stopping)."""
        await self.work.close()
        await self.checks.close()
