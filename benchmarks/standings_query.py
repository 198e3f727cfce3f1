"""The club standings' query with and without the ``goat_results`` table.

Fills a database with N finished 4-player Kozel matches (records of random
classic matches) and times the standings' main query — every finished table,
its result and finish time (``Storage.finished_results`` adds the seats and
settings) — reading the small ``goat_results`` rows, next to the query it
replaced, in the same run: the database taking each record's ``result`` out of
the whole stored record (SQLite's ``json_extract``, PostgreSQL's ``->>``). Min
of R runs each, alternated. A database that already holds finished tables
counts them too (both queries read the same rows).

    PYTHONPATH=src .venv/bin/python benchmarks/standings_query.py [N] [R] [DATABASE_URL]

Without a URL a SQLite file in a temporary directory is used.
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
import time
from pathlib import Path

from typing import Any

from sqlalchemy import cast, func, select
from sqlalchemy.dialects.postgresql import JSON as PG_JSON

from goat.cli.random_games import play_one
from goat.games import get_game
from goat.server.storage import EventRow, SeatRow, Storage, TableRow, records_t, results_t, tables_t


def query(store: Storage, result: Any, source: Any) -> int:
    """The standings' main query, the result column taken from ``source``:
    every finished table with its result and finish time, the results parsed."""
    with store.engine.connect() as conn:
        rows = conn.execute(select(tables_t.c.id, result.label("result"), records_t.c.finished_at)
                            .select_from(source)).all()
    return sum(1 for row in rows if row.result and json.loads(row.result) is not None)


def from_results(store: Storage) -> int:
    """Now: the ``goat_results`` row of each finished table."""
    return query(store, results_t.c.result,
                 tables_t.join(records_t, records_t.c.table_id == tables_t.c.id)
                 .join(results_t, results_t.c.table_id == tables_t.c.id))


def from_records(store: Storage) -> int:
    """Before: the database takes the result out of every whole record."""
    if store.engine.dialect.name == "sqlite":
        result = func.json_extract(records_t.c.record, "$.result")
    else:
        result = cast(records_t.c.record, PG_JSON)["result"].astext
    return query(store, result, tables_t.join(records_t, records_t.c.table_id == tables_t.c.id))


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    with tempfile.TemporaryDirectory() as tmp:
        url = sys.argv[3] if len(sys.argv) > 3 else f"sqlite:///{Path(tmp) / 'goat.db'}"
        store = Storage(url)
        prefix = f"bq{random.getrandbits(24):06x}"
        records = [play_one(get_game("kozel"), "classic", {}, None, 1, i, False) for i in range(20)]
        size = sum(len(json.dumps(r)) for r in records) / len(records)
        for i in range(n):
            table_id = f"{prefix}{i:05d}"
            seats = [SeatRow(s, "human", f"P{(i + s) % 9}", None) for s in range(4)]
            store.create_table(TableRow(table_id, "kozel", "classic", {}, 4, "1", "playing"), seats)
            store.append_event(table_id, EventRow(1, "deal", "{}", "server"), record=dict(records[i % 20], table=table_id))
        best_new = best_old = float("inf")
        for _ in range(reps):
            t = time.perf_counter()
            new_rows = from_results(store)
            best_new = min(best_new, time.perf_counter() - t)
            t = time.perf_counter()
            old_rows = from_records(store)
            best_old = min(best_old, time.perf_counter() - t)
        print(f"{store.engine.dialect.name}: {n} finished matches (records of {size / 1024:.0f} KB), "
              f"rows {new_rows} / {old_rows}")
        print(f"  results from goat_results (now):     {1000 * best_new:8.1f} ms")
        print(f"  result out of each record (before):  {1000 * best_old:8.1f} ms   ({best_old / best_new:.1f}x the time)")
        store.close()


if __name__ == "__main__":
    main()
