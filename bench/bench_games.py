"""Benchmark of server-held games (GameSessionService) against a real server over loopback.

    python bench/bench_games.py --lexicons lexicons [--seconds 5] [--kills 50]

Starts `lexicon-service serve --db <temp>/games.db` (the default of one process per core) and measures:
  * baseline: raw SQLite commits/s on the same disk, one fsync'd single-row transaction each (WAL,
    synchronous=FULL, what the store uses), measured in this run; every rate below is also given as
    a ratio to it;
  * sustained moves/s over 200 concurrent Kris Kros games, every move acknowledged only after its
    fsync'd commit (a closed loop: each game sends its next move when the last one is answered);
  * SubmitMove latency (p50, p99) with moves offered at 500/s on a fixed schedule (an open loop,
    latency counted from the scheduled start);
  * acknowledged moves lost across SIGKILL + restart, in a loop of --kills kills: moves are made on
    8 games until the whole server (every process) is killed at a random moment; every acknowledged
    move must then be in the database file and served after the restart. Each move carries its
    expected_version, half of them a request_id too; a move whose answer the kill took (or, one in
    500, whose answer the client drops as if the network had lost it) is sent again after the
    restart, and a move the file shows was made must then get its first answer (replayed): counted
    are "committed calls whose retry was told they failed" and those made twice;
  * memory per open game: the traced Python memory of a game's cached state (tracemalloc, in process,
    1,000 games after 20 moves each), and the server's RSS growth per game over the 200-game phase.

The moves are one-tile exchanges in cs-kriskros: Kris Kros has no bag minimum for an exchange and no
scoreless-turn limit, so a game never ends and every move is legal. An exchange goes through the
same path as a play (token, turn, clock, rack check, decision, event append, group commit, state
update, answer with the game view); its decision costs a bag shuffle where a play costs a move
validation (in-process timings of both are printed). The load generator is the lean HTTP/2 client
of bench/loadgen.py (`H2Connection`, `run_load`), one connection per player.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import grpc  # noqa: E402

try:
    from lexicon_service.grpc_gen import session_pb2, session_pb2_grpc  # noqa: E402
except ImportError:
    from tools import gen_proto  # noqa: E402

    gen_proto.generate()
    from lexicon_service.grpc_gen import session_pb2, session_pb2_grpc  # noqa: E402

from loadgen import (  # noqa: E402
    H2Connection, LoadResult, cpu_seconds, load_average, percentile, rss_mb, run_load, start_server,
)

TARGETS = {"moves_per_s": 1000.0, "p99_ms_at_500": 20.0, "lost": 0, "kb_per_game": 50.0, "told_failed": 0}
LEXICON = "cs-kriskros"
SUBMIT = "/lexicon.v1.GameSessionService/SubmitMove"


# --- baseline ------------------------------------------------------------------------------------------
def raw_commits_per_s(directory: Path, seconds: float) -> float:
    path = directory / "baseline.db"
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)")
    payload = "x" * 300
    n = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("INSERT INTO t (v) VALUES (?)", (payload,))
        conn.execute("COMMIT")
        n += 1
    rate = n / (time.perf_counter() - started)
    conn.close()
    return rate


# --- the server ------------------------------------------------------------------------------------------
def kill_server(proc, sig=signal.SIGKILL) -> None:
    """SIGKILL: every server process at once (the process group). SIGTERM: to the supervisor only, which
    relays it (a second SIGTERM arriving while a server is stopping would find stop() holding its lock)."""
    try:
        if sig == signal.SIGKILL:
            os.killpg(proc.pid, sig)
        else:
            proc.send_signal(sig)
    except ProcessLookupError:
        pass
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


# --- games -----------------------------------------------------------------------------------------------
def first_tile(rack: str) -> str:
    return rack[: rack.index("]") + 1] if rack.startswith("[") else rack[0]


def create_games(port: int, n: int, seed0: int):
    games = []
    with grpc.insecure_channel(f"127.0.0.1:{port}") as ch:
        stub = session_pb2_grpc.GameSessionServiceStub(ch)
        for i in range(n):
            created = stub.CreateGame(session_pb2.CreateGameRequest(lexicon=LEXICON, player_names=["A", "B"],
                                                                    seed=seed0 + i), timeout=30)
            racks = []
            for token in created.player_tokens:
                racks.append(stub.GetGame(session_pb2.GetGameRequest(game_id=created.game_id),
                                          metadata=[("authorization", f"Bearer {token}")], timeout=30).rack)
            games.append({"id": created.game_id, "tokens": list(created.player_tokens), "racks": racks, "turn": 0,
                          "busy": False, "version": created.version})
    return games


def _connect(port: int, token: str, number: int) -> H2Connection:
    return H2Connection(port, SUBMIT, number, headers=[(b"authorization", f"Bearer {token}".encode())])


def drive(port: int, games, seconds: float, rate: float | None) -> LoadResult:
    """Moves on every game until `seconds` pass (run_load, a slot per game): closed loop (rate None) or
    `rate` moves/s on a schedule. A game whose move is unanswered, or failed, takes no new one."""
    conns = []
    for game in games:
        game["conns"] = [_connect(port, token, len(conns) + p) for p, token in enumerate(game["tokens"])]
        conns.extend(game["conns"])
        game["busy"] = False

    def send(g: int, started: float):
        game = games[g]
        if game["busy"]:
            return False
        p = game["turn"]
        message = session_pb2.SubmitMoveRequest(game_id=game["id"], exchange=first_tile(game["racks"][p]))
        game["busy"] = True
        game["conns"][p].send(message.SerializeToString(), started, g)

    def check(result: bytes, g: int) -> None:
        game = games[g]
        answer = session_pb2.SubmitMoveResponse.FromString(result[5:])  # after the gRPC length prefix
        game["racks"][game["turn"]] = answer.rack
        game["turn"] = answer.game.turn
        game["busy"] = False

    return run_load(conns, send, check, seconds, rate=rate, slots=len(games))



def open_games(port: int, n: int, threads: int = 8) -> int:
    """Create n games and read each (so every server process caches it) over `threads` connections."""

    def work(count):
        with grpc.insecure_channel(f"127.0.0.1:{port}") as ch:
            stub = session_pb2_grpc.GameSessionServiceStub(ch)
            for _ in range(count):
                created = stub.CreateGame(session_pb2.CreateGameRequest(lexicon=LEXICON, player_names=["A", "B"]),
                                          timeout=30)
                for token in created.player_tokens:
                    stub.GetGame(session_pb2.GetGameRequest(game_id=created.game_id),
                                 metadata=[("authorization", f"Bearer {token}")], timeout=30)

    pool = [threading.Thread(target=work, args=(n // threads,)) for _ in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    return n // threads * threads


# --- kill loop -------------------------------------------------------------------------------------------
def _made(conn, tile_set, call) -> bool:
    """Whether the file holds the exchange `call` asked for (request id, or the move at its version)."""
    game_id, player, tile, request_id, expected = call
    if request_id:
        return conn.execute("SELECT 1 FROM events WHERE game_id = ? AND request_player = ? AND request_id = ?",
                            (game_id, player, request_id)).fetchone() is not None
    row = conn.execute("SELECT kind, data FROM events WHERE game_id = ? AND version = ?",
                       (game_id, expected + 1)).fetchone()
    return _exchange_made(row, tile_set, player, tile)


def _exchange_made(row, tile_set, player: int, tile: str) -> bool:
    """Whether an event row (kind, data) is the exchange of `tile` by `player`."""
    if row is None or row[0] != "exchange":
        return False
    data = json.loads(row[1])
    return data["player"] == player and data["tiles"] == list(tile_set.spell_rack(tile))


def _exchange(stub, game, p, tile, request_id, expected):
    return stub.SubmitMove(session_pb2.SubmitMoveRequest(game_id=game["id"], exchange=tile, request_id=request_id,
                                                         expected_version=expected),
                           metadata=[("authorization", f"Bearer {game['tokens'][p]}")], timeout=5)


def kill_loop(lexicons: Path, directory: Path, kills: int, processes: int | None, rng: random.Random):
    """-> (acknowledged moves lost, moves checked, calls the kills cut off (each retried after the restart),
    how many of them had been made, of those how many retries were told they failed, made again)."""
    from lexicon_service.rules import load_rule_set

    tile_set = load_rule_set(LEXICON).tile_set
    db = directory / "kill.db"
    # game -> the version its answer gave -> (player, tile, the version the move itself took): a move's answer
    # gives the game's version after it, which is later than the move's own when the move caused more (a
    # Kris Kros start redraw after a round of exchanges on an empty board)
    acked: dict[str, dict[int, tuple[int, str, int]]] = {}
    lost = told_failed = made_twice = retried = cut = 0
    games = None
    cut_off: list[tuple[dict, tuple, bool]] = []  # (game, call, made) of moves whose answer the kill took
    for round_ in range(kills + 1):  # the last start only retries and checks
        proc = start_server(lexicons, "--db", str(db), *(["--processes", str(processes)] if processes else []),
                            new_session=True)
        port = proc.port
        threads = []
        stop = threading.Event()
        try:
            if games is None:
                games = create_games(port, 8, 9000)
            with grpc.insecure_channel(f"127.0.0.1:{port}") as ch:
                stub = session_pb2_grpc.GameSessionServiceStub(ch)
                for game, call, made in cut_off:  # the client sends again what it got no answer to
                    _, p, tile, request_id, expected = call
                    retried += made
                    cut += 1
                    try:
                        answer = _exchange(stub, game, p, tile, request_id, expected)
                    except grpc.RpcError:
                        told_failed += made
                        continue
                    if made and not answer.replayed:
                        made_twice += 1
                    if not made:
                        acked.setdefault(game["id"], {})[answer.version] = (p, tile, expected + 1)
                cut_off = []
                # After a restart, every game is served at (at least) its last acknowledged version.
                for game in games:
                    view = stub.GetGame(session_pb2.GetGameRequest(game_id=game["id"]), timeout=30)
                    versions = acked.get(game["id"])
                    if versions and view.version < max(versions):
                        lost += max(versions) - view.version
                    for p, token in enumerate(game["tokens"]):
                        mine = stub.GetGame(session_pb2.GetGameRequest(game_id=game["id"]),
                                            metadata=[("authorization", f"Bearer {token}")], timeout=30)
                        game["racks"][p] = mine.rack
                    game["turn"] = view.turn
                    game["version"] = view.version

            lose_answers = random.Random(rng.random())

            def play(game, calls=0):
                with grpc.insecure_channel(f"127.0.0.1:{port}") as ch:
                    stub = session_pb2_grpc.GameSessionServiceStub(ch)
                    while not stop.is_set():
                        p = game["turn"]
                        calls += 1
                        call = (game["id"], p, first_tile(game["racks"][p]),
                                f"{round_}-{calls}" if calls % 2 else "", game["version"])
                        try:
                            answer = _exchange(stub, game, *call[1:])
                        except grpc.RpcError:
                            game["cut_off"] = call
                            return
                        if lose_answers.random() < 0.002:  # a kill's window between commit and answer is tiny
                            game["cut_off"] = call
                            return
                        acked.setdefault(game["id"], {})[answer.version] = (p, call[2], call[4] + 1)
                        game["racks"][p] = answer.rack
                        game["turn"] = answer.game.turn
                        game["version"] = answer.version

            if round_ < kills:
                threads = [threading.Thread(target=play, args=(g,), daemon=True) for g in games]
                for t in threads:
                    t.start()
                time.sleep(rng.uniform(0.1, 0.5))
        finally:
            kill_server(proc)
        stop.set()
        for t in threads:
            t.join(10)
        # Every acknowledged move is in the file: the exchange by that player of that tile.
        conn = sqlite3.connect(db)
        for game in games:
            call = game.pop("cut_off", None)
            if call is not None:
                cut_off.append((game, call, _made(conn, tile_set, call)))
        for game_id, versions in acked.items():
            rows = dict((v, (k, d)) for v, k, d in conn.execute(
                "SELECT version, kind, data FROM events WHERE game_id = ?", (game_id,)))
            for version, (player, tile, own) in versions.items():
                if rows.get(version) is None or not _exchange_made(rows.get(own), tile_set, player, tile):
                    lost += 1
        conn.close()
    checked = sum(len(v) for v in acked.values())  # each acknowledged move is checked after every later kill
    return lost, checked, cut, retried, told_failed, made_twice


# --- memory --------------------------------------------------------------------------------------------------
def memory_per_game(directory: Path, n: int = 1000, moves: int = 20) -> float:
    from lexicon_service.games.sessions import GameSessions
    from lexicon_service.games.store import SqliteStore
    from lexicon_service.rules import load_rule_set

    rule_set = load_rule_set(LEXICON)
    store = SqliteStore(directory / "memory.db", synchronous="OFF")
    service = GameSessions(store, cache_size=n + 10)
    ids = []
    for i in range(n):
        game_id, tokens, _, _ = service.create_game(LEXICON, rule_set, ["A", "B"], seed=i)
        for _ in range(moves):
            state, role, _ = service.get_game(game_id, None)
            p = state.turn
            service.submit_move(game_id, tokens[p], exchange=state.racks[p][0].join("[]")
                                if len(state.racks[p][0]) > 1 else state.racks[p][0])
        ids.append(game_id)
    service._cache.clear()
    service._locks.clear()
    import gc

    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for game_id in ids:
        service.get_game(game_id, None)
    gc.collect()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    store.close()
    return (after - before) / n / 1024


def decide_costs() -> tuple[float, float]:
    """In-process µs per decided move: a one-tile exchange vs a 4-tile play (no store, no gRPC)."""
    from lexicon_service.games import commands
    from lexicon_service.games.sessions import GameSessions
    from lexicon_service.rules import load_rule_set, validate_move

    class NullStore:
        def __init__(self):
            self.rows = {}

        def append(self, game_id, base, rows, request_id=None, **status):  # ended=, max_live=: not kept
            have = self.rows.setdefault(game_id, [])
            for kind, data in rows:
                have.append((len(have) + 1, kind, data))
            return len(have)

        def load(self, game_id, after=0):
            return self.rows.get(game_id, [])[after:]

        def request_version(self, game_id, request_id, player=-1):
            return None

    rs = load_rule_set(LEXICON)
    service = GameSessions(NullStore())
    game_id, tokens, _, _ = service.create_game(LEXICON, rs, ["A", "B"], seed=1)
    service.get_game(game_id, None)
    n = 2000
    started = time.perf_counter()
    for _ in range(n):
        state = service._cache[game_id]
        p = state.turn
        tile = state.racks[p][0]
        service.submit_move(game_id, tokens[p], exchange=f"[{tile}]" if len(tile) > 1 else tile)
    exchange_us = (time.perf_counter() - started) / n * 1e6
    state = service._cache[game_id]
    rack = state.racks[state.turn]
    word = "".join("a" if t == "?" else (f"[{t}]" if len(t) > 1 else t) for t in rack[:4])
    play = f"8D {word}"
    assert validate_move(rs, state.board, rack, play).score is not None
    started = time.perf_counter()
    for _ in range(n):
        work = state.copy()
        commands._play(work, work.turn, play, 0.0, 0.0, [], None)
    play_us = (time.perf_counter() - started) / n * 1e6
    return exchange_us, play_us


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", default="../shared", help="unused (make bench passes it to every bench)")
    parser.add_argument("--lexicons", default="lexicons")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--rate", type=float, default=500.0)
    parser.add_argument("--kills", type=int, default=50)
    parser.add_argument("--server-processes", type=int, default=None, help="default: serve's own (one per core)")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args(argv)
    lexicons = Path(args.lexicons)
    if not (lexicons / f"{LEXICON}.lex").exists():
        print(f"bench_games: no {LEXICON}.lex in {lexicons} (make lexicons)", file=sys.stderr)
        return 2
    rng = random.Random(20261124)
    results = {}
    with tempfile.TemporaryDirectory(prefix="bench-games-", dir=os.environ.get("BENCH_TMP")) as tmp:
        tmp = Path(tmp)
        lex_dir = tmp / "lex"  # only the lexicon the games use: faster restarts in the kill loop
        lex_dir.mkdir()
        (lex_dir / f"{LEXICON}.lex").symlink_to((lexicons / f"{LEXICON}.lex").resolve())
        print(f"bench_games: {os.cpu_count()} CPUs, load {load_average()}, database in {tmp}", flush=True)
        baseline = raw_commits_per_s(tmp, 2.0)
        print(f"  baseline: raw SQLite fsync'd commits (1 row each)   {baseline:10,.0f} commits/s", flush=True)
        exchange_us, play_us = decide_costs()
        print(f"  in process, per move decided (no store, no gRPC): one-tile exchange {exchange_us:,.0f} us, "
              f"4-tile play {play_us:,.0f} us", flush=True)

        proc = start_server(lex_dir, "--db", str(tmp / "games.db"),
                            *(["--processes", str(args.server_processes)] if args.server_processes else []),
                            new_session=True)
        port, startup = proc.port, proc.startup
        try:
            rss0 = rss_mb(proc.pid)[0]
            games = create_games(port, args.games, 1000)
            cpu0 = cpu_seconds(proc.pid)
            result = drive(port, games, args.seconds, None)
            moves, elapsed, latencies, client_cpu = result.calls, result.elapsed, result.latencies, result.cpu
            server_cpu = cpu_seconds(proc.pid) - cpu0
            rate = moves / elapsed
            results["moves_per_s"] = rate
            print(f"  {args.games} games, closed loop ({proc.server_processes} server processes, started in "
                  f"{startup:.2f} s)\n"
                  f"    {rate:10,.0f} moves/s ({rate / baseline:.2f}x the raw commit rate)  "
                  f"p50 {percentile(latencies, 50) * 1000:.2f} ms  p99 {percentile(latencies, 99) * 1000:.2f} ms  "
                  f"({moves} moves; CPU us/move: server {server_cpu / max(moves, 1) * 1e6:,.0f}, "
                  f"client {client_cpu / max(moves, 1) * 1e6:,.0f}; load {load_average()})", flush=True)
            if result.failed:
                print(f"    {result.failed} FAILED: {result.examples[:2]}")
                results["moves_per_s"] = 0.0
            cpu0 = cpu_seconds(proc.pid)
            result = drive(port, games, args.seconds, args.rate)
            moves, elapsed, latencies = result.calls, result.elapsed, result.latencies
            server_cpu = cpu_seconds(proc.pid) - cpu0
            p99 = percentile(latencies, 99) * 1000
            failed = result.failed or result.skipped
            results["p99_ms_at_500"] = p99 if not failed else float("inf")
            print(f"  SubmitMove at {args.rate:,.0f} moves/s offered over {args.games} games (open loop)\n"
                  f"    {moves / elapsed:10,.0f} moves/s  p50 {percentile(latencies, 50) * 1000:.2f} ms  "
                  f"p99 {p99:.2f} ms  max {max(latencies) * 1000:.2f} ms  ({moves} moves; CPU us/move: server "
                  f"{server_cpu / max(moves, 1) * 1e6:,.0f}; load {load_average()})", flush=True)
            if failed:
                print(f"    {result.failed} FAILED: {result.examples[:2]}; {result.skipped} scheduled moves skipped "
                      "(their game was still busy)")
            rss1 = rss_mb(proc.pid)[0]
            opened = open_games(port, 1000)
            rss2 = rss_mb(proc.pid)[0]
        finally:
            kill_server(proc, signal.SIGTERM)
        growth = (rss2 - rss1) * 1024 / opened
        kb = memory_per_game(tmp)
        results["kb_per_game"] = kb
        print(f"  memory per open game: {kb:.1f} KB of Python objects (tracemalloc, 1,000 cached games after "
              f"20 moves); the server's RSS grew {growth:.1f} KB per game while {opened:,} more games were created and "
              f"opened over 8 connections (RSS before the {args.games}-game phase {rss0:.0f} MB, after it {rss1:.0f} MB: "
              f"two connections per game, threads, buffers)", flush=True)
        started = time.perf_counter()
        lost, checked, cut, retried, told_failed, made_twice = kill_loop(lex_dir, tmp, args.kills,
                                                                         args.server_processes, rng)
        results["lost"] = lost
        results["told_failed"] = told_failed + made_twice
        print(f"  SIGKILL + restart x{args.kills}: {lost} of {checked} acknowledged moves lost "
              f"(each checked in the file after every later kill, and served after every restart; "
              f"{time.perf_counter() - started:.0f} s)\n"
              f"    committed calls whose retry was told they failed: {told_failed} ({cut} moves lost their answer "
              f"to a kill or were dropped by the client, and were sent again after the restart; {retried} of them "
              f"had been made; made twice: {made_twice})", flush=True)

    missed = []
    if results["moves_per_s"] < TARGETS["moves_per_s"]:
        missed.append(f"moves/s {results['moves_per_s']:,.0f} < {TARGETS['moves_per_s']:,.0f}")
    if results["p99_ms_at_500"] > TARGETS["p99_ms_at_500"]:
        missed.append(f"p99 {results['p99_ms_at_500']:.2f} ms > {TARGETS['p99_ms_at_500']} ms")
    if results["lost"] > TARGETS["lost"]:
        missed.append(f"{results['lost']} acknowledged moves lost")
    if results["told_failed"] > TARGETS["told_failed"]:
        missed.append(f"{results['told_failed']} committed calls told they failed (or made twice) on retry")
    if results["kb_per_game"] > TARGETS["kb_per_game"]:
        missed.append(f"{results['kb_per_game']:.1f} KB per game > {TARGETS['kb_per_game']}")
    print("  targets: " + ("all met" if not missed else "MISSED: " + "; ".join(missed)))
    return 1 if missed and args.strict else 0


if __name__ == "__main__":
    raise SystemExit(main())
