"""Bounds on the long-lived game streams (gRPC WatchGame, the HTTP event stream) by client and by game.

The process-wide bound alone let one client (or watchers of one idle game) take every stream slot, so
that players of every other game were refused; these bounds keep each client's and each game's share to
a fraction of the process's slots."""

from __future__ import annotations

import threading
from collections import Counter

from lexicon_service.server.shared_counts import SharedCounts

# Streams one client (its address, `client_of`) may hold open at once, and streams open on one game.
STREAMS_PER_CLIENT = 8
STREAMS_PER_GAME = 16


class StreamQuota:
    """Counts open streams by client and by game; `admit` refuses one past either bound. With `shared` (the
    table of `serve --processes`' supervisor, server/shared_counts.py) the counts are those of all the
    supervisor's processes, so that a client holds at most `per_client` streams on the server, not that
    many on each of its processes."""

    def __init__(self, per_client: int = STREAMS_PER_CLIENT, per_game: int = STREAMS_PER_GAME,
                 shared: SharedCounts | None = None) -> None:
        if per_client < 1 or per_game < 1:
            raise ValueError("stream bounds must be at least 1")
        self.per_client = per_client
        self.per_game = per_game
        self.shared = shared
        self._by_client: Counter[str] = Counter()
        self._by_game: Counter[str] = Counter()
        self._lock = threading.Lock()

    def _refusal(self, which: int) -> str:
        if which == 0:
            return (f"too many streams open from this client (max {self.per_client} per client); "
                    "close one or retry later")
        if which == 1:
            return f"too many streams open on this game (max {self.per_game} per game); retry later"
        return "too many streams open on this server; retry later"

    def admit(self, client: str, game_id: str) -> str | None:
        """Count a new stream of `client` on `game_id`; or, over a bound, the refusal (nothing counted)."""
        if self.shared is not None:
            over = self.shared.add((f"client {client}", f"game {game_id}"),
                                   (self.per_client, self.per_game))
            return None if over is None else self._refusal(over)
        with self._lock:
            if self._by_client[client] >= self.per_client:
                return self._refusal(0)
            if self._by_game[game_id] >= self.per_game:
                return self._refusal(1)
            self._by_client[client] += 1
            self._by_game[game_id] += 1
        return None

    def release(self, client: str, game_id: str) -> None:
        """A stream that `admit` counted has ended."""
        if self.shared is not None:
            self.shared.remove((f"client {client}", f"game {game_id}"))
            return
        with self._lock:
            for counts, key in ((self._by_client, client), (self._by_game, game_id)):
                counts[key] -= 1
                if counts[key] <= 0:
                    del counts[key]
