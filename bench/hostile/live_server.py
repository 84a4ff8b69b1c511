"""A live `lexicon-service serve --processes N --http` for the probes in this folder, stopped on exit."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

SCRIPT = str(Path(sys.executable).parent / "lexicon-service")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def live_server(lexicons: str, processes: int, db: str, *options: str):
    """(gRPC port on [::], HTTP URL on 127.0.0.1) of a server started with its defaults and `options`."""
    grpc_port, http_port = free_port(), free_port()
    proc = subprocess.Popen([SCRIPT, "serve", "--lexicons", lexicons, "--address", f"[::]:{grpc_port}", "--http",
                             f"127.0.0.1:{http_port}", "--processes", str(processes), "--db", db, *options],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, start_new_session=True)
    try:
        line = proc.stdout.readline()
        if "serving" not in line:
            raise SystemExit(f"serve did not start: {line!r}")
        proc.stdout.readline()  # the HTTP line
        yield grpc_port, f"http://127.0.0.1:{http_port}"
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(30)
