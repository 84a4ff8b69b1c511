"""`HttpServer`: uvicorn serving the app from a thread of the gRPC server's process.

With `lexicon-service serve --processes N` every server process serves HTTP too, on one port shared
with SO_REUSEPORT as gRPC is (the kernel spreads connections over the processes); each process
answers from its own registry, the one its gRPC server uses.
"""

from __future__ import annotations

import logging
import socket
import ssl
import threading
import time

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from lexicon_service.errors import log_client_error

# Connections (and requests) open at once per process; a request on one more gets uvicorn's 503 at once. Event
# streams are capped lower, by create_app's max_streams.
MAX_CONNECTIONS = 1_000
# Seconds a request may take to arrive whole (head and body), counted from the connection's opening or
# the request's first byte; then the connection is closed. uvicorn times only idle keep-alive
# connections, so one that never sends (or sends a header byte a minute) would hold a place forever.
RECEIVE_TIMEOUT = 30.0
# Seconds a connection may hold answer bytes its client takes none of; then it is aborted and its queue
# dropped. uvicorn has no write timeout: a client that never read held its whole answer (~1 MB for a
# 10,000-word check) until it went away, and a keep-alive close waited for the queue to drain forever.
WRITE_TIMEOUT = 30.0
# Answer bytes queued, per process, for clients that have not taken them; beyond, the connections whose
# clients took nothing for the longest are aborted first. With the write timeout alone, 1,000 clients
# that never read held ~1 GB (docs/service.md).
MAX_QUEUED_BYTES = 32 << 20
# Request bytes a connection reads ahead of the app (plaintext; uvicorn reads 256 KiB at a time and buffers
# 64 KiB of body): a request waiting for its turn (create_app decodes a few at a time) keeps the rest of
# its body in the kernel, not in this process.
READ_AHEAD_BYTES = 8 << 10


class _QueuedAnswers:
    """The answer bytes the connections of one HttpServer hold queued for their clients: at most
    `max_bytes` in all; beyond, the connections stalled the longest are aborted."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.holding: set = set()  # protocols with bytes queued
        self.estimate = 0  # bytes queued when last counted, plus what was queued since (queues only drain)

    def queued(self, protocol, size: int) -> None:
        self.holding.add(protocol)
        self.estimate += size
        if self.estimate <= self.max_bytes:
            return
        sizes = {p: p.look_at_queue() for p in self.holding}
        total = sum(sizes.values())
        for p in sorted(sizes, key=lambda p: p.stalled_since):
            if total <= self.max_bytes:
                break
            if sizes[p]:
                total -= sizes[p]
                p.abort_stalled(f"{total + sizes[p]:,} bytes of answers were queued for clients that had not "
                                f"taken them (the most: {self.max_bytes:,})")
                sizes[p] = 0
        self.holding = {p for p, size in sizes.items() if size}
        self.estimate = total

    def drained(self, protocol) -> None:
        self.holding.discard(protocol)


class _LimitedProtocol(HttpToolsProtocol):
    """uvicorn's HTTP/1.1 protocol, closing a connection whose request is not received within
    `receive_timeout` seconds, or whose client takes none of its queued answer for `write_timeout`
    seconds; `queues` bounds the answer bytes queued by all connections (set by HttpServer on a
    subclass). uvicorn stops producing while anything is queued (a write buffer limit of 1 byte:
    it pauses writing), so a connection holds at most the one message being written, and at most
    READ_AHEAD_BYTES of a request body the app has not taken."""

    receive_timeout = RECEIVE_TIMEOUT
    write_timeout = WRITE_TIMEOUT
    queues: _QueuedAnswers
    _receive_timer = None
    _write_timer = None
    _last_queued = 0
    stalled_since = 0.0

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        # pause_writing whenever bytes wait for the client (1, not 0: TLS's transport pauses at >= high)
        transport.set_write_buffer_limits(high=1, low=0)
        if hasattr(transport, "max_size"):  # asyncio's socket transport: the most one read takes
            transport.max_size = READ_AHEAD_BYTES
        self._arm()

    def on_body(self, body: bytes) -> None:
        super().on_body(body)
        # the app has not taken it: read no further (once answered, the rest of the body is read and dropped)
        if not self.cycle.response_complete and len(self.cycle.body) > READ_AHEAD_BYTES:
            self.flow.pause_reading()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._receive_timer is None:  # a next request on a kept-alive connection
            self._arm()

    def on_message_complete(self) -> None:
        self._disarm()
        super().on_message_complete()

    def connection_lost(self, exc) -> None:
        self._disarm()
        self._stop_write_timer()
        super().connection_lost(exc)

    def pause_writing(self) -> None:
        super().pause_writing()
        size = self.queued_bytes()
        if self._write_timer is None:
            self.stalled_since = self.loop.time()
            self._last_queued = size
            self._write_timer = self.loop.call_later(self.write_timeout / 4, self._write_timer_fired)
        self.queues.queued(self, size)

    def resume_writing(self) -> None:
        self._stop_write_timer()
        super().resume_writing()

    def queued_bytes(self) -> int:
        return self.transport.get_write_buffer_size()

    def abort_stalled(self, why: str) -> None:
        log_client_error("slow HTTP reader", "aborted an HTTP connection: %s", why)
        self._stop_write_timer()
        self.transport.abort()  # close() would wait for the queue to drain

    def look_at_queue(self) -> int:
        """The bytes queued; `stalled_since` moves on if the client took some since the last look."""
        size = self.queued_bytes()
        if size < self._last_queued:
            self.stalled_since = self.loop.time()
        self._last_queued = size
        return size

    def _write_timer_fired(self) -> None:
        """Every quarter of the write timeout while bytes are queued."""
        self._write_timer = None
        size = self.look_at_queue()
        if size == 0:
            self.queues.drained(self)
            return
        if self.loop.time() - self.stalled_since >= self.write_timeout:
            self.abort_stalled(f"its client took none of {size:,} queued bytes in {self.write_timeout:g} s")
            return
        self._write_timer = self.loop.call_later(self.write_timeout / 4, self._write_timer_fired)

    def _stop_write_timer(self) -> None:
        if self._write_timer is not None:
            self._write_timer.cancel()
            self._write_timer = None
        self.queues.drained(self)

    def _arm(self) -> None:
        self._receive_timer = self.loop.call_later(self.receive_timeout, self._receive_timed_out)

    def _disarm(self) -> None:
        if self._receive_timer is not None:
            self._receive_timer.cancel()
            self._receive_timer = None

    def _receive_timed_out(self) -> None:
        self._receive_timer = None
        flow = getattr(self, "flow", None)
        if flow is not None and flow.read_paused:
            # uvicorn stopped reading itself (a request waits behind the one being answered, or the
            # app has not taken the body yet): the client is not the slow one; look again later
            self._arm()
            return
        if not self.transport.is_closing():
            log_client_error("slow HTTP request", "closed an HTTP connection whose request did not arrive "
                             "within %.0f s", self.receive_timeout)
            self.transport.close()


class _InvalidRequests(logging.Filter):
    """uvicorn logs a warning per request it cannot parse (any client can send one): rate-limited
    here, as the server logs every client mistake."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.getMessage() != "Invalid HTTP request received.":
            return True
        log_client_error("invalid HTTP request", "an invalid HTTP request was received (answered 400)")
        return False


_INVALID_REQUESTS = _InvalidRequests()


def split_address(address: str) -> tuple[str, int]:
    host, sep, port = address.rpartition(":")
    # ASCII digits: int() also reads '١٢' as 12; beyond 65535 socket.bind raises OverflowError
    if not sep or not (port.isascii() and port.isdecimal()) or int(port) > 65535:
        raise ValueError(f"HTTP address {address!r} must be host:port (port 0-65535; 0 picks a free one)")
    return host.strip("[]"), int(port)


def bind_socket(address: str, reuse_port: bool) -> socket.socket:
    host, port = split_address(address)
    host = {"localhost": "127.0.0.1", "": "0.0.0.0"}.get(host, host)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # proto IPPROTO_TCP, not 0: asyncio sets TCP_NODELAY only on sockets that say so, and without it
    # an answer's body waits behind its headers for the client's delayed ACK (~40 ms)
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if reuse_port:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise OSError(f"cannot listen on {address} (HTTP): {exc.strerror}") from None
    sock.set_inheritable(False)
    return sock


class HttpServer:
    """start() returns once uvicorn listens; stop() closes connections and joins the thread."""

    def __init__(self, app, address: str, *, tls=None, reuse_port: bool = False,
                 max_connections: int = MAX_CONNECTIONS, receive_timeout: float = RECEIVE_TIMEOUT,
                 write_timeout: float = WRITE_TIMEOUT, max_queued_bytes: int = MAX_QUEUED_BYTES) -> None:
        self.socket = bind_socket(address, reuse_port)
        self.port = self.socket.getsockname()[1]
        self.host = split_address(address)[0] or "0.0.0.0"
        self.scheme = "https" if tls else "http"
        kwargs = {}
        if tls is not None:
            kwargs = dict(ssl_certfile=tls.cert_file, ssl_keyfile=tls.key_file)
            if tls.client_ca_file:
                kwargs.update(ssl_ca_certs=tls.client_ca_file, ssl_cert_reqs=ssl.CERT_REQUIRED)
        self.app = app
        protocol = type("LimitedProtocol", (_LimitedProtocol,), {
            "receive_timeout": receive_timeout, "write_timeout": write_timeout,
            "queues": _QueuedAnswers(max_queued_bytes)})
        config = uvicorn.Config(app, lifespan="off", access_log=False, log_level="warning",
                                server_header=False, timeout_graceful_shutdown=5, http=protocol,
                                limit_concurrency=max_connections + 1, **kwargs)  # uvicorn counts the new one
        config.load()  # here, so that a bad certificate fails the start, not the thread
        uvicorn_log = logging.getLogger("uvicorn.error")
        if _INVALID_REQUESTS not in uvicorn_log.filters:
            uvicorn_log.addFilter(_INVALID_REQUESTS)
        self.server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.socket]},
                                        name="lexicon-http", daemon=True)

    @property
    def url(self) -> str:
        host = self.host if ":" not in self.host else f"[{self.host}]"
        return f"{self.scheme}://{host}:{self.port}"

    def start(self, timeout: float = 10.0) -> "HttpServer":
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not self.server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise OSError("the HTTP server did not start")
            time.sleep(0.01)
        return self

    def stop(self, timeout: float = 6.0) -> None:
        close_streams = getattr(getattr(self.app, "state", None), "close_streams", None)
        if close_streams is not None:  # open event streams would hold the graceful shutdown
            close_streams()
        self.server.should_exit = True
        if self._thread.is_alive():
            self._thread.join(timeout)
        self.socket.close()
