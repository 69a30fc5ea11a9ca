"""Channel pub/sub behind one small interface.

``LocalHub`` delivers within this process (one instance, the default). ``PostgresHub`` also
crosses instances sharing one PostgreSQL database through LISTEN/NOTIFY: every instance
listens on one notification channel, and a message published anywhere reaches the local
subscribers of every instance. Messages are values (app/realtime/messages.py says which),
delivered as they are within an instance, and through a ``Codec`` (JSON values and back)
across instances; a subscriber that falls behind (its queue is full) gets the ``RESYNC``
marker instead of the messages it missed, and resyncs.

``PostgresHub`` outlives its connections: when PostgreSQL restarts or drops them, it connects
again with backoff. Whatever may have been missed meanwhile becomes ``RESYNC``: every local
subscriber gets one once listening resumes, and the channels whose notifications could not
be sent get one on the other instances.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import AsyncIterator
from typing import Any, Protocol

from app.core.jsontext import json_text

log = logging.getLogger(__name__)


class Marker:
    """A message of the hub itself, not of any publisher."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"<{self.name}>"


RESYNC = Marker("resync")  # messages were lost: ask for the whole state again
CLOSING = Marker("closing")  # the server is shutting down: a stream reading this ends


class Codec(Protocol):
    """Messages as JSON values and back, to cross instances."""

    def encode(self, message: object) -> dict[str, Any]: ...

    def decode(self, value: dict[str, Any]) -> object: ...


QUEUE_SIZE = 256
NOTIFY_CHANNEL = "kodama_events"
NOTIFY_LIMIT = 7900  # PostgreSQL refuses payloads of 8000 bytes and more
RECONNECT_FIRST_S = 0.1  # then doubling, up to
RECONNECT_MAX_S = 5.0


class Subscription:
    """Messages of one channel for one subscriber, in order."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[object] = asyncio.Queue(QUEUE_SIZE)
        self.lagging = False

    def deliver(self, message: object) -> None:
        if self.lagging:
            return
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            # Too slow a reader: drop what it missed and tell it to ask for the full state.
            self.lagging = True
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queue.put_nowait(RESYNC)

    def interrupt(self) -> None:
        """The server is shutting down: the reader gets ``CLOSING`` next, then nothing."""
        self.lagging = True  # delivers nothing more
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queue.put_nowait(CLOSING)

    async def get(self) -> object:
        message = await self.queue.get()
        if message is RESYNC:
            self.lagging = False
        return message


class Receiver(Protocol):
    """Whatever takes a channel's messages as they are delivered: a ``Subscription`` (a
    queue, read by a task of its own), or a listener that acts at once without a task."""

    def deliver(self, message: object) -> None: ...


class LocalHub:
    """In-process channels."""

    shared = False  # whether other instances see what is published here

    def __init__(self) -> None:
        self._channels: dict[str, set[Receiver]] = {}

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        return None

    async def publish(self, channel: str, message: object) -> None:
        self.deliver(channel, message)

    def deliver(self, channel: str, message: object) -> None:
        for sub in tuple(self._channels.get(channel, ())):
            sub.deliver(message)

    @contextlib.asynccontextmanager
    async def subscribe(self, channel: str) -> AsyncIterator[Subscription]:
        sub = Subscription()
        self.listen(channel, sub)
        try:
            yield sub
        finally:
            self.unlisten(channel, sub)

    def listen(self, channel: str, receiver: Receiver) -> None:
        """``receiver.deliver`` gets the channel's messages (RESYNC and CLOSING markers
        included) until ``unlisten``: synchronously, from the publisher's or the
        notification's callback, so it must not block."""
        self._channels.setdefault(channel, set()).add(receiver)

    def listeners(self, channel: str) -> int:
        """How many receivers this instance has on ``channel``."""
        return len(self._channels.get(channel, ()))

    def unlisten(self, channel: str, receiver: Receiver) -> None:
        receivers = self._channels.get(channel)
        if receivers is not None:
            receivers.discard(receiver)
            if not receivers:
                del self._channels[channel]


class PostgresHub(LocalHub):
    """LocalHub whose messages also travel through PostgreSQL NOTIFY to other instances.

    Local subscribers get a message at once, in publishing order (never after a state a socket
    was sent later); NOTIFY carries it to the other instances, which each ignore their own.
    """

    shared = True

    def __init__(self, dsn: str, codec: Codec) -> None:
        super().__init__()
        self._dsn = dsn
        self._codec = codec
        self._instance = secrets.token_hex(6)
        self._listener: Any = None
        self._sender: Any = None
        # Notifications leave from one background task, in order and in batches: a publisher
        # never waits for PostgreSQL (each NOTIFY is a transaction of its own).
        self._outbox: asyncio.Queue[str] = asyncio.Queue()
        self._sending: asyncio.Task[None] | None = None
        self._relistening: asyncio.Task[None] | None = None
        self._stopping = False

    async def start(self) -> None:
        self._stopping = False
        self._sender = await self._connect()
        await self._listen()
        self._sending = asyncio.get_running_loop().create_task(self._send_forever())

    async def stop(self) -> None:
        self._stopping = True
        if self._sending is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._outbox.join(), 5)  # let what is queued go out
        for task in (self._sending, self._relistening):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self._sending = self._relistening = None
        for conn in (self._listener, self._sender):
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.close()
        self._listener = self._sender = None

    async def publish(self, channel: str, message: object) -> None:
        self.deliver(channel, message)
        payload = json_text({"i": self._instance, "c": channel, "m": self._codec.encode(message)})
        if len(payload.encode()) > NOTIFY_LIMIT:
            # Too big for NOTIFY: the other instances' subscribers ask for the full state.
            payload = self._resync_payload(channel)
        self._outbox.put_nowait(payload)

    def _resync_payload(self, channel: str) -> str:
        return json.dumps({"i": self._instance, "c": channel, "m": None})  # m null: RESYNC

    async def _connect(self) -> Any:
        import asyncpg  # noqa: PLC0415 - only needed with PostgreSQL

        return await asyncpg.connect(self._dsn)

    async def _listen(self) -> None:
        conn = await self._connect()
        try:
            await conn.add_listener(NOTIFY_CHANNEL, self._on_notify)
        except BaseException:
            with contextlib.suppress(Exception):
                await conn.close()
            raise
        conn.add_termination_listener(self._on_listener_lost)
        self._listener = conn

    def _on_listener_lost(self, conn: Any) -> None:
        if self._stopping or conn is not self._listener:
            return
        log.warning("lost the connection listening to other instances; reconnecting")
        self._listener = None
        self._relistening = asyncio.get_running_loop().create_task(self._relisten())

    async def _relisten(self) -> None:
        delay = RECONNECT_FIRST_S
        while True:
            await asyncio.sleep(delay)
            try:
                await self._listen()
                break
            except Exception as exc:  # any failure: try again later
                log.warning("could not listen again (%s); next try in %.1f s", exc, delay)
                delay = min(delay * 2, RECONNECT_MAX_S)
        log.info("listening to other instances again")
        # Whatever other instances published meanwhile is lost: every subscriber resyncs.
        for channel in tuple(self._channels):
            self.deliver(channel, RESYNC)

    async def _send_forever(self) -> None:
        while True:
            batch = [await self._outbox.get()]
            while not self._outbox.empty() and len(batch) < 200:
                batch.append(self._outbox.get_nowait())
            try:
                await self._notify(batch)
            except Exception as exc:
                if self._sender is not None and not self._sender.is_closed():
                    log.exception("could not notify other instances of %d messages", len(batch))
                else:
                    log.warning("lost the connection notifying other instances (%s)", exc)
                    await self._resend_as_resync({json.loads(p)["c"] for p in batch})
            finally:
                for _ in batch:
                    self._outbox.task_done()

    async def _notify(self, batch: list[str]) -> None:
        await self._sender.execute(
            "SELECT pg_notify($1, x) FROM unnest($2::text[]) AS x", NOTIFY_CHANNEL, batch
        )

    async def _resend_as_resync(self, channels: set[str]) -> None:
        """Reconnect, then tell the other instances to resync ``channels`` and whatever
        was published until then (one marker a channel, however long the outage)."""
        delay = RECONNECT_FIRST_S
        while True:
            while not self._outbox.empty():
                channels.add(json.loads(self._outbox.get_nowait())["c"])
                self._outbox.task_done()
            try:
                if self._sender is None or self._sender.is_closed():
                    self._sender = None
                    self._sender = await self._connect()
                await self._notify([self._resync_payload(c) for c in sorted(channels)])
                log.info("notifying other instances again (%d channels to resync)", len(channels))
                return
            except Exception as exc:  # any failure: try again later
                log.warning("could not notify again (%s); next try in %.1f s", exc, delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, RECONNECT_MAX_S)

    def _on_notify(self, _conn: Any, pid: int, _channel: str, payload: str) -> None:
        sender = self._sender
        if sender is not None and pid == sender.get_server_pid() and not sender.is_closed():
            # Our own (PostgreSQL tells every listener, the sender's instance too): already
            # delivered here, and not worth reading (a live backend's pid is unique).
            return
        try:
            data = json.loads(payload)
        except ValueError:
            log.warning("ignored a malformed notification: %r", payload[:200])
            return
        if data.get("i") == self._instance:
            return
        try:
            message = RESYNC if data["m"] is None else self._codec.decode(data["m"])
        except Exception:  # a newer instance's message this one cannot read: resync
            log.exception("could not read a notification on %s", data.get("c"))
            message = RESYNC
        self.deliver(data["c"], message)


def asyncpg_dsn(sqlalchemy_url: str) -> str:
    """postgresql+asyncpg://… -> postgresql://… for asyncpg.connect."""
    scheme, rest = sqlalchemy_url.split("://", 1)
    return "postgresql://" + rest if scheme.startswith("postgresql") else sqlalchemy_url
