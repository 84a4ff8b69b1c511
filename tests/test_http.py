"""The HTTP/JSON API (lexicon_service/http): a real uvicorn server on port 0 over tiny lexicons built in
tmp_path; every answer compared with the gRPC server's on the same lexicons (same messages, same
error codes and texts); auth, TLS, limits, OpenAPI, and `lexicon-service serve --http`."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import unicodedata
from pathlib import Path
from urllib.parse import quote

import grpc
import httpx
import pytest
from google.protobuf import json_format

from lexicon_service.grpc_gen import game_pb2, game_pb2_grpc, lexicon_pb2, lexicon_pb2_grpc
from lexicon_service.http import HttpServer, create_app
from lexicon_service.http import api
from lexicon_service.server import Limits, TlsConfig

ROOT = Path(__file__).resolve().parent.parent
BUILD = str(Path(sys.executable).parent / "lexicon-build")
WORDS = {
    "pl-scrabble": ["kot", "koty", "kota", "kto", "tok", "pies", "psy", "żółw", "żółwie", "dar", "ud", "ja",
                    "próbuje", "spróbujemy", "prymas", "spróbuje", "ok", "to", "ty"],
    "cs-kriskros": ["chata", "chaty", "kočka", "kočky", "ach", "cha", "pes", "psi", "dopravník", "moucha",
                    "lese", "les"],
}
AS_JSON = {"Content-Type": "application/json"}  # what httpx's json= sends; content= sends no Content-Type
LIMITS = Limits(max_words=100, max_results=50, max_message_bytes=64 * 1024)
SERVER_OPTIONS = {"limits": LIMITS}  # tests/conftest.py's `server`, on this module's lexicon_dir


def write_lexicon(directory: Path, name: str, rule_set: str, words) -> None:
    src = directory.parent / f"{name}.words.txt"
    src.write_text("\n".join(words) + "\n", encoding="utf-8")
    subprocess.run([BUILD, "--rules", rule_set, "--words", str(src), "-o", str(directory / f"{name}.lex"),
                    "--name", name, "--quiet"], check=True, capture_output=True)


@pytest.fixture(scope="module")
def lexicon_dir(tmp_path_factory) -> Path:
    directory = tmp_path_factory.mktemp("http-lexicons") / "lex"
    directory.mkdir()
    for rule_set, words in WORDS.items():
        write_lexicon(directory, rule_set, rule_set, words)
    return directory


@pytest.fixture(scope="module")
def http(server):
    """The HTTP server on the gRPC server's registry, as `serve --http` runs it."""
    srv, _ = server
    web = HttpServer(create_app(srv.registry, limits=LIMITS), "localhost:0").start()
    with httpx.Client(base_url=web.url, timeout=10) as client:
        yield client
    web.stop()


@pytest.fixture(scope="module")
def stubs(server):
    _, port = server
    with grpc.insecure_channel(f"localhost:{port}") as channel:
        yield lexicon_pb2_grpc.LexiconServiceStub(channel), game_pb2_grpc.GameServiceStub(channel)


def as_json(message) -> dict:
    return json_format.MessageToDict(message, always_print_fields_with_no_presence=True)


def grpc_error(call, request) -> tuple[str, str]:
    with pytest.raises(grpc.RpcError) as info:
        call(request, timeout=10)
    return info.value.code().name, info.value.details()


# --- answers equal gRPC's ---------------------------------------------------------------------------------
def test_check_words_answers_as_grpc(http, stubs):
    lex, _ = stubs
    words = ["żółw", "zółw", "KOT", "kotx", "k", "psy"]
    r = http.post("/v1/lexicons/pl-scrabble:check", json={"words": words})
    assert r.status_code == 200 and r.headers["content-type"] == "application/json"
    body = r.json()
    assert body == as_json(lex.CheckWords(lexicon_pb2.CheckWordsRequest(lexicon="pl-scrabble", words=words)))
    assert [(x["word"], x["valid"]) for x in body["results"]] == [
        ("żółw", True), ("zółw", False), ("KOT", True), ("kotx", False), ("k", False), ("psy", True)]
    assert [x["status"] for x in body["results"]][3:5] == ["WORD_STATUS_UNKNOWN_LETTER", "WORD_STATUS_BAD_LENGTH"]
    assert body["acceptable"] is False and body["invalidCount"] == 3


@pytest.mark.parametrize("request_body", [
    {"words": ["kot", "psy"], "verdictOnly": True},
    {"words": ["kot", "zółw"], "verdict_only": True},
    {"words": ["kot", "zółw", "kotx"], "compact": True},
    {"words": ["kot", "kotx"], "includeTiles": True},
    {"words": ["kot"], "lexicon": "pl-scrabble"},
])
def test_check_words_flags_and_fast_path_equal_json_format(http, stubs, request_body):
    lex, _ = stubs
    parsed = lexicon_pb2.CheckWordsRequest()
    json_format.ParseDict(request_body, parsed)
    assert api._check_request_fast(dict(request_body)) == parsed  # the fast request path is ParseDict's
    parsed.lexicon = "pl-scrabble"
    expected = lex.CheckWords(parsed)
    assert http.post("/v1/lexicons/pl-scrabble:check", json=request_body).json() == as_json(expected)


@pytest.mark.parametrize("flags", [{}, {"verdict_only": True}, {"compact": True}, {"include_tiles": True},
                                   {"compact": True, "include_tiles": True}])
def test_check_words_json_equals_the_servicer_answer(server, flags):
    """The core's CheckWords JSON dict (core.messages.check_words_json, what HTTP sends) equals
    MessageToDict of the message gRPC sends (core.messages.check_words_response)."""
    from lexicon_service.server.lexicon_servicer import LexiconServicer

    servicer = LexiconServicer(server[0].registry, LIMITS)
    for words in (["kot", "zółw", "kotx", "k", "żółw", "Kot", "x" * 20], ["kot", "psy"], ["zółw", "kotq"]):
        request = lexicon_pb2.CheckWordsRequest(lexicon="pl-scrabble", words=words, **flags)
        got = servicer.check_words_json(request)
        assert got == as_json(servicer.check_words(request)), words
        assert json.loads(api.dumps(got)) == got


def test_verdict_only_hides_which_word_failed(http):
    body = http.post("/v1/lexicons/pl-scrabble:check", json={"words": ["kot", "zółw"], "verdictOnly": True}).json()
    assert body["acceptable"] is False and body["results"] == [] and body["statuses"] == []
    assert "zółw" not in json.dumps(body, ensure_ascii=False)


def test_nfd_and_the_ch_tile(http):
    nfd = unicodedata.normalize("NFD", "kočka")
    assert nfd != "kočka"
    body = http.post("/v1/lexicons/cs-kriskros:check", json={"words": [nfd, "chata"], "includeTiles": True}).json()
    assert body["acceptable"] is True
    assert body["results"][1]["tiles"] == ["CH", "A", "T", "A"]
    # "cha" is the two-tile word CH-A; with a C tile and an H tile it is another (absent) word
    assert http.post("/v1/lexicons/cs-kriskros:check", json={"words": ["[C]HA"]}).json()["acceptable"] is False


def test_explain_find_and_listings_answer_as_grpc(http, stubs):
    lex, game = stubs
    r = http.get("/v1/lexicons/pl-scrabble/words/" + quote("żółw") + ":explain")
    assert r.json() == as_json(lex.ExplainWord(lexicon_pb2.ExplainWordRequest(lexicon="pl-scrabble", word="żółw")))
    assert r.json()["readings"] and r.json()["result"]["valid"] is True
    r = http.get("/v1/lexicons/pl-scrabble/words", params={"anagram": "KOT?", "limit": "5", "use_all_tiles": "true"})
    expected = lex.FindWords(lexicon_pb2.FindWordsRequest(lexicon="pl-scrabble", anagram="KOT?", limit=5,
                                                          use_all_tiles=True))
    assert r.json() == as_json(expected) and r.json()["words"]
    r = http.get("/v1/lexicons/cs-kriskros/words", params={"pattern": "CH?T*"})
    assert {w["word"] for w in r.json()["words"]} == {"[CH]ATA", "[CH]ATY"}
    listing = http.get("/v1/lexicons").json()
    assert listing == as_json(lex.ListLexicons(lexicon_pb2.ListLexiconsRequest()))
    assert [x["name"] for x in listing["lexicons"]] == ["cs-kriskros", "pl-scrabble"]
    assert isinstance(listing["lexicons"][0]["wordCount"], int)  # int32: a JSON number (not an int64 string)
    rule_sets = http.get("/v1/rulesets", params={"includeSource": "false"}).json()
    assert rule_sets == as_json(game.ListRuleSets(game_pb2.ListRuleSetsRequest()))


def test_explain_names_each_readings_origin(http):
    """The lookup page shows it (tests/e2e/test_lookup_origin.py has a guessed reading and its model)."""
    readings = http.get("/v1/lexicons/pl-scrabble/words/kot:explain").json()["readings"]
    assert readings and {r["origin"] for r in readings} == {"word list"} and not any(r.get("model") for r in readings)


def test_moves_and_replay_answer_as_grpc(http, stubs):
    _, game = stubs
    move = {"lexicon": "pl-scrabble", "rack": "KOTABCD", "play": {"position": "8H", "word": "KOT"}}
    r = http.post("/v1/moves:validate", json=move)
    expected = game.ValidateMove(json_format.ParseDict(move, game_pb2.ValidateMoveRequest()))
    assert r.json() == as_json(expected) and r.json()["valid"] is True and r.json()["total"] == 10
    r = http.post("/v1/moves:score", json={"ruleSet": "pl-scrabble", "play": {"position": "8H", "word": "KXT"}})
    assert r.status_code == 200 and r.json()["valid"] is False and r.json()["reason"] == "UNKNOWN_LETTER"
    gcg = (ROOT / "tests/data/gcg/kk-ch-bingo.gcg").read_text(encoding="utf-8")
    r = http.post("/v1/games:replay", json={"gcg": gcg, "lexicon": "cs-kriskros"})
    assert r.json() == as_json(game.ReplayGame(game_pb2.ReplayGameRequest(gcg=gcg, lexicon="cs-kriskros")))
    assert r.json()["ok"] is True


def test_game_view_gives_boards_and_breakdowns(http):
    gcg = (ROOT / "tests/data/gcg/kk-ch-bingo.gcg").read_text(encoding="utf-8")
    view = http.post("/v1/games:view", json={"gcg": gcg}).json()
    assert view["layout"]["ruleSet"] == "cs-kriskros" and view["layout"]["rows"] == 15
    assert view["layout"]["premiums"][0][0] == "TW" and view["layout"]["premiums"][7][3] == "DL"
    steps, lines = view["steps"], view["replay"]["lines"]
    assert len(steps) == len(lines)
    first = steps[0]["board"]
    assert first[7][3:7] == ["CH", "A", "T", "A"]  # 8D [CH]ATA
    assert steps[1]["board"][4][4] == "o"  # the blank of DoPR.VNÍK on E5: lowercase
    assert steps[1]["move"]["bingo"] is True and steps[1]["move"]["total"] == 90
    assert steps[1]["move"]["words"][0]["multiplier"] == 4
    assert steps[4]["move"] is None and steps[4]["board"] == steps[3]["board"]  # an exchange
    assert sum(1 for row in steps[-1]["board"] for c in row if c) == 4 + 8 + 4 + 3  # MOU[CH]. reuses G8


# --- errors: the same codes and messages as gRPC --------------------------------------------------------------
def test_errors_carry_the_grpc_code_and_message(http, stubs):
    lex, game = stubs
    cases = [
        (http.post("/v1/lexicons/pl-scrabble:check", json={"words": ["kot", ""]}),
         lex.CheckWords, lexicon_pb2.CheckWordsRequest(lexicon="pl-scrabble", words=["kot", ""]), 400),
        (http.post("/v1/lexicons/xx-none:check", json={"words": ["kot"]}),
         lex.CheckWords, lexicon_pb2.CheckWordsRequest(lexicon="xx-none", words=["kot"]), 404),
        (http.post("/v1/lexicons/pl-scrabble:check", json={"words": ["a"] * 101}),
         lex.CheckWords, lexicon_pb2.CheckWordsRequest(lexicon="pl-scrabble", words=["a"] * 101), 400),
        (http.get("/v1/lexicons/pl-scrabble/words", params={"anagram": "KOT?", "limit": "51"}),
         lex.FindWords, lexicon_pb2.FindWordsRequest(lexicon="pl-scrabble", anagram="KOT?", limit=51), 400),
        # an off-board play is an answer (valid: false, OFF_BOARD); a play without a position is an error
        (http.post("/v1/moves:validate", json={"lexicon": "pl-scrabble", "play": {"word": "KOT"}}),
         game.ValidateMove, game_pb2.ValidateMoveRequest(lexicon="pl-scrabble", play=game_pb2.Play(word="KOT")),
         400),
        (http.post("/v1/games:replay", json={"gcg": ">Ala: ABC 8H KOT +5 4\n", "ruleSet": "nope"}),
         game.ReplayGame, game_pb2.ReplayGameRequest(gcg=">Ala: ABC 8H KOT +5 4\n", rule_set="nope"), 404),
    ]
    for response, call, request, status in cases:
        code, message = grpc_error(call, request)
        assert response.status_code == status, (response.text, code)
        assert response.json() == {"error": {"code": status, "status": code, "message": message}}


@pytest.mark.parametrize("send, status, code, starts", [
    (lambda c: c.post("/v1/lexicons/pl-scrabble:check", content=b"{not json", headers=AS_JSON), 400, "INVALID_ARGUMENT",
     "body: not valid JSON"),
    (lambda c: c.post("/v1/lexicons/pl-scrabble:check", json=["kot"]), 400, "INVALID_ARGUMENT", "body: a JSON object"),
    (lambda c: c.post("/v1/lexicons/pl-scrabble:check", json={"words": "kot"}), 400, "INVALID_ARGUMENT", "body: "),
    (lambda c: c.post("/v1/lexicons/pl-scrabble:check", json={"words": ["kot"], "colour": 1}), 400, "INVALID_ARGUMENT",
     "body: "),
    (lambda c: c.post("/v1/lexicons/pl-scrabble:check", json={"words": ["kot"], "lexicon": "cs-kriskros"}), 400,
     "INVALID_ARGUMENT", "lexicon: "),
    (lambda c: c.post("/v1/lexicons/pl-scrabble:check", content=b"[" + b'"kot",' * 20000 + b'"kot"]',
                      headers=AS_JSON), 429, "RESOURCE_EXHAUSTED", "request body larger than max"),
    (lambda c: c.get("/v1/lexicons/pl-scrabble/words", params={"anagram": "KOT", "colour": "red"}), 400,
     "INVALID_ARGUMENT", "colour: "),
    (lambda c: c.get("/v1/lexicons/pl-scrabble/words", params={"anagram": "KOT", "limit": "x"}), 400,
     "INVALID_ARGUMENT", "query: "),
    (lambda c: c.get("/v1/lexicons/pl-scrabble/words", params={"anagram": "KOT", "useAllTiles": "maybe"}), 400,
     "INVALID_ARGUMENT", "use_all_tiles: "),
    (lambda c: c.post("/v1/lexicons/pl-scrabble:check", json={"words": ["kot"]}, headers={"x-server-timeout": "soon"}),
     400, "INVALID_ARGUMENT", "x-server-timeout: "),
    (lambda c: c.post("/v1/lexicons/pl-scrabble:check", content=b"[" * 30000, headers=AS_JSON), 400, "INVALID_ARGUMENT",
     "body: JSON nested too deeply"),
    (lambda c: c.post("/v1/lexicons/pl-scrabble:check", content=b'{"words": ["k\xff"]}', headers=AS_JSON), 400,
     "INVALID_ARGUMENT", "body: not valid JSON"),
    (lambda c: c.post("/v1/moves:validate", json={"lexicon": "pl-scrabble", "play": {"position": 8}}), 400,
     "INVALID_ARGUMENT", "body: "),
    # JSON can spell a lone surrogate, which is no character (and was an INTERNAL on the :check fast path)
    (lambda c: c.post("/v1/lexicons/pl-scrabble:check", content=b'{"words": ["kot", "\\ud800"]}', headers=AS_JSON), 400,
     "INVALID_ARGUMENT", "words[1]: a lone surrogate"),
    (lambda c: c.post("/v1/moves:validate", content=b'{"lexicon": "pl-scrabble", "play": {"word": "K\\uDFFF"}}',
                      headers=AS_JSON), 400, "INVALID_ARGUMENT", "play.word: a lone surrogate"),
    (lambda c: c.get("/v1/lexicons/pl-scrabble/words/" + "k" * 65 + ":explain"), 400, "INVALID_ARGUMENT", "word: 65"),
    (lambda c: c.get("/v1/nothing-here"), 404, "NOT_FOUND", "GET /v1/nothing-here"),
    (lambda c: c.get("/v1/moves:validate"), 405, "UNIMPLEMENTED", "GET /v1/moves:validate"),
])
def test_bad_requests_are_json_errors_naming_the_problem(http, send, status, code, starts):
    r = send(http)
    assert r.status_code == status, r.text
    error = r.json()["error"]
    assert error["status"] == code and error["code"] == status and error["message"].startswith(starts), error


def test_unparsable_requests_and_clients_that_go_away_are_logged_as_client_errors(http, caplog, monkeypatch):
    """uvicorn's warning per unparsable request is rate-limited like every client mistake, and a client
    that leaves while sending its body is no internal error (it was logged with a traceback)."""
    import time

    from lexicon_service import errors

    monkeypatch.setattr(errors, "limited_log", errors._RateLimitedLog())
    host, port = http.base_url.host, http.base_url.port
    with caplog.at_level("INFO"):
        for _ in range(15):
            with socket.create_connection((host, port)) as sock:
                sock.sendall(b"GARBAGE \xff\r\n\r\n")
                assert sock.recv(100).startswith(b"HTTP/1.1 400")
        with socket.create_connection((host, port)) as sock:
            sock.sendall(b"POST /v1/lexicons/pl-scrabble:check HTTP/1.1\r\nHost: localhost\r\n"
                         b"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{")
            time.sleep(0.2)
        time.sleep(1.0)  # the server notices the disconnect
    messages = [r.getMessage() for r in caplog.records]
    assert "Invalid HTTP request received." not in messages
    assert 1 <= sum("invalid HTTP request" in m for m in messages) <= 10
    assert not [r for r in caplog.records if r.exc_info], messages


def test_a_surrogate_pair_in_json_is_one_character(http):
    r = http.post("/v1/lexicons/pl-scrabble:check", content=b'{"words": ["kot\\ud83d\\ude00", "kot"]}', headers=AS_JSON)
    assert r.status_code == 200, r.text
    assert [w["status"] for w in r.json()["results"]] == ["WORD_STATUS_UNKNOWN_LETTER", "WORD_STATUS_VALID"]


def test_a_servicer_added_by_route_table_gets_its_caller_and_sends_trailers(server, monkeypatch):
    """How the game-session calls plug in: a route in api.SESSION_ROUTES, a servicer passed to create_app
    whose plain method takes the request and its Caller; a refusal's trailing metadata comes back as headers."""
    from lexicon_service.errors import StaleVersion

    seen = []

    class Sessions:
        def peek(self, request, caller):
            seen.append(caller)
            if caller.game_token != "g1":
                raise StaleVersion(3, 7)
            return lexicon_pb2.ExplainWordResponse(lexicon=request.lexicon)

    monkeypatch.setattr(api, "SESSION_ROUTES", (api.ApiRoute(
        "GET", "/v1/peek/{lexicon}", "session", "Peek", lexicon_pb2.ExplainWordRequest, "test",
        response=lexicon_pb2.ExplainWordResponse),))
    web = HttpServer(create_app(server[0].registry, servicers={"session": Sessions()}), "localhost:0").start()
    plain = HttpServer(create_app(server[0].registry), "localhost:0").start()
    try:
        client = httpx.Client(base_url=web.url, timeout=10)
        r = client.get("/v1/peek/pl-scrabble", headers={"x-game-token": "g1", "x-director-key": "k",
                                                        "x-server-timeout": "30"})
        assert r.status_code == 200 and r.json()["lexicon"] == "pl-scrabble" and "lexicon-version" not in r.headers
        assert seen[0].director_key == "k" and seen[0].client == "ipv4:127.0.0.1" and seen[0].deadline is not None
        r = client.get("/v1/peek/pl-scrabble")
        assert r.status_code == 409 and r.json()["error"]["status"] == "ABORTED"
        assert r.headers["lexicon-version"] == "7"
        client.close()
        # without the servicer, its routes are not served
        assert httpx.get(plain.url + "/v1/peek/pl-scrabble", timeout=10).status_code == 404
    finally:
        web.stop()
        plain.stop()


def test_http_fakes_no_grpc_context():
    """The HTTP adapter calls plain methods: nothing in lexicon_service/http defines or calls what only a
    grpc.ServicerContext has (abort, metadata, trailers, peer), nor a servicer's gRPC method."""
    import ast

    used_only_by_grpc = {"abort_with_status", "invocation_metadata", "set_trailing_metadata", "time_remaining",
                         "ServicerContext"}
    defined_only_by_grpc = used_only_by_grpc | {"abort", "peer", "is_active"}
    rpcs = {route.rpc for route in (*api.ROUTES, *api.SESSION_ROUTES, *api.TOURNAMENT_ROUTES)} | {"WatchGame"}
    found = []
    for path in sorted((ROOT / "lexicon_service" / "http").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name in defined_only_by_grpc:
                found.append(f"{path.name}:{node.lineno} defines {node.name}")
            name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else None
            if name in used_only_by_grpc or name in rpcs:
                found.append(f"{path.name}:{node.lineno} uses {name}")
    assert found == []


# --- auth, TLS, pages, OpenAPI ----------------------------------------------------------------------------
def test_bearer_tokens_as_grpc(server):
    srv, _ = server
    web = HttpServer(create_app(srv.registry, tokens=["sesame", "other"]), "localhost:0").start()
    try:
        with httpx.Client(base_url=web.url, timeout=10) as c:
            body = {"words": ["kot"]}
            r = c.post("/v1/lexicons/pl-scrabble:check", json=body)
            assert r.status_code == 401 and r.json()["error"]["status"] == "UNAUTHENTICATED"
            assert r.json()["error"]["message"].startswith("missing authorization")
            r = c.post("/v1/lexicons/pl-scrabble:check", json=body, headers={"Authorization": "Bearer wrong"})
            assert r.status_code == 401 and r.json()["error"]["message"] == "invalid bearer token"
            r = c.post("/v1/lexicons/pl-scrabble:check", json=body, headers={"Authorization": "Bearer other"})
            assert r.status_code == 200 and r.json()["acceptable"] is True
            for open_path in ("/judge", "/healthz", "/openapi.json", "/static/judge.js"):
                assert c.get(open_path).status_code == 200, open_path
    finally:
        web.stop()


@pytest.mark.skipif(shutil.which("openssl") is None, reason="needs openssl to make a test certificate")
def test_tls(server, tmp_path):
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out",
                    str(cert), "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost"],
                   check=True, capture_output=True)
    srv, _ = server
    web = HttpServer(create_app(srv.registry), "localhost:0", tls=TlsConfig(str(cert), str(key))).start()
    try:
        assert web.url.startswith("https://")
        trust = ssl.create_default_context(cafile=str(cert))
        r = httpx.post(web.url + "/v1/lexicons/pl-scrabble:check", json={"words": ["kot"]}, verify=trust)
        assert r.json()["acceptable"] is True
        with pytest.raises(httpx.HTTPError):
            httpx.get(web.url.replace("https", "http") + "/healthz", timeout=5)
    finally:
        web.stop()
    web = HttpServer(create_app(srv.registry), "localhost:0", tls=TlsConfig(str(cert), str(key), str(cert))).start()
    try:  # mutual TLS: a client certificate is required
        with_cert = ssl.create_default_context(cafile=str(cert))
        with_cert.load_cert_chain(str(cert), str(key))
        assert httpx.get(web.url + "/healthz", verify=with_cert).status_code == 200
        with pytest.raises(httpx.HTTPError):
            httpx.get(web.url + "/healthz", verify=trust, timeout=5)
    finally:
        web.stop()


def test_listening_socket_is_tcp_so_asyncio_sets_nodelay(server):
    # a socket of proto 0 gets no TCP_NODELAY from asyncio: each large answer then waited ~40 ms
    web = HttpServer(create_app(server[0].registry), "127.0.0.1:0")
    try:
        assert web.socket.proto == socket.IPPROTO_TCP
    finally:
        web.socket.close()


def test_pages_are_small_and_served(http):
    judge = http.get("/judge")
    assert judge.status_code == 200 and judge.headers["content-type"].startswith("text/html")
    # one request: the stylesheet and scripts are written into the page
    assert "window.judgeTimings" in judge.text and "const STRINGS" in judge.text and "--ok:" in judge.text
    assert "<script src=" not in judge.text and 'rel="stylesheet"' not in judge.text  # no file left to fetch
    assert len(judge.content) <= 200 * 1024  # the judge's page weight
    for path in ("/static/common.css", "/static/i18n.js", "/static/judge.js"):
        assert http.get(path).status_code == 200, path
    for path in ("/lookup", "/games", "/sw.js", "/static/games.js", "/static/lookup.js"):
        assert http.get(path).status_code == 200, path
    assert http.get("/", follow_redirects=False).headers["location"] == "/judge"
    assert http.get("/healthz").json() == {"status": "SERVING"}


def test_openapi_is_valid_and_lists_every_route(http):
    from openapi_spec_validator import validate

    spec = http.get("/openapi.json").json()
    validate(spec)
    for route in api.ROUTES:
        assert route.method.lower() in spec["paths"][route.path], route.path
    assert "/v1/games:view" in spec["paths"]
    check = spec["components"]["schemas"]["CheckWordsRequest"]["properties"]
    assert set(check) == {"lexicon", "words", "verdictOnly", "includeTiles", "compact"}
    assert spec["components"]["schemas"]["LexiconInfo"]["properties"]["wordCount"]["type"] == "integer"


# --- lexicon-service serve --http ------------------------------------------------------------------------
def test_serve_http_in_every_process(lexicon_dir):
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-m", "lexicon_service", "serve", "--address", "localhost:0",
                             "--http", "localhost:0", "--lexicons", str(lexicon_dir), "--processes", "2",
                             "--log-level", "WARNING"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env)
    try:
        first = proc.stdout.readline()
        second = proc.stdout.readline()
        assert "serving 2 lexicons" in first and "(2 processes)" in first, (first, proc.stderr.read())
        assert "word judge at http://localhost:" in second and second.strip().endswith("/judge")
        url = second.split("word judge at ")[1].strip().removesuffix("/judge")
        for _ in range(4):  # new connections, spread over the processes by the kernel
            with httpx.Client(base_url=url, timeout=10) as c:
                r = c.post("/v1/lexicons/pl-scrabble:check", json={"words": ["kot", "zółw"], "verdictOnly": True})
                assert r.json()["acceptable"] is False
        assert proc.poll() is None
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(20)
    assert proc.returncode == 0
