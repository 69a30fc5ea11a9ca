"""/openapi.json tells the truth: invalid requests are 400 ``request.invalid`` (ErrorOut),
422 only where the server answers it (an illegal move), and both ways of authenticating
(the browser's cookie, a Bearer token) are declared."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from tests.app.conftest import make_settings
from tests.templates import SqliteTemplate

ERROR_OUT = "#/components/schemas/ErrorOut"
MOVE_ROUTE = re.compile(r"^/api/(bot|board)/game/\{game_id\}/move/\{move\}$")


@pytest.fixture(scope="module")
def web(
    tmp_path_factory: pytest.TempPathFactory, sqlite_template: SqliteTemplate
) -> Iterator[TestClient]:
    data = tmp_path_factory.mktemp("openapi")
    url = sqlite_template.copy_to(data)
    with TestClient(create_app(make_settings(url, data))) as client:
        yield client


@pytest.fixture(scope="module")
def schema(web: TestClient) -> dict[str, Any]:
    response = web.get("/openapi.json")
    assert response.status_code == 200
    data: dict[str, Any] = response.json()
    return data


def operations(schema: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (method, path, operation)
        for path, item in schema["paths"].items()
        for method, operation in item.items()
    ]


def test_no_route_documents_fastapis_422_validation_error(schema: dict[str, Any]):
    assert "HTTPValidationError" not in str(schema)
    assert "ValidationError" not in schema["components"]["schemas"]


def test_422_is_documented_only_on_the_move_routes_where_an_illegal_move_gets_it(
    schema: dict[str, Any],
):
    with_422 = {path for _, path, op in operations(schema) if "422" in op["responses"]}
    # The analysis board's replay plays moves too: an illegal one is 422 there as well.
    assert with_422 == {
        "/api/bot/game/{game_id}/move/{move}",
        "/api/board/game/{game_id}/move/{move}",
        "/api/analysis/moves",
    }
    for path in with_422:
        assert MOVE_ROUTE.match(path) or path == "/api/analysis/moves"
        answer = schema["paths"][path]["post"]["responses"]["422"]
        assert answer["content"]["application/json"]["schema"] == {"$ref": ERROR_OUT}


def test_every_route_with_a_body_or_checked_parameters_documents_400(schema: dict[str, Any]):
    checked = [
        (method, path, op)
        for method, path, op in operations(schema)
        if "requestBody" in op
        or any(
            p["in"] == "query" and (p.get("required") or "anyOf" not in p["schema"])
            for p in op.get("parameters", [])
        )
    ]
    assert len(checked) >= 10  # the walk found the routes
    for method, path, op in checked:
        answer = op["responses"].get("400")
        assert answer is not None, f"{method} {path}"
        assert answer["content"]["application/json"]["schema"] == {"$ref": ERROR_OUT}


def test_what_the_schema_says_is_what_the_server_answers(web: TestClient, schema: dict[str, Any]):
    assert "400" in schema["paths"]["/api/bot/online"]["get"]["responses"]
    response = web.get("/api/bot/online", params={"nb": 0})
    assert response.status_code == 400
    assert response.json()["code"] == "request.invalid"


def test_the_cookie_and_the_token_are_declared_security_schemes(schema: dict[str, Any]):
    schemes = schema["components"]["securitySchemes"]
    assert schemes["PlayerCookie"] == {
        "type": "apiKey",
        "in": "cookie",
        "name": "kodama_player",
        "description": "the browser's identity, signed by the server; set on the first visit",
    }
    assert schemes["HTTPBearer"]["scheme"] == "bearer"
    # Either, or neither: a request without the cookie is a new visitor's.
    either: list[dict[str, list[str]]] = [{"HTTPBearer": []}, {"PlayerCookie": []}, {}]
    paths = schema["paths"]
    for method, path in [
        ("get", "/api/me"),
        ("post", "/api/bot/game/{game_id}/move/{move}"),
        ("post", "/api/challenge/open"),
    ]:
        assert paths[path][method]["security"] == either, path
    # Only an account's cookie will do (its role "account"), or a token.
    account = [{"HTTPBearer": []}, {"PlayerCookie": ["account"]}]
    assert paths["/api/account"]["get"]["security"] == account
    for path in ("/api/games", "/api/invite/{token}", "/api/games/{game_id}/cancel"):
        assert paths[path]["post"]["security"] == [{"PlayerCookie": []}, {}], path
    for path in ("/api/variants", "/api/lobby"):
        assert "security" not in paths[path]["get"], path


def test_every_state_changing_route_documents_the_refusals_made_before_it_runs(
    web: TestClient, schema: dict[str, Any]
):
    # The Origin check and the body limit answer for every POST/PUT/PATCH/DELETE, whatever
    # the route: the schema says so on each of them.
    unsafe = [
        (method, path, operation)
        for method, path, operation in operations(schema)
        if method in ("post", "put", "patch", "delete")
    ]
    assert len(unsafe) > 30
    for method, path, operation in unsafe:
        responses = operation["responses"]
        assert "origin.forbidden" in responses["403"]["description"], (method, path)
        assert responses["403"]["content"]["application/json"]["schema"] == {"$ref": ERROR_OUT}
        assert "request.too_large" in responses["413"]["description"], (method, path)
    for path in ("/api/users", "/api/token/test", "/api/games"):
        answer = web.post(path, headers={"Origin": "http://elsewhere.example"}, content=b"x")
        assert answer.status_code == 403 and answer.json()["code"] == "origin.forbidden"
        answer = web.post(path, content=b"x" * 20_000)
        assert answer.status_code == 413 and answer.json()["code"] == "request.too_large"


def test_the_schema_is_built_once(web: TestClient):
    assert web.app.openapi() is web.app.openapi()  # type: ignore[attr-defined]
