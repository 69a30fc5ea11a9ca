"""Puzzles: the Dōbutsu puzzles and their Glicko-2 ratings, each player's attempts, and each
player's puzzle rating (app/puzzles/tables.py).

Revision ID: 0021
Revises: 0020
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "puzzles",
        sa.Column("id", sa.String(8), primary_key=True),
        sa.Column("variant", sa.String(16), nullable=False),
        sa.Column("ruleset", sa.String(16), nullable=False),
        sa.Column("source", sa.String(8), nullable=False),
        sa.Column("game_id", sa.String(12), nullable=True),
        sa.Column("moves", sa.Text(), nullable=False),
        sa.Column("fen", sa.Text(), nullable=False),
        sa.Column("solution", sa.Text(), nullable=False),
        sa.Column("themes", sa.Text(), nullable=False),
        sa.Column("plies", sa.Integer(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("deviation", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("plays", sa.Integer(), nullable=False),
    )
    op.create_index("ix_puzzles_rating", "puzzles", ["rating"])
    op.create_table(
        "puzzle_rounds",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("puzzle_id", sa.String(8), sa.ForeignKey("puzzles.id"), primary_key=True),
        sa.Column("win", sa.Boolean(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("rating_diff", sa.Integer(), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
    )
    op.create_index("ix_puzzle_rounds_player", "puzzle_rounds", ["player_id", "created_ms"])
    op.create_table(
        "puzzle_ratings",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("deviation", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("plays", sa.Integer(), nullable=False),
        sa.Column("updated_ms", sa.BigInteger(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("puzzle_ratings")
    op.drop_index("ix_puzzle_rounds_player", table_name="puzzle_rounds")
    op.drop_table("puzzle_rounds")
    op.drop_index("ix_puzzles_rating", table_name="puzzles")
    op.drop_table("puzzles")
