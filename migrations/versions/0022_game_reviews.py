"""Game reviews: one a game, its queue state, its positions' values and the judged review
(app/review/tables.py).

Revision ID: 0022
Revises: 0021
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game_reviews",
        sa.Column("game_id", sa.String(12), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("requested_by", sa.String(32), nullable=False),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("requested_ms", sa.BigInteger(), nullable=False),
        sa.Column("started_ms", sa.BigInteger(), nullable=True),
        sa.Column("heartbeat_ms", sa.BigInteger(), nullable=True),
        sa.Column("finished_ms", sa.BigInteger(), nullable=True),
        sa.Column("owner", sa.String(32), nullable=True),
        sa.Column("plies", sa.Integer(), nullable=False),
        sa.Column("plies_done", sa.Integer(), nullable=False),
        sa.Column("evals", sa.Text(), nullable=False),
        sa.Column("result", sa.Text(), nullable=True),
        sa.Column("error", sa.String(64), nullable=True),
    )
    op.create_index("ix_game_reviews_queue", "game_reviews", ["status", "requested_ms"])
    op.create_index("ix_game_reviews_requester", "game_reviews", ["requested_by", "status"])


def downgrade() -> None:
    op.drop_index("ix_game_reviews_requester", table_name="game_reviews")
    op.drop_index("ix_game_reviews_queue", table_name="game_reviews")
    op.drop_table("game_reviews")
