"""Time per move (``move_seconds``): :mod:`goat.server.clock`.

* the setting: ``null`` or a whole number of seconds 1..3600 (anything else is
  400, one line), in ``public()`` (the table's info, the lobby's list, every
  state message), kept by a rematch and by a restart, after which a decision
  still pending has a clock again;
* a person who does nothing while the clock runs (``move_seconds=1``) has that
  decision made for them — Kozel against bots, a Spades table and a duel — with
  a legal action, stored with the actor ``clock`` (the finished record passes
  the ``goat replay --check`` checks), announced in the state message
  (``timeout``), chosen by a bot handed only that seat's view (a spy), and the
  seat is still theirs, with a fresh clock at their next decision; so has one
  whose page closed, while the grace period keeps their seat off autoplay;
* every state message says whose clock runs (``clock``), and never a bot's
  seat's; a table without the setting has none;
* a move in time stops the clock; a move that arrives while the clock's bot is
  thinking wins, and the clock's choice is dropped (one move, not two);
* at a Spades hand still face down, the clock looks and bids at once.
"""

from __future__ import annotations

import asyncio
import json
import random
import logging
import threading
from collections.abc import Callable
from typing import Any

import pytest

import goat.server.tables as tables_module
from goat.games import get_game
from goat.records import check_result, replay
from goat.server.clock import CLOCK_ACTOR
from goat.server.runner import ServerThread
from goat.server.storage import EventRow, Storage
from goat.server.viewfilter import render

from .conftest import QUICK, Client, Lobby, my_turn, one_line, play_to_the_end, run
from .test_hints import SpyBot
from .test_yugioh_table import deciding


def live_table(server: ServerThread, tid: str) -> Any:
    """The server's own :class:`~goat.server.tables.Table` (the server runs in this process)."""
    return server.server.config.app.state.tables.tables[tid]  # type: ignore[attr-defined]


def stored_events(server: ServerThread, tid: str) -> list[EventRow]:
    store = Storage(live_table(server, tid).settings.url)
    try:
        stored = store.load(tid)
        assert stored is not None
        return stored.events
    finally:
        store.close()


def decides(message: dict[str, Any], seat: int, game: str) -> bool:
    return deciding(message, seat) if game == "yugioh" else my_turn(message, seat)


@pytest.fixture
def spy(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every clock bot made wrapped in a :class:`SpyBot`; returns what they were handed."""
    SpyBot.seen = []
    real = tables_module.clock_bot
    monkeypatch.setattr(tables_module, "clock_bot", lambda *a, **k: SpyBot(real(*a, **k)))
    return SpyBot.seen


def only_views_of(seen: list[Any], seat: int) -> bool:
    """Whether the clock's bot was handed plain JSON views of ``seat`` and nothing else."""
    return bool(seen) and all(type(view) is dict and view.get("seat") == seat and "legal_actions" in view
                              for view in seen)


@pytest.mark.parametrize("bad", [0, 3601, -5, 1.5, 30.0, "30", True, [30], {"s": 30}])
def test_a_bad_time_per_move_is_refused(start_server: Callable[..., ServerThread], bad: Any) -> None:
    server = start_server()

    async def scenario() -> None:
        lobby = Lobby(server.url)
        one_line(await lobby.http.post("/api/tables", json={"move_seconds": bad}), 400, "move_seconds")
        assert (await lobby.http.get("/api/tables")).json()["tables"] == []      # nothing made
        await lobby.close()

    run(scenario())


def test_the_setting_is_listed_and_a_pending_decision_gets_a_clock_after_a_restart(
        start_server: Callable[..., ServerThread]) -> None:
    """(Its default, rematch and restart: ``test_table_settings.py``.)"""
    server = start_server()
    kept: dict[str, str] = {}

    async def before() -> None:
        lobby = Lobby(server.url)
        plain = await lobby.create(move_seconds=None)
        assert plain["move_seconds"] is None
        assert (await lobby.create(move_seconds=1))["move_seconds"] == 1
        pending, bo = await lobby.with_bots(rules="classic", seed=5, move_seconds=3600)
        listed = {t["id"]: t["move_seconds"] for t in (await lobby.http.get("/api/tables")).json()["tables"]}
        assert listed[pending] == 3600 and listed[plain["id"]] is None
        async with Client(server.ws_url, pending, bo) as me:
            await lobby.start(pending, bo)
            await me.until(lambda m: my_turn(m, 0), timeout=60)
        kept.update(pending=pending, bo=bo)
        await lobby.close()

    run(before())
    server = start_server.restart(server)   # the same data directory

    async def after() -> None:
        lobby = Lobby(server.url)
        async with Client(server.ws_url, kept["pending"], kept["bo"]) as me:
            state = await me.until(lambda m: my_turn(m, 0), timeout=60)
            assert state["clock"]["seat"] == 0 and 0 < state["clock"]["ms"] <= 3_600_000   # a clock again
        await lobby.close()

    run(after())


def test_an_idle_kozel_player_has_the_card_played_for_them(start_server: Callable[..., ServerThread],
                                                           spy: list[Any]) -> None:
    """Classic against three bots with one second a move: Ann does nothing;
    her card is played for her from her view, stored as the clock's, announced;
    she keeps her seat and her next decision has its own clock; then she plays
    the match out and its record checks."""
    server = start_server()

    async def scenario() -> None:
        lobby = Lobby(server.url)
        tid, ann = await lobby.with_bots(rules="classic", seed=7, options=QUICK, move_seconds=1)
        async with Client(server.ws_url, tid, ann) as me:
            await lobby.start(tid, ann)
            turn = await me.until(lambda m: my_turn(m, 0), timeout=60)
            assert turn["clock"]["seat"] == 0 and 0 <= turn["clock"]["ms"] <= 1000
            done = await me.until(lambda m: m["type"] == "state" and m["version"] > turn["version"], timeout=60)
            assert done["version"] == turn["version"] + 1
            assert done["timeout"] == {"seat": 0, "version": done["version"], "action": done["timeout"]["action"]}
            action = done["timeout"]["action"]
            assert action in turn["view"]["legal_actions"]                       # legal, and Ann's
            assert done["seats"][0] == {**turn["seats"][0], "autoplay": False}   # still her seat
            assert done["seats"][0]["kind"] == "human" and done["seats"][0]["name"] == "Ann"
            assert only_views_of(spy, 0)                                         # her view, nothing else
            events = stored_events(server, tid)
            assert (events[done["version"] - 1].payload, events[done["version"] - 1].actor) == (action, CLOCK_ACTOR)
            again = await me.until(lambda m: my_turn(m, 0), timeout=60)          # her next decision is timed
            assert again["version"] > done["version"] and again["clock"]["seat"] == 0
            assert "timeout" not in again or again["timeout"]["version"] == again["version"]
            final = await play_to_the_end(me, 0)
        assert final["status"] == "finished"
        record = await lobby.record(tid)
        check_result(record, replay(record))                                     # goat replay --check
        await lobby.close()

    run(scenario())


def test_the_clock_decides_for_a_player_offline_within_the_grace_period(
        start_server: Callable[..., ServerThread]) -> None:
    """The clock times a person's seat whether or not their page is open: Ann,
    gone during play, keeps her seat for the grace period (60 s here), and until
    then, with one second a move, the clock decides for her (not the autoplay
    bot, which only comes after the grace): a watcher sees her seat offline, not
    on autoplay, and her decision made as a ``timeout``."""
    server = start_server()

    async def scenario() -> None:
        lobby = Lobby(server.url)
        tid, ann = await lobby.with_bots(rules="classic", seed=7, options=QUICK, move_seconds=1)
        async with Client(server.ws_url, tid) as watcher:
            async with Client(server.ws_url, tid, ann) as me:
                await lobby.start(tid, ann)
                await me.until(lambda m: m["type"] == "state" and m["status"] == "playing", timeout=60)
            timed = await watcher.until(lambda m: m["type"] == "state" and (m.get("timeout") or {}).get("seat") == 0,
                                        timeout=60)
            assert timed["seats"][0]["connected"] is False and timed["seats"][0]["autoplay"] is False
            assert timed["seats"][0]["kind"] == "human" and timed["seats"][0]["name"] == "Ann"
        await lobby.close()

    run(scenario())


def test_the_clock_at_a_face_down_hand_looks_and_bids_at_once(start_server: Callable[..., ServerThread],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A Spades hand still face down when the person's time runs out: the clock
    turns it over ("bid look": the stand-in never bids blind) and makes the bid
    that timed out too, at once — not after a second full move time. (Once the
    look is in, the table's time per move is made an hour: the bid comes only if
    the clock makes it without waiting again.)"""
    real = tables_module.Table.move_seconds

    def longer_after_my_look(table: Any) -> int | None:
        seconds = real.fget(table)
        return 3600 if seconds and 0 in getattr(table.state, "looked", ()) else seconds

    monkeypatch.setattr(tables_module.Table, "move_seconds", property(longer_after_my_look))
    server = start_server()

    async def scenario() -> None:
        lobby = Lobby(server.url)
        tid, ann = await lobby.with_bots(game="spades", rules="standard", seed=4, move_seconds=1,
                                         options={"blind_nil_behind": 0})
        async with Client(server.ws_url, tid, ann) as me:
            await lobby.start(tid, ann)
            await me.until(lambda m: my_turn(m, 0) and m["view"]["hand_face_down"], timeout=60)
            bid = await me.until(lambda m: m["type"] == "state" and bool(m["view"])
                                 and m["view"]["bids"][0] is not None, timeout=60)
            assert bid["view"]["bids"][0] not in ("blind-nil", "double-nil")
            events = stored_events(server, tid)[:bid["version"]]
            mine = [(e.seq, e.payload, e.actor) for e in events if e.payload.startswith("0 ")]
            assert [(p, a) for _, p, a in mine] == [("0 bid look", CLOCK_ACTOR),
                                                   (f"0 bid {bid['view']['bids'][0]}", CLOCK_ACTOR)]
            assert mine[1][0] == mine[0][0] + 1
        await lobby.close()

    run(scenario())


def test_a_look_out_of_turn_keeps_the_bidders_deadline(start_server: Callable[..., ServerThread]) -> None:
    """Another seat turning its face-down hand over decides nothing (a glance,
    :func:`goat.games.is_glance`): the bidder's clock keeps its deadline. Before,
    every look was a new table version and so a new decision: the bidder's clock
    started again, up to three times a deal; and the bidder's own look in time
    gave it a fresh full clock for the bid."""
    server = start_server()

    async def scenario() -> None:
        lobby = Lobby(server.url)
        tid, tokens = await lobby.humans(game="spades", rules="standard", seed=4, move_seconds=60,
                                         options={"blind_nil_behind": 0})
        await lobby.start(tid, tokens[0])
        clients = [Client(server.ws_url, tid, token) for token in tokens]
        for client in clients:
            await client.__aenter__()
        try:
            first = await clients[0].until(lambda m: m["type"] == "state" and m["view"]["phase"] == "bid")
            bidder = first["view"]["current_player"]
            clock = live_table(server, tid).clock
            assert clock is not None and clock.seat == bidder
            deadline = clock.deadline
            others = [s for s in range(4) if s != bidder]
            for seat in others + [bidder]:
                me = clients[seat]
                state = await me.at_version(live_table(server, tid).version)
                answer = await me.reply_to(await me.act(f"{seat} bid look", version=state["version"]))
                assert answer["type"] == "state", answer
                table = live_table(server, tid)
                assert table.clock is clock and clock.deadline == deadline and clock.seat == bidder
                assert table.version == clock.version
        finally:
            for client in clients:
                await client.__aexit__(None, None, None)
        await lobby.close()

    run(scenario())


@pytest.mark.parametrize(("game", "rules", "bot", "body"), [
    ("spades", "standard", "heuristic", {}),
    ("yugioh", "goat", "greedy", {"options": {"starting_lp": 1000}}),
])
def test_the_clock_decides_a_bid_and_a_duel_prompt(start_server: Callable[..., ServerThread], spy: list[Any],
                                                   game: str, rules: str, bot: str, body: dict[str, Any]) -> None:
    server = start_server()

    async def scenario() -> None:
        lobby = Lobby(server.url)
        tid, ann = await lobby.with_bots(bot=bot, game=game, rules=rules, seed=4, move_seconds=1, **body)
        async with Client(server.ws_url, tid, ann) as me:
            await lobby.start(tid, ann)
            turn = await me.until(lambda m: decides(m, 0, game), timeout=60)
            assert turn["clock"]["seat"] == 0
            done = await me.until(lambda m: m["type"] == "state" and m["version"] > turn["version"], timeout=60)
            assert done["timeout"]["seat"] == 0 and done["timeout"]["action"] in turn["view"]["legal_actions"]
            assert done["seats"][0]["kind"] == "human" and not done["seats"][0]["autoplay"]
            assert only_views_of(spy, 0)
            event = stored_events(server, tid)[done["version"] - 1]
            assert (event.payload, event.actor) == (done["timeout"]["action"], CLOCK_ACTOR)
        await lobby.close()

    run(scenario())


def test_no_clock_without_the_setting_and_none_for_bots(start_server: Callable[..., ServerThread]) -> None:
    """Without the setting no state message has a clock; with it, the clock is
    never a bot's seat's, and a move in time stops the running one."""
    server = start_server()

    async def scenario() -> None:
        lobby = Lobby(server.url)
        plain, ann = await lobby.with_bots(rules="classic", seed=3, options=QUICK)
        async with Client(server.ws_url, plain, ann) as me:
            await lobby.start(plain, ann)
            await me.until(lambda m: my_turn(m, 0), timeout=60)
            await me.act(me.state["view"]["legal_actions"][0])
            await me.until(lambda m: my_turn(m, 0), timeout=60)
        states = [m for m in me.inbox if m["type"] == "state"]
        assert len(states) > 5 and all(m["clock"] is None and "timeout" not in m for m in states)

        timed, bo = await lobby.with_bots(rules="classic", seed=3, move_seconds=3600)
        async with Client(server.ws_url, timed, bo) as me:
            await lobby.start(timed, bo)
            turn = await me.until(lambda m: my_turn(m, 0), timeout=60)
            running = live_table(server, timed).clock
            assert (running.seat, running.version) == (0, turn["version"]) and running.handle is not None
            handle = running.handle
            reply = await me.reply_to(await me.act(turn["view"]["legal_actions"][0]))
            assert reply["type"] == "state" and reply["version"] == turn["version"] + 1
            assert handle.cancelled() and running.handle is None                 # stopped by the move
            await me.until(lambda m: my_turn(m, 0), timeout=60)
        for m in me.inbox:
            if m["type"] == "state" and m["view"] is not None and m["status"] == "playing":
                to_act = m["view"]["current_player"]
                if to_act is not None and 0 <= to_act < 4 and m["view"]["legal_actions"]:
                    assert (m["clock"] is not None) == (to_act == 0), m["clock"]
        await lobby.close()

    run(scenario())


def test_a_move_while_the_clock_bot_thinks_wins(start_server: Callable[..., ServerThread],
                                                monkeypatch: pytest.MonkeyPatch,
                                                caplog: pytest.LogCaptureFixture) -> None:
    """The clock runs out and its bot starts thinking; Ann's own card arrives
    before it is done: hers is stored, the bot's choice is dropped quietly (not
    tried and refused by the engine) — one move."""
    entered, release = threading.Event(), threading.Event()

    class SlowBot:
        """The first clock bot waits, once it has chosen, until Ann's move is in."""

        def __init__(self, bot: Any) -> None:
            self.bot, self.name = bot, bot.name

        def choose(self, view: Any) -> Any:
            action = self.bot.choose(view)
            if not entered.is_set():
                entered.set()
                release.wait(30)
            return action

    real = tables_module.clock_bot
    monkeypatch.setattr(tables_module, "clock_bot", lambda *a, **k: SlowBot(real(*a, **k)))
    server = start_server()

    async def scenario() -> None:
        lobby = Lobby(server.url)
        tid, ann = await lobby.with_bots(rules="classic", seed=9, move_seconds=1)
        async with Client(server.ws_url, tid, ann) as me:
            await lobby.start(tid, ann)
            turn = await me.until(lambda m: my_turn(m, 0), timeout=60)
            assert await asyncio.to_thread(entered.wait, 30)                     # the clock's bot is thinking
            mine = turn["view"]["legal_actions"][-1]
            reply = await me.reply_to(await me.act(mine, turn["version"]))
            assert reply["type"] == "state" and "timeout" not in reply, reply
            release.set()
            # The driver is busy with the clock's move until it is dropped: a later version means it was.
            await me.until(lambda m: m["type"] == "state" and m["version"] > reply["version"], timeout=60)
        events = stored_events(server, tid)
        mine_event = events[reply["version"] - 1]
        assert (mine_event.payload, mine_event.actor) == (mine, "human")
        assert all(ev.actor != CLOCK_ACTOR for ev in events[:reply["version"]])
        if not my_turn(reply, 0):   # (were it Ann's lead again, a clock move there would be a new decision's)
            assert events[reply["version"]].actor != CLOCK_ACTOR
        assert not [r for r in caplog.records if r.name == "goat.server" and r.levelno >= logging.ERROR]
        await lobby.close()

    run(scenario())


def test_the_clock_and_a_dropped_players_bot_stand_in_for_the_person() -> None:
    """Both play for someone who is away (``stand_in``): a bot that knows the
    setting then takes no gamble in their name (Spades: no blind bid); the
    table's own bots do not get it, and bots without the setting are made as before."""
    from goat.server.settings import Settings
    from goat.server.tables import clock_bot, table_bot

    from tests.spades.conftest import deal_state
    from tests.spades.test_heuristic_bot import STRONG

    settings = Settings()
    far_behind = deal_state(STRONG, score_total=[0, 250])     # the bot's own bid here: blind nil
    view = far_behind.view(far_behind.current_player())
    assert table_bot("heuristic", "1", settings, "spades").choose(view).bid == "blind-nil"
    assert table_bot("heuristic", "1", settings, "spades", stand_in=True).choose(view).bid != "blind-nil"
    assert clock_bot("spades", "1", settings).choose(view).bid != "blind-nil"
    for game in ("kozel", "yugioh"):                              # bots without the setting: made as before
        assert clock_bot(game, "1", settings).choose is not None


# ---------------------------------------------------------------- secrecy of the clock's move
class StubTable:
    """Just what :func:`~goat.server.viewfilter.render` reads of a table in play
    whose last change was the clock's ``action`` for ``seat``: no server, no timing."""

    def __init__(self, game: str, state: Any, seat: int, action: str) -> None:
        self.id, self.version, self.status, self.state = "t", 9, "playing", state
        self.row = type("Row", (), {"game": game})()
        self.timeout = {"seat": seat, "version": 9, "action": action}

    def public(self) -> dict[str, Any]:
        return {"status": self.status}

    def clock_json(self) -> None:
        return None

    def standing_since(self, seat: int | None) -> int:
        return self.version

    def timeout_text(self) -> dict[str, Any]:
        return self.timeout


def clock_move_as_seen(game: str, state: Any, seat: int, action: Any) -> dict[int | None, str]:
    """Apply ``action`` (seat ``seat``'s, made by the clock) and return the
    ``timeout.action`` every recipient's state message says."""
    state.apply_action(action)
    table = StubTable(game, state, seat, str(action))
    recipients = [*range(len(state.view(None).get("hand_sizes") or [0, 1])), None]
    return {r: json.loads(render(table, r, "state"))["timeout"]["action"]  # type: ignore[arg-type]
            for r in recipients}


def test_a_trump_card_the_clock_passes_face_down_is_not_named_to_the_others() -> None:
    """Street: the shown trump card (TS, in every view) is drawn into seat 3's
    hand, and the clock passes it face down for seat 3. The others' history says
    ``3 pass ?``; the timeout said ``3 pass TS`` (the scrub kept every card their
    views name anywhere): who holds the trump card, and that it was thrown away."""
    state = get_game("kozel").new_state("street", first_dealer=0)
    rng = random.Random(0)
    while True:   # seed 0 reaches it (found by search); the loop fails loudly if the engine changes
        assert not state.is_terminal()
        if state.is_chance_node():
            state.apply_chance(state.sample_chance(rng))
            continue
        seat, trump = state.current_player(), state.view(None)["trump_card"]
        passes = [a for a in state.legal_actions()
                  if a.seat == seat and a.verb == "pass" and trump in [str(c) for c in a.cards]]
        if passes:
            break
        state.apply_action(rng.choice(state.legal_actions()))
    shown = clock_move_as_seen("kozel", state, seat, passes[0])
    assert shown[seat] == str(passes[0])
    for other in (0, 1, 2, None):
        assert trump not in shown[other] and shown[other].startswith(f"{seat} pass ?"), (other, shown[other])


def test_a_card_the_clock_sets_face_down_is_not_named_to_the_other_duelist() -> None:
    """Goat Control against itself: seat 1's clock Sets a card face down. Seat 0's
    own deck list names every card of the pool in play, so the scrub let the name
    through: the timeout said ``1 set Mirror Force`` where the log says ``1 set ?spell``."""
    from goat.games.yugioh.state import public_action

    state = get_game("yugioh").new_state("goat")
    rng = random.Random(3)
    while True:
        assert not state.is_terminal()
        if state.is_chance_node():
            state.apply_chance(state.sample_chance(rng))
            continue
        sets = [a for a in state.legal_actions() if str(a).startswith("1 set ")]
        if sets:
            break
        state.apply_action(rng.choice(state.legal_actions()))
    action = sets[0]
    name = str(action).split(" ", 2)[2]
    assert name in json.dumps(state.view(0)["decklists"])   # why the scrub could not hide it
    public = public_action(state.duel, state.pending(), str(action))
    shown = clock_move_as_seen("yugioh", state, 1, action)
    assert shown[1] == str(action)
    assert shown[0] == shown[None] == public and name not in public
