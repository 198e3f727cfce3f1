"""KeptWork: one job at a time in a worker thread, answers kept by key (LRU)."""

from __future__ import annotations

import asyncio
import threading

import pytest

from goat.protocol import GoatError
from goat.server.tables import LobbyError
from goat.server.work import KeptWork


def refuse(exc: GoatError) -> LobbyError:
    return LobbyError(f"refused: {exc}", status=409)


def test_an_answer_is_computed_once_off_the_event_loop_and_the_oldest_dropped() -> None:
    calls: list[str] = []
    loop_threads: set[int] = set()

    def job(key: str):  # type: ignore[no-untyped-def]
        def compute() -> str:
            calls.append(key)
            assert threading.get_ident() not in loop_threads   # never on the event loop's thread
            return key.upper()
        return compute

    async def scenario() -> list[str]:
        loop_threads.add(threading.get_ident())
        work = KeptWork(keep=2)
        got = [await work.get(k, job(k), refuse) for k in ("a", "b", "a", "c", "a", "b")]
        return got

    assert asyncio.run(scenario()) == ["A", "B", "A", "C", "A", "B"]
    # "a" kept throughout (used last before "c" came); "b" dropped by "c" and computed again
    assert calls == ["a", "b", "c", "b"]


def test_one_job_at_a_time() -> None:
    running = 0
    most = 0
    guard = threading.Lock()

    def compute() -> int:
        nonlocal running, most
        with guard:
            running += 1
            most = max(most, running)
        threading.Event().wait(0.02)
        with guard:
            running -= 1
        return 1

    async def scenario() -> None:
        work = KeptWork(keep=10)
        await asyncio.gather(*(work.get(k, compute, refuse) for k in range(4)))

    asyncio.run(scenario())
    assert most == 1


def test_a_refusal_is_one_line_and_nothing_is_kept() -> None:
    attempts = 0

    def compute() -> str:
        nonlocal attempts
        attempts += 1
        if attempts == 1:
            raise GoatError("no solver for street")
        return "ok"

    async def scenario() -> str:
        work = KeptWork(keep=2)
        with pytest.raises(LobbyError) as refused:
            await work.get("k", compute, refuse)
        assert str(refused.value) == "refused: no solver for street" and refused.value.status == 409
        answer: str = await work.get("k", compute, refuse)
        return answer

    assert asyncio.run(scenario()) == "ok" and attempts == 2


def test_a_job_nobody_wants_by_its_turn_is_not_computed() -> None:
    """Jobs wait one behind another: one whose question is gone by its turn (a hint
    for a table that moved on meanwhile) costs nothing and delays nobody."""
    calls: list[str] = []
    first_running = threading.Event()
    first_may_end = threading.Event()

    def slow() -> str:
        calls.append("slow")
        first_running.set()
        first_may_end.wait(10)
        return "SLOW"

    def later() -> str:
        calls.append("later")
        return "LATER"

    async def scenario() -> tuple[str, object]:
        work = KeptWork(keep=4)
        still_wanted = True
        running = asyncio.create_task(work.get("slow", slow, refuse))
        await asyncio.to_thread(first_running.wait, 10)
        queued = asyncio.create_task(work.get("later", later, refuse, wanted=lambda: still_wanted))
        await asyncio.sleep(0)            # it waits behind the slow job...
        still_wanted = False              # ...while its question goes away
        first_may_end.set()
        return await running, await queued

    assert asyncio.run(scenario()) == ("SLOW", None)
    assert calls == ["slow"]
