"""The gRPC side of the errors: each exception a servicer raises is answered with the status of the
one table (lexicon_service/errors.py, `answer_of`) as a grpc.StatusCode. Servicers never call
`context.abort` themselves: they raise, and `@rpc` answers.

Every INVALID_ARGUMENT from a `FieldError` also carries a `google.rpc.Status` (trailing metadata
`grpc-status-details-bin`) with a `google.rpc.BadRequest` detail: one field violation naming the field
(`words[3]`, `play.position`) and what is wrong, for clients that read structured details.
"""

from __future__ import annotations

import functools
import logging
import time
import traceback
from pathlib import Path

import grpc
from google.protobuf import any_pb2
from google.rpc import error_details_pb2, status_pb2
from grpc_status import rpc_status

from lexicon_service.errors import FieldError, answer_of, as_field_error, bounded, log_client_error, log_rate_limited


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
        log_rate_limited(f"grpc: {first_line}", logging.ERROR, "%s: %s: %.200s%s (traceback not logged)",
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
    answer = answer_of(exc)
    return grpc.StatusCode[answer.status], answer.message


def status_and_trailing(exc: BaseException) -> tuple[grpc.StatusCode, str, tuple]:
    """status_of's code and message, and the trailing metadata the answer carries."""
    answer = answer_of(exc)
    return grpc.StatusCode[answer.status], answer.message, answer.trailing


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
