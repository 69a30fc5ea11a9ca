"""Quick pairing over HTTP: the list of pools (``GET /api/pools``). The board seek's way into
them is app/matchmaking/boardseek.py."""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel, Field

import engine
from app.http.deps import ServicesDep
from app.matchmaking.pools import all_pools

router = APIRouter(prefix="/api", tags=["games"])


class PoolOut(BaseModel):
    id: str = Field(description="the pool's id: <game>-<minutes>+<increment>")
    variant: str = Field(description="the game's id")
    name: str = Field(description="the game's name")
    minutes: int = Field(description="minutes per side")
    increment: int = Field(description="seconds added per move")
    waiting: int = Field(
        description="players waiting in it now: anyone can be paired with any of them "
        "(a rated search with a casual one after a few seconds)"
    )


@router.get("/pools", response_model=list[PoolOut])
async def pools(services: ServicesDep) -> list[PoolOut]:
    """The quick-pairing pools, in the lobby's order, with the players waiting in each."""
    counts = await services.pools.counts()
    return [
        PoolOut(
            id=p.id,
            variant=p.variant,
            name=engine.get_game(p.variant).name,
            minutes=p.minutes,
            increment=p.increment,
            waiting=counts[p.id],
        )
        for p in all_pools()
    ]
