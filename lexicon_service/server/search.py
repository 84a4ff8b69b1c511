"""FindWords: anagrams with blanks, patterns with wildcards, prefixes — depth-first over the trie.

Searches walk tile keys depth-first in key order, asking the lexicon `has_prefix(prefix)` before
descending (so dead branches are pruned at once) and `is_admissible(key)` at each node. A pattern
whose first letter comes only after a "*" ("*ÓŁ*") cannot be pruned by prefix, so it is matched by
scanning the lexicon's keys with one regular expression instead. Work is bounded by a budget (trie
nodes or keys scanned) and by the call's deadline (checked every 1,024 steps); past the budget the
answer is marked truncated.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from dataclasses import dataclass

from lexicon_service.server.errors import DeadlineError, FieldError, LimitError, field

BLANK = "?"
ANY_ONE = "?"
ANY_RUN = "*"


@dataclass
class Found:
    key: str
    blanks: tuple[int, ...] = ()  # positions (in tiles) filled by a blank


class BudgetExceeded(Exception):
    pass


class _Walker:
    """Shared bookkeeping: node budget and deadline."""

    def __init__(self, lexicon, budget: int, deadline: float | None) -> None:
        self.has_prefix = lexicon.has_prefix
        self.is_admissible = lexicon.is_admissible
        self.budget = budget
        self.deadline = deadline
        self.nodes = 0

    def tick(self) -> None:
        self.nodes += 1
        if self.nodes >= self.budget:
            raise BudgetExceeded()
        if self.deadline is not None and (self.nodes & 1023) == 0 and time.monotonic() > self.deadline:
            raise DeadlineError("search")


def alphabet_keys(tile_set) -> list[str]:
    """Tile keys of every letter a word may contain, in key order."""
    return sorted({tile_set.key([letter]) for letter in tile_set.alphabet})


def blank_keys(tile_set) -> frozenset[str]:
    return frozenset(tile_set.key([letter]) for letter in tile_set.blank_letters)


def parse_rack(tile_set, text: str, field_name: str) -> tuple[Counter, int]:
    """Tile keys of a rack text and its number of blanks ("?")."""
    blanks = text.count(BLANK)
    letters = text.replace(BLANK, "")
    with field(field_name):
        keys = tile_set.key_of_text(letters) if letters else ""
    return Counter(keys), blanks


def parse_pattern(tile_set, text: str, field_name: str) -> list[str]:
    """Tokens of a pattern: a tile key, "?" (any one tile) or "*" (any run of tiles)."""
    tokens: list[str] = []
    literal_start = 0
    text_len = len(text)
    i = 0

    def flush(end: int) -> None:
        segment = text[literal_start:end]
        if segment:
            with field(field_name):
                tokens.extend(tile_set.key(tile_set.spell(segment)))

    while i < text_len:
        ch = text[i]
        if ch == "[":
            close = text.find("]", i)
            i = close + 1 if close > 0 else text_len
            continue
        if ch in (ANY_ONE, ANY_RUN):
            flush(i)
            if not (ch == ANY_RUN and tokens and tokens[-1] == ANY_RUN):  # "**" == "*"
                tokens.append(ch)
            literal_start = i + 1
        i += 1
    flush(text_len)
    return tokens


def _closure(tokens: list[str], states) -> frozenset[int]:
    """Add the states reachable by letting "*" match nothing."""
    out = set(states)
    stack = list(states)
    while stack:
        s = stack.pop()
        if s < len(tokens) and tokens[s] == ANY_RUN and s + 1 not in out:
            out.add(s + 1)
            stack.append(s + 1)
    return frozenset(out)


def find_pattern(lexicon, tile_set, tokens: list[str], *, min_len: int, max_len: int, limit: int,
                 budget: int, deadline: float | None) -> tuple[list[Found], bool]:
    """Words matching the tokens, in key order; stops after `limit` (then truncated=True)."""
    walker = _Walker(lexicon, budget, deadline)
    letters = alphabet_keys(tile_set)
    results: list[Found] = []
    n = len(tokens)
    # A token's minimum remaining length, to prune at max_len.
    min_rest = [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        min_rest[i] = min_rest[i + 1] + (0 if tokens[i] == ANY_RUN else 1)

    def step(states: frozenset[int], key: str) -> frozenset[int]:
        nxt = set()
        for s in states:
            if s >= n:
                continue
            token = tokens[s]
            if token == ANY_RUN:
                nxt.add(s)
            elif token == ANY_ONE or token == key:
                nxt.add(s + 1)
        return _closure(tokens, nxt) if nxt else frozenset()

    def walk(prefix: str, states: frozenset[int]) -> bool:
        depth = len(prefix)
        if depth >= min_len and n in states and walker.is_admissible(prefix):
            results.append(Found(prefix))
            if len(results) > limit:
                return True
        if depth >= max_len:
            return False
        if min(min_rest[s] for s in states) + depth > max_len:
            return False
        # Only letters some state can take.
        wanted = None
        for s in states:
            if s < n and tokens[s] in (ANY_ONE, ANY_RUN):
                wanted = letters
                break
        if wanted is None:
            wanted = sorted({tokens[s] for s in states if s < n})
        for key in wanted:
            nxt_states = step(states, key)
            if not nxt_states:
                continue
            walker.tick()
            nxt = prefix + key
            if not walker.has_prefix(nxt):
                continue
            if walk(nxt, nxt_states):
                return True
        return False

    truncated = False
    try:
        truncated = walk("", _closure(tokens, {0}))
    except BudgetExceeded:
        truncated = True
    if len(results) > limit:
        del results[limit:]
        truncated = True
    return results, truncated


def _iter_keys(lexicon, prefix: str = ""):
    """The lexicon's keys under a prefix, lazily when the lexicon can (marisa-trie iterkeys)."""
    iterate = getattr(lexicon, "iter_keys", None)
    if iterate is not None:
        return iterate(prefix)
    forms = getattr(lexicon, "_forms", None)
    if forms is not None and hasattr(forms, "iterkeys"):
        return forms.iterkeys(prefix)
    return iter(lexicon.keys(prefix))


def needs_scan(tokens: list[str]) -> bool:
    """True when a "*" comes before the first letter: prefix pruning cannot help. (Without any
    letter every prefix matches, and the depth-first walk streams words in key order.)"""
    star_seen = False
    for token in tokens:
        if token == ANY_RUN:
            star_seen = True
        elif token != ANY_ONE:
            return star_seen
    return False


def scan_pattern(lexicon, tokens: list[str], *, min_len: int, max_len: int, limit: int,
                 budget: int, deadline: float | None) -> tuple[list[Found], bool]:
    """Words matching the tokens, by scanning keys; the first `limit` found, sorted by key."""
    regex = re.compile("".join("." if t == ANY_ONE else ".*" if t == ANY_RUN else re.escape(t) for t in tokens),
                       re.DOTALL)
    fullmatch = regex.fullmatch
    admissible = lexicon.is_admissible
    found: list[str] = []
    truncated = False
    for n, key in enumerate(_iter_keys(lexicon), 1):
        if min_len <= len(key) <= max_len and fullmatch(key) and admissible(key):
            found.append(key)
            if len(found) >= limit:
                truncated = True  # there may be more
                break
        if (n & 1023) == 0:
            if n >= budget:
                truncated = True
                break
            if deadline is not None and time.monotonic() > deadline:
                raise DeadlineError("search")
    found.sort()
    return [Found(k) for k in found], truncated


def find_anagrams(lexicon, tile_set, rack: Counter, blanks: int, *, use_all: bool, min_len: int,
                  max_len: int, limit: int, budget: int, deadline: float | None) -> tuple[list[Found], bool]:
    """Words formable from the rack (all of it with use_all), longest first, then in key order.

    A real tile is always used before a blank for the same letter: the blank is the more
    flexible of the two, so this finds every word once.
    """
    walker = _Walker(lexicon, budget, deadline)
    letters = alphabet_keys(tile_set)
    blank_ok = blank_keys(tile_set)
    total = sum(rack.values()) + blanks
    counts = dict(rack)
    results: list[Found] = []
    max_len = min(max_len, total)
    if use_all:
        min_len = max(min_len, total)

    path_blanks: list[int] = []

    def walk(prefix: str, blanks_left: int) -> None:
        depth = len(prefix)
        if depth >= min_len and walker.is_admissible(prefix):
            results.append(Found(prefix, tuple(path_blanks)))
        if depth >= max_len:
            return
        for key in letters:
            have = counts.get(key, 0)
            if have <= 0 and not (blanks_left and key in blank_ok):
                continue
            walker.tick()
            nxt = prefix + key
            if not walker.has_prefix(nxt):
                continue
            if have > 0:
                counts[key] = have - 1
                walk(nxt, blanks_left)
                counts[key] = have
            else:
                path_blanks.append(depth)
                walk(nxt, blanks_left - 1)
                path_blanks.pop()

    truncated = False
    try:
        walk("", blanks)
    except BudgetExceeded:
        truncated = True
    results.sort(key=lambda f: (-len(f.key), f.key))
    if len(results) > limit:
        del results[limit:]
        truncated = True
    return results, truncated


def check_lengths(min_len: int, max_len: int, board_size: int) -> tuple[int, int]:
    if min_len < 0:
        raise FieldError("min_length", "must not be negative")
    if max_len < 0:
        raise FieldError("max_length", "must not be negative")
    min_len = min_len or 2
    max_len = max_len or board_size
    if max_len < min_len:
        raise FieldError("max_length", f"{max_len} is less than min_length {min_len}")
    if max_len > board_size:
        raise LimitError("max_length", f"{max_len} is longer than the board ({board_size} squares)")
    return min_len, max_len
