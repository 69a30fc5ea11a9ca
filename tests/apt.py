"""Installing a Debian package the tests need, once, even from parallel test workers.

pytest-xdist runs the suite in several processes: two of them may find PostgreSQL or Chromium
missing at the same moment, and two ``apt-get`` runs at once fail on dpkg's lock. One lock
file serialises the installs; whoever gets it second finds the package there and skips.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")
LOCK = Path(tempfile.gettempdir()) / "kodama-tests-apt.lock"


def install_once(package: str, found: Callable[[], T | None], *, recommends: bool = False) -> T:
    """``found()``, installing Debian's ``package`` first (as root, with apt) if it is None."""
    present = found()
    if present is not None:
        return present
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        raise RuntimeError(
            f"{package} is missing and cannot be installed here: "
            f"install Debian's {package!r} package (apt-get install {package})"
        )
    with LOCK.open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        present = found()  # another worker may have installed it meanwhile
        if present is not None:
            return present
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "update", "-q"], check=True, env=env, capture_output=True)
        lean = [] if recommends else ["--no-install-recommends"]
        subprocess.run(
            ["apt-get", "install", "-y", "-q", *lean, package],
            check=True,
            env=env,
            capture_output=True,
        )
    present = found()
    if present is None:
        raise RuntimeError(f"apt-get installed {package} but it is still not found")
    return present
