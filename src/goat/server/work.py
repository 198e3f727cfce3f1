"""CPU work for the tables (deal reviews, hints): one job at a time in a worker
thread, each answer kept.

Solving deals takes from a fraction of a second to seconds of CPU time. Run on
the event loop it would stall every table; run all at once it would starve the
bots' turns. So :class:`KeptWork` runs one job at a time (a lock) in a worker
thread (the event loop and the tables go on meanwhile), and keeps each answer
by its key, dropping the least recently used beyond ``keep``: asking again,
from any client, costs nothing.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

from goat.protocol import GoatError
from goat.server.tables import LobbyError


class KeptWork:
    """Answers computed one at a time in a worker thread, kept by key (LRU)."""

    def __init__(self, keep: int) -> None:
        self.keep = keep
        self.done: OrderedDict[Hashable, Any] = OrderedDict()
        self.lock = asyncio.Lock()

    async def get(self, key: Hashable, compute: Callable[[], Any],
                  refuse: Callable[[GoatError], LobbyError], wanted: Callable[[], bool] | None = None) -> Any:
        """The answer kept for ``key``, else ``compute()`` run in a worker thread
        (after any job already running) and kept. A :class:`GoatError` of
        ``compute`` becomes the one-line :class:`LobbyError` ``refuse`` makes
        of it, and nothing is kept. ``wanted``: asked when the job's turn comes;
        ``False`` (nobody can use the answer any more) gives ``None`` at once,
        computing and keeping nothing — jobs queue one behind another, and under
        load a wait can outlast the question, so the CPU time goes to the answers
        still awaited."""
        async with self.lock:
            if key not in self.done:
                if wanted is not None and not wanted():
                    return None
                try:
                    answer = await asyncio.to_thread(compute)
                except GoatError as exc:
                    raise refuse(exc) from None
                self.done[key] = answer
                if len(self.done) > self.keep:
                    self.done.popitem(last=False)
            self.done.move_to_end(key)
            return self.done[key]
