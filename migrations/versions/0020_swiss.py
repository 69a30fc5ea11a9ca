"""Swiss tournaments: the events, their players and their rounds' pairings and byes
(app/tournaments/tables.py).

Revision ID: 0020
Revises: 0019
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "swiss",
        sa.Column("id", sa.String(8), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("team_id", sa.String(40), nullable=False),
        sa.Column("created_by", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("variant", sa.String(16), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("clock_limit_s", sa.Integer(), nullable=False),
        sa.Column("clock_increment_s", sa.Integer(), nullable=False),
        sa.Column("nb_rounds", sa.Integer(), nullable=False),
        sa.Column("round_interval_s", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("starts_ms", sa.BigInteger(), nullable=False),
        sa.Column("next_round_ms", sa.BigInteger(), nullable=True),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("description", sa.Text(), nullable=True),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.Column("finished_ms", sa.BigInteger(), nullable=True),
    )
    op.create_index("ix_swiss_status_next", "swiss", ["status", "next_round_ms"])
    op.create_table(
        "swiss_players",
        sa.Column("swiss_id", sa.String(8), sa.ForeignKey("swiss.id"), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("rating", sa.Integer(), nullable=False),
        sa.Column("joined_ms", sa.BigInteger(), nullable=False),
        sa.Column("joined_round", sa.Integer(), nullable=False),
        sa.Column("withdrawn", sa.Boolean(), nullable=False),
    )
    op.create_index("ix_swiss_players_player_id", "swiss_players", ["player_id"])
    op.create_table(
        "swiss_pairings",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("swiss_id", sa.String(8), sa.ForeignKey("swiss.id"), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("board", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(12), sa.ForeignKey("games.id"), nullable=True),
        sa.Column("first_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("second_id", sa.String(32), sa.ForeignKey("players.id"), nullable=True),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("winner", sa.String(8), nullable=True),
        sa.Column("finished_ms", sa.BigInteger(), nullable=True),
    )
    op.create_index("ix_swiss_pairings_round", "swiss_pairings", ["swiss_id", "round"])
    op.create_index("ix_swiss_pairings_game", "swiss_pairings", ["game_id"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_swiss_pairings_game", table_name="swiss_pairings")
    op.drop_index("ix_swiss_pairings_round", table_name="swiss_pairings")
    op.drop_table("swiss_pairings")
    op.drop_index("ix_swiss_players_player_id", table_name="swiss_players")
    op.drop_table("swiss_players")
    op.drop_index("ix_swiss_status_next", table_name="swiss")
    op.drop_table("swiss")
