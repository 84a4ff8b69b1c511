"""`serve --processes N`: the supervisor that runs N server processes on one port, and what a server
process takes from its supervisor (the sealed copies of the lexicons' files, the tries it walked, its
pid to stop with it). The server itself: commands/serve.py.
"""

from __future__ import annotations

import os
import signal
import socket
import sys
import ctypes

from lexicon_service.command_line import UserError

# Imports inside functions: a subcommand's dependencies load when it runs, not when lexicon-service builds
# its parser, which imports every subcommand's module (startup cost: docs/development.md).


def take_supervisor_files():
    """In a supervised child: the tries its supervisor checked, and the supervisor's sealed copies of the
    lexicons' files (taken out of the environment: a child never passes them on); else None."""
    from lexicon_service.lexicon_copies import SharedFiles

    checked = os.environ.pop(CHECKED_TRIES_ENV, None)
    if os.environ.get(SHARED_FILES_ENV):
        return SharedFiles.from_environment(os.environ.pop(SHARED_FILES_ENV), checked)
    return None


def take_stream_counts():
    """In a supervised child: the (gRPC, HTTP) stream counts its supervisor shares among its children
    (server/shared_counts.py), this child's slot claimed (what a killed predecessor held released); else
    None. Taken out of the environment: a child never passes them on."""
    from lexicon_service.server.shared_counts import SharedCounts

    path, index = os.environ.pop(STREAM_COUNTS_ENV, ""), os.environ.pop(PROCESS_INDEX_ENV, "")
    try:
        counts = tuple(SharedCounts.inherited(path, int(index), scope) for scope in ("grpc", "http"))
    except (ValueError, OSError):  # not set (not supervised), or not what a supervisor sets: counted here
        return None
    for table in counts:
        table.claim_column()
    return counts


def take_process_count() -> int:
    """In a supervised child: how many server processes its supervisor runs (a bound of the server that each
    process keeps alone is shared out among them); else 1. Taken out of the environment."""
    count = os.environ.pop(PROCESS_COUNT_ENV, "")
    return int(count) if count.isascii() and count.isdecimal() and 1 <= int(count) <= MAX_PROCESSES else 1


def grpc_host_port(address: str) -> tuple[str, int]:
    host, sep, port = address.rpartition(":")
    if not sep or not host or host.endswith(":") or not (port.isascii() and port.isdecimal()) \
            or int(port) > 65535:
        raise UserError(f"--address {address!r} must be host:port, the port 0-65535 (0: serve picks a free one)")
    return host, int(port)


MAX_DEFAULT_PROCESSES = 4
MAX_PROCESSES = 64  # --processes
CHECKED_TRIES_ENV = "LEXICON_CHECKED_TRIES"  # set by the supervisor for its children (sha256 list)
SHARED_FILES_ENV = "LEXICON_SHARED_FILES"  # set by the supervisor for its children (SharedFiles.environment)
SUPERVISOR_PID_ENV = "LEXICON_SUPERVISOR_PID"  # set by the supervisor for its children
STREAM_COUNTS_ENV = "LEXICON_STREAM_COUNTS"  # set by the supervisor: the shared counts' database
PROCESS_INDEX_ENV = "LEXICON_PROCESS_INDEX"  # set by the supervisor for each child: its slot
PROCESS_COUNT_ENV = "LEXICON_PROCESS_COUNT"  # set by the supervisor: how many children it runs


def stop_with_supervisor() -> None:
    """A supervised child gets SIGTERM when its supervisor dies, even by SIGKILL (Linux), instead of
    serving on as an orphan nobody restarts or stops."""
    supervisor = os.environ.get(SUPERVISOR_PID_ENV)
    if not supervisor or not sys.platform.startswith("linux"):
        return

    pr_set_pdeathsig = 1
    try:
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGTERM, 0, 0, 0)
    except (OSError, AttributeError):
        return
    if str(os.getppid()) != supervisor:  # it died before prctl took effect
        os.kill(os.getpid(), signal.SIGTERM)


# A child runs this, not `python -m lexicon_service`: -m (and -c) put the working directory first on
# sys.path, so run from a source checkout a child imported its uncompiled package (no C core) instead of
# the installed one. Here sys.path[0] is the directory this process imported lexicon_service from.
_CHILD_MAIN = "import sys; sys.path[0] = sys.argv.pop(1); from lexicon_service.cli import main; sys.exit(main())"


def child_command() -> list[str]:
    """The command line starting a supervised child, importing the lexicon_service package this process
    runs whatever the working directory holds."""
    import lexicon_service

    package_root = os.path.dirname(os.path.dirname(os.path.abspath(lexicon_service.__file__)))
    return [sys.executable, "-c", _CHILD_MAIN, package_root]


def default_processes() -> int:
    """One server process per core, at most 4: a Python process answers on one core at a time (the
    interpreter lock); measured on 2 cores in docs/service.md."""
    return max(1, min(os.cpu_count() or 1, MAX_DEFAULT_PROCESSES))


def _children_environment(directory: str):
    """(the children's environment, the sealed copies of the lexicons' files, the shared counts' database):
    what every child takes from its supervisor."""
    from lexicon_service.core.registry import release_freed_memory
    from lexicon_service.lexicon_copies import SharedFiles
    from lexicon_service.server.shared_counts import CountsDatabase

    env = dict(os.environ, **{SUPERVISOR_PID_ENV: str(os.getpid())})
    shared = SharedFiles.read_directory(directory)
    release_freed_memory()  # the files and layouts it read, now only in the sealed copies
    env[SHARED_FILES_ENV] = shared.environment()
    env[CHECKED_TRIES_ENV] = ",".join(shared.check_structure())
    counts = CountsDatabase.create()
    env[STREAM_COUNTS_ENV] = counts.path  # streams and computer-only games bounded across the children
    return env, shared, counts


# The serve options every child is given as its supervisor got them (the others it sets itself).
CHILD_FLAGS = ("token_file", "director_key_file", "tls_cert", "tls_key", "tls_client_ca", "max_words", "max_results",
               "max_message_bytes", "max_concurrent_rpcs", "db", "max_games", "db_wal_limit", "grpc_max_streams",
               "grpc_max_connections", "grpc_unread_mib", "grpc_unread_per_connection_mib", "grpc_unread_timeout",
               "streams_per_client", "streams_per_game", "stream_idle")
CHILD_HTTP_FLAGS = ("http_max_connections", "http_receive_timeout", "http_write_timeout", "http_allowed_hosts",
                    "http_cors_origins")


def supervise(args, address: str, directory: str, workers: int, fast_threads: int, processes: int,
               http_address: str | None = None) -> int:
    """Run `processes` servers on one port (SO_REUSEPORT), restarting any that dies
    (lexicon_service/server/supervisor.py)."""
    from lexicon_service.server.supervisor import Supervisor

    host, port = grpc_host_port(address)
    reserve = None
    if port == 0:  # pick one free port for all children; hold it (with SO_REUSEPORT) until they bind
        bind_host = host.strip("[]") or "0.0.0.0"
        family = socket.AF_INET6 if ":" in bind_host else socket.AF_INET
        reserve = socket.socket(family, socket.SOCK_STREAM)
        reserve.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        try:
            reserve.bind(("127.0.0.1" if bind_host == "localhost" else bind_host, 0))
        except OSError as exc:
            reserve.close()
            raise UserError(f"cannot listen on {address}: {exc.strerror}") from None
        port = reserve.getsockname()[1]
    child_address = f"{host}:{port}"
    http_reserve = None
    if http_address:  # every child serves HTTP too, on one port (SO_REUSEPORT), as gRPC
        from lexicon_service.http.server import bind_socket, split_address

        http_host = split_address(http_address)[0]
        try:
            http_reserve = bind_socket(http_address, reuse_port=True)  # holds a port 0 choice until they bind
        except (OSError, ValueError) as exc:
            raise UserError(str(exc)) from None
        http_address = f"{http_host}:{http_reserve.getsockname()[1]}"
    argv = [*child_command(), "serve", "--address", child_address, "--lexicons", directory,
            "--workers", str(workers), "--fast-threads", str(fast_threads), "--processes", "1", "--reuse-port",
            "--grace", str(args.grace), "--log-level", args.log_level]
    flags = list(CHILD_FLAGS)
    if http_address:  # (the HTTP options may come from environment variables, set without --http)
        argv += ["--http", http_address]
        flags += CHILD_HTTP_FLAGS
    for flag in flags:
        value = getattr(args, flag)
        if value is not None:
            argv += [f"--{flag.replace('_', '-')}", str(value)]
    # The lexicons' files are read (and checked against their manifests) once here, into sealed
    # in-memory copies every (re)started child maps instead of copying them again: one copy's pages
    # for all. The tries' structure is checked once here too, not again by every child.
    env, shared, counts = _children_environment(directory)
    env[PROCESS_COUNT_ENV] = str(processes)
    supervisor = Supervisor(argv, processes, env=env, pass_fds=shared.fds(), slot_env=PROCESS_INDEX_ENV)
    restore = supervisor.install_signal_handlers()
    try:
        started = supervisor.start()
        if reserve is not None:
            reserve.close()
        if http_reserve is not None:
            http_reserve.close()
        if not started:
            if supervisor.stopped_by_signal:
                return 0
            raise UserError("a server process failed to start (see its messages above)")
        first = supervisor.slots[0].first_line.strip().split(" on ")[0]
        print(f"{first} on {child_address} ({processes} processes)", flush=True)
        if http_address:
            scheme = "https" if args.tls_cert or os.environ.get("LEXICON_TLS_CERT") else "http"
            print(f"lexicon-service: HTTP on {scheme}://{http_address}; word judge at {scheme}://{http_address}/judge",
                  flush=True)
        return supervisor.run()
    finally:
        restore()
        shared.close()
        counts.remove()
