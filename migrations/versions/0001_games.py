"""Players and games.

Revision ID: 0001
Revises:
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.String(12), primary_key=True),
        sa.Column("variant", sa.String(16), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("public", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("creator_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("creator_color", sa.String(8), nullable=False),
        sa.Column("first_id", sa.String(32), sa.ForeignKey("players.id"), nullable=True),
        sa.Column("second_id", sa.String(32), sa.ForeignKey("players.id"), nullable=True),
        sa.Column("invite_token", sa.String(64), nullable=False, unique=True),
        sa.Column("moves", sa.Text(), nullable=False),
        sa.Column("ply", sa.Integer(), nullable=False),
        sa.Column("fen", sa.Text(), nullable=False),
        sa.Column("clock_initial_ms", sa.BigInteger(), nullable=True),
        sa.Column("clock_increment_ms", sa.BigInteger(), nullable=True),
        sa.Column("first_ms", sa.BigInteger(), nullable=True),
        sa.Column("second_ms", sa.BigInteger(), nullable=True),
        sa.Column("turn_started_ms", sa.BigInteger(), nullable=True),
        sa.Column("draw_offer", sa.String(8), nullable=True),
        sa.Column("winner", sa.String(8), nullable=True),
        sa.Column("reason", sa.String(24), nullable=True),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.Column("started_ms", sa.BigInteger(), nullable=True),
        sa.Column("finished_ms", sa.BigInteger(), nullable=True),
    )
    op.create_index("ix_games_status_public", "games", ["status", "public"])


def downgrade() -> None:
    op.drop_index("ix_games_status_public", table_name="games")
    op.drop_table("games")
    op.drop_table("players")
