"""A logging filter that lets one record of each kind through per interval and counts the rest.

A failing games database fails every call the same way: logged each time, that was ~150 lines a second.
Attached to a logger, `OncePerInterval` passes the first record of a kind, drops the others for `interval`
seconds, and adds how many it dropped to the next record of that kind it passes. The kind is the record's
`kind` attribute (`log.warning(..., extra={"kind": ...})`), else its format string. No thread: a count of
dropped records is reported when that kind is next logged.
"""

from __future__ import annotations

import logging
import threading
import time


class OncePerInterval(logging.Filter):
    def __init__(self, interval: float = 10.0, clock=time.monotonic) -> None:
        super().__init__()
        self.interval = interval
        self._clock = clock
        self._lock = threading.Lock()
        self._kinds: dict[str, list] = {}  # kind -> [when one was last let through, dropped since]

    def filter(self, record: logging.LogRecord) -> bool:
        kind = str(getattr(record, "kind", None) or record.msg)
        now = self._clock()
        with self._lock:
            state = self._kinds.get(kind)
            if state is not None and now - state[0] < self.interval:
                state[1] += 1
                return False
            dropped, since = (state[1], now - state[0]) if state is not None else (0, 0.0)
            self._kinds[kind] = [now, 0]
        if dropped:
            record.msg = f"{record.getMessage()} ({dropped} more like it in the {since:.0f} s before, not logged)"
            record.args = ()
        return True
