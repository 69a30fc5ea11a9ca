"""The injected clock (app/core/time.py): the manual clock runs what falls due, in order, and
lets what it woke finish before the test goes on; the system clock is the real time."""

from __future__ import annotations

import asyncio
import functools
import threading
import time
from collections.abc import Iterator

import pytest

from app.core.time import ManualClock, SystemClock


def test_due_calls_run_in_time_order_each_at_its_own_time():
    clock = ManualClock(start_ms=1_000)
    seen: list[tuple[str, int]] = []

    async def main() -> None:
        def note(name: str) -> None:
            seen.append((name, clock.now_ms()))

        for name, when in (("c", 1_300), ("a", 1_100), ("b", 1_200), ("late", 2_000)):
            clock.call_at(when, functools.partial(note, name))
        clock.call_at(1_150, lambda: seen.append(("cancelled", 0))).cancel()
        await clock.advance_async(299)
        assert seen == [("a", 1_100), ("b", 1_200)]
        await clock.advance_async(1)
        assert seen[-1] == ("c", 1_300)
        assert clock.now_ms() == 1_300
        assert clock.pending == 1  # "late"

    asyncio.run(main())


def test_a_sleeper_wakes_when_its_time_comes_and_not_before():
    clock = ManualClock()

    async def main() -> None:
        woke: list[int] = []

        async def nap() -> None:
            await clock.sleep(1.5)
            woke.append(clock.now_ms())

        task = asyncio.get_running_loop().create_task(nap())
        await asyncio.sleep(0)
        start = clock.now_ms()
        await clock.advance_async(1_499)
        assert woke == [] and not task.done()
        await clock.advance_async(1)
        assert woke == [start + 1_500] and task.done()

    asyncio.run(main())


def test_advancing_waits_for_the_work_a_due_call_started():
    clock = ManualClock()

    async def main() -> None:
        done: list[str] = []

        async def work() -> None:
            for _ in range(20):  # several turns of the loop, as a database round trip takes
                await asyncio.sleep(0)
            done.append("expired")

        loop = asyncio.get_running_loop()
        clock.call_at(clock.now_ms() + 10, lambda: loop.create_task(work()))
        await clock.advance_async(10)
        assert done == ["expired"]

    asyncio.run(main())


def test_a_loop_that_sleeps_again_is_run_once_per_round():
    clock = ManualClock()

    async def main() -> None:
        rounds: list[int] = []

        async def sweeper() -> None:
            while True:
                await clock.sleep(30)
                rounds.append(clock.now_ms())

        task = asyncio.get_running_loop().create_task(sweeper())
        await asyncio.sleep(0)
        start = clock.now_ms()
        await clock.advance_async(95_000)
        assert rounds == [start + 30_000, start + 60_000, start + 90_000]
        clock.jump(3_600_000)  # an hour in one step: the round due meanwhile runs once, late
        await clock.advance_async(0)
        assert len(rounds) == 4
        task.cancel()

    asyncio.run(main())


@pytest.fixture
def loop_in_a_thread() -> Iterator[asyncio.AbstractEventLoop]:
    """An event loop running in another thread, as a TestClient runs the app's."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    yield loop
    loop.call_soon_threadsafe(loop.stop)
    thread.join(timeout=10)
    loop.close()


def test_advance_from_the_tests_thread_runs_calls_on_their_loop(loop_in_a_thread):
    clock = ManualClock()
    ran_on: list[threading.Thread] = []

    async def arm() -> None:
        clock.call_at(clock.now_ms() + 5_000, lambda: ran_on.append(threading.current_thread()))

    asyncio.run_coroutine_threadsafe(arm(), loop_in_a_thread).result(timeout=10)
    clock.advance(4_999)
    assert ran_on == []
    clock.advance(1)
    assert len(ran_on) == 1 and ran_on[0] is not threading.current_thread()


def test_advance_inside_a_running_loop_is_refused():
    clock = ManualClock()

    async def main() -> None:
        with pytest.raises(RuntimeError, match="advance_async"):
            clock.advance(1)

    asyncio.run(main())


def test_the_system_clock_runs_a_call_that_is_already_due():
    clock = SystemClock()

    async def main() -> bool:
        fired = asyncio.Event()
        clock.call_at(clock.now_ms() - 1_000, fired.set)
        async with asyncio.timeout(10):
            await fired.wait()
        return fired.is_set()

    assert asyncio.run(main())
    assert abs(clock.now_ms() / 1000 - time.time()) < 5
