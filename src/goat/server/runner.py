"""Running the app under uvicorn: in the foreground (``goat serve``) or in a
background thread (tests). The listening socket is bound first, so port 0 gives
a free port whose number is known before anyone connects."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import queue
import re
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from types import TracebackType
from typing import Any

import uvicorn
from uvicorn.config import LOG_LEVELS

from goat.protocol import GoatError
from goat.server.base_path import under_base_path
from goat.server.connections import with_mapped_forms
from goat.server.settings import Settings
from goat.server.wsping import websocket_protocol

#: Frames above this size close the connection outright; messages between the
#: settings' ``max_message_bytes`` and this get an ``oversized`` error instead.
WS_MAX_SIZE = 64 * 1024


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket; raises :class:`GoatError` (one line) if the address is taken."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise GoatError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    sock.listen(2048)
    sock.setblocking(False)
    return sock


def url_of(sock: socket.socket, path: str = "/") -> str:
    """The address of ``path`` on the server listening on ``sock``."""
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}{path}"


def lan_address(ipv6: bool = False) -> str | None:
    """This machine's address on its network (the source address of its default
    route), or ``None`` without one. A UDP socket's ``connect`` only picks a route:
    nothing is sent."""
    family, probe = (socket.AF_INET6, "2001:db8::1") if ipv6 else (socket.AF_INET, "192.0.2.1")
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as udp:
            udp.connect((probe, 9))
            address = udp.getsockname()[0]
    except OSError:    # no default route (a LAN without a gateway): the host name's address
        try:
            address = socket.getaddrinfo(socket.gethostname(), None, family)[0][4][0]
        except (OSError, IndexError):
            return None
    return None if address in ("0.0.0.0", "::") or address.startswith(("127.", "::1")) else address


def everywhere(host: str) -> bool:
    """Whether ``--host`` listens on every interface (``""`` binds as ``0.0.0.0`` does)."""
    return host in ("", "0.0.0.0", "::")


def start_lines(host: str, url: str, lan: str | None) -> list[str]:
    """What ``goat serve`` prints first: the address to open here (the first line,
    which :class:`ServeProcess` reads), and for a server listening on every
    interface the one the network reaches. The page makes invite links from the
    address it was opened at, so a table made at ``127.0.0.1`` invites friends to
    their own machines: the organiser has to be told which address to open."""
    if everywhere(host):
        url = url.replace("0.0.0.0", "127.0.0.1").replace("[::]", "[::1]")
    lines = [f"Goat table server: open {url} in a browser"]
    if everywhere(host) and lan:
        port = url.rsplit(":", 1)[1]
        shown = f"[{lan}]" if ":" in lan else lan
        lines.append(f"On the local network: http://{shown}:{port} (open the tables there, so that "
                     "their invite links work for the others)")
    return lines


#: Seconds a stopping server gives the requests still running (a hint, a review being thought out).
GRACE_AT_SHUTDOWN = 3

log = logging.getLogger("goat.server")


class CutAtShutdown:
    """The app, with requests cut at shutdown said in one line.

    On SIGTERM (or Ctrl+C) uvicorn lets the requests still running finish for
    :data:`GRACE_AT_SHUTDOWN` seconds, then cancels them and logs each as
    "Exception in ASGI application" with a ``CancelledError`` traceback: to an
    organiser stopping the server while a hint or a review was being thought
    out, that reads as a crash. It is the intended end of such a request, so it
    is logged as one line and not passed on, and an HTTP request that had no
    answer yet gets a one-line 503 (uvicorn would send an empty 500). The app's
    lifespan is passed through untouched."""

    def __init__(self, app: Any) -> None:
        self.app = app

    def __getattr__(self, name: str) -> Any:
        return getattr(self.app, name)   # the app's own attributes (``state``: its tables)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        started = False

        async def sending(message: dict[str, Any]) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except asyncio.CancelledError:
            if scope["type"] == "lifespan":
                raise
            log.warning("stopping: a request still running after %g s was cut (%s %s)", GRACE_AT_SHUTDOWN,
                        scope.get("method", "WebSocket"), scope.get("path", ""))
            if scope["type"] == "http" and not started:   # an answer the client can read, as every refusal
                body = json.dumps({"error": "the server is stopping: ask again once it is back"}).encode()
                await send({"type": "http.response.start", "status": 503,
                            "headers": [(b"content-type", b"application/json"),
                                        (b"content-length", str(len(body)).encode())]})
                await send({"type": "http.response.body", "body": body})


def make_server(settings: Settings, log_level: str = "warning") -> uvicorn.Server:
    """The uvicorn server for ``settings``; an unknown ``log_level`` is one line
    (:class:`GoatError`), not uvicorn's ``KeyError`` from deep in its config."""
    from goat.server.app import create_app

    if log_level.lower() not in LOG_LEVELS:
        raise GoatError(f"--log-level must be one of {', '.join(LOG_LEVELS)}, not {log_level!r}")

    # No per-message deflate: state messages are ~2 KB and compressing each one for
    # every seat cost more CPU than all the rest of an action together (measured
    # with `goat bench server`).
    app = create_app(settings)
    if settings.base_path:
        app = under_base_path(app, settings.base_path)
    # The client address (which the cap on connections per address counts, and
    # the scheme of the lobby's urls) comes from X-Forwarded-For/-Proto only when
    # the connection is from a trusted proxy: goat's own setting, not uvicorn's
    # FORWARDED_ALLOW_IPS, so that it is checked and documented with the others.
    config = uvicorn.Config(CutAtShutdown(app), log_level=log_level, ws_max_size=WS_MAX_SIZE,
                            ws=websocket_protocol(),   # the app may ping a connection itself
                            ws_per_message_deflate=False, lifespan="on", access_log=False,
                            timeout_graceful_shutdown=GRACE_AT_SHUTDOWN,
                            ws_ping_interval=settings.ping_seconds, ws_ping_timeout=settings.ping_seconds,
                            proxy_headers=bool(settings.trusted_proxies),
                            forwarded_allow_ips=with_mapped_forms(settings.trusted_proxies))
    return uvicorn.Server(config)


class ServerThread:
    """The server on a free loopback port in a daemon thread (``with`` block)::

        with ServerThread(settings) as server:
            httpx.get(server.url + "api/health")
    """

    def __init__(self, settings: Settings, host: str = "127.0.0.1", port: int = 0) -> None:
        self.sock = bind(host, port)
        self.url = url_of(self.sock, settings.page_path)
        self.ws_url = "ws" + self.url[4:]
        self.server = make_server(settings)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def __enter__(self) -> "ServerThread":
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.01)
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.sock.close()


class ServeProcess:
    """``goat serve`` in a subprocess on a free loopback port (``--port 0``), for
    tests and ``goat bench server``: a real server process, killable with SIGKILL.
    ``url`` is read from the line it prints; its stderr goes to ``log_path``."""

    def __init__(self, data_dir: Path, *args: str, log_path: Path | None = None, start_timeout: float = 120) -> None:
        env = dict(os.environ)
        src = str(Path(__file__).resolve().parents[2])   # this checkout's sources come first
        env["PYTHONPATH"] = os.pathsep.join(p for p in (src, env.get("PYTHONPATH")) if p)
        self.log_path = log_path or Path(data_dir) / "serve.log"
        self.log = open(self.log_path, "w")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "goat.cli.main", "serve", "--host", "127.0.0.1", "--port", "0",
             "--data-dir", str(data_dir), *args],
            stdout=subprocess.PIPE, stderr=self.log, text=True, env=env)
        lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=lambda: [lines.put(line) for line in self.proc.stdout], daemon=True).start()
        try:
            first = lines.get(timeout=start_timeout)
        except queue.Empty:
            self.stop()
            raise GoatError(f"goat serve did not start within {start_timeout:g} s") from None
        found = re.search(r"open (http://\S+/) in a browser", first)
        if not found:
            self.stop()
            raise GoatError(f"goat serve did not start: {first.strip() or self.log_path.read_text()[-200:]}")
        self.url = found.group(1)
        self.ws_url = "ws" + self.url[4:]

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs."""
        self.proc.kill()
        self.proc.wait(timeout=30)
        self.log.close()

    def stop(self) -> None:
        """SIGTERM, and SIGKILL if it does not end within 30 s."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()
