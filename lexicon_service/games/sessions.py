"""Game sessions: commands in, events out.

Every command runs the same way (`execute`): under the game's lock in this process, take the
cached state and catch up with the store (another process may have appended), copy it, let the
clock fire what is due (a move timeout forfeits the turn, a correction window closes, a final pass
is taken as given), decide the command into events applied to the copy, and append the events to
the store at the version the state was read at. Only when that append is durable is the copy
cached and the answer given. If another process appended first (Conflict) the command is decided
again on the new state. A refused command appends nothing (except clock events that were due).

Clocks: the server's clock (`clock`, injectable for tests) is read once per command. Timers are
enforced lazily but exactly: a timeout is recorded at its deadline, whenever the server notices
it (the next call touching the game, or a WatchGame stream waiting on it).

This module is the machinery (locking, caching, catch-up, append, the answer again to a request whose
answer was lost); the commands are plain functions in `games/commands.py` and `games/director.py`,
what follows a turn in `games/turn_effects.py`, the watchers in `games/watchers.py`, the computer
players' queue in `games/computer_turns.py`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import threading
import time
from collections import OrderedDict

from lexicon_service.games import commands, director
from lexicon_service.games.creation_rate import ComputerGameRate
from lexicon_service.games.computer_turns import ComputerTurns
from lexicon_service.errors import Conflict, DuplicateRequest, GameError, GameNotFound, Refused
from lexicon_service.games.events import MoveUndone, dumps, kind_of, loads
from lexicon_service.games.retries import AnsweredBefore, MoveOutcome, answer_again
from lexicon_service.games.roles import NO_DIRECTOR_KEY, DirectorKey, player, role
from lexicon_service.games.state import ENDED, GAME_ID_RE, GameState, fold
from lexicon_service.games.store import NOT_A_PLAYER
from lexicon_service.games.turn_effects import settle
from lexicon_service.games.watchers import Watchers
from lexicon_service.rules.ruleset_text import parse_rule_set

MAX_GAMES = 10_000  # games in progress per games database (serve --max-games): each holds its rule set's text


class GameSessions:
    """The server-held games of one store: each command decided under its game's lock on the cached
    state caught up with the store, and appended before it is answered."""

    def __init__(self, store, *, clock=time.time, cache_size: int = 10_000, max_games: int | None = MAX_GAMES,
                 lexicons=None, director_key: DirectorKey = NO_DIRECTOR_KEY,
                 computer_game_rate: ComputerGameRate | None = None) -> None:
        self.store = store
        self.director_key = director_key  # the server-wide director key (roles.DirectorKey), maybe none
        # lexicons(): a context manager giving name -> lexicon (or None) for the call's duration; the server
        # decides blocked starts and ends with their move graphs. None: players' passes decide them.
        self.lexicons = lexicons
        self.max_games = max_games  # games in progress (ended ones do not count); None: no limit
        self.clock = clock
        self.cache_size = cache_size
        self._cache: OrderedDict[str, GameState] = OrderedDict()
        self._cache_lock = threading.Lock()
        self._locks: dict[str, threading.Lock] = {}
        # Cached games no other server has appended to since this process read or appended them (a store
        # that tells of others' appends only): a command decides on the cached state without reading the
        # store first; its append checks the version, and an answer without an append reads the store.
        self._current_here: set[str] = set()
        self._rule_sets: dict[str, object] = {}
        # A store that tells of other servers' appends (PostgreSQL's LISTEN/NOTIFY) lets watchers wait for
        # it instead of polling; SQLite cannot, and its watchers read the file every `poll` s.
        self.notified = hasattr(store, "subscribe")
        self.watchers = Watchers(self.notified)
        self.computers = ComputerTurns(self)  # computer players move here, off the request path
        # games with only computer players, per client (counted with `serve --processes`' other children)
        self.computer_game_rate = computer_game_rate or ComputerGameRate()
        if self.notified:
            store.subscribe(self._appended_elsewhere)

    def _appended_elsewhere(self, game_id) -> None:
        with self._cache_lock:
            if game_id is None:
                self._current_here.clear()
            else:
                self._current_here.discard(game_id)
        self.watchers.wake(game_id)

    def close(self) -> None:
        """Stop the computer players (queued moves are dropped; the move timers still run)."""
        self.computers.close()

    def know_rule_set(self, rule_set) -> None:
        """Share `rule_set` with the games created with its text."""
        self._rule_sets.setdefault(rule_set.source_text, rule_set)

    def _lock_for(self, game_id: str) -> threading.Lock:
        with self._cache_lock:
            lock = self._locks.get(game_id)
            if lock is None:
                lock = self._locks[game_id] = threading.Lock()
            return lock

    def _rule_set(self, text: str):
        rule_set = self._rule_sets.get(text)
        if rule_set is None:
            parsed = parse_rule_set(text, "<game rule set>")
            rule_set = self._rule_sets.setdefault(parsed.source_text, parsed)
            self._rule_sets.setdefault(text, rule_set)
        return rule_set

    def decoded(self, game_id: str, version: int, kind: str, data: str):
        """A stored event; one that cannot be read back is damage in the file (GameDamaged), not a bug of the
        call: the game is refused rather than answered from part of its history."""
        try:
            return loads(kind, data)
        except (ValueError, KeyError, TypeError) as exc:
            raise self.store.damaged_game(game_id, f"event {version} ({str(kind)[:20]!r}) cannot be read: "
                                                   f"{str(exc)[:80]}") from exc

    def fold_rows(self, game_id: str, rows, record: bool = False) -> GameState:
        if not rows:
            raise GameNotFound(game_id)
        if rows[0][1] != "created":
            raise self.store.damaged_game(game_id, f"its first event is {str(rows[0][1])[:20]!r}, not 'created'")
        created = self.decoded(game_id, 1, "created", rows[0][2])
        try:
            rule_set = self._rule_set(created.rule_set_text)
        except (ValueError, KeyError, TypeError) as exc:
            raise self.store.damaged_game(game_id, f"its rule set cannot be read: {str(exc)[:80]}") from exc
        # Every game of a rule set shares one copy of its text (kept by the cached state).
        created = dataclasses.replace(created, rule_set_text=rule_set.source_text)
        return fold(game_id, created, [(v, self.decoded(game_id, v, k, d)) for v, k, d in rows[1:]], rule_set,
                    record)

    def _current(self, game_id: str) -> GameState:
        """The cached state caught up with the store. Call with the game's lock held."""
        if not isinstance(game_id, str) or not GAME_ID_RE.fullmatch(game_id):
            raise GameNotFound(game_id)
        with self._cache_lock:
            state = self._cache.get(game_id)
        self._mark_current_here(game_id)  # before reading: a notice of a later append unmarks it
        try:
            rows = self.store.load(game_id, state.version if state else 0)
            if state is None:
                state = self.fold_rows(game_id, rows)
            elif rows:
                if any(kind == "undo" for _, kind, _ in rows):
                    state = self.fold_rows(game_id, self.store.load(game_id, 0))
                else:
                    state = state.copy()  # the cached object may be being read by a call answering outside the lock
                    for version, kind, data in rows:
                        state.apply(self.decoded(game_id, version, kind, data))
                        assert state.version == version
        except BaseException:
            self._unmark_current_here(game_id)  # not found, unreadable, store down: no id kept, read next time
            raise
        self._remember(game_id, state)
        return state

    def _remember(self, game_id: str, state: GameState) -> None:
        with self._cache_lock:
            self._cache[game_id] = state
            self._cache.move_to_end(game_id)
            while len(self._cache) > self.cache_size:
                old, _ = self._cache.popitem(last=False)
                self._locks.pop(old, None)
                self._current_here.discard(old)

    def _mark_current_here(self, game_id: str) -> None:
        if self.notified:
            with self._cache_lock:
                self._current_here.add(game_id)

    def _unmark_current_here(self, game_id: str) -> None:
        with self._cache_lock:
            self._current_here.discard(game_id)

    def _cached_if_current(self, game_id: str) -> GameState | None:
        """The cached state when no other server appended to the game since this process last read or
        appended it (as far as the store has told: a late notice costs a Conflict, never a wrong answer)."""
        with self._cache_lock:
            return self._cache.get(game_id) if game_id in self._current_here else None

    def _moved_on(self, game_id: str, state: GameState) -> bool:
        """Whether the store holds events after `state`: an answer decided on the cached state without an
        append is given only when it has none."""
        if self.store.load(game_id, state.version):
            self._unmark_current_here(game_id)
            return True
        return False

    def execute(self, game_id: str, decide, request_id: str | None = None, token: str | None = None):
        """`request_id`: stored with the events, scoped to the player whose `token` made the request."""
        if not isinstance(game_id, str) or not GAME_ID_RE.fullmatch(game_id):
            raise GameNotFound(game_id)  # before a lock is made for it: the locks would keep every id asked for
        try:
            with (self.lexicons() if self.lexicons is not None else contextlib.nullcontext(None)) as lexicons:
                return self._execute_locked(game_id, decide, request_id, token, lexicons)
        except GameNotFound:
            self._forget_lock(game_id)
            raise

    def _forget_lock(self, game_id: str) -> None:
        """Drop the lock made for a game that does not exist (a lock is kept per game asked for)."""
        with self._cache_lock:
            if game_id not in self._cache:
                self._locks.pop(game_id, None)

    def _execute_locked(self, game_id: str, decide, request_id: str | None = None, token: str | None = None,
                        lexicons=None):
        with self._lock_for(game_id):
            cached = self._cached_if_current(game_id)
            for _ in range(16):
                state = cached or self._current(game_id)
                unread, cached = cached is not None, None  # decided on the cache without reading the store
                now = self.clock()
                work = state.copy()
                events: list = []
                settle(work, now, events, lexicons)
                error = None
                result = None
                request_player = NOT_A_PLAYER
                try:
                    if request_id:
                        request_player = player(work, token, self.director_key)
                    result = decide(work, state.version, now, events, lexicons)
                except AnsweredBefore as replay:
                    if not events:
                        if unread and self._moved_on(game_id, state):
                            continue
                        return answer_again(self.store, game_id, state, replay)
                    error = replay
                except GameError as exc:
                    error = exc
                    if not events:
                        if unread and self._moved_on(game_id, state):
                            continue
                        raise
                if events:
                    rows = [(kind_of(e), dumps(e)) for e in events]
                    undone = any(isinstance(e, MoveUndone) for e in events)
                    if undone:  # MoveUndone is not applied to `work`: the state after it is a fold
                        work = self.fold_rows(game_id, [r for r in self.store.load(game_id, 0) if r[0] <= state.version]
                                              + [(state.version + i, k, d) for i, (k, d) in enumerate(rows, 1)])
                    self._mark_current_here(game_id)  # before appending, as in _current
                    try:
                        self.store.append(game_id, state.version, rows, request_id if error is None else None,
                                          request_player=request_player, ended=work.status == ENDED)
                    except (Conflict, DuplicateRequest):  # decided again: a duplicate is then a replay
                        continue
                    except BaseException:  # store down, or an unknown outcome: read the store next time
                        self._unmark_current_here(game_id)
                        raise
                    self._remember(game_id, work)
                    self.watchers.wake(game_id)
                    self.computers.due(game_id, work)
                elif unread and self._moved_on(game_id, state):
                    continue
                if isinstance(error, AnsweredBefore):
                    return answer_again(self.store, game_id, work, error)
                if error is not None:
                    raise error
                return result(work) if callable(result) else result
            raise Refused("BUSY", "the game changed too often while deciding; retry")

    # --- the commands (games/commands.py, games/director.py) -------------------------------------------
    def create_game(self, lexicon_name: str, rule_set, player_names, **options):
        """-> (game_id, player tokens, director token, version); the options are commands.create_game's."""
        return commands.create_game(self, lexicon_name, rule_set, player_names, **options)

    def get_game(self, game_id: str, token: str | None):
        """-> (state, caller role, now). Lets the clock fire what is due first."""
        return commands.get_game(self, game_id, token)

    def hint(self, game_id: str, token: str | None, limit: int = 5, lexicons=None, deadline: float | None = None):
        return commands.hint(self, game_id, token, limit, lexicons, deadline)

    def hint_ahead(self, game_id: str, token: str | None, limit: int = 5, lexicons=None,
                   deadline: float | None = None):
        return commands.hint_ahead(self, game_id, token, limit, lexicons, deadline)

    def submit_move(self, game_id: str, token: str | None, **move) -> MoveOutcome:
        return commands.submit_move(self, game_id, token, **move)

    def challenge(self, game_id: str, token: str | None, expected_version: int | None = None,
                  **options) -> MoveOutcome:
        return commands.challenge(self, game_id, token, expected_version, **options)

    def adjust_score(self, game_id: str, token: str | None, player: int, delta: int, reason: str):
        return director.adjust_score(self, game_id, token, player, delta, reason)

    def undo_last_move(self, game_id: str, token: str | None, reason: str):
        return director.undo_last_move(self, game_id, token, reason)

    def end_game(self, game_id: str, token: str | None, reason: str, scoring: str = director.AS_PLAYED):
        return director.end_game(self, game_id, token, reason, scoring)

    def list_games(self, token: str | None, tournament_games=None):
        return director.list_games(self, token, tournament_games)

    # --- reading ---------------------------------------------------------------------------------------
    def tick(self, game_id: str) -> GameState:
        """Let the clock fire what is due; the current state."""
        return self.execute(game_id, lambda work, base, now, events, lexicons: (lambda w: w))

    def record(self, game_id: str, token: str | None = None) -> tuple[str, int]:
        """(GCG text, version) of the game so far, as the caller may see it (GameState.gcg_text)."""
        self.tick(game_id)
        state = self.fold_rows(game_id, self.store.load(game_id, 0), record=True)
        return state.gcg_text(role(state, token, self.director_key)), state.version

    def authorise(self, game_id: str, token: str | None):
        """The caller's role in a game (for WatchGame)."""
        if not isinstance(game_id, str) or not GAME_ID_RE.fullmatch(game_id):
            raise GameNotFound(game_id)
        try:
            with self._lock_for(game_id):
                state = self._current(game_id)
        except GameNotFound:
            self._forget_lock(game_id)
            raise
        return role(state, token, self.director_key)

    def watch(self, game_id: str, after: int = 0, active=lambda: True, poll: float = 0.25,
              idle: float | None = None):
        """Each event after version `after` as (state after it, version, event): Watchers.watch."""
        return self.watchers.watch(self, game_id, after, active, poll, idle)
