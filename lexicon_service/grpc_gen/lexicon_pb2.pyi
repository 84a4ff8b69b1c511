from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class WordStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    WORD_STATUS_UNSPECIFIED: _ClassVar[WordStatus]
    WORD_STATUS_VALID: _ClassVar[WordStatus]
    WORD_STATUS_INVALID: _ClassVar[WordStatus]
    WORD_STATUS_UNKNOWN_LETTER: _ClassVar[WordStatus]
    WORD_STATUS_BAD_LENGTH: _ClassVar[WordStatus]
WORD_STATUS_UNSPECIFIED: WordStatus
WORD_STATUS_VALID: WordStatus
WORD_STATUS_INVALID: WordStatus
WORD_STATUS_UNKNOWN_LETTER: WordStatus
WORD_STATUS_BAD_LENGTH: WordStatus

class CheckWordsRequest(_message.Message):
    __slots__ = ("lexicon", "words", "verdict_only", "include_tiles")
    LEXICON_FIELD_NUMBER: _ClassVar[int]
    WORDS_FIELD_NUMBER: _ClassVar[int]
    VERDICT_ONLY_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_TILES_FIELD_NUMBER: _ClassVar[int]
    lexicon: str
    words: _containers.RepeatedScalarFieldContainer[str]
    verdict_only: bool
    include_tiles: bool
    def __init__(self, lexicon: _Optional[str] = ..., words: _Optional[_Iterable[str]] = ..., verdict_only: _Optional[bool] = ..., include_tiles: _Optional[bool] = ...) -> None: ...

class WordResult(_message.Message):
    __slots__ = ("word", "valid", "status", "tiles", "message")
    WORD_FIELD_NUMBER: _ClassVar[int]
    VALID_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    TILES_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    word: str
    valid: bool
    status: WordStatus
    tiles: _containers.RepeatedScalarFieldContainer[str]
    message: str
    def __init__(self, word: _Optional[str] = ..., valid: _Optional[bool] = ..., status: _Optional[_Union[WordStatus, str]] = ..., tiles: _Optional[_Iterable[str]] = ..., message: _Optional[str] = ...) -> None: ...

class CheckWordsResponse(_message.Message):
    __slots__ = ("lexicon", "acceptable", "results", "invalid_count")
    LEXICON_FIELD_NUMBER: _ClassVar[int]
    ACCEPTABLE_FIELD_NUMBER: _ClassVar[int]
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    INVALID_COUNT_FIELD_NUMBER: _ClassVar[int]
    lexicon: str
    acceptable: bool
    results: _containers.RepeatedCompositeFieldContainer[WordResult]
    invalid_count: int
    def __init__(self, lexicon: _Optional[str] = ..., acceptable: _Optional[bool] = ..., results: _Optional[_Iterable[_Union[WordResult, _Mapping]]] = ..., invalid_count: _Optional[int] = ...) -> None: ...

class ExplainWordRequest(_message.Message):
    __slots__ = ("lexicon", "word")
    LEXICON_FIELD_NUMBER: _ClassVar[int]
    WORD_FIELD_NUMBER: _ClassVar[int]
    lexicon: str
    word: str
    def __init__(self, lexicon: _Optional[str] = ..., word: _Optional[str] = ...) -> None: ...

class Reading(_message.Message):
    __slots__ = ("form", "headword", "tag", "rule")
    FORM_FIELD_NUMBER: _ClassVar[int]
    HEADWORD_FIELD_NUMBER: _ClassVar[int]
    TAG_FIELD_NUMBER: _ClassVar[int]
    RULE_FIELD_NUMBER: _ClassVar[int]
    form: str
    headword: str
    tag: str
    rule: str
    def __init__(self, form: _Optional[str] = ..., headword: _Optional[str] = ..., tag: _Optional[str] = ..., rule: _Optional[str] = ...) -> None: ...

class ExplainWordResponse(_message.Message):
    __slots__ = ("lexicon", "result", "readings")
    LEXICON_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    READINGS_FIELD_NUMBER: _ClassVar[int]
    lexicon: str
    result: WordResult
    readings: _containers.RepeatedCompositeFieldContainer[Reading]
    def __init__(self, lexicon: _Optional[str] = ..., result: _Optional[_Union[WordResult, _Mapping]] = ..., readings: _Optional[_Iterable[_Union[Reading, _Mapping]]] = ...) -> None: ...

class FindWordsRequest(_message.Message):
    __slots__ = ("lexicon", "anagram", "pattern", "prefix", "use_all_tiles", "min_length", "max_length", "limit")
    LEXICON_FIELD_NUMBER: _ClassVar[int]
    ANAGRAM_FIELD_NUMBER: _ClassVar[int]
    PATTERN_FIELD_NUMBER: _ClassVar[int]
    PREFIX_FIELD_NUMBER: _ClassVar[int]
    USE_ALL_TILES_FIELD_NUMBER: _ClassVar[int]
    MIN_LENGTH_FIELD_NUMBER: _ClassVar[int]
    MAX_LENGTH_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    lexicon: str
    anagram: str
    pattern: str
    prefix: str
    use_all_tiles: bool
    min_length: int
    max_length: int
    limit: int
    def __init__(self, lexicon: _Optional[str] = ..., anagram: _Optional[str] = ..., pattern: _Optional[str] = ..., prefix: _Optional[str] = ..., use_all_tiles: _Optional[bool] = ..., min_length: _Optional[int] = ..., max_length: _Optional[int] = ..., limit: _Optional[int] = ...) -> None: ...

class FoundWord(_message.Message):
    __slots__ = ("word", "length", "play")
    WORD_FIELD_NUMBER: _ClassVar[int]
    LENGTH_FIELD_NUMBER: _ClassVar[int]
    PLAY_FIELD_NUMBER: _ClassVar[int]
    word: str
    length: int
    play: str
    def __init__(self, word: _Optional[str] = ..., length: _Optional[int] = ..., play: _Optional[str] = ...) -> None: ...

class FindWordsResponse(_message.Message):
    __slots__ = ("lexicon", "words", "truncated")
    LEXICON_FIELD_NUMBER: _ClassVar[int]
    WORDS_FIELD_NUMBER: _ClassVar[int]
    TRUNCATED_FIELD_NUMBER: _ClassVar[int]
    lexicon: str
    words: _containers.RepeatedCompositeFieldContainer[FoundWord]
    truncated: bool
    def __init__(self, lexicon: _Optional[str] = ..., words: _Optional[_Iterable[_Union[FoundWord, _Mapping]]] = ..., truncated: _Optional[bool] = ...) -> None: ...

class ListLexiconsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class LexiconInfo(_message.Message):
    __slots__ = ("name", "rule_set", "language", "word_count", "manifest")
    NAME_FIELD_NUMBER: _ClassVar[int]
    RULE_SET_FIELD_NUMBER: _ClassVar[int]
    LANGUAGE_FIELD_NUMBER: _ClassVar[int]
    WORD_COUNT_FIELD_NUMBER: _ClassVar[int]
    MANIFEST_FIELD_NUMBER: _ClassVar[int]
    name: str
    rule_set: str
    language: str
    word_count: int
    manifest: _struct_pb2.Struct
    def __init__(self, name: _Optional[str] = ..., rule_set: _Optional[str] = ..., language: _Optional[str] = ..., word_count: _Optional[int] = ..., manifest: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...

class ListLexiconsResponse(_message.Message):
    __slots__ = ("lexicons",)
    LEXICONS_FIELD_NUMBER: _ClassVar[int]
    lexicons: _containers.RepeatedCompositeFieldContainer[LexiconInfo]
    def __init__(self, lexicons: _Optional[_Iterable[_Union[LexiconInfo, _Mapping]]] = ...) -> None: ...
