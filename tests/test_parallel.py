"""build_tools.parallel forks its workers only when no other thread runs in the process."""

import multiprocessing
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import grpc
import pytest

from build_tools.cli import main as build_main
from build_tools.parallel import ForkWithThreadsWarning, ordered_map, other_threads


def _pid_and_double(chunk):
    return os.getpid(), [2 * x for x in chunk]


def test_forks_workers_when_no_other_thread_runs():
    assert other_threads() == []     # a test before this one left a thread running (see its name)
    results = list(ordered_map(_pid_and_double, [[1, 2], [3], [4, 5]], workers=2))
    assert [r for _, r in results] == [[2, 4], [6], [8, 10]]
    assert os.getpid() not in {pid for pid, _ in results}


def _dies_on_three(chunk):
    if chunk == [3]:
        os._exit(3)
    return chunk


def _slow(chunk):
    time.sleep(30)
    return chunk


def test_a_dead_worker_stops_the_map_instead_of_hanging_it():
    with pytest.raises(BrokenProcessPool):
        list(ordered_map(_dies_on_three, ([i] for i in range(50)), workers=2))
    assert multiprocessing.active_children() == [] and other_threads() == []


def _chunks_then_a_bad_line():
    yield from ([i] for i in range(3))
    raise ValueError("a bad input line")


def test_a_map_stopped_early_stops_its_workers_at_once():
    started = time.monotonic()
    with pytest.raises(ValueError, match="bad input line"):
        list(ordered_map(_slow, _chunks_then_a_bad_line(), workers=2))
    assert time.monotonic() - started < 20      # the workers' 30 s chunks were not waited for
    assert multiprocessing.active_children() == [] and other_threads() == []


def test_a_running_grpc_server_keeps_the_work_in_this_process():
    executor = ThreadPoolExecutor(2, thread_name_prefix="leaked-rpc")
    server = grpc.server(executor)
    server.add_insecure_port("localhost:0")
    server.start()
    try:
        with pytest.warns(ForkWithThreadsWarning, match="not forking 2 workers"):
            results = list(ordered_map(_pid_and_double, [[1, 2], [3], [4, 5]], workers=2))
    finally:
        server.stop(None).wait()
        executor.shutdown()
    assert results == [(os.getpid(), [2, 4]), (os.getpid(), [6]), (os.getpid(), [8, 10])]
    assert other_threads() == []     # what this test started it stopped


def _lexicon_bytes(directory):
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir())}


def test_a_build_beside_a_running_thread_is_the_same_without_forking(tmp_path):
    words = tmp_path / "w.txt"
    words.write_text("kot\nkoty\npies\nżółw\n", encoding="utf-8")
    args = ["--rules", "pl-scrabble", "--quiet", "--workers", "2", "--words", str(words), "--name", "t", "-o"]
    assert build_main([*args, str(tmp_path / "forked.lex")]) == 0
    stop = threading.Event()
    other = threading.Thread(target=stop.wait, name="other-thread")
    other.start()
    try:
        with pytest.warns(ForkWithThreadsWarning, match="other-thread") as caught:
            assert build_main([*args, str(tmp_path / "here.lex")]) == 0
    finally:
        stop.set()
        other.join()
    assert any("forms trie" in str(w.message) for w in caught)     # compile's trie process too
    assert _lexicon_bytes(tmp_path / "here.lex") == _lexicon_bytes(tmp_path / "forked.lex")
