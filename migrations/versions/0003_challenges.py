"""Challenges and game chat (the bot API).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(12), primary_key=True),
        sa.Column("challenger_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("dest_id", sa.String(32), sa.ForeignKey("players.id"), nullable=True),
        sa.Column("variant", sa.String(16), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("clock_limit", sa.Integer(), nullable=True),
        sa.Column("clock_increment", sa.Integer(), nullable=True),
        sa.Column("days", sa.Integer(), nullable=True),
        sa.Column("color", sa.String(8), nullable=False),
        sa.Column("final_color", sa.String(8), nullable=True),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("decline_reason", sa.String(16), nullable=True),
        sa.Column("open_white_id", sa.String(32), sa.ForeignKey("players.id"), nullable=True),
        sa.Column("open_black_id", sa.String(32), sa.ForeignKey("players.id"), nullable=True),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.Column("updated_ms", sa.BigInteger(), nullable=False),
    )
    op.create_index("ix_challenges_dest_status", "challenges", ["dest_id", "status"])
    op.create_index("ix_challenges_challenger_status", "challenges", ["challenger_id", "status"])
    op.create_table(
        "chat_lines",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(12), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("room", sa.String(16), nullable=False),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("username", sa.String(40), nullable=False),
        sa.Column("text", sa.String(140), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
    )
    op.create_index("ix_chat_lines_game_id", "chat_lines", ["game_id"])


def downgrade() -> None:
    op.drop_index("ix_chat_lines_game_id", table_name="chat_lines")
    op.drop_table("chat_lines")
    op.drop_index("ix_challenges_challenger_status", table_name="challenges")
    op.drop_index("ix_challenges_dest_status", table_name="challenges")
    op.drop_table("challenges")
