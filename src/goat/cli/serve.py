"""``goat serve``: the online table server (``goat.server``) under uvicorn.

Prints the address to open and serves until Ctrl+C. Unfinished tables in the
database come back where they stopped. A bad setting, an address in use or a
database that cannot be opened is one line and exit status 2.
"""

from __future__ import annotations

import logging
import sys
from typing import Optional

import typer

from goat.cli.errors import user_errors
from goat.files import check_named
from goat.protocol import GoatError


def serve_command(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (0.0.0.0: every interface)."),
    port: int = typer.Option(8000, "--port", help="Port to listen on (0: any free port)."),
    data_dir: Optional[str] = typer.Option(None, "--data-dir", help="Directory of the SQLite database "
                                            "(default: $GOAT_DATA_DIR or ./goat-data)."),
    database_url: Optional[str] = typer.Option(None, "--database-url", help="A SQLAlchemy URL instead of SQLite "
                                               "(default: $GOAT_DATABASE_URL), e.g. postgresql+psycopg://u:p@host/db."),
    grace: Optional[float] = typer.Option(None, "--grace", help="Seconds a dropped player keeps their seat before "
                                          "a bot plays for them, or in the lobby before anyone seated may free "
                                          "it (default: 60)."),
    bot_delay: Optional[float] = typer.Option(None, "--bot-delay", help="Seconds a bot waits before playing "
                                              "(default: 0.8)."),
    bot_think: Optional[float] = typer.Option(None, "--bot-think", help="Most seconds a searching bot (pimc, "
                                              "ismcts) thinks per decision; 0: no limit (default: 2)."),
    deal_pause: Optional[float] = typer.Option(None, "--deal-pause", help="Seconds between a deal's end and "
                                               "the next shuffle (default: 2.5)."),
    rate_limit: Optional[float] = typer.Option(None, "--rate-limit", help="Messages a second one connection may "
                                               "send (bursts of twice that) (default: 20)."),
    lobby_idle: Optional[float] = typer.Option(None, "--lobby-idle", help="Seconds a table may wait in its lobby "
                                               "with nobody on its page before it is closed; 0: never "
                                               "(default: 3600)."),
    finished_idle: Optional[float] = typer.Option(None, "--finished-idle", help="Seconds a finished table nobody "
                                                  "has open stays in memory (it stays stored); 0: for ever "
                                                  "(default: 300)."),
    base_path: Optional[str] = typer.Option(None, "--base-path", help="Serve the tables under this path, "
                                            "e.g. /goat, for a reverse proxy that passes its path on "
                                            "(default: $GOAT_BASE_PATH or the root)."),
    connections_per_address: Optional[int] = typer.Option(
        None, "--connections-per-address", help="Most WebSocket connections one client address may hold open "
        "at once; 0: no cap (default: $GOAT_CONNECTIONS_PER_ADDRESS or 32)."),
    trusted_proxies: Optional[str] = typer.Option(
        None, "--trusted-proxies", help="Reverse proxies whose X-Forwarded-For names the client: IP addresses "
        "or networks separated by commas, or * (default: $GOAT_TRUSTED_PROXIES or 127.0.0.1,::1)."),
    ping: Optional[float] = typer.Option(
        None, "--ping", help="Seconds between the server's pings of each connection, and the most it waits for "
        "the answer: a vanished client's connection is closed after one to two times this (default: 20)."),
    log_level: str = typer.Option("warning", "--log-level", help="uvicorn's log level: critical, error, "
                                  "warning, info (shows requests), debug or trace."),
) -> None:
    """Serve Kozel and Spades tables and Yu-Gi-Oh! duels online: create a table, invite friends, fill seats with bots, play in the browser."""
    from goat.server.runner import bind, everywhere, lan_address, make_server, start_lines, url_of
    from goat.server.settings import Settings, burst_for
    from goat.server.storage import ServeLock

    with user_errors():
        if data_dir is not None:
            check_named(data_dir, "--data-dir", "folder", "leave it out for $GOAT_DATA_DIR or ./goat-data")
        settings = Settings.from_env(data_dir=data_dir, database_url=database_url, grace_seconds=grace,
                                     bot_delay=bot_delay, bot_think=bot_think, deal_pause=deal_pause,
                                     rate_per_second=rate_limit, lobby_idle=lobby_idle,
                                     finished_idle=finished_idle, base_path=base_path,
                                     connections_per_address=connections_per_address,
                                     trusted_proxies=trusted_proxies, ping_seconds=ping,
                                     rate_burst=None if rate_limit is None else burst_for(rate_limit))
        if not 0 <= port <= 65535:
            raise GoatError(f"--port must be 0..65535, not {port}")
        sock = bind(host, port)
        server = make_server(settings, log_level=log_level)
        lock = ServeLock(settings.url)   # before the app restores (and plays) any table
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    lan = lan_address(ipv6=host == "::") if everywhere(host) else None
    for line in start_lines(host, url_of(sock, settings.page_path), lan):
        print(line, flush=True)
    print(f"Tables are kept in {settings.place}. Ctrl+C stops the server.", flush=True)
    lock.watch(lambda: setattr(server, "should_exit", True))   # lost to another server: stop playing
    try:
        server.run(sockets=[sock])
    finally:
        lock.release()
    sys.stdout.flush()


def register(app: typer.Typer) -> None:
    app.command("serve")(serve_command)
