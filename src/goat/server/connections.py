"""The cap on open WebSockets per client address (``goat serve
--connections-per-address``).

The rate limit is per connection (:class:`goat.server.messages.TokenBucket`), so
without a cap one address could open thousands of connections, each with its
writer task and queue, and each sent every broadcast of its table. The address
is the ASGI ``client`` of the connection: behind a reverse proxy uvicorn sets it
from ``X-Forwarded-For`` only for a trusted proxy (``--trusted-proxies``), else
every client counts as the proxy and they share one cap.

All counting happens on the event loop's one thread, so no lock is needed.
"""

from __future__ import annotations

import ipaddress

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


class AddressCap:
    """How many connections each address holds open, admitted up to ``cap``
    (0: no cap). Every :meth:`admit` that returned a key is paired with one
    :meth:`release` of it, in a ``finally``: a connection's slot is freed however
    it ends (closed by the client, an error, a server stopping)."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.open: dict[str, int] = {}

    def admit(self, host: str | None) -> str | None:
        """Count a new connection from ``host``: its key, or ``None`` when the
        address holds ``cap`` already (the connection is to be refused)."""
        key = address_key(host)
        held = self.open.get(key, 0)
        if self.cap and held >= self.cap:
            return None
        self.open[key] = held + 1
        return key

    def release(self, key: str) -> None:
        """A connection admitted under ``key`` has ended."""
        left = self.open.get(key, 0) - 1
        if left > 0:
            self.open[key] = left
        else:
            self.open.pop(key, None)

    def refusal(self) -> str:
        """The one line a refused connection is told (also its close reason,
        which WebSocket limits to 123 bytes)."""
        return f"too many connections from your address: at most {self.cap} at once"
