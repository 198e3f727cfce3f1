"""Deal reviews of a finished game: the double-dummy analysis of each deal
(:mod:`goat.analysis`, what ``goat analyze`` prints) for the browser table.

Only a finished game is reviewed, like its record is only given then: the
analysis uses every hand and the stock order, so it shows what the record
shows and nothing more. Solving a deal takes a CPU second or more, so one
review runs at a time (in a worker thread, so the event loop and the tables go
on) and each answer is kept (:mod:`goat.server.work`).
"""

from __future__ import annotations

from typing import Any

from goat.analysis import analyze_record
from goat.server.solverload import SolverLoad, solver_game
from goat.server.tables import LobbyError
from goat.server.work import KeptWork

#: Reviews kept (a table's deals each take one; 15-30 KB each, with every move's position).
KEEP = 256


class Reviews:
    """The reviews computed so far, by (table, deal) (:class:`KeptWork`)."""

    def __init__(self, keep: int = KEEP, solver: SolverLoad | None = None) -> None:
        self.work = KeptWork(keep)
        #: The solver's kernels loading: a review waits for them rather than
        #: compiling them itself (:mod:`goat.server.solverload`).
        self.solver = solver or SolverLoad()

    async def deal(self, table_id: str, record: dict[str, Any], deal: int) -> dict[str, Any]:
        """The review of deal ``deal`` (1-based) of a finished game's ``record``;
        :class:`LobbyError` 404 with one line for a deal the record does not have
        or a game or ruleset no solver takes."""
        if solver_game(str(record.get("game")), str(record.get("rules"))):
            await self.solver.ready()
        answer: dict[str, Any] = await self.work.get(
            (table_id, deal), lambda: analyze_record(record, deal).to_json(),
            lambda exc: LobbyError(str(exc), status=404))
        return answer
