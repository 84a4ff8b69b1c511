"""Signal handlers that only queue the signal (SIGHUP, SIGTERM, SIGINT), for `serve` and its supervisor.

A handler runs in the main thread between any two bytecodes: one that takes a lock the interrupted
code may hold (logging, starting a thread, a loop's own lock) deadlocks. `SimpleQueue.put` is safe
there; a loop or thread acts on the queue.
"""

from __future__ import annotations

import queue
import signal

HANDLED = (signal.SIGHUP, signal.SIGTERM, signal.SIGINT)


def queue_signals(signals: queue.SimpleQueue):
    """Install handlers putting each of HANDLED into `signals`; returns a function restoring the old ones."""
    previous = {s: signal.signal(s, lambda signum, frame: signals.put(signum)) for s in HANDLED}

    def restore() -> None:
        for signum, handler in previous.items():
            signal.signal(signum, handler)

    return restore
