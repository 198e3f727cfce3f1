""""Open a record" (``POST /api/records/review/{deal}``): a record file sent as the
body is reviewed as a finished table's deal is (what ``goat analyze --json``
prints), checked first as ``goat replay --check`` checks it, each refusal one line
with its status, and nothing of it stored (no finished game, no standings)."""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from goat.cli.main import app
from goat.cli.play import terminal_seats, write_record
from goat.games.kozel import new_state
from goat.protocol import Action, play_randomly
from goat.server import review
from goat.server.review import RECORD_BYTES, Reviews
from goat.server.runner import ServerThread
from goat.server.tables import LobbyError

from .conftest import Lobby, one_line, run

#: A review solves every position of a deal: seconds, more on a loaded machine.
REVIEW_TIMEOUT = 180.0


def played_file(tmp_path: Path, name: str, rules: str = "classic", seed: int = 5, human: int = 2) -> Path:
    """A match of ``rules`` to one penalty point played through the engine (random
    legal moves), written as ``goat play --record`` writes it: the player "Ann" at
    seat ``human``, heuristic bots at the others."""
    state = new_state(rules, options={"match_target": 1})
    play_randomly(state, random.Random(seed))
    bots = [None if seat == human else "heuristic" for seat in range(state.num_players)]
    path = tmp_path / name
    write_record(path, state, terminal_seats(human, "Ann", bots))
    return path


def cli(*args: str) -> tuple[int, str]:
    """A ``goat`` command's exit code and what it printed (its one error line, or its output)."""
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.output.strip()


async def opened(lobby: Lobby, content: str | bytes, deal: int = 1, **params: Any) -> httpx.Response:
    return await lobby.http.post(f"/api/records/review/{deal}", content=content, params=params,
                                 headers={"Content-Type": "application/json"}, timeout=REVIEW_TIMEOUT)


async def nothing_stored(lobby: Lobby) -> tuple[Any, ...]:
    """What a stored game would change: the finished games, the standings, the open tables."""
    finished = (await lobby.http.get("/api/tables", params={"status": "finished"})).json()
    standings = (await lobby.http.get("/api/standings", params={"bots": "1"})).json()
    tables = (await lobby.http.get("/api/tables")).json()
    return finished, standings, tables


def test_a_played_record_is_reviewed_as_goat_analyze_and_stored_nowhere(
        start_server: Callable[..., ServerThread], tmp_path: Path) -> None:
    path = played_file(tmp_path, "game.json")
    text = path.read_text(encoding="utf-8")
    record = json.loads(text)
    deals = len(record["deals"])
    server = start_server()

    async def scenario() -> None:
        lobby = Lobby(server.url)
        before = await nothing_stored(lobby)
        for deal in sorted({1, deals}):
            r = await opened(lobby, text, deal)
            assert r.status_code == 200, r.text
            code, printed = cli("analyze", str(path), "--deal", str(deal), "--json")
            assert code == 0, printed
            assert r.json() == json.loads(printed)        # goat analyze --json's answer, position and all
            assert r.json()["deal"] == deal and r.json()["deals"] == deals
        again = await opened(lobby, text.encode("utf-8-sig"), 1)   # a byte order mark: the same record
        assert again.status_code == 200 and again.json()["deal"] == 1
        assert await nothing_stored(lobby) == before
        assert before[0] == {"tables": []} and before[2] == {"tables": []}
        await lobby.close()

    run(scenario())


def test_each_refusal_is_one_line_with_its_status(start_server: Callable[..., ServerThread], tmp_path: Path) -> None:
    """A malformed record and one that does not replay are refused in ``goat replay
    --check``'s words (the file named "the file"), before any solving; a deal the
    record does not have, and a ruleset the solver does not take, in the table
    review's words; a file too large, a form, bytes that are not UTF-8."""
    good = played_file(tmp_path, "good.json")
    record = json.loads(good.read_text(encoding="utf-8"))
    deals = len(record["deals"])
    actions = record["deals"][0]["actions"]
    first_play = next(i for i, a in enumerate(actions) if Action.parse(a).verb == "play")
    illegal = json.loads(json.dumps(record))
    illegal["deals"][0]["actions"][first_play], illegal["deals"][0]["actions"][first_play + 1] = \
        actions[first_play + 1], actions[first_play]             # two seats' cards swapped: out of turn
    differs = json.loads(json.dumps(record))
    differs["result"]["penalty_total"] = [5, 5]
    files = {name: tmp_path / f"{name}.json" for name in ("malformed", "illegal", "differs")}
    files["malformed"].write_text('{"game": "kozel", "rules": "classic",', encoding="utf-8")
    files["illegal"].write_text(json.dumps(illegal), encoding="utf-8")
    files["differs"].write_text(json.dumps(differs), encoding="utf-8")
    street = played_file(tmp_path, "street.json", rules="street", seed=2)
    server = start_server()

    async def scenario() -> None:
        lobby = Lobby(server.url)
        before = await nothing_stored(lobby)
        for name, path in files.items():
            code, said = cli("replay", "--check", str(path))
            assert code != 0, name
            r = await opened(lobby, path.read_text(encoding="utf-8"))
            line = one_line(r, 422)
            assert line == said.replace(str(path), "the file"), name
        for deal in (0, deals + 1):
            line = one_line(await opened(lobby, good.read_text(), deal), 404)
            assert line == f"the record has {deals} deal{'s' if deals != 1 else ''}; there is no deal {deal}"
        code, said = cli("analyze", str(street))
        assert code == 2
        line = one_line(await opened(lobby, street.read_text()), 404, "the solver handles single-card Kozel")
        assert f"error: {line}" == said                     # goat analyze's line, the table review's 404
        big = one_line(await opened(lobby, " " * (RECORD_BYTES + 1)), 413, f"{RECORD_BYTES // 1024} KiB")
        assert (await opened(lobby, " " * (RECORD_BYTES + 1))).json()["say"] == "recordTooLarge", big
        one_line(await lobby.http.post("/api/records/review/1", files={"f": ("g.json", good.read_bytes())}),
                 415, "not a form")
        assert one_line(await opened(lobby, b"\xff\xfe{}"), 422) == "the file: not UTF-8 text"
        one_line(await opened(lobby, ""), 422, "empty")
        # a file over the server's limit for any body (1 MiB): still the record's own sentence and limit
        huge = await opened(lobby, b"{" + b" " * (2 * 1024 * 1024))
        assert one_line(huge, 413) == f"a record file has at most {RECORD_BYTES // 1024} KiB"
        assert huge.json()["say"] == "recordTooLarge"
        one_line(await opened(lobby, good.read_text(), record=2), 404, "the file has 1 record; there is no record 2")
        assert await nothing_stored(lobby) == before
        await lobby.close()

    run(scenario())


def test_a_jsonl_file_is_read_as_goat_analyze_record_k(start_server: Callable[..., ServerThread],
                                                       tmp_path: Path) -> None:
    """Several records (a .jsonl file): ``record`` picks one, as ``--record K``; a
    problem in it is named ``record K: ``, as ``goat replay --check`` names it."""
    first = played_file(tmp_path, "a.json", seed=5).read_text(encoding="utf-8")
    second = played_file(tmp_path, "b.json", seed=8, human=0).read_text(encoding="utf-8")
    both = tmp_path / "both.jsonl"
    both.write_text(first + second, encoding="utf-8")
    broken = json.loads(second)
    broken["first_dealer"] = 9
    bad = tmp_path / "bad.jsonl"
    bad.write_text(first + json.dumps(broken) + "\n", encoding="utf-8")
    server = start_server()

    async def scenario() -> None:
        lobby = Lobby(server.url)
        r = await opened(lobby, both.read_text(), 1, record=2)
        assert r.status_code == 200, r.text
        code, printed = cli("analyze", str(both), "--record", "2", "--json")
        assert code == 0 and r.json() == json.loads(printed)
        one_line(await opened(lobby, both.read_text(), record=3), 404, "the file has 2 records; there is no record 3")
        code, said = cli("replay", "--check", str(bad))
        line = one_line(await opened(lobby, bad.read_text(), record=2), 422, "record 2: ")
        assert line == said
        # as goat analyze --record 1: that record is checked, not the others
        assert (await opened(lobby, bad.read_text(), record=1)).status_code == 200
        await lobby.close()

    run(scenario())


def test_a_sent_record_waits_in_the_reviews_queue_and_is_refused_busy_beyond_it(tmp_path: Path) -> None:
    """The same queue as the tables' reviews: beyond its bound, the one-line 503 ``busy``;
    a record that is not well-formed is told before it would wait at all."""
    text = played_file(tmp_path, "game.json").read_text(encoding="utf-8")

    async def scenario() -> None:
        reviews = Reviews()
        reviews.work.waiting = 0
        never = asyncio.get_running_loop().create_future()
        reviews.work.jobs = {"one": never, "two": never}   # a job running and one waiting: the queue is full
        with pytest.raises(LobbyError) as refused:
            await reviews.opened(text, 1)
        assert refused.value.status == 503 and refused.value.say == "busy"
        with pytest.raises(LobbyError) as malformed:
            await reviews.opened("[]", 1)
        assert malformed.value.status == 422 and str(malformed.value) == "a record must be a JSON object, not a list"
        never.cancel()

    run(scenario())


def test_sent_records_are_checked_one_at_a_time_and_refused_busy_beyond_the_bound(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A 512 KiB record replays in most of a CPU second (0.8 s measured for a 480 KB
    Spades match of 400 deals), holding the interpreter: a burst of such requests,
    each checked in a worker thread of its own, would fill the worker threads the
    bots' moves wait for. So the checks run one at a time, and beyond the queue's
    bound a new one is refused at once with the one-line 503 ``busy``."""
    text = played_file(tmp_path, "game.json").read_text(encoding="utf-8")
    running = 0
    most = 0
    guard = threading.Lock()
    real = review.opened_record

    def slow_check(sent: str, index: int = 1) -> dict[str, Any]:
        nonlocal running, most
        with guard:
            running += 1
            most = max(most, running)
        time.sleep(0.05)      # a long file's replay
        with guard:
            running -= 1
        return real(sent, index)

    monkeypatch.setattr(review, "opened_record", slow_check)

    async def scenario() -> None:
        reviews = Reviews()
        files = [text + " " * n for n in range(6)]      # different files: no check shared
        # deal 99: refused once checked (404), before any solving
        answers = await asyncio.gather(*(reviews.opened(f, 99) for f in files), return_exceptions=True)
        assert all(isinstance(a, LobbyError) and a.status == 404 for a in answers), answers
        assert most == 1
        reviews.checks.waiting = 1
        answers = await asyncio.gather(*(reviews.opened(f, 99) for f in files), return_exceptions=True)
        statuses = sorted(a.status for a in answers if isinstance(a, LobbyError))
        assert statuses == [404, 404, 503, 503, 503, 503], answers   # one running, one waiting
        assert next(a for a in answers if a.status == 503).say == "busy"

    run(scenario())
