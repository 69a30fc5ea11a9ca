"""Every change of a game, as a function of the game row and the time: it checks who may do
what, changes the row (the engine validates moves) and returns the typed events of what
happened (app/domain/events.py). A refusal raises ServiceError and changes nothing.

No I/O: the pipeline (pipeline.py) loads the row, runs one of these, saves the row in one
conditional write, and hands the events to everything downstream.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping

from app.core.config import Settings
from app.core.errors import ServiceError
from app.db.models import Game
from app.domain.enums import ENDED, EndReason, GameStatus
from app.domain.events import (
    DrawDeclined,
    DrawOffered,
    GameEnded,
    GameEvent,
    GameStarted,
    MovePlayed,
    MovesTakenBack,
    SeatTaken,
    SeekHidden,
    SeekShown,
    TakebackDeclined,
    TakebackOffered,
)
from app.domain.players import Identity
from app.games import clock
from app.games.rules import Positions, has_moved, replay, rules_of, start_of, status_of
from app.lobby import seekrange
from app.ratings.glicko2 import Rating
from app.ratings.reading import seat_columns
from engine import EngineError, Side

Events = list[GameEvent]


def seat_of(game: Game, player_id: str) -> Side | None:
    if game.first_id == player_id:
        return Side.FIRST
    if game.second_id == player_id:
        return Side.SECOND
    return None


def finish(
    game: Game, now: int, status: GameStatus, winner: Side | None, reason: EndReason
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


def require_started(game: Game) -> None:
    if game.status in ENDED:
        raise ServiceError("game.over", f"the game is over ({game.status}: {game.reason})", 409)
    if game.status != GameStatus.STARTED:
        raise ServiceError("game.not_started", "the game waits for its second player", 409)


def game_over(game: Game) -> ServiceError:
    return ServiceError("game.over", f"the game is over ({game.status})", 409)


class Transitions:
    """The changes, with what they need to know: the settings (deadlines, grace periods),
    the positions cache, and how long a seat has had nobody connected (presence)."""

    def __init__(self, settings: Settings, positions: Positions) -> None:
        self.settings = settings
        self.positions = positions
        self.gone_for_ms: Callable[[str, str], int | None] = lambda _game_id, _side: None

    # ---- deadlines -------------------------------------------------------------------------
    def first_move_deadline(self, game: Game) -> int | None:
        """The seconds the first moves must be made in (not in a correspondence game: its
        days per move run from the start)."""
        if game.status != GameStatus.STARTED or game.ply >= 2 or game.turn_started_ms is None:
            return None
        if game.days is not None:
            return None
        return game.turn_started_ms + int(self.settings.first_move_seconds * 1000)

    def deadline(self, game: Game) -> int | None:
        """The deadline the state shows: the first-move one, or the correspondence one."""
        return self.first_move_deadline(game) or clock.deadline_at(game)

    def due_at(self, game: Game) -> int | None:
        """When the server must end this game by itself if nothing happens first."""
        return self.deadline(game) or clock.flag_at(game)

    def grace_ms(self, game: Game, side: str) -> int:
        """How long ``side`` may be away before the opponent can claim (shorter if unmoved)."""
        moved = has_moved(game, side)
        seconds = self.settings.gone_seconds if moved else self.settings.gone_unmoved_seconds
        return int(seconds * 1000)

    def expire_if_due(self, game: Game, now: int) -> Events:
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

    # ---- seats -----------------------------------------------------------------------------
    @staticmethod
    def seat_creator(game: Game, _now: int) -> Events:
        side = Side(game.creator_color)
        if side == Side.FIRST:
            game.first_id = game.creator_id
        else:
            game.second_id = game.creator_id
        return [SeatTaken(game.id, game.ply, side, game.creator_id)]

    @staticmethod
    def take_seat(
        game: Game,
        now: int,
        who: Identity,
        *,
        by_invite: bool,
        ratings: Mapping[str, Rating] | None = None,
    ) -> Events:
        """``ratings``: the accounts' among the two players, as the game starts (kept with
        it); a rated game's seat is only an account's."""
        ratings = ratings or {}
        if who.id in (game.creator_id, game.first_id, game.second_id):
            return []  # already in the game: nothing to do
        if not by_invite and not game.public:
            raise ServiceError(
                "game.private", "this game is private: join it with its invite link", 403
            )
        if game.status != GameStatus.CREATED:
            raise ServiceError("game.seat_taken", "this game's seats are taken", 409, id=game.id)
        if game.rated and who.id not in ratings:
            raise ServiceError(
                "game.rated_needs_account", "only an account can play a rated game", 403
            )
        if not by_invite and game.seek_away_ms is not None:
            raise ServiceError(
                "seek.away",
                "this game's creator has no page of Kodama open: it waits for them to come back",
                409,
            )
        if not by_invite:  # an invite link names its opponent: the range is the lobby's
            seekrange.check(game, ratings.get(who.id))
        color = game.creator_color
        if color == "random":
            color = secrets.choice(tuple(Side))  # the rules: the first player is drawn at random
        if color == Side.FIRST:
            game.first_id, game.second_id = game.creator_id, who.id
        else:
            game.first_id, game.second_id = who.id, game.creator_id
        game.status = GameStatus.STARTED
        game.started_ms = now
        game.turn_started_ms = now
        seat_columns(game, ratings)
        assert game.first_id is not None and game.second_id is not None
        events: Events = []
        if game.creator_color == "random":  # the creator's seat is known only now
            creator_side = Side.FIRST if game.first_id == game.creator_id else Side.SECOND
            events.append(SeatTaken(game.id, 0, creator_side, game.creator_id))
        joiner_side = Side.FIRST if game.first_id == who.id else Side.SECOND
        events.append(SeatTaken(game.id, 0, joiner_side, who.id))
        events.append(GameStarted(game.id, 0, game.first_id, game.second_id))
        return events

    @staticmethod
    def cancel(game: Game, now: int, who: Identity) -> Events:
        if game.creator_id != who.id:
            raise ServiceError("game.not_creator", "only the creator can cancel a game", 403)
        if game.status != GameStatus.CREATED:
            raise ServiceError(
                "game.not_cancelable", "someone has joined: the game can only be aborted", 409
            )
        return [finish(game, now, GameStatus.ABORTED, None, EndReason.CANCELED)]

    # ---- a seek lives while its creator has a page open (app/lobby/seeks.py) -----------
    @staticmethod
    def seek_away(game: Game, now: int) -> Events:
        if game.status != GameStatus.CREATED or not game.public or game.seek_away_ms is not None:
            return []
        game.seek_away_ms = now
        return [SeekHidden(game.id, game.ply)]

    @staticmethod
    def seek_back(game: Game, _now: int) -> Events:
        if game.status != GameStatus.CREATED or game.seek_away_ms is None:
            return []
        game.seek_away_ms = None
        return [SeekShown(game.id, game.ply)]

    @staticmethod
    def seek_abandoned(game: Game, now: int, grace_ms: int) -> Events:
        """Cancelled (as expired): hidden for the whole grace, its creator never back."""
        if game.status != GameStatus.CREATED or game.seek_away_ms is None:
            return []
        if now - game.seek_away_ms < grace_ms:
            return []
        return [finish(game, now, GameStatus.ABORTED, None, EndReason.EXPIRED)]

    @staticmethod
    def expire_unjoined(game: Game, now: int) -> Events:
        if game.status != GameStatus.CREATED:
            return []  # someone joined meanwhile
        return [finish(game, now, GameStatus.ABORTED, None, EndReason.EXPIRED)]

    # ---- playing ---------------------------------------------------------------------------
    @staticmethod
    def seat(game: Game, who: Identity) -> Side:
        side = seat_of(game, who.id)
        if side is None:
            if game.status == GameStatus.CREATED and game.creator_id == who.id:
                # A random-colour creator has no seat until the opponent arrives.
                raise ServiceError("game.not_started", "the game waits for its second player", 409)
            raise ServiceError("game.not_player", "you are not playing in this game", 403)
        return side

    def move(self, game: Game, now: int, who: Identity, text: str, ply: int | None) -> Events:
        """The move pipeline's change. ``ply``: the number of moves the client has seen."""
        side = self.seat(game, who)
        expired = self.expire_if_due(game, now)
        if expired:
            raise KeptThenRefused(expired, game_over(game))
        require_started(game)
        if ply is not None and ply != game.ply:
            raise ServiceError(
                "game.stale", f"the game is at ply {game.ply}, not {ply}: resync and try again", 409
            )
        rules = rules_of(game)
        pos = self.positions.get(game)
        if rules.side_to_move(pos) != side:
            raise ServiceError("game.not_your_turn", "it is not your turn", 409)
        try:
            after = rules.play(pos, text)
        except EngineError as exc:
            status = 422 if exc.code == "move.illegal" else 400
            raise ServiceError(exc.code, str(exc), status) from None
        clock.charge(game, side, now)
        game.moves = f"{game.moves} {text}" if game.moves else text
        game.ply += 1
        game.fen = rules.to_text(after)
        game.turn_started_ms = now
        if game.draw_offer == side.other:
            game.draw_offer = None  # moving declines the opponent's offer
        if game.takeback_offer == side:
            # Moving withdraws one's own takeback proposal (lichess). The opponent's
            # stands: accepted later, it also takes this move back.
            game.takeback_offer = None
        events: Events = [MovePlayed(game.id, game.ply, side, text)]
        result = rules.result(after)
        if result is not None:
            events.append(
                finish(game, now, status_of(result), result.winner, EndReason.of(result.reason))
            )
        self.positions.put(game.id, game.moves, after)
        return events

    def resign(self, game: Game, now: int, who: Identity) -> Events:
        side = self.seat(game, who)
        expired = self.expire_if_due(game, now)
        if expired:
            return expired
        require_started(game)
        return [finish(game, now, GameStatus.RESIGN, side.other, EndReason.RESIGN)]

    def abort(self, game: Game, now: int, who: Identity) -> Events:
        self.seat(game, who)
        require_started(game)
        if game.ply >= 2:
            raise ServiceError(
                "game.not_abortable",
                "both players have moved: the game can no longer be aborted",
                409,
            )
        return [finish(game, now, GameStatus.ABORTED, None, EndReason.ABORT)]

    def draw(self, game: Game, now: int, who: Identity, action: str) -> Events:
        """offer (accepts a standing offer of the opponent), accept, or decline."""
        side = self.seat(game, who)
        expired = self.expire_if_due(game, now)
        if expired:
            return expired
        require_started(game)
        offered_by_opponent = game.draw_offer == side.other
        if action == "offer" and not offered_by_opponent:
            if game.draw_offer == side:
                return []  # offering again changes nothing
            game.draw_offer = side
            return [DrawOffered(game.id, game.ply, side)]
        if not offered_by_opponent:
            raise ServiceError("draw.no_offer", "your opponent has not offered a draw", 409)
        if action in ("offer", "accept"):
            return [finish(game, now, GameStatus.DRAW, None, EndReason.AGREEMENT)]
        game.draw_offer = None
        return [DrawDeclined(game.id, game.ply, side)]

    def takeback(self, game: Game, now: int, who: Identity, action: str) -> Events:
        """lichess's takebacks, in casual games. ``offer`` proposes (or accepts the
        opponent's proposal), ``accept`` accepts it, ``decline`` declines the opponent's
        proposal or withdraws one's own. Accepted, it takes back the proposer's last move and
        every move after it (lichess: one or two plies), so that the proposer is to move."""
        side = self.seat(game, who)
        expired = self.expire_if_due(game, now)
        if expired:
            raise KeptThenRefused(expired, game_over(game))
        require_started(game)
        if game.rated:
            raise ServiceError("takeback.rated", "moves cannot be taken back in a rated game", 409)
        proposed_by_opponent = game.takeback_offer == side.other
        if action == "decline":
            if game.takeback_offer is None:
                raise ServiceError("takeback.no_offer", "nobody proposes a takeback", 409)
            game.takeback_offer = None
            return [TakebackDeclined(game.id, game.ply, side)]
        if proposed_by_opponent:
            return [self._take_back(game, now, side.other)]
        if action == "accept":
            raise ServiceError(
                "takeback.no_offer", "your opponent has not proposed a takeback", 409
            )
        if game.takeback_offer == side:
            return []  # proposing again changes nothing
        _positions, movers = replay(game, positions=False)
        if game.ply < 2 or side not in movers:
            raise ServiceError(
                "takeback.nothing", "nothing to take back: both players must have moved first", 409
            )
        game.takeback_offer = side
        return [TakebackOffered(game.id, game.ply, side)]

    def _take_back(self, game: Game, now: int, proposer: Side) -> MovesTakenBack:
        """Take back the proposer's last move and every move after it.

        The clocks are not wound back (as lichess's, which only give back the running turn):
        each side keeps the time it had when the current turn began, and the side to move
        now starts its turn afresh."""
        _positions, movers = replay(game, positions=False)
        keep = max(i for i, mover in enumerate(movers) if mover == proposer)
        rules = rules_of(game)
        moves = game.moves.split()[:keep]
        pos = start_of(game)
        for text in moves:
            pos = rules.play(pos, text)
        taken = game.ply - keep
        game.moves = " ".join(moves)
        game.ply = keep
        game.fen = rules.to_text(pos)
        game.turn_started_ms = now
        game.takeback_offer = None
        game.draw_offer = None  # an offer was about a position that is gone
        self.positions.put(game.id, game.moves, pos)
        return MovesTakenBack(game.id, game.ply, taken)

    def claim(self, game: Game, now: int, who: Identity, kind: str) -> Events:
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
