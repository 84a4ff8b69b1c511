"""Games with only computer players: one client starts at most COMPUTER_GAMES_PER_MINUTE a minute,
over gRPC and HTTP alike (RESOURCE_EXHAUSTED / 429 naming the limit); games with a person are not held back."""

from __future__ import annotations

import grpc
import httpx
import pytest

from lexicon_service.games.creation_rate import COMPUTER_GAMES_PER_MINUTE, ComputerGameRate
from lexicon_service.errors import TooManyComputerGames
from lexicon_service.grpc_gen import session_pb2, session_pb2_grpc
from tests.game_helpers import FakeClock, game_servers, two_tile_lexicons

RULE_SET = "pl-scrabble"


@pytest.fixture(scope="module")
def servers(tmp_path_factory):
    lexicons = two_tile_lexicons(tmp_path_factory.mktemp("computer-games"), [RULE_SET])
    with game_servers(lexicons, tmp_path_factory.mktemp("db") / "games.db") as (_, port, web):
        yield web, port


def _computers_only(seats: int = 2) -> session_pb2.CreateGameRequest:
    return session_pb2.CreateGameRequest(lexicon=RULE_SET, player_names=[f"C{i}" for i in range(seats)],
                                         computer_players=[session_pb2.ComputerPlayer(seat=i, level="beginner")
                                                           for i in range(seats)])


def test_one_client_starts_few_games_of_computers_only(servers):
    web, port = servers
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel, httpx.Client(base_url=web.url, timeout=10) as http:
        stub = session_pb2_grpc.GameSessionServiceStub(channel)
        for _ in range(COMPUTER_GAMES_PER_MINUTE):
            stub.CreateGame(_computers_only(), timeout=10)
        with pytest.raises(grpc.RpcError) as info:
            stub.CreateGame(_computers_only(), timeout=10)
        assert info.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert f"at most {COMPUTER_GAMES_PER_MINUTE} games with only computer players" in info.value.details()
        body = {"lexicon": RULE_SET, "playerNames": ["C0", "C1"],
                "computerPlayers": [{"seat": 0, "level": "beginner"}, {"seat": 1, "level": "beginner"}]}
        refused = http.post("/v1/games", json=body)  # the same client over HTTP
        assert refused.status_code == 429 and "only computer players" in refused.text, refused.text
        person = _computers_only()
        del person.computer_players[1]  # a person in seat 1: not held back
        assert stub.CreateGame(person, timeout=10).game_id


def test_the_window_is_a_minute_per_client():
    clock = FakeClock()
    rate = ComputerGameRate(per_minute=2, clock=clock)
    rate.take("ipv4:10.0.0.1")
    rate.take("ipv4:10.0.0.1")
    with pytest.raises(TooManyComputerGames):
        rate.take("ipv4:10.0.0.1")
    rate.take("ipv4:10.0.0.2")  # another client
    clock.advance(60)
    rate.take("ipv4:10.0.0.1")
