"""Arena tournaments: the events, their players and their games (app/tournaments/tables.py).

Revision ID: 0019
Revises: 0018
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(8), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("created_by", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("variant", sa.String(16), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("clock_limit_s", sa.Integer(), nullable=False),
        sa.Column("clock_increment_s", sa.Integer(), nullable=False),
        sa.Column("minutes", sa.Integer(), nullable=False),
        sa.Column("starts_ms", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("berserkable", sa.Boolean(), nullable=False),
        sa.Column("streakable", sa.Boolean(), nullable=False),
        sa.Column("password_hash", sa.String(64), nullable=True),
        sa.Column("min_rating", sa.Integer(), nullable=True),
        sa.Column("max_rating", sa.Integer(), nullable=True),
        sa.Column("description", sa.Text(), nullable=True),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.Column("finished_ms", sa.BigInteger(), nullable=True),
    )
    op.create_index("ix_tournaments_status_starts", "tournaments", ["status", "starts_ms"])
    op.create_table(
        "tournament_players",
        sa.Column("tournament_id", sa.String(8), sa.ForeignKey("tournaments.id"), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("rating", sa.Integer(), nullable=False),
        sa.Column("joined_ms", sa.BigInteger(), nullable=False),
        sa.Column("withdrawn", sa.Boolean(), nullable=False),
        sa.Column("playing", sa.String(12), nullable=True),
    )
    op.create_index("ix_tournament_players_player_id", "tournament_players", ["player_id"])
    op.create_table(
        "tournament_pairings",
        sa.Column("game_id", sa.String(12), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("tournament_id", sa.String(8), sa.ForeignKey("tournaments.id"), nullable=False),
        sa.Column("first_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("second_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("first_berserk", sa.Boolean(), nullable=False),
        sa.Column("second_berserk", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("winner", sa.String(8), nullable=True),
        sa.Column("plies", sa.Integer(), nullable=True),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.Column("finished_ms", sa.BigInteger(), nullable=True),
    )
    op.create_index(
        "ix_tournament_pairings_tour", "tournament_pairings", ["tournament_id", "created_ms"]
    )


def downgrade() -> None:
    op.drop_index("ix_tournament_pairings_tour", table_name="tournament_pairings")
    op.drop_table("tournament_pairings")
    op.drop_index("ix_tournament_players_player_id", table_name="tournament_players")
    op.drop_table("tournament_players")
    op.drop_index("ix_tournaments_status_starts", table_name="tournaments")
    op.drop_table("tournaments")
