"""Stable reason codes of move validation (clients and the gRPC API match on their names).

Policy (the same in validate_move, ValidateMove/ScoreMove, ReplayGame and the CLI): whatever a play
says is judged, so every code below comes back as an answer (`valid: false` with the code and a
message), never as an error. Errors (INVALID_ARGUMENT naming the field, exit status 2) are for
everything around the play: a missing field, an unknown lexicon or rule set, an unreadable board,
rack or GCG file, a request over a limit.
"""

from __future__ import annotations

from enum import Enum


class Reason(str, Enum):
    OK = "OK"
    MALFORMED_PLAY = "MALFORMED_PLAY"
    UNKNOWN_LETTER = "UNKNOWN_LETTER"
    OFF_BOARD = "OFF_BOARD"
    PLAY_MISMATCH = "PLAY_MISMATCH"
    SQUARE_OCCUPIED = "SQUARE_OCCUPIED"
    INCOMPLETE_WORD = "INCOMPLETE_WORD"
    NO_TILES = "NO_TILES"
    NOT_IN_LINE = "NOT_IN_LINE"
    GAP = "GAP"
    BAD_BLANK_LETTER = "BAD_BLANK_LETTER"
    TOO_MANY_TILES = "TOO_MANY_TILES"
    TOO_MANY_BLANKS = "TOO_MANY_BLANKS"
    TILE_COUNT_EXCEEDED = "TILE_COUNT_EXCEEDED"
    TILE_NOT_IN_RACK = "TILE_NOT_IN_RACK"
    TOO_FEW_TILES = "TOO_FEW_TILES"
    FIRST_PLAY_NOT_ON_CENTRE = "FIRST_PLAY_NOT_ON_CENTRE"
    NOT_CONNECTED = "NOT_CONNECTED"
    WORD_TOO_SHORT = "WORD_TOO_SHORT"
    DUPLICATE_WORD = "DUPLICATE_WORD"
    WORD_NOT_ADMISSIBLE = "WORD_NOT_ADMISSIBLE"

    def __str__(self) -> str:
        return self.value

    @property
    def description(self) -> str:
        return DESCRIPTIONS[self]


# What each code means; docs/rules.md's "Invalid plays" table is this table (a test keeps them equal).
DESCRIPTIONS = {
    Reason.OK: "the play is legal (and its words admissible, when a lexicon judges them)",
    Reason.MALFORMED_PLAY: "the play text cannot be read: coordinate, brackets, parentheses, empty",
    Reason.UNKNOWN_LETTER: "a letter that is not in the game, or has no tile (a blank may show it)",
    Reason.OFF_BOARD: "a square of the play lies outside the board",
    Reason.PLAY_MISMATCH: "'.' on an empty square, a letter on a square holding another one, '(X)' not matching",
    Reason.SQUARE_OCCUPIED: "tiles given by square (validate_placements): one where a tile lies, or two on one",
    Reason.INCOMPLETE_WORD: "the word goes on past the play's first or last square: "
                            "the coordinate must be where the word starts",
    Reason.NO_TILES: "the play places no tile",
    Reason.NOT_IN_LINE: "tiles given by square (validate_placements): not in one row or one column",
    Reason.GAP: "tiles given by square (validate_placements): an empty square between them",
    Reason.BAD_BLANK_LETTER: "a blank shown as a letter the rule set does not allow",
    Reason.TOO_MANY_TILES: "more new tiles than a rack holds",
    Reason.TOO_MANY_BLANKS: "more blanks (on the board and in the play) than the set has",
    Reason.TILE_COUNT_EXCEEDED: "more copies of a letter (on the board and in the play) than the set has",
    Reason.TILE_NOT_IN_RACK: "the rack given lacks a tile the play uses",
    Reason.TOO_FEW_TILES: "a first play with fewer tiles than the rule set asks, or no word of two tiles",
    Reason.FIRST_PLAY_NOT_ON_CENTRE: "the first play misses the square it must cover",
    Reason.NOT_CONNECTED: "a later play touching no tile on the board",
    Reason.WORD_TOO_SHORT: "a word shorter than the rule set's minimum length",
    Reason.DUPLICATE_WORD: "Kris Kros: the same word form would stand twice on the board",
    Reason.WORD_NOT_ADMISSIBLE: "the lexicon refuses one or more words (listed)",
}


def reason_table() -> str:
    """The docs/rules.md table of reason codes (every code a refused play can carry)."""
    rows = ["| reason code | meaning |", "|---|---|"]
    rows += [f"| `{r.value}` | {DESCRIPTIONS[r]} |" for r in Reason if r is not Reason.OK]
    return "\n".join(rows)


class PlayError(ValueError):
    """A play that cannot even be placed (bad text, off the board...); carries its reason code."""

    def __init__(self, code: Reason, message: str) -> None:
        self.code = code
        super().__init__(message)


if __name__ == "__main__":  # python -m lexicon_service.rules.reasons > table (for docs/rules.md)
    print(reason_table())
