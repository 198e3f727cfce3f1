"""Table chat: what the people seated at a table say to each other.

Chat is talk *beside* the game, not part of it: a message never touches the
table's state, its ``version``, its stored events, its record or its replay.
So it lives in memory only, in one :class:`ChatRoom` per table holding the
last :data:`KEEP` messages: a server restart forgets the chat, never the game
(the game is stored before anyone hears of a move; a chat line is not worth a
database write per keystroke of friendly talk, and nobody replays it).

Only a seated person writes (a connection that said ``hello`` with a seat's
token); spectators read. A message is cleaned before anyone sees it — control
characters dropped (line breaks and tabs become spaces, so every message is one
line; bidirectional overrides go too, so nobody can make a line read
backwards), then trimmed — and must then hold 1 to :data:`TEXT_LIMIT`
characters. Each seat may send :attr:`Settings.chat_limit` messages in any
:attr:`Settings.chat_window` seconds (all its connections together); beyond
that it is refused. Every refusal is a :class:`ProtocolError` with one line,
and then nothing is kept or broadcast.

A table may moderate its chat with the table setting ``chat`` (chosen when it
is made, like ``hints``; kept by a rematch and a restart): ``"on"`` (the
default) lets seated people write at any time; ``"lobby"`` closes the chat
while the game is played — in a partnership game talk during a deal is table
talk, a way to signal to one's partner — and opens it in the lobby and once
the game is over; ``"off"`` closes it altogether. A message to a closed chat
is refused with ``chat-closed`` and one line, and nothing is kept or
broadcast. The check is :func:`closed_reason`, called by :func:`say`: the
one place that decides. Muting one person is the page's business alone
(``static/chat.js``): the server still sends every message to everyone.

The server does not read what people write: Kozel partners could tell each other
their cards here as across a kitchen table. What the server itself says never
names a hidden card (``viewfilter``); what a player types is theirs.
"""

from __future__ import annotations

import time
import unicodedata
from collections import deque
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from goat.protocol import GoatError
from goat.server.messages import ErrorCode, ProtocolError
from goat.server.viewfilter import render

if TYPE_CHECKING:  # pragma: no cover
    from goat.server.tables import Table

#: The most characters a chat message may have once cleaned.
TEXT_LIMIT = 300
#: How many recent messages a table keeps, and a (re)connecting page gets.
KEEP = 50
#: Format characters that reorder text (embeddings, overrides, isolates): dropped.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")
#: The values of the table setting ``chat``, the default first.
CHAT_SETTINGS = ("on", "lobby", "off")
DEFAULT_SETTING = "on"
#: The refusals of a closed chat (one line each), by setting.
CLOSED_WHILE_PLAYED = "the chat at this table is closed while the game is played"
CLOSED_ALWAYS = "the chat is off at this table"


class ChatSettingError(GoatError):
    """A ``chat`` table setting the API does not accept (one line)."""


def check_setting(value: object) -> str:
    """``value`` as a table's ``chat`` setting (one of :data:`CHAT_SETTINGS`);
    raises :class:`ChatSettingError` for anything else (another string, a
    boolean, ``None``), so a caller that bypasses the HTTP body's own check
    still cannot store a setting the page does not know."""
    if not isinstance(value, str) or value not in CHAT_SETTINGS:
        raise ChatSettingError(f"chat must be one of {', '.join(repr(v) for v in CHAT_SETTINGS)}, not {value!r:.40}")
    return value


def closed_reason(setting: str, status: str) -> str | None:
    """Why a message may not be sent now at a table whose ``chat`` setting is
    ``setting`` and whose status is ``status`` (``lobby``, ``playing``,
    ``finished``): one line, or ``None`` while the chat is open."""
    if setting == "off":
        return CLOSED_ALWAYS
    if setting == "lobby" and status == "playing":
        return CLOSED_WHILE_PLAYED
    return None


def clean_text(text: str) -> str:
    """``text`` as it is shown: whitespace controls (line breaks, tabs) as
    spaces, every other control character, surrogate, private-use or
    unassigned code point and bidirectional control removed, then trimmed.
    Zero-width joiners and variation selectors stay: emoji are made of them."""
    kept = []
    for ch in text:
        if ch.isspace():
            kept.append(" ")
        elif ch in BIDI_CONTROLS or unicodedata.category(ch) in ("Cc", "Cs", "Co", "Cn"):
            continue
        else:
            kept.append(ch)
    return "".join(kept).strip()


def now_iso() -> str:
    """The current UTC time to the second, ISO 8601 (``2026-12-01T22:50:07+00:00``)."""
    return datetime.now(UTC).isoformat(timespec="seconds")


class ChatRoom:
    """One table's chat: the recent messages and each seat's recent sending times.

    ``clock`` (monotonic seconds) is injectable so the rate limit is tested
    without waiting; ``stamp`` gives each message its wall-clock ``at``.
    """

    def __init__(self, limit: int = 5, window: float = 10.0, clock: Callable[[], float] = time.monotonic,
                 stamp: Callable[[], str] = now_iso) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self.stamp = stamp
        self.messages: deque[dict[str, Any]] = deque(maxlen=KEEP)
        self.sent: dict[int, deque[float]] = {}
        self.count = 0   # messages ever accepted at this table: the next one's ``n`` is count + 1

    def accept(self, seat: int | None, name: str, text: str) -> dict[str, Any]:
        """Check and keep a message from ``seat`` (``None``: a spectator) named
        ``name``; returns it (``seat``, ``name``, ``text``, ``at``, ``n``: its
        number at this table, from 1). Raises :class:`ProtocolError` —
        ``not-seated``, ``malformed`` (empty or too long), ``rate-limited`` —
        and then keeps nothing and counts nothing against the seat."""
        if seat is None:
            raise ProtocolError(ErrorCode.NOT_SEATED, "spectators read the chat but cannot write; take a seat to talk")
        cleaned = clean_text(text)
        if not cleaned:
            raise ProtocolError(ErrorCode.MALFORMED, "a chat message needs some text")
        if len(cleaned) > TEXT_LIMIT:
            raise ProtocolError(ErrorCode.MALFORMED,
                                f"a chat message has at most {TEXT_LIMIT} characters (this one has {len(cleaned)})")
        now = self.clock()
        times = self.sent.setdefault(seat, deque())
        while times and now - times[0] >= self.window:
            times.popleft()
        if len(times) >= self.limit:
            raise ProtocolError(ErrorCode.RATE_LIMITED, f"too many chat messages: at most {self.limit} in "
                                f"{self.window:g} s a seat; this one was not sent")
        times.append(now)
        self.count += 1
        message = {"seat": seat, "name": name, "text": cleaned, "at": self.stamp(), "n": self.count}
        self.messages.append(message)
        return message

    def recent(self) -> list[dict[str, Any]]:
        """The kept messages, oldest first (at most :data:`KEEP`)."""
        return list(self.messages)


def say(table: "Table", seat: int | None, text: str) -> None:
    """A client's chat message at ``table``: checked and kept by the table's
    room, then sent at once to every connection of the table (players and
    spectators alike: one text for all). Raises :class:`ProtocolError`:
    ``chat-closed`` when the table's ``chat`` setting closes the chat now
    (checked first: nothing is kept, counted or sent), else as
    :meth:`ChatRoom.accept` does; the table itself is never touched."""
    reason = closed_reason(table.chat_setting, table.status)
    if reason is not None:
        raise ProtocolError(ErrorCode.CHAT_CLOSED, reason)
    name = table.seats[seat].name if seat is not None else ""
    message = table.chat.accept(seat, name, text)
    out = render(table, None, "chat", chat=message)
    for conn in list(table.connections):
        conn.deliver(out)


def history(table: "Table") -> str:
    """The ``chat-log`` message a connection gets right after its ``hello``:
    the table's recent messages (the page replaces its list with them)."""
    return render(table, None, "chat-log", messages=table.chat.recent())
