"""Storage: what is written comes back, SQLite runs in WAL mode, errors are one line."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from goat.server.settings import Settings, SettingsError
from goat.server.storage import EventRow, SeatRow, ServeLock, Storage, StorageError, TableRow


def make(tmp_path: Path) -> Storage:
    return Storage(Settings(data_dir=tmp_path / "nested" / "data").url)


def test_tables_seats_events_and_records_round_trip(tmp_path: Path) -> None:
    store = make(tmp_path)
    row = TableRow("abc123", "kozel", "street", {"penalty": "flat2"}, 4, "42")
    store.create_table(row, [SeatRow(i) for i in range(4)])
    store.save_seat("abc123", SeatRow(1, "human", "Ann", None, "f" * 64))
    store.save_seat("abc123", SeatRow(2, "bot", "heuristic bot", "heuristic"))
    store.set_status("abc123", "playing")
    store.append_event("abc123", EventRow(1, "deal", '{"hands": {}}', "server"))
    store.append_event("abc123", EventRow(2, "action", "1 play 9H", "human", "c-1"))
    assert [t.table.id for t in store.load_active()] == ["abc123"]
    store.append_event("abc123", EventRow(3, "action", "2 play KH", "bot"), record={"game": "kozel"})

    loaded = store.load("abc123")
    assert loaded is not None
    assert loaded.table == TableRow("abc123", "kozel", "street", {"penalty": "flat2"}, 4, "42", "finished")
    assert [(s.kind, s.name, s.bot) for s in loaded.seats] == [
        ("empty", "", None), ("human", "Ann", None), ("bot", "heuristic bot", "heuristic"), ("empty", "", None)]
    assert loaded.seats[1].token_hash == "f" * 64
    assert [(e.seq, e.kind, e.payload, e.actor, e.client_id) for e in loaded.events] == [
        (1, "deal", '{"hands": {}}', "server", None), (2, "action", "1 play 9H", "human", "c-1"),
        (3, "action", "2 play KH", "bot", None)]
    served = store.record("abc123")      # the record as stored, and when it was (UTC, to the microsecond)
    finished_at = datetime.fromisoformat(served.pop("finished_at"))
    assert served == {"game": "kozel"} and finished_at.utcoffset() == timedelta(0)
    assert finished_at == store.finished(1)[0].finished_at
    assert store.load_active() == []          # finished tables are not restored
    assert store.load("nope") is None and store.record("nope") is None
    assert store.exists("abc123") and not store.exists("nope")


def test_lists_and_standings_never_show_the_name_an_empty_seat_row_keeps(tmp_path: Path) -> None:
    """An empty seat's row may keep a name (a rematch's player who came back:
    ``Table.came_back``, read when the table is loaded); the finished tables'
    list and the standings' query show that seat without it."""
    store = make(tmp_path)
    store.create_table(TableRow("abc123", "kozel", "classic", {}, 4, "42"), [SeatRow(i) for i in range(4)])
    store.save_seat("abc123", SeatRow(0, "human", "Ann", None, "f" * 64))
    store.save_seat("abc123", SeatRow(3, "empty", "Bob"))
    store.append_event("abc123", EventRow(1, "action", "0 play 9H", "human"), record={"game": "kozel", "result": {}})
    assert [(s.kind, s.name) for s in store.load("abc123").seats][::3] == [("human", "Ann"), ("empty", "Bob")]
    for rows in (store.finished(5), store.finished_results()):
        assert [(s.kind, s.name) for s in rows[0].seats][::3] == [("human", "Ann"), ("empty", "")]


def test_an_event_number_is_never_written_twice(tmp_path: Path) -> None:
    store = make(tmp_path)
    store.create_table(TableRow("t1", "kozel", "classic", {}, 4, "1"), [SeatRow(i) for i in range(4)])
    store.append_event("t1", EventRow(1, "action", "0 play 9H", "human"))
    with pytest.raises(StorageError) as info:
        store.append_event("t1", EventRow(1, "action", "0 play KH", "human"))
    assert "\n" not in str(info.value)
    assert [e.payload for e in store.load("t1").events] == ["0 play 9H"]


def test_sqlite_file_lives_in_the_data_dir_in_wal_mode(tmp_path: Path) -> None:
    store = make(tmp_path)
    store.create_table(TableRow("t1", "kozel", "classic", {}, 4, "1"), [SeatRow(0)])
    db = tmp_path / "nested" / "data" / "goat.db"
    assert db.exists()
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_database_that_cannot_be_opened_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    with pytest.raises(StorageError) as info:
        Storage(f"sqlite:///{tmp_path / 'file' / 'goat.db'}")
    assert "cannot open the database" in str(info.value) and "\n" not in str(info.value)
    with pytest.raises(StorageError) as info:   # refused, or no driver installed: one line either way
        Storage("postgresql+psycopg://user:secret@127.0.0.1:1/goat")
    assert "secret" not in str(info.value) and "\n" not in str(info.value)
    with pytest.raises(StorageError, match="its driver is not installed"):
        Storage("postgresql+pg8000://user@127.0.0.1/goat")   # a driver this project never installs


def test_the_postgres_scheme_says_what_to_write_instead(tmp_path: Path) -> None:
    """``postgres://`` (as many hosts print their URLs) was SQLAlchemy's "Can't load
    plugin: sqlalchemy.dialects:postgres", which does not tell an organiser the fix."""
    with pytest.raises(StorageError) as info:
        Storage("postgres://goat:secret@127.0.0.1:1/goat")
    message = str(info.value)
    assert "'postgres' is not a kind of database" in message and "postgresql+psycopg://" in message
    assert "secret" not in message and "\n" not in message


def test_settings_come_from_the_environment_and_are_checked(tmp_path: Path) -> None:
    settings = Settings.from_env({"GOAT_DATA_DIR": str(tmp_path)}, grace_seconds=5, bot_delay=None)
    assert settings.data_dir == tmp_path and settings.grace_seconds == 5 and settings.bot_delay == 0.8
    assert settings.url == f"sqlite:///{tmp_path.resolve() / 'goat.db'}"
    url = "postgresql+psycopg://u:p@db/goat"
    assert Settings.from_env({"GOAT_DATABASE_URL": url}).url == url
    with pytest.raises(SettingsError, match="grace must be a number of seconds >= 0"):
        Settings(grace_seconds=-1)


def test_goat_serve_says_which_database_it_keeps_the_tables_in_without_the_password(tmp_path: Path) -> None:
    """The start-up line named "$GOAT_DATABASE_URL" even for ``--database-url``
    (no variable set): the organiser could not tell which database it was."""
    assert Settings(data_dir=tmp_path).place == str(tmp_path.resolve() / "goat.db")
    place = Settings(database_url="postgresql+psycopg://goat:s3cret@db.club:5432/goat").place
    assert place == "the database postgresql+psycopg://goat:***@db.club:5432/goat"
    assert Settings(database_url="sqlite:////srv/goat/club.db").place == "the database sqlite:////srv/goat/club.db"


def first_schema_database(tmp_path: Path, status: str) -> Path:
    """A SQLite database as the first schema made it (``goat_tables`` only,
    without the tables added since), holding one Kozel table ``old1`` in
    ``status``: a newer server must open it unchanged."""
    db = tmp_path / "old" / "goat.db"
    db.parent.mkdir()
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE goat_tables (id VARCHAR(32) PRIMARY KEY, game VARCHAR(32) NOT NULL, "
                     "rules VARCHAR(64) NOT NULL, options TEXT NOT NULL, players INTEGER NOT NULL, "
                     "seed VARCHAR(64) NOT NULL, status VARCHAR(16) NOT NULL, created_at DATETIME NOT NULL, "
                     "updated_at DATETIME NOT NULL)")
        conn.execute("INSERT INTO goat_tables VALUES ('old1', 'kozel', 'classic', '{}', 4, '1', ?, "
                     "'2024-01-01 00:00:00', '2024-01-01 00:00:00')", (status,))
    return db


def test_seat_data_round_trips_and_an_older_database_opens(tmp_path: Path) -> None:
    """A seat's private data (a player's own deck) is stored, replaced and
    removed per seat; a database made before ``goat_seat_data`` existed opens
    unchanged, gains the table, and keeps what it held."""
    db = first_schema_database(tmp_path, "lobby")   # no goat_seat_data
    store = Storage(f"sqlite:///{db}")
    old = store.load("old1")
    assert old is not None and old.table.game == "kozel" and old.seat_data == {}
    store.create_table(TableRow("t2", "yugioh", "goat", {}, 2, "1"), [SeatRow(0), SeatRow(1)])
    store.set_seat_data("t2", 1, '{"main": ["Sangan"]}')
    store.set_seat_data("t2", 0, '{"main": []}')
    store.set_seat_data("t2", 1, '{"main": ["Jinzo"]}')          # replaced, not added
    assert store.load("t2").seat_data == {0: '{"main": []}', 1: '{"main": ["Jinzo"]}'}
    store.set_seat_data("t2", 0, None)                          # removed
    store.set_seat_data("t2", 0, None)                          # removing nothing is fine
    assert store.load("t2").seat_data == {1: '{"main": ["Jinzo"]}'}
    assert [t.table.id for t in store.load_active()] == ["old1", "t2"]
    with pytest.raises(StorageError):                           # only for a table that exists
        store.set_seat_data("nope", 0, "{}")
    store.close()


def test_one_serve_lock_per_sqlite_database_until_it_is_released(tmp_path: Path) -> None:
    """Two servers on one database would both play its unfinished tables (their
    events collide, one retries for ever): the second is refused with one line,
    and the database is free again once the first lets go."""
    url = f"sqlite:///{tmp_path / 'goat.db'}"
    first = ServeLock(url)
    with pytest.raises(StorageError, match="another goat serve is already using .*goat.db; stop it first"):
        ServeLock(url)
    ServeLock(f"sqlite:///{tmp_path / 'other.db'}").release()     # another database is not locked
    first.release()
    ServeLock(url).release()


def test_a_postgres_server_that_never_answers_is_given_up_on_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every database call runs on one thread: a PostgreSQL that accepts the
    connection and then says nothing used to hold it — and every table — for as
    long as the operating system waits. Connecting now gives up after
    ``POSTGRES_CONNECT["connect_timeout"]`` (10 s; 1 s here) with the one-line
    "cannot open" error, and a URL's own setting wins over the default."""
    pytest.importorskip("psycopg")
    import socket
    import threading

    from goat.server import storage

    assert storage.postgres_connect_args("postgresql+psycopg://u@h/db")["connect_timeout"] == 10
    assert storage.postgres_connect_args("postgresql+psycopg://u@h/db?connect_timeout=3").keys() == {
        "keepalives", "keepalives_idle", "keepalives_interval", "keepalives_count"}
    monkeypatch.setitem(storage.POSTGRES_CONNECT, "connect_timeout", 1)
    with socket.socket() as silent:              # accepts, never answers the startup packet
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        port = silent.getsockname()[1]
        outcome: list[BaseException | None] = []

        def open_it() -> None:
            try:
                Storage(f"postgresql+psycopg://goat:goat@127.0.0.1:{port}/goat")
                outcome.append(None)
            except BaseException as exc:     # noqa: BLE001 - handed to the test's thread
                outcome.append(exc)

        opener = threading.Thread(target=open_it, daemon=True)
        opener.start()
        opener.join(60)                          # a liveness bound, not a timing claim
    assert outcome, "Storage() still waits for a database that never answers"
    assert isinstance(outcome[0], StorageError) and "\n" not in str(outcome[0]), outcome
