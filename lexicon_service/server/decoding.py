"""Requests that do not decode get INVALID_ARGUMENT naming the field, not grpc's INTERNAL.

grpc answers a request its deserializer cannot read (malformed protobuf, a string field that is
not UTF-8) with INTERNAL "Exception deserializing request!" and logs a traceback. `DecodeGuard`
stands in for the `grpc.Server` when services are added (`add_XServicer_to_server(servicer,
guard)`): it wraps each method's deserializer so that a failure becomes an `Undecodable` value,
and the method itself so that such a value is answered INVALID_ARGUMENT with a message naming the
field ("words[2]: invalid UTF-8"). The wrapping happens once, when the service is added, so a
call costs one extra function call. Every service the server offers (health and reflection too)
is added through the guard.
"""

from __future__ import annotations

import grpc
from google.protobuf.descriptor import FieldDescriptor

from lexicon_service.errors import log_client_error


class Undecodable:
    """What a guarded deserializer returns for bytes it cannot read; `message` names the field."""

    __slots__ = ("message",)

    def __init__(self, message: str) -> None:
        self.message = message


def _varint(data: bytes, pos: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        if pos >= len(data) or shift > 63:
            raise IndexError
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result, pos
        shift += 7


def _is_repeated(fd) -> bool:
    repeated = getattr(fd, "is_repeated", None)  # protobuf >= 6; `label` before (removed in 7)
    return repeated if repeated is not None else fd.label == FieldDescriptor.LABEL_REPEATED


def describe_problem(data: bytes, descriptor, path: str = "") -> str | None:
    """Why `data` is not a valid message of `descriptor`: "<field>: <problem>", or None if no
    problem is found by this walk over the wire format (strings checked as UTF-8, messages
    recursively)."""
    where = path.rstrip(".") or "request"
    pos = 0
    seen: dict[int, int] = {}
    try:
        while pos < len(data):
            tag, pos = _varint(data, pos)
            number, wire = tag >> 3, tag & 7
            if number == 0:
                return f"{where}: malformed protobuf (field number 0 at byte {pos})"
            fd = descriptor.fields_by_number.get(number) if descriptor is not None else None
            name = f"{path}{fd.name}" if fd is not None else f"{path}#{number}"
            if fd is not None and _is_repeated(fd):
                index = seen.get(number, 0)
                seen[number] = index + 1
                name += f"[{index}]"
            if wire == 0:
                _, pos = _varint(data, pos)
            elif wire == 1:
                pos += 8
            elif wire == 5:
                pos += 4
            elif wire == 2:
                length, pos = _varint(data, pos)
                chunk = data[pos:pos + length]
                pos += length
                if pos > len(data):
                    return f"{name}: malformed protobuf (field runs past the end of the request)"
                if fd is not None and fd.type == FieldDescriptor.TYPE_STRING:
                    try:
                        chunk.decode("utf-8")
                    except UnicodeDecodeError as exc:
                        return f"{name}: invalid UTF-8 at byte {exc.start}"
                elif fd is not None and fd.type == FieldDescriptor.TYPE_MESSAGE:
                    problem = describe_problem(chunk, fd.message_type, name + ".")
                    if problem:
                        return problem
            else:
                return f"{name}: malformed protobuf (wire type {wire})"
            if pos > len(data):
                return f"{name}: malformed protobuf (field runs past the end of the request)"
    except IndexError:
        return f"{where}: malformed protobuf (truncated)"
    return None


def _message_descriptor(deserializer):
    message_class = getattr(deserializer, "__self__", None)  # X.FromString is bound to the class X
    return getattr(message_class, "DESCRIPTOR", None)


def _safe_deserializer(deserialize, method: str):
    descriptor = _message_descriptor(deserialize)

    def decode(data: bytes):
        try:
            return deserialize(data)
        except Exception:  # noqa: BLE001 - any failure to decode is the client's
            try:
                problem = describe_problem(data, descriptor)
            except Exception:  # noqa: BLE001 - naming the field is a courtesy; never fail on it
                problem = None
            return Undecodable(problem or "request: malformed protobuf")

    return decode


def _refuse(undecodable: Undecodable, context, method: str):
    log_client_error("undecodable request", "%s: %s", method, undecodable.message)
    context.abort(grpc.StatusCode.INVALID_ARGUMENT, undecodable.message)


def _guard_unary(behaviour, method: str):
    def guarded(request, context):
        if request.__class__ is Undecodable:
            _refuse(request, context, method)
        return behaviour(request, context)

    return _keep_pool(guarded, behaviour)


def _guard_stream(behaviour, method: str):
    def guarded(request_iterator, context):
        def requests():
            for request in request_iterator:
                if request.__class__ is Undecodable:
                    _refuse(request, context, method)
                yield request

        return behaviour(requests(), context)

    return _keep_pool(guarded, behaviour)


def _keep_pool(guarded, behaviour):
    pool = getattr(behaviour, "experimental_thread_pool", None)  # grpc's per-method thread pool
    if pool is not None:
        guarded.experimental_thread_pool = pool
    guarded.__name__ = getattr(behaviour, "__name__", "guarded")
    return guarded


def guard_handler(handler, method: str = "?"):
    """The same method handler, answering undecodable requests with INVALID_ARGUMENT."""
    if handler is None or handler.request_deserializer is None:
        return handler
    changes = {"request_deserializer": _safe_deserializer(handler.request_deserializer, method)}
    for kind in ("unary_unary", "unary_stream"):
        behaviour = getattr(handler, kind)
        if behaviour is not None:
            changes[kind] = _guard_unary(behaviour, method)
    for kind in ("stream_unary", "stream_stream"):
        behaviour = getattr(handler, kind)
        if behaviour is not None:
            changes[kind] = _guard_stream(behaviour, method)
    return handler._replace(**changes)


class _GuardedGenericHandler(grpc.GenericRpcHandler):
    def __init__(self, inner: grpc.GenericRpcHandler) -> None:
        self._inner = inner
        self._guarded: dict[int, tuple] = {}  # id(handler) -> (handler, guarded handler)

    def service(self, handler_call_details):
        handler = self._inner.service(handler_call_details)
        if handler is None:
            return None
        known = self._guarded.get(id(handler))
        if known is None or known[0] is not handler:
            known = self._guarded[id(handler)] = (handler, guard_handler(handler, handler_call_details.method))
        return known[1]


class DecodeGuard:
    """Pass this instead of the grpc.Server to `add_XServicer_to_server`."""

    def __init__(self, server: grpc.Server) -> None:
        self.server = server

    def add_generic_rpc_handlers(self, handlers) -> None:
        self.server.add_generic_rpc_handlers(tuple(_GuardedGenericHandler(h) for h in handlers))

    def add_registered_method_handlers(self, service_name: str, method_handlers) -> None:
        self.server.add_registered_method_handlers(service_name, {
            name: guard_handler(handler, f"/{service_name}/{name}") for name, handler in method_handlers.items()})
