"""Server limits: request size, words per request, result counts, search work."""

from __future__ import annotations

import time
from dataclasses import dataclass

from lexicon_service.errors import CancelledError, DeadlineError


@dataclass(frozen=True)
class Limits:
    max_message_bytes: int = 4 * 1024 * 1024  # larger requests: RESOURCE_EXHAUSTED (by gRPC itself)
    max_words: int = 10_000  # CheckWords words per request
    max_word_chars: int = 64  # characters per word (CheckWords, ExplainWord, FindWords queries)
    default_results: int = 100  # FindWords when limit = 0
    max_results: int = 1_000  # FindWords and GenerateMoves limit
    search_budget: int = 500_000  # FindWords work units (trie steps, keys matched) per request; beyond: truncated
    max_request_cpu: float = 0.3  # seconds of CPU a FindWords search may take (a backstop to the work budget); beyond: truncated
    max_board_rows: int = 26
    max_gcg_lines: int = 2_000  # ReplayGame lines, split on every line separator (\n, \r\n, \r, ...)
    max_gcg_chars: int = 256 * 1024  # ReplayGame record size
    max_generate_seconds: float = 1.0  # GenerateMoves: one generation's time (the call's deadline may be shorter)


def deadline_of(context) -> float | None:
    """The call's deadline as a `time.monotonic()` value (None: no deadline); raises if already past."""
    remaining = context.time_remaining()
    if remaining is None:
        return None
    if remaining <= 0:
        raise DeadlineError()
    return time.monotonic() + remaining


def check_deadline(deadline: float | None, what: str = "request") -> None:
    if deadline is not None and time.monotonic() > deadline:
        raise DeadlineError(what)


class BudgetExceeded(Exception):
    """A request's work budget is spent: the answer so far is returned, marked truncated."""


class WorkBudget:
    """The work one request may do: `work` units (a trie step, a key matched), `cpu_seconds` of
    this thread's CPU, until the call's deadline, and only while the client still waits.

    `spend()` is cheap; every `check_every` units it looks at the clock and the call. Past the
    work or CPU allowance it raises BudgetExceeded; past the deadline DeadlineError; after the
    client cancelled (or went away) CancelledError."""

    __slots__ = ("work", "used", "cpu_end", "deadline", "context", "what", "check_every", "_next_check")

    def __init__(self, work: int, cpu_seconds: float, deadline: float | None, context=None,
                 what: str = "search", check_every: int = 256) -> None:
        self.work = work
        self.used = 0
        self.cpu_end = time.thread_time() + cpu_seconds
        self.deadline = deadline
        self.context = context
        self.what = what
        self.check_every = check_every
        self._next_check = min(work, check_every)

    def spend(self, units: int = 1) -> None:
        self.used += units
        if self.used >= self._next_check:
            self.check()

    def check(self) -> None:
        if self.used >= self.work or time.thread_time() > self.cpu_end:
            raise BudgetExceeded()
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise DeadlineError(self.what)
        if self.context is not None and not self.context.is_active():
            raise CancelledError(self.what)
        self._next_check = min(self.work, self.used + self.check_every)
