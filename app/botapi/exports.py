"""Games as lichess's game export gives them: JSON (``GET /game/export/{id}`` with
``Accept: application/json``, NDJSON lines of the multi-game exports) or the text record
(app/games/record.py), and the queries behind ``/api/games/user/{username}``.

Every exporter takes a game's start position from ``initial_fen``, and its context (who
sat, how it was made, correspondence days) from ``GameContext``: one read per page of games.
"""

from __future__ import annotations

import datetime
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import and_, or_, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.botapi.gamejson import COLOR, PlayerInfo, load_players, speed_of_game
from app.db.models import Challenge, Game, GameRow
from app.domain.enums import GameStatus, Side
from app.games import ENDED, initial_text, record
from app.ratings.reading import Change, game_changes, seat_rating

PAGE = 200  # games read at once by the multi-game exports (they stream, page by page)
# lichess's Termination tag, from our statuses.
TERMINATION: dict[str, str] = {
    GameStatus.STARTED: "Unterminated",
    GameStatus.CREATED: "Unterminated",
    GameStatus.OUT_OF_TIME: "Time forfeit",
    GameStatus.TIMEOUT: "Abandoned",
    GameStatus.NO_START: "Abandoned",
    GameStatus.ABORTED: "Abandoned",
}


def initial_fen(game: GameRow) -> str:
    """The position the game started from: the one place every export reads it."""
    return initial_text(game)


@dataclass(frozen=True)
class GameContext:
    """What a game's export needs beyond its row: its players, and for a challenge's game
    (``source`` friend) the correspondence days it was asked with."""

    players: Mapping[str, PlayerInfo] = field(default_factory=dict)
    friends: Mapping[str, int | None] = field(default_factory=dict)  # challenge id -> days
    # What rated games' ends did to the ratings, by game id then side.
    changes: Mapping[str, Mapping[Side, Change]] = field(default_factory=dict)

    def source(self, game: GameRow) -> str:
        return "friend" if game.id in self.friends else "lobby"

    def days(self, game: GameRow) -> int | None:
        """The game's days per move; for a game made before correspondence clocks (no days
        of its own), the days its challenge asked."""
        return game.days if game.days is not None else self.friends.get(game.id)


async def context_of(
    sessions: async_sessionmaker[AsyncSession], games: Sequence[GameRow]
) -> GameContext:
    ids = [g.id for g in games]
    players = await load_players(sessions, [p for g in games for p in (g.first_id, g.second_id)])
    if not ids:
        return GameContext(players, {})
    async with sessions() as session:
        rows = await session.execute(
            select(Challenge.id, Challenge.days).where(Challenge.id.in_(ids))
        )
        friends = {row[0]: row[1] for row in rows}
    return GameContext(players, friends, await game_changes(sessions, games))


def last_move_at(game: GameRow) -> int:
    """lichess's lastMoveAt: always a time (the creation for a game without moves)."""
    if game.finished_ms is not None:
        return game.finished_ms
    if game.ply and game.turn_started_ms is not None:
        return game.turn_started_ms
    return game.started_ms or game.created_ms


def result_of(game: GameRow) -> str:
    if game.status not in ENDED:
        return "*"
    if game.winner:
        return "1-0" if game.winner == Side.FIRST else "0-1"
    if game.status in (GameStatus.ABORTED, GameStatus.NO_START):
        return "*"
    return "1/2-1/2"


def _player_name(context: GameContext, player_id: str | None) -> str:
    info = context.players.get(player_id or "")
    return "?" if info is None else info.name


def record_tags(game: GameRow, context: GameContext, base_url: str) -> dict[str, str]:
    """The tag pairs of a game's record (docs/notation.md, "Game records")."""
    created = datetime.datetime.fromtimestamp(game.created_ms / 1000, datetime.UTC)
    clock_ms = game.clock_initial_ms
    tags = {
        "Event": f"{'Rated' if game.rated else 'Casual'} {game.variant} game",
        "Site": f"{base_url}/game/{game.id}",
        "Date": created.strftime("%Y.%m.%d"),
        "White": _player_name(context, game.first_id),
        "Black": _player_name(context, game.second_id),
        "Result": result_of(game),
        "GameId": game.id,
        "UTCDate": created.strftime("%Y.%m.%d"),
        "UTCTime": created.strftime("%H:%M:%S"),
        "Variant": game.variant,
        "Rules": record.rules_text(game.rules),
        "TimeControl": "-"
        if clock_ms is None
        else f"{clock_ms // 1000}+{(game.clock_increment_ms or 0) // 1000}",
        "FEN": initial_fen(game),
        "Termination": TERMINATION.get(game.status, "Normal"),
    }
    for tag, player_id in (("WhiteTitle", game.first_id), ("BlackTitle", game.second_id)):
        info = context.players.get(player_id or "")
        if info is not None and info.title:
            tags[tag] = info.title
    # As lichess: the ratings at the start (accounts), then what a rated end did to them.
    seats = (("White", Side.FIRST), ("Black", Side.SECOND))
    for color, side in seats:
        rating = seat_rating(game, side)
        if rating is not None:
            tags[f"{color}Elo"] = str(rating[0])
    for color, side in seats:
        change = context.changes.get(game.id, {}).get(side)
        if change is not None:
            tags[f"{color}RatingDiff"] = f"{change.diff:+d}"
    if game.initial_fen is not None:
        tags["SetUp"] = "1"  # PGN's mark of a game from a position: FEN is not the start
    if game.status in ENDED and game.reason:
        tags["Reason"] = game.reason
    return tags


def record_filename(game: GameRow) -> str:
    """The name a downloaded record is saved under: ``kodama-dobutsu-O75tVZD5.txt`` (plain
    text, readable anywhere; not ``.pgn``, which chess programs would try to read)."""
    return f"kodama-{game.variant}-{game.id}.txt"


def text_record(
    game: GameRow,
    context: GameContext,
    base_url: str,
    *,
    moves: bool = True,
    tags: bool = True,
    comments: Sequence[str | None] | None = None,
) -> str:
    """The game's record as text (lichess's ``moves=false`` / ``tags=false`` drop either);
    ``comments``: one per move (a review's evaluations, app/review/views.py)."""
    moves_text = (
        record.movetext(
            game.variant,
            game.rules,
            initial_fen(game),
            game.moves.split(),
            result_of(game),
            comments,
        )
        if moves
        else None
    )
    return record.write(record_tags(game, context, base_url) if tags else {}, moves_text)


def _user(game: GameRow, side: Side, context: GameContext) -> dict[str, Any]:
    player_id = game.first_id if side == Side.FIRST else game.second_id
    if player_id is None:
        return {}  # a free seat (a game still waiting for its second player)
    info = context.players.get(player_id)
    user: dict[str, Any] = {"name": "?" if info is None else info.name, "id": player_id}
    if info is not None and info.title:
        user["title"] = info.title
    data: dict[str, Any] = {"user": user}
    rating = seat_rating(game, side)
    if rating is not None:
        data["rating"] = rating[0]
        change = context.changes.get(game.id, {}).get(side)
        if change is not None:
            data["ratingDiff"] = change.diff
        if rating[1]:
            data["provisional"] = True
    return data


def game_json(
    game: GameRow,
    context: GameContext,
    base_url: str,
    *,
    moves: bool = True,
    pgn_in_json: bool = False,
    review: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The game as lichess's game export JSON. ``variant`` and ``perf`` are the game id (a
    variant game's perf is its variant on lichess); ``rules``, ``initialFen`` and
    ``lastFen`` say how to replay it. ``review``: its computer review in lichess's shapes
    (``analysis`` per ply, ``players.*.analysis``: app/review/views.py)."""
    initial, increment = game.clock_initial_ms, game.clock_increment_ms or 0
    data: dict[str, Any] = {
        "id": game.id,
        "rated": game.rated,
        "variant": game.variant,
        "speed": speed_of_game(game),
        "perf": game.variant,
        "createdAt": game.created_ms,
        "lastMoveAt": last_move_at(game),
        "status": game.status,
        "source": context.source(game),
        "players": {
            "white": _user(game, Side.FIRST, context),
            "black": _user(game, Side.SECOND, context),
        },
        "initialFen": initial_fen(game),
        "lastFen": game.fen,
        "rules": dict(game.rules),
    }
    if game.status in ENDED and game.winner:
        data["winner"] = COLOR[game.winner]
    if moves:
        data["moves"] = game.moves
    if initial is not None:
        byoyomi = game.clock_byoyomi_ms or 0
        data["clock"] = {
            "initial": initial // 1000,
            "increment": increment // 1000,
            "totalTime": (initial + 40 * (increment + byoyomi)) // 1000,
        }
        if game.clock_byoyomi_ms is not None:
            data["clock"]["byoyomi"] = byoyomi // 1000
            data["clock"]["periods"] = game.clock_periods
    days = context.days(game)
    if days is not None:
        data["daysPerTurn"] = days
    if review is not None:
        data["analysis"] = review["analysis"]
        for color, found in review["players"].items():
            if data["players"][color]:
                data["players"][color]["analysis"] = found
    if pgn_in_json:
        comments = None if review is None else review["comments"]
        data["pgn"] = text_record(game, context, base_url, moves=moves, comments=comments)
    return data


@dataclass(frozen=True)
class GameFilter:
    """lichess's filters of a player's games (``/api/games/user/{username}``)."""

    player_id: str
    since: int | None = None
    until: int | None = None
    vs: str | None = None  # the opponent's player id
    variants: tuple[str, ...] | None = None
    side: str | None = None  # first | second: the player's seat
    finished: bool = True
    ongoing: bool = False
    newest_first: bool = True
    max: int | None = None
    rated: bool | None = None  # True: rated games only; False: casual ones only
    nothing: bool = False  # a filter no game can pass (an unknown opponent)


def _conditions(wanted: GameFilter) -> list[Any]:
    me = wanted.player_id
    seat = {
        None: or_(Game.first_id == me, Game.second_id == me),
        "first": Game.first_id == me,
        "second": Game.second_id == me,
    }[wanted.side]
    statuses = (list(ENDED) if wanted.finished else []) + (
        [GameStatus.STARTED] if wanted.ongoing else []
    )
    conditions: list[Any] = [seat, Game.started_ms.is_not(None), Game.status.in_(statuses)]
    if wanted.since is not None:
        conditions.append(Game.created_ms >= wanted.since)
    if wanted.until is not None:
        conditions.append(Game.created_ms <= wanted.until)
    if wanted.vs is not None:
        conditions.append(or_(Game.first_id == wanted.vs, Game.second_id == wanted.vs))
    if wanted.variants is not None:
        conditions.append(Game.variant.in_(wanted.variants))
    if wanted.rated is not None:
        conditions.append(Game.rated == wanted.rated)
    return conditions


async def player_games(
    sessions: async_sessionmaker[AsyncSession], wanted: GameFilter
) -> AsyncIterator[tuple[list[Game], GameContext]]:
    """The player's games, a page at a time (keyset paging on creation time, then id)."""
    if wanted.nothing or not (wanted.finished or wanted.ongoing):
        return
    left = wanted.max
    after: tuple[int, str] | None = None
    while left is None or left > 0:
        size = PAGE if left is None else min(PAGE, left)
        stmt = select(Game).where(*_conditions(wanted))
        if after is not None:
            created, game_id = after
            if wanted.newest_first:
                stmt = stmt.where(
                    or_(
                        Game.created_ms < created,
                        and_(Game.created_ms == created, Game.id < game_id),
                    )
                )
            else:
                stmt = stmt.where(
                    or_(
                        Game.created_ms > created,
                        and_(Game.created_ms == created, Game.id > game_id),
                    )
                )
        order = (
            (Game.created_ms.desc(), Game.id.desc())
            if wanted.newest_first
            else (Game.created_ms, Game.id)
        )
        async with sessions() as session:
            page = list((await session.execute(stmt.order_by(*order).limit(size))).scalars())
        if not page:
            return
        yield page, await context_of(sessions, page)
        if len(page) < size:
            return
        if left is not None:
            left -= len(page)
        after = (page[-1].created_ms, page[-1].id)


async def games_by_ids(
    sessions: async_sessionmaker[AsyncSession], ids: Sequence[str]
) -> tuple[list[Game], GameContext]:
    """These games, in the order asked; unknown ids are left out (as lichess does)."""
    async with sessions() as session:
        rows = (await session.execute(select(Game).where(Game.id.in_(set(ids))))).scalars()
        found = {g.id: g for g in rows}
    games = [found[i] for i in dict.fromkeys(ids) if i in found]
    return games, await context_of(sessions, games)


async def current_game(sessions: async_sessionmaker[AsyncSession], player_id: str) -> Game | None:
    """The game the player is playing (the latest started), else the last one it played."""
    seat = or_(Game.first_id == player_id, Game.second_id == player_id)
    async with sessions() as session:
        for condition in (Game.status == GameStatus.STARTED, Game.status.in_(ENDED)):
            stmt = (
                select(Game)
                .where(seat, condition, Game.started_ms.is_not(None))
                .order_by(Game.started_ms.desc(), Game.id.desc())
                .limit(1)
            )
            found = (await session.execute(stmt)).scalar_one_or_none()
            if found is not None:
                return found
    return None
