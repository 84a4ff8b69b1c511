"""Where games live: each game is its event log, behind one small interface (`GameStore`).

`SqliteStore` (stdlib sqlite3, WAL, synchronous=FULL) is the default. One row per event, keyed
(game_id, version): appending version v+1 when another writer already has is a primary-key
conflict, which is how several server processes share a game without an owner (optimistic
versioning). An append returns only after its transaction committed and fsync'd; appends from
many threads are committed together (group commit: one fsync for every append waiting), which is
what makes more than a few hundred durable moves per second possible on one disk. Writers in
different processes take turns through an flock on `<db>.lock` before BEGIN IMMEDIATE: the kernel
wakes the next one as soon as a commit ends, where SQLite's own busy handler would sleep and poll.

PostgresStore (games/pgstore.py) keeps the same table and primary key in PostgreSQL, for servers on
several hosts.

Faults of the file (docs/games.md, "When the disk fails"): opening runs PRAGMA integrity_check and
refuses a damaged file (DatabaseDamaged, with how to recover). At run time a read that finds damage
refuses that game (GameDamaged); damage to the file's structure (SQLITE_CORRUPT) also every later write. A
write that fails because the file cannot be written (disk full, read-only, I/O error) fails with
StoreUnavailable, nothing stored; `writable` turns False, and while it is, a one-page write is tried every
PROBE_SECONDS, so writes and health come back without a restart once space is freed. The WAL is bounded by
the smaller of `wal_limit` and a quarter of the file system's free space (re-read after each commit and
each idle check, so it shrinks as the disk fills and grows back as space returns): TRUNCATE checkpoints when
the WAL passes half of it and when appends pause, and SQLite's own checkpoints follow it.
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
import shlex
import sqlite3
import threading
from typing import Protocol

from lexicon_service.errors import (
    Conflict,
    DatabaseDamaged,
    DuplicateRequest,
    GameDamaged,
    StoreUnavailable,
    TooManyGames,
)
from lexicon_service.ratelimit import OncePerInterval

log = logging.getLogger("lexicon_service.games.store")
LOG_INTERVAL = 10.0  # seconds: a database error of one kind is logged once per interval, with a count of the rest
log.addFilter(OncePerInterval(LOG_INTERVAL))

WAL_LIMIT = 64 << 20  # bytes the write-ahead log may take (serve --db-wal-limit)
IDLE_CHECKPOINT_SECONDS = 1.0  # no append for this long after one: the WAL is checkpointed and truncated
WAL_FREE_SHARE = 4  # the WAL may take at most 1/WAL_FREE_SHARE of the free space (a checkpoint needs room)
MIN_WAL_LIMIT = 64 << 10  # however full the disk: below this every commit would be checkpointed
CHECKPOINT_BUSY_MS = 500  # a TRUNCATE checkpoint waits at most this long for readers
PROBE_SECONDS = 1.0  # while writes fail, a one-page write is tried this often
PROBE_FREE_BYTES = 256 << 10  # and only when the file system has this much free
# SQLite's primary result codes (sqlite3.Error.sqlite_errorcode & 0xff)
DAMAGE_CODES = {11: "SQLITE_CORRUPT", 26: "SQLITE_NOTADB"}
CANNOT_WRITE_CODES = {8: "SQLITE_READONLY", 10: "SQLITE_IOERR", 13: "SQLITE_FULL", 14: "SQLITE_CANTOPEN"}

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

    def live_game_ids(self, limit: int) -> list[str]:
        """The ids of at most `limit` games in progress, in id order."""

    def load(self, game_id: str, after: int = 0) -> list[tuple[int, str, str]]:
        """(version, kind, json) of the events after version `after`, in order ([] for no game)."""

    def request_version(self, game_id: str, request_id: str, player: int = NOT_A_PLAYER) -> int | None:
        """The version of the event `player` appended with this request id, if any."""

    def damaged_game(self, game_id: str, detail: str, whole_file: bool = False) -> Exception:
        """The error to raise (GameDamaged) for a game whose stored history cannot be read whole."""

    def close(self) -> None: ...


def is_postgres_url(db: str | None) -> bool:
    """A postgresql:// games database (games/pgstore.py, which alone imports psycopg: only when one is used)."""
    return isinstance(db, str) and db.startswith(("postgresql://", "postgres://"))


def recovery_advice(path: str) -> str:
    """How to get a working games file out of a damaged one (tested in tests/test_games_db_faults.py)."""
    damaged = shlex.quote(path)
    base, dot, ext = path.rpartition(".")
    recovered = shlex.quote(f"{base}-recovered.{ext}" if dot and "/" not in ext else f"{path}-recovered")
    return (f"stop every server using it, then restore it from a backup, or copy every game that still reads whole "
            f"into a new file: lexicon-service recover-games {damaged} {recovered} (and serve --db {recovered})")


def check_integrity(conn: sqlite3.Connection, path: str) -> None:
    """Raise DatabaseDamaged (naming the file, the first problem and the way out) unless PRAGMA
    integrity_check passes. integrity_check, not quick_check: it also compares each index with its table,
    and costs little more (0.15-0.25 s on 10,000 games: docs/measurements.md)."""
    try:
        problems = [row[0] for row in conn.execute("PRAGMA integrity_check(3)")]
    except sqlite3.DatabaseError as exc:
        problems = [str(exc)]
    if problems != ["ok"]:
        first = " ".join(" ".join(problems).split()[:24])  # one line: a problem may hold several
        raise DatabaseDamaged(f"the games database {path} is damaged ({first}...): {recovery_advice(path)}")


def _primary_code(exc: BaseException) -> int | None:
    code = getattr(exc, "sqlite_errorcode", None)
    return code & 0xFF if code is not None else None


class StoreHealth:
    """Whether a store's writes can succeed now, and who to tell when that changes (the server's games
    health): shared by SqliteStore and PostgresStore (games/pgstore.py)."""

    damaged: str | None = None  # what damage a read found: no write is taken after it
    unwritable: str | None = None  # why the last write failed: None when writes succeed

    def _init_health(self) -> None:
        self._listeners: list = []
        self._state_lock = threading.Lock()

    @property
    def writable(self) -> bool:
        """Whether writes can succeed: not damaged, and the last write (or probe) succeeded."""
        return self.damaged is None and self.unwritable is None

    def on_change(self, listener) -> None:
        """Call `listener(writable)` whenever `writable` changes."""
        self._listeners.append(listener)

    def _changed(self) -> None:
        for listener in list(self._listeners):
            listener(self.writable)

    def _wrote(self) -> None:
        if self.unwritable is None:
            return
        with self._state_lock:
            was, self.unwritable = self.unwritable, None
        if was is not None:
            log.warning("the games database %s takes writes again", self.path)
            self._changed()


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


class SqliteStore(StoreHealth):
    """The event log in one SQLite file, shared by every server process that opens it."""

    def __init__(self, path, *, synchronous: str = "FULL", busy_timeout_ms: int = 10_000,
                 wal_limit: int = WAL_LIMIT) -> None:
        self.path = os.fspath(path)
        self._synchronous = synchronous
        self._busy_ms = busy_timeout_ms
        self.wal_limit = wal_limit  # the operator's bound; `effective_wal_limit` also follows the free space
        self._wal_limit_now = self.effective_wal_limit()  # what the writer's PRAGMAs were set from
        self._init_health()
        self.checkpoints = 0  # TRUNCATE checkpoints done
        self._wal_dirty = False  # appended since the last TRUNCATE checkpoint
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
            try:
                check_integrity(writer, self.path)
            except DatabaseDamaged:
                writer.close()
                raise
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
        self._probe()  # a file that opens but cannot be written (read-only, a full disk) starts unwritable
        self._thread = threading.Thread(target=self._commit_loop, name="games-commit", daemon=True)
        self._thread.start()

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False,
                               timeout=self._busy_ms / 1000)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute(f"PRAGMA synchronous={self._synchronous}")
        conn.execute(f"PRAGMA busy_timeout={int(self._busy_ms)}")
        # A WAL reset by a checkpoint is cut back to the limit; passive checkpoints start at a quarter of it.
        self._size_wal(conn, self._wal_limit_now)
        return conn

    @staticmethod
    def _size_wal(conn: sqlite3.Connection, limit: int) -> None:
        conn.execute(f"PRAGMA journal_size_limit={int(limit)}")
        conn.execute(f"PRAGMA wal_autocheckpoint={max(16, min(1000, limit // 4 // 4096))}")

    def effective_wal_limit(self) -> int:
        """The bytes the WAL may take now: `wal_limit`, or less when the file system's free space (plus what
        the WAL holds already, which a checkpoint gives back) is short: a WAL that fills the disk could not
        even be checkpointed."""
        try:
            stat = os.statvfs(os.path.dirname(os.path.abspath(self.path)))
        except OSError:
            return self.wal_limit
        room = stat.f_bavail * stat.f_frsize + self.wal_size()
        return max(MIN_WAL_LIMIT, min(self.wal_limit, room // WAL_FREE_SHARE))

    def _resize_wal(self) -> int:
        """Re-read the free space; when the limit changed, the writer's PRAGMAs follow it. The commit thread
        only (it uses the writer connection). Returns the limit."""
        limit = self.effective_wal_limit()
        if limit != self._wal_limit_now:
            try:
                self._size_wal(self._writer, limit)
            except sqlite3.Error:
                return limit  # set again on the next check (or by the probe's new connection)
            self._wal_limit_now = limit
        return limit

    def _reader(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._local.conn = self._connect()
        return conn

    # --- reads -----------------------------------------------------------------------------------
    def load(self, game_id: str, after: int = 0) -> list[tuple[int, str, str]]:
        try:
            rows = self._reader().execute(
                "SELECT version, kind, data FROM events WHERE game_id = ? AND version > ? ORDER BY version",
                (game_id, after)).fetchall()
        except sqlite3.DatabaseError as exc:
            if _primary_code(exc) in DAMAGE_CODES:  # a damaged page: the file's structure
                raise self.damaged_game(game_id, str(exc), whole_file=True) from exc
            if "decode" in str(exc):  # text that is not UTF-8: damaged contents of this game
                raise self.damaged_game(game_id, str(exc)[:120]) from exc
            raise StoreUnavailable(f"the games database cannot be read now ({exc}); retry") from exc
        if rows and (rows[0][0] != after + 1 or rows[-1][0] != after + len(rows)):
            raise self.damaged_game(game_id, f"versions {rows[0][0]}-{rows[-1][0]} after {after} have gaps")
        return rows

    def request_version(self, game_id: str, request_id: str, player: int = NOT_A_PLAYER) -> int | None:
        row = self._reader().execute("SELECT version FROM events WHERE game_id = ? AND request_player = ? "
                                     "AND request_id = ?", (game_id, player, request_id)).fetchone()
        return row[0] if row else None

    def game_ids(self) -> list[str]:
        return [r[0] for r in self._reader().execute("SELECT DISTINCT game_id FROM events")]

    def live_games(self) -> int:
        return self._reader().execute("SELECT count(*) FROM live_games").fetchone()[0]

    def live_game_ids(self, limit: int) -> list[str]:
        return [r[0] for r in self._reader().execute("SELECT game_id FROM live_games ORDER BY game_id LIMIT ?",
                                                     (limit,))]

    # --- the file's health -------------------------------------------------------------------------
    def damaged_game(self, game_id: str, detail: str, whole_file: bool = False) -> GameDamaged:
        """The error to raise for a game whose history cannot be read whole; logged. A game that cannot be
        read takes no move, as every command reads it first. `whole_file`: the damage is in the file's
        structure (SQLITE_CORRUPT), where a write could spread it: no write is taken after it."""
        first = False
        if whole_file:
            with self._state_lock:
                first = self.damaged is None
                if first:
                    self.damaged = detail
        log.error("the games database %s is damaged: game %s cannot be read whole (%s)%s. %s", self.path, game_id,
                  detail, "; it takes no more writes" if whole_file else "", recovery_advice(self.path),
                  extra={"kind": "damaged file" if whole_file else "damaged game"})
        if first:
            self._changed()
        return GameDamaged(game_id, detail)

    def _write_failed(self, exc: sqlite3.Error) -> StoreUnavailable:
        code = _primary_code(exc)
        if code in CANNOT_WRITE_CODES:
            with self._state_lock:
                first = self.unwritable is None
                self.unwritable = f"{CANNOT_WRITE_CODES[code]}: {exc}"
            log.warning("the games database %s cannot be written (%s); writes are refused until it can",
                        self.path, exc, extra={"kind": f"cannot write {code}"})
            if first:
                self._changed()
        elif code in DAMAGE_CODES:
            self.damaged_game("(a write)", str(exc), whole_file=True)
        else:  # locked past the busy timeout, and the like: this write only
            log.warning("a write to the games database %s failed: %s", self.path, exc, extra={"kind": f"write {code}"})
        return StoreUnavailable(f"the games database cannot write now ({exc}); nothing was stored, retry later")

    def _probe(self) -> None:
        """Rewrite the header's user_version with its own value (one page, one commit): whether writes
        succeed. While writes fail, the writer connection is made again first: SQLite opened a read-only file
        read-only, and it stays so after the file is made writable."""
        if self.damaged is not None:
            return
        if self.unwritable is not None:
            try:
                stat = os.statvfs(os.path.dirname(os.path.abspath(self.path)))
                if stat.f_bavail * stat.f_frsize < PROBE_FREE_BYTES:
                    return
            except OSError:
                pass
        fcntl.flock(self._lock_fd, fcntl.LOCK_EX)
        try:
            if self.unwritable is not None:
                self._writer.close()
                self._writer = self._connect()
            conn = self._writer
            conn.execute("BEGIN IMMEDIATE")
            conn.execute(f"PRAGMA user_version={int(conn.execute('PRAGMA user_version').fetchone()[0])}")
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            try:
                self._writer.execute("ROLLBACK")
            except sqlite3.Error:
                pass
            self._write_failed(exc)
        else:
            self._wrote()
        finally:
            fcntl.flock(self._lock_fd, fcntl.LOCK_UN)

    # --- the write-ahead log ---------------------------------------------------------------------------
    def wal_size(self) -> int:
        try:
            return os.stat(self.path + "-wal").st_size
        except OSError:
            return 0

    def _checkpoint(self) -> bool:
        """Copy the WAL into the file and truncate it (waiting up to CHECKPOINT_BUSY_MS for readers to move
        on). True when done. Called by the commit thread only: it uses the writer connection."""
        fcntl.flock(self._lock_fd, fcntl.LOCK_EX)
        try:  # appends wait meanwhile: a reader that holds on makes the checkpoint give up (and retry later)
            self._writer.execute(f"PRAGMA busy_timeout={CHECKPOINT_BUSY_MS}")
            busy = self._writer.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
        except sqlite3.Error as exc:
            log.warning("checkpointing the games database %s failed: %s", self.path, exc,
                        extra={"kind": "checkpoint failed"})
            return False
        finally:
            try:
                self._writer.execute(f"PRAGMA busy_timeout={int(self._busy_ms)}")
            except sqlite3.Error:
                pass
            fcntl.flock(self._lock_fd, fcntl.LOCK_UN)
        if busy:
            log.warning("checkpointing the games database %s: readers held it past %d ms", self.path, CHECKPOINT_BUSY_MS,
                        extra={"kind": "checkpoint busy"})
            return False
        self.checkpoints += 1
        self._wal_dirty = False
        return True

    def _idle_wait(self) -> float | None:
        """How long the commit thread waits for appends before its idle work (None: no idle work)."""
        if self.damaged is not None:
            return None
        if self.unwritable is not None:
            return PROBE_SECONDS
        return IDLE_CHECKPOINT_SECONDS if self._wal_dirty else None

    def _idle(self) -> None:
        if self.damaged is not None:
            return
        self._resize_wal()
        if self.unwritable is not None:
            if self.wal_size():  # a WAL that took the free space gives it back, so the probe can succeed
                self._checkpoint()
            self._probe()
        elif self._wal_dirty:
            self._checkpoint()

    # --- writes ----------------------------------------------------------------------------------
    def append(self, game_id: str, base_version: int, rows, request_id: str | None = None, *,
               request_player: int = NOT_A_PLAYER, ended: bool | None = None, max_live: int | None = None) -> int:
        if not rows:
            return base_version
        if self.damaged is not None:
            raise StoreUnavailable(f"the games database is damaged ({self.damaged}); it takes no writes until "
                                   "it is recovered")
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
        while True:
            with self._lock:
                while not self._queue and not self._closed:
                    if not self._lock.wait(self._idle_wait()):
                        break  # nothing appended for a while: idle work below
                if not self._queue and self._closed:
                    return
                batch, self._queue = self._queue, []
            if not batch:
                self._idle()
                continue
            conn = self._writer  # made again by a probe after writes failed
            committed = False
            fcntl.flock(self._lock_fd, fcntl.LOCK_EX)
            try:
                conn.execute("BEGIN IMMEDIATE")
                for op in batch:
                    self._insert(conn, op)
                conn.execute("COMMIT")
                committed = True
                self.commits += 1
                self.appends += len(batch)
            except Exception as exc:  # noqa: BLE001 - the whole batch failed (disk full, I/O error): nothing
                # committed, each waiting append gets the error; this thread must live on, or every later
                # append of this process would wait forever
                try:
                    conn.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
                if isinstance(exc, sqlite3.Error):
                    exc = self._write_failed(exc)
                for op in batch:
                    if op.error is None:
                        op.error = exc
                        op.version = None
            finally:
                fcntl.flock(self._lock_fd, fcntl.LOCK_UN)
            for op in batch:
                op.done.set()
            if committed:
                self._wal_dirty = True
                self._wrote()
                if self.wal_size() > self._resize_wal() // 2:  # before the next batch can take it past the limit
                    self._checkpoint()

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
