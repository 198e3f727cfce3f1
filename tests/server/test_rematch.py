"""Play again: ``POST /api/tables/{id}/rematch`` at a finished table.

* only a finished table (409 before, in the lobby and in play) and only for a
  person seated there (403 for a spectator or a wrong token), one line each;
* the rematch has the same game, rules, options and player count, the same
  bots in the same seats, a new seed (other cards), and the caller in their
  own seat under their own name with a fresh token that holds it;
* one rematch per table: a second call (by the same player or another) gets
  the same table, and seats another player in their own old seat; the link is
  stored (``goat_rematches``) and survives a restart of the server;
* the old table says where the rematch is (``rematch`` in its info and state
  messages), and everyone connected to it is told at once;
* while the rematch is in its lobby, a player's name is kept for them as long
  as their own seat waits for them (a newcomer at another seat cannot take it,
  across a restart too); a newcomer with a name of their own sits as anyone;
  a player who came back has it kept no more, across restarts too, until their
  seat is freed for them while they are away (then it waits, and is kept, again);
* a Yu-Gi-Oh! player's own deck goes with them to the rematch, and nobody
  else's: each player's deck reaches their seat only when they ask;
* the storage: the link comes back with its table, a table has one rematch,
  a database from before ``goat_rematches`` opens unchanged.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from goat.games.yugioh import builtin_deck
from goat.server.runner import ServerThread
from goat.server.settings import Settings
from goat.server.storage import SeatRow, Storage, StorageError, TableRow

from .conftest import QUICK, Client, Lobby, auth, one_line, play_to_the_end, played_match, run
from .test_storage import first_schema_database
from .test_yugioh_decks import NORMALS, get_deck, normal_ydk, put_deck
from .test_yugioh_table import play_duels


async def rematch(lobby: Lobby, table: str, token: str | None) -> httpx.Response:
    return await lobby.http.post(f"/api/tables/{table}/rematch", headers=auth(token))


def seed_of(data_dir: Path, table: str) -> str:
    with sqlite3.connect(data_dir / "goat.db") as conn:
        return conn.execute("SELECT seed FROM goat_tables WHERE id = ?", (table,)).fetchone()[0]


def test_a_rematch_of_a_match_against_bots(start_server: Callable[..., ServerThread], tmp_path: Path) -> None:
    server = start_server()

    async def scenario() -> None:
        lobby = Lobby(server.url)
        tid, ann = await lobby.with_bots(rules="classic", seed=7, options=QUICK)
        await lobby.bot(tid, 2, ann, bot="random")          # one bot of another kind: kept in its seat
        one_line(await rematch(lobby, tid, ann), 409, "not over")                    # in the lobby
        async with Client(server.ws_url, tid, ann) as me:
            await lobby.start(tid, ann)
            await me.at_version(1)
            one_line(await rematch(lobby, tid, ann), 409, "not over")                # in play
            final = await play_to_the_end(me, 0)
        assert final["status"] == "finished" and final["rematch"] is None
        old = (await lobby.http.get(f"/api/tables/{tid}")).json()
        record = await lobby.record(tid)

        one_line(await rematch(lobby, tid, None), 403, "take a seat")                # a spectator
        one_line(await rematch(lobby, tid, "forged"), 403, "holds no seat")          # a wrong token
        one_line(await lobby.http.post("/api/tables/0123456789/rematch", headers=auth(ann)), 404, "no table")
        assert (await lobby.http.get(f"/api/tables/{tid}")).json()["rematch"] is None   # refusals make none

        answer = await rematch(lobby, tid, ann)
        assert answer.status_code == 200, answer.text
        new = answer.json()
        assert new["id"] != tid and new["url"].endswith(f"/?table={new['id']}")
        assert (new["status"], new["game"], new["rules"], new["options"], new["players"]) == (
            "lobby", "kozel", "classic", QUICK, 4)
        assert new["seat"] == 0 and new["token"] and new["token"] != ann
        assert [(s["kind"], s["name"], s["bot"]) for s in new["seats"]] == [
            ("human", "Ann", None), ("bot", "heuristic bot", "heuristic"), ("bot", "random bot", "random"),
            ("bot", "heuristic bot", "heuristic")]
        assert [(s["kind"], s["name"], s["bot"]) for s in new["seats"][1:]] == [
            (s["kind"], s["name"], s["bot"]) for s in old["seats"][1:]]
        assert (await lobby.http.get(f"/api/tables/{tid}")).json()["rematch"] == new["id"]
        assert seed_of(tmp_path / "data", tid) == "7" and seed_of(tmp_path / "data", new["id"]) != "7"

        # The fresh token holds seat 0 there (and the old one does not): the rematch plays.
        one_line(await lobby.http.post(f"/api/tables/{new['id']}/start", headers=auth(ann)), 403, "holds no seat")
        async with Client(server.ws_url, new["id"], new["token"]) as me:
            assert me.welcome == {"type": "welcome", "table": new["id"], "version": 0, "seat": 0, "role": "player"}
            await lobby.start(new["id"], new["token"])
            first = await me.at_version(1)
        assert sorted(first["view"]["hand"]) != sorted(record["deals"][0]["hands"]["0"])   # not the same cards
        await lobby.close()

    run(scenario())


def test_one_rematch_for_everyone_linked_across_a_restart(start_server: Callable[..., ServerThread]) -> None:
    """Two people and two bots. Ann asks: a new table, her seat. Everyone still
    at the old table (Bo, a spectator) is told at once. Ann asks again: the same
    table, no second seat. The server restarts; Bo asks: the same table, his own
    seat under his own name."""
    server = start_server()
    kept: dict[str, Any] = {}

    async def before_restart() -> None:
        lobby = Lobby(server.url)
        created = await lobby.create(name="Ann", rules="classic", seed=3, options=QUICK)
        tid, ann = created["id"], created["token"]
        bo = await lobby.sit(tid, 1, "Bo")
        for seat in (2, 3):
            await lobby.bot(tid, seat, bo)
        async with (Client(server.ws_url, tid, ann) as ann_ws, Client(server.ws_url, tid, bo) as bo_ws,
                    Client(server.ws_url, tid) as watcher):
            await lobby.start(tid, ann)
            await asyncio.gather(play_to_the_end(ann_ws, 0), play_to_the_end(bo_ws, 1))
            await watcher.until(lambda m: m["type"] == "state" and m["status"] == "finished")
            assert all(c.state["rematch"] is None for c in (ann_ws, bo_ws, watcher))

            first = (await rematch(lobby, tid, ann)).json()
            for client in (bo_ws, watcher, ann_ws):       # a broadcast: the others' pages can offer to join
                told = await client.until(lambda m: m["type"] == "state" and m.get("rematch") is not None)
                assert told["rematch"] == first["id"] and told["status"] == "finished"
        again = await rematch(lobby, tid, ann)
        assert again.status_code == 200, again.text
        assert (again.json()["id"], again.json()["seat"], again.json()["token"]) == (first["id"], None, None)
        assert [s["kind"] for s in again.json()["seats"]] == ["human", "empty", "bot", "bot"]
        kept.update(old=tid, new=first["id"], bo=bo, ann=ann)
        await lobby.close()

    run(before_restart())
    server = start_server.restart(server)   # the same data directory

    async def after_restart() -> None:
        lobby = Lobby(server.url)
        assert (await lobby.http.get(f"/api/tables/{kept['old']}")).json()["rematch"] == kept["new"]
        async with Client(server.ws_url, kept["old"]) as watcher:
            assert (await watcher.until(lambda m: m["type"] == "state"))["rematch"] == kept["new"]
        answer = await rematch(lobby, kept["old"], kept["bo"])
        assert answer.status_code == 200, answer.text
        bo = answer.json()
        assert (bo["id"], bo["seat"]) == (kept["new"], 1) and bo["token"]
        info = (await lobby.http.get(f"/api/tables/{kept['new']}")).json()
        assert [(s["kind"], s["name"]) for s in info["seats"]] == [
            ("human", "Ann"), ("human", "Bo"), ("bot", "heuristic bot"), ("bot", "heuristic bot")]
        assert info["rematch"] is None
        assert (await lobby.http.post(f"/api/tables/{kept['new']}/start", headers=auth(bo["token"]))).status_code == 200
        late = (await rematch(lobby, kept["old"], kept["ann"])).json()   # started: the same table, no seat
        assert (late["id"], late["seat"], late["token"], late["status"]) == (kept["new"], None, None, "playing")
        await lobby.close()

    run(after_restart())


def test_a_rematch_names_the_table_it_plays_again_unless_it_is_private(
        start_server: Callable[..., ServerThread]) -> None:
    """Bo opens the rematch's own link (pasted in the chat): its info and its
    ``state`` say which table it plays again (``rematch_of``), also after a
    restart, so a page holding Bo's token of that table claims his kept seat
    through the old table's ``rematch``, under his name — before, nothing on the
    rematch led back, and his name typed there was refused (``nameKept``). A
    private table's rematch does not say it: its link may reach someone the old
    table's link (its chat, its record) was not meant for."""
    server = start_server()
    kept: dict[str, Any] = {}

    async def before_restart() -> None:
        lobby = Lobby(server.url)
        tid, (ann, bo) = await played_match(lobby, server.ws_url, ["Ann", "Bo"])
        new = (await rematch(lobby, tid, ann)).json()["id"]
        refused = await lobby.http.post(f"/api/tables/{new}/seats/1", json={"name": "Bo"})
        assert (refused.status_code, refused.json()["say"]) == (409, "nameKept")
        assert (await lobby.http.get(f"/api/tables/{new}")).json()["rematch_of"] == tid
        assert (await lobby.http.get(f"/api/tables/{tid}")).json()["rematch_of"] is None
        async with Client(server.ws_url, new) as page:            # Bo's page, no token of the rematch
            assert (await page.until(lambda m: m["type"] == "state"))["rematch_of"] == tid
        secret, (cy,) = await played_match(lobby, server.ws_url, ["Cy"], private=True)
        hidden = (await rematch(lobby, secret, cy)).json()
        assert hidden["private"] is True and hidden["rematch_of"] is None
        async with Client(server.ws_url, hidden["id"]) as page:
            assert (await page.until(lambda m: m["type"] == "state"))["rematch_of"] is None
        kept.update(old=tid, new=new, bo=bo, hidden=hidden["id"])
        await lobby.close()

    run(before_restart())
    server = start_server.restart(server)   # the same data directory

    async def after_restart() -> None:
        lobby = Lobby(server.url)
        info = (await lobby.http.get(f"/api/tables/{kept['new']}")).json()
        assert info["rematch_of"] == kept["old"]
        assert (await lobby.http.get(f"/api/tables/{kept['hidden']}")).json()["rematch_of"] is None
        claimed = (await rematch(lobby, info["rematch_of"], kept["bo"])).json()    # what the page does
        assert (claimed["id"], claimed["seat"]) == (kept["new"], 1) and claimed["token"]
        assert await seats_at(lobby, kept["new"]) == [
            ("human", "Ann"), ("human", "Bo"), ("bot", "heuristic bot"), ("bot", "heuristic bot")]
        await lobby.close()

    run(after_restart())


async def seats_at(lobby: Lobby, table: str) -> list[tuple[str, str]]:
    return [(s["kind"], s["name"]) for s in (await lobby.http.get(f"/api/tables/{table}")).json()["seats"]]


def test_a_players_name_is_kept_for_them_while_their_seat_waits(start_server: Callable[..., ServerThread]) -> None:
    """Ann, Bo and Cy played with a bot; Ann asks for the rematch and empties
    the bot's seat. A newcomer cannot sit anywhere as "bo " or "Cy" while their
    seats wait for them (before, the newcomer sat as Bo, and Bo's "Join the
    rematch" found his seat free but his name taken: he got no seat), nor after
    a restart. Ann, back already, moves to the freed seat under her name. Eve,
    a name of her own, sits in Cy's seat as anyone may; Cy's name is then no
    longer kept, and Cy sits in the other free seat under it. Bo joins: his
    seat, his name."""
    server = start_server()
    kept: dict[str, Any] = {}

    async def before_restart() -> None:
        lobby = Lobby(server.url)
        tid, (ann, bo, cy) = await played_match(lobby, server.ws_url, ["Ann", "Bo", "Cy"])
        made = (await rematch(lobby, tid, ann)).json()
        new = made["id"]
        assert (await lobby.http.delete(f"/api/tables/{new}/seats/3", headers=auth(made["token"]))).status_code == 200
        before = await seats_at(lobby, new)
        assert before == [("human", "Ann"), ("empty", ""), ("empty", ""), ("empty", "")]
        for seat, name, holder in ((3, "bo ", {"seat": 1, "name": "Bo"}), (1, "Cy", {"seat": 2, "name": "Cy"})):
            refused = await lobby.http.post(f"/api/tables/{new}/seats/{seat}", json={"name": name})
            one_line(refused, 409, "kept", holder["name"])
            assert (refused.json()["say"], refused.json()["args"]) == ("nameKept", holder)
        assert await seats_at(lobby, new) == before
        # Ann came back: her name is hers to move with (partners change in the lobby)
        assert (await lobby.http.delete(f"/api/tables/{new}/seats/0", headers=auth(made["token"]))).status_code == 200
        await lobby.sit(new, 3, "Ann")
        kept.update(old=tid, new=new, bo=bo, cy=cy)
        await lobby.close()

    run(before_restart())
    server = start_server.restart(server)   # the same data directory

    async def after_restart() -> None:
        lobby = Lobby(server.url)
        new = kept["new"]
        refused = await lobby.http.post(f"/api/tables/{new}/seats/0", json={"name": "BO"})
        assert (refused.status_code, refused.json().get("say")) == (409, "nameKept"), refused.text
        await lobby.sit(new, 2, "Eve")                     # a newcomer: Cy's seat is anyone's to take
        cy = (await rematch(lobby, kept["old"], kept["cy"])).json()
        assert (cy["id"], cy["seat"], cy["token"]) == (new, None, None)
        await lobby.sit(new, 0, "Cy")                      # so Cy's name is no longer kept: Cy sits elsewhere
        bo = (await rematch(lobby, kept["old"], kept["bo"])).json()
        assert (bo["id"], bo["seat"]) == (new, 1) and bo["token"]
        assert await seats_at(lobby, new) == [("human", "Cy"), ("human", "Bo"), ("human", "Eve"), ("human", "Ann")]
        await lobby.close()

    run(after_restart())


def test_a_player_whose_rematch_seat_is_freed_while_away_has_his_name_kept_again(
        start_server: Callable[..., ServerThread]) -> None:
    """Bo joined the rematch, then closed his page; after the grace period Ann
    freed his seat (he did not leave it: it was emptied for him). His seat waits
    for him again, so his name is kept for him again: before, it stayed free as
    after leaving by choice, a newcomer sat elsewhere as "Bo", and Bo's "Join the
    rematch" found his seat free but his name taken — he got no seat, and the
    newcomer played on the score sheet as him. Bo joins again: his seat, his name."""
    server = start_server(grace_seconds=1.0)

    async def walk() -> None:
        lobby = Lobby(server.url)
        tid, (ann, bo, cy) = await played_match(lobby, server.ws_url, ["Ann", "Bo", "Cy"])
        made = (await rematch(lobby, tid, ann)).json()
        new = made["id"]
        joined = (await rematch(lobby, tid, bo)).json()
        assert joined["seat"] == 1 and joined["token"]
        await asyncio.sleep(1.1)   # Bo has had no page open at the rematch for the grace period
        freed = await lobby.http.delete(f"/api/tables/{new}/seats/1", headers=auth(made["token"]))
        assert freed.status_code == 200, freed.text
        refused = await lobby.http.post(f"/api/tables/{new}/seats/2", json={"name": "bo"})
        assert (refused.status_code, refused.json().get("say")) == (409, "nameKept"), refused.text
        assert refused.json()["args"] == {"seat": 1, "name": "Bo"}
        again = (await rematch(lobby, tid, bo)).json()
        assert (again["seat"], again["token"] is not None) == (1, True)
        assert (await seats_at(lobby, new))[:3] == [("human", "Ann"), ("human", "Bo"), ("empty", "")]
        await lobby.close()

    run(walk())


def test_a_player_who_came_back_keeps_his_name_free_across_restarts(
        start_server: Callable[..., ServerThread]) -> None:
    """Came back, a player's name is kept no more, so he may leave his seat and sit
    in another under it — also after a restart: before, the restart read the
    link alone and kept the name again, and Ann (back, left, restarted) or Bo
    (back, restarted, left) was refused their own name at another seat. The
    sign is stored on the empty seat, and no page shows a name there."""
    server = start_server()
    kept: dict[str, Any] = {}

    async def before_restart() -> None:
        lobby = Lobby(server.url)
        tid, (ann, bo) = await played_match(lobby, server.ws_url, ["Ann", "Bo"])
        ann_new = (await rematch(lobby, tid, ann)).json()
        new = ann_new["id"]
        assert (await lobby.http.delete(f"/api/tables/{new}/seats/0", headers=auth(ann_new["token"]))).status_code == 200
        bo_new = (await rematch(lobby, tid, bo)).json()
        assert (bo_new["id"], bo_new["seat"]) == (new, 1)
        kept.update(new=new, bo=bo_new["token"])
        await lobby.close()

    run(before_restart())
    server = start_server.restart(server)

    async def after_first_restart() -> None:
        lobby = Lobby(server.url)
        new = kept["new"]
        for seat in (2, 3, 1):   # the bots' seats emptied for Ann and Bo, then Bo leaves his
            response = await lobby.http.delete(f"/api/tables/{new}/seats/{seat}", headers=auth(kept["bo"]))
            assert response.status_code == 200, response.text
        await lobby.close()

    run(after_first_restart())
    server = start_server.restart(server)

    async def after_second_restart() -> None:
        lobby = Lobby(server.url)
        new = kept["new"]
        assert await seats_at(lobby, new) == [("empty", "")] * 4
        await lobby.sit(new, 2, "ann ")
        await lobby.sit(new, 3, "BO")
        await lobby.sit(new, 0, "Eve")
        assert await seats_at(lobby, new) == [("human", "Eve"), ("empty", ""), ("human", "ann"), ("human", "BO")]
        await lobby.close()

    run(after_second_restart())


def test_a_yugioh_rematch_takes_each_players_own_deck_and_nobody_elses(
        start_server: Callable[..., ServerThread]) -> None:
    """Ann brought thirty Normal monsters, Bo the Chaos Warrior list. The
    rematch made by Ann holds her deck at her seat and nothing at Bo's; Bo's
    own call brings his to his seat. Each reads back only their own."""
    server = start_server()
    options = {"min_main_deck": 30, "starting_lp": 1000, "match_duels": 1}

    async def scenario() -> None:
        lobby = Lobby(server.url)
        created = await lobby.create(game="yugioh", name="Ann", seed=2, options=options)
        tid, ann = created["id"], created["token"]
        bo = await lobby.sit(tid, 1, "Bo")
        ann_deck = (await put_deck(lobby, tid, 0, ann, normal_ydk())).json()["deck"]
        chaos = builtin_deck("chaos_warrior").to_json()
        answer = await put_deck(lobby, tid, 1, bo, chaos, json_body=True)
        assert answer.status_code == 200, answer.text
        bo_deck = answer.json()["deck"]
        assert ann_deck != bo_deck
        async with Client(server.ws_url, tid, ann) as ann_ws, Client(server.ws_url, tid, bo) as bo_ws:
            await lobby.start(tid, ann)
            await asyncio.wait_for(asyncio.gather(play_duels(ann_ws, 0, seed=1), play_duels(bo_ws, 1, seed=2)), 300)

        made = (await rematch(lobby, tid, ann)).json()
        new, ann2 = made["id"], made["token"]
        assert [s["own_deck"] for s in made["seats"]] == [True, False]
        assert (await get_deck(lobby, new, 0, ann2)).json()["deck"] == ann_deck
        bo_joins = (await rematch(lobby, tid, bo)).json()
        assert (bo_joins["id"], bo_joins["seat"]) == (new, 1)
        bo2 = bo_joins["token"]
        assert [s["own_deck"] for s in bo_joins["seats"]] == [True, True]
        assert (await get_deck(lobby, new, 1, bo2)).json()["deck"] == bo_deck
        assert (await get_deck(lobby, new, 0, ann2)).json()["deck"] == ann_deck
        assert (await get_deck(lobby, new, 0, bo2)).status_code == 403        # still private
        assert set(ann_deck["main"]) <= set(NORMALS)
        await lobby.close()

    run(scenario())


def test_the_link_is_stored_with_the_new_table_once(tmp_path: Path) -> None:
    """``create_rematch`` writes the new table and the link in one transaction:
    a second rematch of the same table is refused and leaves nothing behind.
    A database made before ``goat_rematches`` opens and gains it."""
    db = first_schema_database(tmp_path, "finished")   # no goat_rematches
    store = Storage(f"sqlite:///{db}")
    assert store.load("old1").rematch is None
    seats = [SeatRow(0), SeatRow(1, "bot", "heuristic bot", "heuristic"), SeatRow(2), SeatRow(3)]
    store.create_rematch("old1", TableRow("new1", "kozel", "classic", {}, 4, "99"), seats)
    assert store.load("old1").rematch == "new1" and store.load("new1").rematch is None
    assert [s.kind for s in store.load("new1").seats] == ["empty", "bot", "empty", "empty"]
    with pytest.raises(StorageError) as info:
        store.create_rematch("old1", TableRow("new2", "kozel", "classic", {}, 4, "98"), seats)
    assert "\n" not in str(info.value)
    assert not store.exists("new2") and store.load("old1").rematch == "new1"
    store.close()
    again = Storage(Settings(data_dir=db.parent).url)     # reopened: the link is still there
    assert again.load("old1").rematch == "new1"
    again.close()
