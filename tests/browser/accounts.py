"""Accounts for the browser tests, each registered and logged in over HTTP from its own
loopback address, as people sign up from their own machines.

The server limits registrations per address (5 at once, then one a minute) and password
checks per address; the browser tests of a worker share one server, so accounts made from
127.0.0.1 alone would meet those limits after a few modules (and did). The browser then
carries the session cookie the log-in set: every request after it is the page's own."""

from __future__ import annotations

import secrets
from typing import Any

import httpx

from tests.server import ACCOUNT_PASSWORD


def own_address() -> str:
    """A loopback address of 127.0.0.0/8 other than 127.0.0.1 (Linux answers on all)."""
    return f"127.{secrets.randbelow(254) + 1}.{secrets.randbelow(256)}.{secrets.randbelow(254) + 1}"


def sign_in(context: Any, base: str, prefix: str) -> str:
    """Register a new account and log it in from its own address; the browser context
    holds its session from then on. The username."""
    username = f"{prefix}_{secrets.token_hex(3)}"
    body = {"username": username, "password": ACCOUNT_PASSWORD}
    transport = httpx.HTTPTransport(local_address=own_address())
    with httpx.Client(base_url=base, transport=transport, timeout=30) as web:
        web.post("/api/account/register", json=body).raise_for_status()
        web.post("/api/account/login", json=body).raise_for_status()
        cookies = [{"name": c.name, "value": c.value, "url": base} for c in web.cookies.jar]
    assert cookies, "the log-in set no cookie"
    context.add_cookies(cookies)
    return username
