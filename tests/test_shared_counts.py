"""The stream bounds hold across `serve --processes N`: the processes count a client's and a game's streams
in one shared database (server/shared_counts.py), so one client holds at most --streams-per-client streams on
the server, not that many on each process. (Before, each process counted its own: N times the bound.) So do
a client's computer-only games a minute."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections import Counter

import grpc
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexicon_service.games.creation_rate import COMPUTER_GAMES_PER_MINUTE
from lexicon_service.server.shared_counts import CountsDatabase, SharedCounts, remove_abandoned
from lexicon_service.server.stream_quota import StreamQuota
from tests.test_service_cli import serve_process


@pytest.fixture
def database():
    made = CountsDatabase.create()
    yield made.path
    made.remove()


@pytest.fixture
def tables(database):
    """Two processes' views (slots 0 and 1) of one database."""
    views = SharedCounts(database, 0, "grpc"), SharedCounts(database, 1, "grpc")
    yield views
    for view in views:
        view.close()


def test_a_bound_holds_across_the_processes(tables):
    first, second = (StreamQuota(per_client=3, per_game=100, shared=table) for table in tables)
    assert first.admit("client", "g1") is None and second.admit("client", "g2") is None
    assert first.admit("client", "g3") is None
    refusal = second.admit("client", "g4")  # the client holds 3 on the two processes together
    assert refusal is not None and "max 3 per client" in refusal
    assert second.admit("other", "g4") is None
    first.release("client", "g1")  # a stream on the other process ends: this one admits again
    assert second.admit("client", "g4") is None
    assert tables[0].count("client client") == 3


def test_scopes_are_counted_apart(database, tables):
    http = SharedCounts(database, 0, "http")
    assert tables[0].add(("client a",), (1,)) is None
    assert http.add(("client a",), (1,)) is None  # the gRPC stream does not count against HTTP's bound
    assert http.count("client a") == 1 and tables[1].count("client a") == 1
    http.claim_column()
    assert http.count("client a") == 0 and tables[0].count("client a") == 1
    http.close()


def test_a_process_starting_in_a_slot_releases_what_its_killed_predecessor_held(database, tables):
    first, second = tables
    keys = ("client a", "game g")
    assert first.add(keys, (2, 2)) is None and second.add(keys, (2, 2)) is None
    assert first.add(keys, (2, 2)) == 0  # full
    restarted = SharedCounts(database, 0, "grpc")  # slot 0's process was killed holding one; its successor
    restarted.claim_column()
    assert first.count(keys[0]) == 1 and first.count(keys[1]) == 1  # the other process's stream stays
    assert restarted.add(keys, (2, 2)) is None
    restarted.close()


CHURN = """
import sys
from lexicon_service.server.shared_counts import SharedCounts
table = SharedCounts(sys.argv[1], int(sys.argv[2]), "grpc")
table.claim_column()
keys = [f"client {n}" for n in range(40)]
held = []
print("counting", flush=True)
for n in range(int(sys.argv[3])):
    key = keys[(n * 7 + int(sys.argv[2])) % 40]
    if table.add((key, "game g"), (3, 1000)) is None:
        held.append(key)
    if len(held) > 10:
        table.remove((held.pop(0), "game g"))
for key in held:
    table.remove((key, "game g"))
"""


def _churn(database: str, slot: int, changes: int) -> subprocess.Popen:
    worker = subprocess.Popen([sys.executable, "-c", CHURN, database, str(slot), str(changes)],
                              stdout=subprocess.PIPE, text=True)
    assert worker.stdout.readline() == "counting\n"
    return worker


def test_two_processes_changing_the_counts_at_once_leave_them_whole(database):
    """Two processes add and remove 3,000 times over 40 keys at once: every count back to 0."""
    workers = [_churn(database, slot, 3000) for slot in (0, 1)]
    assert [worker.wait(120) for worker in workers] == [0, 0]
    table = SharedCounts(database, 0, "grpc")
    assert [table.count(f"client {n}") for n in range(40)] + [table.count("game g")] == [0] * 41
    table.close()


def test_a_process_killed_while_counting_leaves_only_what_its_successor_releases(database):
    """Slot 1's process is killed (SIGKILL) in the middle of its changes while slot 0's goes on: once a
    successor takes slot 1, the counts are exactly slot 0's (a kill inside a change changed nothing)."""
    survivor = _churn(database, 0, 3000)
    for pause in (0.05, 0.13, 0.21):
        victim = _churn(database, 1, 10**9)
        time.sleep(pause)
        victim.kill()
        victim.wait()
    assert survivor.wait(120) == 0  # it released all it held
    successor = SharedCounts(database, 1, "grpc")
    successor.claim_column()
    assert successor.count("game g") == 0 and [successor.count(f"client {n}") for n in range(40)] == [0] * 40
    successor.close()


def test_a_child_opens_only_a_database_its_supervisor_made(tmp_path, monkeypatch):
    """The variables are the supervisor's: set by hand to another file (an empty one under the name of ours
    included), or to nonsense, the process counts its own streams and writes nothing into that file."""
    from lexicon_service.commands.serve_processes import take_stream_counts

    ours = tmp_path / "lexicon-shared-counts-x"
    ours.mkdir()
    victims = [tmp_path / "open.bin", ours / "counts.db"]
    for victim in victims:
        victim.write_bytes(b"")
    victims[0].write_bytes(bytes(4096))
    for value in (str(victims[0]), str(victims[1]), "nonsense", "", str(tmp_path / "lexicon-shared-counts-y/counts.db")):
        monkeypatch.setenv("LEXICON_STREAM_COUNTS", value)
        monkeypatch.setenv("LEXICON_PROCESS_INDEX", "0")
        assert take_stream_counts() is None
    assert [victim.read_bytes() for victim in victims] == [bytes(4096), b""]
    assert sorted(path.name for path in ours.iterdir()) == ["counts.db"]
    made = CountsDatabase.create()
    path = made.path
    try:
        monkeypatch.setenv("LEXICON_STREAM_COUNTS", path)
        monkeypatch.setenv("LEXICON_PROCESS_INDEX", "0")
        counts = take_stream_counts()
        assert counts is not None and [table.scope for table in counts] == ["grpc", "http"]
        for table in counts:
            table.close()
    finally:
        made.remove()
    assert not os.path.exists(os.path.dirname(path))


def test_starts_are_counted_across_the_processes_in_a_window(tables):
    first, second = tables
    assert first.take_start("a", 2, 100.0, 60.0) and second.take_start("a", 2, 101.0, 60.0)
    assert not first.take_start("a", 2, 102.0, 60.0) and not second.take_start("a", 2, 159.0, 60.0)
    assert second.take_start("b", 2, 159.0, 60.0)  # another client
    assert first.take_start("a", 2, 160.0, 60.0)  # the first start is a minute old
    assert not second.take_start("a", 2, 160.5, 60.0)


KEYS = st.sampled_from([f"client {n}" for n in range(12)])


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["add", "remove", "claim"]), st.integers(0, 1), KEYS,
                          st.integers(1, 3)), max_size=40))
def test_the_counts_are_what_a_plain_counter_gives(operations):
    """Adds, removes and restarts in any order: each key's count is the sum of the live slots, as a
    Counter per slot gives it."""
    made = CountsDatabase.create()
    views = SharedCounts(made.path, 0, "grpc"), SharedCounts(made.path, 1, "grpc")
    model = [Counter(), Counter()]
    try:
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
    finally:
        for view in views:
            view.close()
        made.remove()


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


def test_serve_processes_bound_one_clients_computer_only_games_on_the_server(tmp_path):
    """25 computer-only games asked for over 25 connections (the kernel spreads them over the 2 processes):
    COMPUTER_GAMES_PER_MINUTE are started, whichever process took them, and the rest refused. (Before, each
    process counted its own: up to twice as many.)"""
    from lexicon_service.grpc_gen import session_pb2, session_pb2_grpc

    request = session_pb2.CreateGameRequest(
        lexicon="pl-scrabble", player_names=["C0", "C1"],
        computer_players=[session_pb2.ComputerPlayer(seat=seat, level="beginner") for seat in (0, 1)])
    with serve_process(tmp_path, "--lexicons", str(tmp_path / "lex"), "--workers", "1", "--fast-threads", "1",
                       "--processes", "2", "--db", str(tmp_path / "games.db")) as proc:
        m = re.search(r"on 127\.0\.0\.1:(\d+)", proc.stdout.readline())
        assert m, proc.log()
        started, refused = 0, []
        for _ in range(25):
            with grpc.insecure_channel(f"127.0.0.1:{m.group(1)}",
                                       options=[("grpc.use_local_subchannel_pool", 1)]) as channel:
                try:
                    session_pb2_grpc.GameSessionServiceStub(channel).CreateGame(request, timeout=20)
                    started += 1
                except grpc.RpcError as exc:
                    refused.append(exc.code())
        assert (started, refused) == (COMPUTER_GAMES_PER_MINUTE,
                                      [grpc.StatusCode.RESOURCE_EXHAUSTED] * (25 - COMPUTER_GAMES_PER_MINUTE))
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(20) == 0, proc.log()


def test_a_database_its_killed_supervisor_left_is_removed_by_the_next_and_no_other(tmp_path):
    """A supervisor killed by SIGKILL cannot remove its database: the next one made removes it (before, each
    such kill left one behind in /dev/shm), but never one whose maker lives, nor a file not ours."""
    made_and_killed = subprocess.Popen(
        [sys.executable, "-c", "import sys, time\nfrom lexicon_service.server.shared_counts import CountsDatabase\n"
         f"print(CountsDatabase.create({str(tmp_path)!r}).path, flush=True)\ntime.sleep(60)"],
        stdout=subprocess.PIPE, text=True)
    abandoned = made_and_killed.stdout.readline().strip()
    made_and_killed.kill()
    made_and_killed.wait()
    living = CountsDatabase.create(str(tmp_path))
    assert os.path.exists(abandoned)  # changed a moment ago: left alone (an earlier version held no lock)
    long_ago = time.time() - 3600
    for made in (abandoned, living.path):
        os.utime(made, (long_ago, long_ago))
    foreign = tmp_path / "lexicon-shared-counts-other" / "counts.db"
    foreign.parent.mkdir()
    foreign.write_bytes(bytes(4096))
    os.utime(foreign, (long_ago, long_ago))
    newest = CountsDatabase.create(str(tmp_path))
    assert not os.path.exists(os.path.dirname(abandoned))  # quiet and held by nobody: removed
    assert os.path.exists(living.path) and foreign.read_bytes() == bytes(4096)
    assert remove_abandoned(str(tmp_path)) == 0
    for made in (living, newest):
        made.remove()
    assert sorted(path.name for path in tmp_path.iterdir()) == ["lexicon-shared-counts-other"]
