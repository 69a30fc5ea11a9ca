"""lichess's JSON of a challenge (its time control, its decline reason in words) and of a game
a challenge started, as the challenge API answers them (docs/API.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import engine
from app.botapi.gamejson import COLOR, STATUS_IDS, PlayerInfo, speed_of_game, variant_json
from app.db.models import Challenge, GameRow
from app.domain.enums import ChallengeStatus
from app.games import initial_text
from app.games.timecontrol import speed_of
from app.ratings.glicko2 import Rating

# lichess's decline reasons and their sentences.
DECLINE_REASONS = {
    "generic": "I'm not accepting challenges at the moment.",
    "later": "This is not the right time for me, please ask again later.",
    "tooFast": "This time control is too fast for me, please challenge again with a slower game.",
    "tooSlow": "This time control is too slow for me, please challenge again with a faster game.",
    "timeControl": "I'm not accepting challenges with this time control.",
    "rated": "Please send me a rated challenge instead.",
    "casual": "Please send me a casual challenge instead.",
    "standard": "I'm not accepting variant challenges right now.",
    "variant": "This variant is not available for me right now.",
    "noBot": "I'm not accepting challenges from bots.",
    "onlyBot": "I'm only accepting challenges from bots.",
}


# lichess writes these clock limits as fractions of a minute ("¼+0").
MINUTE_FRACTIONS = {15: "¼", 30: "½", 45: "¾"}


def clock_show(limit: int, increment: int) -> str:
    """lichess's ``timeControl.show``: minutes + seconds, a sub-minute clock as a fraction
    (``¼+0``, ``½+0``, ``¾+0``) or with at most two decimals (``0.33+1``, ``1.5+0``)."""
    if limit % 60 == 0:
        minutes = str(limit // 60)
    else:
        minutes = MINUTE_FRACTIONS.get(limit) or f"{limit / 60:.2f}".rstrip("0").rstrip(".")
    return f"{minutes}+{increment}"


def time_control(challenge: Challenge) -> dict[str, Any]:
    if challenge.clock_limit is None:
        if challenge.days is not None:
            return {"type": "correspondence", "daysPerTurn": challenge.days}
        return {"type": "unlimited"}
    limit, inc = challenge.clock_limit, challenge.clock_increment or 0
    data: dict[str, Any] = {"type": "clock", "limit": limit, "increment": inc}
    data["show"] = clock_show(limit, inc)
    byoyomi, periods = challenge.clock_byoyomi, challenge.clock_periods
    if byoyomi is not None and periods is not None:
        data["byoyomi"], data["periods"] = byoyomi, periods
        # "5+3×30s": 5 minutes, then 3 periods of 30 s (byo-yomi has no increment).
        data["show"] = f"{clock_show(limit, 0).split('+')[0]}+{periods}×{byoyomi}s"
    return data


def game_json(game: GameRow, side: str, source: str) -> dict[str, Any]:
    """A game as lichess answers ``POST /api/challenge/ai`` (and a challenge accepted by
    token): as seen by the player of ``side``, who made the request."""
    speed = speed_of_game(game)
    return {
        "id": game.id,
        "variant": variant_json(game.variant),
        "speed": speed,
        "perf": speed,
        "rated": game.rated,
        "initialFen": initial_text(game),
        "fen": game.fen,
        "player": COLOR[side],
        "turns": game.ply,
        "startedAtTurn": 0,
        "source": source,
        "status": {"id": STATUS_IDS.get(game.status, 0), "name": game.status},
        "createdAt": game.created_ms,
    }


def user_json(info: PlayerInfo | None, rating: Rating | None = None) -> dict[str, Any] | None:
    """A player of a challenge; with ``rating`` (theirs in the challenge's game), as lichess:
    ``rating`` rounded and ``"provisional": true`` only while provisional."""
    if info is None:
        return None
    data: dict[str, Any] = {"id": info.id, "name": info.name, "title": info.title}
    if rating is not None:
        data["rating"] = round(rating.rating)
        if rating.provisional:
            data["provisional"] = True
    return data


def challenge_json(
    challenge: Challenge,
    players: Mapping[str, PlayerInfo],
    base_url: str,
    direction: str | None = None,
    ratings: Mapping[str, Rating] | None = None,
) -> dict[str, Any]:
    """A challenge as lichess shows it (``GET /api/challenge/{id}``, the event stream):
    ``players``: the accounts it names, ``direction``: "in" or "out" for a list,
    ``ratings``: the challenger's and destination's ratings in its game, by player id."""
    ratings = ratings or {}
    url = f"{base_url}/challenge/{challenge.id}"
    data: dict[str, Any] = {
        "id": challenge.id,
        "url": url,
        "status": challenge.status,
        "challenger": user_json(
            players.get(challenge.challenger_id), ratings.get(challenge.challenger_id)
        ),
        "destUser": user_json(
            players.get(challenge.dest_id or ""), ratings.get(challenge.dest_id or "")
        ),
        "variant": variant_json(challenge.variant),
        "rated": challenge.rated,
        "speed": speed_of(
            None if challenge.clock_limit is None else challenge.clock_limit * 1000,
            (challenge.clock_increment or 0) * 1000,
            None if challenge.clock_byoyomi is None else challenge.clock_byoyomi * 1000,
        ),
        "timeControl": time_control(challenge),
        "color": challenge.color,
        "finalColor": challenge.final_color,
        "perf": {"name": engine.get_game(challenge.variant).name},
        "rules": dict(challenge.rules),
        "createdAt": challenge.created_ms,
    }
    if challenge.days is not None:
        data["days"] = challenge.days
    if challenge.initial_fen is not None:
        data["initialFen"] = challenge.initial_fen
    if challenge.name is not None:
        data["name"] = challenge.name
    if challenge.rematch_of is not None:
        data["rematchOf"] = challenge.rematch_of
    if direction is not None:
        data["direction"] = direction
    if challenge.status == ChallengeStatus.DECLINED:
        reason = challenge.decline_reason or "generic"
        data["declineReasonKey"] = reason
        data["declineReason"] = DECLINE_REASONS.get(reason, DECLINE_REASONS["generic"])
    if challenge.status == ChallengeStatus.ACCEPTED:
        data["gameId"] = challenge.id
        data["gameUrl"] = f"{base_url}/game/{challenge.id}"
    if challenge.dest_id is None:
        data["open"] = True
        data["urlWhite"] = f"{url}?color=white"
        data["urlBlack"] = f"{url}?color=black"
        data["seats"] = {
            "white": user_json(players.get(challenge.open_white_id or "")),
            "black": user_json(players.get(challenge.open_black_id or "")),
        }
    return data
