"""Endgames: once the bag is empty, the exact best sequence for the player on turn.

With the bag empty the opponent's rack is exactly the tiles the player on turn cannot see (the set
less the board and their own rack), so both racks are known without looking at anything hidden
(`endgame_view`). `solve_endgame` searches the game to its end: negamax with alpha-beta pruning over
every play of the mover's rack and the pass, the value being the points the mover gains on the
opponent from here to the end, with the rule set's end-of-game adjustments (a player going out; the
game ended by consecutive passes, `passes_to_end`). Moves are ordered by the transposition table's
best move of the position, then a play that goes out, then score. The transposition table keys a
position by its board, both racks, who is on turn and the passes in a row; it keeps the value and
whether it is exact or a bound from alpha-beta, and the best move.

The search deepens iteratively (1, 2, ... plies; a position at the depth limit is valued as the spread
so far plus the opponent's rack value less the mover's: what the adjustments would be if both were
stuck) until a depth reaches every end of the game (the answer is then exact), or the time limit,
when the best sequence of the last whole depth is the answer (`exact` False). It runs in C
(`csrc/endgame.c`, one `_core.solve_endgame` call a request); `engine="python"` runs the same search
here, the reference the tests compare it with. `full_search` is the plain minimax of the same game,
without pruning, table or depth limit.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from lexicon_service.movegen import (
    _BLANK, _NEW, _TILE, GeneratedMove, MoveGenerationError, MoveGenerationTimeout, _call, _core_generate,
    _graph, _moves_from_core, _static,
)
from lexicon_service.movegen.simulate import unseen_tiles
from lexicon_service.rules.game import end_of_game_adjustments
from lexicon_service.tiles import BLANK
from lexicon_service.movegen import _core

MAX_DEPTH = 64
DEEPEN_FROM = 4  # past this depth the search deepens two plies at a time (csrc/endgame.c, EG_DEEPEN_FROM)
TABLE_BITS = 22  # the C search's transposition table: 2^22 entries of 24 bytes (96 MiB, touched as used)
_OUT_MULTIPLIER = {"none": 0, "others-racks": 1, "twice-others-racks": 2}
EXACT, LOWER, UPPER = 0, 1, 2
_INFINITY = 1 << 30
_NO_MOVE = -1  # a table entry's best move when none was searched (an index of the plays, or None: the pass)


class EndgameTimeout(TimeoutError):
    """The search passed its time limit before a first whole depth."""


@dataclass
class EndgameResult:
    moves: list[GeneratedMove]   # the best sequence found: the mover's move, the reply, ...
    value: int                   # what the mover gains on the opponent by it to the end of the game
    exact: bool                  # the search reached every end of the game (False: the time limit stopped it)
    depth: int                   # plies of the last whole depth
    nodes: int
    seconds: float

    @property
    def best(self) -> GeneratedMove | None:
        return self.moves[0] if self.moves else None


def passes_to_end(rule_set) -> int:
    """Consecutive passes of two players that end the game (the rule set's scoreless turns or passing
    rounds, the first reached; 4 when neither rule is set, so the search ends)."""
    limits = [n for n in (rule_set.end.scoreless_turns, 2 * rule_set.end.passing_rounds) if n]
    return min(limits) if limits else 4


def depth_schedule(max_depth: int) -> list[int]:
    """The depths the search tries in turn: 1 to 4, then two plies more each time, and `max_depth` last
    whether it is odd or even (as csrc/endgame.c)."""
    depths = [d for d in range(1, max_depth + 1) if d <= DEEPEN_FROM or (d - DEEPEN_FROM) % 2 == 0]
    return depths if depths[-1] == max_depth else [*depths, max_depth]


def endgame_view(rule_set, board, rack: str) -> str:
    """The opponent's rack, in rack notation, once the bag is empty: every tile the player holding `rack`
    cannot see."""
    return rule_set.tile_set.rack_text(unseen_tiles(rule_set, board, rack))


class _Search:
    """One endgame search: the core's arguments, the table, the counters."""

    def __init__(self, rule_set, lexicon, deadline: float | None) -> None:
        self.rule_set = rule_set
        self.static = _static(rule_set)
        self.graph = _graph(rule_set, lexicon)
        self.columns = rule_set.columns
        self.names = (BLANK, *self.static.letters)
        self.points = [self._points(n) for n in range(len(self.names))]
        self.passes_to_end = passes_to_end(rule_set)
        self.deadline = deadline
        self.table: dict = {}
        self.nodes = 0
        self.cuts = 0  # positions valued at the depth limit (or by a table entry that was): not exact
        self._moves: dict = {}

    def _points(self, n: int) -> int:
        ts = self.rule_set.tile_set
        return ts.blank_points if n == 0 else ts.points(self.names[n])

    def moves(self, board: bytes, rack: tuple) -> list:
        """The core's plays of `rack` on `board` (score, down, row, col, raw, new tiles), best score first
        (cached; the same list, so a play's index names it)."""
        key = (board, rack)
        found = self._moves.get(key)
        if found is None:
            counts = bytearray(64)
            for n in rack:
                counts[n] += 1
            found = _core_generate(self.graph, self.static, board, bytes(counts), 0, 0, 0, b"", b"", self.deadline)
            if len(self._moves) > 200_000:
                self._moves.clear()
            self._moves[key] = found
        return found

    def play(self, board: bytes, rack: tuple, found: tuple) -> tuple[bytes, tuple]:
        """(the board after the core's play `found`, the rack left)."""
        _score, down, row, col, raw, _n = found
        start, step = row * self.columns + col, self.columns if down else 1
        after = bytearray(board)
        left = list(rack)
        for i, b in enumerate(raw):
            if b & _NEW:
                after[start + i * step] = b & (_BLANK | _TILE)
                left.remove(0 if b & _BLANK else b & _TILE)
        return bytes(after), tuple(left)

    def rack_points(self, rack: tuple) -> int:
        return sum(self.points[n] for n in rack)

    def end_value(self, mover_rack: tuple, other_rack: tuple, went_out: int | None) -> int:
        """The mover's end-of-game adjustment less the opponent's (went_out: 0 the mover, 1 the other)."""
        racks = [[self.names[n] for n in mover_rack], [self.names[n] for n in other_rack]]
        adjust = end_of_game_adjustments(self.rule_set, racks, went_out)
        return adjust[0] - adjust[1]

    def check_time(self) -> None:
        if self.deadline is not None and self.nodes % 64 == 0 and time.monotonic() > self.deadline:
            raise MoveGenerationTimeout("the endgame search passed its time limit")

    @staticmethod
    def ordered(plays: list, first, rack_size: int) -> list:
        """Indices of `plays` in search order, None the pass: the table's best move first (an index, or
        None for the pass), then the plays that go out, then the others by score (the core's order)."""
        outs = [i for i, p in enumerate(plays) if p[5] == rack_size and i != first]
        rest = (i for i, p in enumerate(plays) if p[5] != rack_size and i != first)
        head = [] if first == _NO_MOVE else [first]
        order = head + outs + list(rest)
        if first is not None:
            order.append(None)
        return order

    def child(self, board: bytes, mine: tuple, theirs: tuple, passes: int, found, depth: int,
              alpha: int, beta: int) -> int:
        """The mover's value of making the core's play `found` (None: passing), searched `depth` plies deeper;
        the reply's window is shifted by the play's score (the mover's value is the score less the reply's)."""
        if found is None:
            if passes + 1 >= self.passes_to_end:
                return self.end_value(mine, theirs, None)
            return -self.negamax(board, theirs, mine, passes + 1, depth - 1, -beta, -alpha)
        if found[5] == len(mine):
            return found[0] + self.end_value((), theirs, 0)
        after, left = self.play(board, mine, found)
        return found[0] - self.negamax(after, theirs, left, 0, depth - 1, found[0] - beta, found[0] - alpha)

    def negamax(self, board: bytes, mine: tuple, theirs: tuple, passes: int, depth: int, alpha: int,
                beta: int) -> int:
        """The mover's best value (alpha-beta, fail-soft); the table remembers it with its best move and
        whether its subtree reached the end of the game everywhere (then it holds at every depth)."""
        self.nodes += 1
        self.check_time()
        key = (board, mine, theirs, passes)
        entry = self.table.get(key)
        first = _NO_MOVE
        if entry is not None:
            e_depth, e_value, e_flag, first, resolved = entry
            if resolved or e_depth >= depth:
                if e_flag == EXACT or (e_flag == LOWER and e_value >= beta) or (e_flag == UPPER and e_value <= alpha):
                    if not resolved:
                        self.cuts += 1
                    return e_value
        if depth == 0:
            self.cuts += 1
            return self.rack_points(theirs) - self.rack_points(mine)
        cuts_before, alpha0 = self.cuts, alpha
        plays = self.moves(board, mine)
        if not plays:
            depth += 1  # a forced pass costs no depth (as in the C search)
        best_value, best_move = -_INFINITY, _NO_MOVE
        for i in self.ordered(plays, first, len(mine)):
            value = self.child(board, mine, theirs, passes, None if i is None else plays[i], depth, alpha, beta)
            if value > best_value:
                best_value, best_move = value, i
            alpha = max(alpha, value)
            if alpha >= beta:
                break
        flag = UPPER if best_value <= alpha0 else LOWER if best_value >= beta else EXACT
        self.table[key] = (depth, best_value, flag, best_move, self.cuts == cuts_before)
        return best_value

    def full(self, board: bytes, mine: tuple, theirs: tuple, passes: int) -> int:
        """Plain minimax to the end of the game: no pruning, table or depth limit."""
        self.nodes += 1
        self.check_time()
        best = -_INFINITY
        for found in [*self.moves(board, mine), None]:
            if found is None:
                value = (self.end_value(mine, theirs, None) if passes + 1 >= self.passes_to_end
                         else -self.full(board, theirs, mine, passes + 1))
            elif found[5] == len(mine):
                value = found[0] + self.end_value((), theirs, 0)
            else:
                after, left = self.play(board, mine, found)
                value = found[0] - self.full(after, theirs, left, 0)
            best = max(best, value)
        return best


def _numbers(search: _Search, rule_set, rack: str, field: str) -> tuple:
    try:
        tiles = rule_set.tile_set.spell_rack(rack) if isinstance(rack, str) else None
    except ValueError as exc:
        raise MoveGenerationError(field, f"{field}: {exc}") from None
    if tiles is None or len(tiles) > rule_set.rack_size:
        raise MoveGenerationError(field, f"{field} must be a rack of at most {rule_set.rack_size} tiles")
    return tuple(sorted(0 if t == BLANK else search.static.number[t] for t in tiles))


def _start(rule_set, board, rack: str, lexicon, opponent_rack, deadline):
    """(search, board object, board bytes, mover's tile numbers, opponent's) of an endgame; the
    opponent's rack is the unseen tiles when not given."""
    found, static, board, _letters = _call(rule_set, board, rack, lexicon, 2)  # checks the rack and board
    search = _Search(rule_set, lexicon, deadline)
    if opponent_rack is None:
        opponent_rack = endgame_view(rule_set, board, rack)
    mine = _numbers(search, rule_set, rack, "rack")
    theirs = _numbers(search, rule_set, opponent_rack, "opponent_rack")
    return search, board, static.board_bytes(board), mine, theirs


def _place_new_tiles(search: _Search, board, before: bytes, after: bytes) -> None:
    """Put on `board` the tiles a play added: the squares where `after` differs from `before`."""
    for square in range(len(after)):
        if after[square] != before[square]:
            byte = after[square]
            board.place(square // search.columns, square % search.columns, search.names[byte & _TILE],
                        bool(byte & _BLANK))


def _sequence(search: _Search, board, board_bytes: bytes, mine: tuple, theirs: tuple, passes: int,
              depth: int) -> list[GeneratedMove]:
    """The best sequence the table holds from the root, as moves (at most `depth` of them; an exact search
    passes MAX_DEPTH: a forced pass costs no depth, so the whole line may be longer than the depth)."""
    rule_set, static = search.rule_set, search.static
    board = board.copy()
    out: list[GeneratedMove] = []
    while len(out) < depth:
        entry = search.table.get((board_bytes, mine, theirs, passes))
        if entry is None or entry[3] == _NO_MOVE:
            break
        letters = [search.names[n] for n in mine]
        if entry[3] is None:
            out.append(GeneratedMove("pass", "-", 0, (), rule_set.tile_set.rack_text(letters), 0))
            passes += 1
            if passes >= search.passes_to_end:
                break
            mine, theirs = theirs, mine
            continue
        found = search.moves(board_bytes, mine)[entry[3]]
        out.append(_moves_from_core(rule_set, board, letters, static, [found])[0])
        after, left = search.play(board_bytes, mine, found)
        _place_new_tiles(search, board, board_bytes, after)
        board_bytes, mine, theirs, passes = after, theirs, left, 0
        if not left:
            break
    return out


def _c_params(rule_set) -> dict:
    """The end-of-game rules as `_core.solve_endgame` takes them (csrc/endgame.h, EgParams)."""
    end = rule_set.end
    if end.out_bonus not in _OUT_MULTIPLIER:
        raise ValueError(f"unknown out bonus rule {end.out_bonus!r}")
    return {"passes_to_end": passes_to_end(rule_set), "blank_points": rule_set.tile_set.blank_points,
            "subtract_own": int(bool(end.subtract_own_rack)), "out_multiplier": _OUT_MULTIPLIER[end.out_bonus],
            "out_twice": int(end.out_bonus == "twice-others-racks")}


def _counts(numbers: tuple) -> bytes:
    counts = bytearray(64)
    for n in numbers:
        counts[n] += 1
    return bytes(counts)


def _solve_in_c(search: _Search, board, board_bytes: bytes, mine: tuple, theirs: tuple, passes: int,
                max_depth: int, limits: tuple, started: float) -> EndgameResult:
    if not 0 <= passes < search.passes_to_end:
        raise MoveGenerationError("passes", f"passes must be 0 to {search.passes_to_end - 1}")
    try:
        value, exact, depth, nodes, plies = _core.solve_endgame(
            search.graph, search.static.core_rules, board_bytes, _counts(mine), _counts(theirs), passes=passes,
            max_depth=max(1, min(max_depth, MAX_DEPTH)), table_bits=TABLE_BITS,
            deadline=float(search.deadline) if search.deadline is not None else 0.0,
            cpu_seconds=float(limits[0] or 0.0), max_nodes=limits[1] or 0,
            **_c_params(search.rule_set))
    except TimeoutError:
        raise EndgameTimeout("the endgame search found no move in its time") from None
    moves = _plies_as_moves(search, board, mine, theirs, plies)
    return EndgameResult(moves, value, bool(exact), depth, nodes, time.monotonic() - started)


def _plies_as_moves(search: _Search, board, mine: tuple, theirs: tuple, plies: list) -> list[GeneratedMove]:
    """The core's sequence (play tuples, None a pass) as moves, each on the board it is made on."""
    rule_set, static = search.rule_set, search.static
    board = board.copy()
    out: list[GeneratedMove] = []
    for found in plies:
        letters = [search.names[n] for n in mine]
        if found is None:
            out.append(GeneratedMove("pass", "-", 0, (), rule_set.tile_set.rack_text(letters), 0))
        else:
            out.append(_moves_from_core(rule_set, board, letters, static, [found])[0])
            board_bytes = static.board_bytes(board)
            after, mine = search.play(board_bytes, mine, found)
            _place_new_tiles(search, board, board_bytes, after)
        mine, theirs = theirs, mine
    return out


def solve_endgame(rule_set, board, rack: str, lexicon, *, opponent_rack: str | None = None,
                  seconds: float | None = 5.0, passes: int = 0, max_depth: int = MAX_DEPTH,
                  cpu_seconds: float | None = None, max_nodes: int | None = None,
                  engine: str = "c") -> EndgameResult:
    """The best sequence for the player on turn holding `rack` with the bag empty (see the module
    docstring). `opponent_rack`: the other rack (default: the unseen tiles, which it is once the bag is
    empty); `passes`: passes in a row before this turn. Within `seconds` (None: no limit), and for the
    C search `cpu_seconds` of this thread's CPU and `max_nodes` (None: no limit), it returns the best of
    the last whole depth;
    EndgameTimeout when not even the first depth was searched. `engine`: "c" (csrc/endgame.c) or
    "python" (the reference the tests compare it with)."""
    if engine not in ("c", "python"):
        raise MoveGenerationError("engine", "engine must be 'c' or 'python'")
    started = time.monotonic()
    deadline = None if seconds is None else started + seconds
    search, board, board_bytes, mine, theirs = _start(rule_set, board, rack, lexicon, opponent_rack, deadline)
    if engine == "c":
        return _solve_in_c(search, board, board_bytes, mine, theirs, passes, max_depth, (cpu_seconds, max_nodes),
                           started)
    best = None
    for depth in depth_schedule(max_depth):
        cuts = search.cuts
        try:
            value = search.negamax(board_bytes, mine, theirs, passes, depth, -_INFINITY, _INFINITY)
        except MoveGenerationTimeout:
            break
        best = (value, depth, search.cuts == cuts)
        if best[2]:
            break
    if best is None:
        raise EndgameTimeout(f"the endgame search found no move in {seconds:g} s")
    value, depth, exact = best
    moves = _sequence(search, board, board_bytes, mine, theirs, passes, MAX_DEPTH if exact else depth)
    return EndgameResult(moves, value, exact, depth, search.nodes, time.monotonic() - started)


def full_search(rule_set, board, rack: str, lexicon, *, opponent_rack: str | None = None, passes: int = 0,
                seconds: float | None = None) -> int:
    """The value of the endgame by plain minimax over every move to the end (for checking the search)."""
    deadline = None if seconds is None else time.monotonic() + seconds
    search, _board, board_bytes, mine, theirs = _start(rule_set, board, rack, lexicon, opponent_rack, deadline)
    return search.full(board_bytes, mine, theirs, passes)
