"""An arena as it stands, read in one session: its players, its games, and the standings
computed from them (app/tournaments/scoring.py)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Player
from app.tournaments import scoring
from app.tournaments.tables import Tournament, TournamentPairing, TournamentPlayer


@dataclass(frozen=True)
class State:
    players: list[TournamentPlayer]  # in the order they joined
    pairings: list[TournamentPairing]  # every game that counts or will, oldest first
    standings: list[scoring.Standing]
    names: dict[str, str]  # the players' usernames

    def player(self, player_id: str) -> TournamentPlayer | None:
        return next((p for p in self.players if p.player_id == player_id), None)


def played_by(
    state_pairings: list[TournamentPairing], ratings: dict[str, int]
) -> dict[str, list[scoring.Played]]:
    """Each player's finished games, oldest first, as the scoring reads them."""
    games: dict[str, list[scoring.Played]] = {}
    for g in state_pairings:
        if g.status != "finished":
            continue
        for me, other, berserk, side in (
            (g.first_id, g.second_id, g.first_berserk, "first"),
            (g.second_id, g.first_id, g.second_berserk, "second"),
        ):
            won = None if g.winner is None else g.winner == side
            games.setdefault(me, []).append(
                scoring.played(
                    won, g.plies or 0, berserk=berserk, opponent_rating=ratings.get(other, 1500)
                )
            )
    return games


async def state(session: AsyncSession, tour: Tournament) -> State:
    players = list(
        (
            await session.execute(
                select(TournamentPlayer)
                .where(TournamentPlayer.tournament_id == tour.id)
                .order_by(TournamentPlayer.joined_ms, TournamentPlayer.player_id)
            )
        ).scalars()
    )
    pairings = list(
        (
            await session.execute(
                select(TournamentPairing)
                .where(
                    TournamentPairing.tournament_id == tour.id,
                    TournamentPairing.status != "void",
                )
                .order_by(TournamentPairing.created_ms, TournamentPairing.game_id)
            )
        ).scalars()
    )
    ids = [p.player_id for p in players]
    names: dict[str, str] = {}
    if ids:
        rows = await session.execute(
            select(Player.id, func.coalesce(Player.username, Player.name)).where(Player.id.in_(ids))
        )
        names = {pid: str(name) for pid, name in rows.all()}
    ratings = {p.player_id: p.rating for p in players}
    standings = scoring.standings(
        played_by(pairings, ratings), ratings, ids, streakable=tour.streakable
    )
    return State(players, pairings, standings, names)


async def nb_players(session: AsyncSession, tournament_ids: list[str]) -> dict[str, int]:
    if not tournament_ids:
        return {}
    rows = await session.execute(
        select(TournamentPlayer.tournament_id, func.count())
        .where(TournamentPlayer.tournament_id.in_(tournament_ids))
        .group_by(TournamentPlayer.tournament_id)
    )
    return {tid: int(n) for tid, n in rows.all()}
