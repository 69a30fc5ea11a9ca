"""How close this process is to its limit of open files (``RLIMIT_NOFILE``): every TCP
connection, socket or stream, is a file handle, and a process that has none left can
neither accept a new visitor nor open its database. New long-lived connections (WebSockets
and NDJSON streams) are refused while fewer than ``reserve`` handles are left, so that the
handles a page load, a move or a database connection needs are always there
(docs/decisions/connection-caps.md)."""

from __future__ import annotations

import os
import resource
from collections.abc import Callable

# Lists this process's open file handles: Linux (a link to /proc/self/fd) and macOS.
FD_FOLDER = "/dev/fd"


def soft_limit() -> int | None:
    """The process's soft limit of open files, read at each call (an operator may raise it
    while the server runs, with prlimit); None when unlimited."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return None if soft == resource.RLIM_INFINITY else soft


def open_files() -> int | None:
    """How many file handles this process has open; None where the system cannot say."""
    try:
        # (the listing's own handle is among them: one more, never fewer)
        return len(os.listdir(FD_FOLDER))
    except OSError:
        return None


class FileHandles:
    """Whether this process may take one more long-lived connection."""

    def __init__(
        self,
        reserve: int,
        limit: Callable[[], int | None] = soft_limit,
        in_use: Callable[[], int | None] = open_files,
    ) -> None:
        self.reserve = reserve
        self.limit = limit
        self.in_use = in_use

    def scarce(self) -> bool:
        """True when fewer than ``reserve`` handles are left (never where the limit or the
        count is unknown: the check must not refuse what it cannot measure)."""
        limit = self.limit()
        if limit is None:
            return False
        used = self.in_use()
        return used is not None and used + self.reserve >= limit
