"""The analysis board's engine work, off the event loop (docs/decisions/analysis-workers.md):
each ``POST /api/analysis/moves`` is replayed, and each ``GET /api/cloud-eval`` searched
(docs/decisions/engine-evaluation.md), and its answer encoded as JSON, in a worker process,
so the instance's sockets and moves are never held up by it. The evaluations' answers are
kept per position (the last ``cache`` asked, LRU) and given again without a worker.

Bounded twice: per visitor (a token bucket per identity and a larger one per address: 429
``ratelimit`` with the key ``analysis``), and in total (at most ``workers + queue`` replays,
and as many evaluations, running or waiting on this instance: past it, 503 ``analysis.busy``
at once, never a queue that grows).
"""

from __future__ import annotations

import asyncio
import math
import multiprocessing
import signal
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import orjson

from app.analysis import evaluate, positions
from app.core.errors import ServiceError
from app.limits.api import too_many
from app.limits.ratelimit import RateLimiter

# The workers are forked from a server process that imported the engine once (and nothing of
# the app's threads or sockets): a new worker is ready in milliseconds.
CONTEXT = multiprocessing.get_context("forkserver")
CONTEXT.set_forkserver_preload(["engine", "app.analysis.positions", "app.analysis.evaluate"])
BUSY_RETRY_SECONDS = 1

# What a worker sends back: ("ok", the answer's JSON) or ("error", code, message, status,
# index): a ServiceError is rebuilt here (its extra fields do not survive pickling).
Answer = tuple[Any, ...]


def answer(variant: str, rules: Mapping[str, str], fen: str | None, moves: Sequence[str]) -> Answer:
    """The line's answer, as ``POST /api/analysis/moves`` sends it (run in a worker)."""
    try:
        found = positions.line(variant, rules, fen, moves)
    except ServiceError as exc:
        return ("error", exc.code, exc.message, exc.status, exc.extra.get("index"))
    body = {"variant": found.variant, "rules": found.rules, "positions": found.positions}
    return ("ok", orjson.dumps(body))


def evaluation(
    variant: str,
    rules: Mapping[str, str],
    fen: str,
    multipv: int,
    budget: evaluate.Budget,
    tables: Path | None,
) -> Answer:
    """The position's evaluation, as ``GET /api/cloud-eval`` sends it (run in a worker)."""
    try:
        found = evaluate.evaluate(
            variant, rules, fen, multipv=multipv, budget=budget, tables=tables
        )
    except ServiceError as exc:
        return ("error", exc.code, exc.message, exc.status, None)
    return ("ok", orjson.dumps(evaluate.cloud_eval(found)))


def busy() -> ServiceError:
    return ServiceError("analysis.busy", "the analysis board is busy; try again in a moment", 503)


class Lane:
    """One kind of work's processes and its bound: at most ``workers`` running and ``queue``
    waiting; past that, 503 ``analysis.busy`` at once."""

    def __init__(self, workers: int, queue: int) -> None:
        self.workers = workers
        self.capacity = workers + queue  # requests running or waiting, at most
        self.running = 0
        self._pool: ProcessPoolExecutor | None = None

    async def run(self, work: Callable[..., Answer], *args: Any) -> bytes:
        """``work(*args)``'s JSON, made in a worker; its refusal as a ServiceError."""
        if self.running >= self.capacity:
            raise busy()
        self.running += 1
        try:
            future = asyncio.wrap_future(self._executor().submit(work, *args))
        except BaseException:
            self.running -= 1
            raise
        # A place is given back when the worker is done, not when the client leaves: a
        # request whose client left still holds its worker until then.
        future.add_done_callback(self._finished)
        found = await asyncio.shield(future)
        if found[0] == "ok":
            body: bytes = found[1]
            return body
        _kind, code, message, status, index = found
        if index is None:
            raise ServiceError(code, message, status)
        raise ServiceError(code, message, status, index=index)

    def _finished(self, _future: asyncio.Future[Answer]) -> None:
        self.running -= 1

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # Made at the first request: an instance nobody asks starts no process.
            self._pool = ProcessPoolExecutor(
                self.workers, mp_context=CONTEXT, initializer=ignore_interrupts
            )
        return self._pool

    def stop(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


def ignore_interrupts() -> None:
    """A worker's start: Ctrl+C in the server's terminal reaches the whole process group, and
    the server, not its workers, answers it (it shuts its pools down on the way out)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class AnalysisWorkers:
    """The instance's analysis workers and their limits (``start``/``stop`` with the app):
    the replays' lane and the evaluations' (a search takes its whole budget, and a replay
    must not wait behind one), one rate limit for both."""

    def __init__(
        self,
        clock: Callable[[], float],
        *,
        workers: int,
        queue: int,
        rate_per_s: float,
        burst: int,
        ip_factor: float,
        eval_workers: int = 1,
        eval_queue: int = 4,
        budget: evaluate.Budget | None = None,
        cache: int = 0,
        tables: Path | None = None,
    ) -> None:
        """``clock``: the app's monotonic seconds, for the rate limits; ``budget``: one
        evaluation's; ``cache``: how many evaluations are kept; ``tables``: the Dōbutsu
        tablebase's folder."""
        self.replays = Lane(workers, queue)
        self.evaluations = Lane(eval_workers, eval_queue)
        self.budget = budget or evaluate.Budget()
        self.cache_size = cache
        self.tables = tables
        self._cache: OrderedDict[tuple[Any, ...], bytes] = OrderedDict()
        self.caller = RateLimiter(rate_per_s, burst, clock)
        self.address = RateLimiter(
            rate_per_s * ip_factor, max(1, math.ceil(burst * ip_factor)), clock
        )

    def admit(self, visitor: str, address: str) -> None:
        """Count one request of this visitor from this address, or refuse it (429)."""
        for limiter, key, whose in (
            (self.address, address, "address"),
            (self.caller, visitor, "visitor"),
        ):
            try:
                limiter.hit(key)
            except ServiceError as exc:
                info = exc.extra.get("ratelimit")
                seconds = info.get("seconds", 1) if isinstance(info, dict) else 1
                raise too_many(
                    "analysis", f"too many analysis requests from this {whose}", seconds
                ) from None

    async def line_json(
        self, variant: str, rules: Mapping[str, str], fen: str | None, moves: Sequence[str]
    ) -> bytes:
        """The answer's JSON, made in a worker; a refusal of the engine's as its
        ServiceError; 503 ``analysis.busy`` when every worker and queue place is taken."""
        return await self.replays.run(answer, variant, dict(rules), fen, list(moves))

    async def evaluation_json(
        self, variant: str, rules: Mapping[str, str], fen: str, multipv: int
    ) -> bytes:
        """The position's evaluation as ``GET /api/cloud-eval``'s JSON: the kept one, else
        searched in an evaluation worker within the budget (and then kept); refusals as for
        ``line_json``."""
        key = (variant, tuple(sorted(rules.items())), fen, multipv)
        found = self._cache.get(key)
        if found is not None:
            self._cache.move_to_end(key)
            return found
        args = (variant, dict(rules), fen, multipv, self.budget, self.tables)
        body = await self.evaluations.run(evaluation, *args)
        if self.cache_size:
            self._cache[key] = body
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
        return body

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        self.replays.stop()
        self.evaluations.stop()
