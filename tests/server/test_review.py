"""Deal reviews of a finished game (``GET /api/tables/{id}/review/{deal}``): the
double-dummy analysis ``goat analyze`` gives, only once the game is over (it
shows every hand), a one-line 404 for a deal or a ruleset it cannot give, and
the same answer when asked again."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from goat.analysis import analyze_record
from goat.fast.solver import warm_up
from goat.fast.spades_dd import dds_available
from goat.protocol import Action
from goat.server.runner import ServerThread

from .conftest import Client, Lobby, play_to_the_end, run

#: A review solves every position of a deal: seconds, more on a loaded machine.
REVIEW_TIMEOUT = 180.0


@pytest.fixture(autouse=True)
def compiled_solver() -> None:
    """Compile (or load) the solver kernel before the server is asked: on a
    fresh clone that takes half a minute, which no request timeout should
    include (the server runs in this process and shares the compiled code)."""
    warm_up()


async def review_of(lobby: Lobby, tid: str, deal: int) -> Any:
    return await lobby.http.get(f"/api/tables/{tid}/review/{deal}", timeout=REVIEW_TIMEOUT)


async def finished_match(lobby: Lobby, server: ServerThread, rules: str, seed: int,
                         players: int = 4) -> tuple[str, dict[str, Any]]:
    """A match of ``rules`` to one penalty point (quick) played to its end: Ann
    at seat 0 plays her first legal action, heuristic bots the rest. Checks on
    the way that a game in play has no review."""
    tid, token = await lobby.with_bots(rules=rules, seed=seed, players=players,
                                       options={"match_target": 1})
    async with Client(server.ws_url, tid, token) as me:
        await lobby.start(tid, token)
        early = await lobby.http.get(f"/api/tables/{tid}/review/1")
        assert early.status_code == 409 and "not over" in early.json()["error"]
        final = await play_to_the_end(me, 0)
    assert final["status"] == "finished"
    return tid, await lobby.record(tid)


def test_a_finished_classic_match_is_reviewed_deal_by_deal(start_server: Callable[..., ServerThread]) -> None:
    server = start_server()

    async def scenario() -> None:
        lobby = Lobby(server.url)
        tid, record = await finished_match(lobby, server, "classic", seed=5)
        deals = len(record["deals"])
        for deal in range(1, deals + 1):
            r = await review_of(lobby, tid, deal)
            assert r.status_code == 200, r.text
            review = r.json()
            assert review == analyze_record(record, deal).to_json()     # what `goat analyze` computes
            assert review["deal"] == deal and review["deals"] == deals and review["rules"] == "classic"
            actions = record["deals"][deal - 1]["actions"]
            plays = [i for i, a in enumerate(actions) if Action.parse(a).verb == "play"]
            assert [m["index"] for m in review["moves"] if m["action"].split()[1] == "play"] == plays
            assert all(actions[m["index"]] == m["action"] for m in review["moves"])
            for m in review["moves"]:
                assert m["cost"] == m["best_value"] - m["value"] >= 0
                assert (m["action"] in m["best"]) == (m["cost"] == 0)
            for side in review["summary"]:
                mine = [m for m in review["moves"] if m["side"] == side["side"] and m["cost"]]
                assert side["mistakes"] == len(mine)
        again = await review_of(lobby, tid, 1)
        assert again.json() == (await review_of(lobby, tid, 1)).json()
        for deal in (0, deals + 1):
            missing = await review_of(lobby, tid, deal)
            assert missing.status_code == 404
            assert missing.json()["error"] == f"the record has {deals} deal{'s' if deals != 1 else ''}; " \
                                              f"there is no deal {deal}"
        assert (await lobby.http.get("/api/tables/nope/review/1")).status_code == 404
        await lobby.close()

    run(scenario())


def test_a_street_match_has_no_review_and_says_why(start_server: Callable[..., ServerThread]) -> None:
    server = start_server()

    async def scenario() -> None:
        lobby = Lobby(server.url)
        tid, _ = await finished_match(lobby, server, "street", seed=2)
        r = await review_of(lobby, tid, 1)
        assert r.status_code == 404
        assert r.json()["error"].startswith("the solver handles single-card Kozel")
        await lobby.close()

    run(scenario())


@pytest.mark.parametrize("players", [3, 2])
def test_an_individual_full_hand_match_is_reviewed(start_server: Callable[..., ServerThread],
                                                   players: int) -> None:
    """Full hand with 3 or 2 players, each for themselves: every deal has a
    review, each card valued for the seat that played it (the side is the seat,
    one summary line per player), as `goat analyze` computes it."""
    server = start_server()

    async def scenario() -> None:
        lobby = Lobby(server.url)
        tid, record = await finished_match(lobby, server, "full-hand", seed=3, players=players)
        for deal in range(1, len(record["deals"]) + 1):
            r = await review_of(lobby, tid, deal)
            assert r.status_code == 200, r.text
            review = r.json()
            assert review == analyze_record(record, deal).to_json()
            assert review["moves"] and review["skipped"] == []
            assert all(m["side"] == m["seat"] for m in review["moves"])
            assert [s["side"] for s in review["summary"]] == list(range(players))
        await lobby.close()

    run(scenario())


@pytest.mark.skipif(not dds_available(), reason="needs endplay (DDS)")
def test_a_finished_spades_match_is_reviewed_in_tricks(start_server: Callable[..., ServerThread]) -> None:
    """Spades deals are reviewed by DDS: the cards valued in tricks, as `goat
    analyze` computes them; the bidding (and any card played while a nil is
    alive) is listed as not analysed."""
    server = start_server()

    async def scenario() -> None:
        lobby = Lobby(server.url)
        tid, token = await lobby.with_bots(game="spades", rules="partnership-fourteen", seed=3,
                                           options={"max_deals": 1})
        async with Client(server.ws_url, tid, token) as me:
            await lobby.start(tid, token)
            final = await play_to_the_end(me, 0)
        assert final["status"] == "finished"
        record = await lobby.record(tid)
        r = await review_of(lobby, tid, 1)
        assert r.status_code == 200, r.text
        review = r.json()
        assert review == analyze_record(record, 1).to_json() and review["game"] == "spades"
        plays = [a for a in record["deals"][0]["actions"] if " play " in a]
        assert [m["action"] for m in review["moves"]] == plays     # no nil in this preset: every card
        assert all(0 <= m["value"] <= 13 and m["result"]["kind"] in ("made", "set") for m in review["moves"])
        assert review["moves"][-1]["result"]["score"] == review["result"]["score"]   # the engine's own score
        await lobby.close()

    run(scenario())

