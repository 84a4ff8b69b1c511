"""Where tournaments live: each tournament is its event log, in the games database beside the games.

The table `tournament_events` (tournament_id, version) in the same SQLite file or PostgreSQL database as
the games' `events` (games/store.py, games/pgstore.py), made on open when missing (the migration). As
with games: appending version v+1 when another writer already has is a primary-key conflict (Conflict),
so several servers share a tournament with no owner; an append returns only after its transaction
committed (SQLite: synchronous=FULL, under the writers' flock on `<db>.lock` that the games' store takes;
PostgreSQL: an autocommit INSERT). Tournament events are few (a pairing, a result a game): each append is
its own transaction, no group commit.
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
import threading

from lexicon_service.errors import Conflict, StoreUnavailable
from lexicon_service.games.pgstore import CREATE_LOCK

SCHEMA = """
CREATE TABLE IF NOT EXISTS tournament_events (
    tournament_id TEXT NOT NULL,
    version       INTEGER NOT NULL,
    kind          TEXT NOT NULL,
    data          TEXT NOT NULL,
    PRIMARY KEY (tournament_id, version)
)"""


class SqliteTournamentStore:
    def __init__(self, path) -> None:
        self.path = os.fspath(path)
        self._local = threading.local()
        self._lock_fd = os.open(self.path + ".lock", os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(self._lock_fd, fcntl.LOCK_EX)
        try:
            self._conn().execute(SCHEMA + " WITHOUT ROWID")
        finally:
            fcntl.flock(self._lock_fd, fcntl.LOCK_UN)

    def _conn(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=10)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA busy_timeout=10000")
            self._local.conn = conn
        return conn

    def load(self, tournament_id: str, after: int = 0) -> list[tuple[int, str, str]]:
        try:
            return self._conn().execute("SELECT version, kind, data FROM tournament_events WHERE tournament_id = ? "
                                        "AND version > ? ORDER BY version", (tournament_id, after)).fetchall()
        except sqlite3.Error as exc:
            raise StoreUnavailable(f"the games database cannot be read now ({exc}); retry") from exc

    def tournament_ids(self) -> list[str]:
        return [r[0] for r in self._conn().execute(
            "SELECT tournament_id FROM tournament_events WHERE version = 1 ORDER BY tournament_id")]

    def append(self, tournament_id: str, base_version: int, rows) -> int:
        """Durably append [(kind, json)] as versions base_version+1...; the last version, or Conflict."""
        conn = self._conn()
        fcntl.flock(self._lock_fd, fcntl.LOCK_EX)
        try:
            conn.execute("BEGIN IMMEDIATE")
            version = base_version
            for kind, data in rows:
                version += 1
                conn.execute("INSERT INTO tournament_events VALUES (?, ?, ?, ?)", (tournament_id, version, kind, data))
            conn.execute("COMMIT")
            return version
        except sqlite3.IntegrityError:
            conn.execute("ROLLBACK")
            raise Conflict(tournament_id) from None
        except sqlite3.Error as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise StoreUnavailable(f"the games database cannot write now ({exc}); nothing was stored") from exc
        finally:
            fcntl.flock(self._lock_fd, fcntl.LOCK_UN)

    def close(self) -> None:
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
        os.close(self._lock_fd)


class PostgresTournamentStore:
    def __init__(self, url: str) -> None:
        # here: psycopg is an optional dependency (the [postgres] extra), for a postgresql:// database only
        import psycopg
        from psycopg_pool import ConnectionPool  # the same extra

        self._psycopg = psycopg
        try:
            with psycopg.connect(url, autocommit=True, connect_timeout=3) as conn, conn.transaction():
                # servers starting together: CREATE TABLE IF NOT EXISTS is not safe against itself
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (CREATE_LOCK,))
                conn.execute(SCHEMA)
        except psycopg.Error as exc:
            raise OSError(f"cannot open the tournaments in the games database: {str(exc).strip()}") from None
        self._pool = ConnectionPool(url, min_size=1, max_size=4, kwargs={"autocommit": True}, open=True,
                                    name="lexicon-tournaments")

    def load(self, tournament_id: str, after: int = 0) -> list[tuple[int, str, str]]:
        try:
            with self._pool.connection(timeout=2) as conn:
                return [tuple(r) for r in conn.execute(
                    "SELECT version, kind, data FROM tournament_events WHERE tournament_id = %s AND version > %s "
                    "ORDER BY version", (tournament_id, after)).fetchall()]
        except self._psycopg.Error as exc:
            raise StoreUnavailable(f"the games database cannot be read now ({exc}); retry") from exc

    def tournament_ids(self) -> list[str]:
        with self._pool.connection(timeout=2) as conn:
            return [r[0] for r in conn.execute("SELECT tournament_id FROM tournament_events WHERE version = 1 "
                                               "ORDER BY tournament_id")]

    def append(self, tournament_id: str, base_version: int, rows) -> int:
        psycopg = self._psycopg
        try:
            with self._pool.connection(timeout=2) as conn, conn.transaction():
                version = base_version
                for kind, data in rows:
                    version += 1
                    conn.execute("INSERT INTO tournament_events VALUES (%s, %s, %s, %s)",
                                 (tournament_id, version, kind, data))
            return version
        except psycopg.errors.UniqueViolation:
            raise Conflict(tournament_id) from None
        except psycopg.Error as exc:
            raise StoreUnavailable(f"the games database cannot write now ({exc}); nothing was stored") from exc

    def close(self) -> None:
        self._pool.close()


def tournament_store_for(game_store):
    """The tournament store in the same database as a game store (SqliteStore or PostgresStore)."""
    url = getattr(game_store, "url", None)
    if url is not None:
        return PostgresTournamentStore(url)
    return SqliteTournamentStore(game_store.path)
