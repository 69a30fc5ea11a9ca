"""/openapi.json as the server answers: a request that fails validation is a 400
``request.invalid`` (``ErrorOut``, app/http/errors.py), never FastAPI's 422 ``HTTPValidationError``;
422 stays where a route declares it (an illegal move). The refusals the middleware makes
before any route runs are documented on every route they can reach: a state-changing
request from a page of another origin (403 ``origin.forbidden``, app/http/origin.py) and a
body over the limit (413 ``request.too_large``, app/http/bodylimit.py); and on every route
that reads a Bearer token, a bad one (401 ``token.invalid``, app/http/auth.py). The identity
cookie is optional where any visitor may call (a request without it is a new visitor's);
the account-only routes ask for it with the role ``account``."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI

from app.http.schemas import ErrorOut

VALIDATION_SCHEMAS = ("HTTPValidationError", "ValidationError")
ERROR_OUT = {"$ref": "#/components/schemas/ErrorOut"}
INVALID = {
    "description": "an invalid request: `request.invalid`, or a more precise code",
    "content": {"application/json": {"schema": ERROR_OUT}},
}
UNSAFE_METHODS = ("post", "put", "patch", "delete")  # those the Origin check looks at
FOREIGN_ORIGIN = "`origin.forbidden`: sent by a page of another origin"
TOO_LARGE = {
    "description": "`request.too_large`: a body over the limit (16384 bytes)",
    "content": {"application/json": {"schema": ERROR_OUT}},
}
BAD_TOKEN = "`token.invalid`: the Bearer token is unknown, revoked or malformed"
# A request without the identity cookie is a new visitor's (app/http/visitor.py gives it
# one): to a route any visitor may call, the cookie is optional. (An OpenAPI security
# requirement with no scheme: none needed.)
ANYONE: dict[str, list[str]] = {}


def install(app: FastAPI) -> None:
    """Make ``app.openapi`` answer the corrected schema (built once, like FastAPI's)."""
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = corrected(generate())
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def corrected(schema: dict[str, Any]) -> dict[str, Any]:
    for item in schema.get("paths", {}).values():
        for method, operation in item.items():
            responses = operation.setdefault("responses", {})
            if _is_validation_error(responses.get("422")):
                del responses["422"]
            if _validates(operation):
                responses.setdefault("400", INVALID)
            if method in UNSAFE_METHODS:
                _add_foreign_origin(responses)
                responses.setdefault("413", TOO_LARGE)
            security = operation.get("security", [])
            if {"HTTPBearer": []} in security:
                _add_refusal(responses, "401", BAD_TOKEN)
            if {"PlayerCookie": []} in security and ANYONE not in security:
                security.append(ANYONE)
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    for name in VALIDATION_SCHEMAS:
        components.pop(name, None)
    components.setdefault(
        "ErrorOut", ErrorOut.model_json_schema(ref_template="#/components/schemas/{model}")
    )
    return schema


def _add_foreign_origin(responses: dict[str, Any]) -> None:
    """403 ``origin.forbidden``, besides the route's own 403s if it has any."""
    _add_refusal(responses, "403", FOREIGN_ORIGIN)


def _add_refusal(responses: dict[str, Any], status: str, why: str) -> None:
    """An error answer (``ErrorOut``) saying ``why``, besides the route's own answers of that
    status if it has any."""
    refused = responses.setdefault(
        status,
        {"description": "", "content": {"application/json": {"schema": ERROR_OUT}}},
    )
    described = refused.get("description", "")
    code = why.split("`")[1]
    if not described or described == "an error":
        refused["description"] = why
    elif code not in described:
        refused["description"] = f"{described}; or {why}"


def _validates(operation: dict[str, Any]) -> bool:
    """Whether the request can fail validation: it has a body, or a parameter that is more
    than an optional (or path) text."""
    if "requestBody" in operation:
        return True
    return not all(_any_text(p) for p in operation.get("parameters", []))


def _any_text(parameter: dict[str, Any]) -> bool:
    """Any value passes: a text without constraints, always present (in the path) or
    optional."""
    if parameter["in"] != "path" and parameter.get("required"):
        return False
    schema = _bare(parameter.get("schema", {}))
    kinds = [_bare(kind) for kind in schema["anyOf"]] if set(schema) == {"anyOf"} else [schema]
    return all(kind in ({"type": "string"}, {"type": "null"}) for kind in kinds)


def _bare(schema: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in schema.items() if key not in ("title", "description")}


def _is_validation_error(response: dict[str, Any] | None) -> bool:
    if response is None:
        return False
    content = response.get("content", {}).get("application/json", {})
    return bool(content.get("schema") == {"$ref": "#/components/schemas/HTTPValidationError"})
