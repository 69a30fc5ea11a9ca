"""Accounts (username, password hash, BOT title on players) and API tokens.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMN (nullable, no constraint) works on SQLite without a table rebuild.
    op.add_column("players", sa.Column("username", sa.String(20), nullable=True))
    op.add_column("players", sa.Column("username_key", sa.String(20), nullable=True))
    op.add_column("players", sa.Column("password_hash", sa.String(255), nullable=True))
    op.add_column("players", sa.Column("title", sa.String(8), nullable=True))
    # Unique with NULLs allowed many times (anonymous players) on both databases.
    op.create_index("ix_players_username_key", "players", ["username_key"], unique=True)
    op.create_table(
        "api_tokens",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("description", sa.String(100), nullable=False),
        sa.Column("scopes", sa.String(200), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.Column("last_used_ms", sa.BigInteger(), nullable=True),
        sa.Column("revoked_ms", sa.BigInteger(), nullable=True),
    )
    op.create_index("ix_api_tokens_player_id", "api_tokens", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_api_tokens_player_id", table_name="api_tokens")
    op.drop_table("api_tokens")
    op.drop_index("ix_players_username_key", table_name="players")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("title")
        batch.drop_column("password_hash")
        batch.drop_column("username_key")
        batch.drop_column("username")
