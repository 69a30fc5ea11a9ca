"""How a game ends, and what every change of a game shares: which seat a player has, ending
a game (``finish``), the deadlines that end a game by themselves (first move, correspondence
days, flags), and the endings a player asks for (resign, abort, claims when the opponent is
gone). ``Endings`` is the base of ``Transitions`` (transitions.py), which adds seats, seeks,
moves, draws and takebacks. No I/O, as every change.
"""

from __future__ import annotations

from collections.abc import Callable

from app.core.config import Settings
from app.core.errors import ServiceError
from app.db.models import GameRow
from app.domain.enums import ENDED, EndReason, GameStatus
from app.domain.events import GameEnded, GameEvent
from app.domain.players import Identity
from app.games import clock
from app.games.rules import has_moved
from engine import Side

Events = list[GameEvent]


def seat_of(game: GameRow, player_id: str) -> Side | None:
    if game.first_id == player_id:
        return Side.FIRST
    if game.second_id == player_id:
        return Side.SECOND
    return None


def finish(
    game: GameRow, now: int, status: GameStatus, winner: Side | None, reason: EndReason
) -> GameEnded:
    """End the game: the clocks stop where they stand, offers lapse."""
    clock.stop(game, now)  # (while the game still runs: a stopped clock is not charged)
    game.status = status
    game.winner = winner
    game.reason = reason
    game.finished_ms = now
    game.draw_offer = None
    game.takeback_offer = None
    game.turn_started_ms = now
    return GameEnded(game.id, game.ply, status, winner, reason)


def require_started(game: GameRow) -> None:
    if game.status in ENDED:
        raise ServiceError("game.over", f"the game is over ({game.status}: {game.reason})", 409)
    if game.status != GameStatus.STARTED:
        raise ServiceError("game.not_started", "the game waits for its second player", 409)


def game_over(game: GameRow) -> ServiceError:
    return ServiceError("game.over", f"the game is over ({game.status})", 409)


class Endings:
    """The endings, with what they need to know: the settings (deadlines, grace periods) and
    how long a seat has had nobody connected (presence)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.gone_for_ms: Callable[[str, str], int | None] = lambda _game_id, _side: None

    # ---- deadlines -------------------------------------------------------------------------
    def first_move_deadline(self, game: GameRow) -> int | None:
        """The seconds the first moves must be made in (not in a correspondence game: its
        days per move run from the start)."""
        if game.status != GameStatus.STARTED or game.ply >= 2 or game.turn_started_ms is None:
            return None
        if game.days is not None:
            return None
        return game.turn_started_ms + int(self.settings.first_move_seconds * 1000)

    def deadline(self, game: GameRow) -> int | None:
        """The deadline the state shows: the first-move one, or the correspondence one."""
        return self.first_move_deadline(game) or clock.deadline_at(game)

    def due_at(self, game: GameRow) -> int | None:
        """When the server must end this game by itself if nothing happens first."""
        return self.deadline(game) or clock.flag_at(game)

    def grace_ms(self, game: GameRow, side: str) -> int:
        """How long ``side`` may be away before the opponent can claim (shorter if unmoved)."""
        moved = has_moved(game, side)
        seconds = self.settings.gone_seconds if moved else self.settings.gone_unmoved_seconds
        return int(seconds * 1000)

    def expire_if_due(self, game: GameRow, now: int) -> Events:
        """End the game if its clock or first-move deadline ran out."""
        if game.status != GameStatus.STARTED:
            return []
        deadline = self.first_move_deadline(game)
        if deadline is not None and now >= deadline:
            return [finish(game, now, GameStatus.NO_START, None, EndReason.FIRST_MOVE)]
        side = clock.side_to_move(game)
        due = clock.deadline_at(game)
        if due is not None and now >= due:  # correspondence: the days per move ran out
            if game.ply < 2:  # before both moved, as the first-move deadline
                return [finish(game, now, GameStatus.NO_START, None, EndReason.FIRST_MOVE)]
            return [finish(game, now, GameStatus.OUT_OF_TIME, side.other, EndReason.OUT_OF_TIME)]
        flag = clock.flag_at(game)
        if flag is not None and now >= flag:
            clock.set_side(game, side, 0, None if game.clock_byoyomi_ms is None else 0)
            game.turn_started_ms = now
            return [finish(game, now, GameStatus.OUT_OF_TIME, side.other, EndReason.OUT_OF_TIME)]
        return []

    # ---- asked by a player ----------------------------------------------------------------
    @staticmethod
    def seat(game: GameRow, who: Identity) -> Side:
        side = seat_of(game, who.id)
        if side is None:
            if game.status == GameStatus.CREATED and game.creator_id == who.id:
                # A random-colour creator has no seat until the opponent arrives.
                raise ServiceError("game.not_started", "the game waits for its second player", 409)
            raise ServiceError("game.not_player", "you are not playing in this game", 403)
        return side

    def resign(self, game: GameRow, now: int, who: Identity) -> Events:
        side = self.seat(game, who)
        expired = self.expire_if_due(game, now)
        if expired:
            return expired
        require_started(game)
        return [finish(game, now, GameStatus.RESIGN, side.other, EndReason.RESIGN)]

    def abort(self, game: GameRow, now: int, who: Identity) -> Events:
        self.seat(game, who)
        require_started(game)
        if game.ply >= 2:
            raise ServiceError(
                "game.not_abortable",
                "both players have moved: the game can no longer be aborted",
                409,
            )
        return [finish(game, now, GameStatus.ABORTED, None, EndReason.ABORT)]

    def claim(self, game: GameRow, now: int, who: Identity, kind: str) -> Events:
        """Claim victory or a draw when the opponent has been gone past the grace period."""
        side = self.seat(game, who)
        expired = self.expire_if_due(game, now)
        if expired:
            return expired
        require_started(game)
        if game.days is not None:
            raise ServiceError(
                "claim.correspondence",
                "nobody has to stay connected in a correspondence game: its days per move decide",
                409,
            )
        grace = self.grace_ms(game, side.other)
        gone = self.gone_for_ms(game.id, side.other)
        if gone is None:
            raise ServiceError("claim.opponent_present", "your opponent is connected", 409)
        if gone < grace:
            raise ServiceError(
                "claim.too_early",
                f"your opponent has not been gone for {grace // 1000} seconds",
                409,
            )
        if kind == "victory":
            return [finish(game, now, GameStatus.TIMEOUT, side, EndReason.OPPONENT_GONE)]
        return [finish(game, now, GameStatus.DRAW, None, EndReason.OPPONENT_GONE)]


class KeptThenRefused(Exception):
    """The change ended the game on the way (its clock had run out), then refuses what was
    asked: the pipeline keeps and tells the end, then raises ``error``."""

    def __init__(self, events: Events, error: ServiceError) -> None:
        super().__init__(error.message)
        self.events = events
        self.error = error
