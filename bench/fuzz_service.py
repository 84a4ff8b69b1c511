"""Fuzz every RPC of a real server over loopback: random fields and raw bytes; no answer may be INTERNAL.

    python bench/fuzz_service.py --lexicons lexicons [--requests 200000] [--seed 1]

Starts `lexicon-service serve --processes 1` on 127.0.0.1 (a free port) with every lexicon in
--lexicons and sends --requests calls one at a time on one channel, spread over every unary RPC
(LexiconService, GameService, GameSessionService, Health): messages with random fields (words in
the lexicons' letters, odd Unicode, lengths at and over the limits, extreme numbers, broken GCG
records and boards), and raw bytes (random, and valid messages mutated: bytes flipped, cut, invalid
UTF-8 spliced in); CreateGame gets computer players (every level, unknown ones, seats out of range or twice,
computer-only games) and GenerateMoves hostile racks (blanks only, no or hundreds of tiles, letters of no
alphabet, Kris Kros digraphs written every way) and limits up to int32's most. Game-session calls act on real
games (created first; some against computers at each level, or computers only) most of the time, with a player's,
the director's, another game's or a bad token, plays of the right shape and expected_version values near the
game's (bench/fuzz_http.py plays games to their end over the JSON API). Then 1% as many calls (at most 1,000) to the streaming RPCs (WatchGame, Health.Watch, both
reflection streams), and as many with a header of random bytes (not UTF-8, a bad grpc-timeout: what
grpc's own clients refuse to send). Then it sends the largest requests the limits allow (a
10,000-word batch on the slow path, 2,000-line and 256k-character records, pathological searches).

Reports: answers by status code (INTERNAL must be 0, and UNKNOWN: a server error; with a bad header,
grpc's C core itself answers INTERNAL before any Python runs, so there only UNKNOWN counts), the worst
server CPU for one request (the server's CPU, all its threads, read from /proc before and after
each call, which is made alone), and the server's memory: resident set after start-up, after
the fuzzing, and the growth of its peak (VmHWM) over the largest requests; and what the server
logged, grouped. Exit status 1 when an answer was INTERNAL/UNKNOWN, the server logged a traceback
or a line from grpc's C core (one per unparsable header unless `serve` silences it), or a bound was
missed (CPU 0.5 s, memory growth 50 MB).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import grpc  # noqa: E402
from grpc_health.v1 import health_pb2, health_pb2_grpc  # noqa: E402
from loadgen import (  # noqa: E402
    COMPUTER_GAMES, COMPUTER_LEVELS, HUGE_LIMITS, LETTERS, computer_players, fuzz_text, hostile_rack,
    lexicons_and_words, reset_peak, rss_mb, server_log, start_server, stop_server,
)

from google.protobuf import message_factory  # noqa: E402
from google.protobuf.descriptor import FieldDescriptor  # noqa: E402

from lexicon_service.grpc_gen import game_pb2, lexicon_pb2, session_pb2, session_pb2_grpc  # noqa: E402
from lexicon_service.server.server import streaming_methods, unary_methods  # noqa: E402

CPU_BOUND_S = 0.5
MEMORY_BOUND_MB = 50.0

ODD = ["ſ", "\u212a", "\ue000", "\ue001", "ﬁ", "\u0301", "\u030c", "\u0307", "ß", "İ", "ı", "\u200b", "\x00", "\n",
       "\r", "\u2028", "[", "]", "[CH]", "[ch]", "?", "*", ".", " ", "\U0001f600", "\ufeff", "\u0958", "Å", "\u0340"]
SERVER_ERRORS = ("INTERNAL", "UNKNOWN")
RAW_SHARE = 0.3  # of the fuzzed calls send raw bytes
METHODS = unary_methods()  # every unary RPC: new ones are fuzzed without a change here
# The streams: the services' own, and reflection under both its names (bidirectional)
STREAMS = {**streaming_methods(), **{f"/grpc.reflection.{v}.ServerReflection/ServerReflectionInfo": None
                                     for v in ("v1", "v1alpha")}}
LISTINGS = ("/lexicon.v1.LexiconService/ListLexicons", "/lexicon.v1.GameService/ListRuleSets")
GCG_LINES = ["#player1 Ala Ala Kot", "#player2 Bob Bob", "#rules pl-scrabble", "#character-encoding UTF-8",
             ">Ala: ABCDEFG 8D KOT +10 10", ">Bob: ?AB 8H k.T +5 5", ">Ala: ABC -ABC +0 10", ">Bob: - +0 5",
             ">Ala: ABC -- -10 0", ">Bob: (challenge) +5 10", ">Ala: (time) -10 -10", ">Bob: (ABC) +7 17",
             ">Ala: ABC -3 +0 0", "#note hello", "free text", ">Ala: ABC H8 PSY +9 9", "#rack1 ABC"]


class Fuzzer:
    def __init__(self, rnd: random.Random, lexicons: list[str], words: list[str]) -> None:
        self.rnd = rnd
        self.lexicons = lexicons
        self.words = words
        self.games: list[dict] = []  # real games (create_games): their ids and tokens
        self.last_game: dict | None = None  # the game of the last game-session message made

    def text(self, max_len: int = 20) -> str:
        return fuzz_text(self.rnd, self.words, ODD, max_len)

    def number(self) -> int:
        r = self.rnd
        return r.choice([0, 1, -1, 2, 15, 16, 100, 1000, 1001, 2**31 - 1, -2**31, r.randrange(-50, 50)])

    def lexicon(self) -> str:
        r = self.rnd
        return r.choice(self.lexicons + ["", "nope", self.text(5)]) if r.random() < 0.2 else r.choice(self.lexicons)

    def pattern(self) -> str:
        r = self.rnd
        return "".join(r.choice(["*", "?", "*?", r.choice(LETTERS), r.choice(LETTERS).upper(), r.choice(ODD)])
                       for _ in range(r.randrange(0, 24)))

    def board(self) -> list[str]:
        r = self.rnd
        if r.random() < 0.5:
            return []
        rows = [("." * 15) for _ in range(15)]
        for _ in range(r.randrange(4)):
            i = r.randrange(15)
            rows[i] = (self.text(15).upper() + "." * 15)[:15] if r.random() < 0.7 else self.text(30)
        return rows if r.random() < 0.8 else rows[: r.randrange(20)]

    def gcg(self) -> str:
        r = self.rnd
        lines = [r.choice(GCG_LINES) if r.random() < 0.8 else ">Ala: " + self.text(20) + " " + self.text(5)
                 for _ in range(r.randrange(1, 30))]
        sep = r.choice(["\n", "\r", "\r\n", "\u2028"])
        text = sep.join(lines)
        if r.random() < 0.1:
            text = text.replace("+10", "+" + "9" * r.choice([6, 7, 12, 5000]))
        return text

    def message(self, method: str):
        r = self.rnd
        cls = METHODS[method]
        if cls is lexicon_pb2.CheckWordsRequest:
            n = r.choice([1, 1, 2, 5, 50, 300])
            return cls(lexicon=self.lexicon(), words=[self.text() for _ in range(n)], include_tiles=r.random() < 0.2,
                       verdict_only=r.random() < 0.1, compact=r.random() < 0.2)
        if cls is lexicon_pb2.ExplainWordRequest:
            return cls(lexicon=self.lexicon(), word=self.text())
        if cls is lexicon_pb2.FindWordsRequest:
            query = r.choice(["anagram", "pattern", "prefix"])
            value = self.pattern() if query == "pattern" else self.text(16) + "?" * r.randrange(3)
            return cls(lexicon=self.lexicon(), **{query: value}, use_all_tiles=r.random() < 0.2,
                       min_length=r.choice([0, 0, 2, self.number()]), max_length=r.choice([0, 0, 7, self.number()]),
                       limit=r.choice([0, 0, 10, self.number()]))
        if cls in (game_pb2.ValidateMoveRequest, game_pb2.ScoreMoveRequest):
            position = r.choice(["8H", "H8", "8D", "A1", "15O", "O15", "8Z", "0A", "99", "", self.text(4)])
            return cls(lexicon=self.lexicon(), rule_set=r.choice(["", "", "pl-scrabble", "cs-kriskros", self.text(5)]),
                       board=self.board(), rack=r.choice(["", "KOTABC?", self.text(9).upper()]),
                       play=game_pb2.Play(position=position, word=self.text(15).upper()))
        if cls is game_pb2.GenerateMovesRequest:
            setup = [game_pb2.Play(position=r.choice(["8H", "H8", "8D", "A1", "8Z", "", self.text(4)]),
                                   word=self.text(8).upper()) for _ in range(r.choice([0, 0, 0, 0, 1, 3]))]
            return cls(lexicon=self.lexicon(), rule_set="" if r.random() < 0.8 else r.choice(["pl-scrabble", self.text(5)]),
                       board=self.board(), setup=setup,
                       rack=hostile_rack(r, self.text), limit=r.choice([0, 1, 10, 10, 100, self.number(), *HUGE_LIMITS]),
                       sort="" if r.random() < 0.8 else r.choice(["score", self.text(6)]),
                       min_length=r.choice([0, 0, 0, 2, self.number()]),
                       must_use=r.choice(["", "", "", "?", self.text(3)]),
                       must_contain=r.choice(["", "", "", "KOT", self.text(8)]), plays_only=r.random() < 0.3,
                       **({"bag_count": self.number()} if r.random() < 0.1 else {}))
        if cls is session_pb2.CreateGameRequest:
            return self.create_game()
        if cls is game_pb2.ReplayGameRequest:
            return cls(lexicon=r.choice(["", *self.lexicons]), rule_set=r.choice(["", "pl-scrabble", self.text(4)]),
                       gcg=self.gcg())
        if cls is game_pb2.AnalyseGameRequest:
            return cls(lexicon=r.choice(["", *self.lexicons, *self.lexicons]),
                       rule_set=r.choice(["", "", "pl-scrabble", self.text(4)]), gcg=self.gcg())
        if cls is game_pb2.ListRuleSetsRequest:
            return cls(include_source=r.random() < 0.5)
        if cls is health_pb2.HealthCheckRequest:
            return cls(service=r.choice(["", "lexicon.v1.LexiconService", self.text(10)]))
        if "game_id" in cls.DESCRIPTOR.fields_by_name:
            return self.game_message(cls)
        return self.any_fields(cls)

    def create_game(self):
        """A CreateGameRequest with computer seats: every level, unknown ones, seats out of range or twice,
        every seat a computer, the level 'equity' on lexicons with and without a leave table."""
        r = self.rnd
        names = r.choice([["Ann", "Bob"], ["Ann", "Bob", "Cy", "Di"], ["Ann"], [], ["Ann", "Ann"],
                          [self.text(8) for _ in range(r.randrange(1, 6))]])
        computers = [session_pb2.ComputerPlayer(seat=seat, level=level)
                     for seat, level in computer_players(r, self.text, len(names))]
        optional = {"seed": r.randrange(2**64)} if r.random() < 0.7 else {}
        if r.random() < 0.2:
            optional["overtime_penalty"] = r.randrange(2**32)
        return session_pb2.CreateGameRequest(
            lexicon=self.lexicon(), player_names=names, computer_players=computers, allow_hints=r.random() < 0.5,
            game_seconds=r.choice([0, 0, 0, 1, 60, 2**32 - 1]),
            challenge_rule=r.choice([0, 1, 2, 3, 99]), **optional)

    def any_fields(self, cls, depth: int = 0):
        """A message of `cls` with random values in its scalar fields (and nested messages, two levels)."""
        r = self.rnd
        scalars = {FieldDescriptor.TYPE_STRING: self.text, FieldDescriptor.TYPE_BOOL: lambda: r.random() < 0.5,
                   FieldDescriptor.TYPE_INT32: self.number, FieldDescriptor.TYPE_UINT32: lambda: r.randrange(2**32),
                   FieldDescriptor.TYPE_INT64: lambda: r.randrange(-2**63, 2**63),
                   FieldDescriptor.TYPE_UINT64: lambda: r.randrange(2**64)}
        message = cls()
        for fd in cls.DESCRIPTOR.fields:
            if r.random() < 0.5:
                continue
            if fd.type == FieldDescriptor.TYPE_MESSAGE:
                if depth < 2:
                    sub = message_factory.GetMessageClass(fd.message_type)
                    values = [self.any_fields(sub, depth + 1) for _ in range(r.randrange(1, 4))]
                    if fd.is_repeated:
                        getattr(message, fd.name).extend(values)
                    else:
                        getattr(message, fd.name).CopyFrom(values[0])
            elif fd.type in scalars:
                if fd.is_repeated:
                    getattr(message, fd.name).extend(scalars[fd.type]() for _ in range(r.randrange(4)))
                else:
                    setattr(message, fd.name, scalars[fd.type]())
        return message

    def game_message(self, cls):
        """A game-session request: random fields, and most of the time a real game's id, a play of the right
        shape and an expected_version near the game's."""
        r = self.rnd
        message = self.any_fields(cls)
        self.last_game = None
        if self.games and r.random() < 0.7:
            self.last_game = r.choice(self.games)
            message.game_id = self.last_game["id"]
        if cls is session_pb2.SubmitMoveRequest and r.random() < 0.7:
            message.ClearField("exchange")
            setattr(message, "pass", False)
            kind = r.random()
            if kind < 0.5:
                message.play = r.choice(["8H", "H8", "8D", "A1", "O15", "8Z", "99999A", "0A", "H"]) + " " + \
                    self.text(8).upper()
                message.ClearField("exchange")
            elif kind < 0.7:
                message.play = ""
                message.exchange = self.text(7).upper()
            else:
                message.play = ""
                setattr(message, "pass", True)
        if hasattr(message, "expected_version") and r.random() < 0.5:
            message.expected_version = r.choice([0, 1, 2, 3, 5, 2**63 - 1])
        return message

    def game_metadata(self, method: str):
        """The caller's token for a game-session call: a player's, the director's, another game's, a bad one."""
        r = self.rnd
        if "GameSessionService" not in method or not self.games or r.random() < 0.15:
            return None
        game = self.last_game if self.last_game is not None and r.random() < 0.8 else r.choice(self.games)
        token = r.choice([*game["tokens"], game["director"], "nope", "x" * 300, "a b"])  # grpc sends ASCII only
        kind = r.random()
        if kind < 0.6:
            return [("authorization", f"Bearer {token}")]
        if kind < 0.8:
            return [("x-game-token", token)]
        return [("authorization", r.choice(["Basic x", "Bearer", "bearer  " + token, token]))]

    def request_bytes(self, method: str) -> bytes:
        """What one fuzzed call sends: a message with random fields, or (RAW_SHARE of calls) raw bytes."""
        return self.raw(method) if self.rnd.random() < RAW_SHARE else self.message(method).SerializeToString()

    def raw(self, method: str) -> bytes:
        return self.raw_of(METHODS[method], self.message(method))

    def raw_of(self, cls, message=None) -> bytes:
        """Random bytes, or a message of `cls` (random fields unless given) mutated: bytes flipped, cut,
        invalid UTF-8 spliced in."""
        r = self.rnd
        kind = r.random()
        if kind < 0.25:
            return bytes(r.randrange(256) for _ in range(r.randrange(0, 64)))
        data = bytearray((message if message is not None else self.any_fields(cls)).SerializeToString())
        if kind < 0.5 and data:
            for _ in range(r.randrange(1, 4)):
                data[r.randrange(len(data))] = r.randrange(256)
        elif kind < 0.7 and data:
            del data[r.randrange(len(data)):]
        else:  # a string field with invalid UTF-8
            bad = r.choice([b"\xff", b"\xc3\x28", b"\xe2\x82", b"\xed\xa0\x80", b"\xf4\x90\x80\x80"])
            number = r.choice([1, 2, 3, 4])
            data += bytes([(number << 3) | 2, len(bad)]) + bad
        return bytes(data)


def create_games(channel, fuzzer: Fuzzer, count: int) -> None:
    """Real games for the game-session calls to act on (each lexicon in turn, every challenge rule)."""
    stub = session_pb2_grpc.GameSessionServiceStub(channel)
    rules = [session_pb2.CHALLENGE_RULE_SINGLE, session_pb2.CHALLENGE_RULE_DOUBLE, session_pb2.CHALLENGE_RULE_VOID]
    for i in range(count):
        created = stub.CreateGame(session_pb2.CreateGameRequest(
            lexicon=fuzzer.lexicons[i % len(fuzzer.lexicons)], player_names=["Ann", "Bob"], seed=i,
            challenge_rule=rules[i % len(rules)]), timeout=10)
        fuzzer.games.append({"id": created.game_id, "tokens": list(created.player_tokens),
                             "director": created.director_token})
    # Games with computer players, for the calls that challenge or follow a computer's play
    for i, (names, seats) in enumerate(COMPUTER_GAMES):
        for level in COMPUTER_LEVELS:
            lexicon = fuzzer.lexicons[(i + len(level)) % len(fuzzer.lexicons)]
            request = session_pb2.CreateGameRequest(
                lexicon=lexicon, player_names=names, seed=i, challenge_rule=rules[i % len(rules)],
                computer_players=[session_pb2.ComputerPlayer(seat=s, level=level) for s in seats])
            try:
                created = stub.CreateGame(request, timeout=10)
            except grpc.RpcError as exc:  # 'equity' with a lexicon without a leave table
                if exc.code() != grpc.StatusCode.FAILED_PRECONDITION:
                    raise
                continue
            fuzzer.games.append({"id": created.game_id, "tokens": [t or "none" for t in created.player_tokens],
                                 "director": created.director_token})


def server_cpu(pid: int) -> float:
    """CPU seconds of every thread of the process (schedstat: nanoseconds on the CPU). Read here, not with
    psutil, whose CPU times count clock ticks (10 ms): one request's CPU is a few milliseconds."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as fh:
                total += int(fh.read().split()[0])
        except (OSError, ValueError, IndexError):
            pass
    return total / 1e9


def fuzz_streams(channel, fuzzer: Fuzzer, calls: int) -> Counter:
    """`calls` calls spread over the streaming RPCs, with fuzzed requests (reflection: one to four of them);
    each stream read until it ends or for 0.2 s (a watch waits: DEADLINE_EXCEEDED is its normal end)."""
    from grpc_reflection.v1alpha import reflection_pb2

    codes: Counter = Counter()
    rnd = fuzzer.rnd
    for i in range(calls):
        method = sorted(STREAMS)[i % len(STREAMS)]
        cls = STREAMS[method] or reflection_pb2.ServerReflectionRequest
        data = [fuzzer.raw_of(cls) if rnd.random() < RAW_SHARE else fuzzer.any_fields(cls).SerializeToString()
                for _ in range(1 if STREAMS[method] else rnd.randrange(1, 5))]
        try:
            if STREAMS[method] is None:
                answers = channel.stream_stream(method, request_serializer=lambda b: b,
                                                response_deserializer=lambda b: b)(iter(data), timeout=0.2)
            else:
                answers = channel.unary_stream(method, request_serializer=lambda b: b,
                                               response_deserializer=lambda b: b)(data[0], timeout=0.2)
            for _ in answers:
                pass
            codes[(method, "OK")] += 1
        except grpc.RpcError as exc:
            codes[(method, exc.code().name)] += 1
    return codes


def fuzz_metadata(port: int, fuzzer: Fuzzer, calls: int) -> Counter:
    """`calls` calls with a header of random bytes (the token headers among the names): what grpc's own
    clients refuse to send. Over the bench's lean HTTP/2 client, one connection a call."""
    import selectors

    from loadgen import H2Connection

    codes: Counter = Counter()
    rnd = fuzzer.rnd
    methods = sorted(METHODS)
    for _ in range(calls):
        name = rnd.choice([b"authorization", b"x-game-token", b"x-other", b"grpc-timeout", b"te", b"x-bin"])
        value = bytes(rnd.choice([rnd.randrange(0x20, 0x7f), rnd.randrange(0x80, 0x100)])
                      for _ in range(rnd.randrange(0, 40)))
        method = rnd.choice(methods)
        conn = H2Connection(port, method, 0, headers=[(name, value)])
        conn.send(fuzzer.request_bytes(method), time.perf_counter())
        answers: list = []
        selector = selectors.DefaultSelector()
        selector.register(conn.sock, selectors.EVENT_READ)
        deadline = time.monotonic() + 10
        while not answers and time.monotonic() < deadline:
            if selector.select(1):
                conn.on_readable(lambda started, ok, result, tag: answers.append((ok, result)))
        selector.close()
        conn.close()
        if not answers:
            codes["no answer"] += 1
        elif answers[0][0]:
            codes["OK"] += 1
        elif answers[0][1].startswith("bad header block: Huffman"):
            codes["answered (headers Huffman-coded: not read by this client)"] += 1
        else:
            status = re.search(r"grpc-status b'(\d+)'", answers[0][1])
            codes[grpc.StatusCode[_STATUS_NAMES[int(status.group(1))]].name if status else answers[0][1][:40]] += 1
    return codes


_STATUS_NAMES = {code.value[0]: code.name for code in grpc.StatusCode}


def answer(call, data: bytes, pid: int, timeout: float, metadata=None) -> tuple[str, str, float]:
    """(status code name, details, server CPU seconds) of one call, made alone."""
    before = server_cpu(pid)
    try:
        call(data, timeout=timeout, metadata=metadata)
        code, details = "OK", ""
    except grpc.RpcError as exc:
        code, details = exc.code().name, exc.details()
    return code, details, server_cpu(pid) - before


# A line of grpc's C core log (absl format: severity, date, time, thread, file:line]).
CORE_LOG_LINE = re.compile(r"^[IWEF]\d{4} \d\d:\d\d:\d\d\.\d+ +\d+ [\w.-]+:\d+\] ", re.M)


def core_log_lines(text: str) -> int:
    """Lines of the server's log written by grpc's C core (target 0: `serve` silences it, since it logs
    one unthrottled line per header it cannot parse)."""
    return len(CORE_LOG_LINE.findall(text))


def log_summary(text: str) -> int:
    """Print what the server logged, grouped by its first line; returns the number of tracebacks (target 0:
    every failure is answered with a status and at most one rate-limited line)."""
    entries = re.split(r"\n(?=\S)(?!Traceback|  )", text.strip()) if text.strip() else []
    kinds = Counter(re.sub(r"\d+", "N", entry.splitlines()[0])[:160] for entry in entries)
    tracebacks = text.count("Traceback (most recent call last)")
    print(f"[log] the server logged {len(text.splitlines())} lines, {tracebacks} tracebacks (target 0)")
    for first, count in kinds.most_common(12):
        print(f"    {count:>6} x {first}")
    if tracebacks:
        start = text.index("Traceback (most recent call last)")
        print("    first traceback:\n      " + "\n      ".join(text[start:].splitlines()[:40]))
    return tracebacks


def largest_requests(lexicons: list[str], words: list[str]):
    """(label, method, message) for the largest requests the default limits allow."""
    lexicon = "pl-scrabble" if "pl-scrabble" in lexicons else lexicons[0]
    slow = [w + "\u0301" if i % 2 else "ſ" + w for i, w in enumerate((words * 10_000)[:10_000])]
    many = (words * 10_000)[:10_000]
    gcg_lines = ["#player1 Ala Ala", "#player2 Bob Bob"] + [">Ala: ABCDEFG 8D KOT +10 10", ">Bob: - +0 0"] * 999
    yield "CheckWords 10,000 words, slow path, include_tiles", "/lexicon.v1.LexiconService/CheckWords", \
        lexicon_pb2.CheckWordsRequest(lexicon=lexicon, words=slow, include_tiles=True)
    yield "CheckWords 10,000 words, per-word results", "/lexicon.v1.LexiconService/CheckWords", \
        lexicon_pb2.CheckWordsRequest(lexicon=lexicon, words=many)
    yield "CheckWords 10,000 NFD words", "/lexicon.v1.LexiconService/CheckWords", \
        lexicon_pb2.CheckWordsRequest(lexicon=lexicon, words=[__import__("unicodedata").normalize("NFD", w)
                                                              for w in many])
    for sep in ("\n", "\r"):
        yield f"ReplayGame 2,000 lines ({sep!r})", "/lexicon.v1.GameService/ReplayGame", \
            game_pb2.ReplayGameRequest(rule_set="pl-scrabble", gcg=sep.join(gcg_lines))
    yield "AnalyseGame 2,000 lines, a rack on each", "/lexicon.v1.GameService/AnalyseGame", \
        game_pb2.AnalyseGameRequest(lexicon=lexicon, gcg="\n".join(gcg_lines))
    yield "ReplayGame 256k characters", "/lexicon.v1.GameService/ReplayGame", \
        game_pb2.ReplayGameRequest(rule_set="pl-scrabble", gcg="#player1 a A\n#note " + "x" * (256 * 1024 - 30))
    yield "ReplayGame 4 MB (refused)", "/lexicon.v1.GameService/ReplayGame", \
        game_pb2.ReplayGameRequest(rule_set="pl-scrabble", gcg="\r>a: - +0 0" * 380_000)
    for query in ({"pattern": "*?*?*?*?*?*?*?*?*?*Ź"}, {"pattern": "*ÓŁ*"}, {"pattern": "???????????????"},
                  {"anagram": "???????????????"}, {"anagram": "AEIOUYZ??"}, {"pattern": "*A*A*A*A*A*A*A*B"},
                  {"prefix": ""}, {"pattern": "?*" * 31 + "A"}):
        yield f"FindWords {query} limit 1000", "/lexicon.v1.LexiconService/FindWords", \
            lexicon_pb2.FindWordsRequest(lexicon=lexicon, limit=1000, **query)
    # GenerateMoves: two blanks, every move up to the limit; on an empty board and on tiles every third
    # square of every third row (anchors everywhere: the costliest board found by hand, ~50 ms)
    sparse = ["".join("AEIONRSZWCYK"[(r * 3 + c) % 12] if r % 3 == 0 and c % 3 == 0 else "." for c in range(15))
              for r in range(15)]
    for label, board in (("empty board", []), ("a tile every third square", sparse)):
        yield f"GenerateMoves ??AEINS, {label}, limit 1000", "/lexicon.v1.GameService/GenerateMoves", \
            game_pb2.GenerateMovesRequest(lexicon=lexicon, board=board, rack="??AEINS", limit=1000)
    # The best 1,000 of millions of plays (a Kris Kros opening with two jokers; digraph tiles; blanks only),
    # and a limit over the server's (refused)
    for name, rack, limit in (("cs-kriskros", "KOTA??AO", 1000), ("cs-kriskros", "[CH]??ATOK", 1000),
                              (lexicon, "????????", 1000), (lexicon, "KOTA??AO", 1_000_000)):
        if name in lexicons:
            yield f"GenerateMoves {name} {rack}, empty board, limit {limit:,}", \
                "/lexicon.v1.GameService/GenerateMoves", game_pb2.GenerateMovesRequest(lexicon=name, rack=rack, limit=limit)
    yield "ExplainWord 64 characters", "/lexicon.v1.LexiconService/ExplainWord", \
        lexicon_pb2.ExplainWordRequest(lexicon=lexicon, word="ż" * 64)
    yield "ListRuleSets with sources", "/lexicon.v1.GameService/ListRuleSets", \
        game_pb2.ListRuleSetsRequest(include_source=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lexicons", default="lexicons")
    parser.add_argument("--requests", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--shared", default=None, help="unused (make bench passes it)")
    args = parser.parse_args(argv)
    names, words = lexicons_and_words(args.lexicons)
    proc = start_server(args.lexicons, "--processes", "1", log_level="INFO")
    port = proc.port
    fuzzer = Fuzzer(random.Random(args.seed), names, words)
    codes: Counter = Counter()
    worst: list[tuple[float, str, str]] = []
    internal_examples = []
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}", options=[("grpc.max_receive_message_length", 64 << 20)]) as ch:
            calls = {m: ch.unary_unary(m, request_serializer=lambda b: b, response_deserializer=lambda b: b)
                     for m in METHODS}
            health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(), timeout=10)
            create_games(ch, fuzzer, 9)
            rss_start, _ = rss_mb(proc.pid)
            started = time.monotonic()
            method_names = [m for m in METHODS if m not in LISTINGS]
            for i in range(args.requests):
                # the listings are large answers and never take input: one in fifty calls
                method = fuzzer.rnd.choice(LISTINGS) if i % 50 == 49 else fuzzer.rnd.choice(method_names)
                data = fuzzer.request_bytes(method)
                metadata = fuzzer.game_metadata(method)
                code, details, cpu = answer(calls[method], data, proc.pid, 30, metadata)
                if code in SERVER_ERRORS and len(internal_examples) < 10:
                    internal_examples.append((method, data[:200], metadata, details))
                codes[code] += 1
                if len(worst) < 5 or cpu > worst[-1][0]:
                    worst = sorted(worst + [(cpu, method, repr(data[:120]))], reverse=True)[:5]
                if (i + 1) % 20_000 == 0:
                    print(f"  {i + 1:>7} requests, {time.monotonic() - started:6.1f} s, "
                          f"INTERNAL so far {codes['INTERNAL'] + codes['UNKNOWN']}, "
                          f"server RSS {rss_mb(proc.pid)[0]:.0f} MB", flush=True)
            elapsed = time.monotonic() - started
            rss_fuzzed, _ = rss_mb(proc.pid)
            print(f"[fuzz] {args.requests} requests ({RAW_SHARE:.0%} raw bytes) in {elapsed:.0f} s; answers: "
                  + ", ".join(f"{k} {v}" for k, v in codes.most_common()))
            bad = codes["INTERNAL"] + codes["UNKNOWN"]
            print(f"[fuzz] answered INTERNAL/UNKNOWN: {bad} (target 0)")
            for method, data, metadata, details in internal_examples:
                print(f"    {method} {data!r} {metadata!r}: {details}")
            print(f"[fuzz] worst server CPU for one fuzzed request: {worst[0][0] * 1000:.1f} ms ({worst[0][1]})")
            print(f"[fuzz] server RSS {rss_start:.0f} MB after start-up, {rss_fuzzed:.0f} MB after fuzzing")
            extra = min(1000, max(40, args.requests // 100))
            streams = fuzz_streams(ch, fuzzer, extra)
            print(f"[streams] {sum(streams.values())} calls: "
                  + ", ".join(f"{m.split('/')[1].removeprefix('grpc.')}/{m.rsplit('/', 1)[1]} {c} {n}"
                              for (m, c), n in sorted(streams.items())))
            bad += sum(n for (_, code), n in streams.items() if code in SERVER_ERRORS)
            headers = fuzz_metadata(port, fuzzer, extra)
            print(f"[metadata] {sum(headers.values())} calls with a header of random bytes: "
                  + ", ".join(f"{k} {v}" for k, v in headers.most_common()))
            bad += headers["UNKNOWN"] + headers["no answer"]
            # The largest requests, one at a time: CPU and growth of the peak resident set.
            worst_cpu = worst[0][0]
            worst_growth = 0.0
            for label, method, message in largest_requests(names, words):
                data = message.SerializeToString()
                rss_before, _ = rss_mb(proc.pid)
                reset_peak(proc.pid)
                code, _, cpu = answer(calls[method], data, proc.pid, 60)
                bad += code in SERVER_ERRORS
                rss_after, hwm = rss_mb(proc.pid)
                growth = max(0.0, hwm - rss_before)
                worst_cpu = max(worst_cpu, cpu)
                worst_growth = max(worst_growth, growth)
                print(f"[max] {label:<58} {code:<17} {len(data) / 1024:7.0f} KiB  cpu {cpu * 1000:6.1f} ms  "
                      f"peak +{growth:5.1f} MB  rss after {rss_after:5.0f} MB")
    finally:
        stop_server(proc)
    tracebacks = log_summary(server_log(proc))
    core_lines = core_log_lines(server_log(proc))
    print(f"[log] lines from grpc's C core: {core_lines} (target 0; {extra} calls had a random header)")
    ok = (bad == 0 and tracebacks == 0 and core_lines == 0 and worst_cpu <= CPU_BOUND_S
          and worst_growth <= MEMORY_BOUND_MB)
    total = args.requests + 2 * extra + sum(1 for _ in largest_requests(names, words))
    print(f"[summary] INTERNAL/UNKNOWN {bad} of {total}; tracebacks logged {tracebacks}; core log lines {core_lines}; "
          f"worst CPU {worst_cpu * 1000:.0f} ms (bound {CPU_BOUND_S * 1000:.0f}); worst peak growth "
          f"{worst_growth:.1f} MB (bound {MEMORY_BOUND_MB:.0f}): {'ok' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
