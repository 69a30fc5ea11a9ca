"""Quick-pairing pools: the players waiting in them.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "pool_entries",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("pool", sa.String(24), nullable=False),
        sa.Column(
            "player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False, unique=True
        ),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("range_low", sa.Integer(), nullable=True),
        sa.Column("range_high", sa.Integer(), nullable=True),
        sa.Column("joined_ms", sa.BigInteger(), nullable=False),
        sa.Column("seen_ms", sa.BigInteger(), nullable=False),
        sa.Column("instance", sa.String(32), nullable=False),
        sa.Column("game_id", sa.String(12), nullable=True),
    )
    op.create_index("ix_pool_entries_pool", "pool_entries", ["pool", "game_id"])


def downgrade() -> None:
    op.drop_index("ix_pool_entries_pool", table_name="pool_entries")
    op.drop_table("pool_entries")
