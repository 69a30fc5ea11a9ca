"""An arena as it stands, read in one session: its players, its games, and the standings
computed from them (app/tournaments/scoring.py)."""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Player
from app.tournaments import scoring
from app.tournaments.tables import Tournament, TournamentPairing, TournamentPlayer


@dataclass(frozen=True, slots=True)
class Entrant:
    """A row of ``tournament_players`` (read as plain rows: an arena's page reads them all
    every 2 seconds, and ORM objects cost several times as much to load)."""

    player_id: str
    rating: int
    joined_ms: int
    withdrawn: bool
    playing: str | None


@dataclass(frozen=True, slots=True)
class Pairing:
    """A row of ``tournament_pairings``, read as plain rows as ``Entrant``."""

    game_id: str
    first_id: str
    second_id: str
    first_berserk: bool
    second_berserk: bool
    status: str
    winner: str | None
    plies: int | None
    created_ms: int


@dataclass(frozen=True)
class State:
    players: list[Entrant]  # in the order they joined
    pairings: list[Pairing]  # every game that counts or will, oldest first
    standings: list[scoring.Standing]
    names: dict[str, str]  # the players' usernames
    # Indexes, so that nothing read per player or per game scans every player.
    by_id: dict[str, Entrant] = field(init=False)
    standing_of: dict[str, scoring.Standing] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "by_id", {p.player_id: p for p in self.players})
        object.__setattr__(self, "standing_of", {s.player_id: s for s in self.standings})

    def player(self, player_id: str) -> Entrant | None:
        return self.by_id.get(player_id)


_ENTRANT = [getattr(TournamentPlayer, f) for f in Entrant.__slots__]
_PAIRING = [getattr(TournamentPairing, f) for f in Pairing.__slots__]


def played_by(
    state_pairings: list[Pairing], ratings: dict[str, int]
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
    players = [
        Entrant(*row)
        for row in await session.execute(
            select(*_ENTRANT)
            .where(TournamentPlayer.tournament_id == tour.id)
            .order_by(TournamentPlayer.joined_ms, TournamentPlayer.player_id)
        )
    ]
    pairings = [
        Pairing(*row)
        for row in await session.execute(
            select(*_PAIRING)
            .where(
                TournamentPairing.tournament_id == tour.id,
                TournamentPairing.status != "void",
            )
            .order_by(TournamentPairing.created_ms, TournamentPairing.game_id)
        )
    ]
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


async def wave_due(session: AsyncSession, now: int) -> bool:
    """Whether a wave has anything to do: an arena running, or one whose start has come."""
    t = Tournament
    due = (t.status == "started") | ((t.status == "created") & (t.starts_ms <= now))
    return (await session.execute(select(t.id).where(due).limit(1))).first() is not None
