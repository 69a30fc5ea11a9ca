"""Each seated account's rating as of the game's start, kept with the game.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

COLUMNS = (
    ("first_rating", sa.Integer),
    ("first_provisional", sa.Boolean),
    ("second_rating", sa.Integer),
    ("second_provisional", sa.Boolean),
)


def upgrade() -> None:
    for name, kind in COLUMNS:
        op.add_column("games", sa.Column(name, kind(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        for name, _ in reversed(COLUMNS):
            batch.drop_column(name)
