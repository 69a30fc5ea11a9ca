"""A seek lives while its creator has a page open: the seek's hidden time, the identities with
sockets open per instance, and the instances' heartbeats.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("seek_away_ms", sa.BigInteger(), nullable=True))
    op.create_table(
        "instances",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("beat_ms", sa.BigInteger(), nullable=False),
    )
    op.create_table(
        "player_sockets",
        sa.Column("instance", sa.String(16), primary_key=True),
        sa.Column("player_id", sa.String(32), primary_key=True),
    )
    op.create_index("ix_player_sockets_player_id", "player_sockets", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_player_sockets_player_id", table_name="player_sockets")
    op.drop_table("player_sockets")
    op.drop_table("instances")
    op.drop_column("games", "seek_away_ms")
