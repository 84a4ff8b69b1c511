"""Helpers for the server-held game tests: lexicons of every two-tile word, a fake clock, a client per
player, and a simple move finder (any placement in line; words are judged only when challenged)."""

from __future__ import annotations

import contextlib
import random
import subprocess
import sys
from pathlib import Path

import grpc

from lexicon_service.grpc_gen import session_pb2, session_pb2_grpc
from lexicon_service.http import HttpServer, create_app
from lexicon_service.movegen import generate_moves
from lexicon_service.movegen.selfplay import bag_of
from lexicon_service.rules import Board, load_rule_set, validate_move
from lexicon_service.server import create_server
from lexicon_service.tiles import BLANK

BUILD = str(Path(sys.executable).parent / "lexicon-build")


def two_tile_words(rule_set_id: str) -> list[str]:
    """Every two-tile word of a rule set (a C tile then an H tile is left out where CH is one tile: a word
    list cannot spell it apart)."""
    ts = load_rule_set(rule_set_id).tile_set
    letters = [t.letter for t in ts.tiles]
    words = []
    for a in letters:
        for b in letters:
            if (a + b).upper() in ts.letters:
                continue
            words.append((a + b).lower())
    return words


def build_lexicon(directory: Path, rule_set_id: str, words) -> Path:
    target = directory / f"{rule_set_id}.lex"
    src = directory.parent / f"{rule_set_id}.words.txt"
    src.write_text("\n".join(words) + "\n", encoding="utf-8")
    subprocess.run([BUILD, "--rules", rule_set_id, "--words", str(src), "-o", str(target), "--name", rule_set_id,
                    "--quiet"], check=True, capture_output=True)
    return target


def two_tile_lexicons(base: Path, rule_set_ids) -> Path:
    """`base/lex`, holding a lexicon of every two-tile word (two_tile_words) per rule set."""
    directory = base / "lex"
    directory.mkdir()
    for rule_set_id in rule_set_ids:
        build_lexicon(directory, rule_set_id, two_tile_words(rule_set_id))
    return directory


class FakeClock:
    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class Player:
    """One client (its own channel) acting with one token."""

    def __init__(self, port: int, game_id: str, token: str) -> None:
        self.channel = grpc.insecure_channel(f"localhost:{port}")
        self.stub = session_pb2_grpc.GameSessionServiceStub(self.channel)
        self.game_id = game_id
        self.token = token

    @property
    def md(self):
        return [("authorization", f"Bearer {self.token}")] if self.token else []

    def get(self):
        return self.stub.GetGame(session_pb2.GetGameRequest(game_id=self.game_id), metadata=self.md, timeout=10)

    def play(self, text: str, **kw):
        return self.stub.SubmitMove(session_pb2.SubmitMoveRequest(game_id=self.game_id, play=text, **kw),
                                    metadata=self.md, timeout=10)

    def exchange(self, tiles: str, **kw):
        return self.stub.SubmitMove(session_pb2.SubmitMoveRequest(game_id=self.game_id, exchange=tiles, **kw),
                                    metadata=self.md, timeout=10)

    def pass_(self, **kw):
        return self.stub.SubmitMove(session_pb2.SubmitMoveRequest(game_id=self.game_id, **{"pass": True}, **kw),
                                    metadata=self.md, timeout=10)

    def challenge(self, **kw):
        return self.stub.Challenge(session_pb2.ChallengeRequest(game_id=self.game_id, **kw), metadata=self.md,
                                   timeout=10)

    def record(self) -> str:
        return self.stub.GetGameRecord(session_pb2.GetGameRecordRequest(game_id=self.game_id), metadata=self.md,
                                       timeout=10).gcg

    def close(self) -> None:
        self.channel.close()


def create(port: int, lexicon: str, names=("Ann", "Bob"), **kw):
    with grpc.insecure_channel(f"localhost:{port}") as ch:
        stub = session_pb2_grpc.GameSessionServiceStub(ch)
        created = stub.CreateGame(session_pb2.CreateGameRequest(lexicon=lexicon, player_names=list(names), **kw),
                                  timeout=10)
    players = [Player(port, created.game_id, t) for t in created.player_tokens]
    director = Player(port, created.game_id, created.director_token)
    return created, players, director


def tiles_of(rule_set, rack_text: str) -> list[str]:
    return list(rule_set.tile_set.spell_rack(rack_text))


def tile_text(tile: str, rule_set=None) -> str:
    """A rack tile as play text: a blank shows a lowercase A, a multi-letter tile is bracketed."""
    if tile == BLANK:
        return "a"
    bracket = len(tile) > 1 or (rule_set is not None and rule_set.tile_set.multi_letter_tiles)
    return f"[{tile}]" if bracket else tile


def two_tile_play(rule_set, rack: list[str], position: str) -> str:
    """The first two rack tiles that make a word of the two-tile lexicon, as a play at `position`."""
    for i, a in enumerate(rack):
        for b in rack[i + 1:]:
            if a != BLANK and b != BLANK and (a + b) in rule_set.tile_set.letters:
                continue
            return f"{position} {tile_text(a, rule_set)}{tile_text(b, rule_set)}"
    raise AssertionError(f"no two-tile word in {rack}")


def find_play(rule_set, board_rows, rack: list[str], max_tiles: int | None = None) -> str | None:
    """A legal placement of as many rack tiles as possible, words unjudged (the longest found first)."""
    board = Board.from_rows(rule_set, list(board_rows)) if board_rows else Board.empty(rule_set)
    rows, cols = board.rows, board.columns
    if board.is_empty():
        centre = rule_set.first_play.must_cover or (rows // 2, cols // 2)
        anchors = [centre]
    else:
        anchors = []
        for r in range(rows):
            for c in range(cols):
                if board.get(r, c) is None and any(board.get(r + dr, c + dc) is not None
                                                   for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))):
                    anchors.append((r, c))
    pieces = [tile_text(t, rule_set) for t in rack]
    for k in range(min(len(rack), max_tiles or len(rack)), 0, -1):
        for r, c in anchors:
            for across in (True, False):
                text, placed, rr, cc = [], 0, r, c
                while placed < k and 0 <= rr < rows and 0 <= cc < cols:
                    if board.get(rr, cc) is not None:
                        text.append(".")
                    else:
                        text.append(pieces[placed])
                        placed += 1
                    rr, cc = (rr, cc + 1) if across else (rr + 1, cc)
                if placed < k:
                    continue
                coordinate = f"{r + 1}{chr(65 + c)}" if across else f"{chr(65 + c)}{r + 1}"
                play = f"{coordinate} {''.join(text)}"
                result = validate_move(rule_set, board, rack, play)
                if result.valid:
                    return play
    return None


def small_endgames(lexicon, count: int, seed: int, tiles=(1, 3)):
    """A board of a few words and two racks of `tiles` tiles each, every tile from the set's own."""
    rs = lexicon.rule_set
    rng = random.Random(seed)
    made = 0
    while made < count:
        bag = [t for t in bag_of(rs, "AKOTDME") if t != "?"]
        rng.shuffle(bag)
        board = Board.empty(rs)
        for _ in range(rng.randint(1, 3)):
            rack = [bag.pop() for _ in range(5)]
            moves = generate_moves(rs, board, "".join(rack), lexicon, limit=3, include_exchanges=False,
                                   include_pass=False)
            if moves:
                result = validate_move(rs, board, "".join(rack), rng.choice(moves).play, lexicon=lexicon)
                board.apply(result)
                for tile in result.tiles_used:
                    rack.remove(tile)
            bag[:0] = rack
        if board.is_empty():
            continue
        made += 1
        yield board, "".join(bag.pop() for _ in range(rng.randint(*tiles))), \
            "".join(bag.pop() for _ in range(rng.randint(*tiles)))


@contextlib.contextmanager
def game_servers(lexicon_dir, games_db, **server_options):
    """A started gRPC server on `lexicon_dir` keeping its games in `games_db`, and the JSON API over its
    game sessions: (gRPC server, its port, HTTP server); both stopped on exit."""
    srv, port = create_server("localhost:0", lexicon_dir, games_db=str(games_db), **server_options)
    srv.start()
    try:
        web = HttpServer(create_app(srv.registry, servicers={"session": srv.game_sessions}), "localhost:0").start()
        try:
            yield srv, port, web
        finally:
            web.stop()
    finally:
        srv.stop(None).wait()
