"""Running the app under uvicorn: in the foreground (``goat serve``) or in a
background thread (tests). The listening socket is bound first, so port 0 gives
a free port whose number is known before anyone connects."""

from __future__ import annotations

import socket
import threading
import time
from types import TracebackType

import uvicorn

from goat.protocol import GoatError
from goat.server.settings import Settings

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


def url_of(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def make_server(settings: Settings, log_level: str = "warning") -> uvicorn.Server:
    from goat.server.app import create_app

    # No per-message deflate: state messages are ~2 KB and compressing each one for
    # every seat cost more CPU than all the rest of an action together (measured
    # with `goat bench server`).
    config = uvicorn.Config(create_app(settings), log_level=log_level, ws_max_size=WS_MAX_SIZE,
                            ws_per_message_deflate=False, lifespan="on", access_log=False,
                            timeout_graceful_shutdown=3)
    return uvicorn.Server(config)


class ServerThread:
    """The server on a free loopback port in a daemon thread (``with`` block)::

        with ServerThread(settings) as server:
            httpx.get(server.url + "api/health")
    """

    def __init__(self, settings: Settings, host: str = "127.0.0.1", port: int = 0) -> None:
        self.sock = bind(host, port)
        self.url = url_of(self.sock)
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
