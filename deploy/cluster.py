"""Several servers, one set of games, on this machine: a PostgreSQL server (Debian's package), N
`lexicon-service serve --db postgresql://...` instances and nginx in front of them (grpc_pass, HTTP/2
without TLS), all on loopback with free ports, in a temporary directory removed at the end.

    python deploy/cluster.py --lexicons /path/to/lexicons [--servers 2]    # runs until Ctrl-C

Prints the proxy's address (a client gRPC address: `lexicon-service client --address ...`) and the
servers'. docs/deploy.md says what each part does and how to run them on separate hosts.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from deploy.local_postgres import PostgresServer, postgres_bin  # noqa: E402

NGINX_CONF = """\
daemon off;
worker_processes {workers};
pid {dir}/nginx.pid;
error_log {dir}/nginx-error.log warn;
events {{ worker_connections 8192; }}
http {{
    access_log off;
    client_body_temp_path {dir}/tmp-body;
    proxy_temp_path {dir}/tmp-proxy;
    fastcgi_temp_path {dir}/tmp-fastcgi;
    uwsgi_temp_path {dir}/tmp-uwsgi;
    scgi_temp_path {dir}/tmp-scgi;
    upstream lexicon {{
{servers}
        keepalive 64;
    }}
    server {{
        listen 127.0.0.1:{port} http2;
        http2_max_concurrent_streams 1024;
        location / {{
            grpc_pass grpc://lexicon;
            grpc_read_timeout 1h;  # WatchGame streams stay open
            grpc_send_timeout 1h;
            grpc_next_upstream error timeout;  # a server that is down: the next one (before a request is sent)
            grpc_connect_timeout 1s;
        }}
    }}
}}
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    """PostgreSQL, `servers` servers and nginx; `address` is the proxy's, `server_ports` the servers'."""

    def __init__(self, lexicons, servers: int = 2, *, processes: int = 1, durable: bool = True,
                 nginx_workers: int = 1) -> None:
        bin_dir = postgres_bin()
        if bin_dir is None:
            raise SystemExit("PostgreSQL is not installed: apt-get install postgresql")
        if shutil.which("nginx") is None:
            raise SystemExit("nginx is not installed: apt-get install nginx")
        self.lexicons = str(lexicons)
        self.processes = processes
        self.dir = tempfile.mkdtemp(prefix="lexicon-cluster-")
        self.postgres = PostgresServer(bin_dir, durable=durable)
        self.db = self.postgres.url()
        self.servers: list[subprocess.Popen | None] = []
        self.server_ports: list[int] = []
        self.nginx = None
        try:
            for _ in range(servers):
                self.server_ports.append(free_port())
                self.servers.append(None)
            for i in range(servers):
                self.start_server(i)
            self.port = free_port()
            conf = Path(self.dir) / "nginx.conf"
            conf.write_text(NGINX_CONF.format(
                dir=self.dir, port=self.port, workers=nginx_workers,
                servers="\n".join(f"        server 127.0.0.1:{p} max_fails=1 fail_timeout=1s;"
                                  for p in self.server_ports)))
            self.nginx = subprocess.Popen(["nginx", "-c", str(conf), "-p", self.dir], stderr=subprocess.DEVNULL)
            deadline = time.monotonic() + 10
            while True:
                try:
                    socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                    break
                except OSError:
                    if time.monotonic() > deadline or self.nginx.poll() is not None:
                        raise SystemExit(f"nginx did not start: {(Path(self.dir) / 'nginx-error.log').read_text()}")
                    time.sleep(0.05)
        except BaseException:
            self.stop()
            raise
        self.address = f"127.0.0.1:{self.port}"

    def start_server(self, i: int) -> None:
        """(Re)start server i on its own port, in a process group of its own (killed whole)."""
        env = dict(os.environ, LEXICON_GC_TUNING="0", PYTHONUNBUFFERED="1")
        proc = subprocess.Popen([sys.executable, "-m", "lexicon_service", "serve", "--address",
                                 f"127.0.0.1:{self.server_ports[i]}", "--lexicons", self.lexicons, "--db", self.db,
                                 "--processes", str(self.processes), "--log-level", "WARNING"],
                                stdout=subprocess.PIPE, stderr=open(Path(self.dir) / f"server{i}.log", "a"),
                                text=True, cwd=ROOT, env=env, start_new_session=True)
        line = proc.stdout.readline()
        if "serving" not in line:
            proc.kill()
            raise SystemExit(f"server {i} did not start: {line!r}; see {self.dir}/server{i}.log")
        self.servers[i] = proc

    def kill_server(self, i: int, sig=signal.SIGKILL) -> None:
        proc = self.servers[i]
        if proc is not None and proc.poll() is None:
            try:
                os.killpg(proc.pid, sig)
            except ProcessLookupError:
                pass
            proc.wait()

    def stop(self) -> None:
        if self.nginx is not None and self.nginx.poll() is None:
            self.nginx.terminate()
            self.nginx.wait()
        for i in range(len(self.servers)):
            self.kill_server(i, signal.SIGTERM)
        self.postgres.destroy()
        shutil.rmtree(self.dir, ignore_errors=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lexicons", required=True)
    parser.add_argument("--servers", type=int, default=2)
    args = parser.parse_args(argv)
    if not 1 <= args.servers <= 16:
        parser.error("--servers must be 1-16")
    cluster = Cluster(args.lexicons, args.servers)
    try:
        print(f"cluster: nginx (grpc_pass) on {cluster.address} in front of servers on "
              f"{', '.join(f'127.0.0.1:{p}' for p in cluster.server_ports)}; games in {cluster.db}; Ctrl-C stops",
              flush=True)
        signal.sigwait({signal.SIGINT, signal.SIGTERM}) if hasattr(signal, "sigwait") else signal.pause()
    finally:
        cluster.stop()
    return 0


if __name__ == "__main__":
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    sys.exit(main())
