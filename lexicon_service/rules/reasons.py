"""Stable reason codes of move validation (clients and the gRPC API match on their names)."""

from __future__ import annotations

from enum import Enum


class Reason(str, Enum):
    OK = "OK"
    MALFORMED_PLAY = "MALFORMED_PLAY"  # the play text cannot be read (coordinate, brackets, empty)
    UNKNOWN_LETTER = "UNKNOWN_LETTER"  # a letter that is not in the game (or has no tile, e.g. Q in Czech Scrabble)
    OFF_BOARD = "OFF_BOARD"  # a square of the play lies outside the board
    PLAY_MISMATCH = "PLAY_MISMATCH"  # "." on an empty square, a letter on an occupied one, "(X)" not matching
    SQUARE_OCCUPIED = "SQUARE_OCCUPIED"  # a new tile placed (by square) where a tile already lies, or twice
    NO_TILES = "NO_TILES"  # the play places no tile
    NOT_IN_LINE = "NOT_IN_LINE"  # new tiles not in one row or one column
    GAP = "GAP"  # an empty square between new tiles
    BAD_BLANK_LETTER = "BAD_BLANK_LETTER"  # a blank shown as a letter the rule set does not allow
    TILE_NOT_IN_RACK = "TILE_NOT_IN_RACK"  # the rack lacks a tile the play uses
    TOO_FEW_TILES = "TOO_FEW_TILES"  # first play with fewer tiles than the rule set asks
    FIRST_PLAY_NOT_ON_CENTRE = "FIRST_PLAY_NOT_ON_CENTRE"  # first play misses the square it must cover
    NOT_CONNECTED = "NOT_CONNECTED"  # later play touching no tile on the board
    WORD_TOO_SHORT = "WORD_TOO_SHORT"  # a word shorter than the rule set's minimum length
    DUPLICATE_WORD = "DUPLICATE_WORD"  # Kris Kros: the same word form would stand twice on the board
    WORD_NOT_ADMISSIBLE = "WORD_NOT_ADMISSIBLE"  # the judge refuses one or more words

    def __str__(self) -> str:
        return self.value


class PlayError(ValueError):
    """A play that cannot even be placed (bad text, off the board...); carries its reason code."""

    def __init__(self, code: Reason, message: str) -> None:
        self.code = code
        super().__init__(message)
