"""LexiconService: CheckWords, ExplainWord, FindWords, ListLexicons.

Unknown letters: a word containing a letter the game has no tile for is a normal per-word answer
(valid: false, status WORD_STATUS_UNKNOWN_LETTER, message naming the letter and its position), so one
stray word never fails a whole batch; a word judge would simply say "not acceptable". Malformed
input — an empty word, a word over the length limit, too many words — is INVALID_ARGUMENT naming
the field ("words[3]: empty word"). In FindWords a query letter the game lacks is INVALID_ARGUMENT
("anagram: unknown letter ...") since no search can be run on it.
"""

from __future__ import annotations

import json
import time

from google.protobuf import struct_pb2

from lexicon_service.grpc_gen import lexicon_pb2, lexicon_pb2_grpc
from lexicon_service.server import search
from lexicon_service.fastkey import FastKeyer
from lexicon_service.server.errors import FieldError, LimitError, require, rpc
from lexicon_service.server.limits import Limits, WorkBudget, check_deadline, deadline_of
from lexicon_service.tiles import UnknownLetterError, normalise, write_tiles

VALID = lexicon_pb2.WORD_STATUS_VALID
INVALID = lexicon_pb2.WORD_STATUS_INVALID
UNKNOWN_LETTER = lexicon_pb2.WORD_STATUS_UNKNOWN_LETTER
BAD_LENGTH = lexicon_pb2.WORD_STATUS_BAD_LENGTH


def board_size(rule_set) -> int:
    """The longest word a board can hold, in tiles."""
    return max(rule_set.rows, rule_set.columns)


def min_word_length(rule_set) -> int:
    return rule_set.words.min_length


def _to_struct(mapping) -> struct_pb2.Struct:
    out = struct_pb2.Struct()
    if mapping:
        out.update(json.loads(json.dumps(mapping, default=_jsonable)))
    return out


def _jsonable(value):
    if isinstance(value, (set, frozenset, tuple)):
        return sorted(map(str, value))
    return str(value)


# bytes.translate table: a word's membership (0 or 1, a bool as a byte) -> its status
_STATUS_OF_FOUND = bytes([INVALID, VALID]) + bytes(254)


class _WordChecker:
    """Per-lexicon hot path of CheckWords (cached on the registry snapshot)."""

    __slots__ = ("fast_key", "fast_keys", "spell", "key", "letters_of_key", "admissible", "min_len", "max_len")

    def __init__(self, lexicon) -> None:
        rule_set = lexicon.rule_set
        tile_set = rule_set.tile_set
        keyer = FastKeyer(tile_set)
        self.fast_key = keyer.key
        self.fast_keys = keyer.keys
        self.spell = tile_set.spell
        self.key = tile_set.key
        self.letters_of_key = tile_set.letters_of_key
        self.admissible = lexicon.is_admissible
        self.min_len = min_word_length(rule_set)
        self.max_len = board_size(rule_set)

    def check(self, word: str):
        """(status, tile key or None, message)."""
        key = self.fast_key(word)
        if key is None:
            try:
                key = self.key(self.spell(word))
            except UnknownLetterError as exc:
                return UNKNOWN_LETTER, None, str(exc)
        n = len(key)
        if n < self.min_len or n > self.max_len:
            return BAD_LENGTH, key, f"{n} tiles; words have {self.min_len} to {self.max_len}"
        if self.admissible(key):
            return VALID, key, ""
        return INVALID, key, ""

    def statuses(self, words) -> bytes | None:
        """The status of each word (as `check` gives it), a byte each, for a whole batch at once: the
        words are converted to tile keys together (FastKeyer.keys) and looked up by the trie's own
        method mapped over them, with no Python code run per word. None when the batch needs the
        word-by-word path (a word the fast path cannot key)."""
        keys = self.fast_keys(words)
        if keys is None:
            return None
        statuses = bytes(map(self.admissible, keys)).translate(_STATUS_OF_FOUND)
        lo, hi = self.min_len, self.max_len
        lengths = list(map(len, keys))
        if lo <= min(lengths) and max(lengths) <= hi:
            return statuses
        return bytes(BAD_LENGTH if n < lo or n > hi else status for status, n in zip(statuses, lengths))

    def tiles(self, key) -> tuple[str, ...]:
        return self.letters_of_key(key) if key else ()


class LexiconServicer(lexicon_pb2_grpc.LexiconServiceServicer):
    def __init__(self, registry, limits: Limits | None = None) -> None:
        self.registry = registry
        self.limits = limits or Limits()

    @staticmethod
    def _checker(snapshot, name: str) -> _WordChecker:
        """The word checker of a lexicon, cached on the snapshot (so it goes with it on reload)."""
        checker = snapshot.cache.get(name)
        if checker is None:
            checker = snapshot.cache[name] = _WordChecker(snapshot.lexicon(name))
        return checker

    def _check_word_text(self, word: str, field_name: str) -> None:
        """Refuse an empty word or one over the length limit, counted in characters after NFC (so
        a decomposed word gets the same answer as a composed one)."""
        if not word:
            raise FieldError(field_name, "empty word")
        n = len(word) if word.isascii() else len(normalise(word))
        if n > self.limits.max_word_chars:
            raise LimitError(field_name, f"{n} characters; at most {self.limits.max_word_chars}")

    # --- RPCs ---------------------------------------------------------------------------------
    @rpc
    def CheckWords(self, request, context):
        limits = self.limits
        words = request.words
        require(bool(request.lexicon), "lexicon", "required")
        if not words:
            raise FieldError("words", "at least one word is required")
        n_words = len(words)
        if n_words > limits.max_words:
            raise LimitError("words", f"{n_words} words; at most {limits.max_words} per request")
        deadline = deadline_of(context)
        max_chars = limits.max_word_chars
        include_tiles = request.include_tiles
        verdict_only = request.verdict_only
        response = lexicon_pb2.CheckWordsResponse(lexicon=request.lexicon)
        with self.registry.acquire() as snapshot:
            checker = self._checker(snapshot, request.lexicon)
            statuses = None
            if n_words > 1 and not include_tiles:
                if n_words > 256:
                    words = list(words)  # one conversion of the repeated field, not one per pass
                lengths = list(map(len, words))
                if min(lengths) == 0 or max(lengths) > max_chars:
                    for i, word in enumerate(words):  # the first bad word names the field
                        if not word or len(word) > max_chars:
                            self._check_word_text(word, f"words[{i}]")
                statuses = checker.statuses(words)
            if statuses is not None:
                invalid = n_words - statuses.count(VALID)
                if verdict_only:
                    pass
                elif request.compact:
                    response.statuses.extend(statuses)
                else:
                    add = response.results.add
                    for word, status in zip(words, statuses):
                        if status == VALID:
                            add(word=word, valid=True, status=VALID)
                        elif status == INVALID:
                            add(word=word, status=INVALID)  # valid=False is the default: not set, ~20% cheaper
                        else:
                            add(word=word, valid=False, status=status, message=checker.check(word)[2])
                check_deadline(deadline)
            else:
                invalid = self._check_one_by_one(request, words, checker, response, deadline)
        response.acceptable = invalid == 0
        if not verdict_only:  # a word judge reveals only acceptable / not acceptable
            response.invalid_count = invalid
        return response

    def _check_one_by_one(self, request, words, checker, response, deadline) -> int:
        """CheckWords word by word (a word outside the fast path, include_tiles, a single word)."""
        max_chars = self.limits.max_word_chars
        include_tiles = request.include_tiles
        verdict_only = request.verdict_only
        compact = request.compact and not include_tiles
        add = response.results.add
        statuses = []
        invalid = 0
        check = checker.check
        for i, word in enumerate(words):
            if not word or len(word) > max_chars or not word.isascii():
                self._check_word_text(word, f"words[{i}]")
            status, key, message = check(word)
            if status != VALID:
                invalid += 1
            if verdict_only:
                pass
            elif compact:
                statuses.append(status)
            elif include_tiles:
                add(word=word, valid=status == VALID, status=status, message=message, tiles=checker.tiles(key))
            elif message:
                add(word=word, valid=False, status=status, message=message)
            else:
                add(word=word, valid=status == VALID, status=status)
            if deadline is not None and (i & 255) == 255 and time.monotonic() > deadline:
                check_deadline(deadline)
        if statuses:
            response.statuses.extend(statuses)
        return invalid

    @rpc
    def ExplainWord(self, request, context):
        require(bool(request.lexicon), "lexicon", "required")
        self._check_word_text(request.word, "word")
        with self.registry.acquire() as snapshot:
            lexicon = snapshot.lexicon(request.lexicon)
            checker = self._checker(snapshot, request.lexicon)
            status, key, message = checker.check(request.word)
            letters = checker.tiles(key)
            readings = []
            if key:
                for reading in lexicon.explain(key) or ():
                    readings.append(lexicon_pb2.Reading(form=reading.form, headword=reading.headword,
                                                        tag=reading.tag, rule=reading.rule,
                                                        model=reading.model, origin=reading.origin))
        result = lexicon_pb2.WordResult(word=request.word, valid=status == VALID, status=status,
                                        message=message, tiles=letters)
        return lexicon_pb2.ExplainWordResponse(lexicon=request.lexicon, result=result, readings=readings)

    @rpc
    def FindWords(self, request, context):
        limits = self.limits
        require(bool(request.lexicon), "lexicon", "required")
        query = request.WhichOneof("query")
        if query is None:
            raise FieldError("query", "one of anagram, pattern or prefix is required")
        text = getattr(request, query)  # spelled as written: the letter policy looks before NFC
        if query != "prefix":
            require(bool(text), query, "empty")
        n_chars = len(text) if text.isascii() else len(normalise(text))
        if n_chars > limits.max_word_chars:
            raise LimitError(query, f"{n_chars} characters; at most {limits.max_word_chars}")
        if request.limit < 0:
            raise FieldError("limit", "must not be negative")
        if request.limit > limits.max_results:
            raise LimitError("limit", f"{request.limit} results; at most {limits.max_results}")
        if request.use_all_tiles and query != "anagram":
            raise FieldError("use_all_tiles", "applies to anagram queries only")
        limit = request.limit or limits.default_results
        deadline = deadline_of(context)
        with self.registry.acquire() as snapshot:
            lexicon = snapshot.lexicon(request.lexicon)
            rule_set = lexicon.rule_set
            tile_set = rule_set.tile_set
            size = board_size(rule_set)
            min_len, max_len = search.check_lengths(request.min_length, request.max_length, size)
            budget = WorkBudget(limits.search_budget, limits.max_request_cpu, deadline, context)
            common = dict(min_len=min_len, max_len=max_len, limit=limit, budget=budget)
            if query == "anagram":
                rack, blanks = search.parse_rack(tile_set, text, "anagram")
                if sum(rack.values()) + blanks > size:
                    raise LimitError("anagram", f"{sum(rack.values()) + blanks} tiles; at most {size}")
                found, truncated = search.find_anagrams(lexicon, tile_set, rack, blanks,
                                                        use_all=request.use_all_tiles, **common)
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
                word = tile_set.display(letters)
                play = ""
                if query == "anagram":
                    blank_at = set(item.blanks)
                    play = write_tiles((x, i in blank_at) for i, x in enumerate(letters))
                words.append(lexicon_pb2.FoundWord(word=word, length=len(letters), play=play))
        return lexicon_pb2.FindWordsResponse(lexicon=request.lexicon, words=words, truncated=truncated)

    @rpc
    def ListLexicons(self, request, context):
        with self.registry.acquire() as snapshot:
            infos = self._infos(snapshot)
        return lexicon_pb2.ListLexiconsResponse(lexicons=infos, limits=self._limits_message)

    @property
    def _limits_message(self) -> lexicon_pb2.ServerLimits:
        limits = self.limits
        return lexicon_pb2.ServerLimits(
            max_message_bytes=limits.max_message_bytes, max_words=limits.max_words,
            max_word_chars=limits.max_word_chars, max_results=limits.max_results,
            default_results=limits.default_results, search_budget=limits.search_budget,
            max_search_cpu_seconds=limits.max_request_cpu, max_board_rows=limits.max_board_rows,
            max_gcg_lines=limits.max_gcg_lines, max_gcg_chars=limits.max_gcg_chars,
            max_generate_seconds=limits.max_generate_seconds)

    @staticmethod
    def _infos(snapshot):
        infos = []
        for name in snapshot.names():
            lexicon = snapshot.lexicons[name]
            rule_set = lexicon.rule_set
            infos.append(lexicon_pb2.LexiconInfo(
                name=name, rule_set=rule_set.id, language=rule_set.language,
                word_count=len(lexicon), manifest=_to_struct(lexicon.manifest),
            ))
        return infos
