"""What players and observers of a server-held game may learn, and retries, over gRPC and HTTP alike:
no answer shows anyone another player's rack, the seed or the bag's order while the game is on; a
request id belongs to the player who sent it (another player's same id is their own request); a
retry of a call that was carried out (move, exchange, pass, the final pass, challenge) gets its first
answer again, never an error. A randomised run with several games, players, observers and a
director, request ids from a small pool (so that they collide), retries at once and later."""

from __future__ import annotations

import json
import random
import re
import sqlite3

import grpc
import httpx
import pytest
from google.protobuf import json_format

from lexicon_service.errors import InvalidInput
from lexicon_service.games.events import loads
from lexicon_service.games.sessions import GameSessions
from lexicon_service.games.state import ENDED, FINAL_PASS
from lexicon_service.games.store import SqliteStore
from lexicon_service.grpc_gen import session_pb2, session_pb2_grpc
from lexicon_service.http import HttpServer, create_app
from lexicon_service.rules import load_rule_set, parse_gcg
from lexicon_service.server import create_server
from tests.game_helpers import find_play, tiles_of, two_tile_lexicons, two_tile_play

RULE_SET = "pl-scrabble"
ID_POOL = ("1", "2", "move-3")  # what clients numbering their own requests send: ids collide across players
HTTP_ROUTES = {"CreateGame": ("POST", "/v1/games"), "GetGame": ("GET", "/v1/games/{}"),
               "SubmitMove": ("POST", "/v1/games/{}:move"), "Challenge": ("POST", "/v1/games/{}:challenge"),
               "GetGameRecord": ("GET", "/v1/games/{}/record"), "EndGame": ("POST", "/v1/games/{}:end")}


class Refusal(Exception):
    def __init__(self, status: str, reason: str, message: str) -> None:
        super().__init__(f"{status} {reason}: {message}")
        self.status = status
        self.reason = reason


class Grpc:
    """Calls as a gRPC client makes them; requests and answers as proto3 JSON dicts, as over HTTP."""

    name = "grpc"

    def __init__(self, port: int) -> None:
        self.channel = grpc.insecure_channel(f"localhost:{port}")
        self.stub = session_pb2_grpc.GameSessionServiceStub(self.channel)

    def call(self, rpc: str, body: dict, token: str | None = None) -> dict:
        request = json_format.ParseDict(body, getattr(session_pb2, f"{rpc}Request")(),
                                        ignore_unknown_fields=True)  # (to run it against older servers)
        metadata = [("authorization", f"Bearer {token}")] if token else []
        try:
            answer = getattr(self.stub, rpc)(request, metadata=metadata, timeout=10)
        except grpc.RpcError as err:
            raise Refusal(err.code().name, dict(err.trailing_metadata() or ()).get("lexicon-reason", ""),
                          err.details()) from None
        return json_format.MessageToDict(answer, always_print_fields_with_no_presence=True)

    def events(self, game_id: str, token: str | None, count: int) -> list[dict]:
        stream = self.stub.WatchGame(session_pb2.WatchGameRequest(game_id=game_id),
                                     metadata=[("authorization", f"Bearer {token}")] if token else [], timeout=10)
        out = []
        for event in stream:
            out.append(json_format.MessageToDict(event, always_print_fields_with_no_presence=True))
            if len(out) == count:
                stream.cancel()
                break
        return out

    def close(self) -> None:
        self.channel.close()


class Http:
    name = "http"

    def __init__(self, url: str) -> None:
        self.client = httpx.Client(base_url=url, timeout=10)

    def call(self, rpc: str, body: dict, token: str | None = None) -> dict:
        method, path = HTTP_ROUTES[rpc]
        body = dict(body)
        path = path.format(body.pop("gameId", ""))
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        r = self.client.request(method, path, headers=headers, json=body if method == "POST" else None)
        if r.status_code != 200:
            error = r.json()["error"]
            raise Refusal(error["status"], r.headers.get("lexicon-reason", ""), error["message"])
        return r.json()

    def events(self, game_id: str, token: str | None, count: int) -> list[dict]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        out = []
        with self.client.stream("GET", f"/v1/games/{game_id}/events", headers=headers) as stream:
            assert stream.status_code == 200
            for line in stream.iter_lines():
                if line.startswith("data: "):
                    out.append(json.loads(line[6:]))
                    if len(out) == count:
                        break
        return out

    def close(self) -> None:
        self.client.close()


@pytest.fixture(scope="module")
def lexicon_dir(tmp_path_factory):
    return two_tile_lexicons(tmp_path_factory.mktemp("secrecy-lexicons"), [RULE_SET])


@pytest.fixture
def servers(lexicon_dir, tmp_path):
    srv, port = create_server("localhost:0", lexicon_dir, games_db=str(tmp_path / "games.db"))
    srv.start()
    app = create_app(srv.registry, servicers={"session": srv.game_sessions}, heartbeat=0.2)
    web = HttpServer(app, "localhost:0").start()
    transports = [Grpc(port), Http(web.url)]
    yield srv.game_sessions.games, transports
    for transport in transports:
        transport.close()
    web.stop()
    srv.stop(None).wait()


def create(transport, seed: int, names=("Ann", "Bob"), rule: str = "") -> dict:
    body = {"lexicon": RULE_SET, "playerNames": list(names), "seed": str(seed)}
    if rule:
        body["challengeRule"] = rule
    return transport.call("CreateGame", body)


# --- the cases the attack found ------------------------------------------------------------------------------
@pytest.mark.parametrize("transport_index", [0, 1], ids=["grpc", "http"])
def test_a_request_id_belongs_to_its_player(servers, transport_index):
    games, transports = servers
    t = transports[transport_index]
    game = create(t, 7)
    gid, (ann, bob) = game["gameId"], game["playerTokens"]
    anns = t.call("SubmitMove", {"gameId": gid, "pass": True, "requestId": "1"}, ann)
    bobs = t.call("SubmitMove", {"gameId": gid, "pass": True, "requestId": "1"}, bob)
    # Bob's pass is his own request: made, answered with his rack, and Ann's turn again
    assert not bobs["replayed"] and bobs["version"] == "3" and bobs["game"]["you"] == 1
    assert bobs["rack"] == t.call("GetGame", {"gameId": gid}, bob)["rack"] != anns["rack"]
    assert bobs["game"]["turn"] == 0
    # each one's retry is answered to that player alone
    again = t.call("SubmitMove", {"gameId": gid, "pass": True, "requestId": "1"}, bob)
    assert again["replayed"] and again["version"] == "3" and again["rack"] == bobs["rack"]
    again = t.call("SubmitMove", {"gameId": gid, "pass": True, "requestId": "1"}, ann)
    assert again["replayed"] and again["version"] == "2" and again["game"]["you"] == 0
    assert again["rack"] == anns["rack"]
    # an id is one request: a challenge cannot reuse a move's
    with pytest.raises(Refusal) as refused:
        t.call("Challenge", {"gameId": gid, "requestId": "1"}, ann)
    assert refused.value.status == "INVALID_ARGUMENT" and "request_id" in str(refused.value)
    with pytest.raises(Refusal) as refused:
        t.call("Challenge", {"gameId": gid, "requestId": "x" * 129}, ann)
    assert refused.value.status == "INVALID_ARGUMENT" and "request_id: at most 128" in str(refused.value)


def test_the_seed_is_shown_to_the_director_only_after_the_end(servers):
    games, (t, web) = servers
    game = create(t, 7)
    gid, tokens, director = game["gameId"], game["playerTokens"], game["directorToken"]
    for token in (*tokens, director, None):
        for transport in (t, web):
            assert "seed" not in transport.call("GetGameRecord", {"gameId": gid}, token)["gcg"]
    t.call("EndGame", {"gameId": gid, "reason": "over"}, director)
    assert "#note seed 7" in web.call("GetGameRecord", {"gameId": gid}, director)["gcg"]
    for token in (*tokens, None):
        assert "seed" not in web.call("GetGameRecord", {"gameId": gid}, token)["gcg"]


def test_a_retried_challenge_gets_its_first_answer(servers):
    games, (t, web) = servers
    rs = load_rule_set(RULE_SET)
    game = create(t, 5, rule="CHALLENGE_RULE_SINGLE")
    gid, (ann, bob) = game["gameId"], game["playerTokens"]
    state = games.fold_rows(gid, games.store.load(gid, 0))
    play = two_tile_play(rs, state.racks[0], "8H")
    moved = t.call("SubmitMove", {"gameId": gid, "play": play}, ann)
    assert moved["version"] == "2"
    challenged = web.call("Challenge", {"gameId": gid, "requestId": "c-1", "expectedVersion": "2"}, bob)
    assert challenged["playStood"] and not challenged["replayed"]
    for transport, body in ((t, {"requestId": "c-1"}), (web, {"requestId": "c-1"}), (t, {"expectedVersion": "2"}),
                            (web, {"requestId": "c-1", "expectedVersion": "2"})):
        again = transport.call("Challenge", {"gameId": gid, **body}, bob)
        assert again["replayed"] and again["version"] == challenged["version"], body
        assert again["outcome"] == challenged["outcome"] and again["game"]["you"] == 1
    with pytest.raises(Refusal) as refused:  # the same id from Ann is her own challenge, of her own play
        t.call("Challenge", {"gameId": gid, "requestId": "c-1"}, ann)
    assert refused.value.reason in ("NOTHING_TO_CHALLENGE", "OWN_PLAY")


def test_a_retried_final_pass_and_final_challenge_are_answered_again(tmp_path):
    """A player goes out; the final pass (or a failed challenge, which ends the game too) is retried with
    its request id or its expected_version after the game ended because of it."""
    rs = load_rule_set(RULE_SET)
    everything = type("AcceptAll", (), {"is_admissible": lambda self, key: True})()
    for final in ("pass", "challenge"):
        for retry in ({"request_id": "x"}, {"expected_version": None}):
            store = SqliteStore(tmp_path / f"{final}-{len(retry)}-{'request_id' in retry}.db", synchronous="OFF")
            service = GameSessions(store)
            game_id, tokens, director, _ = service.create_game(RULE_SET, rs, ["A", "B"], seed=3,
                                                               challenge_rule="single")
            state = went_out(service, game_id, tokens, rs)
            assert state.status == FINAL_PASS
            passer = state.turn
            kw = {"request_id": "x"} if "request_id" in retry else {"expected_version": state.version}
            if final == "pass":
                first = service.submit_move(game_id, tokens[passer], pass_=True, **kw)
                again = service.submit_move(game_id, tokens[passer], pass_=True, **kw)
            else:
                first = service.challenge(game_id, tokens[passer], lexicon_of=lambda name: everything, **kw)
                again = service.challenge(game_id, tokens[passer], lexicon_of=lambda name: everything, **kw)
                assert (again.outcome, again.invalid_words) == (first.outcome, first.invalid_words) == ("stands", ())
            assert first.state.status == ENDED and not first.replayed
            assert again.replayed and again.version == first.version and again.player == passer
            assert again.rack == first.rack
            store.close()


def went_out(service, game_id, tokens, rs):
    """Play the game on (any legal placement, words unjudged) until a player goes out."""
    for _ in range(200):
        state, _, _ = service.get_game(game_id, None)
        if state.status != "playing":
            return state
        p = state.turn
        play = find_play(rs, state.board.to_rows(), state.racks[p])
        if play is None:
            service.submit_move(game_id, tokens[p], exchange=rack_text(state.racks[p][:1])
                                if len(state.bag) >= 7 else "", pass_=len(state.bag) < 7)
        else:
            service.submit_move(game_id, tokens[p], play=play)
    raise AssertionError("nobody went out")


def rack_text(tiles) -> str:
    return "".join(t if len(t) == 1 else f"[{t}]" for t in tiles)


OLD_SCHEMA = """
CREATE TABLE events (game_id TEXT NOT NULL, version INTEGER NOT NULL, kind TEXT NOT NULL, data TEXT NOT NULL,
    request_id TEXT, PRIMARY KEY (game_id, version)) WITHOUT ROWID;
CREATE UNIQUE INDEX events_request ON events (game_id, request_id) WHERE request_id IS NOT NULL;
"""


def test_a_database_whose_request_ids_were_the_games_is_migrated_and_its_games_go_on(tmp_path):
    rs = load_rule_set(RULE_SET)
    made = SqliteStore(tmp_path / "new.db", synchronous="OFF")
    service = GameSessions(made)
    game_id, tokens, _, _ = service.create_game(RULE_SET, rs, ["A", "B"], seed=2)
    first = service.submit_move(game_id, tokens[0], pass_=True, request_id="1")
    rows = made._reader().execute("SELECT game_id, version, kind, data, request_id FROM events").fetchall()
    made.close()
    old = sqlite3.connect(tmp_path / "old.db")  # the database as the server wrote it before ids were scoped
    old.executescript(OLD_SCHEMA)
    old.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?)", rows)
    old.commit()
    old.close()
    store = SqliteStore(tmp_path / "old.db", synchronous="OFF")
    service = GameSessions(store)
    assert store.request_version(game_id, "1", 0) == 2 and store.request_version(game_id, "1", 1) is None
    again = service.submit_move(game_id, tokens[0], pass_=True, request_id="1")
    assert again.replayed and again.version == first.version and again.rack == first.rack
    bobs = service.submit_move(game_id, tokens[1], pass_=True, request_id="1")  # B's own "1": a new pass
    assert not bobs.replayed and bobs.version == 3 and bobs.player == 1
    indexes = [r[0] for r in store._reader().execute("SELECT name FROM sqlite_master WHERE type = 'index'")]
    assert "events_request" not in indexes
    store.close()
    store = SqliteStore(tmp_path / "old.db", synchronous="OFF")  # opening it again changes nothing
    assert store.request_version(game_id, "1", 1) == 3
    store.close()


# --- the randomised run ----------------------------------------------------------------------------------------
class Secrets:
    """What each viewer of each game must not learn, read from the service's own state of the game."""

    def __init__(self, games: GameSessions) -> None:
        self.games = games

    def state(self, game_id: str):
        return self.games.fold_rows(game_id, self.games.store.load(game_id, 0))

    def check(self, game: dict, viewer, answer, what: str) -> None:
        """`viewer`: a player index, "observer" or "director". `answer`: a dict or a list of events."""
        state = self.state(game["gameId"])
        text = json.dumps(answer, ensure_ascii=False)
        ended = state.status == ENDED
        if not (viewer == "director" and ended):
            assert "seed" not in text.lower(), (what, viewer)
        assert not _keys(answer) & {"bag", "seed", "racks"}, (what, _keys(answer))
        if ended:
            return
        own = state.rack_text(viewer) if isinstance(viewer, int) else None
        others = [state.rack_text(q) for q in range(state.n_players) if q != viewer and viewer != "director"]
        for rack in _values_of(answer, "rack"):
            assert rack in ("", own) or what == "events", (what, viewer, rack, own)
        if what == "events":
            for event in answer:
                assert not event["rack"] or event["player"] == viewer, (viewer, event)
        # A rack as text anywhere, but where it is public: a play taken back returns its tiles to the rack in
        # the order they were played; shorter texts may be on the board or in the record by chance.
        played = " ".join(e.play for _, k, d in self.games.store.load(game["gameId"]) if k == "play"
                          for e in [loads(k, d)])
        for rack in others:
            if len(rack) >= 5 and rack not in played:
                assert rack not in text, (what, viewer, rack)
        bag = state.bag
        if len(bag) >= 7:  # the next tiles to be drawn, in order, are nowhere
            upcoming = "".join(bag[-7:])
            assert upcoming not in text and upcoming[::-1] not in text, (what, viewer)
        if what == "record":
            names = state.players
            record = parse_gcg(answer["gcg"])
            for event in record.events:
                if viewer != "director" and (not isinstance(viewer, int) or event.player != names[viewer]):
                    assert event.rack is None, (viewer, event)


def _keys(value) -> set:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in _keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in _keys(v)}
    return set()


def _values_of(value, key: str):
    if isinstance(value, dict):
        for k, v in value.items():
            if k == key:
                yield v
            yield from _values_of(v, key)
    elif isinstance(value, list):
        for v in value:
            yield from _values_of(v, key)


ALLOWED = {"FAILED_PRECONDITION", "ABORTED", "INVALID_ARGUMENT"}  # of a request no one made before


def test_randomised_players_observers_and_retries_over_grpc_and_http(servers):
    games, transports = servers
    rng = random.Random(20261126)
    rs = load_rule_set(RULE_SET)
    secrets = Secrets(games)
    rules = ("CHALLENGE_RULE_SINGLE", "CHALLENGE_RULE_DOUBLE", "CHALLENGE_RULE_PENALTY")
    table = []
    for i in range(4):
        names = ("Ann", "Bob", "Cyril")[: 2 + i % 2]
        table.append(create(rng.choice(transports), rng.choice((0, 1, 7, 42, 10 ** 6 + i)), names, rules[i % 3]))
    committed = []  # (game, player, rpc, body, first answer) of calls carried out, with an id or a version
    used = {}  # (game id, player) -> request ids that player's carried-out calls used
    counts = {"committed": 0, "replayed": 0, "reused": 0, "retried": 0, "refused": 0, "final": 0, "challenges": 0}

    def checked(transport, game, viewer, rpc, body, token):
        answer = transport.call(rpc, body, token)
        secrets.check(game, viewer, answer, rpc)
        return answer

    def retry(game, p, rpc, body, first):
        transport = rng.choice(transports)
        try:
            again = checked(transport, game, p, rpc, body, game["playerTokens"][p])
        except Refusal as refusal:  # a retried call that was carried out is never told it failed
            raise AssertionError(f"{transport.name} {rpc} {body} by {p}, first {first}: {refusal}") from None
        assert again.get("replayed") and again["version"] == first["version"], (rpc, body, first, again)
        assert again["game"]["you"] == p
        if rpc == "Challenge":
            assert (again["outcome"], again["invalidWords"]) == (first["outcome"], first["invalidWords"])
        else:
            assert (again["score"], again["words"]) == (first["score"], first["words"])
        counts["retried"] += 1

    for step in range(700):
        game = rng.choice(table)
        gid = game["gameId"]
        state = secrets.state(gid)
        transport = rng.choice(transports)
        roll = rng.random()
        if roll < 0.15:  # observers and the director read
            viewer, token = rng.choice((("observer", None), ("director", game["directorToken"])))
            rpc = rng.choice(("GetGame", "GetGameRecord", "events"))
            if rpc == "events":
                secrets.check(game, viewer, transport.events(gid, token, state.version), "events")
            else:
                checked(transport, game, viewer, rpc, {"gameId": gid}, token)
            continue
        if roll < 0.22 and committed:  # a call whose answer was lost is sent again, later
            retry(*rng.choice(committed))
            continue
        on_turn = rng.random() < 0.8
        p = state.turn if on_turn else rng.randrange(state.n_players)
        token = game["playerTokens"][p]
        if rng.random() < 0.2:
            checked(transport, game, p, rng.choice(("GetGame", "GetGameRecord")), {"gameId": gid}, token)
            if rng.random() < 0.3:
                secrets.check(game, p, transport.events(gid, token, state.version), "events")
        body = {"gameId": gid}
        kind = rng.random()
        if state.status == FINAL_PASS and kind < 0.7:
            body["pass"] = True
        elif state.last_play is not None and state.last_play.player != p and kind < 0.3:
            rpc = "Challenge"
        elif kind < 0.82:
            play = find_play(rs, state.board.to_rows(), state.racks[p], max_tiles=rng.choice((2, 3, 7)))
            body["play" if play else "pass"] = play or True
        elif kind < 0.9 and len(state.bag) >= 7:
            body["exchange"] = rack_text(state.racks[p][:2])
        else:
            body["pass"] = True
        rpc = "Challenge" if "play" not in body and "pass" not in body and "exchange" not in body else "SubmitMove"
        choice = rng.random()
        if choice < 0.45:
            body["requestId"] = rng.choice(ID_POOL)
        elif choice < 0.6:
            body["requestId"] = f"u{step}"
        choice = rng.random()
        if choice < 0.4:
            body["expectedVersion"] = str(state.version)
        elif choice < 0.45 and state.version > 1:
            body["expectedVersion"] = str(state.version - 1)
        final = state.status == FINAL_PASS and (body.get("pass") or rpc == "Challenge")
        try:
            answer = checked(transport, game, p, rpc, body, token)
        except Refusal as refusal:
            assert refusal.status in ALLOWED, (rpc, body, refusal)
            counts["refused"] += 1
            if refusal.status == "INVALID_ARGUMENT" and "request_id" in str(refusal):
                # an id this player used before, for another request: refused, never another's answer
                assert body.get("requestId") in used.get((gid, p), ()), (rpc, body, p, used)
                counts["reused"] += 1
            continue
        assert answer["game"]["you"] == p  # every answer is the caller's own view
        if answer.get("replayed"):  # only ever a request this player made before
            counts["replayed"] += 1
            if "requestId" in body:
                assert body["requestId"] in used.get((gid, p), ()), (rpc, body, p, used)
            continue
        counts["committed"] += 1
        counts["final"] += bool(final)
        counts["challenges"] += rpc == "Challenge"
        assert int(answer["version"]) > state.version
        if "requestId" in body:
            used.setdefault((gid, p), set()).add(body["requestId"])
        if "requestId" in body or "expectedVersion" in body:
            committed.append((game, p, rpc, body, answer))
            if rng.random() < 0.3:  # the answer was lost: sent again at once
                retry(game, p, rpc, body, answer)
    for game in table:
        state = secrets.state(game["gameId"])
        if state.status != ENDED:
            transports[0].call("EndGame", {"gameId": game["gameId"], "reason": "time"}, game["directorToken"])
        for transport in transports:
            record = transport.call("GetGameRecord", {"gameId": game["gameId"]}, game["directorToken"])["gcg"]
            assert re.search(r"#note seed \d+", record)
            for token in (*game["playerTokens"], None):
                assert "seed" not in transport.call("GetGameRecord", {"gameId": game["gameId"]}, token)["gcg"]
    for game, p, rpc, body, first in committed:  # and after the end
        retry(game, p, rpc, body, first)
    print(counts)
    assert counts["committed"] > 100 and counts["retried"] > 50
    assert counts["replayed"] + counts["reused"] > 10  # ids from the small pool met again: answered or refused
    assert counts["final"] >= 1 and counts["challenges"] >= 5


def test_a_request_id_sent_again_with_another_move_is_refused_not_replayed(tmp_path):
    """The same player's request id with a different move is not a retry: answering it as one would
    tell the player a move was made that was not (their exchange silently dropped)."""
    rs = load_rule_set(RULE_SET)
    store = SqliteStore(tmp_path / "games.db", synchronous="OFF")
    service = GameSessions(store)
    game_id, tokens, _, _ = service.create_game(RULE_SET, rs, ["A", "B"], seed=3)
    first = service.submit_move(game_id, tokens[0], pass_=True, request_id="r")
    again = service.submit_move(game_id, tokens[0], pass_=True, request_id="r")
    assert again.replayed and again.version == first.version
    service.submit_move(game_id, tokens[1], pass_=True, request_id="r")  # Bob's own id "r"
    rack = rack_text(service.get_game(game_id, None)[0].racks[0][:1])
    with pytest.raises(InvalidInput, match="already used by your other move"):
        service.submit_move(game_id, tokens[0], exchange=rack, request_id="r")
    exchanged = service.submit_move(game_id, tokens[0], exchange=rack, request_id="r2")
    assert not exchanged.replayed
    with pytest.raises(InvalidInput, match="already used by your other move"):
        service.submit_move(game_id, tokens[0], pass_=True, request_id="r2")
    store.close()
