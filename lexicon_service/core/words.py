"""Words: check a batch, explain one, find words by anagram, pattern or prefix.

Plain values in (a registry snapshot, the server's limits, names and strings; a deadline is a
time.monotonic() value or None) and dataclasses out. A word with a letter the game has no tile for is
a normal answer (UNKNOWN_LETTER, with a message naming the letter), so one stray word never fails a
batch; malformed input (an empty word, one over the length limit, too many words) raises FieldError
naming the field ("words[3]: empty word"). In a search a query letter the game lacks is a FieldError,
since no search can be run on it.
"""

from __future__ import annotations

import enum
import time
from dataclasses import dataclass, field

from lexicon_service.fastkey import FastKeyer
from lexicon_service.movegen.graph import key_table, lookup_keys
from lexicon_service.core import search
from lexicon_service.errors import FieldError, LimitError, require
from lexicon_service.core.limits import Limits, WorkBudget, check_deadline
from lexicon_service.rules.notes import Note
from lexicon_service.tiles import UnknownLetterError, normalise, write_tiles


class WordStatus(enum.IntEnum):
    """A word's verdict; the numbers are the API's WordStatus values."""

    VALID = 1
    INVALID = 2
    UNKNOWN_LETTER = 3
    BAD_LENGTH = 4


VALID, INVALID, UNKNOWN_LETTER, BAD_LENGTH = (int(s) for s in WordStatus)
# bytes.translate tables: a word's membership (0 or 1, a bool as a byte) -> its status; and
# graph.lookup_keys' answer (0 not held, 1 held, 2 length out of range) -> its status
_STATUS_OF_FOUND = bytes([INVALID, VALID]) + bytes(254)
_STATUS_OF_LOOKUP = bytes([INVALID, VALID, BAD_LENGTH]) + bytes(253)


def board_size(rule_set) -> int:
    """The longest word a board can hold, in tiles."""
    return max(rule_set.rows, rule_set.columns)


class WordChecker:
    """A lexicon's word rules: its letters, the admissible words, the lengths a board allows (cached
    on the registry snapshot by `checker`)."""

    __slots__ = ("fast_key", "joined_keys", "spell", "key", "letters_of_key", "admissible", "min_len", "max_len",
                 "search_graph", "key_table")

    def __init__(self, lexicon) -> None:
        rule_set = lexicon.rule_set
        tile_set = rule_set.tile_set
        keyer = FastKeyer(tile_set)
        self.fast_key = keyer.key
        self.joined_keys = keyer.joined_keys
        self.spell = tile_set.spell
        self.key = tile_set.key
        self.letters_of_key = tile_set.letters_of_key
        self.admissible = lexicon.is_admissible
        self.min_len = rule_set.words.min_length
        self.max_len = board_size(rule_set)
        # the move graph holds exactly the admissible words of up to board_size tiles (graph.py)
        self.search_graph = getattr(lexicon, "search_graph", None)
        self.key_table = key_table(tile_set) if self.search_graph is not None else b""

    def check(self, word: str):
        """(status, tile key or None, message)."""
        key = self.fast_key(word)
        if key is None:
            try:
                key = self.key(self.spell(word))
            except UnknownLetterError as exc:
                return UNKNOWN_LETTER, None, Note("unknown-letter", str(exc), letter=exc.letter,
                                                  position=exc.position + 1)
        n = len(key)
        if n < self.min_len or n > self.max_len:
            return BAD_LENGTH, key, Note("bad-length", f"{n} tiles; words have {self.min_len} to {self.max_len}",
                                         tiles=n, min=self.min_len, max=self.max_len)
        if self.admissible(key):
            return VALID, key, ""
        return INVALID, key, ""

    def statuses(self, words) -> bytes | None:
        """The status of each word (as `check` gives it), a byte each, for a whole batch at once, with no
        Python code run per word: the words are converted to tile keys together (FastKeyer.joined_keys)
        and looked up in the move graph by one C call (graph.lookup_keys; the graph holds exactly the
        admissible words a board can hold, and longer ones are BAD_LENGTH before any lookup), or, in a
        lexicon without one, by the trie's own method mapped over them. None when the batch needs the
        word-by-word path (a word the fast path cannot key)."""
        text = self.joined_keys(words)
        if text is None:
            return None
        if self.search_graph is not None:
            found = lookup_keys(self.search_graph, self.key_table, text, self.min_len, self.max_len)
            if found is not None:
                return found.translate(_STATUS_OF_LOOKUP)
        keys = text.split("\n")
        statuses = bytes(map(self.admissible, keys)).translate(_STATUS_OF_FOUND)
        lo, hi = self.min_len, self.max_len
        lengths = list(map(len, keys))
        if lo <= min(lengths) and max(lengths) <= hi:
            return statuses
        return bytes(BAD_LENGTH if n < lo or n > hi else status for status, n in zip(statuses, lengths))

    def tiles(self, key) -> tuple[str, ...]:
        return self.letters_of_key(key) if key else ()


def checker(snapshot, name: str) -> WordChecker:
    """The word checker of a lexicon, cached on the snapshot (so it goes with it on reload)."""
    found = snapshot.cache.get(name)
    if found is None:
        found = snapshot.cache[name] = WordChecker(snapshot.lexicon(name))
    return found


def check_word_text(limits: Limits, word: str, field_name: str) -> None:
    """Refuse an empty word or one over the length limit, counted in characters after NFC (so a
    decomposed word gets the same answer as a composed one)."""
    if not word:
        raise FieldError(field_name, "empty word")
    n = len(word) if word.isascii() else len(normalise(word))
    if n > limits.max_word_chars:
        raise LimitError(field_name, f"{n} characters; at most {limits.max_word_chars}")


@dataclass
class WordChecks:
    """A batch checked: each word's status (a byte or int each, WordStatus values), the message of each
    word that has one (by index; only when asked for), each word's tiles (when asked for)."""

    words: list
    statuses: bytes | list
    invalid_count: int
    messages: dict
    tiles: list | None = None

    @property
    def acceptable(self) -> bool:
        return self.invalid_count == 0


def check_words(snapshot, limits: Limits, lexicon_name: str, words, *, messages: bool = True,
                include_tiles: bool = False, deadline: float | None = None) -> WordChecks:
    """Check a batch of words (a list or the request's repeated field) against the named lexicon."""
    require(bool(lexicon_name), "lexicon", "required")
    if not words:
        raise FieldError("words", "at least one word is required")
    n_words = len(words)
    if n_words > limits.max_words:
        raise LimitError("words", f"{n_words} words; at most {limits.max_words} per request")
    max_chars = limits.max_word_chars
    word_checker = checker(snapshot, lexicon_name)
    if n_words > 1 and not include_tiles:
        if n_words > 256:
            words = list(words)  # one conversion of the repeated field, not one per pass
        lengths = list(map(len, words))
        if min(lengths) == 0 or max(lengths) > max_chars:
            for i, word in enumerate(words):  # the first bad word names the field
                if not word or len(word) > max_chars:
                    check_word_text(limits, word, f"words[{i}]")
        statuses = word_checker.statuses(words)
        if statuses is not None:
            check_deadline(deadline)
            odd = {}
            if messages and statuses.count(VALID) + statuses.count(INVALID) < n_words:
                odd = {i: word_checker.check(words[i])[2] for i, status in enumerate(statuses)
                       if status != VALID and status != INVALID}
            return WordChecks(words, statuses, n_words - statuses.count(VALID), odd)
    return _check_one_by_one(limits, words, word_checker, include_tiles, deadline)


def _check_one_by_one(limits: Limits, words, word_checker: WordChecker, include_tiles: bool,
                      deadline: float | None) -> WordChecks:
    """check_words word by word (a word outside the fast path, include_tiles, a single word)."""
    max_chars = limits.max_word_chars
    statuses, found_messages, tiles = [], {}, [] if include_tiles else None
    invalid = 0
    check = word_checker.check
    for i, word in enumerate(words):
        if not word or len(word) > max_chars or not word.isascii():
            check_word_text(limits, word, f"words[{i}]")
        status, key, message = check(word)
        if status != VALID:
            invalid += 1
        statuses.append(status)
        if message:
            found_messages[i] = message
        if tiles is not None:
            tiles.append(word_checker.tiles(key))
        if deadline is not None and (i & 255) == 255 and time.monotonic() > deadline:
            check_deadline(deadline)
    return WordChecks(words, statuses, invalid, found_messages, tiles)


@dataclass
class Explanation:
    """A word's verdict (status, message, tiles) and the lexicon's readings of it (lexicon.Reading);
    for a word not in the lexicon, the (profile rule, headword, detail) triples the build refused it by."""

    word: str
    status: int
    message: str
    tiles: tuple
    readings: list
    refusals: list = field(default_factory=list)


def explain_word(snapshot, limits: Limits, lexicon_name: str, word: str) -> Explanation:
    require(bool(lexicon_name), "lexicon", "required")
    check_word_text(limits, word, "word")
    lexicon = snapshot.lexicon(lexicon_name)
    word_checker = checker(snapshot, lexicon_name)
    status, key, message = word_checker.check(word)
    readings = list(lexicon.explain(key) or ()) if key else []
    refusals = lexicon.refusals(key) if key and not readings else []
    return Explanation(word, status, message, word_checker.tiles(key), readings, refusals)


@dataclass
class FoundWord:
    word: str
    length: int  # in tiles
    play: str  # an anagram's tiles as played, blanks marked ("" for other queries)


@dataclass
class SearchResult:
    """What a word search (FindWords) found."""

    words: list
    truncated: bool  # the search stopped at the limit or at its work budget


def _check_query(limits: Limits, query: str | None, text: str, limit: int, use_all_tiles: bool) -> None:
    if query is None:
        raise FieldError("query", "one of anagram, pattern or prefix is required")
    if query != "prefix":
        require(bool(text), query, "empty")
    n_chars = len(text) if text.isascii() else len(normalise(text))
    if n_chars > limits.max_word_chars:
        raise LimitError(query, f"{n_chars} characters; at most {limits.max_word_chars}")
    if limit < 0:
        raise FieldError("limit", "must not be negative")
    if limit > limits.max_results:
        raise LimitError("limit", f"{limit} results; at most {limits.max_results}")
    if use_all_tiles and query != "anagram":
        raise FieldError("use_all_tiles", "applies to anagram queries only")


def find_words(snapshot, limits: Limits, lexicon_name: str, query: str | None, text: str, *, limit: int = 0,
               min_length: int = 0, max_length: int = 0, use_all_tiles: bool = False,
               deadline: float | None = None, context=None) -> SearchResult:
    """Words of the lexicon matching one query: `query` is "anagram", "pattern" or "prefix" (None: none
    given), `text` its value as written (the letter policy looks before NFC). `context` (optional) is
    asked is_active() so that a search stops when its client has gone."""
    require(bool(lexicon_name), "lexicon", "required")
    _check_query(limits, query, text, limit, use_all_tiles)
    lexicon = snapshot.lexicon(lexicon_name)
    tile_set = lexicon.rule_set.tile_set
    size = board_size(lexicon.rule_set)
    min_len, max_len = search.check_lengths(min_length, max_length, size)
    budget = WorkBudget(limits.search_budget, limits.max_request_cpu, deadline, context)
    common = dict(min_len=min_len, max_len=max_len, limit=limit or limits.default_results, budget=budget)
    if query == "anagram":
        rack, blanks = search.parse_rack(tile_set, text, "anagram")
        if sum(rack.values()) + blanks > size:
            raise LimitError("anagram", f"{sum(rack.values()) + blanks} tiles; at most {size}")
        found, truncated = search.find_anagrams(lexicon, tile_set, rack, blanks, use_all=use_all_tiles, **common)
    else:
        tokens = search.parse_pattern(tile_set, text, query)
        if query == "prefix":
            if len(tokens) > size:
                raise LimitError("prefix", f"{len(tokens)} tiles; at most {size}")
            if search.ANY_ONE in tokens or search.ANY_RUN in tokens:
                raise FieldError("prefix", "wildcards belong in a pattern query")
            tokens.append(search.ANY_RUN)
        if search.needs_scan(tokens):
            found, truncated = search.scan_pattern(lexicon, tokens, **common)
        else:
            found, truncated = search.find_pattern(lexicon, tile_set, tokens, **common)
    words = []
    for item in found:
        letters = tile_set.letters_of_key(item.key)
        play = ""
        if query == "anagram":
            blank_at = set(item.blanks)
            play = write_tiles((x, i in blank_at) for i, x in enumerate(letters))
        words.append(FoundWord(tile_set.display(letters), len(letters), play))
    return SearchResult(words, truncated)
