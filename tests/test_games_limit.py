"""The bound on server-held games in progress (`serve --max-games`): CreateGame beyond it gets
RESOURCE_EXHAUSTED (HTTP 429); ended games do not count, a game whose end is undone counts again, and
the count survives a restart (it is kept in the games database, in the transaction of each append)."""

from __future__ import annotations

import sqlite3

import grpc
import httpx
import pytest

from lexicon_service.errors import TooManyGames
from lexicon_service.games.sessions import GameSessions
from lexicon_service.games.store import SqliteStore
from lexicon_service.grpc_gen import session_pb2, session_pb2_grpc
from lexicon_service.rules import load_rule_set
from tests.game_helpers import FakeClock, find_play, game_servers, two_tile_lexicons

RULE_SET = "pl-scrabble"


def test_games_in_progress_are_bounded_and_ended_ones_do_not_count(make_store):
    rs = load_rule_set(RULE_SET)
    store = make_store()
    service = GameSessions(store, clock=FakeClock(), max_games=2)
    first, tokens, director, _ = service.create_game(RULE_SET, rs, ["A", "B"], seed=1)
    service.create_game(RULE_SET, rs, ["A", "B"], seed=2)
    with pytest.raises(TooManyGames, match="2 games in progress"):
        service.create_game(RULE_SET, rs, ["A", "B"], seed=3)
    assert store.live_games() == 2
    state, _, _ = service.get_game(first, None)
    service.submit_move(first, tokens[0], play=find_play(rs, [], state.racks[0], max_tiles=2))
    service.end_game(first, director, "test")
    assert store.live_games() == 1
    third = service.create_game(RULE_SET, rs, ["A", "B"], seed=3)[0]
    with pytest.raises(TooManyGames):
        service.create_game(RULE_SET, rs, ["A", "B"], seed=4)
    service.undo_last_move(first, director, "the end was a mistake")  # the game is in progress again
    assert service.get_game(first, None)[0].status == "playing"
    assert store.live_games() == 3
    store.close()
    reopened = make_store()  # a restart: the count is in the database
    assert reopened.live_games() == 3
    with pytest.raises(TooManyGames):
        GameSessions(reopened, clock=FakeClock(), max_games=3).create_game(RULE_SET, rs, ["A", "B"], seed=5)


def test_a_database_made_before_the_count_gets_it_from_its_log(tmp_path):
    rs = load_rule_set(RULE_SET)
    path = tmp_path / "games.db"
    store = SqliteStore(path, synchronous="OFF")
    service = GameSessions(store, clock=FakeClock(), max_games=None)
    ids = [service.create_game(RULE_SET, rs, ["A", "B"], seed=i) for i in range(3)]
    service.end_game(ids[0][0], ids[0][2], "done")
    store.close()
    with sqlite3.connect(path) as conn:
        conn.execute("DROP TABLE live_games")
    reopened = SqliteStore(path, synchronous="OFF")
    try:
        assert reopened.live_games() == 2
    finally:
        reopened.close()


@pytest.fixture(scope="module")
def servers(tmp_path_factory):
    lexicons = two_tile_lexicons(tmp_path_factory.mktemp("limit-lexicons"), [RULE_SET])
    db = tmp_path_factory.mktemp("limit-games") / "games.db"
    with game_servers(lexicons, db, max_games=1) as (_, port, web):
        yield web, port


def test_create_game_beyond_the_limit_is_resource_exhausted_and_http_429(servers):
    web, port = servers
    body = {"lexicon": RULE_SET, "playerNames": ["Ann", "Bob"]}
    with httpx.Client(base_url=web.url, timeout=10) as http, grpc.insecure_channel(f"localhost:{port}") as channel:
        stub = session_pb2_grpc.GameSessionServiceStub(channel)
        created = http.post("/v1/games", json=body)
        assert created.status_code == 200, created.text
        refused = http.post("/v1/games", json=body)
        assert refused.status_code == 429 and "1 games in progress" in refused.text, refused.text
        with pytest.raises(grpc.RpcError) as info:
            stub.CreateGame(session_pb2.CreateGameRequest(lexicon=RULE_SET, player_names=["Ann", "Bob"]), timeout=10)
        assert info.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert "--max-games" in info.value.details()
        game = created.json()
        ended = http.post(f"/v1/games/{game['gameId']}:end", json={"reason": "done"},
                          headers={"Authorization": f"Bearer {game['directorToken']}"})
        assert ended.status_code == 200, ended.text
        assert http.post("/v1/games", json=body).status_code == 200
