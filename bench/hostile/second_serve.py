"""A second `serve` on ports in use, and a server run from a directory that shadows the package.

    python bench/hostile/second_serve.py --lexicons LEXICONS

Starts `serve --processes 2 --http` on two free ports, then, while it serves: a second serve on the
same gRPC port (2 processes and 1), on its HTTP port only, and on the gRPC port named as localhost;
prints each one's exit status, time to refuse and message. Then starts `serve --processes 2` from a
directory holding a lexicon_service/ that fails to import, and checks a batch word check answers.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SCRIPT = str(Path(sys.executable).parent / "lexicon-service")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(argv, cwd=None, db=None) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen([SCRIPT, "serve", *argv, "--db", db], cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, start_new_session=True)
    return proc, proc.stdout.readline().strip()


def _stop(proc: subprocess.Popen) -> None:
    os.killpg(proc.pid, signal.SIGTERM)
    proc.wait(30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lexicons", required=True)
    args = parser.parse_args()
    grpc_port, http_port = _free_port(), _free_port()
    with tempfile.TemporaryDirectory() as tmp:
        first, line = _start(["--lexicons", args.lexicons, "--address", f"127.0.0.1:{grpc_port}", "--http",
                              f"127.0.0.1:{http_port}", "--processes", "2"], db=f"{tmp}/first.db")
        print(f"first (pid {first.pid}): {line}")
        try:
            for argv in (["--address", f"127.0.0.1:{grpc_port}", "--processes", "2"],
                         ["--address", f"127.0.0.1:{grpc_port}", "--processes", "1"],
                         ["--address", f"localhost:{grpc_port}", "--processes", "2"],
                         ["--address", "127.0.0.1:0", "--http", f"127.0.0.1:{http_port}", "--processes", "2"]):
                started = time.monotonic()
                second = subprocess.run([SCRIPT, "serve", "--lexicons", args.lexicons, "--db", f"{tmp}/second.db",
                                         *argv], capture_output=True, text=True, timeout=120)
                took = time.monotonic() - started
                print(f"second {' '.join(argv)}: exit {second.returncode} after {took:.2f} s: "
                      f"{(second.stderr.strip() or second.stdout.strip())[:200]}")
        finally:
            _stop(first)
        shadow = Path(tmp) / "checkout" / "lexicon_service"
        shadow.mkdir(parents=True)
        (shadow / "__init__.py").write_text("raise ImportError('the source tree was imported')\n")
        port = _free_port()
        server, line = _start(["--lexicons", os.path.abspath(args.lexicons), "--address", f"127.0.0.1:{port}",
                               "--processes", "2"], cwd=shadow.parent, db=f"{tmp}/third.db")
        try:
            print(f"from a directory shadowing the package: {line or 'did not start'}")
            if line:
                names = [p.name.removesuffix(".lex") for p in Path(args.lexicons).glob("*.lex")]
                answers = [subprocess.run([SCRIPT, "client", "--address", f"127.0.0.1:{port}", "check", "-l",
                                           names[0], "kot", "pies"], capture_output=True, text=True).returncode
                           for _ in range(8)]
                print(f"  8 batch checks over new connections: exit statuses {answers} (0/1 answered, 2 an error)")
        finally:
            _stop(server)


if __name__ == "__main__":
    main()
