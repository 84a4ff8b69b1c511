"""Suite-wide settings."""

import os

import pytest


@pytest.fixture(autouse=True, scope="session")
def _games_database_in_a_temporary_place(tmp_path_factory):
    """`serve` without --db keeps games in the user's state directory; servers the tests start (and their
    child processes, which inherit the environment) use a temporary file instead."""
    if "LEXICON_DB" not in os.environ:
        os.environ["LEXICON_DB"] = str(tmp_path_factory.mktemp("games") / "games.db")
    yield
