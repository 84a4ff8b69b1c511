"""`serve` claims its ports exclusively, and its children import the package it runs."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time

from lexicon_service.cli import main
from test_service import WORDS, write_lexicon
from test_service_cli import _children, serve_process


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _second_serve(capsys, tmp_path, *argv) -> tuple[int, str, float]:
    started = time.monotonic()
    code = main(["serve", "--lexicons", str(tmp_path / "lex"), "--db", str(tmp_path / "second.db"), *argv])
    return code, capsys.readouterr().err, time.monotonic() - started


def test_a_second_serve_on_ports_in_use_is_refused_naming_the_port_and_holder(tmp_path, capsys):
    grpc_port, http_port = _free_port(), _free_port()
    with serve_process(tmp_path, "--lexicons", str(tmp_path / "lex"), "--db", str(tmp_path / "games.db"),
                       "--address", f"127.0.0.1:{grpc_port}", "--http", f"127.0.0.1:{http_port}", "--processes", "2", "--workers", "1", "--fast-threads", "1") as first:
        line = first.stdout.readline()
        assert "(2 processes)" in line, (line, first.log())
        for argv, port, what in ((("--address", f"127.0.0.1:{grpc_port}", "--processes", "2"), grpc_port, "gRPC"),
                                 (("--address", f"127.0.0.1:{grpc_port}", "--processes", "1"), grpc_port, "gRPC"),
                                 (("--address", f"localhost:{grpc_port}", "--processes", "2"), grpc_port, "gRPC"),
                                 (("--address", "127.0.0.1:0", "--http", f"127.0.0.1:{http_port}",
                                   "--processes", "2"), http_port, "HTTP")):
            code, err, took = _second_serve(capsys, tmp_path, *argv)
            assert code == 2, (argv, err)
            assert f"port {port} ({what})" in err and f"pid {first.pid}" in err, (argv, err)
            assert took < 5, took  # at once: before any lexicon is read
        assert len(_children(first.pid)) == 2  # the first one serves on, untouched
    assert "Traceback" not in first.log()


def test_a_port_another_program_listens_on_is_refused_naming_its_pid(tmp_path, capsys):
    (tmp_path / "lex").mkdir()
    write_lexicon(tmp_path / "lex", "pl-scrabble", "pl-scrabble", WORDS["pl-scrabble"])
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as other:  # shares with SO_REUSEPORT, as grpc may
        other.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        for processes in ("1", "2"):
            code, err, _ = _second_serve(capsys, tmp_path, "--address", f"127.0.0.1:{port}", "--processes", processes)
            assert code == 2 and f"port {port} (gRPC, 127.0.0.1) is in use by pid {os.getpid()}" in err, err


def test_children_import_the_installed_package_not_the_working_directory(tmp_path):
    """Started from a directory holding a lexicon_service/ that is not the package serve runs (a source
    checkout without its compiled core), the children still run the installed package."""
    shadow = tmp_path / "checkout" / "lexicon_service"
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text("raise ImportError('the uninstalled source tree was imported')\n")
    (shadow / "__main__.py").write_text("")
    directory = tmp_path / "lex"
    directory.mkdir()
    write_lexicon(directory, "pl-scrabble", "pl-scrabble", WORDS["pl-scrabble"])
    script = os.path.join(os.path.dirname(sys.executable), "lexicon-service")
    with open(tmp_path / "serve.log", "w") as log:
        proc = subprocess.Popen([script, "serve", "--address", "127.0.0.1:0", "--lexicons", str(directory),
                                 "--db", str(tmp_path / "games.db"), "--processes", "2", "--workers", "1",
                                 "--fast-threads", "1"], cwd=shadow.parent, stdout=subprocess.PIPE, stderr=log,
                                text=True)
        try:
            line = proc.stdout.readline()
            assert re.search(r"serving 1 lexicon on 127\.0\.0\.1:\d+ \(2 processes\)", line), \
                (line, (tmp_path / "serve.log").read_text()[-2000:])
        finally:
            for child in _children(proc.pid):
                os.kill(child, 9)
            proc.kill()
            proc.wait()
