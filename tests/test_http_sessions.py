"""Game sessions over HTTP/JSON (lexicon_service/http, SESSION_ROUTES and the event stream): a real gRPC
server with its games in a SQLite file in tmp_path, its session servicer served over HTTP as
`serve --http` does; refusals compared with gRPC's; WatchGame as Server-Sent Events."""

from __future__ import annotations

import contextlib
import json
import threading
import time

import grpc
import httpx
import pytest

from lexicon_service.grpc_gen import session_pb2, session_pb2_grpc
from lexicon_service.http import HttpServer, api, create_app
from lexicon_service.rules import load_rule_set, parse_gcg, replay
from lexicon_service.server import create_server
from tests.game_helpers import tiles_of, two_tile_lexicons, two_tile_play

RULE_SET = "pl-scrabble"


@pytest.fixture(scope="module")
def lexicon_dir(tmp_path_factory):
    return two_tile_lexicons(tmp_path_factory.mktemp("http-game-lexicons"), [RULE_SET])


@pytest.fixture(scope="module")
def servers(lexicon_dir, tmp_path_factory):
    db = tmp_path_factory.mktemp("http-games") / "games.db"
    srv, port = create_server("localhost:0", lexicon_dir, games_db=str(db))
    srv.start()
    app = create_app(srv.registry, servicers={"session": srv.game_sessions}, heartbeat=0.3, max_streams=3)
    web = HttpServer(app, "localhost:0").start()
    yield web, port, db
    web.stop()
    srv.stop(None).wait()


@pytest.fixture
def http(servers):
    with httpx.Client(base_url=servers[0].url, timeout=10) as client:
        yield client


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def new_game(http, seed: int = 7) -> dict:
    r = http.post("/v1/games", json={"lexicon": RULE_SET, "playerNames": ["Ann", "Bob"], "seed": str(seed)})
    assert r.status_code == 200, r.text
    return r.json()


def first_play(http, game: dict) -> str:
    rs = load_rule_set(RULE_SET)
    rack = http.get(f"/v1/games/{game['gameId']}", headers=bearer(game["playerTokens"][0])).json()["rack"]
    return two_tile_play(rs, tiles_of(rs, rack), "8H")


def test_create_get_move_record(http, servers):
    game = new_game(http)
    gid, (ann, bob) = game["gameId"], game["playerTokens"]
    assert game["ruleSet"] == RULE_SET and game["directorToken"] and game["version"] == "1"  # uint64: a string
    mine = http.get(f"/v1/games/{gid}", headers=bearer(ann)).json()
    assert mine["you"] == 0 and mine["rack"] and mine["status"] == "GAME_STATUS_PLAYING"
    watcher = http.get(f"/v1/games/{gid}").json()  # no token: an observer, who sees no rack
    assert watcher["you"] == -1 and watcher["rack"] == "" and watcher["board"] == mine["board"]

    play = first_play(http, game)
    r = http.post(f"/v1/games/{gid}:move", headers=bearer(ann), json={"play": play, "expectedVersion": "1"})
    assert r.status_code == 200, r.text
    moved = r.json()
    assert moved["version"] == "2" and moved["score"] > 0 and moved["game"]["turn"] == 1
    assert moved["game"]["board"] != mine["board"]
    # the answer is the gRPC servicer's, as a gRPC client sees it
    with grpc.insecure_channel(f"localhost:{servers[1]}") as ch:
        stub = session_pb2_grpc.GameSessionServiceStub(ch)
        seen = stub.GetGame(session_pb2.GetGameRequest(game_id=gid), metadata=[("authorization", f"Bearer {bob}")])
    bobs = http.get(f"/v1/games/{gid}", headers=bearer(bob)).json()
    assert list(seen.board) == bobs["board"] and seen.rack == bobs["rack"] and str(seen.version) == bobs["version"]

    r = http.post(f"/v1/games/{gid}:move", headers={"X-Game-Token": bob}, json={"pass": True})
    assert r.status_code == 200 and r.json()["version"] == "3"
    record = http.get(f"/v1/games/{gid}/record").json()
    assert record["version"] == "3" and f"#lexicon {RULE_SET}" in record["gcg"]
    assert replay(load_rule_set(RULE_SET), parse_gcg(record["gcg"])).ok
    # director actions
    director = bearer(game["directorToken"])
    r = http.post(f"/v1/games/{gid}:adjustScore", headers=director, json={"player": 1, "delta": 5, "reason": "typo"})
    assert r.status_code == 200 and r.json()["game"]["players"][1]["score"] == 5
    r = http.post(f"/v1/games/{gid}:undo", headers=director, json={"reason": "mistake"})
    assert r.status_code == 200 and r.json()["game"]["players"][1]["score"] == 5  # the adjustment stays
    r = http.post(f"/v1/games/{gid}:end", headers=bearer(ann), json={"reason": "bored"})
    assert (r.status_code, r.json()["error"]["status"]) == (403, "PERMISSION_DENIED")
    r = http.post(f"/v1/games/{gid}:end", headers=director, json={"reason": "time"})
    assert r.status_code == 200 and r.json()["game"]["status"] == "GAME_STATUS_ENDED"


def test_refusals_have_grpcs_codes_and_messages(http, servers):
    game = new_game(http, seed=3)
    gid, ann, bob = game["gameId"], *game["playerTokens"]
    play = first_play(http, game)
    with grpc.insecure_channel(f"localhost:{servers[1]}") as ch:
        stub = session_pb2_grpc.GameSessionServiceStub(ch)
        cases = ((bob, {"play": play}, {"play": play}), (ann, {"play": "88 KOT"}, {"play": "88 KOT"}),
                 (ann, {"pass": True, "expectedVersion": "9"}, {"pass": True, "expected_version": 9}),
                 ("forged", {"pass": True}, {"pass": True}))
        for token, body, fields in cases:
            r = http.post(f"/v1/games/{gid}:move", headers=bearer(token), json=body)
            with pytest.raises(grpc.RpcError) as info:
                stub.SubmitMove(session_pb2.SubmitMoveRequest(game_id=gid, **fields),
                                metadata=[("authorization", f"Bearer {token}")], timeout=5)
            err = info.value
            assert r.json()["error"]["status"] == err.code().name, (body, r.text)
            assert r.json()["error"]["message"] == err.details()
            assert r.status_code == api.HTTP_STATUS[err.code().name]
            trailing = dict(err.trailing_metadata() or ())
            for key in ("lexicon-reason", "lexicon-version"):
                assert r.headers.get(key) == trailing.get(key)
    assert r.status_code == 401
    refused = http.post(f"/v1/games/{gid}:move", headers=bearer(bob), json={"play": play})
    assert (refused.status_code, refused.headers["lexicon-reason"]) == (400, "NOT_YOUR_TURN")
    assert http.get("/v1/games/0123456789abcdef").json()["error"]["status"] == "NOT_FOUND"
    bad = http.post(f"/v1/games/{gid}:move", headers=bearer(ann), json={"play": 5})
    assert bad.status_code == 400 and bad.json()["error"]["status"] == "INVALID_ARGUMENT"
    assert http.post("/v1/games", json={"lexicon": "xx", "playerNames": ["A", "B"]}).status_code == 404
    assert http.get(f"/v1/games/{gid}").json()["version"] == "1"  # nothing changed


def read_events(lines, count: int, timeout: float = 5.0):
    """The next `count` SSE events, as (event name, id, data dict), of an iterator over a response's
    lines (`response.iter_lines()`, made once per response), and the comments seen on the way."""
    events, comments, block = [], [], []
    deadline = time.monotonic() + timeout
    for line in lines:
        assert time.monotonic() < deadline, (events, comments)
        if line.startswith(":"):
            comments.append(line)
        elif line:
            block.append(line)
        elif block:
            fields = dict(item.split(": ", 1) for item in block)
            events.append((fields.get("event", "message"), fields.get("id"), json.loads(fields["data"])))
            block = []
            if len(events) == count:
                break
    return events, comments


def test_event_stream_sends_history_then_live_events(http, servers):
    game = new_game(http, seed=11)
    gid, ann, bob = game["gameId"], *game["playerTokens"]
    play = first_play(http, game)
    http.post(f"/v1/games/{gid}:move", headers=bearer(ann), json={"play": play}).raise_for_status()
    with httpx.Client(base_url=servers[0].url, timeout=10) as watcher:
        with watcher.stream("GET", f"/v1/games/{gid}/events", headers=bearer(bob)) as stream:
            assert stream.status_code == 200
            assert stream.headers["content-type"].startswith("text/event-stream")
            lines = stream.iter_lines()
            history, _ = read_events(lines, 2)
            assert [(e[2]["kind"], e[1]) for e in history] == [("created", "1"), ("play", "2")]
            assert history[1][2]["player"] == 0 and history[1][2]["score"] > 0 and history[1][2]["rack"] == ""
            threading.Timer(0.8, lambda: http.post(f"/v1/games/{gid}:move", headers=bearer(bob),
                                                   json={"pass": True})).start()
            live, comments = read_events(lines, 1)
            assert comments, "a heartbeat every 0.3 s while waiting"
            (name, event_id, event), = live
            assert name == "message" and event_id == "3" and event["kind"] == "pass" and event["player"] == 1
            assert event["rack"] == http.get(f"/v1/games/{gid}", headers=bearer(bob)).json()["rack"]  # Bob's own
        # resuming after a version (as a reconnecting EventSource does with Last-Event-ID)
        with watcher.stream("GET", f"/v1/games/{gid}/events", headers={"Last-Event-ID": "2"}) as stream:
            (_, event_id, event), = read_events(stream.iter_lines(), 1)[0]
            assert event_id == "3" and event["rack"] == ""  # an observer sees no rack
        # the stream ends with the game
        director = bearer(game["directorToken"])
        http.post(f"/v1/games/{gid}:end", headers=director, json={"reason": "done"}).raise_for_status()
        with watcher.stream("GET", f"/v1/games/{gid}/events?after_version=3") as stream:
            events, _ = read_events(stream.iter_lines(), 99)
            assert [e[2]["kind"] for e in events] == ["end"]
        for path, status, code in ((f"/v1/games/{gid}/events?after_version=x", 400, "INVALID_ARGUMENT"),
                                   ("/v1/games/0123456789abcdef/events", 404, "NOT_FOUND")):
            r = watcher.get(path)
            assert (r.status_code, r.json()["error"]["status"]) == (status, code)
        r = watcher.get(f"/v1/games/{gid}/events", headers=bearer("forged"))
        assert r.status_code == 401


def test_event_streams_are_bounded_and_end_when_clients_leave(http, servers):
    web = servers[0]
    game = new_game(http, seed=5)
    gid = game["gameId"]
    clients = [httpx.Client(base_url=web.url, timeout=10) for _ in range(4)]
    try:
        streams = []
        for client in clients[:3]:
            s = client.stream("GET", f"/v1/games/{gid}/events")
            streams.append((s, s.__enter__()))
        # each line iterator is kept while its stream should stay open: httpx closes the connection when
        # an abandoned iterator is dropped, and the server then ends that stream (the 4th was let in)
        lines = [response.iter_lines() for _, response in streams]
        for stream_lines in lines:
            assert read_events(stream_lines, 1)[0][0][2]["kind"] == "created"
        time.sleep(0.6)  # past a heartbeat and a poll: streams whose clients had gone would have ended
        # streamed: were a 4th stream let in, its status fails the test instead of an endless read
        with clients[3].stream("GET", f"/v1/games/{gid}/events") as r:
            assert r.status_code == 429
            r.read()
            assert r.json()["error"]["status"] == "RESOURCE_EXHAUSTED"
        for s, _ in streams:
            s.__exit__(None, None, None)
        deadline = time.monotonic() + 5  # noticed at the next heartbeat, the thread ends within a poll
        while time.monotonic() < deadline:
            r = clients[3].send(clients[3].build_request("GET", f"/v1/games/{gid}/events"), stream=True)
            if r.status_code == 200:
                r.close()
                break
            r.read()
            time.sleep(0.2)
        assert r.status_code == 200
    finally:
        for client in clients:
            client.close()


def test_openapi_lists_the_game_routes(http):
    spec = http.get("/openapi.json").json()
    for route in api.SESSION_ROUTES:
        assert spec["paths"][route.path][route.method.lower()]["operationId"] == route.rpc
    assert spec["paths"][api.WATCH_PATH]["get"]["operationId"] == "WatchGame"



@contextlib.contextmanager
def watched_game(lexicon_dir, tmp_path, *, http_stops_with_grpc: bool = False, poll: float = 0.25):
    """(gRPC server, HTTP server, the lines of an event stream on a new game, past its first event);
    both servers stopped on exit. `http_stops_with_grpc`: as `serve --http` wires them; `poll`: how often
    a watcher reads the store."""
    srv, _ = create_server("localhost:0", lexicon_dir, games_db=str(tmp_path / "games.db"))
    srv.game_sessions.poll = poll
    srv.start()
    web = HttpServer(create_app(srv.registry, servicers={"session": srv.game_sessions}), "localhost:0").start()
    if http_stops_with_grpc:
        srv.on_stop.append(web.stop)
    try:
        with httpx.Client(base_url=web.url, timeout=10) as client:
            gid = new_game(client)["gameId"]
            with client.stream("GET", f"/v1/games/{gid}/events") as stream:
                lines = stream.iter_lines()
                assert read_events(lines, 1)[0][0][2]["kind"] == "created"
                yield srv, web, lines
    finally:
        web.stop()
        srv.stop(None).wait()


def in_thread_until_stream_ends(stop, lines):
    """The events a stream still sends while `stop` runs in another thread."""
    stopper = threading.Thread(target=stop)
    stopper.start()
    rest, _ = read_events(lines, 1)
    stopper.join()
    return rest


@pytest.mark.parametrize("poll", [0.25, 60.0])
def test_event_streams_end_when_the_server_stops(lexicon_dir, tmp_path, poll):
    """However long a watcher would wait for the store (`poll`), the stop wakes it."""
    before = set(threading.enumerate())
    with watched_game(lexicon_dir, tmp_path, poll=poll) as (_, web, lines):
        started = time.monotonic()
        assert in_thread_until_stream_ends(web.stop, lines) == []  # the stream ends, no more events
        assert time.monotonic() - started < 3  # not the 5 s of uvicorn's graceful shutdown
    # once stopped, none of these servers' threads runs: a build in this process may fork again
    assert not [t.name for t in set(threading.enumerate()) - before]


def test_a_server_stopping_ends_its_http_event_streams_before_closing_the_games(lexicon_dir, tmp_path):
    # as `serve --http` does: the HTTP server stops first, so a watcher's stream just ends (no
    # rpc-error event saying that the game store is closed)
    with watched_game(lexicon_dir, tmp_path, http_stops_with_grpc=True) as (srv, _, lines):
        assert in_thread_until_stream_ends(lambda: srv.stop(None).wait(), lines) == []  # ended, no error event


def test_with_server_tokens_the_game_token_goes_in_x_game_token(lexicon_dir, tmp_path):
    srv, _ = create_server("localhost:0", lexicon_dir, games_db=str(tmp_path / "games.db"), tokens=["server-secret"])
    srv.start()
    app = create_app(srv.registry, tokens=["server-secret"], servicers={"session": srv.game_sessions})
    web = HttpServer(app, "localhost:0").start()
    try:
        with httpx.Client(base_url=web.url, timeout=10) as client:
            assert client.post("/v1/games", json={"lexicon": RULE_SET, "playerNames": ["A", "B"]}).status_code == 401
            server = bearer("server-secret")
            game = client.post("/v1/games", headers=server, json={"lexicon": RULE_SET, "playerNames": ["A", "B"]}).json()
            gid, ann = game["gameId"], game["playerTokens"][0]
            assert client.get(f"/v1/games/{gid}", headers=bearer(ann)).status_code == 401  # not the server's token
            mine = client.get(f"/v1/games/{gid}", headers={**server, "X-Game-Token": ann}).json()
            assert mine["you"] == 0 and mine["rack"]
            r = client.post(f"/v1/games/{gid}:move", headers={**server, "X-Game-Token": ann}, json={"pass": True})
            assert r.status_code == 200 and r.json()["version"] == "2"
            assert client.get(f"/v1/games/{gid}/events").status_code == 401
            with client.stream("GET", f"/v1/games/{gid}/events", headers={**server, "X-Game-Token": ann}) as stream:
                events, _ = read_events(stream.iter_lines(), 2)
                assert events[1][2]["kind"] == "pass" and events[1][2]["rack"] == mine["rack"]  # Ann's own event
    finally:
        web.stop()
        srv.stop(None).wait()

