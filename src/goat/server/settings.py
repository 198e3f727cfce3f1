"""Server settings: one frozen value built from the command line and the
environment (``GOAT_DATA_DIR``, ``GOAT_DATABASE_URL``, ``GOAT_BASE_PATH``), so tests can start a
server with a short grace period and no bot delay."""

from __future__ import annotations

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


class SettingsError(GoatError):
    """A server setting out of range (one line)."""


def check_rate(rate: float) -> None:
    """Refuse a per-connection message rate that is not a positive finite number.

    ``nan`` and ``inf`` parse as floats, but neither is a rate: ``inf`` would turn the
    limit off without saying so and neither has a burst (:func:`burst_for`)."""
    if not (isinstance(rate, (int, float)) and math.isfinite(rate) and rate > 0):
        raise SettingsError(f"rate-limit must be positive and finite, not {rate!r}")


def burst_for(rate: float) -> int:
    """The burst ``goat serve --rate-limit`` allows with a rate: twice it, at least 1.
    The rate is checked first, so a bad one is a setting's line, not a traceback."""
    check_rate(rate)
    return max(1, round(2 * rate))


@dataclass(frozen=True)
class Settings:
    """Everything a running server needs to know.

    Attributes:
        data_dir: directory of the SQLite database (created if missing).
        database_url: a SQLAlchemy URL (``postgresql+psycopg://...``); ``None``
            means ``sqlite:///<data_dir>/goat.db``.
        grace_seconds: how long a dropped player keeps their seat before a bot
            plays for them (until they come back with their token).
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

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "base_path", normal_base_path(self.base_path))
        except ValueError as exc:
            raise SettingsError(str(exc)) from None
        for name, option in (("grace_seconds", "grace"), ("bot_delay", "bot-delay"), ("deal_pause", "deal-pause"),
                             ("bot_think", "bot-think"), ("lobby_idle", "lobby-idle"),
                             ("finished_idle", "finished-idle")):
            value = getattr(self, name)
            # nan compares false with everything and inf never comes: neither is a
            # number of seconds a timer (loop.call_later) can wait.
            if not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
                raise SettingsError(f"{option} must be a number of seconds >= 0, not {value!r}")
        for name in ("max_message_bytes", "rate_burst", "send_queue", "max_tables", "chat_limit"):
            if getattr(self, name) < 1:
                raise SettingsError(f"{name.replace('_', '-')} must be at least 1")
        if not (math.isfinite(self.chat_window) and self.chat_window > 0):
            raise SettingsError(f"chat-window must be a positive number of seconds, not {self.chat_window!r}")
        check_rate(self.rate_per_second)

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
        """Defaults, then ``GOAT_DATA_DIR`` / ``GOAT_DATABASE_URL`` / ``GOAT_BASE_PATH``, then ``overrides``
        (``None`` values in ``overrides`` are ignored)."""
        env = dict(os.environ) if env is None else env
        values: dict[str, Any] = {}
        if env.get("GOAT_DATA_DIR"):
            values["data_dir"] = Path(env["GOAT_DATA_DIR"])
        if env.get("GOAT_DATABASE_URL"):
            values["database_url"] = env["GOAT_DATABASE_URL"]
        if env.get("GOAT_BASE_PATH"):
            values["base_path"] = env["GOAT_BASE_PATH"]
        values.update({k: v for k, v in overrides.items() if v is not None})
        if "data_dir" in values:
            values["data_dir"] = Path(values["data_dir"])
        return cls(**values)

    @property
    def page_path(self) -> str:
        """The page's path on the server: ``/`` or ``/club/``."""
        return self.base_path + "/"

    def but(self, **changes: Any) -> "Settings":
        return replace(self, **changes)
