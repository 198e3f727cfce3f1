"""Loading the double-dummy solver's kernels for the server without holding it up.

The first use of :mod:`goat.fast.solver` on a fresh install compiles its numba
kernels: half a minute to a minute of CPU. Done in a worker thread of the
server, that compile could not be stopped — a thread cannot be cancelled, and
Python waits for its worker threads at exit — so a Ctrl+C in that minute waited
for it (65 s measured on a fresh cache, with nothing said), and numba's type
inference, which is Python, took turns with every table for the interpreter.

So the compile runs in a **child process** (:data:`COMPILE`), which fills
numba's cache on disk; the server then loads the kernels from that cache in a
worker thread (well under a second). A stopping server kills the child at once
(:meth:`SolverLoad.close`); the child runs in its own session, so the Ctrl+C of
the terminal reaches only the server, which then ends the child itself.

The load starts when a table that will use the solver starts or is restored in
play (:func:`wants_solver`: hints from ``pimc``, or a ``pimc`` bot in a seat),
and work that needs the kernels — a hint from ``pimc``, a deal review, a move
at a table whose bots may use them (:func:`bots_use_solver`; other tables' bots
go on) — awaits :meth:`SolverLoad.ready` first: none of them then compiles the
kernels a second time beside the child, in a thread a stop would wait for. Where the child fails (numba cannot
write its cache: a read-only install with no user cache directory), the kernels
are loaded in the worker thread as before, said in one log line.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Sequence
from typing import Any

log = logging.getLogger("goat.server")

#: The child's command line after the interpreter: compile (or load from numba's
#: cache) every kernel the server's solver users need, and exit.
COMPILE = ("-c", "from goat.fast.solver import warm_up; warm_up()")

#: Kozel rulesets where the double-dummy solver plays (``pimc``, deal reviews),
#: with the player counts where it answers within a hint's time
#: (:mod:`goat.server.hints`).
SOLVER_RULES = {"classic": (4,), "full-hand": (2, 3, 4), "full-hand-24": (4,)}


def uses_solver(game: str, rules: str, players: int) -> bool:
    """Whether hints at such a table come from ``pimc`` (the double-dummy solver)."""
    return game == "kozel" and players in SOLVER_RULES.get(rules, ())


def solver_game(game: str, rules: str) -> bool:
    """Whether ``pimc`` and a deal review of such a game load the solver's
    kernels: Kozel's rulesets the solver takes (Spades' ``pimc`` uses DDS, with
    nothing to compile; other games have no deal review)."""
    return game == "kozel" and rules in SOLVER_RULES


def bots_use_solver(table: Any) -> bool:
    """Whether ``table``'s bots may use the solver: a seat is held by a ``pimc``
    bot (``"pimc"``, ``"pimc:worlds=16"``), or the server's default bot, which
    plays for a person who is away or out of time, is ``pimc``."""
    row = table.row
    bots = [seat.bot for seat in table.seats if seat.kind == "bot"] + [table.settings.default_bot]
    return solver_game(row.game, row.rules) and any((bot or "").split(":")[0] == "pimc" for bot in bots)


def wants_solver(table: Any) -> bool:
    """Whether ``table`` (a :class:`~goat.server.tables.Table`, started or
    restored) will use the solver: its hints come from ``pimc``, or its bots may
    (:func:`bots_use_solver`)."""
    row = table.row
    return bool(table.hints) and uses_solver(row.game, row.rules, row.players) or bots_use_solver(table)


def _loaded() -> bool:
    """Whether this process has the kernels loaded already (no child needed)."""
    solver = sys.modules.get("goat.fast.solver")
    return bool(getattr(solver, "_WARM", False))


def _load_in_process() -> None:
    """Load the kernels in this process (a worker thread): from numba's cache
    once the child filled it, else by compiling them here."""
    from goat.fast.solver import warm_up

    warm_up()


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else "no message"


class SolverLoad:
    """The solver's kernels loading for one server (see the module doc).

    ``command``: the child's full command line (default: this interpreter with
    :data:`COMPILE`)."""

    def __init__(self, command: Sequence[str] | None = None) -> None:
        self.command = list(command) if command is not None else [sys.executable, *COMPILE]
        self._task: asyncio.Task[None] | None = None
        self._child: asyncio.subprocess.Process | None = None
        self._closing = False

    @property
    def child(self) -> asyncio.subprocess.Process | None:
        """The compiling child process, if one was started."""
        return self._child

    def start(self) -> None:
        """Start loading the kernels (once a server; at once if loaded already)."""
        if self._task is None and not self._closing:
            self._task = asyncio.get_running_loop().create_task(self._load())
            self._task.add_done_callback(_said_if_failed)

    async def ready(self) -> None:
        """Start the load if it has not started and wait for it (as
        :meth:`settled`). A load that failed is not raised here: the caller's own
        use of the solver loads the kernels and says what fails. A cancelled
        waiter leaves the load running."""
        self.start()
        await self.settled()

    async def settled(self) -> None:
        """Wait for a load in progress; return at once if none was started.
        Raises :class:`asyncio.CancelledError` once the server is stopping
        (:meth:`close`): whoever waited must not go on to compile the kernels
        itself, in a thread the stop would wait for."""
        if self._task is not None and not self._closing:
            await asyncio.wait([self._task])
        if self._closing:
            raise asyncio.CancelledError("the server is stopping")

    async def close(self) -> None:
        """Kill a compiling child and end the load (server shutdown)."""
        self._closing = True
        child = self._child
        if child is not None and child.returncode is None:
            child.kill()
            await child.wait()
        if self._task is not None and not self._task.done():
            self._task.cancel()
            await asyncio.wait([self._task])

    async def _load(self) -> None:
        if not _loaded() and not await self._compile():
            return
        await asyncio.to_thread(_load_in_process)

    async def _compile(self) -> bool:
        """Run the child; ``False`` if it was killed (the server is stopping:
        nothing more to load), else ``True`` (a child that failed is said, and
        the kernels are then loaded in the server)."""
        try:
            self._child = child = await asyncio.create_subprocess_exec(
                *self.command, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
                stderr=asyncio.subprocess.PIPE, start_new_session=True)
        except OSError as exc:
            log.warning("the solver could not be compiled in a child process (%s); the server compiles it", exc)
            return True
        _, err = await child.communicate()
        if self._closing or (child.returncode is not None and child.returncode < 0):   # killed
            return False
        if child.returncode != 0:
            log.warning("compiling the solver in a child process failed (%s); the server compiles it",
                        _last_line(err.decode(errors="replace")))
        return True


def _said_if_failed(task: asyncio.Task[None]) -> None:
    """A load that failed is said in one line (nobody may await it: unread, its
    error came out at exit as "Future exception was never retrieved" and a
    traceback); the solver's first user loads the kernels itself and says what fails."""
    if task.cancelled() or (exc := task.exception()) is None:
        return
    said = (str(exc).splitlines() or [type(exc).__name__])[0]
    log.warning("the solver's warm-up failed (%s); its first use loads it instead", said)
