"""Account control: closed accounts, session generations, e-mail addresses and mailed links.

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("closed_ms", sa.BigInteger(), nullable=True))
        batch.add_column(sa.Column("session_gen", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("email", sa.String(254), nullable=True))
        batch.add_column(sa.Column("email_verified_ms", sa.BigInteger(), nullable=True))
    op.create_index("ix_players_email", "players", ["email"])
    op.create_table(
        "mail_tokens",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("email", sa.String(254), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.Column("expires_ms", sa.BigInteger(), nullable=False),
        sa.Column("used_ms", sa.BigInteger(), nullable=True),
    )
    op.create_index("ix_mail_tokens_player_id", "mail_tokens", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_mail_tokens_player_id", table_name="mail_tokens")
    op.drop_table("mail_tokens")
    op.drop_index("ix_players_email", table_name="players")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("email_verified_ms")
        batch.drop_column("email")
        batch.drop_column("session_gen")
        batch.drop_column("closed_ms")
