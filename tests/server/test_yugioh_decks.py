"""A player's own deck at a Yu-Gi-Oh! table (``PUT/GET/DELETE
/api/tables/{id}/seats/{seat}/deck``): the server takes private per-seat data
through the game module (``seat_data_from_json``), so that

* the seated player sets (``.ydk`` text or JSON name lists), replaces and
  clears their deck in the lobby and reads it back; the table's legality
  (its minimum main deck, the Goat banlist, copies) decides, and every refusal
  — not one's seat, a spectator, not in the lobby, a bad deck, a game that
  takes no deck — is one line with nothing stored;
* nobody else learns the list: not the other seat, not a spectator, not the
  lobby info (only ``own_deck`` yes/no); with ``open_decklists`` the other
  seat sees it only once play starts, through the engine's view;
* the match is dealt from it (a deck of Normal monsters puts only those in
  that seat's hand; the bot's seat keeps the table's ``decks`` option), a
  restart in the lobby and mid-match keeps it, and the record holds it and
  replays;
* leaving the seat takes the deck with it.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from goat.games import get_game
from goat.games.yugioh import DeckError, builtin_deck, seat_data_from_json
from goat.records import check_result, replay
from goat.server.runner import ServerThread
from goat.server.storage import Storage, StorageError

from .conftest import SRC, Client, Lobby, auth, one_line, run
from .test_yugioh_table import deciding, play_duels

#: Ten Normal monsters of the pool, none of them Limited: 3 copies each make a
#: 30-card main deck, legal at a table whose ``min_main_deck`` is 30.
NORMALS = ["Gaia The Fierce Knight", "Curse of Dragon", "X-Head Cannon", "Gene-Warped Warwolf", "Vorse Raider",
           "Mystical Elf", "Giant Soldier of Stone", "Summoned Skull", "Dark Magician", "Blue-Eyes White Dragon"]
OPTIONS = {"min_main_deck": 30}
#: Names of NORMALS that the table's default list (Goat Control) does not hold:
#: seeing one of them anywhere but the owner's own messages would be a leak.
MARKERS = sorted(set(NORMALS) - set(builtin_deck("goat_control").main + builtin_deck("goat_control").side
                                    + builtin_deck("goat_control").fusion))


def normal_ydk(lower: bool = False) -> str:
    """The 30 Normal monsters as a ``.ydk`` file (lower-case names: the
    server answers with the database's spelling)."""
    names = [(n.lower() if lower else n) for n in NORMALS for _ in range(3)]
    return "#created by a test\n#main\n" + "\n".join(names) + "\n#extra\n!side\n"


async def put_deck(lobby: Lobby, table: str, seat: int, token: str | None, body: Any,
                   json_body: bool = False) -> httpx.Response:
    if json_body:
        return await lobby.http.put(f"/api/tables/{table}/seats/{seat}/deck", json=body, headers=auth(token))
    return await lobby.http.put(f"/api/tables/{table}/seats/{seat}/deck", content=body,
                                headers={**auth(token), "Content-Type": "text/plain"})


async def get_deck(lobby: Lobby, table: str, seat: int, token: str | None) -> httpx.Response:
    return await lobby.http.get(f"/api/tables/{table}/seats/{seat}/deck", headers=auth(token))


def test_the_module_checks_a_deck_by_the_table_rules() -> None:
    deck = seat_data_from_json("goat", OPTIONS, normal_ydk(lower=True))
    assert deck == {"main": [n for n in NORMALS for _ in range(3)], "fusion": [], "side": []}
    assert seat_data_from_json("goat", OPTIONS, deck) == deck            # the JSON lists read back the same
    with pytest.raises(DeckError, match=r"at least 40"):                 # the preset's 40 without the option
        seat_data_from_json("goat", {}, normal_ydk())
    state = get_game("yugioh").new_state("goat", OPTIONS, seat_data=[None, deck])
    assert list(state.start_decks[1].main) == deck["main"]
    assert state.start_decks[0] == builtin_deck("goat_control")        # None: the option's list


def test_own_deck_upload_replace_clear_and_every_refusal(start_server: Callable[..., ServerThread]) -> None:
    server = start_server()

    async def scenario() -> None:
        lobby = Lobby(server.url)
        created = await lobby.create(game="yugioh", name="Ann", seed=1, options=OPTIONS)
        tid, ann = created["id"], created["token"]
        assert [s["own_deck"] for s in created["seats"]] == [False, False]
        bo = await lobby.sit(tid, 1, "Bo")
        async with Client(server.ws_url, tid, bo) as bo_ws, Client(server.ws_url, tid) as watcher:
            answer = await put_deck(lobby, tid, 0, ann, normal_ydk(lower=True))
            assert answer.status_code == 200, answer.text
            deck = answer.json()["deck"]
            assert deck["main"] == [n for n in NORMALS for _ in range(3)] and deck["side"] == []
            assert (await get_deck(lobby, tid, 0, ann)).json() == {"seat": 0, "deck": deck}   # the owner reads it back

            # Everybody else learns only "own deck: yes".
            info = (await lobby.http.get(f"/api/tables/{tid}")).json()
            assert [s["own_deck"] for s in info["seats"]] == [True, False]
            await bo_ws.until(lambda m: m["type"] == "state" and m["seats"][0]["own_deck"])
            await watcher.until(lambda m: m["type"] == "state" and m["seats"][0]["own_deck"])
            listing = (await lobby.http.get("/api/tables")).text
            for text in [json.dumps(info), listing, *bo_ws.raw, *watcher.raw]:
                assert not [n for n in NORMALS if n in text], text
            one_line(await get_deck(lobby, tid, 0, bo), 403, "not yours")        # the other seat
            one_line(await get_deck(lobby, tid, 0, None), 403, "take a seat")    # a spectator
            one_line(await put_deck(lobby, tid, 0, bo, normal_ydk()), 403, "not yours")
            one_line(await lobby.http.delete(f"/api/tables/{tid}/seats/0/deck", headers=auth(bo)), 403)
            one_line(await put_deck(lobby, tid, 0, "not-a-token", normal_ydk()), 403)
            one_line(await put_deck(lobby, tid, 5, ann, normal_ydk()), 404, "no seat 5")

            # Replace it: JSON name lists, one Sangan for a Mystical Elf.
            lists = {"main": [*deck["main"][:-1], "sangan"], "fusion": [], "side": []}
            answer = await put_deck(lobby, tid, 0, ann, lists, json_body=True)
            assert answer.status_code == 200, answer.text
            replaced = answer.json()["deck"]
            assert replaced["main"][-1] == "Sangan" and replaced != deck
            ydk_as_json = await put_deck(lobby, tid, 0, ann, normal_ydk(), json_body=True)   # a JSON string: .ydk text
            assert ydk_as_json.json()["deck"] == deck
            assert (await put_deck(lobby, tid, 0, ann, lists, json_body=True)).json()["deck"] == replaced

            # Bad decks: one line each, and the stored deck stays as it was.
            body = normal_ydk()
            bad = {
                "unknown card 'Blue Eyes Dragon'": body + "Blue Eyes Dragon\n",
                "Raigeki is Forbidden": body.replace("#extra", "Raigeki\n#extra"),
                "the main deck has 27 cards (at least 30)": body.replace("Dark Magician\n", ""),
                "4 copies of Vorse Raider": body.replace("#extra", "Vorse Raider\n#extra"),
                "2 copies of Sangan (Limited)": body.replace("#extra", "Sangan\nSangan\n#extra"),
                "Thousand-Eyes Restrict belongs in the Fusion Deck": body.replace("#extra", "Thousand-Eyes Restrict\n#extra"),
                "the side deck has 1 cards": body + "Sangan\n",
                "passcodes are not supported": body.replace("#main\n", "#main\n89631139\n"),
                "the deck is empty": "  \n",
            }
            for words, text in bad.items():
                one_line(await put_deck(lobby, tid, 0, ann, text), 400, words)
            one_line(await lobby.http.put(f"/api/tables/{tid}/seats/0/deck", content=b"{main: [",
                                          headers={**auth(ann), "Content-Type": "application/json"}),
                     400, "not valid JSON")
            one_line(await put_deck(lobby, tid, 0, ann, {"main": "Sangan"}, json_body=True), 400, "list of card names")
            one_line(await put_deck(lobby, tid, 0, ann, 42, json_body=True), 400, ".ydk text")
            one_line(await put_deck(lobby, tid, 0, ann, "x" * 70_000), 413)
            assert (await get_deck(lobby, tid, 0, ann)).json()["deck"] == replaced

            # Clear it: back to the table's option.
            cleared = await lobby.http.delete(f"/api/tables/{tid}/seats/0/deck", headers=auth(ann))
            assert cleared.status_code == 200 and cleared.json() == {"seat": 0, "deck": None}
            assert (await get_deck(lobby, tid, 0, ann)).json()["deck"] is None
            info = (await lobby.http.get(f"/api/tables/{tid}")).json()
            assert [s["own_deck"] for s in info["seats"]] == [False, False]

            # A deck leaves with the player who brought it.
            assert (await put_deck(lobby, tid, 1, bo, normal_ydk())).status_code == 200
            left = await lobby.http.delete(f"/api/tables/{tid}/seats/1", headers=auth(bo))
            assert left.status_code == 200 and left.json()["seats"][1]["own_deck"] is False
            cy = await lobby.sit(tid, 1, "Cy")
            assert (await get_deck(lobby, tid, 1, cy)).json()["deck"] is None

            # Once play starts the decks are fixed.
            assert (await put_deck(lobby, tid, 0, ann, normal_ydk())).status_code == 200
            await lobby.start(tid, ann)
            one_line(await put_deck(lobby, tid, 0, ann, normal_ydk()), 409, "started")
            one_line(await lobby.http.delete(f"/api/tables/{tid}/seats/0/deck", headers=auth(ann)), 409, "started")

        # A game that deals from its rules refuses an upload with one line.
        kozel = await lobby.create(game="kozel", name="Ann")
        one_line(await put_deck(lobby, kozel["id"], 0, kozel["token"], normal_ydk()), 400, "kozel", "no deck")
        one_line(await get_deck(lobby, kozel["id"], 0, kozel["token"]), 400, "kozel")
        assert "own_deck" not in kozel["seats"][0]
        games = httpx.get(f"{server.url}api/games", timeout=10).json()["games"]
        assert {g["name"]: g["own_deck"] for g in games} == {"kozel": False, "spades": False, "yugioh": True}
        await lobby.close()

    run(scenario())


def test_the_match_is_dealt_from_the_uploaded_deck_across_restarts(
        start_server: Callable[..., ServerThread], tmp_path: Path) -> None:
    server = start_server()

    async def lobby_phase() -> tuple[str, str, dict[str, Any]]:
        lobby = Lobby(server.url)
        created = await lobby.create(game="yugioh", name="Ann", seed=4, options={**OPTIONS, "starting_lp": 2000})
        tid, ann = created["id"], created["token"]
        await lobby.bot(tid, 1, ann, bot="greedy")
        deck = (await put_deck(lobby, tid, 0, ann, normal_ydk())).json()["deck"]
        await lobby.close()
        return tid, ann, deck

    tid, ann, deck = run(lobby_phase())
    server = start_server.restart(server)   # a restart in the lobby keeps the deck

    async def first_moves() -> int:
        lobby = Lobby(server.url)
        info = (await lobby.http.get(f"/api/tables/{tid}")).json()
        assert info["status"] == "lobby" and [s["own_deck"] for s in info["seats"]] == [True, False]
        assert (await get_deck(lobby, tid, 0, ann)).json()["deck"] == deck
        async with Client(server.ws_url, tid, ann) as me:
            await lobby.start(tid, ann)
            while True:   # answer the opening decisions (first or second) until the hand is dealt
                state = await me.until(lambda m: deciding(m, 0))
                if (state["view"].get("players") or [{}])[0].get("hand"):   # (maybe fewer than 5: a discard)
                    break
                await me.act(state["view"]["legal_actions"][0], state["version"])
            view = state["view"]
            assert set(view["players"][0]["hand"]) <= set(NORMALS)      # only the uploaded deck's cards
            assert view["decklists"][0] == deck and view["decklists"][1] is None
            assert view["my_deck"]["main_count"] == 30
            await me.act(view["legal_actions"][0], state["version"])
            version = (await me.until(lambda m: m["type"] == "state" and m["version"] > state["version"]))["version"]
        await lobby.close()
        return version

    version = run(first_moves())
    server = start_server.restart(server)   # a restart mid-match replays onto the same deck

    async def to_the_end() -> dict[str, Any]:
        lobby = Lobby(server.url)
        async with Client(server.ws_url, tid, ann) as me:
            state = await me.until(lambda m: m["type"] == "state" and m["view"] is not None)
            assert state["version"] >= version and state["view"]["decklists"][0] == deck
            final = await play_duels(me, 0, seed=3)
            hands = [m["view"]["players"][0]["hand"] for m in me.inbox
                     if m["type"] == "state" and m["view"] and m["view"].get("players")]
            assert all(set(h) <= set(NORMALS) for h in hands)
        assert final["status"] == "finished"
        record = await lobby.record(tid)
        await lobby.close()
        return record

    record = run(to_the_end())
    assert record["decks"][0] == deck and record["decks"][1] == builtin_deck("goat_control").to_json()
    check_result(record, replay(record))
    path = tmp_path / "own-deck.json"
    path.write_text(json.dumps(record))
    checked = subprocess.run([sys.executable, "-m", "goat.cli.main", "replay", "--check", str(path)],
                             capture_output=True, text=True, env={"PYTHONPATH": str(SRC)}, timeout=120)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_a_stored_deck_no_longer_accepted_is_dropped_and_the_table_comes_back(
        start_server: Callable[..., ServerThread], tmp_path: Path) -> None:
    """A newer version may rename or ban a card someone's stored deck holds. The
    table in the lobby must still come back after the restart (before: it failed
    to load, and its page and seats were gone); the deck is dropped, from
    storage too, and its player can upload one again."""
    server = start_server()

    async def lobby_phase() -> tuple[str, str]:
        lobby = Lobby(server.url)
        created = await lobby.create(game="yugioh", name="Ann", seed=4, options=OPTIONS)
        tid, ann = created["id"], created["token"]
        assert (await put_deck(lobby, tid, 0, ann, normal_ydk())).status_code == 200
        await lobby.close()
        return tid, ann

    tid, ann = run(lobby_phase())
    server.__exit__(None, None, None)
    db = sqlite3.connect(tmp_path / "data" / "goat.db")   # the card database changed meanwhile
    with db:
        (text,) = db.execute("SELECT data FROM goat_seat_data WHERE table_id = ?", (tid,)).fetchone()
        db.execute("UPDATE goat_seat_data SET data = ? WHERE table_id = ?",
                   (text.replace("Dark Magician", "Dark Magician of Long Ago"), tid))
    db.close()
    server = start_server()

    async def after_restart() -> None:
        lobby = Lobby(server.url)
        info = await lobby.http.get(f"/api/tables/{tid}")
        assert info.status_code == 200, info.text
        assert info.json()["status"] == "lobby" and info.json()["seats"][0]["own_deck"] is False
        assert (await get_deck(lobby, tid, 0, ann)).json()["deck"] is None
        assert (await put_deck(lobby, tid, 0, ann, normal_ydk())).status_code == 200   # upload again
        await lobby.close()

    run(after_restart())
    db = sqlite3.connect(tmp_path / "data" / "goat.db")
    rows = db.execute("SELECT data FROM goat_seat_data WHERE table_id = ?", (tid,)).fetchall()
    db.close()
    assert len(rows) == 1 and "Long Ago" not in rows[0][0]   # the refused list is gone from storage


def test_open_decklists_show_the_list_only_once_play_starts(start_server: Callable[..., ServerThread]) -> None:
    server = start_server()

    async def scenario() -> None:
        lobby = Lobby(server.url)
        created = await lobby.create(game="yugioh", name="Ann", seed=2, options={**OPTIONS, "open_decklists": True})
        tid, ann = created["id"], created["token"]
        bo = await lobby.sit(tid, 1, "Bo")
        async with Client(server.ws_url, tid, bo) as bo_ws:
            deck = (await put_deck(lobby, tid, 0, ann, normal_ydk())).json()["deck"]
            lobby_state = await bo_ws.until(lambda m: m["type"] == "state" and m["seats"][0]["own_deck"])
            assert not [n for n in MARKERS if n in json.dumps(lobby_state)]
            await lobby.start(tid, bo)
            state = await bo_ws.until(lambda m: m["type"] == "state" and m["view"] is not None)
            assert state["view"]["decklists"][0] == deck           # the engine's view decides: open lists
        await lobby.close()

    run(scenario())


async def lobby_with_a_deck(server: ServerThread) -> tuple[Lobby, str, str, dict[str, Any]]:
    """A Yu-Gi-Oh! lobby where Ann (seat 0) has stored her own deck: the
    refusals below must leave it as it is."""
    lobby = Lobby(server.url)
    created = await lobby.create(game="yugioh", name="Ann", seed=1, options=OPTIONS)
    tid, ann = created["id"], created["token"]
    answer = await put_deck(lobby, tid, 0, ann, normal_ydk())
    assert answer.status_code == 200, answer.text
    return lobby, tid, ann, answer.json()["deck"]


def test_deeply_nested_json_is_a_one_line_refusal(start_server: Callable[..., ServerThread]) -> None:
    """JSON nested deeper than the decoder's recursion limit (well under the
    size limit) is refused like any other bad JSON, not answered with a 500."""
    server = start_server()

    async def scenario() -> None:
        lobby, tid, ann, deck = await lobby_with_a_deck(server)
        body = b"[" * 30_000 + b"]" * 30_000
        answer = await lobby.http.put(f"/api/tables/{tid}/seats/0/deck", content=body,
                                      headers={**auth(ann), "Content-Type": "application/json"})
        one_line(answer, 400, "not valid JSON")
        assert (await get_deck(lobby, tid, 0, ann)).json()["deck"] == deck
        await lobby.close()

    run(scenario())


def test_a_refusal_that_echoes_a_lone_surrogate_is_one_line_not_a_500(start_server: Callable[..., ServerThread]) -> None:
    """JSON may write a lone surrogate (``"\\ud800"``), which has no UTF-8 form. A
    refusal naming it (the deck's unknown card, in its ``args``) could not be
    encoded: a bare 500 and a traceback. Now it is the one-line refusal, the
    surrogate written as JSON's escape (every error body of the lobby is)."""
    server = start_server()

    async def scenario() -> None:
        lobby, tid, ann, deck = await lobby_with_a_deck(server)
        for body, words in (('"Sang\\ud800an"', ("unknown card",)), ('{"main": ["\\ud800"]}', ("unknown card",))):
            answer = await lobby.http.put(f"/api/tables/{tid}/seats/0/deck", content=body,
                                          headers={**auth(ann), "Content-Type": "application/json"})
            one_line(answer, 400, *words)
        assert (await get_deck(lobby, tid, 0, ann)).json()["deck"] == deck
        await lobby.close()

    run(scenario())


def test_a_json_null_upload_is_refused_not_a_silent_clear(start_server: Callable[..., ServerThread]) -> None:
    """PUT brings a deck; ``null`` is no deck. It must be refused with one
    line and leave the stored deck alone (clearing is DELETE's job)."""
    server = start_server()

    async def scenario() -> None:
        lobby, tid, ann, deck = await lobby_with_a_deck(server)
        answer = await lobby.http.put(f"/api/tables/{tid}/seats/0/deck", content=b" null ",
                                      headers={**auth(ann), "Content-Type": "application/json"})
        one_line(answer, 400, "DELETE")
        assert (await get_deck(lobby, tid, 0, ann)).json()["deck"] == deck
        info = (await lobby.http.get(f"/api/tables/{tid}")).json()
        assert [s["own_deck"] for s in info["seats"]] == [True, False]
        await lobby.close()

    run(scenario())


def test_an_oversized_upload_is_refused_without_reading_it_all() -> None:
    """A body over the limit is refused (413) once the limit is passed, not
    after the whole of it is held in memory: a client streaming gigabytes
    costs the server at most the limit and a chunk. One that says its size
    up front (Content-Length) is refused before any of it is read."""
    from starlette.requests import Request

    from goat.server.app import DECK_BYTES, seat_data_body
    from goat.server.tables import LobbyError

    chunk, chunks = b"x" * 16_384, 2_000   # 32 MB offered
    read = 0

    async def receive() -> dict[str, Any]:
        nonlocal read
        read += 1
        return {"type": "http.request", "body": chunk, "more_body": read < chunks}

    def request(headers: list[tuple[bytes, bytes]]) -> Request:
        return Request({"type": "http", "method": "PUT", "path": "/", "headers": headers}, receive)

    with pytest.raises(LobbyError) as refused:
        run(seat_data_body(request([(b"content-type", b"text/plain")])))
    assert refused.value.status == 413 and "64 KiB" in str(refused.value)
    assert read <= DECK_BYTES // len(chunk) + 1

    read = 0
    with pytest.raises(LobbyError) as refused:
        run(seat_data_body(request([(b"content-type", b"text/plain"), (b"content-length", b"33554432")])))
    assert refused.value.status == 413 and read == 0

    read, chunks = 0, 2   # within the limit: read whole, as before
    assert run(seat_data_body(request([(b"content-type", b"text/plain")]))) == (chunk * 2).decode()


def test_a_form_upload_is_refused_and_json_types_are_read_as_json() -> None:
    """A browser form posts multipart/form-data, whose boundary lines would
    read as unknown cards: it is refused as what it is, before the body is
    read; a JSON media type with a suffix (application/vnd.x+json) is JSON."""
    from starlette.requests import Request

    from goat.server.app import seat_data_body
    from goat.server.tables import LobbyError

    def request(kind: bytes, body: bytes) -> Request:
        async def receive() -> dict[str, Any]:
            return {"type": "http.request", "body": body, "more_body": False}
        return Request({"type": "http", "method": "PUT", "path": "/",
                        "headers": [(b"content-type", kind)]}, receive)

    for kind in (b"multipart/form-data; boundary=x", b"application/x-www-form-urlencoded"):
        with pytest.raises(LobbyError) as refused:
            run(seat_data_body(request(kind, b"--x\r\nSangan\r\n--x--")))
        assert refused.value.status == 415 and "not a form" in str(refused.value)
    assert run(seat_data_body(request(b"application/vnd.goat+json", b'{"main": ["Sangan"]}'))) == {"main": ["Sangan"]}
    assert run(seat_data_body(request(b"text/plain", b"#main\nSangan\n"))) == "#main\nSangan\n"


def test_a_deck_object_with_an_unknown_list_is_refused_not_trimmed() -> None:
    """A .ydk file calls the Fusion Deck "extra"; an object that does so
    (or misspells a list) must be refused with one line naming the key, not
    stored without those cards as if they had not been sent."""
    main = [n for n in NORMALS for _ in range(3)]
    with pytest.raises(DeckError, match=r"'extra'.*main, fusion, side") as refused:
        seat_data_from_json("goat", OPTIONS, {"main": main, "extra": ["Thousand-Eyes Restrict"]})
    assert "\n" not in str(refused.value)
    with pytest.raises(DeckError, match=r"'mian'"):
        seat_data_from_json("goat", OPTIONS, {"mian": main})
    assert seat_data_from_json("goat", OPTIONS, {"main": main})["fusion"] == []   # lists left out are empty


def test_a_refused_deck_names_each_problem_for_the_page(start_server: Callable[..., ServerThread]) -> None:
    """A deck refusal carries, beside its English line, the sentence for the
    page: ``say`` the problem's kind and ``args`` (a card as printed, counts,
    the line it was read at); several problems are ``deckProblems``, each of
    them with its own line, say and args, as many as the line names. The body
    refusals a person at the page can meet name theirs too."""
    server = start_server()

    async def scenario() -> None:
        lobby, tid, ann, deck = await lobby_with_a_deck(server)
        body = normal_ydk()
        cases = [
            (body.replace("#main\n", "#main\nblue eyes dragon\n"), "unknownCard",
             {"card": "blue eyes dragon", "line": 3}),
            (body.replace("#extra", "raigeki\n#extra"), "forbiddenCard", {"card": "Raigeki", "line": 33}),
            (body.replace("Dark Magician\n", ""), "mainTooSmall", {"count": 27, "min": 30}),
            (body.replace("#extra", "Sangan\nSangan\n#extra"), "limitedCopies", {"count": 2, "card": "Sangan"}),
            (body + "Sangan\n", "sideSize", {"count": 1, "sizes": [0, 15]}),
            ("  \n", "deckEmpty", {}),
        ]
        for text, say, args in cases:
            answer = await put_deck(lobby, tid, 0, ann, text)
            one_line(answer, 400)
            assert {k: answer.json()[k] for k in ("say", "args")} == {"say": say, "args": args}, answer.text

        # too few cards and 4 copies of one: both problems, in the order of the line
        several = body.replace("Dark Magician\n", "").replace("#extra", "Vorse Raider\n#extra")
        answer = await put_deck(lobby, tid, 0, ann, several)
        error = one_line(answer, 400, "not legal")
        refused = answer.json()
        assert refused["say"] == "deckProblems"
        items = refused["args"]["problems"]
        assert [(p["say"], p["args"]) for p in items] == [
            ("mainTooSmall", {"count": 28, "min": 30}),
            ("tooManyCopies", {"count": 4, "card": "Vorse Raider", "max": 3})]
        assert error == "the deck is not legal: " + "; ".join(p["error"] for p in items)

        # the body: not UTF-8, not JSON, a form, too large
        put = f"/api/tables/{tid}/seats/0/deck"
        for content, kind, status, say in [(b"#main\n\xff\xfe\n", "text/plain", 400, "deckNotUtf8"),
                                           (b"{main: [", "application/json", 400, "deckNotJson"),
                                           (b"main=Sangan", "application/x-www-form-urlencoded", 415, "deckForm"),
                                           (b"x" * 70_000, "text/plain", 413, "deckTooLarge"),
                                           # over the limit of any body (1 MiB): still the deck's own
                                           (b"x" * (2 * 1024 * 1024), "text/plain", 413, "deckTooLarge")]:
            answer = await lobby.http.put(put, content=content, headers={**auth(ann), "Content-Type": kind})
            one_line(answer, status)
            assert answer.json()["say"] == say, answer.text
        assert answer.json()["args"] == {"kib": 64}
        assert (await get_deck(lobby, tid, 0, ann)).json()["deck"] == deck        # nothing stored meanwhile
        await lobby.close()

    run(scenario())


def test_leaving_a_seat_the_database_refused_keeps_the_seat_and_its_deck(
        start_server: Callable[..., ServerThread], monkeypatch: pytest.MonkeyPatch) -> None:
    """A seat given up takes its own deck with it, in two writes before: the deck's
    removal was committed, then the seat's write failed. The player was told 503 —
    nothing done — and still held the seat, but without the deck (in memory and in
    storage). Now both are one transaction: refused, nothing changes."""
    server = start_server()

    async def scenario() -> None:
        lobby, tid, ann, deck = await lobby_with_a_deck(server)

        def refused(*_: object, **__: object) -> None:
            raise StorageError("database error: server closed the connection unexpectedly")

        with monkeypatch.context() as patch:
            patch.setattr(Storage, "save_seat", refused)
            one_line(await lobby.http.delete(f"/api/tables/{tid}/seats/0", headers=auth(ann)), 503, "database error")
        assert (await get_deck(lobby, tid, 0, ann)).json()["deck"] == deck
        seat = (await lobby.http.get(f"/api/tables/{tid}")).json()["seats"][0]
        assert (seat["kind"], seat["name"], seat["own_deck"]) == ("human", "Ann", True)
        left = await lobby.http.delete(f"/api/tables/{tid}/seats/0", headers=auth(ann))
        assert left.status_code == 200 and left.json()["seats"][0]["own_deck"] is False, left.text
        await lobby.close()

    run(scenario())


def test_a_content_length_of_a_non_ascii_digit_is_read_as_no_length() -> None:
    """Headers come decoded as Latin-1, where "²" (0xB2) is a digit to
    ``str.isdigit`` that ``int`` cannot read: the deck upload raised ValueError
    (a 500) on such a Content-Length instead of reading the body. (uvicorn's
    parsers refuse it first; the check must not depend on that.)"""
    from starlette.requests import Request

    from goat.server.app import seat_data_body

    body = b"#main\nScapegoat\n"

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": body, "more_body": False}

    scope = {"type": "http", "method": "PUT", "path": "/", "query_string": b"",
             "headers": [(b"content-type", b"text/plain"), (b"content-length", b"\xb2")]}
    assert run(seat_data_body(Request(scope, receive))) == body.decode()
