"""What the docs and /openapi.json promise is what the server answers: an anonymous rated
board seek's refusal (a pool's game and clock or not), the games named in bodies and the
bounds of the lists and maps they carry, every method of a path in a 405's ``Allow``, a bad
token's 401 on the routes that read one, and the identity cookie optional where a visitor
without one is a new visitor."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

import engine
from tests.app.accounts_and_streams import assert_error
from tests.app.conftest import Player

POOL_SEEK = {"variant": "jungle", "time": 3, "increment": 2}  # a quick-pairing pool's
LOBBY_SEEK = {"variant": "dobutsu", "time": 5, "increment": 3, "color": "black"}
METHODS = ("get", "post", "put", "patch", "delete")


@pytest.fixture
def schema(client: TestClient) -> dict[str, Any]:
    data: dict[str, Any] = client.get("/openapi.json").json()
    return data


def request_bodies(schema: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Every request body's schema (each content type's), by where it is."""
    found = []
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            for kind, content in operation.get("requestBody", {}).get("content", {}).items():
                found.append((f"{method} {path} {kind}", content["schema"]))
    return found


def resolved(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    ref = node.get("$ref")
    if ref is None:
        return node
    target: dict[str, Any] = schema["components"]["schemas"][ref.rsplit("/", 1)[1]]
    return target


def walk(schema: dict[str, Any], node: Any, where: str, seen: set[str]) -> list[tuple[str, Any]]:
    """Every (where, sub-schema) of ``node``, references followed once."""
    if isinstance(node, list):
        return [x for n, item in enumerate(node) for x in walk(schema, item, f"{where}[{n}]", seen)]
    if not isinstance(node, dict):
        return []
    ref = node.get("$ref")
    if isinstance(ref, str):
        if ref in seen:
            return []
        return walk(schema, resolved(schema, node), ref, seen | {ref})
    out = [(where, node)]
    for key, value in node.items():
        out += walk(schema, value, f"{where}/{key}", seen)
    return out


@pytest.mark.parametrize("body", [POOL_SEEK, LOBBY_SEEK], ids=["pool", "lobby"])
def test_an_anonymous_rated_board_seek_is_refused_as_the_docs_say(client: TestClient, body):
    guest = Player(client, "guest")
    refused = guest.post("/api/board/seek", {**body, "rated": True})
    assert_error(refused, 403, "challenge.rated_needs_account")


def test_bodies_name_a_game_among_the_games_and_bound_their_lists(schema: dict[str, Any]):
    variants = arrays = maps = 0
    for where, body in request_bodies(schema):
        for spot, node in walk(schema, body, where, set()):
            properties = node.get("properties", {})
            if "variant" in properties:
                variants += 1
                assert properties["variant"]["enum"] == list(engine.game_ids()), spot
            if node.get("type") == "array":
                arrays += 1
                assert isinstance(node.get("maxItems"), int), spot
            if node.get("type") == "object" and node.get("additionalProperties", False):
                maps += 1
                assert isinstance(node.get("maxProperties"), int), spot
    assert variants >= 6 and arrays >= 2 and maps >= 6  # the walk found them


def test_a_variant_outside_the_enum_is_still_refused_with_its_code(client: TestClient):
    refused = Player(client, "alice").post("/api/games", {"variant": "chess"})
    assert refused.status_code == 400
    too_many_rules = {f"r{n}": "x" for n in range(17)}
    refused = Player(client, "bob").post("/api/games", {"variant": "yote", "rules": too_many_rules})
    assert_error(refused, 400, "request.invalid")


def test_a_405_allows_every_method_of_its_path(client: TestClient, schema: dict[str, Any]):
    chat = client.put("/api/bot/game/abcdefgh/chat")
    assert_error(chat, 405, "method.not_allowed")
    assert chat.headers["allow"] == "GET, POST"
    checked = 0
    for path, item in schema["paths"].items():
        documented = {m.upper() for m in item if m in METHODS}
        other = next(m for m in METHODS if m.upper() not in documented)
        concrete = path.replace("{", "").replace("}", "")  # each parameter its own name
        answer = client.request(other, concrete)
        if answer.status_code != 405:
            continue  # another route's path (a parameter's value that names one)
        checked += 1
        assert documented <= set(answer.headers["allow"].split(", ")), path
    assert checked > 50


def test_a_bad_token_is_a_documented_401(client: TestClient, schema: dict[str, Any]):
    bad = client.get("/api/me", headers={"Authorization": "Bearer kdm_nothing"})
    assert_error(bad, 401, "token.invalid")
    with_token = 0
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            if {"HTTPBearer": []} in operation.get("security", []):
                with_token += 1
                answer = operation["responses"]["401"]
                assert "token.invalid" in answer["description"], (method, path)
                schema_ref = answer["content"]["application/json"]["schema"]
                assert schema_ref == {"$ref": "#/components/schemas/ErrorOut"}
    assert with_token > 40


def test_the_identity_cookie_is_optional_where_a_new_visitor_is_served(
    client: TestClient, schema: dict[str, Any]
):
    paths = schema["paths"]
    assert paths["/api/me"]["get"]["security"] == [{"HTTPBearer": []}, {"PlayerCookie": []}, {}]
    assert paths["/api/games"]["post"]["security"] == [{"PlayerCookie": []}, {}]
    account = [{"HTTPBearer": []}, {"PlayerCookie": ["account"]}]
    assert paths["/api/account"]["get"]["security"] == account
    assert paths["/api/account/tokens"]["get"]["security"] == account
    client.cookies.clear()
    assert client.get("/api/me").status_code == 200  # a new visitor
    client.cookies.clear()
    assert_error(client.get("/api/account"), 401, "account.required")
