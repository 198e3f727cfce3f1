"""Club standings over the stored finished games (``GET /api/standings`` and
``GET /api/standings.csv``).

* the storage query (:meth:`Storage.finished_results`): the record's ``result``
  alone, seats, newest first, by game and period, private tables left out, a
  record without a result kept with ``{}`` (``test_postgres.py`` runs the same
  check on PostgreSQL);
* a served club night: two finished Kozel matches, one public (Ann) and one
  private (Bo): Ann is in the standings, Bo is not (the finished list leaves
  private games out, and so do the standings); bots only when asked for; the
  CSV with its BOM, header and file name; the filters by game and period;
* bad filters: one line, 400.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from sqlalchemy import update

from goat.server.runner import ServerThread
from goat.server.storage import EventRow, SeatRow, Storage, TableRow, records_t, results_t

from .conftest import QUICK, Client, Lobby, finish_with_bots, one_line, play_to_the_end, run


def check_standings_query(store: Storage, prefix: str) -> None:
    """Four finished tables and one in play: a Kozel night of yesterday and of
    today, a private Kozel game, a duel; the query by game and period."""
    now = datetime.now(timezone.utc)
    made = [("old", "kozel", 4, {}, {"penalty_total": [12, 3], "match_over": True, "loser_team": 0}, now - timedelta(days=1)),
            ("new", "kozel", 4, {}, {"penalty_total": [2, 12], "match_over": True, "loser_team": 1}, now - timedelta(hours=1)),
            ("hid", "kozel", 4, {"private": True}, {"penalty_total": [0, 12]}, now - timedelta(hours=2)),
            ("duel", "yugioh", 2, {}, {"wins": [2, 1], "winner": 0}, now - timedelta(minutes=30)),
            ("bare", "spades", 4, {}, None, now - timedelta(minutes=10))]
    for name, game, players, settings, result, when in made:
        table_id = f"{prefix}{name}"
        seats = [SeatRow(0, "human", "Ann", None, "f" * 64)] + [SeatRow(i, "bot", "", "heuristic") for i in range(1, players)]
        store.create_table(TableRow(table_id, game, "x", {}, players, "1", "playing", settings), seats)
        record = {"deals": [{"hands": ["9H"] * 8, "actions": ["0 play 9H"] * 32}] * 3, "table": table_id}
        if result is not None:
            record["result"] = result
        store.append_event(table_id, EventRow(1, "deal", "{}", "server"), record=record)
        with store.engine.begin() as conn:
            conn.execute(update(records_t).where(records_t.c.table_id == table_id).values(finished_at=when))
    store.create_table(TableRow(f"{prefix}play", "kozel", "x", {}, 4, "1", "playing"), [SeatRow(i) for i in range(4)])

    def ids(rows: list) -> list[str]:
        return [row.id[len(prefix):] for row in rows if row.id.startswith(prefix)]

    everything = store.finished_results()
    assert ids(everything) == ["bare", "duel", "new", "old"]   # newest first; private and unfinished left out
    by_id = {row.id[len(prefix):]: row for row in everything if row.id.startswith(prefix)}
    assert by_id["new"].result == made[1][4] and by_id["duel"].result == made[3][4] and by_id["bare"].result == {}
    assert [(s.seat, s.kind, s.name, s.bot) for s in by_id["new"].seats] == \
        [(0, "human", "Ann", None)] + [(i, "bot", "", "heuristic") for i in (1, 2, 3)]
    assert all(s.token_hash is None for s in by_id["new"].seats)       # no token hash leaves the query
    assert by_id["old"].finished_at.tzinfo is not None
    assert ids(store.finished_results(game="kozel")) == ["new", "old"]
    since = now - timedelta(hours=6)
    assert ids(store.finished_results(game="kozel", since=since)) == ["new"]
    in_moscow = since.astimezone(timezone(timedelta(hours=3)))                 # the same moment, another zone
    assert ids(store.finished_results(game="kozel", since=in_moscow)) == ["new"]
    assert ids(store.finished_results(until=since)) == ["old"]
    assert ids(store.finished_results(since=now - timedelta(minutes=45), until=now - timedelta(minutes=20))) == ["duel"]


def test_the_standings_query_on_sqlite(tmp_path: Path) -> None:
    store = Storage(f"sqlite:///{tmp_path / 'goat.db'}")
    check_standings_query(store, "s")
    store.close()


def test_a_club_night_in_the_standings_and_its_csv(start_server: Callable[..., ServerThread]) -> None:
    server = start_server()

    async def scenario() -> None:
        lobby = Lobby(server.url)
        public, _ = await finish_with_bots(lobby, server, rules="classic", seed=4, options=QUICK, bot="random")
        private = await lobby.create(name="Bo", rules="classic", seed=5, options=QUICK, private=True)
        for seat in (1, 2, 3):
            await lobby.bot(private["id"], seat, private["token"], "random")
        async with Client(server.ws_url, private["id"], private["token"]) as me:
            await lobby.start(private["id"], private["token"])
            await play_to_the_end(me, 0)
        finished = (await lobby.http.get("/api/tables", params={"status": "finished"})).json()["tables"]
        assert [t["id"] for t in finished] == [public]                   # the finished list's rule ...
        record = await lobby.record(public)
        ann_lost = record["result"]["loser_team"] == 0

        answer = await lobby.http.get("/api/standings")
        assert answer.status_code == 200
        body = answer.json()
        assert body["games"] == 1 and body["game"] is None and body["bots"] is False
        assert [(p["name"], p["played"], p["won"], p["lost"], p["goats"], p["bot"]) for p in body["players"]] == \
            [("Ann", 1, 0 if ann_lost else 1, 1 if ann_lost else 0, 1 if ann_lost else 0, None)]   # ... no Bo

        with_bots = (await lobby.http.get("/api/standings", params={"bots": "1", "game": "kozel"})).json()
        assert {p["name"] for p in with_bots["players"]} == {"Ann", "random (bot)"}
        bot_row = next(p for p in with_bots["players"] if p["bot"] == "random")
        assert (bot_row["played"], bot_row["won"], bot_row["lost"]) == (2, 1, 1)   # Ann's partner and both opponents

        sheet = await lobby.http.get("/api/standings.csv", params={"game": "kozel", "since": "2020-01-01",
                                                                    "bots": "1"})
        assert sheet.status_code == 200 and sheet.headers["content-type"].startswith("text/csv")
        assert sheet.headers["content-disposition"] == 'attachment; filename="goat-standings-kozel-2020-01-01.csv"'
        assert sheet.content.startswith(b"\xef\xbb\xbf")
        rows = list(csv.DictReader(io.StringIO(sheet.content.decode("utf-8-sig"))))
        assert {r["name"] for r in rows} == {"Ann", "random (bot)"} and rows[0]["place"] == "1"
        ann = next(r for r in rows if r["name"] == "Ann")
        assert (ann["played"], ann["goats"]) == ("1", "1" if ann_lost else "0")

        for params in ({"game": "spades"}, {"since": "2999-01-01"}, {"until": "2020-01-01"}):
            empty = (await lobby.http.get("/api/standings", params=params)).json()
            assert empty["games"] == 0 and empty["players"] == [], params
        # the UTC day the match finished on, from the server (the clock's "today" may have
        # turned over since, when the test runs at midnight)
        day = datetime.fromisoformat(finished[0]["finished_at"]).astimezone(timezone.utc).date()
        within = (await lobby.http.get("/api/standings", params={"since": day.isoformat(),
                                                                 "until": day.isoformat()})).json()
        assert within["games"] == 1 and within["until"].startswith(
            (day + timedelta(days=1)).isoformat())                        # a day as until: through its end
        moment = (await lobby.http.get("/api/standings?since=2020-01-01T00:00:00+03:00")).json()   # "+" unencoded
        assert moment["since"] == "2020-01-01T00:00:00+03:00" and moment["games"] == 1
        await lobby.close()

    run(scenario())


@pytest.mark.parametrize("query, words", [
    ("game=chess", ("game", "kozel", "'chess'")),
    ("since=yesterday", ("since", "YYYY-MM-DD", "'yesterday'")),
    ("until=2025-13-01", ("until", "'2025-13-01'")),
    ("bots=2", ("bots", "0", "1", "'2'")),
    ("since=2025-03-02&until=2025-03-01T12:00:00Z", ("since must be before until",)),
    ("until=9999-12-31", ("until", "out of range")),                     # was a 500 (OverflowError)
    ("since=9999-12-31T23:59:59-23:59", ("since", "out of range")),
])
def test_bad_standings_filters_are_one_line(start_server: Callable[..., ServerThread], query: str,
                                            words: tuple[str, ...]) -> None:
    server = start_server()

    async def ask() -> None:
        lobby = Lobby(server.url)
        for path in ("/api/standings", "/api/standings.csv"):
            one_line(await lobby.http.get(f"{path}?{query}"), 400, *words)
        await lobby.close()

    run(ask())


def test_an_older_database_gains_the_results_of_its_finished_games(tmp_path: Path) -> None:
    """A database written before ``goat_results`` existed: its finished games
    are in the standings after the first open (their results copied from the
    records, an unreadable record's as ``{}``), once; games finished later are
    written with their result and need no copying."""
    db = tmp_path / "goat.db"
    store = Storage(f"sqlite:///{db}")
    check_standings_query(store, "o")
    with store.engine.begin() as conn:      # as if written by the server before the table existed
        conn.execute(results_t.delete())
        conn.execute(update(records_t).where(records_t.c.table_id == "oduel").values(record="{not json"))
    assert store.finished_results() == []   # the standings read the results table alone
    store.close()

    reopened = Storage(f"sqlite:///{db}")
    rows = {row.id: row.result for row in reopened.finished_results()}
    assert rows == {"obare": {}, "oduel": {}, "onew": {"penalty_total": [2, 12], "match_over": True, "loser_team": 1},
                    "oold": {"penalty_total": [12, 3], "match_over": True, "loser_team": 0}}
    assert reopened.fill_results() == 0     # nothing left to copy
    assert reopened.fill_results(batch=1) == 0
    reopened.close()


def test_filling_results_goes_in_batches(tmp_path: Path) -> None:
    """``fill_results`` copies every missing result whatever the batch size."""
    store = Storage(f"sqlite:///{tmp_path / 'goat.db'}")
    check_standings_query(store, "b")
    with store.engine.begin() as conn:
        conn.execute(results_t.delete())
    assert store.fill_results(batch=2) == 5            # five finished tables, the private one too
    assert [row.id for row in store.finished_results()] == ["bbare", "bduel", "bnew", "bold"]
    store.close()
