"""Byo-yomi and correspondence time controls: a game's periods and days per move, a
challenge's byo-yomi.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Nullable columns: plain ADD COLUMN on both databases (no table rebuild).
    op.add_column("games", sa.Column("clock_byoyomi_ms", sa.BigInteger(), nullable=True))
    op.add_column("games", sa.Column("clock_periods", sa.Integer(), nullable=True))
    op.add_column("games", sa.Column("first_periods", sa.Integer(), nullable=True))
    op.add_column("games", sa.Column("second_periods", sa.Integer(), nullable=True))
    op.add_column("games", sa.Column("days", sa.Integer(), nullable=True))
    op.add_column("challenges", sa.Column("clock_byoyomi", sa.Integer(), nullable=True))
    op.add_column("challenges", sa.Column("clock_periods", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("challenges") as batch:
        batch.drop_column("clock_periods")
        batch.drop_column("clock_byoyomi")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("days")
        batch.drop_column("second_periods")
        batch.drop_column("first_periods")
        batch.drop_column("clock_periods")
        batch.drop_column("clock_byoyomi_ms")
