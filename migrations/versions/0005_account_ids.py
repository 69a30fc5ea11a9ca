"""Account ids are lower-cased usernames (lichess's user ids); games get takeback offers and
the ``rated`` flag.

Every account's player row moves to the id ``username_key`` and every reference to it
follows: the columns with a foreign key to ``players.id`` are found by reflection, so tables
that other migrations add are covered too. Anonymous players keep their random ids.

Foreign keys hold at every step, so neither database needs them deferred or switched off:
for each account, a copy of its row is inserted under the new id (without its username,
which is unique), the references are moved to the copy, the old row is deleted, and the
copy takes the username.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def _references(bind: sa.Connection) -> list[tuple[str, str]]:
    """(table, column) of every foreign key to players.id."""
    inspector = sa.inspect(bind)
    found: list[tuple[str, str]] = []
    for table in inspector.get_table_names():
        for fk in inspector.get_foreign_keys(table):
            if fk["referred_table"] == "players" and fk["referred_columns"] == ["id"]:
                found.extend((table, column) for column in fk["constrained_columns"])
    return sorted(found)


def _move_accounts(bind: sa.Connection) -> None:
    players = sa.Table("players", sa.MetaData(), autoload_with=bind)
    moving = bind.execute(
        sa.select(players).where(
            players.c.username_key.is_not(None), players.c.id != players.c.username_key
        )
    ).all()
    if not moving:
        return
    new_ids = [row.username_key for row in moving]
    taken = sorted(bind.execute(sa.select(players.c.id).where(players.c.id.in_(new_ids))).scalars())
    if taken:
        # Only a 16-hex-digit username can equal another player's id (registration refuses
        # those now): renaming either would silently change who someone is.
        raise RuntimeError(
            "cannot give these accounts their usernames as ids: another player already has "
            f"that id: {', '.join(taken)}. Rename those accounts (players.username and "
            "username_key), then migrate again."
        )
    references = _references(bind)
    tables = {
        name: sa.table(name, *(sa.column(c) for t, c in references if t == name))
        for name, _column in references
    }
    for row in moving:
        old_id, new_id = row.id, row.username_key
        copy = {**row._mapping, "id": new_id, "username": None, "username_key": None}
        bind.execute(players.insert().values(copy))
        for name, column in references:
            table = tables[name]
            bind.execute(sa.update(table).where(table.c[column] == old_id).values({column: new_id}))
        bind.execute(players.delete().where(players.c.id == old_id))
        bind.execute(
            players.update()
            .where(players.c.id == new_id)
            .values(username=row.username, username_key=row.username_key)
        )


def upgrade() -> None:
    # The accounts first: a refusal comes before any change (SQLite's DDL may not roll back).
    _move_accounts(op.get_bind())
    op.add_column("games", sa.Column("takeback_offer", sa.String(8), nullable=True))
    op.add_column(
        "games", sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false())
    )


def downgrade() -> None:
    # The accounts keep their new ids: any string is a valid player id for the older code
    # (whose login cookies then no longer match: those browsers are logged out, cleanly).
    # Plain DROP COLUMN (SQLite 3.35+), not a batch table rebuild: rebuilding games would
    # drop the table its chat lines refer to.
    op.drop_column("games", "rated")
    op.drop_column("games", "takeback_offer")
