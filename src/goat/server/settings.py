"""Server settings: one frozen value built from the command line and the
environment (``GOAT_DATA_DIR``, ``GOAT_DATABASE_URL``, ``GOAT_BASE_PATH``,
``GOAT_CONNECTIONS_PER_ADDRESS``, ``GOAT_TRUSTED_PROXIES``), so tests can start a
server with a short grace period and no bot delay."""

from __future__ import annotations

import ipaddress
import math
import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from goat.bots import THINK_SECONDS
from goat.protocol import GoatError
from goat.server.base_path import normal_base_path

#: Where the SQLite file lives unless ``--data-dir`` or ``GOAT_DATA_DIR`` says otherwise.
DEFAULT_DATA_DIR = Path("goat-data")


#: The ``goat serve`` option that sets each setting: a bad value is told by the
#: name the user typed (``--grace``), not the field's (``grace_seconds``).
OPTIONS = {"data_dir": "--data-dir", "database_url": "--database-url", "grace_seconds": "--grace",
           "bot_delay": "--bot-delay", "bot_think": "--bot-think", "deal_pause": "--deal-pause",
           "rate_per_second": "--rate-limit", "lobby_idle": "--lobby-idle",
           "finished_idle": "--finished-idle", "base_path": "--base-path",
           "connections_per_address": "--connections-per-address", "trusted_proxies": "--trusted-proxies",
           "ping_seconds": "--ping"}

#: The environment variable that sets a setting when its option is not given.
ENVIRONMENT = {"data_dir": "GOAT_DATA_DIR", "database_url": "GOAT_DATABASE_URL", "base_path": "GOAT_BASE_PATH",
               "connections_per_address": "GOAT_CONNECTIONS_PER_ADDRESS", "trusted_proxies": "GOAT_TRUSTED_PROXIES"}

#: The proxies trusted by default: the same machine's, as uvicorn's own default.
LOOPBACK = ("127.0.0.1", "::1")


class SettingsError(GoatError):
    """A server setting out of range (one line), named as ``goat serve``'s option
    (:data:`OPTIONS`; settings no option sets by their field's name, dashed)."""

    def __init__(self, setting: str, problem: str, named: str | None = None) -> None:
        self.setting, self.problem = setting, problem
        super().__init__(f"{named or OPTIONS.get(setting, setting.replace('_', '-'))} {problem}")

    def named(self, name: str) -> "SettingsError":
        """The same mistake told by another name (the environment variable that set it)."""
        return SettingsError(self.setting, self.problem, named=name)


def shown(value: object) -> str:
    """A number as the user would have typed it: ``-1``, not the float's ``-1.0``."""
    return f"{value:g}" if isinstance(value, float) else repr(value)


def check_rate(rate: float) -> None:
    """Refuse a per-connection message rate that is not a positive finite number.

    ``nan`` and ``inf`` parse as floats, but neither is a rate: ``inf`` would turn the
    limit off without saying so and neither has a burst (:func:`burst_for`)."""
    if not (isinstance(rate, (int, float)) and math.isfinite(rate) and rate > 0):
        raise SettingsError("rate_per_second", f"must be positive and finite, not {shown(rate)}")


def burst_for(rate: float) -> int:
    """The burst ``goat serve --rate-limit`` allows with a rate: twice it, at least 1.
    The rate is checked first, so a bad one is a setting's line, not a traceback."""
    check_rate(rate)
    return max(1, round(2 * rate))


def whole_count(setting: str, value: object) -> int:
    """A count >= 0 given as a number or as the text of one (an environment
    variable); a :class:`SettingsError` naming it otherwise."""
    text = value.strip() if isinstance(value, str) else value
    if isinstance(text, str) and text.isascii() and text.isdigit():
        return int(text)
    if isinstance(text, int) and not isinstance(text, bool) and text >= 0:
        return text
    raise SettingsError(setting, f"must be a whole number >= 0 (0: no cap), not {shown(value)}")


def proxy_addresses(value: object) -> tuple[str, ...]:
    """``--trusted-proxies``: IP addresses and networks (``10.0.0.5``,
    ``10.0.0.0/8``, ``fd00::/8``), comma-separated in one text, or ``*`` for any;
    an empty text trusts none. Each is checked here, because uvicorn takes a
    word that is no address (``nginx``, a host name) as a literal that no
    client address ever equals: the proxy would silently not be trusted. For
    the same reason a network written from one of its addresses (``10.0.0.5/24``,
    which uvicorn takes for such a word too) is kept as that network (``10.0.0.0/24``)."""
    given = value.split(",") if isinstance(value, str) else [str(w) for w in value]  # type: ignore[attr-defined]
    words = [word.strip() for word in given if word.strip()]
    if "*" in words:
        if len(words) > 1:
            raise SettingsError("trusted_proxies", "is * (any proxy) alone or a list of addresses, not both")
        return ("*",)
    checked = []
    for word in words:
        try:
            # a network as its network: uvicorn takes "10.0.0.5/24" (host bits set) for
            # a word no address equals, as it does a host name
            checked.append(str(ipaddress.ip_network(word, strict=False)) if "/" in word
                           else str(ipaddress.ip_address(word)))
        except ValueError:
            raise SettingsError("trusted_proxies", f"must be IP addresses or networks separated by commas "
                                f"(127.0.0.1,10.0.0.0/8), or * for any; {word!r} is neither") from None
    return tuple(checked)


@dataclass(frozen=True)
class Settings:
    """Everything a running server needs to know.

    Attributes:
        data_dir: directory of the SQLite database (created if missing).
        database_url: a SQLAlchemy URL (``postgresql+psycopg://...``); ``None``
            means ``sqlite:///<data_dir>/goat.db``.
        grace_seconds: how long a dropped player keeps their seat before a bot
            plays for them (until they come back with their token); in the lobby,
            how long a person who left keeps it before anyone seated may free it.
        bot_delay: seconds a bot waits before it plays, so people can follow.
        deal_pause: seconds between the end of a deal and the next shuffle, so the
            last trick and the deal result stay on screen.
        max_message_bytes: the largest client message accepted (UTF-8 bytes).
        rate_per_second, rate_burst: per-connection token bucket for client messages.
        default_bot: the bot that plays for a dropped player and fills seats by default.
        bot_think: the most seconds a searching bot (``pimc``, ``ismcts``: those with a
            ``time_limit`` setting) thinks per decision at a table. Without it PIMC
            takes seconds at the first cards of a full-hand deal; 0 means no limit.
        send_queue: messages queued for one slow client before it is disconnected.
        max_tables: tables in their lobby or in play; beyond it, creating one is refused.
        chat_limit, chat_window: a seat may send ``chat_limit`` chat messages in any
            ``chat_window`` seconds (``goat.server.chat``).
        lobby_idle: seconds a table may wait in its lobby with nobody on its page
            before it is closed (deleted: nothing was played at it); 0: never. Without
            it every abandoned lobby would stay in the lobby list, and count toward
            ``max_tables``, for ever.
        finished_idle: seconds a finished table nobody is looking at stays in memory;
            it stays in storage and is loaded again when someone opens it (its chat,
            kept in memory only, is then gone); 0: for ever. Without it a
            long-running server keeps every game it ever finished in memory.
        base_path: the path the tables are served under (``/club``; ``""``: the
            root), for a reverse proxy that passes its path on
            (:mod:`goat.server.base_path`). Normalised: ``club/`` is ``/club``.
        connections_per_address: the most WebSockets one client address may hold
            open at once (:mod:`goat.server.connections`); 0: no cap. The rate limit
            is per connection, so without it one address could open thousands.
        trusted_proxies: the addresses (or networks, or ``*``) whose
            ``X-Forwarded-For`` and ``X-Forwarded-Proto`` uvicorn believes: behind a
            reverse proxy every client arrives from the proxy's address, and only a
            trusted proxy's header gives the client's own, which the cap counts.
            Normalised to a tuple; a text is split at commas.
        ping_seconds: how often the server pings each open WebSocket, and how long
            it waits for the answer before it closes the connection (uvicorn's
            ``ws_ping_interval`` and ``ws_ping_timeout``). A connection whose client
            vanished without a close (a phone that changed networks) is found dead
            only so, after one to two times this: until then it holds its slot of
            ``connections_per_address`` (unless its seat reconnects over the cap:
            then it is pinged at once, :mod:`goat.server.connections`) and keeps its
            seat "connected" (its grace period not begun). Shorter finds it sooner, but closes a live
            connection whose answer takes longer (a congested mobile network: the
            page reconnects), and must stay under a reverse proxy's read timeout.
    """

    data_dir: Path = DEFAULT_DATA_DIR
    database_url: str | None = None
    grace_seconds: float = 60.0
    bot_delay: float = 0.8
    deal_pause: float = 2.5
    max_message_bytes: int = 4096
    rate_per_second: float = 20.0
    rate_burst: int = 40
    default_bot: str = "heuristic"
    bot_think: float = THINK_SECONDS
    send_queue: int = 512
    max_tables: int = 5000
    chat_limit: int = 5
    chat_window: float = 10.0
    lobby_idle: float = 3600.0
    finished_idle: float = 300.0
    base_path: str = ""
    connections_per_address: int = 32
    trusted_proxies: tuple[str, ...] = LOOPBACK
    ping_seconds: float = 20.0

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "base_path", normal_base_path(self.base_path))
        except ValueError as exc:
            raise SettingsError("base_path", str(exc)) from None
        object.__setattr__(self, "connections_per_address",
                           whole_count("connections_per_address", self.connections_per_address))
        object.__setattr__(self, "trusted_proxies", proxy_addresses(self.trusted_proxies))
        for name in ("grace_seconds", "bot_delay", "deal_pause", "bot_think", "lobby_idle", "finished_idle"):
            value = getattr(self, name)
            # nan compares false with everything and inf never comes: neither is a
            # number of seconds a timer (loop.call_later) can wait.
            if not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
                raise SettingsError(name, f"must be a number of seconds >= 0, not {shown(value)}")
        for name in ("max_message_bytes", "rate_burst", "send_queue", "max_tables", "chat_limit"):
            if getattr(self, name) < 1:
                raise SettingsError(name, "must be at least 1")
        for name in ("chat_window", "ping_seconds"):
            value = getattr(self, name)
            if not (isinstance(value, (int, float)) and math.isfinite(value) and value > 0):
                raise SettingsError(name, f"must be a positive number of seconds, not {shown(value)}")
        check_rate(self.rate_per_second)
        if self.database_url:
            try:
                make_url(self.database_url)   # SQLAlchemy's own words name neither the option nor a fix
            except ArgumentError:
                raise SettingsError("database_url", "is not a database URL: write postgresql+psycopg://"
                                                    "user:password@host/db or sqlite:///path/goat.db") from None
        else:
            try:
                Path(self.data_dir).resolve()     # as :attr:`url` will: a symlink loop raised from there
            except (OSError, RuntimeError) as exc:
                raise SettingsError("data_dir", f"cannot be used: {exc}") from None

    @property
    def url(self) -> str:
        """The database URL actually used."""
        if self.database_url:
            return self.database_url
        return f"sqlite:///{Path(self.data_dir).resolve() / 'goat.db'}"

    @property
    def place(self) -> str:
        """Where the tables are kept, as ``goat serve`` says at start-up: the SQLite
        file, or the database URL given (by ``--database-url`` or
        ``$GOAT_DATABASE_URL``) with its password hidden, since the line may end
        up in a shared log."""
        if not self.database_url:
            return self.url.removeprefix("sqlite:///")
        try:
            return "the database " + make_url(self.database_url).render_as_string(hide_password=True)
        except ArgumentError:
            return "the database given"

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None, **overrides: Any) -> "Settings":
        """Defaults, then the variables of :data:`ENVIRONMENT` (``GOAT_DATA_DIR``, ...), then
        ``overrides`` (``None`` values in ``overrides`` are ignored)."""
        env = dict(os.environ) if env is None else env
        values: dict[str, Any] = {name: env[variable] for name, variable in ENVIRONMENT.items() if env.get(variable)}
        given = {k: v for k, v in overrides.items() if v is not None}
        values.update(given)
        if "data_dir" in values:
            values["data_dir"] = Path(values["data_dir"])
        try:
            return cls(**values)
        except SettingsError as exc:
            if exc.setting in ENVIRONMENT and exc.setting not in given:
                raise exc.named(ENVIRONMENT[exc.setting]) from None
            raise

    @property
    def page_path(self) -> str:
        """The page's path on the server: ``/`` or ``/club/``."""
        return self.base_path + "/"

    def but(self, **changes: Any) -> "Settings":
        return replace(self, **changes)
