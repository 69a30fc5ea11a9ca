"""The game reviews: their queue on the database's sessions and the app's clock, and this
instance's runner with its worker processes and budget."""

from __future__ import annotations

from app.analysis.evaluate import Budget
from app.core.config import Settings
from app.core.time import Clock
from app.db.wiring import Database
from app.games import GameService
from app.review.runner import ReviewRunner
from app.review.service import Reviews


def wire(settings: Settings, clock: Clock, db: Database, games: GameService) -> Reviews:
    runner = ReviewRunner(
        db.sessions,
        clock,
        games,
        workers=settings.review_workers,
        budget=Budget(settings.review_eval_nodes, settings.review_eval_seconds),
        tables=settings.resolved_tablebase_path,
        lease_s=settings.review_lease_seconds,
        poll_s=settings.review_poll_seconds,
    )
    return Reviews(db.sessions, clock, games, queue_max=settings.review_queue_max, runner=runner)
