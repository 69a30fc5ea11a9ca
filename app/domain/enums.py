"""A game's status and why it ended: one vocabulary for app, bots and tests (``StrEnum``s:
each member equals its text, and JSON writes the text, so the stored and sent values are
the protocol's strings, docs/protocol.md)."""

from __future__ import annotations

from enum import StrEnum

from engine import RuleReason, Side

__all__ = [
    "ENDED",
    "ChallengeStatus",
    "ChatRoom",
    "EndReason",
    "GameStatus",
    "RematchLapse",
    "RuleReason",
    "Side",
]


class GameStatus(StrEnum):
    CREATED = "created"  # waiting for its second player
    STARTED = "started"
    ABORTED = "aborted"  # canceled, aborted before both moved, or expired unjoined
    NO_START = "noStart"  # the first move was not made in time
    MATE = "mate"  # the rules' checkmate
    RESIGN = "resign"
    OUT_OF_TIME = "outoftime"  # a clock ran out
    TIMEOUT = "timeout"  # victory claimed over a player gone too long
    DRAW = "draw"
    VARIANT_END = "variantEnd"  # the rules ended it otherwise (capture, try, den...)

    @property
    def ended(self) -> bool:
        return self not in (GameStatus.CREATED, GameStatus.STARTED)


ENDED = frozenset(s for s in GameStatus if s.ended)


class EndReason(StrEnum):
    """Every reason a game ends: the rules' (engine.RuleReason, same texts) and the server's."""

    # The rules' (engine.RuleReason).
    CHECKMATE = "checkmate"
    CAPTURE = "capture"
    TRY = "try"
    DEN = "den"
    NO_PIECES = "no_pieces"
    NO_MOVES = "no_moves"
    REPETITION = "repetition"
    REPETITION_TIEBREAK = "repetition_tiebreak"
    NO_PROGRESS = "no_progress"
    # The server's.
    RESIGN = "resign"
    ABORT = "abort"
    CANCELED = "canceled"  # the creator withdrew an open game
    EXPIRED = "expired"  # an open game nobody joined in time
    FIRST_MOVE = "first_move"  # the first move not made in time
    OUT_OF_TIME = "outoftime"
    AGREEMENT = "agreement"
    OPPONENT_GONE = "opponent_gone"

    @classmethod
    def of(cls, reason: RuleReason) -> EndReason:
        return cls(reason.value)


class ChallengeStatus(StrEnum):
    """A challenge's status, as lichess names them."""

    CREATED = "created"  # waiting for an answer
    ACCEPTED = "accepted"  # its game exists (same id)
    DECLINED = "declined"
    CANCELED = "canceled"
    EXPIRED = "expired"  # nobody answered in time


class ChatRoom(StrEnum):
    """A game's two chat rooms (docs/protocol.md, chat)."""

    PLAYER = "player"  # the game's two players only: never sent to anyone else
    SPECTATOR = "spectator"  # everyone who watches, the players included


class RematchLapse(StrEnum):
    """Why a rematch offer stopped standing without an answer from the opponent."""

    WITHDRAWN = "withdrawn"  # its maker took it back
    LEFT = "left"  # its maker left the game's page (app/rematch/service.py)
    OTHER_GAME = "other_game"  # a player of the game started another game
