"""A tournament on a real server: 12 players, 7 Swiss rounds, every game played to the end by computer
players; standings and the .t export checked against the games' own GCG records; a director's
correction; the HTTP routes' refusals."""

from __future__ import annotations

import time
from pathlib import Path

import httpx
import pytest

from lexicon_service.http import HttpServer, create_app
from lexicon_service.rules import parse_gcg
from lexicon_service.server import create_server
from lexicon_service.tournaments.standings import standings, standings_json
from lexicon_service.tournaments.tsh import read_t
from lexicon_helpers import write_ab_lexicon

NAMES = ["Nováková Eva", "Dvořák Jan", "Wiśniewska Zofia", "Łukasz Żółkiewski", "Černý Petr", "Smith John",
         "Kowalczyk Anna", "Šťastná Marie", "O'Brien Seán", "Müller Jörg", "Ďurčo Ľubo", "Ng Mei"]


@pytest.fixture(scope="module")
def lexicon_dir(tmp_path_factory) -> Path:
    """Polish Scrabble with 14 tiles, A and B, words of them: a computer game ends in a few moves."""
    directory = tmp_path_factory.mktemp("tournament-lexicons") / "lex"
    directory.mkdir()
    write_ab_lexicon(directory, ["aa", "ab", "ba", "bb", "aab", "abba", "baba"])
    return directory


@pytest.fixture(scope="module")
def api(lexicon_dir, tmp_path_factory):
    db = tmp_path_factory.mktemp("tournament-db") / "games.db"
    server, _ = create_server("localhost:0", lexicon_dir, games_db=str(db))
    server.start()
    app = create_app(server.registry, servicers={"session": server.game_sessions,
                                                            "tournament": server.tournament_servicer})
    http = HttpServer(app, "127.0.0.1:0").start()
    with httpx.Client(base_url=f"http://127.0.0.1:{http.port}", timeout=30) as client:
        yield client, server
    http.stop()
    server.stop(None).wait()


def _wait_round(client, tid, rnd, timeout=20.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        games = client.get(f"/v1/tournaments/{tid}/games").json()["games"]
        if all(g["status"] == "done" for g in games if g["round"] == rnd):
            return games
        time.sleep(0.05)
    raise AssertionError(f"round {rnd} did not end")


def test_a_twelve_player_seven_round_swiss_played_by_computers(api):
    client, server = api
    created = client.post("/v1/tournaments", json={"name": "Turniej Łódź 2026", "lexicon": "pl-tiny", "rounds": 7,
                                                    "seed": 11}).json()
    assert "tournamentId" in created, created
    tid, key = created["tournamentId"], {"x-director-key": created["directorKey"]}
    players = [{"name": n, "rating": 1500 + 10 * i, "computer": "best"} for i, n in enumerate(NAMES)]
    assert client.post(f"/v1/tournaments/{tid}/players", json={"players": players}, headers=key).json() == \
        {"players": 12}
    for rnd in range(1, 8):
        paired = client.post(f"/v1/tournaments/{tid}/rounds:pair", json={}, headers=key).json()
        assert paired["round"] == rnd and len(paired["games"]) == 6
        tables = client.post(f"/v1/tournaments/{tid}/rounds:start", json={"round": rnd}, headers=key).json()
        assert len(tables["tables"]) == 6
        _wait_round(client, tid, rnd)
    view = client.get(f"/v1/tournaments/{tid}").json()
    exported = client.get(f"/v1/tournaments/{tid}:export").json()["text"]
    # every game's result, recomputed from its own GCG record
    disagreements = 0
    from_records = read_t(exported)
    for game in view["games"]:
        record = parse_gcg(server.games.record(game["gameId"])[0])
        final = {p.nick: s for p, s in zip(record.players, _final_scores(record))}
        one, two = game["player1"].replace(" ", "_"), game["player2"].replace(" ", "_")
        disagreements += (final[one], final[two]) != (game["score1"], game["score2"])
        mine = next(g for g in from_records.games if g.round == game["round"]
                    and {from_records.players[g.p1].name, from_records.players[g.p2].name}
                    == {game["player1"], game["player2"]})
        scores = (mine.s1, mine.s2) if from_records.players[mine.p1].name == game["player1"] else (mine.s2, mine.s1)
        disagreements += scores != (final[one], final[two])
    assert disagreements == 0
    shown = [{k: s.get(k, 0) for k in ("rank", "name", "wins", "losses", "spread")}  # proto3 JSON leaves out 0
             for s in view["divisions"][0]["standings"]]
    assert shown == standings_json(standings(from_records))["standings"]
    pairs = [frozenset((g["player1"], g["player2"])) for g in view["games"]]
    assert len(set(pairs)) == len(pairs) == 42  # Swiss, no repeat


def _final_scores(record) -> list[int]:
    """Each player's last cumulative score in a GCG record."""
    last = [0] * len(record.players)
    for event in record.events:
        last[record.player_index(event.player)] = event.cumulative
    return last


def test_import_correct_export_and_a_second_server_sees_it(api):
    client, server = api
    created = client.post("/v1/tournaments", json={"name": "Klub", "lexicon": "pl-tiny", "rounds": 6}).json()
    tid, key = created["tournamentId"], {"x-director-key": created["directorKey"]}
    text = (Path(__file__).parent / "data" / "tournaments" / "swiss9.t").read_text(encoding="utf-8")
    assert client.post(f"/v1/tournaments/{tid}:import", json={"format": "DIVISION_FORMAT_TSH", "text": text},
                       headers=key).json() == {"imported": 9}
    assert client.get(f"/v1/tournaments/{tid}:export").json()["text"] == text
    # a game played on a board, corrected by the director with a reason
    fixed = client.post(f"/v1/tournaments/{tid}/results", headers=key, json={
        "round": 1, "table": 1, "score1": 300, "score2": 301, "reason": "score slip: 301, not 509"})
    assert fixed.json() == {}
    view = client.get(f"/v1/tournaments/{tid}").json()
    assert view["corrections"] == [{"division": "A", "round": 1, "table": 1, "score1": 300, "score2": 301,
                                    "reason": "score slip: 301, not 509"}]
    # another server on the same database: the same tournament, the correction included
    from lexicon_service.tournaments.service import TournamentService
    from lexicon_service.tournaments.store import tournament_store_for
    other = TournamentService(tournament_store_for(server.games.store))
    assert other.view(tid).divisions["A"].round_games(1)[0].s2 == 301
    other.store.close()


@pytest.mark.parametrize("method, path, body, headers, status, field", [
    ("post", "/v1/tournaments", {"lexicon": "pl-tiny"}, {}, 400, "name"),
    ("post", "/v1/tournaments", {"name": "X", "lexicon": "pl-tiny", "rounds": 0}, {}, 400, "rounds"),
    ("post", "/v1/tournaments", {"name": "X", "lexicon": "nope"}, {}, 404, None),
    ("post", "/v1/tournaments", [1], {}, 400, "body"),
    ("post", "/{tid}/players", {"players": [{"name": "Jan\nNowak"}]}, "key", 400, "players[0].name"),
    ("post", "/{tid}/players", {"players": [{"name": "Jan"}]}, {}, 401, None),
    ("post", "/{tid}/players", {"players": [{"name": "Jan"}]}, {"x-director-key": "x"}, 403, None),
    ("post", "/{tid}/rounds:pair", {"method": "CHAOS"}, "key", 400, "method"),
    ("post", "/{tid}/rounds:start", {"round": 1}, "key", 400, "round"),
    ("post", "/{tid}/results", {"round": 1, "table": 1, "score1": 1, "score2": 2}, "key", 400, "reason"),
    ("post", "/{tid}:import", {"text": "Jan 1500 7; 400\n"}, "key", 400, "line 1"),
    ("post", "/{tid}:import", {"text": "Jan 1500\n"}, "key", 400, "line 1"),
    ("get", "/{tid}:export?division=B", None, {}, 400, "division"),
    ("get", "/v1/tournaments/0123456789ab", None, {}, 404, None),
    ("get", "/v1/tournaments/..%2F..", None, {}, 404, None),
])
def test_refusals_name_the_field(api, method, path, body, headers, status, field):
    client, _ = api
    created = client.post("/v1/tournaments", json={"name": "Odmowy", "lexicon": "pl-tiny"}).json()
    tid = created["tournamentId"]
    if headers == "key":
        headers = {"x-director-key": created["directorKey"]}
    url = path.replace("/{tid}", f"/v1/tournaments/{tid}")
    answer = client.request(method.upper(), url, json=body, headers=headers)
    assert answer.status_code == status, answer.text
    error = answer.json()["error"]
    if field:
        assert error["message"].startswith(f"{field}:") or field in error["message"], error


def test_grpc_tournament_service(api):
    import grpc

    from lexicon_service.grpc_gen import tournament_pb2 as pb
    from lexicon_service.grpc_gen import tournament_pb2_grpc

    _, server = api
    with grpc.insecure_channel(f"localhost:{server.port}") as channel:
        stub = tournament_pb2_grpc.TournamentServiceStub(channel)
        created = stub.CreateTournament(pb.CreateTournamentRequest(name="Liga", lexicon="pl-tiny", rounds=3, seed=4))
        key = (("x-director-key", created.director_key),)
        players = [pb.TournamentPlayer(name=n, computer="best") for n in NAMES[:5]]
        assert stub.AddPlayers(pb.AddPlayersRequest(tournament_id=created.tournament_id, players=players),
                               metadata=key).players == 5
        paired = stub.PairRound(pb.PairRoundRequest(tournament_id=created.tournament_id,
                                                    method=pb.PAIRING_METHOD_ROUND_ROBIN), metadata=key)
        assert paired.round == 1 and [g.player2 for g in paired.games][-1] == ""  # the bye
        assert paired.games[-1].score1 == 50
        started = stub.StartRound(pb.StartRoundRequest(tournament_id=created.tournament_id, round=1), metadata=key)
        assert len(started.tables) == 2 and all(s.token == "" for t in started.tables for s in t.seats)
        assert all(t.director_token for t in started.tables)  # the tournament's director may end a game
        with pytest.raises(grpc.RpcError) as err:
            stub.AddPlayers(pb.AddPlayersRequest(tournament_id=created.tournament_id,
                                                 players=[pb.TournamentPlayer(name="X\x01")]), metadata=key)
        assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "players[0].name" in err.value.details()
        with pytest.raises(grpc.RpcError) as err:
            stub.PairRound(pb.PairRoundRequest(tournament_id=created.tournament_id), metadata=(("x-director-key", "no"),))
        assert err.value.code() == grpc.StatusCode.PERMISSION_DENIED
        with pytest.raises(grpc.RpcError) as err:
            stub.GetTournament(pb.GetTournamentRequest(tournament_id="nope"))
        assert err.value.code() == grpc.StatusCode.NOT_FOUND
        view = stub.GetTournament(pb.GetTournamentRequest(tournament_id=created.tournament_id))
        assert view.name == "Liga" and len(view.divisions[0].standings) == 5
        text = stub.ExportDivision(pb.ExportDivisionRequest(tournament_id=created.tournament_id)).text
        assert text.splitlines()[0].startswith(NAMES[0] + " 0 ")


def _computer_tournament(client, players: int) -> tuple[str, dict]:
    created = client.post("/v1/tournaments", json={"name": "Kraków", "lexicon": "pl-tiny", "rounds": 2,
                                                    "seed": 3}).json()
    tid, key = created["tournamentId"], {"x-director-key": created["directorKey"]}
    entries = [{"name": f"Gracz {chr(65 + i // 26)}{chr(65 + i % 26)}", "computer": "best"} for i in range(players)]
    added = client.post(f"/v1/tournaments/{tid}/players", json={"players": entries}, headers=key)
    assert added.status_code == 200, added.text
    assert client.post(f"/v1/tournaments/{tid}/rounds:pair", json={}, headers=key).status_code == 200
    return tid, key


def test_computer_only_tables_of_tournament_rounds_keep_the_bound_on_computer_games(api):
    """A round of computer-only tables is one start for the director's client and holds at most
    MAX_COMPUTER_TABLES of them: CreateGame's bound on computer-only games holds through tournaments."""
    from lexicon_service.games.creation_rate import ComputerGameRate
    from lexicon_service.tournaments.service import MAX_COMPUTER_TABLES

    client, server = api
    sessions = server.tournament_servicer.tournaments.games
    saved, sessions.computer_game_rate = sessions.computer_game_rate, ComputerGameRate(per_minute=1)
    try:
        tid, key = _computer_tournament(client, 2 * MAX_COMPUTER_TABLES + 2)
        refused = client.post(f"/v1/tournaments/{tid}/rounds:start", json={"round": 1}, headers=key)
        assert refused.status_code == 400 and "round" in refused.text, refused.text
        tid, key = _computer_tournament(client, 4)
        started = client.post(f"/v1/tournaments/{tid}/rounds:start", json={"round": 1}, headers=key)
        assert len(started.json()["tables"]) == 2, started.text
        tid, key = _computer_tournament(client, 4)
        refused = client.post(f"/v1/tournaments/{tid}/rounds:start", json={"round": 1}, headers=key)
        assert refused.status_code == 429 and "computer_players" in refused.text, refused.text
    finally:
        sessions.computer_game_rate = saved
