"""Cross-origin requests, security headers and /docs, against a real
server process: a page of another origin (another port of the host, ``Origin: null``, a
sibling subdomain) cannot act with the visitor's cookie, over HTTP or the sockets; the
site's own pages, programs with a token, listed origins and the public origin behind a
trusted proxy still can. The check is a middleware before any database work: one SQLite
server serves the module."""

from __future__ import annotations

import re
import secrets
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

import engine
from app.core.config import Settings
from app.http.headers import content_security_policy
from app.http.identity import COOKIE
from app.http.origin import own_origin, parse_allowed, parse_origin
from app.main import create_app
from tests.app.conftest import SECRET
from tests.server import Server, running

PASSWORD = "a long enough password"
MOVE = engine.get_game("dobutsu").legal_moves(engine.get_game("dobutsu").start())[0]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running(
        tmp_path_factory.mktemp("origin"), "origin-Lx8eeguFd6BKHBIRnHLWnKorue7oPd83"
    ) as srv:
        yield srv


def browser(server: Server) -> httpx.Client:
    """A visitor's browser on the site: its cookie, its own origin on every post."""
    client = httpx.Client(base_url=server.base, timeout=10, headers={"origin": server.base})
    client.get("/api/me").raise_for_status()
    return client


def account(server: Server) -> httpx.Client:
    """A browser logged in to a fresh account (which has played no game)."""
    client = browser(server)
    username = f"o_{secrets.token_hex(4)}"
    credentials = {"username": username, "password": PASSWORD}
    # Registrations are limited per address: each account comes from its own (the server
    # trusts this machine as a proxy, uvicorn's default).
    address = {"x-forwarded-for": f"10.{secrets.randbelow(250)}.{secrets.randbelow(250)}.1"}
    client.post("/api/account/register", json=credentials, headers=address).raise_for_status()
    client.post("/api/account/login", json=credentials, headers=address).raise_for_status()
    return client


def cookie(client: httpx.Client) -> str:
    return f"{COOKIE}={client.cookies[COOKIE]}"


def started_game(server: Server, victim: httpx.Client) -> str:
    """A dobutsu game the victim plays first, against someone who joined."""
    created = victim.post("/api/games", json={"variant": "dobutsu", "color": "first"})
    assert created.status_code == 201, created.text
    game_id: str = created.json()["id"]
    browser(server).post(f"/api/games/{game_id}/join").raise_for_status()
    return game_id


def game(server: Server, game_id: str) -> dict[str, Any]:
    state: dict[str, Any] = httpx.get(f"{server.base}/api/games/{game_id}").json()["game"]
    return state


def open_socket(server: Server, path: str, origin: str | None, **headers: str) -> Any:
    """The handshake of a socket; ``host`` (if given) is sent instead of 127.0.0.1:port."""
    host = headers.pop("host", f"127.0.0.1:{server.port}")
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    return connect(
        f"ws://{host}{path}",
        sock=sock,
        origin=origin,  # type: ignore[arg-type]
        additional_headers=headers,
        open_timeout=10,
    )


def refused(response: httpx.Response) -> bool:
    return (
        response.status_code == 403
        and response.json()["code"] == "origin.forbidden"
        and "set-cookie" not in response.headers
    )


def foreign(server: Server, kind: str) -> dict[str, str]:
    """The headers of a request made by another origin's page in the visitor's browser."""
    if kind == "other-port":
        return {"origin": f"http://127.0.0.1:{server.port + 1}"}
    if kind == "null":
        return {"origin": "null"}
    # A sibling subdomain: the site at kodama.localhost, the attacker at evil.localhost.
    return {
        "origin": f"http://evil.localhost:{server.port}",
        "host": f"kodama.localhost:{server.port}",
    }


FOREIGN = ["other-port", "null", "sibling-subdomain"]


@pytest.mark.parametrize("kind", FOREIGN)
def test_a_foreign_origin_cannot_act_with_the_visitors_cookie(server: Server, kind: str) -> None:
    victim = account(server)
    attack = {**foreign(server, kind), "cookie": cookie(victim)}
    anyone = httpx.Client(base_url=server.base, timeout=10)

    # Mint an API token (a form post, as a page can send), and upgrade to BOT.
    assert refused(anyone.post("/api/token", data={"description": "x"}, headers=attack))
    assert refused(anyone.post("/api/bot/account/upgrade", headers=attack))
    assert victim.get("/api/account/tokens").json()["tokens"] == []
    assert "title" not in victim.get("/api/account").json()

    # Create a game, take seats (by id, by invite link).
    assert refused(anyone.post("/api/games", json={"variant": "dobutsu"}, headers=attack))
    host = browser(server)
    public = host.post("/api/games", json={"variant": "dobutsu", "color": "first"}).json()
    assert refused(anyone.post(f"/api/games/{public['id']}/join", headers=attack))
    token = public["inviteUrl"].rsplit("/", 1)[1]
    assert refused(anyone.post(f"/api/invite/{token}", headers=attack))
    assert game(server, public["id"])["status"] == "created"

    # Move and resign in the victim's game; challenge someone.
    game_id = started_game(server, victim)
    assert refused(anyone.post(f"/api/board/game/{game_id}/move/{MOVE}", headers=attack))
    assert refused(anyone.post(f"/api/board/game/{game_id}/resign", headers=attack))
    assert refused(anyone.post("/api/challenge/open", data={"variant": "dobutsu"}, headers=attack))
    state = game(server, game_id)
    assert state["status"] == "started" and state["moves"] == []

    # Open the game's socket as the victim (to play), or the lobby's.
    for path in (f"/ws/game/{game_id}", "/ws/lobby"):
        headers = {k: v for k, v in attack.items() if k != "origin"}
        with pytest.raises(InvalidStatus) as rejected:
            open_socket(server, path, attack["origin"], **headers)
        assert rejected.value.response.status_code == 403


def test_the_sites_own_pages_still_act(server: Server) -> None:
    victim = account(server)  # every request carries Origin: the server's own
    game_id = started_game(server, victim)
    moved = victim.post(f"/api/board/game/{game_id}/move/{MOVE}")
    assert moved.status_code == 200, moved.text
    with open_socket(server, f"/ws/game/{game_id}", server.base, cookie=cookie(victim)) as ws:
        assert '"type":"state"' in ws.recv(timeout=10)
    # Browsers write the origin in lower case with no default port; the Host may differ.
    upper = {"origin": server.base.upper().replace("HTTP", "http")}
    assert victim.post("/api/games", json={"variant": "yote"}, headers=upper).status_code == 201
    token = victim.post("/api/token", data={"description": "bot", "scopes": "board:play"})
    assert token.status_code == 201, token.text
    fresh = account(server)
    upgraded = fresh.post("/api/bot/account/upgrade")
    assert upgraded.status_code == 200, upgraded.text
    assert fresh.get("/api/account").json()["title"] == "BOT"


def test_a_request_without_origin_is_not_checked(server: Server) -> None:
    victim = account(server)
    victim.headers.pop("origin")
    game_id = started_game(server, victim)
    assert victim.post(f"/api/board/game/{game_id}/resign").status_code == 200
    with open_socket(server, "/ws/lobby", None):
        pass


def test_programs_with_a_token_are_not_checked_but_a_cookie_is(server: Server) -> None:
    owner = account(server)
    minted = owner.post("/api/token", data={"description": "prog", "scopes": "board:play"})
    bearer = {"authorization": f"Bearer {minted.json()['token']}"}
    game_id = started_game(server, owner)
    program = httpx.Client(base_url=server.base, timeout=10)
    # With the cookie (the browser routes would act for it): checked like a browser.
    with_cookie = {**bearer, "cookie": cookie(owner), "origin": "http://127.0.0.1:1"}
    assert refused(program.post(f"/api/board/game/{game_id}/move/{MOVE}", headers=with_cookie))
    # Token only: a program, whatever Origin it sends (a page cannot add the header).
    for origin in ({}, {"origin": "http://127.0.0.1:1"}, {"origin": "null"}):
        answer = program.post(f"/api/board/game/{game_id}/move/{MOVE}", headers=bearer | origin)
        assert answer.status_code in (200, 409), answer.text  # 409: not its turn any more
        assert "origin" not in answer.json().get("code", "")
    assert game(server, game_id)["moves"] == [MOVE]


@pytest.fixture(scope="module")
def listed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server with KODAMA_ALLOWED_ORIGINS, trusting no proxy on this machine."""
    with running(
        tmp_path_factory.mktemp("listed"),
        "origin-Lx8eeguFd6BKHBIRnHLWnKorue7oPd83",
        KODAMA_ALLOWED_ORIGINS="https://play.example, http://127.0.0.1:7/",
        FORWARDED_ALLOW_IPS="10.9.9.9",
    ) as srv:
        yield srv


def test_an_allowed_origin_may_act(listed: Server) -> None:
    victim = browser(listed)
    for origin in ("https://play.example", "http://127.0.0.1:7"):
        headers = {"origin": origin}
        created = victim.post("/api/games", json={"variant": "wali"}, headers=headers)
        assert created.status_code == 201, created.text
        with open_socket(listed, "/ws/lobby", origin, cookie=cookie(victim)) as ws:
            assert '"type":"lobby"' in ws.recv(timeout=10)
    assert refused(
        victim.post(
            "/api/games", json={"variant": "wali"}, headers={"origin": "https://evil.example"}
        )
    )
    assert refused(
        victim.post(
            "/api/games", json={"variant": "wali"}, headers={"origin": "http://play.example"}
        )
    )


PROXY = {"x-forwarded-proto": "https", "x-forwarded-host": "kodama.example"}


def test_behind_a_trusted_proxy_the_public_origin_is_recognised(server: Server) -> None:
    # The server trusts 127.0.0.1 (uvicorn's default FORWARDED_ALLOW_IPS): the proxy here.
    victim = browser(server)
    public = {**PROXY, "origin": "https://kodama.example"}
    created = victim.post("/api/games", json={"variant": "jungle"}, headers=public)
    assert created.status_code == 201, created.text
    assert created.json()["url"].startswith("https://kodama.example/game/")
    page = victim.get("/", headers=PROXY)
    assert (
        "connect-src 'self' wss://kodama.example;" in page.headers["content-security-policy"] + ";"
    )
    with open_socket(server, "/ws/lobby", "https://kodama.example", **PROXY) as ws:
        assert '"type":"lobby"' in ws.recv(timeout=10)
    # The public host over plain http, or another host, is not the site.
    for origin in ("http://kodama.example", "https://evil.example"):
        assert refused(
            victim.post(
                "/api/games", json={"variant": "jungle"}, headers={**PROXY, "origin": origin}
            )
        )
    # Without the proxy's headers the public origin is foreign.
    assert refused(
        victim.post(
            "/api/games", json={"variant": "jungle"}, headers={"origin": "https://kodama.example"}
        )
    )


def test_forwarded_headers_from_an_untrusted_address_are_ignored(listed: Server) -> None:
    victim = browser(listed)
    public = {**PROXY, "origin": "https://kodama.example"}
    assert refused(victim.post("/api/games", json={"variant": "jungle"}, headers=public))
    with pytest.raises(InvalidStatus):
        open_socket(listed, "/ws/lobby", "https://kodama.example", **PROXY)
    created = victim.post("/api/games", json={"variant": "jungle"}, headers={**PROXY})
    assert created.json()["url"].startswith(f"{listed.base}/game/")  # the Host it was sent


# ---- security headers and /docs ----------------------------------------------------------
PAGES = [
    "/",
    "/game/abc",
    "/invite/abc",
    "/challenge/abc",
    "/rules",
    "/rules/jungle",
    "/account",
    "/docs",
]


@pytest.mark.parametrize("path", [*PAGES, "/static/js/site/api.js", "/api/me", "/api/nothere"])
def test_every_answer_has_the_security_headers(server: Server, path: str) -> None:
    answer = httpx.get(f"{server.base}{path}")
    assert answer.status_code == (404 if path == "/api/nothere" else 200)
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert answer.headers["x-frame-options"] == "DENY"
    assert answer.headers["referrer-policy"] == "same-origin"
    policy = {}
    for directive in answer.headers["content-security-policy"].split(";"):
        name, _, value = directive.strip().partition(" ")
        policy[name] = value
    assert policy["default-src"] == "'self'"
    assert policy["script-src"] == "'self'"  # no 'unsafe-inline', no other host
    assert policy["style-src"] == "'self'"
    assert policy["frame-ancestors"] == "'none'"
    assert policy["object-src"] == "'none'"
    assert policy["connect-src"] == f"'self' ws://127.0.0.1:{server.port}"


def test_the_refusal_has_the_security_headers_too(server: Server) -> None:
    answer = httpx.post(f"{server.base}/api/games", headers={"origin": "null"})
    assert refused(answer) and answer.headers["x-frame-options"] == "DENY"


@pytest.mark.parametrize("path", [p for p in PAGES if p != "/docs"])
def test_the_pages_have_no_inline_script_or_style(server: Server, path: str) -> None:
    html = httpx.get(f"{server.base}{path}").text
    assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", html) == []
    assert "<style" not in html and " style=" not in html
    assert re.findall(r"\son[a-z]+=", html) == []


def test_docs_loads_nothing_from_another_host(server: Server) -> None:
    html = httpx.get(f"{server.base}/docs").text
    urls = re.findall(r"""(?:src|href)=["']([^"']+)""", html)
    assert urls and all(url.startswith("/") and not url.startswith("//") for url in urls)
    assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", html) == []
    for url in urls:
        asset = httpx.get(f"{server.base}{url}")
        assert asset.status_code == 200, url
    bundle = httpx.get(f"{server.base}/docs/swagger-ui/swagger-ui-bundle.js")
    assert bundle.headers["content-type"].startswith("text/javascript")
    assert "SwaggerUIBundle" in bundle.text
    assert httpx.get(f"{server.base}/docs/swagger-ui/__init__.py").status_code == 404
    assert httpx.get(f"{server.base}/redoc").status_code == 404
    assert httpx.get(f"{server.base}/openapi.json").json()["info"]["title"] == "Kodama"


# ---- the parts, without a server ---------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("http://127.0.0.1:8000", ("http", "127.0.0.1", 8000)),
        ("HTTPS://Kodama.Example", ("https", "kodama.example", 443)),
        ("http://kodama.example:80", ("http", "kodama.example", 80)),
        ("http://[::1]:8000", ("http", "[::1]", 8000)),
        ("null", None),
        ("", None),
        ("file://", None),
        ("http://kodama.example/", None),
        ("http://user@kodama.example", None),
        ("http://kodama.example:0", None),
        ("http://kodama.example:99999", None),
        ("ftp://kodama.example", None),
    ],
)
def test_parse_origin(text: str, expected: tuple[str, str, int] | None) -> None:
    assert parse_origin(text) == expected


def scope(scheme: str, host: str | None) -> dict[str, Any]:
    headers = [] if host is None else [(b"host", host.encode())]
    return {"type": "http", "scheme": scheme, "headers": headers}


def test_own_origin_is_the_scheme_and_host_of_the_request() -> None:
    assert own_origin(scope("http", "Kodama.example")) == ("http", "kodama.example", 80)
    assert own_origin(scope("wss", "kodama.example:8443")) == ("https", "kodama.example", 8443)
    assert own_origin(scope("http", None)) is None
    assert own_origin(scope("http", "a b")) is None
    assert content_security_policy(scope("http", "a b")).endswith("connect-src 'self'")
    assert content_security_policy(scope("https", "k.example")).endswith(
        "connect-src 'self' wss://k.example"
    )


def test_a_wrong_allowed_origin_stops_the_start(tmp_path: Path) -> None:
    assert parse_allowed(" https://a.example/ ,, http://b.example:81") == {
        ("https", "a.example", 443),
        ("http", "b.example", 81),
    }
    settings = Settings(data_dir=tmp_path, secret_key=SECRET, allowed_origins="a.example")
    with pytest.raises(ValueError, match=r"KODAMA_ALLOWED_ORIGINS: 'a\.example' is not an origin"):
        create_app(settings)
