"""Moderation: the moderators, players' reports, the moderators' actions (the audit log),
the chat sanctions (a mute until a time, the "visible only to themselves" restriction),
warnings to acknowledge, and chat lines hidden or shown to their author only.

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def _player(name: str, *, primary_key: bool = False, nullable: bool = False) -> sa.Column[str]:
    return sa.Column(
        name,
        sa.String(32),
        sa.ForeignKey("players.id"),
        primary_key=primary_key,
        nullable=nullable,
    )


def upgrade() -> None:
    op.create_table(
        "moderators",
        _player("player_id", primary_key=True),
        sa.Column("added_ms", sa.BigInteger(), nullable=False),
    )
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        _player("reporter_id", nullable=False),
        _player("reported_id", nullable=False),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("text", sa.String(500), nullable=False),
        sa.Column("game_id", sa.String(12), sa.ForeignKey("games.id"), nullable=True),
        sa.Column("chat_line_id", sa.Integer(), sa.ForeignKey("chat_lines.id"), nullable=True),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.Column("closed_ms", sa.BigInteger(), nullable=True),
        _player("closed_by", nullable=True),
        sa.Column("outcome", sa.String(16), nullable=True),
    )
    op.create_index("ix_reports_reported_id", "reports", ["reported_id"])
    op.create_index(
        "ix_reports_open",
        "reports",
        ["id"],
        postgresql_where=sa.text("closed_ms IS NULL"),
        sqlite_where=sa.text("closed_ms IS NULL"),
    )
    op.create_table(
        "mod_actions",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        _player("moderator_id", nullable=False),
        sa.Column("action", sa.String(16), nullable=False),
        _player("target_id", nullable=False),
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column("report_id", sa.Integer(), sa.ForeignKey("reports.id"), nullable=True),
        sa.Column("chat_line_id", sa.Integer(), sa.ForeignKey("chat_lines.id"), nullable=True),
        sa.Column("until_ms", sa.BigInteger(), nullable=True),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
    )
    op.create_index("ix_mod_actions_target_id", "mod_actions", ["target_id"])
    op.create_table(
        "chat_sanctions",
        _player("player_id", primary_key=True),
        sa.Column("muted_until_ms", sa.BigInteger(), nullable=True),
        sa.Column("troll", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    op.create_table(
        "warnings",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        _player("player_id", nullable=False),
        sa.Column("text", sa.String(500), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.Column("seen_ms", sa.BigInteger(), nullable=True),
    )
    op.create_index("ix_warnings_player_id", "warnings", ["player_id"])
    with op.batch_alter_table("chat_lines") as batch:
        batch.add_column(
            sa.Column("hidden", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.add_column(
            sa.Column("author_only", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table("chat_lines") as batch:
        batch.drop_column("author_only")
        batch.drop_column("hidden")
    op.drop_index("ix_warnings_player_id", table_name="warnings")
    op.drop_table("warnings")
    op.drop_table("chat_sanctions")
    op.drop_index("ix_mod_actions_target_id", table_name="mod_actions")
    op.drop_table("mod_actions")
    op.drop_index("ix_reports_open", table_name="reports")
    op.drop_index("ix_reports_reported_id", table_name="reports")
    op.drop_table("reports")
    op.drop_table("moderators")
