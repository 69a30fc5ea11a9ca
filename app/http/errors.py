"""The error shapes every route answers with: a ServiceError's code (and Retry-After), 409
``request.conflict``, 400 ``request.invalid``, 404 ``not_found`` and 405 with its Allow.

A browser asking for a page that does not exist (``Accept: text/html``, outside ``/api/``)
gets the site's 404 page instead, with a link home; the API's paths keep their JSON."""

from __future__ import annotations

import logging
from collections.abc import Mapping

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from sqlalchemy.exc import IntegrityError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match, Mount

from app.core.errors import ServiceError
from app.web.assets import STATIC

log = logging.getLogger(__name__)

METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


def install(app: FastAPI) -> None:
    app.add_exception_handler(ServiceError, service_error)  # type: ignore[arg-type]
    app.add_exception_handler(IntegrityError, conflict)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, invalid_request)  # type: ignore[arg-type]
    app.add_exception_handler(StarletteHTTPException, http_error)  # type: ignore[arg-type]


async def service_error(_request: Request, exc: ServiceError) -> JSONResponse:
    # Every 429 says when to come back, in the body and in the standard header.
    wait = exc.retry_after()
    headers = None if wait is None else {"Retry-After": str(wait)}
    return JSONResponse(exc.to_dict(), status_code=exc.status, headers=headers)


async def conflict(request: Request, exc: IntegrityError) -> JSONResponse:
    # A database constraint refused a write (a duplicate key, a CHECK): the code checks
    # first, so this is a request that raced another one. It changed nothing.
    log.warning("%s %s refused by the database: %s", request.method, request.url.path, exc.orig)
    return JSONResponse(
        {
            "error": "this request conflicts with another made at the same time; try again",
            "code": "request.conflict",
        },
        status_code=409,
    )


async def invalid_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
    problems = "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors())
    return JSONResponse(
        {"error": f"invalid request: {problems}", "code": "request.invalid"}, status_code=400
    )


def wants_page(request: Request) -> bool:
    """A browser navigating to an address: it asks for HTML first, and the path is not the
    API's (a script's fetch of /api/... reads the JSON code whatever it accepts)."""
    if request.url.path == "/api" or request.url.path.startswith("/api/"):
        return False
    return "text/html" in request.headers.get("accept", "")


async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
    if exc.status_code == 404 and wants_page(request):
        return STATIC.page("404.html", request, status_code=404)
    codes = {404: "not_found", 405: "method.not_allowed"}
    headers = exc.headers  # a 405's Allow: the methods the path has
    if exc.status_code == 405:
        headers = {**(headers or {}), "Allow": allowed_methods(request, headers or {})}
    return JSONResponse(
        {"error": str(exc.detail), "code": codes.get(exc.status_code, "http.error")},
        status_code=exc.status_code,
        headers=headers,
    )


def allowed_methods(request: Request, headers: Mapping[str, str]) -> str:
    """Every method some route answers at the request's path, with those of ``headers``'s
    Allow. (Starlette's 405 names only the methods of the first route found there: of a
    path with a POST route, then a GET route, it said POST alone.) Each method is asked of
    every route as a request would be; a mount (the static files) says its own."""
    said = {m.strip() for m in headers.get("Allow", "").split(",") if m.strip()}
    routes = [r for r in request.app.router.routes if not isinstance(r, Mount)]
    allowed = [
        method
        for method in METHODS
        if method in said
        or any(r.matches({**request.scope, "method": method})[0] == Match.FULL for r in routes)
    ]
    return ", ".join(allowed + sorted(said - set(allowed)))
