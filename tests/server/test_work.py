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
    slow = Held("SLOW", calls)

    def later() -> str:
        calls.append("LATER")
        return "LATER"

    async def scenario() -> tuple[str, object]:
        work = KeptWork(keep=4)
        still_wanted = True
        running = asyncio.create_task(work.get("slow", slow, refuse))
        await slow.started()
        queued = asyncio.create_task(work.get("later", later, refuse, wanted=lambda: still_wanted))
        await asyncio.sleep(0)            # it waits behind the slow job...
        still_wanted = False              # ...while its question goes away
        slow.released.set()
        return await running, await queued

    assert asyncio.run(scenario()) == ("SLOW", None)
    assert calls == ["SLOW"]


class Held:
    """A job that runs in its worker thread until ``released`` is set, noting its
    answer in ``calls`` when it starts."""

    def __init__(self, answer: str, calls: list[str] | None = None) -> None:
        self.answer = answer
        self.calls = [] if calls is None else calls
        self.running = threading.Event()
        self.released = threading.Event()

    def __call__(self) -> str:
        self.calls.append(self.answer)
        self.running.set()
        self.released.wait(10)
        return self.answer

    async def started(self) -> None:
        await asyncio.to_thread(self.running.wait, 10)


def test_asking_again_for_a_waiting_job_waits_for_it_and_takes_no_place_in_the_queue() -> None:
    """Two tabs of one player, or a page asking twice, wait for one job."""
    calls: list[str] = []

    def job() -> str:
        calls.append("k")
        return "K"

    async def scenario() -> list[object]:
        work = KeptWork(keep=4, waiting=2)
        held = Held("FIRST")
        first = asyncio.create_task(work.get("first", held, refuse))
        await held.started()
        askers = [asyncio.create_task(work.get("k", job, refuse)) for _ in range(50)]
        await asyncio.sleep(0)
        assert len(work.jobs) == 2           # the running one and "k", once
        held.released.set()
        return [await first, *[await a for a in askers]]

    assert asyncio.run(scenario()) == ["FIRST"] + ["K"] * 50
    assert calls == ["k"]


def test_beyond_the_queues_bound_a_new_job_is_refused_at_once_until_it_drains() -> None:
    """A flood of different jobs (hints at many tables, reviews of every finished game)
    would make every later answer wait minutes and keep a request open for each."""
    async def scenario() -> None:
        work = KeptWork(keep=16, waiting=2)
        held = Held("FIRST")
        first = asyncio.create_task(work.get("first", held, refuse))
        await held.started()
        queued = [asyncio.create_task(work.get(k, lambda: "ok", refuse)) for k in ("a", "b")]
        await asyncio.sleep(0)
        with pytest.raises(LobbyError) as refused:
            await work.get("c", lambda: "ok", refuse)
        assert refused.value.status == 503 and refused.value.say == "busy"
        assert "\n" not in str(refused.value) and "busy" in str(refused.value)
        again = asyncio.create_task(work.get("a", lambda: "other", refuse))   # waits for "a"'s job...
        await asyncio.sleep(0)
        held.released.set()
        assert [await q for q in queued] == ["ok", "ok"] and await again == "ok" and await first == "FIRST"
        assert await work.get("c", lambda: "C", refuse) == "C"   # ...and, drained, takes new ones again

    asyncio.run(scenario())


def test_an_asker_who_goes_away_does_not_cancel_the_job_others_wait_for() -> None:
    """Before, the job ran in its asker's request: a client that closed the page
    cancelled it and the next asker computed it all again."""
    job = Held("K")

    async def scenario() -> object:
        work = KeptWork(keep=4)
        gone = asyncio.create_task(work.get("k", job, refuse))
        await job.started()
        stays = asyncio.create_task(work.get("k", job, refuse))
        await asyncio.sleep(0)
        gone.cancel()
        await asyncio.sleep(0.01)
        job.released.set()
        return await stays

    assert asyncio.run(scenario()) == "K" and job.calls == ["K"]


def test_closing_cancels_the_waiting_jobs_and_nothing_is_left_pending() -> None:
    async def scenario() -> None:
        work = KeptWork(keep=4)
        held = Held("FIRST")
        first = asyncio.create_task(work.get("first", held, refuse))
        await held.started()
        waiting = asyncio.create_task(work.get("w", lambda: "never", refuse))
        await asyncio.sleep(0)
        closing = asyncio.create_task(work.close())
        await asyncio.sleep(0.01)
        held.released.set()
        await closing
        assert work.jobs == {}
        for cut in (first, waiting):
            with pytest.raises(asyncio.CancelledError):
                await cut
        assert "w" not in work.done

    asyncio.run(scenario())
