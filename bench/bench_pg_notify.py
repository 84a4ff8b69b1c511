"""Committed single-row INSERTs/s on a private PostgreSQL (fsync on), without and with a NOTIFY in the same
transaction, and WAL flushes per commit: PostgreSQL holds its notify lock through the commit's WAL flush, so
transactions that notify commit one at a time.

    python bench/bench_pg_notify.py [--connections 32] [--seconds 3]
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import psycopg  # noqa: E402

from deploy.local_postgres import PostgresServer, postgres_bin  # noqa: E402

STATEMENTS = {"plain INSERT": "INSERT INTO bench_notify (v) VALUES (%s)",
              "INSERT with NOTIFY": "WITH a AS (INSERT INTO bench_notify (v) VALUES (%s)) SELECT pg_notify('c', 'g')"}


def commits_per_s(url: str, sql: str, connections: int, seconds: float) -> tuple[float, float]:
    """(commits/s, WAL flushes per commit) of `connections` threads each running `sql` in autocommit."""
    counts, stop = [0] * connections, threading.Event()

    def run(i: int) -> None:
        with psycopg.connect(url, autocommit=True) as conn:
            while not stop.is_set():
                conn.execute(sql, ("x" * 300,))
                counts[i] += 1

    with psycopg.connect(url, autocommit=True) as conn:
        syncs0 = conn.execute("SELECT wal_sync FROM pg_stat_wal").fetchone()[0]
    threads = [threading.Thread(target=run, args=(i,)) for i in range(connections)]
    for t in threads:
        t.start()
    time.sleep(seconds)
    stop.set()
    for t in threads:
        t.join()
    with psycopg.connect(url, autocommit=True) as conn:
        syncs1 = conn.execute("SELECT wal_sync FROM pg_stat_wal").fetchone()[0]
    return sum(counts) / seconds, (syncs1 - syncs0) / max(sum(counts), 1)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args(argv)
    if postgres_bin() is None:
        print("bench_pg_notify: SKIPPED: needs PostgreSQL", flush=True)
        return 0
    server = PostgresServer(postgres_bin(), durable=True)
    try:
        url = server.url()
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("CREATE TABLE bench_notify (id BIGSERIAL PRIMARY KEY, v TEXT)")
        for _ in range(2):
            for label, sql in STATEMENTS.items():
                rate, flushes = commits_per_s(url, sql, args.connections, args.seconds)
                print(f"  {label:20s} {rate:8,.0f} commits/s  {flushes:.2f} WAL flushes per commit", flush=True)
    finally:
        server.destroy()
    return 0


if __name__ == "__main__":
    sys.exit(main())
