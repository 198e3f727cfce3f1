"""What a client may send over the WebSocket, and the error codes it may get back.

Client messages are JSON objects with a ``type`` (``docs/server.md``):

* ``{"type": "hello", "token": "..."}`` — first message; a seat's secret token,
  or none (``null``) to watch as a spectator;
* ``{"type": "action", "action": "2 play KH", "version": 17, "id": "c-81"}`` —
  an action in record notation, the table version the client saw, and a
  client-chosen id that makes a resent message recognisable;
* ``{"type": "sync"}`` — ask for a fresh snapshot; ``{"type": "ping"}``;
* ``{"type": "chat", "text": "..."}`` — a seated person talks to the table
  (its text is cleaned and checked by :mod:`goat.server.chat`).

Every refusal is a :class:`ProtocolError` with one of the :class:`ErrorCode`
values and a one-line message; the table is never touched by a refused message.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from enum import StrEnum
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator

from goat.protocol import GoatError
from goat.server.storage import unstorable


class ErrorCode(StrEnum):
    """Stable error codes for programs; the message beside them is for people."""

    MALFORMED = "malformed"            # not JSON, or not one of the message shapes
    OVERSIZED = "oversized"            # longer than the server's limit
    UNKNOWN_TABLE = "unknown-table"
    WRONG_TOKEN = "wrong-token"        # no seat of this table has that token
    NOT_SEATED = "not-seated"          # a spectator tried to act
    WRONG_SEAT = "wrong-seat"          # an action naming another seat
    NOT_STARTED = "not-started"        # the table is still in its lobby
    GAME_OVER = "game-over"
    NOT_YOUR_TURN = "not-your-turn"
    STALE_VERSION = "stale-version"    # the client acted on an old state
    DUPLICATE = "duplicate"            # this action id was applied already
    ILLEGAL_ACTION = "illegal-action"  # the engine refused it (its reason follows)
    RATE_LIMITED = "rate-limited"
    CHAT_CLOSED = "chat-closed"        # the table's chat setting closes the chat now (goat.server.chat)
    TOO_MANY_CONNECTIONS = "too-many-connections"   # the address holds its cap of connections (closed: 4429)
    STORAGE = "storage"                # the action could not be stored: not applied
    INTERNAL = "internal"              # a server fault; the table is unchanged


class ProtocolError(GoatError):
    """A client message the server refuses: ``code`` for programs, the message for people."""

    def __init__(self, code: ErrorCode, message: str, **details: object) -> None:
        super().__init__(message.replace("\n", " "))
        self.code = code
        self.details = details


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class Hello(_Message):
    type: Literal["hello"]
    token: Annotated[str, Field(min_length=1, max_length=128)] | None = None


class ActionMessage(_Message):
    type: Literal["action"]
    action: Annotated[str, Field(min_length=1, max_length=200)]
    version: Annotated[int, Field(ge=0)]
    id: Annotated[str, Field(min_length=1, max_length=64)]

    @field_validator("id")
    @classmethod
    def _printable_id(cls, value: str) -> str:
        """The id is stored with the move (``goat_events.client_id``): a control
        character, NUL above all, which PostgreSQL's text cannot hold, is refused
        here as malformed on every database, not "not applied" on PostgreSQL alone."""
        if unstorable(value):
            raise ValueError("must be printable text (no control characters)")
        return value


class Sync(_Message):
    type: Literal["sync"]


class Ping(_Message):
    type: Literal["ping"]


class ChatMessage(_Message):
    """Talk at the table; its length is checked once cleaned (``goat.server.chat``)."""

    type: Literal["chat"]
    text: str


ClientMessage = Annotated[Hello | ActionMessage | Sync | Ping | ChatMessage, Field(discriminator="type")]
_ADAPTER: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)
TYPES = ("hello", "action", "sync", "ping", "chat")


def parse_client_message(text: str | bytes, max_bytes: int) -> Hello | ActionMessage | Sync | Ping | ChatMessage:
    """Check size, JSON and shape; raise :class:`ProtocolError` (``oversized`` or
    ``malformed``) with a one-line reason."""
    size = len(text.encode("utf-8")) if isinstance(text, str) else len(text)
    if size > max_bytes:
        raise ProtocolError(ErrorCode.OVERSIZED, f"message of {size} bytes is over the limit of {max_bytes}")
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ProtocolError(ErrorCode.MALFORMED, f"not JSON: {getattr(exc, 'msg', exc)}") from None
    except RecursionError:
        # A few thousand brackets fit under the size limit and run json's decoder out
        # of stack: the sender's mistake, not a server fault to log with a traceback.
        raise ProtocolError(ErrorCode.MALFORMED, "not JSON: nested too deeply") from None
    if not isinstance(data, dict):
        raise ProtocolError(ErrorCode.MALFORMED, "a message must be a JSON object")
    kind = data.get("type")
    if kind not in TYPES:
        raise ProtocolError(ErrorCode.MALFORMED,
                            f"unknown message type {json.dumps(kind)[:40]} (one of {', '.join(TYPES)})")
    try:
        return _ADAPTER.validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"][1:]) or "message"
        raise ProtocolError(ErrorCode.MALFORMED, f"bad {kind} message: {where}: {first['msg']}") from None


class TokenBucket:
    """Per-connection rate limit: ``rate`` messages a second, bursts up to ``burst``.

    ``clock`` is injectable so tests need no sleeping.
    """

    def __init__(self, rate: float, burst: int, clock: Callable[[], float]) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.tokens = float(burst)
        self.stamp = clock()

    def allow(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False
