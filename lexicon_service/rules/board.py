"""The board, GCG coordinates and play strings.

Coordinates follow GCG (RULES.md section 2): "8D" = row 8, column D, across; "D8" = column D, row 8,
down. A play string spells the squares from that coordinate on: uppercase = a tile from the rack,
lowercase = a blank showing that letter, "." (or the same letter) = a tile already on the board,
"[CH]" = a multi-letter tile. The coordinate is the first square of the word.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from lexicon_service.rules.reasons import PlayError, Reason
from lexicon_service.rules.ruleset import RuleSet, column_letter, square_name
from lexicon_service.tiles import BLANK, PlayTile, UnknownLetterError, normalise, write_tiles


_PREMIUM_SYMBOLS = {(1, 3): "=", (1, 2): "-", (3, 1): '"', (2, 1): "'"}  # (letter x, word x) -> mark


_TOTAL = ""  # tile_counts() key of the tile count it was computed for (no letter is empty)


class BoardError(ValueError):
    """A board description that does not fit the rule set."""


_COORD_RE = re.compile(r"^\s*(?:(\d{1,2})([A-Za-z])|([A-Za-z])(\d{1,2}))\s*$")


@dataclass(frozen=True)
class Coordinate:
    row: int  # 0-based
    col: int  # 0-based
    across: bool

    def __str__(self) -> str:
        if self.across:
            return f"{self.row + 1}{column_letter(self.col)}"
        return f"{column_letter(self.col)}{self.row + 1}"


def parse_coordinate(text: str, rule_set: RuleSet | None = None) -> Coordinate:
    """"8D" -> row 8 col D across; "D8" -> down. Raises PlayError (MALFORMED_PLAY / OFF_BOARD)."""
    m = _COORD_RE.match(text)
    if not m:
        raise PlayError(Reason.MALFORMED_PLAY, f"bad coordinate {text!r}: expected e.g. 8D (across) or D8 (down)")
    if m.group(1):
        row, col, across = int(m.group(1)) - 1, ord(m.group(2).upper()) - 65, True
    else:
        row, col, across = int(m.group(4)) - 1, ord(m.group(3).upper()) - 65, False
    if rule_set is not None and not (0 <= row < rule_set.rows and 0 <= col < rule_set.columns):
        raise PlayError(Reason.OFF_BOARD, f"coordinate {text.strip()!r} is off the "
                                          f"{rule_set.rows}x{rule_set.columns} board")
    if row < 0 or col < 0:
        raise PlayError(Reason.OFF_BOARD, f"coordinate {text.strip()!r} is off the board")
    return Coordinate(row, col, across)


@dataclass(frozen=True)
class Play:
    """A play as written: where it starts, its direction, and its squares ("." = already on the board)."""

    row: int
    col: int
    across: bool
    tiles: tuple[PlayTile, ...]

    @property
    def coordinate(self) -> Coordinate:
        return Coordinate(self.row, self.col, self.across)

    def squares(self):
        """(row, col, PlayTile) for every square the string covers (may run off the board)."""
        dr, dc = (0, 1) if self.across else (1, 0)
        return [(self.row + i * dr, self.col + i * dc, t) for i, t in enumerate(self.tiles)]

    def text(self, tile_set=None) -> str:
        """The squares as play text; with the rule set's `tile_set`, also unambiguous when a single
        letter would merge with the next into a multi-letter tile ("[C]H")."""
        return write_tiles(((t.letter, t.is_blank) for t in self.tiles), tile_set)

    def __str__(self) -> str:
        return f"{self.coordinate} {self.text()}"


def _parenthesised_to_dots(word: str):
    """"S(PRÓBUJE)MY" -> ("S........MY", expected through-letters); some GCG writers use this."""
    if "(" not in word:
        return word, None
    out, expected, depth, i = [], [], 0, 0
    while i < len(word):
        ch = word[i]
        if ch == "(":
            if depth:
                raise PlayError(Reason.MALFORMED_PLAY, f"nested '(' in {word!r}")
            depth = 1
        elif ch == ")":
            if not depth:
                raise PlayError(Reason.MALFORMED_PLAY, f"unbalanced ')' in {word!r}")
            depth = 0
        elif depth:
            if ch == "[":
                end = word.find("]", i)
                if end < 0:
                    raise PlayError(Reason.MALFORMED_PLAY, f"unclosed '[' in {word!r}")
                expected.append((len(out), word[i : end + 1]))
                out.append(".")
                i = end + 1
                continue
            expected.append((len(out), ch))
            out.append(".")
        else:
            out.append(ch)
        i += 1
    if depth:
        raise PlayError(Reason.MALFORMED_PLAY, f"unclosed '(' in {word!r}")
    return "".join(out), expected


def split_play(text: str) -> tuple[str, str]:
    """"8D SŁOWO" -> ("8D", "SŁOWO"); raises PlayError (MALFORMED_PLAY) unless there are two parts."""
    parts = text.split()
    if len(parts) != 2:
        raise PlayError(Reason.MALFORMED_PLAY, f"bad play {text!r}: expected 'COORDINATE WORD', e.g. '8D SŁOWO'")
    return parts[0], parts[1]


def parse_play(rule_set: RuleSet, text: str, word: str | None = None) -> tuple[Play, list | None]:
    """Parse "8A S.......MY" (or coordinate and word apart). Returns the play and, for the
    "S(PRÓBUJE)MY" notation, the letters expected under the "." squares (else None).
    Raises PlayError with a reason code; never IndexError/KeyError."""
    if not isinstance(text, str) or (word is not None and not isinstance(word, str)):
        raise PlayError(Reason.MALFORMED_PLAY, "a play must be text such as '8D WORD'")
    if word is None:
        text, word = split_play(text)
    coord = parse_coordinate(text, rule_set)
    word = normalise(word.strip())
    word, expected = _parenthesised_to_dots(word)
    if not word:
        raise PlayError(Reason.MALFORMED_PLAY, "empty play")
    try:
        tiles = rule_set.tile_set.spell_play(word)
    except UnknownLetterError as exc:
        hint = ""
        if exc.letter == "?":
            hint = "; write a blank as the lowercase letter it stands for"
        raise PlayError(Reason.UNKNOWN_LETTER, f"{exc}{hint}") from None
    expected_letters = None
    if expected:
        # Map character positions of "." to tile indexes (multi-letter tiles shift them).
        dot_tiles = [i for i, t in enumerate(tiles) if t.letter is None]
        expected_letters = {}
        for (_, letter_text), tile_index in zip(expected, dot_tiles):
            try:
                spelled = rule_set.tile_set.spell_play(letter_text)
            except UnknownLetterError as exc:
                raise PlayError(Reason.UNKNOWN_LETTER, str(exc)) from None
            expected_letters[tile_index] = spelled[0].letter if len(spelled) == 1 else None
    return Play(coord.row, coord.col, coord.across, tiles), expected_letters


class Board:
    """Squares of a board: letter (canonical, e.g. "CH") or None, and whether it is a blank.

    Flat lists indexed row * columns + col, for speed (move validation runs in tight loops).
    """

    __slots__ = ("rule_set", "rows", "columns", "letters", "blanks", "tile_count", "_runs", "_counts")

    def __init__(self, rule_set: RuleSet) -> None:
        self.rule_set = rule_set
        self.rows = rule_set.rows
        self.columns = rule_set.columns
        self.letters: list[str | None] = [None] * (self.rows * self.columns)
        self.blanks: list[bool] = [False] * (self.rows * self.columns)
        self.tile_count = 0
        self._runs = None  # cached words on the board (Kris Kros same-word rule)
        self._counts = None  # cached tile_counts()

    @classmethod
    def empty(cls, rule_set: RuleSet) -> "Board":
        return cls(rule_set)

    @classmethod
    def from_rows(cls, rule_set: RuleSet, rows) -> "Board":
        """One string per row: "." empty, uppercase tile, lowercase blank, "[CH]" or plain "CH"."""
        if isinstance(rows, str):
            rows = rows.split()
        rows = list(rows)
        board = cls(rule_set)
        if len(rows) != board.rows:
            raise BoardError(f"{len(rows)} rows given, the {rule_set.id} board has {board.rows}")
        for r, row_text in enumerate(rows):
            if not isinstance(row_text, str):
                raise BoardError(f"row {r + 1} is not text")
            try:
                squares = rule_set.tile_set.spell_play(row_text.strip())
            except UnknownLetterError as exc:
                raise BoardError(f"row {r + 1}: {exc}") from None
            if len(squares) != board.columns:
                raise BoardError(f"row {r + 1} has {len(squares)} squares, the board has {board.columns} columns")
            for c, square in enumerate(squares):
                if square.letter is not None:
                    board.place(r, c, square.letter, square.is_blank)
        return board

    def copy(self) -> "Board":
        other = Board.__new__(Board)
        other.rule_set = self.rule_set
        other.rows = self.rows
        other.columns = self.columns
        other.letters = self.letters[:]
        other.blanks = self.blanks[:]
        other.tile_count = self.tile_count
        other._runs = self._runs
        other._counts = self._counts
        return other

    def transposed(self) -> "Board":
        """Rows become columns (for symmetric boards the scores of transposed plays are equal)."""
        if self.rows != self.columns:
            raise BoardError("only a square board can be transposed")
        other = Board(self.rule_set)
        n = self.columns
        for r in range(self.rows):
            for c in range(n):
                other.letters[c * n + r] = self.letters[r * n + c]
                other.blanks[c * n + r] = self.blanks[r * n + c]
        other.tile_count = self.tile_count
        return other

    def is_empty(self) -> bool:
        return self.tile_count == 0

    def on_board(self, row: int, col: int) -> bool:
        return 0 <= row < self.rows and 0 <= col < self.columns

    def get(self, row: int, col: int) -> tuple[str, bool] | None:
        """(letter, is_blank) of a square, or None when empty or off the board."""
        if not self.on_board(row, col):
            return None
        i = row * self.columns + col
        letter = self.letters[i]
        return None if letter is None else (letter, self.blanks[i])

    def place(self, row: int, col: int, letter: str, is_blank: bool = False) -> None:
        if not self.on_board(row, col):
            raise BoardError(f"square {column_letter(col) if 0 <= col < 26 else col}{row + 1} is off the board")
        tile_set = self.rule_set.tile_set
        if not tile_set.has_letter(letter):
            raise BoardError(f"{letter!r} is not a letter of {self.rule_set.id}")
        if is_blank and not tile_set.blank_may_be(letter):
            raise BoardError(f"a blank may not show {letter} in {self.rule_set.id}")
        if not is_blank and letter not in tile_set._by_letter:
            raise BoardError(f"{self.rule_set.id} has no {letter} tile (write {letter.lower()} for a blank)")
        i = row * self.columns + col
        if self.letters[i] is not None:
            raise BoardError(f"square {column_letter(col)}{row + 1} is occupied")
        self.letters[i] = letter
        self.blanks[i] = bool(is_blank)
        self.tile_count += 1
        self._runs = None
        self._counts = None

    def apply(self, move) -> None:
        """Place the new tiles of a placeable MoveResult (tiles never move afterwards)."""
        if move.score is None:
            raise PlayError(move.reason, f"cannot apply a play that cannot be placed: {move.message}")
        for row, col, letter, blank in move.placements:
            self.place(row, col, letter, blank)

    def lift(self, placements) -> None:
        """Take the tiles of `placements` ((row, col, ...) of a play) back off the board: a play
        withdrawn after a successful challenge."""
        squares = [(row, col) for row, col, *_ in placements]
        for row, col in squares:  # all or nothing
            if self.get(row, col) is None:
                raise BoardError(f"square {square_name(row, col)} holds no tile to lift")
        for row, col in squares:
            i = row * self.columns + col
            self.letters[i] = None
            self.blanks[i] = False
            self.tile_count -= 1
        self._runs = None
        self._counts = None

    def to_rows(self) -> list[str]:
        cols, ts = self.columns, self.rule_set.tile_set
        return [write_tiles(((self.letters[i], self.blanks[i]) for i in range(r * cols, (r + 1) * cols)), ts)
                for r in range(self.rows)]

    def __str__(self) -> str:
        return "\n".join(self.to_rows())

    def cells(self) -> list[list[str]]:
        """Each square as it reads, row by row: "" empty, its letter ("CH" for a multi-letter tile),
        lowercase for a blank."""
        cols = self.columns
        return [[(letter.lower() if blank else letter) if letter else ""
                 for letter, blank in zip(self.letters[r * cols:(r + 1) * cols], self.blanks[r * cols:(r + 1) * cols])]
                for r in range(self.rows)]

    def render_text(self, new=(), legend: bool = True) -> str:
        """The board for people: column letters and row numbers, tiles (blanks lowercase, multi-letter
        tiles as they read), premium squares where empty (= TW, - DW, " TL, ' DL, as Quackle and
        macondo draw them) and "*" after each square in `new` ((row, col) pairs, e.g. a play's tiles)."""
        cols = self.columns
        lm, wm = self.rule_set.letter_multipliers, self.rule_set.word_multipliers
        width = max([len(t.letter) for t in self.rule_set.tile_set.tiles] + [1])
        marked = {(r, c) for r, c, *_ in new}
        out = ["   " + " ".join(f"{column_letter(c):>{width}} " for c in range(cols)).rstrip()]
        for r, row in enumerate(self.cells()):
            cells = []
            for c, text in enumerate(row):
                i = r * cols + c
                if not text:
                    text = _PREMIUM_SYMBOLS.get((lm[i], wm[i]), "+" if lm[i] > 1 or wm[i] > 1 else ".")
                cells.append(f"{text:>{width}}" + ("*" if (r, c) in marked else " "))
            out.append(f"{r + 1:>2} " + " ".join(cells).rstrip())
        if legend:
            other = any((a, b) not in _PREMIUM_SYMBOLS and (a > 1 or b > 1) for a, b in zip(lm, wm))
            out.append('   = TW  - DW  " TL  \' DL  ' + ("+ other premium  " if other else "")
                       + ". plain; lowercase = blank" + ("; * new tile" if marked else ""))
        return "\n".join(out)

    def __eq__(self, other) -> bool:
        return (isinstance(other, Board) and self.rule_set.id == other.rule_set.id
                and self.letters == other.letters and self.blanks == other.blanks)

    def tile_counts(self) -> dict[str, int]:
        """Tiles on the board: letter -> real tiles showing it, "?" -> blanks. Cached until the board changes."""
        counts = self._counts
        if counts is None or counts[_TOTAL] != self.tile_count:
            # counted in C over the occupied squares (a self-play turn asks once per move)
            counts = dict(Counter(filter(None, self.letters)))
            blanks, letters, i = self.blanks, self.letters, -1
            while True:
                try:
                    i = blanks.index(True, i + 1)
                except ValueError:
                    break
                counts[letters[i]] -= 1
                if not counts[letters[i]]:
                    del counts[letters[i]]
                counts[BLANK] = counts.get(BLANK, 0) + 1
            counts[_TOTAL] = self.tile_count
            self._counts = counts
        return counts

    def word_runs(self) -> dict:
        """Every word on the board: (across, line, start) -> (end, key). Cached until the board changes."""
        if self._runs is not None:
            return self._runs
        runs = {}
        key_of = self.rule_set.tile_set._key_of_letter
        letters, n_cols = self.letters, self.columns
        for across in (True, False):
            outer, inner = (self.rows, self.columns) if across else (self.columns, self.rows)
            for line in range(outer):
                start = None
                for pos in range(inner + 1):
                    letter = None
                    if pos < inner:
                        letter = letters[line * n_cols + pos] if across else letters[pos * n_cols + line]
                    if letter is not None:
                        if start is None:
                            start = pos
                    elif start is not None:
                        if pos - start >= 2:
                            if across:
                                key = "".join(key_of[letters[line * n_cols + p]] for p in range(start, pos))
                            else:
                                key = "".join(key_of[letters[p * n_cols + line]] for p in range(start, pos))
                            runs[(across, line, start)] = (pos - 1, key)
                        start = None
        self._runs = runs
        return runs
