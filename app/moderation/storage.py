"""The moderation tables' reads and writes (app/db/models/moderation.py: moderators, reports,
mod_actions, chat_sanctions, warnings), each in the caller's session.

What a moderator reads is returned as plain JSON values (the API's shapes: docs/api.md,
"Moderation"): the routes pass them on as they are."""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from app.db.models import (
    ChatLine,
    ChatSanction,
    Game,
    ModAction,
    Moderator,
    ModWarning,
    Player,
    Report,
)

QUEUE_MAX = 100  # open reports listed at once, oldest first
RECENT_GAMES = 10
RECENT_LINES = 20
AROUND = 5  # lines shown before and after a reported one
LOG_MAX = 50


async def is_moderator(session: AsyncSession, player_id: str) -> bool:
    return await session.get(Moderator, player_id) is not None


async def add_moderator(session: AsyncSession, player_id: str, now: int) -> bool:
    """Name ``player_id`` a moderator; False if they already were."""
    if await is_moderator(session, player_id):
        return False
    session.add(Moderator(player_id=player_id, added_ms=now))
    return True


async def remove_moderator(session: AsyncSession, player_id: str) -> bool:
    """False if ``player_id`` was no moderator."""
    gone = await session.execute(delete(Moderator).where(Moderator.player_id == player_id))
    return bool(gone.rowcount)  # type: ignore[attr-defined]


async def moderators(session: AsyncSession) -> list[tuple[str, int]]:
    """(username, added_ms) of every moderator, by name."""
    rows = await session.execute(
        select(Player.username, Moderator.added_ms)
        .join(Moderator, Moderator.player_id == Player.id)
        .order_by(Player.username_key)
    )
    return [(str(name), added) for name, added in rows]


def _line_json(line: ChatLine) -> dict[str, Any]:
    return {
        "id": line.id,
        "gameId": line.game_id,
        "room": line.room,
        "userId": line.player_id,
        "username": line.username,
        "text": line.text,
        "createdAt": line.created_ms,
        "hidden": line.hidden,
        "authorOnly": line.author_only,
    }


async def open_reports(session: AsyncSession) -> list[dict[str, Any]]:
    """The queue: the open reports, oldest first, each with its reported line's text and how
    many open reports there are about the same player."""
    reporter, reported = aliased(Player), aliased(Player)
    about = (
        select(func.count())
        .where(Report.closed_ms.is_(None), Report.reported_id == reported.id)
        .correlate(reported)
        .scalar_subquery()
    )
    stmt = (
        select(Report, reporter.username, reported.username, ChatLine.text, about)
        .join(reporter, reporter.id == Report.reporter_id)
        .join(reported, reported.id == Report.reported_id)
        .outerjoin(ChatLine, ChatLine.id == Report.chat_line_id)
        .where(Report.closed_ms.is_(None))
        .order_by(Report.id)
        .limit(QUEUE_MAX)
    )
    return [
        {**report_json(report, by, of), "lineText": line, "openAboutPlayer": count}
        for report, by, of, line, count in await session.execute(stmt)
    ]


def report_json(report: Report, reporter: str | None, reported: str | None) -> dict[str, Any]:
    return {
        "id": report.id,
        "reporter": reporter,
        "username": reported,
        "userId": report.reported_id,
        "reason": report.reason,
        "text": report.text,
        "gameId": report.game_id,
        "chatLineId": report.chat_line_id,
        "createdAt": report.created_ms,
        "closedAt": report.closed_ms,
        "outcome": report.outcome,
    }


async def report_row(session: AsyncSession, report_id: int) -> Report | None:
    return await session.get(Report, report_id)


async def close_report(
    session: AsyncSession, report_id: int, moderator_id: str, outcome: str, now: int
) -> bool:
    """Close an open report; False if it was closed already."""
    closed = await session.execute(
        update(Report)
        .where(Report.id == report_id, Report.closed_ms.is_(None))
        .values(closed_ms=now, closed_by=moderator_id, outcome=outcome)
    )
    return bool(closed.rowcount)  # type: ignore[attr-defined]


async def lines_around(session: AsyncSession, line: ChatLine) -> list[dict[str, Any]]:
    """The lines of ``line``'s game and room around it (hidden ones included, marked)."""
    same = (ChatLine.game_id == line.game_id, ChatLine.room == line.room)
    before = await session.execute(
        select(ChatLine).where(*same, ChatLine.id < line.id).order_by(ChatLine.id.desc())
        .limit(AROUND)
    )  # fmt: skip
    after = await session.execute(
        select(ChatLine).where(*same, ChatLine.id > line.id).order_by(ChatLine.id).limit(AROUND)
    )
    rows = [*reversed(before.scalars().all()), line, *after.scalars()]
    return [_line_json(row) for row in rows]


async def recent_lines(session: AsyncSession, player_id: str) -> list[dict[str, Any]]:
    stmt = (
        select(ChatLine)
        .where(ChatLine.player_id == player_id)
        .order_by(ChatLine.id.desc())
        .limit(RECENT_LINES)
    )
    return [_line_json(row) for row in (await session.execute(stmt)).scalars()]


async def recent_games(session: AsyncSession, player_id: str) -> list[dict[str, Any]]:
    first, second = aliased(Player), aliased(Player)
    stmt = (
        select(Game, first.name, second.name)
        .outerjoin(first, first.id == Game.first_id)
        .outerjoin(second, second.id == Game.second_id)
        .where(or_(Game.first_id == player_id, Game.second_id == player_id))
        .order_by(Game.created_ms.desc(), Game.id)
        .limit(RECENT_GAMES)
    )
    return [
        {
            "id": game.id,
            "variant": game.variant,
            "status": game.status,
            "rated": game.rated,
            "first": first_name,
            "second": second_name,
            "winner": game.winner,
            "createdAt": game.created_ms,
        }
        for game, first_name, second_name in await session.execute(stmt)
    ]


async def sanction(session: AsyncSession, player_id: str) -> ChatSanction:
    """The player's chat sanctions row, made (empty) if they had none."""
    found = await session.get(ChatSanction, player_id, with_for_update=True)
    if found is None:
        found = ChatSanction(player_id=player_id, muted_until_ms=None, troll=False)
        session.add(found)
    return found


async def standing(session: AsyncSession, player_id: str) -> dict[str, Any]:
    """What holds on the player now: a mute's end, the troll flag, moderator or not."""
    found = await session.get(ChatSanction, player_id)
    return {
        "mutedUntil": found.muted_until_ms if found is not None else None,
        "chatToThemselves": bool(found is not None and found.troll),
        "moderator": await is_moderator(session, player_id),
    }


def log_entry(
    moderator_id: str,
    action: str,
    target_id: str,
    reason: str,
    now: int,
    *,
    report_id: int | None = None,
    line_id: int | None = None,
    until_ms: int | None = None,
) -> ModAction:
    return ModAction(
        moderator_id=moderator_id,
        action=action,
        target_id=target_id,
        reason=reason,
        report_id=report_id,
        chat_line_id=line_id,
        until_ms=until_ms,
        created_ms=now,
    )


async def log(session: AsyncSession, target_id: str | None) -> list[dict[str, Any]]:
    """The audit log, newest first (of one player's, when ``target_id``)."""
    moderator, target = aliased(Player), aliased(Player)
    stmt = (
        select(ModAction, moderator.username, target.name)
        .join(moderator, moderator.id == ModAction.moderator_id)
        .join(target, target.id == ModAction.target_id)
        .order_by(ModAction.id.desc())
        .limit(LOG_MAX)
    )
    if target_id is not None:
        stmt = stmt.where(ModAction.target_id == target_id)
    return [
        {
            "id": entry.id,
            "moderator": mod_name,
            "action": entry.action,
            "userId": entry.target_id,
            "username": target_name,
            "reason": entry.reason,
            "reportId": entry.report_id,
            "chatLineId": entry.chat_line_id,
            "until": entry.until_ms,
            "createdAt": entry.created_ms,
        }
        for entry, mod_name, target_name in await session.execute(stmt)
    ]


async def unseen_warnings(session: AsyncSession, player_id: str) -> list[ModWarning]:
    stmt = (
        select(ModWarning)
        .where(ModWarning.player_id == player_id, ModWarning.seen_ms.is_(None))
        .order_by(ModWarning.id)
    )
    return list((await session.execute(stmt)).scalars())


async def see_warning(session: AsyncSession, player_id: str, warning_id: int, now: int) -> bool:
    """Mark the player's warning seen; False if it is no warning of theirs."""
    seen = await session.execute(
        update(ModWarning)
        .where(ModWarning.id == warning_id, ModWarning.player_id == player_id)
        .values(seen_ms=func.coalesce(ModWarning.seen_ms, now))
    )
    return bool(seen.rowcount)  # type: ignore[attr-defined]
