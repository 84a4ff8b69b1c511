"""The build's one way of running work on both cores: an ordered map of chunks over worker processes."""

from __future__ import annotations

import contextlib
import functools
import multiprocessing as mp
import signal
import threading
import warnings
from collections import deque
from concurrent.futures import ProcessPoolExecutor
from itertools import islice
from typing import Callable, Iterable, Iterator, TypeVar

T = TypeVar("T")
R = TypeVar("R")


def ignore_interrupt() -> None:
    """Ctrl-C is the parent's to handle (it reports and writes nothing), so workers ignore it
    instead of each printing a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


# A pool worker's state (ordered_map's with_state): what its initializer returned, in the worker process
# it was made for (a worker serves one map); the map's own process never sets it.
_worker_state = None


def _start_worker(initializer, initargs, with_state: bool = False) -> None:
    global _worker_state
    ignore_interrupt()
    if initializer is not None:
        state = initializer(*initargs)
        if with_state:
            _worker_state = state


def _call_with_worker_state(func, chunk):
    return func(_worker_state, chunk)


# Worker-side tag-set ids (build_tools/pipeline.merge maps them to the compiler's): a worker
# sends each tag set's definition with the first result that uses it. These ids (and the compiler's
# first-seen ids) follow the order in which tag sets are met, which depends on the worker layout and
# on set iteration (the hash seed) in the expanders; the artifact never shows them, because
# Compiler.finish renumbers tags, rules and tag sets canonically.
_TAGSETS: dict = {}
_SINGLE: dict = {}      # one (tag text, rule) pair -> its id (most forms have one: no frozenset)


def reset_tagsets() -> None:
    """Start a build's ids afresh: a forked worker inherits the parent's table, and one process
    may run several builds (tests), so every worker initializer calls this."""
    _TAGSETS.clear()
    _SINGLE.clear()


def intern_tagset(pairs, defs: list) -> int:
    """A worker-local id for a set of (tag text, rule) pairs, or for one such pair given as a tuple;
    a new id is also appended to ``defs`` as (id, sorted pairs), so the parent learns it before its
    first use (the results of one worker reach the parent in order)."""
    if pairs.__class__ is tuple:
        tid = _SINGLE.get(pairs)
        if tid is None:
            tid = _SINGLE[pairs] = intern_tagset({pairs}, defs)
        return tid
    key = frozenset(pairs)
    tid = _TAGSETS.get(key)
    if tid is None:
        tid = _TAGSETS[key] = len(_TAGSETS)
        defs.append((tid, tuple(sorted(pairs))))
    return tid


class ForkWithThreadsWarning(RuntimeWarning):
    """A multi-worker map ran in the calling process because other threads were running: a forked
    worker inherits the locks those threads hold (gRPC's, logging's, a user's) and can wait on one
    forever."""


def other_threads() -> list[str]:
    """Names of the Python threads running besides the calling one. (Threads a C extension starts
    and keeps, like gRPC core's, are not listed: the tests stop every server and channel they start.)"""
    me = threading.current_thread()
    return sorted(t.name for t in threading.enumerate() if t is not me)


def may_fork(what: str) -> bool:
    """Whether to fork for `what` (the work is then done here): not while other threads run."""
    running = other_threads()
    if running:
        warnings.warn(ForkWithThreadsWarning(
            f"not forking {what} while other threads run ({', '.join(running)}): working in this process"),
            stacklevel=3)
    return not running


def chunked(items: Iterable[T], size: int) -> Iterator[list[T]]:
    """Lists of up to `size` consecutive items."""
    it = iter(items)
    while chunk := list(islice(it, size)):
        yield chunk


def ordered_map(func: Callable[..., R], chunks: Iterable[T], *, workers: int,
                initializer: Callable | None = None, initargs: tuple = (),
                before_fork: Callable[[], None] | None = None, with_state: bool = False) -> Iterator[R]:
    """`func` over `chunks`, results in input order (builds stay deterministic). With one worker
    it runs here; otherwise in a pool of forked processes (each run through `initializer`), with
    `before_fork` called first so that the workers share what it loads. With other threads running
    (a server in the same process) it also runs here, with a warning: same results, no fork.
    `with_state`: `initializer` returns the state `func(state, chunk)` works with, a value here (in a
    worker, kept for that worker's chunks)."""
    if workers > 1 and not may_fork(f"{workers} workers"):
        workers = 1
    if workers <= 1:
        state = initializer(*initargs) if initializer is not None else None
        for chunk in chunks:
            yield func(state, chunk) if with_state else func(chunk)
        return
    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
    if before_fork is not None and ctx.get_start_method() == "fork":
        before_fork()
    # concurrent.futures rather than multiprocessing.Pool: Pool's worker-maintenance thread also
    # wakes on the results pipe and spins while a result is in it (2 s of CPU in a Polish build)
    executor = ProcessPoolExecutor(workers, mp_context=ctx, initializer=_start_worker,
                                   initargs=(initializer, initargs, with_state))
    if with_state:
        func = functools.partial(_call_with_worker_state, func)
    pending: deque = deque()        # futures of the chunks submitted, in input order
    started = False
    try:
        for chunk in chunks:
            if started:
                pending.append(executor.submit(func, chunk))
            else:
                # the first submit forks the workers; with SIGTERM's default action, so that a
                # worker stuck inside fork() (in a library's at-fork handler) can still be stopped
                with sigterm_action(signal.SIG_DFL):
                    pending.append(executor.submit(func, chunk))
                started = True
            if len(pending) > 2 * workers:      # a bounded look-ahead: two chunks per worker
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    finally:
        if pending:     # stopped early (an error, Ctrl-C, SIGTERM, the caller let go): stop the workers
            _stop_workers(executor)
        executor.shutdown(wait=True, cancel_futures=True)


def _stop_workers(executor: ProcessPoolExecutor) -> None:
    """Kill the executor's workers at once. (Private attributes of concurrent.futures: it has no
    such call, and `shutdown` lets every submitted chunk run to its end.)"""
    workers = list((executor._processes or {}).values())
    for p in workers:
        p.terminate()
    for p in workers:
        p.join()
    # A worker killed while sending a result leaves the executor's thread reading the rest of it
    # forever: this process holds a write end of that pipe too. Closed, the read ends (EOF).
    executor._result_queue._writer.close()


@contextlib.contextmanager
def sigterm_action(action):
    """SIGTERM handled by `action` inside the block, the previous handler restored after it
    (signals are left alone outside the main thread)."""
    try:
        previous = signal.signal(signal.SIGTERM, action)
    except ValueError:          # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
