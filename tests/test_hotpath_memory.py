"""What a server process holds in memory for word checks (docs/service.md, "Several processes"): no PostgreSQL
client unless a postgresql:// games database is used."""

import subprocess
import sys


def test_server_and_cli_do_not_import_psycopg_unless_postgres_is_used():
    """psycopg (with its libpq and OpenSSL) took ~15 MB of private memory in every server process and
    in the supervisor, used only with --db postgresql://..."""
    code = (
        "import sys\n"
        "from lexicon_service import cli\n"
        "cli.build_parser()\n"
        "from lexicon_service.server import server\n"
        "from lexicon_service.http import app, server as http_server\n"
        "from lexicon_service.commands import serve\n"
        "assert serve.is_postgres_url('postgresql://u@h/db') and not serve.is_postgres_url('games.db')\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('psycopg', 'psycopg_pool')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_a_reload_keeps_the_lexicons_unchanged_on_disk(tmp_path):
    """SIGHUP with one lexicon rebuilt loads that one only: the others stay the loaded objects (no second
    copy of their tables and models beside the first while calls go on), and a lexicon is closed only
    when no open snapshot holds it any more."""
    import os
    import time

    from lexicon_service.core.registry import LexiconRegistry
    from test_service import WORDS, write_lexicon

    directory = tmp_path / "lex"
    directory.mkdir()
    write_lexicon(directory, "pl-scrabble", "pl-scrabble", WORDS["pl-scrabble"])
    write_lexicon(directory, "cs-kriskros", "cs-kriskros", WORDS["cs-kriskros"])
    registry = LexiconRegistry(directory)
    first = registry.reload()
    polish, czech = first.lexicons["pl-scrabble"], first.lexicons["cs-kriskros"]
    second = registry.reload()
    assert second.generation == first.generation + 1
    assert second.lexicons["pl-scrabble"] is polish and second.lexicons["cs-kriskros"] is czech
    with registry.acquire() as held:  # a call still running on the second snapshot during the next reload
        time.sleep(0.01)
        manifest = directory / "pl-scrabble.lex" / "manifest.json"
        os.utime(manifest, ns=(time.time_ns(), time.time_ns()))  # touched: loaded again
        third = registry.reload()
        assert third.lexicons["cs-kriskros"] is czech and third.lexicons["pl-scrabble"] is not polish
        assert held.lexicons["pl-scrabble"].is_admissible("kot")  # the running call's lexicon stays open
    assert not polish.is_admissible("kot")  # closed with the last snapshot that held it
    assert czech.is_admissible("kočka") and third.lexicons["pl-scrabble"].is_admissible("kot")
    write_lexicon(directory, "cs-kriskros", "cs-kriskros", WORDS["cs-kriskros"] + ["psa"])  # rebuilt
    fourth = registry.reload()
    assert fourth.lexicons["cs-kriskros"] is not czech and fourth.lexicons["cs-kriskros"].is_admissible("psa")
    assert not czech.is_admissible("kočka")
    registry.close()
    assert not fourth.lexicons["cs-kriskros"].is_admissible("psa")
    assert not fourth.lexicons["pl-scrabble"].is_admissible("kot")
