"""Answers clients do not read are bounded across every gRPC connection (server/unread_answers.py)."""

from __future__ import annotations

import time

import grpc
import pytest

from bench_modules import bench_module
from lexicon_service.grpc_gen import lexicon_pb2, lexicon_pb2_grpc
from lexicon_service.server import create_server
from lexicon_service.server.server import STREAM_WINDOW_BYTES
from lexicon_service.server.unread_answers import UnreadAnswers, end_call, private_call

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


def _stream_ended_from_another_thread(end):
    """A server-streaming call that sends one message and then waits, ended by `end(context)` from another
    thread; what its client gets: (messages, status code, details)."""
    import threading
    from concurrent import futures

    def handler(request, context):
        yield b"first"
        threading.Thread(target=end, args=(context,)).start()
        deadline = time.monotonic() + 5
        while context.is_active() and time.monotonic() < deadline:
            time.sleep(0.01)

    executor = futures.ThreadPoolExecutor(2)  # shut down below: grpc's stop leaves its threads running
    srv = grpc.server(executor)
    srv.add_generic_rpc_handlers([grpc.method_handlers_generic_handler(
        "t.T", {"S": grpc.unary_stream_rpc_method_handler(handler)})])
    port = srv.add_insecure_port("127.0.0.1:0")
    srv.start()
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            call = channel.unary_stream("/t.T/S")(b"", timeout=10)
            messages = []
            try:
                messages.extend(call)
            except grpc.RpcError as exc:
                return messages, exc.code(), exc.details()
            return messages, grpc.StatusCode.OK, ""
    finally:
        srv.stop(0).wait()
        executor.shutdown()


def test_a_call_ended_from_another_thread_gets_resource_exhausted_through_grpcs_call_object():
    """end_call reaches grpc's private call object (`_rpc_event.call`): no public API ends a call with a
    status from another thread. If this fails after a grpcio upgrade, calls over the unread-answer bounds
    end as CANCELLED (the fallback below) until end_call finds the new way (docs/service.md)."""
    found = []

    def end(context):
        found.append(private_call(context))
        end_call(context, "over the bound")

    messages, code, details = _stream_ended_from_another_thread(end)
    assert found[0] is not None, f"grpcio {grpc.__version__} has no _rpc_event.call under a server context"
    assert (messages, code, details) == ([b"first"], grpc.StatusCode.RESOURCE_EXHAUSTED, "over the bound")


def test_without_grpcs_call_object_the_call_still_ends(monkeypatch, caplog):
    from lexicon_service.server import unread_answers

    class TakesNoStatus:
        def cancel(self):
            raise AssertionError("not reached: cancel() with a status raises TypeError first")

    class Context:
        cancelled = 0

        def cancel(self):
            self.cancelled += 1

    changed = Context()
    changed._rpc_event = type("Event", (), {"call": TakesNoStatus()})()  # a call whose cancel takes no status
    for context in (Context(), changed):
        end_call(context, "over the bound")
        assert context.cancelled == 1
    monkeypatch.setattr(unread_answers, "private_call", lambda context: None)
    messages, code, _ = _stream_ended_from_another_thread(lambda context: end_call(context, "over the bound"))
    assert (messages, code) == ([b"first"], grpc.StatusCode.CANCELLED)


def test_the_unread_total_is_the_servers_shared_out_among_the_processes(monkeypatch):
    """`--processes N`: each child holds 1/N of --grpc-unread-mib (before, each held the whole of it, and 2
    processes grew by twice the bound's memory); the per-connection bound is each connection's, unchanged."""
    from lexicon_service.cli import build_parser
    from lexicon_service.commands.serve import _bounded_counts, _unread_answers
    from lexicon_service.commands.serve_processes import take_process_count

    for value, expected in (("2", 2), ("", 1), ("0", 1), ("x", 1), ("65", 1), ("4", 4)):
        monkeypatch.setenv("LEXICON_PROCESS_COUNT", value)
        assert take_process_count() == expected
    args = build_parser().parse_args(["serve", "--grpc-unread-mib", "24"])
    _bounded_counts(args)
    assert [(ledger.total, ledger.per_connection) for ledger in (_unread_answers(args, 1), _unread_answers(args, 2))] \
        == [(24 << 20, 4 << 20), (12 << 20, 4 << 20)]
