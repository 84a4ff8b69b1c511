"""A page of another origin (a second local HTTP server, on another port) that a user of the service
visits: it tries to create games on the service through the user's browser with the "simple" requests a
browser sends without asking the server first (an auto-submitted text/plain form, a no-cors fetch). No
game may be created: the API takes only bodies declared application/json, which a cross-origin page can
send only after a CORS preflight that the server (CORS off) does not grant."""

from __future__ import annotations

import http.server
import threading
import time

import httpx
import pytest

from lexicon_service.http import HttpServer, create_app
from lexicon_service.server import create_server
from tests.game_helpers import two_tile_lexicons

RULE_SET = "pl-scrabble"
GAME = '{"lexicon": "pl-scrabble", "playerNames": ["Ann", "Bob"]'

ATTACK = """<!doctype html>
<html><body>
<iframe name="sink"></iframe>
<form id="form" method="POST" action="{api}/v1/games" enctype="text/plain" target="sink">
  <input type="hidden" name='{game}, "x": "' value='"}}'>
</form>
<script>
document.getElementById("form").submit();
for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]) {{
  fetch("{api}/v1/games", {{method: "POST", mode: "no-cors", headers: {{"Content-Type": type}}, body: '{game}}}'}})
    .catch(() => {{}});
}}
fetch("{api}/v1/games", {{method: "POST", mode: "no-cors", body: '{game}}}'}}).catch(() => {{}});
// a JSON body needs a preflight, which the server does not grant: this one is never sent
fetch("{api}/v1/games", {{method: "POST", headers: {{"Content-Type": "application/json"}}, body: '{game}}}'}})
  .then(() => document.title = "read", () => document.title = "refused");
</script>
</body></html>
"""


@pytest.fixture(scope="module")
def game_web(tmp_path_factory):
    """(URL, gRPC server, the (method, path, content type, status) of every request the HTTP app answered)."""
    directory = two_tile_lexicons(tmp_path_factory.mktemp("e2e-cross-site-lexicons"), [RULE_SET])
    srv, _ = create_server("localhost:0", directory, games_db=str(directory.parent / "games.db"))
    srv.start()
    app = create_app(srv.registry, servicers={"session": srv.game_sessions})
    answered = []

    async def recording(scope, receive, send):
        async def record(message):
            if message["type"] == "http.response.start":
                headers = dict(scope["headers"])
                answered.append((scope["method"], scope["path"], headers.get(b"content-type", b"").decode(),
                                 message["status"]))
            await send(message)
        await app(scope, receive, record)

    web = HttpServer(recording, "localhost:0").start()
    yield web.url, srv, answered
    web.stop()
    srv.stop(None).wait()


@pytest.fixture(scope="module")
def attacker(game_web):
    """Another origin: 127.0.0.1 on a port of its own, serving ATTACK at /."""
    page = ATTACK.format(api=game_web[0], game=GAME).encode()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.server_close()


def test_a_page_of_another_origin_creates_no_game(browser_context, game_web, attacker):
    url, srv, answered = game_web
    store = srv.game_sessions.games.store
    before = len(store.game_ids())
    answered.clear()
    page = browser_context.new_page()
    try:
        page.goto(attacker + "/")
        page.wait_for_function("() => document.title !== ''")
        assert page.title() == "refused"  # the JSON request: its preflight was not granted
        deadline = time.monotonic() + 10
        while len([a for a in answered if a[0] == "POST"]) < 5 and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        page.close()
    posts = sorted((content_type, status) for method, path, content_type, status in answered if method == "POST")
    # the form and the four no-cors fetches reached the server, and each was refused
    assert posts == sorted([("text/plain", 415), ("text/plain", 415), ("text/plain;charset=UTF-8", 415),
                            ("application/x-www-form-urlencoded", 415), ("multipart/form-data; boundary=x", 415)]), \
        answered
    assert ("OPTIONS", "/v1/games", "", 405) in answered  # the preflight, not granted
    assert len(store.game_ids()) == before
    # the same request as the service's own pages send it (Content-Type: application/json) creates one
    r = httpx.post(url + "/v1/games", json={"lexicon": RULE_SET, "playerNames": ["Ann", "Bob"]}, timeout=10)
    assert r.status_code == 200, r.text
    assert len(store.game_ids()) == before + 1
