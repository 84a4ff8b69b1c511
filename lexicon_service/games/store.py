"""Where games live: each game is its event log, behind one small interface (`GameStore`).

`SqliteStore` (stdlib sqlite3, WAL, synchronous=FULL) is the default. One row per event, keyed
(game_id, version): appending version v+1 when another writer already has is a primary-key
conflict, which is how several server processes share a game without an owner (optimistic
versioning). An append returns only after its transaction committed and fsync'd; appends from
many threads are committed together (group commit: one fsync for every append waiting), which is
what makes more than a few hundred durable moves per second possible on one disk. Writers in
different processes take turns through an flock on `<db>.lock` before BEGIN IMMEDIATE: the kernel
wakes the next one as soon as a commit ends, where SQLite's own busy handler would sleep 1-100 ms.

A PostgreSQL store would keep the same table and the same primary key (INSERT ... fails on a
duplicate (game_id, version) exactly as here), use one connection pool per server, and let
LISTEN/NOTIFY replace the polling that WatchGame does across processes; see the README.
"""

from __future__ import annotations

import fcntl
import json
import os
import sqlite3
import threading
from typing import Protocol

from lexicon_service.games.errors import Conflict, DuplicateRequest, TooManyGames

SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    game_id    TEXT NOT NULL,
    version    INTEGER NOT NULL,
    kind       TEXT NOT NULL,
    data       TEXT NOT NULL,
    request_id TEXT,
    request_player INTEGER,
    PRIMARY KEY (game_id, version)
) WITHOUT ROWID;
CREATE UNIQUE INDEX IF NOT EXISTS events_player_request ON events (game_id, request_player, request_id)
    WHERE request_id IS NOT NULL;
CREATE TABLE IF NOT EXISTS live_games (game_id TEXT PRIMARY KEY) WITHOUT ROWID;
"""
# The games in progress (not ended), kept in the transaction of each append, so that counting them for
# --max-games walks at most that many keys, whatever the number of ended games. A database made before
# the table existed gets it filled once from the log (created, never ended; a game whose end was undone
# is added back by its next append, which always says whether the game is in progress).
LIVE_GAMES_FILL = """
INSERT OR IGNORE INTO live_games SELECT game_id FROM events WHERE version = 1
    EXCEPT SELECT game_id FROM events WHERE kind = 'end'
"""
# A request id names one request of one player (request_player; -1: not a player's) in one game: players
# numbering their requests alike must not meet. A database made when the id was the game's alone
# (index events_request) gets the column, filled from the events, in one transaction at start-up.
NOT_A_PLAYER = -1


def _scope_request_ids(conn: sqlite3.Connection) -> None:
    columns = [row[1] for row in conn.execute("PRAGMA table_info(events)")]
    if not columns or "request_player" in columns:
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute("ALTER TABLE events ADD COLUMN request_player INTEGER")
        marked = conn.execute("SELECT game_id, version FROM events WHERE request_id IS NOT NULL").fetchall()
        for game_id, version in marked:
            # the id is on a command's last event: the move itself, or the end or redraw it caused
            player = NOT_A_PLAYER
            for kind, data in conn.execute("SELECT kind, data FROM events WHERE game_id = ? AND version <= ? "
                                           "ORDER BY version DESC LIMIT 4", (game_id, version)):
                event = json.loads(data)
                found = event.get("player", event.get("challenger"))
                if found is not None or kind not in ("end", "redraw"):
                    player = NOT_A_PLAYER if found is None else found
                    break
            conn.execute("UPDATE events SET request_player = ? WHERE game_id = ? AND version = ?",
                         (player, game_id, version))
        conn.execute("DROP INDEX IF EXISTS events_request")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


class GameStore(Protocol):
    def append(self, game_id: str, base_version: int, rows, request_id: str | None = None, *,
               request_player: int = NOT_A_PLAYER, ended: bool | None = None, max_live: int | None = None) -> int:
        """Durably append rows [(kind, json)] as versions base_version+1...; returns the last version.
        `ended`: whether the game has ended after these rows (None: unchanged). `max_live`: refuse
        (TooManyGames) a new game (base_version 0) when that many games are in progress.
        Raises Conflict when the game is no longer at base_version (or, for base_version 0, exists),
        DuplicateRequest when request_player already used request_id in this game."""

    def live_games(self) -> int:
        """How many games are in progress (not ended)."""

    def load(self, game_id: str, after: int = 0) -> list[tuple[int, str, str]]:
        """(version, kind, json) of the events after version `after`, in order ([] for no game)."""

    def request_version(self, game_id: str, request_id: str, player: int = NOT_A_PLAYER) -> int | None:
        """The version of the event `player` appended with this request id, if any."""

    def close(self) -> None: ...


class _Append:
    __slots__ = ("game_id", "base", "rows", "request_id", "request_player", "ended", "max_live", "done", "version",
                 "error")

    def __init__(self, game_id, base, rows, request_id, request_player=NOT_A_PLAYER, ended=None, max_live=None):
        self.game_id = game_id
        self.base = base
        self.rows = rows
        self.request_id = request_id
        self.request_player = request_player
        self.ended = ended
        self.max_live = max_live
        self.done = threading.Event()
        self.version = None
        self.error = None


class SqliteStore:
    """The event log in one SQLite file, shared by every server process that opens it."""

    def __init__(self, path, *, synchronous: str = "FULL", busy_timeout_ms: int = 10_000) -> None:
        self.path = os.fspath(path)
        self._synchronous = synchronous
        self._busy_ms = busy_timeout_ms
        self._local = threading.local()
        self._lock = threading.Condition()
        self._queue: list[_Append] = []
        self._closed = False
        self.commits = 0  # transactions committed (each is one fsync): appends / commits = group size
        self.appends = 0
        lock_path = self.path + ".lock"
        made_lock = not os.path.exists(lock_path)
        self._lock_fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600)
        # Switching a new file to WAL and creating the schema race between server processes starting
        # together ("database is locked"): both happen under the writers' lock.
        fcntl.flock(self._lock_fd, fcntl.LOCK_EX)
        try:
            writer = self._connect()
            fill = not writer.execute("SELECT 1 FROM sqlite_master WHERE name = 'live_games'").fetchone()
            _scope_request_ids(writer)
            writer.executescript(SCHEMA)
            if fill:
                writer.execute(LIVE_GAMES_FILL)
        except BaseException:  # not a database (a text file, a directory): leave nothing of ours beside it
            os.close(self._lock_fd)
            if made_lock:
                try:
                    os.unlink(lock_path)
                except OSError:
                    pass
            raise
        finally:
            try:
                fcntl.flock(self._lock_fd, fcntl.LOCK_UN)
            except OSError:
                pass
        self._writer = writer
        self._thread = threading.Thread(target=self._commit_loop, name="games-commit", daemon=True)
        self._thread.start()

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False,
                               timeout=self._busy_ms / 1000)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute(f"PRAGMA synchronous={self._synchronous}")
        conn.execute(f"PRAGMA busy_timeout={int(self._busy_ms)}")
        return conn

    def _reader(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._local.conn = self._connect()
        return conn

    # --- reads -----------------------------------------------------------------------------------
    def load(self, game_id: str, after: int = 0) -> list[tuple[int, str, str]]:
        return self._reader().execute(
            "SELECT version, kind, data FROM events WHERE game_id = ? AND version > ? ORDER BY version",
            (game_id, after)).fetchall()

    def request_version(self, game_id: str, request_id: str, player: int = NOT_A_PLAYER) -> int | None:
        row = self._reader().execute("SELECT version FROM events WHERE game_id = ? AND request_player = ? "
                                     "AND request_id = ?", (game_id, player, request_id)).fetchone()
        return row[0] if row else None

    def game_ids(self) -> list[str]:
        return [r[0] for r in self._reader().execute("SELECT DISTINCT game_id FROM events")]

    def live_games(self) -> int:
        return self._reader().execute("SELECT count(*) FROM live_games").fetchone()[0]

    # --- writes ----------------------------------------------------------------------------------
    def append(self, game_id: str, base_version: int, rows, request_id: str | None = None, *,
               request_player: int = NOT_A_PLAYER, ended: bool | None = None, max_live: int | None = None) -> int:
        if not rows:
            return base_version
        op = _Append(game_id, base_version, list(rows), request_id or None, request_player, ended, max_live)
        with self._lock:
            if self._closed:
                raise RuntimeError("the game store is closed")
            self._queue.append(op)
            self._lock.notify()
        op.done.wait()
        if op.error is not None:
            raise op.error
        return op.version

    def _commit_loop(self) -> None:
        conn = self._writer
        while True:
            with self._lock:
                while not self._queue and not self._closed:
                    self._lock.wait()
                if not self._queue and self._closed:
                    return
                batch, self._queue = self._queue, []
            fcntl.flock(self._lock_fd, fcntl.LOCK_EX)
            try:
                conn.execute("BEGIN IMMEDIATE")
                for op in batch:
                    self._insert(conn, op)
                conn.execute("COMMIT")
                self.commits += 1
                self.appends += len(batch)
            except Exception as exc:  # noqa: BLE001 - the whole batch failed (disk full, I/O error): nothing
                # committed, each waiting append gets the error; this thread must live on, or every later
                # append of this process would wait forever
                try:
                    conn.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
                for op in batch:
                    if op.error is None:
                        op.error = exc
                        op.version = None
            finally:
                fcntl.flock(self._lock_fd, fcntl.LOCK_UN)
            for op in batch:
                op.done.set()

    @staticmethod
    def _insert(conn: sqlite3.Connection, op: _Append) -> None:
        if op.base == 0 and op.max_live is not None:  # counted in the transaction: exact across processes
            live = conn.execute("SELECT count(*) FROM live_games").fetchone()[0]
            if live >= op.max_live:
                op.error = TooManyGames(op.max_live)
                return
        conn.execute("SAVEPOINT one")
        try:
            version = op.base
            for i, (kind, data) in enumerate(op.rows):
                version += 1
                last = i == len(op.rows) - 1
                conn.execute("INSERT INTO events (game_id, version, kind, data, request_id, request_player) "
                             "VALUES (?, ?, ?, ?, ?, ?)", (op.game_id, version, kind, data, op.request_id if last
                                                          else None, op.request_player if last else None))
            if op.ended is not None:
                conn.execute("DELETE FROM live_games WHERE game_id = ?" if op.ended else
                             "INSERT OR IGNORE INTO live_games (game_id) VALUES (?)", (op.game_id,))
            conn.execute("RELEASE one")
            op.version = version
        except (ValueError, TypeError, OverflowError, sqlite3.InterfaceError) as exc:  # this append's values
            # (a string SQLite cannot take: a lone surrogate): it alone fails, the batch goes on
            conn.execute("ROLLBACK TO one")
            conn.execute("RELEASE one")
            op.error = ValueError(f"the game store cannot take this event: {exc}")
        except sqlite3.IntegrityError:
            conn.execute("ROLLBACK TO one")
            conn.execute("RELEASE one")
            row = None
            if op.request_id:
                row = conn.execute("SELECT version FROM events WHERE game_id = ? AND request_player = ? "
                                   "AND request_id = ?", (op.game_id, op.request_player, op.request_id)).fetchone()
            op.error = DuplicateRequest(row[0]) if row else Conflict(op.game_id)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._lock.notify_all()
        self._thread.join(timeout=10)
        self._writer.close()
        os.close(self._lock_fd)
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
