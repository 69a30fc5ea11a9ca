"""What an app instance runs: its services started in order and stopped in the reverse
order, whatever happens. A start that fails stops everything started before it, and the
failure reaches the caller: a server that could not start leaves nothing running."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack
from types import TracebackType
from typing import Protocol, Self


class Startable(Protocol):
    async def start(self) -> None: ...

    async def stop(self) -> None: ...


class Running:
    def __init__(self) -> None:
        self._stack = AsyncExitStack()

    def on_stop(self, stop: Callable[[], Awaitable[object]]) -> None:
        """Awaited when the instance stops, before whatever was registered earlier."""
        self._stack.push_async_callback(stop)

    async def start(self, service: Startable) -> None:
        """Starts ``service`` now; it is stopped when the instance stops."""
        await service.start()
        self.on_stop(service.stop)

    async def __aenter__(self) -> Self:
        await self._stack.__aenter__()
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> bool | None:
        return await self._stack.__aexit__(kind, error, trace)
