"""uvicorn's server, made to end the NDJSON streams as soon as it shuts down.

uvicorn stops accepting connections on SIGINT/SIGTERM, then waits for the open ones to finish
(WebSockets are closed with 1012) and cancels what is left after ``timeout_graceful_shutdown``.
A streamed response never finishes by itself: without this, every bot's event stream would
hold the shutdown up for the whole grace and then die cancelled, with a traceback each.
"""

from __future__ import annotations

import socket

import uvicorn

from app.botapi.streams import end_streams


class Server(uvicorn.Server):
    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        end_streams()
        await super().shutdown(sockets)
