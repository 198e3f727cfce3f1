"""Deal reviews of a finished game: the double-dummy analysis of each deal
(:mod:`goat.analysis`, what ``goat analyze`` prints) for the browser table.

Only a finished game is reviewed, like its record is only given then: the
analysis uses every hand and the stock order, so it shows what the record
shows and nothing more. Solving a deal takes a CPU second or more, so one
review runs at a time (in a worker thread, so the event loop and the tables go
on) and each answer is kept: asking again, from any client, costs nothing.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Any

from goat.analysis import analyze_record
from goat.protocol import GoatError
from goat.server.tables import LobbyError

#: Reviews kept (a table's deals each take one; a few KB each).
KEEP = 256


class Reviews:
    """The reviews computed so far, by (table, deal), least recently used dropped."""

    def __init__(self, keep: int = KEEP) -> None:
        self.keep = keep
        self.done: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()
        self.lock = asyncio.Lock()

    async def deal(self, table_id: str, record: dict[str, Any], deal: int) -> dict[str, Any]:
        """The review of deal ``deal`` (1-based) of a finished game's ``record``;
        :class:`LobbyError` 404 with one line for a deal the record does not have
        or a game or ruleset no solver takes."""
        key = (table_id, deal)
        async with self.lock:
            if key not in self.done:
                try:
                    analysis = await asyncio.to_thread(analyze_record, record, deal)
                except GoatError as exc:
                    raise LobbyError(str(exc), status=404) from None
                self.done[key] = analysis.to_json()
                if len(self.done) > self.keep:
                    self.done.popitem(last=False)
            self.done.move_to_end(key)
            return self.done[key]
