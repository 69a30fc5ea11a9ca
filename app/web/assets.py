"""The browser client's files (static/) as the pages load them: from memory, under an address
that names their version, so a browser keeps them until the next deploy without asking again.

The version is a digest of every file's content. A page names it in every ``/static/``
address it loads (``/static/_<version>/js/pages/game.js``), and the modules' relative imports
keep it, so a whole page comes from one version. Those answers are ``immutable`` for a year: a
second view in the same browser loads no module at all (before, each of a page's ~35 files
was asked again and answered 304). A deploy that changes any file changes the version, and
the pages themselves are ``no-cache``, so the next view loads the new files.

Files are read once into memory, with their version: what is served under a version is
exactly what it was computed from, even while the files are being replaced on disk. The
folder is looked at again (sizes and modification times) at most once a second, and read
again when it changed: an edited file shows on the next page view without a restart.

Each page (``game.html``…) holds only its own parts: the server composes it with the head and
site header every page shares (``static/layout.html``, ``compose``) when it reads the folder.

An address under another version (a page loaded before a deploy) is answered with the
current file and ``no-cache``, and so is a plain ``/static/…`` address (bookmarks, other
sites): both still work, and neither is kept past a deploy (docs/decisions/static-files.md).
"""

from __future__ import annotations

import hashlib
import mimetypes
import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from fastapi import Request
from fastapi.responses import Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import Receive, Scope, Send

from app.core.words import request_language

ROOT = Path(__file__).resolve().parents[2] / "static"
PREFIX = "/static/"
VERSION = re.compile(r"_([0-9a-f]{12})")  # a path's first segment that names a version
IMMUTABLE = "public, max-age=31536000, immutable"
NO_CACHE = "no-cache"
RECHECK_SECONDS = 1.0
# Quoted as in an HTML attribute: what a page loads (src, href), not text that mentions it.
PAGE_REFERENCE = re.compile(rb"""(?<=["'])/static/""")
# The head and site header every page shares; a page's file holds its parts, each after a
# line "<!-- part: NAME -->", and the layout marks where each goes (static/layout.html).
LAYOUT = "layout.html"
PART = re.compile(rb"^<!-- part: ([a-z]+) -->\n", re.MULTILINE)
LINE_SLOT = re.compile(rb"^[ \t]*<!-- part: ([a-z]+) -->\n", re.MULTILINE)
SLOT = re.compile(rb"<!-- part: ([a-z]+) -->")
# Markup two pages share (the board's live region and promotion dialog): a line
# "<!-- include: NAME -->" in a page is the file include/NAME.
INCLUDE = re.compile(rb"^[ \t]*<!-- include: ([a-z0-9-]+\.html) -->\n", re.MULTILINE)
# The layout's root element: each page is served with the visitor's language in it.
SERVED_LANG = b'<html lang="en">'


@dataclass(frozen=True)
class Asset:
    body: bytes
    media_type: str
    etag: str


@dataclass(frozen=True)
class Snapshot:
    """Every file of the folder at one moment: what is served, and its version."""

    files: dict[str, Asset]  # by path under the folder ("js/pages/game.js")
    pages: dict[str, bytes]  # each page (*.html at the top), composed, naming the version
    version: str

    @classmethod
    def read(cls, root: Path, paths: list[str]) -> Snapshot:
        digest = hashlib.sha256()
        files = {}
        for path in paths:
            body = (root / path).read_bytes()
            digest.update(path.encode() + b"\0" + len(body).to_bytes(8, "big") + body)
            etag = f'"{hashlib.sha256(body).hexdigest()[:20]}"'
            files[path] = Asset(body, media_type(path), etag)
        version = digest.hexdigest()[:12]
        named = f"/static/_{version}/".encode()
        layout = files[LAYOUT].body if LAYOUT in files else b""
        included = {
            path.removeprefix("include/"): asset.body
            for path, asset in files.items()
            if path.startswith("include/")
        }
        pages = {
            path: PAGE_REFERENCE.sub(named, compose(layout, asset.body, included))
            for path, asset in files.items()
            if path.endswith(".html") and "/" not in path and path != LAYOUT
        }
        return cls(files, pages, version)


def compose(layout: bytes, page: bytes, included: dict[str, bytes] | None = None) -> bytes:
    """The page a file of parts makes: the layout from its doctype on (its note before is not
    served), each marker line replaced by the part's lines as they are and the marker within
    a line (the title) by the part's text; a part the page lacks is nothing. A file without
    parts (docs.html) is a whole page, served as it is. Each include line is first replaced
    by the file it names under include/ (``included``, by name)."""
    page = INCLUDE.sub(lambda found: (included or {})[found.group(1).decode()], page)
    pieces = PART.split(page)
    if len(pieces) == 1:
        return page
    parts = dict(zip(pieces[1::2], pieces[2::2], strict=True))
    served = layout[max(layout.find(b"<!doctype html>"), 0) :]
    served = LINE_SLOT.sub(lambda found: parts.get(found.group(1), b""), served)
    return SLOT.sub(lambda found: parts.get(found.group(1), b"").strip(), served)


def media_type(path: str) -> str:
    found, _ = mimetypes.guess_type(path)
    kind = found or "application/octet-stream"
    # As Starlette does: a text file is UTF-8 (ours all are).
    return f"{kind}; charset=utf-8" if kind.startswith("text/") else kind


class StaticTree:
    """static/, read into memory and kept current (see the module's docstring)."""

    def __init__(self, root: Path, monotonic: Callable[[], float] = time.monotonic) -> None:
        self.root = root
        self.monotonic = monotonic
        self._signature: list[tuple[str, int, int]] | None = None
        self._snapshot: Snapshot | None = None
        self._checked = 0.0

    def current(self) -> Snapshot:
        """The files as they are now (looked at again at most once a second)."""
        now = self.monotonic()
        if self._snapshot is not None and now - self._checked < RECHECK_SECONDS:
            return self._snapshot
        self._checked = now
        signature = self._scan()
        if self._snapshot is None or signature != self._signature:
            self._snapshot = Snapshot.read(self.root, [path for path, _, _ in signature])
            self._signature = signature
        return self._snapshot

    def _scan(self) -> list[tuple[str, int, int]]:
        """Every file's (path, size, modification time), in path order; dot files (an
        editor's) left out."""
        found = []
        for folder, dirs, names in os.walk(self.root):
            dirs[:] = [d for d in dirs if not d.startswith(".")]
            for name in names:
                if name.startswith("."):
                    continue
                full = Path(folder) / name
                stat = full.stat()
                path = full.relative_to(self.root).as_posix()
                found.append((path, stat.st_size, stat.st_mtime_ns))
        return sorted(found)

    def page(self, name: str, request: Request | None = None, status_code: int = 200) -> Response:
        """A page (``game.html``…), its files named under the current version. Given the
        ``request``, the page says the language it will be read in (``<html lang>``: the
        visitor's choice, else their browser's, as the page's script picks it) before its
        script runs: what a screen reader, a search engine and a font fallback see first."""
        body = self.current().pages[name]
        headers = {"Cache-Control": NO_CACHE}
        if request is not None:
            lang = request_language(request.cookies, request.headers.get("accept-language"))
            body = body.replace(SERVED_LANG, f'<html lang="{lang}">'.encode(), 1)
            headers["Vary"] = "Cookie, Accept-Language"
        return Response(body, status_code=status_code, media_type="text/html", headers=headers)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The ``/static`` mount (ASGI): a file, 304 when the browser has it, 404, or 405."""
        assert scope["type"] == "http"
        snapshot = self.current()
        path = scope["path"].removeprefix(PREFIX)
        cache = NO_CACHE
        first, _, rest = path.partition("/")
        if (named := VERSION.fullmatch(first)) is not None:
            path = rest
            if named.group(1) == snapshot.version:
                cache = IMMUTABLE
        asset = snapshot.files.get(path)
        response = self._answer(scope, asset, cache)
        await response(scope, receive, send)

    @staticmethod
    def _answer(scope: Scope, asset: Asset | None, cache: str) -> Response:
        if scope["method"] not in ("GET", "HEAD"):
            raise StarletteHTTPException(405, headers={"Allow": "GET, HEAD"})
        if asset is None:
            raise StarletteHTTPException(404, f"no file {scope['path']!r}")
        headers = {"Cache-Control": cache, "ETag": asset.etag}
        sent = dict(scope["headers"]).get(b"if-none-match", b"").decode("latin-1")
        if asset.etag in (tag.strip().removeprefix("W/") for tag in sent.split(",")):
            return Response(status_code=304, headers=headers)
        if scope["method"] == "HEAD":
            response = Response(media_type=asset.media_type, headers=headers)
            response.headers["Content-Length"] = str(len(asset.body))
            return response
        return Response(asset.body, media_type=asset.media_type, headers=headers)


STATIC = StaticTree(ROOT)
