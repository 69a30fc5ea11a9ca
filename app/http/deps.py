"""The app's services in one container, and FastAPI dependencies (Annotated aliases)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import APIKeyCookie
from starlette.requests import HTTPConnection

from app.accounts.control import AccountControl
from app.accounts.service import AccountService
from app.analysis.workers import AnalysisWorkers
from app.botapi.streams import EventStreams, GameEvents
from app.challenges.service import ChallengeService
from app.chat.service import Chat
from app.core.config import Settings
from app.games import GameService, Identity
from app.games.timekeeper import Timekeeper
from app.http.identity import COOKIE, Identities
from app.limits.api import ApiLimits
from app.limits.quotas import OpenGamesPerAddress, SocketsPerAddress
from app.lobby.feed import LobbyFeed
from app.lobby.seeks import SeekKeeper
from app.matchmaking.service import PoolService
from app.moderation.service import Moderation
from app.puzzles.service import Puzzles
from app.realtime.attendance import Attendance
from app.realtime.follow import Followers, GameStarts
from app.realtime.hub import LocalHub
from app.realtime.presence import Presence
from app.realtime.presencefeed import PresenceFeed
from app.relations.service import Relations
from app.rematch.service import Rematches
from app.review.service import Reviews
from app.tablebase.lookup import Tablebases
from app.tournaments.service import Tournaments
from app.tournaments.swiss import SwissTournaments
from app.tv.service import Television


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
    # Passwords, e-mail and mailed links of an account's owner (app/accounts/control.py).
    account_control: AccountControl
    # The bot API (docs/api.md).
    challenges: ChallengeService
    game_events: GameEvents
    # Every page of a player follows them to their new game (docs/protocol.md, gameStart).
    game_starts: GameStarts
    followers: Followers
    # A seek lives while its creator has a socket open (docs/decisions/live-lobby.md).
    attendance: Attendance
    seeks: SeekKeeper
    event_streams: EventStreams
    limits: ApiLimits
    # Caps per IP address: open WebSockets, public games waiting.
    sockets: SocketsPerAddress
    open_games: OpenGamesPerAddress
    chat: Chat
    # Presence told to the sockets (coalesced) and carried across instances.
    crowd: PresenceFeed
    # Quick pairing: the pools' entries and pairing rounds (app/matchmaking/service.py).
    pools: PoolService
    # Rematches of finished games (app/rematch/service.py).
    rematches: Rematches
    # Who follows whom, and who of them is online or playing (app/relations/service.py).
    relations: Relations
    # Reports, and the moderators' actions (app/moderation/service.py).
    moderation: Moderation
    # The analysis board's engine work, in worker processes (app/analysis/workers.py).
    analysis: AnalysisWorkers
    # Arena tournaments (app/tournaments/service.py).
    tournaments: Tournaments
    # Swiss tournaments (app/tournaments/swiss.py).
    swiss: SwissTournaments
    # Each TV channel's featured game (app/tv/service.py).
    tv: Television
    # The solved Dōbutsu tables, memory-mapped when first asked for (app/tablebase/lookup.py).
    tablebase: Tablebases
    # Dōbutsu puzzles and their ratings (app/puzzles/service.py).
    puzzles: Puzzles
    # Computer reviews of finished games, queued and run in worker processes (app/review/).
    reviews: Reviews


def get_services(conn: HTTPConnection) -> Services:
    """The services of the app instance this request or socket reached: its lifespan's state
    (``request.app`` is the routes' app, shared by every instance: app/http/site.py)."""
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
# (app/http/visitor.py) and gives a new identity to a visitor without a valid one.
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
