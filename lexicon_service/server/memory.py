"""Heap memory freed after a burst is given back to the system: `release_freed_memory()`.

glibc's malloc keeps what Python frees in its arenas, and after a large block is freed it serves later
large blocks from the heap instead of fresh mappings. After 1,000 HTTP clients that never read their
answers went away, a server process kept what it no longer used (docs/service.md, "Clients that do not read"). So:
  * blocks of MMAP_THRESHOLD bytes or more (answers, request bodies, write queues) always get mappings
    of their own, unmapped when freed (mallopt M_MMAP_THRESHOLD: a fixed threshold, which glibc no
    longer raises);
  * a thread looks every `interval` seconds at how much malloc holds free (mallinfo2) and, beyond
    `threshold` bytes, calls malloc_trim(0), which returns free pages of the heap to the system.
Elsewhere than glibc it does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import threading

log = logging.getLogger("lexicon_service.server")

MMAP_THRESHOLD = 128 << 10  # glibc's initial value
M_MMAP_THRESHOLD = -3  # mallopt's parameter (malloc.h)
INTERVAL = 5.0  # seconds between looks; mallinfo2 costs ~10 us on an idle server's heap
THRESHOLD = 16 << 20  # bytes held free by malloc before they are returned


class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost")]


def _libc():
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.mallinfo2.restype = _MallInfo2
        libc.malloc_trim.argtypes = [ctypes.c_size_t]
        libc.mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    except (OSError, AttributeError):  # not glibc, or older than 2.33
        return None
    return libc


def free_bytes_held(libc) -> int:
    """Bytes malloc holds free in its arenas (not given back to the system)."""
    return libc.mallinfo2().fordblks


def release_freed_memory(interval: float = INTERVAL, threshold: int = THRESHOLD):
    """Start the thread; returns a function that stops it (None when malloc cannot be asked)."""
    libc = _libc()
    if libc is None:
        return None
    libc.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)
    stop = threading.Event()

    def run() -> None:
        while not stop.wait(interval):
            held = free_bytes_held(libc)
            if held > threshold:
                libc.malloc_trim(0)
                log.debug("returned freed memory to the system (%.0f MB held free, %.0f MB after)",
                          held / 2**20, free_bytes_held(libc) / 2**20)

    threading.Thread(target=run, name="lexicon-release-memory", daemon=True).start()
    return stop.set
