"""FindWords: anagrams with blanks, patterns with wildcards, prefixes — depth-first over the trie.

Searches walk tile keys depth-first in key order, asking the lexicon `has_prefix(prefix)` before
descending (so dead branches are pruned at once) and `is_admissible(key)` at each node; a pattern
is followed as a set of automaton states (no backtracking). A pattern whose first letter comes
only after a "*" ("*ÓŁ*") cannot be pruned by prefix, so it is matched by scanning the lexicon's
keys with one regular expression instead; runs of wildcards are collapsed first ("*?*?" is "??*"),
so the expression has no two adjacent ".*" and its backtracking on a key of at most a board's
length stays small. Work is bounded by a `WorkBudget` (trie steps or keys scanned, this thread's
CPU time, the call's deadline, and cancellation); past the budget the answer is marked truncated.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from lexicon_service.errors import FieldError, LimitError, field
from lexicon_service.core.limits import BudgetExceeded, WorkBudget

BLANK = "?"
ANY_ONE = "?"
ANY_RUN = "*"


@dataclass
class KeyMatch:
    """A tile key a search matched, and the positions blanks filled."""

    key: str
    blanks: tuple[int, ...] = ()  # positions (in tiles) filled by a blank


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
    return collapse_wildcards(tokens)


def collapse_wildcards(tokens: list[str]) -> list[str]:
    """The same pattern with each run of wildcards as its "?"s then at most one "*" ("*?*?" -> "??*")."""
    out: list[str] = []
    run_ones, run_star = 0, False
    for token in tokens + [None]:
        if token == ANY_ONE:
            run_ones += 1
        elif token == ANY_RUN:
            run_star = True
        else:
            out.extend([ANY_ONE] * run_ones + ([ANY_RUN] if run_star else []))
            run_ones, run_star = 0, False
            if token is not None:
                out.append(token)
    return out


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
                 budget: WorkBudget) -> tuple[list[KeyMatch], bool]:
    """Words matching the tokens, in key order; stops after `limit` (then truncated=True)."""
    spend = budget.spend
    has_prefix = lexicon.has_prefix
    is_admissible = lexicon.is_admissible
    letters = alphabet_keys(tile_set)
    results: list[KeyMatch] = []
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
        if depth >= min_len and n in states and is_admissible(prefix):
            results.append(KeyMatch(prefix))
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
            spend(len(states))
            nxt_states = step(states, key)
            if not nxt_states:
                continue
            nxt = prefix + key
            if not has_prefix(nxt):
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
                 budget: WorkBudget) -> tuple[list[KeyMatch], bool]:
    """Words matching the tokens, by scanning keys; the first `limit` found, sorted by key."""
    tokens = collapse_wildcards(tokens)
    regex = re.compile("".join("." if t == ANY_ONE else ".*" if t == ANY_RUN else re.escape(t) for t in tokens),
                       re.DOTALL)
    fullmatch = regex.fullmatch
    admissible = lexicon.is_admissible
    # a key costs one unit, and one more for each "*" the matcher may backtrack over
    cost = 1 + tokens.count(ANY_RUN)
    spend = budget.spend
    found: list[str] = []
    truncated = False
    try:
        for key in _iter_keys(lexicon):
            spend(cost)
            if min_len <= len(key) <= max_len and fullmatch(key) and admissible(key):
                found.append(key)
                if len(found) >= limit:
                    truncated = True  # there may be more
                    break
    except BudgetExceeded:
        truncated = True
    found.sort()
    return [KeyMatch(k) for k in found], truncated


def find_anagrams(lexicon, tile_set, rack: Counter, blanks: int, *, use_all: bool, min_len: int,
                  max_len: int, limit: int, budget: WorkBudget) -> tuple[list[KeyMatch], bool]:
    """Words formable from the rack (all of it with use_all), longest first, then in key order.

    A real tile is always used before a blank for the same letter: the blank is the more
    flexible of the two, so this finds every word once.
    """
    spend = budget.spend
    has_prefix = lexicon.has_prefix
    is_admissible = lexicon.is_admissible
    letters = alphabet_keys(tile_set)
    blank_ok = blank_keys(tile_set)
    total = sum(rack.values()) + blanks
    counts = dict(rack)
    results: list[KeyMatch] = []
    max_len = min(max_len, total)
    if use_all:
        min_len = max(min_len, total)

    path_blanks: list[int] = []
    keep = 2 * limit + 64
    trimmed = False

    def trim() -> None:
        nonlocal trimmed
        results.sort(key=lambda f: (-len(f.key), f.key))
        del results[limit:]
        trimmed = True

    def walk(prefix: str, blanks_left: int) -> None:
        depth = len(prefix)
        if depth >= min_len and is_admissible(prefix):
            results.append(KeyMatch(prefix, tuple(path_blanks)))
            if len(results) >= keep:  # keep memory bounded: only the best `limit` can be answered
                trim()
        if depth >= max_len:
            return
        for key in letters:
            have = counts.get(key, 0)
            if have <= 0 and not (blanks_left and key in blank_ok):
                continue
            spend()
            nxt = prefix + key
            if not has_prefix(nxt):
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
    truncated = truncated or trimmed
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
