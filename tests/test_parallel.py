"""build_tools.parallel forks its workers only when no other thread runs in the process."""

import os
from concurrent.futures import ThreadPoolExecutor

import grpc
import pytest

from build_tools.parallel import ForkWithThreadsWarning, ordered_map, other_threads


def _pid_and_double(chunk):
    return os.getpid(), [2 * x for x in chunk]


def test_forks_workers_when_no_other_thread_runs():
    assert other_threads() == []     # a test before this one left a thread running (see its name)
    results = list(ordered_map(_pid_and_double, [[1, 2], [3], [4, 5]], workers=2))
    assert [r for _, r in results] == [[2, 4], [6], [8, 10]]
    assert os.getpid() not in {pid for pid, _ in results}


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
