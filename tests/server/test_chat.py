"""Table chat (``goat.server.chat``): cleaning, limits and the rate per seat
without a server; then over the WebSocket — a player's message reaches every
other connection with seat and name, spectators read but cannot write, every
refusal is one line and broadcasts nothing, chat never changes the table's
version or its stored events, a (re)connecting client gets the recent
messages, and a restart forgets the chat but not the game; the table setting
``chat`` (``on`` / ``lobby`` / ``off``) opens and closes it by phase."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from goat.server.chat import (
    CLOSED_ALWAYS,
    CLOSED_WHILE_PLAYED,
    KEEP,
    TEXT_LIMIT,
    ChatRoom,
    ChatSettingError,
    check_setting,
    clean_text,
    closed_reason,
)
from goat.server.messages import ChatMessage, ErrorCode, ProtocolError, parse_client_message
from goat.server.runner import ServerThread
from goat.server.storage import Storage

from .conftest import Client, Lobby, run, server_settings

QUIET = 0.3   # seconds a client listens to show that nothing more arrives


# ------------------------------------------------------------ no server
def test_chat_message_shape_parses() -> None:
    message = parse_client_message('{"type":"chat","text":"ещё партию?"}', 4096)
    assert isinstance(message, ChatMessage) and message.text == "ещё партию?"
    for bad in ('{"type":"chat"}', '{"type":"chat","text":5}', '{"type":"chat","text":"hi","seat":1}'):
        with pytest.raises(ProtocolError) as info:
            parse_client_message(bad, 4096)
        assert info.value.code == ErrorCode.MALFORMED and "\n" not in str(info.value)


@pytest.mark.parametrize("text, shown", [
    ("  хорошая игра  ", "хорошая игра"),
    ("line one\nline two\ttab", "line one line two tab"),
    ("bell\x07 and nul\x00 and del\x7f", "bell and nul and del"),
    ("\u202eevil\u202c text", "evil text"),             # no right-to-left override
    ("👨\u200d👩\u200d👧 ok", "👨\u200d👩\u200d👧 ok"),  # emoji joiners stay
    ("<img src=x onerror=alert(1)>", "<img src=x onerror=alert(1)>"),   # text, shown as text by the page
])
def test_clean_text(text: str, shown: str) -> None:
    assert clean_text(text) == shown


def refusal(room: ChatRoom, seat: int | None, text: str) -> tuple[ErrorCode, str]:
    before = room.recent()
    with pytest.raises(ProtocolError) as info:
        room.accept(seat, "Аня", text)
    assert room.recent() == before
    assert "\n" not in str(info.value)
    return info.value.code, str(info.value)


def test_refusals_keep_nothing() -> None:
    room = ChatRoom(stamp=lambda: "2026-01-01T00:00:00+00:00")
    assert refusal(room, None, "hi") == (ErrorCode.NOT_SEATED,
                                         "spectators read the chat but cannot write; take a seat to talk")
    assert refusal(room, 0, " \n\t\x07 ") == (ErrorCode.MALFORMED, "a chat message needs some text")
    assert refusal(room, 0, "я" * (TEXT_LIMIT + 1)) == (
        ErrorCode.MALFORMED, f"a chat message has at most {TEXT_LIMIT} characters (this one has {TEXT_LIMIT + 1})")
    # The limit counts the cleaned text: spaces and a line break around it do not count.
    assert room.accept(0, "Аня", "  " + "я" * TEXT_LIMIT + "\n")["text"] == "я" * TEXT_LIMIT
    assert room.recent()[0] == {"seat": 0, "name": "Аня", "text": "я" * TEXT_LIMIT,
                                "at": "2026-01-01T00:00:00+00:00", "n": 1}


def test_rate_limit_is_per_seat_over_a_sliding_window() -> None:
    now = [100.0]
    room = ChatRoom(limit=5, window=10.0, clock=lambda: now[0])
    for i in range(5):
        room.accept(0, "Аня", f"m{i}")
        now[0] += 1.0                                          # m0 at 100 s ... m4 at 104 s
    code, message = refusal(room, 0, "one too many")
    assert code == ErrorCode.RATE_LIMITED and message == \
        "too many chat messages: at most 5 in 10 s a seat; this one was not sent"
    assert room.accept(1, "Боря", "another seat has its own five")["n"] == 6
    now[0] = 109.99
    assert refusal(room, 0, "still within m0's ten seconds")[0] == ErrorCode.RATE_LIMITED
    now[0] = 110.0                                             # m0 is ten seconds old: one more
    assert room.accept(0, "Аня", "again")["n"] == 7
    assert refusal(room, 0, "but only one")[0] == ErrorCode.RATE_LIMITED


def test_only_the_last_messages_are_kept() -> None:
    room = ChatRoom(limit=10_000)
    for i in range(KEEP + 7):
        room.accept(i % 4, f"P{i % 4}", f"m{i}")
    kept = room.recent()
    assert len(kept) == KEEP
    assert [m["text"] for m in kept] == [f"m{i}" for i in range(7, KEEP + 7)]
    assert [m["n"] for m in kept] == list(range(8, KEEP + 8))


# ------------------------------------------------------- over the socket
async def quiet(client: Client, kind: str) -> list[dict[str, Any]]:
    """The messages of ``kind`` ``client`` receives in the next moment (after
    a ``ping`` round trip, so anything sent before it has arrived)."""
    await client.send({"type": "ping"})
    got = []
    while True:
        message = await client.recv()
        if message["type"] == kind:
            got.append(message)
        if message["type"] == "pong":
            return got


async def said(client: Client, text: str) -> dict[str, Any]:
    """Send ``text`` as chat and return the server's answer to the sender: its
    own message back (``chat``), or the refusal (``error``)."""
    await client.send({"type": "chat", "text": text})
    return await client.until(lambda m: m["type"] in ("chat", "error"))


def test_a_message_reaches_every_connection(start_server: Callable[..., ServerThread]) -> None:
    server = start_server()

    async def scenario() -> None:
        lobby = Lobby(server.url)
        tid, tokens = await lobby.humans(players=4)
        ann, *others = [await Client(server.ws_url, tid, token).__aenter__() for token in tokens]
        watcher = await Client(server.ws_url, tid).__aenter__()
        for c in [ann, *others, watcher]:
            log = await c.until(lambda m: m["type"] == "chat-log")
            assert log["messages"] == []
        mine = await said(ann, "  хорошая игра\n")                        # in the lobby
        assert mine["type"] == "chat"
        assert {k: mine[k] for k in ("seat", "name", "text", "n", "table", "version")} == {
            "seat": 0, "name": "P0", "text": "хорошая игра", "n": 1, "table": tid, "version": 0}
        assert datetime.fromisoformat(mine["at"]).utcoffset() is not None
        for c in [*others, watcher]:
            assert await c.until(lambda m: m["type"] == "chat") == mine
        await lobby.start(tid, tokens[0])
        for c in [ann, *others, watcher]:
            await c.at_version(1)
        reply = await said(others[1], "<img src=x onerror=alert(1)>")      # during play, seat 2
        assert (reply["seat"], reply["name"], reply["text"], reply["n"]) == (2, "P2", "<img src=x onerror=alert(1)>", 2)
        assert reply["version"] == 1
        for c in [ann, others[0], others[2], watcher]:
            assert await c.until(lambda m: m["type"] == "chat") == reply
        for c in [ann, *others, watcher]:
            await c.__aexit__()
        await lobby.close()

    run(scenario())


def test_refused_chat_is_one_line_and_broadcasts_nothing(start_server: Callable[..., ServerThread]) -> None:
    server = start_server(chat_limit=3, chat_window=3600.0)

    async def scenario() -> None:
        lobby = Lobby(server.url)
        tid, tokens = await lobby.humans(players=2, rules="full-hand")
        ann = await Client(server.ws_url, tid, tokens[0]).__aenter__()
        bo = await Client(server.ws_url, tid, tokens[1]).__aenter__()
        watcher = await Client(server.ws_url, tid).__aenter__()

        async def refused(client: Client, payload: Any, code: str) -> str:
            await client.send(payload)
            reply = await client.until(lambda m: m["type"] in ("error", "chat"))
            assert reply["type"] == "error" and reply["code"] == code, reply
            assert "\n" not in reply["message"]
            return reply["message"]

        assert await refused(watcher, {"type": "chat", "text": "hi"}, "not-seated") == \
            "spectators read the chat but cannot write; take a seat to talk"
        assert await refused(ann, {"type": "chat", "text": " \n "}, "malformed") == "a chat message needs some text"
        assert await refused(ann, {"type": "chat", "text": "x" * 301}, "malformed") == \
            "a chat message has at most 300 characters (this one has 301)"
        assert "bad chat message: text" in await refused(ann, {"type": "chat", "text": 7}, "malformed")
        for i in range(3):
            assert (await said(ann, f"m{i}"))["type"] == "chat"
        assert "at most 3 in 3600 s" in await refused(ann, {"type": "chat", "text": "m3"}, "rate-limited")
        assert (await said(bo, "my own limit"))["type"] == "chat"   # per seat, not per table
        # Bo and the spectator heard exactly the four accepted messages, nothing refused.
        for c in (bo, watcher):
            heard = [m["text"] for m in c.inbox if m["type"] == "chat"] + [m["text"] for m in await quiet(c, "chat")]
            assert heard == ["m0", "m1", "m2", "my own limit"]
        assert [m for m in bo.inbox if m["type"] == "error"] == []
        for c in (ann, bo, watcher):
            await c.__aexit__()
        await lobby.close()

    run(scenario())


def test_chat_changes_neither_the_version_nor_the_stored_events(start_server: Callable[..., ServerThread],
                                                                tmp_path: Path) -> None:
    """A table whose seats are all people does not move by itself: whatever
    chat does while it is in play, after the end, the table stays at its
    version and its stored events stay as they were."""
    server = start_server(chat_limit=100)
    store = Storage(server_settings(tmp_path / "data").url)

    async def scenario() -> None:
        lobby = Lobby(server.url)
        tid, tokens = await lobby.humans(players=4, seed=3)
        clients = [await Client(server.ws_url, tid, token).__aenter__() for token in tokens]
        await lobby.start(tid, tokens[0])
        state = await clients[0].at_version(1)
        before = await clients[1].at_version(1)
        stored = store.load(tid)
        assert stored is not None and len(stored.events) == 1
        for i, c in enumerate(clients * 3):
            reply = await said(c, f"hello {i}")
            assert reply["type"] == "chat" and reply["version"] == 1
        info = (await lobby.http.get(f"/api/tables/{tid}")).json()
        assert info["version"] == 1
        assert store.load(tid).events == stored.events
        await clients[1].send({"type": "sync"})
        after = await clients[1].until(lambda m: m["type"] == "state")
        assert after["version"] == 1 and after["view"] == before["view"]
        assert state["view"]["history"] == after["view"]["history"] == []
        for c in clients:
            await c.__aexit__()
        await lobby.close()

    run(scenario())


def test_a_reconnecting_client_gets_the_recent_messages(start_server: Callable[..., ServerThread]) -> None:
    server = start_server(chat_limit=1000)

    async def scenario() -> None:
        lobby = Lobby(server.url)
        tid, tokens = await lobby.humans(players=2, rules="full-hand")
        async with Client(server.ws_url, tid, tokens[0]) as ann:
            for i in range(KEEP + 5):
                assert (await said(ann, f"m{i}"))["n"] == i + 1
        async with Client(server.ws_url, tid, tokens[0]) as again, Client(server.ws_url, tid) as watcher:
            for c in (again, watcher):
                log = await c.until(lambda m: m["type"] == "chat-log")
                assert [m["text"] for m in log["messages"]] == [f"m{i}" for i in range(5, KEEP + 5)]
                assert {(m["seat"], m["name"]) for m in log["messages"]} == {(0, "P0")}
        await lobby.close()

    run(scenario())


def test_a_restart_forgets_the_chat_but_not_the_table(tmp_path: Path) -> None:
    settings = server_settings(tmp_path / "data")

    async def talk(server: ServerThread) -> tuple[str, list[str]]:
        lobby = Lobby(server.url)
        tid, tokens = await lobby.humans(players=2, rules="full-hand")
        async with Client(server.ws_url, tid, tokens[0]) as ann:
            assert (await said(ann, "до встречи"))["type"] == "chat"
        await lobby.close()
        return tid, tokens

    async def look(server: ServerThread, tid: str, token: str) -> dict[str, Any]:
        async with Client(server.ws_url, tid, token) as ann:
            assert ann.welcome["seat"] == 0
            return await ann.until(lambda m: m["type"] == "chat-log")

    with ServerThread(settings) as server:
        tid, tokens = run(talk(server))
        assert run(look(server, tid, tokens[0]))["messages"][0]["text"] == "до встречи"
    with ServerThread(settings) as server:
        assert run(look(server, tid, tokens[0]))["messages"] == []


def test_chat_after_the_end_and_json_is_plain(start_server: Callable[..., ServerThread]) -> None:
    """A finished table still has its chat ("ещё партию?"); the message is
    plain JSON text (no HTML escaping: the page shows it as text)."""
    from .conftest import play_to_the_end

    server = start_server()

    async def scenario() -> None:
        lobby = Lobby(server.url)
        created = await lobby.create(name="Аня", rules="classic", seed=5, options={"match_target": 1})
        tid, token = created["id"], created["token"]
        for seat in (1, 2, 3):
            await lobby.bot(tid, seat, token)
        async with Client(server.ws_url, tid, token) as ann:
            await lobby.start(tid, token)
            final = await play_to_the_end(ann, 0)
            assert final["status"] == "finished"
            await ann.send({"type": "chat", "text": "ещё партию? <b>&amp;</b>"})
            reply = await ann.until(lambda m: m["type"] == "chat")
            raw = ann.raw[ann.inbox.index(reply)]
            assert '"text":"ещё партию? <b>&amp;</b>"' in raw
            assert json.loads(raw)["version"] == final["version"]
        await lobby.close()

    asyncio.run(scenario())


# ------------------------------------------------- the table setting "chat"
def test_closed_reason_is_the_one_place_that_decides() -> None:
    assert [closed_reason("on", s) for s in ("lobby", "playing", "finished")] == [None, None, None]
    assert [closed_reason("lobby", s) for s in ("lobby", "playing", "finished")] == [None, CLOSED_WHILE_PLAYED, None]
    assert [closed_reason("off", s) for s in ("lobby", "playing", "finished")] == [CLOSED_ALWAYS] * 3
    assert [check_setting(v) for v in ("on", "lobby", "off")] == ["on", "lobby", "off"]
    for bad in ("ON", "", True, None, 1):
        with pytest.raises(ChatSettingError) as info:
            check_setting(bad)
        assert "chat must be one of 'on', 'lobby', 'off'" in str(info.value) and "\n" not in str(info.value)


@pytest.mark.parametrize(("setting", "open_in"), [("on", {"lobby", "playing", "finished"}),
                                                   ("lobby", {"lobby", "finished"}),
                                                   ("off", set())])
def test_the_chat_setting_opens_and_closes_the_chat(start_server: Callable[..., ServerThread], tmp_path: Path,
                                                    setting: str, open_in: set[str]) -> None:
    """Ann with three random bots at a one-penalty-point match, and a spectator.
    In each phase — the lobby, her turn during play (the bots wait for her, so
    nothing else moves the table), after the end — her message is accepted
    and heard by the spectator when the setting opens the chat then; else she
    gets the one-line ``chat-closed`` refusal, nobody hears anything, and the
    table's version and stored events stay as they were."""
    from .conftest import QUICK, my_turn, play_to_the_end

    server = start_server(chat_limit=100)
    store = Storage(server_settings(tmp_path / "data").url)
    closed_message = CLOSED_ALWAYS if setting == "off" else CLOSED_WHILE_PLAYED

    async def scenario() -> None:
        lobby = Lobby(server.url)
        tid, token = await lobby.with_bots(bot="random", rules="classic", seed=5, options=QUICK, chat=setting)
        assert (await lobby.http.get(f"/api/tables/{tid}")).json()["chat"] == setting
        async with Client(server.ws_url, tid, token) as ann, Client(server.ws_url, tid) as watcher:

            async def talk(phase: str, version: int) -> None:
                events = store.load(tid).events
                reply = await said(ann, f"in the {phase}")
                if phase in open_in:
                    assert reply["type"] == "chat" and reply["text"] == f"in the {phase}", reply
                    assert [m["text"] for m in await quiet(watcher, "chat")][-1:] == [f"in the {phase}"]
                    return
                assert (reply["type"], reply["code"], reply["message"]) == ("error", "chat-closed", closed_message)
                assert reply["version"] == version
                assert await quiet(watcher, "chat") == [] and await quiet(ann, "chat") == []
                assert [m for m in watcher.inbox if m["type"] == "error"] == []
                assert (await lobby.http.get(f"/api/tables/{tid}")).json()["version"] == version
                assert store.load(tid).events == events

            await talk("lobby", 0)
            await lobby.start(tid, token)
            await ann.send({"type": "sync"})
            turn = await ann.until(my_turn)
            assert turn["status"] == "playing" and turn["chat"] == setting
            await talk("playing", turn["version"])
            final = await play_to_the_end(ann, 0)
            assert final["status"] == "finished"
            await talk("finished", final["version"])
        await lobby.close()

    run(scenario())


def test_a_bad_chat_setting_is_refused_at_create(start_server: Callable[..., ServerThread]) -> None:
    server = start_server()

    async def scenario() -> None:
        lobby = Lobby(server.url)
        for bad in ("yes", "ON", True, None, 0):
            r = await lobby.http.post("/api/tables", json={"chat": bad})
            assert r.status_code == 422, (bad, r.text)
            assert r.json()["error"] == "chat: Input should be 'on', 'lobby' or 'off'"
        assert (await lobby.http.get("/api/tables")).json()["tables"] == []     # nothing was made
        await lobby.close()

    run(scenario())
