"""The game service: commands in, events out.

Every command runs the same way (`_execute`): under the game's lock in this process, take the
cached state and catch up with the store (another process may have appended), copy it, let the
clock fire what is due (a move timeout forfeits the turn, a correction window closes, a final pass
is taken as given), decide the command into events applied to the copy, and append the events to
the store at the version the state was read at. Only when that append is durable is the copy
cached and the answer given. If another process appended first (Conflict) the command is decided
again on the new state. A refused command appends nothing (except clock events that were due).

Clocks: the server's clock (`clock`, injectable for tests) is read once per command. Timers are
enforced lazily but exactly: a timeout is recorded at its deadline, whenever the server notices
it (the next call touching the game, or a WatchGame stream waiting on it).
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import hmac
import logging
import random
import re
import secrets
import threading
import time
from collections import Counter, OrderedDict
from concurrent.futures import ThreadPoolExecutor

from lexicon_service.games.errors import (
    Conflict,
    DuplicateRequest,
    GameError,
    GameNotFound,
    InvalidInput,
    LexiconUnavailable,
    PermissionDenied,
    Refused,
    StaleVersion,
    Unauthenticated,
    shown,
)
from lexicon_service.games.events import (
    Challenged,
    CorrectionRefused,
    Exchanged,
    GameCreated,
    GameEnded,
    MoveUndone,
    Passed,
    Played,
    Redrawn,
    ScoreAdjusted,
    dumps,
    kind_of,
    loads,
)
from lexicon_service.games.computer import choose_move, level_refusal
from lexicon_service.movegen import MoveGenerationTimeout
from lexicon_service.games.rules import CHALLENGE_RULES, GameOptions
from lexicon_service.games.state import ENDED, FINAL_PASS, PLAYING, GameState, fold
from lexicon_service.games.store import NOT_A_PLAYER
from lexicon_service.rules.game import (
    BAG_BELOW_MINIMUM,
    END_BLOCKED,
    EXCHANGES_NOT_ALLOWED,
    MORE_THAN_BAG,
    exchange_refusal,
)
from lexicon_service.rules.moves import validate_move
from lexicon_service.rules.reasons import Reason
from lexicon_service.rules.ruleset import parse_rule_set
from lexicon_service.tiles import UnknownLetterError

# Reasons that say the play text itself is wrong (whatever the game state): INVALID_ARGUMENT.
INPUT_REASONS = {Reason.MALFORMED_PLAY, Reason.UNKNOWN_LETTER, Reason.OFF_BOARD, Reason.BAD_BLANK_LETTER}
MAX_NAME_CHARS = 40
GAME_ID_RE = re.compile(r"[0-9a-f]{16}")  # fullmatch
MAX_PLAY_CHARS = 200
MAX_REQUEST_ID = 128
MAX_REASON = 500
MAX_ADJUSTMENT = 10_000
MAX_GAMES = 10_000  # games in progress per games database (serve --max-games): each holds its rule set's text
MAX_CLOCK_EVENTS = 64  # per command: a long-idle timed game catches up over several calls
MAX_HINTS = 20  # plays one hint answer lists
HINT_SECONDS = 2.0  # the move generator's bound for one hint (a worker is never held longer)
COMPUTER_SECONDS = 2.0  # the move generator's bound for one computer move (and half the move timer at most)
MAX_REDRAWS = 8  # server-decided start redraws in a row per command (a lexicon nobody can start with stops here)


log = logging.getLogger("lexicon_service.games")


def new_token() -> str:
    """A secret bearer token that never starts with '-' (a command line would read it as an option)."""
    while True:
        token = secrets.token_urlsafe(24)
        if token[0] != "-":
            return token


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class MoveOutcome:
    __slots__ = ("version", "score", "words", "rack", "replayed", "state", "player", "invalid_words", "outcome")

    def __init__(self, version, state, player, score=0, words=(), replayed=False, invalid_words=(), outcome=""):
        self.version = version
        self.state = state
        self.player = player
        self.score = score
        self.words = tuple(words)
        self.rack = state.rack_text(player) if player is not None and player >= 0 else ""
        self.replayed = replayed
        self.invalid_words = tuple(invalid_words)
        self.outcome = outcome


def _same_move(work, event, p: int, play_text: str, exchange: str, pass_: bool) -> bool:
    """Whether a stored event is player p's move as this request gives it. The final pass (accepting the
    last play) is stored as the end of the game it caused, with the passer still on turn."""
    if isinstance(event, GameEnded):
        return pass_ and event.reason == "out" and event.went_out not in (None, p) and work.turn == p
    if getattr(event, "player", None) != p:
        return False
    return (isinstance(event, Played) and bool(play_text) and event.play == play_text) or \
        (isinstance(event, Passed) and pass_ and event.reason == "pass") or \
        (isinstance(event, Exchanged) and bool(exchange) and list(event.tiles) == _spelled(work, exchange))


def _own_move(event, p: int) -> bool:
    """Whether a stored event is a move player p made (a play, an exchange, a pass of their own)."""
    return isinstance(event, (Played, Exchanged)) and event.player == p or \
        isinstance(event, Passed) and event.player == p and event.reason == "pass"


def _own_challenge(event, c: int) -> bool:
    return isinstance(event, Challenged) and event.challenger == c


def _answered_version(rows) -> int:
    """The version a command's first answer gave, from its rows on: a play's answer names the play; any
    other command's, the version after the end or redraw it caused (they follow it at once)."""
    version, kind, data = rows[0]
    if kind == "play":
        return version
    for version_after, kind, data in rows[1:]:
        if kind == "redraw" or (kind == "end" and not loads(kind, data).reason.startswith("director")):
            version = version_after
        else:
            break
    return version


def invalid_words(played: Played, judge) -> tuple[str, ...]:
    """The words of a play that `judge` does not admit: what a challenge of it finds (and what a computer
    seat, which knows the words but no rack, checks before it challenges)."""
    return tuple(w for w, k in zip(played.words, played.keys) if not judge.is_admissible(k))


def _spelled(work, rack_text: str) -> list[str] | None:
    try:
        return list(work.rule_set.tile_set.spell_rack(rack_text))
    except UnknownLetterError:
        return None


class _Replay(Exception):
    """The request was already carried out (its answer was lost): answer it again, to `player` alone."""

    def __init__(self, version: int, player: int, challenge: bool = False, same=None) -> None:
        self.version = version
        self.player = player
        self.challenge = challenge
        self.same = same  # for a move: whether a stored event is the move this request gives (_same_move)


class GameService:
    def __init__(self, store, *, clock=time.time, cache_size: int = 10_000, max_games: int | None = MAX_GAMES,
                 lexicons=None) -> None:
        self.store = store
        # lexicons(): a context manager giving name -> lexicon (or None) for the call's duration; the server
        # decides blocked starts and ends with their move graphs. None: players' passes decide them.
        self.lexicons = lexicons
        # Computer players move here, off the request path: one thread, one game's move at a time.
        self._computers = ThreadPoolExecutor(max_workers=1, thread_name_prefix="computer-player")
        self._computers_due: set[str] = set()  # games whose computer move is queued
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
        self.changed = threading.Condition()  # notified after every append from this process (any, with LISTEN)
        # Under `changed`: per watched game, [watchers, appends seen], and how often notifications may have
        # been missed (the store's listening connection was down): a watcher reads the store again only when
        # its game's count or the epoch moved.
        self._watched: dict[str, list[int]] = {}
        self._missed_epoch = 0
        # A store that tells of other servers' appends (PostgreSQL's LISTEN/NOTIFY) lets watchers wait for
        # it instead of polling; SQLite cannot, and its watchers read the file every `poll` s.
        self.notified = hasattr(store, "subscribe")
        if self.notified:
            store.subscribe(self._appended_elsewhere)

    def _appended_elsewhere(self, game_id) -> None:
        with self._cache_lock:
            if game_id is None:
                self._current_here.clear()
            else:
                self._current_here.discard(game_id)
        self._wake_watchers(game_id)

    def _wake_watchers(self, game_id) -> None:
        with self.changed:
            if game_id is None:
                self._missed_epoch += 1
            elif game_id in self._watched:
                self._watched[game_id][1] += 1
            self.changed.notify_all()

    def _watch_mark(self, game_id: str) -> tuple[int, int]:
        entry = self._watched.get(game_id)
        return self._missed_epoch, entry[1] if entry else 0

    # --- plumbing --------------------------------------------------------------------------------
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

    def _decoded(self, game_id: str, version: int, kind: str, data: str):
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
        created = self._decoded(game_id, 1, "created", rows[0][2])
        try:
            rule_set = self._rule_set(created.rule_set_text)
        except (ValueError, KeyError, TypeError) as exc:
            raise self.store.damaged_game(game_id, f"its rule set cannot be read: {str(exc)[:80]}") from exc
        # Every game of a rule set shares one copy of its text (kept by the cached state).
        created = dataclasses.replace(created, rule_set_text=rule_set.source_text)
        return fold(game_id, created, [(v, self._decoded(game_id, v, k, d)) for v, k, d in rows[1:]], rule_set,
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
                        state.apply(self._decoded(game_id, version, kind, data))
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

    def _execute(self, game_id: str, decide, request_id: str | None = None, token: str | None = None):
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
                self._settle(work, now, events, lexicons)
                error = None
                result = None
                request_player = NOT_A_PLAYER
                try:
                    if request_id:
                        request_player = self._player(work, token)
                    result = decide(work, state.version, now, events, lexicons)
                except _Replay as replay:
                    if not events:
                        if unread and self._moved_on(game_id, state):
                            continue
                        return self._replayed(game_id, state, replay)
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
                    self._wake_watchers(game_id)
                    self._computer_due(game_id, work)
                elif unread and self._moved_on(game_id, state):
                    continue
                if isinstance(error, _Replay):
                    return self._replayed(game_id, work, error)
                if error is not None:
                    raise error
                return result(work) if callable(result) else result
            raise Refused("BUSY", "the game changed too often while deciding; retry")

    def _emit(self, work: GameState, events: list, event) -> None:
        if not isinstance(event, MoveUndone):
            work.apply(event)
        events.append(event)

    def _rng(self, work: GameState, purpose: str = ""):
        seed = work.created.seed
        if seed is None:
            return secrets.SystemRandom()
        return random.Random(f"{seed}/{work.version}" + (f"/{purpose}" if purpose else ""))

    # --- clocks and the end of the game ------------------------------------------------------------
    def _settle(self, work: GameState, now: float, events: list, lexicons=None) -> None:
        for _ in range(MAX_CLOCK_EVENTS):
            deadline = work.deadline()
            if deadline is None or now < deadline:
                return
            if work.status == FINAL_PASS:
                self._emit(work, events, self._end(work, "out", deadline, work.went_out))
            elif work.correcting is not None:
                self._emit(work, events, Passed(work.turn, "correction-timeout", deadline,
                                                deadline - work.turn_started))
            else:
                self._emit(work, events, Passed(work.turn, "timeout", deadline, deadline - work.turn_started))
                self._after_turn(work, events, deadline, lexicons)

    def _end(self, work: GameState, reason: str, at: float, went_out: int | None = None) -> GameEnded:
        adjustments = work.flow.end_adjustments(went_out)
        return GameEnded(reason, went_out, tuple(adjustments), work.time_penalties(at), at)

    def _after_turn(self, work: GameState, events: list, at: float, lexicons=None) -> None:
        """The game-end rules that a turn can trigger (RULES.md section 6), then the ones the server decides
        from the racks: the start redraw and the end when nobody can move (`_blocked`)."""
        if work.status != PLAYING:
            return
        due = work.flow.due_end()
        if work.flow.passing_rounds_over() and work.options.start_redraw and work.board.is_empty():
            self._emit(work, events, self._redraw(work, at))
        elif due is not None:
            self._emit(work, events, self._end(work, due, at))
            return
        self._decide_blocked(work, events, at, lexicons)

    # --- computer players ---------------------------------------------------------------------------------
    def _computer_due(self, game_id: str, state: GameState) -> None:
        """Queue the computer's move when a computer seat is on turn (once per game at a time)."""
        if state.status == ENDED or state.turn is None or not state.options.computer(state.turn) \
                or self.lexicons is None:
            return
        with self._cache_lock:
            if game_id in self._computers_due:
                return
            self._computers_due.add(game_id)
        try:
            self._computers.submit(self._computer_move, game_id)
        except RuntimeError:  # shut down: the server is stopping
            with self._cache_lock:
                self._computers_due.discard(game_id)

    def _computer_move(self, game_id: str) -> None:
        """The computer on turn moves: from its own view (board, its rack, the bag's count), within the move
        timer (COMPUTER_SECONDS at most). A game changed meanwhile is looked at again."""
        try:
            for _ in range(4):
                with self._cache_lock:
                    self._computers_due.discard(game_id)
                state = self.tick(game_id)  # not get_game: a computer that cannot move must not queue itself again
                seat = state.turn
                level = state.options.computer(seat) if state.status != ENDED else ""
                if not level or state.correcting is not None:
                    return
                if self._computer_challenges(state, seat):
                    try:
                        # its move follows in a new task, which the challenge's append queued (_computer_due)
                        self.challenge(game_id, None, expected_version=state.version, computer_seat=seat)
                        return
                    except StaleVersion:
                        continue
                if state.status == FINAL_PASS:
                    move_kind, text = "pass", ""
                else:
                    seconds = COMPUTER_SECONDS
                    if state.options.move_seconds:
                        seconds = min(seconds, state.options.move_seconds / 2)
                    with self.lexicons() as lexicons:
                        lexicon = lexicons(state.created.lexicon) if lexicons is not None else None
                        if lexicon is None:
                            return  # the lexicon was unloaded: the move timer decides
                        try:
                            move = choose_move(state.rule_set, state.board, state.rack_text(seat), len(state.bag),
                                               lexicon, level, self._rng(state, "computer"),
                                               time.monotonic() + seconds,
                                               may_exchange=state.scoreless_turns < state.n_players)
                            move_kind, text = move.kind, move.play
                        except MoveGenerationTimeout:
                            # a game without a move timer would wait for it for ever: it passes instead
                            log.warning("game %s: the computer found no move in %g s; it passes", game_id, seconds)
                            move_kind, text = "pass", ""
                try:
                    try:
                        self.submit_move(game_id, None, play=text if move_kind == "play" else "",
                                         exchange=text[1:] if move_kind == "exchange" else "",
                                         pass_=move_kind == "pass", expected_version=state.version,
                                         computer_seat=seat)
                    except (Refused, InvalidInput):
                        if move_kind == "pass":
                            raise
                        log.warning("game %s: the computer's %s %r was refused; it passes", game_id, move_kind, text)
                        self.submit_move(game_id, None, pass_=True, expected_version=state.version,
                                         computer_seat=seat)
                    return
                except StaleVersion:
                    continue
        except Exception:  # noqa: BLE001 - a computer that cannot move must not stop the others; its timer runs
            log.exception("the computer player of game %s could not move", game_id)

    def _computer_challenges(self, state: GameState, seat: int) -> bool:
        """Whether the computer on turn in `seat` challenges the last play: only one by another player that
        holds a word the game's lexicon lacks (the same ruling as Challenge's), so it never loses a turn or
        points to a failed challenge. A VOID game refused such a play when it was made: nothing to challenge."""
        last = state.last_play
        if last is None or last.player == seat or state.options.challenge_rule == "void":
            return False
        with self.lexicons() as lexicons:
            lexicon = lexicons(state.created.lexicon) if lexicons is not None else None
            return lexicon is not None and bool(invalid_words(last.event, lexicon))

    def close(self) -> None:
        """Stop the computer players (queued moves are dropped; the move timers still run)."""
        self._computers.shutdown(wait=True, cancel_futures=True)

    def _decide_blocked(self, work: GameState, events: list, at: float, lexicons) -> None:
        """Before any play, nobody can make a word and the rule set redraws ([first-play] redraw-if-blocked):
        every rack is dealt again (at most MAX_REDRAWS times); otherwise, when nobody can move and the rule
        set says so ([end] ends-when-blocked) and no exchange can be made, the game ends. Only with the game's move graph."""
        rs = work.rule_set
        redraw = work.options.start_redraw and rs.first_play.redraw_if_blocked
        if work.status != PLAYING or work.correcting is not None or not (redraw or rs.end.ends_when_blocked):
            return
        for _ in range(MAX_REDRAWS):
            if not self._blocked(work, lexicons):
                return
            if not (redraw and work.board.is_empty()):
                # a play that may still be challenged is not final: the next turn decides
                challengeable = work.last_play is not None and work.options.challenge_rule != "void"
                # while an exchange can still bring a word, a move that may make one remains
                can_exchange = exchange_refusal(rs, len(work.bag), 1) is None
                if rs.end.ends_when_blocked and not challengeable and not can_exchange:
                    self._emit(work, events, self._end(work, END_BLOCKED, at))
                return
            self._emit(work, events, self._redraw(work, at))

    @staticmethod
    def _blocked(work: GameState, lexicons) -> bool:
        """Whether no rack can make a play; False when the game's lexicon or its move graph is not at hand."""
        return all(GameService._can_move(work, p, lexicons) is False for p in range(work.n_players))

    @staticmethod
    def _can_move(work: GameState, p: int, lexicons) -> bool | None:
        """Whether player p's rack can make a play; None when the game's lexicon or its move graph is not at hand."""
        from lexicon_service.movegen import MoveGenerationError, MoveGraphMissing, has_move

        lexicon = lexicons(work.created.lexicon) if lexicons is not None else None
        if lexicon is None or not getattr(lexicon, "has_move_graph", False):
            return None
        if not work.racks[p]:
            return False
        try:
            return has_move(work.rule_set, work.board, work.rack_text(p), lexicon)
        except MoveGraphMissing:
            return None
        except MoveGenerationError as exc:
            if exc.field != "rule_set":
                raise
            return None  # a lexicon reloaded for other letters or board

    def _shuffle_in(self, work: GameState, tiles) -> tuple[str, ...]:
        """The bag with `tiles` put back at random places (the bag's order is already random, so this
        is as good as shuffling the whole bag, and costs a draw per tile)."""
        bag = work.bag[:]
        rng = self._rng(work)
        for tile in tiles:
            bag.insert(rng.randrange(len(bag) + 1), tile)
        return tuple(bag)

    def _redraw(self, work: GameState, at: float) -> Redrawn:
        bag = work.bag + [t for rack in work.racks for t in rack]
        bag.sort()
        self._rng(work).shuffle(bag)
        racks = []
        for _ in work.racks:
            k = min(work.rule_set.rack_size, len(bag))
            racks.append(tuple(bag[len(bag) - k:]))
            del bag[len(bag) - k:]
        return Redrawn(tuple(racks), tuple(bag), at)

    # --- who is calling --------------------------------------------------------------------------------
    @staticmethod
    def role(state: GameState, token: str | None) -> int | str:
        """A player index, "director", or "observer" (no token). Raises Unauthenticated."""
        if not token:
            return "observer"
        digest = token_hash(token)
        found = None
        for i, expected in enumerate(state.created.token_hashes):
            if hmac.compare_digest(digest, expected):
                found = i
        if hmac.compare_digest(digest, state.created.director_hash):
            found = "director"
        if found is None:
            raise Unauthenticated(f"the token is not one of game {state.game_id}'s")
        return found

    def _player(self, state: GameState, token: str | None) -> int:
        role = self.role(state, token)
        if role == "observer":
            raise Unauthenticated("a player token is required: 'authorization: Bearer <player token>'")
        if role == "director":
            raise PermissionDenied("the director token cannot move or challenge; use a player token")
        return role

    def _acting_player(self, state: GameState, token: str | None, computer_seat: int | None) -> int:
        """Who makes a move or a challenge: the player of `token`, or the server's computer player in
        `computer_seat` (no token)."""
        if computer_seat is None:
            return self._player(state, token)
        if not state.options.computer(computer_seat):
            raise PermissionDenied(f"seat {computer_seat} is not a computer player's")
        return computer_seat

    def _director(self, state: GameState, token: str | None) -> None:
        role = self.role(state, token)
        if role == "observer":
            raise Unauthenticated("the director token is required")
        if role != "director":
            raise PermissionDenied("only the director may do this")

    # --- commands --------------------------------------------------------------------------------------
    def create_game(self, lexicon_name: str, rule_set, player_names, seed: int | None = None,
                    challenge_rule: str = "", game_seconds: int = 0, overtime_penalty: int | None = None,
                    allow_hints: bool = False, computer_levels=()):
        """-> (game_id, player tokens, director token, version)."""
        names = list(player_names)
        lo, hi = rule_set.game.players
        if not lo <= len(names) <= hi:
            raise InvalidInput("player_names", f"{len(names)} players; {rule_set.id} is for {lo}-{hi}")
        for i, name in enumerate(names):
            # fullmatch: "Eva\n" passed match's "$", and its record's move lines no longer parsed
            # spaces and diacritics as people write names; no control characters (a record line ends at "\n")
            if not (0 < len(name) <= MAX_NAME_CHARS and name.isprintable() and name == name.strip()):
                raise InvalidInput(f"player_names[{i}]", f"bad name {shown(name)}: 1-{MAX_NAME_CHARS} printable "
                                                         "characters, no control characters, no space at either end")
        if len(set(names)) != len(names):
            raise InvalidInput("player_names", "names must differ")
        if challenge_rule and challenge_rule not in CHALLENGE_RULES:
            raise InvalidInput("challenge_rule", f"unknown rule {challenge_rule!r}")
        if not 0 <= game_seconds <= 24 * 3600:
            raise InvalidInput("game_seconds", "at most one day")
        if overtime_penalty is not None and not 0 <= overtime_penalty <= 1000:
            raise InvalidInput("overtime_penalty", "0-1000 points per minute")
        levels = list(computer_levels) + [""] * (len(names) - len(computer_levels))
        if len(levels) > len(names):
            raise InvalidInput("computer_levels", f"{len(computer_levels)} seats for {len(names)} players")
        for seat, level in enumerate(levels):
            if level and level_refusal(level):
                raise InvalidInput(f"computer_levels[{seat}]", level_refusal(level))
        if any(levels) and self.lexicons is None:
            raise Refused("NO_COMPUTER_PLAYERS", "computer_players: this server has no computer players")
        options = GameOptions.of(rule_set, challenge_rule, game_seconds, overtime_penalty, allow_hints,
                                 levels if any(levels) else ())
        bag = [letter for letter, count in rule_set.tile_set.bag().items() for _ in range(count)]
        rng = random.Random(seed) if seed is not None else secrets.SystemRandom()
        rng.shuffle(bag)
        racks = []
        for _ in names:
            k = min(rule_set.rack_size, len(bag))
            racks.append(tuple(bag[len(bag) - k:]))
            del bag[len(bag) - k:]
        tokens = [new_token() for _ in names]
        director = new_token()
        created = GameCreated(lexicon_name, rule_set.source_text, tuple(names), tuple(token_hash(t) for t in tokens),
                              token_hash(director), options.as_dict(), tuple(racks), tuple(bag), seed, self.clock())
        self._rule_sets.setdefault(rule_set.source_text, rule_set)
        for _ in range(4):
            game_id = secrets.token_hex(8)
            try:
                self.store.append(game_id, 0, [("created", dumps(created))], ended=False, max_live=self.max_games)
            except Conflict:
                continue
            decided_at_start = rule_set.first_play.redraw_if_blocked or rule_set.end.ends_when_blocked
            if self.lexicons is None or not (decided_at_start or any(levels)):  # nothing to decide now
                return game_id, tokens, director, 1
            state = self._execute(game_id, self._start)
            self._computer_due(game_id, state)
            # nobody moves for a computer player: its token is never shown
            shown_tokens = [t if not options.computer(seat) else "" for seat, t in enumerate(tokens)]
            return game_id, shown_tokens, director, state.version
        raise RuntimeError("could not allocate a game id")

    def _start(self, work, base, now, events, lexicons=None):
        """A new game: the server redraws at once when nobody can make a first word."""
        self._decide_blocked(work, events, now, lexicons)
        return lambda w: w

    def get_game(self, game_id: str, token: str | None):
        """-> (state, caller role, now). Lets the clock fire what is due first."""

        def decide(work, base, now, events, lexicons=None):
            role = self.role(work, token)
            return lambda w: (w, role, now)

        state, role, now = self._execute(game_id, decide)
        self._computer_due(game_id, state)  # a computer move a restart left undone
        return state, role, now

    def hint(self, game_id: str, token: str | None, limit: int = 5, lexicons=None, deadline: float | None = None):
        """-> (state, player, moves): the best plays (and the exchange or pass when there is none better)
        for the asking player's own rack, in a game created with allow_hints. Nothing is stored: no other
        caller ever sees a hint. `deadline`: a time.monotonic() bound (HINT_SECONDS at most)."""
        from lexicon_service.movegen import generate_moves

        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_HINTS:
            raise InvalidInput("limit", f"1-{MAX_HINTS} plays")
        state, role, _ = self.get_game(game_id, token)
        if role == "observer":
            raise Unauthenticated("a player token is required: a hint is for the asking player's own rack")
        if role == "director":
            raise PermissionDenied("a hint is for a player's own rack; use a player token")
        if not state.options.hints:
            raise Refused("HINTS_NOT_ALLOWED", "this game was created without allow_hints")
        if state.status == ENDED:
            raise Refused("GAME_OVER", f"the game has ended ({state.end_reason})")
        name = state.created.lexicon
        with (self.lexicons() if lexicons is None and self.lexicons is not None
              else contextlib.nullcontext(lexicons)) as held:
            lexicon = held(name) if held is not None else None
            if lexicon is None:
                raise LexiconUnavailable(name)
            bound = time.monotonic() + HINT_SECONDS
            moves = generate_moves(state.rule_set, state.board, state.rack_text(role), lexicon, limit=limit,
                                   bag_count=len(state.bag), deadline=bound if deadline is None else min(deadline, bound))
        return state, role, moves

    def submit_move(self, game_id: str, token: str | None, *, play: str = "", exchange: str = "",
                    pass_: bool = False, expected_version: int | None = None, request_id: str = "",
                    judges=None, computer_seat: int | None = None) -> MoveOutcome:
        """A player's move (`token`), or the server's computer player's in `computer_seat` (no token)."""
        given = [bool(play), bool(exchange), bool(pass_)]
        if sum(given) != 1:
            raise InvalidInput("play", "give exactly one of play, exchange or pass")
        if len(play) > MAX_PLAY_CHARS:
            raise InvalidInput("play", f"{len(play)} characters; too long for a play")
        if len(exchange) > 64:
            raise InvalidInput("exchange", f"{len(exchange)} characters; too long for a rack")
        self._valid_request_id(request_id)
        play_text = " ".join(play.split())

        def decide(work: GameState, base: int, now: float, events: list, lexicons=None):
            p = self._acting_player(work, token, computer_seat)

            def same(event) -> bool:
                return _same_move(work, event, p, play_text, exchange, pass_)

            self._check_request_id(work, request_id, p, same=same)

            if expected_version is not None and expected_version != base:
                if expected_version < base and not request_id:  # an id not yet used is a new request
                    self._check_retry(work, expected_version, p, same)
                raise StaleVersion(expected_version, base)
            if (work.status == ENDED or work.turn != p) and expected_version is None and not request_id \
                    and not events:
                self._check_repeat(work, p, same)
            if work.status == ENDED:
                raise Refused("GAME_OVER", f"the game has ended ({work.end_reason})")
            if work.turn != p:
                why = " (your turn timed out)" if any(isinstance(e, Passed) and e.player == p for e in events) else ""
                raise Refused("NOT_YOUR_TURN", f"it is {work.players[work.turn]}'s turn{why}")
            if work.status == FINAL_PASS and not pass_:
                raise Refused("AWAITING_FINAL_PASS", f"{work.players[work.went_out]} went out: pass to accept the "
                                                     "last play (the game ends) or challenge it")
            spent = now - work.turn_started
            lexicons = lexicons if lexicons is not None else judges
            judges_ = judges if judges is not None else lexicons
            if pass_:
                return self._pass(work, p, now, spent, events, lexicons)
            if exchange:
                return self._exchange(work, p, exchange, now, spent, events, lexicons)
            return self._play(work, p, play_text, now, spent, events, judges_, lexicons)

        return self._execute(game_id, decide, request_id or None, token)

    @staticmethod
    def _valid_request_id(request_id: str) -> None:
        if len(request_id) > MAX_REQUEST_ID:
            raise InvalidInput("request_id", f"at most {MAX_REQUEST_ID} characters")

    def _check_request_id(self, work, request_id: str, player: int, challenge: bool = False, same=None) -> None:
        """A request id this player already used in this game: its request was carried out; answer again."""
        if request_id:
            done = self.store.request_version(work.game_id, request_id, player)
            if done is not None:
                raise _Replay(done, player, challenge, same)

    def _check_retry(self, work, expected_version, p, same, challenge: bool = False) -> None:
        """A request repeated after it succeeded (the answer was lost): answer it again. `same(event)`:
        whether the event after `expected_version` is what this request asks for."""
        rows = self.store.load(work.game_id, expected_version)
        if rows and same(loads(rows[0][1], rows[0][2])):
            raise _Replay(_answered_version(rows), p, challenge)

    def _check_repeat(self, work, p, same) -> None:
        """A move sent again without request_id or expected_version, out of turn, while the same player's
        identical move is still the last one made (followed at most by what it caused at once: the end
        of the game, a redraw): the retry of a move whose answer was lost. Answer it again rather than
        refuse it as out of turn, which would tell the client its move failed. (A final pass sent again
        so is GAME_OVER: it cannot be told from a pass after the end; with an id or version it is a retry.)"""
        rows = self.store.load(work.game_id, max(0, work.version - 3))
        while rows:
            version, kind, data = rows.pop()
            event = loads(kind, data)
            if not isinstance(event, (GameEnded, Redrawn)):
                break
        else:
            return
        caused = self.store.load(work.game_id, version)
        if any(loads(k, d).at != event.at for _, k, d in caused):
            return  # the end or redraw came later (a timeout), not from this move
        if same(event):
            # the version the first answer gave: a play's own, a pass's or exchange's after what it caused
            raise _Replay(version if isinstance(event, Played) or not caused else caused[-1][0], p)

    def _replayed(self, game_id, state: GameState, replay: _Replay) -> MoveOutcome:
        """The answer again, to the player who made the request, as that player sees the game now. The
        request's events end at `replay.version` (a request id is stored on the last event a command
        appended: the move, or the end of the game or redraw it caused)."""
        version, player = replay.version, replay.player
        rows = [row for row in self.store.load(game_id, max(0, version - 4)) if row[0] <= version]
        event = None
        event_version = version
        while rows:
            event_version, kind, data = rows.pop()
            event = loads(kind, data)
            if not isinstance(event, (GameEnded, Redrawn)):
                break
        challenged = _own_challenge(event, player)
        if challenged != replay.challenge:
            what = "challenge" if challenged else "move"
            raise InvalidInput("request_id", f"already used by your {what} at version {version}; "
                                             "a new request needs a new id")
        if replay.same is not None and _own_move(event, player) and not replay.same(event):
            raise InvalidInput("request_id", f"already used by your other move at version {version}; "
                                             "a new request needs a new id")
        if challenged:
            return MoveOutcome(version, state, player, replayed=True, invalid_words=event.invalid_words,
                               outcome=event.outcome)
        if isinstance(event, Played) and event.player == player:  # the play's own version, as first answered
            return MoveOutcome(event_version, state, player, event.score, event.words, replayed=True)
        if isinstance(event, CorrectionRefused) and event.player == player:
            return MoveOutcome(version, state, player, replayed=True, invalid_words=event.invalid_words,
                               outcome="correction-refused")
        return MoveOutcome(version, state, player, replayed=True)

    def _pass(self, work, p, now, spent, events, lexicons=None):
        if work.status == FINAL_PASS:
            self._emit(work, events, self._end(work, "out", now, work.went_out))
        elif work.correcting is not None:
            self._emit(work, events, Passed(p, "correction-given-up", now, spent))
        else:
            if work.rule_set.end.pass_only_when_blocked and self._can_move(work, p, lexicons):
                raise Refused("CAN_MOVE", f"{work.rule_set.id} allows a pass only to a player who cannot make a "
                                          "play ([end] pass-only-when-blocked), and your rack can")
            self._emit(work, events, Passed(p, "pass", now, spent))
            self._after_turn(work, events, now, lexicons)
        version = work.version
        return lambda w: MoveOutcome(version, w, p)

    def _exchange(self, work, p, text, now, spent, events, lexicons=None):
        rs = work.rule_set
        if work.correcting is not None:
            raise Refused("CORRECTING", "in the correction window only a play or a pass")
        try:
            tiles = list(rs.tile_set.spell_rack(text))
        except UnknownLetterError as exc:
            raise InvalidInput("exchange", str(exc), Reason.UNKNOWN_LETTER.value) from None
        if not tiles:
            raise InvalidInput("exchange", "no tiles")
        refusal = exchange_refusal(rs, len(work.bag), len(tiles))
        if refusal == EXCHANGES_NOT_ALLOWED:
            raise Refused("EXCHANGE_NOT_ALLOWED", f"{rs.id} has no exchanges")
        if refusal == BAG_BELOW_MINIMUM:
            raise Refused("BAG_TOO_SMALL", f"{len(work.bag)} tiles in the bag; an exchange needs at least "
                                           f"{rs.exchange.min_tiles_in_bag}")
        if refusal == MORE_THAN_BAG:
            raise Refused("BAG_TOO_SMALL", f"{len(tiles)} tiles to exchange, {len(work.bag)} in the bag")
        missing = Counter(tiles) - Counter(work.racks[p])
        if missing:
            raise Refused(Reason.TILE_NOT_IN_RACK.value,
                          f"the rack {work.rack_text(p)} has no {''.join(sorted(missing.elements()))}")
        k = len(tiles)
        drawn = tuple(work.bag[len(work.bag) - k:])
        kept = work.bag[: len(work.bag) - k]
        rng = self._rng(work)
        for tile in tiles:
            kept.insert(rng.randrange(len(kept) + 1), tile)
        self._emit(work, events, Exchanged(p, tuple(tiles), drawn, tuple(kept), now, spent))
        self._after_turn(work, events, now, lexicons)
        version = work.version
        return lambda w: MoveOutcome(version, w, p)

    def _judge(self, work, judges):
        name = work.created.lexicon
        judge = judges(name) if judges is not None else None
        if judge is None:
            raise LexiconUnavailable(name)
        return judge

    def _play(self, work, p, text, now, spent, events, judges, lexicons=None):
        rs = work.rule_set
        correcting = work.correcting is not None
        judge = self._judge(work, judges) if (work.options.challenge_rule == "void" or correcting) else None
        result = validate_move(rs, work.board, work.racks[p], text, judge=judge)
        if result.score is None:
            if result.reason in INPUT_REASONS:
                raise InvalidInput("play", result.message, result.reason.value)
            raise Refused(result.reason.value, result.message)
        if not result.valid:
            if result.reason is Reason.WORD_NOT_ADMISSIBLE and correcting:
                self._emit(work, events, CorrectionRefused(p, text, tuple(result.invalid_words), now, spent))
                self._after_turn(work, events, now, lexicons)
                version = work.version
                return lambda w: MoveOutcome(version, w, p, 0, result.words, invalid_words=result.invalid_words,
                                             outcome="correction-refused")
            raise Refused(result.reason.value, result.message)
        n = len(result.placements)
        k = min(n, len(work.bag))
        drawn = tuple(work.bag[len(work.bag) - k:])
        event = Played(p, text, tuple(tuple(x) for x in result.placements), result.score, tuple(result.words),
                       tuple(result.word_keys), drawn, now, spent, correcting)
        self._emit(work, events, event)
        if work.status == FINAL_PASS and (correcting or work.options.challenge_rule == "void"):
            self._emit(work, events, self._end(work, "out", now, p))
        else:
            self._after_turn(work, events, now, lexicons)
        version = events.index(event)  # the play's own version, also when an end follows it
        version = work.version - (len(events) - 1 - version)
        return lambda w: MoveOutcome(version, w, p, result.score, result.words)

    def challenge(self, game_id: str, token: str | None, expected_version: int | None = None,
                  judges=None, request_id: str = "", computer_seat: int | None = None) -> MoveOutcome:
        """Like a move, idempotent by request id or expected_version: a retry of a challenge that was
        carried out gets its first answer (replayed), also when it ended the game. By a player (`token`),
        or by the server's computer player in `computer_seat` (no token)."""
        self._valid_request_id(request_id)

        def decide(work: GameState, base: int, now: float, events: list, lexicons=None):
            c = self._acting_player(work, token, computer_seat)
            judges_ = judges if judges is not None else lexicons
            lexicons = lexicons if lexicons is not None else judges
            self._check_request_id(work, request_id, c, challenge=True)
            if expected_version is not None and expected_version != base:
                if expected_version < base and not request_id:
                    self._check_retry(work, expected_version, c, lambda event: _own_challenge(event, c), True)
                raise StaleVersion(expected_version, base)
            if work.status == ENDED:
                raise Refused("GAME_OVER", f"the game has ended ({work.end_reason})")
            if work.options.challenge_rule == "void":
                raise Refused("CHALLENGES_VOID", "this game judges every play when it is made (VOID): "
                                                 "there is nothing to challenge")
            last = work.last_play
            if last is None:
                raise Refused("NOTHING_TO_CHALLENGE", "the last move is not a play that can still be challenged")
            if last.player == c:
                raise Refused("OWN_PLAY", "a player cannot challenge their own play")
            invalid = invalid_words(last.event, self._judge(work, judges_))
            rule = work.options.challenge_rule
            if invalid:
                outcome = "correction" if work.options.corrections > 0 else "withdrawn"
                bag = self._shuffle_in(work, last.event.drawn)
                self._emit(work, events, Challenged(c, last.version, invalid, outcome, 0, bag, now))
                if outcome == "withdrawn":
                    self._after_turn(work, events, now, lexicons)
            else:
                outcome = {"single": "stands", "double": "challenger-loses-turn", "penalty": "penalty"}[rule]
                penalty = work.options.penalty_points if rule == "penalty" else 0
                was_final = work.status == FINAL_PASS
                self._emit(work, events, Challenged(c, last.version, (), outcome, penalty, (), now))
                if was_final:
                    self._emit(work, events, self._end(work, "out", now, work.went_out))
                elif outcome == "challenger-loses-turn":
                    self._after_turn(work, events, now, lexicons)
            version = work.version
            return lambda w: MoveOutcome(version, w, c, invalid_words=invalid, outcome=outcome)

        return self._execute(game_id, decide, request_id or None, token)

    # --- director --------------------------------------------------------------------------------------
    @staticmethod
    def _reason(reason: str) -> str:
        reason = " ".join((reason or "").split())
        if not reason:
            raise InvalidInput("reason", "required (it goes into the audit trail)")
        if len(reason) > MAX_REASON:
            raise InvalidInput("reason", f"at most {MAX_REASON} characters")
        if not reason.isprintable():  # it is shown to every watcher: no NUL, no terminal escape sequences
            raise InvalidInput("reason", "printable characters only")
        return reason

    def adjust_score(self, game_id: str, token: str | None, player: int, delta: int, reason: str):
        reason = self._reason(reason)
        if not -MAX_ADJUSTMENT <= delta <= MAX_ADJUSTMENT or delta == 0:
            raise InvalidInput("delta", f"a non-zero number of points within ±{MAX_ADJUSTMENT}")

        def decide(work, base, now, events, lexicons=None):
            self._director(work, token)
            if not 0 <= player < work.n_players:
                raise InvalidInput("player", f"no player {player}; players are 0-{work.n_players - 1}")
            self._emit(work, events, ScoreAdjusted(player, delta, reason, now))
            return lambda w: w

        return self._execute(game_id, decide)

    def undo_last_move(self, game_id: str, token: str | None, reason: str):
        reason = self._reason(reason)

        def decide(work, base, now, events, lexicons=None):
            self._director(work, token)
            if not work.last_move_version:
                raise Refused("NOTHING_TO_UNDO", "no move has been made")
            self._emit(work, events, MoveUndone(work.last_move_version, reason, now))
            return lambda w: w

        return self._execute(game_id, decide)

    def end_game(self, game_id: str, token: str | None, reason: str):
        reason = self._reason(reason)

        def decide(work, base, now, events, lexicons=None):
            self._director(work, token)
            if work.status == ENDED:
                raise Refused("GAME_OVER", f"the game has already ended ({work.end_reason})")
            self._emit(work, events, self._end(work, f"director: {reason}", now))
            return lambda w: w

        return self._execute(game_id, decide)

    # --- reading ---------------------------------------------------------------------------------------
    def tick(self, game_id: str) -> GameState:
        """Let the clock fire what is due; the current state."""
        return self._execute(game_id, lambda work, base, now, events, lexicons: (lambda w: w))

    def record(self, game_id: str, token: str | None = None) -> tuple[str, int]:
        """(GCG text, version) of the game so far, as the caller may see it (GameState.gcg_text)."""
        self.tick(game_id)
        state = self.fold_rows(game_id, self.store.load(game_id, 0), record=True)
        return state.gcg_text(self.role(state, token)), state.version

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
        return self.role(state, token)

    def watch(self, game_id: str, after: int = 0, active=lambda: True, poll: float = 0.25):
        """Yield (state after the event, version, event) for every event after version `after`: the
        stored history first, then each new one as it is appended (by any process: the store is
        polled every `poll` s, and appends in this process wake the watcher at once; with a store that
        notifies, as PostgreSQL's, any server's append wakes it and `poll` only bounds the checks of
        `active()`). Due timeouts are fired while waiting. Ends when the game has ended or `active()` turns false."""
        if not GAME_ID_RE.fullmatch(game_id or ""):
            raise GameNotFound(game_id)
        with self.changed:
            self._watched.setdefault(game_id, [0, 0])[0] += 1
            seen_appends = self._watch_mark(game_id)
        try:
            yield from self._watch(game_id, after, active, poll, seen_appends)
        finally:
            with self.changed:
                entry = self._watched[game_id]
                entry[0] -= 1
                if not entry[0]:
                    del self._watched[game_id]

    def _watch(self, game_id: str, after: int, active, poll: float, seen_appends: tuple[int, int]):
        rows = self.store.load(game_id, 0)
        if not rows:
            raise GameNotFound(game_id)
        seen = [rows[0]]
        local = self.fold_rows(game_id, seen)
        if after < 1:
            yield local, 1, local.created
        pending = rows[1:]
        while True:
            for row in pending:
                seen.append(row)
                version, kind, data = row
                event = self._decoded(game_id, version, kind, data)
                if isinstance(event, MoveUndone):
                    local = self.fold_rows(game_id, seen)
                else:
                    local.apply(event)
                if version > after:
                    yield local, version, event
            if local.status == ENDED or not active():
                return
            deadline = local.deadline()
            if deadline is not None and self.clock() >= deadline:
                self.tick(game_id)
            else:
                with self.changed:
                    if not self.notified or self._watch_mark(game_id) == seen_appends:
                        self.changed.wait(poll)
                    if self.notified and self._watch_mark(game_id) == seen_appends:
                        pending = ()  # nothing appended to this game: `active()` and the clock checked again
                        continue
            with self.changed:
                seen_appends = self._watch_mark(game_id)
            pending = self.store.load(game_id, local.version)
