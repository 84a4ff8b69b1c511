"""Answers clients do not read are bounded across every gRPC connection (server/unread_answers.py)."""

from __future__ import annotations

import time

import grpc
import pytest

from bench_modules import bench_module
from lexicon_service.grpc_gen import lexicon_pb2, lexicon_pb2_grpc
from lexicon_service.server import create_server
from lexicon_service.server.server import STREAM_WINDOW_BYTES
from lexicon_service.server.unread_answers import UnreadAnswers

RESOURCE_EXHAUSTED = str(grpc.StatusCode.RESOURCE_EXHAUSTED.value[0])


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _ends(log: list, name: str):
    return lambda details: log.append((name, details))


def test_past_the_total_the_answers_waiting_longest_are_ended_first():
    ended: list = []
    ledger = UnreadAnswers(total=100, per_connection=1000, seconds=60)
    first = ledger.hold("ipv4:10.0.0.1:1", 40, _ends(ended, "first"))
    ledger.hold("ipv4:10.0.0.2:2", 40, _ends(ended, "second"))
    ledger.release(first)
    ledger.release(first)  # twice: counted once
    ledger.hold("ipv4:10.0.0.1:1", 40, _ends(ended, "third"))
    assert ended == [] and ledger.held_bytes == 80
    ledger.hold("ipv4:10.0.0.3:3", 50, _ends(ended, "fourth"))
    assert [name for name, _ in ended] == ["second"] and "max 100 bytes in all" in ended[0][1]
    assert ledger.held_bytes == 90 and ledger.connection_bytes("ipv4:10.0.0.2:2") == 0


def test_a_connection_at_its_bound_is_refused_and_others_are_not():
    ledger = UnreadAnswers(total=1000, per_connection=100, seconds=60)
    key = ledger.hold("ipv4:10.0.0.1:1", 100, _ends([], "a"))
    assert "max 100 per connection" in ledger.refusal("ipv4:10.0.0.1:1")
    assert ledger.refusal("ipv4:10.0.0.1:2") is None  # another connection of the same address
    ledger.release(key)
    assert ledger.refusal("ipv4:10.0.0.1:1") is None


def test_an_answer_not_taken_in_time_ends_its_call():
    clock, ended = _Clock(), []
    ledger = UnreadAnswers(total=1000, per_connection=1000, seconds=30, clock=clock)
    ledger.hold("ipv4:10.0.0.1:1", 10, _ends(ended, "old"))
    clock.now += 20
    ledger.hold("ipv4:10.0.0.1:1", 10, _ends(ended, "new"))
    clock.now += 10
    assert ledger.sweep() == 1 and ended == [("old", "the answer was not read within 30 s")]
    assert ledger.held_bytes == 10


@pytest.mark.parametrize("bounds", [dict(total=0), dict(per_connection=0), dict(seconds=0)])
def test_bounds_must_be_positive(bounds):
    with pytest.raises(ValueError):
        UnreadAnswers(**bounds)


def test_connections_of_unread_answers_hold_bounded_bytes_and_a_reader_is_served(lexicon_dir):
    """Six connections, each opening 8 streams whose ~200 KB answers it never takes: the server holds at most
    its total of unread answers (before: every answer, ~10 MB, with no bound across connections); a call on
    one connection past its bound is refused before any work; a client that reads is served meanwhile; and
    the calls whose answers wait past the time bound end with RESOURCE_EXHAUSTED, freeing what they held."""
    unread_streams = bench_module("bench_slow_readers").UnreadStreams
    ledger = UnreadAnswers(total=1 << 20, per_connection=450_000, seconds=1.5)
    srv, port = create_server("127.0.0.1:0", lexicon_dir, unread_answers=ledger)
    srv.start()
    clients = []
    try:
        message = lexicon_pb2.CheckWordsRequest(lexicon="pl-scrabble", words=["kotx"] * 3000).SerializeToString()
        for _ in range(6):
            clients.append(client := unread_streams(port))
            client.open_streams(8, message, limit=10)
        _read_until(clients, lambda: sum(len(c.statuses) for c in clients) >= 6 * 5, 10)
        assert ledger.held_bytes <= ledger.total
        refused = [s for c in clients for s in c.statuses.values()]
        assert refused.count(RESOURCE_EXHAUSTED) >= 6 * 5, refused  # at most 3 answers of ~200 KB a connection
        with grpc.insecure_channel(f"127.0.0.1:{port}", options=[("grpc.use_local_subchannel_pool", 1)]) as channel:
            answer = lexicon_pb2_grpc.LexiconServiceStub(channel).CheckWords(
                lexicon_pb2.CheckWordsRequest(lexicon="pl-scrabble", words=["kot"]), timeout=5)
        assert len(answer.results) == 1
        # the time bound: every stream still open is ended, with a status the client can read
        _read_until(clients, lambda: all(len(c.statuses) == 8 for c in clients), 10)
        assert ledger.held_bytes == 0
        assert {s for c in clients for s in c.statuses.values()} == {RESOURCE_EXHAUSTED}
    finally:
        for client in clients:
            client.sock.close()
        srv.stop(0).wait()


def test_a_stream_may_send_little_before_a_thread_reads_its_request(server):
    """Requests waiting for a thread stay with their clients: the server's HTTP/2 stream window is small and
    not grown by bandwidth probing (before: 4 MiB a stream; 40 connections of 64 such streams held ~150 MB)."""
    client = bench_module("bench_slow_readers").UnreadStreams(server[1])
    try:
        deadline = time.monotonic() + 5
        while client.initial_window == 65535 and time.monotonic() < deadline:
            client.read(0.1)
        assert client.initial_window == STREAM_WINDOW_BYTES <= 65535
    finally:
        client.sock.close()


def _read_until(clients, done, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not done() and time.monotonic() < deadline:
        for client in clients:
            client.read(0.02)


def test_serve_options_set_the_bounds(monkeypatch):
    from lexicon_service.cli import build_parser
    from lexicon_service.commands.serve import _bounded_counts, _unread_answers

    monkeypatch.setenv("LEXICON_GRPC_UNREAD_TIMEOUT", "5")
    args = build_parser().parse_args(["serve", "--grpc-unread-mib", "2", "--grpc-unread-per-connection-mib", "1"])
    _bounded_counts(args)
    ledger = _unread_answers(args)
    assert (ledger.total, ledger.per_connection, ledger.seconds) == (2 << 20, 1 << 20, 5.0)


def test_connections_past_the_bound_are_closed_and_a_place_freed_is_served(lexicon_dir):
    """Before: connections were not bounded (each an open file, which the games database and HTTP need too)."""
    unread_streams = bench_module("bench_slow_readers").UnreadStreams
    srv, port = create_server("127.0.0.1:0", lexicon_dir, max_connections=3)
    srv.start()
    clients = []
    try:
        clients = [unread_streams(port) for _ in range(5)]
        _read_until(clients, lambda: all(c.closed or c.max_streams for c in clients), 5)
        assert [c.closed for c in clients] == [False, False, False, True, True]
        clients[0].sock.close()
        time.sleep(0.2)
        with grpc.insecure_channel(f"127.0.0.1:{port}", options=[("grpc.use_local_subchannel_pool", 1)]) as channel:
            answer = lexicon_pb2_grpc.LexiconServiceStub(channel).CheckWords(
                lexicon_pb2.CheckWordsRequest(lexicon="pl-scrabble", words=["kot"]), timeout=5)
        assert len(answer.results) == 1
    finally:
        for client in clients:
            client.sock.close()
        srv.stop(0).wait()


def test_serve_grpc_max_connections_within_the_open_file_limit(monkeypatch):
    import logging
    import resource

    from lexicon_service.command_line import UserError
    from lexicon_service.commands.serve import _within_open_files

    monkeypatch.setattr(resource, "getrlimit", lambda which: (1024, 4096))
    log = logging.getLogger("test")
    assert _within_open_files(None, log, "--grpc-max-connections", "gRPC") == 924  # the default 1000 lowered
    assert _within_open_files(500, log, "--grpc-max-connections", "gRPC") == 500
    with pytest.raises(UserError, match="--grpc-max-connections 5,000 needs more open files"):
        _within_open_files(5000, log, "--grpc-max-connections", "gRPC")


def test_every_serve_option_reaches_the_children_of_processes():
    """Each option of serve is given to every `--processes` child, or set by the supervisor itself (before,
    the unread-answer and connection bounds given as options stayed in the supervisor)."""
    from lexicon_service.cli import build_parser
    from lexicon_service.commands.serve_processes import CHILD_FLAGS, CHILD_HTTP_FLAGS

    serve = next(action for action in build_parser()._actions if hasattr(action, "choices")
                 and isinstance(action.choices, dict)).choices["serve"]
    options = {action.dest for action in serve._actions} - {"help"}
    set_by_the_supervisor = {"address", "lexicons", "workers", "fast_threads", "processes", "reuse_port", "grace",
                             "log_level", "http"}
    assert options - set_by_the_supervisor == set(CHILD_FLAGS) | set(CHILD_HTTP_FLAGS)
