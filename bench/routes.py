"""What an app instance costs to build: ``create_app``, then the handling of its routes that
FastAPI builds on the first requests (pydantic adapters for every parameter), per app.

The site's routes (app/http/site.py) are built once per process: from the second app on, the
second figure is ~0. ``--source`` runs another checkout (whose routes may be per app).

    .venv/bin/python bench/routes.py
    .venv/bin/python bench/routes.py --source /tmp/before --apps 10
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


def built(routes: list[Any]) -> int:
    """Build what a first request would (FastAPI's included routers, recursively): how many."""
    count = 0
    for route in routes:
        if hasattr(route, "effective_candidates"):
            found = route.effective_candidates()
            count += len(found) + built(found)
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, default=ROOT, help="the checkout to measure")
    parser.add_argument("--apps", type=int, default=5)
    args = parser.parse_args()
    sys.path.insert(0, str(args.source.resolve()))
    warnings.simplefilter("ignore")
    from app.core.config import Settings  # noqa: PLC0415
    from app.core.time import ManualClock  # noqa: PLC0415
    from app.main import create_app  # noqa: PLC0415

    folder = Path(tempfile.mkdtemp())
    settings = Settings(
        database_url=f"sqlite+aiosqlite:///{folder}/unused.sqlite3",
        data_dir=folder,
        secret_key="bench-routes-Xk2pQ9vL4mT7wR1sN8bY5cJ3",
    )
    for _ in range(args.apps):
        start = time.process_time()
        app = create_app(settings, ManualClock())
        made = time.process_time()
        routers = [app.router, getattr(app.router.default, "router", None)]
        count = sum(built(router.routes) for router in routers if router is not None)
        done = time.process_time()
        print(
            f"create_app {1000 * (made - start):.1f} ms CPU, "
            f"then {count} route contexts in {1000 * (done - made):.1f} ms CPU"
        )


if __name__ == "__main__":
    main()
