"""The gRPC server: `create_server(address, lexicon_dir, ...) -> (server, port)`.

A synchronous `grpc.server` with two thread pools. Short calls (CheckWords, ValidateMove,
ScoreMove) run in a small pool of their own (2 threads by default), so a long search or replay
never holds them up. Everything else (FindWords, ExplainWord, ReplayGame, the listings, health,
reflection) runs in `workers` threads. Both pools are `HandoffPool`s: each call goes to the thread
that went idle last, so under light load one hot thread serves every call.

The work of a call is spread over gRPC's polling thread, the pool threads and gRPC's own I/O
threads, not queued behind one event-loop thread; why, and the latency measured against the
grpc.aio server it replaced: docs/service.md, "Threads and processes".

Health checking (grpc.health.v1) reports NOT_SERVING until the lexicons are loaded, SERVING after,
and NOT_SERVING again during a graceful shutdown. The server-held games have a status of their own
(GAME_SESSION_SERVICE): NOT_SERVING also while their database cannot be written (disk full, a read-only
or damaged file); word checks need no database, so the other names stay SERVING. Reflection (v1 and v1alpha, with the protos' comments)
is on, so grpcurl works without protos.
`server.reload()` (SIGHUP in `lexicon-service serve`) swaps in freshly loaded lexicons atomically.
"""

from __future__ import annotations

import functools
import logging
import os
import queue
import shutil
import signal
import sqlite3
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
import ssl

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from google.protobuf import message_factory

from lexicon_service.grpc_gen import game_pb2, game_pb2_grpc, lexicon_pb2, lexicon_pb2_grpc, session_pb2, session_pb2_grpc
from lexicon_service.grpc_gen import tournament_pb2, tournament_pb2_grpc
from lexicon_service.games.creation_rate import ComputerGameRate
from lexicon_service.games.roles import DirectorKey
from lexicon_service.games.sessions import MAX_GAMES, GameSessions
from lexicon_service.errors import DatabaseDamaged
from lexicon_service.games.store import WAL_LIMIT, SqliteStore, is_postgres_url
from lexicon_service.games.watchers import STREAM_IDLE
from lexicon_service.server.auth import BearerTokenInterceptor
from lexicon_service.server.decoding import DecodeGuard
from lexicon_service.errors import log_client_error
from lexicon_service.server.errors import quiet_grpc_tracebacks
from lexicon_service.server.game_servicer import GameServicer
from lexicon_service.server.game_session_servicer import GameSessionServicer, client_of
from lexicon_service.server.lexicon_servicer import LexiconServicer
from lexicon_service.core.limits import Limits
from lexicon_service.server.pool import HandoffPool
from lexicon_service.server.reflection import enable_reflection
from lexicon_service.core.registry import LexiconRegistry, ReloadError
from lexicon_service.server.shared_counts import SharedCounts
from lexicon_service.server.signals import queue_signals
from lexicon_service.server.stream_quota import STREAMS_PER_CLIENT, STREAMS_PER_GAME, StreamQuota
from lexicon_service.server.tournament_servicer import TournamentServicer
from lexicon_service.lexicon import load_lexicon
from lexicon_service.tournaments.service import TournamentService
from lexicon_service.server.unread_answers import UnreadAnswerGuard, UnreadAnswers

log = logging.getLogger("lexicon_service.server")

LEXICON_SERVICE = lexicon_pb2.DESCRIPTOR.services_by_name["LexiconService"].full_name
GAME_SERVICE = game_pb2.DESCRIPTOR.services_by_name["GameService"].full_name
GAME_SESSION_SERVICE = session_pb2.DESCRIPTOR.services_by_name["GameSessionService"].full_name
TOURNAMENT_SERVICE = tournament_pb2.DESCRIPTOR.services_by_name["TournamentService"].full_name
SERVICE_NAMES = (LEXICON_SERVICE, GAME_SERVICE, GAME_SESSION_SERVICE, TOURNAMENT_SERVICE)
_SERVICE_FILES = (lexicon_pb2, game_pb2, session_pb2, tournament_pb2, health_pb2)


class _HealthServicer(health.HealthServicer):
    """grpcio-health-checking leaves Health.List unimplemented: every call logged a traceback (a
    client could fill the log, or a pipe the log goes to, and stall the server). Answer it."""

    def status(self, name: str):
        """The status set for a service name (None: a name never set), as Check answers it."""
        with self._lock:
            return self._server_status.get(name)

    def List(self, request, context):
        with self._lock:
            statuses = dict(self._server_status)
        return health_pb2.HealthListResponse(
            statuses={name: health_pb2.HealthCheckResponse(status=status) for name, status in statuses.items()})


def unary_methods() -> dict[str, type]:
    """Every unary RPC the server answers ("/package.Service/Method") with its request class: what
    a client (or a fuzzer) may call; streaming RPCs are left out."""
    return {path: request for path, (streaming, request) in _methods().items() if not streaming}


def streaming_methods() -> dict[str, type]:
    """The streaming RPCs of the services above (WatchGame, Health.Watch) with their request classes;
    reflection's stream is not among them."""
    return {path: request for path, (streaming, request) in _methods().items() if streaming}


def _methods() -> dict[str, tuple[bool, type]]:
    return {f"/{service.full_name}/{method.name}": (method.client_streaming or method.server_streaming,
                                                    message_factory.GetMessageClass(method.input_type))
            for module in _SERVICE_FILES for service in module.DESCRIPTOR.services_by_name.values()
            for method in service.methods}


SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING

# The short calls: bounded work, answered in the fast pool. A CheckWords batch is bounded by
# --max-words (10,000 words: ~30 ms). The pool is chosen before the request is read, so a large
# batch runs there too.
FAST_METHODS = {
    LEXICON_SERVICE: ("CheckWords",),
    GAME_SERVICE: ("ValidateMove", "ScoreMove"),
}
# Threads for the short calls. A second one starts only while the first is busy. With the GIL,
# more threads add switching and no throughput: on 2 cores, 3 or 4 gave a worse p99 under load
# than 2. Two large batches at once hold both threads, though. Raise it (serve --fast-threads) if
# clients send many at a time.
FAST_THREADS = 2
# Server-held games (GameSessionService): a move waits for its group commit (one fsync), so the game
# calls get threads of their own, and each WatchGame stream holds one thread while it waits.
GAME_THREADS = 8  # the least server CPU per move of those tried (docs/measurements.md)
# WatchGame streams held open at once, per process; beyond: RESOURCE_EXHAUSTED. Their pool has a few threads
# more, which answer those at once: with as many streams as threads, the next call waited in the pool's
# queue, unanswered, until its deadline (any client could stop everyone else's watching).
WATCH_STREAMS = 56
WATCH_SPARE_THREADS = 8
POOL_JOIN_SECONDS = 5.0  # bound on the wait for the pools' threads after grpc stopped
# Streams (calls) open at once on one connection (HTTP/2 MAX_CONCURRENT_STREAMS); beyond, the client's
# library queues its calls, and a stream opened anyway is refused. gRPC's own default has no limit: one
# connection that opened 3,000 CheckWords streams and read none of their answers held ~660 MB. An unread
# stream holds its answer twice (grpc's copy and the Python message until sent: ~1.2 MB for 6,500 words),
# so 64 of them ~75 MB (docs/measurements.md); gRPC clients queue calls beyond it.
MAX_STREAMS_PER_CONNECTION = 64
# Request bytes a stream may send before a thread asks for its request (HTTP/2 INITIAL_WINDOW_SIZE, with
# grpc's bandwidth probing off, which raised it to 4 MiB): what waits for a thread stays in the client.
# With 4 MiB, 40 connections of 64 streams each sending a 46 KB request held ~150 MB before any was read.
STREAM_WINDOW_BYTES = 16 * 1024
# gRPC connections open at once, per process: each is an open file (and ~15 KB); beyond, grpc closes a new
# one as it comes, so that connections cannot take the files the games database and HTTP need. A connection
# with no call for CONNECTION_IDLE_MS is closed (GOAWAY; a client reconnects at its next call), so idle
# connections do not hold places for ever.
MAX_CONNECTIONS = 1000
CONNECTION_IDLE_MS = 300_000
# A connection whose peer does not answer a ping within KEEPALIVE_TIMEOUT_MS of it is closed, with what
# it held: a client gone without a word (or one that stopped reading its socket) was closed after 100 s.
KEEPALIVE_TIME_MS = 60_000
KEEPALIVE_TIMEOUT_MS = 20_000
GAME_METHODS = ("CreateGame", "GetGame", "SubmitMove", "Challenge", "GetGameRecord", "AdjustScore", "UndoLastMove",
                "EndGame", "ListGames")


@dataclass(frozen=True)
class TlsConfig:
    cert_file: str
    key_file: str
    client_ca_file: str | None = None  # set: clients must present a certificate signed by this CA

    def check(self) -> None:
        """Raise ValueError naming the file when the certificate, the key or the CA cannot be used
        (grpc itself only says "Failed to bind")."""
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        for path in (self.cert_file, self.key_file, self.client_ca_file):
            if path is not None and not Path(path).is_file():
                raise ValueError(f"TLS: cannot read {path}: no such file")
        try:
            context.load_cert_chain(self.cert_file, self.key_file)
        except (ssl.SSLError, OSError, ValueError) as exc:
            raise ValueError(f"TLS: the certificate {self.cert_file} and key {self.key_file} cannot be used "
                             f"together ({getattr(exc, 'reason', None) or exc})") from None
        if self.client_ca_file:
            try:
                context.load_verify_locations(self.client_ca_file)
            except (ssl.SSLError, OSError, ValueError) as exc:
                raise ValueError(f"TLS: the client CA {self.client_ca_file} cannot be used "
                                 f"({getattr(exc, 'reason', None) or exc})") from None

    def credentials(self) -> grpc.ServerCredentials:
        key = Path(self.key_file).read_bytes()
        cert = Path(self.cert_file).read_bytes()
        ca = Path(self.client_ca_file).read_bytes() if self.client_ca_file else None
        return grpc.ssl_server_credentials([(key, cert)], root_certificates=ca,
                                           require_client_auth=ca is not None)


class _Stopped(threading.Event):
    """Set once a server has stopped; `wait` also waits for the thread that stopped it to end, so
    that after it no thread of the server runs (a build in this process may fork)."""

    closer: threading.Thread | None = None

    def wait(self, timeout: float | None = None) -> bool:
        deadline = None if timeout is None else time.monotonic() + timeout
        if not super().wait(timeout):
            return False
        closer = self.closer
        if closer is not None and closer is not threading.current_thread():
            closer.join(None if deadline is None else max(0.0, deadline - time.monotonic()))
        return True


class _StreamLimit:
    """A server-streaming method of which at most `limit` calls run at once, and at most `quota`'s bounds per
    client and per game (the request's game_id); the next gets RESOURCE_EXHAUSTED naming the bound."""

    def __init__(self, method, limit: int, what: str, quota: StreamQuota | None = None) -> None:
        self._method = method
        self.limit = limit
        self.what = what
        self.quota = quota or StreamQuota()
        self.active = 0
        self._lock = threading.Lock()

    def __call__(self, request, context):
        client, game_id = client_of(context), getattr(request, "game_id", "")
        refusal = self.quota.admit(client, game_id)
        if refusal is None:
            with self._lock:
                full = self.active >= self.limit
                if not full:
                    self.active += 1
            if full:
                self.quota.release(client, game_id)
                refusal = (f"too many {self.what} streams open on this server process (max {self.limit}); "
                           "retry later")
        if refusal is not None:
            log_client_error("too many streams", "%s refused: %s", self.what, refusal)
            context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, refusal)
        try:
            yield from self._method(request, context)
        finally:
            with self._lock:
                self.active -= 1
            self.quota.release(client, game_id)


class _Routed:
    """A servicer whose methods in `names` run in `pool` (grpc's per-method thread pool). Every
    other attribute is the servicer's own; `overrides` gives some of the methods instead."""

    def __init__(self, servicer, pool: HandoffPool, names, overrides=None) -> None:
        self._servicer = servicer
        for name in names:
            method = (overrides or {}).get(name) or getattr(servicer, name)

            def call(request, context, _method=method):
                return _method(request, context)

            call.__name__ = call.__qualname__ = name
            call.experimental_thread_pool = pool
            setattr(self, name, call)

    def __getattr__(self, name: str):
        return getattr(self._servicer, name)


class LexiconServer:
    """A grpc.Server plus its lexicons, thread pools and health state. start/stop/wait_for_termination
    behave as grpc.Server's, callable from any thread."""

    def __init__(self, grpc_server: grpc.Server, pools, registry: LexiconRegistry,
                 health_servicer: health.HealthServicer, port: int, address: str, games_writable=lambda: True) -> None:
        self.grpc_server = grpc_server
        self._pools = tuple(pools)
        self.registry = registry
        self.health = health_servicer
        self.port = port
        self.address = address
        self._stopped = threading.Event()
        self._terminated = threading.Event()
        self._stop_lock = threading.Lock()
        self._done: threading.Event | None = None
        self.on_stop: list = []  # called once grpc has stopped, before anything closes (serve's HTTP server)
        self.on_close: list = []  # called once the server has stopped (the game store)
        self._games_writable = games_writable  # whether the games database takes writes now
        registry.on_reload(lambda snapshot: self._set_health(SERVING))
        self._set_health(SERVING if registry.ready else NOT_SERVING)

    def _set_health(self, status) -> None:
        if self._stopped.is_set():
            return
        for name in ("", *SERVICE_NAMES):
            games_down = name == GAME_SESSION_SERVICE and not self._games_writable()
            self.health.set(name, NOT_SERVING if games_down else status)

    def games_changed(self, writable: bool) -> None:
        """The games database turned writable or not (the store's on_change): the games' health follows."""
        if self._stopped.is_set():
            return
        self.health.set(GAME_SESSION_SERVICE, SERVING if writable and self.registry.ready else NOT_SERVING)

    def health_status(self, service: str = "") -> str | None:
        """"SERVING" or "NOT_SERVING" as grpc.health.v1 Check answers for `service` (None: a name it does not
        know); the HTTP health route reads it."""
        status = self.health.status(service)
        return None if status is None else health_pb2.HealthCheckResponse.ServingStatus.Name(status)

    def start(self) -> LexiconServer:
        self.grpc_server.start()
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
                    self.grpc_server.stop(None)
                return self._done
            self._done = done = _Stopped()
            self._stopped.set()
            self.health.enter_graceful_shutdown()
        stopped = self.grpc_server.stop(grace)
        self.game_sessions.games.watchers.wake_all()  # a cancelled WatchGame's thread ends now, not after a poll

        def finish():
            stopped.wait()
            try:
                for stop in self.on_stop:
                    try:
                        stop()
                    except Exception:  # noqa: BLE001 - the rest must still close
                        log.exception("stopping %r failed", stop)
                for pool in self._pools:
                    pool.shutdown(wait=False)
                # grpc has stopped, so the threads are finishing their last task; waiting (bounded)
                # means that once `done` is set no server thread runs (a build may then fork)
                deadline = time.monotonic() + POOL_JOIN_SECONDS
                for pool in self._pools:
                    if not pool.join(max(0.0, deadline - time.monotonic())):
                        log.warning("%s: a thread still runs %.0f s after the stop", pool.name, POOL_JOIN_SECONDS)
                self.registry.close()
                for close in self.on_close:
                    close()
            finally:
                self._terminated.set()
                done.set()

        done.closer = threading.Thread(target=finish, name="lexicon-close", daemon=True)
        done.closer.start()
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
                  max_concurrent_rpcs: int | None = None, reuse_port: bool = False,
                  fast_threads: int = FAST_THREADS, games_db=None, game_clock=None,
                  watch_streams: int = WATCH_STREAMS, max_games: int | None = MAX_GAMES,
                  db_wal_limit: int = WAL_LIMIT, shared_files=None,
                  max_streams_per_connection: int = MAX_STREAMS_PER_CONNECTION, streams_per_client: int = STREAMS_PER_CLIENT,
                  streams_per_game: int = STREAMS_PER_GAME, stream_idle: float | None = STREAM_IDLE,
                  stream_counts: SharedCounts | None = None,
                  unread_answers: UnreadAnswers | None = None, max_connections: int = MAX_CONNECTIONS,
                  director_key: str | None = None) -> tuple[LexiconServer, int]:
    """Build a server bound to `address` ("localhost:0" picks a free port), not yet started.

    With `load` (the default) the lexicons are loaded before returning, so the server is SERVING as soon as it
    starts. With `load=False` call `server.load()` after `start()`: health reports NOT_SERVING until then, and
    calls get UNAVAILABLE. `tokens`: accepted bearer tokens (none = no auth). `tls`: serve TLS instead of
    plaintext. `reuse_port`: share the port with other server processes (SO_REUSEPORT, and the kernel spreads
    connections over them); without it a busy port is an error. `workers`: threads for the long calls (FindWords,
    ReplayGame, listings, health...). `fast_threads`: threads for the short calls (CheckWords, ValidateMove,
    ScoreMove). `games_db`: the SQLite file of the server-held games (None: a temporary one, removed on stop), or
    a postgresql:// URL (games/pgstore.py); `game_clock`: the games' clock (default time.time; tests inject one).
    `watch_streams`: WatchGame streams open at once (beyond: RESOURCE_EXHAUSTED). `max_games`: games in progress
    in `games_db` (beyond, CreateGame gets RESOURCE_EXHAUSTED; None: no limit). `db_wal_limit`: bytes the games
    database's write-ahead log may take. A damaged games database raises OSError saying how to recover.
    `shared_files`: sealed copies of lexicon files (lexicon.SharedFiles, from `serve --processes`' supervisor) the
    default loader maps instead of private copies. `max_streams_per_connection`: calls open at once on one client
    connection (HTTP/2 MAX_CONCURRENT_STREAMS). `streams_per_client`, `streams_per_game`: WatchGame streams one
    client address, and one game, may hold open at once (`stream_counts`: counted with the other processes of
    `serve --processes`' supervisor, shared_counts.py, as are a client's computer-only games a minute). `stream_idle`: seconds a game stream may deliver no event
    before it ends (WatchIdle; None: never). `director_key`: the server-wide director key (directs every game,
    lists them: ListGames); None: none. `unread_answers`: the bounds on answers not yet taken by
    their clients, across every connection (server/unread_answers.py; default: its defaults).
    `max_connections`: gRPC connections open at once (beyond, a new one is closed as it comes)."""
    limits = limits or Limits()
    quiet_grpc_tracebacks()
    if workers < 1 or fast_threads < 1:
        raise ValueError("workers and fast_threads must be at least 1")
    registry = _registry(lexicon_dir, loader, shared_files, load)
    pool = HandoffPool(workers, thread_name_prefix="lexicon-rpc")
    fast = HandoffPool(fast_threads, thread_name_prefix="lexicon-fast")
    unread_answers = unread_answers or UnreadAnswers()
    interceptors = [BearerTokenInterceptor(tokens)] if tokens else []
    interceptors.append(UnreadAnswerGuard(unread_answers))
    games_store, games_cleanup = _open_games_store(games_db, db_wal_limit)
    game_pool = HandoffPool(GAME_THREADS, thread_name_prefix="lexicon-game")
    watch_pool = HandoffPool(watch_streams + WATCH_SPARE_THREADS, thread_name_prefix="lexicon-watch")
    try:
        grpc_server = grpc.server(pool, interceptors=interceptors,
                                  options=_grpc_options(limits, reuse_port, max_streams_per_connection, max_connections),
                                  maximum_concurrent_rpcs=max_concurrent_rpcs)
        games = GameSessions(games_store, clock=game_clock or time.time, max_games=max_games,
                             lexicons=registry.lexicons_in_use, director_key=DirectorKey(director_key),
                             computer_game_rate=ComputerGameRate(shared=stream_counts))
        tournaments = _tournaments(games, games_store, registry)
        game_sessions = GameSessionServicer(games, registry, server_tokens=bool(tokens), stream_idle=stream_idle,
                                            tournament_games=tournaments.game_ids)
        # add every service through DecodeGuard: bad requests get INVALID_ARGUMENT
        health_servicer = _add_services(DecodeGuard(grpc_server), registry, limits, game_sessions, watch_streams,
                                        fast=fast, game_pool=game_pool, watch_pool=watch_pool,
                                        watch_quota=StreamQuota(streams_per_client, streams_per_game, stream_counts))
        port = _listen(grpc_server, address, tls)
    except BaseException:
        for threads in (pool, fast, game_pool, watch_pool):
            threads.shutdown(wait=False)
        registry.close()
        games_cleanup()
        raise
    server = LexiconServer(grpc_server, (pool, fast, game_pool, watch_pool), registry, health_servicer, port, address,
                           games_writable=lambda: games_store.writable)
    games_store.on_change(server.games_changed)
    server.games = games
    server.unread_answers = unread_answers
    server.on_close.append(unread_answers.sweep_every())
    _add_tournaments(server, tournaments, games, game_pool)
    server.game_sessions = game_sessions  # the servicer itself, for the HTTP/JSON API (lexicon_service/http)
    server.on_stop.append(games.close)  # the computer players, before the lexicons close
    server.on_close.append(games_cleanup)
    return server, port


def _registry(lexicon_dir, loader, shared_files, load: bool) -> LexiconRegistry:
    """The lexicons of `lexicon_dir`, mapped from `shared_files` (sealed copies) when given; loaded now with
    `load`."""
    if loader is None and shared_files is not None:
        loader = functools.partial(load_lexicon, check_structure=True, shared=shared_files,
                                   checked_tries=shared_files.checked_tries)
    registry = LexiconRegistry(lexicon_dir, loader=loader)
    if load:
        registry.reload()
    return registry


def _add_tournaments(server: LexiconServer, tournaments, games, game_pool) -> None:
    """`tournaments` as server.tournaments, and their servicer: over gRPC on the games' threads (it starts
    games), and as server.tournament_servicer for the HTTP/JSON API."""
    server.tournaments = tournaments
    server.on_close.append(tournaments.store.close)  # before the games' database goes
    tournament_methods = tuple(tournament_pb2.DESCRIPTOR.services_by_name["TournamentService"].methods_by_name)
    server.tournament_servicer = TournamentServicer(tournaments, live_scores=lambda game_id: games.tick(game_id).scores)
    tournament_pb2_grpc.add_TournamentServiceServicer_to_server(
        _Routed(server.tournament_servicer, game_pool, tournament_methods), DecodeGuard(server.grpc_server))


def _tournaments(games, games_store, registry):
    """The tournaments, in the games' database, their rounds' games held by `games`."""
    def rule_set_for(lexicon_name: str):
        with registry.acquire() as snapshot:
            return snapshot.lexicon(lexicon_name).rule_set

    # imported here: the store's module imports the PostgreSQL client (psycopg, ~15 MB), which a server
    # without a postgresql:// database never loads
    from lexicon_service.tournaments.store import tournament_store_for

    return TournamentService(tournament_store_for(games_store), games, rule_set_for=rule_set_for,
                             clock=games.clock)


def _grpc_options(limits: Limits, reuse_port: bool, max_streams_per_connection: int,
                  max_connections: int = MAX_CONNECTIONS) -> list[tuple[str, int]]:
    return [
        ("grpc.max_receive_message_length", limits.max_message_bytes),
        ("grpc.max_send_message_length", max(limits.max_message_bytes, 16 * 1024 * 1024)),
        ("grpc.so_reuseport", 1 if reuse_port else 0),  # without: a busy port fails instead of being shared
        ("grpc.max_concurrent_streams", max_streams_per_connection),
        ("grpc.keepalive_time_ms", KEEPALIVE_TIME_MS),
        ("grpc.keepalive_timeout_ms", KEEPALIVE_TIMEOUT_MS),
        ("grpc.http2.max_pings_without_data", 0),  # keep pinging an idle connection: its peer may be gone
        ("grpc.max_allowed_incoming_connections", max_connections),
        ("grpc.max_connection_idle_ms", CONNECTION_IDLE_MS),
        ("grpc.http2.bdp_probe", 0),  # else the windows grow to 4 MiB a stream over a fast link
        ("grpc.http2.lookahead_bytes", STREAM_WINDOW_BYTES),
    ]


def _add_services(services, registry, limits: Limits, game_sessions, watch_streams: int, *, fast, game_pool,
                  watch_pool, watch_quota: StreamQuota | None = None) -> _HealthServicer:
    """Every service, each method on its pool (the long calls stay on the server's own): the lexicon and
    game services, the game sessions, health and reflection. Returns the health servicer."""
    lexicon_pb2_grpc.add_LexiconServiceServicer_to_server(
        _Routed(LexiconServicer(registry, limits), fast, FAST_METHODS[LEXICON_SERVICE]), services)
    game_pb2_grpc.add_GameServiceServicer_to_server(
        _Routed(GameServicer(registry, limits), fast, FAST_METHODS[GAME_SERVICE]), services)
    watch = _StreamLimit(game_sessions.WatchGame, watch_streams, "WatchGame", watch_quota)
    session = _Routed(_Routed(game_sessions, game_pool, GAME_METHODS), watch_pool, ("WatchGame",),
                      overrides={"WatchGame": watch})
    session_pb2_grpc.add_GameSessionServiceServicer_to_server(session, services)
    health_servicer = _HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, services)
    enable_reflection((*SERVICE_NAMES, health.SERVICE_NAME), services)
    return health_servicer


def _listen(grpc_server, address: str, tls: TlsConfig | None) -> int:
    """The port bound (TLS or plaintext); OSError when it cannot be."""
    try:
        if tls is not None:
            try:
                tls.check()
            except ValueError as exc:
                raise OSError(str(exc)) from None
            port = grpc_server.add_secure_port(address, tls.credentials())
        else:
            port = grpc_server.add_insecure_port(address)
    except RuntimeError as exc:
        raise OSError(f"cannot listen on {address}: {exc}") from exc
    if not port:
        raise OSError(f"cannot listen on {address}")
    return port


def _open_games_store(path, wal_limit: int = WAL_LIMIT):
    """(store, cleanup) for the games database; without a path, a temporary file removed on cleanup."""
    if is_postgres_url(path):
        from lexicon_service.games.pgstore import PostgresStore  # imports psycopg: only when it is used

        return (store := PostgresStore(path)), store.close  # OSError when it cannot be reached or set up
    if path:
        try:
            store = SqliteStore(path, wal_limit=wal_limit)
        except DatabaseDamaged as exc:
            raise OSError(str(exc)) from None
        except sqlite3.Error as exc:
            raise OSError(f"cannot open the games database {path}: {exc}") from None
        return store, store.close
    directory = tempfile.mkdtemp(prefix="lexicon-games-")
    store = SqliteStore(os.path.join(directory, "games.db"), wal_limit=wal_limit)

    def cleanup():
        store.close()
        shutil.rmtree(directory, ignore_errors=True)

    return store, cleanup


def install_signal_handlers(server: LexiconServer, grace: float = 5.0):
    """SIGHUP: reload; SIGTERM/SIGINT: graceful stop. Returns a function restoring the old handlers.

    The handlers only queue the signal (signals.py). A thread acts on the queue, and reloads and
    stops in threads of their own, so a stop never waits for a reload, and a second SIGTERM (the
    supervisor relays one; systemd signals every process of the unit) never runs stop() inside stop()."""
    signals: queue.SimpleQueue[int | None] = queue.SimpleQueue()  # put() is safe in a signal handler

    def act() -> None:
        while (signum := signals.get()) is not None:
            if signum == signal.SIGHUP:
                threading.Thread(target=server.reload, name="lexicon-reload", daemon=True).start()
            else:
                log.info("signal %s: shutting down (grace %.1f s)", signal.Signals(signum).name, grace)
                threading.Thread(target=server.stop, args=(grace,), name="lexicon-stop", daemon=True).start()

    threading.Thread(target=act, name="lexicon-signals", daemon=True).start()
    restore_handlers = queue_signals(signals)

    def restore():
        restore_handlers()
        signals.put(None)

    return restore
