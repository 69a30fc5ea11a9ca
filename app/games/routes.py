"""REST for people in a browser: create, join by id or invite, cancel, read, lobby lists."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, status

import engine
from app.accounts import stats as playerstats
from app.accounts.schemas import CountOut, PlayerOut
from app.games import NewGame
from app.games.schemas import CreateGameIn, GameCreatedOut, GameOut, JoinedOut, LobbyOut
from app.games.terms import GameTerms, browser_control
from app.games.timecontrol import TimeControl
from app.http.auth import Caller, caller, client_ip
from app.http.deps import CurrentPlayer, ServicesDep
from app.http.schemas import ErrorOut
from app.lobby import seekrange

router = APIRouter(prefix="/api", tags=["games"])
ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorOut} for code in (400, 403, 404, 409, 429)
}


def limit_games(services: ServicesDep, who: CurrentPlayer, request: Request) -> None:
    """Creating, joining, invite use and cancelling share the "game" bucket, per player
    and per address (429 ``ratelimit``, key ``game``)."""
    services.limits.hit("game", f"player:{who.id}", client_ip(request))


@router.get("/me", response_model=PlayerOut, response_model_exclude_none=True)
async def me(who: Annotated[Caller, Depends(caller())], services: ServicesDep) -> PlayerOut:
    """Who this browser (or token) plays as, and its games (``count``, as lichess's); username
    and title only for an account."""
    found = await playerstats.counts(services.games.sessions, who.identity.id)
    return PlayerOut(
        id=who.identity.id,
        name=who.identity.name,
        username=who.username,
        title="BOT" if who.bot else None,
        count=CountOut(**found.lichess()),
    )


@router.get("/variants")
async def variants() -> list[dict[str, Any]]:
    """Every game's description: board, special squares, pieces, rule options, start, and
    its table entry's facts for the client (names, notation, picture sets, stones' moves)."""
    return [engine.describe(gid) for gid in engine.game_ids()]


def control_of(body: CreateGameIn) -> TimeControl:
    clock = body.clock
    if clock is None:
        return browser_control(None, 0, 0, 0, body.days)
    return browser_control(clock.minutes, clock.increment, clock.byoyomi, clock.periods, body.days)


@router.post(
    "/games", status_code=status.HTTP_201_CREATED, response_model=GameCreatedOut, responses=ERRORS
)
async def create_game(
    body: CreateGameIn, who: CurrentPlayer, services: ServicesDep, request: Request
) -> GameCreatedOut:
    limit_games(services, who, request)
    address = client_ip(request)
    if body.public:
        await services.open_games.check(address)
    game = await services.games.setup.create(
        who,
        NewGame(
            GameTerms(body.variant, body.rules, control_of(body), body.rated),
            color=body.color,
            public=body.public,
            rating_range=seekrange.parse(body.ratingRange),
        ),
    )
    if body.public:
        services.open_games.add(address, game.id)
    base = str(request.base_url).rstrip("/")
    return GameCreatedOut(
        id=game.id,
        url=f"{base}/game/{game.id}",
        inviteUrl=f"{base}/invite/{game.invite_token}",
        game=dict(await services.games.reads.state(game)),
    )


@router.get("/games/{game_id}", response_model=GameOut, responses=ERRORS)
async def get_game(game_id: str, services: ServicesDep) -> GameOut:
    game = await services.games.reads.get(game_id)
    return GameOut(game=dict(await services.games.reads.state(game)))


def _joined(services: ServicesDep, game: Any, who: CurrentPlayer, request: Request) -> JoinedOut:
    base = str(request.base_url).rstrip("/")
    seat = services.games.reads.seat_of(game, who.id)
    return JoinedOut(id=game.id, url=f"{base}/game/{game.id}", seat=seat)  # type: ignore[arg-type]


@router.post("/games/{game_id}/join", response_model=JoinedOut, responses=ERRORS)
async def join_game(
    game_id: str, who: CurrentPlayer, services: ServicesDep, request: Request
) -> JoinedOut:
    """Take the free seat of a public game."""
    limit_games(services, who, request)
    game = await services.games.setup.join(who, game_id=game_id)
    return _joined(services, game, who, request)


@router.post("/invite/{token}", response_model=JoinedOut, responses=ERRORS)
async def accept_invite(
    token: str, who: CurrentPlayer, services: ServicesDep, request: Request
) -> JoinedOut:
    """Take the free seat of the game this invite belongs to (public or private)."""
    limit_games(services, who, request)
    game = await services.games.setup.join(who, token=token)
    return _joined(services, game, who, request)


@router.post("/games/{game_id}/cancel", response_model=GameOut, responses=ERRORS)
async def cancel_game(
    game_id: str, who: CurrentPlayer, services: ServicesDep, request: Request
) -> GameOut:
    """The creator withdraws a game nobody has joined yet."""
    limit_games(services, who, request)
    game = await services.games.setup.cancel(who, game_id)
    return GameOut(game=dict(await services.games.reads.state(game)))


@router.get("/lobby", response_model=LobbyOut)
async def lobby(services: ServicesDep) -> LobbyOut:
    return LobbyOut(**await services.games.reads.lobby())
