"""A damaged, full or failing games database: refused at start, refused per game at run time, a bounded WAL,
writes and health that come back once space is freed, and database errors logged once per kind per interval."""

from __future__ import annotations

import logging
import os
import random
import re
import shlex
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import grpc
import httpx
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from lexicon_service.cli import main
from lexicon_service.errors import DatabaseDamaged, GameDamaged, StoreUnavailable
from lexicon_service.games.sessions import GameSessions
from lexicon_service.games.store import SqliteStore
from lexicon_service.grpc_gen import session_pb2, session_pb2_grpc
from lexicon_service.http import HttpServer, create_app
from lexicon_service.ratelimit import OncePerInterval
from lexicon_service.rules import load_rule_set
from lexicon_service.server import create_server
from lexicon_service.server.server import GAME_SESSION_SERVICE, LEXICON_SERVICE
from tests.game_helpers import FakeClock, find_play, two_tile_lexicons

RULE_SET = "pl-scrabble"


def play_games(path: Path, games: int, moves: int = 3, **store_options) -> dict[str, list]:
    """`games` games with a few moves each (every third one ended) in a fresh file; {game id: its rows}."""
    rs = load_rule_set(RULE_SET)
    store = SqliteStore(path, synchronous="OFF", **store_options)
    service = GameSessions(store, clock=FakeClock(), max_games=None)
    try:
        for i in range(games):
            game_id, tokens, director, _ = service.create_game(RULE_SET, rs, ["A", "B"], seed=i)
            for _ in range(moves):
                state, _, _ = service.get_game(game_id, None)
                p = state.turn
                play = find_play(rs, state.board.to_rows(), state.racks[p], max_tiles=2)
                service.submit_move(game_id, tokens[p], play=play) if play else service.submit_move(
                    game_id, tokens[p], pass_=True)
            if i % 3 == 0:
                service.end_game(game_id, director, "done")
        return {game_id: store.load(game_id) for game_id in store.game_ids()}
    finally:
        store.close()


def damage_pages(path: Path, pages: int, seed: int = 1) -> None:
    """Overwrite `pages` whole pages in the middle of the file with random bytes."""
    rnd = random.Random(seed)
    count = path.stat().st_size // 4096
    with open(path, "r+b") as fh:
        for page in rnd.sample(range(count // 4, 3 * count // 4), pages):
            fh.seek(page * 4096)
            fh.write(rnd.randbytes(4096))


def damage_a_leaf(path: Path) -> None:
    """Overwrite the header of the first b-tree leaf page of an index (a WITHOUT ROWID table's rows are one)
    in the second half of the file: reading it fails with SQLITE_CORRUPT."""
    data = path.read_bytes()
    pages = len(data) // 4096
    page = next(p for p in range(pages // 2, pages) if data[p * 4096] == 0x0A)
    with open(path, "r+b") as fh:
        fh.seek(page * 4096)
        fh.write(b"\xff" * 12)


def refused_games(store, original: dict[str, list]) -> set[str]:
    """The games of `original` that reading refuses (GameDamaged); every other one must read as written."""
    service = GameSessions(store, clock=FakeClock(), max_games=None)
    refused = set()
    for game_id, rows in original.items():
        try:
            state = service.fold_rows(game_id, store.load(game_id))
        except GameDamaged:
            refused.add(game_id)
            continue
        assert state.version == len(rows) and store.load(game_id) == rows
    return refused


# --- damage found at start -------------------------------------------------------------------------
def test_a_damaged_file_is_refused_at_start_with_advice_that_works(tmp_path, capsys):
    path = tmp_path / "games.db"
    original = play_games(path, 40)
    damage_pages(path, 3)
    with pytest.raises(DatabaseDamaged) as info:
        SqliteStore(path)
    message = str(info.value)
    assert "\n" not in message and str(path) in message and "damaged" in message and "backup" in message
    lexicons = tmp_path / "lex"  # the server refuses before it loads anything
    lexicons.mkdir()
    with pytest.raises(OSError, match="is damaged") as served:
        create_server("localhost:0", lexicons, games_db=str(path), load=False)
    assert "\n" not in str(served.value)
    command = re.search(r"into a new file: lexicon-service (recover-games .*?) \(and serve --db (\S+)\)", message)
    assert main(shlex.split(command.group(1))) == 0
    assert "left out" in capsys.readouterr().out
    recovered = SqliteStore(command.group(2))  # opens: it passes the check
    try:
        copied = {game_id: original[game_id] for game_id in recovered.game_ids()}
        assert copied and not refused_games(recovered, copied)  # every game copied reads as it was written
        assert recovered.live_games() == sum(rows[-1][1] != "end" for rows in copied.values())
        assert recovered.writable and recovered.append("0123456789abcdef", 0, [("created", "{}")]) == 1
    finally:
        recovered.close()


def test_recover_games_copies_each_game_whole_or_not_at_all(tmp_path, capsys):
    for seed in range(1, 6):
        path = tmp_path / f"games-{seed}.db"
        original = play_games(path, 40)
        damage_pages(path, 3, seed=seed)
        new = tmp_path / f"new-{seed}.db"
        assert main(["recover-games", str(path), str(new)]) == 0, capsys.readouterr().err
        capsys.readouterr()
        store = SqliteStore(new)
        try:
            copied = {game_id: original[game_id] for game_id in store.game_ids()}
            assert copied and not refused_games(store, copied)
        finally:
            store.close()


def test_recover_games_refuses_what_it_cannot_use_in_one_line(tmp_path, capsys):
    text = tmp_path / "notes.txt"
    text.write_text("not a database\n" * 500)
    existing = tmp_path / "existing.db"
    existing.write_bytes(b"")
    for damaged, new in ((tmp_path / "missing.db", tmp_path / "a.db"), (text, tmp_path / "b.db"),
                         (text, existing), (text, tmp_path / "no" / "dir.db")):
        assert main(["recover-games", str(damaged), str(new)]) == 2
        err = capsys.readouterr().err.strip()
        assert err and "\n" not in err and "Traceback" not in err, err
    assert not (tmp_path / "a.db").exists() and not (tmp_path / "b.db").exists()


def test_serve_refuses_a_damaged_file_in_one_line_and_a_wal_limit_out_of_bounds(tmp_path, capsys):
    path = tmp_path / "games.db"
    play_games(path, 30)
    damage_pages(path, 3)
    lexicons = tmp_path / "lex"
    lexicons.mkdir()
    serve = ["serve", "--address", "127.0.0.1:0", "--lexicons", str(lexicons), "--processes", "1"]
    assert main([*serve, "--db", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and f"the games database {path} is damaged" in err and "recover-games" in err, err
    assert main([*serve, "--db", str(tmp_path / "other.db"), "--db-wal-limit", "0"]) == 2
    assert "--db-wal-limit must be at least 1" in capsys.readouterr().err


# --- damage found at run time ----------------------------------------------------------------------
def test_a_game_whose_stored_events_cannot_be_read_is_refused(tmp_path):
    path = tmp_path / "games.db"
    original = play_games(path, 6)
    store = SqliteStore(path, synchronous="OFF")
    changes = []
    store.on_change(changes.append)
    service = GameSessions(store, clock=FakeClock(), max_games=None)
    damaged, gap, intact = sorted(original)[:3]
    with sqlite3.connect(path) as conn:  # as a damaged page of text would read: not the JSON that was written
        conn.execute("UPDATE events SET data = '{\"pla' WHERE game_id = ? AND version = 3", (damaged,))
        conn.execute("DELETE FROM events WHERE game_id = ? AND version = 2", (gap,))
    try:
        assert store.writable
        for game_id in (damaged, gap):
            with pytest.raises(GameDamaged, match=game_id):
                service.get_game(game_id, None)
        with pytest.raises(GameDamaged):  # nor moved on
            service.submit_move(damaged, None, pass_=True)
        state, _, _ = service.get_game(intact, None)  # the file's structure is sound: other games go on
        assert state.version == len(original[intact]) and store.writable and changes == []
    finally:
        store.close()


@pytest.mark.parametrize("damage", ["a leaf header", "whole pages"])
def test_pages_damaged_under_a_running_store_never_serve_a_game_differently(tmp_path, damage):
    path = tmp_path / "games.db"
    original = play_games(path, 60)
    store = SqliteStore(path, synchronous="OFF")  # passes its check; the pages are damaged afterwards
    changes = []
    store.on_change(changes.append)
    try:
        damage_a_leaf(path) if damage == "a leaf header" else damage_pages(path, 4, seed=7)
        refused = refused_games(store, original)  # every other game reads as written
        assert refused
        if damage == "a leaf header":  # SQLITE_CORRUPT: the file takes no more writes, the games' health is off
            assert not store.writable and changes == [False]
            intact = next(game_id for game_id in original if game_id not in refused)
            with pytest.raises(StoreUnavailable, match="damaged"):
                store.append(intact, len(original[intact]), [("pass", "{}")])
    finally:
        store.close()


# --- the write-ahead log -----------------------------------------------------------------------------
def test_the_wal_stays_within_its_limit_under_load_and_is_truncated_when_idle(tmp_path):
    limit = 1 << 20
    store = SqliteStore(tmp_path / "games.db", synchronous="OFF", wal_limit=limit)
    sizes = []
    stop = threading.Event()

    def reader():  # readers all the time: the passive checkpoints alone never reset the WAL
        while not stop.is_set():
            store.load("g0", 0)

    def writer(w):
        for version in range(1, 301):
            store.append(f"g{w}", version - 1, [("move", "x" * 2000)])
            sizes.append(store.wal_size())

    readers = [threading.Thread(target=reader) for _ in range(2)]
    writers = [threading.Thread(target=writer, args=(w,)) for w in range(4)]
    try:
        for thread in readers + writers:
            thread.start()
        for thread in writers:
            thread.join()
        stop.set()
        for thread in readers:
            thread.join()
        assert store.appends == 1200
        assert max(sizes) <= limit, f"the WAL reached {max(sizes):,} bytes"
        deadline = time.monotonic() + 10
        while store.wal_size() and time.monotonic() < deadline:  # idle: checkpointed and truncated
            time.sleep(0.1)
        assert store.wal_size() == 0
    finally:
        stop.set()
        store.close()


# --- a full disk -----------------------------------------------------------------------------------------
def fill(directory: Path) -> Path:
    """A file taking every free byte of the file system."""
    filler = directory / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
    try:
        for chunk in (1 << 16, 4096, 512, 1):
            try:
                while True:
                    os.write(fd, b"\0" * chunk)
            except OSError:
                pass
    finally:
        os.close(fd)
    return filler


def wait_for(condition, seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def test_a_full_disk_refuses_writes_retryably_and_they_come_back_when_space_is_freed(tiny_filesystem, caplog):
    store = SqliteStore(tiny_filesystem / "games.db")
    changes = []
    store.on_change(changes.append)
    try:
        version = store.append("g1", 0, [("created", "{}")])
        filler = fill(tiny_filesystem)
        refused = 0
        with caplog.at_level(logging.WARNING, logger="lexicon_service.games.store"):
            for _ in range(60):
                try:
                    version = store.append("g1", version, [("move", "y" * 3000)])
                except StoreUnavailable as exc:
                    assert "nothing was stored" in str(exc)
                    refused += 1
        assert refused and not store.writable and changes == [False]
        assert [v for v, _, _ in store.load("g1")] == list(range(1, version + 1))  # every acknowledged write, no other
        lines = [r for r in caplog.records if r.name == "lexicon_service.games.store"]
        assert len(lines) <= 2, [r.getMessage() for r in lines]  # one line per kind per interval
        filler.unlink()
        assert wait_for(lambda: store.writable), "writes did not come back after space was freed"
        assert changes == [False, True]
        assert store.append("g1", version, [("move", "z")]) == version + 1
    finally:
        store.close()


def test_health_follows_the_games_database_over_grpc_and_http(tiny_filesystem, tmp_path):
    lexicons = two_tile_lexicons(tmp_path, [RULE_SET])
    server, port = create_server("localhost:0", lexicons, games_db=str(tiny_filesystem / "games.db"))
    server.start()
    web = HttpServer(create_app(server.registry, servicers={"session": server.game_sessions},
                                service_health=server.health_status), "localhost:0").start()
    channel = grpc.insecure_channel(f"localhost:{port}")
    health = health_pb2_grpc.HealthStub(channel)
    games = session_pb2_grpc.GameSessionServiceStub(channel)

    def status(service):
        return health.Check(health_pb2.HealthCheckRequest(service=service), timeout=10).status

    def create():
        return games.CreateGame(session_pb2.CreateGameRequest(lexicon=RULE_SET, player_names=["A", "B"]), timeout=10)

    try:
        create()
        assert status(GAME_SESSION_SERVICE) == health_pb2.HealthCheckResponse.SERVING
        filler = fill(tiny_filesystem)
        for _ in range(20):
            try:
                create()
            except grpc.RpcError as exc:
                assert exc.code() == grpc.StatusCode.UNAVAILABLE, exc.details()
                break
        else:
            pytest.fail("a full disk took 20 more games")
        assert status(GAME_SESSION_SERVICE) == health_pb2.HealthCheckResponse.NOT_SERVING
        assert status("") == status(LEXICON_SERVICE) == health_pb2.HealthCheckResponse.SERVING  # word checks
        with httpx.Client(base_url=web.url, timeout=10) as http:
            answer = http.get("/healthz", params={"service": GAME_SESSION_SERVICE})
            assert answer.status_code == 503 and answer.json() == {"status": "NOT_SERVING"}
            assert http.get("/healthz").status_code == 200
            assert http.get("/healthz", params={"service": "no.such.Service"}).status_code == 404
            filler.unlink()
            assert wait_for(lambda: status(GAME_SESSION_SERVICE) == health_pb2.HealthCheckResponse.SERVING)
            assert http.get("/healthz", params={"service": GAME_SESSION_SERVICE}).status_code == 200
        create()
    finally:
        channel.close()
        web.stop()
        server.stop(None).wait()


def test_a_damaged_page_is_data_loss_naming_the_game_and_turns_games_health_off(tmp_path):
    lexicons = two_tile_lexicons(tmp_path, [RULE_SET])
    path = tmp_path / "games.db"
    original = play_games(path, 60)
    server, port = create_server("localhost:0", lexicons, games_db=str(path))
    server.start()
    damage_a_leaf(path)
    try:
        with grpc.insecure_channel(f"localhost:{port}") as channel:
            games = session_pb2_grpc.GameSessionServiceStub(channel)
            lost = []
            for game_id in original:
                try:
                    answer = games.GetGame(session_pb2.GetGameRequest(game_id=game_id), timeout=10)
                except grpc.RpcError as exc:
                    assert exc.code() == grpc.StatusCode.DATA_LOSS and game_id in exc.details(), exc.details()
                    lost.append(game_id)
                else:
                    assert answer.version == len(original[game_id])
            assert lost
            health = health_pb2_grpc.HealthStub(channel)
            assert health.Check(health_pb2.HealthCheckRequest(service=GAME_SESSION_SERVICE),
                                timeout=10).status == health_pb2.HealthCheckResponse.NOT_SERVING
            with pytest.raises(grpc.RpcError) as info:
                games.CreateGame(session_pb2.CreateGameRequest(lexicon=RULE_SET, player_names=["A", "B"]), timeout=10)
            assert info.value.code() == grpc.StatusCode.UNAVAILABLE
    finally:
        server.stop(None).wait()


# --- a read-only file -----------------------------------------------------------------------------------
READ_ONLY_CHILD = """
import os, sys, time
from lexicon_service.cli import main
from lexicon_service.errors import StoreUnavailable
from lexicon_service.games.store import SqliteStore
if len(sys.argv) > 2:  # root writes any file: become that user (after the imports: python is under /root)
    os.setgroups([])
    os.setgid(int(sys.argv[2]))
    os.setuid(int(sys.argv[2]))
store = SqliteStore(sys.argv[1])
print("writable" if store.writable else "unwritable", flush=True)
try:
    store.append("g1", 1, [("move", "{}")])
    print("appended", flush=True)
except StoreUnavailable:
    print("refused", flush=True)
sys.stdin.readline()  # the file is writable now
deadline = time.monotonic() + 10
while not store.writable and time.monotonic() < deadline:
    time.sleep(0.05)
print("writable" if store.writable else "unwritable", store.append("g1", 1, [("move", "{}")]), flush=True)
store.close()
"""


def test_a_read_only_file_is_unwritable_from_the_start_and_writable_once_it_is(tmp_path):
    directory = Path(tempfile.mkdtemp(prefix="games-read-only-"))  # outside pytest's 0700 directory
    try:
        path = directory / "games.db"
        store = SqliteStore(path)
        store.append("g1", 0, [("created", "{}")])
        store.close()
        as_user = []
        if os.geteuid() == 0:  # root writes any file: the store runs as nobody
            as_user = ["65534"]
            for name in (directory, *directory.iterdir()):
                os.chown(name, 65534, 65534)
        path.chmod(0o444)
        child = subprocess.Popen([sys.executable, "-c", READ_ONLY_CHILD, str(path), *as_user], stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                 cwd=Path(__file__).resolve().parent.parent)
        try:
            assert child.stdout.readline().split() == ["unwritable"], child.stderr.read() if child.poll() else ""
            assert child.stdout.readline().strip() == "refused"
            for name in directory.glob("games.db*"):  # SQLite made -wal and -shm with the file's permissions
                name.chmod(0o644)
            child.stdin.write("go\n")
            child.stdin.flush()
            assert child.stdout.readline().split() == ["writable", "2"], child.stderr.read()
            assert child.wait(timeout=30) == 0
        finally:
            if child.poll() is None:
                child.kill()
                child.wait()
    finally:
        shutil.rmtree(directory, ignore_errors=True)


# --- the log ---------------------------------------------------------------------------------------------
def test_a_repeated_error_is_logged_once_per_interval_with_a_count():
    now = [0.0]
    limit = OncePerInterval(10.0, clock=lambda: now[0])

    def record(message):
        return logging.LogRecord("x", logging.WARNING, __file__, 1, message, ("disk full",), None)

    passed = [r for r in (record("write failed: %s") for _ in range(100)) if limit.filter(r)]
    assert len(passed) == 1
    assert limit.filter(record("another kind: %s"))
    now[0] = 11.0
    later = record("write failed: %s")
    assert limit.filter(later) and later.getMessage() == "write failed: disk full (99 more like it in the 11 s " \
                                                         "before, not logged)"
