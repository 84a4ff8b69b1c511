"""Benchmark of several servers on one PostgreSQL behind nginx (deploy/cluster.py).

    python bench/bench_cluster.py --lexicons lexicons [--seconds 5] [--games 400] [--servers 2]

Starts PostgreSQL (fsync on: every commit is durable), `--servers` servers (one process each) and nginx
(grpc_pass) in front, and measures, in the same run:
  * baseline: raw single-row committed INSERTs/s on that PostgreSQL, from as many connections as the
    servers' pools hold together (16 each), each INSERT its own transaction;
  * durable moves/s over `--games` concurrent Kris Kros games through the proxy (closed loop, one-tile
    exchanges as in bench/bench_games.py: every move acknowledged after its commit), with its ratio to the
    baseline.
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

import psycopg  # noqa: E402
import grpc  # noqa: E402
from bench_games import LEXICON, create_games, first_tile  # noqa: E402
from loadgen import load_average, percentile  # noqa: E402

from deploy.cluster import Cluster  # noqa: E402
from lexicon_service.games.pgstore import POOL_SIZE  # noqa: E402
from lexicon_service.grpc_gen import session_pb2, session_pb2_grpc  # noqa: E402

TARGETS = {"moves_per_s": 1500.0, "ratio": 0.8}


def raw_inserts_per_s(url: str, connections: int, seconds: float) -> float:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE IF NOT EXISTS bench_raw (id BIGSERIAL PRIMARY KEY, v TEXT)")
    counts = [0] * connections
    stop = threading.Event()
    payload = "x" * 300

    def insert(i: int) -> None:
        with psycopg.connect(url, autocommit=True) as conn:
            while not stop.is_set():
                conn.execute("INSERT INTO bench_raw (v) VALUES (%s)", (payload,))  # autocommit: one commit each
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


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", default="../shared", help="unused (make bench passes it to every bench)")
    parser.add_argument("--lexicons", default="lexicons")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--servers", type=int, default=2)
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
            baseline = raw_inserts_per_s(cluster.db, connections, 2.0)
            print(f"  baseline: raw single-row committed INSERTs over {connections} connections  "
                  f"{baseline:10,.0f} /s", flush=True)
            games = create_games(cluster.port, args.games, 1000)
            result = drive(cluster.port, games, args.seconds)
            rate = result.calls / result.elapsed
            print(f"  {args.games} games through the proxy, closed loop\n"
                  f"    {rate:10,.0f} moves/s ({rate / baseline:.2f}x the raw INSERT rate)  "
                  f"p50 {percentile(result.latencies, 50) * 1000:.2f} ms  "
                  f"p99 {percentile(result.latencies, 99) * 1000:.2f} ms  ({result.calls} moves; "
                  f"load {load_average()})", flush=True)
            if result.failed:
                print(f"    {result.failed} FAILED: {result.examples[:2]}")
                rate = 0.0
        finally:
            cluster.stop()
    missed = [name for name, value in (("moves_per_s", rate), ("ratio", rate / baseline)) if value < TARGETS[name]]
    print(f"  targets: >= {TARGETS['moves_per_s']:,.0f} moves/s and >= {TARGETS['ratio']}x the raw rate: "
          f"{'missed ' + ', '.join(missed) if missed else 'met'}")
    return 1 if missed and args.strict else 0


if __name__ == "__main__":
    sys.exit(main())
