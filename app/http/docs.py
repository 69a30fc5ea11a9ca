"""``/docs``: Swagger UI served by this server, never from a CDN.

The assets are the copy of swagger-ui-dist that the ``fastapi-swagger`` package ships (it
follows swagger-ui's releases); the page and its start-up script are ours
(``static/docs.html``, ``static/js/pages/docs.js``) because FastAPI's page starts Swagger UI with
an inline script, which the Content-Security-Policy forbids. ``/redoc`` is off: ReDoc
injects inline styles and is not packaged for Python.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.web.assets import STATIC

SWAGGER_UI = Path(str(resources.files("fastapi_swagger") / "resources"))
ASSETS = {"swagger-ui-bundle.js": "text/javascript", "swagger-ui.css": "text/css"}

router = APIRouter(include_in_schema=False)


@router.get("/docs")
async def docs_page() -> Response:
    return STATIC.page("docs.html")


@router.get("/docs/swagger-ui/{name}")
async def swagger_ui_asset(name: str) -> FileResponse:
    if name not in ASSETS:
        raise StarletteHTTPException(404, f"no Swagger UI file {name!r}")
    return FileResponse(SWAGGER_UI / name, media_type=ASSETS[name])
