"""Reports and the moderators' actions (docs/decisions/moderation.md).

An account reports a player (an account) from their profile, a game or a chat line, with a
reason and a short text; at most a few reports an hour. Moderators (named by the site's
operator: app/moderation/cli.py) read the open reports with their context and act: dismiss
a report, warn the player (shown on their pages until acknowledged), mute their chat until a
time, make their chat visible only to themselves, hide a chat line, close the account.
Every action is kept in the audit log with who did it, to whom, and why.

The chat reads the sanctions itself on every line written (app/chat/service.py): a mute
refuses the line (``chat.muted``), the restriction keeps it for its author only."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.accounts.service import username_key
from app.chat.service import Chat
from app.core.errors import ServiceError
from app.core.time import Clock
from app.db.models import ChatLine, Game, ModWarning, Player, Report
from app.games.endings import seat_of
from app.limits.ratelimit import RateLimiter
from app.moderation import storage

REASONS = ("cheat", "abuse", "sandbag", "other")
MAX_TEXT = 500
MAX_MUTE_MINUTES = 60 * 24 * 30  # a month; longer is closing the account
# Reports an account may send: 5 at once, then one every 12 minutes (5 an hour).
REPORTS_BURST = 5
REPORTS_PER_S = 5 / 3600


@dataclass(frozen=True, slots=True)
class Shown:
    """A warning as its player's pages show it."""

    id: int
    text: str
    created_ms: int


def required() -> ServiceError:
    return ServiceError("mod.required", "only moderators may do this", 403)


def _not_found(username: str) -> ServiceError:
    return ServiceError("user.not_found", f"no user {username!r}", 404)


def _reason(text: str) -> str:
    """A moderator's reason: required, one short text."""
    text = text.strip()
    if not text or len(text) > MAX_TEXT:
        raise ServiceError("mod.reason", f"give a reason: 1 to {MAX_TEXT} characters")
    return text


class Moderation:
    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        clock: Clock,
        chat: Chat,
        *,
        reports: RateLimiter | None = None,
    ) -> None:
        self.sessions = sessions
        self.clock = clock
        self.chat = chat
        self.reports = reports or RateLimiter(REPORTS_PER_S, REPORTS_BURST, clock.monotonic)

    # ---- who moderates -------------------------------------------------------------------
    async def is_moderator(self, player_id: str) -> bool:
        async with self.sessions() as session:
            return await storage.is_moderator(session, player_id)

    async def require(self, player_id: str) -> None:
        """403 ``mod.required`` unless ``player_id`` is a moderator."""
        if not await self.is_moderator(player_id):
            raise required()

    @staticmethod
    async def _account(session: AsyncSession, username: str) -> Player:
        found = None
        if len(username) <= 20:
            stmt = select(Player).where(Player.username_key == username_key(username))
            found = (await session.execute(stmt)).scalar_one_or_none()
        if found is None or found.username is None:
            raise _not_found(username)
        return found

    # ---- reports -------------------------------------------------------------------------
    async def report(
        self,
        reporter_id: str,
        username: str,
        reason: str,
        text: str,
        game_id: str | None = None,
        line_id: int | None = None,
    ) -> int:
        """Keep a report by the account ``reporter_id`` about the account ``username``; its
        id. A game and a chat line it names must exist, and the line must be the reported
        player's, in that game, and one the reporter could read."""
        if reason not in REASONS:
            raise ServiceError("report.invalid", f"the reason is one of {', '.join(REASONS)}")
        text = text.strip()
        if len(text) > MAX_TEXT:
            raise ServiceError(
                "report.invalid", f"a report's text has at most {MAX_TEXT} characters"
            )
        async with self.sessions() as session, session.begin():
            reported = await self._account(session, username)
            if reported.id == reporter_id:
                raise ServiceError("report.self", "you cannot report yourself")
            if line_id is not None:
                line = await session.get(ChatLine, line_id)
                game = None if line is None else await session.get(Game, line.game_id)
                if line is None or game is None or not _readable(line, game, reporter_id):
                    raise ServiceError("chat.line_not_found", f"no chat line {line_id}", 404)
                if line.player_id != reported.id:
                    raise ServiceError("report.invalid", f"that line is not {username}'s")
                if game_id is not None and game_id != line.game_id:
                    raise ServiceError("report.invalid", "that line is not of that game")
                game_id = line.game_id
            elif game_id is not None and await session.get(Game, game_id) is None:
                raise ServiceError("game.not_found", f"no game {game_id!r}", 404)
            try:
                self.reports.hit(reporter_id)
            except ServiceError as exc:  # said as the reports' own limit
                raise ServiceError(
                    "report.too_many",
                    "you sent many reports lately: try again later",
                    429,
                    ratelimit={**exc.extra["ratelimit"], "key": "report"},  # type: ignore[dict-item]
                ) from None
            entry = Report(
                reporter_id=reporter_id,
                reported_id=reported.id,
                reason=reason,
                text=text,
                game_id=game_id,
                chat_line_id=line_id,
                created_ms=self.clock.now_ms(),
            )
            session.add(entry)
            await session.flush()
            return entry.id

    async def queue(self) -> list[dict[str, Any]]:
        async with self.sessions() as session:
            return await storage.open_reports(session)

    async def details(self, report_id: int) -> dict[str, Any]:
        """A report with what a moderator decides on: the reported line with the lines
        around it, the player's recent games and lines, what holds on them now, and the
        log of what was done to them."""
        async with self.sessions() as session:
            report = await self._report(session, report_id)
            reporter = await session.get(Player, report.reporter_id)
            reported = await session.get(Player, report.reported_id)
            assert reporter is not None and reported is not None
            line = None
            if report.chat_line_id is not None:
                line = await session.get(ChatLine, report.chat_line_id)
            return {
                **storage.report_json(report, reporter.username, reported.username),
                "around": [] if line is None else await storage.lines_around(session, line),
                "recentGames": await storage.recent_games(session, reported.id),
                "recentLines": await storage.recent_lines(session, reported.id),
                "standing": await storage.standing(session, reported.id),
                "log": await storage.log(session, reported.id),
            }

    @staticmethod
    async def _report(session: AsyncSession, report_id: int) -> Report:
        report = await storage.report_row(session, report_id)
        if report is None:
            raise ServiceError("report.not_found", f"no report {report_id}", 404)
        return report

    async def _settle(
        self, session: AsyncSession, report_id: int | None, target_id: str, mod: str, how: str
    ) -> None:
        """Close the report an action answers (it must be about the same player)."""
        if report_id is None:
            return
        report = await self._report(session, report_id)
        if report.reported_id != target_id:
            raise ServiceError("report.invalid", "that report is about another player")
        await storage.close_report(session, report_id, mod, how, self.clock.now_ms())

    # ---- actions -------------------------------------------------------------------------
    async def dismiss(self, mod: str, report_id: int, reason: str) -> None:
        reason = _reason(reason)
        now = self.clock.now_ms()
        async with self.sessions() as session, session.begin():
            report = await self._report(session, report_id)
            if not await storage.close_report(session, report_id, mod, "dismiss", now):
                raise ServiceError("report.closed", "this report is closed already", 409)
            entry = storage.log_entry(
                mod, "dismiss", report.reported_id, reason, now, report_id=report_id
            )
            session.add(entry)

    async def warn(self, mod: str, username: str, reason: str, report_id: int | None) -> None:
        """Warn the player: ``reason`` is what their pages show them."""
        reason = _reason(reason)
        now = self.clock.now_ms()
        async with self.sessions() as session, session.begin():
            target = await self._account(session, username)
            await self._settle(session, report_id, target.id, mod, "warn")
            session.add(ModWarning(player_id=target.id, text=reason, created_ms=now))
            session.add(storage.log_entry(mod, "warn", target.id, reason, now, report_id=report_id))

    async def mute(
        self, mod: str, username: str, minutes: int, reason: str, report_id: int | None
    ) -> int | None:
        """Mute the player's chat for ``minutes`` from now (0: lift a mute); its end."""
        reason = _reason(reason)
        if not 0 <= minutes <= MAX_MUTE_MINUTES:
            raise ServiceError("mod.invalid", f"a mute lasts 0 to {MAX_MUTE_MINUTES} minutes")
        now = self.clock.now_ms()
        until = now + minutes * 60_000 if minutes else None
        action = "mute" if minutes else "unmute"
        async with self.sessions() as session, session.begin():
            target = await self._account(session, username)
            await self._settle(session, report_id, target.id, mod, action)
            (await storage.sanction(session, target.id)).muted_until_ms = until
            session.add(
                storage.log_entry(
                    mod, action, target.id, reason, now, report_id=report_id, until_ms=until
                )
            )
        return until

    async def restrict(
        self, mod: str, username: str, on: bool, reason: str, report_id: int | None
    ) -> None:
        """Make the player's chat visible only to themselves (lichess's troll flag), or no
        longer (``on``): for the lines they write from now on."""
        reason = _reason(reason)
        action = "troll" if on else "untroll"
        now = self.clock.now_ms()
        async with self.sessions() as session, session.begin():
            target = await self._account(session, username)
            await self._settle(session, report_id, target.id, mod, action)
            (await storage.sanction(session, target.id)).troll = on
            session.add(storage.log_entry(mod, action, target.id, reason, now, report_id=report_id))

    async def hide(self, mod: str, line_id: int, reason: str, report_id: int | None) -> None:
        """Hide a chat line from everyone: from the kept chat, and from the pages showing it."""
        reason = _reason(reason)
        now = self.clock.now_ms()
        async with self.sessions() as session, session.begin():
            line = await session.get(ChatLine, line_id)
            game = None if line is None else await session.get(Game, line.game_id)
            if line is None or game is None:
                raise ServiceError("chat.line_not_found", f"no chat line {line_id}", 404)
            await self._settle(session, report_id, line.player_id, mod, "hide")
            session.add(
                storage.log_entry(
                    mod, "hide", line.player_id, reason, now, report_id=report_id, line_id=line_id
                )
            )
            ply = game.ply
        await self.chat.hide(line_id, ply)

    async def close(
        self,
        mod: str,
        username: str,
        reason: str,
        report_id: int | None,
        closer: Callable[[str], Awaitable[object]],
    ) -> None:
        """Close the player's account with ``closer`` (app/accounts/closing.py, as its owner
        closes it), then log it."""
        reason = _reason(reason)
        async with self.sessions() as session:
            target = await self._account(session, username)
            if report_id is not None:
                report = await self._report(session, report_id)
                if report.reported_id != target.id:
                    raise ServiceError("report.invalid", "that report is about another player")
        await closer(target.id)
        now = self.clock.now_ms()
        async with self.sessions() as session, session.begin():
            await self._settle(session, report_id, target.id, mod, "close")
            session.add(
                storage.log_entry(mod, "close", target.id, reason, now, report_id=report_id)
            )

    async def log(self, username: str | None) -> list[dict[str, Any]]:
        async with self.sessions() as session:
            target = None if username is None else (await self._account(session, username)).id
            return await storage.log(session, target)

    # ---- the warned player ---------------------------------------------------------------
    async def warnings(self, player_id: str) -> list[Shown]:
        """The player's warnings not acknowledged yet, oldest first."""
        async with self.sessions() as session:
            rows = await storage.unseen_warnings(session, player_id)
        return [Shown(row.id, row.text, row.created_ms) for row in rows]

    async def acknowledge(self, player_id: str, warning_id: int) -> None:
        """The player read the warning: it is not shown again (again changes nothing)."""
        async with self.sessions() as session, session.begin():
            if not await storage.see_warning(session, player_id, warning_id, self.clock.now_ms()):
                raise ServiceError("warning.not_found", f"no warning {warning_id}", 404)


def _readable(line: ChatLine, game: Game, reader: str) -> bool:
    """Whether ``reader`` could have read the line: the players' room is the game's
    players'; a line kept for its author only is theirs."""
    if line.author_only and line.player_id != reader:
        return False
    return line.room != "player" or seat_of(game, reader) is not None
