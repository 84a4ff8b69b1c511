"""Move generation: every play the rules allow for a rack on a board, with its score.

`generate_moves(rule_set, board, rack, lexicon, ...)` lists the legal plays (each exactly once,
with the score and words `rules.moves.validate_move` gives it), then the exchanges and the pass
where the rule set allows them. The search runs in C (`csrc/movegen.c`) over the lexicon's move graph
(`graph.py`, the file ``moves.gaddag``); `reference.py` is a slow plain-Python generator the tests
compare it with.

Order (sort="score"): score descending; plays before exchanges before the pass; among plays of
equal score: across before down, then by row, column, the main word's length and its new tiles
(a real tile before a blank, then the tile order of the rule set); exchanges by how many tiles
they keep, then rack order. `limit` keeps the first `limit` of that order (a bounded heap in C).

Play notation: "8D W(O)RD": the coordinate of the word's first square ("8D" across, "D8" down),
then the whole word, tiles already on the board in parentheses (as GCG writers do); blanks
lowercase, multi-letter tiles in brackets ("[CH]"). `validate_move` reads it back. A single tile
is one play: across when it forms an across word, else down.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass

from lexicon_service.rules.board import Board, Coordinate
from lexicon_service.rules.ruleset import RuleSet
from lexicon_service.tiles import BLANK, UnknownLetterError, write_tiles
from lexicon_service.wording import counted
from lexicon_service.movegen import _core

__all__ = ["GeneratedMove", "MoveGraphMissing", "MoveGenerationError", "MoveGenerationTimeout",
           "generate_moves", "has_move", "count_moves", "random_play"]

SORTS = ("score",)
MAX_LISTED = 1_000_000  # plays one answer lists at most (a Kris Kros opening with a joker has ~900,000)
_MAX_TILES = 63
_NEW, _BLANK, _TILE = 0x80, 0x40, 0x3F
_DEADLINE_EVERY = 512  # plays turned into answers between two looks at the deadline


@dataclass(frozen=True)
class GeneratedMove:
    kind: str                  # "play" | "exchange" | "pass"
    play: str                  # "8D W(O)RD"; an exchange "-ABC" (GCG); a pass "-"
    score: int
    words: tuple[str, ...]     # every word formed, main first, display text as MoveResult.words
    leave: str                 # the rack left, in rack notation (rack order, "?" blanks)
    tiles_used: int


class MoveGraphMissing(Exception):
    """The lexicon has no move graph (a lexicon built before move generation existed)."""


class MoveGenerationError(ValueError):
    """A rack, board or option that does not fit the rule set; `field` names it."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


class MoveGenerationTimeout(TimeoutError):
    """The search passed its deadline."""


class _Static:
    """What the C core needs of a rule set, as bytes (made once per rule set object)."""

    def __init__(self, rule_set: RuleSet) -> None:
        ts = rule_set.tile_set
        self.letters = tuple(ts.alphabet)
        if len(self.letters) > _MAX_TILES:
            raise MoveGenerationError("rule_set", f"{rule_set.id} has more than {_MAX_TILES} letters")
        if rule_set.rows > 32 or rule_set.columns > 32:
            raise MoveGenerationError("rule_set", f"{rule_set.id}'s board is larger than 32x32")
        self.number = {letter: i + 1 for i, letter in enumerate(self.letters)}
        points = [0] * (_MAX_TILES + 1)
        for letter, n in self.number.items():
            points[n] = ts.points(letter)
        lm, wm = rule_set.letter_multipliers, rule_set.word_multipliers
        if max(points) > 255 or max(lm) > 255 or max(wm) > 255:
            raise MoveGenerationError("rule_set", f"{rule_set.id}: points or premiums above 255")
        self.points = bytes(points)
        self.lm, self.wm = bytes(lm), bytes(wm)
        mask = 0
        for letter in ts.blank_letters:
            if letter in self.number:
                mask |= 1 << self.number[letter]
        self.blank_mask = mask
        cover = rule_set.first_play.must_cover
        self.cover = -1 if cover is None else cover[0] * rule_set.columns + cover[1]
        self.bag = ts.bag()
        bag = bytearray(_MAX_TILES + 1)  # copies in the set, by tile number ([0] blanks)
        for letter, count in self.bag.items():
            bag[0 if letter == BLANK else self.number[letter]] = min(count, 255)

        self.core_rules = _core.Rules(
            n_tiles=len(self.letters), rows=rule_set.rows, cols=rule_set.columns, letter_mult=self.lm,
            word_mult=self.wm, points=self.points, bag=bytes(bag), blank_mask=self.blank_mask,
            bingo_tiles=rule_set.rack.bingo_tiles, bingo_bonus=rule_set.rack.bingo_bonus,
            min_word_len=rule_set.words.min_length, first_cover=self.cover,
            first_min_tiles=rule_set.first_play.min_tiles, must_connect=int(rule_set.later_plays.must_connect),
            forbid_dup=int(rule_set.words.same_word_twice != "allowed"))
        self.real = {None: 0, **{letter: n for letter, n in self.number.items()}}

    def board_bytes(self, board: Board) -> bytes:
        """A square a byte: tile number, | 0x40 for a blank, 0 empty."""
        squares = bytearray(map(self.real.__getitem__, board.letters))
        if True in board.blanks:
            for i, blank in enumerate(board.blanks):
                if blank:
                    squares[i] |= _BLANK
        return bytes(squares)


_statics: dict[int, tuple[RuleSet, _Static]] = {}


def _static(rule_set: RuleSet) -> _Static:
    hit = _statics.get(id(rule_set))
    if hit is not None and hit[0] is rule_set:
        return hit[1]
    static = _Static(rule_set)
    if len(_statics) > 64:
        _statics.clear()
    _statics[id(rule_set)] = (rule_set, static)
    return static


def _graph(rule_set: RuleSet, lexicon):
    if not getattr(lexicon, "has_move_graph", False):
        raise MoveGraphMissing(f"the lexicon {getattr(lexicon, 'name', '?')!r} has no move graph; add one with "
                               f"`lexicon-build --move-graph-only {getattr(lexicon, 'path', 'LEX.lex')}`")
    lex_rules = lexicon.rule_set
    if lex_rules is not rule_set and tuple(lex_rules.tile_set.alphabet) != tuple(rule_set.tile_set.alphabet) or (
            max(lex_rules.rows, lex_rules.columns) < max(rule_set.rows, rule_set.columns)):
        raise MoveGenerationError("rule_set", f"the lexicon {lexicon.name!r} is for {lex_rules.id}, "
                                              f"whose letters or board differ from {rule_set.id}'s")
    return lexicon.search_graph


def _rack(rule_set: RuleSet, board: Board, rack) -> list[str]:
    ts = rule_set.tile_set
    try:
        letters = list(ts.spell_rack(rack)) if isinstance(rack, str) else None
    except UnknownLetterError as exc:
        raise MoveGenerationError("rack", f"rack: {exc}") from None
    if letters is None:
        raise MoveGenerationError("rack", "rack must be text such as 'ABC?'")
    if len(letters) > rule_set.rack_size:
        raise MoveGenerationError("rack", f"the rack {rack!r} holds {len(letters)} tiles; a {rule_set.id} rack "
                                          f"holds {rule_set.rack_size}")
    bag = _static(rule_set).bag
    on_board = board.tile_counts() if isinstance(board, Board) and board.tile_count else {}
    for letter in sorted(set(letters)):
        have, placed = bag.get(letter, 0), on_board.get(letter, 0)
        if letters.count(letter) + placed > have:  # a tile that cannot exist: refused as validate refuses playing it
            held = counted(letters.count(letter), "blank") if letter == BLANK else f"{letters.count(letter)} {letter}"
            code = "TOO_MANY_BLANKS" if letter == BLANK else "TILE_COUNT_EXCEEDED"
            raise MoveGenerationError("rack", f"{code}: the rack {rack!r} holds {held}, {placed} on the board; "
                                              f"{rule_set.id} has {have}")
    return letters


def _board(rule_set: RuleSet, board) -> Board:
    if board is None:
        return Board.empty(rule_set)
    if not isinstance(board, Board):
        raise MoveGenerationError("board", "board must be a Board")
    if board.rule_set.id != rule_set.id:
        raise MoveGenerationError("board", f"the board is for {board.rule_set.id}, not {rule_set.id}")
    return board


def _rack_counts(static: _Static, letters) -> bytes:
    """Tiles of each number on the rack ([0] = blanks); the C core caps them by what the set has
    left beside the board."""
    counts = bytearray(_MAX_TILES + 1)
    for letter in letters:
        counts[0 if letter == BLANK else static.number[letter]] += 1
    return bytes(counts)


def _call(rule_set, board, rack, lexicon, mode, *, limit=0, min_length=None, must_use=None, must_contain=None,
          deadline=None, nth=0):
    static = _static(rule_set)
    graph = _graph(rule_set, lexicon)
    board = _board(rule_set, board)
    letters = _rack(rule_set, board, rack)
    board_bytes = static.board_bytes(board)
    need = b""
    if must_use:
        try:
            wanted = rule_set.tile_set.spell_rack(must_use) if isinstance(must_use, str) else None
        except UnknownLetterError as exc:
            raise MoveGenerationError("must_use", f"must_use: {exc}") from None
        if wanted is None:
            raise MoveGenerationError("must_use", "must_use must be tiles in rack notation, e.g. 'Ź?'")
        for letter in set(wanted):  # a tile the rack lacks is the caller's mistake, not "no play"
            if wanted.count(letter) > letters.count(letter):
                what = "blanks" if letter == BLANK else letter
                raise MoveGenerationError("must_use", f"must_use {must_use!r} asks for {wanted.count(letter)} "
                                                      f"{what}; the rack {rack!r} holds {letters.count(letter)}")
        counts = bytearray(_MAX_TILES + 1)
        for letter in wanted:
            counts[0 if letter == BLANK else static.number[letter]] += 1
        need = bytes(counts)
    contain = b""
    if must_contain:
        try:
            spelled = rule_set.tile_set.spell(must_contain) if isinstance(must_contain, str) else None
        except UnknownLetterError as exc:
            raise MoveGenerationError("must_contain", f"must_contain: {exc}") from None
        if spelled is None:
            raise MoveGenerationError("must_contain", "must_contain must be text, e.g. 'RZ'")
        if len(spelled) > 32:
            raise MoveGenerationError("must_contain", "must_contain is longer than any word on the board")
        contain = bytes(static.number[letter] for letter in spelled)
    if min_length is not None and (not isinstance(min_length, int) or isinstance(min_length, bool)
                                   or min_length < 0):
        raise MoveGenerationError("min_length", "min_length must be a whole number of tiles, 0 or more")
    counts = _rack_counts(static, letters)
    result = _core_generate(graph, static, board_bytes, counts, mode, limit, min(min_length or 0, 255), need,
                            contain, deadline, nth)
    return result, static, board, letters


def _core_generate(graph, static, board_bytes, counts, mode, limit, min_length, need, contain, deadline, nth=0):
    try:
        return _core.generate(graph, static.core_rules, board_bytes, counts, mode=mode, limit=limit,
                              min_main_len=min_length, must_use=need, must_contain=contain,
                              deadline=float(deadline) if deadline is not None else 0.0, nth=nth)
    except TimeoutError:
        raise MoveGenerationTimeout("move generation passed its deadline") from None
    except OverflowError:
        raise MoveGenerationError("limit", f"more than {MAX_LISTED:,} plays: give a limit") from None


def play_text(tile_set, across: bool, row: int, col: int, tiles) -> str:
    """"8D W(O)RD" from the main word's tiles [(letter, is_blank, is_new), ...]."""
    parts = []
    for new, group in itertools.groupby(tiles, key=lambda t: t[2]):
        text = write_tiles(((letter, blank) for letter, blank, _ in group), tile_set)
        parts.append(text if new else f"({text})")
    return f"{Coordinate(row, col, across)} {''.join(parts)}"


def words_formed(board: Board, across: bool, row: int, col: int, tiles) -> tuple[str, ...]:
    """The main word and the cross word of each new tile (display text, as MoveResult.words)."""
    words = [write_tiles((letter, blank) for letter, blank, _ in tiles)]
    cols, rows = board.columns, board.rows
    letters, blanks = board.letters, board.blanks
    dr, dc = (0, 1) if across else (1, 0)
    for i, (letter, blank, new) in enumerate(tiles):
        if not new:
            continue
        r, c = row + dr * i, col + dc * i
        # the crossing line runs along the other axis
        pr, pc = (1, 0) if across else (0, 1)
        r0, c0 = r, c
        while 0 <= r0 - pr and 0 <= c0 - pc and letters[(r0 - pr) * cols + c0 - pc] is not None:
            r0, c0 = r0 - pr, c0 - pc
        pieces = []
        rr, cc = r0, c0
        while rr < rows and cc < cols:
            if (rr, cc) == (r, c):
                pieces.append((letter, blank))
            elif letters[rr * cols + cc] is not None:
                pieces.append((letters[rr * cols + cc], blanks[rr * cols + cc]))
            else:
                break
            rr, cc = rr + pr, cc + pc
        if len(pieces) >= 2:
            words.append(write_tiles(pieces))
    return tuple(words)


def tiles_left(letters, used) -> list:
    """The rack's tiles left after using these ("?" for a blank), in rack order."""
    left = list(letters)
    for tile in used:
        left.remove(tile)
    return left


def leave_of(tile_set, letters, used) -> str:
    """The rack left after using these tiles ("?" for a blank), in rack notation."""
    return tile_set.rack_text(tiles_left(letters, used))


def _past(deadline: float | None, i: int) -> None:
    """MoveGenerationTimeout when `deadline` has passed (looked at every _DEADLINE_EVERY-th item `i`):
    turning many of the core's plays into answers takes longer than finding them."""
    if deadline is not None and i % _DEADLINE_EVERY == 0 and time.monotonic() > deadline:
        raise MoveGenerationTimeout("move generation passed its deadline")


def _moves_from_core(rule_set, board, letters, static, found, deadline=None) -> list[GeneratedMove]:
    ts = rule_set.tile_set
    names = (None,) + static.letters
    out = []
    for i, (score, down, row, col, raw, n_new) in enumerate(found):
        _past(deadline, i)
        tiles = [(names[b & _TILE], bool(b & _BLANK), bool(b & _NEW)) for b in raw]
        across = not down
        used = [BLANK if blank else letter for letter, blank, new in tiles if new]
        out.append(GeneratedMove("play", play_text(ts, across, row, col, tiles), score,
                                 words_formed(board, across, row, col, tiles), leave_of(ts, letters, used), n_new))
    return out


def best_play_by_leave(rule_set: RuleSet, board: Board, rack, lexicon, leave_value, *, limit: int,
                       deadline: float | None = None):
    """Among the top `limit` plays by score (generate_moves' order), the one of the highest score plus
    leave_value(tiles it keeps) (ties: the first): (that play or None, its equity, plays looked at, the
    lowest score among them). Only the chosen play becomes a GeneratedMove: the others are judged on
    the core's raw answer, so looking at thousands of plays costs no Python objects for each."""
    found, static, board, letters = _call(rule_set, board, rack, lexicon, 0, limit=limit, deadline=deadline)
    names = (None,) + static.letters
    values: dict[tuple, float] = {}  # tiles used (sorted) -> value of the tiles kept
    best_i, best_equity = None, None
    for i, (score, _down, _row, _col, raw, _n_new) in enumerate(found):
        _past(deadline, i)
        used = tuple(sorted(BLANK if b & _BLANK else names[b & _TILE] for b in raw if b & _NEW))
        value = values.get(used)
        if value is None:
            value = values[used] = leave_value(tiles_left(letters, used))
        if best_equity is None or score + value > best_equity:
            best_i, best_equity = i, score + value
    if best_i is None:
        return None, None, 0, None
    best = _moves_from_core(rule_set, board, letters, static, [found[best_i]])[0]
    return best, best_equity, len(found), found[-1][0]


def exchanges(rule_set: RuleSet, letters, bag_count: int | None, at_most: int | None = None) -> list[GeneratedMove]:
    """Every distinct exchange of this rack the rules allow (bag_count None: as with a full bag), larger
    leaves first; with `at_most`, only the first that many of that list."""
    return list(itertools.islice(_exchanges(rule_set, letters, bag_count), at_most))


def _exchanges(rule_set: RuleSet, letters, bag_count: int | None):
    rules = rule_set.exchange
    if not rules.allowed or not letters:
        return
    if bag_count is not None and bag_count < rules.min_tiles_in_bag:
        return
    most = len(letters) if bag_count is None else min(len(letters), bag_count)
    ts = rule_set.tile_set
    seen = set()
    for n in range(len(letters) - 1, len(letters) - most - 1, -1):  # keep n tiles: larger leaves first
        for kept in itertools.combinations(range(len(letters)), n):
            kept_set = set(kept)
            given = [letters[i] for i in range(len(letters)) if i not in kept_set]
            key = tuple(sorted(given))
            if key in seen:
                continue
            seen.add(key)
            yield GeneratedMove("exchange", "-" + ts.rack_text(given), 0, (),
                                ts.rack_text([letters[i] for i in kept]), len(given))


def generate_moves(rule_set: RuleSet, board: Board, rack, lexicon, *, limit: int | None = None,
                   sort: str = "score", min_length: int | None = None, must_use: str | None = None,
                   must_contain: str | None = None, bag_count: int | None = None, include_exchanges: bool = True,
                   include_pass: bool = True, deadline: float | None = None) -> list[GeneratedMove]:
    """Every legal play of `rack` on `board` (order: see the module docstring), then the exchanges
    and the pass the rules allow.

    limit: at most this many (top-k by the sort order). min_length: main words of at least this many
    tiles; must_use: tiles of the rack (rack notation, "?" a blank) every play must place; must_contain: text the
    main word must contain (as tiles). With any of these three, only plays are listed. bag_count:
    tiles in the bag (exchanges need the rule set's minimum; None: as with a full bag). deadline: a
    time.monotonic() value; past it MoveGenerationTimeout. Without a limit, more than MAX_LISTED plays
    is a MoveGenerationError (field "limit"). Raises MoveGraphMissing when the lexicon
    has no move graph, MoveGenerationError (with `field`) for a bad rack, board or option.
    """
    if sort not in SORTS:
        raise MoveGenerationError("sort", f"sort must be one of {', '.join(SORTS)}")
    if limit is not None and (not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= MAX_LISTED):
        raise MoveGenerationError("limit", f"limit must be a whole number from 1 to {MAX_LISTED:,}")
    if bag_count is not None and (not isinstance(bag_count, int) or isinstance(bag_count, bool) or bag_count < 0):
        raise MoveGenerationError("bag_count", "bag_count must be a whole number, 0 or more")
    found, static, board, letters = _call(rule_set, board, rack, lexicon, 0, limit=limit or 0,
                                          min_length=min_length, must_use=must_use, must_contain=must_contain,
                                          deadline=deadline)
    moves = _moves_from_core(rule_set, board, letters, static, found, deadline)
    if not (min_length or must_use or must_contain):
        # with a limit the plays may fill it: exchanges (up to 127 of a 7-tile rack) are made only as far
        # as they are listed, as a 2,000-turn analysis asks the best move 1,000 times
        if include_exchanges and (not limit or len(moves) < limit):
            moves += exchanges(rule_set, letters, bag_count, at_most=limit - len(moves) if limit else None)
        if include_pass and (not limit or len(moves) < limit):
            moves.append(GeneratedMove("pass", "-", 0, (), rule_set.tile_set.rack_text(letters), 0))
    return moves[:limit] if limit else moves


def has_move(rule_set: RuleSet, board: Board, rack, lexicon) -> bool:
    """Whether the rack can make any play on the board (stops at the first one found)."""
    return _call(rule_set, board, rack, lexicon, 2)[0]


def count_moves(rule_set: RuleSet, board: Board, rack, lexicon) -> int:
    """How many plays there are (counted in C, no move objects made; for measurements)."""
    return _call(rule_set, board, rack, lexicon, 1)[0]


def random_play(rule_set: RuleSet, board: Board, rack, lexicon, rng) -> GeneratedMove | None:
    """A play drawn uniformly from every legal play of the rack (None: there is none), without listing
    them: the plays are counted in C, then only the drawn one (by its number in the search's order) is
    made. A Kris Kros opening with two blanks has more plays than one answer lists (MAX_LISTED)."""
    total = count_moves(rule_set, board, rack, lexicon)
    if not total:
        return None
    found, static, board, letters = _call(rule_set, board, rack, lexicon, 3, nth=rng.randrange(total))
    return _moves_from_core(rule_set, board, letters, static, found)[0]
