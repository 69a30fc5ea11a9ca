"""What one HTTP request costs the server: the CPU of the thread the app runs in (the test
client's event loop thread: the app, its middleware and the database driver's calls, not
the client's), per request, for a few kinds of request on an SQLite app.

    .venv/bin/python bench/requests.py
    .venv/bin/python bench/requests.py --source /tmp/before --requests 2000
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, default=ROOT, help="the checkout to measure")
    parser.add_argument("--requests", type=int, default=1000, help="of each kind")
    args = parser.parse_args()
    sys.path.insert(0, str(args.source.resolve()))
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient  # noqa: PLC0415

    from app.core.config import Settings  # noqa: PLC0415
    from app.core.time import ManualClock  # noqa: PLC0415
    from app.main import create_app  # noqa: PLC0415

    folder = Path(tempfile.mkdtemp())
    settings = Settings(
        database_url=f"sqlite+aiosqlite:///{folder}/kodama.sqlite3",
        data_dir=folder,
        secret_key="bench-requests-Xk2pQ9vL4mT7wR1sN8bY5cJ3",
    )
    from app.__main__ import migrate  # noqa: PLC0415

    migrate(settings.resolved_database_url)
    with TestClient(create_app(settings, ManualClock())) as client:
        portal = client.portal
        assert portal is not None

        def server_cpu() -> float:
            used: float = portal.call(_thread_time)
            return used

        cookie = client.get("/api/me").cookies
        kinds: dict[str, Any] = {
            "GET /api/me, a known visitor": lambda: client.get("/api/me", cookies=cookie),
            "GET /api/me, a new visitor": lambda: client.get("/api/me", cookies={}),
            "GET /static/js/game.js": lambda: client.get("/static/js/game.js", cookies=cookie),
            "GET / (the lobby page)": lambda: client.get("/", cookies=cookie),
        }
        client.cookies.clear()
        for name, request in kinds.items():
            for _ in range(50):  # warm: the routes' first use builds them
                request()
            start = server_cpu()
            for _ in range(args.requests):
                assert request().status_code == 200
            used = server_cpu() - start
            print(f"{name:32} {1000 * used / args.requests:.3f} ms of server CPU a request")


async def _thread_time() -> float:
    return time.thread_time()


if __name__ == "__main__":
    main()
