"""A WebSocket ping the app can await: uvicorn's WebSocket protocol, plus the
ASGI scope extension ``goat.ping``.

ASGI has no ping: uvicorn pings every connection on its own clock (``--ping``)
and closes one whose answer is late, so a client that vanished (a phone that
changed networks) is found dead only one to two ``--ping`` later. The cap on
connections per address (:mod:`goat.server.connections`) needs to know *now*
whether a seat's older connection is still there when the same seat connects
again over the cap; this module gives the app that question:
``await scope["extensions"]["goat.ping"]["ping"](seconds)`` is ``True`` when the
client answered a ping within ``seconds``, ``False`` (and the connection is cut,
as uvicorn's keepalive cuts one) when it did not; and
``scope["extensions"]["goat.ping"]["gone"]()`` whether the client is known to have
left already (its close, or the end of its TCP connection, has arrived), which the
app's ``receive`` says only once it has read every message queued before it.

A server without the extension (another ASGI server, a test client) gives the
app no ``goat.ping``; the app then treats every connection as alive.
"""

from __future__ import annotations

import asyncio
import itertools
import os
from typing import Any

from websockets.exceptions import InvalidState
from websockets.frames import Frame, Opcode

try:  # uvicorn's internals: the sans-I/O protocol and its keepalive (uvicorn 0.44+)
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
except ImportError:  # pragma: no cover - an older or a reshaped uvicorn
    WebSocketsSansIOProtocol = object  # type: ignore[assignment,misc]

#: The parts of uvicorn's protocol :class:`PingableWebSocketProtocol` builds on:
#: every method it extends and every attribute it reads or sets. A uvicorn without
#: one of them (older than 0.44, or reshaped since) gets uvicorn's own protocol
#: instead (:func:`websocket_protocol`): the server runs as before, with no
#: ``goat.ping``, so a seat's reconnect over the cap is refused until its dead
#: connection is found by the keepalive, as before this module. One left out here
#: would not fall back: its ``AttributeError`` would fail the reconnect's handler.
NEEDED = ("run_asgi", "send_keepalive_ping", "keepalive_timeout", "handle_pong", "connection_lost", "conn",
          "pending_ping_payload", "scope", "transport", "loop", "close_sent")

#: The scope extension's name (ASGI: ``scope["extensions"][name]`` is a dict).
PING_EXTENSION = "goat.ping"
#: The close code of a connection cut for a ping it did not answer (uvicorn's own).
CLOSE_NO_PONG = 1011

_order = itertools.count()


class PingableWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol (``websockets``' sans-I/O one, uvicorn's
    default when ``websockets`` is installed) with :meth:`ping` in the scope."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: Our pings awaiting their pong: payload -> (order sent, answered: True, or False once the connection is lost).
        self.probes: dict[bytes, tuple[int, asyncio.Future[bool]]] = {}
        self.keepalive_order = -1   # when uvicorn's own ping in flight was sent
        self.lost = False           # the connection is gone (uvicorn's own flag, ``disconnected``, is newer than 0.44)

    async def run_asgi(self) -> None:
        self.scope["extensions"][PING_EXTENSION] = {"ping": self.ping, "gone": self.gone}
        await super().run_asgi()

    def gone(self) -> bool:
        """Whether the connection is over: its client's close or the end of its TCP
        connection has arrived, or this side closed it. Known here at once, when the
        app's ``receive`` may still have messages to give before its disconnect."""
        return self.close_sent or self.lost or self.transport.is_closing()

    async def ping(self, timeout: float) -> bool:
        """Whether the client answers a ping within ``timeout`` seconds. One that
        does not is cut at once (a close frame, then the TCP connection aborted:
        a vanished client would never read the close, and its unread messages
        would keep a graceful close waiting), and the app's ``receive`` is told
        it disconnected."""
        if self.gone():
            return False
        payload = os.urandom(8)   # uvicorn's own are 4 bytes: never taken for one of ours
        try:
            self.conn.send_ping(payload)
        except InvalidState:   # the client's close is being answered
            return False
        self.transport.write(b"".join(self.conn.data_to_send()))
        answered: asyncio.Future[bool] = self.loop.create_future()
        self.probes[payload] = (next(_order), answered)
        try:
            return await asyncio.wait_for(asyncio.shield(answered), timeout)
        except TimeoutError:
            self._cut()
            return False
        finally:
            self.probes.pop(payload, None)

    def _cut(self) -> None:
        if self.gone():
            return
        self.conn.fail(CLOSE_NO_PONG, "no answer to a ping")
        self.transport.write(b"".join(self.conn.data_to_send()))
        self.close_sent = True
        self.transport.abort()   # connection_lost: the app's receive gets its disconnect

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = True
        for _, answered in self.probes.values():
            if not answered.done():
                answered.set_result(False)
        super().connection_lost(exc)

    def keepalive_timeout(self) -> None:
        """uvicorn's keepalive closes a connection whose ping went unanswered
        gracefully: the transport first sends what it still holds, which never
        leaves for a client that vanished after being sent more than the network
        buffers (states, in the middle of a game). The app was not told either: the
        connection held its place under the cap and its seat "connected" until TCP
        gave up, a quarter of an hour later. It is cut at once, as :meth:`ping` cuts one."""
        cutting = not self.gone()
        super().keepalive_timeout()
        if cutting:
            self.transport.abort()   # connection_lost: the app's receive gets its disconnect

    def send_keepalive_ping(self) -> None:
        self.keepalive_order = next(_order)
        super().send_keepalive_ping()

    def handle_pong(self, event: Frame) -> None:
        """A pong answers its ping and every ping sent before it: a client may
        answer only the latest of several pings (RFC 6455, 5.5.3), and uvicorn's
        keepalive would otherwise take a live client that answered only ours for
        dead."""
        data = bytes(event.data)
        if data in self.probes:
            answered_order = self.probes[data][0]
        elif data == self.pending_ping_payload:
            answered_order = self.keepalive_order
        else:
            answered_order = -1
        for order, answered in self.probes.values():
            if order <= answered_order and not answered.done():
                answered.set_result(True)
        if self.pending_ping_payload is not None and 0 <= self.keepalive_order <= answered_order:
            event = Frame(Opcode.PONG, self.pending_ping_payload)
        super().handle_pong(event)


def websocket_protocol() -> Any:
    """The ``ws`` to hand uvicorn: :class:`PingableWebSocketProtocol` where this
    uvicorn has what it builds on, else ``"auto"`` (uvicorn's own choice)."""
    if WebSocketsSansIOProtocol is object:
        return "auto"
    return PingableWebSocketProtocol if set(NEEDED) <= parts_of(WebSocketsSansIOProtocol) else "auto"


def parts_of(protocol: type) -> set[str]:
    """The methods of ``protocol`` and the attributes its methods use (those of an
    instance are set in ``__init__``, ``scope`` only at the handshake)."""
    parts = set(dir(protocol))
    for value in vars(protocol).values():
        code = getattr(value, "__code__", None)
        if code is not None:
            parts.update(code.co_names)
    return parts
