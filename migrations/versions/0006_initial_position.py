"""Games and challenges that start from a given position (lichess's ``fen``); an open
challenge's name.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Nullable (NULL: the game's own start position, as every existing game and challenge):
    # a plain ADD COLUMN on SQLite and PostgreSQL alike.
    op.add_column("games", sa.Column("initial_fen", sa.Text(), nullable=True))
    op.add_column("challenges", sa.Column("initial_fen", sa.Text(), nullable=True))
    op.add_column("challenges", sa.Column("name", sa.String(100), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("challenges") as batch:
        batch.drop_column("name")
        batch.drop_column("initial_fen")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("initial_fen")
