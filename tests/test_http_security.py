"""The HTTP API against browsers (lexicon_service/http/security.py): request bodies must be declared JSON
(a cross-site "simple" request cannot be), the Host header must name the server (DNS rebinding), the
security headers and the pages' Content-Security-Policy, CORS off by default and on for listed origins;
and the small HTTP items: 405 answers name the allowed methods, X-Server-Timeout: 0, a ReplayGame record
of 2,000 lines ending in a newline. The `serve` options --http-allowed-hosts and --http-cors-origins."""

from __future__ import annotations

import base64
import hashlib
import re
import signal
import socket

import grpc
import httpx
import pytest

from lexicon_service.grpc_gen import game_pb2, game_pb2_grpc
from lexicon_service.http import HttpServer, api, create_app
from lexicon_service.http.security import HostAllowList, parse_origins
from lexicon_service.server import create_server
from tests.game_helpers import two_tile_lexicons
from tests.test_cli_hostile import assert_one_line_error, run_main
from tests.test_service_cli import serve_process

RULE_SET = "pl-scrabble"
BODY_ROUTES = [r for r in (*api.ROUTES, *api.SESSION_ROUTES) if r.body] + [
    api.ApiRoute("POST", "/v1/games:view", "game", "ViewGame", game_pb2.ReplayGameRequest, "", body=True)]
GCG_2000 = "\n".join(["#player1 a A"] + [">a: - +0 0"] * 1999) + "\n"  # 2,000 lines, the limit


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    directory = two_tile_lexicons(tmp_path_factory.mktemp("http-security-lexicons"), [RULE_SET])
    srv, port = create_server("localhost:0", directory, games_db=str(directory.parent / "games.db"))
    srv.start()
    yield srv, port
    srv.stop(None).wait()


def serve(srv, **options) -> HttpServer:
    return HttpServer(create_app(srv.registry, servicers={"session": srv.game_sessions}, **options),
                      "localhost:0").start()


@pytest.fixture(scope="module")
def web(server):
    started = serve(server[0])
    yield started
    started.stop()


@pytest.fixture
def http(web):
    with httpx.Client(base_url=web.url, timeout=30) as client:
        yield client


def games_held(srv) -> int:
    return len(srv.game_sessions.games.store.game_ids())


# --- bodies must be declared JSON ---------------------------------------------------------------------------
@pytest.mark.parametrize("content_type", [
    None, "text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x", "application/jsonx", "application/json; charset=latin-1", "text/json"])
def test_a_body_not_declared_json_is_415_on_every_body_route(http, content_type):
    """A page of another site can send text/plain, form and multipart bodies without asking the server
    (no CORS preflight): they were parsed as JSON, and created games."""
    body = b'{"lexicon": "pl-scrabble", "playerNames": ["Ann", "Bob"], "words": ["kot"], "gcg": "x"}'
    headers = {"Content-Type": content_type} if content_type else {}
    for route in BODY_ROUTES:
        path = route.path.replace("{lexicon}", RULE_SET).replace("{game_id}", "g1")
        r = http.post(path, content=body, headers=headers)
        assert r.status_code == 415, (path, r.text)
        error = r.json()["error"]
        assert error["code"] == 415 and error["status"] == "INVALID_ARGUMENT", error
        assert error["message"] == (f"Content-Type: {content_type!r}" if content_type else "Content-Type: missing") + \
            "; the body must be sent as application/json (in UTF-8)"


def test_a_simple_cross_site_request_creates_no_game(http, server):
    before = games_held(server[0])
    r = http.post("/v1/games", content=b'{"lexicon": "pl-scrabble", "playerNames": ["Ann", "Bob"]}',
                  headers={"Content-Type": "text/plain;charset=UTF-8", "Origin": "http://evil.example"})
    assert r.status_code == 415
    assert games_held(server[0]) == before


@pytest.mark.parametrize("content_type", ["application/json", "Application/JSON", "application/json; charset=utf-8",
                                          'application/json;charset="UTF-8"'])
def test_json_bodies_are_served(http, content_type):
    r = http.post(f"/v1/lexicons/{RULE_SET}:check", content=b'{"words": ["xx"]}',
                  headers={"Content-Type": content_type})
    assert r.status_code == 200, r.text


# --- Host -------------------------------------------------------------------------------------------------
def raw_request(url: str, head: str) -> tuple[int, bytes]:
    host, port = url.removeprefix("http://").rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(head.encode("latin-1"))
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return int(answer.split(b" ", 2)[1]), answer


@pytest.mark.parametrize("path", ["/v1/lexicons", "/judge", "/healthz", "/openapi.json", "/static/judge.js"])
def test_a_foreign_host_is_refused_naming_the_header(http, path):
    """DNS rebinding: a page of evil.example whose name now resolves to 127.0.0.1 is same-origin with the
    server; every route (pages, API) answered it."""
    r = http.get(path, headers={"Host": "evil.example:%d" % http.base_url.port})
    assert r.status_code == 400, r.text
    assert r.json() == {"error": {"code": 400, "status": "INVALID_ARGUMENT", "message":
                                  f"Host: 'evil.example:{http.base_url.port}' is not a name this server answers "
                                  "to (serve --http-allowed-hosts)"}}
    assert r.headers["x-frame-options"] == "DENY"


def test_the_default_hosts_are_served(web):
    port = web.port
    for host in (f"localhost:{port}", f"127.0.0.1:{port}", f"[::1]:{port}", "LOCALHOST", "localhost"):
        status, answer = raw_request(web.url, f"GET /healthz HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n")
        assert status == 200, (host, answer)
    for host in ("evil.example", "localhost.evil.example", "127.0.0.1.nip.io", "localhost:x", "[::1", ""):
        status, answer = raw_request(web.url, f"GET /healthz HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n")
        assert status == 400 and b"Host: " in answer, (host, answer)
    status, answer = raw_request(web.url, "GET /healthz HTTP/1.0\r\n\r\n")  # no Host at all
    assert status == 400 and b"Host: missing" in answer, answer


def test_host_allow_lists():
    loopback = HostAllowList.for_address("localhost")
    assert loopback.names == ("localhost", "127.0.0.1", "[::1]") and not loopback.any_ip_address
    assert HostAllowList.for_address("10.1.2.3").names == ("10.1.2.3", "localhost", "127.0.0.1", "[::1]")
    assert HostAllowList.for_address("::1").names == ("[::1]", "localhost", "127.0.0.1")
    everywhere = HostAllowList.for_address("0.0.0.0")
    assert everywhere.admits(f"{socket.gethostname()}:8080") and everywhere.admits("192.168.1.20:8080")
    assert everywhere.admits("[fe80::1]") and not everywhere.admits("evil.example")
    listed = HostAllowList.parse(" lexicon.example.org , *.club.example,10.0.0.7")
    assert listed.names == ("lexicon.example.org", "*.club.example", "10.0.0.7")
    assert listed.admits("Lexicon.Example.org:443") and listed.admits("a.b.club.example")
    assert not listed.admits("club.example") and not listed.admits("localhost") and not listed.admits("10.0.0.8")
    assert HostAllowList.parse("*").admits("anything.example")
    for bad, needle in (("", "no host"), ("a.example:80", "without the port"), ("http://a.example", "not a host"),
                        ("a*.example", "not a host"), ("a b", "not a host")):
        with pytest.raises(ValueError, match=needle):
            HostAllowList.parse(bad)


# --- security headers and the pages' policy -----------------------------------------------------------------
def test_every_answer_carries_the_security_headers(http):
    answers = [http.get("/judge"), http.get("/v1/lexicons"), http.get("/v1/nothing"), http.get("/static/i18n.js"),
               http.get("/sw.js"), http.get("/openapi.json"), http.post("/v1/games", content=b"{}")]
    for r in answers:
        assert r.headers["x-content-type-options"] == "nosniff", r.url
        assert r.headers["x-frame-options"] == "DENY", r.url
        assert r.headers["referrer-policy"] == "no-referrer", r.url
        assert "frame-ancestors 'none'" in r.headers["content-security-policy"] or r.url.path == "/sw.js", r.url
    assert http.get("/v1/lexicons").headers["content-security-policy"] == "default-src 'none'; frame-ancestors 'none'"


@pytest.mark.parametrize("path", ["/judge", "/lookup", "/games"])
def test_a_page_policy_admits_exactly_its_own_inline_scripts_and_styles(http, path):
    page = http.get(path)
    policy = dict(part.strip().split(" ", 1) for part in page.headers["content-security-policy"].split(";"))
    assert policy["default-src"] == "'none'" and policy["frame-ancestors"] == "'none'"
    assert "unsafe" not in page.headers["content-security-policy"]
    for tag in ("script", "style"):
        inline = re.findall(rf"<{tag}>(.*?)</{tag}>", page.text, re.DOTALL)
        hashes = {"'sha256-" + base64.b64encode(hashlib.sha256(body.encode()).digest()).decode() + "'"
                  for body in inline}
        assert inline and set(policy[f"{tag}-src"].split()) == hashes, tag


# --- CORS -------------------------------------------------------------------------------------------------
def preflight(client, origin: str, headers: str = "content-type") -> httpx.Response:
    return client.options(f"/v1/lexicons/{RULE_SET}:check", headers={
        "Origin": origin, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": headers})


def test_cors_is_off_by_default(http):
    r = preflight(http, "https://club.example")
    assert r.status_code == 405 and "access-control-allow-origin" not in r.headers
    r = http.post(f"/v1/lexicons/{RULE_SET}:check", json={"words": ["xx"]}, headers={"Origin": "https://club.example"})
    assert r.status_code == 200 and "access-control-allow-origin" not in r.headers


def test_cors_for_listed_origins(server):
    web = serve(server[0], cors_origins=parse_origins("https://club.example, http://LOCALHOST:3000"))
    try:
        with httpx.Client(base_url=web.url, timeout=10) as client:
            r = preflight(client, "https://club.example", "content-type, authorization, x-game-token")
            assert r.status_code == 200, r.text
            assert r.headers["access-control-allow-origin"] == "https://club.example"
            assert set(r.headers["access-control-allow-methods"].split(", ")) == {"GET", "POST"}
            allowed = {h.strip().lower() for h in r.headers["access-control-allow-headers"].split(",")}
            assert {"content-type", "authorization", "x-game-token", "x-server-timeout"} <= allowed
            assert "access-control-allow-credentials" not in r.headers
            assert preflight(client, "http://localhost:3000").headers["access-control-allow-origin"] == \
                "http://localhost:3000"
            r = preflight(client, "https://evil.example")
            assert r.status_code == 400 and "access-control-allow-origin" not in r.headers
            r = client.post(f"/v1/lexicons/{RULE_SET}:check", json={"words": ["xx"]},
                            headers={"Origin": "https://club.example"})
            assert r.status_code == 200 and r.headers["access-control-allow-origin"] == "https://club.example"
            assert "lexicon-reason" in r.headers["access-control-expose-headers"]
            r = client.post(f"/v1/lexicons/{RULE_SET}:check", content=b'{"words": ["xx"]}',
                            headers={"Origin": "https://club.example", "Content-Type": "text/plain"})
            assert r.status_code == 415  # a listed origin still sends JSON as JSON
    finally:
        web.stop()


def test_origin_lists():
    assert parse_origins("https://A.example:8443,http://b.example, *") == (
        "https://a.example:8443", "http://b.example", "*")
    for bad in ("", "a.example", "https://a.example/", "https://a.example/x", "ftp://a.example", "https://u@a.example",
                "https://a.example:99999", "https://a.example?x"):
        with pytest.raises(ValueError):
            parse_origins(bad)


# --- 405, X-Server-Timeout, GCG lines ------------------------------------------------------------------------
def test_405_names_the_allowed_methods(http):
    r = http.get("/v1/moves:validate")
    assert r.status_code == 405 and r.headers["allow"] == "POST"
    assert r.json()["error"]["status"] == "UNIMPLEMENTED"
    r = http.post("/judge", json={})
    assert r.status_code == 405 and set(r.headers["allow"].split(", ")) == {"GET", "HEAD"}
    assert http.post("/static/judge.js", json={}).headers["allow"] == "GET, HEAD"


@pytest.mark.parametrize("value, status, code, starts", [
    ("0", 504, "DEADLINE_EXCEEDED", "x-server-timeout: 0; deadline exceeded"),
    ("0.0", 504, "DEADLINE_EXCEEDED", "x-server-timeout: 0; deadline exceeded"),
    ("-1", 400, "INVALID_ARGUMENT", "x-server-timeout: '-1'; must be a finite number of seconds, at least 0"),
    ("inf", 400, "INVALID_ARGUMENT", "x-server-timeout: 'inf'; must be"),
    ("nan", 400, "INVALID_ARGUMENT", "x-server-timeout: 'nan'; must be"),
])
def test_server_timeout_zero_is_a_deadline_already_passed(http, value, status, code, starts):
    """The OpenAPI schema allows 0 (minimum 0); it was refused as 'must be positive'. As a gRPC timeout of
    0, it is a deadline that has passed: 504 without any work."""
    for path in (f"/v1/lexicons/{RULE_SET}:check", "/v1/games:view"):
        r = http.post(path, json={"words": ["xx"]} if "check" in path else {"gcg": GCG_2000, "ruleSet": RULE_SET},
                      headers={"X-Server-Timeout": value})
        assert r.status_code == status, r.text
        assert r.json()["error"]["status"] == code and r.json()["error"]["message"].startswith(starts)
    assert http.post(f"/v1/lexicons/{RULE_SET}:check", json={"words": ["xx"]},
                     headers={"X-Server-Timeout": "0.5"}).status_code == 200


def test_openapi_describes_415_the_timeout_and_the_host(http):
    from openapi_spec_validator import validate

    spec = http.get("/openapi.json").json()
    validate(spec)
    for route in BODY_ROUTES:
        operation = spec["paths"][route.path]["post"]
        assert "415" in operation["responses"] and "Content-Type: application/json" in \
            operation["responses"]["415"]["description"], route.path
        timeout = next(p for p in operation["parameters"] if p["name"] == "X-Server-Timeout")
        assert timeout["schema"] == {"type": "number", "minimum": 0} and "0: the deadline has passed" in \
            timeout["description"]
    assert "415" not in spec["paths"]["/v1/lexicons"]["get"]["responses"]
    assert "Host" in spec["paths"]["/v1/lexicons"]["get"]["responses"]["400"]["description"]


def test_a_record_of_2000_lines_ending_in_a_newline_is_replayed_and_viewed(http, server):
    """It was refused as '2001 lines' (the limit is 2,000) on every path: gRPC, :replay and the viewer's :view."""
    body = {"gcg": GCG_2000, "ruleSet": RULE_SET}
    assert len(http.post("/v1/games:replay", json=body).json()["lines"]) == 1999
    assert len(http.post("/v1/games:view", json=body).json()["steps"]) == 1999
    with grpc.insecure_channel(f"localhost:{server[1]}") as channel:
        stub = game_pb2_grpc.GameServiceStub(channel)
        replayed = stub.ReplayGame(game_pb2.ReplayGameRequest(gcg=GCG_2000, rule_set=RULE_SET), timeout=30)
        assert len(replayed.lines) == 1999
    r = http.post("/v1/games:view", json={"gcg": GCG_2000 + "#note x\n", "ruleSet": RULE_SET})
    assert r.status_code == 400 and r.json()["error"]["message"].startswith("gcg: 2001 lines")


# --- serve options ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("argv, needle", [
    (["--http", "127.0.0.1:0", "--http-allowed-hosts", "a.example:80"], "--http-allowed-hosts: 'a.example:80': give"),
    (["--http", "127.0.0.1:0", "--http-allowed-hosts", ","], "--http-allowed-hosts: no host given"),
    (["--http", "127.0.0.1:0", "--http-cors-origins", "club.example"], "--http-cors-origins: 'club.example' is not"),
    (["--http-allowed-hosts", "a.example"], "--http-allowed-hosts needs --http"),
    (["--http-cors-origins", "https://a.example"], "--http-cors-origins needs --http"),
])
def test_serve_refuses_bad_host_and_origin_lists(tmp_path, capsys, argv, needle):
    from lexicon_service.cli import main as service_main

    rc, _, err = run_main(service_main, ["serve", "--address", "127.0.0.1:0", "--lexicons", tmp_path, *argv], capsys)
    assert_one_line_error(rc, err, "lexicon-service serve", needle)


def test_serve_refuses_a_bad_list_from_the_environment(tmp_path, capsys, monkeypatch):
    from lexicon_service.cli import main as service_main

    monkeypatch.setenv("LEXICON_HTTP_CORS_ORIGINS", "https://a.example/path")
    rc, _, err = run_main(service_main, ["serve", "--address", "127.0.0.1:0", "--lexicons", tmp_path, "--http",
                                         "127.0.0.1:0"], capsys)
    assert_one_line_error(rc, err, "lexicon-service serve", "--http-cors-origins (environment variable "
                          "LEXICON_HTTP_CORS_ORIGINS): 'https://a.example/path'")


def test_serve_host_and_cors_options_reach_every_process(tmp_path):
    """--http-allowed-hosts (here from the environment) and --http-cors-origins are passed to the
    --processes children; the default hosts are then refused."""
    with serve_process(tmp_path, "--lexicons", str(tmp_path / "lex"), "--processes", "2", "--workers", "1",
                       "--fast-threads", "1", "--db", str(tmp_path / "games.db"), "--http", "127.0.0.1:0",
                       "--http-cors-origins", "https://club.example",
                       env={"LEXICON_HTTP_ALLOWED_HOSTS": "lexicon.example"}) as proc:
        proc.stdout.readline()
        m = re.search(r"HTTP on (http://127\.0\.0\.1:\d+)", proc.stdout.readline())
        assert m, proc.log()
        for _ in range(6):  # new connections: the kernel spreads them over both processes
            head = "GET /v1/lexicons HTTP/1.1\r\nHost: {}\r\nOrigin: https://club.example\r\nConnection: close\r\n\r\n"
            status, answer = raw_request(m.group(1), head.format("lexicon.example"))
            assert status == 200 and b"access-control-allow-origin: https://club.example" in answer.lower(), answer
            status, answer = raw_request(m.group(1), head.format("127.0.0.1"))
            assert status == 400 and b"Host: '127.0.0.1'" in answer, answer
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(20) == 0, proc.log()
