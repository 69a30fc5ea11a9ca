"""What crosses processes: the hub (PostgreSQL LISTEN/NOTIFY, or in memory), presence and
its feed, attendance, and the followers of a player's new games."""

from __future__ import annotations

from dataclasses import dataclass

from app.core.config import Settings
from app.core.running import Running
from app.core.time import Clock
from app.db.wiring import Database
from app.realtime.attendance import Attendance
from app.realtime.follow import Followers, GameStarts
from app.realtime.hub import LocalHub, PostgresHub, asyncpg_dsn
from app.realtime.messages import HubCodec
from app.realtime.presence import Presence
from app.realtime.presencefeed import PresenceFeed


@dataclass(frozen=True)
class Realtime:
    hub: LocalHub
    presence: Presence
    crowd: PresenceFeed
    attendance: Attendance
    game_starts: GameStarts
    followers: Followers


async def wire(settings: Settings, clock: Clock, db: Database, running: Running) -> Realtime:
    """The hub is started at once: everything after it may subscribe."""
    use_notify = settings.notify == "on" or (settings.notify == "auto" and db.is_postgres)
    hub: LocalHub = (
        PostgresHub(asyncpg_dsn(settings.resolved_database_url), HubCodec())
        if use_notify
        else LocalHub()
    )
    # A game nobody here watches is remembered for the longer grace period: a claimant
    # who reloads the page keeps the opponent's count; one away that long starts anew.
    grace_seconds = max(settings.gone_seconds, settings.gone_unmoved_seconds)
    presence = Presence(clock.now_ms, keep_idle_ms=round(grace_seconds * 1000))
    await running.start(hub)
    game_starts, followers = GameStarts(hub), Followers(hub)
    running.on_stop(followers.stop)
    running.on_stop(game_starts.stop)
    return Realtime(
        hub=hub,
        presence=presence,
        crowd=PresenceFeed(
            presence,
            hub,
            clock,
            flush_ms=round(settings.presence_flush_seconds * 1000),
            beat_ms=round(settings.presence_beat_seconds * 1000),
        ),
        attendance=Attendance(db.sessions, clock, settings.attendance_beat_seconds),
        game_starts=game_starts,
        followers=followers,
    )
