"""A guest's rows become the new account's when that guest registers
(docs/decisions/account-ids.md, "Signing up keeps the guest's games").

Run in the transaction that inserts the account: its games (finished, in progress, or waiting
for an opponent), its open challenges and seats in them, the authorship of its chat lines and
its game counts move from the guest's player id to the account's, or nothing does. The guest's
``players`` row stays, owning nothing any more: a second registration from the same guest
cookie finds nothing left to move.

Guests play casual games only, so no rating moves. The move pipeline keeps rows of games in
progress in memory (app/db/gamerows): the caller drops the returned games from that cache
once the transaction has committed, and until it has, a save from a cached row is refused by
the store's conditional UPDATE (it compares the seats too), so no move can write the guest's
id back.
"""

from __future__ import annotations

from sqlalchemy import or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import InstrumentedAttribute

from app.db.models import Challenge, ChatLine, Game, Player, PlayerStats

# Every column naming a player that the guest would expect to keep. Not moved: ratings and
# rating changes (a guest plays casual games only), API tokens (an account's only), and the
# pairing pool's entries (app/matchmaking): one still waiting is paired as the guest.
_SEATS: tuple[InstrumentedAttribute[str | None] | InstrumentedAttribute[str], ...] = (
    Game.creator_id,
    Game.first_id,
    Game.second_id,
    Challenge.challenger_id,
    Challenge.dest_id,
    Challenge.open_white_id,
    Challenge.open_black_id,
    ChatLine.player_id,
    PlayerStats.player_id,
)


async def claim_guest(session: AsyncSession, guest_id: str, account_id: str) -> list[str]:
    """Move the guest's rows to the account (new, so it owns nothing yet), in ``session``'s
    transaction: the ids of the games that moved. Nothing moves unless ``guest_id`` is an
    anonymous player's."""
    guest = await session.get(Player, guest_id)
    if guest is None or guest.username is not None:
        return []
    games = await session.execute(
        select(Game.id).where(
            or_(Game.creator_id == guest_id, Game.first_id == guest_id, Game.second_id == guest_id)
        )
    )
    moved = list(games.scalars())
    for column in _SEATS:
        await session.execute(
            update(column.class_)
            .where(column == guest_id)
            .values({column.key: account_id})
            .execution_options(synchronize_session=False)
        )
    return moved
