"""uvicorn's HTTP/1.1 protocol (httptools) with bounds on the request head.

uvicorn has none of its own with httptools: a request line and headers of any size are
accumulated in memory, any number of headers is accepted, and nothing times out before the
first response — a connection that sends nothing, or trickles its headers a byte at a time,
is held for ever (slowloris). This subclass adds, per connection:

- a size limit on the head (request line and headers): ``431 request.head_too_large``;
- a limit on the number of headers: ``431 request.too_many_headers``;
- a deadline to finish sending a head, counted from the connection's opening or the first
  byte of a request: ``408 request.timeout`` (a connection that sent nothing is just
  closed, as an idle keep-alive connection is);
- a deadline to finish sending a body, counted from the end of its head: ``408
  request.timeout`` too (a head sent at once, then a body a byte now and then, held its
  connection for ever just as a slow head did).

Each refusal (and the answer to a request that is not HTTP at all, ``400
request.malformed``) is JSON as the app's errors are, with the app's security headers
(app/http/headers.py), and closes the connection; a refused head never reaches the app, and the app
reading a body too slow to come gets a disconnect. A response being sent, however long (an
NDJSON stream), is not a request being read: no deadline runs then. Settings:
``KODAMA_MAX_HEADER_BYTES``, ``KODAMA_MAX_HEADERS``, ``KODAMA_HEADER_TIMEOUT_SECONDS``,
``KODAMA_BODY_TIMEOUT_SECONDS``.

httptools, not h11: parsing a request costs ~1.5 µs instead of ~27 µs (measured with a bot's
move request), and h11's one setting (``h11_max_incomplete_event_size``) bounds only the
size, answers it with a bare 400, and has no head deadline either — a subclass was needed
whichever parser ran.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any, ClassVar

import httptools
from uvicorn.config import Config
from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol
from uvicorn.server import ServerState

from app.core.config import Settings
from app.http.headers import refusal_headers

SECURITY_HEADERS = refusal_headers()


class _HeadRefused(Exception):
    """Stops the parser inside a callback once the head has been answered."""


class BoundedHttpProtocol(HttpToolsProtocol):
    max_head_bytes: ClassVar[int] = 16_384
    max_headers: ClassVar[int] = 100
    head_timeout: ClassVar[float] = 10.0
    body_timeout: ClassVar[float] = 10.0

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.reading_head = True  # from the opening: the first request's head is awaited
        self.head_bytes = 0  # received of the current head (and what came with it)
        # The one deadline running: the head's while a head is read, the body's while a
        # body is (they never overlap).
        self.deadline: asyncio.TimerHandle | None = None
        self.refused = False

    # ---- the connection ---------------------------------------------------------------------
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._start_deadline(self.head_timeout, self._head_too_slow)

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_deadline()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        # uvicorn's own, with the head counted and the refusals below.
        if self.refused:
            return  # answered and closing: nothing more is read
        if self.reading_head:
            self.head_bytes += len(data)
        self._unset_keepalive_if_required()
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserUpgrade:
            if self._should_upgrade():
                self.handle_websocket_upgrade()
            else:
                self._unsupported_upgrade_warning()
            return
        except httptools.HttpParserError:
            if not self.refused:
                self.logger.warning("Invalid HTTP request received.")
                self._refuse(400, "request.malformed", "the request is not valid HTTP/1.1")
            return
        if self.reading_head and self.head_bytes > self.max_head_bytes:
            self._refuse(431, "request.head_too_large", self._too_large_sentence())
        elif not self.reading_head and not self.refused:
            # A head is complete and its body is not (on_message_complete would have set
            # reading_head): the body has body_timeout to arrive whole.
            self._start_deadline(self.body_timeout, self._body_too_slow)

    # ---- parser callbacks -------------------------------------------------------------------
    def on_message_begin(self) -> None:
        # The first byte of a request: its head has head_timeout to arrive whole (a
        # keep-alive connection's next request too, once it starts).
        self._start_deadline(self.head_timeout, self._head_too_slow)
        super().on_message_begin()

    def on_message_complete(self) -> None:
        # What arrives next is the next request's head (a response may still be on its way).
        self.reading_head = True
        self.head_bytes = 0
        self._stop_deadline()  # the body's, if it came in more than one read
        super().on_message_complete()

    def on_headers_complete(self) -> None:
        self.reading_head = False
        self._stop_deadline()
        # The head may have arrived with more in one read: measure the head itself too.
        size = len(self.url) + sum(len(name) + len(value) + 4 for name, value in self.headers)
        if size > self.max_head_bytes:
            self._refuse(431, "request.head_too_large", self._too_large_sentence())
            raise _HeadRefused
        if len(self.headers) > self.max_headers:
            sentence = f"a request has at most {self.max_headers} headers"
            self._refuse(431, "request.too_many_headers", sentence)
            raise _HeadRefused
        super().on_headers_complete()

    # ---- refusals ---------------------------------------------------------------------------
    def _too_large_sentence(self) -> str:
        return f"the request line and headers are larger than {self.max_head_bytes} bytes"

    def _start_deadline(self, seconds: float, expired: Callable[[], None]) -> None:
        if self.deadline is None:
            self.deadline = self.loop.call_later(seconds, expired)

    def _stop_deadline(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def _head_too_slow(self) -> None:
        self.deadline = None
        if self.transport.is_closing():
            return
        if self.head_bytes == 0:
            self.refused = True
            self.transport.close()  # nothing was asked: an idle connection, closed
            return
        sentence = f"the request head did not arrive within {self.head_timeout:g} s"
        self._refuse(408, "request.timeout", sentence)

    def _body_too_slow(self) -> None:
        self.deadline = None
        if self.transport.is_closing():
            return
        if self.cycle is not None and self.cycle.response_started:
            # Answered already (a route that did not wait for the body): no second answer.
            self.refused = True
            self.transport.close()
            return
        # The app is waiting for the rest of the body: the close makes its wait end with a
        # disconnect (it answers nothing more).
        sentence = f"the request body did not arrive within {self.body_timeout:g} s"
        self._refuse(408, "request.timeout", sentence)

    def _refuse(self, status: int, code: str, sentence: str) -> None:
        self.refused = True
        self._stop_deadline()
        if self.transport.is_closing():
            return
        body = json.dumps({"error": sentence, "code": code}).encode()
        head = [STATUS_LINE[status]]
        head += [
            name + b": " + value + b"\r\n" for name, value in self.server_state.default_headers
        ]
        head += [name + b": " + value + b"\r\n" for name, value in SECURITY_HEADERS]
        head += [
            b"content-type: application/json\r\n",
            b"content-length: %d\r\n" % len(body),
            b"connection: close\r\n\r\n",
        ]
        self.transport.write(b"".join(head) + body)
        self.transport.close()


def bounded_protocol(settings: Settings) -> type[BoundedHttpProtocol]:
    """The protocol class with these settings' limits (uvicorn makes one per connection)."""
    return type(
        "BoundedHttpProtocol",
        (BoundedHttpProtocol,),
        {
            "max_head_bytes": settings.max_header_bytes,
            "max_headers": settings.max_headers,
            "head_timeout": settings.header_timeout_seconds,
            "body_timeout": settings.body_timeout_seconds,
        },
    )
