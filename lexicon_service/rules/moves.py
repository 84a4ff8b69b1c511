"""Move validation (RULES.md section 4) and scoring (section 5).

`validate_move(rule_set, board, rack, play, lexicon=None)` takes a play string ("8A S.......MY");
`validate_placements(...)` takes new tiles by square (for clients that drag tiles). Both return a
`MoveResult`. The score is computed whenever the play can be placed on the board (even if a word is
refused), because a phony that stood until challenged still scored; `valid` says whether it is legal.
Words are checked through the AdmissibleWords protocol (rules/admissible_words.py: a Lexicon or a WordSet)
by tile key; lexicon=None means score-only.
"""

from __future__ import annotations

from dataclasses import dataclass

from lexicon_service.rules.board import Board, Play, parse_play
from lexicon_service.rules.reasons import PlayError, Reason
from lexicon_service.rules.ruleset import RuleSet, square_name
from lexicon_service.rules.ruleset_text import load_rule_set
from lexicon_service.tiles import BLANK, UnknownLetterError, write_tiles

_PREMIUM_NAMES = {(2, 1): "DL", (3, 1): "TL", (4, 1): "QL", (1, 2): "DW", (1, 3): "TW", (1, 4): "QW"}


def premium_name(letter_multiplier: int, word_multiplier: int) -> str | None:
    if letter_multiplier == word_multiplier == 1:
        return None
    name = _PREMIUM_NAMES.get((letter_multiplier, word_multiplier))
    if name:
        return name
    return f"{letter_multiplier}L" if letter_multiplier > 1 else f"{word_multiplier}W"


@dataclass(frozen=True)
class TileScore:
    """One tile of a scored word."""

    letter: str
    row: int
    col: int
    points: int  # face value in this play: 0 for a blank
    is_blank: bool
    is_new: bool  # placed in this play (only new tiles use premiums)
    premium: str | None  # premium square used ("DL", "TW"...), None if none or tile not new
    letter_multiplier: int  # 1 unless a new tile on a letter premium


@dataclass(frozen=True)
class WordScore:
    """One word of a play with its score: subtotal = word_multiplier * letter_sum."""

    text: str  # display: blanks lowercase, multi-letter tiles in brackets ("[CH]ata")
    key: str  # tile key (what the lexicon was asked)
    across: bool
    row: int
    col: int
    tiles: tuple[TileScore, ...]
    letter_sum: int  # sum of points x letter multipliers
    word_multiplier: int  # product of word premiums under new tiles
    subtotal: int


@dataclass(frozen=True)
class ScoreBreakdown:
    words: tuple[WordScore, ...]
    bingo_bonus: int  # added after all multipliers
    total: int


# A word as computed in the hot path: (across, start index, tiles, key, letter_sum, word_mult),
# tiles = tuple of (square index, letter, is_blank, is_new).
_WordData = tuple


class MoveResult:
    """Outcome of validating a play.

    valid: the play is legal (and its words admissible, when a lexicon was given).
    reason / code: a stable Reason (its name is the code); message: for humans.
    words: every word formed (display text: blanks lowercase, multi-letter tiles in brackets), main first.
    invalid_words: words refused (by the lexicon, as duplicates, as too short).
    score: set whenever the play could be placed (also for a refused phony); None otherwise.
    bingo, placements ((row, col, letter, is_blank) of new tiles), across, breakdown (per word, per tile).
    """

    __slots__ = ("valid", "reason", "message", "rule_set", "invalid_words", "score", "bingo", "placements",
                 "across", "_words", "_word_texts")

    def __init__(self, valid: bool, reason: Reason, message: str, rule_set: RuleSet | None = None,
                 invalid_words: tuple[str, ...] = (), score: int | None = None, bingo: bool = False,
                 placements: tuple = (), across: bool = True, words_data: tuple = ()) -> None:
        self.valid = valid
        self.reason = reason
        self.message = message
        self.rule_set = rule_set
        self.invalid_words = invalid_words
        self.score = score
        self.bingo = bingo
        self.placements = placements
        self.across = across
        self._words = words_data
        self._word_texts = None

    @property
    def code(self) -> str:
        return self.reason.value

    @property
    def words(self) -> tuple[str, ...]:
        if self._word_texts is None:
            self._word_texts = tuple(_display(w[2]) for w in self._words)
        return self._word_texts

    @property
    def tiles_used(self) -> tuple[str, ...]:
        """Rack tiles this play uses ("?" for a blank)."""
        return tuple(BLANK if blank else letter for _, _, letter, blank in self.placements)

    @property
    def word_keys(self) -> tuple[str, ...]:
        return tuple(w[3] for w in self._words)

    @property
    def breakdown(self) -> ScoreBreakdown | None:
        """Per-word, per-tile score detail (built on demand: the hot path keeps only tuples)."""
        if self.score is None or self.rule_set is None:
            return None
        rs = self.rule_set
        cols = rs.columns
        points = rs.tile_set.points
        lm, wm = rs.letter_multipliers, rs.word_multipliers
        words = []
        for across, start, tiles, key, letter_sum, word_mult in self._words:
            tile_scores = []
            for idx, letter, blank, new in tiles:
                l_mult = lm[idx] if new else 1
                premium = premium_name(lm[idx], wm[idx]) if new else None
                tile_scores.append(TileScore(letter, idx // cols, idx % cols, 0 if blank else points(letter),
                                             blank, new, premium, l_mult))
            words.append(WordScore(_display(tiles), key, across, start // cols, start % cols, tuple(tile_scores),
                                   letter_sum, word_mult, letter_sum * word_mult))
        bonus = rs.bingo_bonus if self.bingo else 0
        return ScoreBreakdown(tuple(words), bonus, self.score)

    def as_dict(self) -> dict:
        """Plain data (for JSON / the server)."""
        return {"valid": self.valid, "code": self.code, "message": self.message, "words": list(self.words),
                "invalid_words": list(self.invalid_words), "score": self.score, "bingo": self.bingo,
                "placements": [list(p) for p in self.placements]}

    def __bool__(self) -> bool:
        return self.valid

    def __repr__(self) -> str:
        return (f"MoveResult(valid={self.valid}, reason={self.reason.value}, score={self.score}, "
                f"words={self.words}, message={self.message!r})")


def _display(tiles) -> str:
    return write_tiles((letter, blank) for _, letter, blank, _ in tiles)


def _fail(reason: Reason, message: str, rule_set=None) -> MoveResult:
    return MoveResult(False, reason, message, rule_set)


def _parse_rack(rule_set: RuleSet, rack):
    """Rack text ("AB?" / "[CH]A?") or a sequence of letters -> list of letters ("?" = blank)."""
    if rack is None:
        return None
    if isinstance(rack, str):
        return list(rule_set.tile_set.spell_rack(rack))
    return list(rack)


def validate_move(rule_set: RuleSet, board: Board, rack, play, lexicon=None) -> MoveResult:
    """Check and score a play string ("8A S.......MY", or a Play, or (coordinate, word)).

    rule_set: a RuleSet (or its id); board: a Board of that rule set (None = empty board).

    The main word runs on over board tiles touching either end of the string ("8K Y" after KOT at 8H
    makes KOTY). rack: "ABC?" text, a sequence of letters, or None to skip the rack check.
    lexicon: AdmissibleWords (is_admissible(key) -> bool: a Lexicon, a WordSet), or None for score-only.
    Never raises on bad input: the result carries a reason code and message.
    """
    if isinstance(rule_set, str):
        rule_set = load_rule_set(rule_set)
    if board is None:
        board = Board.empty(rule_set)
    expected = None
    try:
        if isinstance(play, Play):
            parsed = play
        elif isinstance(play, tuple) and len(play) == 2:
            parsed, expected = parse_play(rule_set, play[0], play[1])
        else:
            parsed, expected = parse_play(rule_set, play)
    except PlayError as exc:
        return _fail(exc.code, str(exc), rule_set)
    if board.rule_set is not rule_set and board.rule_set.id != rule_set.id:
        return _fail(Reason.MALFORMED_PLAY, f"board is for {board.rule_set.id}, not {rule_set.id}", rule_set)

    rows, cols = board.rows, board.columns
    letters = board.letters
    across = parsed.across
    r, c = parsed.row, parsed.col
    dr, dc = (0, 1) if across else (1, 0)
    placements = []
    for i, tile in enumerate(parsed.tiles):
        if not (0 <= r < rows and 0 <= c < cols):
            return _fail(Reason.OFF_BOARD, f"the play runs off the board at {square_name(r, c)}", rule_set)
        idx = r * cols + c
        current = letters[idx]
        if tile.letter is None:
            if current is None:
                return _fail(Reason.PLAY_MISMATCH, f"'.' at {square_name(r, c)} but that square is empty", rule_set)
            if expected and expected.get(i) not in (None, current):
                return _fail(Reason.PLAY_MISMATCH,
                             f"the play expects {expected[i]} at {square_name(r, c)}, the board has {current}",
                             rule_set)
        elif current is None:
            placements.append((idx, tile.letter, tile.is_blank))
        elif tile.letter != current or (tile.is_blank and not board.blanks[idx]):
            # A letter written over a tile names that tile (as GCG writers such as Elise do): it must be
            # the same letter; lowercase (a blank) only over a blank, uppercase over either.
            held = current.lower() if board.blanks[idx] else current
            return _fail(Reason.PLAY_MISMATCH,
                         f"{tile.letter.lower() if tile.is_blank else tile.letter} given at {square_name(r, c)}, "
                         f"which already holds {held}", rule_set)
        r += dr
        c += dc
    # The play spells its whole main word: no tile just before its first square or after its last.
    first_r, first_c = parsed.row - dr, parsed.col - dc
    if first_r >= 0 and first_c >= 0 and letters[first_r * cols + first_c] is not None:
        return _fail(Reason.INCOMPLETE_WORD,
                     f"{square_name(first_r, first_c)} holds a tile: the word starts before "
                     f"{parsed.coordinate}; give the coordinate of its first square", rule_set)
    if r < rows and c < cols and letters[r * cols + c] is not None:
        return _fail(Reason.INCOMPLETE_WORD,
                     f"{square_name(r, c)} holds a tile: the word goes on past the play's last square; "
                     "write the whole word ('.' or the letter for tiles on the board)", rule_set)
    return _evaluate(rule_set, board, rack, placements, across, lexicon)


def validate_placements(rule_set: RuleSet, board: Board, rack, placements, lexicon=None) -> MoveResult:
    """Check and score new tiles given by square: [(row, col, letter, is_blank), ...] (0-based)."""
    rows, cols = board.rows, board.columns
    seen = set()
    flat = []
    try:
        for item in placements:
            row, col, letter, is_blank = item
            if not (isinstance(row, int) and isinstance(col, int)):
                return _fail(Reason.MALFORMED_PLAY, f"bad square {row!r}, {col!r}", rule_set)
            if not (0 <= row < rows and 0 <= col < cols):
                return _fail(Reason.OFF_BOARD, f"square row {row + 1}, column {col + 1} is off the board", rule_set)
            idx = row * cols + col
            if idx in seen:
                return _fail(Reason.SQUARE_OCCUPIED, f"two tiles placed on {square_name(row, col)}", rule_set)
            seen.add(idx)
            if board.letters[idx] is not None:
                return _fail(Reason.SQUARE_OCCUPIED,
                             f"{square_name(row, col)} already holds {board.letters[idx]}", rule_set)
            spelled = rule_set.tile_set.spell(letter) if isinstance(letter, str) else None
            if not spelled or len(spelled) != 1:
                return _fail(Reason.UNKNOWN_LETTER, f"{letter!r} is not one tile of {rule_set.id}", rule_set)
            flat.append((idx, spelled[0], bool(is_blank)))
    except UnknownLetterError as exc:
        return _fail(Reason.UNKNOWN_LETTER, str(exc), rule_set)
    except (TypeError, ValueError):
        return _fail(Reason.MALFORMED_PLAY, "placements must be (row, col, letter, is_blank) tuples", rule_set)
    if not flat:
        return _fail(Reason.NO_TILES, "the play places no tile", rule_set)
    same_row = len({i // cols for i, _, _ in flat}) == 1
    same_col = len({i % cols for i, _, _ in flat}) == 1
    if not (same_row or same_col):
        return _fail(Reason.NOT_IN_LINE, "new tiles must lie in one row or one column", rule_set)
    if len(flat) == 1:
        idx = flat[0][0]
        # A single tile: its direction is the one in which it forms a word (across first).
        row, col = divmod(idx, cols)
        left = col > 0 and board.letters[idx - 1] is not None
        right = col + 1 < cols and board.letters[idx + 1] is not None
        across = left or right or not (
            (row > 0 and board.letters[idx - cols] is not None) or
            (row + 1 < rows and board.letters[idx + cols] is not None))
    else:
        across = same_row
    flat.sort()
    step = 1 if across else cols
    for (a, _, _), (b, _, _) in zip(flat, flat[1:]):
        for gap_idx in range(a + step, b, step):
            if board.letters[gap_idx] is None:
                return _fail(Reason.GAP, f"empty square {square_name(*divmod(gap_idx, cols))} between new tiles",
                             rule_set)
    return _evaluate(rule_set, board, rack, flat, across, lexicon)


def _evaluate(rule_set: RuleSet, board: Board, rack, placements, across: bool, lexicon) -> MoveResult:
    """Shared checks after geometry within the line is known; placements sorted along the line."""
    n_new = len(placements)
    if not n_new:
        return _fail(Reason.NO_TILES, "the play places no tile", rule_set)
    # Each check answers a failed MoveResult (falsy: tested against None) or None.
    failure = _check_tiles(rule_set, board, placements)
    if failure is None:
        failure = _check_rack(rule_set, rack, placements)
    if failure is None:
        failure = _check_position(rule_set, board, placements)
    if failure is not None:
        return failure
    words = _words(rule_set, board, placements, across)
    if not words:
        return _fail(Reason.TOO_FEW_TILES, "the play forms no word of two or more tiles", rule_set)
    cols = board.columns
    score = 0
    for w in words:
        score += w[4] * w[5]
    bingo = n_new == rule_set.rack.bingo_tiles
    if bingo:
        score += rule_set.rack.bingo_bonus
    row_col = tuple([(idx // cols, idx % cols, letter, blank) for idx, letter, blank in placements])
    result = MoveResult(True, Reason.OK, "", rule_set, (), score, bingo, row_col, across, tuple(words))
    return _judge_words(rule_set, board, result, words, lexicon)


def _check_tiles(rule_set: RuleSet, board: Board, placements) -> MoveResult | None:
    """Letters the set has (blanks only as the blank alphabet allows), at most a rack's worth, and no
    more copies of a tile than exist, counting those on the board. None when the tiles are fine."""
    tile_set = rule_set.tile_set
    n_new = len(placements)
    by_letter = tile_set._by_letter
    blank_letters = tile_set.blank_letters
    for idx, letter, blank in placements:
        if blank:
            if letter not in blank_letters:
                return _fail(Reason.BAD_BLANK_LETTER,
                             f"a blank may not stand for {letter} in {rule_set.id}", rule_set)
        elif letter not in by_letter:
            return _fail(Reason.UNKNOWN_LETTER,
                         f"{rule_set.id} has no {letter} tile (a blank may show it: lowercase)", rule_set)

    # What the set holds, with or without a rack: a rack's worth of tiles, the blanks and the copies
    # of each letter that exist (counting the tiles already on the board).
    if n_new > rule_set.rack_size:
        return _fail(Reason.TOO_MANY_TILES,
                     f"{n_new} new tiles; a {rule_set.id} rack holds {rule_set.rack_size}", rule_set)
    new_blanks = 0
    new_counts: dict[str, int] = {}
    for _, letter, blank in placements:
        if blank:
            new_blanks += 1
        else:
            new_counts[letter] = new_counts.get(letter, 0) + 1
    on_board_counts = board.tile_counts() if board.tile_count else {}
    board_blanks = on_board_counts.get(BLANK, 0)
    if new_blanks and new_blanks + board_blanks > tile_set.blank_count:
        return _fail(Reason.TOO_MANY_BLANKS,
                     f"{new_blanks} blank(s) played, {board_blanks} on the board; {rule_set.id} has "
                     f"{tile_set.blank_count}", rule_set)
    for letter, k in new_counts.items():
        have = by_letter[letter].count
        on_board = on_board_counts.get(letter, 0)
        if k + on_board > have:
            return _fail(Reason.TILE_COUNT_EXCEEDED,
                         f"{k} {letter} played, {on_board} on the board; {rule_set.id} has {have} "
                         f"(a blank may show it: lowercase)", rule_set)
    return None


def _check_rack(rule_set: RuleSet, rack, placements) -> MoveResult | None:
    """The rack (None: not checked) holds the new tiles."""
    if rack is not None:
        tile_set = rule_set.tile_set
        try:
            rack_left = _parse_rack(rule_set, rack)
        except UnknownLetterError as exc:
            return _fail(Reason.UNKNOWN_LETTER, f"rack: {exc}", rule_set)
        for idx, letter, blank in placements:
            need = BLANK if blank else letter
            try:
                rack_left.remove(need)
            except ValueError:
                what = "blank" if blank else letter
                return _fail(Reason.TILE_NOT_IN_RACK, f"the rack {tile_set.rack_text(_parse_rack(rule_set, rack))} "
                                                      f"has no {what} for this play", rule_set)
    return None


def _check_position(rule_set: RuleSet, board: Board, placements) -> MoveResult | None:
    """The first play's size and square; later plays touch the board (where the rule set says so)."""
    n_new = len(placements)
    cols, rows = board.columns, board.rows
    letters = board.letters
    if board.tile_count == 0:
        if n_new < rule_set.first_play.min_tiles:
            return _fail(Reason.TOO_FEW_TILES,
                         f"the first play needs at least {rule_set.first_play.min_tiles} tiles", rule_set)
        cover = rule_set.first_play.must_cover
        if cover is not None:
            cover_idx = cover[0] * cols + cover[1]
            if all(idx != cover_idx for idx, _, _ in placements):
                return _fail(Reason.FIRST_PLAY_NOT_ON_CENTRE,
                             f"the first play must cover {square_name(*cover)}", rule_set)
    elif rule_set.later_plays.must_connect:
        for idx, _, _ in placements:
            c = idx % cols
            if ((c > 0 and letters[idx - 1] is not None) or (c + 1 < cols and letters[idx + 1] is not None)
                    or (idx >= cols and letters[idx - cols] is not None)
                    or (idx + cols < rows * cols and letters[idx + cols] is not None)):
                break
        else:
            return _fail(Reason.NOT_CONNECTED, "the play touches no tile on the board", rule_set)
    return None


def _words(rule_set: RuleSet, board: Board, placements, across: bool) -> list[_WordData]:
    """Every word of two or more tiles the play forms, main word first, with its letter sum and word
    multiplier."""
    tile_set = rule_set.tile_set
    cols, rows = board.columns, board.rows
    letters = board.letters
    blanks = board.blanks
    new_at = {idx: (letter, blank) for idx, letter, blank in placements}
    points_of = tile_set._points
    key_of = tile_set._key_of_letter
    lm, wm = rule_set.letter_multipliers, rule_set.word_multipliers
    blank_points = 0  # blanks score 0 (RULES.md section 3), whatever the square
    words: list[_WordData] = []

    def run(start_idx: int, is_across: bool):
        """The maximal run through start_idx: tiles, key, letter sum, word multiplier."""
        step = 1 if is_across else cols
        if is_across:
            lo_limit = start_idx - start_idx % cols
            hi_limit = lo_limit + cols - 1
        else:
            lo_limit = start_idx % cols
            hi_limit = lo_limit + (rows - 1) * cols
        i = start_idx
        while i - step >= lo_limit and (letters[i - step] is not None or (i - step) in new_at):
            i -= step
        tiles = []
        keys = []
        letter_sum = 0
        word_mult = 1
        while i <= hi_limit:
            letter = letters[i]
            if letter is not None:
                blank = blanks[i]
                letter_sum += blank_points if blank else points_of.get(letter, 0)
                tiles.append((i, letter, blank, False))
            else:
                new = new_at.get(i)
                if new is None:
                    break
                letter, blank = new
                letter_sum += (blank_points if blank else points_of[letter]) * lm[i]
                word_mult *= wm[i]
                tiles.append((i, letter, blank, True))
            keys.append(key_of[letter])
            i += step
        return (is_across, tiles[0][0], tuple(tiles), "".join(keys), letter_sum, word_mult)

    main = run(placements[0][0], across)
    if len(main[2]) >= 2:
        words.append(main)
    for idx, _, _ in placements:
        # Most new tiles have no perpendicular neighbour: skip the run then.
        if across:
            before = idx >= cols and letters[idx - cols] is not None
            after = idx + cols < rows * cols and letters[idx + cols] is not None
        else:
            c = idx % cols
            before = c > 0 and letters[idx - 1] is not None
            after = c + 1 < cols and letters[idx + 1] is not None
        if before or after:
            words.append(run(idx, not across))
    return words


def _judge_words(rule_set: RuleSet, board: Board, result: MoveResult, words, lexicon) -> MoveResult:
    """The words' length, uniqueness on the board (where the rule set asks) and admissibility."""
    min_length = rule_set.words.min_length
    if min_length > 2:
        short = tuple(_display(w[2]) for w in words if len(w[2]) < min_length)
        if short:
            return _refuse(result, Reason.WORD_TOO_SHORT,
                           f"words shorter than {min_length} tiles: {', '.join(short)}", short)
    if rule_set.words.same_word_twice != "allowed":
        duplicates = _duplicate_words(board, words)
        if duplicates:
            texts = tuple(_display(words[i][2]) for i in duplicates)
            return _refuse(result, Reason.DUPLICATE_WORD,
                           f"would stand twice on the board: {', '.join(texts)}", texts)
    if lexicon is not None:
        is_admissible = lexicon.is_admissible
        bad = tuple(_display(w[2]) for w in words if not is_admissible(w[3]))
        if bad:
            return _refuse(result, Reason.WORD_NOT_ADMISSIBLE, f"not admissible: {', '.join(bad)}", bad)
    return result


def _refuse(result: MoveResult, reason: Reason, message: str, invalid_words) -> MoveResult:
    result.valid = False
    result.reason = reason
    result.message = message
    result.invalid_words = tuple(invalid_words)
    return result


def _duplicate_words(board: Board, words) -> list[int]:
    """Indexes of new words whose form would stand twice on the board after the play."""
    cols = board.columns
    runs = board.word_runs()
    counts: dict[str, int] = {}
    replaced = set()
    for across, start, tiles, key, _, _ in words:
        line = start // cols if across else start % cols
        first = start % cols if across else start // cols
        last = first + len(tiles) - 1
        # Old words inside this new word's span are absorbed by it (DŮM -> DŮMY).
        for (r_across, r_line, r_start), (r_end, _) in runs.items():
            if r_across == across and r_line == line and first <= r_start and r_end <= last:
                replaced.add((r_across, r_line, r_start))
    for run_id, (_, key) in runs.items():
        if run_id not in replaced:
            counts[key] = counts.get(key, 0) + 1
    duplicates = []
    for i, w in enumerate(words):
        counts[w[3]] = counts.get(w[3], 0) + 1
    for i, w in enumerate(words):
        if counts[w[3]] > 1:
            duplicates.append(i)
    return duplicates


def apply_move(board: Board, result: MoveResult) -> None:
    """Put the new tiles of a placeable play on the board (tiles never move afterwards)."""
    board.apply(result)


class SetupError(ValueError):
    """A play of a hand-made position that cannot be placed; `index` says which one (0-based)."""

    def __init__(self, index: int, play, result: MoveResult) -> None:
        self.index = index
        self.play = play
        self.result = result
        super().__init__(f"{result.reason.value}: {result.message}")


def apply_setup(rule_set: RuleSet, board: Board, plays) -> None:
    """Put `plays` on `board` in order, their words not judged (a position set up by hand, as
    `validate --setup` and GenerateMoves' `setup` make it). One that cannot be placed raises SetupError."""
    for i, play in enumerate(plays):
        result = validate_move(rule_set, board, None, play)
        if result.score is None:
            raise SetupError(i, play, result)
        apply_move(board, result)

