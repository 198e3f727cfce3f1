"""Serving the tables under a path of their own (``goat serve --base-path /club``).

A club that already runs a web site puts the tables behind its reverse proxy at
``https://club.example/goat/`` rather than on a port of their own. Two kinds
of proxy set-up exist, and both work:

* the proxy strips the path (nginx ``location /goat/ { proxy_pass
  http://127.0.0.1:8000/; }``, Caddy ``handle_path /goat/*``): the server needs
  no setting, because every URL the page uses is relative to the page's own
  folder (``api/...``, ``ws/...``, ``static/...``);
* the proxy passes the path on as it is (``proxy_pass http://127.0.0.1:8000;``,
  Caddy ``handle /goat/*``): then ``--base-path /goat`` serves the app there.
  :func:`under_base_path` mounts it so, ``/goat`` redirects to ``/goat/`` (the
  page's relative URLs need the folder's slash) and ``/`` to ``/goat/``.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse
from starlette.routing import Mount, Route

#: One segment of a base path: the characters a URL path carries unescaped.
SEGMENT = re.compile(r"[A-Za-z0-9._~-]+\Z")


def normal_base_path(text: str) -> str:
    """``"/club"`` for ``club``, ``/club/`` or ``/club``; ``""`` for none (``""``
    or ``/``). Raises :class:`ValueError` (its message one line, the rest of a
    sentence that names the setting) for a segment with other characters, ``.`` or ``..``."""
    segments = [s for s in text.strip().split("/") if s]
    for segment in segments:
        if not SEGMENT.match(segment) or segment in (".", ".."):
            raise ValueError(f"must be URL path segments of letters, digits and . _ ~ -, "
                             f"like /goat or /club/tables, not {text!r}")
    return "".join(f"/{s}" for s in segments)


def under_base_path(app: Any, base_path: str) -> Starlette:
    """``app`` served at ``base_path`` (normalised, not empty): its lifespan is
    run by the outer app (a mounted app's own never runs), and the two bare
    addresses a person may type redirect to the page."""
    page = base_path + "/"

    async def to_the_page(request: Request) -> RedirectResponse:
        return RedirectResponse(page)

    @asynccontextmanager
    async def lifespan(outer: Starlette) -> AsyncIterator[None]:
        async with app.router.lifespan_context(app):
            yield

    async def not_here(request: Request, _exc: Exception) -> JSONResponse:
        # The app's own one-line error shape ({"error": ...}), not Starlette's plain
        # "Not Found", for an address outside the base path: it says where the tables are.
        return JSONResponse({"error": f"nothing at {request.url.path}: the tables are at {page}"}, status_code=404)

    return Starlette(routes=[Route("/", to_the_page), Route(base_path, to_the_page), Mount(base_path, app=app)],
                     lifespan=lifespan, exception_handlers={404: not_here})
