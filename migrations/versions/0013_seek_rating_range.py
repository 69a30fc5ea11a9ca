"""A seek's rating range: the lowest and highest rating of the opponents it accepts.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None

COLUMNS = ("rating_min", "rating_max")


def upgrade() -> None:
    for name in COLUMNS:
        op.add_column("games", sa.Column(name, sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        for name in reversed(COLUMNS):
            batch.drop_column(name)
