"""The server-wide director key (`serve --director-key-file`): ListGames (gRPC and HTTP, one plain function)
lists every game in progress, or one tournament's games, as their director sees them (no rack); the key
directs any game (adjust, undo, end); a wrong key is PERMISSION_DENIED (403), a server without a key says
the feature is off; no answer or log line ever carries the key."""

from __future__ import annotations

import logging

import grpc
import httpx
import pytest

from lexicon_service.grpc_gen import session_pb2, session_pb2_grpc
from lexicon_service.http import HttpServer, create_app
from lexicon_service.rules import load_rule_set
from lexicon_service.server import create_server
from tests.game_helpers import tiles_of, two_tile_lexicons, two_tile_play

RULE_SET = "pl-scrabble"
KEY = "operator-key-0123456789-abcdef"


@pytest.fixture(scope="module")
def lexicon_dir(tmp_path_factory):
    return two_tile_lexicons(tmp_path_factory.mktemp("director-key-lexicons"), [RULE_SET])


def _serve(lexicon_dir, db, director_key):
    srv, port = create_server("localhost:0", lexicon_dir, games_db=str(db), director_key=director_key)
    srv.start()
    app = create_app(srv.registry, servicers={"session": srv.game_sessions, "tournament": srv.tournament_servicer})
    web = HttpServer(app, "127.0.0.1:0").start()
    return srv, port, web


@pytest.fixture(scope="module")
def keyed(lexicon_dir, tmp_path_factory):
    srv, port, web = _serve(lexicon_dir, tmp_path_factory.mktemp("keyed") / "games.db", KEY)
    with httpx.Client(base_url=web.url, timeout=10) as http, grpc.insecure_channel(f"localhost:{port}") as channel:
        yield http, session_pb2_grpc.GameSessionServiceStub(channel), port
    web.stop()
    srv.stop(None).wait()


def _game(http, names=("Jan Novák", "Eva"), **extra) -> dict:
    r = http.post("/v1/games", json={"lexicon": RULE_SET, "playerNames": list(names), "seed": "5", **extra})
    assert r.status_code == 200, r.text
    return r.json()


def key_header(token=KEY) -> dict:
    return {"X-Game-Token": token}


def test_the_key_lists_every_game_and_directs_each_over_grpc_and_http(keyed, caplog):
    http, stub, _ = keyed
    caplog.set_level(logging.DEBUG)
    games = [_game(http), _game(http, computerPlayers=[{"seat": 1, "level": "best"}]), _game(http)]
    ids = {g["gameId"] for g in games}
    listed = http.get("/v1/games", headers=key_header())
    assert listed.status_code == 200, listed.text
    answer = listed.json()
    assert ids <= {g["gameId"] for g in answer["games"]} and not answer["truncated"]
    assert all(g["rack"] == "" and g["you"] == -1 for g in answer["games"])  # the director sees no rack here
    over_grpc = stub.ListGames(session_pb2.ListGamesRequest(), metadata=[("authorization", f"Bearer {KEY}")])
    assert [g.game_id for g in over_grpc.games] == [g["gameId"] for g in answer["games"]]

    first = games[0]
    rs = load_rule_set(RULE_SET)
    jan = key_header(first["playerTokens"][0])
    rack = http.get(f"/v1/games/{first['gameId']}", headers=jan).json()["rack"]
    http.post(f"/v1/games/{first['gameId']}:move", headers=jan,
              json={"play": two_tile_play(rs, tiles_of(rs, rack), "8H")}).raise_for_status()
    for action, body in ((":adjustScore", {"player": 1, "delta": 4, "reason": "late"}), (":undo", {"reason": "slip"}),
                         (":end", {"reason": "hall closes"})):
        r = http.post(f"/v1/games/{first['gameId']}{action}", headers=key_header(), json=body)
        assert r.status_code == 200, r.text
    ended = http.get(f"/v1/games/{first['gameId']}", headers=key_header()).json()
    assert ended["status"] == "GAME_STATUS_ENDED" and [p.get("score", 0) for p in ended["players"]] == [0, 4]
    record = http.get(f"/v1/games/{first['gameId']}/record", headers=key_header()).json()["gcg"]
    assert "director adjustment: late" in record and "hall closes" in record
    assert first["gameId"] not in {g["gameId"] for g in http.get("/v1/games", headers=key_header()).json()["games"]}

    player_view = http.get(f"/v1/games/{games[2]['gameId']}", headers=key_header(games[2]["playerTokens"][0])).text
    assert KEY not in player_view and KEY not in caplog.text


@pytest.mark.parametrize("token, status, code", [
    (None, 401, grpc.StatusCode.UNAUTHENTICATED),
    ("wrong-key-0123456789-abcdef!", 403, grpc.StatusCode.PERMISSION_DENIED),
    ("game-director", 403, grpc.StatusCode.PERMISSION_DENIED),
])
def test_only_the_key_lists_games(keyed, token, status, code):
    http, stub, _ = keyed
    game = _game(http)
    if token == "game-director":  # a game's own director token directs that game only
        token = game["directorToken"]
    r = http.get("/v1/games", headers=key_header(token) if token else {})
    assert r.status_code == status and r.json()["error"]["status"] == code.name
    with pytest.raises(grpc.RpcError) as refused:
        stub.ListGames(session_pb2.ListGamesRequest(), metadata=[("x-game-token", token)] if token else [])
    assert refused.value.code() == code
    wrong = http.post(f"/v1/games/{game['gameId']}:end", headers=key_header("wrong-key-0123456789-abcdef!"),
                      json={"reason": "x"})
    assert wrong.status_code == 401  # not the key, nor one of the game's tokens


def test_one_tournaments_games(keyed):
    http, _, _ = keyed
    created = http.post("/v1/tournaments", json={"name": "Liga", "lexicon": RULE_SET, "rounds": 3}).json()
    tid, director = created["tournamentId"], {"X-Director-Key": created["directorKey"]}
    players = [{"name": n} for n in ("Ann", "Bob", "Cy", "Dan")]
    http.post(f"/v1/tournaments/{tid}/players", headers=director, json={"players": players}).raise_for_status()
    http.post(f"/v1/tournaments/{tid}/rounds:pair", headers=director,
              json={"method": "PAIRING_METHOD_ROUND_ROBIN"}).raise_for_status()
    tables = http.post(f"/v1/tournaments/{tid}/rounds:start", headers=director, json={"round": 1}).json()["tables"]
    outside = _game(http)
    listed = http.get("/v1/games", params={"tournament_id": tid}, headers=key_header()).json()["games"]
    assert {g["gameId"] for g in listed} == {t["gameId"] for t in tables} and len(listed) == 2
    assert outside["gameId"] not in {g["gameId"] for g in listed}
    unknown = http.get("/v1/games", params={"tournament_id": "0123456789ab"}, headers=key_header())
    assert unknown.status_code == 404
    no_key = http.get("/v1/games", params={"tournament_id": tid})
    assert no_key.status_code == 401  # the key is checked before the tournament is looked at


def test_without_a_key_the_feature_says_it_is_off(lexicon_dir, tmp_path):
    srv, port, web = _serve(lexicon_dir, tmp_path / "games.db", None)
    try:
        r = httpx.get(web.url + "/v1/games", headers=key_header(), timeout=10)
        assert r.status_code == 400 and r.json()["error"]["message"].startswith("DIRECTOR_KEY_OFF")
        with grpc.insecure_channel(f"localhost:{port}") as channel:
            with pytest.raises(grpc.RpcError) as refused:
                session_pb2_grpc.GameSessionServiceStub(channel).ListGames(
                    session_pb2.ListGamesRequest(), metadata=[("x-game-token", KEY)])
        assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
        assert "director-key-file" in refused.value.details()
    finally:
        web.stop()
        srv.stop(None).wait()


def test_serve_reads_the_key_from_a_file_and_refuses_a_weak_one(tmp_path, monkeypatch, caplog):
    import argparse

    from lexicon_service.command_line import UserError
    from lexicon_service.commands.serve import _director_key

    monkeypatch.delenv("LEXICON_DIRECTOR_KEY_FILE", raising=False)
    log = logging.getLogger("test")
    key_file = tmp_path / "director.key"
    key_file.write_text(f"# the operator's key\n\n{KEY}\n", encoding="utf-8")
    key_file.chmod(0o600)
    assert _director_key(argparse.Namespace(director_key_file=str(key_file)), log) == KEY
    assert _director_key(argparse.Namespace(director_key_file=None), log) is None
    key_file.write_text("short\n", encoding="utf-8")
    with pytest.raises(UserError, match="at least 16 characters"):
        _director_key(argparse.Namespace(director_key_file=str(key_file)), log)
    with pytest.raises(UserError, match="cannot read"):
        _director_key(argparse.Namespace(director_key_file=str(tmp_path / "none")), log)
    key_file.write_text(KEY, encoding="utf-8")
    key_file.chmod(0o644)
    with caplog.at_level(logging.WARNING):
        _director_key(argparse.Namespace(director_key_file=str(key_file)), log)
    assert "chmod 600" in caplog.text and KEY not in caplog.text


def test_the_client_lists_the_games_with_the_key_from_the_environment(keyed, capsys, monkeypatch):
    from lexicon_service.cli import main

    http, _, port = keyed
    game = _game(http, names=("Zofia Wiśniewska", "Ola"))
    monkeypatch.setenv("LEXICON_GAME_TOKEN", KEY)  # the key off the command line
    assert main(["client", "--address", f"localhost:{port}", "game", "list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert any(line.startswith(game["gameId"]) and ">Zofia Wiśniewska 0 - Ola 0" in line for line in lines)
    monkeypatch.setenv("LEXICON_GAME_TOKEN", game["directorToken"])
    assert main(["client", "--address", f"localhost:{port}", "game", "list"]) != 0
    assert "PERMISSION_DENIED: the token is not the server's director key" in capsys.readouterr().err
