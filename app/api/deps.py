"""The app's services in one container, and FastAPI dependencies (Annotated aliases)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import APIKeyCookie
from starlette.requests import HTTPConnection

from app.core.config import Settings
from app.identity import COOKIE, Identities
from app.matchmaking.service import PoolService
from app.realtime.attendance import Attendance
from app.realtime.hub import LocalHub
from app.realtime.presence import Presence
from app.services.accounts import AccountService
from app.services.apilimits import ApiLimits
from app.services.challenges import ChallengeService
from app.services.chat import Chat
from app.services.crowd import PresenceFeed
from app.services.follow import Followers, GameStarts
from app.services.games import GameService, Identity
from app.services.lobby import LobbyFeed
from app.services.quotas import OpenGamesPerAddress, SocketsPerAddress
from app.services.rematch import Rematches
from app.services.seeks import SeekKeeper
from app.services.streams import EventStreams, GameEvents
from app.services.timekeeper import Timekeeper


@dataclass
class Services:
    settings: Settings
    hub: LocalHub
    games: GameService
    presence: Presence
    identities: Identities
    timekeeper: Timekeeper
    lobby: LobbyFeed
    accounts: AccountService
    # The bot API (docs/api.md).
    challenges: ChallengeService
    game_events: GameEvents
    # Every page of a player follows them to their new game (docs/protocol.md, gameStart).
    game_starts: GameStarts
    followers: Followers
    # A seek lives while its creator has a socket open (docs/decisions.md).
    attendance: Attendance
    seeks: SeekKeeper
    event_streams: EventStreams
    limits: ApiLimits
    # Caps per IP address (issue #10): open WebSockets, public games waiting.
    sockets: SocketsPerAddress
    open_games: OpenGamesPerAddress
    chat: Chat
    # Presence told to the sockets (coalesced) and carried across instances.
    crowd: PresenceFeed
    # Quick pairing: the pools' entries and pairing rounds (app/matchmaking/service.py).
    pools: PoolService
    # Rematches of finished games (app/services/rematch.py).
    rematches: Rematches


def get_services(conn: HTTPConnection) -> Services:
    """The services of the app instance this request or socket reached: its lifespan's state
    (``request.app`` is the routes' app, shared by every instance: app/api/site.py)."""
    services: Services = conn.state.services
    return services


def get_identity(request: HTTPConnection) -> Identity:
    """The visitor's identity; the middleware has given one to every request."""
    who: Identity = request.state.identity
    return who


# The dependencies are ``async`` only so that FastAPI calls them on the event loop: it runs a
# plain ``def`` dependency in a worker thread, a thread hop on every request that uses it.
async def services_dependency(conn: HTTPConnection) -> Services:
    return get_services(conn)


# Declares the browser's identity cookie in /openapi.json; the identity middleware reads it
# (app/api/visitor.py) and gives a new identity to a visitor without a valid one.
player_cookie = APIKeyCookie(
    name=COOKIE,
    scheme_name="PlayerCookie",
    auto_error=False,
    description="the browser's identity, signed by the server; set on the first visit",
)


async def identity_dependency(
    request: Request, _cookie: Annotated[str | None, Depends(player_cookie)] = None
) -> Identity:
    return get_identity(request)


ServicesDep = Annotated[Services, Depends(services_dependency)]
CurrentPlayer = Annotated[Identity, Depends(identity_dependency)]

__all__ = ["COOKIE", "CurrentPlayer", "Services", "ServicesDep", "get_identity", "player_cookie"]
