"""An arena in lichess's JSON shapes (docs/api.md, "Tournaments"): the summary of the lists
(``GET /api/tournament``), the full info with a page of standings, the player's own game, the
games on and the podium (``GET /api/tournament/{id}``), and a results line."""

from __future__ import annotations

from typing import Any

import engine
from app.tournaments.naming import name_words
from app.tournaments.reading import State
from app.tournaments.scoring import Standing
from app.tournaments.tables import Tournament

PAGE = 10  # lichess's standings page
STATUS = {"created": 10, "started": 20, "finished": 30}  # lichess's status codes


def ends_ms(tour: Tournament) -> int:
    return tour.finished_ms or tour.starts_ms + tour.minutes * 60_000


def summary(tour: Tournament, nb_players: int, now: int) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": tour.id,
        "createdBy": tour.created_by,
        "system": "arena",
        "fullName": tour.name,
        "minutes": tour.minutes,
        "clock": {"limit": tour.clock_limit_s, "increment": tour.clock_increment_s},
        "variant": tour.variant,
        "variantName": engine.get_game(tour.variant).name,
        "rules": dict(tour.rules),
        "rated": tour.rated,
        "berserkable": tour.berserkable,
        "streakable": tour.streakable,
        "private": tour.password_hash is not None,
        "startsAt": tour.starts_ms,
        "finishesAt": ends_ms(tour),
        "status": STATUS[tour.status],
        "nbPlayers": nb_players,
    }
    if tour.min_rating is not None:
        data["minRating"] = {"rating": tour.min_rating}
    if tour.max_rating is not None:
        data["maxRating"] = {"rating": tour.max_rating}
    if tour.description:
        data["description"] = tour.description
    if (words := name_words(tour.name, tour.variant, "arena", tour.created_by)) is not None:
        data["defaultName"] = words
    if tour.status == "created":
        data["secondsToStart"] = max(0, (tour.starts_ms - now) // 1000)
    elif tour.status == "started":
        data["secondsToFinish"] = max(0, (ends_ms(tour) - now) // 1000)
    return data


def standing_player(s: Standing, state: State) -> dict[str, Any]:
    player = state.player(s.player_id)
    data: dict[str, Any] = {
        "id": s.player_id,
        "name": state.names.get(s.player_id, "?"),
        "rank": s.rank,
        "rating": s.rating,
        "score": s.score,
        "sheet": {"scores": s.sheet.text, "fire": s.sheet.on_fire},
        "nbGames": s.games,
    }
    if s.performance is not None:
        data["performance"] = s.performance
    if player is not None and player.withdrawn:
        data["withdraw"] = True
    return data


def duel(state: State, game_id: str, first_id: str, second_id: str) -> dict[str, Any]:
    def seat(pid: str) -> dict[str, Any]:
        s = state.standing_of.get(pid)
        return {
            "n": state.names.get(pid, "?"),
            "r": s.rating if s else 1500,
            "k": s.rank if s else 0,
        }

    return {"id": game_id, "p": [seat(first_id), seat(second_id)]}


def info(tour: Tournament, state: State, now: int, me: str | None, page: int = 1) -> dict[str, Any]:
    data = summary(tour, len(state.players), now)
    data["isStarted"] = tour.status != "created"
    data["isFinished"] = tour.status == "finished"
    start = (max(page, 1) - 1) * PAGE
    data["standing"] = {
        "page": max(page, 1),
        "players": [standing_player(s, state) for s in state.standings[start : start + PAGE]],
    }
    # The games on, best ranked first; the first one is the top game to watch.
    ranks = state.standing_of
    on = sorted(
        (g for g in state.pairings if g.status == "started"),
        key=lambda g: min(
            ranks[g.first_id].rank if g.first_id in ranks else 10**6,
            ranks[g.second_id].rank if g.second_id in ranks else 10**6,
        ),
    )
    data["duels"] = [duel(state, g.game_id, g.first_id, g.second_id) for g in on]
    if on:
        top = on[0]
        data["featured"] = {"id": top.game_id, **duel(state, top.game_id, top.first_id,
                                                        top.second_id)}  # fmt: skip
    if tour.status == "finished":
        data["podium"] = [standing_player(s, state) for s in state.standings[:3] if s.games]
    if me is not None and (mine := state.player(me)) is not None:
        mine_rank = state.standing_of[me].rank
        data["me"] = {
            "rank": mine_rank,
            "withdraw": mine.withdrawn,
            "gameId": mine.playing,
            "games": [
                {
                    "id": g.game_id,
                    "opponent": state.names.get(
                        g.second_id if g.first_id == me else g.first_id, "?"
                    ),
                    "color": "first" if g.first_id == me else "second",
                    "berserk": g.first_berserk if g.first_id == me else g.second_berserk,
                    "status": g.status,
                    "result": None
                    if g.status != "finished"
                    else "draw"
                    if g.winner is None
                    else ("win" if (g.winner == "first") == (g.first_id == me) else "loss"),
                }
                for g in reversed(state.pairings)
                if me in (g.first_id, g.second_id)
            ],
        }
    return data


def result_line(s: Standing, state: State, *, sheet: bool) -> dict[str, Any]:
    """A line of ``GET /api/tournament/{id}/results``."""
    data: dict[str, Any] = {
        "rank": s.rank,
        "score": s.score,
        "rating": s.rating,
        "username": state.names.get(s.player_id, "?"),
        "performance": s.performance if s.performance is not None else s.rating,
    }
    if sheet:
        data["sheet"] = {"scores": s.sheet.text, "fire": s.sheet.on_fire}
    return data
