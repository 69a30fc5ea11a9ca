"""``GET /api/tablebase/dobutsu``: a position's value and each move's, from the solved
tables, in the shape of lichess's tablebase API (docs/api.md, "Tablebase")."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query
from pydantic import BaseModel, Field

from app.http.deps import ServicesDep
from app.http.responses import errors

router = APIRouter(prefix="/api", tags=["tablebase"])

Category = Literal["win", "loss", "draw"]


class TablebaseMoveOut(BaseModel):
    uci: str = Field(description="the move's text (docs/notation.md)")
    category: Category = Field(description="the position after the move, for the opponent")
    dtm: int | None = Field(
        description="plies to the end after the move, negative when the opponent loses; "
        "null for a draw"
    )


class TablebaseOut(BaseModel):
    category: Category = Field(description="the position's value for the side to move")
    dtm: int | None = Field(
        description="plies to the end with best play (fastest win, slowest loss), negative "
        "when the side to move loses; null for a draw"
    )
    moves: list[TablebaseMoveOut] = Field(
        description="every legal move, best first: those whose category is loss"
    )


@router.get(
    "/tablebase/dobutsu",
    response_model=TablebaseOut,
    responses=errors(400, 404, 503),
    summary="A Dōbutsu position's value with best play, and each move's",
)
async def tablebase_dobutsu(
    services: ServicesDep,
    fen: Annotated[str, Query(min_length=1, max_length=2000, description="the position string")],
    ruleset: Annotated[
        str | None,
        Query(max_length=20, description="dobutsu (the default) or yokai (rules/dobutsu.md)"),
    ] = None,
) -> TablebaseOut:
    """Win, loss or draw for the side to move and the distance to the end in plies, then
    each legal move with the value of the position it leads to, best first. A bad position
    string is 400 ``position.invalid``, an unknown ruleset 400 ``tablebase.ruleset``; a
    position that cannot be reached from the start is 404 ``tablebase.unreachable``; a table
    not built on this server is 503 ``tablebase.unavailable``."""
    return TablebaseOut.model_validate(services.tablebase.probe(fen, ruleset))
