"""The app's services in one container, and FastAPI dependencies (Annotated aliases)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request

from ..core.config import Settings
from ..identity import COOKIE, Identities
from ..realtime.hub import LocalHub
from ..realtime.presence import Presence
from ..services.accounts import AccountService
from ..services.apilimits import ApiLimits
from ..services.challenges import ChallengeService
from ..services.games import GameService, Identity, game_channel
from ..services.lobby import LobbyFeed
from ..services.streams import EventStreams, GameEvents
from ..services.timekeeper import Timekeeper


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
    event_streams: EventStreams
    limits: ApiLimits

    async def publish_presence(self, game_id: str, message: str | None = None) -> None:
        if message is None:
            message = json.dumps(self.presence.message(game_id), separators=(",", ":"))
        await self.hub.publish(game_channel(game_id), message)


def get_services(request: Request) -> Services:
    services: Services = request.app.state.services
    return services


def get_identity(request: Request) -> Identity:
    """The visitor's identity; the middleware has given one to every request."""
    who: Identity = request.state.identity
    return who


ServicesDep = Annotated[Services, Depends(get_services)]
CurrentPlayer = Annotated[Identity, Depends(get_identity)]

__all__ = ["COOKIE", "CurrentPlayer", "Services", "ServicesDep", "get_identity"]
