from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Play(_message.Message):
    __slots__ = ("position", "word")
    POSITION_FIELD_NUMBER: _ClassVar[int]
    WORD_FIELD_NUMBER: _ClassVar[int]
    position: str
    word: str
    def __init__(self, position: _Optional[str] = ..., word: _Optional[str] = ...) -> None: ...

class MoveRequest(_message.Message):
    __slots__ = ("lexicon", "rule_set", "board", "rack", "play")
    LEXICON_FIELD_NUMBER: _ClassVar[int]
    RULE_SET_FIELD_NUMBER: _ClassVar[int]
    BOARD_FIELD_NUMBER: _ClassVar[int]
    RACK_FIELD_NUMBER: _ClassVar[int]
    PLAY_FIELD_NUMBER: _ClassVar[int]
    lexicon: str
    rule_set: str
    board: _containers.RepeatedScalarFieldContainer[str]
    rack: str
    play: Play
    def __init__(self, lexicon: _Optional[str] = ..., rule_set: _Optional[str] = ..., board: _Optional[_Iterable[str]] = ..., rack: _Optional[str] = ..., play: _Optional[_Union[Play, _Mapping]] = ...) -> None: ...

class TileScore(_message.Message):
    __slots__ = ("letter", "points", "premium", "blank", "new")
    LETTER_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    PREMIUM_FIELD_NUMBER: _ClassVar[int]
    BLANK_FIELD_NUMBER: _ClassVar[int]
    NEW_FIELD_NUMBER: _ClassVar[int]
    letter: str
    points: int
    premium: str
    blank: bool
    new: bool
    def __init__(self, letter: _Optional[str] = ..., points: _Optional[int] = ..., premium: _Optional[str] = ..., blank: _Optional[bool] = ..., new: _Optional[bool] = ...) -> None: ...

class WordScore(_message.Message):
    __slots__ = ("word", "main", "valid", "tiles", "letter_sum", "multiplier", "subtotal")
    WORD_FIELD_NUMBER: _ClassVar[int]
    MAIN_FIELD_NUMBER: _ClassVar[int]
    VALID_FIELD_NUMBER: _ClassVar[int]
    TILES_FIELD_NUMBER: _ClassVar[int]
    LETTER_SUM_FIELD_NUMBER: _ClassVar[int]
    MULTIPLIER_FIELD_NUMBER: _ClassVar[int]
    SUBTOTAL_FIELD_NUMBER: _ClassVar[int]
    word: str
    main: bool
    valid: bool
    tiles: _containers.RepeatedCompositeFieldContainer[TileScore]
    letter_sum: int
    multiplier: int
    subtotal: int
    def __init__(self, word: _Optional[str] = ..., main: _Optional[bool] = ..., valid: _Optional[bool] = ..., tiles: _Optional[_Iterable[_Union[TileScore, _Mapping]]] = ..., letter_sum: _Optional[int] = ..., multiplier: _Optional[int] = ..., subtotal: _Optional[int] = ...) -> None: ...

class MoveResponse(_message.Message):
    __slots__ = ("valid", "reason", "message", "invalid_words", "words", "bingo", "bingo_bonus", "total", "rule_set", "lexicon")
    VALID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    INVALID_WORDS_FIELD_NUMBER: _ClassVar[int]
    WORDS_FIELD_NUMBER: _ClassVar[int]
    BINGO_FIELD_NUMBER: _ClassVar[int]
    BINGO_BONUS_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    RULE_SET_FIELD_NUMBER: _ClassVar[int]
    LEXICON_FIELD_NUMBER: _ClassVar[int]
    valid: bool
    reason: str
    message: str
    invalid_words: _containers.RepeatedScalarFieldContainer[str]
    words: _containers.RepeatedCompositeFieldContainer[WordScore]
    bingo: bool
    bingo_bonus: int
    total: int
    rule_set: str
    lexicon: str
    def __init__(self, valid: _Optional[bool] = ..., reason: _Optional[str] = ..., message: _Optional[str] = ..., invalid_words: _Optional[_Iterable[str]] = ..., words: _Optional[_Iterable[_Union[WordScore, _Mapping]]] = ..., bingo: _Optional[bool] = ..., bingo_bonus: _Optional[int] = ..., total: _Optional[int] = ..., rule_set: _Optional[str] = ..., lexicon: _Optional[str] = ...) -> None: ...

class ReplayGameRequest(_message.Message):
    __slots__ = ("lexicon", "rule_set", "gcg")
    LEXICON_FIELD_NUMBER: _ClassVar[int]
    RULE_SET_FIELD_NUMBER: _ClassVar[int]
    GCG_FIELD_NUMBER: _ClassVar[int]
    lexicon: str
    rule_set: str
    gcg: str
    def __init__(self, lexicon: _Optional[str] = ..., rule_set: _Optional[str] = ..., gcg: _Optional[str] = ...) -> None: ...

class ReplayLine(_message.Message):
    __slots__ = ("line", "text", "player", "kind", "position", "word", "ok", "has_score", "score", "recorded_score", "recorded_total", "expected_total", "words", "problems", "notes")
    LINE_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    WORD_FIELD_NUMBER: _ClassVar[int]
    OK_FIELD_NUMBER: _ClassVar[int]
    HAS_SCORE_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    RECORDED_SCORE_FIELD_NUMBER: _ClassVar[int]
    RECORDED_TOTAL_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_TOTAL_FIELD_NUMBER: _ClassVar[int]
    WORDS_FIELD_NUMBER: _ClassVar[int]
    PROBLEMS_FIELD_NUMBER: _ClassVar[int]
    NOTES_FIELD_NUMBER: _ClassVar[int]
    line: int
    text: str
    player: str
    kind: str
    position: str
    word: str
    ok: bool
    has_score: bool
    score: int
    recorded_score: int
    recorded_total: int
    expected_total: int
    words: _containers.RepeatedScalarFieldContainer[str]
    problems: _containers.RepeatedScalarFieldContainer[str]
    notes: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, line: _Optional[int] = ..., text: _Optional[str] = ..., player: _Optional[str] = ..., kind: _Optional[str] = ..., position: _Optional[str] = ..., word: _Optional[str] = ..., ok: _Optional[bool] = ..., has_score: _Optional[bool] = ..., score: _Optional[int] = ..., recorded_score: _Optional[int] = ..., recorded_total: _Optional[int] = ..., expected_total: _Optional[int] = ..., words: _Optional[_Iterable[str]] = ..., problems: _Optional[_Iterable[str]] = ..., notes: _Optional[_Iterable[str]] = ...) -> None: ...

class PlayerScore(_message.Message):
    __slots__ = ("player", "recorded", "computed")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    RECORDED_FIELD_NUMBER: _ClassVar[int]
    COMPUTED_FIELD_NUMBER: _ClassVar[int]
    player: str
    recorded: int
    computed: int
    def __init__(self, player: _Optional[str] = ..., recorded: _Optional[int] = ..., computed: _Optional[int] = ...) -> None: ...

class ReplayGameResponse(_message.Message):
    __slots__ = ("ok", "lines", "final_scores", "notes", "rule_set", "lexicon")
    OK_FIELD_NUMBER: _ClassVar[int]
    LINES_FIELD_NUMBER: _ClassVar[int]
    FINAL_SCORES_FIELD_NUMBER: _ClassVar[int]
    NOTES_FIELD_NUMBER: _ClassVar[int]
    RULE_SET_FIELD_NUMBER: _ClassVar[int]
    LEXICON_FIELD_NUMBER: _ClassVar[int]
    ok: bool
    lines: _containers.RepeatedCompositeFieldContainer[ReplayLine]
    final_scores: _containers.RepeatedCompositeFieldContainer[PlayerScore]
    notes: _containers.RepeatedScalarFieldContainer[str]
    rule_set: str
    lexicon: str
    def __init__(self, ok: _Optional[bool] = ..., lines: _Optional[_Iterable[_Union[ReplayLine, _Mapping]]] = ..., final_scores: _Optional[_Iterable[_Union[PlayerScore, _Mapping]]] = ..., notes: _Optional[_Iterable[str]] = ..., rule_set: _Optional[str] = ..., lexicon: _Optional[str] = ...) -> None: ...

class ListRuleSetsRequest(_message.Message):
    __slots__ = ("include_source",)
    INCLUDE_SOURCE_FIELD_NUMBER: _ClassVar[int]
    include_source: bool
    def __init__(self, include_source: _Optional[bool] = ...) -> None: ...

class TileInfo(_message.Message):
    __slots__ = ("letter", "points", "count")
    LETTER_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    letter: str
    points: int
    count: int
    def __init__(self, letter: _Optional[str] = ..., points: _Optional[int] = ..., count: _Optional[int] = ...) -> None: ...

class RuleSetInfo(_message.Message):
    __slots__ = ("id", "language", "rack_size", "board_size", "bingo_bonus", "tiles", "blank_letters", "lexicons", "source_text")
    ID_FIELD_NUMBER: _ClassVar[int]
    LANGUAGE_FIELD_NUMBER: _ClassVar[int]
    RACK_SIZE_FIELD_NUMBER: _ClassVar[int]
    BOARD_SIZE_FIELD_NUMBER: _ClassVar[int]
    BINGO_BONUS_FIELD_NUMBER: _ClassVar[int]
    TILES_FIELD_NUMBER: _ClassVar[int]
    BLANK_LETTERS_FIELD_NUMBER: _ClassVar[int]
    LEXICONS_FIELD_NUMBER: _ClassVar[int]
    SOURCE_TEXT_FIELD_NUMBER: _ClassVar[int]
    id: str
    language: str
    rack_size: int
    board_size: int
    bingo_bonus: int
    tiles: _containers.RepeatedCompositeFieldContainer[TileInfo]
    blank_letters: _containers.RepeatedScalarFieldContainer[str]
    lexicons: _containers.RepeatedScalarFieldContainer[str]
    source_text: str
    def __init__(self, id: _Optional[str] = ..., language: _Optional[str] = ..., rack_size: _Optional[int] = ..., board_size: _Optional[int] = ..., bingo_bonus: _Optional[int] = ..., tiles: _Optional[_Iterable[_Union[TileInfo, _Mapping]]] = ..., blank_letters: _Optional[_Iterable[str]] = ..., lexicons: _Optional[_Iterable[str]] = ..., source_text: _Optional[str] = ...) -> None: ...

class ListRuleSetsResponse(_message.Message):
    __slots__ = ("rule_sets",)
    RULE_SETS_FIELD_NUMBER: _ClassVar[int]
    rule_sets: _containers.RepeatedCompositeFieldContainer[RuleSetInfo]
    def __init__(self, rule_sets: _Optional[_Iterable[_Union[RuleSetInfo, _Mapping]]] = ...) -> None: ...
