"""A page of another origin on the same host (another port: the same site for the cookie)
cannot act for the visitor in a real browser, neither by posting nor through the game
socket."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx

from tests.postgres import free_port
from tests.server import Server


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
    # The site's own page still takes the seat.
    assert (
        page.evaluate(
            f"""() => fetch("/api/games/{game_id}/join", {{method: "POST"}}).then(r => r.status)"""
        )
        == 200
    )
