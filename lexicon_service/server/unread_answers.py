"""Bounds, across every gRPC connection of the process, on the answers handed to gRPC and not yet delivered.

An answer stays in the process (gRPC's copy and our serialized one) until its client grants the
flow-control window to take it; 64 unread streams on each of 40 connections held 1.3 GB. The bound per
connection (HTTP/2 MAX_CONCURRENT_STREAMS) does not bound connections, so the bytes are counted here, by
connection and in all, from the moment an answer is serialized until its call is done:
  * a connection holding `per_connection` bytes of unread answers gets RESOURCE_EXHAUSTED for its next
    calls, before any work is done for them (a client that does not read makes the server produce nothing
    more on that connection);
  * past `total` bytes in all, the calls whose answers have waited longest are ended first (so a client
    that reads, on a connection of its own, is served however many connections do not read; counted by
    connection, not by address, as such a client may well share its address with them);
  * an answer not taken within `seconds` ends its call.
A call ended here gets RESOURCE_EXHAUSTED naming the bound, and what it held is freed at once.
A server-streaming call counts the message it is sending (its thread waits while the client does not read).
"""

from __future__ import annotations

import itertools
import logging
import threading
import time
from collections import Counter
from dataclasses import dataclass, field

import grpc

from lexicon_service.errors import log_client_error

log = logging.getLogger("lexicon_service.server")

# Answer bytes, serialized, that clients have not taken: in all, and on one connection. Each such byte
# is held about twice (our serialized answer and gRPC's copy of it).
UNREAD_BYTES = 24 << 20
UNREAD_BYTES_PER_CONNECTION = 4 << 20
# An answer no client has taken within this ends its call (a slow reader of a 10,000-word answer, ~850 KB,
# needs ~14 KB/s to make it).
UNREAD_SECONDS = 60.0
SWEEP_SECONDS = 1.0


@dataclass
class _Held:
    connection: str
    size: int
    since: float
    end: object = field(repr=False)  # end(details): ends the call with RESOURCE_EXHAUSTED


class UnreadAnswers:
    """The ledger of undelivered answers: `refusal` before a call's work, `hold` once its answer is
    serialized, `release` when the call is done; `sweep` ends what waited too long."""

    def __init__(self, total: int = UNREAD_BYTES, per_connection: int = UNREAD_BYTES_PER_CONNECTION,
                 seconds: float = UNREAD_SECONDS, clock=time.monotonic) -> None:
        if total < 1 or per_connection < 1 or seconds <= 0:
            raise ValueError("unread-answer bounds must be positive")
        self.total = total
        self.per_connection = per_connection
        self.seconds = seconds
        self._clock = clock
        self._held: dict[int, _Held] = {}  # in the order held: the oldest first
        self._by_connection: Counter[str] = Counter()
        self._bytes = 0
        self._keys = itertools.count()
        self._lock = threading.Lock()

    @property
    def held_bytes(self) -> int:
        return self._bytes

    def connection_bytes(self, connection: str) -> int:
        with self._lock:
            return self._by_connection[connection]

    def refusal(self, connection: str) -> str | None:
        """Why a new call on `connection` is not served now (its unread answers are at the bound), or None."""
        with self._lock:
            unread = self._by_connection[connection]
        if unread < self.per_connection:
            return None
        return (f"{unread} bytes of earlier answers on this connection are unread (max {self.per_connection} "
                "per connection); read them or retry later")

    def hold(self, connection: str, size: int, end) -> int:
        """Count an answer of `size` bytes on `connection`; its key for `release`. Past the total, the calls
        that waited longest (this one last) are ended."""
        with self._lock:
            key = next(self._keys)
            self._held[key] = _Held(connection, size, self._clock(), end)
            self._by_connection[connection] += size
            self._bytes += size
            over = self._take_over_total()
        self._end(over, f"the server holds too many unread answers (max {self.total} bytes in all)")
        return key

    def release(self, key: int) -> None:
        """The call of `key` is done (its answer delivered, or the call ended): uncount it. Idempotent."""
        with self._lock:
            self._uncount(key)

    def sweep(self) -> int:
        """End the calls whose answers have waited `seconds` or more; how many."""
        with self._lock:
            cutoff = self._clock() - self.seconds
            # held in time order: the stale ones are a prefix
            stale = [key for key, held in itertools.takewhile(lambda item: item[1].since <= cutoff, self._held.items())]
            ended = [self._uncount(key) for key in stale]
        self._end(ended, f"the answer was not read within {self.seconds:g} s")
        return len(ended)

    def _take_over_total(self) -> list[_Held]:
        over = []
        while self._bytes > self.total and self._held:
            over.append(self._uncount(next(iter(self._held))))
        return over

    def _uncount(self, key: int) -> _Held | None:
        held = self._held.pop(key, None)
        if held is not None:
            self._bytes -= held.size
            self._by_connection[held.connection] -= held.size
            if self._by_connection[held.connection] <= 0:
                del self._by_connection[held.connection]
        return held

    @staticmethod
    def _end(calls, details: str) -> None:
        for held in calls:
            if held is not None:
                log_client_error("unread answers", "call on %s ended: %s", held.connection or "?", details)
                held.end(details)

    def sweep_every(self, interval: float = SWEEP_SECONDS):
        """Sweep every `interval` s in a daemon thread; returns the function that stops it and waits for
        the thread to end (so that no server thread runs once the server has stopped)."""
        stop = threading.Event()

        def run() -> None:
            while not stop.wait(interval):
                try:
                    self.sweep()
                except Exception:  # noqa: BLE001 - the sweeper must outlive one failure
                    log.exception("sweeping unread answers failed")

        thread = threading.Thread(target=run, name="lexicon-unread-sweep", daemon=True)
        thread.start()

        def stop_sweeping() -> None:
            stop.set()
            thread.join(5.0)

        return stop_sweeping


def end_call(context, details: str) -> None:
    """End a server call with RESOURCE_EXHAUSTED and `details`, from any thread; its queued answer is freed.

    grpc has no public way to do this from a thread other than the call's own (`abort` raises in the
    caller, and the handler's thread is inside grpc, waiting to send), and `cancel()` can only say
    CANCELLED. So the call object underneath `context` (grpc's private `_rpc_event.call`) is given the
    status: grpc's core sends it as trailers, which flow control does not hold back. Should a grpcio
    upgrade take that away, the call is still ended, by the public `cancel()` (CANCELLED), and a warning
    says so once (tests/test_unread_answers.py fails loudly on such an upgrade)."""
    call = private_call(context)
    try:
        if call is not None:
            call.cancel(grpc.StatusCode.RESOURCE_EXHAUSTED.value[0], details)
            return
    except TypeError:  # the private call took other arguments: end it the public way
        call = None
    except Exception:  # noqa: BLE001 - a call already gone has nothing to end
        log.debug("ending a call failed", exc_info=True)
        return
    _warn_no_private_call()
    try:
        context.cancel()
    except Exception:  # noqa: BLE001 - a call already gone has nothing to end
        log.debug("cancelling a call failed", exc_info=True)


def private_call(context):
    """grpc's call object under a server `context`, or None (not a grpc server context of a known version)."""
    call = getattr(getattr(context, "_rpc_event", None), "call", None)
    return call if callable(getattr(call, "cancel", None)) else None


_warned = threading.Event()


def _warn_no_private_call() -> None:
    if not _warned.is_set():
        _warned.set()
        log.warning("this grpcio (%s) gives no call object to end a call with RESOURCE_EXHAUSTED: calls over the "
                    "unread-answer bounds end as CANCELLED", grpc.__version__)


class UnreadAnswerGuard(grpc.ServerInterceptor):
    """Counts every unary and server-streaming answer in `ledger` (UnreadAnswers) until its call is done,
    and refuses calls on a connection while its unread answers are at the bound (connections told apart
    by the peer's address and port). The answer is serialized here
    (the handler's serializer), so counting costs no second serialization."""

    def __init__(self, ledger: UnreadAnswers) -> None:
        self.ledger = ledger

    def intercept_service(self, continuation, handler_call_details):
        handler = continuation(handler_call_details)
        if handler is None or handler.request_streaming:
            return handler
        serialize = handler.response_serializer or (lambda data: data)
        if handler.unary_unary is not None:
            behavior = self._unary(handler.unary_unary, serialize)
            return handler._replace(unary_unary=_same_pool(behavior, handler.unary_unary), response_serializer=None)
        behavior = self._streaming(handler.unary_stream, serialize)
        return handler._replace(unary_stream=_same_pool(behavior, handler.unary_stream), response_serializer=None)

    def _admit(self, context) -> str:
        connection = context.peer() or ""
        refusal = self.ledger.refusal(connection)
        if refusal is not None:
            log_client_error("unread answers", "call on %s refused: %s", connection or "?", refusal)
            context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, refusal)
        return connection

    def _unary(self, method, serialize):
        ledger = self.ledger

        def behavior(request, context):
            connection = self._admit(context)
            response = method(request, context)
            if response is None:
                return None
            data = serialize(response)
            key = ledger.hold(connection, len(data), lambda details: end_call(context, details))
            if not context.add_callback(lambda: ledger.release(key)):
                ledger.release(key)  # the call is already over
            return data

        return behavior

    def _streaming(self, method, serialize):
        ledger = self.ledger

        def behavior(request, context):
            connection = self._admit(context)
            for response in method(request, context):
                data = serialize(response)
                key = ledger.hold(connection, len(data), lambda details: end_call(context, details))
                try:
                    yield data  # resumed once grpc has sent it: the client took it
                finally:
                    ledger.release(key)

        return behavior


def _same_pool(behavior, method):
    """`behavior` running in the thread pool chosen for `method` (grpc reads `experimental_thread_pool`)."""
    pool = getattr(method, "experimental_thread_pool", None)
    if pool is not None:
        behavior.experimental_thread_pool = pool
    return behavior
