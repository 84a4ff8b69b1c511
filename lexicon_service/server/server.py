"""The gRPC server: `create_server(address, lexicon_dir, ...) -> (server, port)`.

Health checking (grpc.health.v1) reports NOT_SERVING until the lexicons are loaded, SERVING after,
NOT_SERVING again during a graceful shutdown; reflection is on (so grpcurl works without protos).
`server.reload()` (SIGHUP in `lexicon-service serve`) swaps in freshly loaded lexicons atomically.
"""

from __future__ import annotations

import logging
import signal
import threading
from concurrent import futures
from dataclasses import dataclass
from pathlib import Path

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from lexicon_service.grpc_gen import game_pb2, game_pb2_grpc, lexicon_pb2, lexicon_pb2_grpc
from lexicon_service.server.auth import BearerTokenInterceptor
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


class LexiconServer:
    """A grpc.Server plus its lexicons and health state. start/stop/wait_for_termination as grpc.Server."""

    def __init__(self, grpc_server: grpc.Server, registry: LexiconRegistry, health_servicer,
                 port: int, address: str) -> None:
        self.grpc_server = grpc_server
        self.registry = registry
        self.health = health_servicer
        self.port = port
        self.address = address
        self._stopped = threading.Event()
        registry.on_reload(lambda snapshot: self._set_health(SERVING))
        self._set_health(SERVING if registry.ready else NOT_SERVING)

    def _set_health(self, status) -> None:
        if self._stopped.is_set():
            return
        for name in ("", *SERVICE_NAMES):
            self.health.set(name, status)

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
        """Graceful shutdown: health NOT_SERVING, refuse new calls, finish running ones within `grace` s."""
        if not self._stopped.is_set():
            self.health.enter_graceful_shutdown()
            self._stopped.set()
        done = self.grpc_server.stop(grace)

        def close_when_done():
            done.wait()
            self.registry.close()

        threading.Thread(target=close_when_done, name="lexicon-close", daemon=True).start()
        return done

    def wait_for_termination(self, timeout: float | None = None) -> bool:
        return self.grpc_server.wait_for_termination(timeout)

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
    """
    limits = limits or Limits()
    registry = LexiconRegistry(lexicon_dir, loader=loader)
    if load:
        registry.reload()
    interceptors = [BearerTokenInterceptor(tokens)] if tokens else []
    options = [
        ("grpc.max_receive_message_length", limits.max_message_bytes),
        ("grpc.max_send_message_length", max(limits.max_message_bytes, 16 * 1024 * 1024)),
        ("grpc.so_reuseport", 1 if reuse_port else 0),  # without: a busy port fails instead of being shared
    ]
    grpc_server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=workers, thread_name_prefix="lexicon-rpc"),
        interceptors=interceptors,
        options=options,
        maximum_concurrent_rpcs=max_concurrent_rpcs,
    )
    lexicon_pb2_grpc.add_LexiconServiceServicer_to_server(LexiconServicer(registry, limits), grpc_server)
    game_pb2_grpc.add_GameServiceServicer_to_server(GameServicer(registry, limits), grpc_server)
    health_servicer = health.HealthServicer()
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
        registry.close()
        raise OSError(f"cannot listen on {address}: {exc}") from exc
    if not port:
        registry.close()
        raise OSError(f"cannot listen on {address}")
    return LexiconServer(grpc_server, registry, health_servicer, port, address), port


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
