"""`lexicon-service serve`: serve every lexicon in a directory over gRPC.

Flags override environment variables, which override defaults:
  --address      LEXICON_ADDRESS      localhost:50051
  --lexicons     LEXICON_DIR          lexicons
  --workers      LEXICON_WORKERS      8   (threads for the long calls, per process)
  --fast-threads LEXICON_FAST_THREADS 2   (threads for the short calls: CheckWords, ValidateMove, ScoreMove)
  --processes    LEXICON_PROCESSES    CPU count, at most 4 (server processes sharing the port;
                                          each has its own interpreter lock, so they use the cores)
  --token-file   LEXICON_TOKEN_FILE   (or LEXICON_TOKEN: the token itself; comma-separated for several)
  --director-key-file  LEXICON_DIRECTOR_KEY_FILE  off (a file holding the server-wide director key: it
                                          directs every game; /director lists them all; docs/games.md)
  --tls-cert / --tls-key / --tls-client-ca   LEXICON_TLS_CERT / LEXICON_TLS_KEY / LEXICON_TLS_CLIENT_CA
  --http         LEXICON_HTTP         off (host:port: also serve the JSON API and the web pages, same
                                          process(es), tokens and TLS; see lexicon_service/http)
  --http-max-connections  LEXICON_HTTP_MAX_CONNECTIONS  1000 per process (beyond: 503)
  --http-receive-timeout  LEXICON_HTTP_RECEIVE_TIMEOUT  30 s for a request to arrive whole
  --http-write-timeout    LEXICON_HTTP_WRITE_TIMEOUT    30 s a client may take none of its queued answer
  --grpc-max-streams      LEXICON_GRPC_MAX_STREAMS      64 calls open at once on one gRPC connection
  --grpc-max-connections  LEXICON_GRPC_MAX_CONNECTIONS  1000 gRPC connections per process (beyond: closed at once)
  --grpc-unread-mib       LEXICON_GRPC_UNREAD_MIB       24 MiB of gRPC answers not yet taken by their clients, in
                                                        all, shared out among --processes (beyond: those waiting
                                                        longest are ended)
  --grpc-unread-per-connection-mib  LEXICON_GRPC_UNREAD_PER_CONNECTION_MIB  4 MiB on one connection (beyond:
                                                        its next calls get RESOURCE_EXHAUSTED)
  --grpc-unread-timeout   LEXICON_GRPC_UNREAD_TIMEOUT   60 s an answer may wait untaken before its call is ended
  --streams-per-client    LEXICON_STREAMS_PER_CLIENT    8 game streams (WatchGame, events) one client address holds
  --streams-per-game      LEXICON_STREAMS_PER_GAME      16 game streams open on one game
  --stream-idle           LEXICON_STREAM_IDLE           300 s a game stream may deliver no event before it ends
  --http-allowed-hosts    LEXICON_HTTP_ALLOWED_HOSTS    the Host names answered (default: the --http host,
                                                        localhost, 127.0.0.1, [::1]; see docs/service.md)
  --http-cors-origins     LEXICON_HTTP_CORS_ORIGINS     origins whose pages may call the API (default none)
  --db           LEXICON_DB           the SQLite file of server-held games (default: games.db in
                                      $XDG_STATE_HOME/lexicon-service, else ~/.local/state/lexicon-service),
                                      or postgresql://user@host/db: servers on several hosts share
                                      it (pip install 'czpl-lexicon[postgres]'; docs/games.md)
  --max-games    LEXICON_MAX_GAMES    10000 games in progress in that file (ended ones do not count);
                                      beyond, CreateGame gets RESOURCE_EXHAUSTED (HTTP 429)
  --db-wal-limit LEXICON_DB_WAL_LIMIT 64 MiB the games database's write-ahead log may take (checkpointed
                                      and truncated at half of it, and whenever moves pause for 1 s)
SIGHUP reloads the lexicons (atomic swap; a failed reload keeps the old ones); SIGTERM/SIGINT stop
gracefully (running calls get --grace seconds). grpc's C core log is off (GRPC_VERBOSITY=NONE) unless
GRPC_VERBOSITY is set: it logs a line per unparsable header (see docs/service.md).
"""

from __future__ import annotations

import argparse
import logging
import os
import re
import signal
import sys
import time
from dataclasses import dataclass, replace
from functools import partial
import gc
import resource

from lexicon_service.command_line import UserError, seconds
from lexicon_service.commands.serve_processes import (
    MAX_DEFAULT_PROCESSES,
    MAX_PROCESSES,
    default_processes,
    grpc_host_port,
    stop_with_supervisor,
    supervise,
    take_process_count,
    take_stream_counts,
    take_supervisor_files,
)
from lexicon_service.games.store import is_postgres_url
from lexicon_service.games.store import WAL_LIMIT
from lexicon_service.games.watchers import STREAM_IDLE
from lexicon_service.wording import counted

# Imports inside functions: a subcommand's dependencies load when it runs, not when lexicon-service builds
# its parser, which imports every subcommand's module (startup cost: docs/development.md).


GRPC_VERBOSITY_ENV = "GRPC_VERBOSITY"
DB_WAL_LIMIT_MIB = WAL_LIMIT >> 20


def _env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    if not re.fullmatch(r"-?[0-9]+", raw.strip()):  # int() also takes '1_000' and other scripts' digits
        raise UserError(f"environment variable {name}={raw!r} is not a whole number")
    return int(raw)


# What `serve` accepts for its counts, (lowest, highest): a value beyond would start that many threads or
# processes, or make one request take that much memory; grpc takes at most 2**31 - 1 for its byte limits.
BOUNDS = {
    "workers": (1, 1024),
    "fast_threads": (1, 256),
    "processes": (1, MAX_PROCESSES),
    "max_words": (1, 1_000_000),
    "max_results": (1, 100_000),
    "max_message_bytes": (1024, 256 << 20),
    "max_concurrent_rpcs": (1, 1_000_000),
    "max_games": (1, 100_000),  # each create counts them inside the writers' transaction (0.58 ms at 11,000)
    "db_wal_limit": (1, 65_536),  # MiB; at half of it the WAL is checkpointed, so one group commit must fit in half
    "http_max_connections": (1, 100_000),  # each open connection holds a socket and a little memory
    "http_receive_timeout": (1, 3_600),  # seconds
    "http_write_timeout": (1, 3_600),  # seconds
    "grpc_max_streams": (1, 10_000),  # each open stream may hold its answer (~1 MB for 10,000 words)
    "streams_per_client": (1, 10_000),  # a game stream holds a thread; the process has 56 (gRPC) and 64 (HTTP)
    "streams_per_game": (1, 10_000),
    "stream_idle": (1, 86_400),  # seconds
    "grpc_max_connections": (1, 100_000),  # each an open file
    "grpc_unread_mib": (1, 65_536),  # each unread byte is held about twice (ours and grpc's copy)
    "grpc_unread_per_connection_mib": (1, 65_536),
    "grpc_unread_timeout": (1, 3_600),  # seconds
}


def _bounded(name: str, value: int | None, env: str | None = None, default: int | None = None) -> int | None:
    """The option `name`'s value (else the environment variable's, else `default`), within BOUNDS[name]."""
    where = "--" + name.replace("_", "-")
    if value is None and env is not None:
        value = _env_int(env, default)
        if os.environ.get(env):
            where = f"{where} (environment variable {env})"
    if value is None:
        return None
    low, high = BOUNDS[name]
    if not low <= value <= high:
        raise UserError(f"{where} must be at least {low:,} and at most {high:,}, not {value:,}")
    return value


def _add_stream_options(p) -> None:
    """The per-client and per-game bounds on the game streams."""
    p.add_argument("--streams-per-client", type=int, default=None,
                   help="game streams (WatchGame, HTTP events) one client address may hold open at once "
                        "(env LEXICON_STREAMS_PER_CLIENT; default 8; "
                        f"1-{BOUNDS['streams_per_client'][1]:,})")
    p.add_argument("--streams-per-game", type=int, default=None,
                   help="game streams open at once on one game (env LEXICON_STREAMS_PER_GAME; default 16; "
                        f"1-{BOUNDS['streams_per_game'][1]:,})")
    p.add_argument("--stream-idle", type=int, default=None, metavar="SECONDS",
                   help="a game stream that delivered no event for this long ends (gRPC: UNAVAILABLE with "
                        "lexicon-reason WATCH_IDLE; HTTP: an rpc-error event, then the stream closes), freeing its "
                        "slot; watchers resume after the version they saw (env LEXICON_STREAM_IDLE; default "
                        f"{STREAM_IDLE:g}; 1-{BOUNDS['stream_idle'][1]:,})")


def _add_unread_options(p) -> None:
    """The bounds on gRPC answers not yet taken by their clients (server/unread_answers.py)."""
    p.add_argument("--grpc-max-connections", type=int, default=None,
                   help="gRPC connections open at once, per process; beyond, a new one is closed as it comes (env "
                        f"LEXICON_GRPC_MAX_CONNECTIONS; default 1000; 1-{BOUNDS['grpc_max_connections'][1]:,}, and "
                        "within the open-file limit)")
    p.add_argument("--grpc-unread-mib", type=int, default=None, metavar="MIB",
                   help="MiB of gRPC answers not yet taken by their clients, over every connection of the server "
                        "(with --processes N, each process holds 1/N of it); beyond, the calls whose answers waited "
                        "longest are ended (RESOURCE_EXHAUSTED) (env "
                        f"LEXICON_GRPC_UNREAD_MIB; default 24; 1-{BOUNDS['grpc_unread_mib'][1]:,})")
    p.add_argument("--grpc-unread-per-connection-mib", type=int, default=None, metavar="MIB",
                   help="MiB of unread answers on one gRPC connection; beyond, its next calls get RESOURCE_EXHAUSTED "
                        "before any work (env LEXICON_GRPC_UNREAD_PER_CONNECTION_MIB; default 4; "
                        f"1-{BOUNDS['grpc_unread_per_connection_mib'][1]:,})")
    p.add_argument("--grpc-unread-timeout", type=int, default=None, metavar="SECONDS",
                   help="seconds a gRPC answer may wait untaken before its call is ended (RESOURCE_EXHAUSTED) "
                        f"(env LEXICON_GRPC_UNREAD_TIMEOUT; default 60; 1-{BOUNDS['grpc_unread_timeout'][1]:,})")


def _add_director_key_option(p) -> None:
    p.add_argument("--director-key-file", default=None, metavar="FILE",
                   help="a file holding the server-wide director key (one line, at least 16 visible ASCII "
                        "characters): its holder directs every game, and /director lists them all "
                        "(env LEXICON_DIRECTOR_KEY_FILE; default none)")


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "serve", help="serve the lexicons of a directory over gRPC",
        description="Serve every <name>.lex lexicon in a directory over gRPC (LexiconService, GameService, "
        "health, reflection). SIGHUP reloads; SIGTERM stops gracefully.",
    )
    p.add_argument("--address", default=None, help="host:port to listen on (env LEXICON_ADDRESS; default localhost:50051)")
    p.add_argument("--lexicons", default=None, help="directory of *.lex lexicons (env LEXICON_DIR; default lexicons)")
    p.add_argument("--workers", type=int, default=None,
                   help="threads for the long calls: searches, replays, listings (env LEXICON_WORKERS; default 8; "
                        f"1-{BOUNDS['workers'][1]})")
    p.add_argument("--fast-threads", type=int, default=None,
                   help="threads for the short calls: CheckWords, ValidateMove, ScoreMove (env LEXICON_FAST_THREADS; "
                        f"default 2; 1-{BOUNDS['fast_threads'][1]})")
    p.add_argument("--processes", type=int, default=None,
                   help="server processes sharing the port (SO_REUSEPORT; env LEXICON_PROCESSES; "
                        f"default: the CPU count, at most {MAX_DEFAULT_PROCESSES}, here {default_processes()}; "
                        f"1-{BOUNDS['processes'][1]})")
    p.add_argument("--http", default=None,
                   help="also serve the JSON API and the pages /judge, /lookup, /games on host:port, with the same "
                        "tokens and TLS (env LEXICON_HTTP; default off)")
    p.add_argument("--http-max-connections", type=int, default=None,
                   help="HTTP connections open at once, per process; beyond, a request gets 503 "
                        f"(env LEXICON_HTTP_MAX_CONNECTIONS; default 1000; 1-{BOUNDS['http_max_connections'][1]:,})")
    p.add_argument("--http-receive-timeout", type=int, default=None, metavar="SECONDS",
                   help="seconds for an HTTP request (head and body) to arrive whole, else the connection is "
                        "closed (env LEXICON_HTTP_RECEIVE_TIMEOUT; default 30; "
                        f"1-{BOUNDS['http_receive_timeout'][1]:,})")
    p.add_argument("--http-write-timeout", type=int, default=None, metavar="SECONDS",
                   help="seconds an HTTP client may take none of its queued answer, else the connection is "
                        "closed (env LEXICON_HTTP_WRITE_TIMEOUT; default 30; "
                        f"1-{BOUNDS['http_write_timeout'][1]:,})")
    p.add_argument("--grpc-max-streams", type=int, default=None,
                   help="calls open at once on one gRPC connection (HTTP/2 MAX_CONCURRENT_STREAMS; a client "
                        "queues the others) (env LEXICON_GRPC_MAX_STREAMS; default 64; "
                        f"1-{BOUNDS['grpc_max_streams'][1]:,})")
    _add_stream_options(p)
    _add_unread_options(p)
    p.add_argument("--http-allowed-hosts", default=None, metavar="HOSTS",
                   help="comma-separated Host names the HTTP server answers to (*.example.com: its subdomains; *: any); "
                        "another Host gets 400 (env LEXICON_HTTP_ALLOWED_HOSTS; default: the --http host, localhost, "
                        "127.0.0.1 and [::1], and on 0.0.0.0 or [::] also this machine's names and any IP address)")
    p.add_argument("--http-cors-origins", default=None, metavar="ORIGINS",
                   help="comma-separated origins (https://example.com:8443, or *) whose web pages may call the JSON "
                        "API (env LEXICON_HTTP_CORS_ORIGINS; default none: CORS off)")
    p.add_argument("--reuse-port", action="store_true", help=argparse.SUPPRESS)  # set for --processes children
    p.add_argument("--token-file", default=None,
                   help="require 'authorization: Bearer <token>'; file holds one token per line "
                        "(env LEXICON_TOKEN_FILE, or LEXICON_TOKEN with the tokens themselves)")
    _add_director_key_option(p)
    p.add_argument("--tls-cert", default=None, help="PEM certificate chain: serve TLS (env LEXICON_TLS_CERT)")
    p.add_argument("--tls-key", default=None, help="PEM private key (env LEXICON_TLS_KEY)")
    p.add_argument("--tls-client-ca", default=None, help="PEM CA: require client certificates (env LEXICON_TLS_CLIENT_CA)")
    p.add_argument("--max-words", type=int, default=None,
                   help=f"CheckWords words per request (default 10000; 1-{BOUNDS['max_words'][1]:,})")
    p.add_argument("--max-results", type=int, default=None,
                   help=f"FindWords results and GenerateMoves moves per request (default 1000; 1-{BOUNDS['max_results'][1]:,})")
    p.add_argument("--max-message-bytes", type=int, default=None,
                   help="largest request accepted (default 4 MiB; "
                        f"{BOUNDS['max_message_bytes'][0]:,}-{BOUNDS['max_message_bytes'][1]:,})")
    p.add_argument("--max-concurrent-rpcs", type=int, default=None,
                   help="beyond this many calls in progress, new ones get RESOURCE_EXHAUSTED (default: no limit; "
                        f"1-{BOUNDS['max_concurrent_rpcs'][1]:,})")
    p.add_argument("--db", default=None,
                   help="SQLite file of the server-held games, shared by every process, or a postgresql:// URL "
                        "shared by servers on several hosts (needs the [postgres] extra) (env LEXICON_DB; default "
                        "$XDG_STATE_HOME/lexicon-service/games.db)")
    p.add_argument("--max-games", type=int, default=None,
                   help="games in progress (not ended) the games database may hold, for all processes; beyond, "
                        "CreateGame gets RESOURCE_EXHAUSTED (env LEXICON_MAX_GAMES; default 10000; "
                        f"1-{BOUNDS['max_games'][1]:,})")
    p.add_argument("--db-wal-limit", type=int, default=None, metavar="MIB",
                   help="MiB the games database's write-ahead log may take; it is checkpointed and truncated at half "
                        "of it and whenever moves pause (env LEXICON_DB_WAL_LIMIT; default "
                        f"{DB_WAL_LIMIT_MIB}; 1-{BOUNDS['db_wal_limit'][1]:,})")
    p.add_argument("--grace", type=partial(seconds, zero_ok=True), default=5.0,
                   help="seconds running calls get on shutdown (default 5)")
    p.add_argument("--log-level", default=os.environ.get("LEXICON_LOG_LEVEL", "INFO"),
                   choices=["DEBUG", "INFO", "WARNING", "ERROR"])
    p.set_defaults(func=run)


def _tokens(args) -> list[str]:
    path = args.token_file or os.environ.get("LEXICON_TOKEN_FILE")
    if path:
        try:
            with open(path, "rb") as fh:
                data = fh.read(MAX_TOKEN_FILE_BYTES + 1)
        except OSError as exc:
            raise UserError(f"cannot read token file {path}: {exc.strerror}") from None
        if len(data) > MAX_TOKEN_FILE_BYTES:
            raise UserError(f"token file {path} is larger than {MAX_TOKEN_FILE_BYTES} bytes; it holds tokens, "
                            "one a line")
        try:
            text = data.decode("utf-8-sig")  # a byte-order mark is not part of the first token
        except UnicodeDecodeError:
            raise UserError(f"token file {path} is not UTF-8 text (one token a line)") from None
        tokens = []
        for number, line in enumerate(text.splitlines(), 1):
            token = line.strip()
            if not token or token.startswith("#"):
                continue
            _check_token(token, f"token file {path} line {number}")
            tokens.append(token)
        if not tokens:
            raise UserError(f"token file {path} holds no token")
        return tokens
    raw = os.environ.get("LEXICON_TOKEN", "")
    tokens = [t.strip() for t in raw.split(",") if t.strip()]
    for token in tokens:
        _check_token(token, "LEXICON_TOKEN")
    return tokens


MAX_TOKEN_FILE_BYTES = 1 << 20
MIN_DIRECTOR_KEY = 16


def _director_key(args, log) -> str | None:
    """The server-wide director key, from the file --director-key-file (or LEXICON_DIRECTOR_KEY_FILE) names:
    its first line that is not empty or a #comment. Never from the command line itself, where other users
    of the machine may read it; the key is never logged."""
    where = _option_or_env(args, "director_key_file", "LEXICON_DIRECTOR_KEY_FILE")
    path = args.director_key_file
    if not path:
        return None
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_TOKEN_FILE_BYTES + 1)
            mode = os.fstat(fh.fileno()).st_mode
    except OSError as exc:
        raise UserError(f"{where}: cannot read {path}: {exc.strerror}") from None
    try:
        lines = data[:MAX_TOKEN_FILE_BYTES].decode("utf-8-sig").splitlines()
    except UnicodeDecodeError:
        raise UserError(f"{where}: {path} is not UTF-8 text (the key on one line)") from None
    key = next((line.strip() for line in lines if line.strip() and not line.strip().startswith("#")), "")
    if len(key) < MIN_DIRECTOR_KEY:
        raise UserError(f"{where}: {path} holds no key of at least {MIN_DIRECTOR_KEY} characters (make one with "
                        "python3 -c 'import secrets; print(secrets.token_urlsafe(24))')")
    _check_token(key, f"{where} {path}")
    if mode & 0o077:
        log.warning("%s: %s may be read by other users of this machine (chmod 600 it)", where, path)
    return key


def _check_token(token: str, where: str) -> None:
    """A token travels in an HTTP header: visible ASCII only, or no client could ever send it."""
    if not all("!" <= c <= "~" for c in token):
        raise UserError(f"{where}: a token must be visible ASCII characters without spaces")


def quiet_grpc_core() -> None:
    """Silence grpc's C core log unless the operator chose its verbosity: it writes one unthrottled
    line for each header it cannot parse (`Error parsing 'te' metadata`), which any client can
    repeat. GRPC_VERBOSITY is grpc's only knob for it (read when grpc starts, so set here, before
    any server or channel; inherited by the --processes children); see docs/service.md."""
    os.environ.setdefault(GRPC_VERBOSITY_ENV, "NONE")


@dataclass(frozen=True)
class _HttpSettings:
    """The HTTP server's address and the lists it checks requests against."""
    address: str
    allowed_hosts: object  # http.security.HostAllowList
    cors_origins: tuple


@dataclass(frozen=True)
class _Settings:
    """What `serve` runs with: its options, else their environment variables, else the defaults."""
    address: str
    directory: str
    workers: int
    fast_threads: int
    processes: int
    limits: object  # server.Limits
    tokens: list[str]
    tls: object | None  # server.TlsConfig
    http: _HttpSettings | None
    director_key: str | None = None  # the server-wide director key (never logged)


def run(args) -> int:
    quiet_grpc_core()
    logging.basicConfig(level=args.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s",
                        stream=sys.stderr)
    log = logging.getLogger("lexicon_service.serve")
    started = time.perf_counter()
    address = args.address or os.environ.get("LEXICON_ADDRESS") or "localhost:50051"
    if not address.startswith("unix:"):
        grpc_host_port(address)  # "127.0.0.1" alone is an error, not grpc's default port
    stop_with_supervisor()
    shared_files = take_supervisor_files()
    args.stream_counts = take_stream_counts()  # (gRPC, HTTP) shared with the supervisor's other children, or None
    args.sharing_processes = take_process_count()  # the supervisor's children (1: not supervised)
    settings = _settings(args, address, log)
    claim = None if args.reuse_port else _claim_ports(settings)  # a supervised child: its supervisor holds it
    try:
        if settings.processes > 1:
            return supervise(args, address, settings.directory, settings.workers, settings.fast_threads,
                             settings.processes, settings.http and settings.http.address)
        return _serve(args, settings, shared_files, log, started)
    finally:
        if claim is not None:
            claim.close()


def _claim_ports(settings: _Settings):
    """The exclusive claim on the gRPC and HTTP ports (server/address_claim.py), held while this process
    serves or supervises: a second `serve` on them is refused before it loads anything."""
    from lexicon_service.http.server import split_address
    from lexicon_service.server.address_claim import PortInUse, claim_ports

    ports = []
    if not settings.address.startswith("unix:"):
        ports.append(("gRPC", *grpc_host_port(settings.address)))
    if settings.http is not None:
        ports.append(("HTTP", *split_address(settings.http.address)))
    try:
        return claim_ports(ports)
    except PortInUse as exc:
        raise UserError(exc.strerror) from None


def _settings(args, address: str, log) -> _Settings:
    """Every option checked before anything is loaded or listens; the counts and the games database are
    also set back on args, whence supervise passes them to the children."""
    http_flags = [f"--{flag.replace('_', '-')}" for flag in ("http_max_connections", "http_receive_timeout",
                                                             "http_write_timeout", "http_allowed_hosts",
                                                             "http_cors_origins")
                  if getattr(args, flag) is not None]
    directory = args.lexicons or os.environ.get("LEXICON_DIR") or "lexicons"
    workers, fast_threads, processes = _bounded_counts(args)
    # as the counts: an environment variable without --http is no error (it may be set for several commands)
    http_lists = {flag: _option_or_env(args, flag, env) for flag, env in (
        ("http_allowed_hosts", "LEXICON_HTTP_ALLOWED_HOSTS"), ("http_cors_origins", "LEXICON_HTTP_CORS_ORIGINS"))}
    if not os.path.isdir(directory):
        raise UserError(f"lexicon directory {directory!r} does not exist (build the lexicons: make lexicons)")
    tls = _tls(args)
    limits = _limits(args)
    tokens = _tokens(args)
    args.db = _games_db(args.db)
    http_address = args.http or os.environ.get("LEXICON_HTTP") or None
    if http_flags and not http_address:
        raise UserError(f"{' and '.join(http_flags)} {'need' if len(http_flags) > 1 else 'needs'} --http (or "
                        "LEXICON_HTTP): there is no HTTP server to set")
    http = _http_settings(args, http_address, http_lists, log) if http_address else None
    return _Settings(address, directory, workers, fast_threads, processes, limits, tokens, tls, http,
                     _director_key(args, log))


def _bounded_counts(args) -> tuple[int, int, int]:
    """(workers, fast threads, processes); the other counts are checked against BOUNDS and set on args."""
    from lexicon_service.games.sessions import MAX_GAMES

    workers = _bounded("workers", args.workers, "LEXICON_WORKERS", 8)
    fast_threads = _bounded("fast_threads", args.fast_threads, "LEXICON_FAST_THREADS", 2)
    processes = _bounded("processes", args.processes, "LEXICON_PROCESSES", default_processes())
    args.max_games = _bounded("max_games", args.max_games, "LEXICON_MAX_GAMES", MAX_GAMES)
    args.db_wal_limit = _bounded("db_wal_limit", args.db_wal_limit, "LEXICON_DB_WAL_LIMIT", DB_WAL_LIMIT_MIB)
    # None: the HTTP server's own defaults (lexicon_service/http/server.py)
    args.http_max_connections = _bounded("http_max_connections", args.http_max_connections,
                                         "LEXICON_HTTP_MAX_CONNECTIONS")
    args.http_receive_timeout = _bounded("http_receive_timeout", args.http_receive_timeout,
                                         "LEXICON_HTTP_RECEIVE_TIMEOUT")
    args.http_write_timeout = _bounded("http_write_timeout", args.http_write_timeout, "LEXICON_HTTP_WRITE_TIMEOUT")
    args.grpc_max_streams = _bounded("grpc_max_streams", args.grpc_max_streams, "LEXICON_GRPC_MAX_STREAMS")
    args.streams_per_client = _bounded("streams_per_client", args.streams_per_client, "LEXICON_STREAMS_PER_CLIENT")
    args.streams_per_game = _bounded("streams_per_game", args.streams_per_game, "LEXICON_STREAMS_PER_GAME")
    args.stream_idle = _bounded("stream_idle", args.stream_idle, "LEXICON_STREAM_IDLE")
    for flag in ("grpc_max_connections", "grpc_unread_mib", "grpc_unread_per_connection_mib", "grpc_unread_timeout"):
        setattr(args, flag, _bounded(flag, getattr(args, flag), "LEXICON_" + flag.upper()))
    for flag in ("max_words", "max_results", "max_message_bytes", "max_concurrent_rpcs"):
        _bounded(flag, getattr(args, flag))
    return workers, fast_threads, processes


def _tls(args):
    """The TLS files (options, else environment variables), checked; None: plaintext."""
    from lexicon_service.server import TlsConfig

    cert = args.tls_cert or os.environ.get("LEXICON_TLS_CERT")
    key = args.tls_key or os.environ.get("LEXICON_TLS_KEY")
    client_ca = args.tls_client_ca or os.environ.get("LEXICON_TLS_CLIENT_CA")
    if bool(cert) != bool(key):
        raise UserError("TLS needs both --tls-cert and --tls-key")
    if client_ca and not cert:
        raise UserError("--tls-client-ca needs --tls-cert and --tls-key")
    if not cert:
        return None
    tls = TlsConfig(cert, key, client_ca)
    try:
        tls.check()
    except ValueError as exc:
        raise UserError(str(exc)) from None
    return tls


def _limits(args):
    """The per-request limits: the defaults, save those given as options."""
    from lexicon_service.server import Limits

    given = {flag: getattr(args, flag) for flag in ("max_words", "max_results", "max_message_bytes")
             if getattr(args, flag) is not None}
    return replace(Limits(), **given)


def _http_settings(args, http_address: str, http_lists: dict[str, str], log) -> _HttpSettings:
    """The HTTP server's address and lists, parsed (http_lists: where each list came from, for messages);
    its connection cap is fitted to the open-file limit on args."""
    from lexicon_service.http.security import HostAllowList, parse_origins
    from lexicon_service.http.server import split_address

    args.http_max_connections = _within_open_files(args.http_max_connections, log)
    try:
        http_host = split_address(http_address)[0]
    except ValueError as exc:
        raise UserError(str(exc)) from None
    parsed = {}
    for flag, parse in (("http_allowed_hosts", HostAllowList.parse), ("http_cors_origins", parse_origins)):
        if getattr(args, flag) is not None:
            try:
                parsed[flag] = parse(getattr(args, flag))
            except ValueError as exc:
                raise UserError(f"{http_lists[flag]}: {exc}") from None
    allowed_hosts = parsed.get("http_allowed_hosts") or HostAllowList.for_address(http_host)
    return _HttpSettings(http_address, allowed_hosts, parsed.get("http_cors_origins", ()))


def _serve(args, settings: _Settings, shared_files, log, started: float) -> int:
    """One server process: listen, load, serve HTTP too if asked, until stopped."""
    from lexicon_service.server import install_signal_handlers
    from lexicon_service.server.memory import release_freed_memory
    from lexicon_service.core.registry import ReloadError

    # Alone, the server listens at once and answers NOT_SERVING while it loads. A process sharing
    # the port (--reuse-port) loads first, so the kernel never gives it a connection it cannot serve.
    load_first = args.reuse_port
    server, port = _create_server(args, settings, shared_files, load_first)
    server.start()
    restore = install_signal_handlers(server, grace=args.grace)
    http = None
    try:
        try:
            snapshot = server.registry.current() if load_first else server.load()
        except ReloadError as exc:
            server.stop(0).wait()
            hint = " (build the default ones: make lexicons)" if "no *.lex" in str(exc) else ""
            raise UserError(f"cannot load lexicons: {exc}{hint}") from None
        _tune_gc()
        release_freed_memory()
        host = settings.address.rsplit(":", 1)[0]
        log.info("serving %s on %s:%d (%s, %d workers, %d fast threads%s) after %.2f s",
                 ", ".join(snapshot.names()), host, port, "TLS" if settings.tls else "plaintext", settings.workers,
                 settings.fast_threads, (", bearer tokens required" if settings.tokens else "")
                 + (", a director key set" if settings.director_key else ""),
                 time.perf_counter() - started)
        if settings.http is not None:
            http = _start_http(server, settings.http.address, settings.limits, settings.tokens, settings.tls,
                               settings.workers, settings.fast_threads, args.reuse_port, args.http_max_connections,
                               args.http_receive_timeout, args.http_write_timeout, settings.http.allowed_hosts,
                               settings.http.cors_origins, _stream_bounds(args),
                               args.stream_counts and args.stream_counts[1])
            server.on_stop.append(http.stop)  # before the game store closes: its event streams end cleanly
        print(f"lexicon-service: serving {counted(len(snapshot.names()), 'lexicon')} on {host}:{port}", flush=True)
        if http is not None and not args.reuse_port:
            print(f"lexicon-service: HTTP on {http.url}; word judge at {http.url}/judge", flush=True)
        server.wait_for_termination()
    finally:
        if http is not None:
            http.stop()
        restore()
        if args.reuse_port:  # a supervised child, stopped: a stop signal sent twice must not kill it now
            for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
                signal.signal(signum, signal.SIG_IGN)
    return 0


def _stream_bounds(args) -> dict[str, int]:
    """create_server's streams_per_client / streams_per_game, of those given."""
    return {name: value for name, value in (("streams_per_client", args.streams_per_client),
                                            ("streams_per_game", args.streams_per_game)) if value is not None}


def _unread_answers(args, processes: int = 1):
    """The bounds on unread gRPC answers, the defaults where no option gave one. The total is the server's:
    each of the supervisor's `processes` children holds its share (before, each held the whole total, and
    `--processes N` N times it: docs/measurements.md, "Clients that do not read")."""
    from lexicon_service.server.unread_answers import (UNREAD_BYTES, UNREAD_BYTES_PER_CONNECTION, UNREAD_SECONDS,
                                                       UnreadAnswers)

    def mib(value: int | None, default: int) -> int:
        return default if value is None else value << 20

    return UnreadAnswers(max(1, mib(args.grpc_unread_mib, UNREAD_BYTES) // processes),
                         mib(args.grpc_unread_per_connection_mib, UNREAD_BYTES_PER_CONNECTION),
                         UNREAD_SECONDS if args.grpc_unread_timeout is None else float(args.grpc_unread_timeout))


def _create_server(args, settings: _Settings, shared_files, load: bool):
    """The gRPC server, bound but not started: (server, port)."""
    from lexicon_service.server import create_server
    from lexicon_service.core.registry import ReloadError

    streams = {} if args.grpc_max_streams is None else {"max_streams_per_connection": args.grpc_max_streams}
    streams.update(_stream_bounds(args))
    if args.stream_idle is not None:
        streams["stream_idle"] = float(args.stream_idle)
    if args.stream_counts is not None:
        streams["stream_counts"] = args.stream_counts[0]
    streams["unread_answers"] = _unread_answers(args, args.sharing_processes)
    grpc_connections = _within_open_files(args.grpc_max_connections, logging.getLogger("lexicon_service.serve"),
                                          "--grpc-max-connections", "gRPC")
    if grpc_connections is not None:
        streams["max_connections"] = grpc_connections
    try:
        return create_server(settings.address, settings.directory, workers=settings.workers,
                             fast_threads=settings.fast_threads, limits=settings.limits, tokens=settings.tokens,
                             tls=settings.tls, load=load, max_concurrent_rpcs=args.max_concurrent_rpcs,
                             reuse_port=args.reuse_port, games_db=args.db, max_games=args.max_games,
                             db_wal_limit=args.db_wal_limit << 20, shared_files=shared_files,
                             director_key=settings.director_key, **streams)
    except OSError as exc:
        raise UserError(str(exc)) from None
    except ReloadError as exc:
        raise UserError(f"cannot load lexicons: {exc}") from None


def _option_or_env(args, flag: str, env: str) -> str:
    """Sets args.<flag> to the option's value, else the environment variable's (None: neither); returns
    where it came from, for messages."""
    where = "--" + flag.replace("_", "-")
    if getattr(args, flag) is None and os.environ.get(env):
        setattr(args, flag, os.environ[env])
        where = f"{where} (environment variable {env})"
    return where


def _within_open_files(connections: int | None, log, flag: str = "--http-max-connections",
                       what: str = "HTTP") -> int | None:
    """Each connection (HTTP, or gRPC with `what` "gRPC") is an open file: a cap the process's open-file limit
    cannot hold would end in accept() failing, not in the refusals the cap promises. A cap given beyond it
    is an error; the default cap is lowered to it (with a warning)."""
    try:
        soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    except (ImportError, OSError, ValueError):
        return connections
    if soft == resource.RLIM_INFINITY:
        return connections
    room = max(soft - 100, 1)  # lexicons, the games database, gRPC's sockets and pipes
    if connections is not None:
        if connections > room:
            raise UserError(f"{flag} {connections:,} needs more open files than this process may "
                            f"have (ulimit -n is {soft:,}; at most {room:,} connections, or raise the limit)")
        return connections
    if what == "gRPC":
        from lexicon_service.server.server import MAX_CONNECTIONS
    else:
        from lexicon_service.http.server import MAX_CONNECTIONS

    if MAX_CONNECTIONS > room:
        log.warning("%s connections capped at %d, not %d: ulimit -n is %d", what, room, MAX_CONNECTIONS, soft)
        return room
    return None


def _start_http(server, address: str, limits, tokens, tls, workers: int, fast_threads: int, reuse_port: bool,
                max_connections: int | None = None, receive_timeout: int | None = None,
                write_timeout: int | None = None, allowed_hosts=None, cors_origins=(), stream_bounds=None,
                stream_counts=None):
    """The JSON API and pages (lexicon_service/http), served by this process from the gRPC server's registry;
    `stream_counts`: its event streams' counts shared with the supervisor's other children (or None)."""
    from lexicon_service.http import HttpServer, create_app
    from lexicon_service.server.stream_quota import StreamQuota

    bounds = {name.removeprefix("streams_"): value for name, value in (stream_bounds or {}).items()}
    app = create_app(server.registry, limits=limits, tokens=tokens, workers=workers, fast_threads=fast_threads,
                     servicers={"session": server.game_sessions, "tournament": server.tournament_servicer},
                     allowed_hosts=allowed_hosts, stream_quota=StreamQuota(**bounds, shared=stream_counts),
                     cors_origins=cors_origins, service_health=server.health_status)
    try:
        given = {name: value for name, value in (("max_connections", max_connections),
                                                 ("receive_timeout", receive_timeout),
                                                 ("write_timeout", write_timeout)) if value is not None}
        return HttpServer(app, address, tls=tls, reuse_port=reuse_port, **given).start()
    except (OSError, ValueError) as exc:
        server.stop(0).wait()
        raise UserError(str(exc)) from None


def _games_db(path: str | None) -> str:
    """The games database: --db, else LEXICON_DB, else games.db in the user's state directory."""
    path = path or os.environ.get("LEXICON_DB")
    if not path:
        state = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
        path = os.path.join(state, "lexicon-service", "games.db")
    if is_postgres_url(path):
        return path
    parent = os.path.dirname(os.path.abspath(path))
    try:
        os.makedirs(parent, exist_ok=True)
    except OSError as exc:
        raise UserError(f"cannot create the directory of the games database {path}: {exc.strerror}") from None
    return path


def _tune_gc() -> None:
    """Keep the cyclic garbage collector's scans short: objects alive after loading (rule sets, tile
    sets, modules) are frozen out of them. Its thresholds stay Python's: a refused call may leave a
    reference cycle holding the call and its HTTP/2 stream, and with young collections 70 times rarer
    (50,000 allocations) 64 of them blocked a connection (REFUSED_STREAM) before a collection ran."""
    if os.environ.get("LEXICON_GC_TUNING", "1") == "0":
        return

    gc.collect()
    gc.freeze()
