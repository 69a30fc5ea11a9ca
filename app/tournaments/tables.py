"""The tables of arena tournaments (migration 0019): the events, who joined them, and their
games (a pairing links a game to its tournament, with what only the tournament keeps: each
side's berserk and the result once the outbox consumed the game's end); and of Swiss
tournaments (migration 0020; their entry conditions 0023): the events, their players, their
rounds' games and byes.

Times are epoch milliseconds, as everywhere (app/db/models/)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, BigInteger, Boolean, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models.base import Base


class Tournament(Base):
    """An arena: a clock, a duration from its start, and whoever joined playing as many
    games as they can (app/tournaments/service.py)."""

    __tablename__ = "tournaments"
    __table_args__ = (Index("ix_tournaments_status_starts", "status", "starts_ms"),)

    id: Mapped[str] = mapped_column(String(8), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    created_by: Mapped[str] = mapped_column(ForeignKey("players.id"))
    variant: Mapped[str] = mapped_column(String(16))
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    clock_limit_s: Mapped[int] = mapped_column(Integer)  # seconds (lichess: clock.limit)
    clock_increment_s: Mapped[int] = mapped_column(Integer)
    minutes: Mapped[int] = mapped_column(Integer)  # the duration, from the start
    starts_ms: Mapped[int] = mapped_column(BigInteger)
    # created (before its start), started, finished
    status: Mapped[str] = mapped_column(String(10))
    rated: Mapped[bool] = mapped_column(Boolean)
    berserkable: Mapped[bool] = mapped_column(Boolean)
    streakable: Mapped[bool] = mapped_column(Boolean)
    # A private event: the password's SHA-256 (None: anyone may join).
    password_hash: Mapped[str | None] = mapped_column(String(64), default=None)
    min_rating: Mapped[int | None] = mapped_column(Integer, default=None)
    max_rating: Mapped[int | None] = mapped_column(Integer, default=None)
    description: Mapped[str | None] = mapped_column(Text, default=None)
    created_ms: Mapped[int] = mapped_column(BigInteger)
    # When it ended: its planned end, or earlier when its creator terminated it.
    finished_ms: Mapped[int | None] = mapped_column(BigInteger, default=None)


class TournamentPlayer(Base):
    """One player of an arena. ``playing``: the game they are in now (set in the transaction
    that inserts it, only if it was None: two instances never pair one player twice; cleared
    when the outbox consumes its end)."""

    __tablename__ = "tournament_players"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True, index=True)
    rating: Mapped[int] = mapped_column(Integer)  # in the tournament's game, as they joined
    joined_ms: Mapped[int] = mapped_column(BigInteger)
    withdrawn: Mapped[bool] = mapped_column(Boolean, default=False)  # paused: not paired
    playing: Mapped[str | None] = mapped_column(String(12), default=None)


class TournamentPairing(Base):
    """A game of an arena: its players (first moves first), each one's berserk, and its
    result as the tournament counts it (``status`` stays ``started`` until consumed)."""

    __tablename__ = "tournament_pairings"
    __table_args__ = (Index("ix_tournament_pairings_tour", "tournament_id", "created_ms"),)

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"))
    first_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    second_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    first_berserk: Mapped[bool] = mapped_column(Boolean, default=False)
    second_berserk: Mapped[bool] = mapped_column(Boolean, default=False)
    # started, finished, or void (aborted, or still on when the tournament ended: not counted)
    status: Mapped[str] = mapped_column(String(10))
    winner: Mapped[str | None] = mapped_column(String(8), default=None)  # first | second
    plies: Mapped[int | None] = mapped_column(Integer, default=None)
    created_ms: Mapped[int] = mapped_column(BigInteger)
    finished_ms: Mapped[int | None] = mapped_column(BigInteger, default=None)


class Swiss(Base):
    """A Swiss tournament (migration 0020, app/tournaments/swiss.py): a fixed number of
    rounds, everyone paired each round (app/tournaments/swisspairing.py). ``round``: the
    last one started (0 before the first); ``next_round_ms``: when the next one starts (the
    start; then once every game of a round ended, that end plus the interval)."""

    __tablename__ = "swiss"
    __table_args__ = (Index("ix_swiss_status_next", "status", "next_round_ms"),)

    id: Mapped[str] = mapped_column(String(8), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    team_id: Mapped[str] = mapped_column(String(40))  # lichess's team: kept, not checked
    created_by: Mapped[str] = mapped_column(ForeignKey("players.id"))
    variant: Mapped[str] = mapped_column(String(16))
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    clock_limit_s: Mapped[int] = mapped_column(Integer)
    clock_increment_s: Mapped[int] = mapped_column(Integer)
    nb_rounds: Mapped[int] = mapped_column(Integer)
    round_interval_s: Mapped[int] = mapped_column(Integer)
    round: Mapped[int] = mapped_column(Integer, default=0)
    starts_ms: Mapped[int] = mapped_column(BigInteger)
    next_round_ms: Mapped[int | None] = mapped_column(BigInteger, default=None)
    status: Mapped[str] = mapped_column(String(10))  # created, started, finished
    rated: Mapped[bool] = mapped_column(Boolean)
    description: Mapped[str | None] = mapped_column(Text, default=None)
    created_ms: Mapped[int] = mapped_column(BigInteger)
    finished_ms: Mapped[int | None] = mapped_column(BigInteger, default=None)
    # A private event: the password's SHA-256 (None: any account may join); rating limits,
    # as an arena's (migration 0023).
    password_hash: Mapped[str | None] = mapped_column(String(64), default=None)
    min_rating: Mapped[int | None] = mapped_column(Integer, default=None)
    max_rating: Mapped[int | None] = mapped_column(Integer, default=None)


class SwissPlayer(Base):
    """One player of a Swiss. ``withdrawn``: not paired in the next rounds (until they join
    again); ``joined_round``: the last round started when they joined (the rounds before
    theirs are absences)."""

    __tablename__ = "swiss_players"

    swiss_id: Mapped[str] = mapped_column(ForeignKey("swiss.id"), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True, index=True)
    rating: Mapped[int] = mapped_column(Integer)
    joined_ms: Mapped[int] = mapped_column(BigInteger)
    joined_round: Mapped[int] = mapped_column(Integer, default=0)
    withdrawn: Mapped[bool] = mapped_column(Boolean, default=False)


class SwissPairing(Base):
    """A game of a Swiss round, or a bye (``game_id`` None, ``second_id`` None: a point).
    ``status``: started until the outbox consumes the game's end, then finished, or void
    (aborted: no points)."""

    __tablename__ = "swiss_pairings"
    __table_args__ = (
        Index("ix_swiss_pairings_round", "swiss_id", "round"),
        Index("ix_swiss_pairings_game", "game_id", unique=True),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    swiss_id: Mapped[str] = mapped_column(ForeignKey("swiss.id"))
    round: Mapped[int] = mapped_column(Integer)
    board: Mapped[int] = mapped_column(Integer)  # 0: the bye
    game_id: Mapped[str | None] = mapped_column(ForeignKey("games.id"), default=None)
    first_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    second_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"), default=None)
    status: Mapped[str] = mapped_column(String(10))
    winner: Mapped[str | None] = mapped_column(String(8), default=None)  # first | second
    finished_ms: Mapped[int | None] = mapped_column(BigInteger, default=None)
