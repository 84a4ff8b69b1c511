"""A game against the computer has no director unless its creator asks for one (director_game); a
director's routes then show no computer seat's rack or exchanged tiles while the game is on (#36 item 5)."""

from __future__ import annotations

import json
import time

import grpc
import httpx
import pytest

from lexicon_service.grpc_gen import session_pb2, session_pb2_grpc
from tests.game_helpers import game_servers, two_tile_lexicons

RULE_SET = "pl-scrabble"


@pytest.fixture(scope="module")
def servers(tmp_path_factory):
    lexicons = two_tile_lexicons(tmp_path_factory.mktemp("director-game"), [RULE_SET])
    with game_servers(lexicons, tmp_path_factory.mktemp("db") / "games.db") as (_, port, web), \
            grpc.insecure_channel(f"127.0.0.1:{port}") as channel, httpx.Client(base_url=web.url, timeout=10) as http:
        yield session_pb2_grpc.GameSessionServiceStub(channel), http


def _versus_computer(**options) -> session_pb2.CreateGameRequest:
    """The computer in seat 0, so it moves at once; Ann in seat 1."""
    return session_pb2.CreateGameRequest(lexicon=RULE_SET, player_names=["Robot", "Ann"], seed=7,
                                         computer_players=[session_pb2.ComputerPlayer(seat=0, level="best")],
                                         **options)


def _auth(token: str):
    return [("authorization", f"Bearer {token}")]


def test_a_game_against_the_computer_has_no_director_token(servers):
    stub, http = servers
    created = stub.CreateGame(_versus_computer(), timeout=10)
    assert created.director_token == "" and created.player_tokens[1]
    answer = http.post("/v1/games", json={"lexicon": RULE_SET, "playerNames": ["Robot", "Ann"],
                                          "computerPlayers": [{"seat": 0}]})
    assert answer.status_code == 200 and not answer.json().get("directorToken"), answer.text
    people = stub.CreateGame(session_pb2.CreateGameRequest(lexicon=RULE_SET, player_names=["Ann", "Bob"]), timeout=10)
    assert people.director_token  # a game of people keeps its director


def _after_computer_move(stub, game_id: str, token: str) -> session_pb2.GetGameResponse:
    for _ in range(200):
        game = stub.GetGame(session_pb2.GetGameRequest(game_id=game_id), metadata=_auth(token), timeout=10)
        if game.turn == 1:
            return game
        time.sleep(0.05)
    raise AssertionError("the computer did not move")


def test_a_director_game_hides_the_computers_rack_until_the_end(servers):
    stub, http = servers
    created = stub.CreateGame(_versus_computer(director_game=True), timeout=10)
    director, ann, gid = created.director_token, created.player_tokens[1], created.game_id
    assert director
    _after_computer_move(stub, gid, ann)
    game = stub.GetGame(session_pb2.GetGameRequest(game_id=gid), metadata=_auth(director), timeout=10)
    assert game.rack == "" and game.you == -1
    web = http.get(f"/v1/games/{gid}", headers={"authorization": f"Bearer {director}"})
    assert web.status_code == 200 and not web.json().get("rack"), web.text
    record = stub.GetGameRecord(session_pb2.GetGameRecordRequest(game_id=gid), metadata=_auth(director),
                                timeout=10).gcg
    robot_lines = [line for line in record.splitlines() if line.startswith(">Robot:")]
    assert robot_lines and all(line.split()[1][0].isdigit() or line.split()[1][0] in "ABCDEFGHIJKLMNO-"
                               for line in robot_lines), record
    observer = stub.GetGameRecord(session_pb2.GetGameRecordRequest(game_id=gid), timeout=10).gcg
    assert [line for line in observer.splitlines() if line.startswith(">Robot:")] == robot_lines
    assert "#rack2 " in record and "#rack1 " not in record, record  # Ann's rack shown, the computer's not
    web_record = http.get(f"/v1/games/{gid}/record", headers={"authorization": f"Bearer {director}"})
    assert web_record.status_code == 200 and web_record.json()["gcg"] == record
    stream = stub.WatchGame(session_pb2.WatchGameRequest(game_id=gid), metadata=_auth(director), timeout=3)
    events = []
    for event in stream:
        events.append(event)
        if event.version >= game.version:
            stream.cancel()
            break
    assert events and all(e.rack == "" for e in events)
    with http.stream("GET", f"/v1/games/{gid}/events", headers={"authorization": f"Bearer {director}"}) as sse:
        for line in sse.iter_lines():
            if line.startswith("data:"):
                data = json.loads(line[5:])
                assert not data.get("rack"), data
                if int(data.get("version", 0)) >= game.version:
                    break
    stub.EndGame(session_pb2.EndGameRequest(game_id=gid, reason="test"), metadata=_auth(director), timeout=10)
    ended = stub.GetGameRecord(session_pb2.GetGameRecordRequest(game_id=gid), metadata=_auth(director),
                               timeout=10).gcg
    assert [line for line in ended.splitlines() if line.startswith(">Robot:")][0] != robot_lines[0]
