"""Closing an account, by its owner or by a moderator (docs/decisions/account-control.md).

A closed account keeps its ``players`` row: its games, chat lines and ratings stay, shown
under the name "<username> (closed)", and its username is never registered again (the row
keeps the unique key). Closing revokes its API tokens and unused mailed links, ends its
browser sessions (the session generation is raised: app/accounts/sessions.py), and ends
what it had going: its games in progress are aborted or resigned, its seeks cancelled, its
challenges cancelled or declined. It can no longer log in.
"""

from __future__ import annotations

import logging

from sqlalchemy import or_, select, update

from app.core.errors import ServiceError
from app.db.models import ApiToken, Game, MailToken, Player
from app.domain.enums import GameStatus
from app.domain.players import Identity
from app.http.deps import Services

log = logging.getLogger(__name__)
CLOSED_MARK = " (closed)"


def closed_name(username: str) -> str:
    """The name a closed account's games show."""
    return username + CLOSED_MARK


async def close_account(services: Services, player_id: str, base_url: str) -> Player:
    """Close the account ``player_id`` (404 ``account.not_found`` for no account, 409
    ``account.closed`` if closed already). ``base_url``: the site's address, for the
    challenge events it sends. The account's row as closed."""
    accounts = services.accounts
    now = accounts.now()
    async with accounts.sessions() as session, session.begin():
        player = await session.get(Player, player_id, with_for_update=True)
        if player is None or player.username is None:
            raise ServiceError("account.not_found", f"no account {player_id!r}", 404)
        if player.closed_ms is not None:
            raise ServiceError("account.closed", "this account is closed already", 409)
        player.closed_ms = now
        player.session_gen += 1
        player.name = closed_name(player.username)
        await session.execute(
            update(ApiToken)
            .where(ApiToken.player_id == player_id, ApiToken.revoked_ms.is_(None))
            .values(revoked_ms=now)
        )
        await session.execute(
            update(MailToken)
            .where(MailToken.player_id == player_id, MailToken.used_ms.is_(None))
            .values(used_ms=now)
        )
    accounts.session_gens.changed(player_id, player.session_gen, closed=True)
    services.games.reads.remember_names({player_id: player.name})
    await _end_activity(services, Identity(player.id, player.name), base_url)
    return player


async def _end_activity(services: Services, who: Identity, base_url: str) -> None:
    """Abort or resign the account's games in progress, cancel its seeks, and answer its
    challenges: its opponents are not left waiting for a player who cannot come back."""
    async with services.games.sessions() as session:
        games = list(
            (
                await session.execute(
                    select(Game.id, Game.status).where(
                        Game.status.in_((GameStatus.CREATED, GameStatus.STARTED)),
                        or_(
                            Game.creator_id == who.id,
                            Game.first_id == who.id,
                            Game.second_id == who.id,
                        ),
                    )
                )
            ).all()
        )
    for game_id, status in games:
        try:
            if status == GameStatus.CREATED:
                await services.games.setup.cancel(who, game_id)
                continue
            try:
                await services.games.play.abort(who, game_id)
            except ServiceError:
                await services.games.play.resign(who, game_id)
        except ServiceError as exc:  # it ended meanwhile
            log.info("closing %s: game %s left as it is (%s)", who.id, game_id, exc.code)
    received, sent = await services.challenges.pending(who.id)
    for challenge in sent:
        try:
            await services.challenges.cancel(who, challenge.id, base_url)
        except ServiceError as exc:
            log.info("closing %s: challenge %s left (%s)", who.id, challenge.id, exc.code)
    for challenge in received:
        try:
            await services.challenges.decline(who, challenge.id, "generic", base_url)
        except ServiceError as exc:
            log.info("closing %s: challenge %s left (%s)", who.id, challenge.id, exc.code)
