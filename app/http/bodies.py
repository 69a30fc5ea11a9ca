"""Request bodies the routes read themselves: JSON, or a urlencoded form as lichess clients
(and curl ``-d``) post. One reader for every such route, so they refuse bad bodies alike.

The bot API reads bodies as lichess does (``lichess=True``): dotted keys nest in JSON too
(berserk posts ``{"clock.limit": 300}``), and ``null`` or an empty string is a field not
given (berserk sends every parameter, ``None`` for the unset ones; its seek form sends
``ratingRange=``)."""

from __future__ import annotations

import json
import typing
from typing import Any, TypeVar
from urllib.parse import parse_qsl

from fastapi import Request
from pydantic import BaseModel, ValidationError

from app.core.errors import ServiceError

M = TypeVar("M", bound=BaseModel)


def form_or_json(model: type[BaseModel], required: bool = True) -> dict[str, Any]:
    """The OpenAPI request body of a route that reads JSON or a form itself."""
    schema = model.model_json_schema()
    content = {"application/json": {"schema": schema}}
    content["application/x-www-form-urlencoded"] = {"schema": schema}
    return {"requestBody": {"required": required, "content": content}}


def _list_fields(model: type[BaseModel]) -> set[str]:
    """The fields that may hold a list: a form repeats their key (``scopes=a&scopes=b``)."""
    return {
        name
        for name, field in model.model_fields.items()
        if list
        in (
            typing.get_origin(_bare(a))
            for a in (field.annotation, *typing.get_args(field.annotation))
        )
    }


def _bare(annotation: Any) -> Any:
    """The type an ``Annotated`` one constrains (a bounded list is still a list)."""
    while typing.get_origin(annotation) is typing.Annotated:
        annotation = typing.get_args(annotation)[0]
    return annotation


def not_given(value: Any) -> bool:
    """lichess's reading: ``null`` and ``""`` are a field left out."""
    return value is None or value == ""


def form_fields(
    pairs: list[tuple[str, Any]], lists: set[str], *, lichess: bool = False
) -> dict[str, Any]:
    """Form fields as an object: dotted names (``clock.limit``, ``rules.traps``) nest, a list
    field's repeated key collects its values, any other key given twice is refused.
    ``lichess``: a field whose value is not given (``not_given``) is left out."""
    data: dict[str, Any] = {}
    for key, value in pairs:
        if lichess and not_given(value):
            continue
        head, dot, tail = key.partition(".")
        if key in lists:
            data.setdefault(key, []).append(value)
        elif dot and tail:
            inner = data.setdefault(head, {})
            if not isinstance(inner, dict) or tail in inner:
                raise ServiceError("request.invalid", f"{key!r} is given twice")
            inner[tail] = value
        elif key in data:
            raise ServiceError("request.invalid", f"{key!r} is given twice")
        else:
            data[key] = value
    return data


def lichess_object(data: Any) -> Any:
    """A JSON body read as lichess reads one: dotted keys nest (``{"clock.limit": 300}`` is
    ``{"clock": {"limit": 300}}``, and may sit beside ``"clock": {"increment": 2}``), and
    fields that are ``null`` or ``""`` (at the top or one level down) are left out."""
    if not isinstance(data, dict):
        return data  # not an object: the model refuses it
    pairs: list[tuple[str, Any]] = []
    for key, value in data.items():
        if isinstance(value, dict) and "." not in key:
            pairs.extend((f"{key}.{inner}", v) for inner, v in value.items())
            if not value:
                pairs.append((key, value))  # {} given as such: still an (empty) object
        else:
            pairs.append((key, value))
    return form_fields(pairs, set(), lichess=True)


async def read_body(
    request: Request, model: type[M], *, empty_ok: bool = False, lichess: bool = False
) -> M:
    """The body as ``model``: JSON, or a urlencoded form; ``empty_ok``: no body at all is an
    empty object; ``lichess``: read as lichess reads bodies (``lichess_object``).
    400 ``request.invalid`` otherwise."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    raw = await request.body()  # no larger than KODAMA_MAX_BODY_BYTES: app/http/bodylimit.py
    data: Any
    try:
        if not raw.strip() and empty_ok:
            data = {}
        elif kind == "application/x-www-form-urlencoded":
            pairs = parse_qsl(raw.decode(), keep_blank_values=True)
            data = form_fields(pairs, _list_fields(model), lichess=lichess)
        elif kind in ("application/json", ""):
            data = json.loads(raw or b"null")
            if lichess:
                data = lichess_object(data)
        else:
            raise ServiceError("request.invalid", f"send JSON or a form, not {kind!r}")
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ServiceError("request.invalid", "the body is not valid JSON or UTF-8") from None
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'body'}: {e['msg']}" for e in exc.errors()
        )
        raise ServiceError("request.invalid", f"invalid request: {problems}") from None
