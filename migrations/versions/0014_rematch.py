"""Rematches: a finished game's standing offer and the new game's id; a challenge that is a
rematch offer names its game.

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("rematch_offer", sa.String(8), nullable=True))
    op.add_column("games", sa.Column("rematch_id", sa.String(12), nullable=True))
    op.create_index(
        "ix_games_rematch_offer",
        "games",
        ["rematch_offer"],
        postgresql_where=sa.text("rematch_offer IS NOT NULL"),
        sqlite_where=sa.text("rematch_offer IS NOT NULL"),
    )
    with op.batch_alter_table("challenges") as batch:
        batch.add_column(sa.Column("rematch_of", sa.String(12), nullable=True))
        batch.create_foreign_key("fk_challenges_rematch_of_games", "games", ["rematch_of"], ["id"])


def downgrade() -> None:
    with op.batch_alter_table("challenges") as batch:
        batch.drop_constraint("fk_challenges_rematch_of_games", type_="foreignkey")
        batch.drop_column("rematch_of")
    op.drop_index("ix_games_rematch_offer", table_name="games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("rematch_id")
        batch.drop_column("rematch_offer")
