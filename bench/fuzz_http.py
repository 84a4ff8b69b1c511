"""Fuzz the HTTP/JSON API and the server-held games of a real server: no answer may be a 5xx other than 503/504.

    python bench/fuzz_http.py --lexicons lexicons [--requests 5000] [--seed 1] [--games 12] [--races 40]

Starts `lexicon-service serve --processes 1 --http` on 127.0.0.1 (free ports, a fresh games database) and sends
--requests calls, one at a time, to every route of lexicon_service/http (api.ROUTES, api.SESSION_ROUTES, the event
stream, /v1/games:view, the pages): bodies that are not JSON, not UTF-8, nested too deeply, lone surrogates in
values and keys, wrong types, unknown fields, negative and huge numbers, bodies over the limit; path parameters
with odd characters (percent-encoded NUL, surrogates, invalid UTF-8, slashes, 10,000 characters); query
parameters repeated, unknown, not numbers; bad Authorization and x-server-timeout headers. Game calls go to
real games (--games of them, created first) with the right player's token, another's, the director's, a wrong
one or none, plays found on the game's board, absurd coordinates, stale and future expected_version values,
exchanges of what the rack lacks; the games are played on (phonies stand: no challenges are judged unless
asked) until their bags run out and they end. Then --races pairs of clients submit the same move at the same
expected_version at once (one must win, the other gets ABORTED or the first one's answer again: the game
advances by one move), and a second server with a bearer token is asked without it, with a wrong one and with it.

Reports: answers by HTTP status and gRPC status name, per route; every 5xx other than 503/504, and every answer
that is not the API's JSON error format, with its request; what the server logged (tracebacks); the server's
resident memory before and after. Exit status 1 when a 500/501 or a malformed answer came back, a race applied
both moves, the token server let a call through, or the server logged a traceback.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import httpx  # noqa: E402
from loadgen import (  # noqa: E402
    COMPUTER_GAMES, COMPUTER_LEVELS, HUGE_LIMITS, LETTERS, computer_players, fuzz_text, hostile_rack,
    lexicons_and_words, rss_mb, server_log, start_server, stop_server,
)

from lexicon_service.http import api  # noqa: E402
from lexicon_service.rules import load_rule_set  # noqa: E402
from tests.game_helpers import find_play, tiles_of  # noqa: E402

ODD = ["ſ", "\u212a", "\ue000", "ﬁ", "\u0301", "ß", "İ", "\u200b", "\x00", "\n", "\r", "\u2028", "[", "]", "[CH]",
       "?", "*", ".", " ", "\U0001f600", "\ufeff", "Å", ":", "#", ">", "(", ")", "\\", '"', "/", "%", "\x7f"]
# Percent-encoded path pieces: NUL, a surrogate's UTF-8, bytes that are no UTF-8, slashes, dots, a colon.
PATH_ODD = ["%00", "%ED%A0%80", "%FF", "%C3%28", "%2F", "..", "%2E%2E", ":", "%3A", "%0A", "%20", "%25", "~", "%F0%9F%98%80"]
SERVER_ERRORS = {500, 501}  # 503 (lexicons loading, server stopping) and 504 (a deadline the client set) are answers
NUMBERS = [0, 1, -1, 2, 7, 15, 16, 100, 2**31 - 1, -2**31, 2**31, 2**63 - 1, 2**63, -2**63 - 1, 2**64, 10**30,
           1.5, -0.0, 1e308, "1", "-5", "abc", "", "NaN", "Infinity", "1e5", "0x10", " 7", "٣"]


class HttpFuzzer:
    def __init__(self, rnd: random.Random, lexicons: list[str], words: list[str]) -> None:
        self.rnd = rnd
        self.lexicons = lexicons
        self.words = words
        self.games: list[dict] = []  # {id, lexicon, rule_set, tokens, director}

    # --- values ----------------------------------------------------------------------------------
    def text(self, max_len: int = 20) -> str:
        return fuzz_text(self.rnd, self.words, ODD, max_len)

    def number(self):
        return self.rnd.choice(NUMBERS)

    def any_value(self, depth: int = 0):
        r = self.rnd
        kind = r.randrange(8 if depth < 2 else 5)
        return [lambda: None, lambda: True, self.number, self.text, lambda: "\ud800" + self.text(3),
                lambda: [self.any_value(depth + 1) for _ in range(r.randrange(4))],
                lambda: {self.text(5): self.any_value(depth + 1) for _ in range(r.randrange(3))},
                lambda: 1e309][kind]()

    def play(self) -> str:
        r = self.rnd
        position = r.choice(["8H", "H8", "8D", "A1", "15O", "O15", "8Z", "0A", "99", "", "8", "H", "99999999999H",
                             "-1A", "8h", "ZZ9", self.text(4)])
        return f"{position} {self.text(15).upper()}" if r.random() < 0.9 else self.text(40)

    # --- bodies ------------------------------------------------------------------------------------
    def body_dict(self, route: api.ApiRoute) -> dict:
        """A plausible body for the route, then perhaps spoilt: a field of the wrong type, an unknown field."""
        r = self.rnd
        rpc = route.rpc
        if rpc == "CheckWords":
            body = {"words": [self.text() for _ in range(r.choice([1, 2, 5, 50, 300]))],
                    "verdictOnly": r.random() < 0.1, "includeTiles": r.random() < 0.2, "compact": r.random() < 0.1}
        elif rpc in ("ValidateMove", "ScoreMove"):
            body = {"lexicon": self.lexicon(), "ruleSet": r.choice(["", "pl-scrabble", "cs-kriskros", self.text(5)]),
                    "rack": r.choice(["", "KOTABC?", self.text(9).upper()]),
                    "play": {"position": r.choice(["8H", "H8", "8Z", "", self.text(4)]), "word": self.text(15).upper()}}
            if r.random() < 0.3:
                body["board"] = [("." * 15 if r.random() < 0.8 else self.text(20)) for _ in range(r.choice([0, 15, 16, 27]))]
        elif rpc == "GenerateMoves":
            # each field mostly valid, so that most bodies reach the generator
            body = {"lexicon": self.lexicon(), "rack": hostile_rack(r, self.text),
                    "limit": r.choice([0, 1, 10, 10, 100, self.number(), *HUGE_LIMITS]),
                    "minLength": r.choice([0, 0, 0, 2, self.number()]),
                    "mustUse": r.choice(["", "", "", "?", self.text(3)]),
                    "mustContain": r.choice(["", "", "", "KOT", self.text(8)]),
                    "playsOnly": r.random() < 0.3, "sort": "" if r.random() < 0.8 else r.choice(["score", self.text(6)])}
            if r.random() < 0.2:
                body["setup"] = [{"position": r.choice(["8H", "H8", "8Z", "", self.text(4)]), "word": self.text(8).upper()}
                                 for _ in range(r.choice([1, 3]))]
            if r.random() < 0.3:
                body["board"] = [("." * 15 if r.random() < 0.8 else self.text(20)) for _ in range(r.choice([0, 15, 16, 27]))]
            if r.random() < 0.2:
                body["bagCount"] = self.number()
        elif rpc in ("ReplayGame", "AnalyseGame"):
            body = {"ruleSet": r.choice(["pl-scrabble", "cs-scrabble", "", self.text(4)]),
                    "gcg": r.choice(["\n", "\r", "\r\n", "\u2028"]).join(
                        r.choice(["#player1 A A", "#player2 B B", ">A: ABCDEFG 8D KOT +10 10", ">B: - +0 0",
                                  ">A: ABC -ABC +0 10", "#rack1 KOT", ">B: (challenge) +5 5", self.text(30)])
                        for _ in range(r.randrange(1, 20)))}
            if rpc == "AnalyseGame":
                body["lexicon"] = self.lexicon()
        elif rpc == "CreateGame":
            body = {"lexicon": self.lexicon(), "playerNames": r.choice([["Ann", "Bob"], ["Ann"], ["Ann", "Ann"],
                                                                         [self.text(8), self.text(8)], ["a"] * 5]),
                    "challengeRule": r.choice([None, "CHALLENGE_RULE_SINGLE", "CHALLENGE_RULE_VOID", 3, 99, "NOPE"]),
                    "gameSeconds": r.choice([None, 0, 60, 86401, -1]), "seed": r.choice([None, 1, "2", 2**63])}
            body = {k: v for k, v in body.items() if v is not None}
            if r.random() < 0.5:
                body["computerPlayers"] = [{"seat": seat, "level": level} for seat, level
                                           in computer_players(r, self.text, len(body["playerNames"]))]
        elif rpc == "SubmitMove":
            body = r.choice([{"play": self.play()}, {"exchange": self.text(8).upper()}, {"pass": True},
                             {"play": self.play(), "pass": True}, {}])
            if r.random() < 0.4:
                body["expectedVersion"] = r.choice([0, 1, 2, 50, -1, 2**63 - 1, "x"])
            if r.random() < 0.2:
                body["requestId"] = r.choice(["r1", "r2", self.text(10), "x" * 129])
        elif rpc == "Challenge":
            body = {"expectedVersion": r.choice([0, 1, 2, 99])} if r.random() < 0.3 else {}
        elif rpc == "AdjustScore":
            body = {"player": r.choice([0, 1, 2, -1, 2**31]), "delta": r.choice([1, -5, 0, 10_001, 2**31 - 1, "x"]),
                    "reason": r.choice(["", "fix", self.text(30), "x" * 501])}
        elif rpc in ("UndoLastMove", "EndGame"):
            body = {"reason": r.choice(["", "fix", self.text(30), "x" * 501])}
        else:
            body = {}
        if route.method == "POST" and "{lexicon}" not in route.path and rpc in ("CheckWords",):
            body["lexicon"] = self.lexicon()
        spoil = r.random()
        if spoil < 0.15 and body:
            body[r.choice(list(body))] = self.any_value()
        elif spoil < 0.22:
            body[r.choice(["bogus", "\ud800", "lexicon ", "LEXICON", "gameId", "game_id", self.text(6)])] = self.any_value()
        return body

    def body_bytes(self, route: api.ApiRoute, limit: int) -> bytes:
        r = self.rnd
        kind = r.random()
        if kind < 0.72:
            return json.dumps(self.body_dict(route), ensure_ascii=r.random() < 0.5).encode("utf-8", "surrogatepass")
        raw = json.dumps(self.body_dict(route)).encode()
        choice = r.randrange(11)
        if choice == 0:
            return raw[: r.randrange(len(raw) + 1)]  # cut
        if choice == 1:
            return bytes(r.randrange(256) for _ in range(r.randrange(64)))
        if choice == 2:
            return raw.replace(b'"', b'"\xff', 1)  # not UTF-8
        if choice == 3:
            return b"\xef\xbb\xbf" + raw  # a byte-order mark
        if choice == 4:
            return b"[" * r.choice([100, 1000, 100_000]) + b"]" * r.choice([0, 100])  # nested too deeply
        if choice == 5:
            return r.choice([b"[]", b"null", b"1", b'"x"', b"true", b"{}", b"", b"   ", b"{\"a\":1}{}"])
        if choice == 6:
            return b'{"words": ["' + b"a" * (limit + r.choice([1, 1000])) + b'"]}'  # over the limit
        if choice == 7:
            return b'{"words": ["' + b"a" * (limit // 2) + b'"]}'  # within the limit, one huge word
        if choice == 8:
            return b'{"seed": ' + b"9" * r.choice([30, 5000, 100_000]) + b"}"
        if choice == 9:
            return raw.replace(b'"', b'"\\ud800', 1)
        return b'{"a": ' + b"1e" + b"9" * 400 + b"}"

    def lexicon(self) -> str:
        r = self.rnd
        return r.choice(self.lexicons + ["", "nope", self.text(5), "x" * 5000]) if r.random() < 0.15 \
            else r.choice(self.lexicons)

    def path_value(self, field: str) -> str:
        """A path parameter, percent-encoded as sent."""
        r = self.rnd
        if field == "game_id" and self.games and r.random() < 0.75:
            return self.rnd.choice(self.games)["id"]
        if field == "lexicon" and r.random() < 0.7:
            return quote(r.choice(self.lexicons), safe="")
        if field == "word" and r.random() < 0.6:
            return quote(self.text(), safe="")
        kind = r.random()
        if kind < 0.5:
            return "".join(r.choice(PATH_ODD) if r.random() < 0.4 else quote(r.choice(LETTERS)) for _ in range(r.randrange(1, 8)))
        if kind < 0.6:
            return "x" * r.choice([100, 10_000])
        if kind < 0.8:
            return f"{r.randrange(2**64):016x}"  # a well-formed game id of no game
        return quote(self.text(10), safe="")

    def query(self, route_rpc: str) -> list[tuple[str, str]]:
        r = self.rnd
        if route_rpc == "FindWords":
            items = [(r.choice(["anagram", "pattern", "prefix"]), r.choice([self.text(10), "*?" * 8 + "a", "k*"]))]
            for name in ("limit", "minLength", "max_length", "useAllTiles"):
                if r.random() < 0.3:
                    items.append((name, str(self.number())))
        elif route_rpc == "WatchGame":
            items = [("afterVersion", str(r.choice([0, 1, 5, 10**6, -1, "x", 2**63])))] if r.random() < 0.5 else []
        else:
            items = [("includeSource", r.choice(["true", "false", "1", "yes", ""]))] if r.random() < 0.5 else []
        if r.random() < 0.15:
            items.append(r.choice([("bogus", "1"), (items[0][0], "again") if items else ("x", "y"), ("", ""),
                                   ("pattern", "\ud800"), (self.text(4), self.text(4))]))
        return items

    def headers(self, game: dict | None) -> dict:
        r = self.rnd
        headers = {}
        if game is not None:
            kind = r.random()
            if kind < 0.55:
                headers["authorization"] = "Bearer " + r.choice(game["tokens"])
            elif kind < 0.7:
                headers["authorization"] = "Bearer " + game["director"]
            elif kind < 0.8:
                headers["authorization"] = r.choice(["Bearer", "Bearer ", "Basic abc", "bearer x y", "Bearer " + "x" * 5000,
                                                     "Bearer \x7f"])
            elif kind < 0.85 and len(self.games) > 1:
                headers["authorization"] = "Bearer " + r.choice(self.games)["tokens"][0]  # another game's
        if r.random() < 0.08:
            headers["x-server-timeout"] = r.choice(["0", "-1", "nan", "inf", "1e309", "abc", "0.000001", "5", ""])
        if r.random() < 0.03:
            headers["last-event-id"] = r.choice(["1", "-1", "x", "9" * 40, "٣"])
        return headers

    def body_headers(self, game: dict | None) -> dict:
        """headers() with a Content-Type, mostly JSON's (else the server refuses the body with 415)."""
        r = self.rnd
        content_type = "application/json" if r.random() < 0.9 else r.choice([
            "text/plain", "application/json; charset=latin-1", "", "application/json;charset", "multipart/form-data",
            "application/json; charset=\"utf-8\"", "APPLICATION/JSON", "application/json\u00e9"])
        return {"content-type": content_type, **self.headers(game)}


def game_of(fuzzer: HttpFuzzer, game_id: str) -> dict | None:
    for game in fuzzer.games:
        if game["id"] == game_id:
            return game
    return None


def create_games(client: httpx.Client, fuzzer: HttpFuzzer, count: int) -> None:
    rule_sets = {}
    for i in range(count):
        lexicon = fuzzer.lexicons[i % len(fuzzer.lexicons)]
        rule = ["CHALLENGE_RULE_SINGLE", "CHALLENGE_RULE_DOUBLE", "CHALLENGE_RULE_VOID"][i % 3]
        answer = client.post("/v1/games", json={"lexicon": lexicon, "playerNames": ["Ann", "Bob"], "seed": i,
                                                "challengeRule": rule})
        answer.raise_for_status()
        data = answer.json()
        if data["ruleSet"] not in rule_sets:
            rule_sets[data["ruleSet"]] = load_rule_set(data["ruleSet"])
        fuzzer.games.append({"id": data["gameId"], "lexicon": lexicon, "rule_set": rule_sets[data["ruleSet"]],
                             "tokens": data["playerTokens"], "director": data["directorToken"]})
    # Games with computer players (their tokens are ""): the person's moves and challenges follow a computer's
    for i, (names, seats) in enumerate(COMPUTER_GAMES):
        for level in COMPUTER_LEVELS:
            lexicon = fuzzer.lexicons[(i + len(level)) % len(fuzzer.lexicons)]
            answer = client.post("/v1/games", json={"lexicon": lexicon, "playerNames": names, "seed": i,
                                                    "computerPlayers": [{"seat": s, "level": level} for s in seats]})
            if answer.status_code == 400 and level == "equity":  # a lexicon without a leave table
                continue
            answer.raise_for_status()
            data = answer.json()
            if data["ruleSet"] not in rule_sets:
                rule_sets[data["ruleSet"]] = load_rule_set(data["ruleSet"])
            fuzzer.games.append({"id": data["gameId"], "lexicon": lexicon, "rule_set": rule_sets[data["ruleSet"]],
                                 "tokens": [t or "none" for t in data["playerTokens"]],
                                 "director": data["directorToken"]})


def advance(client: httpx.Client, fuzzer: HttpFuzzer, game: dict) -> tuple[str, str, bytes, dict]:
    """A move that should be accepted in `game` (the turn's player, a play found on its board, else an
    exchange or a pass), as (method, path, body, headers); games go on until their bags are empty."""
    r = fuzzer.rnd
    seen = client.get(f"/v1/games/{game['id']}", headers={"authorization": "Bearer " + game["tokens"][0]}).json()
    turn = seen.get("turn", 0)
    token = game["tokens"][turn]
    view = client.get(f"/v1/games/{game['id']}", headers={"authorization": "Bearer " + token}).json()
    body: dict = {"pass": True}
    if view.get("rack") and r.random() < 0.9:
        rack = tiles_of(game["rule_set"], view["rack"])
        play = find_play(game["rule_set"], view.get("board") or [], rack, max_tiles=r.choice([2, 3, 7]))
        if play:
            body = {"play": play}
        elif r.random() < 0.5:
            body = {"exchange": view["rack"][:2]}
    if r.random() < 0.5:
        body["expectedVersion"] = int(view.get("version", 0))
    return "POST", f"/v1/games/{game['id']}:move", json.dumps(body).encode(), {"authorization": "Bearer " + token,
                                                                              "content-type": "application/json"}


def fuzz_request(client: httpx.Client, fuzzer: HttpFuzzer, routes, limit: int):
    """One hostile (or, for games, sometimes legitimate) request: (label, method, path, body, headers)."""
    r = fuzzer.rnd
    route = r.choice(routes)
    if isinstance(route, str):  # the extra routes
        if route == "events":
            game_id = fuzzer.path_value("game_id")
            items = fuzzer.query("WatchGame")
            return "WatchGame", "GET", f"/v1/games/{game_id}/events", items, b"", fuzzer.headers(game_of(fuzzer, game_id))
        if route == "view":
            return "view", "POST", "/v1/games:view", [], fuzzer.body_bytes(api.ROUTES[-1], limit), \
                fuzzer.body_headers(None)
        return "page", r.choice(["GET", "POST", "DELETE", "PUT"]), r.choice(
            ["/", "/judge", "/lookup", "/games", "/openapi.json", "/healthz", "/sw.js", "/static/%2e%2e/%2e%2e/etc/passwd",
             "/static/..%2F..%2Fapi.py", "/static/" + "a" * 5000, "/v1", "/v1/", "/v1/lexicons/", "/v1/nope",
             "/%ED%A0%80", "/v1/games/", "/v1/games:move"]), [], b"", {}
    if route.service == "session" and route.rpc == "SubmitMove" and fuzzer.games and r.random() < 0.35:
        game = r.choice(fuzzer.games)
        method, path, body, headers = advance(client, fuzzer, game)
        return "SubmitMove(legal)", method, path, [], body, headers
    path = route.path
    game = None
    for field in api.path_fields(route.path):
        value = fuzzer.path_value(field)
        if field == "game_id":
            game = game_of(fuzzer, value)
        path = path.replace("{" + field + "}", value)
    items = fuzzer.query(route.rpc) if route.query or route.rpc == "WatchGame" else []
    body = fuzzer.body_bytes(route, limit) if route.body else b""
    method = route.method if r.random() > 0.02 else r.choice(["GET", "POST", "PUT", "DELETE", "PATCH"])
    return route.rpc, method, path, items, body, fuzzer.body_headers(game) if route.body else fuzzer.headers(game)


def well_formed_error(answer: httpx.Response) -> bool:
    try:
        data = answer.json()
    except ValueError:
        return False
    error = data.get("error") if isinstance(data, dict) else None
    return isinstance(error, dict) and error.get("code") == answer.status_code and isinstance(error.get("message"), str) \
        and isinstance(error.get("status"), str)


def send(client: httpx.Client, method: str, path: str, items, body: bytes, headers: dict) -> httpx.Response:
    headers = {k: v.encode("utf-8") for k, v in headers.items()}  # as bytes: httpx would refuse non-ASCII text
    url = path + ("?" + "&".join(f"{quote(k, safe='')}={quote(v, safe='', errors='surrogatepass')}"
                                 for k, v in items) if items else "")
    if path.endswith("/events"):
        with client.stream(method, url, content=body or None, headers=headers,
                           timeout=httpx.Timeout(10, read=0.5)) as answer:
            if answer.status_code == 200:  # an event stream: read its history, then leave
                deadline = time.monotonic() + 0.3
                try:
                    for _ in answer.iter_bytes():
                        if time.monotonic() > deadline:
                            break
                except httpx.ReadTimeout:  # the history was read; the stream waits for the next move
                    pass
            else:
                answer.read()
        return answer
    return client.request(method, url, content=body or None, headers=headers, timeout=30)


def race(port_url: str, fuzzer: HttpFuzzer, rounds: int) -> Counter:
    """Two clients submit the turn's move at the same expected_version at once; the game must advance by one."""
    outcome: Counter = Counter()
    with httpx.Client(base_url=port_url, timeout=30) as setup:
        live = []
        for i in range(rounds):
            answer = setup.post("/v1/games", json={"lexicon": fuzzer.lexicons[i % len(fuzzer.lexicons)],
                                                   "playerNames": ["Ann", "Bob"], "seed": 1000 + i})
            data = answer.json()
            live.append({"id": data["gameId"], "tokens": data["playerTokens"], "director": data["directorToken"],
                         "rule_set": load_rule_set(data["ruleSet"]), "lexicon": ""})
        for i, game in enumerate(live):
            token = game["tokens"][0]
            view = setup.get(f"/v1/games/{game['id']}", headers={"authorization": "Bearer " + token}).json()
            version = int(view["version"])
            play = find_play(game["rule_set"], [], tiles_of(game["rule_set"], view["rack"]), max_tiles=2)
            body = {"play": play, "expectedVersion": version} if play else {"pass": True, "expectedVersion": version}
            # every other round the two moves differ (a play and a pass): one wins, the other is ABORTED
            bodies = [body, body if i % 2 == 0 or not play else {"pass": True, "expectedVersion": version}]
            results = [None, None]
            barrier = threading.Barrier(2)

            def submit(k: int) -> None:
                with httpx.Client(base_url=port_url, timeout=30) as client:
                    barrier.wait()
                    results[k] = client.post(f"/v1/games/{game['id']}:move", json=bodies[k],
                                             headers={"authorization": "Bearer " + token})

            threads = [threading.Thread(target=submit, args=(k,)) for k in range(2)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            after = int(setup.get(f"/v1/games/{game['id']}").json()["version"])
            codes = tuple(sorted(a.status_code for a in results))
            replayed = [a.json().get("replayed") for a in results if a.status_code == 200]
            same = "same move" if bodies[0] == bodies[1] else "different moves"
            outcome[f"{same}: {codes} replayed={sorted(map(bool, replayed))} advanced={after - version}"] += 1
            if after - version != 1 or any(c >= 500 for c in codes):
                outcome["FAILED"] += 1
    return outcome


def play_out(url: str, fuzzer: HttpFuzzer, count: int) -> Counter:
    """Games played to their end with legal moves (the bag runs out, a rack empties, or passes end it); with each
    move, a move out of turn and one at a stale version. Each ended game's record must replay clean."""
    outcome: Counter = Counter()
    with httpx.Client(base_url=url, timeout=30) as client:
        for i in range(count):
            lexicon = fuzzer.lexicons[i % len(fuzzer.lexicons)]
            data = client.post("/v1/games", json={"lexicon": lexicon, "playerNames": ["Ann", "Bob"],
                                                  "seed": 5000 + i}).json()
            game = {"id": data["gameId"], "tokens": data["playerTokens"], "director": data["directorToken"],
                    "rule_set": load_rule_set(data["ruleSet"]), "lexicon": lexicon}
            for _ in range(400):
                view = client.get(f"/v1/games/{game['id']}").json()
                if view["status"] == "GAME_STATUS_ENDED":
                    break
                turn, version = view["turn"], int(view["version"])
                other = client.post(f"/v1/games/{game['id']}:move", json={"pass": True},
                                    headers={"authorization": "Bearer " + game["tokens"][1 - turn]})
                # a 200 only as the answer again to that player's own last move (a retry whose answer was lost)
                again = other.status_code == 200 and other.json().get("replayed")
                outcome[f"out of turn {other.status_code}{' replayed' if again else ''}"] += 1
                stale = client.post(f"/v1/games/{game['id']}:move", json={"pass": True, "expectedVersion": version - 1},
                                    headers={"authorization": "Bearer " + game["tokens"][turn]})
                outcome[f"stale {stale.status_code}"] += 1
                method, path, body, headers = advance(client, fuzzer, game)
                answer = client.request(method, path, content=body, headers=headers)
                kind = next(iter(json.loads(body)))
                why = "" if answer.status_code == 200 else " " + answer.json()["error"]["message"].split(":")[0]
                outcome[f"{kind} {answer.status_code}{why}"] += 1
                if answer.status_code >= 500 or (other.status_code < 400 and not again) or stale.status_code < 400:
                    outcome["FAILED"] += 1
            final = client.get(f"/v1/games/{game['id']}").json()
            outcome[f"ended: {final.get('endReason') or 'not ended'}, bag {final['bagCount']}"] += 1
            record = client.get(f"/v1/games/{game['id']}/record",
                                headers={"authorization": "Bearer " + game["director"]}).json()["gcg"]
            replayed = client.post("/v1/games:replay", json={"gcg": record, "ruleSet": data["ruleSet"]}).json()
            agrees = replayed.get("ok")
            outcome[f"record replays clean: {agrees}"] += 1
            if final["status"] != "GAME_STATUS_ENDED" or not agrees:
                outcome["FAILED"] += 1
                print(f"    game {game['id']}: {final['status']} {json.dumps(replayed)[:400]}")
    return outcome


def token_server(lexicons: str) -> Counter:
    """A server with a bearer token of its own: without it, or with a wrong one, every /v1 call is 401."""
    outcome: Counter = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        token_file = Path(tmp) / "tokens"
        token_file.write_text("s3cret-token\n")
        proc = start_server(lexicons, "--processes", "1", "--token-file", str(token_file), "--db",
                            str(Path(tmp) / "g.db"), http=True)
        try:
            with httpx.Client(base_url=proc.http_url, timeout=30) as client:
                calls = [("GET", "/v1/lexicons", None), ("POST", "/v1/lexicons/pl-scrabble:check", {"words": ["kot"]}),
                         ("POST", "/v1/games", {"lexicon": "pl-scrabble", "playerNames": ["A", "B"]}),
                         ("GET", "/v1/games/0123456789abcdef", None), ("GET", "/v1/rulesets", None),
                         ("POST", "/v1/games:view", {"gcg": "#player1 A A\n"})]
                for header in (None, "Bearer wrong", "Basic s3cret-token", "Bearer s3cret-token "[:-1] + "x",
                               "s3cret-token", "Bearer s3cret-token"):
                    for method, path, body in calls:
                        headers = {"authorization": header} if header else {}
                        answer = client.request(method, path, json=body, headers=headers)
                        ok = header == "Bearer s3cret-token"
                        label = "token" if ok else "no/wrong token"
                        outcome[f"{label}: {answer.status_code}"] += 1
                        if (not ok and answer.status_code != 401) or answer.status_code >= 500:
                            outcome["FAILED"] += 1
                            print(f"    token server: {method} {path} {header!r} -> {answer.status_code} {answer.text[:200]}")
        finally:
            stop_server(proc)
    return outcome


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lexicons", default="lexicons")
    parser.add_argument("--requests", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--races", type=int, default=40)
    parser.add_argument("--full-games", type=int, default=3)
    parser.add_argument("--shared", default=None, help="unused (make bench passes it)")
    args = parser.parse_args(argv)
    names, words = lexicons_and_words(args.lexicons)
    rnd = random.Random(args.seed)
    fuzzer = HttpFuzzer(rnd, names, words)
    routes = [*api.ROUTES, *api.SESSION_ROUTES, "events", "view", "page"]
    statuses: Counter = Counter()
    by_route: Counter = Counter()
    bad = []
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        proc = start_server(args.lexicons, "--processes", "1", "--db", str(Path(tmp) / "games.db"), http=True,
                            log_level="INFO")
        try:
            limit = 4 * 1024 * 1024
            with httpx.Client(base_url=proc.http_url, timeout=30) as client:
                create_games(client, fuzzer, args.games)
                rss_start, _ = rss_mb(proc.pid)
                started = time.monotonic()
                for i in range(args.requests):
                    label, method, path, items, body, headers = fuzz_request(client, fuzzer, routes, limit)
                    try:
                        answer = send(client, method, path, items, body, headers)
                    except httpx.LocalProtocolError:  # httpx itself refuses to send it (a header ending in a space)
                        statuses["not sent"] += 1
                        continue
                    except httpx.HTTPError as exc:
                        statuses["no answer"] += 1
                        failures += 1
                        bad.append((label, method, path, items, body[:200], headers, f"{type(exc).__name__}: {exc}"))
                        continue
                    status = answer.status_code
                    error = None
                    if status == 400 and answer.text == "Invalid HTTP request received.":
                        statuses["400 refused by the HTTP parser"] += 1  # before any of the app runs
                        continue
                    if status >= 400:
                        if path.startswith("/v1") and not well_formed_error(answer):
                            error = "not the API's error format"
                        grpc_name = answer.json()["error"]["status"] if error is None and path.startswith("/v1") else ""
                    else:
                        grpc_name = "OK"
                    statuses[f"{status} {grpc_name}".strip()] += 1
                    by_route[(label, status)] += 1
                    if status in SERVER_ERRORS or error:
                        failures += 1
                        if len(bad) < 20:
                            bad.append((label, method, path, items, body[:200], headers,
                                        error or answer.text[:300]))
                    if (i + 1) % 1000 == 0:
                        print(f"  {i + 1:>6} requests, {time.monotonic() - started:6.1f} s, 5xx/malformed so far "
                              f"{failures}, server RSS {rss_mb(proc.pid)[0]:.0f} MB", flush=True)
                elapsed = time.monotonic() - started
                rss_end, _ = rss_mb(proc.pid)
                ended = sum(1 for g in fuzzer.games
                            if client.get(f"/v1/games/{g['id']}").json().get("status") == "GAME_STATUS_ENDED")
            print(f"[http] {args.requests} requests in {elapsed:.0f} s; answers: "
                  + ", ".join(f"{k} {v}" for k, v in statuses.most_common()))
            print("[http] by route: " + "; ".join(
                f"{route} " + " ".join(f"{s}:{n}" for (r2, s), n in sorted(by_route.items()) if r2 == route)
                for route in sorted({r for r, _ in by_route})))
            print(f"[http] games: {len(fuzzer.games)} played on, {ended} ended")
            print(f"[http] 5xx (other than 503/504) or malformed answers: {failures} (target 0)")
            for case in bad:
                print(f"    {case!r}"[:700])
            print(f"[http] server RSS {rss_start:.0f} MB after the games were created, {rss_end:.0f} MB after fuzzing")
            races = race(proc.http_url, fuzzer, args.races)
            print(f"[race] {args.races} pairs of moves at one expected_version: "
                  + ", ".join(f"{k}: {v}" for k, v in races.most_common()))
            failures += races["FAILED"]
            played = play_out(proc.http_url, fuzzer, args.full_games)
            print(f"[games] {args.full_games} games played to the end: "
                  + ", ".join(f"{k}: {v}" for k, v in sorted(played.items())))
            failures += played["FAILED"]
        finally:
            stop_server(proc)
        log = server_log(proc)
    tracebacks = log.count("Traceback")
    internal = len(re.findall(r"internal error", log))
    print(f"[log] tracebacks {tracebacks}, 'internal error' lines {internal}")
    tokens = token_server(args.lexicons)
    print("[token] " + ", ".join(f"{k}: {v}" for k, v in tokens.most_common()))
    failures += tokens["FAILED"]
    ok = failures == 0 and tracebacks == 0 and internal == 0
    print(f"[summary] {args.requests} HTTP requests + {2 * args.races} racing + {sum(tokens.values())} token calls; "
          f"5xx/malformed/failed {failures}; tracebacks {tracebacks}: {'ok' if ok else 'FAILED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
