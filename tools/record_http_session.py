"""Record the HTTP/JSON answers of a scripted session: games, their refusals, the event stream, tournaments.

    python -m tools.record_http_session --lexicons DIR --out answers.json

DIR must hold pl-scrabble (with its move graph: the session asks for hints). The server runs in this
process on a games database in a temporary directory, with a clock that moves only when the script says,
so two runs of one checkout write the same file; a refactoring of the HTTP layer is checked by running
this before and after it and comparing the two files (`cmp`). Each answer is recorded as its status, the
headers a route may send (`content-type`, `lexicon-reason`, `lexicon-version`) and its body, with every
secret and every id (game ids, tokens, tournament ids and keys) replaced by a name in the order it first
appeared.
"""

from __future__ import annotations

import argparse
import json
import re
import tempfile
from pathlib import Path

import httpx

from lexicon_service.http import HttpServer, create_app
from lexicon_service.server import create_server

HEADERS = ("content-type", "lexicon-reason", "lexicon-version")
LEXICON = "pl-scrabble"


class Clock:
    """The games' clock: a fixed time that `advance` moves."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class Recorder:
    def __init__(self, client: httpx.Client) -> None:
        self.client = client
        self.secrets: dict[str, str] = {}
        self.answers: list[dict] = []

    def secret(self, value: str, kind: str) -> str:
        """Remember a secret or an id as it first appeared (it is then written by its name)."""
        if value and value not in self.secrets:
            self.secrets[value] = f"<{kind}{len(self.secrets)}>"
        return value

    def _masked(self, text: str) -> str:
        for value, name in sorted(self.secrets.items(), key=lambda item: -len(item[0])):
            text = text.replace(value, name)
        return text

    def call(self, label: str, method: str, path: str, *, body=None, headers=None, params=None) -> dict:
        if body is None:
            response = self.client.request(method, path, headers=headers, params=params)
        else:
            response = self.client.request(method, path, json=body, headers=headers, params=params)
        answer = response.json() if response.headers.get("content-type", "").startswith("application/json") else {}
        self._learn(answer)
        self.answers.append({"label": label, "request": self._masked(f"{method} {path}"), "status": response.status_code,
                             "headers": {h: response.headers[h] for h in HEADERS if h in response.headers},
                             "body": json.loads(self._masked(json.dumps(answer, ensure_ascii=False)))
                             if isinstance(answer, dict) and response.content else self._masked(response.text)})
        return answer

    def events(self, label: str, path: str, count: int, headers=None) -> None:
        """The first `count` events of an event stream (or its refusal)."""
        with self.client.stream("GET", path, headers=headers) as response:
            lines: list[str] = []
            if response.status_code == 200:
                for line in response.iter_lines():
                    if line.startswith(("data:", "event:", "id:")):
                        lines.append(line)
                    if sum(line.startswith("data:") for line in lines) >= count:
                        break
            else:
                response.read()
                lines = [response.text]
        self.answers.append({"label": label, "request": self._masked(f"GET {path}"), "status": response.status_code,
                             "headers": {h: response.headers[h] for h in HEADERS if h in response.headers},
                             "body": [self._masked(line) for line in lines]})

    def _learn(self, answer) -> None:
        if not isinstance(answer, dict):
            return
        for key, kind in (("gameId", "game"), ("directorToken", "director"), ("tournamentId", "tournament"),
                          ("directorKey", "key"), ("token", "token")):
            if isinstance(answer.get(key), str):
                self.secret(answer[key], kind)
        for token in answer.get("playerTokens", ()):
            self.secret(token, "player")
        for value in answer.values():
            for item in value if isinstance(value, list) else [value]:
                self._learn(item)


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def game_session(rec: Recorder, clock: Clock) -> None:
    rec.call("create: no lexicon", "POST", "/v1/games", body={})
    rec.call("create: unknown lexicon", "POST", "/v1/games", body={"lexicon": "xx", "playerNames": ["A", "B"]})
    rec.call("create: seat out of range", "POST", "/v1/games",
             body={"lexicon": LEXICON, "playerNames": ["A", "B"], "computerPlayers": [{"seat": 5}]})
    rec.call("create: a bad challenge rule", "POST", "/v1/games",
             body={"lexicon": LEXICON, "playerNames": ["A", "B"], "challengeRule": 9})
    game = rec.call("create", "POST", "/v1/games", body={
        "lexicon": LEXICON, "playerNames": ["Ala", "Ola"], "seed": "7", "allowHints": True, "gameSeconds": 600,
        "challengeRule": "CHALLENGE_RULE_DOUBLE"})
    gid, (ala, ola), director = game["gameId"], game["playerTokens"], game["directorToken"]
    rec.call("get: observer", "GET", f"/v1/games/{gid}")
    rec.call("get: player", "GET", f"/v1/games/{gid}", headers=bearer(ala))
    rec.call("get: director", "GET", f"/v1/games/{gid}", headers={"X-Game-Token": director})
    rec.call("get: a stranger's token", "GET", f"/v1/games/{gid}", headers=bearer("not-a-token"))
    rec.call("get: not a bearer", "GET", f"/v1/games/{gid}", headers={"Authorization": "Basic abc"})
    rec.call("get: no such game", "GET", "/v1/games/nosuchgame")
    rec.call("get: deadline 0", "GET", f"/v1/games/{gid}", headers={"x-server-timeout": "0"})
    clock.advance(12.5)
    rec.call("hint: observer", "GET", f"/v1/games/{gid}/hint")
    hint = rec.call("hint", "GET", f"/v1/games/{gid}/hint", headers=bearer(ala), params={"limit": "3"})
    rec.call("hint: a bad limit", "GET", f"/v1/games/{gid}/hint", headers=bearer(ala), params={"limit": "x"})
    rec.call("move: not on turn", "POST", f"/v1/games/{gid}:move", headers=bearer(ola), body={"play": "8H KOT"})
    rec.call("move: stale version", "POST", f"/v1/games/{gid}:move", headers=bearer(ala),
             body={"play": "8H KOT", "expectedVersion": "9"})
    rec.call("move: director", "POST", f"/v1/games/{gid}:move", headers=bearer(director), body={"pass": True})
    rec.call("move: malformed", "POST", f"/v1/games/{gid}:move", headers=bearer(ala), body={"play": "Z99 ?"})
    rec.call("move: two kinds", "POST", f"/v1/games/{gid}:move", headers=bearer(ala),
             body={"play": "8H KOT", "pass": True})
    best = hint["moves"][0]
    rec.call("move", "POST", f"/v1/games/{gid}:move", headers=bearer(ala),
             body={"play": best["play"], "expectedVersion": "1", "requestId": "r1"})
    rec.call("move: retried", "POST", f"/v1/games/{gid}:move", headers=bearer(ala),
             body={"play": best["play"], "expectedVersion": "1", "requestId": "r1"})
    clock.advance(30)
    rec.call("challenge: by the player who played", "POST", f"/v1/games/{gid}:challenge", headers=bearer(ala), body={})
    rec.call("challenge", "POST", f"/v1/games/{gid}:challenge", headers=bearer(ola), body={"requestId": "c1"})
    rec.call("challenge: retried", "POST", f"/v1/games/{gid}:challenge", headers=bearer(ola), body={"requestId": "c1"})
    rec.call("challenge: nothing to challenge", "POST", f"/v1/games/{gid}:challenge", headers=bearer(ala), body={})
    rack = rec.call("get: second player", "GET", f"/v1/games/{gid}", headers=bearer(ola))["rack"]
    turn = rec.call("get: whose turn", "GET", f"/v1/games/{gid}")["turn"]
    mover = ola if turn == 1 else ala
    rec.call("exchange: tiles not on the rack", "POST", f"/v1/games/{gid}:move", headers=bearer(mover),
             body={"exchange": "ŹŹŹŹ"})
    if mover == ola:
        rec.call("exchange", "POST", f"/v1/games/{gid}:move", headers=bearer(ola), body={"exchange": rack[:2]})
    clock.advance(5)
    rec.call("pass", "POST", f"/v1/games/{gid}:move", headers=bearer(ala), body={"pass": True})
    rec.call("record", "GET", f"/v1/games/{gid}/record", headers=bearer(ola))
    rec.call("adjust: by a player", "POST", f"/v1/games/{gid}:adjustScore", headers=bearer(ala),
             body={"player": 0, "delta": 5, "reason": "x"})
    rec.call("adjust", "POST", f"/v1/games/{gid}:adjustScore", headers=bearer(director),
             body={"player": 1, "delta": -3, "reason": "slow"})
    rec.call("adjust: no such player", "POST", f"/v1/games/{gid}:adjustScore", headers=bearer(director),
             body={"player": 7, "delta": 1, "reason": "x"})
    rec.call("undo", "POST", f"/v1/games/{gid}:undo", headers=bearer(director), body={"reason": "misclick"})
    rec.events("events: from the start", f"/v1/games/{gid}/events", 6, headers=bearer(ola))
    rec.events("events: after version 3", f"/v1/games/{gid}/events?afterVersion=3", 2)
    rec.events("events: a bad version", f"/v1/games/{gid}/events?afterVersion=x", 1)
    rec.events("events: no such game", "/v1/games/nosuchgame/events", 1)
    rec.events("events: a stranger's token", f"/v1/games/{gid}/events", 1, headers=bearer("nope"))
    rec.call("end: by a player", "POST", f"/v1/games/{gid}:end", headers=bearer(ola), body={"reason": "x"})
    rec.call("end", "POST", f"/v1/games/{gid}:end", headers=bearer(director),
             body={"reason": "time", "scoring": "END_SCORING_RACKS_DEDUCTED"})
    rec.call("move: after the end", "POST", f"/v1/games/{gid}:move", headers=bearer(ala), body={"pass": True})
    rec.call("get: ended", "GET", f"/v1/games/{gid}", headers=bearer(ala))
    rec.events("events: an ended game", f"/v1/games/{gid}/events?afterVersion=5", 3)
    computer = rec.call("create: against the computer", "POST", "/v1/games", body={
        "lexicon": LEXICON, "playerNames": ["Ala", "Bot"], "seed": "3", "computerPlayers": [{"seat": 1}]})
    rec.call("get: the computer's game", "GET", f"/v1/games/{computer['gameId']}")


def tournament_session(rec: Recorder) -> None:
    rec.call("tournament: no name", "POST", "/v1/tournaments", body={"lexicon": LEXICON})
    made = rec.call("tournament: create", "POST", "/v1/tournaments",
                    body={"name": "Turniej Łódź", "lexicon": LEXICON, "rounds": 3, "seed": "5"})
    tid, key = made["tournamentId"], {"X-Director-Key": made["directorKey"]}
    players = [{"name": name, "rating": 1500 + 10 * i} for i, name in enumerate(["Ala", "Ola", "Ewa", "Jan", "Iza"])]
    rec.call("players: no key", "POST", f"/v1/tournaments/{tid}/players", body={"players": players})
    rec.call("players: a bad name", "POST", f"/v1/tournaments/{tid}/players", headers=key,
             body={"players": [{"name": "Ala;"}]})
    rec.call("players", "POST", f"/v1/tournaments/{tid}/players", headers=key, body={"players": players})
    rec.call("pair: a bad method", "POST", f"/v1/tournaments/{tid}/rounds:pair", headers=key, body={"method": 9})
    rec.call("pair", "POST", f"/v1/tournaments/{tid}/rounds:pair", headers=key, body={})
    rec.call("start: a wrong key", "POST", f"/v1/tournaments/{tid}/rounds:start",
             headers={"X-Director-Key": "wrong"}, body={"round": 1})
    rec.call("start", "POST", f"/v1/tournaments/{tid}/rounds:start", headers=key, body={"round": 1})
    rec.call("result", "POST", f"/v1/tournaments/{tid}/results", headers=key,
             body={"round": 1, "table": 1, "score1": 400, "score2": 350, "reason": "paper"})
    rec.call("result: no such table", "POST", f"/v1/tournaments/{tid}/results", headers=key,
             body={"round": 1, "table": 9, "score1": 1, "score2": 2, "reason": "x"})
    rec.call("result: a score too large", "POST", f"/v1/tournaments/{tid}/results", headers=key,
             body={"round": 1, "table": 2, "score1": 100000, "score2": 2, "reason": "x"})
    rec.call("get", "GET", f"/v1/tournaments/{tid}")
    rec.call("games", "GET", f"/v1/tournaments/{tid}/games", params={"round": "1"})
    rec.call("export: tsh", "GET", f"/v1/tournaments/{tid}:export")
    rec.call("export: csv", "GET", f"/v1/tournaments/{tid}:export", params={"format": "DIVISION_FORMAT_CSV"})
    rec.call("export: no such division", "GET", f"/v1/tournaments/{tid}:export", params={"division": "Z"})
    rec.call("import: a bad file", "POST", f"/v1/tournaments/{tid}:import", headers=key,
             body={"division": "B", "text": "Ala 1500 x\n"})
    rec.call("get: no such tournament", "GET", "/v1/tournaments/nosuch")


def word_session(rec: Recorder) -> None:
    rec.call("check", "POST", f"/v1/lexicons/{LEXICON}:check", body={"words": ["kot", "kotx", "k", "kot1"]})
    rec.call("check: compact", "POST", f"/v1/lexicons/{LEXICON}:check", body={"words": ["kot", "kotx"], "compact": True})
    rec.call("explain", "GET", f"/v1/lexicons/{LEXICON}/words/kot:explain")
    rec.call("validate", "POST", "/v1/moves:validate",
             body={"lexicon": LEXICON, "play": {"position": "8H", "word": "KOT"}})
    rec.call("generate", "POST", "/v1/moves:generate", body={"lexicon": LEXICON, "rack": "KOTA", "limit": 3})
    rec.call("unknown lexicon", "GET", "/v1/lexicons/xx/words/kot:explain")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lexicons", required=True, help="a directory holding pl-scrabble.lex")
    parser.add_argument("--out", required=True, help="the JSON file the answers are written to")
    args = parser.parse_args(argv)
    clock = Clock()
    with tempfile.TemporaryDirectory() as tmp:
        server, _ = create_server("localhost:0", args.lexicons, games_db=str(Path(tmp) / "games.db"),
                                  game_clock=clock)
        server.start()
        app = create_app(server.registry, servicers={"session": server.game_sessions,
                                                     "tournament": server.tournament_servicer}, heartbeat=0.2)
        web = HttpServer(app, "127.0.0.1:0").start()
        try:
            with httpx.Client(base_url=web.url, timeout=60) as client:
                rec = Recorder(client)
                game_session(rec, clock)
                tournament_session(rec)
                word_session(rec)
        finally:
            web.stop()
            server.stop(None).wait()
    text = json.dumps(rec.answers, ensure_ascii=False, indent=1, sort_keys=True)
    Path(args.out).write_text(re.sub(r"[ \t]+\n", "\n", text) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
