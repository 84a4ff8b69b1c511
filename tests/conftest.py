"""Suite-wide settings."""

import contextlib
import os

import pytest

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
