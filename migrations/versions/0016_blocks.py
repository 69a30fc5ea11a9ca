"""Relations: the accounts each account blocks.

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "blocks",
        sa.Column("blocker_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("blocked_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.CheckConstraint("blocker_id <> blocked_id", name="ck_blocks_not_self"),
    )
    # "Who blocks me?" is asked on every pairing round and chat delivery.
    op.create_index("ix_blocks_blocked", "blocks", ["blocked_id"])


def downgrade() -> None:
    op.drop_index("ix_blocks_blocked", table_name="blocks")
    op.drop_table("blocks")
