"""`HandoffPool`: the server's thread pools. Each task goes straight to the most recently idle thread.

`concurrent.futures.ThreadPoolExecutor` puts tasks on one queue that all idle threads wait on, so
successive calls wake different threads in turn. On a 2-core machine that costs tens of
microseconds a call in thread switches and cold caches. Here an idle thread waits on its own lock,
and `submit` wakes the thread that went idle last (a stack). Under light load one thread serves
every call. More threads start only when all the others are busy, up to `max_workers`. Tasks
beyond that wait in FIFO order.

A subclass of ThreadPoolExecutor: grpc runs a method in its own pool only when that pool is one
(`experimental_thread_pool`). Threads are daemons; `shutdown` stops them.
"""

from __future__ import annotations

import collections
import threading
import time
from concurrent import futures


class _Task:
    __slots__ = ("future", "fn", "args", "kwargs")

    def __init__(self, future: futures.Future, fn, args, kwargs) -> None:
        self.future = future
        self.fn = fn
        self.args = args
        self.kwargs = kwargs

    def run(self) -> None:
        if not self.future.set_running_or_notify_cancel():
            return
        try:
            result = self.fn(*self.args, **self.kwargs)
        except BaseException as exc:  # noqa: BLE001 - handed to the future, as ThreadPoolExecutor does
            self.future.set_exception(exc)
        else:
            self.future.set_result(result)


class _Idle:
    """An idle thread's wake-up: a lock it blocks on until `submit` hands it a task."""

    __slots__ = ("wake", "task")

    def __init__(self) -> None:
        self.wake = threading.Lock()
        self.wake.acquire()
        self.task: _Task | None = None


class HandoffPool(futures.ThreadPoolExecutor):
    def __init__(self, max_workers: int, thread_name_prefix: str = "lexicon-pool") -> None:
        if max_workers < 1:
            raise ValueError("max_workers must be at least 1")
        super().__init__(max_workers=max_workers, thread_name_prefix=thread_name_prefix)
        self._lock = threading.Lock()
        self._idle: list[_Idle] = []  # a stack: the last thread to go idle is woken first
        self._waiting: collections.deque[_Task] = collections.deque()
        self._workers: list[threading.Thread] = []
        self._closed = False

    @property
    def name(self) -> str:
        """The prefix of its threads' names."""
        return self._thread_name_prefix

    @property
    def threads(self) -> int:
        """Threads started so far (at most max_workers)."""
        return len(self._workers)

    def submit(self, fn, /, *args, **kwargs) -> futures.Future:
        future: futures.Future = futures.Future()
        task = _Task(future, fn, args, kwargs)
        with self._lock:
            if self._closed:
                raise RuntimeError("cannot schedule new futures after shutdown")
            if self._idle:
                idle = self._idle.pop()
                idle.task = task
                idle.wake.release()
                return future
            if len(self._workers) >= self._max_workers:
                self._waiting.append(task)
                return future
            thread = threading.Thread(target=self._work, args=(task,), daemon=True,
                                      name=f"{self._thread_name_prefix}-{len(self._workers)}")
            self._workers.append(thread)
        thread.start()
        return future

    def _work(self, task: _Task | None) -> None:
        idle = _Idle()
        while task is not None:
            task.run()
            task = None
            with self._lock:
                if self._waiting:
                    task = self._waiting.popleft()
                    continue
                if self._closed:
                    return
                self._idle.append(idle)
            idle.wake.acquire()
            task, idle.task = idle.task, None

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        with self._lock:
            self._closed = True
            if cancel_futures:
                while self._waiting:
                    self._waiting.popleft().future.cancel()
            idle, self._idle = self._idle, []
            workers = list(self._workers)
        for thread in idle:
            thread.task = None
            thread.wake.release()
        if wait:
            for thread in workers:
                if thread is not threading.current_thread():
                    thread.join()

    def join(self, timeout: float) -> bool:
        """After `shutdown`: wait up to `timeout` seconds for the threads to end; whether they all did."""
        deadline = time.monotonic() + timeout
        with self._lock:
            workers = list(self._workers)
        for thread in workers:
            if thread is not threading.current_thread():
                thread.join(max(0.0, deadline - time.monotonic()))
        return not any(t.is_alive() for t in workers if t is not threading.current_thread())
