"""A Swiss's entry conditions, as an arena's: a password (its SHA-256) for a private event,
and rating limits (app/tournaments/tables.py).

Revision ID: 0023
Revises: 0022
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0023"
down_revision = "0022"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("swiss", sa.Column("password_hash", sa.String(64), nullable=True))
    op.add_column("swiss", sa.Column("min_rating", sa.Integer(), nullable=True))
    op.add_column("swiss", sa.Column("max_rating", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("swiss") as batch:
        batch.drop_column("max_rating")
        batch.drop_column("min_rating")
        batch.drop_column("password_hash")
