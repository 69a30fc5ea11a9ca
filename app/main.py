"""Builds an app instance: the composition root. Each feature package's ``wire`` builds its
services, in the order they depend on each other; ``subscribe`` says, in one list, what a
committed change of a game sets off; the lifespan starts them and stops whatever started, in
reverse order, when the server stops or a later start fails (app/core/running.py). In
front: the identity cookie and the middleware, then the site (app/http/site.py: the routes,
shared by every instance)."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

from fastapi import FastAPI

from app.accounts import wiring as accounts_wiring
from app.accounts.stats import PlayerCounts
from app.analysis import wiring as analysis_wiring
from app.botapi import wiring as botapi_wiring
from app.builtin import wiring as builtin_wiring
from app.builtin.service import BuiltinBots
from app.challenges import wiring as challenges_wiring
from app.chat import wiring as chat_wiring
from app.core.config import Settings, get_settings
from app.core.running import Running
from app.core.time import Clock, SystemClock
from app.db import wiring as db_wiring
from app.games import wiring as games_wiring
from app.games.subscribers import Subscribers
from app.http import errors
from app.http.bodylimit import BodyLimit
from app.http.deps import Services
from app.http.headers import SecurityHeaders
from app.http.identity import Identities
from app.http.origin import ForwardedHeaders, OriginGuard, parse_allowed
from app.http.site import site
from app.http.visitor import VisitorIdentity
from app.limits import wiring as limits_wiring
from app.lobby import wiring as lobby_wiring
from app.matchmaking import wiring as matchmaking_wiring
from app.moderation import wiring as moderation_wiring
from app.outbox import wiring as outbox_wiring
from app.outbox.consumer import OutboxConsumer
from app.puzzles import wiring as puzzles_wiring
from app.ratings import wiring as ratings_wiring
from app.ratings.announce import RatingsAnnouncer
from app.realtime import wiring as realtime_wiring
from app.relations import wiring as relations_wiring
from app.rematch import wiring as rematch_wiring
from app.review import wiring as review_wiring
from app.tablebase import wiring as tablebase_wiring
from app.tournaments import wiring as tournaments_wiring
from app.tv import wiring as tv_wiring

log = logging.getLogger(__name__)


def subscribe(
    subscribers: Subscribers,
    services: Services,
    outbox: OutboxConsumer,
    announcer: RatingsAnnouncer,
) -> None:
    """Everything a committed change of a game sets off, in the order it is called
    (app/games/subscribers.py says when each kind is called)."""
    presence, timekeeper = services.presence, services.timekeeper
    heard = subscribers.heard
    heard.add("presence", lambda game, _events: presence.changed(game.id, game.ply))
    heard.add("timekeeper", lambda game, _events: timekeeper.schedule(game))
    heard.add("lobby feed", services.lobby.changed)
    heard.add("bot event streams", services.game_events.changed)
    heard.add("players' pages follow", services.game_starts.changed)
    heard.add("rematch offers", services.rematches.heard)
    subscribers.durable.add("outbox", outbox.committed)
    subscribers.told.add("outbox", outbox.told)
    subscribers.consumed.add("ratings announcer", announcer.consumed)


@dataclass(frozen=True)
class Wired:
    services: Services
    outbox: OutboxConsumer
    announcer: RatingsAnnouncer
    builtin: BuiltinBots | None


async def wire(settings: Settings, clock: Clock, identities: Identities, running: Running) -> Wired:
    """Every package's services, built in the order they depend on each other. What must
    stop when the instance stops is registered with ``running`` as it is made."""
    db = db_wiring.wire(settings, running)
    realtime = await realtime_wiring.wire(settings, clock, db, running)
    games = games_wiring.wire(settings, clock, db, realtime, running)
    ratings = ratings_wiring.wire(db, realtime)
    arenas = tournaments_wiring.wire(settings, clock, db, games)
    outbox = outbox_wiring.wire(
        clock,
        db,
        games.service,
        [
            PlayerCounts(is_postgres=db.is_postgres),
            ratings.consumer,
            arenas.results,
            arenas.swiss_results,
        ],
    )
    accounts = accounts_wiring.wire(settings, clock, db)
    challenges = challenges_wiring.wire(settings, clock, db, games.service, accounts, realtime)
    lobby = lobby_wiring.wire(settings, clock, games.service, realtime)
    limits = limits_wiring.wire(settings, clock, games.service)
    botapi = botapi_wiring.wire(clock, games.service, realtime, running)
    relations = relations_wiring.wire(settings, clock, db)
    chat = chat_wiring.wire(settings, clock, db, realtime, relations.blocks.blocked_by)
    services = Services(
        settings=settings,
        hub=realtime.hub,
        games=games.service,
        presence=realtime.presence,
        identities=identities,
        timekeeper=games.timekeeper,
        lobby=lobby.feed,
        accounts=accounts,
        account_control=accounts_wiring.control(settings, clock, accounts, running),
        challenges=challenges,
        game_events=botapi.game_events,
        game_starts=realtime.game_starts,
        followers=realtime.followers,
        attendance=realtime.attendance,
        seeks=lobby.seeks,
        event_streams=botapi.event_streams,
        limits=limits.api,
        sockets=limits.sockets,
        open_games=limits.open_games,
        chat=chat,
        crowd=realtime.crowd,
        pools=matchmaking_wiring.wire(settings, clock, db, games.service, realtime),
        rematches=rematch_wiring.wire(settings, clock, games.service, challenges, realtime),
        relations=relations,
        moderation=moderation_wiring.wire(clock, db, chat),
        analysis=analysis_wiring.wire(settings, clock),
        tv=tv_wiring.wire(games.service, realtime),
        tournaments=arenas.service,
        swiss=arenas.swiss,
        tablebase=tablebase_wiring.wire(settings),
        puzzles=puzzles_wiring.wire(clock, db),
        reviews=review_wiring.wire(settings, clock, db, games.service),
    )
    # the lobby's sockets hear quick pairing's waiting counts as they change
    services.pools.count_listeners.append(lobby.feed.pools_changed)
    builtin = builtin_wiring.wire(settings, clock, db, accounts, games.service, realtime.presence)
    return Wired(services, outbox, ratings.announcer, builtin)


def create_app(settings: Settings | None = None, clock: Clock | None = None) -> FastAPI:
    """The app. ``clock``: what everything that reads the time or waits for it asks (game
    clocks and deadlines, presence and claims, rate limits, expiries); the real time unless a
    test passes a ManualClock (app/core/time.py)."""
    settings = settings or get_settings()
    clock = clock or SystemClock()
    identities = Identities(settings.resolved_secret_key())

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[dict[str, Services]]:
        async with Running() as running:
            wired = await wire(settings, clock, identities, running)
            services = wired.services
            # The routes read them from the request (the lifespan's state); the tests from here.
            app.state.services = services
            subscribe(services.games.subscribers, services, wired.outbox, wired.announcer)
            # The outbox starts after the subscribers are in: its start-up sweep's
            # consumptions are announced too.
            for service in (
                wired.outbox,
                services.crowd,
                services.timekeeper,
                services.lobby,
                services.attendance,
                services.seeks,
                services.pools,
                services.rematches,
                services.analysis,
                services.reviews,
                services.tv,
                services.tournaments,
                services.swiss,
            ):
                await running.start(service)
            if wired.builtin is not None:
                await running.start(wired.builtin)
            yield {"services": services}

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
