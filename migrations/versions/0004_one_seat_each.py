"""One seat each: the same player never holds both seats of a game or of an open challenge.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23

CHECK constraints, so that no code path (a race, a bug) can ever store such a row: a NULL
seat makes the comparison NULL, which a CHECK lets through, so a free seat is fine. SQLite
cannot add a constraint to a table: batch mode rebuilds the table (copy, drop, rename).

Rows the old code could leave (one player who opened both links of an open challenge at
once) are mended first, or the constraint could not be added: such a game could never be
played, so one still on is aborted (reason ``same_player``) and its second seat emptied; such
a challenge still waiting is cancelled, and its black seat emptied.
"""

from __future__ import annotations

import time

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

GAMES_CHECK = "ck_games_one_seat_each"
CHALLENGES_CHECK = "ck_challenges_one_seat_each"

games = sa.table(
    "games",
    sa.column("first_id", sa.String),
    sa.column("second_id", sa.String),
    sa.column("status", sa.String),
    sa.column("winner", sa.String),
    sa.column("reason", sa.String),
    sa.column("draw_offer", sa.String),
    sa.column("finished_ms", sa.BigInteger),
)
challenges = sa.table(
    "challenges",
    sa.column("open_white_id", sa.String),
    sa.column("open_black_id", sa.String),
    sa.column("status", sa.String),
    sa.column("updated_ms", sa.BigInteger),
)


def upgrade() -> None:
    now = time.time_ns() // 1_000_000
    same_game_player = games.c.first_id == games.c.second_id
    op.execute(
        games.update()
        .where(same_game_player, games.c.status.in_(("created", "started")))
        .values(
            status="aborted",
            reason="same_player",
            winner=None,
            draw_offer=None,
            finished_ms=now,
        )
    )
    op.execute(games.update().where(same_game_player).values(second_id=None))
    same_challenge_player = challenges.c.open_white_id == challenges.c.open_black_id
    op.execute(
        challenges.update()
        .where(same_challenge_player, challenges.c.status == "created")
        .values(status="canceled", updated_ms=now)
    )
    op.execute(challenges.update().where(same_challenge_player).values(open_black_id=None))
    with op.batch_alter_table("games") as batch:
        batch.create_check_constraint(GAMES_CHECK, "first_id <> second_id")
    with op.batch_alter_table("challenges") as batch:
        batch.create_check_constraint(CHALLENGES_CHECK, "open_white_id <> open_black_id")


def downgrade() -> None:
    with op.batch_alter_table("challenges") as batch:
        batch.drop_constraint(CHALLENGES_CHECK, type_="check")
    with op.batch_alter_table("games") as batch:
        batch.drop_constraint(GAMES_CHECK, type_="check")
