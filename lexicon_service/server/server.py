"""The gRPC server: `create_server(address, lexicon_dir, ...) -> (server, port)`.

A grpc.aio server on an asyncio event loop in a background thread (one per process): its per-call
overhead in Python is a fraction of the thread-pool server's (which spent ~150-400 us of CPU per
call in grpc's own code). Short calls (CheckWords up to 2,000 words, ValidateMove, ScoreMove) run
on the loop itself; searches, replays, listings and large batches run in `workers` threads. The
servicers stay plain functions of (request, context), as for a synchronous server.

Health checking (grpc.health.v1) reports NOT_SERVING until the lexicons are loaded, SERVING after,
NOT_SERVING again during a graceful shutdown; reflection is on (so grpcurl works without protos).
`server.reload()` (SIGHUP in `lexicon-service serve`) swaps in freshly loaded lexicons atomically.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import threading
import time
from concurrent import futures
from dataclasses import dataclass
from pathlib import Path

import grpc
from grpc_health.v1 import _async as health_async
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from lexicon_service.grpc_gen import game_pb2, game_pb2_grpc, lexicon_pb2, lexicon_pb2_grpc
from lexicon_service.server.auth import AioBearerTokenInterceptor
from lexicon_service.server.game_servicer import GameServicer
from lexicon_service.server.lexicon_servicer import LexiconServicer
from lexicon_service.server.limits import Limits
from lexicon_service.server.registry import LexiconRegistry, ReloadError

log = logging.getLogger("lexicon_service.server")

LEXICON_SERVICE = lexicon_pb2.DESCRIPTOR.services_by_name["LexiconService"].full_name
GAME_SERVICE = game_pb2.DESCRIPTOR.services_by_name["GameService"].full_name
SERVICE_NAMES = (LEXICON_SERVICE, GAME_SERVICE)
SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING


@dataclass(frozen=True)
class TlsConfig:
    cert_file: str
    key_file: str
    client_ca_file: str | None = None  # set: clients must present a certificate signed by this CA

    def credentials(self) -> grpc.ServerCredentials:
        key = Path(self.key_file).read_bytes()
        cert = Path(self.cert_file).read_bytes()
        ca = Path(self.client_ca_file).read_bytes() if self.client_ca_file else None
        return grpc.ssl_server_credentials([(key, cert)], root_certificates=ca,
                                           require_client_auth=ca is not None)


class _EventLoopThread:
    """One asyncio event loop in a daemon thread, shared by the servers of this process."""

    _instance: _EventLoopThread | None = None
    _instance_lock = threading.Lock()

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        ready = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(ready,), name="lexicon-aio", daemon=True)
        self.thread.start()
        ready.wait()

    def _run(self, ready: threading.Event) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.call_soon(ready.set)
        self.loop.run_forever()

    @classmethod
    def get(cls) -> _EventLoopThread:
        with cls._instance_lock:
            if cls._instance is None or not cls._instance.thread.is_alive():
                cls._instance = cls()
            return cls._instance

    def in_loop(self) -> bool:
        return threading.current_thread() is self.thread

    def run(self, coro, timeout: float | None = None):
        """Run a coroutine on the loop and wait for its result (from any other thread)."""
        if self.in_loop():
            raise RuntimeError("cannot wait for the event loop from the event loop's own thread")
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def submit(self, coro) -> None:
        """Schedule a coroutine on the loop without waiting (from any thread)."""
        if self.in_loop():
            asyncio.ensure_future(coro)
        else:
            asyncio.run_coroutine_threadsafe(coro, self.loop)


class _Abort(Exception):
    def __init__(self, code: grpc.StatusCode, details: str) -> None:
        super().__init__(details)
        self.code = code
        self.details = details


class _SyncContext:
    """What the servicers use of a call's context (time_remaining, abort), usable from any thread:
    `abort` raises, and the async wrapper turns that into the call's status on the event loop."""

    __slots__ = ("_context",)

    def __init__(self, context) -> None:
        self._context = context

    def time_remaining(self):
        return self._context.time_remaining()

    def invocation_metadata(self):
        return self._context.invocation_metadata()

    def abort(self, code: grpc.StatusCode, details: str = ""):
        raise _Abort(code, details)


class _AsyncServicer:
    """Adapts a servicer written as plain functions `method(request, context)` to grpc.aio.

    Methods named in `inline` run on the event loop itself (cheap, bounded work: no thread hop);
    `inline` may map a name to a predicate of the request deciding per call. Every other method
    runs in `executor` so a long search never stalls the loop.
    """

    def __init__(self, servicer, executor, inline) -> None:
        self._servicer = servicer
        self._executor = executor
        self._inline = dict(inline)

    def __getattr__(self, name: str):
        method = getattr(self._servicer, name)
        if name.startswith("_") or not callable(method):
            return method
        rule = self._inline.get(name, False)
        executor = self._executor

        if rule is True:
            async def handler(request, context):
                try:
                    return method(request, _SyncContext(context))
                except _Abort as stop:
                    await context.abort(stop.code, stop.details)
        else:
            async def handler(request, context):
                try:
                    if rule and rule(request):
                        return method(request, _SyncContext(context))
                    return await asyncio.get_running_loop().run_in_executor(
                        executor, method, request, _SyncContext(context))
                except _Abort as stop:
                    await context.abort(stop.code, stop.details)

        handler.__name__ = name
        setattr(self, name, handler)  # built once per method
        return handler


class _HealthServicer(health_async.HealthServicer):
    """grpc.health.v1 for the aio server, settable from any thread: the status is visible to the
    next Check at once; watchers are notified on the event loop."""

    def __init__(self, loop_thread: _EventLoopThread) -> None:
        super().__init__()
        self._loop_thread = loop_thread

    def set_now(self, service: str, status) -> None:
        if self._gracefully_shutting_down:
            return
        self._server_status[service] = status
        self._loop_thread.submit(self.set(service, status))

    def shut_down_now(self) -> None:
        if self._gracefully_shutting_down:
            return
        for service in list(self._server_status):
            self._server_status[service] = NOT_SERVING
        self._loop_thread.submit(self.enter_graceful_shutdown())


# CheckWords batches up to this many words run on the event loop (a few ms at most); larger ones,
# and the searches and replays, in the worker threads.
INLINE_WORDS = 2_000


class LexiconServer:
    """A grpc.aio server running on an event loop in a background thread, plus its lexicons and health
    state. start/stop/wait_for_termination behave as grpc.Server's (callable from any thread)."""

    def __init__(self, grpc_server, loop_thread: _EventLoopThread, executor, registry: LexiconRegistry,
                 health_servicer: _HealthServicer, port: int, address: str) -> None:
        self.grpc_server = grpc_server
        self._loop_thread = loop_thread
        self._executor = executor
        self.registry = registry
        self.health = health_servicer
        self.port = port
        self.address = address
        self._stopped = threading.Event()
        self._terminated = threading.Event()
        self._stop_lock = threading.Lock()
        self._done: threading.Event | None = None
        registry.on_reload(lambda snapshot: self._set_health(SERVING))
        self._set_health(SERVING if registry.ready else NOT_SERVING)

    def _set_health(self, status) -> None:
        if self._stopped.is_set():
            return
        for name in ("", *SERVICE_NAMES):
            self.health.set_now(name, status)

    def start(self) -> LexiconServer:
        self._loop_thread.run(self.grpc_server.start())
        return self

    def load(self):
        """Load (or reload) every lexicon in the directory; health turns SERVING. Raises ReloadError."""
        return self.registry.reload()

    def reload(self) -> bool:
        """Reload, keeping the current lexicons if any fails. True on success."""
        try:
            self.registry.reload()
        except ReloadError:
            return False
        return True

    def stop(self, grace: float | None = None) -> threading.Event:
        """Graceful shutdown: health NOT_SERVING, refuse new calls, finish running ones within `grace` s.

        Returns an event set once the server has stopped and the lexicons are closed."""
        with self._stop_lock:
            if self._done is not None:
                if grace is None or grace <= 0:  # a second, harder stop: cancel what still runs
                    self._loop_thread.submit(self.grpc_server.stop(None))
                return self._done
            self._done = done = threading.Event()
            self.health.shut_down_now()
            self._stopped.set()

        async def stop_server():
            try:
                await self.grpc_server.stop(grace)
            finally:
                self._executor.shutdown(wait=False)
                threading.Thread(target=finish, name="lexicon-close", daemon=True).start()

        def finish():
            try:
                self.registry.close()
            finally:
                self._terminated.set()
                done.set()

        self._loop_thread.submit(stop_server())
        return done

    def wait_for_termination(self, timeout: float | None = None) -> bool:
        """Block until the server has stopped (True) or `timeout` seconds have passed (False)."""
        # wait in short slices so signal handlers still run in the main thread
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self._terminated.wait(0.25):
            if deadline is not None and time.monotonic() >= deadline:
                return False
        return True

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop(None).wait()


def create_server(address: str, lexicon_dir, *, workers: int = 8, limits: Limits | None = None,
                  tokens=(), tls: TlsConfig | None = None, load: bool = True, loader=None,
                  max_concurrent_rpcs: int | None = None, reuse_port: bool = False) -> tuple[LexiconServer, int]:
    """Build a server bound to `address` ("localhost:0" picks a free port), not yet started.

    With `load` (the default) the lexicons are loaded before returning, so the server is SERVING as
    soon as it starts; with `load=False` call `server.load()` after `start()` (health reports
    NOT_SERVING until then, and calls get UNAVAILABLE). `tokens`: accepted bearer tokens (none = no
    auth). `tls`: serve TLS instead of plaintext. `reuse_port`: share the port with other server
    processes (SO_REUSEPORT; the kernel spreads connections over them), else a busy port is an error.
    `workers`: threads for the long calls (FindWords, ReplayGame, large batches...); short calls
    run on the server's event loop.
    """
    limits = limits or Limits()
    registry = LexiconRegistry(lexicon_dir, loader=loader)
    if load:
        registry.reload()
    loop_thread = _EventLoopThread.get()
    executor = futures.ThreadPoolExecutor(max_workers=workers, thread_name_prefix="lexicon-rpc")
    interceptors = [AioBearerTokenInterceptor(tokens)] if tokens else []
    options = [
        ("grpc.max_receive_message_length", limits.max_message_bytes),
        ("grpc.max_send_message_length", max(limits.max_message_bytes, 16 * 1024 * 1024)),
        ("grpc.so_reuseport", 1 if reuse_port else 0),  # without: a busy port fails instead of being shared
    ]
    inline_words = min(INLINE_WORDS, limits.max_words)

    async def build():
        grpc_server = grpc.aio.server(
            migration_thread_pool=executor,
            interceptors=interceptors,
            options=options,
            maximum_concurrent_rpcs=max_concurrent_rpcs,
        )
        lexicon_servicer = _AsyncServicer(LexiconServicer(registry, limits), executor, {
            "CheckWords": lambda request: len(request.words) <= inline_words,
        })
        game_servicer = _AsyncServicer(GameServicer(registry, limits), executor, {
            "ValidateMove": True, "ScoreMove": True,
        })
        lexicon_pb2_grpc.add_LexiconServiceServicer_to_server(lexicon_servicer, grpc_server)
        game_pb2_grpc.add_GameServiceServicer_to_server(game_servicer, grpc_server)
        health_servicer = _HealthServicer(loop_thread)
        health_pb2_grpc.add_HealthServicer_to_server(health_servicer, grpc_server)
        reflection.enable_server_reflection(
            (*SERVICE_NAMES, health.SERVICE_NAME, reflection.SERVICE_NAME), grpc_server
        )
        try:
            if tls is not None:
                port = grpc_server.add_secure_port(address, tls.credentials())
            else:
                port = grpc_server.add_insecure_port(address)
        except RuntimeError as exc:
            raise OSError(f"cannot listen on {address}: {exc}") from exc
        if not port:
            raise OSError(f"cannot listen on {address}")
        return grpc_server, health_servicer, port

    try:
        grpc_server, health_servicer, port = loop_thread.run(build())
    except BaseException:
        executor.shutdown(wait=False)
        registry.close()
        raise
    server = LexiconServer(grpc_server, loop_thread, executor, registry, health_servicer, port, address)
    return server, port


def install_signal_handlers(server: LexiconServer, grace: float = 5.0):
    """SIGHUP: reload (in a thread); SIGTERM/SIGINT: graceful stop. Returns a function restoring the old handlers."""

    def on_hup(signum, frame):
        threading.Thread(target=server.reload, name="lexicon-reload", daemon=True).start()

    def on_term(signum, frame):
        log.info("signal %s: shutting down (grace %.1f s)", signal.Signals(signum).name, grace)
        server.stop(grace)

    previous = {}
    for signum, handler in ((signal.SIGHUP, on_hup), (signal.SIGTERM, on_term), (signal.SIGINT, on_term)):
        previous[signum] = signal.signal(signum, handler)

    def restore():
        for signum, handler in previous.items():
            signal.signal(signum, handler)

    return restore
