"""All settings in one place, read from the environment (pydantic-settings)."""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import AliasChoices, Field, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

# Secret keys that were shipped as examples (docker-compose.yml's former default): anyone can
# read them, and with one a cookie for any player or account can be signed.
KNOWN_PLACEHOLDER_SECRETS = frozenset({"change-me-to-a-long-random-secret"})
MIN_SECRET_LENGTH = 32  # characters other than whitespace
# A key of one character repeated (or a short pattern) is as easy to guess as a short one;
# Django's check of its SECRET_KEY asks for 5 different characters too.
MIN_SECRET_DISTINCT = 5
# argon2id (time cost, memory in KiB, lanes): RFC 9106's low-memory profile.
DEFAULT_ARGON2 = (3, 65_536, 4)


class InsecureSecretError(RuntimeError):
    """SECRET_KEY is a published placeholder or too short, and no development switch is on."""


def secret_key_problem(key: str) -> str | None:
    """Why this key must not sign cookies, or None."""
    if key.strip().lower() in KNOWN_PLACEHOLDER_SECRETS:
        return "SECRET_KEY is the placeholder published in docker-compose.yml"
    # Whitespace is not counted: a short key padded with spaces is still a short key.
    meaningful = "".join(key.split())
    if len(meaningful) < MIN_SECRET_LENGTH:
        return (
            f"SECRET_KEY has {len(meaningful)} characters (whitespace aside), "
            f"fewer than {MIN_SECRET_LENGTH}"
        )
    if len(set(meaningful)) < MIN_SECRET_DISTINCT:
        return (
            f"SECRET_KEY repeats {len(set(meaningful))} different characters, "
            f"fewer than {MIN_SECRET_DISTINCT}"
        )
    return None


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="KODAMA_", env_file=".env", extra="ignore", populate_by_name=True
    )

    # Unset: an SQLite file under data_dir (the embedded default, zero set-up).
    # Production and CI: postgresql+asyncpg://user:password@host:port/database
    database_url: str = Field(
        default="", validation_alias=AliasChoices("DATABASE_URL", "KODAMA_DATABASE_URL")
    )
    # Signs the anonymous-player cookie. Unset: generated once and kept in data_dir, so
    # players keep their seats across restarts. Set: at least MIN_SECRET_LENGTH characters
    # and no published placeholder, or the server refuses to start (resolved_secret_key) —
    # unless insecure_dev_secret (KODAMA_INSECURE_DEV_SECRET=1), for development only.
    secret_key: str = Field(
        default="", validation_alias=AliasChoices("SECRET_KEY", "KODAMA_SECRET_KEY")
    )
    insecure_dev_secret: bool = False
    data_dir: Path = Path("data")
    # The Dōbutsu tablebase's folder (python -m app tablebase build). Unset: data_dir/tablebase.
    tablebase_path: Path | None = None
    host: str = "127.0.0.1"
    port: int = 8000
    # Several instances on one PostgreSQL: events cross instances by LISTEN/NOTIFY.
    # "auto" = on with PostgreSQL, off with SQLite.
    notify: str = "auto"
    # A game whose side to move has not made its first move within this time is aborted.
    first_move_seconds: float = 60.0
    # After this long without a connection, the opponent may claim victory or a draw;
    # shorter for a player who has not moved yet in the game.
    gone_seconds: float = 30.0
    gone_unmoved_seconds: float = 15.0
    # A rematch offer lapses once its maker has had no page of the game open this long (a
    # reload keeps it); the offers are checked every rematch_sweep_seconds.
    rematch_gone_seconds: float = 5.0
    rematch_sweep_seconds: float = 1.0
    # Spectators coming and going are told to a game's sockets at most this often (players'
    # arrivals and departures at once); instances report their connections to each other
    # at least every presence_beat_seconds, and forget a report not renewed for 3 beats.
    presence_flush_seconds: float = 1.0
    presence_beat_seconds: float = 5.0
    # Quick pairing (app/matchmaking/service.py): a pairing round of every pool this often;
    # each instance renews the pool entries it holds every beat, and an entry not renewed
    # for pool_expire_seconds (its instance died) is never paired and is deleted.
    pool_round_seconds: float = 1.0
    pool_beat_seconds: float = 5.0
    pool_expire_seconds: float = 15.0
    # Open seats nobody takes are cancelled after this long (a seek does not live forever).
    open_game_hours: float = 24.0
    # A public seek lives while its creator has a socket open on some instance
    # (docs/decisions/live-lobby.md): hidden from the lobby once they have none,
    # shown again if they come back within seek_grace_seconds, cancelled after. Instances
    # write their identities' sockets every attendance_beat_seconds; one silent for
    # instance_dead_seconds counts as gone (killed). A seek younger than seek_new_seconds is
    # shown before its creator's first socket (the page opens after the POST).
    seek_grace_seconds: float = 60.0
    seek_sweep_seconds: float = 1.0
    attendance_beat_seconds: float = 1.0
    instance_dead_seconds: float = 5.0
    seek_new_seconds: float = 10.0
    max_message_bytes: int = 4096
    # The lobby sockets get at most one update this often: a burst of changes becomes one.
    lobby_interval_seconds: float = 0.25
    # WebSocket compression (permessage-deflate) when a client offers it. Off: deflating
    # every message for every socket (its context is per socket) cost 6-15% of the server's
    # CPU per move for messages of ~500 bytes (docs/decisions/per-move-cpu.md).
    ws_compression: bool = False
    # Every HTTP request body, on every route (app/http/bodylimit.py): larger is 413. The
    # server's bodies are a few short fields, well under 1 KB.
    max_body_bytes: int = 16_384
    # The request head (app/http/protocol.py): request line and headers at most this many
    # bytes, at most this many headers (else 431), and whole within this many seconds of
    # the connection's opening or the request's first byte (else 408 and closed); a body
    # whole within body_timeout_seconds of the end of its head (else 408 and closed).
    max_header_bytes: int = 16_384
    max_headers: int = 100
    header_timeout_seconds: float = 10.0
    body_timeout_seconds: float = 10.0
    cookie_secure: bool = False
    # The built-in computer opponents (kodama-random … kodama-hard, app/builtin/service.py).
    # Unset: on for `python -m app serve`, off for an app built otherwise (tests, benches).
    builtin_bots: bool | None = None
    # One instance per database runs them (a PostgreSQL advisory lock); the others try to
    # take over this often, and the holder checks its lock's connection as often.
    builtin_lease_retry_seconds: float = 5.0
    # Games at once per level whose opponent is connected, over app/builtin/seats.py SEATS:
    # JSON by level, e.g. KODAMA_BUILTIN_SEATS='{"hard": 5}' (bench/builtin_seats.py --think).
    builtin_seats: dict[str, int] = Field(default_factory=dict)
    # Fairy-Stockfish's command for the built-in kodama-fairy (app/builtin/service.py).
    # Unset: `fairy-stockfish` if it is on PATH, else no kodama-fairy; empty: none either.
    fairy_stockfish: str | None = None
    # The site's own arenas (app/tournaments/schedule.py): JSON, a list of entries such as
    # {"every": "hourly", "at": ":12", "variant": "dobutsu", "clock": "3+2", "minutes": 57}
    # or {"every": "daily", "at": "18:00", ...} (UTC); [] for none. Unset: its default
    # schedule for `python -m app serve`, none for an app built otherwise (tests, benches).
    tournament_schedule: list[Any] | None = None

    # ---- the bot API (docs/api.md) ----
    # NDJSON streams send an empty line this often, so that proxies and clients keep them open.
    keepalive_seconds: float = 7.0
    # A challenge nobody answers expires after this long.
    challenge_expire_minutes: float = 30.0
    # Token buckets (refill per second, burst) per API token (or per cookie player); each
    # IP address gets ratelimit_ip_factor times as much (several programs share an address).
    ratelimit_move_per_s: float = 10.0  # moves and the other game actions
    ratelimit_move_burst: int = 60
    ratelimit_challenge_per_s: float = 0.5  # challenges, their answers, seeks
    ratelimit_challenge_burst: int = 20
    ratelimit_stream_per_s: float = 1.0  # opening an NDJSON stream
    ratelimit_stream_burst: int = 30
    ratelimit_chat_per_s: float = 0.5
    ratelimit_chat_burst: int = 10
    # Chat flood control per person, whichever way they write (app/chat/flood.py):
    # this many lines in a row, then one more every chat_flood_seconds.
    chat_flood_lines: int = Field(default=5, ge=1)
    chat_flood_seconds: float = Field(default=3.0, gt=0)
    # A new account (younger than chat_new_account_hours, or with fewer than
    # chat_new_account_games games played to the end) writes one line every
    # chat_new_account_seconds at most (app/chat/safety.py).
    chat_new_account_hours: float = Field(default=24.0, ge=0)
    chat_new_account_games: int = Field(default=3, ge=0)
    chat_new_account_seconds: float = Field(default=10.0, gt=0)
    # Words a chat line may not hold (one per line, # starts a comment): this file instead of
    # the list shipped in app/chat/blocked_words.txt.
    chat_blocked_words_file: Path | None = None
    ratelimit_ip_factor: float = 10.0
    # The analysis board's replays (POST /api/analysis/moves) run in worker processes
    # (docs/decisions/analysis-workers.md): this many, with at most analysis_queue more
    # requests waiting (then 503 analysis.busy), and per visitor (per IP: times
    # ratelimit_ip_factor) this rate of requests.
    analysis_workers: int = Field(default=1, ge=1)
    analysis_queue: int = Field(default=8, ge=0)
    ratelimit_analysis_per_s: float = 2.0
    ratelimit_analysis_burst: int = 30
    # The engine evaluations (GET /api/cloud-eval, docs/decisions/engine-evaluation.md) have
    # workers and a queue of their own; one stops at whichever of its nodes and seconds
    # comes first; the answers are kept for this many positions (LRU).
    analysis_eval_workers: int = Field(default=1, ge=1)
    analysis_eval_queue: int = Field(default=4, ge=0)
    analysis_eval_nodes: int = Field(default=50_000, ge=1)
    analysis_eval_seconds: float = Field(default=1.0, gt=0)
    analysis_eval_cache: int = Field(default=4096, ge=0)
    # Game reviews (docs/decisions/game-review.md): this many run at once per instance, each
    # in a worker process; at most review_queue_max wait (then 503 review.busy). Each position
    # is searched within these nodes or seconds; a running review not heard of for
    # review_lease_seconds is queued again; the queue is looked at every review_poll_seconds
    # (and at once when a review is asked on this instance).
    review_workers: int = Field(default=1, ge=1)
    review_queue_max: int = Field(default=200, ge=1)
    review_eval_nodes: int = Field(default=30_000, ge=1)
    review_eval_seconds: float = Field(default=1.0, gt=0)
    review_lease_seconds: float = Field(default=60.0, gt=0)
    review_poll_seconds: float = Field(default=5.0, gt=0)

    # ---- limits on creating things, and on sockets (docs/decisions/creation-limits.md) ----
    # Creating, joining and cancelling games and using invite links (browser API), per
    # player and per IP (times ratelimit_ip_factor): 10 at once, then one every 10 s.
    ratelimit_game_per_s: float = 0.1
    ratelimit_game_burst: int = 10
    # What a game socket receives besides game actions (which take from the "move" bucket):
    # ping, resync (a database read) and refused input.
    ratelimit_socket_per_s: float = 2.0
    ratelimit_socket_burst: int = 20
    # Public games waiting for an opponent (the lobby's open list, seeks included): at most
    # this many per player, and per IP address (remembered per instance).
    max_open_games: int = 5
    max_open_games_per_ip: int = 30
    # Open WebSockets and NDJSON streams (all counted together) per IP address, per instance.
    max_sockets_per_ip: int = 50
    # New sockets and streams are refused (503 server.busy, or close 1013) while fewer than
    # this many of the process's file handles (RLIMIT_NOFILE) are left: what page loads,
    # moves and database connections need (docs/decisions/connection-caps.md).
    file_handle_reserve: int = Field(default=128, ge=0)
    # On shutdown, open NDJSON streams (which never end by themselves) get this long to
    # finish before the server cuts them.
    shutdown_grace_seconds: int = 3

    # ---- stored passwords (app/accounts/service.py) ----
    # argon2id's cost per hash and check: RFC 9106's low-memory profile by default (3 passes
    # over 64 MiB, 4 lanes: ~0.2 s of a core here). A password stored with other parameters
    # is hashed again with these at its next log-in. Lower costs make a stolen hash cheaper
    # to crack; the server says so at start (the tests' server processes use the least).
    argon2_time_cost: int = Field(default=DEFAULT_ARGON2[0], ge=1)
    argon2_memory_kib: int = Field(default=DEFAULT_ARGON2[1], ge=8)
    argon2_parallelism: int = Field(default=DEFAULT_ARGON2[2], ge=1)

    # ---- mail: e-mail verification and password resets (app/accounts/mail.py) ----
    # The SMTP server mails go through; unset (the default), no mail is sent and the
    # account page offers no e-mail address. TLS: "starttls" (the default), "ssl" (implicit
    # TLS, port 465) or "none" (a local relay only).
    smtp_host: str = ""
    smtp_port: int = Field(default=587, ge=1, le=65535)
    smtp_user: str = ""
    smtp_password: str = ""
    smtp_from: str = ""
    smtp_tls: Literal["starttls", "ssl", "none"] = "starttls"
    # The site's address as the mailed links give it, e.g. "https://kodama.example". Unset:
    # the address the request came to, which a forged Host header could change: set it when
    # the server is reachable by more than its one name.
    public_url: str = ""

    # ---- cross-origin requests and reverse proxies (app/http/origin.py) ----
    # Origins besides the site's own whose pages may act for a visitor (post with the
    # cookie, open the sockets): comma-separated scheme://host[:port], e.g.
    # "https://kodama.example,https://www.kodama.example". A page of any other origin may not.
    allowed_origins: str = ""
    # Reverse proxies trusted for X-Forwarded-Proto, X-Forwarded-For and X-Forwarded-Host:
    # comma-separated addresses or networks, "*" for any. uvicorn's setting and default.
    forwarded_allow_ips: str = Field(
        default="127.0.0.1,::1",
        validation_alias=AliasChoices("FORWARDED_ALLOW_IPS", "KODAMA_FORWARDED_ALLOW_IPS"),
    )

    @field_validator("tournament_schedule", mode="before")
    @classmethod
    def _schedule_is_json(cls, value: object) -> object:
        # pydantic-settings hands over an environment value it could not decode as it is.
        if isinstance(value, str):
            try:
                return json.loads(value)
            except ValueError as error:
                raise ValueError(f"KODAMA_TOURNAMENT_SCHEDULE is not JSON: {error}") from None
        return value

    @model_validator(mode="after")
    def _argon2_memory_fits_its_lanes(self) -> Settings:
        if self.argon2_memory_kib < 8 * self.argon2_parallelism:
            raise ValueError(
                "KODAMA_ARGON2_MEMORY_KIB must be at least 8 KiB per lane "
                f"(KODAMA_ARGON2_PARALLELISM={self.argon2_parallelism})"
            )
        return self

    @property
    def weaker_password_hashing(self) -> bool:
        """Whether stored passwords cost less to hash than RFC 9106's low-memory profile."""
        return (
            self.argon2_time_cost < DEFAULT_ARGON2[0]
            or self.argon2_memory_kib < DEFAULT_ARGON2[1]
            or self.argon2_parallelism < DEFAULT_ARGON2[2]
        )

    @property
    def resolved_database_url(self) -> str:
        if self.database_url:
            return self.database_url
        return f"sqlite+aiosqlite:///{(self.data_dir / 'kodama.sqlite3').resolve()}"

    @property
    def resolved_tablebase_path(self) -> Path:
        return self.tablebase_path or self.data_dir / "tablebase"

    @property
    def is_sqlite(self) -> bool:
        return self.resolved_database_url.startswith("sqlite")

    def resolved_secret_key(self) -> str:
        """The key that signs cookies; ``InsecureSecretError`` if it is not fit for that."""
        key = self.secret_key or self._generated_secret_key()
        problem = secret_key_problem(key)
        if problem is not None and not self.insecure_dev_secret:
            raise InsecureSecretError(
                f"{problem}: anyone who knows or guesses it can sign any player's cookie. Set "
                "SECRET_KEY to a long random value, e.g. the output of "
                "python3 -c 'import secrets; print(secrets.token_urlsafe(32))' "
                "(or, for development only, set KODAMA_INSECURE_DEV_SECRET=1)"
            )
        return key

    def _generated_secret_key(self) -> str:
        path = self.data_dir / "secret_key"
        if not path.exists():
            self.data_dir.mkdir(parents=True, exist_ok=True)
            # Written whole to a file that is private from its creation (mkstemp: mode 600),
            # then linked into place, which fails if another start got there first: the key
            # is never readable by others, not even for a moment, nor ever half written, and
            # two starts at once keep the same key.
            fd, temporary = tempfile.mkstemp(dir=self.data_dir, prefix=".secret_key.")
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as file:
                    file.write(secrets.token_urlsafe(32))
                try:
                    os.link(temporary, path)
                except FileExistsError:
                    pass  # the other start's key is kept
                except OSError:
                    # A file system without hard links: renamed into place instead (still
                    # private and whole; two first starts at once may then differ).
                    os.replace(temporary, path)
            finally:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(temporary)
        return path.read_text(encoding="utf-8").strip()


@lru_cache
def get_settings() -> Settings:
    return Settings()
