"""WatchGame's side of the sessions: a game's stored history, then each new event as it is appended.
An append in this process wakes the watchers of its game at once; with a store that notifies of other
servers' appends (PostgreSQL's LISTEN/NOTIFY) any server's append does, and without one (SQLite) a
watcher reads the store every `poll` s."""

from __future__ import annotations

import threading
import time

from lexicon_service.errors import GameNotFound, WatchIdle
from lexicon_service.games.events import MoveUndone
from lexicon_service.games.state import ENDED, GAME_ID_RE

# Seconds a game stream may deliver no event before it ends (WatchIdle; `serve --stream-idle`): a watcher
# that went away without closing, or a page left open on a game nobody plays, frees its slot; a page
# reconnects after the last version it saw without the player noticing.
STREAM_IDLE = 300.0


class Watchers:
    """Who watches which game, and how many appends each has seen."""

    def __init__(self, notified: bool) -> None:
        self.notified = notified  # the store tells of other servers' appends
        self.changed = threading.Condition()  # notified after every append from this process (any, with LISTEN)
        # Under `changed`: per watched game, [watchers, appends seen], and how often notifications may have
        # been missed (the store's listening connection was down): a watcher reads the store again only when
        # its game's count or the epoch moved.
        self._watched: dict[str, list[int]] = {}
        self._missed_epoch = 0

    def wake(self, game_id) -> None:
        """An append to `game_id` (None: notifications may have been missed, every game)."""
        with self.changed:
            if game_id is None:
                self._missed_epoch += 1
            elif game_id in self._watched:
                self._watched[game_id][1] += 1
            self.changed.notify_all()

    def wake_all(self) -> None:
        """Every watcher checks whether it should go on now, not after its poll: a server stops."""
        with self.changed:
            self.changed.notify_all()

    def _mark(self, game_id: str) -> tuple[int, int]:
        entry = self._watched.get(game_id)
        return self._missed_epoch, entry[1] if entry else 0

    def watch(self, sessions, game_id: str, after: int = 0, active=lambda: True, poll: float = 0.25,
              idle: float | None = None):
        """Yield (state after the event, version, event) for every event after version `after`: the
        stored history first, then each new one as it is appended (by any process: the store is
        polled every `poll` s, and appends in this process wake the watcher at once; with a store that
        notifies, as PostgreSQL's, any server's append wakes it and `poll` only bounds the checks of
        `active()`). Due timeouts are fired while waiting. Ends when the game has ended or `active()` turns false;
        raises WatchIdle (naming the last version yielded) once no event was yielded for `idle` s (None: never)."""
        if not GAME_ID_RE.fullmatch(game_id or ""):
            raise GameNotFound(game_id)
        with self.changed:
            self._watched.setdefault(game_id, [0, 0])[0] += 1
            seen_appends = self._mark(game_id)
        try:
            yield from self._follow(sessions, game_id, after, active, (poll, idle), seen_appends)
        finally:
            with self.changed:
                entry = self._watched[game_id]
                entry[0] -= 1
                if not entry[0]:
                    del self._watched[game_id]

    def _follow(self, sessions, game_id: str, after: int, active, timing: tuple[float, float | None],
                seen_appends: tuple[int, int]):
        poll, idle = timing
        rows = sessions.store.load(game_id, 0)
        if not rows:
            raise GameNotFound(game_id)
        seen = [rows[0]]
        local = sessions.fold_rows(game_id, seen)
        if after < 1:
            yield local, 1, local.created
        yielded = time.monotonic()  # when the last event was taken: the idle bound counts from it
        pending = rows[1:]
        while True:
            for row in pending:
                seen.append(row)
                version, kind, data = row
                event = sessions.decoded(game_id, version, kind, data)
                if isinstance(event, MoveUndone):
                    local = sessions.fold_rows(game_id, seen)
                else:
                    local.apply(event)
                if version > after:
                    yield local, version, event
                    yielded = time.monotonic()
            if local.status == ENDED or not active():
                return
            if idle is not None and time.monotonic() - yielded >= idle:
                raise WatchIdle(idle, max(after, local.version))
            deadline = local.deadline()
            if deadline is not None and sessions.clock() >= deadline:
                sessions.tick(game_id)
            else:
                with self.changed:
                    if not self.notified or self._mark(game_id) == seen_appends:
                        self.changed.wait(poll)
                    if self.notified and self._mark(game_id) == seen_appends:
                        pending = ()  # nothing appended to this game: `active()` and the clock checked again
                        continue
            with self.changed:
                seen_appends = self._mark(game_id)
            pending = sessions.store.load(game_id, local.version)
