"""Games and what belongs to one: challenges, chat lines, and the outbox of their
changes; ``GameRow``, what the move pipeline reads of a game whatever its source."""

from __future__ import annotations

from typing import Any, Protocol

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    false,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models.base import Base


class Game(Base):
    __tablename__ = "games"
    __table_args__ = (
        Index("ix_games_status_public", "status", "public"),
        # One player never holds both seats (NULL, a free seat, passes a CHECK): migration 0004.
        CheckConstraint("first_id <> second_id", name="ck_games_one_seat_each"),
        # The standing rematch offers (a handful): what a started game's players lapse.
        Index(
            "ix_games_rematch_offer",
            "rematch_offer",
            postgresql_where=text("rematch_offer IS NOT NULL"),
            sqlite_where=text("rematch_offer IS NOT NULL"),
        ),
    )

    id: Mapped[str] = mapped_column(String(12), primary_key=True)
    variant: Mapped[str] = mapped_column(String(16))
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    public: Mapped[bool] = mapped_column(Boolean)
    # created (waiting for the second player), started, or one of the ending slugs
    # (aborted, noStart, mate, resign, outoftime, timeout, draw, variantEnd).
    status: Mapped[str] = mapped_column(String(16))
    creator_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    creator_color: Mapped[str] = mapped_column(String(8))  # first | second | random
    first_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"))
    second_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"))
    invite_token: Mapped[str] = mapped_column(String(64), unique=True)
    # The move list, canonical texts separated by spaces; ply = its length = the version.
    moves: Mapped[str] = mapped_column(Text, default="")
    ply: Mapped[int] = mapped_column(Integer, default=0)
    fen: Mapped[str] = mapped_column(Text)
    # The position the game started from (lichess's ``fen``); None: the game's own start.
    initial_fen: Mapped[str | None] = mapped_column(Text, default=None)
    # Fischer clock (None: no clock). Remaining times are as of turn_started_ms.
    clock_initial_ms: Mapped[int | None] = mapped_column(BigInteger)
    clock_increment_ms: Mapped[int | None] = mapped_column(BigInteger)
    first_ms: Mapped[int | None] = mapped_column(BigInteger)
    second_ms: Mapped[int | None] = mapped_column(BigInteger)
    turn_started_ms: Mapped[int | None] = mapped_column(BigInteger)
    # Byo-yomi (app/games/timecontrol.py; None: not byo-yomi): a period's length, the
    # periods at the start, and each side's periods left as of turn_started_ms. first_ms and
    # second_ms are then the main times.
    clock_byoyomi_ms: Mapped[int | None] = mapped_column(BigInteger, default=None)
    clock_periods: Mapped[int | None] = mapped_column(Integer, default=None)
    first_periods: Mapped[int | None] = mapped_column(Integer, default=None)
    second_periods: Mapped[int | None] = mapped_column(Integer, default=None)
    # Correspondence: days per move, the side to move's deadline being turn_started_ms plus
    # these days (None: not correspondence).
    days: Mapped[int | None] = mapped_column(Integer, default=None)
    draw_offer: Mapped[str | None] = mapped_column(String(8))  # first | second
    # Who proposes to take back moves (first | second); only in casual games.
    takeback_offer: Mapped[str | None] = mapped_column(String(8), default=None)
    # A rated game changes both players' ratings when it ends (app/ratings/service.py) and
    # allows no takeback.
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    # Each seated account's rating in this game as of the game's start (idle days applied),
    # rounded, and whether it was provisional; None for an anonymous player (migration 0012).
    first_rating: Mapped[int | None] = mapped_column(Integer, default=None)
    first_provisional: Mapped[bool | None] = mapped_column(Boolean, default=None)
    second_rating: Mapped[int | None] = mapped_column(Integer, default=None)
    second_provisional: Mapped[bool | None] = mapped_column(Boolean, default=None)
    winner: Mapped[str | None] = mapped_column(String(8))  # first | second; None: draw
    reason: Mapped[str | None] = mapped_column(String(24))
    created_ms: Mapped[int] = mapped_column(BigInteger)
    started_ms: Mapped[int | None] = mapped_column(BigInteger)
    finished_ms: Mapped[int | None] = mapped_column(BigInteger)
    # A public game waiting for its opponent whose creator has no page open: since when it is
    # hidden from the lobby (None: shown). Cancelled past the grace (app/lobby/seeks.py).
    seek_away_ms: Mapped[int | None] = mapped_column(BigInteger, default=None)
    # A seek's rating range: the joiner's rating in this game must be within it (an
    # anonymous joiner counts as 1500; docs/decisions/seek-rating-range.md). None: anyone
    # (migration 0013).
    rating_min: Mapped[int | None] = mapped_column(Integer, default=None)
    rating_max: Mapped[int | None] = mapped_column(Integer, default=None)
    # A finished game's rematch (app/rematch/service.py; migration 0014): who offers one
    # (first | second; None: no offer stands), and the new game's id, reserved with the
    # offer and kept once accepted (an accepted rematch: rematch_id without rematch_offer).
    rematch_offer: Mapped[str | None] = mapped_column(String(8), default=None)
    rematch_id: Mapped[str | None] = mapped_column(String(12), default=None)

    # The move pipeline never writes games through the ORM: app/db/gamerows/ updates a game
    # only if every column still holds what was read (compare-and-set). Should an ORM UPDATE of
    # a game ever be written, the version column makes it say "WHERE ply = <the ply read>",
    # so one that lost a race fails (StaleDataError) instead of overwriting.
    __mapper_args__ = {"version_id_col": ply, "version_id_generator": False}  # noqa: RUF012


class GameRow(Protocol):
    """A game's columns as plain attributes: what the move pipeline reads and changes. Both a
    mapped ``Game`` and the pipeline's ``GameRecord`` (app/db/gamerows/base.py: a raw row
    without the ORM's instrumentation) are one; code that may be given either says
    ``GameRow``, code that queries the table says ``Game``. Lists every column of the games
    table (tests/app/db/test_gamerows.py checks it)."""

    id: str
    variant: str
    rules: dict[str, Any]
    public: bool
    status: str
    creator_id: str
    creator_color: str
    first_id: str | None
    second_id: str | None
    invite_token: str
    moves: str
    ply: int
    fen: str
    initial_fen: str | None
    clock_initial_ms: int | None
    clock_increment_ms: int | None
    first_ms: int | None
    second_ms: int | None
    turn_started_ms: int | None
    clock_byoyomi_ms: int | None
    clock_periods: int | None
    first_periods: int | None
    second_periods: int | None
    days: int | None
    draw_offer: str | None
    takeback_offer: str | None
    rated: bool
    first_rating: int | None
    first_provisional: bool | None
    second_rating: int | None
    second_provisional: bool | None
    winner: str | None
    reason: str | None
    created_ms: int
    started_ms: int | None
    finished_ms: int | None
    seek_away_ms: int | None
    rating_min: int | None
    rating_max: int | None
    rematch_offer: str | None
    rematch_id: str | None


class Challenge(Base):
    """A game proposed to one account (or, open, to anyone): accepted, it becomes the game
    with the same id. ``color`` is the challenger's choice, in the bot API's words."""

    __tablename__ = "challenges"
    __table_args__ = (
        Index("ix_challenges_dest_status", "dest_id", "status"),
        Index("ix_challenges_challenger_status", "challenger_id", "status"),
        # An open challenge's two seats are two players (migration 0004).
        CheckConstraint("open_white_id <> open_black_id", name="ck_challenges_one_seat_each"),
    )

    id: Mapped[str] = mapped_column(String(12), primary_key=True)
    challenger_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    dest_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"))  # None: open
    variant: Mapped[str] = mapped_column(String(16))
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    clock_limit: Mapped[int | None] = mapped_column(Integer)  # seconds; None: no clock
    clock_increment: Mapped[int | None] = mapped_column(Integer)  # seconds
    # Byo-yomi (None: not byo-yomi): a period, seconds, and how many.
    clock_byoyomi: Mapped[int | None] = mapped_column(Integer, default=None)
    clock_periods: Mapped[int | None] = mapped_column(Integer, default=None)
    days: Mapped[int | None] = mapped_column(Integer)  # correspondence: days per move
    color: Mapped[str] = mapped_column(String(8))  # white | black | random
    final_color: Mapped[str | None] = mapped_column(String(8))  # the challenger's, once drawn
    rated: Mapped[bool] = mapped_column(Boolean)
    # created, accepted, declined, canceled, expired
    status: Mapped[str] = mapped_column(String(16))
    decline_reason: Mapped[str | None] = mapped_column(String(16))
    # An open challenge's seats, taken one by one by whoever opens its links.
    open_white_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"))
    open_black_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"))
    created_ms: Mapped[int] = mapped_column(BigInteger)
    updated_ms: Mapped[int] = mapped_column(BigInteger)
    # The position the game will start from (None: the game's own start).
    initial_fen: Mapped[str | None] = mapped_column(Text, default=None)
    name: Mapped[str | None] = mapped_column(String(100), default=None)  # an open one's label
    # A rematch offered to an account (lichess's ``rematchOf``): answered as the rematch of
    # that game, whose ``rematch_id`` is this challenge's id (migration 0014).
    rematch_of: Mapped[str | None] = mapped_column(ForeignKey("games.id"), default=None)


class ChatLine(Base):
    """One line of a game's chat (plain text), in the players' or the spectators' room."""

    __tablename__ = "chat_lines"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), index=True)
    room: Mapped[str] = mapped_column(String(16))  # player | spectator
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    username: Mapped[str] = mapped_column(String(40))
    text: Mapped[str] = mapped_column(String(140))
    created_ms: Mapped[int] = mapped_column(BigInteger)
    # Moderation (app/moderation): a line a moderator hid is served to nobody; a line written
    # while its author's chat was visible only to themselves is served to them alone.
    hidden: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    author_only: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class OutboxEntry(Base):
    """An event that must be acted on exactly once (app/domain/events.py ``DURABLE``),
    written in the same transaction as the change of the game that made it, and marked
    consumed by the transaction that acts on it (app/outbox/consumer.py)."""

    __tablename__ = "outbox"
    __table_args__ = (
        # The sweep's query: what is left to consume (a handful of rows at any time).
        Index(
            "ix_outbox_unconsumed",
            "created_ms",
            postgresql_where=text("consumed_ms IS NULL"),
            sqlite_where=text("consumed_ms IS NULL"),
        ),
    )

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)  # 1, 2, … in each game
    kind: Mapped[str] = mapped_column(String(32))  # a stable slug: "gameEnded"
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)  # the event's fields
    created_ms: Mapped[int] = mapped_column(BigInteger)
    consumed_ms: Mapped[int | None] = mapped_column(BigInteger, default=None)
