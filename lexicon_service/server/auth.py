"""Bearer-token authentication: `authorization: Bearer <token>` on every call except health checks."""

from __future__ import annotations

import hmac

import grpc

HEALTH_PREFIX = "/grpc.health.v1.Health/"


def _deny_handler(handler, message: str):
    def abort(request_or_iterator, context):
        context.abort(grpc.StatusCode.UNAUTHENTICATED, message)

    if handler is None:
        return None
    if handler.request_streaming and handler.response_streaming:
        return grpc.stream_stream_rpc_method_handler(abort)
    if handler.request_streaming:
        return grpc.stream_unary_rpc_method_handler(abort)
    if handler.response_streaming:
        return grpc.unary_stream_rpc_method_handler(abort)
    return grpc.unary_unary_rpc_method_handler(abort)


class BearerTokenInterceptor(grpc.ServerInterceptor):
    """Accept a call only with one of `tokens` (compared in constant time)."""

    def __init__(self, tokens, exempt_prefixes=(HEALTH_PREFIX,)) -> None:
        self._tokens = [t.encode("utf-8") for t in tokens if t]
        if not self._tokens:
            raise ValueError("at least one non-empty token is required")
        self._exempt = tuple(exempt_prefixes)

    def _authorised(self, metadata) -> str | None:
        """None when authorised, else why not."""
        value = None
        for key, val in metadata or ():
            if key == "authorization":
                value = val
                break
        if value is None:
            return "missing authorization metadata (expected 'authorization: Bearer <token>')"
        if isinstance(value, bytes):
            value = value.decode("utf-8", "replace")
        scheme, _, token = value.strip().partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            return "authorization must be 'Bearer <token>'"
        supplied = token.strip().encode("utf-8")
        ok = False
        for expected in self._tokens:
            ok |= hmac.compare_digest(supplied, expected)
        return None if ok else "invalid bearer token"

    def intercept_service(self, continuation, handler_call_details):
        if handler_call_details.method.startswith(self._exempt):
            return continuation(handler_call_details)
        problem = self._authorised(handler_call_details.invocation_metadata)
        if problem is None:
            return continuation(handler_call_details)
        return _deny_handler(continuation(handler_call_details), problem)
