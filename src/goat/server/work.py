"""CPU work for the tables (deal reviews, hints): one job at a time in a worker
thread, each answer kept.

Solving deals takes from a fraction of a second to seconds of CPU time. Run on
the event loop it would stall every table; run all at once it would starve the
bots' turns. So :class:`KeptWork` runs one job at a time in a worker thread
(the event loop and the tables go on meanwhile), and keeps each answer by its
key, dropping the least recently used beyond ``keep``: asking again, from any
client, costs nothing.

Asking for a job already waiting or running waits for that same job: a page
asked twice, or two tabs of one player, cost one computation, not a second
place in the queue. And the queue is bounded: beyond ``waiting`` different jobs
waiting, a new one is refused at once (503, :func:`busy`) — a club night with
many hint tables, or someone asking for the reviews of every finished game,
would otherwise make every later answer wait minutes, long after its question
stopped mattering, and keep a request open for each.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

from goat.protocol import GoatError
from goat.server.tables import LobbyError

#: Different jobs that may wait for their turn at once; beyond, new ones are refused.
WAITING = 32


def busy() -> LobbyError:
    """The refusal of a job beyond the queue's bound (the page words it as ``lobbyErrors.busy``)."""
    return LobbyError("the server is busy thinking for other tables: ask again in a moment", status=503,
                      say="busy")


class KeptWork:
    """Answers computed one at a time in a worker thread, kept by key (LRU)."""

    def __init__(self, keep: int, waiting: int = WAITING) -> None:
        self.keep = keep
        self.waiting = waiting
        self.done: OrderedDict[Hashable, Any] = OrderedDict()
        self.jobs: dict[Hashable, asyncio.Task[Any]] = {}   # waiting or running, by key
        self.lock = asyncio.Lock()

    async def get(self, key: Hashable, compute: Callable[[], Any],
                  refuse: Callable[[GoatError], LobbyError], wanted: Callable[[], bool] | None = None) -> Any:
        """The answer kept for ``key``, else ``compute()`` run in a worker thread
        (after any job already running) and kept; a job for ``key`` already
        waiting or running is waited for, not started again. A :class:`GoatError`
        of ``compute`` becomes the one-line :class:`LobbyError` ``refuse`` makes
        of it, and nothing is kept. ``wanted``: asked when the job's turn comes;
        ``False`` (nobody can use the answer any more) gives ``None`` at once,
        computing and keeping nothing — jobs queue one behind another, and under
        load a wait can outlast the question, so the CPU time goes to the answers
        still awaited. Raises :func:`busy` when ``waiting`` other jobs wait already."""
        if key in self.done:
            self.done.move_to_end(key)
            return self.done[key]
        job = self.jobs.get(key)
        if job is None:
            if len(self.jobs) > self.waiting:   # the one running does not wait
                raise busy()
            job = self.jobs[key] = asyncio.ensure_future(self._run(key, compute, wanted))
            job.add_done_callback(lambda done: self._finished(key, done))
        try:
            # Shielded: a client that goes away does not cancel the job others may wait for.
            return await asyncio.shield(job)
        except GoatError as exc:
            raise refuse(exc) from None

    async def _run(self, key: Hashable, compute: Callable[[], Any], wanted: Callable[[], bool] | None) -> Any:
        async with self.lock:
            if key in self.done:
                return self.done[key]
            if wanted is not None and not wanted():
                return None
            answer = await asyncio.to_thread(compute)
            self.done[key] = answer
            if len(self.done) > self.keep:
                self.done.popitem(last=False)
            return answer

    def _finished(self, key: Hashable, job: asyncio.Task[Any]) -> None:
        if self.jobs.get(key) is job:
            del self.jobs[key]
        if not job.cancelled():
            job.exception()   # retrieved: every asker may have gone; asyncio would log it as lost

    async def close(self) -> None:
        """Cancel the jobs still waiting (the server is stopping): nobody will read
        their answers. One running in its thread ends there on its own."""
        jobs = list(self.jobs.values())
        for job in jobs:
            job.cancel()
        await asyncio.gather(*jobs, return_exceptions=True)
