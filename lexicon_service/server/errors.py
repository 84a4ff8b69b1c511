"""The one place where domain errors become gRPC status codes (and so HTTP codes: HTTP_STATUS).

Servicers never call `context.abort` themselves: they raise, and `@rpc` maps the exception:

| exception                                   | status             | message                      |
|---------------------------------------------|--------------------|------------------------------|
| `FieldError` (incl. `LimitError`)           | INVALID_ARGUMENT   | "<field>: <what is wrong>"   |
| `UnknownLexiconError`, `UnknownRuleSetError`| NOT_FOUND          | "lexicon 'x' is not loaded…" |
| `RuleSetMismatchError`                      | INVALID_ARGUMENT   | "rule_set: …"                |
| `movegen.MoveGenerationError` (has `field`) | INVALID_ARGUMENT   | "<field>: <what is wrong>"   |
| `movegen.MoveGraphMissing`                  | FAILED_PRECONDITION| how to build the move graph  |
| `DeadlineError`                             | DEADLINE_EXCEEDED  |                              |
| `CancelledError` (client gone)              | CANCELLED          |                              |
| `NotReadyError`                             | UNAVAILABLE        | lexicons still loading       |
| `LexiconError` (corrupt data at run time)   | INTERNAL           | logged                       |
| anything else                               | INTERNAL           | "internal error", logged     |

The JSON API answers each status with the HTTP code google/rpc/code.proto gives it (HTTP_STATUS: 400
for INVALID_ARGUMENT and FAILED_PRECONDITION, 404 NOT_FOUND, 504 DEADLINE_EXCEEDED...).

Every INVALID_ARGUMENT from a `FieldError` also carries a `google.rpc.Status` (trailing metadata
`grpc-status-details-bin`) with a `google.rpc.BadRequest` detail: one field violation naming the field
(`words[3]`, `play.position`) and what is wrong, for clients that read structured details.

Domain code raises `ValueError` subclasses with clear messages but does not know which request
field the bad value came from; servicers wrap each use of client input in `field("play.word")`,
which re-raises a `ValueError` as `FieldError` naming that field.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import threading
import time
import traceback
from pathlib import Path

import grpc
from google.protobuf import any_pb2
from google.rpc import error_details_pb2, status_pb2
from grpc_status import rpc_status

from lexicon_service.games.errors import shown

log = logging.getLogger("lexicon_service.server")


# A status message travels in a header (percent-encoded, and again inside grpc-status-details-bin): one
# over ~8 KiB makes the client's grpc drop the answer ("Stream removed", RESOURCE_EXHAUSTED) instead of
# reporting the error. Messages that quote a client's value quote at most 40 characters of it (`shown`).
MAX_STATUS_MESSAGE = 300


def bounded(message: str) -> str:
    """A status message cut to MAX_STATUS_MESSAGE characters."""
    return message if len(message) <= MAX_STATUS_MESSAGE else message[:MAX_STATUS_MESSAGE - 3] + "..."


class ServiceError(Exception):
    """Base of the errors the servicers raise on purpose."""


class FieldError(ServiceError):
    """Bad input in one request field."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")


class LimitError(FieldError):
    """A request over one of the server's limits (words per request, results, lengths)."""


class UnknownLexiconError(ServiceError):
    def __init__(self, name: str, known) -> None:
        self.name = name
        known = ", ".join(sorted(known)) or "none"
        super().__init__(f"lexicon {shown(name)} is not loaded (loaded: {known})")


class UnknownRuleSetError(ServiceError):
    def __init__(self, name: str, known) -> None:
        self.name = name
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
    except ValueError as exc:
        raise FieldError(name, str(exc)) from exc


def require(condition: bool, field_name: str, message: str) -> None:
    if not condition:
        raise FieldError(field_name, message)


MOVE_GRAPH_MISSING = ("the lexicon has no move graph (it was built before move generation); the server adds one "
                      "with `lexicon-build --move-graph-only LEXICON_DIR/NAME.lex` and a reload (SIGHUP)")


def _move_generation_errors() -> tuple[type, type]:
    """(MoveGenerationError, MoveGraphMissing), imported when first needed: the move generator loads
    its own modules, which calls that never generate moves need not import."""
    from lexicon_service.movegen import MoveGenerationError, MoveGraphMissing

    return MoveGenerationError, MoveGraphMissing


def as_field_error(exc: BaseException) -> FieldError | None:
    """The FieldError a domain error that names its own request field stands for (the move
    generator's MoveGenerationError: `rack`, `board`...), else None."""
    if isinstance(exc, FieldError):
        return exc
    if isinstance(exc, ValueError) and isinstance(exc, _move_generation_errors()[0]):
        message = str(exc)  # some of its messages start with the field already
        return FieldError(exc.field, message.removeprefix(f"{exc.field}: "))
    return None


def _lexicon_error_types() -> tuple[type, ...]:
    try:
        from lexicon_service.lexicon import LexiconError
    except ImportError:  # pragma: no cover - lexicon module not present
        return ()
    return (LexiconError,)


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


_limited = _RateLimitedLog()


def log_client_error(kind: str, message: str, *args) -> None:
    """Log a client's mistake at INFO, rate-limited per kind."""
    _limited(kind, logging.INFO, message, *args)


class _GrpcLogFilter(logging.Filter):
    """grpc logs a full traceback for each call that fails outside the servicer methods, and the call
    still gets its status: a metadata value that is not UTF-8 (cygrpc reads it as Latin-1 and the call
    goes on), an exception in an interceptor or a handler lookup (UNKNOWN), a response that cannot be
    serialised (INTERNAL). A client could fill the log (or a pipe the log goes to, stalling the
    server) with them: each becomes one line here, rate-limited per kind like the servicers' own."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name == "grpc._cython.cygrpc" and str(record.msg).startswith("Invalid encoding"):
            value = record.args[0] if isinstance(record.args, tuple) and record.args else b""
            log_client_error("metadata not UTF-8", "a metadata value is not UTF-8 (read as Latin-1): %.80r", value)
            return False
        if not record.exc_info or record.exc_info[1] is None:
            return True
        exc = record.exc_info[1]
        frames = traceback.extract_tb(exc.__traceback__)
        where = f" at {Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else ""
        first_line = str(record.getMessage()).split(":", 1)[0][:80]
        _limited(f"grpc: {first_line}", logging.ERROR, "%s: %s: %.200s%s (traceback not logged)",
                 first_line, type(exc).__name__, exc, where)
        return False


_GRPC_LOGGERS = ("grpc._cython.cygrpc", "grpc._server", "grpc._common")
_grpc_log_filter = _GrpcLogFilter()


def quiet_grpc_tracebacks() -> None:
    """Install the filter above on grpc's loggers (once; every server calls it)."""
    for name in _GRPC_LOGGERS:
        logger = logging.getLogger(name)
        if _grpc_log_filter not in logger.filters:
            logger.addFilter(_grpc_log_filter)


def status_of(exc: BaseException) -> tuple[grpc.StatusCode, str]:
    """Status code and message (at most MAX_STATUS_MESSAGE characters) for an exception raised while
    serving a call."""
    code, message = _status_of(exc)
    return code, bounded(message)


def _status_of(exc: BaseException) -> tuple[grpc.StatusCode, str]:
    if isinstance(exc, FieldError):
        return grpc.StatusCode.INVALID_ARGUMENT, str(exc)
    if isinstance(exc, (UnknownLexiconError, UnknownRuleSetError)):
        return grpc.StatusCode.NOT_FOUND, str(exc)
    if isinstance(exc, DeadlineError):
        return grpc.StatusCode.DEADLINE_EXCEEDED, str(exc)
    if isinstance(exc, CancelledError):
        return grpc.StatusCode.CANCELLED, str(exc)
    if isinstance(exc, NotReadyError):
        return grpc.StatusCode.UNAVAILABLE, str(exc)
    if isinstance(exc, _move_generation_errors()[1]):  # the generator's message names a path on the server
        return grpc.StatusCode.FAILED_PRECONDITION, MOVE_GRAPH_MISSING
    field_error = as_field_error(exc)
    if field_error is not None:
        return grpc.StatusCode.INVALID_ARGUMENT, str(field_error)
    if isinstance(exc, _lexicon_error_types()):
        _limited("lexicon failure", logging.ERROR, "lexicon failure while serving: %s", exc)
        return grpc.StatusCode.INTERNAL, f"lexicon failure: {exc}"
    _limited("internal error", logging.ERROR, "internal error while serving", exc_info=exc)
    return grpc.StatusCode.INTERNAL, "internal error"


# google/rpc/code.proto: the HTTP mapping of each canonical code.
HTTP_STATUS = {
    grpc.StatusCode.OK: 200,
    grpc.StatusCode.CANCELLED: 499,
    grpc.StatusCode.UNKNOWN: 500,
    grpc.StatusCode.INVALID_ARGUMENT: 400,
    grpc.StatusCode.DEADLINE_EXCEEDED: 504,
    grpc.StatusCode.NOT_FOUND: 404,
    grpc.StatusCode.ALREADY_EXISTS: 409,
    grpc.StatusCode.PERMISSION_DENIED: 403,
    grpc.StatusCode.UNAUTHENTICATED: 401,
    grpc.StatusCode.RESOURCE_EXHAUSTED: 429,
    grpc.StatusCode.FAILED_PRECONDITION: 400,
    grpc.StatusCode.ABORTED: 409,
    grpc.StatusCode.OUT_OF_RANGE: 400,
    grpc.StatusCode.UNIMPLEMENTED: 501,
    grpc.StatusCode.INTERNAL: 500,
    grpc.StatusCode.UNAVAILABLE: 503,
    grpc.StatusCode.DATA_LOSS: 500,
}


def field_status(exc: FieldError) -> grpc.Status:
    """INVALID_ARGUMENT with its google.rpc details: a BadRequest naming the field."""
    code, message = status_of(exc)
    detail = any_pb2.Any()
    detail.Pack(error_details_pb2.BadRequest(field_violations=[
        error_details_pb2.BadRequest.FieldViolation(field=bounded(exc.field), description=bounded(exc.message))]))
    return rpc_status.to_status(status_pb2.Status(code=code.value[0], message=message, details=[detail]))


def _answer_of(exc: Exception):
    """The status `exc` is answered with: a grpc.Status with google.rpc details for a field error, else
    (code, message). Holds nothing of `exc`."""
    field_error = as_field_error(exc)
    if field_error is not None:
        return field_status(field_error)
    return status_of(exc)


def rpc(method):
    """Decorate a servicer method: every exception it raises becomes one status, here."""

    @functools.wraps(method)
    def wrapper(self, request, context):
        try:
            return method(self, request, context)
        except Exception as exc:  # noqa: BLE001 - this is the mapping point
            answer = _answer_of(exc)
        # Aborted here, outside the except clause, holding no exception: one kept in this frame (its
        # traceback holds the frame) made a reference cycle that kept the call, and its HTTP/2 stream,
        # alive until the cyclic collector ran, which `serve` runs rarely; 64 such answers then
        # blocked their connection (REFUSED_STREAM).
        if isinstance(answer, grpc.Status):
            context.abort_with_status(answer)
        context.abort(*answer)

    return wrapper


def grpc_method(plain):
    """The gRPC method of a servicer's plain method `plain(self, request, deadline, context)`: called with
    the call's deadline (a time.monotonic() value, None for none) and its context, every exception mapped
    by `rpc`. The JSON API calls the plain method with the HTTP request's deadline and no context."""

    def method(self, request, context):
        remaining = context.time_remaining()
        deadline = None if remaining is None else time.monotonic() + remaining
        return plain(self, request, deadline, context)

    method.__name__ = method.__qualname__ = "".join(part.title() for part in plain.__name__.split("_"))
    method.__doc__ = plain.__doc__
    return rpc(method)
