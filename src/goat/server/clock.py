"""Time per move: a table setting that keeps one wandering player from
stalling everyone else.

At a table with people who do not know each other, one player who walks away
stalls the others. Card rooms give each move a time; when it runs out, a
default move is made. A table made with ``move_seconds`` (``None``: off, the
default; else a whole number of seconds, :data:`MOVE_SECONDS_MIN` ..
:data:`MOVE_SECONDS_MAX`) does the same: while a human seat is to act (any
decision the game protocol gives that seat: a card, a bid, a blind-nil look, a
duel prompt) the table (:class:`goat.server.tables.Table`) keeps a deadline —
one ``loop.call_later`` per table, never one per seat. When it passes, the
table's driver makes that one decision for the seat with the bot a dropped
player gets (:func:`goat.server.tables.clock_bot`), **given only the seat's view**
(:func:`clock_choice`: never the state, exactly as a hint is computed), and
stores it with the actor ``"clock"``. The seat stays the player's; their next
decision gets a fresh clock. A move in time changes the version, which stops
the clock and makes a late clock move stale: the driver commits the clock's
choice only if the table is still at the version it was chosen for.

Clients count down locally: a state message carries the clock as the seat it
runs for and the milliseconds left when the message was built
(:meth:`Clock.json`), never a wall-clock time, since machines disagree about
the time. After a server restart a pending decision gets a fresh full clock
(the deadline is not stored: it is a courtesy, not a rule of the game).
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Any

from goat.bots import Bot
from goat.protocol import GoatError

#: The shortest and longest time per move the API accepts (seconds).
MOVE_SECONDS_MIN = 1
MOVE_SECONDS_MAX = 3600
#: What the create form offers (seconds; off is ``None``).
MOVE_SECONDS_PRESETS = (15, 30, 60, 120, 300)
#: The event ``actor`` of a move the clock made for a seat (``goat_events.actor``
#: holds at most 8 characters; ``human``, ``bot`` and ``server`` are the others).
CLOCK_ACTOR = "clock"


class ClockSettingError(GoatError):
    """A ``move_seconds`` value the API does not accept (one line)."""


def check_move_seconds(value: Any) -> int | None:
    """``value`` as a table's ``move_seconds``: ``None`` (off) or a whole number
    of seconds in range; raises :class:`ClockSettingError` for anything else
    (a boolean, a fraction, a string, out of range)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ClockSettingError(f"move_seconds must be null or a whole number of seconds "
                                f"{MOVE_SECONDS_MIN}..{MOVE_SECONDS_MAX}, not {value!r:.40}")
    if not MOVE_SECONDS_MIN <= value <= MOVE_SECONDS_MAX:
        raise ClockSettingError(f"move_seconds must be {MOVE_SECONDS_MIN}..{MOVE_SECONDS_MAX} seconds, not {value}")
    return value


@dataclass
class Clock:
    """The deadline of one decision: the seat it runs for, the table version it
    was started at (a new version is a new decision), when it ends (on
    :func:`time.monotonic`'s scale, which the event loop's ``time()`` uses too)
    and the pending ``call_later`` (``None`` once it fired)."""

    seat: int
    version: int
    deadline: float
    handle: asyncio.TimerHandle | None = None

    def cancel(self) -> None:
        if self.handle is not None:
            self.handle.cancel()
            self.handle = None

    def json(self) -> dict[str, int]:
        """What a state message says of it: ``{"seat": 2, "ms": 14250}``, the
        milliseconds left now (0 once it ran out and the move is being made)."""
        return {"seat": self.seat, "ms": max(0, round((self.deadline - time.monotonic()) * 1000))}


def clock_choice(bot: Bot, view: dict[str, Any]) -> Any:
    """The action ``bot`` chooses from ``view`` (one seat's view, a detached
    JSON copy: never the state); runs in a worker thread."""
    prepare = getattr(bot, "prepare", None)
    if prepare is not None:
        prepare(view)
    return bot.choose(view)
