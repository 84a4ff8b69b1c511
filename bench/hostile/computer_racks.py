"""Does a person playing against the computer see the computer's rack, by any route?

    python bench/hostile/computer_racks.py --lexicons LEXICONS [--processes 2] [--turns 40]

Starts `serve --processes N --http` with its defaults and plays two games of a person against the computer
(level best) to their end: one plain, one created as a director game (the person also holds the director
token). The person plays the top move of its hints. Before each of the person's moves, with each credential
it holds (its player token, the director token in the second game, none) it reads every route that shows a
game: gRPC GetGame, GetGameRecord, GetHint, WatchGame (one stream per credential, held through the game);
HTTP GET /v1/games/{id}, /record, /hint, the event stream, POST /v1/games:view and :analyse of the record it
was given; and the director's calls refused to a player (undo, adjustScore, end). Afterwards the computer's
rack at every version is folded from the server's own database, and every answer the person got while the
game was in progress is searched for it: the rack's text, and any word of its letters in another order.
Prints the answers read and the racks found in them (the target: 0).
"""

from __future__ import annotations

import argparse
import json
import re
import tempfile
import threading
from collections import Counter

import grpc
import httpx
from google.protobuf.json_format import MessageToJson
from live_server import live_server

from lexicon_service.games.sessions import GameSessions
from lexicon_service.games.store import SqliteStore
from lexicon_service.grpc_gen import session_pb2, session_pb2_grpc

PERSON, COMPUTER = 0, 1
MIN_RACK = 4


class Seen:
    """Every answer the person got, with the game's version when it asked (None: from a stream)."""

    def __init__(self) -> None:
        self.answers: list[tuple[int, str, str]] = []  # (version, route, text)
        self.lock = threading.Lock()

    def add(self, version: int, route: str, text: str) -> None:
        with self.lock:
            self.answers.append((version, route, text))


def _grpc_reads(stub, game_id: str, credentials: dict, version: int, seen: Seen) -> None:
    for name, metadata in credentials.items():
        for route, call, request in (("GetGame", stub.GetGame, session_pb2.GetGameRequest(game_id=game_id)),
                                     ("GetGameRecord", stub.GetGameRecord,
                                      session_pb2.GetGameRecordRequest(game_id=game_id)),
                                     ("GetHint", stub.GetHint, session_pb2.GetHintRequest(game_id=game_id, limit=20))):
            try:
                answer = call(request, metadata=metadata, timeout=30)
                seen.add(version, f"grpc {route} ({name})", MessageToJson(answer, ensure_ascii=False))
            except grpc.RpcError as exc:
                seen.add(version, f"grpc {route} ({name})", f"{exc.code().name} {exc.details()}")


def _http_reads(http: httpx.Client, game_id: str, credentials: dict, version: int, seen: Seen) -> None:
    for name, metadata in credentials.items():
        headers = dict(metadata)
        record = ""
        for route in ("", "/record", "/hint"):
            answer = http.get(f"/v1/games/{game_id}{route}", headers=headers)
            seen.add(version, f"http GET {route or '/'} ({name})", answer.text)
            if route == "/record" and answer.status_code == 200:
                record = answer.json()["gcg"]
        if record:
            for route, body in (("/v1/games:view", {"gcg": record}),
                                ("/v1/games:analyse", {"gcg": record, "lexicon": "pl-scrabble"})):
                seen.add(version, f"http POST {route} ({name})", http.post(route, json=body).text)
        for action, body in ((":undo", {}), (":adjustScore", {"player": COMPUTER, "delta": 0}), (":end", {})):
            if name == "player":  # refused to a player; a director's would change the game
                seen.add(version, f"http POST {action} ({name})",
                         http.post(f"/v1/games/{game_id}{action}", json=body, headers=headers).text)


def _watch(target: str, game_id: str, name: str, metadata, seen: Seen, done: threading.Event) -> None:
    with grpc.insecure_channel(target) as channel:
        stream = session_pb2_grpc.GameSessionServiceStub(channel).WatchGame(
            session_pb2.WatchGameRequest(game_id=game_id), metadata=metadata, timeout=900)
        threading.Thread(target=lambda: (done.wait(), stream.cancel()), daemon=True).start()
        try:
            for event in stream:
                seen.add(event.version, f"grpc WatchGame ({name})", MessageToJson(event, ensure_ascii=False))
        except grpc.RpcError:
            pass


def _http_watch(url: str, game_id: str, name: str, headers: dict, seen: Seen, done: threading.Event) -> None:
    with httpx.Client(base_url=url, timeout=900) as http, \
            http.stream("GET", f"/v1/games/{game_id}/events", headers=headers) as events:
        for line in events.iter_lines():
            if done.is_set():
                return
            if line.startswith("data:"):
                version = json.loads(line[5:]).get("version", 0)
                seen.add(int(version), f"http events ({name})", line)


def play_game(grpc_port: int, url: str, director_game: bool, turns: int) -> tuple[str, Seen]:
    """One game of the person against the computer, played to its end; (its id, what the person saw)."""
    seen, done = Seen(), threading.Event()
    with httpx.Client(base_url=url, timeout=60) as http, grpc.insecure_channel(f"[::1]:{grpc_port}") as channel:
        game = http.post("/v1/games", json={"lexicon": "pl-scrabble", "playerNames": ["Person", "Computer"],
                                            "computerPlayers": [{"seat": COMPUTER}], "allowHints": True,
                                            "directorGame": director_game}).json()
        game_id, token = game["gameId"], game["playerTokens"][PERSON]
        credentials = {"player": [("authorization", f"Bearer {token}")], "none": []}
        if game.get("directorToken"):
            credentials["director"] = [("authorization", f"Bearer {game['directorToken']}")]
        watchers = [threading.Thread(target=_watch, args=(f"[::1]:{grpc_port}", game_id, name, md, seen, done))
                    for name, md in credentials.items()]
        watchers += [threading.Thread(target=_http_watch, args=(url, game_id, name, dict(md), seen, done))
                     for name, md in credentials.items()]
        for thread in watchers:
            thread.start()
        stub = session_pb2_grpc.GameSessionServiceStub(channel)
        for _ in range(turns):
            state = _wait_for_turn(http, game_id, token)
            if state["status"] == "GAME_STATUS_ENDED":
                break
            version = int(state["version"])
            _grpc_reads(stub, game_id, credentials, version, seen)
            _http_reads(http, game_id, credentials, version, seen)
            _move(http, game_id, token)
        done.set()
    return game_id, seen


def _wait_for_turn(http: httpx.Client, game_id: str, token: str) -> dict:
    for _ in range(600):
        state = http.get(f"/v1/games/{game_id}", headers={"authorization": f"Bearer {token}"}).json()
        if state["status"] == "GAME_STATUS_ENDED" or state.get("turn", 0) == PERSON:
            return state
        threading.Event().wait(0.05)
    raise SystemExit("the computer did not move within 30 s")


def _move(http: httpx.Client, game_id: str, token: str) -> None:
    headers = {"authorization": f"Bearer {token}"}
    hint = http.get(f"/v1/games/{game_id}/hint", headers=headers).json()
    move = (hint.get("moves") or [{"play": "-"}])[0]["play"]
    body = {"pass": True} if move == "-" else {"exchange": move[1:]} if move.startswith("-") else {"play": move}
    answer = http.post(f"/v1/games/{game_id}:move", json=body, headers=headers)
    if answer.status_code != 200:
        http.post(f"/v1/games/{game_id}:move", json={"pass": True}, headers=headers)


def computer_racks(db: str, game_id: str) -> dict[int, str]:
    """The computer's rack after each version of the game, folded from the server's database."""
    store = SqliteStore(db)
    try:
        sessions = GameSessions(store)
        rows = store.load(game_id, 0)
        return {version: sessions.fold_rows(game_id, rows[:version]).rack_text(COMPUTER)
                for version in range(1, len(rows) + 1)}
    finally:
        store.close()


def leaks(seen: Seen, racks: dict[int, str]) -> tuple[list[str], int]:
    """Answers got while the game was in progress that hold the computer's rack of that moment, as a word of
    its letters in any order; and how many answers were not searched because that rack held fewer than
    MIN_RACK tiles (a word of one or two letters is anywhere on a board)."""
    last = max(racks)
    found, unsearched = [], 0
    for version, route, text in seen.answers:
        if version >= last or version not in racks:  # the game's end shows every rack
            continue
        tiles = sorted(re.findall(r"\[[^]]+\]|.", racks[version]))
        if len(tiles) < MIN_RACK:
            unsearched += 1
            continue
        words = re.findall(r"(?:\[[^]]+\]|[A-ZĄĆĘŁŃÓŚŹŻ?])+", text)
        if any(sorted(re.findall(r"\[[^]]+\]|.", word)) == tiles for word in words):
            found.append(f"version {version}, {route}: computer rack {racks[version]} in {text[:200]!r}")
    return found, unsearched


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lexicons", required=True)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--turns", type=int, default=40)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = f"{tmp}/games.db"
        games = []
        with live_server(args.lexicons, args.processes, db) as (grpc_port, url):
            for director_game in (False, True):
                games.append((director_game, *play_game(grpc_port, url, director_game, args.turns)))
        for director_game, game_id, seen in games:
            racks = computer_racks(db, game_id)
            found, unsearched = leaks(seen, racks)
            routes = Counter(route for _, route, _ in seen.answers)
            print(f"{'director game' if director_game else 'plain game'} {game_id}: {len(racks)} versions, "
                  f"{len(seen.answers):,} answers read by the person over {len(routes)} routes and credentials "
                  f"({unsearched} while the computer held fewer than {MIN_RACK} tiles, not searched); computer "
                  f"racks found in them: {len(found)}")
            for line in found[:10]:
                print("   ", line)
        _control(games[0][2], computer_racks(db, games[0][1]))


def _control(seen: Seen, racks: dict[int, str]) -> None:
    """The search finds a rack that is there: the computer's first rack, its tiles reversed, in an answer."""
    version = 1
    control = Seen()
    control.answers = [(version, "control", json.dumps({"rack": racks[version][::-1]}, ensure_ascii=False))]
    print(f"control: the computer's rack of version {version} planted reversed in one answer: found "
          f"{len(leaks(control, racks)[0])} of 1")


if __name__ == "__main__":
    main()
