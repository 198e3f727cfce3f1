"""The online table server (``goat serve``): people play in fours over WebSockets
and fill empty seats with bots.

The package knows games only through the protocol (:func:`goat.games.get_game`,
the state methods, :class:`goat.protocol.Action` and ``view``):

* :mod:`goat.server.tables` — a table's authoritative state, seats, tokens, bots,
  versions and the grace-period takeover;
* :mod:`goat.server.viewfilter` — the one gate every outgoing message passes;
* :mod:`goat.server.storage` — SQLAlchemy persistence (SQLite by default, WAL;
  PostgreSQL by ``GOAT_DATABASE_URL``): every accepted action is stored before
  it is broadcast;
* :mod:`goat.server.messages` — the client message schema and its error codes;
* :mod:`goat.server.app` — the FastAPI app: HTTP lobby, one WebSocket per client,
  the browser table under ``static/``.

The WebSocket protocol is described in ``docs/server.md``.
"""

from __future__ import annotations

from goat.server.settings import Settings

__all__ = ["Settings", "create_app"]


def create_app(settings: Settings | None = None):  # noqa: ANN201 - FastAPI is imported lazily
    """The ASGI app (see :func:`goat.server.app.create_app`)."""
    from goat.server.app import create_app as _create_app

    return _create_app(settings)
