"""Builds an app instance: its services wired in the lifespan, its identity cookie and
middleware, in front of the site (app/http/site.py: the routes, shared by every instance)."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from argon2 import PasswordHasher
from fastapi import FastAPI

from app.accounts.service import AccountService, Limits
from app.accounts.stats import PlayerCounts
from app.botapi.streams import EventStreams, GameEvents
from app.builtin.service import BuiltinBots, local_url
from app.challenges.service import ChallengeService
from app.chat.flood import ChatFlood
from app.chat.service import Chat
from app.core import crash
from app.core.config import Settings, get_settings
from app.core.time import Clock, SystemClock
from app.db.engine import make_engine, make_sessionmaker
from app.games import GameService
from app.games.timekeeper import Timekeeper
from app.http import errors
from app.http.bodylimit import BodyLimit
from app.http.deps import Services
from app.http.headers import SecurityHeaders
from app.http.identity import Identities
from app.http.origin import ForwardedHeaders, OriginGuard, parse_allowed
from app.http.site import site
from app.http.visitor import VisitorIdentity
from app.limits.api import ApiLimits
from app.limits.quotas import OpenGamesPerAddress, SocketsPerAddress
from app.lobby.feed import LobbyFeed
from app.lobby.seeks import SeekKeeper
from app.matchmaking.service import PoolService
from app.outbox.consumer import OutboxConsumer
from app.ratings.announce import RatingsAnnouncer
from app.ratings.service import RatingsConsumer
from app.realtime.attendance import Attendance
from app.realtime.follow import Followers, GameStarts
from app.realtime.hub import LocalHub, PostgresHub, asyncpg_dsn
from app.realtime.lease import BUILTIN_BOTS_LOCK, AdvisoryLease, Lease, SoleHolder
from app.realtime.messages import HubCodec
from app.realtime.presence import Presence
from app.realtime.presencefeed import PresenceFeed
from app.rematch.service import Rematches

log = logging.getLogger(__name__)


def create_app(settings: Settings | None = None, clock: Clock | None = None) -> FastAPI:
    """The app. ``clock``: what everything that reads the time or waits for it asks (game
    clocks and deadlines, presence and claims, rate limits, expiries); the real time unless a
    test passes a ManualClock (app/core/time.py)."""
    settings = settings or get_settings()
    clock = clock or SystemClock()
    identities = Identities(settings.resolved_secret_key())

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[dict[str, Services]]:
        url = settings.resolved_database_url
        if settings.is_sqlite:
            settings.data_dir.mkdir(parents=True, exist_ok=True)
        db = make_engine(url)
        use_notify = settings.notify == "on" or (
            settings.notify == "auto" and not settings.is_sqlite
        )
        hub: LocalHub = PostgresHub(asyncpg_dsn(url), HubCodec()) if use_notify else LocalHub()
        await hub.start()
        sessions = make_sessionmaker(db)
        service = GameService(
            sessions, hub, settings, is_postgres=not settings.is_sqlite, clock_ms=clock.now_ms
        )
        # A game nobody here watches is remembered for the longer grace period: a claimant
        # who reloads the page keeps the opponent's count; one away that long starts anew.
        grace_seconds = max(settings.gone_seconds, settings.gone_unmoved_seconds)
        presence = Presence(clock.now_ms, keep_idle_ms=round(grace_seconds * 1000))
        service.gone_for_ms = presence.gone_for_ms
        service.listeners.append(lambda game, _events: presence.changed(game.id, game.ply))
        # What must happen once per ended game (docs/decisions.md, "Outbox"): consumed
        # right after the change commits, and what a crash left, at start-up and by a sweep.
        is_postgres = not settings.is_sqlite
        outbox = OutboxConsumer(
            sessions,
            [PlayerCounts(is_postgres=is_postgres), RatingsConsumer(is_postgres=is_postgres)],
            clock.now_ms,
        )
        service.durable.append(outbox.committed)
        service.told.append(outbox.told)
        outbox.after.append(RatingsAnnouncer(sessions, hub).consumed)
        if (point := crash.armed()) is not None:
            log.warning("%s=%s: this process will die there (tests only)", crash.ENV, point)
        await outbox.start()
        accounts = AccountService(
            sessions,
            hasher=PasswordHasher(
                time_cost=settings.argon2_time_cost,
                memory_cost=settings.argon2_memory_kib,
                parallelism=settings.argon2_parallelism,
            ),
            clock_ms=clock.now_ms,
            limits=Limits.default(clock.monotonic),
        )
        challenges_service = ChallengeService(sessions, service, accounts, hub, settings)
        services = Services(
            settings=settings,
            hub=hub,
            games=service,
            presence=presence,
            identities=identities,
            timekeeper=Timekeeper(service, clock=clock),
            lobby=LobbyFeed(service, settings.lobby_interval_seconds, clock),
            accounts=accounts,
            challenges=challenges_service,
            game_events=GameEvents(service, hub),
            game_starts=GameStarts(service, hub),
            followers=Followers(hub),
            attendance=Attendance(sessions, clock, settings.attendance_beat_seconds),
            seeks=SeekKeeper(service, settings, clock),
            event_streams=EventStreams(clock.monotonic),
            limits=ApiLimits(settings, clock.monotonic),
            sockets=SocketsPerAddress(settings.max_sockets_per_ip),
            open_games=OpenGamesPerAddress(settings.max_open_games_per_ip, service.still_open),
            chat=Chat(
                sessions,
                hub,
                ChatFlood(settings.chat_flood_lines, settings.chat_flood_seconds, clock.monotonic),
            ),
            crowd=PresenceFeed(
                presence,
                hub,
                flush_ms=round(settings.presence_flush_seconds * 1000),
                beat_ms=round(settings.presence_beat_seconds * 1000),
            ),
            pools=PoolService(
                sessions,
                service,
                hub,
                clock,
                is_postgres=is_postgres,
                round_seconds=settings.pool_round_seconds,
                beat_seconds=settings.pool_beat_seconds,
                expire_seconds=settings.pool_expire_seconds,
            ),
            # (A challenge's links until a request tells the address: the server's own.)
            rematches=Rematches(
                service,
                challenges_service,
                presence,
                clock,
                settings,
                local_url(settings.host, settings.port),
            ),
        )
        # The routes read them from the request (the lifespan's state); the tests from here.
        app.state.services = services
        await services.crowd.start()
        await services.timekeeper.start()
        await services.lobby.start()
        await services.attendance.start()
        await services.seeks.start()
        await services.pools.start()
        await services.rematches.start()
        builtin = None
        if settings.builtin_bots:
            lease: Lease = (
                SoleHolder()
                if settings.is_sqlite
                else AdvisoryLease(
                    asyncpg_dsn(url), BUILTIN_BOTS_LOCK, settings.builtin_lease_retry_seconds
                )
            )
            builtin = BuiltinBots(accounts, local_url(settings.host, settings.port), lease=lease)
            await builtin.start()
        try:
            yield {"services": services}
        finally:
            if builtin is not None:
                await builtin.stop()
            await services.rematches.stop()
            await services.pools.stop()
            await services.seeks.stop()
            await services.attendance.stop()
            await services.timekeeper.stop()
            await outbox.stop()
            await services.crowd.stop()
            await services.lobby.stop()
            await services.game_events.stop()
            await services.game_starts.stop()
            await services.followers.stop()
            await hub.stop()
            await service.close()
            await db.dispose()

    # The instance: its lifespan, its middleware and the site behind them. Routes added to
    # it (the tests add some) answer before the site, which answers everything else.
    app = FastAPI(lifespan=lifespan, openapi_url=None, docs_url=None, redoc_url=None)
    shared = site()
    app.router.default = shared
    app.openapi = shared.openapi  # type: ignore[method-assign]
    errors.install(app)

    # The last added runs first: the proxy's headers, then the security headers (on every
    # answer, refusals included), then the body limit (a body over it is refused before
    # anything reads it), then the Origin check before anything acts, then the visitor's
    # identity (app/http/visitor.py).
    app.add_middleware(VisitorIdentity, identities=identities, cookie_secure=settings.cookie_secure)
    app.add_middleware(OriginGuard, allowed=parse_allowed(settings.allowed_origins))
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(ForwardedHeaders, trusted_hosts=settings.forwarded_allow_ips)
    return app
