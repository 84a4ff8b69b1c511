"""The games database's write-ahead log on a busy server: does it stay within `serve --db-wal-limit`?

    python bench/bench_games_wal.py --lexicons lexicons [--limit-mib 4] [--seconds 20] [--games 100]

Starts `lexicon-service serve --db <temp>/games.db --db-wal-limit N` (one process per core), drives moves on
`--games` Kris Kros games as fast as they are answered (bench_games.drive, closed loop) while `--watchers`
WatchGame streams read the same file (readers are what kept the passive checkpoints from ever resetting the
WAL), samples the size of games.db-wal every 5 ms, and prints its peak beside the limit, the moves/s, and
the size one second after the load stops (an idle server truncates it to 0).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import grpc  # noqa: E402

from bench_games import create_games, drive, kill_server  # noqa: E402
from loadgen import start_server  # noqa: E402

from lexicon_service.grpc_gen import session_pb2, session_pb2_grpc  # noqa: E402


def wal_size(db: Path) -> int:
    try:
        return os.stat(f"{db}-wal").st_size
    except OSError:
        return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", default="../shared", help="unused (make bench passes it to every bench)")
    parser.add_argument("--lexicons", default="lexicons")
    parser.add_argument("--limit-mib", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--watchers", type=int, default=8)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-wal-") as tmp:
        db = Path(tmp) / "games.db"
        proc = start_server(args.lexicons, "--db", str(db), "--db-wal-limit", str(args.limit_mib), new_session=True)
        stop = threading.Event()
        peak = [0]

        def sample():
            while not stop.is_set():
                peak[0] = max(peak[0], wal_size(db))
                time.sleep(0.005)

        def watch(game_id: str):
            with grpc.insecure_channel(f"127.0.0.1:{proc.port}") as channel:
                stub = session_pb2_grpc.GameSessionServiceStub(channel)
                stream = stub.WatchGame(session_pb2.WatchGameRequest(game_id=game_id), timeout=args.seconds + 30)
                try:
                    for _ in stream:
                        if stop.is_set():
                            break
                except grpc.RpcError:
                    pass
                finally:
                    stream.cancel()

        try:
            games = create_games(proc.port, args.games, 1)
            threads = [threading.Thread(target=sample, daemon=True)]
            threads += [threading.Thread(target=watch, args=(games[i % len(games)]["id"],), daemon=True)
                        for i in range(args.watchers)]
            for thread in threads:
                thread.start()
            result = drive(proc.port, games, args.seconds, None)
            stop.set()
            time.sleep(1.5)
            after = wal_size(db)
            limit = args.limit_mib << 20
            print(f"{proc.server_processes} server processes, {args.games} games, {args.watchers} watchers, "
                  f"{args.seconds:.0f} s: {result.calls / result.elapsed:,.0f} moves/s ({result.failed} failed); "
                  f"WAL peak {peak[0]:,} bytes of a {limit:,}-byte limit ({peak[0] / limit:.0%}); "
                  f"1.5 s after the load: {after:,} bytes; database {db.stat().st_size:,} bytes")
            return 0 if peak[0] <= limit else 1
        finally:
            stop.set()
            kill_server(proc, __import__("signal").SIGTERM)


if __name__ == "__main__":
    sys.exit(main())
