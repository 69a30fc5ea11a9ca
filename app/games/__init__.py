"""Games: their rules and positions (rules.py), the changes (transitions.py), the storage
pipeline (pipeline.py), the state sent to clients (state.py), many-game reads (queries.py),
new games' terms (terms.py) and rows (newgames.py), and the service (service.py) whose
role objects read, set up, play, keep up and change games, telling each change to its
subscribers (subscribers.py)."""

from app.domain.enums import ENDED, GameStatus
from app.domain.players import Identity
from app.games.newgames import NewGame, too_many_open
from app.games.rules import (
    has_moved,
    initial_text,
    opening_side,
    rules_of,
    start_of,
)
from app.games.service import GameService
from app.games.timecontrol import (
    MAX_CLOCK_MINUTES,
    MAX_INCREMENT_SECONDS,
    MIN_CLOCK_SECONDS,
    clock_ms_of,
)
from app.realtime.messages import LOBBY_CHANNEL, game_channel

__all__ = [
    "ENDED",
    "LOBBY_CHANNEL",
    "MAX_CLOCK_MINUTES",
    "MAX_INCREMENT_SECONDS",
    "MIN_CLOCK_SECONDS",
    "GameService",
    "GameStatus",
    "Identity",
    "NewGame",
    "clock_ms_of",
    "game_channel",
    "has_moved",
    "initial_text",
    "opening_side",
    "rules_of",
    "start_of",
    "too_many_open",
]
