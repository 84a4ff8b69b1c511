"""LexiconService: CheckWords, ExplainWord, FindWords, ListLexicons.

Unknown letters: a word containing a letter the game has no tile for is a normal per-word answer
(valid: false, status WORD_STATUS_UNKNOWN_LETTER, message naming the letter and its position), so one
stray word never fails a whole batch; a word judge would simply say "not acceptable". Malformed
input — an empty word, a word over the length limit, too many words — is INVALID_ARGUMENT naming
the field ("words[3]: empty word"). In FindWords a query letter the game lacks is INVALID_ARGUMENT
("anagram: unknown letter ...") since no search can be run on it.
"""

from __future__ import annotations

from lexicon_service.core import words
from lexicon_service.core.messages import _to_struct, check_words_json, check_words_response, explain_response
from lexicon_service.grpc_gen import lexicon_pb2, lexicon_pb2_grpc
from lexicon_service.server.errors import grpc_method
from lexicon_service.core.limits import Limits, check_deadline

# core.words.WordStatus has the same numbers (tests/test_app_words.py)


class LexiconServicer(lexicon_pb2_grpc.LexiconServiceServicer):
    def __init__(self, registry, limits: Limits | None = None) -> None:
        self.registry = registry
        self.limits = limits or Limits()

    # --- RPCs ---------------------------------------------------------------------------------
    def _check(self, request, deadline: float | None):
        """(the checked batch, verdict_only, compact) of a CheckWordsRequest."""
        check_deadline(deadline)
        include_tiles = request.include_tiles
        compact = request.compact and not include_tiles
        verdict_only = request.verdict_only
        with self.registry.acquire() as snapshot:
            checks = words.check_words(snapshot, self.limits, request.lexicon, request.words,
                                       messages=not (verdict_only or compact), include_tiles=include_tiles,
                                       deadline=deadline)
        return checks, verdict_only, compact

    def check_words(self, request, deadline: float | None = None, context=None):
        checks, verdict_only, compact = self._check(request, deadline)
        return check_words_response(checks, request.lexicon, verdict_only=verdict_only, compact=compact)

    def check_words_json(self, request, deadline: float | None = None):
        """check_words' answer as its proto3 JSON dict (core.messages.check_words_json), for HTTP."""
        checks, verdict_only, compact = self._check(request, deadline)
        return check_words_json(checks, request.lexicon, verdict_only=verdict_only, compact=compact)

    def explain_word(self, request, deadline: float | None = None, context=None):
        with self.registry.acquire() as snapshot:
            found = words.explain_word(snapshot, self.limits, request.lexicon, request.word)
        return explain_response(found, request.lexicon)

    def find_words(self, request, deadline: float | None = None, context=None):
        query = request.WhichOneof("query")
        check_deadline(deadline)
        with self.registry.acquire() as snapshot:
            found = words.find_words(
                snapshot, self.limits, request.lexicon, query, getattr(request, query) if query else "",
                limit=request.limit, min_length=request.min_length, max_length=request.max_length,
                use_all_tiles=request.use_all_tiles, deadline=deadline, context=context)
        return lexicon_pb2.FindWordsResponse(
            lexicon=request.lexicon, truncated=found.truncated,
            words=[lexicon_pb2.FoundWord(word=w.word, length=w.length, play=w.play) for w in found.words])

    def list_lexicons(self, request, deadline: float | None = None, context=None):
        with self.registry.acquire() as snapshot:
            infos = self._infos(snapshot)
        return lexicon_pb2.ListLexiconsResponse(lexicons=infos, limits=self._limits_message)

    # the gRPC methods: the plain methods above, with the call's deadline
    CheckWords = grpc_method(check_words)
    ExplainWord = grpc_method(explain_word)
    FindWords = grpc_method(find_words)
    ListLexicons = grpc_method(list_lexicons)

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
                has_leave_table=lexicon.leaves is not None,
            ))
        return infos
