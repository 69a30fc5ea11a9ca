"""The outbox's consumer of a Swiss game's end (app/outbox/consumer.py): in the transaction
that marks the ``GameEnded`` row consumed, the pairing takes its result (once: only a pairing
still ``started`` changes; an aborted game is void, no points), and when it was the round's
last game on, the next round is due after the interval (or the event is over after its last
round). However many instances or sweeps see the row, this happens exactly once."""

from __future__ import annotations

from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Game
from app.domain.enums import GameStatus
from app.domain.events import GameEnded, GameEvent
from app.tournaments.tables import Swiss, SwissPairing


class SwissResults:
    async def apply(self, session: AsyncSession, event: GameEvent) -> None:
        if not isinstance(event, GameEnded):
            return
        pairing = (
            await session.execute(
                select(SwissPairing.swiss_id, SwissPairing.round).where(
                    SwissPairing.game_id == event.game_id, SwissPairing.status == "started"
                )
            )
        ).one_or_none()
        if pairing is None:
            return  # not a Swiss game
        finished_ms = (
            await session.execute(select(Game.finished_ms).where(Game.id == event.game_id))
        ).scalar_one()
        void = event.status == GameStatus.ABORTED
        await session.execute(
            update(SwissPairing)
            .where(SwissPairing.game_id == event.game_id, SwissPairing.status == "started")
            .values(
                status="void" if void else "finished",
                winner=None if event.winner is None else event.winner.value,
                finished_ms=finished_ms,
            )
        )
        on = (
            await session.execute(
                select(func.count()).where(
                    SwissPairing.swiss_id == pairing.swiss_id,
                    SwissPairing.round == pairing.round,
                    SwissPairing.status == "started",
                )
            )
        ).scalar_one()
        swiss = await session.get(Swiss, pairing.swiss_id)
        if on or swiss is None or swiss.status != "started" or swiss.round != pairing.round:
            return
        ended = finished_ms or 0
        if swiss.round >= swiss.nb_rounds:
            values = {"status": "finished", "finished_ms": ended, "next_round_ms": None}
        else:
            values = {"next_round_ms": ended + swiss.round_interval_s * 1000}
        await session.execute(
            update(Swiss)
            .where(Swiss.id == swiss.id, Swiss.round == pairing.round, Swiss.status == "started")
            .values(values)
        )
