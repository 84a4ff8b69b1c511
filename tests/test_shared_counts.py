"""The stream bounds hold across `serve --processes N`: the processes count a client's and a game's streams
in one shared table (server/shared_counts.py), so one client holds at most --streams-per-client streams on
the server, not that many on each process. (Before, each process counted its own: N times the bound.)"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from collections import Counter

import grpc
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexicon_service.server.shared_counts import SharedCounts, key_hash
from lexicon_service.server.stream_quota import StreamQuota
from tests.test_service_cli import serve_process


@pytest.fixture
def tables():
    """Two processes' views (columns 0 and 1) of one table for 8 keys."""
    fd = SharedCounts.create(8, 2)
    views = SharedCounts(fd, 2, 0), SharedCounts(fd, 2, 1)
    yield views
    for view in views:
        view.close()
    os.close(fd)


def test_a_bound_holds_across_the_processes(tables):
    first, second = (StreamQuota(per_client=3, per_game=100, shared=table) for table in tables)
    assert first.admit("client", "g1") is None and second.admit("client", "g2") is None
    assert first.admit("client", "g3") is None
    refusal = second.admit("client", "g4")  # the client holds 3 on the two processes together
    assert refusal is not None and "max 3 per client" in refusal
    assert second.admit("other", "g4") is None
    first.release("client", "g1")  # a stream on the other process ends: this one admits again
    assert second.admit("client", "g4") is None
    assert tables[0].count(key_hash("client", "client")) == 3


def test_a_process_starting_in_a_slot_releases_what_its_killed_predecessor_held(tables):
    first, second = tables
    keys = (key_hash("client", "a"), key_hash("game", "g"))
    assert first.add(keys, (2, 2)) is None and second.add(keys, (2, 2)) is None
    assert first.add(keys, (2, 2)) == 0  # full
    restarted = SharedCounts(first.fd, 2, 0)  # slot 0's process was killed holding one; its successor
    restarted.claim_column()
    assert first.count(keys[0]) == 1 and first.count(keys[1]) == 1  # the other process's stream stays
    assert restarted.add(keys, (2, 2)) is None
    restarted.close()


CHURN = """
import sys
from lexicon_service.server.shared_counts import SharedCounts, key_hash
table = SharedCounts(int(sys.argv[1]), 2, int(sys.argv[2]))
keys = [key_hash("client", str(n)) for n in range(40)]
held = []
for n in range(10000):
    key = keys[(n * 7 + int(sys.argv[2])) % 40]
    if table.add((key,), (3,)) is None:
        held.append(key)
    if len(held) > 10:
        table.remove((held.pop(0),))
for key in held:
    table.remove((key,))
"""


def test_two_processes_changing_the_table_at_once_leave_it_whole():
    """Two processes add and remove 10,000 times over 40 keys at once: every count back to 0, no entry
    left. (Without the fcntl lock, 3 runs of this left 4, 33 and 7 counts behind.)"""
    fd = SharedCounts.create(64, 2)
    workers = [subprocess.Popen([sys.executable, "-c", CHURN, str(fd), str(column)], pass_fds=(fd,))
               for column in (0, 1)]
    assert [worker.wait(120) for worker in workers] == [0, 0]
    table = SharedCounts(fd, 2, 0)
    assert [table.count(key_hash("client", str(n))) for n in range(40)] == [0] * 40
    assert not any(table._key(index) for index in range(table.entries))
    table.close()
    os.close(fd)


def test_a_full_table_refuses_and_counts_nothing():
    fd = SharedCounts.create(1, 1)  # 16 entries, the least
    table = SharedCounts(fd, 1, 0)
    for number in range(table.entries):
        assert table.add((key_hash("client", str(number)),), (1,)) is None
    assert table.add((key_hash("client", "one more"), key_hash("game", "g")), (1, 1)) == 2
    assert table.count(key_hash("client", "one more")) == 0
    table.close()
    os.close(fd)


def test_a_child_maps_only_a_table_its_supervisor_made(tmp_path, monkeypatch):
    """The variables are the supervisor's: set by hand to a file open in the process, or to nonsense, the
    process counts its own streams and writes nothing into that file."""
    from lexicon_service.commands.serve_processes import take_stream_counts

    victim = tmp_path / "open.bin"
    victim.write_bytes(bytes(4096))
    with open(victim, "r+b") as fh:
        for value in (f"{fh.fileno()},{fh.fileno()},1", "nonsense", "3,4"):
            monkeypatch.setenv("LEXICON_STREAM_COUNTS", value)
            monkeypatch.setenv("LEXICON_PROCESS_INDEX", "0")
            assert take_stream_counts() is None
    assert victim.read_bytes() == bytes(4096)
    fd = SharedCounts.create(8, 1)
    monkeypatch.setenv("LEXICON_STREAM_COUNTS", f"{fd},{fd},1")
    monkeypatch.setenv("LEXICON_PROCESS_INDEX", "0")
    counts = take_stream_counts()
    assert counts is not None and counts[0].entries == 16
    for table in counts:
        table.close()
    os.close(fd)


KEYS = st.sampled_from([key_hash("client", str(n)) for n in range(12)] + [1, 17, 33, 49])  # 1, 17...: one home


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["add", "remove", "claim"]), st.integers(0, 1), KEYS,
                          st.integers(1, 3)), max_size=60))
def test_the_table_counts_as_a_plain_counter_would(operations):
    """Adds, removes and restarts in any order, keys that collide included: each key's count is the sum of
    the live columns, as a Counter per column gives it."""
    fd = SharedCounts.create(8, 2)
    views = SharedCounts(fd, 2, 0), SharedCounts(fd, 2, 1)
    model = [Counter(), Counter()]
    for operation, column, key, bound in operations:
        total = model[0][key] + model[1][key]
        if operation == "add":
            refused = views[column].add((key,), (bound,))
            assert (refused is not None) == (total >= bound)
            if refused is None:
                model[column][key] += 1
        elif operation == "remove" and model[column][key]:
            views[column].remove((key,))
            model[column][key] -= 1
        elif operation == "claim":
            views[column].claim_column()
            model[column].clear()
        for probe in set(model[0]) | set(model[1]) | {key}:
            assert views[0].count(probe) == model[0][probe] + model[1][probe]
    for view in views:
        view.close()
    os.close(fd)


def test_serve_processes_bound_one_clients_streams_on_the_server(tmp_path):
    """Ten connections (the kernel spreads them over the 2 processes) open one WatchGame each: 2 are served,
    whichever process took them, and the rest refused naming the bound."""
    from lexicon_service.grpc_gen import session_pb2, session_pb2_grpc

    with serve_process(tmp_path, "--lexicons", str(tmp_path / "lex"), "--workers", "1", "--fast-threads", "1",
                       "--processes", "2", "--db", str(tmp_path / "games.db"), "--streams-per-client", "2") as proc:
        m = re.search(r"on 127\.0\.0\.1:(\d+)", proc.stdout.readline())
        assert m, proc.log()
        target = f"127.0.0.1:{m.group(1)}"
        with grpc.insecure_channel(target) as channel:
            game = session_pb2_grpc.GameSessionServiceStub(channel).CreateGame(
                session_pb2.CreateGameRequest(lexicon="pl-scrabble", player_names=["A", "B"]), timeout=10)
        channels = [grpc.insecure_channel(target, options=[("grpc.use_local_subchannel_pool", 1)])
                    for _ in range(10)]
        served, refused, streams = 0, [], []
        try:
            for channel in channels:
                stream = session_pb2_grpc.GameSessionServiceStub(channel).WatchGame(
                    session_pb2.WatchGameRequest(game_id=game.game_id), timeout=20)
                streams.append(stream)
                try:
                    served += next(stream).version == 1
                except grpc.RpcError as exc:
                    refused.append((exc.code(), exc.details()))
        finally:
            for stream in streams:
                stream.cancel()
            for channel in channels:
                channel.close()
        assert served == 2, refused
        assert refused == [(grpc.StatusCode.RESOURCE_EXHAUSTED,
                            "too many streams open from this client (max 2 per client); close one or retry later")] * 8
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(20) == 0, proc.log()
