"""The Dōbutsu tablebase's tables, read from the settings' folder when asked for."""

from __future__ import annotations

from app.core.config import Settings
from app.tablebase.lookup import Tablebases


def wire(settings: Settings) -> Tablebases:
    return Tablebases(settings.resolved_tablebase_path)
