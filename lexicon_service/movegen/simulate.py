"""Simulation: which move wins most often, by playing the game on a few turns many times.

For the player on turn, from what that player may see (`SeatView`: the board, their own rack, the
tiles they cannot see, the bag's count and the score difference), `simulate`:

1. takes the `candidates` best moves by static equity (score plus the leave table's value of the
   tiles kept; the score alone without a leave table), plays and, where the rules and the bag allow
   them, exchanges;
2. per iteration, shuffles the unseen tiles once (the opponent's rack is the first of them, as many
   as the opponent holds; the bag the rest, in that order) and, for every candidate still in the race
   on that same draw, makes the move, draws, and plays `plies` more turns (the opponent, then the
   player, ...), each the play of the highest static equity of all plays, as MAGPIE's play-outs
   choose (`rollout_limit` n > 0: of the top n plays by score only), a pass when there is none; a
   player who goes out with the bag empty ends the game, with the rule set's end-of-game adjustments;
3. scores the play-out: the spread it adds (the player's points less the opponent's), plus the leave
   value of the player's last move while tiles were left to draw, and the win chance of the position
   it ends in (the lexicon's win-probability table, `movegen/winprob.py`, by score difference and bag
   count; a finished game is won, drawn or lost);
4. ranks the candidates by win chance, the mean spread breaking near-ties (`rank_key`: 100 points of
   spread count as one point of percentage), or by mean spread alone without a win table.

Steps 2 to 4 and the stopping rules run in C (`csrc/simulate.c`), one call a request: each play-out is a
short game moved on by the self-play turn of `csrc/selfplay.c` (`sp_turn`, the level "equity" without
exchanges: the search takes anchors best equity bound first and stops once no anchor can reach the
best), the shuffles by its seeded generator.

It stops after `iterations`, at `deadline` (the last whole iteration counts), or when one candidate is
left: the confidence rule prunes, every `check_every` iterations from `min_iterations` on, a candidate
whose mean rank key plus `z` standard errors is below the leader's minus `z` of its own (it cannot
catch the best). The same settings and seed give the same answer.

A computer never uses what its seat could not see: the opponent's rack is never an input, only the
multiset of unseen tiles (`seat_view` computes it from the rule set's tiles less the board's and the
player's own) from which each iteration draws it.
"""

from __future__ import annotations

import hashlib
import math
import struct
import weakref
from dataclasses import dataclass, field

from lexicon_service.movegen import (
    _BLANK, _NEW, _TILE, GeneratedMove, MoveGenerationError, _call, _core, _graph, _moves_from_core, _static,
    exchanges, tiles_left,
)
from lexicon_service.movegen.fastplay import leave_arrays
from lexicon_service.rules.game import exchange_refusal
from lexicon_service.rules.moves import validate_move
from lexicon_service.tiles import BLANK
from lexicon_service.movegen import _core

SPREAD_PER_WIN = 10_000  # rank_key: spread points worth a whole win (100 points = one percentage point)
MAX_CANDIDATES = 64
MAX_PLIES = 6
MAX_ITERATIONS = 100_000
_EQUITY_LIMIT = 64  # plays by score the candidates are chosen from


@dataclass(frozen=True)
class SimSettings:
    candidates: int = 8        # N: the best static moves simulated
    plies: int = 2             # K: turns played after the move
    iterations: int = 400      # at most
    min_iterations: int = 24   # before the confidence rule prunes
    check_every: int = 8
    z: float = 2.0             # standard errors on each side of the confidence rule
    rollout_limit: int = 0     # plays by score a play-out turn chooses among; 0: all (MAGPIE's policy)
    seed: str = "0"

    def refusal(self) -> tuple[str, str] | None:
        """(field, why) when a setting is out of range, else None."""
        for name, low, high in (("candidates", 1, MAX_CANDIDATES), ("plies", 0, MAX_PLIES),
                                ("iterations", 1, MAX_ITERATIONS), ("rollout_limit", 0, 1000)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                return name, f"{name} must be a whole number from {low} to {high:,}"
        return None


@dataclass(frozen=True)
class SeatView:
    """What the player on turn sees: the board, their rack, the tiles they cannot see (the bag and the
    opponent's rack together), how many of those are in the bag, and their score less the opponent's."""

    board: object
    rack: str
    unseen: tuple[str, ...]
    bag_count: int
    spread: int = 0
    may_exchange: bool = True  # False: exchanges are left out (a computer after a scoreless round)

    @property
    def opponent_rack_size(self) -> int:
        return max(0, len(self.unseen) - self.bag_count)


def unseen_tiles(rule_set, board, rack: str) -> list[str]:
    """The rule set's tiles less the board's (a blank as "?") and the rack's: what the player holding
    `rack` cannot see. MoveGenerationError (field "rack") when the board and rack hold more of a tile
    than the set has."""
    counts = dict(rule_set.tile_set.bag())
    if board is not None:
        for letter, n in board.tile_counts().items():
            if letter in counts:
                counts[letter] -= n
    for tile in rule_set.tile_set.spell_rack(rack):
        counts[tile] = counts.get(tile, 0) - 1
    if any(n < 0 for n in counts.values()):
        raise MoveGenerationError("rack", "the board and the rack hold more of a tile than the set has")
    return [letter for letter, n in counts.items() for _ in range(n)]


def seat_view(rule_set, board, rack: str, bag_count: int, spread: int = 0, may_exchange: bool = True) -> SeatView:
    return SeatView(board, rack, tuple(unseen_tiles(rule_set, board, rack)), bag_count, spread, may_exchange)


@dataclass
class SimulatedMove:
    move: GeneratedMove
    static_equity: float
    iterations: int = 0
    pruned: bool = False
    _sums: list = field(default_factory=lambda: [0.0, 0.0, 0.0, 0.0, 0.0])  # spread, spread², win, key, key²

    def add(self, spread: float, win: float | None) -> None:
        key = rank_key(spread, win)
        s = self._sums
        s[0] += spread
        s[1] += spread * spread
        s[2] += win if win is not None else 0.0
        s[3] += key
        s[4] += key * key
        self.iterations += 1

    @property
    def mean_spread(self) -> float:
        return self._sums[0] / self.iterations if self.iterations else self.static_equity

    @property
    def spread_deviation(self) -> float:
        return _deviation(self._sums[0], self._sums[1], self.iterations)

    @property
    def win_chance(self) -> float:
        return self._sums[2] / self.iterations if self.iterations else 0.0

    @property
    def mean_key(self) -> float:
        return self._sums[3] / self.iterations if self.iterations else self.static_equity / SPREAD_PER_WIN

    def standard_error(self) -> float:
        n = self.iterations
        return _deviation(self._sums[3], self._sums[4], n) / math.sqrt(n) if n > 1 else math.inf


def _deviation(total: float, squares: float, n: int) -> float:
    if n < 2:
        return 0.0
    return math.sqrt(max(0.0, (squares - total * total / n) / (n - 1)))


def rank_key(spread: float, win: float | None) -> float:
    """What a play-out is ranked by: its win (0-1) plus spread / SPREAD_PER_WIN; the spread alone (in
    wins) without a win table."""
    return (win or 0.0) + spread / SPREAD_PER_WIN


@dataclass
class Simulation:
    moves: list[SimulatedMove]   # best first: the ones left in the race, then the pruned
    iterations: int
    stopped: str                 # "iterations", "time", "confidence" (one candidate left), "no candidates"
    has_win_table: bool

    @property
    def best(self) -> GeneratedMove | None:
        return self.moves[0].move if self.moves else None


@dataclass
class _Candidate:
    sim: SimulatedMove
    score: int
    placements: tuple       # (square index, board byte) of the new tiles
    kept: tuple             # tile numbers kept (0 a blank)
    given: tuple = ()       # tile numbers an exchange puts back in the bag
    leave_value: float = 0.0


class _Engine:
    """What the candidates of one position are made with: the core's arguments and leave values by tile
    number."""

    def __init__(self, rule_set, lexicon, settings: SimSettings, deadline: float | None) -> None:
        self.rule_set = rule_set
        self.static = static = _static(rule_set)
        self.graph = _graph(rule_set, lexicon)
        self.leaves = getattr(lexicon, "leaves", None)
        self.win_table = getattr(lexicon, "win_table", None)
        self.columns = rule_set.columns
        self.rack_size = rule_set.rack_size
        self.names = (BLANK, *static.letters)
        self.deadline = deadline
        self._leave_values: dict[tuple, float] = {}

    def number(self, tile: str) -> int:
        return 0 if tile == BLANK else self.static.number[tile]

    def leave_value(self, kept) -> float:
        """The leave table's value of keeping these tile numbers (0 without a table)."""
        if self.leaves is None:
            return 0.0
        key = tuple(sorted(kept))
        value = self._leave_values.get(key)
        if value is None:
            value = self._leave_values[key] = self.leaves.value_of_tiles([self.names[n] for n in key])
        return value

    def placements(self, down: int, row: int, col: int, raw: bytes) -> tuple[tuple, tuple]:
        """((square, board byte) of each new tile, tile numbers used) of a play the core found."""
        step = self.columns if down else 1
        start = row * self.columns + col
        squares = tuple((start + i * step, b & (_BLANK | _TILE)) for i, b in enumerate(raw) if b & _NEW)
        used = tuple(0 if b & _BLANK else b & _TILE for _, b in squares)
        return squares, used


_OUT_BONUS = {"none": 0, "others-racks": 1, "twice-others-racks": 2}
_STOPPED = ("iterations", "time", "confidence")
_NO_LEAVES = (bytes(9 * 8), bytes(64 * 8), bytes(64 * 64 * 8), b"", b"")  # every leave worth 0
_core_tables: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # table -> its arrays for the core


def _table_arrays(rule_set, table, make):
    """`make(rule_set, table)`, made once per table object (a lexicon's tables live as long as it)."""
    arrays = _core_tables.get(table)
    if arrays is None:
        arrays = _core_tables[table] = make(rule_set, table)
    return arrays


def win_arrays(_rule_set, table) -> tuple[bytes, bytes]:
    """A WinTable as the core reads it (simulate.h, SimWinTable): spreads as int32, chances by bag row."""
    return (struct.pack(f"<{len(table.spreads)}i", *table.spreads),
            b"".join(struct.pack(f"<{len(row)}d", *row) for row in table.rows))


def core_seed(seed: str) -> int:
    """The core's 64-bit seed of a simulation seed."""
    return int.from_bytes(hashlib.blake2b(f"sim/{seed}".encode(), digest_size=8).digest(), "little")


def _core_candidate(engine: _Engine, cand: _Candidate) -> tuple:
    squares = b"".join(struct.pack("<H", square) for square, _ in cand.placements)
    return (cand.score, squares, bytes(byte for _, byte in cand.placements), bytes(cand.kept), bytes(cand.given),
            cand.leave_value)


def _play_outs(engine: _Engine, view: SeatView, board0: bytes, candidates: list[_Candidate],
               settings: SimSettings, on_draw) -> tuple[int, str]:
    """Plays the candidates out in C (one call): their results into their SimulatedMoves; (iterations,
    why it stopped)."""
    rule_set = engine.rule_set
    unseen = bytes(engine.number(t) for t in view.unseen)
    opp_size = min(engine.rack_size, view.opponent_rack_size)
    win = engine.win_table
    iterations, stopped, results, draws = _core.simulate(
        engine.graph, engine.static.core_rules, board0, [_core_candidate(engine, c) for c in candidates], unseen,
        rack_size=engine.rack_size, plies=settings.plies, iterations=settings.iterations,
        min_iterations=settings.min_iterations, check_every=settings.check_every, z=settings.z,
        rollout_limit=settings.rollout_limit, spread=view.spread, opponent_rack=opp_size,
        seed=core_seed(settings.seed), deadline=engine.deadline or 0.0,
        leaves=_NO_LEAVES if engine.leaves is None else _table_arrays(rule_set, engine.leaves, leave_arrays),
        win=None if win is None else _table_arrays(rule_set, win, win_arrays),
        blank_points=rule_set.tile_set.blank_points, subtract_own=int(rule_set.end.subtract_own_rack),
        out_bonus=_OUT_BONUS[rule_set.end.out_bonus], record_draws=on_draw is not None)
    for cand, (sums, count, pruned) in zip(candidates, results):
        cand.sim._sums = list(sums)
        cand.sim.iterations = count
        cand.sim.pruned = bool(pruned)
    if on_draw is not None:
        n = len(unseen)
        for i in range(iterations):
            draw = [engine.names[t] for t in draws[i * n:(i + 1) * n]]
            on_draw(draw[:opp_size], draw[opp_size:])
    return iterations, _STOPPED[stopped]


def _candidates(engine: _Engine, view: SeatView, lexicon, settings: SimSettings, deadline) -> list[_Candidate]:
    """The `settings.candidates` best moves by static equity (plays and allowed exchanges; the pass when
    there is neither), as play-out candidates."""
    rule_set, static = engine.rule_set, engine.static
    found, _static_, board, letters = _call(rule_set, view.board, view.rack, lexicon, 0,
                                            limit=max(_EQUITY_LIMIT, settings.candidates), deadline=deadline)
    rack = [engine.number(t) for t in letters]
    drawing = view.bag_count > 0
    ranked = []  # (equity, order, kind, payload)
    for i, (score, down, row, col, raw, _n) in enumerate(found):
        squares, used = engine.placements(down, row, col, raw)
        kept = list(rack)
        for n in used:
            kept.remove(n)
        value = engine.leave_value(kept) if drawing else 0.0
        ranked.append((score + value, i, "play", (score, squares, tuple(kept), value, i)))
    if view.may_exchange and exchange_refusal(rule_set, view.bag_count, None) is None:
        for j, move in enumerate(exchanges(rule_set, letters, view.bag_count)):
            kept = [engine.number(t) for t in rule_set.tile_set.spell_rack(move.leave)]
            given = [engine.number(t) for t in rule_set.tile_set.spell_rack(move.play[1:])]
            value = engine.leave_value(kept)
            ranked.append((value, len(found) + j, "exchange", (move, tuple(kept), tuple(given), value)))
    ranked.sort(key=lambda r: (-r[0], r[1]))
    out = []
    for equity, _order, kind, payload in ranked[:settings.candidates]:
        if kind == "play":
            score, squares, kept, value, i = payload
            move = _moves_from_core(rule_set, board, letters, static, [found[i]])[0]
            out.append(_Candidate(SimulatedMove(move, equity), score, squares, kept, (), value))
        else:
            move, kept, given, value = payload
            out.append(_Candidate(SimulatedMove(move, equity), 0, (), kept, given, value))
    if not out:
        out.append(_Candidate(SimulatedMove(GeneratedMove("pass", "-", 0, (), view.rack, 0), 0.0), 0, (),
                              tuple(rack), (), engine.leave_value(rack) if drawing else 0.0))
    return out


def _included(engine: _Engine, view: SeatView, lexicon, text: str) -> _Candidate | None:
    """The move `text` ("8D W(O)RD", "-ABC" an exchange, "-" the pass) of `view.rack` as a candidate;
    None when it is not a legal move of that rack (a phony, a tile the rack lacks, an exchange the bag
    does not allow)."""
    rule_set = engine.rule_set
    ts = rule_set.tile_set
    letters = list(ts.spell_rack(view.rack))
    drawing = view.bag_count > 0
    if text.strip() == "-":
        kept = [engine.number(t) for t in letters]
        value = engine.leave_value(kept) if drawing else 0.0
        return _Candidate(SimulatedMove(GeneratedMove("pass", "-", 0, (), view.rack, 0), value), 0, (),
                          tuple(kept), (), value)
    if text.startswith("-"):
        try:
            given = list(ts.spell_rack(text[1:]))
            kept_letters = tiles_left(letters, given)
        except ValueError:
            return None
        if exchange_refusal(rule_set, view.bag_count, len(given)) is not None:
            return None
        kept = [engine.number(t) for t in kept_letters]
        value = engine.leave_value(kept)
        move = GeneratedMove("exchange", "-" + ts.rack_text(given), 0, (), ts.rack_text(kept_letters), len(given))
        return _Candidate(SimulatedMove(move, value), 0, (), tuple(kept), tuple(engine.number(t) for t in given),
                          value)
    result = validate_move(rule_set, view.board, view.rack, text, lexicon=lexicon)
    if not result.valid:
        return None
    used = [BLANK if blank else letter for _row, _col, letter, blank in result.placements]
    kept_letters = tiles_left(letters, used)
    kept = [engine.number(t) for t in kept_letters]
    squares = tuple((row * engine.columns + col, engine.number(letter) | (_BLANK if blank else 0))
                    for row, col, letter, blank in result.placements)
    value = engine.leave_value(kept) if drawing else 0.0
    move = GeneratedMove("play", text, result.score, tuple(result.words), ts.rack_text(kept_letters), len(used))
    return _Candidate(SimulatedMove(move, result.score + value), result.score, squares, tuple(kept), (), value)


def _same(a: _Candidate, b: _Candidate) -> bool:
    return (a.placements, sorted(a.kept), sorted(a.given)) == (b.placements, sorted(b.kept), sorted(b.given)) \
        and a.sim.move.kind == b.sim.move.kind


def simulate(rule_set, view: SeatView, lexicon, settings: SimSettings = SimSettings(), *,
             deadline: float | None = None, include=(), on_draw=None) -> Simulation:
    """Simulate the best static moves of `view` (see the module docstring). `deadline`: a time.monotonic()
    value: the simulation stops there with what it has (MoveGenerationTimeout only when not even the
    candidates were found in time). `on_draw(opponent rack, bag)`: called with each iteration's draw (tile
    names), for tests. `include`: moves (play notation, "-ABC", "-") simulated beside the candidates where
they are legal (an analysis adds the move played). MoveGenerationError (with `field`) for a bad rack,
board or setting."""
    refusal = settings.refusal()
    if refusal:
        raise MoveGenerationError(*refusal)
    engine = _Engine(rule_set, lexicon, settings, deadline)
    candidates = _candidates(engine, view, lexicon, settings, deadline)
    for text in include:
        extra = _included(engine, view, lexicon, text)
        if extra is not None and not any(_same(extra, c) for c in candidates):
            candidates.append(extra)
    board0 = (engine.static.board_bytes(view.board) if view.board is not None
              else bytes(rule_set.rows * rule_set.columns))
    if len(candidates) == 1:
        iterations, stopped = 0, "confidence"
    else:
        iterations, stopped = _play_outs(engine, view, bytes(board0), candidates, settings, on_draw)
    ranked = sorted((c.sim for c in candidates), key=lambda m: (m.pruned, -m.mean_key))
    return Simulation(ranked, iterations, stopped, engine.win_table is not None)
