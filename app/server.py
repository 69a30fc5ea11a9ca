"""uvicorn's server, made to end the NDJSON streams as soon as a shutdown is asked for.

uvicorn stops accepting connections on SIGINT/SIGTERM, then waits for the open ones to finish
(WebSockets are closed with 1012) and cancels what is left after ``timeout_graceful_shutdown``.
A streamed response never finishes by itself: without this, every bot's event stream would
hold the shutdown up for the whole grace and then die cancelled, with a traceback each.
"""

from __future__ import annotations

import asyncio
from types import FrameType
from typing import Any

import uvicorn

from .services.streams import end_streams


class Server(uvicorn.Server):
    _loop: asyncio.AbstractEventLoop | None = None

    async def serve(self, sockets: Any = None) -> None:
        self._loop = asyncio.get_running_loop()
        await super().serve(sockets)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        if self._loop is not None and not self.should_exit:
            # Called from the signal handler: hand the work to the event loop.
            self._loop.call_soon_threadsafe(end_streams)
        super().handle_exit(sig, frame)
