"""The game-rules engine: rule sets as data, board, move validation, scoring, GCG records and replay."""

from lexicon_service.rules.board import Board, BoardError, Coordinate, Play, parse_coordinate, parse_play
from lexicon_service.rules.game import GameFlow, end_of_game_adjustments, rack_value
from lexicon_service.rules.gcg import GcgError, GcgEvent, GcgGame, format_gcg, parse_gcg, read_gcg, write_gcg
from lexicon_service.rules.moves import (
    MoveResult,
    ScoreBreakdown,
    SetupError,
    TileScore,
    WordScore,
    apply_move,
    apply_setup,
    validate_move,
    validate_placements,
)
from lexicon_service.rules.reasons import PlayError, Reason
from lexicon_service.rules.replay import ReplayLine, ReplayReport, format_report, replay
from lexicon_service.rules.ruleset import RuleSet, RuleSetError, parse_square, square_name
from lexicon_service.rules.ruleset_text import list_rule_sets, load_rule_set, parse_rule_set

__all__ = [
    "Board",
    "BoardError",
    "Coordinate",
    "GameFlow",
    "GcgError",
    "GcgEvent",
    "GcgGame",
    "MoveResult",
    "Play",
    "PlayError",
    "Reason",
    "ReplayLine",
    "ReplayReport",
    "RuleSet",
    "RuleSetError",
    "ScoreBreakdown",
    "SetupError",
    "TileScore",
    "WordScore",
    "apply_move",
    "apply_setup",
    "end_of_game_adjustments",
    "format_gcg",
    "format_report",
    "list_rule_sets",
    "load_rule_set",
    "parse_coordinate",
    "parse_gcg",
    "parse_play",
    "parse_rule_set",
    "parse_square",
    "rack_value",
    "read_gcg",
    "replay",
    "square_name",
    "validate_move",
    "validate_placements",
    "write_gcg",
]
