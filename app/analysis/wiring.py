"""The analysis board's workers and their limits, on the app's clock."""

from __future__ import annotations

from app.analysis.evaluate import Budget
from app.analysis.workers import AnalysisWorkers
from app.core.config import Settings
from app.core.time import Clock


def wire(settings: Settings, clock: Clock) -> AnalysisWorkers:
    return AnalysisWorkers(
        clock.monotonic,
        workers=settings.analysis_workers,
        queue=settings.analysis_queue,
        rate_per_s=settings.ratelimit_analysis_per_s,
        burst=settings.ratelimit_analysis_burst,
        ip_factor=settings.ratelimit_ip_factor,
        eval_workers=settings.analysis_eval_workers,
        eval_queue=settings.analysis_eval_queue,
        budget=Budget(settings.analysis_eval_nodes, settings.analysis_eval_seconds),
        cache=settings.analysis_eval_cache,
        tables=settings.resolved_tablebase_path,
    )
