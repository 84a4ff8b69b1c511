"""Counts shared by the server processes of one supervisor (`serve --processes N`), so that a bound on a
client's or a game's streams, and on a client's computer-only games a minute, holds across the processes and
not N times over.

An SQLite database (WAL) the supervisor creates in a directory of its own, in memory (/dev/shm) where
there is one, and removes when it stops (or, killed, the next supervisor does). A process counts in rows of its own slot (the supervisor's index
for it) and a key's count is the sum over the slots; a process starting in a slot deletes that slot's rows,
so whatever a killed predecessor held is released and no other process's count is touched. Every change is
one transaction (BEGIN IMMEDIATE): a process killed in the middle of one changes nothing. It replaced a
hash table of our own in shared memory: measured against it in docs/service.md ("Streams per client")."""

from __future__ import annotations

import fcntl
import os
import sqlite3
import stat
import tempfile
import threading
import time

DIRECTORY_PREFIX = "lexicon-shared-counts-"
DATABASE_NAME = "counts.db"
# Marks a database the supervisor made (PRAGMA application_id): a process writes into no other file.
APPLICATION_ID = 0x4C584354
# Seconds a change waits for another process's (each holds the database for some microseconds).
BUSY_SECONDS = 10.0
SCHEMA = """
CREATE TABLE streams (scope TEXT NOT NULL, key TEXT NOT NULL, slot INTEGER NOT NULL, held INTEGER NOT NULL,
                      PRIMARY KEY (scope, key, slot)) WITHOUT ROWID;
CREATE TABLE starts (client TEXT NOT NULL, at REAL NOT NULL);
CREATE INDEX starts_by_client ON starts (client);
CREATE INDEX starts_by_time ON starts (at);
"""


class CountsDatabase:
    """The database a supervisor makes for its children, at `path`. Its maker holds a shared flock on it
    while it lives (the kernel drops it when the maker dies, even by SIGKILL), so that a later supervisor
    removes what a killed one left behind, and only that; `remove` when the children have stopped."""

    def __init__(self, path: str, holder: int) -> None:
        self.path = path
        self._holder = holder

    @classmethod
    def create(cls, parent: str | None = None) -> CountsDatabase:
        """A new empty database in a new directory in `parent` (default: /dev/shm where there is one)."""
        if parent is None:
            memory = "/dev/shm"
            parent = memory if os.path.isdir(memory) and os.access(memory, os.W_OK) else tempfile.gettempdir()
        remove_abandoned(parent)
        directory = tempfile.mkdtemp(prefix=DIRECTORY_PREFIX, dir=parent)
        path = os.path.join(directory, DATABASE_NAME)
        holder = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
        fcntl.flock(holder, fcntl.LOCK_SH)  # before it is a database: never taken for an abandoned one
        db = sqlite3.connect(path, isolation_level=None)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.executescript(SCHEMA)
            db.execute(f"PRAGMA application_id={APPLICATION_ID}")
        finally:
            db.close()  # the last connection: the WAL is checkpointed into the file, which now shows its id
        return cls(path, holder)

    def remove(self) -> None:
        """Remove the database, its WAL and index files and the directory."""
        _remove_files(self.path)
        os.close(self._holder)


def _last_change(path: str) -> float:
    changes = []
    for suffix in ("", "-wal", "-shm"):
        try:
            changes.append(os.stat(path + suffix).st_mtime)
        except FileNotFoundError:
            pass
    return max(changes)


def _remove_files(path: str) -> None:
    for suffix in ("", "-wal", "-shm"):
        try:
            os.unlink(path + suffix)
        except FileNotFoundError:
            pass
    os.rmdir(os.path.dirname(path))


# A database changed more recently than this is left alone even when nobody holds it: a supervisor of an
# earlier version, which held no lock, may be using it.
QUIET_SECONDS = 600


def remove_abandoned(parent: str) -> int:
    """Remove the databases in `parent` whose supervisor is gone (one killed by SIGKILL could not remove its
    own): a directory of ours by name, owned by this user, holding a database with our application id
    that nobody holds and nobody changed for QUIET_SECONDS. How many."""
    removed = 0
    quiet_since = time.time() - QUIET_SECONDS
    for entry in os.scandir(parent):
        if not entry.name.startswith(DIRECTORY_PREFIX) or not entry.is_dir(follow_symlinks=False) \
                or entry.stat(follow_symlinks=False).st_uid != os.getuid():
            continue
        path = os.path.join(entry.path, DATABASE_NAME)
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # fails while its maker lives
            if os.pread(fd, 4, 68) == APPLICATION_ID.to_bytes(4, "big") \
                    and _last_change(path) < quiet_since:  # 68: the header's application id
                _remove_files(path)
                removed += 1
        except OSError:
            pass
        finally:
            os.close(fd)
    return removed


class SharedCounts:
    """The counts of the database at `path`, this process counting in slot `column`; `scope` keeps apart
    what different bounds count (gRPC streams, HTTP streams)."""

    def __init__(self, path: str, column: int, scope: str = "") -> None:
        self.path = path
        self.column = column
        self.scope = scope
        # mode=rw: never create a file; the application id is read before anything is written
        self._db = sqlite3.connect(f"file:{path}?mode=rw", uri=True, isolation_level=None,
                                   check_same_thread=False, timeout=BUSY_SECONDS)
        try:
            found = self._db.execute("PRAGMA application_id").fetchone()[0]
        except sqlite3.DatabaseError as exc:
            self._db.close()
            raise ValueError(f"{path} is not a shared count database: {exc}") from None
        if found != APPLICATION_ID:
            self._db.close()
            raise ValueError(f"{path} is not a shared count database")
        self._db.execute("PRAGMA synchronous=OFF")  # in memory, and gone with the supervisor
        # the WAL is memory (/dev/shm): checkpointed every 64 pages and cut back to 256 KiB after (it kept
        # 4 MB by default)
        self._db.execute("PRAGMA wal_autocheckpoint=64")
        self._db.execute(f"PRAGMA journal_size_limit={256 << 10}")
        self._lock = threading.Lock()  # one connection for the process's threads: one transaction at a time
        # Writers queue on an flock of the directory (the kernel wakes the next at once, and releases it when
        # its holder dies) rather than in SQLite's busy handler, which sleeps up to 100 ms between tries: 4
        # processes changing at full speed saw a change wait 2.7 s (bench/bench_shared_counts.py).
        self._queue = os.open(os.path.dirname(os.path.abspath(path)), os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)

    @classmethod
    def inherited(cls, path: str, column: int, scope: str = "") -> SharedCounts:
        """The database a supervisor passed as `path`; ValueError when it is not one a supervisor made (a
        regular file in a directory of ours, owned by this user: never write into another file)."""
        directory = os.path.basename(os.path.dirname(path))
        info = os.lstat(path)
        if not directory.startswith(DIRECTORY_PREFIX) or os.path.basename(path) != DATABASE_NAME \
                or not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid():
            raise ValueError(f"{path} is not a shared count database")
        return cls(path, column, scope)

    def _change(self, work):
        """`work(db)` in one write transaction; its result."""
        with self._lock:
            fcntl.flock(self._queue, fcntl.LOCK_EX)
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    result = work(self._db)
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
                self._db.execute("COMMIT")
                return result
            finally:
                fcntl.flock(self._queue, fcntl.LOCK_UN)

    def count(self, key: str) -> int:
        with self._lock:
            return self._db.execute("SELECT coalesce(sum(held), 0) FROM streams WHERE scope = ? AND key = ?",
                                    (self.scope, key)).fetchone()[0]

    def add(self, keys, bounds) -> int | None:
        """Count one more of each key in this process's slot, unless a key's total across the processes has
        reached its bound: then nothing is counted and the result is that key's position in `keys`."""
        def add(db):
            for position, (key, bound) in enumerate(zip(keys, bounds)):
                held = db.execute("SELECT coalesce(sum(held), 0) FROM streams WHERE scope = ? AND key = ?",
                                  (self.scope, key)).fetchone()[0]
                if held >= bound:
                    return position
            db.executemany("INSERT INTO streams VALUES (?, ?, ?, 1) ON CONFLICT DO UPDATE SET held = held + 1",
                           [(self.scope, key, self.column) for key in keys])
            return None

        return self._change(add)

    def remove(self, keys) -> None:
        """One fewer of each key in this process's slot (as `add` counted them)."""
        def remove(db):
            rows = [(self.scope, key, self.column) for key in keys]
            db.executemany("UPDATE streams SET held = held - 1 WHERE scope = ? AND key = ? AND slot = ?", rows)
            db.executemany("DELETE FROM streams WHERE scope = ? AND key = ? AND slot = ? AND held <= 0", rows)

        self._change(remove)

    def claim_column(self) -> None:
        """This process starts in its slot: what a killed predecessor there held is released."""
        self._change(lambda db: db.execute("DELETE FROM streams WHERE scope = ? AND slot = ?",
                                           (self.scope, self.column)))

    def take_start(self, client: str, per_window: int, now: float, window: float) -> bool:
        """Count a start for `client` at `now` unless it had `per_window` in the `window` seconds before
        (then nothing is counted): whether it was counted. `now`: a clock all the processes share."""
        def take(db):
            db.execute("DELETE FROM starts WHERE at <= ?", (now - window,))
            if db.execute("SELECT count(*) FROM starts WHERE client = ?", (client,)).fetchone()[0] >= per_window:
                return False
            db.execute("INSERT INTO starts VALUES (?, ?)", (client, now))
            return True

        return self._change(take)

    def close(self) -> None:
        with self._lock:
            self._db.close()
            os.close(self._queue)
