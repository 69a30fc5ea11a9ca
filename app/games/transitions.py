"""Every change of a game, as a function of the game row and the time: it checks who may do
what, changes the row (the engine validates moves) and returns the typed events of what
happened (app/domain/events.py). A refusal raises ServiceError and changes nothing.

The endings (resign, abort, claims, the deadlines) and what every change shares are in
endings.py, the base of ``Transitions``; here are seats, seeks, moves, draws and takebacks.

No I/O: the pipeline (pipeline.py) loads the row, runs one of these, saves the row in one
conditional write, and hands the events to everything downstream.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping

from app.core.config import Settings
from app.core.errors import ServiceError
from app.db.models import GameRow
from app.domain.enums import EndReason, GameStatus
from app.domain.events import (
    DrawDeclined,
    DrawOffered,
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
from app.games.endings import Endings, Events, KeptThenRefused, finish, game_over, require_started
from app.games.rules import Positions, replay, rules_of, start_of, status_of
from app.lobby import seekrange
from app.ratings.glicko2 import Rating
from app.ratings.reading import seat_columns
from engine import EngineError, Side


class Transitions(Endings):
    """The changes, with what they need to know: the settings (deadlines, grace periods),
    the positions cache, and how long a seat has had nobody connected (presence)."""

    def __init__(self, settings: Settings, positions: Positions) -> None:
        super().__init__(settings)
        self.positions = positions

    # ---- seats -----------------------------------------------------------------------------
    @staticmethod
    def seat_creator(game: GameRow, _now: int) -> Events:
        side = Side(game.creator_color)
        if side == Side.FIRST:
            game.first_id = game.creator_id
        else:
            game.second_id = game.creator_id
        return [SeatTaken(game.id, game.ply, side, game.creator_id)]

    @staticmethod
    def take_seat(
        game: GameRow,
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
    def cancel(game: GameRow, now: int, who: Identity) -> Events:
        if game.creator_id != who.id:
            raise ServiceError("game.not_creator", "only the creator can cancel a game", 403)
        if game.status != GameStatus.CREATED:
            raise ServiceError(
                "game.not_cancelable", "someone has joined: the game can only be aborted", 409
            )
        return [finish(game, now, GameStatus.ABORTED, None, EndReason.CANCELED)]

    # ---- a seek lives while its creator has a page open (app/lobby/seeks.py) -----------
    @staticmethod
    def seek_away(game: GameRow, now: int) -> Events:
        if game.status != GameStatus.CREATED or not game.public or game.seek_away_ms is not None:
            return []
        game.seek_away_ms = now
        return [SeekHidden(game.id, game.ply)]

    @staticmethod
    def seek_back(game: GameRow, _now: int) -> Events:
        if game.status != GameStatus.CREATED or game.seek_away_ms is None:
            return []
        game.seek_away_ms = None
        return [SeekShown(game.id, game.ply)]

    @staticmethod
    def seek_abandoned(game: GameRow, now: int, grace_ms: int) -> Events:
        """Cancelled (as expired): hidden for the whole grace, its creator never back."""
        if game.status != GameStatus.CREATED or game.seek_away_ms is None:
            return []
        if now - game.seek_away_ms < grace_ms:
            return []
        return [finish(game, now, GameStatus.ABORTED, None, EndReason.EXPIRED)]

    @staticmethod
    def expire_unjoined(game: GameRow, now: int) -> Events:
        if game.status != GameStatus.CREATED:
            return []  # someone joined meanwhile
        return [finish(game, now, GameStatus.ABORTED, None, EndReason.EXPIRED)]

    # ---- playing ---------------------------------------------------------------------------
    def move(self, game: GameRow, now: int, who: Identity, text: str, ply: int | None) -> Events:
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
        declined = game.draw_offer == side.other
        if declined:
            game.draw_offer = None  # moving declines the opponent's offer
        if game.takeback_offer == side:
            # Moving withdraws one's own takeback proposal (lichess). The opponent's
            # stands: accepted later, it also takes this move back.
            game.takeback_offer = None
        events: Events = [MovePlayed(game.id, game.ply, side, text)]
        if declined:
            events.append(DrawDeclined(game.id, game.ply, side))
        result = rules.result(after)
        if result is not None:
            events.append(
                finish(game, now, status_of(result), result.winner, EndReason.of(result.reason))
            )
        self.positions.put(game.id, game.moves, after)
        return events

    def draw(self, game: GameRow, now: int, who: Identity, action: str) -> Events:
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

    def takeback(self, game: GameRow, now: int, who: Identity, action: str) -> Events:
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

    def _take_back(self, game: GameRow, now: int, proposer: Side) -> MovesTakenBack:
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
