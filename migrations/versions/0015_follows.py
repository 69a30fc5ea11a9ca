"""Relations: the accounts each account follows.

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "follows",
        sa.Column("follower_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("followed_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.CheckConstraint("follower_id <> followed_id", name="ck_follows_not_self"),
    )


def downgrade() -> None:
    op.drop_table("follows")
