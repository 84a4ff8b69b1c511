"""Committed single-row INSERTs/s on a private PostgreSQL (fsync on), without and with a NOTIFY in the same
transaction, and WAL flushes per commit: PostgreSQL holds its notify lock through the commit's WAL flush, so
transactions that notify commit one at a time.

    python bench/bench_pg_notify.py [--connections 32] [--seconds 3]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import psycopg  # noqa: E402
from bench_cluster import RAW_INSERT, raw_inserts_per_s  # noqa: E402

from deploy.local_postgres import PostgresServer, postgres_bin  # noqa: E402

STATEMENTS = {"plain INSERT": RAW_INSERT,
              "INSERT with NOTIFY": f"WITH a AS ({RAW_INSERT}) SELECT pg_notify('c', 'g')"}


def wal_flushes(url: str) -> int:
    with psycopg.connect(url, autocommit=True) as conn:
        return conn.execute("SELECT wal_sync FROM pg_stat_wal").fetchone()[0]


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
        for _ in range(2):
            for label, sql in STATEMENTS.items():
                flushes0 = wal_flushes(url)
                rate = raw_inserts_per_s(url, args.connections, args.seconds, sql)
                flushes = (wal_flushes(url) - flushes0) / max(rate * args.seconds, 1)
                print(f"  {label:20s} {rate:8,.0f} commits/s  {flushes:.2f} WAL flushes per commit", flush=True)
    finally:
        server.destroy()
    return 0


if __name__ == "__main__":
    sys.exit(main())
