"""Entry points: ``python -m app migrate``, ``python -m app serve [--host H] [--port P]``,
``python -m app moderators add|remove USERNAME`` / ``python -m app moderators list`` and
``python -m app tablebase build [--ruleset dobutsu|yokai] [--out PATH]``,
``python -m app puzzles generate --table PATH [--out FILE] [--database URL]`` and
``python -m app puzzles import [--file FILE]``."""

from __future__ import annotations

import argparse
import contextlib
import logging
import sys
from pathlib import Path

from alembic import command
from alembic.config import Config

from app.core.config import InsecureSecretError, get_settings, secret_key_problem

log = logging.getLogger("app")

MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"


def migrate(url: str | None = None) -> None:
    """Upgrade the database to the newest migration (creating an SQLite file if needed)."""
    settings = get_settings()
    if settings.is_sqlite and url is None:
        settings.data_dir.mkdir(parents=True, exist_ok=True)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", url or settings.resolved_database_url)
    command.upgrade(config, "head")


def check_secret_key() -> None:
    """Refuse to serve with a key that would let anyone sign cookies (exit 3, as uvicorn
    does when it cannot start), before anything else is done."""
    from uvicorn.config import STARTUP_FAILURE  # noqa: PLC0415

    settings = get_settings()
    try:
        settings.resolved_secret_key()
    except InsecureSecretError as exc:
        log.error("cannot start: %s", exc)
        sys.exit(STARTUP_FAILURE)
    if settings.insecure_dev_secret and secret_key_problem(settings.resolved_secret_key()):
        log.warning(
            "KODAMA_INSECURE_DEV_SECRET is on: serving with a known or short SECRET_KEY; "
            "anyone who knows it can sign any player's cookie (development only)"
        )


def warn_of_a_weak_password_cost() -> None:
    """Say so when stored passwords cost less to hash than RFC 9106's profile (allowed: an
    operator's choice, and the tests' servers use the least cost)."""
    if get_settings().weaker_password_hashing:
        log.warning(
            "KODAMA_ARGON2_*: stored passwords are hashed with less than RFC 9106's "
            "low-memory profile (t=3, 64 MiB, p=4): a stolen hash is cheaper to crack"
        )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m app", description="Kodama server")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("migrate", help="upgrade the database to the newest schema")
    serve = sub.add_parser("serve", help="migrate, then serve with uvicorn")
    serve.add_argument("--host", default=None, help="default: KODAMA_HOST or 127.0.0.1")
    serve.add_argument("--port", type=int, default=None, help="default: KODAMA_PORT or 8000")
    mods = sub.add_parser("moderators", help="name the moderators: add, remove or list them")
    mods.add_argument("action", choices=("add", "remove", "list"))
    mods.add_argument("username", nargs="?", default=None, help="the account (add, remove)")
    tables = sub.add_parser("tablebase", help="solve Dōbutsu shōgi: build its tablebase")
    tables.add_argument("action", choices=("build",))
    tables.add_argument("--ruleset", choices=("dobutsu", "yokai"), default="dobutsu")
    tables.add_argument(
        "--out", type=Path, default=None, help="default: KODAMA_TABLEBASE_PATH or data/tablebase"
    )
    puzzles = sub.add_parser("puzzles", help="Dōbutsu puzzles: generate the set, import it")
    puzzles.add_argument("action", choices=("generate", "import"))
    puzzles.add_argument("--table", type=Path, default=None, help="a built tablebase folder")
    puzzles.add_argument("--out", type=Path, default=None, help="default: the committed set")
    puzzles.add_argument("--database", default=None, help="puzzles from its finished games")
    puzzles.add_argument("--per-length", type=int, default=400, help="puzzles of each length")
    puzzles.add_argument("--total", type=int, default=2200, help="stop at this many puzzles")
    puzzles.add_argument("--seed", type=int, default=0)
    puzzles.add_argument("--file", type=Path, default=None, help="import: default the set")
    args = parser.parse_args(argv)
    if args.command == "puzzles" and args.action == "generate":
        from app.puzzles import cli as puzzles_cli  # noqa: PLC0415

        table = args.table or get_settings().resolved_tablebase_path
        sys.exit(
            puzzles_cli.generate_command(
                table, args.out, args.database, args.per_length, args.total, args.seed
            )
        )
    if args.command == "tablebase":
        from app.tablebase.build import build  # noqa: PLC0415 - numpy only when building

        build(args.ruleset, args.out or get_settings().resolved_tablebase_path)
        return
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    if args.command == "serve":
        check_secret_key()
        warn_of_a_weak_password_cost()
    migrate()
    if args.command == "moderators":
        from app.moderation import cli  # noqa: PLC0415

        sys.exit(cli.run(args.action, args.username, get_settings().resolved_database_url))
    if args.command == "puzzles":
        from app.puzzles import cli as puzzles_cli  # noqa: PLC0415

        sys.exit(puzzles_cli.import_command(get_settings().resolved_database_url, args.file))
    if args.command == "serve":
        import uvicorn  # noqa: PLC0415
        from uvicorn.config import STARTUP_FAILURE  # noqa: PLC0415

        settings = get_settings()
        # create_app reads these same settings: the built-in bots reach the server here.
        settings.host = args.host or settings.host
        settings.port = args.port or settings.port
        if settings.builtin_bots is None:
            settings.builtin_bots = True
        if settings.tournament_schedule is None:
            from app.tournaments.schedule import default_schedule  # noqa: PLC0415

            settings.tournament_schedule = default_schedule()
        from app import main as _app_modules  # noqa: F401, PLC0415 - loaded before settling
        from app.core import heap  # noqa: PLC0415
        from app.http.protocol import bounded_protocol  # noqa: PLC0415
        from app.http.server import Server  # noqa: PLC0415

        heap.settle()  # the garbage collector tuned for latency: see app/core/heap.py
        config = uvicorn.Config(
            "app.main:create_app",
            factory=True,
            http=bounded_protocol(settings),  # limits on request heads, a deadline for them
            host=settings.host,
            port=settings.port,
            ws_max_size=settings.max_message_bytes * 4,
            # No permessage-deflate: its zlib state is most of an idle socket's memory, and
            # each socket compresses every message itself (docs/decisions/socket-memory.md).
            ws_per_message_deflate=settings.ws_compression,
            log_level="info",
            # The app reads the proxy headers itself (app/http/origin.py ForwardedHeaders).
            proxy_headers=False,
            # What still runs this long after a shutdown began is cancelled.
            timeout_graceful_shutdown=settings.shutdown_grace_seconds,
        )
        server = Server(config)
        with contextlib.suppress(KeyboardInterrupt):
            server.run()
        if not server.started:
            sys.exit(STARTUP_FAILURE)  # as uvicorn.run does: the port was taken, say


if __name__ == "__main__":
    main()
