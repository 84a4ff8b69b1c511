"""Counts by key shared by the server processes of one supervisor (`serve --processes N`), so that a bound
on a client's or a game's streams holds across the processes and not N times over.

One table in a memfd the supervisor creates and every child maps: entries of a 64-bit key hash (0: free)
and one 32-bit count per process (its column, the supervisor's slot index); a key's count is the sum of
the columns. A child adds and removes only in its own column, and zeroes that column when it starts:
whatever a killed predecessor in its slot held is released, with no other process's counts touched.
Changes hold an fcntl lock on the memfd (per process: the kernel releases it when its holder dies) and,
inside a process, a thread lock. Open addressing with linear probing; an entry whose columns are all
zero is removed (backward shift), and a child's start rebuilds the table."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import mmap
import os
import struct
import threading

KEY = struct.Struct("<Q")
COUNT = struct.Struct("<I")
# Entries per expected key: twice, so that probes stay short (at most half the entries in use).
SPARE = 2
MEMFD_NAME = "lexicon-stream-counts"


def key_hash(kind: str, name: str) -> int:
    """The table's key for `name` of `kind` ("client", "game"): stable across processes (Python's own
    hash is salted per process), never 0 (a free entry)."""
    digest = hashlib.blake2b(f"{kind}\0{name}".encode("utf-8", "surrogatepass"), digest_size=8).digest()
    return KEY.unpack(digest)[0] or 1


class SharedCounts:
    """The table over the memfd `fd` (`columns` processes, this one's `column`)."""

    def __init__(self, fd: int, columns: int, column: int) -> None:
        if not 0 <= column < columns:
            raise ValueError(f"column {column} is not one of {columns}")
        self.fd = fd
        self.columns = columns
        self.column = column
        self.entry_size = KEY.size + COUNT.size * columns
        size = os.fstat(fd).st_size
        self.entries = size // self.entry_size
        if self.entries < 1 or size % self.entry_size:
            raise ValueError(f"a shared count table of {size} bytes does not hold entries of {columns} columns")
        self._map = mmap.mmap(fd, size)
        self._lock = threading.Lock()

    @classmethod
    def inherited(cls, fd: int, columns: int, column: int) -> SharedCounts:
        """The table a supervisor passed as `fd`; ValueError when `fd` is not such a table's memfd (never
        map and write a file that happens to be open there)."""
        if not os.readlink(f"/proc/self/fd/{fd}").startswith(f"/memfd:{MEMFD_NAME}"):
            raise ValueError(f"file descriptor {fd} is not a shared count table")
        return cls(fd, columns, column)

    @staticmethod
    def create(keys: int, columns: int) -> int:
        """A new zeroed table for up to `keys` keys at once: its memfd (inherited by the children)."""
        fd = os.memfd_create(MEMFD_NAME, 0)  # not close-on-exec: the children map it
        entries = 1 << max(4, (keys * SPARE - 1).bit_length())
        os.ftruncate(fd, entries * (KEY.size + COUNT.size * columns))
        return fd

    @contextlib.contextmanager
    def _locked(self):
        with self._lock:
            fcntl.lockf(self.fd, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.lockf(self.fd, fcntl.LOCK_UN)

    # --- entries ---------------------------------------------------------------------------------------
    def _key(self, index: int) -> int:
        return KEY.unpack_from(self._map, index * self.entry_size)[0]

    def _counts(self, index: int) -> tuple[int, ...]:
        start = index * self.entry_size + KEY.size
        return struct.unpack_from(f"<{self.columns}I", self._map, start)

    def _own(self, index: int) -> int:
        return index * self.entry_size + KEY.size + COUNT.size * self.column

    def _find(self, key: int) -> tuple[int, bool]:
        """(the key's entry, True), or (the free entry it would take, False); (-1, False): the table is full."""
        index = key % self.entries
        for _ in range(self.entries):
            found = self._key(index)
            if found == key:
                return index, True
            if found == 0:
                return index, False
            index = (index + 1) % self.entries
        return -1, False

    def _remove(self, index: int) -> None:
        """Free entry `index`, shifting back the entries after it that probed past it."""
        size = self.entry_size
        while True:
            self._map[index * size:(index + 1) * size] = bytes(size)
            after = (index + 1) % self.entries
            while True:
                key = self._key(after)
                if key == 0:
                    return
                home = key % self.entries
                # `after` may move into `index` when its home is not cyclically within (index, after]
                if (after - home) % self.entries >= (after - index) % self.entries:
                    break
                after = (after + 1) % self.entries
            self._map[index * size:(index + 1) * size] = self._map[after * size:(after + 1) * size]
            index = after

    # --- counting --------------------------------------------------------------------------------------
    def count(self, key: int) -> int:
        with self._locked():
            index, found = self._find(key)
            return sum(self._counts(index)) if found else 0

    def add(self, keys, bounds) -> int | None:
        """Count one more of each key in this process's column, unless a key's total across the processes
        has reached its bound: then nothing is counted and the result is that key's position in `keys`
        (len(keys): the table is full)."""
        with self._locked():
            places = []
            for position, (key, bound) in enumerate(zip(keys, bounds)):
                index, found = self._find(key)
                if found and sum(self._counts(index)) >= bound:
                    return position
                places.append((index, found))
            for key, (index, found) in zip(keys, places):
                if not found:  # the earlier keys' entries may have taken its free one: find it again
                    index, found = self._find(key)
                    if index < 0:
                        self._release(keys[:keys.index(key)])
                        return len(keys)
                    KEY.pack_into(self._map, index * self.entry_size, key)
                own = self._own(index)
                COUNT.pack_into(self._map, own, COUNT.unpack_from(self._map, own)[0] + 1)
        return None

    def remove(self, keys) -> None:
        """One fewer of each key in this process's column (as `add` counted them)."""
        with self._locked():
            self._release(keys)

    def _release(self, keys) -> None:
        for key in keys:
            index, found = self._find(key)
            if not found:
                continue
            own = self._own(index)
            COUNT.pack_into(self._map, own, max(0, COUNT.unpack_from(self._map, own)[0] - 1))
            if not any(self._counts(index)):
                self._remove(index)

    def claim_column(self) -> None:
        """This process starts in its slot: its column is zeroed (a killed predecessor's counts released)
        and the table rebuilt without the entries left with no count (and without duplicates a process
        killed in the middle of a change may have left)."""
        with self._locked():
            live: dict[int, bytes] = {}
            for index in range(self.entries):
                key = self._key(index)
                COUNT.pack_into(self._map, self._own(index), 0)
                if key and key not in live and any(self._counts(index)):
                    live[key] = bytes(self._map[index * self.entry_size:(index + 1) * self.entry_size])
            self._map[:] = bytes(len(self._map))
            for key, entry in live.items():
                index, _ = self._find(key)
                self._map[index * self.entry_size:(index + 1) * self.entry_size] = entry

    def close(self) -> None:
        self._map.close()
