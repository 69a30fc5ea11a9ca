"""The outbox's consumer of an arena game's end (app/outbox/consumer.py): in the transaction
that marks the ``GameEnded`` row consumed, the pairing takes its result (once: only a pairing
still ``started`` changes) and its two players come free for the next wave. However many
instances, sweeps or restarts see the row, the result is written exactly once.

An aborted game does not count; a player who never made their first move (``noStart``)
loses it and is withdrawn, as lichess pauses whoever does not start their games."""

from __future__ import annotations

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Game
from app.domain.enums import GameStatus, Side
from app.domain.events import GameEnded, GameEvent
from app.tournaments.tables import TournamentPairing, TournamentPlayer


class ArenaResults:
    async def apply(self, session: AsyncSession, event: GameEvent) -> None:
        if not isinstance(event, GameEnded):
            return
        pairing = (
            await session.execute(
                select(
                    TournamentPairing.tournament_id,
                    TournamentPairing.first_id,
                    TournamentPairing.second_id,
                ).where(
                    TournamentPairing.game_id == event.game_id,
                    TournamentPairing.status == "started",
                )
            )
        ).one_or_none()
        if pairing is None:
            return  # not an arena's game, or it does not count (the arena ended first)
        finished_ms = (
            await session.execute(select(Game.finished_ms).where(Game.id == event.game_id))
        ).scalar_one_or_none()
        void = event.status == GameStatus.ABORTED
        await session.execute(
            update(TournamentPairing)
            .where(
                TournamentPairing.game_id == event.game_id,
                TournamentPairing.status == "started",
            )
            .values(
                status="void" if void else "finished",
                winner=None if event.winner is None else event.winner.value,
                plies=event.ply,
                finished_ms=finished_ms,
            )
        )
        players = TournamentPlayer
        await session.execute(
            update(players)
            .where(
                players.tournament_id == pairing.tournament_id,
                players.player_id.in_([pairing.first_id, pairing.second_id]),
                players.playing == event.game_id,
            )
            .values(playing=None)
        )
        if event.status == GameStatus.NO_START and event.winner is not None:
            idle = pairing.second_id if event.winner == Side.FIRST else pairing.first_id
            await session.execute(
                update(players)
                .where(players.tournament_id == pairing.tournament_id, players.player_id == idle)
                .values(withdrawn=True)
            )
