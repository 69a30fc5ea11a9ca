"""The lichess endpoints about users and tokens that bot clients call before (and besides)
playing: ``POST /api/token/test``, ``GET /api/account/playing``, ``GET /api/account/preferences``,
``GET /api/user/{username}``, ``POST /api/users``, ``GET /api/users/status``,
``GET /api/user/{username}/current-game`` (docs/api.md, "Users and tokens").

``perfs`` are the player's ratings, one per game played rated (app/ratings/reading.py).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field
from sqlalchemy import or_, select

from app.accounts import stats as playerstats
from app.accounts.lookups import account_by_name
from app.accounts.schemas import CountOut, PerfOut
from app.botapi import exports
from app.botapi.eventlines import EventGameOut
from app.botapi.exportmodels import LichessGameOut
from app.botapi.gamejson import event_game, load_players
from app.core.errors import ServiceError
from app.db.models import Game, Player
from app.domain.enums import GameStatus
from app.http.auth import Caller, account_caller, caller
from app.http.deps import ServicesDep
from app.http.lists import read_list, text_body
from app.http.responses import TEXT_RECORD, PGNResponse, base_url, errors, wants
from app.ratings.reading import perfs_json

router = APIRouter(tags=["users"])
Anyone = Annotated[Caller, Depends(caller())]
MAX_TOKENS = 1000
MAX_USERS = 300
MAX_STATUS_IDS = 100
# lichess's preference "who may challenge you": 5 = anyone. Here anyone can (anonymous
# browsers too); the other preferences are the pages', kept in each browser.
CHALLENGE_ANYONE = 5
LANGUAGE = "en-US"


# ---- models --------------------------------------------------------------------------------
class TokenTestOut(BaseModel):
    userId: str = Field(description="the account's id (GET /api/account)")
    scopes: str = Field(description="comma-separated, as lichess")
    expires: int | None = Field(description="epoch ms; null: the token does not expire")


class UserOut(BaseModel):
    id: str
    username: str
    title: str | None = Field(default=None, description='"BOT"; absent for none')
    createdAt: int
    playing: str | None = Field(default=None, description="the page of a game being played")
    perfs: dict[str, PerfOut] | None = Field(
        default=None, description="GET /api/user/{username} only: a rating per game played rated"
    )
    count: CountOut | None = Field(default=None, description="GET /api/user/{username} only")
    disabled: bool | None = Field(default=None, description="true: the account is closed")


class NowPlayingOut(BaseModel):
    nowPlaying: list[EventGameOut]


class PrefsOut(BaseModel):
    challenge: int = Field(description="who may challenge you: 5, anyone (lichess's scale)")


class PreferencesOut(BaseModel):
    prefs: PrefsOut
    language: str


class UserStatusOut(BaseModel):
    id: str
    name: str
    title: str | None = None
    online: bool | None = Field(default=None, description="an event stream open; absent else")
    playing: bool | None = Field(default=None, description="in a game; absent else")
    playingId: str | None = Field(default=None, description="with withGameIds=true")


# ---- helpers --------------------------------------------------------------------------------
def user_json(player: Player) -> dict[str, Any]:
    assert player.username is not None
    data: dict[str, Any] = {
        "id": player.id,
        "username": player.username,
        "createdAt": player.created_ms,
    }
    if player.title:
        data["title"] = player.title
    if player.closed_ms is not None:
        data["disabled"] = True  # lichess's word for a closed account
    return data


# ---- routes ---------------------------------------------------------------------------------
@router.post(
    "/api/token/test",
    response_model=dict[str, TokenTestOut | None],
    responses=errors(400),
    openapi_extra=text_body("kdm_…,kdm_…"),
    summary="Test API tokens",
)
async def test_tokens(request: Request, services: ServicesDep) -> dict[str, Any]:
    """Up to 1000 tokens, comma-separated, as the body (text). Each is answered with its
    account and scopes, or ``null`` if it is unknown or revoked. Testing a token does not
    count as using it."""
    tokens = await read_list(request, "tokens", MAX_TOKENS, 200)
    found = await services.accounts.test_tokens(tokens)
    return {
        token: None
        if owner is None
        else {
            "userId": owner.player.id,
            "scopes": ",".join(sorted(owner.scopes)),
            "expires": None,
        }
        for token, owner in found.items()
    }


@router.get(
    "/api/account/playing",
    response_model=NowPlayingOut,
    responses=errors(401, 403),
    summary="The games you are playing",
)
async def now_playing(
    who: Anyone,
    services: ServicesDep,
    nb: Annotated[int, Query(ge=1, le=50, description="at most this many")] = 9,
) -> JSONResponse:
    """Each as the ``game`` of a ``gameStart`` event: those where it is your turn first, the
    least time left first."""
    me = who.identity.id
    async with services.games.sessions() as session:
        stmt = (
            select(Game)
            .where(
                Game.status == GameStatus.STARTED, or_(Game.first_id == me, Game.second_id == me)
            )
            .order_by(Game.started_ms.desc(), Game.id)
            .limit(200)
        )
        games = list((await session.execute(stmt)).scalars())
    context = await exports.context_of(services.games.sessions, games)
    now = services.games.now()
    found = []
    for game in games:
        side = services.games.reads.seat_of(game, me)
        assert side is not None
        found.append(event_game(game, side, context.players, context.source(game), now=now))
    unlimited = float("inf")
    found.sort(
        key=lambda g: (
            not g["isMyTurn"],
            unlimited if g["secondsLeft"] is None else g["secondsLeft"],
        )
    )
    data = NowPlayingOut.model_validate({"nowPlaying": found[:nb]})
    return JSONResponse(data.model_dump(mode="json", exclude_unset=True))


@router.get(
    "/api/account/preferences",
    response_model=PreferencesOut,
    responses=errors(401, 403),
    summary="Your preferences (what applies)",
)
async def preferences(
    who: Annotated[Caller, Depends(account_caller())],
) -> PreferencesOut:
    """The preferences that apply to a server account: ``challenge`` (who may challenge
    you: anyone). The pages' own settings (pieces, sound, language) live in each browser."""
    return PreferencesOut(prefs=PrefsOut(challenge=CHALLENGE_ANYONE), language=LANGUAGE)


@router.get(
    "/api/user/{username}",
    response_model=UserOut,
    response_model_exclude_none=True,
    responses=errors(404),
    summary="A user's public data",
)
async def public_data(username: str, request: Request, services: ServicesDep) -> UserOut:
    """Id, username, title, creation time, game counts, and the game being played."""
    player = await account_by_name(services, username)
    base = base_url(request)
    found = await playerstats.counts(services.games.sessions, player.id)
    data = user_json(player)
    data["perfs"] = await perfs_json(services.games.sessions, player.id, services.games.now())
    data["count"] = found.lichess()
    if found.current is not None:
        data["playing"] = f"{base}/game/{found.current}"
    return UserOut.model_validate(data)


@router.post(
    "/api/users",
    response_model=list[UserOut],
    response_model_exclude_none=True,
    responses=errors(400),
    openapi_extra=text_body("alice,kodama-easy"),
    summary="Users by their usernames",
)
async def users_by_name(request: Request, services: ServicesDep) -> list[UserOut]:
    """Up to 300 usernames, comma-separated, as the body (text); in the order asked,
    unknown ones left out."""
    names = await read_list(request, "usernames", MAX_USERS, 20)
    keys = list(dict.fromkeys(n.lower() for n in names))
    async with services.games.sessions() as session:
        rows = (
            await session.execute(select(Player).where(Player.username_key.in_(keys)))
        ).scalars()
        found = {p.username_key: p for p in rows}
    return [UserOut.model_validate(user_json(found[k])) for k in keys if k in found]


@router.get(
    "/api/users/status",
    response_model=list[UserStatusOut],
    response_model_exclude_none=True,
    responses=errors(400),
    summary="Whether users are online and playing",
)
async def statuses(
    services: ServicesDep,
    ids: Annotated[str, Query(description="up to 100 user ids, comma-separated")],
    withGameIds: Annotated[bool, Query(description="add the id of the game played")] = False,
) -> list[UserStatusOut]:
    """``online``: an event stream open (on this server instance); ``playing``: a game on.
    Unknown ids are left out."""
    wanted = list(dict.fromkeys(i for i in ids.split(",") if i))
    if not wanted or len(wanted) > MAX_STATUS_IDS:
        raise ServiceError("request.invalid", f"ids: 1 to {MAX_STATUS_IDS} user ids")
    players = await load_players(services.games.sessions, wanted)
    async with services.games.sessions() as session:
        rows = await session.execute(
            select(Game.first_id, Game.second_id, Game.id).where(
                Game.status == GameStatus.STARTED,
                or_(Game.first_id.in_(wanted), Game.second_id.in_(wanted)),
            )
        )
        playing: dict[str, str] = {}
        for first, second, game in rows:
            for seated in (first, second):
                if seated is not None:
                    playing.setdefault(seated, game)
    out = []
    for player_id in wanted:
        info = players.get(player_id)
        if info is None or info.username is None:
            continue
        current = playing.get(player_id)
        out.append(
            UserStatusOut(
                id=player_id,
                name=info.name,
                title=info.title,
                online=True if services.event_streams.online(player_id) else None,
                playing=True if current else None,
                playingId=current if withGameIds else None,
            )
        )
    return out


@router.get(
    "/api/user/{username}/current-game",
    response_model=LichessGameOut,
    response_model_exclude_none=True,
    responses={200: TEXT_RECORD, **errors(404)},
    summary="A user's current game (or the last one)",
)
async def current_game(
    username: str,
    request: Request,
    services: ServicesDep,
    moves: Annotated[bool, Query()] = True,
    tags: Annotated[bool, Query()] = True,
    pgnInJson: Annotated[bool, Query()] = False,
) -> Response:
    """The game being played (the latest started), else the last one played, exported as
    ``GET /game/export/{id}`` does (JSON with ``Accept: application/json``)."""
    player = await account_by_name(services, username)
    game = await exports.current_game(services.games.sessions, player.id)
    if game is None:
        raise ServiceError("game.not_found", f"{player.username} has played no game yet", 404)
    context = await exports.context_of(services.games.sessions, [game])
    base = base_url(request)
    if wants(request, "application/json", "application/x-ndjson"):
        data = exports.game_json(game, context, base, moves=moves, pgn_in_json=pgnInJson)
        return JSONResponse(LichessGameOut.model_validate(data).model_dump(exclude_none=True))
    return PGNResponse(exports.text_record(game, context, base, moves=moves, tags=tags))
