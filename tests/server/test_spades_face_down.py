"""Spades blind nil is kept blind by the server, not by the page: over a real
WebSocket a face-down seat is sent no card of its hand, it may look out of
turn, a blind bid after its look is refused in one line, and a restart keeps
who has looked (a look is an event of the table's log)."""

from __future__ import annotations

from collections.abc import Callable

from goat.server.runner import ServerThread
from goat.server.viewfilter import cards_in

from .conftest import Client, Lobby, run

EVERYONE = {"blind_nil_behind": 0, "double_nil": True}   # every seat may bid blind at 0 : 0


def test_a_face_down_seat_is_sent_no_card_and_its_look_survives_a_restart(
        start_server: Callable[..., ServerThread]) -> None:
    server = start_server()
    state: dict[str, object] = {}

    async def first_half() -> None:
        lobby = Lobby(server.url)
        tid, tokens = await lobby.humans(4, game="spades", rules="standard", options=EVERYONE, seed="face-down")
        clients = [await Client(server.ws_url, tid, t).__aenter__() for t in tokens]
        await lobby.start(tid, tokens[0])
        dealt = [await c.until(lambda m: m["type"] == "state" and bool(m["view"]) and m["view"]["phase"] == "bid") for c in clients]
        to_bid = dealt[0]["view"]["current_player"]
        other = (to_bid + 1) % 4
        for seat, message in enumerate(dealt):
            view = message["view"]
            assert view["hand"] == [] and view["hand_face_down"] is True and view["hand_sizes"][seat] == 13
            expected = ["blind-nil", "double-nil", "look"] if seat == to_bid else ["look"]
            assert view["legal_actions"] == [f"{seat} bid {b}" for b in expected]
        # Out of turn: the seat after the bidder looks; its cards come only now.
        looker = clients[other]
        reply = await looker.reply_to(await looker.act(f"{other} bid look"))
        assert reply["type"] == "state" and reply["view"]["current_player"] == to_bid
        hand = set(reply["view"]["hand"])
        assert len(hand) == 13 and not reply["view"]["hand_face_down"]
        before = looker.raw[:looker.inbox.index(reply)]
        assert before and not any(cards_in(raw) & hand for raw in before)
        # In turn: the bidder looks, then a blind bid is refused in one line.
        bidder = clients[to_bid]
        await bidder.at_version(reply["version"])
        looked = await bidder.reply_to(await bidder.act(f"{to_bid} bid look"))
        assert looked["type"] == "state" and len(looked["view"]["hand"]) == 13
        refused = await bidder.reply_to(await bidder.act(f"{to_bid} bid blind-nil"))
        assert refused["type"] == "error" and refused["code"] == "illegal-action", refused
        assert refused["message"] == f"seat {to_bid} has looked at their cards: a blind nil is bid before looking"
        state.update(tid=tid, tokens=tokens, looked={to_bid, other}, version=bidder.state["version"])
        for c in clients:
            await c.__aexit__()
        await lobby.close()

    run(first_half())
    server = start_server.restart(server)   # type: ignore[attr-defined]

    async def after_restart() -> None:
        tid, tokens, looked = state["tid"], state["tokens"], state["looked"]
        for seat, token in enumerate(tokens):   # type: ignore[arg-type]
            async with Client(server.ws_url, tid, token) as client:   # type: ignore[arg-type]
                view = (await client.until(lambda m: m["type"] == "state" and bool(m["view"])))["view"]
                assert client.state["version"] == state["version"]
                assert view["hand_face_down"] is (seat not in looked)   # type: ignore[operator]
                assert len(view["hand"]) == (13 if seat in looked else 0)   # type: ignore[operator]

    run(after_restart())


def test_a_look_by_another_seat_leaves_a_move_sent_before_it_standing(
        start_server: Callable[..., ServerThread]) -> None:
    """A look decides nothing (a glance): a move sent on the version before it is
    still a move on what holds. Before, every look was a new version that made
    such a move "stale-version" — at the start of every deal where the bots turn
    their cards over, the person's first bid or look was refused ("the table
    moved on; try again"; the browser test caught it). A move sent before a
    deciding event (a bid) is still stale."""
    server = start_server()

    async def scenario() -> None:
        lobby = Lobby(server.url)
        tid, tokens = await lobby.humans(4, game="spades", rules="standard", options=EVERYONE, seed="face-down")
        clients = [await Client(server.ws_url, tid, t).__aenter__() for t in tokens]
        await lobby.start(tid, tokens[0])
        dealt = [await c.until(lambda m: m["type"] == "state" and bool(m["view"]) and m["view"]["phase"] == "bid")
                 for c in clients]
        version = dealt[0]["version"]
        to_bid = dealt[0]["view"]["current_player"]
        others = [(to_bid + k) % 4 for k in (1, 2, 3)]
        for seat in others[:2]:    # two looks out of turn: two new versions
            looker = clients[seat]
            assert (await looker.reply_to(await looker.act(f"{seat} bid look", version=version)))["type"] == "state"
        bidder = clients[to_bid]
        looked = await bidder.reply_to(await bidder.act(f"{to_bid} bid look", version=version))
        assert looked["type"] == "state" and looked["version"] == version + 3, looked
        bid = await bidder.reply_to(await bidder.act(f"{to_bid} bid 3", version=version))
        assert bid["type"] == "state", bid
        last = clients[others[2]]                      # its view from before the bid: stale now
        stale = await last.reply_to(await last.act(f"{others[2]} bid look", version=version))
        assert stale["type"] == "error" and stale["code"] == "stale-version", stale
        for c in clients:
            await c.__aexit__()
        await lobby.close()

    run(scenario())
