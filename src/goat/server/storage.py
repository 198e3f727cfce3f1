"""Persistence of tables: SQLAlchemy 2, SQLite by default, PostgreSQL by URL.

What is stored is exactly what a table needs to come back after a crash:

* ``goat_tables`` — game, ruleset, options, players, seed and status;
* ``goat_seats`` — who sits where (names, bots, and a *hash* of each seat's token);
  an empty seat's name is ``""``, but at a rematch whose player of the old match
  came back to that seat and left it: theirs, the sign that their name is no
  longer kept for them (``goat.server.tables.Table.came_back``), never shown;
* ``goat_events`` — the append-only log: every chance outcome (``deal``, the
  record's deal object) and every accepted action, numbered by the table version
  it produced. An action is written here, and committed, *before* anyone is told
  about it, so a client never sees an action the log does not hold;
* ``goat_records`` — a finished game's record (``shared/spec/records.md``;
  the server adds ``"table"``, the table's id), with its finish time: the
  lobby's list of finished games is a query of it and of ``goat_results``
  (:meth:`Storage.finished`), so it survives a restart and needs no table of
  its own;
* ``goat_results`` — a finished game's ``result`` object alone (the record's
  ``"result"``), written with the record: the club standings
  (:meth:`Storage.finished_results`) read every finished game of a period, and
  a record is mostly deals' cards and actions, so they, and the lobby's
  finished list, read this small row instead. A table of its own, so older databases gain it; the first time such
  a database is opened, the results of the games it already holds are copied
  in (:meth:`Storage.fill_results`);
* ``goat_seat_data`` — a seat's private input, as its game module checked it
  (a Yu-Gi-Oh! player's own deck list), one row a seat that has any. A table
  of its own, so that a database made before it existed opens unchanged
  (``create_all`` adds missing tables only) and tables without such data
  write nothing new;
* ``goat_rematches`` — the link from a finished table to its rematch ("play
  again": a new table with the same game, rules, options and bots), one row an
  old table, written in the same transaction as the new table itself. A table
  of its own for the same reason as ``goat_seat_data``: older databases gain
  it and open unchanged. Read backwards, with the old table's seats, it also
  says whose names a rematch in its lobby keeps (``StoredTable.players_before``);
* ``goat_table_settings`` — a table's settings that are not its game's rules
  (``{"hints": true}``: whether players may ask for a hint; ``"move_seconds"``:
  the time per move; ``"private"``: listed nowhere; ``"chat"``: ``"lobby"`` or
  ``"off"``, who may talk when), as a JSON object,
  one row a table that changed any from its default, written with the table
  itself (and copied with it to a rematch). Its own table again, so older
  databases gain it and open unchanged, and a table with the defaults writes
  nothing new.

A table that never started and that nobody has had open for a while (an
abandoned lobby: ``Settings.lobby_idle``) is deleted with everything it had
(:meth:`Storage.delete_lobby_table`); nothing was played at it. Started and
finished tables are never deleted.

SQLite runs in WAL mode with ``synchronous=NORMAL``: a commit survives the
server process being killed (the operating system holds the written pages).

A write whose transaction fails at its end may still have been committed: the
server's COMMIT arrived, only its answer was lost with the connection (a
database restart, a network cut). Reported as failed, the table would keep its
old version in memory while the log holds the next event, and every later write
at that version would collide with it until a restart. So the appending writes
(an event, a finished game's record, a new table, a rematch) look, on a new
connection, for what they wrote before calling it failed
(:meth:`Storage._unless_stored`): found, the write is done. For an event that
is the same move at the same version, whichever message carried it, so a move
played again after a "not applied" also finds the log where it is. Should that
look fail too and a *different* move follow, its write collides with the stored
event: the table then reads the events it missed (:meth:`Storage.events_after`),
applies them and refuses the move as made on an old state (:class:`LogAhead`).
The lobby's writes (a seat, a seat's private data, the start, an abandoned lobby's
deletion) are looked for the same way: reported failed though stored, a seat would be held by a token nobody was
given, and a start would leave a lobby in memory that storage calls in play.

All calls are synchronous; :class:`AsyncStorage` runs them one at a time on a
dedicated thread so the event loop never waits on the disk or the network and
SQLite sees a single writer.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import (
    Column,
    DateTime,
    Engine,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    delete,
    event,
    insert,
    literal,
    select,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import NoSuchModuleError, SQLAlchemyError

from goat.protocol import GoatError

log = logging.getLogger("goat.server")

metadata = MetaData()

tables_t = Table(
    "goat_tables", metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("rules", String(64), nullable=False),
    Column("options", Text, nullable=False),          # JSON object
    Column("players", Integer, nullable=False),
    Column("seed", String(64), nullable=False),
    Column("status", String(16), nullable=False),     # lobby | playing | finished
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

seats_t = Table(
    "goat_seats", metadata,
    Column("table_id", String(32), ForeignKey("goat_tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),        # empty | human | bot
    Column("name", String(64), nullable=False),      # empty seat: "" or its old player who came back
    Column("bot", String(32)),
    Column("token_hash", String(64)),
)

events_t = Table(
    "goat_events", metadata,
    Column("table_id", String(32), ForeignKey("goat_tables.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),         # the table version this event produced
    Column("kind", String(8), nullable=False),        # deal | action
    Column("payload", Text, nullable=False),          # deal object (JSON) or action text
    Column("actor", String(8), nullable=False),       # human | bot | server | clock (time per move ran out)
    Column("client_id", String(64)),                  # the client's message id (humans)
    Column("created_at", DateTime(timezone=True), nullable=False),
)

records_t = Table(
    "goat_records", metadata,
    Column("table_id", String(32), ForeignKey("goat_tables.id"), primary_key=True),
    Column("record", Text, nullable=False),
    Column("finished_at", DateTime(timezone=True), nullable=False),
)


results_t = Table(
    "goat_results", metadata,
    Column("table_id", String(32), ForeignKey("goat_tables.id"), primary_key=True),
    Column("result", Text, nullable=False),           # JSON object: the record's "result"
)


seat_data_t = Table(
    "goat_seat_data", metadata,
    Column("table_id", String(32), ForeignKey("goat_tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("data", Text, nullable=False),             # JSON, as the game module returned it
    Column("updated_at", DateTime(timezone=True), nullable=False),
)


rematches_t = Table(
    "goat_rematches", metadata,
    Column("table_id", String(32), ForeignKey("goat_tables.id"), primary_key=True),   # the finished table
    Column("rematch_id", String(32), ForeignKey("goat_tables.id"), nullable=False),   # its rematch
    Column("created_at", DateTime(timezone=True), nullable=False),
)


table_settings_t = Table(
    "goat_table_settings", metadata,
    Column("table_id", String(32), ForeignKey("goat_tables.id"), primary_key=True),
    Column("settings", Text, nullable=False),         # JSON object, e.g. {"hints": true}
    Column("created_at", DateTime(timezone=True), nullable=False),
)


class StorageError(GoatError):
    """The database refused a read or write (one line)."""


class LogAhead(StorageError):
    """A write collided with events a table had not applied (a COMMIT whose answer
    was lost, and the look for it failed too): the table has caught up with them
    (:meth:`goat.server.tables.Table._catch_up`), so the write was not made and the
    move it carried was decided on an old state."""


@dataclass
class SeatRow:
    seat: int
    kind: str = "empty"
    name: str = ""
    bot: str | None = None
    token_hash: str | None = None


@dataclass
class EventRow:
    seq: int
    kind: str
    payload: str
    actor: str
    client_id: str | None = None

    def move(self) -> dict[str, Any]:
        """What makes two events the same for the game: the same move at the same
        version, whichever message carried it (``client_id`` left out) — a player
        told "not applied" who plays the card again finds the log where it is."""
        return {"seq": self.seq, "kind": self.kind, "payload": self.payload, "actor": self.actor}


@dataclass
class TableRow:
    id: str
    game: str
    rules: str
    options: dict[str, Any]
    players: int
    seed: str
    status: str = "lobby"
    #: The table's own settings besides the game's rules (``{"hints": True}``);
    #: empty: every default.
    settings: dict[str, Any] = field(default_factory=dict)


@dataclass
class FinishedRow:
    """A finished table as the lobby lists it: who sat where, when it ended
    and its record's ``result`` (the record's cards are not read out)."""

    id: str
    game: str
    rules: str
    players: int
    seats: list[SeatRow]
    finished_at: datetime
    result: dict[str, Any]


@dataclass
class StoredTable:
    """Everything stored about one table, in event order."""

    table: TableRow
    seats: list[SeatRow]
    events: list[EventRow] = field(default_factory=list)
    seat_data: dict[int, str] = field(default_factory=dict)   # seat -> its private data (JSON text)
    rematch: str | None = None                                 # the id of its rematch, if one was made
    #: A rematch still in its lobby: the people seated at the table it plays again
    #: (seat -> name), whose names it keeps for them; read through the link.
    players_before: dict[int, str] = field(default_factory=dict)
    rematch_of: str | None = None        # a rematch: the id of the table it plays again, read through the link


def unstorable(text: str) -> bool:
    """Whether ``text``, given by a client and stored as it is (a seed, an action's
    id), holds a character a database may refuse or fail on: a control character —
    NUL, which PostgreSQL's text cannot hold — or a lone surrogate, which has no
    UTF-8 form (SQLite's driver fails on it). The caller refuses such text as the
    client's mistake, the same on every database, instead of a database error."""
    return any(unicodedata.category(ch) in ("Cc", "Cs") for ch in text)


def _now() -> datetime:
    return datetime.now(timezone.utc)


#: libpq's connection settings the server uses unless the URL sets them: every
#: database call runs on one thread, so a database that hangs — on connecting, or
#: gone without closing the connection — would otherwise stall every table for
#: as long as the operating system waits (minutes). Connecting gives up after
#: 10 s, and a silent connection is found dead after about a minute.
POSTGRES_CONNECT = {"connect_timeout": 10, "keepalives": 1, "keepalives_idle": 30,
                    "keepalives_interval": 10, "keepalives_count": 3}


def postgres_connect_args(url: str) -> dict[str, int]:
    """:data:`POSTGRES_CONNECT` but for what ``url``'s query sets itself
    (``?connect_timeout=3``): the URL wins."""
    query = make_url(url).query
    return {key: value for key, value in POSTGRES_CONNECT.items() if key not in query}


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite gets its directory, WAL and a busy timeout,
    PostgreSQL time limits on connecting and on a silent connection."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            folder = Path(parsed.database).parent
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except (FileExistsError, NotADirectoryError):   # "[Errno 17] File exists: ...": say which is a file
                blocking = next((p for p in (folder, *folder.parents) if p.exists() and not p.is_dir()), folder)
                raise NotADirectoryError(f"{blocking} is a file, not a directory") from None
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    limits = postgres_connect_args(url) if parsed.get_backend_name() == "postgresql" else {}
    return create_engine(url, pool_pre_ping=True, connect_args=limits)


class Storage:
    """Synchronous access to the tables of one database."""

    def __init__(self, url: str) -> None:
        try:
            self.engine = make_engine(url)
            metadata.create_all(self.engine)
            self.fill_results()
        except StorageError as exc:
            raise cannot_open(url, exc) from None
        except NoSuchModuleError:
            # SQLAlchemy's "Can't load plugin: sqlalchemy.dialects:postgres" for the
            # common postgres:// spelling does not say what to write instead.
            scheme = url.split(":", 1)[0]
            raise cannot_open(url, f"{scheme!r} is not a kind of database SQLAlchemy knows (write "
                                   "postgresql+psycopg://user:password@host/db or sqlite:///path/goat.db)") from None
        except (SQLAlchemyError, OSError) as exc:
            raise cannot_open(url, _first_line(exc)) from None
        except ImportError as exc:  # e.g. psycopg for PostgreSQL
            raise cannot_open(url, f"its driver is not installed ({exc.name or exc}; for PostgreSQL: "
                                   "pip install 'goat[postgres]')") from None

    def close(self) -> None:
        self.engine.dispose()

    # ------------------------------------------------------------- writes
    def create_table(self, row: TableRow, seats: Iterable[SeatRow]) -> None:
        with self._unless_stored(lambda conn: self._has(conn, tables_t, id=row.id, seed=row.seed)):
            with self._begin() as conn:
                self._insert_table(conn, row, seats, _now())

    @staticmethod
    def _insert_table(conn: Any, row: TableRow, seats: Iterable[SeatRow], now: datetime) -> None:
        conn.execute(insert(tables_t).values(
            id=row.id, game=row.game, rules=row.rules, options=json.dumps(row.options),
            players=row.players, seed=row.seed, status=row.status, created_at=now, updated_at=now))
        conn.execute(insert(seats_t), [_seat_values(row.id, s) for s in seats])
        if row.settings:
            conn.execute(insert(table_settings_t).values(
                table_id=row.id, settings=json.dumps(row.settings, sort_keys=True), created_at=now))

    def create_rematch(self, old_id: str, row: TableRow, seats: Iterable[SeatRow]) -> None:
        """Create the rematch table of ``old_id`` and link the two, in one
        transaction: a rematch is never stored without its link (nor the link
        without its table), so a crash between the two cannot make a second one.
        A second link for ``old_id`` violates the primary key: nothing is written."""
        now = _now()
        with self._unless_stored(lambda conn: self._has(conn, rematches_t, table_id=old_id, rematch_id=row.id)):
            with self._begin() as conn:
                self._insert_table(conn, row, seats, now)
                conn.execute(insert(rematches_t).values(table_id=old_id, rematch_id=row.id, created_at=now))

    def save_seat(self, table_id: str, seat: SeatRow, drop_data: bool = False) -> None:
        """Write one seat; ``drop_data``: its private data goes too (its holder left
        with it), in the same transaction, so a refused write leaves both as they were.
        A lost COMMIT answer is looked for (:meth:`_unless_stored`), as for every
        write: reported failed, a seat taken would be held by a token nobody was given."""
        def stored(conn: Any) -> bool:
            return (self._has(conn, seats_t, table_id=table_id, seat=seat.seat, kind=seat.kind, name=seat.name,
                              bot=seat.bot, token_hash=seat.token_hash)
                    and not (drop_data and self._has(conn, seat_data_t, table_id=table_id, seat=seat.seat)))

        with self._unless_stored(stored), self._begin() as conn:
            if drop_data:
                conn.execute(delete(seat_data_t).where(seat_data_t.c.table_id == table_id,
                                                       seat_data_t.c.seat == seat.seat))
            conn.execute(update(seats_t).where(seats_t.c.table_id == table_id, seats_t.c.seat == seat.seat)
                         .values(kind=seat.kind, name=seat.name, bot=seat.bot, token_hash=seat.token_hash))

    def set_seat_data(self, table_id: str, seat: int, data: str | None) -> None:
        """Set (JSON text) or, with ``None``, remove one seat's private data. A
        delete then an insert in one transaction: the same on every database."""
        def stored(conn: Any) -> bool:
            if data is None:
                return not self._has(conn, seat_data_t, table_id=table_id, seat=seat)
            return self._has(conn, seat_data_t, table_id=table_id, seat=seat, data=data)

        with self._unless_stored(stored), self._begin() as conn:
            conn.execute(delete(seat_data_t).where(seat_data_t.c.table_id == table_id, seat_data_t.c.seat == seat))
            if data is not None:
                conn.execute(insert(seat_data_t).values(table_id=table_id, seat=seat, data=data, updated_at=_now()))

    def set_status(self, table_id: str, status: str) -> None:
        """A table's status (``playing`` at its start). Reported failed though stored
        (a lost COMMIT answer), a start left the table a lobby in memory and "playing"
        in storage, which a restart would deal and bots play out for people long gone."""
        with self._unless_stored(lambda conn: self._has(conn, tables_t, id=table_id, status=status)), \
                self._begin() as conn:
            conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(status=status, updated_at=_now()))

    def delete_lobby_table(self, table_id: str) -> bool:
        """Delete a table that never started (an abandoned lobby) with its seats,
        settings, private data and the link that named it a rematch, in one
        transaction; whether it was deleted. A table that has started is never
        deleted: its status is read with the row locked (``FOR UPDATE`` where the
        database has it; SQLite has one writer at a time anyway), so a start
        committed by another connection cannot slip in between. A lost COMMIT
        answer is looked for: the table gone, it was deleted (called not deleted,
        it stayed in memory, and in the lobby list, though gone from storage)."""
        with self._unless_stored(lambda conn: not self._has(conn, tables_t, id=table_id)), \
                self._begin() as conn:
            status = conn.execute(select(tables_t.c.status).where(tables_t.c.id == table_id)
                                  .with_for_update()).scalar()
            if status != "lobby":
                return False
            conn.execute(delete(rematches_t).where(rematches_t.c.rematch_id == table_id))
            conn.execute(delete(rematches_t).where(rematches_t.c.table_id == table_id))
            for child in (seat_data_t, table_settings_t, seats_t, events_t):
                conn.execute(delete(child).where(child.c.table_id == table_id))
            conn.execute(delete(tables_t).where(tables_t.c.id == table_id))
        return True   # done, or its answer lost and the table found gone

    def append_event(self, table_id: str, ev: EventRow, record: dict[str, Any] | None = None) -> None:
        """Append one event; with ``record`` (the game just ended) also store the
        record and mark the table finished, in the same transaction."""
        now = _now()
        move = dict(table_id=table_id, **ev.move())     # found stored: the same event (EventRow.move)
        with self._unless_stored(lambda conn: self._has(conn, events_t, **move)):
            with self._begin() as conn:
                conn.execute(insert(events_t).values(**move, client_id=ev.client_id, created_at=now))
                if record is not None:
                    self._write_record(conn, table_id, record, now)

    def finish(self, table_id: str, record: dict[str, Any]) -> None:
        """Store a finished game's record (when no final event carried it)."""
        with self._unless_stored(lambda conn: self._has(conn, records_t, table_id=table_id)):
            with self._begin() as conn:
                self._write_record(conn, table_id, record, _now())

    @staticmethod
    def _write_record(conn: Any, table_id: str, record: dict[str, Any], now: datetime) -> None:
        conn.execute(insert(records_t).values(
            table_id=table_id, record=json.dumps(record, ensure_ascii=False), finished_at=now))
        conn.execute(insert(results_t).values(table_id=table_id, result=_result_text(record)))
        conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(status="finished", updated_at=now))

    def fill_results(self, batch: int = 500) -> int:
        """Copy the ``result`` of every stored record that has no
        ``goat_results`` row yet (a database written before that table existed)
        and return how many were copied: once, when such a database is first
        opened; afterwards every record is written with its result and this
        finds nothing. ``batch`` records are read and written at a time."""
        missing = (select(records_t.c.table_id, records_t.c.record)
                   .outerjoin(results_t, results_t.c.table_id == records_t.c.table_id)
                   .where(results_t.c.table_id.is_(None))
                   .order_by(records_t.c.table_id))
        copied = 0
        while True:
            with self._begin() as conn:
                rows = conn.execute(missing.limit(batch)).all()
                if not rows:
                    return copied
                conn.execute(insert(results_t), [
                    {"table_id": row.table_id, "result": _result_text(_loads_record(row.record))} for row in rows])
                copied += len(rows)

    # -------------------------------------------------------------- reads
    def load(self, table_id: str) -> StoredTable | None:
        with self._connect() as conn:
            row = conn.execute(select(tables_t).where(tables_t.c.id == table_id)).first()
            return None if row is None else self._stored(conn, row)

    def events_after(self, table_id: str, seq: int) -> list[EventRow]:
        """A table's events after version ``seq``, in order: what a table whose
        write collided has not applied (:class:`LogAhead`)."""
        with self._connect() as conn:
            return [EventRow(r.seq, r.kind, r.payload, r.actor, r.client_id) for r in conn.execute(
                select(events_t).where(events_t.c.table_id == table_id, events_t.c.seq > seq)
                .order_by(events_t.c.seq))]

    def rematch_of(self, table_id: str) -> str | None:
        """The id of the stored rematch of ``table_id`` (``None``: none): what a
        rematch whose write failed finds when its COMMIT went through after all."""
        with self._connect() as conn:
            return conn.execute(select(rematches_t.c.rematch_id).where(rematches_t.c.table_id == table_id)).scalar()

    def load_active(self) -> list[StoredTable]:
        """Every table not finished (lobby or playing), oldest first."""
        with self._connect() as conn:
            rows = conn.execute(select(tables_t).where(tables_t.c.status != "finished")
                                .order_by(tables_t.c.created_at)).all()
            return [self._stored(conn, row) for row in rows]

    def record(self, table_id: str) -> dict[str, Any] | None:
        """A finished table's record as served: the stored one and ``finished_at``,
        when it was stored (ISO 8601, UTC) — what the server's standings order games
        by, so that ``goat standings`` of the downloaded records can order them the same."""
        with self._connect() as conn:
            row = conn.execute(select(records_t.c.record, records_t.c.finished_at)
                               .where(records_t.c.table_id == table_id)).first()
        if row is None:
            return None
        return json.loads(row.record) | {"finished_at": _utc(row.finished_at).isoformat()}

    def finished(self, limit: int) -> list[FinishedRow]:
        """The ``limit`` most recently finished tables, newest first (ties: by id),
        leaving out private ones (``"private": true`` in their settings: found only
        by their link). Read a page at a time, so that private tables among the
        newest do not make the list shorter than ``limit``."""
        picked: list[Any] = []
        with self._connect() as conn:
            offset = 0
            while len(picked) < limit:
                rows = conn.execute(
                    select(tables_t.c.id, tables_t.c.game, tables_t.c.rules, tables_t.c.players,
                           results_t.c.result, records_t.c.finished_at, table_settings_t.c.settings)
                    .select_from(tables_t.join(records_t, records_t.c.table_id == tables_t.c.id)
                                 .join(results_t, results_t.c.table_id == tables_t.c.id)
                                 .outerjoin(table_settings_t, table_settings_t.c.table_id == tables_t.c.id))
                    .order_by(records_t.c.finished_at.desc(), tables_t.c.id.desc())
                    .offset(offset).limit(limit)).all()
                if not rows:
                    break
                offset += len(rows)
                picked += [row for row in rows
                           if not (row.settings and json.loads(row.settings).get("private"))]
            picked = picked[:limit]
            ids = [row.id for row in picked]
            seats: dict[str, list[SeatRow]] = {table_id: [] for table_id in ids}
            if ids:
                for r in conn.execute(select(seats_t).where(seats_t.c.table_id.in_(ids))
                                      .order_by(seats_t.c.table_id, seats_t.c.seat)):
                    seats[r.table_id].append(SeatRow(r.seat, r.kind, _shown_name(r), r.bot, r.token_hash))
        return [_finished_row(row, seats[row.id]) for row in picked]

    def finished_results(self, game: str | None = None, since: datetime | None = None,
                         until: datetime | None = None) -> list[FinishedRow]:
        """Every finished public table (of ``game``; finished at ``since`` or
        later and before ``until``), newest first, with its seats and its
        record's ``result`` only: the club standings' query.

        The results come from ``goat_results``, not from the records, so the
        deals' cards and actions, most of a record, are never read.
        Private tables are left out, as :meth:`finished` leaves them out."""
        query = (select(tables_t.c.id, tables_t.c.game, tables_t.c.rules, tables_t.c.players,
                        results_t.c.result, records_t.c.finished_at, table_settings_t.c.settings)
                 .select_from(tables_t.join(records_t, records_t.c.table_id == tables_t.c.id)
                              .join(results_t, results_t.c.table_id == tables_t.c.id)
                              .outerjoin(table_settings_t, table_settings_t.c.table_id == tables_t.c.id))
                 .order_by(records_t.c.finished_at.desc(), tables_t.c.id.desc()))
        if game is not None:
            query = query.where(tables_t.c.game == game)
        if since is not None:   # stored in UTC (SQLite keeps no zone: compare UTC with UTC)
            query = query.where(records_t.c.finished_at >= since.astimezone(timezone.utc))
        if until is not None:
            query = query.where(records_t.c.finished_at < until.astimezone(timezone.utc))
        with self._connect() as conn:
            rows = [row for row in conn.execute(query).all()
                    if not (row.settings and json.loads(row.settings).get("private"))]
            seats: dict[str, list[SeatRow]] = {row.id: [] for row in rows}
            ids = list(seats)
            for start in range(0, len(ids), 500):   # bounded IN lists: a season may hold thousands
                for r in conn.execute(select(seats_t.c.table_id, seats_t.c.seat, seats_t.c.kind, seats_t.c.name,
                                             seats_t.c.bot)
                                      .where(seats_t.c.table_id.in_(ids[start:start + 500]))
                                      .order_by(seats_t.c.table_id, seats_t.c.seat)):
                    seats[r.table_id].append(SeatRow(r.seat, r.kind, _shown_name(r), r.bot))
        return [_finished_row(row, seats[row.id]) for row in rows]

    def exists(self, table_id: str) -> bool:
        with self._connect() as conn:
            return conn.execute(select(tables_t.c.id).where(tables_t.c.id == table_id)).first() is not None

    @staticmethod
    def _stored(conn: Any, row: Any) -> StoredTable:
        settings = conn.execute(select(table_settings_t.c.settings)
                                .where(table_settings_t.c.table_id == row.id)).scalar()
        table = TableRow(row.id, row.game, row.rules, json.loads(row.options), row.players, row.seed, row.status,
                         json.loads(settings) if settings else {})
        seats = [SeatRow(r.seat, r.kind, r.name, r.bot, r.token_hash) for r in conn.execute(
            select(seats_t).where(seats_t.c.table_id == row.id).order_by(seats_t.c.seat))]
        events = [EventRow(r.seq, r.kind, r.payload, r.actor, r.client_id) for r in conn.execute(
            select(events_t).where(events_t.c.table_id == row.id).order_by(events_t.c.seq))]
        data = {r.seat: r.data for r in conn.execute(
            select(seat_data_t).where(seat_data_t.c.table_id == row.id).order_by(seat_data_t.c.seat))}
        rematch = conn.execute(select(rematches_t.c.rematch_id).where(rematches_t.c.table_id == row.id)).scalar()
        rematch_of = conn.execute(select(rematches_t.c.table_id).where(rematches_t.c.rematch_id == row.id)).scalar()
        before: dict[int, str] = {}
        if row.status == "lobby":   # the link and the old table's seats say it: nothing more is stored
            before = {r.seat: r.name for r in conn.execute(
                select(seats_t.c.seat, seats_t.c.name)
                .join(rematches_t, rematches_t.c.table_id == seats_t.c.table_id)
                .where(rematches_t.c.rematch_id == row.id, seats_t.c.kind == "human"))}
        return StoredTable(table, seats, events, data, rematch, before, rematch_of)

    # ------------------------------------------------------------ helpers
    @contextmanager
    def _unless_stored(self, stored: Callable[[Any], bool]) -> Iterator[None]:
        """Run a write; if it fails, ask ``stored(conn)`` on a new connection
        whether it was committed all the same (its COMMIT's answer lost: see the
        module docstring) and, if so, call it done. The write's own error is
        raised otherwise, also when the database cannot be asked."""
        try:
            yield
        except StorageError:
            try:
                with self._connect() as conn:
                    committed = stored(conn)
            except StorageError:
                committed = False
            if not committed:
                raise
            log.warning("a write's answer was lost, but the database holds it: carrying on")

    @staticmethod
    def _has(conn: Any, table: Table, **values: Any) -> bool:
        """Whether ``table`` has a row with these ``values`` (``None`` matches NULL)."""
        where = [table.c[name].is_(None) if value is None else table.c[name] == value
                 for name, value in values.items()]
        return conn.execute(select(literal(1)).select_from(table).where(*where).limit(1)).first() is not None

    def _begin(self) -> Any:
        return _guard(self.engine.begin)

    def _connect(self) -> Any:
        return _guard(self.engine.connect)


def _finished_row(row: Any, seats: list[SeatRow]) -> FinishedRow:
    """A finished table's row of :meth:`Storage.finished` and
    :meth:`Storage.finished_results` (its ``goat_results`` row parsed)."""
    return FinishedRow(row.id, row.game, row.rules, row.players, seats, _utc(row.finished_at),
                       json.loads(row.result))


def _shown_name(seat: Any) -> str:
    """A stored seat's name as lists and standings show it: an empty seat's is
    ``""`` even where its row keeps the name of a rematch's player who came back
    (``goat.server.tables.Table.came_back``: read only when the table is loaded)."""
    return "" if seat.kind == "empty" else seat.name


def _utc(moment: datetime) -> datetime:
    """A stored time with its zone: SQLite keeps none, and the times are stored in UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def _result_text(record: Any) -> str:
    """A record's ``result`` as the JSON text ``goat_results`` keeps (``{}``
    when the record has none, as :meth:`Storage.finished` reads it)."""
    result = record.get("result") if isinstance(record, dict) else None
    return json.dumps(result if isinstance(result, dict) else {}, ensure_ascii=False)


def _loads_record(text: str) -> Any:
    """A stored record's JSON, or ``None`` if it cannot be read (its result is then ``{}``)."""
    try:
        return json.loads(text)
    except ValueError:
        return None


@contextmanager
def _guard(opener: Callable[[], Any]) -> Iterator[Any]:
    """A connection (or transaction) whose database errors become :class:`StorageError`."""
    try:
        with opener() as conn:
            yield conn
    except SQLAlchemyError as exc:
        raise StorageError(f"database error: {_first_line(exc)}") from None


def _seat_values(table_id: str, s: SeatRow) -> dict[str, Any]:
    return {"table_id": table_id, "seat": s.seat, "kind": s.kind, "name": s.name, "bot": s.bot,
            "token_hash": s.token_hash}


def _first_line(exc: BaseException) -> str:
    text = str(getattr(exc, "orig", None) or exc)
    return text.splitlines()[0] if text else type(exc).__name__


def _safe_url(url: str) -> str:
    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # noqa: BLE001 - only for the message
        return "(bad URL)"


def cannot_open(url: str, why: object) -> StorageError:
    """The one line for a database that cannot be opened (its URL without the password)."""
    return StorageError(f"cannot open the database {_safe_url(url)}: {why}")


class ServeLock:
    """One ``goat serve`` per database, held for as long as the server runs.

    Two servers on one database would each restore every unfinished table and play
    it: their events collide on the same versions, the loser retries for ever and its
    players see a table that never moves. So a server takes this lock before it
    restores anything, and a second one stops with one line instead. SQLite: an
    exclusive ``flock`` on ``<database>.serve-lock`` beside the file; PostgreSQL: a
    session advisory lock on a connection of its own. Both end with the process,
    however it ends (SIGKILL too), so a crashed server does not block its restart
    (on PostgreSQL, after a machine's power cut: for about half a minute).
    Other databases are not locked.

    An advisory lock also ends with its session while the server runs on: the
    database restarted, an administrator or an idle timeout ended it, the network
    dropped it. A second server could then start and play every table too, so
    :meth:`holds` (every few seconds: :meth:`watch`) takes the lock again on a new
    session, and says when it cannot because another server has it."""

    #: The advisory lock's key on PostgreSQL (any fixed 64-bit number; "goatserv").
    PG_KEY = 0x676F617473657276
    #: The lock session's TCP keepalives (seconds; the count of unanswered probes).
    PG_KEEPALIVES = {"tcp_keepalives_idle": 10, "tcp_keepalives_interval": 5, "tcp_keepalives_count": 3}

    def __init__(self, url: str) -> None:
        self._file: Any = None
        self._connection: Any = None
        self._engine: Engine | None = None
        self._guard = threading.Lock()         # holds() in the watcher, release() in the server's thread
        self._stop = threading.Event()
        parsed = make_url(url)
        taken = StorageError(f"another goat serve is already using {_safe_url(url)}; stop it first "
                             "(two servers would play the same tables)")
        if parsed.get_backend_name() == "sqlite":
            try:
                import fcntl
            except ImportError:    # Windows: no flock, no lock (as for other databases)
                return
            if not parsed.database or parsed.database == ":memory:":
                return

            path = Path(parsed.database + ".serve-lock")
            try:
                self._file = open(path, "a")
            except OSError as exc:
                raise cannot_open(url, exc) from None
            try:
                fcntl.flock(self._file, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                self.release()
                raise taken from None
        elif parsed.get_backend_name() == "postgresql":
            self._engine = make_engine(url)
            try:
                held = self._take()
            except SQLAlchemyError as exc:
                self.release()
                raise cannot_open(url, _first_line(exc)) from None
            if not held:
                self.release()
                raise taken

    def _take(self) -> bool:
        """Open the lock's session and try the advisory lock on it; whether it is held.
        Raises :class:`SQLAlchemyError` when the database cannot be reached."""
        assert self._engine is not None
        self._connection = self._engine.connect()
        # A server whose machine lost power never closes its connection: the
        # database would keep its lock (and refuse the restart) until TCP gave
        # up on it, two hours by default. Probing the idle session gives up in
        # about half a minute instead (ignored over a Unix socket).
        for name, seconds in self.PG_KEEPALIVES.items():
            self._connection.exec_driver_sql(f"SET {name} = {seconds}")
        held = bool(self._connection.exec_driver_sql(f"SELECT pg_try_advisory_lock({self.PG_KEY})").scalar())
        self._connection.commit()
        return held

    def holds(self) -> bool:
        """Whether this server still has its database to itself. On PostgreSQL the
        lock's session is asked; one that has ended is replaced by a new session
        that takes the lock again — ``False`` only when another server holds it
        now. A database that cannot be reached says nothing either way (``True``:
        no server can play there meanwhile); the next call asks again. SQLite's
        ``flock`` ends only with the process: always ``True``."""
        with self._guard:
            if self._engine is None or self._stop.is_set():
                return True
            try:
                self._connection.exec_driver_sql("SELECT 1")
                self._connection.commit()
                return True
            except SQLAlchemyError:
                pass   # the session ended, and the lock with it
            with suppress(SQLAlchemyError):
                self._connection.close()
            try:
                held = self._take()
            except SQLAlchemyError:
                return True
            if not held:
                self._connection.close()
            return held

    def watch(self, lost: Callable[[], None], every: float = 5.0) -> None:
        """Check :meth:`holds` every ``every`` seconds in a daemon thread until
        :meth:`release`; the first time it is ``False``, call ``lost`` (``goat
        serve`` stops: two servers must not play the same tables) and stop."""
        if self._engine is None:
            return

        def run() -> None:
            while not self._stop.wait(every):
                if not self.holds():
                    log.error("the database's lock was lost and another goat serve holds it now: stopping "
                              "(two servers would play the same tables)")
                    lost()
                    return

        threading.Thread(target=run, name="goat-serve-lock", daemon=True).start()

    def release(self) -> None:
        self._stop.set()
        with self._guard:
            if self._file is not None:
                self._file.close()      # closing the file drops the flock
                self._file = None
            if self._connection is not None:
                with suppress(SQLAlchemyError):
                    # Unlocked here, not left to the session's end: the database ends a
                    # closed session a moment later, and a server started at once (a
                    # restart) found the lock still held and refused to start.
                    self._connection.exec_driver_sql("SELECT pg_advisory_unlock_all()")
                    self._connection.commit()
                with suppress(SQLAlchemyError):
                    self._connection.close()  # the session's advisory lock ends with it anyway
                self._connection = None
            if self._engine is not None:
                self._engine.dispose()
                self._engine = None


T = TypeVar("T")


class AsyncStorage:
    """:class:`Storage` for the event loop: every call runs on one worker thread,
    in the order it was made."""

    def __init__(self, storage: Storage) -> None:
        self.sync = storage
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="goat-storage")

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)

    async def create_table(self, row: TableRow, seats: list[SeatRow]) -> None:
        await self._run(self.sync.create_table, row, seats)

    async def create_rematch(self, old_id: str, row: TableRow, seats: list[SeatRow]) -> None:
        await self._run(self.sync.create_rematch, old_id, row, seats)

    async def save_seat(self, table_id: str, seat: SeatRow, drop_data: bool = False) -> None:
        await self._run(self.sync.save_seat, table_id, seat, drop_data)

    async def set_seat_data(self, table_id: str, seat: int, data: str | None) -> None:
        await self._run(self.sync.set_seat_data, table_id, seat, data)

    async def set_status(self, table_id: str, status: str) -> None:
        await self._run(self.sync.set_status, table_id, status)

    async def delete_lobby_table(self, table_id: str) -> bool:
        return await self._run(self.sync.delete_lobby_table, table_id)

    async def append_event(self, table_id: str, ev: EventRow, record: dict[str, Any] | None = None) -> None:
        await self._run(self.sync.append_event, table_id, ev, record)

    async def finish(self, table_id: str, record: dict[str, Any]) -> None:
        await self._run(self.sync.finish, table_id, record)

    async def load(self, table_id: str) -> StoredTable | None:
        return await self._run(self.sync.load, table_id)

    async def rematch_of(self, table_id: str) -> str | None:
        return await self._run(self.sync.rematch_of, table_id)

    async def load_active(self) -> list[StoredTable]:
        return await self._run(self.sync.load_active)

    async def events_after(self, table_id: str, seq: int) -> list[EventRow]:
        return await self._run(self.sync.events_after, table_id, seq)

    async def record(self, table_id: str) -> dict[str, Any] | None:
        return await self._run(self.sync.record, table_id)

    async def exists(self, table_id: str) -> bool:
        return await self._run(self.sync.exists, table_id)

    async def finished(self, limit: int) -> list[FinishedRow]:
        return await self._run(self.sync.finished, limit)

    async def finished_results(self, game: str | None = None, since: datetime | None = None,
                               until: datetime | None = None) -> list[FinishedRow]:
        return await self._run(self.sync.finished_results, game, since, until)

    def close(self) -> None:
        self._pool.shutdown(wait=True)
        self.sync.close()
