"""Rule sets as data: one readable `.rules` file per game (lexicon_service/rulesets/*.rules), read
into the dataclasses below by `rules/ruleset_text.py` (`parse_rule_set`, `load_rule_set`).

Each section of the file is a dataclass below; each field says what it means and who uses it. A
section left out takes its defaults; [game], [tiles] and [rack] are required.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from lexicon_service.tiles import TileSet


class RuleSetError(ValueError):
    """A rule-set file that cannot be used; names the file, line and field."""

    def __init__(self, message: str, origin: str = "", line: int | None = None, field_name: str = "") -> None:
        self.origin = origin
        self.line = line
        self.field = field_name
        where = origin or "<rule set>"
        if line is not None:
            where += f":{line}"
        what = f" {field_name}:" if field_name else ""
        super().__init__(f"{where}:{what} {message}")


# --- sections ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameInfo:
    """[game]: identity of the rule set."""

    id: str = ""  # name used by commands, lexicons (`--rules cs-scrabble`) and GCG replay
    name: str = ""  # human-readable game name
    language: str = ""  # "cs" / "pl": which expander builds lexicons for this game
    profile: str = ""  # default admissibility profile of lexicons built for this game
    players: tuple[int, int] = (2, 4)  # min-max players; replay refuses records outside it
    sources: str = ""  # where the rules come from (documentation only)


@dataclass(frozen=True)
class BlankRules:
    """[blank]: what a blank may stand for. Count and points come from the "?" row of [tiles]."""

    stands_for: tuple[str, ...] = ("tiles",)  # "tiles" = every tile letter; further letters are extras (Q, W)


@dataclass(frozen=True)
class BoardSpec:
    """[board] + [layout]: geometry and premium squares; used by Board and scoring."""

    rows: int = 15
    columns: int = 15
    # premiums[row][col] = (letter multiplier, word multiplier); filled from [layout]
    premiums: tuple[tuple[tuple[int, int], ...], ...] = ()


@dataclass(frozen=True)
class RackRules:
    """[rack]: rack size and the bingo bonus; used by scoring and replay (bag tracking)."""

    size: int = 7  # tiles on a full rack
    bingo_tiles: int = 7  # tiles placed in one move that earn the bonus
    bingo_bonus: int = 50  # points added after all multipliers


@dataclass(frozen=True)
class FirstPlayRules:
    """[first-play]: the opening move; used by move validation."""

    must_cover: tuple[int, int] | None = None  # (row, col), 0-based; None = anywhere
    min_tiles: int = 2  # fewest tiles the first play may place
    # Before any play, nobody can make a word: every rack goes back and is dealt again. The server decides it
    # itself when the game's lexicon has a move graph; else a full round of passes before any play does.
    redraw_if_blocked: bool = False


@dataclass(frozen=True)
class LaterPlayRules:
    """[later-plays]: moves after the first; used by move validation."""

    must_connect: bool = True  # a new tile must touch (orthogonally) a tile already on the board


@dataclass(frozen=True)
class WordRules:
    """[words]: which runs of tiles are words; used by move validation."""

    min_length: int = 2  # runs shorter than this (in tiles) are not words and are not checked
    same_word_twice: str = "allowed"  # "forbidden": a word form may stand only once on the board


@dataclass(frozen=True)
class ExchangeRules:
    """[exchange]: trading tiles with the bag; used by replay."""

    allowed: bool = True
    min_tiles_in_bag: int = 7  # an exchange needs at least this many tiles in the bag


@dataclass(frozen=True)
class EndRules:
    """[end]: how a game ends and the final rack adjustment; used by replay and end-of-game scoring."""

    scoreless_turns: int = 6  # consecutive scoreless turns (all players) that end the game; 0 = never
    passing_rounds: int = 2  # consecutive rounds in which everyone passes that end the game; 0 = never
    subtract_own_rack: bool = True  # each player loses the value of their remaining tiles
    out_bonus: str = "others-racks"  # player who went out gains: none | others-racks | twice-others-racks
    # No rack can make a play any more: the game ends. The server decides it when the game's lexicon
    # has a move graph (a record carries the reason as a note); without one, passes end such a game.
    ends_when_blocked: bool = False
    # A pass says "I cannot make a play" (Kris Kros "dál" read strictly): the server refuses it while the
    # player's rack can make one (with the move graph; without one, or on a timeout, a pass is a pass).
    pass_only_when_blocked: bool = False


@dataclass(frozen=True)
class ChallengeRules:
    """[challenge]: what happens when a play is challenged; used by replay."""

    rule: str = "single"  # single | double | penalty
    penalty_points: int = 0  # lost by a challenger whose challenge fails (penalty rule)
    corrections: int = 0  # tries to replace a word ruled invalid before losing the turn
    correction_seconds: int = 0  # time for such a correction


@dataclass(frozen=True)
class TimerRules:
    """[timer]: move timer; used by clients and documentation."""

    move_seconds: int = 0  # seconds per move; 0 = no move timer
    timeout: str = "forfeit-turn"  # what a timeout costs: forfeit-turn | none


STANDARD_LAYOUT = """\
TW .. .. DL .. .. .. TW .. .. .. DL .. .. TW
.. DW .. .. .. TL .. .. .. TL .. .. .. DW ..
.. .. DW .. .. .. DL .. DL .. .. .. DW .. ..
DL .. .. DW .. .. .. DL .. .. .. DW .. .. DL
.. .. .. .. DW .. .. .. .. .. DW .. .. .. ..
.. TL .. .. .. TL .. .. .. TL .. .. .. TL ..
.. .. DL .. .. .. DL .. DL .. .. .. DL .. ..
TW .. .. DL .. .. .. DW .. .. .. DL .. .. TW
.. .. DL .. .. .. DL .. DL .. .. .. DL .. ..
.. TL .. .. .. TL .. .. .. TL .. .. .. TL ..
.. .. .. .. DW .. .. .. .. .. DW .. .. .. ..
DL .. .. DW .. .. .. DL .. .. .. DW .. .. DL
.. .. DW .. .. .. DL .. DL .. .. .. DW .. ..
.. DW .. .. .. TL .. .. .. TL .. .. .. DW ..
TW .. .. DL .. .. .. TW .. .. .. DL .. .. TW
"""


def column_letter(col: int) -> str:
    return chr(ord("A") + col)


def square_name(row: int, col: int) -> str:
    """Square name as in RULES.md: column letter then row number, "H8"."""
    return f"{column_letter(col)}{row + 1}"


_SQUARE_RE = re.compile(r"^(?:([A-Za-z])(\d{1,2})|(\d{1,2})([A-Za-z]))$")


def parse_square(text: str) -> tuple[int, int] | None:
    """"H8" or "8H" -> (row, col) 0-based; None when not a square."""
    m = _SQUARE_RE.match(text.strip())
    if not m:
        return None
    letter, number = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
    return int(number) - 1, ord(letter.upper()) - ord("A")


# --- the rule set --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RuleSet:
    """A parsed rule-set file. `source_text` is the file verbatim (lexicons embed it)."""

    game: GameInfo
    tile_set: TileSet
    board: BoardSpec
    rack: RackRules
    first_play: FirstPlayRules
    later_plays: LaterPlayRules
    words: WordRules
    exchange: ExchangeRules
    end: EndRules
    challenge: ChallengeRules
    timer: TimerRules
    blank: BlankRules
    source_text: str = field(repr=False, default="")
    origin: str = ""
    # Flat per-square multipliers (index row * columns + col), for fast scoring.
    letter_multipliers: tuple[int, ...] = field(init=False, repr=False, compare=False)
    word_multipliers: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        flat = [p for row in self.board.premiums for p in row]
        object.__setattr__(self, "letter_multipliers", tuple(p[0] for p in flat))
        object.__setattr__(self, "word_multipliers", tuple(p[1] for p in flat))

    # Shorthands used everywhere.
    @property
    def id(self) -> str:
        return self.game.id

    @property
    def name(self) -> str:
        return self.game.name

    @property
    def language(self) -> str:
        return self.game.language

    @property
    def profile(self) -> str:
        return self.game.profile

    @property
    def rows(self) -> int:
        return self.board.rows

    @property
    def columns(self) -> int:
        return self.board.columns

    @property
    def rack_size(self) -> int:
        return self.rack.size

    @property
    def bingo_tiles(self) -> int:
        return self.rack.bingo_tiles

    @property
    def bingo_bonus(self) -> int:
        return self.rack.bingo_bonus

    @property
    def same_word_twice_allowed(self) -> bool:
        return self.words.same_word_twice == "allowed"

    def premium(self, row: int, col: int) -> tuple[int, int]:
        """(letter multiplier, word multiplier) of a square."""
        return self.board.premiums[row][col]

    def __str__(self) -> str:
        return f"{self.id} ({self.name})"


# --- parsing ---------------------------------------------------------------------------------------
