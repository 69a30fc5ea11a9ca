"""The Content-Security-Policy in a real browser: every page (lobby, game, invite, challenge,
rules, account, /docs) runs with it and nothing is blocked, the sockets included; and a page
of another origin on the same host (another port: the same site for the cookie) cannot act
for the visitor, neither by posting nor through the game socket."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
from playwright.sync_api import expect

from tests.postgres import free_port
from tests.server import Server

# Set up before any page script runs (Playwright's init scripts are not subject to the CSP).
RECORD_VIOLATIONS = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__csp.push(`${event.violatedDirective} ${event.blockedURI}`);
});
"""


def watched(context: Any) -> tuple[Any, list[str]]:
    """A page whose CSP complaints (events and console lines) are collected."""
    page = context.new_page()
    complaints: list[str] = []
    page.on(
        "console",
        lambda message: (
            complaints.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    page.on("pageerror", lambda exc: complaints.append(f"page error: {exc}"))
    return page, complaints


def violations(page: Any, complaints: list[str]) -> list[str]:
    return [*page.evaluate("() => window.__csp"), *complaints]


def test_every_page_runs_under_the_csp_without_a_violation(
    new_context: Any, server: Server
) -> None:
    alice = new_context(locale="en-GB")
    alice.add_init_script(RECORD_VIOLATIONS)
    page, complaints = watched(alice)

    page.goto("/")
    expect(page.locator("#connection")).to_have_class("connection open")  # the lobby socket
    expect(page.locator("#variants input").first).to_be_visible()
    assert "connect-src 'self' ws://" in (page.request.get("/").headers["content-security-policy"])

    created = page.request.post(
        "/api/games", data={"variant": "jungle", "color": "first", "public": False}
    ).json()
    page.goto(f"/game/{created['id']}")
    expect(page.locator("#connection")).to_have_class("connection open")  # the game socket
    expect(page.locator("#board [data-square]").first).to_be_visible()

    for path in ("/rules", "/rules/jungle", "/account"):
        page.goto(path)
        expect(page.locator("h1").first).to_be_visible()
    expect(page.locator("#signed-out")).to_be_visible()  # the account page's script ran

    challenge = page.request.post("/api/challenge/open", data={"variant": "dobutsu"}).json()
    page.goto(f"/challenge/{challenge['id']}")
    expect(page.locator("#message")).not_to_have_text("Loading the challenge…")

    page.goto("/docs")
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Kodama")
    expect(page.locator(".opblock-summary-path", has_text="/api/games").first).to_be_visible()
    assert violations(page, complaints) == []

    bob = new_context(locale="en-GB")
    bob.add_init_script(RECORD_VIOLATIONS)
    invited, bob_complaints = watched(bob)
    invited.goto(created["inviteUrl"])
    invited.wait_for_url(f"**/game/{created['id']}")
    expect(invited.locator("#connection")).to_have_class("connection open")
    assert violations(invited, bob_complaints) == []


class _EvilPage(BaseHTTPRequestHandler):
    body = b""

    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.end_headers()
        self.wfile.write(self.body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextlib.contextmanager
def evil_site(html: str) -> Iterator[str]:
    """A page served from another port of 127.0.0.1: another origin, the same site."""
    handler = type("Evil", (_EvilPage,), {"body": html.encode()})
    httpd = ThreadingHTTPServer(("127.0.0.1", free_port()), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_a_page_on_another_port_cannot_act_for_the_visitor(
    new_context: Any, server: Server
) -> None:
    victim = new_context()
    page = victim.new_page()
    page.goto("/")
    game = httpx.post(f"{server.base}/api/games", json={"variant": "dobutsu", "color": "first"})
    game_id = game.json()["id"]
    # The attack: a form posted to the join route (the cookie goes along: same site), and
    # the game socket opened as the visitor.
    attack = f"""<!doctype html><body>
      <form id="f" method="post" action="{server.base}/api/games/{game_id}/join"></form>
      <script>
        window.socketEvents = [];
        const ws = new WebSocket("ws://127.0.0.1:{server.port}/ws/game/{game_id}");
        ws.onopen = () => window.socketEvents.push("open");
        ws.onclose = () => window.socketEvents.push("close");
        fetch("{server.base}/api/games/{game_id}/join",
              {{method: "POST", mode: "no-cors", credentials: "include"}})
          .then(() => window.fetched = true, () => window.fetched = true);
      </script></body>"""
    with evil_site(attack) as url:
        evil = victim.new_page()
        evil.goto(url)
        evil.wait_for_function("() => window.fetched && window.socketEvents.length > 0")
        assert evil.evaluate("() => window.socketEvents") == ["close"]  # never opened
        with evil.expect_navigation():
            evil.evaluate("() => document.getElementById('f').submit()")
        assert '"code":"origin.forbidden"' in evil.content()
    state = httpx.get(f"{server.base}/api/games/{game_id}").json()["game"]
    assert state["status"] == "created" and state["players"]["second"] is None
    # The site's own page still takes the seat, and then follows its player to the game.
    with page.expect_navigation(url=f"**/game/{game_id}"):
        page.evaluate(f"""() => {{ fetch("/api/games/{game_id}/join", {{method: "POST"}}); }}""")
    state = httpx.get(f"{server.base}/api/games/{game_id}").json()["game"]
    assert state["status"] == "started" and state["players"]["second"] is not None
