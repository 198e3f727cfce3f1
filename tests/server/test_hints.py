"""Hints: ``POST /api/tables/{id}/hint`` at a table that allows them.

* ``hints`` is a table setting chosen at creation (off by default, a strict
  boolean), shown in ``public()`` (the table's info, the lobby's list, every
  state message), stored apart from the game's options, kept by a rematch and
  by a restart; a database from before ``goat_table_settings`` opens unchanged;
* refusals, one line each: 403 for a spectator or a wrong token, 409 at a
  table without hints, before the game is in play, when it is not one's turn;
* a hint is one of the seat's legal actions, computed by the game's hint bot
  (``pimc`` in classic and Spades, ``ismcts`` in street, ``mc`` in a
  duel) from the seat's view alone — a spy fails the test if the bot is handed
  anything but a plain JSON view — and the same when asked twice;
* a hint finished after the table moved on says so (``current: false``, the
  version it was computed for).

How the solver's kernels are loaded for hints: ``test_solverload.py``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

import goat.server.hints as hints_module
from goat.bots import SpadesPIMCBot
from goat.server.hints import Hints
from goat.server.runner import ServerThread
from goat.server.storage import SeatRow, Storage, TableRow

from .conftest import Client, Lobby, auth, my_turn, one_line, run
from .test_yugioh_table import deciding


async def ask(lobby: Lobby, table: str, token: str | None) -> httpx.Response:
    return await lobby.http.post(f"/api/tables/{table}/hint", headers=auth(token))


class SpyBot:
    """A hint bot that checks what it is handed: a plain JSON view (dicts,
    lists, strings, numbers) of its own seat — never a state object."""

    seen: list[Any] = []

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.name = bot.name

    @staticmethod
    def check(view: Any) -> None:
        SpyBot.seen.append(view)
        assert type(view) is dict, f"the hint bot was handed a {type(view).__name__}, not a view"
        assert not hasattr(view, "apply_action") and not hasattr(view, "legal_actions")
        assert json.loads(json.dumps(view)) == view, "the view is not plain JSON"

    def prepare(self, view: Any) -> None:
        self.check(view)
        getattr(self.bot, "prepare", lambda v: None)(view)

    def choose(self, view: Any) -> Any:
        self.check(view)
        return self.bot.choose(view)


@pytest.fixture
def spy(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every hint bot made wrapped in a :class:`SpyBot`; returns what they were handed."""
    SpyBot.seen = []
    real = hints_module.make_bot
    monkeypatch.setattr(hints_module, "make_bot", lambda *a, **k: SpyBot(real(*a, **k)))
    return SpyBot.seen


async def my_decision(client: Client, seat: int, game: str) -> dict[str, Any]:
    """The first state message (from now) in which ``seat`` is to act."""
    await client.send({"type": "sync"})
    if game == "yugioh":
        return await client.until(lambda m: deciding(m, seat), timeout=60)
    return await client.until(lambda m: my_turn(m, seat), timeout=60)


def test_a_table_without_hints_refuses_them(start_server: Callable[..., ServerThread]) -> None:
    server = start_server()

    async def scenario() -> None:
        lobby = Lobby(server.url)
        tid, ann = await lobby.with_bots(rules="classic", seed=5)
        info = (await lobby.http.get(f"/api/tables/{tid}")).json()
        assert info["hints"] is False and "hints" not in info["options"]
        async with Client(server.ws_url, tid, ann) as me:
            await lobby.start(tid, ann)
            await my_decision(me, 0, "kozel")
            one_line(await ask(lobby, tid, ann), 409, "does not allow hints")
        bad = await lobby.http.post("/api/tables", json={"hints": "yes"})     # a strict boolean
        assert bad.status_code == 422 and "hints" in bad.json()["error"]
        await lobby.close()

    run(scenario())


def test_a_hint_is_a_legal_action_for_the_seat_to_act(start_server: Callable[..., ServerThread],
                                                      spy: list[Any]) -> None:
    """Ann and Bo with two bots, classic, hints on: the lobby shows the setting;
    a spectator, a wrong token, the lobby and Bo out of turn are refused; Ann on
    her turn gets a legal card from pimc, the same twice, then plays it."""
    server = start_server()

    async def scenario() -> None:
        lobby = Lobby(server.url)
        created = await lobby.create(name="Ann", rules="classic", seed=11, hints=True)
        tid, ann = created["id"], created["token"]
        assert created["hints"] is True and created["options"] == {}
        assert [t["hints"] for t in (await lobby.http.get("/api/tables")).json()["tables"] if t["id"] == tid] == [True]
        bo = await lobby.sit(tid, 1, "Bo")
        for seat in (2, 3):
            await lobby.bot(tid, seat, ann)
        one_line(await ask(lobby, tid, ann), 409, "not in play")                 # the lobby
        async with (Client(server.ws_url, tid, ann) as me, Client(server.ws_url, tid, bo) as bo_ws,
                    Client(server.ws_url, tid) as watcher):
            await lobby.start(tid, ann)
            state = await my_decision(me, 0, "kozel")
            assert state["hints"] is True
            assert (await watcher.until(lambda m: m["type"] == "state"))["hints"] is True
            one_line(await ask(lobby, tid, None), 403, "take a seat")            # a spectator
            one_line(await ask(lobby, tid, "forged"), 403, "holds no seat")      # a wrong token
            one_line(await ask(lobby, tid, bo), 409, "not your turn")            # Bo, while Ann is to act
            first = await ask(lobby, tid, ann)
            assert first.status_code == 200, first.text
            hint = first.json()
            assert hint["action"] in state["view"]["legal_actions"]
            assert (hint["table"], hint["seat"], hint["version"], hint["current"]) == (tid, 0, state["version"], True)
            assert hint["verb"] == "play" and hint["action"] == f"0 play {hint['cards'][0]}"
            assert hint["bot"].startswith("pimc:worlds=24")
            assert spy and all(view["seat"] == 0 for view in spy)                # Ann's view, nothing else
            again = await ask(lobby, tid, ann)
            assert again.json() == hint                                          # the same hint twice
            msg = await me.act(hint["action"], state["version"])
            assert (await me.reply_to(msg))["type"] == "state"                   # it plays
        await lobby.close()

    run(scenario())


@pytest.mark.parametrize(("game", "rules", "bot", "hinter", "body"), [
    ("kozel", "street", "heuristic", "ismcts:", {}),
    ("spades", "standard", "heuristic", "pimc:" if SpadesPIMCBot.available() else "ismcts:", {}),
    ("yugioh", "goat", "greedy", "mc:", {"options": {"starting_lp": 1000}}),
])
def test_each_game_hints_with_its_bot_from_the_view(start_server: Callable[..., ServerThread], spy: list[Any],
                                                     game: str, rules: str, bot: str, hinter: str,
                                                     body: dict[str, Any]) -> None:
    server = start_server()

    async def scenario() -> None:
        lobby = Lobby(server.url)
        tid, ann = await lobby.with_bots(bot=bot, game=game, rules=rules, seed=4, hints=True, **body)
        async with Client(server.ws_url, tid, ann) as me:
            await lobby.start(tid, ann)
            state = await my_decision(me, 0, game)
            answer = await ask(lobby, tid, ann)
            assert answer.status_code == 200, answer.text
            hint = answer.json()
        assert hint["action"] in state["view"]["legal_actions"] and hint["version"] == state["version"]
        assert hint["bot"].startswith(hinter)
        assert spy and all(view["seat"] == 0 for view in spy)
        await lobby.close()

    run(scenario())


def test_a_two_player_full_hand_hint_comes_from_pimc(start_server: Callable[..., ServerThread],
                                                     spy: list[Any]) -> None:
    """Ann against a heuristic bot in 2-player full-hand: her hint at the first
    card comes from ``pimc`` (which keeps its time limit by solving each world
    under a node budget), a legal card from her own view."""
    server = start_server()

    async def scenario() -> None:
        lobby = Lobby(server.url)
        tid, ann = await lobby.with_bots(bot="heuristic", rules="full-hand", players=2, seed=5, hints=True)
        async with Client(server.ws_url, tid, ann) as me:
            await lobby.start(tid, ann)
            state = await my_decision(me, 0, "kozel")
            answer = await ask(lobby, tid, ann)
            assert answer.status_code == 200, answer.text
            hint = answer.json()
        assert hint["action"] in state["view"]["legal_actions"] and hint["version"] == state["version"]
        assert hint["bot"].startswith("pimc:worlds=24:time_limit=")
        assert spy and all(view["seat"] == 0 and view["players"] == 2 for view in spy)
        await lobby.close()

    run(scenario())


def test_a_hint_for_a_position_that_moved_on_is_not_current(monkeypatch: pytest.MonkeyPatch) -> None:
    """The table moves on while the bot thinks: the answer names the version it
    was computed for and says it is no longer current."""

    class Row:
        game, rules, players, seed = "kozel", "street", 4, "9"

    class MovingTable:
        id, row, version = "t1", Row(), 7

        def hint_position(self, token: str | None) -> tuple[int, int, dict[str, Any]]:
            return 0, self.version, {"seat": 0}

        def standing_since(self, seat: int) -> int:
            return self.version       # every event here decides something

    table = MovingTable()

    def slow_suggest(*args: Any) -> tuple[str, str]:
        table.version = 8                 # someone played meanwhile
        return "0 play 7S", "heuristic"

    monkeypatch.setattr(hints_module, "suggest", slow_suggest)
    hint = asyncio.run(Hints().hint(table, "token"))
    assert (hint["version"], hint["current"], hint["action"]) == (7, False, "0 play 7S")


def test_another_seats_look_leaves_a_hint_on_its_way_current(start_server: Callable[..., ServerThread],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Spades, hints on: the bidder has looked and asks for a hint; while it is
    computed, another seat turns its cards over out of turn (a new version that
    decides nothing). The hint comes back current, every state message says since
    which version the bidder's position stands (``since``), and asking again gives
    the same hint. Before, a hint was for one table version: such a look made it
    stale, and the page showed nothing (the bots' own early looks did it too,
    until they stopped looking out of turn)."""
    server = start_server()
    asked, looked = threading.Event(), threading.Event()
    real = hints_module.suggest

    def held_until_the_look(*args: Any) -> tuple[Any, str]:
        asked.set()
        assert looked.wait(30), "the other seat's look never came"
        return real(*args)

    monkeypatch.setattr(hints_module, "suggest", held_until_the_look)

    async def scenario() -> None:
        lobby = Lobby(server.url)
        tid, tokens = await lobby.humans(4, game="spades", rules="standard", seed="hint-look", hints=True,
                                         options={"blind_nil_behind": 0, "double_nil": True})
        clients = [await Client(server.ws_url, tid, t).__aenter__() for t in tokens]
        await lobby.start(tid, tokens[0])
        dealt = await clients[0].until(lambda m: m["type"] == "state" and bool(m["view"])
                                       and m["view"]["phase"] == "bid")
        bidder_seat = dealt["view"]["current_player"]
        other_seat = (bidder_seat + 1) % 4
        bidder, other = clients[bidder_seat], clients[other_seat]
        await bidder.at_version(dealt["version"])
        mine = await bidder.reply_to(await bidder.act(f"{bidder_seat} bid look"))
        assert mine["since"] == mine["version"]               # my own look: my position starts there
        hint = asyncio.ensure_future(ask(lobby, tid, tokens[bidder_seat]))
        assert await asyncio.to_thread(asked.wait, 30)
        await other.at_version(mine["version"])
        theirs = await other.reply_to(await other.act(f"{other_seat} bid look"))
        assert theirs["type"] == "state" and theirs["version"] == mine["version"] + 1
        looked.set()
        after = await bidder.at_version(theirs["version"])
        assert (after["version"], after["since"]) == (mine["version"] + 1, mine["version"])
        answer = (await hint).json()
        assert answer["current"] is True, answer
        assert (answer["version"], answer["since"]) == (mine["version"], mine["version"])
        assert answer["action"] in after["view"]["legal_actions"]
        assert (await ask(lobby, tid, tokens[bidder_seat])).json() == answer    # the same, not computed again
        bid = await bidder.reply_to(await bidder.act(answer["action"], answer["version"]))
        assert bid["type"] == "state" and bid["since"] == bid["version"]        # a bid decides: a new position
        for c in clients:
            await c.__aexit__()
        await lobby.close()

    run(scenario())


def test_the_setting_is_stored_apart_and_an_older_database_opens(tmp_path: Path) -> None:
    db = tmp_path / "old" / "goat.db"
    db.parent.mkdir()
    with sqlite3.connect(db) as conn:   # the schema as it was: no goat_table_settings
        conn.execute("CREATE TABLE goat_tables (id VARCHAR(32) PRIMARY KEY, game VARCHAR(32) NOT NULL, "
                     "rules VARCHAR(64) NOT NULL, options TEXT NOT NULL, players INTEGER NOT NULL, "
                     "seed VARCHAR(64) NOT NULL, status VARCHAR(16) NOT NULL, created_at DATETIME NOT NULL, "
                     "updated_at DATETIME NOT NULL)")
        conn.execute("INSERT INTO goat_tables VALUES ('old1', 'kozel', 'classic', '{}', 4, '1', 'lobby', "
                     "'2024-01-01 00:00:00', '2024-01-01 00:00:00')")
    store = Storage(f"sqlite:///{db}")
    assert store.load("old1").table.settings == {}
    seats = [SeatRow(i) for i in range(4)]
    store.create_table(TableRow("on", "kozel", "classic", {}, 4, "1", "lobby", {"hints": True}), seats)
    store.create_table(TableRow("off", "kozel", "classic", {}, 4, "1"), seats)
    store.create_rematch("on", TableRow("again", "kozel", "classic", {}, 4, "2", "lobby", {"hints": True}), seats)
    assert [store.load(t).table.settings for t in ("on", "off", "again")] == [{"hints": True}, {}, {"hints": True}]
    assert store.load("on").table.options == {}                 # not one of the game's options
    store.close()
    with sqlite3.connect(db) as conn:                           # a default table writes nothing new
        assert sorted(r[0] for r in conn.execute("SELECT table_id FROM goat_table_settings")) == ["again", "on"]


def test_each_ruleset_hints_with_its_strongest_bot_that_answers_in_time() -> None:
    assert hints_module.hint_bot("kozel", "classic", 4, "s").name.startswith("pimc:worlds=24:time_limit=")
    assert hints_module.hint_bot("kozel", "full-hand", 4, "s").name.startswith("pimc")
    assert hints_module.hint_bot("kozel", "full-hand", 3, "s").name.startswith("pimc")  # individual play
    # with 2 players too: pimc keeps its time limit even where a world takes seconds
    assert hints_module.hint_bot("kozel", "full-hand", 2, "s").name.startswith("pimc:worlds=24:time_limit=")
    assert hints_module.uses_solver("kozel", "full-hand", 2)
    assert hints_module.hint_bot("kozel", "full-hand-24", 4, "s").name.startswith("pimc:worlds=24:time_limit=")
    # out of the solver's reach: the search bot measured stronger than heuristic, as capped in time
    assert hints_module.hint_bot("kozel", "street", 4, "s").name.endswith(f"time_limit={hints_module.HINT_SECONDS}")
    assert hints_module.hint_bot("kozel", "street", 4, "s").name.startswith("ismcts:")
    # Spades: pimc on DDS where it is installed and plays the ruleset itself; else ismcts
    spades = hints_module.hint_bot("spades", "standard", 4, "s").name
    assert spades.startswith("pimc:" if SpadesPIMCBot.available() else "ismcts:")
    assert spades.endswith(f"time_limit={hints_module.HINT_SECONDS}")
    assert hints_module.hint_bot("spades", "joker-trumps", 4, "s").name.startswith("ismcts:")
    assert hints_module.hint_bot("yugioh", "goat", 2, "s").name == f"mc:time_limit={hints_module.HINT_SECONDS}"


def test_spades_hints_fall_back_to_ismcts_without_dds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(SpadesPIMCBot, "available", staticmethod(lambda: False))
    assert not hints_module.spades_pimc_hints("standard")
    assert hints_module.hint_bot("spades", "standard", 4, "s").name.startswith("ismcts:")


def test_a_hint_still_thinking_when_the_server_stops_is_cut_in_one_line(
        start_server: Callable[..., ServerThread], monkeypatch: pytest.MonkeyPatch) -> None:
    """uvicorn cuts the requests still running 3 s after a stop and logged each as
    "Exception in ASGI application" with a CancelledError traceback (to an organiser
    pressing Ctrl+C while a hint was being thought out, a crash), and the page got
    an empty 500. Now one line in the log, and a one-line 503 to the page."""
    import logging
    import threading

    thinking = threading.Event()
    may_end = threading.Event()

    def slow_suggest(*args: Any) -> tuple[str, str]:
        thinking.set()
        may_end.wait(5)    # longer than the 3 s a stopping server gives it
        return "0 play 9H", "slow"

    monkeypatch.setattr(hints_module, "suggest", slow_suggest)
    records: list[logging.LogRecord] = []
    catcher = logging.Handler()
    catcher.emit = records.append  # type: ignore[method-assign]
    for name in ("uvicorn.error", "goat.server"):
        logging.getLogger(name).addHandler(catcher)
    server = start_server()
    try:
        async def ask_and_stop() -> None:
            lobby = Lobby(server.url)
            tid, token = await lobby.with_bots(rules="classic", seed=3, hints=True)
            async with Client(server.ws_url, tid, token) as me:
                await lobby.start(tid, token)
                await me.until(my_turn)
                asking = asyncio.ensure_future(ask(lobby, tid, token))
                await asyncio.to_thread(thinking.wait, 20)
                await asyncio.to_thread(server.__exit__, None, None, None)   # what Ctrl+C does
                cut = await asking
                assert one_line(cut, 503, "the server is stopping")
            await lobby.close()

        run(ask_and_stop())
    finally:
        may_end.set()
        for name in ("uvicorn.error", "goat.server"):
            logging.getLogger(name).removeHandler(catcher)
    said = [r.getMessage() for r in records if r.levelno >= logging.WARNING]
    assert not any(r.exc_info for r in records if r.levelno >= logging.ERROR), said
    assert any("a request still running after 3 s was cut (POST /api/tables/" in line for line in said), said
