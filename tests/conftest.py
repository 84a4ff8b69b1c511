"""Suite-wide settings."""

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
