"""What a server process holds in memory for word checks (docs/hotpath.md, issue 28): no PostgreSQL
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
