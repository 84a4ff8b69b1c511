"""Benchmark of several servers on one PostgreSQL behind nginx (deploy/cluster.py).

    python bench/bench_cluster.py --lexicons lexicons [--seconds 5] [--games 400] [--servers 2]

Starts PostgreSQL (fsync on: every commit is durable), `--servers` servers (one process each) and nginx
(grpc_pass) in front, and measures, in the same run:
  * baseline: raw single-row committed INSERTs/s on that PostgreSQL, from as many connections as the
    servers' pools hold together (16 each), each INSERT its own transaction;
  * durable moves/s over `--games` concurrent Kris Kros games through the proxy (closed loop, one-tile
    exchanges as in bench/bench_games.py: every move acknowledged after its commit), with its ratio to the
    baseline, and the CPU per move (psutil) of the servers, PostgreSQL (split by its processes),
    nginx and this load generator, with commits and WAL flushes per move (docs/deploy.md reads them).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import psutil  # noqa: E402
import psycopg  # noqa: E402
import grpc  # noqa: E402
from bench_games import LEXICON, create_games, first_tile  # noqa: E402
from loadgen import cpu_seconds, load_average, percentile, process_tree  # noqa: E402

from deploy.cluster import Cluster  # noqa: E402
from lexicon_service.games.pgstore import POOL_SIZE  # noqa: E402
from lexicon_service.grpc_gen import session_pb2, session_pb2_grpc  # noqa: E402

TARGETS = {"moves_per_s": 1500.0, "ratio": 0.8, "watch_p99_ms": 50.0, "lost": 0}


RAW_INSERT = "INSERT INTO bench_raw (v) VALUES (%s)"


def raw_inserts_per_s(url: str, connections: int, seconds: float, statement: str = RAW_INSERT) -> float:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE IF NOT EXISTS bench_raw (id BIGSERIAL PRIMARY KEY, v TEXT)")
    counts = [0] * connections
    stop = threading.Event()
    payload = "x" * 300

    def insert(i: int) -> None:
        with psycopg.connect(url, autocommit=True) as conn:
            while not stop.is_set():
                conn.execute(statement, (payload,))  # autocommit: one commit each
                counts[i] += 1

    threads = [threading.Thread(target=insert, args=(i,)) for i in range(connections)]
    started = time.perf_counter()
    for t in threads:
        t.start()
    time.sleep(seconds)
    stop.set()
    for t in threads:
        t.join()
    return sum(counts) / (time.perf_counter() - started)


class Driven:
    def __init__(self) -> None:
        self.calls = 0
        self.latencies: list[float] = []
        self.failed = 0
        self.examples: list[str] = []
        self.elapsed = 0.0


def drive(port: int, games, seconds: float, channels: int = 8) -> Driven:
    """Moves on every game until `seconds` pass, closed loop: each game sends its next move when the last is
    answered. grpcio's client (nginx answers with Huffman-coded headers, which bench/loadgen.py's lean HTTP/2
    client does not read), `channels` HTTP/2 connections to the proxy."""
    chans = [grpc.insecure_channel(f"127.0.0.1:{port}", options=[("grpc.use_local_subchannel_pool", 1)])
             for _ in range(channels)]
    stubs = [session_pb2_grpc.GameSessionServiceStub(c) for c in chans]
    out = Driven()
    lock = threading.Lock()
    pending = threading.Semaphore(0)
    deadline = time.perf_counter() + seconds

    def send(g: int) -> None:
        game = games[g]
        p = game["turn"]
        started = time.perf_counter()
        future = stubs[g % channels].SubmitMove.future(
            session_pb2.SubmitMoveRequest(game_id=game["id"], exchange=first_tile(game["racks"][p])),
            metadata=[("authorization", f"Bearer {game['tokens'][p]}")], timeout=30)
        future.add_done_callback(lambda f: done(g, p, started, f))

    def done(g: int, p: int, started: float, future) -> None:
        now = time.perf_counter()
        try:
            answer = future.result()
        except grpc.RpcError as err:
            with lock:
                out.failed += 1
                if len(out.examples) < 3:
                    out.examples.append(f"{err.code()}: {err.details()}")
            pending.release()
            return
        game = games[g]
        game["racks"][p] = answer.rack
        game["turn"] = answer.game.turn
        with lock:
            out.calls += 1
            out.latencies.append(now - started)
        if now < deadline:
            send(g)
        else:
            pending.release()

    began = time.perf_counter()
    for g in range(len(games)):
        send(g)
    for _ in games:
        pending.acquire()
    out.elapsed = time.perf_counter() - began
    for c in chans:
        c.close()
    return out


def cpu_by_process(cluster) -> dict[str, float]:
    """CPU seconds so far (user + system, psutil) of each part: the servers, PostgreSQL (postmaster and
    its backends, walwriter, checkpointer..., ended backends included), nginx (master and workers) and this
    load generator."""
    postmaster = int(Path(cluster.postgres.data, "postmaster.pid").read_text().split()[0])
    postgres = 0.0
    for pid in process_tree(postmaster):  # a backend ending meanwhile is counted in the postmaster's cutime
        try:
            times = psutil.Process(pid).cpu_times()
        except psutil.Error:
            continue
        postgres += times.user + times.system + (times.children_user + times.children_system if pid == postmaster else 0)
    own = os.times()
    return {"servers": sum(cpu_seconds(proc.pid) for proc in cluster.servers if proc is not None),
            "PostgreSQL": postgres, "nginx": cpu_seconds(cluster.nginx.pid),
            "load generator": own.user + own.system}


def postgres_cpu_by_backend(url: str) -> dict[str, float]:
    """CPU seconds so far of PostgreSQL's live processes by what they are: the servers' pooled connections,
    their listening connections (LISTEN), the WAL writer, and the rest (checkpointer, autovacuum...)."""
    with psycopg.connect(url, autocommit=True) as conn:
        rows = conn.execute("SELECT pid, backend_type, query FROM pg_stat_activity WHERE pid <> pg_backend_pid()"
                            ).fetchall()
    parts: dict[str, float] = {}
    for pid, backend_type, query in rows:
        part = ("listening connections" if (query or "").startswith("LISTEN") else "pooled connections") \
            if backend_type == "client backend" else backend_type if backend_type == "walwriter" else "other"
        parts[part] = parts.get(part, 0.0) + cpu_seconds(pid)
    return parts


def database_counters(url: str) -> dict[str, int]:
    """Committed transactions and WAL flushes (fsyncs) of the PostgreSQL server so far."""
    with psycopg.connect(url, autocommit=True) as conn:
        commits = conn.execute("SELECT sum(xact_commit) FROM pg_stat_database").fetchone()[0]
        wal_syncs, wal_records = conn.execute("SELECT wal_sync, wal_records FROM pg_stat_wal").fetchone()
    return {"commits": int(commits), "WAL flushes": int(wal_syncs), "WAL records": int(wal_records)}


def watch_latencies(cluster, moves: int) -> list[float]:
    """Seconds from sending a move to server 0 until a WatchGame stream on server 1 delivers its event."""
    [game] = create_games(cluster.server_ports[0], 1, 7)
    md = [("authorization", f"Bearer {game['tokens'][0]}")]
    with grpc.insecure_channel(f"127.0.0.1:{cluster.server_ports[0]}") as mover, \
            grpc.insecure_channel(f"127.0.0.1:{cluster.server_ports[1]}") as watcher:
        stub = session_pb2_grpc.GameSessionServiceStub(mover)
        stream = session_pb2_grpc.GameSessionServiceStub(watcher).WatchGame(
            session_pb2.WatchGameRequest(game_id=game["id"], after_version=game["version"]), metadata=md, timeout=600)
        latencies = []
        for _ in range(moves):
            p = game["turn"]
            started = time.perf_counter()
            answer = stub.SubmitMove(session_pb2.SubmitMoveRequest(game_id=game["id"],
                                                                   exchange=first_tile(game["racks"][p])),
                                     metadata=[("authorization", f"Bearer {game['tokens'][p]}")], timeout=30)
            event = next(stream)
            latencies.append(time.perf_counter() - started)
            assert event.version == answer.version, (event.version, answer.version)
            game["racks"][p], game["turn"] = answer.rack, answer.game.turn
        stream.cancel()
    return latencies


def under_faults(cluster, kills: int, restarts: int, games_n: int = 16) -> tuple[int, int, int]:
    """Moves through the proxy on `games_n` games (a thread each, every move with a request id, retried with
    it until answered) while server 0 or 1 is SIGKILLed and restarted `kills` times, then PostgreSQL is
    restarted `restarts` times. Returns (acknowledged moves, of them missing from the database, retries)."""
    from lexicon_service.games.pgstore import PostgresStore

    games = create_games(cluster.port, games_n, 500)
    acknowledged: list[tuple[str, str, int, int]] = []  # game, request id, player, version
    retries = [0]
    stop = threading.Event()

    def play(game) -> None:
        with grpc.insecure_channel(f"127.0.0.1:{cluster.port}") as channel:
            stub = session_pb2_grpc.GameSessionServiceStub(channel)
            n = 0
            while not stop.is_set():
                p, n = game["turn"], n + 1
                request = session_pb2.SubmitMoveRequest(game_id=game["id"], exchange=first_tile(game["racks"][p]),
                                                        request_id=f"m{n}")
                while True:
                    try:
                        answer = stub.SubmitMove(request, metadata=[("authorization", f"Bearer {game['tokens'][p]}")],
                                                 timeout=10)
                        break
                    except grpc.RpcError:
                        retries[0] += 1
                        time.sleep(0.05)
                acknowledged.append((game["id"], f"m{n}", p, answer.version))
                game["racks"][p], game["turn"] = answer.rack, answer.game.turn

    threads = [threading.Thread(target=play, args=(g,), daemon=True) for g in games]
    for t in threads:
        t.start()
    for k in range(kills):
        time.sleep(0.3)
        cluster.kill_server(k % 2)
        cluster.start_server(k % 2)
    for _ in range(restarts):
        time.sleep(0.5)
        cluster.postgres.stop("fast")
        time.sleep(0.5)
        cluster.postgres.start()
    time.sleep(1.0)
    stop.set()
    for t in threads:
        t.join(timeout=60)
    store = PostgresStore(cluster.db)
    try:
        lost = sum(1 for game_id, rid, p, version in acknowledged if store.request_version(game_id, rid, p) != version)
    finally:
        store.close()
    return len(acknowledged), lost, retries[0]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", default="../shared", help="unused (make bench passes it to every bench)")
    parser.add_argument("--lexicons", default="lexicons")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--servers", type=int, default=2)
    parser.add_argument("--watch-moves", type=int, default=300)
    parser.add_argument("--kills", type=int, default=30)
    parser.add_argument("--db-restarts", type=int, default=5)
    parser.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args(argv)
    lexicons = Path(args.lexicons)
    if not (lexicons / f"{LEXICON}.lex").exists():
        print(f"bench_cluster: no {LEXICON}.lex in {lexicons} (make lexicons)", file=sys.stderr)
        return 2
    import shutil

    from deploy.local_postgres import postgres_bin
    if postgres_bin() is None or shutil.which("nginx") is None:  # make bench runs every bench: say, go on
        print("bench_cluster: SKIPPED: needs PostgreSQL and nginx (make bench-cluster installs PostgreSQL; "
              "apt-get install nginx)", flush=True)
        return 0
    with tempfile.TemporaryDirectory(prefix="bench-cluster-") as tmp:
        lex_dir = Path(tmp)
        (lex_dir / f"{LEXICON}.lex").symlink_to((lexicons / f"{LEXICON}.lex").resolve())
        cluster = Cluster(lex_dir, args.servers, durable=True)
        try:
            print(f"bench_cluster: {os.cpu_count()} CPUs, load {load_average()}; nginx on {cluster.address}, "
                  f"{args.servers} servers, PostgreSQL (fsync on) in {cluster.postgres.dir}", flush=True)
            connections = POOL_SIZE * args.servers
            raw_cpu0 = cpu_by_process(cluster)
            baseline = raw_inserts_per_s(cluster.db, connections, 2.0)
            raw_cpu1 = cpu_by_process(cluster)
            raw_us = {part: (raw_cpu1[part] - raw_cpu0[part]) / (baseline * 2.0) * 1e6
                      for part in ("PostgreSQL", "load generator")}
            print(f"  baseline: raw single-row committed INSERTs over {connections} connections  "
                  f"{baseline:10,.0f} /s  (CPU per INSERT: PostgreSQL {raw_us['PostgreSQL']:,.0f} us, "
                  f"the inserting client {raw_us['load generator']:,.0f} us)", flush=True)
            games = create_games(cluster.port, args.games, 1000)
            cpu0, counters0 = cpu_by_process(cluster), database_counters(cluster.db)
            backends0 = postgres_cpu_by_backend(cluster.db)
            result = drive(cluster.port, games, args.seconds)
            backends1 = postgres_cpu_by_backend(cluster.db)
            cpu1, counters1 = cpu_by_process(cluster), database_counters(cluster.db)
            rate = result.calls / result.elapsed
            print(f"  {args.games} games through the proxy, closed loop\n"
                  f"    {rate:10,.0f} moves/s ({rate / baseline:.2f}x the raw INSERT rate)  "
                  f"p50 {percentile(result.latencies, 50) * 1000:.2f} ms  "
                  f"p99 {percentile(result.latencies, 99) * 1000:.2f} ms  ({result.calls} moves; "
                  f"load {load_average()})", flush=True)
            moves_done = max(result.calls, 1)
            cpu_per_move = {part: (cpu1[part] - cpu0[part]) / moves_done * 1e6 for part in cpu0}
            total_us = sum(cpu_per_move.values())
            print("    CPU per move: " + ", ".join(f"{part} {us:,.0f} us" for part, us in cpu_per_move.items())
                  + f"; total {total_us:,.0f} us: {os.cpu_count()} CPUs can do at most "
                  f"{os.cpu_count() * 1e6 / total_us:,.0f} moves/s", flush=True)
            print("    PostgreSQL's CPU per move by process: " + ", ".join(
                f"{part} {(backends1[part] - backends0.get(part, 0.0)) / moves_done * 1e6:,.0f} us"
                for part in sorted(backends1)), flush=True)
            print("    per move in PostgreSQL: " + ", ".join(
                f"{(counters1[k] - counters0[k]) / moves_done:.2f} {k}" for k in counters0), flush=True)
            if result.failed:
                print(f"    {result.failed} FAILED: {result.examples[:2]}")
                rate = 0.0
            latencies = watch_latencies(cluster, args.watch_moves)
            watch_p99 = percentile(latencies, 99) * 1000
            print(f"  WatchGame on server 1, moves on server 0 ({len(latencies)} moves, from sending the move to "
                  f"the event): p50 {percentile(latencies, 50) * 1000:.2f} ms  p99 {watch_p99:.2f} ms", flush=True)
            started = time.perf_counter()
            moves, lost, retries = under_faults(cluster, args.kills, args.db_restarts)
            print(f"  {args.kills} SIGKILLs of a server (restarted each time) then {args.db_restarts} PostgreSQL "
                  f"restarts, under load through the proxy: {moves} moves acknowledged, {lost} of them missing from "
                  f"the database; {retries} calls retried ({time.perf_counter() - started:.0f} s)", flush=True)
        finally:
            cluster.stop()
    checks = (("moves_per_s", rate, False), ("ratio", rate / baseline, False), ("watch_p99_ms", watch_p99, True),
              ("lost", lost, True))
    missed = [name for name, value, at_most in checks if (value > TARGETS[name] if at_most else value < TARGETS[name])]
    print(f"  targets: >= {TARGETS['moves_per_s']:,.0f} moves/s, >= {TARGETS['ratio']}x the raw rate, WatchGame p99 "
          f"<= {TARGETS['watch_p99_ms']:.0f} ms, 0 lost: {'missed ' + ', '.join(missed) if missed else 'met'}")
    return 1 if missed and args.strict else 0


if __name__ == "__main__":
    sys.exit(main())
