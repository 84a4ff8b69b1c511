"""A game stream that delivers no event for the idle bound ends (gRPC: UNAVAILABLE, WATCH_IDLE and the
version to resume after; HTTP: an rpc-error event, then the stream closes), freeing its slot; heartbeats
do not count as events, and a stream that keeps delivering is not ended. (Before, an idle watcher held
its slot for as long as it stayed connected.)"""

from __future__ import annotations

import threading
import time

import grpc
import httpx
import pytest

from lexicon_service.commands.game_client import _watch
from lexicon_service.grpc_gen import session_pb2, session_pb2_grpc
from lexicon_service.http.app import create_app
from lexicon_service.http.server import HttpServer
from lexicon_service.server import create_server
from tests.game_helpers import create, two_tile_lexicons

RULE_SET = "pl-scrabble"
IDLE = 0.6


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    lexicon_dir = two_tile_lexicons(tmp_path_factory.mktemp("idle-lexicons"), [RULE_SET])
    srv, port = create_server("localhost:0", lexicon_dir, streams_per_client=1, stream_idle=IDLE)
    with srv:
        yield srv, port


def _idle_end(stream) -> tuple[list[int], grpc.RpcError, float]:
    """The versions a stream delivered, the error it ended with, and the seconds after its last event."""
    versions, last = [], time.monotonic()
    with pytest.raises(grpc.RpcError) as ended:
        for event in stream:
            versions.append(event.version)
            last = time.monotonic()
    return versions, ended.value, time.monotonic() - last


def test_an_idle_watch_ends_with_unavailable_naming_the_version_and_frees_its_slot(server):
    _, port = server
    created, (ann, bob), _ = create(port, RULE_SET)
    with grpc.insecure_channel(f"localhost:{port}") as channel:
        stub = session_pb2_grpc.GameSessionServiceStub(channel)
        request = session_pb2.WatchGameRequest(game_id=created.game_id)
        versions, ended, quiet = _idle_end(stub.WatchGame(request, timeout=10))
        assert versions == [1]
        assert ended.code() == grpc.StatusCode.UNAVAILABLE, ended.details()
        assert dict(ended.trailing_metadata()) == {"lexicon-reason": "WATCH_IDLE", "lexicon-version": "1"}
        assert "after_version 1" in ended.details()
        assert IDLE <= quiet < IDLE + 2
        # the client's one slot (streams_per_client=1) is free again
        again = stub.WatchGame(session_pb2.WatchGameRequest(game_id=created.game_id, after_version=1), timeout=10)
        ann.pass_()
        versions, ended, _ = _idle_end(again)  # ended idle too, its slot free for the next test
        assert versions == [2] and dict(ended.trailing_metadata())["lexicon-version"] == "2"
    for player in (ann, bob):
        player.close()


def test_events_within_the_bound_keep_a_watch_open(server):
    _, port = server
    created, (ann, bob), _ = create(port, RULE_SET)
    with grpc.insecure_channel(f"localhost:{port}") as channel:
        stub = session_pb2_grpc.GameSessionServiceStub(channel)
        stream = stub.WatchGame(session_pb2.WatchGameRequest(game_id=created.game_id), timeout=10)
        assert next(stream).version == 1
        for player in (ann, bob, ann):  # an event every IDLE/2 s, 3 of them: longer than IDLE in all
            time.sleep(IDLE / 2)
            player.pass_()
            assert next(stream).version > 1
        versions, ended, _ = _idle_end(stream)
        assert versions == []
        assert dict(ended.trailing_metadata())["lexicon-version"] == "4"
    for player in (ann, bob):
        player.close()


def test_an_idle_event_stream_ends_with_an_rpc_error_despite_heartbeats(server):
    srv, _ = server
    app = create_app(srv.registry, servicers={"session": srv.game_sessions}, heartbeat=0.1)
    web = HttpServer(app, "localhost:0").start()
    try:
        with httpx.Client(base_url=web.url, timeout=10) as http:
            game = http.post("/v1/games", json={"lexicon": RULE_SET, "playerNames": ["Ann", "Bob"]}).json()
            started = time.monotonic()
            with http.stream("GET", f"/v1/games/{game['gameId']}/events") as events:
                assert events.status_code == 200
                lines = list(events.iter_lines())  # to its end: the server closes it
            took = time.monotonic() - started
    finally:
        web.stop()
    assert lines.count(": heartbeat") >= 3  # heartbeats came, and did not keep the stream open
    assert "event: rpc-error" in lines
    error = lines[lines.index("event: rpc-error") + 1]
    assert '"status":"UNAVAILABLE"' in error.replace(" ", "") and "after_version 1" in error
    assert IDLE <= took < IDLE + 3


def test_client_game_watch_resumes_after_an_idle_end(server, capsys):
    _, port = server
    created, (ann, bob), director = create(port, RULE_SET, director_game=True)

    def play_after_idle_ends():
        time.sleep(IDLE * 2.5)  # the watch has been ended idle at least once
        ann.pass_()
        time.sleep(IDLE * 1.5)
        director.stub.EndGame(session_pb2.EndGameRequest(game_id=created.game_id, reason="test"),
                              metadata=director.md, timeout=10)

    mover = threading.Thread(target=play_after_idle_ends)
    mover.start()
    with grpc.insecure_channel(f"localhost:{port}") as channel:
        _watch(session_pb2_grpc.GameSessionServiceStub(channel), session_pb2, created.game_id, [], True)
    mover.join()
    printed = [line for line in capsys.readouterr().out.splitlines() if line]
    assert [line.split('"version":')[1].split(",")[0].strip(' "') for line in printed] == ["1", "2", "3"]
    for player in (ann, bob, director):
        player.close()
