"""/openapi.json as the server answers: a request that fails validation is a 400
``request.invalid`` (``ErrorOut``, app/http/errors.py), never FastAPI's 422 ``HTTPValidationError``;
422 stays where a route declares it (an illegal move). The refusals the middleware makes
before any route runs are documented on every route they can reach: a state-changing
request from a page of another origin (403 ``origin.forbidden``, app/http/origin.py) and a
body over the limit (413 ``request.too_large``, app/http/bodylimit.py)."""

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
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    for name in VALIDATION_SCHEMAS:
        components.pop(name, None)
    components.setdefault(
        "ErrorOut", ErrorOut.model_json_schema(ref_template="#/components/schemas/{model}")
    )
    return schema


def _add_foreign_origin(responses: dict[str, Any]) -> None:
    """403 ``origin.forbidden``, besides the route's own 403s if it has any."""
    forbidden = responses.setdefault(
        "403",
        {"description": "", "content": {"application/json": {"schema": ERROR_OUT}}},
    )
    described = forbidden.get("description", "")
    if not described:
        forbidden["description"] = FOREIGN_ORIGIN
    elif "origin.forbidden" not in described:
        forbidden["description"] = f"{described}; or {FOREIGN_ORIGIN}"


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
