"""The games database's write-ahead log is sized from the free space of its file system (issue 36, item 2):
with the default --db-wal-limit (64 MiB) on a small disk the WAL must not take the disk, and the store must
come back by itself once space returns."""

from __future__ import annotations

import os
import threading
import types

from lexicon_service.games.store import WAL_LIMIT, SqliteStore

real_statvfs = os.statvfs


class FreeSpace:
    """A statvfs whose free space the test sets (the rest of the answer is the real one's)."""

    def __init__(self, free: int) -> None:
        self.free = free

    def __call__(self, path):
        real = real_statvfs(path)
        return types.SimpleNamespace(f_frsize=4096, f_bsize=4096, f_bavail=self.free // 4096,
                                     f_bfree=self.free // 4096, f_blocks=real.f_blocks)


def load(store, games: int, appends: int, first: int = 0) -> list[int]:
    """Appends of 2,000 bytes from `games` threads while two readers keep reading (so SQLite's passive
    checkpoints alone never reset the WAL); the WAL's size after each."""
    sizes, stop = [], threading.Event()

    def reader():
        while not stop.is_set():
            store.load("g0", 0)

    def writer(g):
        for version in range(first + 1, first + appends + 1):
            store.append(f"g{g}", version - 1, [("move", "x" * 2000)])
            sizes.append(store.wal_size())

    readers = [threading.Thread(target=reader) for _ in range(2)]
    writers = [threading.Thread(target=writer, args=(g,)) for g in range(games)]
    for thread in readers + writers:
        thread.start()
    for thread in writers:
        thread.join()
    stop.set()
    for thread in readers:
        thread.join()
    return sizes


def test_little_free_space_gives_a_small_wal_limit_and_space_returning_lifts_it(tmp_path, monkeypatch):
    free = FreeSpace(512 << 10)
    monkeypatch.setattr(os, "statvfs", free)
    store = SqliteStore(tmp_path / "games.db", synchronous="OFF")  # the default limit, 64 MiB
    try:
        assert store.wal_limit == WAL_LIMIT
        assert store.effective_wal_limit() <= (512 << 10) // 2  # a quarter of the free space (and the WAL)
        sizes = load(store, 4, 100)
        assert max(sizes) <= 256 << 10, f"the WAL reached {max(sizes):,} bytes with 512 KiB free"
        assert store.checkpoints >= 3
        autocheckpoint = store._writer.execute("PRAGMA wal_autocheckpoint").fetchone()[0]
        assert autocheckpoint <= (256 << 10) // 4 // 4096  # SQLite's own checkpoints follow the limit too
        free.free = 8 << 30  # space returns: the limit goes back to the option without a restart
        sizes = load(store, 4, 100, first=100)
        assert store.effective_wal_limit() == WAL_LIMIT
        # the WAL grows past what the small limit allowed (a checkpoint when appends pause for a second, as
        # they may on a loaded machine, is not the limit's and may still happen)
        assert max(sizes) > 256 << 10
        assert store._writer.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 1000
    finally:
        store.close()


def test_the_default_wal_limit_does_not_take_a_small_disk(tiny_filesystem):
    store = SqliteStore(tiny_filesystem / "games.db")  # the default limit, 64 MiB, on 2 MB
    try:
        sizes = load(store, 4, 60)  # about 500 KB of events: they fit, and the WAL must leave them room
        assert store.writable and store.appends == 240
        assert max(sizes) <= (2 << 20) // 4
    finally:
        store.close()
