"""A throw-away PostgreSQL server (Debian's package binaries) for the tests, deploy/cluster.py and
bench/bench_cluster.py: initdb in a temporary directory, a free port, its unix socket in that directory, no
TCP. As root it runs as the `postgres` user (PostgreSQL refuses root)."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid

SKIP_REASON = "PostgreSQL is not installed (make test installs it with apt-get as root); PostgreSQL tests skipped"


def postgres_bin() -> str | None:
    """The directory of initdb/pg_ctl: on PATH, else the newest /usr/lib/postgresql/*/bin."""
    found = shutil.which("pg_ctl")
    if found and shutil.which("initdb"):
        return os.path.dirname(found)
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(p.split("/")[4]))
    return os.path.dirname(versions[-1]) if versions else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PostgresServer:
    def __init__(self, bin_dir: str, durable: bool = False) -> None:
        self.bin = bin_dir
        self.durable = durable
        self.dir = tempfile.mkdtemp(prefix="lexicon-pg-")
        self.data = os.path.join(self.dir, "data")
        self.port = _free_port()
        self.user = None
        if os.geteuid() == 0:
            self.user = pwd.getpwnam("postgres")
            os.chown(self.dir, self.user.pw_uid, self.user.pw_gid)
        self._run("initdb", "-D", self.data, "-A", "trust", "-U", "lexicon", "--no-sync", "-E", "UTF8")
        self.start()

    def _run(self, tool: str, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        command = [os.path.join(self.bin, tool), *args]
        if self.user is not None:
            command = ["runuser", "-u", "postgres", "--", *command]
        return subprocess.run(command, capture_output=True, text=True, check=check, cwd=self.dir)

    def start(self) -> None:
        # fsync off unless durable: the tests crash no machine; a restart (fast shutdown) loses no committed row
        options = f"-p {self.port} -k {self.dir} -c listen_addresses='' -c max_connections=300"
        if not self.durable:
            options += " -c fsync=off"
        self._run("pg_ctl", "-D", self.data, "-o", options, "-l", os.path.join(self.dir, "log"), "-w", "start")

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", self.data, "-m", mode, "-w", "stop", check=False)

    def url(self, schema: str | None = None) -> str:
        """A URL of the server; with `schema`, one whose tables live in that schema (made if missing)."""
        url = f"postgresql://lexicon@/postgres?host={self.dir}&port={self.port}"
        if schema:
            import psycopg

            with psycopg.connect(url, autocommit=True) as conn:
                conn.execute(f'CREATE SCHEMA IF NOT EXISTS "{schema}"')
            url += f"&options=-csearch_path%3D{schema}"
        return url

    def fresh_url(self) -> str:
        return self.url("t" + uuid.uuid4().hex[:12])

    def destroy(self) -> None:
        self.stop("immediate")
        shutil.rmtree(self.dir, ignore_errors=True)
