"""`lexicon-service serve` as a real process (signals included) and `lexicon-service client`."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from lexicon_service.cli import main
from bench_modules import bench_module
from test_service import WORDS, write_lexicon  # noqa: F401

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def cli(capsys, *argv) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_client_commands(server, capsys):
    _, port = server
    addr = ("client", "--address", f"localhost:{port}")
    code, out, _ = cli(capsys, *addr, "check", "-l", "pl-scrabble", "kot", "żółw")
    assert code == 0 and out == "kot\tvalid\nżółw\tvalid\n"      # as the local `check` prints it
    code, out, _ = cli(capsys, *addr, "check", "-l", "pl-scrabble", "kot", "koto")
    assert code == 1 and out == "kot\tvalid\nkoto\tinvalid\n"
    code, out, _ = cli(capsys, *addr, "check", "-l", "pl-scrabble", "--verdict-only", "kot", "żółw")
    assert code == 0 and out == "play acceptable\n"
    code, out, _ = cli(capsys, *addr, "check", "-l", "pl-scrabble", "--verdict-only", "kot", "koto")
    assert code == 1 and out == "play NOT acceptable\n"
    code, out, _ = cli(capsys, *addr, "--json", "check", "-l", "pl-scrabble", "kot")
    assert code == 0 and '"acceptable": true' in out
    code, out, _ = cli(capsys, *addr, "explain", "-l", "pl-scrabble", "kot")
    assert code == 0 and out.startswith("kot\theadword kot\t")      # valid: its readings, as `explain` prints
    code, out, _ = cli(capsys, *addr, "find", "-l", "pl-scrabble", "--anagram", "KOT", "--all-tiles")
    assert code == 0 and out.split() == ["KOT", "KTO", "TOK"]
    code, out, _ = cli(capsys, *addr, "validate", "-l", "pl-scrabble", "--rack", "KOTABCD", "8H", "KOT")
    assert code == 0 and "8H KOT: valid, 10 points" in out
    code, out, _ = cli(capsys, *addr, "score", "-r", "pl-scrabble", "8H", "KOT")
    assert code == 0 and "8H KOT: valid, 10 points" in out
    code, out, _ = cli(capsys, *addr, "lexicons")
    assert code == 0 and "pl-scrabble" in out
    code, out, _ = cli(capsys, *addr, "rulesets")
    assert code == 0 and "cs-kriskros" in out
    code, out, _ = cli(capsys, *addr, "health")
    assert code == 0 and "SERVING" in out
    code, _, err = cli(capsys, *addr, "check", "-l", "en-scrabble", "cat")
    assert code == 2 and "NOT_FOUND" in err


def test_client_replay(server, capsys, tmp_path):
    from test_service import GCG

    _, port = server
    gcg = tmp_path / "game.gcg"
    gcg.write_text(GCG, encoding="utf-8")
    code, out, _ = cli(capsys, "client", "--address", f"localhost:{port}", "replay", "-l", "pl-scrabble", str(gcg))
    assert code == 0 and "all lines agree" in out and "Ala 113 (recomputed 113)" in out
    gcg.write_text(GCG.replace("+17 113", "+18 114"), encoding="utf-8")
    code, out, _ = cli(capsys, "client", "--address", f"localhost:{port}", "replay", "-l", "pl-scrabble", str(gcg))
    assert code == 1 and "line(s) disagree" in out


def _children(pid: int) -> list[int]:
    out = []
    for stat in os.listdir("/proc"):
        if stat.isdigit():
            try:
                with open(f"/proc/{stat}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        out.append(int(stat))
            except (OSError, IndexError, ValueError):
                pass
    return out


@contextlib.contextmanager
def serve_process(tmp_path, *argv: str, env: dict | None = None):
    """`lexicon-service serve --address 127.0.0.1:0 ARGV` in a process, over a lexicon directory
    tmp_path/"lex" holding a small pl-scrabble; its log goes to tmp_path/"serve.log" (a pipe nobody
    reads could fill and block it). Killed at the end if still running."""
    directory = tmp_path / "lex"
    directory.mkdir()
    write_lexicon(directory, "pl-scrabble", "pl-scrabble", WORDS["pl-scrabble"])
    with open(tmp_path / "serve.log", "w") as log:
        proc = subprocess.Popen([sys.executable, "-m", "lexicon_service", "serve", "--address", "127.0.0.1:0", *argv],
                                cwd=ROOT, env=dict(os.environ, PYTHONUNBUFFERED="1", **(env or {})),
                                stdout=subprocess.PIPE, stderr=log, text=True)
        proc.log = lambda: (tmp_path / "serve.log").read_text()[-3000:]
        try:
            yield proc
        finally:
            if proc.poll() is None:
                for child in _children(proc.pid):
                    os.kill(child, signal.SIGKILL)
                proc.kill()
                proc.wait()


def test_serve_process_reload_on_sighup_and_graceful_stop(tmp_path):
    directory = tmp_path / "lex"
    with serve_process(tmp_path, env={"LEXICON_DIR": str(directory), "LEXICON_WORKERS": "2"}) as proc:
        line = proc.stdout.readline()
        m = re.search(r"serving 1 lexicon on 127\.0\.0\.1:(\d+)", line)
        assert m, (line, proc.log())
        port = int(m.group(1))
        from lexicon_service.grpc_gen import lexicon_pb2, lexicon_pb2_grpc

        with grpc.insecure_channel(f"127.0.0.1:{port}") as ch:
            status = health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(), timeout=5).status
            assert status == health_pb2.HealthCheckResponse.SERVING
            stub = lexicon_pb2_grpc.LexiconServiceStub(ch)
            req = lexicon_pb2.CheckWordsRequest(lexicon="pl-scrabble", words=["kotek"])
            assert not stub.CheckWords(req, timeout=5).acceptable
            write_lexicon(directory, "pl-scrabble", "pl-scrabble", WORDS["pl-scrabble"] + ["kotek"])
            proc.send_signal(signal.SIGHUP)
            deadline = time.monotonic() + 10
            while not stub.CheckWords(req, timeout=5).acceptable:
                assert time.monotonic() < deadline, "SIGHUP did not reload"
                time.sleep(0.05)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(15) == 0


def test_serve_refuses_a_missing_directory(tmp_path, capsys):
    code, _, err = cli(capsys, "serve", "--address", "127.0.0.1:0", "--lexicons", str(tmp_path / "nope"))
    assert code == 2 and "does not exist" in err


def test_serve_refuses_bad_thread_counts(tmp_path, capsys, lexicon_dir):  # noqa: F811
    for flag in ("--workers", "--fast-threads"):
        code, _, err = cli(capsys, "serve", "--address", "127.0.0.1:0", "--lexicons", str(lexicon_dir), flag, "0")
        assert code == 2 and f"{flag} must be at least 1" in err


def test_serve_with_several_processes_on_one_port(tmp_path):
    directory = tmp_path / "lex"
    with serve_process(tmp_path, "--lexicons", str(directory), "--processes", "2", "--workers", "2",
                       "--fast-threads", "1") as proc:
        line = proc.stdout.readline()
        m = re.search(r"on 127\.0\.0\.1:(\d+) \(2 processes\)", line)
        assert m, (line, proc.log())
        assert len(_children(proc.pid)) == 2
        # each child in a session of its own: a signal to the supervisor's group reaches it only as relayed
        assert all(os.getsid(child) != os.getsid(proc.pid) for child in _children(proc.pid))
        # the children map the supervisor's sealed in-memory copies of the lexicon files, not copies of their own
        for child in _children(proc.pid):
            maps = Path(f"/proc/{child}/maps").read_text()
            assert "/memfd:lexicon:pl-scrabble.lex/forms.marisa" in maps, maps
            assert "/memfd:lexicon:pl-scrabble.lex/readings.bin" in maps, maps
        from lexicon_service.grpc_gen import lexicon_pb2, lexicon_pb2_grpc

        def answers(word: str, connections: int = 8) -> list[bool]:
            out = []
            for _ in range(connections):  # separate connections: the kernel spreads them over the processes
                with grpc.insecure_channel(f"127.0.0.1:{m.group(1)}") as ch:
                    health = health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(), timeout=5)
                    assert health.status == health_pb2.HealthCheckResponse.SERVING
                    out.append(lexicon_pb2_grpc.LexiconServiceStub(ch).CheckWords(
                        lexicon_pb2.CheckWordsRequest(lexicon="pl-scrabble", words=[word]), timeout=5).acceptable)
            return out

        assert answers("kot") == [True] * 8
        assert answers("kotek") == [False] * 8
        write_lexicon(directory, "pl-scrabble", "pl-scrabble", WORDS["pl-scrabble"] + ["kotek"])
        proc.send_signal(signal.SIGHUP)  # relayed to every process: each reloads
        deadline = time.monotonic() + 30  # each process re-reads and re-checks every lexicon: slow on a loaded CI machine
        while not all(answers("kotek", 12)):
            if time.monotonic() > deadline:
                raise AssertionError("SIGHUP did not reload every process; the server's log:\n" + proc.log())
            time.sleep(0.1)
        assert proc.poll() is None
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(20) == 0, proc.log()


def test_default_processes_is_one_per_core_capped(monkeypatch):
    from lexicon_service.commands import serve

    monkeypatch.setattr(serve.os, "cpu_count", lambda: 2)
    assert serve.default_processes() == 2
    monkeypatch.setattr(serve.os, "cpu_count", lambda: 64)
    assert serve.default_processes() == serve.MAX_DEFAULT_PROCESSES
    monkeypatch.setattr(serve.os, "cpu_count", lambda: None)
    assert serve.default_processes() == 1


class _Child:
    """A stand-in for a supervised server process whose poll() runs a hook, so a signal can be made to
    arrive exactly while the supervisor's loop is inside its bookkeeping."""

    pid = 4242

    def __init__(self, during_poll):
        self.code = None
        self.signals: list[int] = []
        self.during_poll = during_poll

    def poll(self):
        hook, self.during_poll = self.during_poll, None
        if hook:
            hook()
        return self.code

    def send_signal(self, signum):
        self.signals.append(signum)
        if signum == signal.SIGTERM:
            self.code = 0


def _supervisor_with_handlers_receiving(signums):
    """A supervisor whose installed handlers get `signums` while its run() loop polls its children;
    returns (run()'s result or None if it hung, the children's signals)."""
    import threading

    from lexicon_service.server.supervisor import Supervisor

    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signal handlers need the main thread")
    supervisor = Supervisor(["unused"], 2)
    restore = supervisor.install_signal_handlers()
    try:
        deliver = lambda: [signal.getsignal(s)(s, None) for s in signums]  # noqa: E731 (as the interpreter would)
        children = [_Child(deliver), _Child(None)]
        for slot, child in zip(supervisor.slots, children):
            slot.process, slot.started = child, time.monotonic()
            slot.ready.set()
        result = []
        runner = threading.Thread(target=lambda: result.append(supervisor.run(poll=0.01)), daemon=True)
        runner.start()
        runner.join(5)
        return (result[0] if result else None), [c.signals for c in children]
    finally:
        restore()


def test_supervisor_signal_arriving_inside_its_loop_is_relayed():
    # A handler that took the loop's lock hung the supervisor for good (a CI run: SIGTERM, no exit).
    status, signals = _supervisor_with_handlers_receiving([signal.SIGHUP, signal.SIGTERM])
    assert status == 0
    assert signals == [[signal.SIGHUP, signal.SIGTERM]] * 2


def test_supervisor_holds_a_reload_for_a_child_still_loading():
    # A child installs its SIGHUP handler once it has loaded: a SIGHUP before that would kill it.
    from lexicon_service.server.supervisor import Supervisor

    supervisor = Supervisor(["unused"], 2)
    serving, loading = _Child(None), _Child(None)
    for slot, child in zip(supervisor.slots, (serving, loading)):
        slot.process = child
    supervisor.slots[0].ready.set()
    supervisor.signal_all(signal.SIGHUP)
    supervisor._relay_signals()
    assert (serving.signals, loading.signals) == ([signal.SIGHUP], [])
    supervisor.slots[1].ready.set()  # it prints its serving line
    supervisor._relay_signals()
    assert (serving.signals, loading.signals) == ([signal.SIGHUP], [signal.SIGHUP])
    supervisor._relay_signals()
    assert loading.signals == [signal.SIGHUP]  # once


def test_supervisor_stop_signal_during_start_up_stops_the_children():
    import threading

    from lexicon_service.server.supervisor import Supervisor

    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signal handlers need the main thread")
    supervisor = Supervisor([sys.executable, "-c", "import time; time.sleep(60)"], 2)  # never serves
    restore = supervisor.install_signal_handlers()
    try:
        os.kill(os.getpid(), signal.SIGTERM)  # queued: start() relays it
        started = time.monotonic()
        assert supervisor.start(timeout=30) is False
        assert supervisor.stopped_by_signal
        assert time.monotonic() - started < 10
        assert [slot.process.returncode for slot in supervisor.slots] == [-signal.SIGTERM] * 2
    finally:
        restore()


def test_serve_http_options_reach_every_process(tmp_path):
    """--http-receive-timeout and --http-max-connections are passed to the --processes children."""
    import socket

    with serve_process(tmp_path, "--lexicons", str(tmp_path / "lex"), "--processes", "2", "--workers", "1",
                       "--fast-threads", "1", "--db", str(tmp_path / "games.db"), "--http", "127.0.0.1:0",
                       "--http-receive-timeout", "1", "--http-max-connections", "5") as proc:
        proc.stdout.readline()
        m = re.search(r"HTTP on http://127\.0\.0\.1:(\d+)", proc.stdout.readline())
        assert m, proc.log()
        closed_after = []
        for _ in range(4):  # new connections: the kernel spreads them over both processes
            with socket.create_connection(("127.0.0.1", int(m.group(1))), timeout=10) as idle:
                started = time.monotonic()
                assert idle.recv(100) == b""  # closed by the server, having sent nothing
                closed_after.append(time.monotonic() - started)
        assert max(closed_after) < 5, closed_after  # 1 s, not the default 30 s
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(20) == 0, proc.log()


def test_http_environment_variables_without_http_start_every_process(tmp_path):
    """LEXICON_HTTP_* set without --http (an environment shared by several commands) is no error, as for
    one process; the supervisor passed them to its children as options, each of which then failed with
    '--http-max-connections needs --http'."""
    env = {"LEXICON_HTTP_MAX_CONNECTIONS": "5", "LEXICON_HTTP_ALLOWED_HOSTS": "lexicon.example"}
    with serve_process(tmp_path, "--lexicons", str(tmp_path / "lex"), "--processes", "2", "--workers", "1",
                       "--fast-threads", "1", "--db", str(tmp_path / "games.db"), env=env) as proc:
        line = proc.stdout.readline()
        assert "(2 processes)" in line, (line, proc.log())
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(20) == 0, proc.log()


def test_a_lexicon_name_is_not_shadowed_by_a_directory_here(tmp_path, monkeypatch):
    """`dump --lexicon two --lexicons L` beside a directory ./two said 'two: not a lexicon'."""
    from lexicon_service.lexicon import resolve_lexicon_path

    (tmp_path / "lex" / "two.lex").mkdir(parents=True)
    (tmp_path / "two").mkdir()
    monkeypatch.chdir(tmp_path)
    assert resolve_lexicon_path("two", "lex") == Path("lex") / "two.lex"
    assert resolve_lexicon_path("./two", "lex") == Path("./two")  # a path is a path
    assert resolve_lexicon_path("three", "lex") == Path("three")  # neither: the caller reports it


def test_supervisor_counts_a_child_killed_by_the_stop_signal_as_stopped():
    """systemd signals every process of the unit: a child already stopped by the first SIGTERM may die
    of the second; serve exited 1 for it."""
    from lexicon_service.server.supervisor import Supervisor

    class DiesOfTerm(_Child):
        def send_signal(self, signum):
            self.signals.append(signum)
            self.code = -signum

    supervisor = Supervisor(["unused"], 2)
    children = [DiesOfTerm(None), _Child(None)]
    for slot, child in zip(supervisor.slots, children):
        slot.process = child
        slot.ready.set()
    supervisor.signal_all(signal.SIGTERM)
    assert supervisor.run(poll=0.01) == 0


def test_serve_grpc_max_streams_reaches_every_process(tmp_path):
    """--grpc-max-streams (and LEXICON_GRPC_MAX_STREAMS) is what every --processes child advertises."""
    unread_streams = bench_module("bench_slow_readers").UnreadStreams
    with serve_process(tmp_path, "--lexicons", str(tmp_path / "lex"), "--processes", "2", "--workers", "1",
                       "--fast-threads", "1", "--db", str(tmp_path / "games.db"), "--grpc-max-streams", "3") as proc:
        m = re.search(r"on 127\.0\.0\.1:(\d+)", proc.stdout.readline())
        assert m, proc.log()
        advertised = []
        for _ in range(4):  # new connections: the kernel spreads them over both processes
            client = unread_streams(int(m.group(1)))
            deadline = time.monotonic() + 10
            while client.max_streams is None and time.monotonic() < deadline:
                client.read(0.1)
            advertised.append(client.max_streams)
            client.sock.close()
        assert advertised == [3] * 4, advertised
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(20) == 0, proc.log()


def test_every_subcommand_module_is_in_the_command_table():
    """The subcommands are a static table (cli.COMMANDS): a module of lexicon_service/commands/ with an
    `add_parser` that the table lacks would never be offered."""
    import pkgutil

    from lexicon_service import cli, commands

    modules = {info.name for info in pkgutil.iter_modules(commands.__path__)}
    with_parser = {name for name in modules
                   if "def add_parser(" in (Path(commands.__path__[0]) / f"{name}.py").read_text(encoding="utf-8")}
    assert with_parser == {command.__name__.rpartition(".")[2] for command in cli.COMMANDS}


def test_serve_streams_per_client_bounds_watch_game(tmp_path):
    """--streams-per-client reaches the server: a client's second WatchGame stream is refused, naming it;
    --stream-idle too: the first stream ends idle after 1 s, and its slot takes the next."""
    from lexicon_service.grpc_gen import session_pb2, session_pb2_grpc

    with serve_process(tmp_path, "--lexicons", str(tmp_path / "lex"), "--workers", "1", "--fast-threads", "1",
                       "--db", str(tmp_path / "games.db"), "--streams-per-client", "1", "--stream-idle", "1") as proc:
        m = re.search(r"on 127\.0\.0\.1:(\d+)", proc.stdout.readline())
        assert m, proc.log()
        with grpc.insecure_channel(f"127.0.0.1:{m.group(1)}") as channel:
            stub = session_pb2_grpc.GameSessionServiceStub(channel)
            game = stub.CreateGame(session_pb2.CreateGameRequest(lexicon="pl-scrabble", player_names=["A", "B"]),
                                   timeout=10)
            request = session_pb2.WatchGameRequest(game_id=game.game_id)
            held = stub.WatchGame(request, timeout=20)
            assert next(held).version == 1
            with pytest.raises(grpc.RpcError) as refused:
                next(stub.WatchGame(request, timeout=10))
            assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            assert "max 1 per client" in refused.value.details()
            with pytest.raises(grpc.RpcError) as idle:
                next(held)
            assert idle.value.code() == grpc.StatusCode.UNAVAILABLE and "no event for 1 s" in idle.value.details()
            with pytest.raises(grpc.RpcError) as again:  # admitted: ended idle, not refused
                next(stub.WatchGame(session_pb2.WatchGameRequest(game_id=game.game_id, after_version=1), timeout=10))
            assert again.value.code() == grpc.StatusCode.UNAVAILABLE, again.value.details()
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(20) == 0, proc.log()
