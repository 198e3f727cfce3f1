"""Yu-Gi-Oh! at the table server: the server knows the game only through its
module, so a duel table is built, played and stored like a Kozel one.

* the catalog offers Yu-Gi-Oh! with its rulesets, options (the built-in deck
  lists among them) and its bots, ``greedy`` first;
* a person against the ``greedy`` bot plays a whole match over the WebSocket;
  coin tosses and shuffles are the server's chance events; the record is
  downloadable, replays and passes ``goat replay --check``; the finished table
  comes back from storage after a restart;
* a server killed mid-duel restores the table from its events and plays on;
* ``GET /api/games/yugioh/cards`` serves the engine's card database (kind,
  ATK/DEF, effect text in English, Russian, Bulgarian and Arabic), cacheable; a game without a catalog or an unknown
  game is a 404 with one line;
* the error text scrub replaces Yu-Gi-Oh! names the recipient cannot see;
* the spare states the server changes copies of are equal to clones of the
  table's state (they are brought up to date by replaying events).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from goat.bots import make_bot
from goat.games import get_game
from goat.records import check_result, replay
from goat.server.runner import ServerThread
from goat.server.storage import EventRow
from goat.server.tables import Spares, apply_event, chance_payload, default_bot, table_bots
from goat.server.viewfilter import names_pattern, redact_names, render

from .conftest import SRC, Client, Lobby, finished_table_after_restart, run


def deciding(message: dict[str, Any], seat: int) -> bool:
    """A state message in which ``seat`` has a decision to take."""
    view = message.get("view") if message["type"] == "state" else None
    return bool(view and view.get("decision") and view["decision"]["seat"] == seat and view["legal_actions"])


async def play_duels(client: Client, seat: int, bot_name: str = "greedy", seed: int = 0,
                     max_steps: int = 4000) -> dict[str, Any]:
    """Play ``seat``'s decisions with a Yu-Gi-Oh! bot reading the view the
    server sent, until the table is finished; returns the last state."""
    bot = make_bot(bot_name, seed=seed, game="yugioh")
    await client.send({"type": "sync"})
    for _ in range(max_steps):
        state = await client.until(lambda m: m["type"] == "state" and m["view"] is not None, timeout=60)
        if state["status"] == "finished":
            return state
        if deciding(state, seat):
            await client.act(str(bot.choose(state["view"])), state["version"])
    raise AssertionError("the match did not end")


def test_the_catalog_offers_yugioh(start_server: Callable[..., ServerThread]) -> None:
    server = start_server()
    games = {g["name"]: g for g in httpx.get(f"{server.url}api/games", timeout=10).json()["games"]}
    ygo = games["yugioh"]
    assert [r["name"] for r in ygo["rules"]] == ["goat", "official"]
    assert all(r["players"] == [2] for r in ygo["rules"])
    goat = ygo["rules"][0]["options"]["2"]
    assert goat["decks"] == "goat_control" and goat["starting_lp"] == 8000 and goat["first_player_draws"] is True
    assert "goat_control/chaos_warrior" in ygo["choices"]["decks"]
    assert set(ygo["bots"]) == {"random", "greedy", "mc"} and ygo["default_bot"] == "greedy"
    assert games["kozel"]["default_bot"] == "heuristic"
    created = httpx.post(f"{server.url}api/tables", json={"game": "yugioh", "name": "Ann"}, timeout=10).json()
    seated = httpx.post(f"{server.url}api/tables/{created['id']}/seats/1/bot", json={},   # no bot named
                        headers={"Authorization": f"Bearer {created['token']}"}, timeout=10)
    assert seated.status_code == 200 and seated.json()["seats"][1]["bot"] == "greedy"


def test_the_card_catalog_is_the_engine_database(start_server: Callable[..., ServerThread]) -> None:
    from goat.games.yugioh.cards import card
    from goat.games.yugioh.cards.texts_ar import TEXTS_AR
    from goat.games.yugioh.cards.texts_bg import TEXTS_BG
    from goat.games.yugioh.cards.texts_ru import TEXTS_RU

    server = start_server()
    answer = httpx.get(f"{server.url}api/games/yugioh/cards", timeout=10)
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("application/json")
    assert "max-age" in answer.headers["cache-control"] and answer.headers["etag"]
    cards = answer.json()["cards"]
    assert set(cards) == set(get_game("yugioh").card_names())           # the whole pool, tokens too
    for name in ("Sangan", "Black Luster Soldier - Envoy of the Beginning", "Thousand-Eyes Restrict"):
        data = card(name)
        entry = cards[name]
        assert (entry["kind"], entry["subtype"], entry["attribute"], entry["type"]) == (
            data.kind, data.subtype, data.attribute, data.race)
        assert (entry["level"], entry["atk"], entry["def"], entry["text"]) == (
            data.level, data.atk, data.defense, data.text)
    assert cards["Sangan"]["atk"] == 1000 and cards["Sangan"]["def"] == 600 and cards["Sangan"]["level"] == 3
    assert "Relinquished" in cards["Thousand-Eyes Restrict"]["text"]
    assert cards["Gaia the Dragon Champion"]["materials"] == ["Gaia The Fierce Knight", "Curse of Dragon"]
    storm = cards["Mystical Space Typhoon"]
    assert storm == {"kind": "spell", "subtype": "quick-play", "text": card("Mystical Space Typhoon").text,
                     "texts": {"en": card("Mystical Space Typhoon").text, "ru": TEXTS_RU["Mystical Space Typhoon"],
                               "bg": TEXTS_BG["Mystical Space Typhoon"], "ar": TEXTS_AR["Mystical Space Typhoon"]}}
    assert all(entry["texts"] == {"en": entry["text"], "ru": TEXTS_RU[name], "bg": TEXTS_BG[name],
                                  "ar": TEXTS_AR[name]} for name, entry in cards.items())
    assert cards["Sangan"]["texts"]["ru"].startswith("Когда эта карта отправляется с поля на Кладбище")
    assert cards["Sangan"]["texts"]["bg"].startswith("Когато бъде изпратена от полето в Гробището")
    assert cards["Mirror Force"]["kind"] == "trap" and "level" not in cards["Mirror Force"]
    again = httpx.get(f"{server.url}api/games/yugioh/cards", headers={"If-None-Match": answer.headers["etag"]},
                      timeout=10)
    assert again.status_code == 304 and again.content == b""            # unchanged: the cache may keep it
    for game in ("kozel", "chess"):
        missing = httpx.get(f"{server.url}api/games/{game}/cards", timeout=10)
        assert missing.status_code == 404 and "\n" not in missing.json()["error"]
    assert "kozel" in httpx.get(f"{server.url}api/games/kozel/cards", timeout=10).json()["error"]
    assert "chess" in httpx.get(f"{server.url}api/games/chess/cards", timeout=10).json()["error"]


def test_a_duel_match_against_greedy_ends_with_a_record_that_replays(
        start_server: Callable[..., ServerThread], tmp_path: Path) -> None:
    server = start_server()

    async def scenario() -> tuple[str, dict[str, Any], dict[str, Any]]:
        lobby = Lobby(server.url)
        created = await lobby.create(game="yugioh", rules="goat", name="Ann", seed=5,
                                     options={"starting_lp": 3000, "decks": "goat_control/chaos_warrior"})
        tid, token = created["id"], created["token"]
        assert created["players"] == 2
        await lobby.bot(tid, 1, token, bot="greedy")
        async with Client(server.ws_url, tid, token) as me:
            await lobby.start(tid, token)
            final = await play_duels(me, 0)
            first = next(m for m in me.inbox if m["type"] == "state" and m["version"] == 1)
            # the coin toss and the shuffles are the server's: drawn before anyone decided
            assert first["view"]["history"][0].startswith("chance coin")
        view = final["view"]
        assert view["match_over"] and max(view["wins"]) == 2 and final["status"] == "finished"
        assert view["decklists"][1] is None                       # still private at the end
        record = await lobby.record(tid)
        assert record["game"] == "yugioh" and record["options"]["decks"] == "goat_control/chaos_warrior"
        assert record["decks"][1]["main"][3] == "Exiled Force"      # seat 1 played Chaos Warrior
        outcome = replay(record)
        check_result(record, outcome)
        assert outcome.state.is_terminal() and record["result"]["wins"] == view["wins"]
        info = (await lobby.http.get(f"/api/tables/{tid}")).json()
        assert info["status"] == "finished" and info["version"] == final["version"]
        assert info["version"] == len(record["chance"]) + len(record["actions"])   # one version a step
        await lobby.close()
        return tid, record, final

    tid, record, final = run(scenario())
    path = tmp_path / "duel.json"
    path.write_text(json.dumps(record))
    checked = subprocess.run([sys.executable, "-m", "goat.cli.main", "replay", "--check", str(path)],
                             capture_output=True, text=True, env={"PYTHONPATH": str(SRC)}, timeout=120)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.startswith("ok: 1 record legal")

    again = start_server.restart(server)   # the same data directory: the finished table is found in storage

    state = finished_table_after_restart(again, tid, record, final["version"])
    assert state["view"]["wins"] == final["view"]["wins"]
    assert all(p["hand"] is None for p in state["view"]["players"])


def test_a_duel_in_play_is_restored_and_goes_on(start_server: Callable[..., ServerThread]) -> None:
    server = start_server()

    async def first_half() -> tuple[str, str, int]:
        lobby = Lobby(server.url)
        created = await lobby.create(game="yugioh", name="Ann", seed=8)
        tid, token = created["id"], created["token"]
        await lobby.bot(tid, 1, token, bot="greedy")
        bot = make_bot("greedy", seed=1, game="yugioh")
        async with Client(server.ws_url, tid, token) as me:
            await lobby.start(tid, token)
            moves = 0
            while moves < 25:
                state = await me.until(lambda m: deciding(m, 0))
                await me.act(str(bot.choose(state["view"])), state["version"])
                moves += 1
            version = (await me.until(lambda m: deciding(m, 0)))["version"]
        await lobby.close()
        return tid, token, version

    tid, token, version = run(first_half())
    again = start_server.restart(server)

    async def second_half() -> None:
        lobby = Lobby(again.url)
        async with Client(again.ws_url, tid, token) as me:
            state = await me.until(lambda m: m["type"] == "state")
            assert state["version"] == version and deciding(state, 0)     # where it stopped
            final = await play_duels(me, 0, seed=2)
        assert final["status"] == "finished"
        outcome = replay(await lobby.record(tid))
        assert outcome.state.is_terminal()
        await lobby.close()

    run(second_half())


def test_error_texts_name_no_yugioh_card_the_seat_cannot_see(start_server: Callable[..., ServerThread]) -> None:
    pattern = names_pattern("yugioh")
    text = 'legal: "0 summon Sangan", "0 activate Mirror Force@0S1", Black Luster Soldier - Envoy of the Beginning'
    assert redact_names(text, {"Sangan"}, pattern) == 'legal: "0 summon Sangan", "0 activate ?@0S1", ?'
    assert names_pattern("kozel") is None and redact_names("QC", set(), None) == "QC"
    server = start_server()

    async def scenario() -> None:
        lobby = Lobby(server.url)
        created = await lobby.create(game="yugioh", name="Ann", seed=3,
                                     options={"decks": "goat_control/chaos_warrior"})
        tid, token = created["id"], created["token"]
        other = await lobby.sit(tid, 1, "Bo")
        async with Client(server.ws_url, tid, token) as ann, Client(server.ws_url, tid, other) as bo:
            await lobby.start(tid, token)
            await ann.until(lambda m: m["type"] == "state" and m["view"] is not None)
            table = server.server.config.app.state.tables.tables[tid]
            # What a seat's view shows is kept; another seat's hand is not. Seat 1's
            # hand is hidden from seat 0 (their lists differ: Chaos Warrior's names
            # are not in Goat Control's), so seat 0 gets "?" where seat 1 reads them.
            opponent_only = {"Jinzo", "Exiled Force", "Spirit Reaper"}
            reason = "you may not: " + ", ".join(sorted(opponent_only))
            from goat.server.messages import ErrorCode
            to_ann = json.loads(render(table, 0, "error", code=ErrorCode.ILLEGAL_ACTION, message=reason))
            assert to_ann["message"] == "you may not: ?, ?, ?"
            to_bo = json.loads(render(table, 1, "error", code=ErrorCode.ILLEGAL_ACTION, message=reason))
            assert to_bo["message"] == reason                  # its own deck list names them all
            echoed = json.loads(render(table, 0, "error", code=ErrorCode.ILLEGAL_ACTION, message=reason,
                                       echoed='{"action": "0 summon Jinzo"}'))
            assert echoed["message"] == "you may not: ?, Jinzo, ?"   # what it wrote itself it may hear back
            assert "Jinzo" not in json.dumps(ann.state["view"])     # (its view does not name it)
        await lobby.close()

    run(scenario())


def test_spare_states_catch_up_to_the_table() -> None:
    """A spare is at the version it is handed out at: equal to a clone of the
    table's state there, step after step, whether it lagged one event or many."""
    game = get_game("yugioh")
    state = game.new_state("goat", seed=1)
    spares = Spares(game)
    rng = random.Random(4)
    version = 0
    behind: list[tuple[int, Any]] = []
    for step in range(300):
        if state.is_terminal():
            break
        copy = spares.take(state, version)
        assert copy.view(0) == state.view(0) and copy.view(1) == state.view(1) and copy is not state
        trial = state.clone()
        if state.is_chance_node():
            outcome = trial.sample_chance(rng)
            trial.apply_chance(outcome)
            event = EventRow(version + 1, "deal", chance_payload(game, trial, outcome), "server")
        else:
            event = EventRow(version + 1, "action", rng.choice(state.legal_texts()), "bot")
            apply_event(game, trial, event)
        if step % 7 == 0:
            behind.append((version, copy))   # a copy held back (a bot still thinking)
        else:
            spares.give(state, version)
        spares.record(event)
        state, version = trial, version + 1
        if step % 11 == 0 and behind:
            spares.give(*reversed(behind.pop(0)))   # returned late: caught up when next taken
    assert version > 200 and len(spares.free) <= Spares.KEEP


def test_default_bots_by_game() -> None:
    from goat.server.settings import Settings

    settings = Settings(data_dir=Path("/nonexistent"))
    assert default_bot("kozel", settings) == "heuristic" and default_bot("yugioh", settings) == "greedy"
    assert "perfect" not in table_bots("kozel") and table_bots("yugioh") == ["random", "greedy", "mc"]
