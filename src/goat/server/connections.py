"""The cap on open WebSockets per client address (``goat serve
--connections-per-address``).

The rate limit is per connection (:class:`goat.server.messages.TokenBucket`), so
without a cap one address could open thousands of connections, each with its
writer task and queue, and each sent every broadcast of its table. The address
is the ASGI ``client`` of the connection: behind a reverse proxy uvicorn sets it
from ``X-Forwarded-For`` only for a trusted proxy (``--trusted-proxies``), else
every client counts as the proxy and they share one cap.

A connection over the cap is not always a stranger: a phone that changed networks
leaves its old connection open until a ping goes unanswered (up to twice
``--ping``), and a flaky one that reconnects often fills its address's places
with its own dead connections. So one over the cap may wait a moment for its
``hello`` (:meth:`AddressCap.may_wait`); if it names the seat an older
connection of the same address speaks for at the same table, those of that seat
are pinged at once, the ones that do not answer are cut, and the newcomer takes
a freed place (:meth:`AddressCap.reclaim`). A live second tab answers and stays.
Only a few wait at once per address; when they are all waiting still for their
first message, the newest takes the place of the oldest (:class:`Waiter`), so a
stranger behind the same router cannot hold the waiting places with connections
that never say hello and keep a seat's reconnect out.

All counting happens on the event loop's one thread, so no lock is needed.
"""

from __future__ import annotations

import asyncio
import ipaddress
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import Any, Protocol, TypeVar

T = TypeVar("T")

#: The WebSocket close code of a refused connection (4000-4999 are the
#: application's; 429 as HTTP's "Too Many Requests").
CLOSE_TOO_MANY = 4429


def address_key(host: str | None) -> str:
    """What counts as one client: an IPv4 address, an IPv4-mapped IPv6 address
    as its IPv4 one, an IPv6 address by its /64 (one home or one machine is given
    a whole /64, so counting single IPv6 addresses would cap nothing). A host
    that is no IP address (a test client's name) counts as itself, an unknown
    one as ``""``."""
    if not host:
        return ""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((int(ip) >> 64 << 64, 64)))
    return str(ip)


def with_mapped_forms(proxies: tuple[str, ...]) -> list[str]:
    """``--trusted-proxies`` as uvicorn is to compare them: each IPv4 address or
    network also in its IPv4-mapped IPv6 form (``::ffff:127.0.0.1``,
    ``::ffff:10.0.0.0/104``). A server listening on ``::`` (``goat serve --host ::``)
    takes IPv4 connections on its IPv6 socket, where a proxy on this machine
    connecting to 127.0.0.1 arrives as ``::ffff:127.0.0.1``, which uvicorn does
    not take for ``127.0.0.1``: the proxy was not trusted, and all its clients
    counted as one address, the 33rd of them refused."""
    mapped = []
    for word in proxies:
        if word == "*":
            continue
        network = ipaddress.ip_network(word, strict=False)
        if isinstance(network, ipaddress.IPv4Network):
            start = ipaddress.IPv6Address(int(network.network_address) | 0xFFFF << 32)
            size = 96 + network.prefixlen
            mapped.append(str(start) if "/" not in word else f"{start}/{size}")
    return [*proxies, *mapped]


#: Seconds a connection over the cap may wait for its ``hello`` (the page says it
#: as soon as the connection opens).
HELLO_WAIT_SECONDS = 5.0
#: The most seconds a seat's older connection has to answer the ping of
#: :meth:`AddressCap.reclaim` (less under a shorter ``--ping``).
PING_ANSWER_SECONDS = 3.0
#: How many connections over the cap one address may have waiting for their
#: ``hello`` at once (:meth:`AddressCap.may_wait`); the rest are refused at once.
WAITING_PER_ADDRESS = 4


class Holder(Protocol):
    """What the cap needs of a connection holding a place."""

    #: The token of the seat it speaks for (``None``: a spectator, or no ``hello`` yet).
    seat_token: str | None
    #: The id of the table it is connected to (``None``: none, or it let go of its seat).
    table_id: str | None

    async def answers_ping(self, timeout: float) -> bool:
        """Whether its client answers a ping within ``timeout`` seconds (one that
        does not is closed); ``True`` when the server cannot ping."""
        ...


class Place:
    """One connection's place under its address's cap. :meth:`release` gives it
    back once, however often it is called: by the connection's own ``finally``,
    and earlier by :meth:`AddressCap.reclaim` for a dead connection still closing."""

    def __init__(self, cap: AddressCap, key: str) -> None:
        self.cap = cap
        self.key = key
        self.holder: Holder | None = None   # set once the connection exists
        self.released = False

    def release(self) -> None:
        if self.released:
            return
        self.released = True
        places = self.cap.places[self.key]
        places.discard(self)
        if not places:
            del self.cap.places[self.key]


class Waiter:
    """A connection over the cap waiting for its first message (the ``hello``;
    :meth:`AddressCap.waiting_for_hello`). Until that message has arrived, a newer
    waiter of the same address may take its waiting place (:meth:`bump`): it is then
    refused at once instead of at the end of its wait. The page says hello as soon
    as its connection opens, so a seat's reconnect is past this point within a round
    trip; a connection that stays silent is the one to give way. One whose message
    has arrived is not bumped: it is deciding (the ping of :meth:`AddressCap.reclaim`,
    which only a seat's own token starts)."""

    def __init__(self) -> None:
        self.receiving: asyncio.Future[Any] | None = None   # the first message, once asked for
        self.bumped = False

    @property
    def heard(self) -> bool:
        """Whether its first message (or its disconnect) has arrived."""
        return self.receiving is not None and self.receiving.done() and not self.receiving.cancelled()

    def bump(self) -> None:
        """Give up the wait: :meth:`first_event` returns ``None`` now (or at once, if not yet called)."""
        self.bumped = True
        if self.receiving is not None:
            self.receiving.cancel()

    async def first_event(self, receive: Callable[[], Awaitable[T]], timeout: float) -> T | None:
        """What ``receive()`` gives within ``timeout`` seconds; ``None`` when the time
        ran out or the waiter was bumped meanwhile. ``receive()`` runs as a task of its
        own, so a bump cancels it alone and this one goes on to refuse the connection."""
        if self.bumped:   # while the connection was being accepted
            return None
        receiving: asyncio.Future[T] = asyncio.ensure_future(receive())
        self.receiving = receiving
        try:
            await asyncio.wait((receiving,), timeout=timeout)
        finally:
            receiving.cancel()   # the time is up, or this task is cancelled (a server stopping); once done, it
            # marks what receive() raised as read: no "Task exception was never retrieved"
        if not receiving.done() or receiving.cancelled():
            return None
        event = receiving.result()   # what receive() raised is the caller's, bumped or not (never left unread)
        return None if self.bumped else event


async def heard_meanwhile(receive: Callable[[], Awaitable[Any]], work: Awaitable[T],
                          most: int) -> tuple[T, list[Any], bool]:
    """``await work`` while reading the connection: its result, the messages
    (``websocket.receive`` events) ``receive()`` gave meanwhile, in order, and
    whether its client left (a disconnect, or ``receive()`` failed). A waiter's
    client may leave while :meth:`AddressCap.reclaim` pings for it: it must not be
    admitted with the freed place, its hello shown as its seat connected. Read
    all along, not only the first message: uvicorn reads a client's next frame only
    once the app has taken its last message, so a close behind an unread message
    would not even reach the server. The messages are the caller's to handle after
    the hello; reading stops at ``most`` of them (more would be past the rate
    limit's burst). The reading is a task of its own, cancelled once the work is
    done (an ASGI receive loses nothing to a cancel); what a cancel leaves queued,
    the connection itself knows (``client_gone`` in :mod:`goat.server.app`)."""
    messages: list[Any] = []

    async def listen() -> bool:
        while len(messages) < most:
            event = await receive()
            if event["type"] != "websocket.receive":
                return True
            messages.append(event)
        return False

    listening: asyncio.Future[bool] = asyncio.ensure_future(listen())
    try:
        result = await work
    finally:
        listening.cancel()   # still reading, or this task is cancelled (a server stopping)
    if not listening.done() or listening.cancelled():
        return result, messages, False
    if listening.exception() is not None:   # (read: no "Task exception was never retrieved")
        return result, messages, True
    return result, messages, listening.result()


class AddressCap:
    """The places each address holds open, admitted up to ``cap`` (0: no cap).
    Every :meth:`admit` that returned a :class:`Place` is paired with its
    :meth:`Place.release`, in a ``finally``: a connection's place is freed however
    it ends (closed by the client, an error, a server stopping)."""

    def __init__(self, cap: int, waiting: int = WAITING_PER_ADDRESS) -> None:
        self.cap = cap
        self.places: dict[str, set[Place]] = {}
        self.waiting_most = waiting
        self.waiters: dict[str, list[Waiter]] = {}   # per address, the oldest first

    @property
    def open(self) -> dict[str, int]:
        """How many connections each address holds open."""
        return {key: len(places) for key, places in self.places.items()}

    @property
    def waiting(self) -> dict[str, int]:
        """How many connections over the cap each address has waiting for their ``hello``."""
        return {key: len(waiters) for key, waiters in self.waiters.items()}

    def admit(self, host: str | None) -> Place | None:
        """A place for a new connection from ``host``, or ``None`` when the
        address holds ``cap`` already (the connection is to wait or be refused)."""
        key = address_key(host)
        places = self.places.setdefault(key, set())
        if self.cap and len(places) >= self.cap:
            if not places:
                del self.places[key]
            return None
        place = Place(self, key)
        places.add(place)
        return place

    def may_wait(self, host: str | None, table_id: str) -> bool:
        """Whether a connection over the cap to table ``table_id`` may wait for its
        ``hello``: only while one of its address's connections speaks for a seat at
        that table (else no hello could free a place: :meth:`reclaim`), and while
        fewer than ``waiting`` of the address wait already or one of those has not
        said anything yet (it gives way: :meth:`waiting_for_hello`), so the cap
        still bounds what one address holds."""
        key = address_key(host)
        waiters = self.waiters.get(key, ())
        room = len(waiters) < self.waiting_most or any(not w.heard for w in waiters)
        return room and any(self.seats_at(key, table_id))

    @contextmanager
    def waiting_for_hello(self, host: str | None) -> Iterator[Waiter]:
        """Count a connection over the cap as waiting (:meth:`may_wait`) while in
        the block. When ``waiting`` of its address wait already, the oldest that has
        not said anything yet is bumped (:meth:`Waiter.bump`) and counts no more."""
        key = address_key(host)
        waiters = self.waiters.setdefault(key, [])
        if len(waiters) >= self.waiting_most:
            silent = next((w for w in waiters if not w.heard), None)
            if silent is not None:
                waiters.remove(silent)
                silent.bump()
        waiter = Waiter()
        waiters.append(waiter)
        try:
            yield waiter
        finally:
            left = self.waiters.get(key, [])
            if waiter in left:
                left.remove(waiter)
            if not left:
                self.waiters.pop(key, None)

    async def reclaim(self, host: str | None, table_id: str, seat_token: str, timeout: float) -> int:
        """Ping, all at once, the connections of ``host``'s address that speak for
        the seat of ``seat_token`` at table ``table_id``; give back the places of
        those that did not answer within ``timeout`` (they are being closed), and
        return how many.

        A seat token is one seat's secret at one table (a random one for each seat
        taken; a rematch gives new ones), so a hello on another table's channel
        with it holds no seat there and is closed as a wrong token: it frees no
        place here, lest a connection take a dead one's place only to be closed."""
        key = address_key(host)
        same_seat = [(place, holder) for place, holder in self.seats_at(key, table_id)
                     if holder.seat_token == seat_token]
        answers = await asyncio.gather(*(holder.answers_ping(timeout) for _, holder in same_seat))
        dead = [place for (place, _), alive in zip(same_seat, answers) if not alive]
        for place in dead:
            place.release()
        return len(dead)

    def seats_at(self, key: str, table_id: str) -> Iterator[tuple[Place, Holder]]:
        """The places of address ``key`` whose connections speak for a seat at table ``table_id``."""
        for place in self.places.get(key, ()):
            holder = place.holder
            if holder is not None and holder.seat_token and holder.table_id == table_id:
                yield place, holder

    def refusal(self) -> str:
        """The one line a refused connection is told (also its close reason,
        which WebSocket limits to 123 bytes)."""
        return f"too many connections from your address: at most {self.cap} at once"
