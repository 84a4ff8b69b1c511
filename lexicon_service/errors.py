"""Every error a request is refused with, and the one table of the status each is answered with.

One hierarchy: `RequestError` is the base of the refusals raised on purpose, by the service
(`ServiceError`: a bad field, an unknown lexicon, a deadline) and by the server-held games
(`GameError`); the store's own conditions (`StoreUnavailable`, `GameDamaged`) and the move generator's
and the lexicon's errors are answered from the same table. `answer_of(exc)` gives the status (a
google.rpc code name), the message and any trailing metadata; the gRPC adapter
(lexicon_service/server/errors.py) turns the name into a grpc.StatusCode, and HTTP into the code of
HTTP_STATUS, so both transports answer an error alike:

| error                                       | status              | also                                |
|---------------------------------------------|---------------------|-------------------------------------|
| `FieldError` (incl. `LimitError`)           | INVALID_ARGUMENT    | "<field>: <what is wrong>"; an unknown letter: trailing metadata `lexicon-reason` UNKNOWN_LETTER and `lexicon-values` (letter, position, field; URL-encoded); a GCG record that cannot be read or is refused: `lexicon-reason` GCG_... and `lexicon-values` (line, what it names) |
| `UnknownLexiconError`, `UnknownRuleSetError`| NOT_FOUND           | "lexicon 'x' is not loaded..."; an unknown rule set: `lexicon-reason` UNKNOWN_RULE_SET and `lexicon-values` (rule_set) |
| `movegen.MoveGenerationError` (has `field`) | INVALID_ARGUMENT    | "<field>: <what is wrong>"          |
| `movegen.MoveGraphMissing`                  | FAILED_PRECONDITION | how to build the move graph         |
| `DeadlineError`                             | DEADLINE_EXCEEDED   |                                     |
| `CancelledError` (client gone)              | CANCELLED           |                                     |
| `NotReadyError`                             | UNAVAILABLE         | lexicons still loading              |
| `GameNotFound`                              | NOT_FOUND           |                                     |
| `Unauthenticated`                           | UNAUTHENTICATED     |                                     |
| `PermissionDenied`                          | PERMISSION_DENIED   |                                     |
| `InvalidInput`                              | INVALID_ARGUMENT    | trailing metadata `lexicon-reason` (and `lexicon-values` when it names any) |
| `Refused`                                   | FAILED_PRECONDITION | trailing metadata `lexicon-reason`  |
| `StaleVersion`                              | ABORTED             | trailing metadata `lexicon-version` |
| `LexiconUnavailable`                        | UNAVAILABLE         |                                     |
| `TooManyGames`                              | RESOURCE_EXHAUSTED  | (HTTP 429)                          |
| `TooManyComputerGames`                      | RESOURCE_EXHAUSTED  | one client's games with only computer players a minute (HTTP 429) |
| `WatchIdle`                                 | UNAVAILABLE         | a game stream with no event for `serve --stream-idle` s; trailing metadata `lexicon-reason` WATCH_IDLE and `lexicon-version`: watch again after it |
| `StoreUnavailable`                          | UNAVAILABLE         | the games database cannot write now; nothing stored, retry |
| `sqlite3.OperationalError`                  | UNAVAILABLE         | the games database failed; nothing stored |
| `GameDamaged`                               | DATA_LOSS           | a game's history cannot be read whole (HTTP 500) |
| `LexiconError` (corrupt data at run time)   | INTERNAL            | logged                              |
| anything else                               | INTERNAL            | "internal error", logged            |

Domain code raises `ValueError` subclasses with clear messages but does not know which request field
the bad value came from; the service wraps each use of client input in `field("play.word")`, which
re-raises a `ValueError` as `FieldError` naming that field.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import threading
import time
from dataclasses import dataclass
from urllib.parse import urlencode

from lexicon_service.lexicon_format import LexiconError
from lexicon_service.movegen import MoveGenerationError, MoveGraphMissing
from lexicon_service.rules.gcg import GcgError
from lexicon_service.tiles import UnknownLetterError

log = logging.getLogger("lexicon_service.server")
database_log = logging.getLogger("lexicon_service.games.store")

# A status message travels in a header (percent-encoded, and again inside grpc-status-details-bin): one
# over ~8 KiB makes the client's grpc drop the answer ("Stream removed", RESOURCE_EXHAUSTED) instead of
# reporting the error. Messages that quote a client's value quote at most 40 characters of it (`shown`).
MAX_STATUS_MESSAGE = 300


def bounded(message: str) -> str:
    """A status message cut to MAX_STATUS_MESSAGE characters."""
    return message if len(message) <= MAX_STATUS_MESSAGE else message[:MAX_STATUS_MESSAGE - 3] + "..."


class RequestError(Exception):
    """Base of the refusals raised on purpose: nothing was changed."""


class GameError(RequestError):
    """A request a server-held game refuses. Nothing was changed."""


def shown(value: str, limit: int = 40) -> str:
    """repr() of a client's value, cut to `limit` characters (a message quoting it stays short)."""
    value = str(value)
    return repr(value) if len(value) <= limit else f"{value[:limit]!r}... ({len(value):,} characters)"


class GameNotFound(GameError):
    def __init__(self, game_id: str) -> None:
        super().__init__(f"no game {shown(game_id)}")


class Unauthenticated(GameError):
    """No token where one is needed, or a token that is not one of this game's."""


class PermissionDenied(GameError):
    """A valid token without the right to do this (an observer moving, a player acting as director)."""


class InvalidInput(GameError):
    """Malformed input in one request field."""

    def __init__(self, field: str, message: str, reason: str = "", values: dict | None = None) -> None:
        self.field = field
        self.reason = reason
        self.values = values or {}  # what the reason names (lexicon-values), for a page to say it
        super().__init__(f"{field}: {message}")


class Refused(GameError):
    """A well-formed request the game state refuses; `reason` is a stable code."""

    def __init__(self, reason: str, message: str) -> None:
        self.reason = reason
        super().__init__(f"{reason}: {message}")


class StaleVersion(GameError):
    def __init__(self, expected: int, actual: int) -> None:
        self.expected = expected
        self.actual = actual
        super().__init__(f"expected_version {expected} is stale: the game is at version {actual}")


class LexiconUnavailable(GameError):
    def __init__(self, name: str) -> None:
        super().__init__(f"the game's lexicon {name!r} is not loaded on this server")


class TooManyGames(GameError):
    """The server holds its limit of games in progress (`serve --max-games`); ended games do not count."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        super().__init__(f"this server already holds {limit:,} games in progress, its limit (serve --max-games); "
                         "finish or end a game, or retry later")


class TooManyComputerGames(GameError):
    """One client started its share of games with only computer players (games/creation_rate.py)."""

    def __init__(self, per_minute: int) -> None:
        self.limit = per_minute
        super().__init__(f"computer_players: at most {per_minute} games with only computer players a minute "
                         "from one client; retry later")


class WatchIdle(GameError):
    """A game stream delivered no event for the server's idle bound (`serve --stream-idle`): it ends, so that
    an idle watcher does not hold a stream slot for ever; the watcher resumes after `version`."""

    reason = "WATCH_IDLE"

    def __init__(self, idle: float, version: int) -> None:
        self.idle = idle
        self.version = version
        super().__init__(f"no event for {idle:g} s: the stream ends to free its slot; watch again with "
                         f"after_version {version}")


class Conflict(Exception):
    """Another writer appended to the game first (optimistic versioning): reload and decide again."""


class DuplicateRequest(Exception):
    def __init__(self, version: int) -> None:
        self.version = version
        super().__init__(f"request already applied at version {version}")


class StoreUnavailable(Exception):
    """The games database cannot take this write now (disk full, a read-only file, an I/O error, a damaged
    file): nothing was stored; the same request may be retried once the database can write again."""


class GameDamaged(Exception):
    """A game whose stored history cannot be read back whole (the database file is damaged): it is not
    served and takes no move, so it is never answered differently from what was acknowledged."""

    def __init__(self, game_id: str, detail: str) -> None:
        self.game_id = game_id
        super().__init__(f"game {shown(game_id)} cannot be read whole from the games database ({detail}); "
                         "it is not served until the database is recovered")


class DatabaseDamaged(Exception):
    """The games database file fails its integrity check: the server refuses to use it."""


# --- the service's refusals --------------------------------------------------------------------------
class ServiceError(RequestError):
    """Base of the errors the service raises on purpose (word checks, moves, records)."""


class FieldError(ServiceError):
    """Bad input in one request field; `reason` and `values`, when set, say it as data (a page says it in
    its language: an unknown letter)."""

    def __init__(self, field: str, message: str, reason: str = "", values: dict | None = None) -> None:
        self.field = field
        self.message = message
        self.reason = reason
        self.values = values or {}
        super().__init__(f"{field}: {message}")


class LimitError(FieldError):
    """A request over one of the server's limits (words per request, results, lengths)."""


class UnknownLexiconError(ServiceError):
    def __init__(self, name: str, known) -> None:
        self.name = name
        known = ", ".join(sorted(known)) or "none"
        super().__init__(f"lexicon {shown(name)} is not loaded (loaded: {known})")


class UnknownRuleSetError(ServiceError):
    reason = "UNKNOWN_RULE_SET"

    def __init__(self, name: str, known) -> None:
        self.name = name
        self.values = {"rule_set": str(name)[:40]}  # what the reason names (lexicon-values), for a page
        known = ", ".join(sorted(known)) or "none"
        super().__init__(f"rule set {shown(name)} is not known (known: {known})")


class DeadlineError(ServiceError):
    def __init__(self, what: str = "request") -> None:
        super().__init__(f"deadline exceeded while working on the {what}")


class CancelledError(ServiceError):
    """The client cancelled the call or went away: stop working on it."""

    def __init__(self, what: str = "request") -> None:
        super().__init__(f"call cancelled while working on the {what}")


class NotReadyError(ServiceError):
    def __init__(self) -> None:
        super().__init__("lexicons are still loading; retry shortly")


@contextlib.contextmanager
def field(name: str):
    """Attribute a `ValueError` raised by domain code to request field `name`."""
    try:
        yield
    except ServiceError:
        raise
    except UnknownLetterError as exc:
        raise FieldError(name, str(exc), "UNKNOWN_LETTER",
                         {"letter": exc.letter, "position": exc.position + 1, "field": name}) from exc
    except GcgError as exc:  # a record that cannot be read: its reason code and what it names
        raise FieldError(name, str(exc), exc.reason, exc.values) from exc
    except ValueError as exc:
        raise FieldError(name, str(exc)) from exc


def require(condition: bool, field_name: str, message: str) -> None:
    if not condition:
        raise FieldError(field_name, message)


MOVE_GRAPH_MISSING = ("the lexicon has no move graph (it was built before move generation); the server adds one "
                      "with `lexicon-build --move-graph-only LEXICON_DIR/NAME.lex` and a reload (SIGHUP)")


def as_field_error(exc: BaseException) -> FieldError | None:
    """The FieldError a domain error that names its own request field stands for (the move
    generator's MoveGenerationError: `rack`, `board`...), else None."""
    if isinstance(exc, FieldError):
        return exc
    if isinstance(exc, ValueError) and isinstance(exc, MoveGenerationError):
        message = str(exc)  # some of its messages start with the field already
        return FieldError(exc.field, message.removeprefix(f"{exc.field}: "))
    return None


class _RateLimitedLog:
    """At most `burst` lines per `window` seconds for each kind of message; the rest are counted
    and reported in one line when the next window opens (a flood of bad requests must not flood
    the log)."""

    def __init__(self, burst: int = 10, window: float = 60.0) -> None:
        self.burst = burst
        self.window = window
        self._lock = threading.Lock()
        self._kinds: dict[str, list] = {}  # kind -> [window start, lines logged, suppressed]

    def __call__(self, kind: str, level: int, message: str, *args, exc_info=None) -> None:
        now = time.monotonic()
        with self._lock:
            state = self._kinds.setdefault(kind, [now, 0, 0])
            suppressed = 0
            if now - state[0] >= self.window:
                suppressed, state[:] = state[2], [now, 0, 0]
            state[1] += 1
            allowed = state[1] <= self.burst
            if not allowed:
                state[2] += 1
        if suppressed:
            log.warning("%d more %s messages in the last %.0f s were not logged", suppressed, kind, self.window)
        if allowed:
            log.log(level, message, *args, exc_info=exc_info)


limited_log = _RateLimitedLog()


def log_client_error(kind: str, message: str, *args) -> None:
    """Log a client's mistake at INFO, rate-limited per kind."""
    limited_log(kind, logging.INFO, message, *args)


def log_rate_limited(kind: str, level: int, message: str, *args, exc_info=None) -> None:
    """Log at `level`, rate-limited per kind (`limited_log`, looked up at each call)."""
    limited_log(kind, level, message, *args, exc_info=exc_info)


# --- the one table --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Answer:
    """How a refusal is answered: a google.rpc code name, the message (at most MAX_STATUS_MESSAGE
    characters), trailing metadata (sent back as HTTP headers by the JSON API)."""

    status: str
    message: str
    trailing: tuple = ()


def _reason(exc) -> tuple:
    """A refusal's reason and, when it names any, its values (metadata is ASCII: URL-encoded, as a query string)."""
    if not exc.reason:
        return ()
    values = getattr(exc, "values", None)
    return (("lexicon-reason", exc.reason),) + ((("lexicon-values", urlencode(values)),) if values else ())


# (error class, status, its trailing metadata); the first class `exc` is an instance of answers it
STATUS_TABLE = (
    (FieldError, "INVALID_ARGUMENT", _reason),
    (UnknownLexiconError, "NOT_FOUND", None),
    (UnknownRuleSetError, "NOT_FOUND", _reason),
    (DeadlineError, "DEADLINE_EXCEEDED", None),
    (CancelledError, "CANCELLED", None),
    (NotReadyError, "UNAVAILABLE", None),
    (GameNotFound, "NOT_FOUND", None),
    (Unauthenticated, "UNAUTHENTICATED", None),
    (PermissionDenied, "PERMISSION_DENIED", None),
    (InvalidInput, "INVALID_ARGUMENT", _reason),
    (Refused, "FAILED_PRECONDITION", lambda exc: (("lexicon-reason", exc.reason),)),
    (StaleVersion, "ABORTED", lambda exc: (("lexicon-version", str(exc.actual)),)),
    (LexiconUnavailable, "UNAVAILABLE", None),
    (TooManyGames, "RESOURCE_EXHAUSTED", None),
    (TooManyComputerGames, "RESOURCE_EXHAUSTED", None),
    (WatchIdle, "UNAVAILABLE", lambda exc: (("lexicon-reason", exc.reason), ("lexicon-version", str(exc.version)))),
    (StoreUnavailable, "UNAVAILABLE", None),  # logged by the store
    (GameDamaged, "DATA_LOSS", None),
)


def answer_of(exc: BaseException) -> Answer:
    """The answer to a call that raised `exc` (unexpected errors are logged, rate-limited)."""
    status, message, trailing = _answer_of(exc)
    return Answer(status, bounded(message), trailing)


def _answer_of(exc: BaseException) -> tuple[str, str, tuple]:
    for error_class, status, trailing in STATUS_TABLE:
        if isinstance(exc, error_class):
            return status, str(exc), trailing(exc) if trailing else ()
    if isinstance(exc, sqlite3.OperationalError):  # locked past the busy timeout, disk full, I/O: nothing was stored
        database_log.warning("the games database failed: %s", exc, extra={"kind": "failed call"})
        return "UNAVAILABLE", f"the games database failed ({exc}); nothing was changed, retry", ()
    if isinstance(exc, MoveGraphMissing):  # the generator's message names a path on the server
        return "FAILED_PRECONDITION", MOVE_GRAPH_MISSING, ()
    field_error = as_field_error(exc)
    if field_error is not None:
        return "INVALID_ARGUMENT", str(field_error), ()
    if isinstance(exc, LexiconError):
        limited_log("lexicon failure", logging.ERROR, "lexicon failure while serving: %s", exc)
        return "INTERNAL", f"lexicon failure: {exc}", ()
    limited_log("internal error", logging.ERROR, "internal error while serving", exc_info=exc)
    return "INTERNAL", "internal error", ()


# google/rpc/code.proto: the HTTP mapping of each canonical code.
HTTP_STATUS = {
    "OK": 200,
    "CANCELLED": 499,
    "UNKNOWN": 500,
    "INVALID_ARGUMENT": 400,
    "DEADLINE_EXCEEDED": 504,
    "NOT_FOUND": 404,
    "ALREADY_EXISTS": 409,
    "PERMISSION_DENIED": 403,
    "UNAUTHENTICATED": 401,
    "RESOURCE_EXHAUSTED": 429,
    "FAILED_PRECONDITION": 400,
    "ABORTED": 409,
    "OUT_OF_RANGE": 400,
    "UNIMPLEMENTED": 501,
    "INTERNAL": 500,
    "UNAVAILABLE": 503,
    "DATA_LOSS": 500,
}
