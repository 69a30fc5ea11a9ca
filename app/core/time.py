"""The server's clock, injected: what reads the time or waits for it asks a ``Clock``.

``SystemClock`` is the real one (the wall clock for timestamps, the event loop for waits).
``ManualClock`` stands still until a test moves it: ``advance(ms)`` from the test's thread, or
``await advance_async(ms)`` on the loop, runs every call that fell due, in time order, each on
the loop that scheduled it, and lets what it woke run before going on. Tests make time pass
this way instead of sleeping (docs/decisions/injected-clock.md).
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import math
import threading
import time
import weakref
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Protocol

log = logging.getLogger(__name__)


class Handle(Protocol):
    """A scheduled call, cancellable until it runs."""

    def cancel(self) -> None: ...


class Clock(Protocol):
    def now_ms(self) -> int:
        """Milliseconds since the epoch: what timestamps and game clocks are made of."""
        ...

    def monotonic(self) -> float:
        """Seconds that only go forward (for durations: rate limits, ages)."""
        ...

    async def sleep(self, seconds: float) -> None: ...

    def call_at(self, when_ms: int, callback: Callable[[], object]) -> Handle:
        """Call ``callback`` on the running event loop once ``now_ms()`` reaches ``when_ms``
        (at once if it already has)."""
        ...


# How long a stopping service waits for its periodic work's turn in progress to end.
TURN_GRACE_SECONDS = 10.0


async def every(
    clock: Clock,
    seconds: float,
    work: Callable[[], Awaitable[object]],
    logger: logging.Logger,
    failed: str,
) -> None:
    """Run ``work`` every ``seconds`` of ``clock`` until cancelled (a sweep, a heartbeat, a
    pairing round). A failure is logged to ``logger`` as ``failed``; the next turn tries again.

    Cancelled during a turn (its service stopping), the turn ends first, within
    ``TURN_GRACE_SECONDS``: cut short inside a query, a turn could not even give its
    connection back (SQLAlchemy logs a traceback and drops the connection; aiosqlite's thread
    answers a loop that may be closed by then)."""
    while True:
        await clock.sleep(seconds)
        turn = asyncio.ensure_future(work())
        try:
            await asyncio.shield(turn)
        except asyncio.CancelledError:
            # Stuck past the grace (a database out of reach): cut, a stop must not hang on it.
            grace = clock.call_at(clock.now_ms() + round(TURN_GRACE_SECONDS * 1000), turn.cancel)
            await asyncio.wait([turn])
            grace.cancel()
            if not turn.cancelled() and turn.exception() is not None:
                logger.error(failed, exc_info=turn.exception())
            raise
        except Exception:
            logger.exception(failed)


class SystemClock:
    """The real time: the wall clock, and the running loop's timers."""

    def now_ms(self) -> int:
        return time.time_ns() // 1_000_000

    def monotonic(self) -> float:
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)

    def call_at(self, when_ms: int, callback: Callable[[], object]) -> Handle:
        delay = max(0.0, (when_ms - self.now_ms()) / 1000)
        return asyncio.get_running_loop().call_later(delay, callback)


# How long (real seconds) advancing a ManualClock waits for what one call woke to be done or
# asleep again: a safety net, reached only by a task that waits for something else forever.
SETTLE_SECONDS = 10.0


@dataclass(order=True)
class _Timer:
    when: int
    seq: int
    callback: Callable[[], object] = field(compare=False)
    loop: asyncio.AbstractEventLoop = field(compare=False)
    cancelled: bool = field(default=False, compare=False)

    def cancel(self) -> None:
        self.cancelled = True


class ManualClock:
    """A clock for tests: it moves only when told to (``advance``), and runs what fell due."""

    def __init__(self, start_ms: int = 1_800_000_000_000) -> None:
        self._now = start_ms
        self._timers: list[_Timer] = []
        self._seq = itertools.count()
        self._lock = threading.Lock()  # timers are added on a loop, taken on the test's thread
        # The tasks waiting in sleep(), and per loop an event set whenever one starts to.
        self._asleep: weakref.WeakKeyDictionary[asyncio.Task[object], _Timer] = (
            weakref.WeakKeyDictionary()
        )
        self._slept: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Event] = (
            weakref.WeakKeyDictionary()
        )

    def now_ms(self) -> int:
        return self._now

    def monotonic(self) -> float:
        return self._now / 1000

    def call_at(self, when_ms: int, callback: Callable[[], object]) -> Handle:
        return self._schedule(when_ms, callback)

    def _schedule(self, when_ms: int, callback: Callable[[], object]) -> _Timer:
        timer = _Timer(int(when_ms), next(self._seq), callback, asyncio.get_running_loop())
        with self._lock:
            heapq.heappush(self._timers, timer)
        return timer

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        loop = asyncio.get_running_loop()
        woken: asyncio.Future[None] = loop.create_future()

        def wake() -> None:
            if not woken.done():
                woken.set_result(None)

        timer = self._schedule(self._now + math.ceil(seconds * 1000), wake)
        task = asyncio.current_task()
        if task is not None:
            self._asleep[task] = timer
            self._slept.setdefault(loop, asyncio.Event()).set()
        try:
            await woken
        finally:
            timer.cancel()
            if task is not None:
                self._asleep.pop(task, None)

    @property
    def pending(self) -> int:
        """How many calls are scheduled and not cancelled (for tests of the clock's users)."""
        with self._lock:
            return sum(1 for t in self._timers if not t.cancelled)

    def _next_due(self, until: int) -> _Timer | None:
        with self._lock:
            while self._timers and self._timers[0].when <= until:
                timer = heapq.heappop(self._timers)
                if not timer.cancelled and not timer.loop.is_closed():
                    return timer
        return None

    def jump(self, ms: float) -> None:
        """Move the time on by ``ms`` without running what fell due, as a loop too busy to run
        its timers would: for tests of what happens before a late timer fires, and for tests
        where only the time read matters (a rate limit's window), which would otherwise run
        the app's periodic work for every second passed."""
        self._now += math.ceil(ms)

    def advance(self, ms: float) -> None:
        """Move the time on by ``ms``, from a thread with no running loop (a test's thread
        while a TestClient runs the app's loop in another): each call that falls due runs on
        its own loop, in order, and this returns once what it started is done or waits on
        this clock again."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            pass
        else:
            raise RuntimeError("ManualClock.advance inside a running loop: await advance_async")
        target = self._now + math.ceil(ms)
        while (timer := self._next_due(target)) is not None:
            self._now = max(self._now, timer.when)
            future = asyncio.run_coroutine_threadsafe(self._fire(timer), timer.loop)
            future.result(timeout=SETTLE_SECONDS * 2)
        self._now = max(self._now, target)

    async def advance_async(self, ms: float) -> None:
        """``advance`` on a running loop: calls due on this loop run here, others on theirs."""
        here = asyncio.get_running_loop()
        target = self._now + math.ceil(ms)
        while (timer := self._next_due(target)) is not None:
            self._now = max(self._now, timer.when)
            if timer.loop is here:
                await self._fire(timer)
            else:
                done = asyncio.run_coroutine_threadsafe(self._fire(timer), timer.loop)
                await asyncio.wrap_future(done)
        self._now = max(self._now, target)
        for _ in range(5):
            await asyncio.sleep(0)

    async def _fire(self, timer: _Timer) -> None:
        """Run one due call on its loop, then wait for what it woke or started."""
        if timer.cancelled:
            return
        loop = asyncio.get_running_loop()
        before = asyncio.all_tasks(loop)
        woken = [task for task, t in list(self._asleep.items()) if t is timer]
        try:
            timer.callback()
        except Exception:
            log.exception("a call scheduled on the manual clock failed")
        await asyncio.sleep(0)
        started = asyncio.all_tasks(loop) - before - {asyncio.current_task()}
        await self._settle(loop, timer, [*woken, *started])

    def _busy(self, task: asyncio.Task[object], fired: _Timer) -> bool:
        """Neither done nor waiting on this clock again (on another timer than ``fired``)."""
        return not task.done() and self._asleep.get(task, fired) is fired

    async def _settle(
        self, loop: asyncio.AbstractEventLoop, fired: _Timer, tasks: Iterable[asyncio.Task[object]]
    ) -> None:
        watched = list(tasks)
        deadline = loop.time() + SETTLE_SECONDS
        while True:
            busy = [t for t in watched if self._busy(t, fired)]
            left = deadline - loop.time()
            if not busy or left <= 0:
                return
            slept = self._slept.setdefault(loop, asyncio.Event())
            slept.clear()
            waiter = loop.create_task(slept.wait())
            try:
                await asyncio.wait([*busy, waiter], timeout=left, return_when="FIRST_COMPLETED")
            finally:
                waiter.cancel()
