"""One client, or one game, cannot take every WatchGame / event-stream slot of the process: past its bound
it gets RESOURCE_EXHAUSTED (HTTP 429) naming the bound, while another client's stream on another game is
served. (Before: 56 WatchGame streams of one client on one idle game refused every other game's players.)"""

from __future__ import annotations

import grpc
import httpx
import pytest

from lexicon_service.grpc_gen import session_pb2, session_pb2_grpc
from lexicon_service.http.app import create_app
from lexicon_service.http.server import HttpServer
from lexicon_service.server import create_server
from lexicon_service.server.stream_quota import StreamQuota
from tests.game_helpers import two_tile_lexicons

RULE_SET = "pl-scrabble"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    lexicon_dir = two_tile_lexicons(tmp_path_factory.mktemp("quota-lexicons"), [RULE_SET])
    srv, port = create_server("[::]:0", lexicon_dir, streams_per_client=3, streams_per_game=3)
    with srv:
        yield srv, port


def _new_game(stub) -> str:
    request = session_pb2.CreateGameRequest(lexicon=RULE_SET, player_names=["A", "B"])
    return stub.CreateGame(request, timeout=10).game_id


def _refusal(stream) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as refused:
        next(stream)
    return refused.value


def test_watch_game_bounds_each_client_and_each_game(server):
    _, port = server
    # two client addresses: the IPv4 and the IPv6 loopback
    with grpc.insecure_channel(f"127.0.0.1:{port}") as a, grpc.insecure_channel(f"[::1]:{port}") as b:
        stub_a, stub_b = session_pb2_grpc.GameSessionServiceStub(a), session_pb2_grpc.GameSessionServiceStub(b)
        game_1, game_2 = _new_game(stub_a), _new_game(stub_a)
        watch = lambda stub, game: stub.WatchGame(session_pb2.WatchGameRequest(game_id=game), timeout=20)  # noqa: E731
        held = [watch(stub_a, game_1) for _ in range(3)]
        try:
            assert all(next(stream).version == 1 for stream in held)
            refused = _refusal(watch(stub_a, game_2))  # client A holds its bound, on any game
            assert refused.code() == grpc.StatusCode.RESOURCE_EXHAUSTED and "max 3 per client" in refused.details()
            other = watch(stub_b, game_2)  # another client, another game: served
            held.append(other)
            assert next(other).version == 1
            refused = _refusal(watch(stub_b, game_1))  # game 1 holds its bound, whoever asks
            assert refused.code() == grpc.StatusCode.RESOURCE_EXHAUSTED and "max 3 per game" in refused.details()
        finally:
            for stream in held:
                stream.cancel()


def test_event_stream_bound_per_client_answers_429(server):
    srv, _ = server
    app = create_app(srv.registry, servicers={"session": srv.game_sessions}, heartbeat=0.3,
                     stream_quota=StreamQuota(per_client=1, per_game=16))
    web = HttpServer(app, "localhost:0").start()
    try:
        with httpx.Client(base_url=web.url, timeout=10) as http:
            game = http.post("/v1/games", json={"lexicon": RULE_SET, "playerNames": ["Ann", "Bob"]}).json()
            path = f"/v1/games/{game['gameId']}/events"
            with http.stream("GET", path) as first:
                assert first.status_code == 200
                next(first.iter_lines())
                second = http.get(path)
                assert second.status_code == 429 and "max 1 per client" in second.text
    finally:
        web.stop()
