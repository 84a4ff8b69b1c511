"""Server limits: request size, words per request, result counts, search work."""

from __future__ import annotations

import time
from dataclasses import dataclass

from lexicon_service.server.errors import DeadlineError


@dataclass(frozen=True)
class Limits:
    max_message_bytes: int = 4 * 1024 * 1024  # larger requests: RESOURCE_EXHAUSTED (by gRPC itself)
    max_words: int = 10_000  # CheckWords words per request
    max_word_chars: int = 64  # characters per word (CheckWords, ExplainWord, FindWords queries)
    default_results: int = 100  # FindWords when limit = 0
    max_results: int = 1_000  # FindWords limit
    search_budget: int = 500_000  # FindWords trie nodes (or keys scanned) per request; beyond: truncated
    max_board_rows: int = 26
    max_gcg_lines: int = 2_000  # ReplayGame


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
