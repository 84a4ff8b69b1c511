"""How many games with only computer players one client may start: at most `per_minute` in any 60 s.

Such a game has no person to wait for: its computer players move in the server's computer workers until
it ends, so each one started takes CPU from every game with a person in it. Games in progress of every
kind count against `serve --max-games` (the store counts them); this bounds how fast one client fills it.
A client is what the transport says it is (its IP address), or "" when it says nothing. With `shared`
(the counts `serve --processes`' supervisor shares among its children, server/shared_counts.py) the starts
are counted across the processes, so that a client gets its share of the server, not that many on each.
"""

from __future__ import annotations

import collections
import threading
import time

from lexicon_service.errors import TooManyComputerGames

COMPUTER_GAMES_PER_MINUTE = 10
MAX_CLIENTS_TRACKED = 10_000  # beyond, the oldest client's record goes (its window is long over or it is one of many)


WINDOW_SECONDS = 60.0


class ComputerGameRate:
    """`shared`: an object whose `take_start(client, per_window, now, window)` counts a start across the
    processes (and whether it did); then `clock` must be one every process shares (CLOCK_MONOTONIC is)."""

    def __init__(self, per_minute: int = COMPUTER_GAMES_PER_MINUTE, clock=time.monotonic, shared=None) -> None:
        self.per_minute = per_minute
        self.shared = shared
        self._clock = clock
        self._lock = threading.Lock()
        self._starts: collections.OrderedDict[str, collections.deque] = collections.OrderedDict()

    def take(self, client: str) -> None:
        """Count one start for `client`; TooManyComputerGames (nothing counted) when it had its share."""
        now = self._clock()
        if self.shared is not None:
            if not self.shared.take_start(client, self.per_minute, now, WINDOW_SECONDS):
                raise TooManyComputerGames(self.per_minute)
            return
        with self._lock:
            starts = self._starts.pop(client, None) or collections.deque()
            while starts and now - starts[0] >= WINDOW_SECONDS:
                starts.popleft()
            self._starts[client] = starts  # most recent last
            if len(starts) >= self.per_minute:
                raise TooManyComputerGames(self.per_minute)
            starts.append(now)
            while len(self._starts) > MAX_CLIENTS_TRACKED:
                self._starts.popitem(last=False)
