"""Score sheets and finished games for club organisers.

* ``GET /api/tables/{id}/scoresheet.csv`` of a finished table is exactly
  ``goat replay --csv`` of the table's record (Kozel, Spades, Yu-Gi-Oh!), a
  download named after the game, rules and table, UTF-8 with a BOM;
* mid-game it holds the completed deals only: no row and no card of the
  deal in play;
* ``GET /api/tables?status=finished`` lists finished games from the database,
  newest first, after a restart too, never a table in its lobby or in play;
  its ``limit`` is checked (one line, 400);
* the storage query on an older database (``test_postgres.py`` runs it on PostgreSQL).
"""

from __future__ import annotations

import asyncio
import csv
import io
import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from goat.cli.main import app
from goat.server.runner import ServerThread
from goat.server.storage import EventRow, SeatRow, Storage, TableRow

from .conftest import QUICK, Client, Lobby, finish_with_bots, one_line, run
from .test_storage import first_schema_database
from .test_yugioh_table import play_duels

CARD = re.compile(r"\b(?:[2-9TJQKA][CDHS]|LJ|BJ)\b")


def cli_csv(record: dict[str, Any], tmp_path: Path) -> str:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    result = CliRunner().invoke(app, ["replay", str(path), "--csv"])
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.parametrize("body", [
    {"game": "kozel", "rules": "classic", "options": QUICK, "seed": 3},
    {"game": "spades", "rules": "standard", "options": {"max_deals": 1}, "seed": 4},
], ids=["kozel", "spades"])
def test_the_csv_of_a_finished_table_is_goat_replay_csv_of_its_record(
        start_server: Callable[..., ServerThread], tmp_path: Path, body: dict[str, Any]) -> None:
    server = start_server()

    async def scenario() -> tuple[str, httpx.Response, dict[str, Any]]:
        lobby = Lobby(server.url)
        tid, _ = await finish_with_bots(lobby, server, **body)
        answer = await lobby.http.get(f"/api/tables/{tid}/scoresheet.csv")
        record = await lobby.record(tid)
        await lobby.close()
        return tid, answer, record

    tid, answer, record = run(scenario())
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/csv")
    assert answer.headers["content-disposition"] == \
        f'attachment; filename="goat-{body["game"]}-{body["rules"]}-{tid}.csv"'
    assert answer.content.startswith(b"\xef\xbb\xbf")
    text = answer.content[3:].decode("utf-8")
    assert record["table"] == tid
    assert text.splitlines() == cli_csv(record, tmp_path).splitlines()
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == len(record["result"]["deals"]) >= 1 and {r["table"] for r in rows} == {tid}


def test_the_csv_of_a_finished_duel(start_server: Callable[..., ServerThread], tmp_path: Path) -> None:
    server = start_server()

    async def scenario() -> tuple[str, bytes, dict[str, Any]]:
        lobby = Lobby(server.url)
        created = await lobby.create(game="yugioh", rules="goat", name="Аня", seed=5,
                                     options={"starting_lp": 3000})
        tid, token = created["id"], created["token"]
        await lobby.bot(tid, 1, token, bot="greedy")
        async with Client(server.ws_url, tid, token) as me:
            await lobby.start(tid, token)
            await me.until(lambda m: m["type"] == "state" and m["status"] == "playing")
            early = await lobby.http.get(f"/api/tables/{tid}/scoresheet.csv")   # the first duel goes on: no row
            assert early.status_code == 200 and early.content.decode("utf-8-sig").splitlines() == [
                "record,table,players 0,players 1,duel,first,winner,reason,turns,LP 0,LP 1,notes"]
            await play_duels(me, 0)
        answer = await lobby.http.get(f"/api/tables/{tid}/scoresheet.csv")
        assert answer.headers["content-disposition"].endswith(f'filename="goat-yugioh-goat-{tid}.csv"')
        record = await lobby.record(tid)
        await lobby.close()
        return tid, answer.content, record

    tid, content, record = run(scenario())
    text = content.decode("utf-8-sig")
    assert text.splitlines() == cli_csv(record, tmp_path).splitlines()
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [int(r["winner"]) for r in rows] == [d["winner"] for d in record["result"]["duels"]]
    # who sat where: the stored record names the person and the bot (never a token), and so does the sheet
    person, bot = record["seats"]
    assert person == {"name": "Аня"} and bot["bot"] == "greedy" and set(bot) == {"name", "bot"}
    assert {r["players 0"] for r in rows} == {"Аня"} and {r["players 1"] for r in rows} == {f"{bot['name']} (greedy)"}


def test_mid_game_the_csv_holds_only_completed_deals_and_no_card(
        start_server: Callable[..., ServerThread]) -> None:
    """Four people: deal 1 played out, deal 2 begun. The sheet has deal 1's
    row with the figures everyone was shown, and not one card name (the
    classic sheet has no card column: any card would be a leak of a hand)."""
    server = start_server()

    async def scenario() -> None:
        lobby = Lobby(server.url)
        tid, tokens = await lobby.humans(rules="classic", seed=21)
        clients = [await Client(server.ws_url, tid, t).__aenter__() for t in tokens]
        empty = await lobby.http.get(f"/api/tables/{tid}/scoresheet.csv")   # in its lobby: a header only
        assert empty.status_code == 200 and len(empty.content.decode("utf-8-sig").splitlines()) == 1
        await lobby.start(tid, tokens[0])
        rng, version = random.Random(2), 1
        while True:
            view = (await clients[0].at_version(version))["view"]
            if view["deal_number"] == 2 and len(view["history"]) >= 3:
                break
            if view["phase"] == "deal":   # between deals: the server deals next
                version += 1
                continue
            actor = clients[view["current_player"]]
            legal = (await actor.at_version(version))["view"]["legal_actions"]
            reply = await actor.reply_to(await actor.act(rng.choice(legal), version))
            assert reply["type"] == "state", reply
            version = reply["version"]
        hands = {card for c in clients for card in (await c.at_version(version))["view"]["hand"]}
        assert len(hands) >= 10   # classic: four cards a hand, three played
        answer = await lobby.http.get(f"/api/tables/{tid}/scoresheet.csv")
        text = answer.content.decode("utf-8-sig")
        rows = list(csv.DictReader(io.StringIO(text)))
        assert [r["deal"] for r in rows] == ["1"]
        first = view["deal_results"][0]
        assert [int(rows[0]["points 0+2"]), int(rows[0]["points 1+3"])] == first["points"]
        assert [int(rows[0]["penalty 0+2"]), int(rows[0]["penalty 1+3"])] == first["penalty"]
        assert CARD.findall(text) == [] and not any(card in text for card in hands)
        assert "unfinished" not in text
        for c in clients:
            await c.__aexit__()
        await lobby.close()

    run(scenario())


def test_an_unknown_table_has_no_sheet(start_server: Callable[..., ServerThread]) -> None:
    server = start_server()
    one_line(httpx.get(f"{server.url}api/tables/0123456789/scoresheet.csv", timeout=10), 404, "no table")
    one_line(httpx.get(f"{server.url}api/tables/not-an-id!/scoresheet.csv", timeout=10), 404, "no table")


def test_finished_games_are_listed_from_the_database_newest_first(
        start_server: Callable[..., ServerThread]) -> None:
    server = start_server()
    made: dict[str, Any] = {}

    async def play() -> None:
        lobby = Lobby(server.url)
        made["first"], _ = await finish_with_bots(lobby, server, rules="classic", options=QUICK, seed=1)
        made["second"], _ = await finish_with_bots(lobby, server, game="spades", options={"max_deals": 1}, seed=2)
        made["lobby"] = (await lobby.create(name="Bo"))["id"]
        tid, token = await lobby.with_bots(rules="classic", seed=3)      # in play (Ann never moves)
        await lobby.start(tid, token)
        made["playing"] = tid
        made["records"] = {k: await lobby.record(made[k]) for k in ("first", "second")}
        await lobby.close()

    run(play())
    again = start_server.restart(server)   # the same data directory: nothing finished is in memory yet

    listed = httpx.get(f"{again.url}api/tables", params={"status": "finished"}, timeout=10).json()["tables"]
    assert [t["id"] for t in listed] == [made["second"], made["first"]]
    spades, kozel = listed
    assert kozel["game"] == "kozel" and kozel["rules"] == "classic" and kozel["players"] == 4
    assert [s["name"] for s in kozel["seats"]][0] == "Ann" and [s["kind"] for s in kozel["seats"]] == \
        ["human", "bot", "bot", "bot"]
    assert all("token_hash" not in s and "token" not in s for s in kozel["seats"])
    result = made["records"]["first"]["result"]
    assert kozel["result"] == {"penalty": result["penalty_total"], "goat": result["loser_team"]}
    assert kozel["result"]["goat"] in (0, 1)
    result = made["records"]["second"]["result"]
    assert spades["result"] == {"score": result["score_total"], "winner": result["winner_team"]}
    assert spades["finished_at"] >= kozel["finished_at"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", kozel["finished_at"])
    assert [t["id"] for t in httpx.get(f"{again.url}api/tables?status=finished&limit=1",
                                       timeout=10).json()["tables"]] == [made["second"]]
    open_ids = {t["id"] for t in httpx.get(f"{again.url}api/tables", timeout=10).json()["tables"]}
    assert {made["lobby"], made["playing"]} <= open_ids and not open_ids & {made["first"], made["second"]}
    for bad in ("0", "101", "x", "-1", "1.5", "２"):
        one_line(httpx.get(f"{again.url}api/tables", params={"status": "finished", "limit": bad}, timeout=10),
                 400, "limit")
    one_line(httpx.get(f"{again.url}api/tables", params={"status": "playing"}, timeout=10), 400, "status")
    one_line(httpx.get(f"{again.url}api/tables", params={"limit": "5"}, timeout=10), 400, "limit")


def check_finished_query(store: Storage, prefix: str) -> None:
    """Three tables, two finished (the later one first), one in play with no record."""
    ids = [f"{prefix}{n}" for n in "abc"]
    for table_id in ids:
        store.create_table(TableRow(table_id, "kozel", "classic", {}, 4, "1"),
                           [SeatRow(0, "human", "Ann", None, "f" * 64)] + [SeatRow(i) for i in range(1, 4)])
        store.set_status(table_id, "playing")
    store.append_event(ids[0], EventRow(1, "deal", "{}", "server"), record={"result": {"penalty_total": [12, 0]}})
    store.append_event(ids[2], EventRow(1, "deal", "{}", "server"), record={"result": {"penalty_total": [0, 13]}})
    rows = [row for row in store.finished(100) if row.id.startswith(prefix)]
    assert [row.id for row in rows] == [ids[2], ids[0]]
    assert rows[0].result == {"penalty_total": [0, 13]} and rows[0].seats[0].name == "Ann"
    assert [s.seat for s in rows[0].seats] == [0, 1, 2, 3] and rows[0].finished_at.tzinfo is not None
    assert len(store.finished(1)) == 1


def test_the_finished_query_on_an_older_database(tmp_path: Path) -> None:
    """A database made by the first schema opens; its finished table without
    a stored record is not listed (there is nothing to show of it)."""
    store = Storage(f"sqlite:///{first_schema_database(tmp_path, 'finished')}")
    assert store.finished(20) == []
    check_finished_query(store, "t")
    store.close()


def test_finished_list_is_empty_on_a_new_server(start_server: Callable[..., ServerThread]) -> None:
    server = start_server()
    answer = asyncio.run(_get(f"{server.url}api/tables?status=finished"))
    assert answer == {"tables": []}


async def _get(url: str) -> Any:
    async with httpx.AsyncClient(timeout=10) as http:
        return (await http.get(url)).json()
