"""Suite-wide settings, and the served lexicons most tests share: `lexicon_dir` (built once a session),
`server` (a gRPC server on it, one per test module), `channel`, `lex` and `game` (its stubs)."""

import contextlib
import os
import subprocess

import grpc
import pytest

from lexicon_helpers import WORDS, write_lexicon

# grpc's at-fork handlers stop and restart its core threads around every fork; a build's worker
# forked in this process (which runs gRPC servers) can then hang inside fork() before any Python
# code runs. The tests' forked workers never use gRPC, so they need none of it.
os.environ.setdefault("GRPC_ENABLE_FORK_SUPPORT", "0")


def pytest_configure(config):
    # A build with --workers run in the test process forks only when no other thread runs (a forked
    # worker can block forever on a lock another thread held): a test that leaves a server, channel
    # or executor running into a later build fails that build instead of making it a 1-in-N hang.
    config.addinivalue_line("filterwarnings", "error::build_tools.parallel.ForkWithThreadsWarning")


@pytest.fixture(autouse=True, scope="session")
def _games_database_in_a_temporary_place(tmp_path_factory):
    """`serve` without --db keeps games in the user's state directory; servers the tests start (and their
    child processes, which inherit the environment) use a temporary file instead."""
    if "LEXICON_DB" not in os.environ:
        os.environ["LEXICON_DB"] = str(tmp_path_factory.mktemp("games") / "games.db")
    yield


@pytest.fixture(scope="session")
def postgres_server():
    """One PostgreSQL server for the whole session (deploy/local_postgres.py); skipped, with the reason
    in the summary, where PostgreSQL or psycopg is not installed."""
    from deploy.local_postgres import SKIP_REASON, PostgresServer, postgres_bin

    bin_dir = postgres_bin()
    if bin_dir is None:
        pytest.skip(SKIP_REASON)
    pytest.importorskip("psycopg", reason="psycopg is not installed (pip install -e '.[postgres]')")
    server = PostgresServer(bin_dir)
    yield server
    server.destroy()


@pytest.fixture
def postgres_url(postgres_server):
    """A URL whose tables live in a schema of this test's own."""
    return postgres_server.fresh_url()


@pytest.fixture(params=["sqlite", "postgres"])
def store_kind(request):
    return request.param


@pytest.fixture
def make_store(store_kind, tmp_path, request):
    """make_store(name="games"): a game store of the parametrised kind; stores made with one name share
    their games (one SQLite file, one PostgreSQL schema), as servers sharing a database do. Closed after."""
    made, urls = [], {}

    def make(name="games"):
        if store_kind == "sqlite":
            from lexicon_service.games.store import SqliteStore

            store = SqliteStore(tmp_path / f"{name}.db", synchronous="OFF")
        else:
            from lexicon_service.games.pgstore import PostgresStore

            if name not in urls:
                urls[name] = request.getfixturevalue("postgres_server").fresh_url()
            store = PostgresStore(urls[name])
        made.append(store)
        return store

    yield make
    for store in made:
        with contextlib.suppress(OSError):  # a test may have closed it (a restart)
            store.close()


# --- the served lexicons ---------------------------------------------------------------------------
# What `server` runs with unless the test module sets SERVER_OPTIONS (create_server's keyword arguments).
SERVER_OPTIONS = {"workers": 8, "max_words": 100, "max_results": 50, "max_message_bytes": 64 * 1024}


def server_options(module) -> dict:
    """create_server's keyword arguments for a test module: its SERVER_OPTIONS over the defaults, the
    limits (max_words, max_results, max_message_bytes, ...) gathered into one Limits."""
    from lexicon_service.server import Limits

    options = {**SERVER_OPTIONS, **getattr(module, "SERVER_OPTIONS", {})}
    limit_names = set(Limits.__dataclass_fields__)
    limits = {k: options.pop(k) for k in list(options) if k in limit_names}
    return {**options, "limits": Limits(**limits)} if "limits" not in options else options


@pytest.fixture(scope="session")
def lexicon_dir(tmp_path_factory):
    """`pl-scrabble.lex` and `cs-kriskros.lex` from lexicon_helpers.WORDS, built once for the session (a
    module may define its own `lexicon_dir`; `server` then serves that one)."""
    directory = tmp_path_factory.mktemp("lexicons") / "lex"
    directory.mkdir()
    for rule_set, words in WORDS.items():
        write_lexicon(directory, rule_set, rule_set, words)
    return directory


@pytest.fixture(scope="module")
def server(lexicon_dir, request):
    """(server, port): a real gRPC server on `lexicon_dir`, started for the test module and stopped after
    it, so that no gRPC thread is alive when a later module forks a build's workers. Its games database is
    a temporary file of its own. Tests that change the server (reloads, stops) start their own."""
    from lexicon_service.server import create_server

    srv, port = create_server("localhost:0", lexicon_dir, **server_options(request.module))
    srv.start()
    yield srv, port
    srv.stop(None).wait()


@pytest.fixture(scope="module")
def channel(server):
    _, port = server
    with grpc.insecure_channel(f"localhost:{port}") as ch:
        yield ch


@pytest.fixture(scope="module")
def lex(channel):
    from lexicon_service.grpc_gen import lexicon_pb2_grpc

    return lexicon_pb2_grpc.LexiconServiceStub(channel)


@pytest.fixture(scope="module")
def game(channel):
    from lexicon_service.grpc_gen import game_pb2_grpc

    return game_pb2_grpc.GameServiceStub(channel)


@pytest.fixture
def tiny_filesystem(tmp_path):
    """A directory on a 2 MB tmpfs of its own, unmounted after the test: a disk that really fills
    (skipped where mounting needs root and the tests are not run as root)."""
    directory = tmp_path / "tiny"
    directory.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a 2 MB tmpfs needs root")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(directory)], capture_output=True)
    if done.returncode:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode(errors='replace').strip()}")
    try:
        yield directory
    finally:
        subprocess.run(["umount", "-l", str(directory)], check=False)
