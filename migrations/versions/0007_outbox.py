"""The outbox (events acted on exactly once) and per-player game counts, the counts of
games already finished filled in.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

# The endings that count (not aborted, not noStart), as the consumer counts them
# (app/accounts/stats.py).
_COUNTED = ("mate", "resign", "outoftime", "timeout", "draw", "variantEnd")


def _seat(column: str, side: str, other: str) -> str:
    return (
        f"SELECT {column} AS player_id,"
        f" CASE WHEN winner = '{side}' THEN 1 ELSE 0 END AS won,"
        f" CASE WHEN winner = '{other}' THEN 1 ELSE 0 END AS lost,"
        " CASE WHEN winner IS NULL THEN 1 ELSE 0 END AS drawn"
        f" FROM games WHERE {column} IS NOT NULL AND status IN"
        f" ({', '.join(repr(s) for s in _COUNTED)})"
    )


def upgrade() -> None:
    op.create_table(
        "outbox",
        sa.Column("game_id", sa.String(12), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seq", sa.Integer(), primary_key=True),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.Column("consumed_ms", sa.BigInteger(), nullable=True),
    )
    op.create_index(
        "ix_outbox_unconsumed",
        "outbox",
        ["created_ms"],
        postgresql_where=sa.text("consumed_ms IS NULL"),
        sqlite_where=sa.text("consumed_ms IS NULL"),
    )
    op.create_table(
        "player_stats",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("played", sa.Integer(), nullable=False),
        sa.Column("won", sa.Integer(), nullable=False),
        sa.Column("lost", sa.Integer(), nullable=False),
        sa.Column("drawn", sa.Integer(), nullable=False),
    )
    # The games finished before this migration: counted here, once (they have no outbox
    # row, so the consumer never sees them).
    op.execute(
        "INSERT INTO player_stats (player_id, played, won, lost, drawn)"
        " SELECT player_id, count(*), sum(won), sum(lost), sum(drawn) FROM ("
        f" {_seat('first_id', 'first', 'second')}"
        f" UNION ALL {_seat('second_id', 'second', 'first')}"
        ") AS seats GROUP BY player_id"
    )


def downgrade() -> None:
    op.drop_table("player_stats")
    op.drop_index("ix_outbox_unconsumed", table_name="outbox")
    op.drop_table("outbox")
