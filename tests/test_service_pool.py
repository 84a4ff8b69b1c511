"""The server's thread pools: HandoffPool, and which calls run in the fast pool."""

from __future__ import annotations

import threading
import time
from concurrent import futures

import grpc
import pytest

from lexicon_service.grpc_gen import lexicon_pb2, lexicon_pb2_grpc
from lexicon_service.server import create_server
from lexicon_service.server.lexicon_servicer import LexiconServicer
from lexicon_service.server.pool import HandoffPool
from lexicon_service.server.server import FAST_METHODS



# --- HandoffPool ----------------------------------------------------------------------------------
def test_pool_runs_tasks_and_reports_results_and_exceptions():
    pool = HandoffPool(3)
    try:
        assert [f.result(5) for f in [pool.submit(pow, 2, n) for n in range(10)]] == [2 ** n for n in range(10)]
        failing = pool.submit(int, "x")
        with pytest.raises(ValueError):
            failing.result(5)
        assert isinstance(pool, futures.ThreadPoolExecutor)  # grpc accepts it as a per-method pool
    finally:
        pool.shutdown()


def test_pool_reuses_the_last_idle_thread():
    pool = HandoffPool(8)
    try:
        names = set()
        for _ in range(50):  # one call at a time: one thread serves them all
            names.add(pool.submit(lambda: threading.current_thread().name).result(5))
        assert len(names) == 1 and pool.threads == 1
    finally:
        pool.shutdown()


def test_pool_grows_to_max_workers_then_queues_in_order():
    pool = HandoffPool(3)
    release = threading.Event()
    started = []
    order = []
    lock = threading.Lock()

    def blocker(i):
        with lock:
            started.append(i)
        release.wait(5)
        with lock:
            order.append(i)

    try:
        fs = [pool.submit(blocker, i) for i in range(7)]
        deadline = time.monotonic() + 5
        while len(started) < 3 and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.05)
        assert sorted(started) == [0, 1, 2] and pool.threads == 3  # the others wait for a thread
        release.set()
        for f in fs:
            f.result(5)
        assert sorted(order) == list(range(7))
        assert started[3:] == [3, 4, 5, 6]  # waiting tasks start in the order they came
        assert pool.threads == 3
    finally:
        pool.shutdown()


def test_pool_shutdown_stops_threads_and_refuses_new_tasks():
    pool = HandoffPool(2)
    pool.submit(time.sleep, 0.01).result(5)
    pool.shutdown(wait=True)
    with pytest.raises(RuntimeError):
        pool.submit(time.sleep, 0)
    assert not any(t.name.startswith("lexicon-pool") and t.is_alive() for t in threading.enumerate())


def test_pool_shutdown_can_cancel_waiting_tasks():
    pool = HandoffPool(1)
    release = threading.Event()
    running = pool.submit(release.wait, 5)
    waiting = [pool.submit(time.sleep, 0) for _ in range(3)]
    pool.shutdown(wait=False, cancel_futures=True)
    release.set()
    assert running.result(5) is True
    assert all(f.cancelled() for f in waiting)


def test_pool_join_waits_for_the_running_task_within_its_bound():
    pool = HandoffPool(1)
    release = threading.Event()
    pool.submit(release.wait, 5)
    pool.shutdown(wait=False)
    assert pool.join(0.05) is False  # still running its task
    release.set()
    assert pool.join(5) is True
    assert not any(t.name.startswith("lexicon-pool") and t.is_alive() for t in threading.enumerate())


def test_a_stopped_server_leaves_no_thread_running(lexicon_dir, monkeypatch):  # noqa: F811
    # a call still running when grpc stops; once `stop(...)` is done its thread has ended too, so that
    # a build in the same process may fork (parallel.may_fork) without inheriting a server thread
    entered = threading.Event()
    original = LexiconServicer.FindWords

    def slow_find(self, request, context):
        entered.set()
        time.sleep(0.5)
        return original(self, request, context)

    monkeypatch.setattr(LexiconServicer, "FindWords", slow_find)
    before = set(threading.enumerate())
    srv, port = create_server("localhost:0", lexicon_dir, workers=2, fast_threads=2)
    srv.start()
    with grpc.insecure_channel(f"localhost:{port}") as ch:
        stub = lexicon_pb2_grpc.LexiconServiceStub(ch)
        call = stub.FindWords.future(lexicon_pb2.FindWordsRequest(lexicon="pl-scrabble", prefix="KO"), timeout=5)
        assert entered.wait(5)
        assert srv.stop(None).wait(5)
        call.cancel()
    assert not [t.name for t in set(threading.enumerate()) - before if t.name.startswith("lexicon-")]


# --- which pool serves which call -------------------------------------------------------------------
def test_short_calls_run_in_the_fast_pool_and_others_in_the_workers(lexicon_dir, monkeypatch):  # noqa: F811
    seen = {}
    for name in ("CheckWords", "FindWords"):
        original = getattr(LexiconServicer, name)

        def spy(self, request, context, _original=original, _name=name):
            seen[_name] = threading.current_thread().name
            return _original(self, request, context)

        monkeypatch.setattr(LexiconServicer, name, spy)
    srv, port = create_server("localhost:0", lexicon_dir, workers=2, fast_threads=2)
    srv.start()
    try:
        with grpc.insecure_channel(f"localhost:{port}") as ch:
            stub = lexicon_pb2_grpc.LexiconServiceStub(ch)
            assert stub.CheckWords(lexicon_pb2.CheckWordsRequest(lexicon="pl-scrabble", words=["kot"]),
                                   timeout=5).acceptable
            stub.FindWords(lexicon_pb2.FindWordsRequest(lexicon="pl-scrabble", prefix="KO"), timeout=5)
    finally:
        srv.stop(None).wait()
    assert seen["CheckWords"].startswith("lexicon-fast")
    assert seen["FindWords"].startswith("lexicon-rpc")
    assert FAST_METHODS["lexicon.v1.LexiconService"] == ("CheckWords",)
    assert set(FAST_METHODS["lexicon.v1.GameService"]) == {"ValidateMove", "ScoreMove"}


def test_long_calls_filling_every_worker_do_not_hold_up_word_checks(lexicon_dir, monkeypatch):  # noqa: F811
    release = threading.Event()
    entered = threading.Semaphore(0)
    original = LexiconServicer.FindWords

    def slow_find(self, request, context):
        entered.release()
        release.wait(10)  # a long search (sleeping: it does not hold the GIL)
        return original(self, request, context)

    monkeypatch.setattr(LexiconServicer, "FindWords", slow_find)
    srv, port = create_server("localhost:0", lexicon_dir, workers=2, fast_threads=2)
    srv.start()
    try:
        with grpc.insecure_channel(f"localhost:{port}") as ch:
            stub = lexicon_pb2_grpc.LexiconServiceStub(ch)
            searches = [stub.FindWords.future(lexicon_pb2.FindWordsRequest(lexicon="pl-scrabble", prefix="K"),
                                              timeout=20) for _ in range(3)]  # one more than the workers
            for _ in range(2):
                assert entered.acquire(timeout=5)
            started = time.monotonic()
            for _ in range(20):
                assert stub.CheckWords(lexicon_pb2.CheckWordsRequest(lexicon="pl-scrabble", words=["kot"]),
                                       timeout=5).acceptable
            assert time.monotonic() - started < 4
            assert not any(f.done() for f in searches)
            release.set()
            assert all(f.result(10).words for f in searches)
    finally:
        release.set()
        srv.stop(None).wait()
