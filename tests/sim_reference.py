"""The simulation's play-outs written plainly in Python, move by move (the loop `movegen/simulate.py` ran
before it moved into C): a test oracle for `csrc/simulate.c`. Its shuffles are the C core's (splitmix64,
Fisher-Yates from the last tile down), so the same seed gives the same draws and the same results. A
play-out turn plays the best play by score plus leave value of all plays (`rollout_limit` 0) or of the
top `rollout_limit` by score; its leave values are summed in the C core's order (`CoreLeaves`), since two
plays of equal equity on paper may differ in the last bit by the order of the sum, and the C core's
answer is the one of higher equity in doubles, the first in the answer's order on an exact tie."""

from __future__ import annotations

import math
import struct

from lexicon_service.movegen import _BLANK, _NEW, _TILE, _core_generate
from lexicon_service.movegen.fastplay import leave_arrays
from lexicon_service.movegen.simulate import (
    SimSettings, SeatView, _candidates, _Engine, core_seed,
)
from lexicon_service.rules.game import end_of_game_adjustments

MASK = 2 ** 64 - 1


class SplitMix:
    """csrc/selfplay.c's sp_next_random and sp_shuffle."""

    def __init__(self, state: int) -> None:
        self.state = state

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def shuffle(self, tiles: list) -> None:
        for i in range(len(tiles) - 1, 0, -1):
            j = self.next() % (i + 1)
            tiles[i], tiles[j] = tiles[j], tiles[i]


class CoreLeaves:
    """csrc/selfplay.c's sp_leave_value over the arrays the core is given (fastplay.leave_arrays): a whole
    leave's entry, else size + each tile (ascending by number) followed by its pairs with the later ones."""

    def __init__(self, rule_set, table) -> None:
        size, tile, pair, keys, values = leave_arrays(rule_set, table)
        self.size = struct.unpack(f"<{len(size) // 8}d", size)
        self.tile = struct.unpack(f"<{len(tile) // 8}d", tile)
        self.pair = struct.unpack(f"<{len(pair) // 8}d", pair)
        self.entries = dict(zip(struct.unpack(f"<{len(keys) // 8}Q", keys),
                                struct.unpack(f"<{len(values) // 8}d", values)))

    def value(self, kept) -> float:
        tiles = sorted(kept)
        key = len(tiles)
        for t in tiles:
            key = (key << 6) | t
        if key in self.entries:
            return self.entries[key]
        v = self.size[len(tiles)]
        for i, a in enumerate(tiles):
            v += self.tile[a]
            for b in tiles[i + 1:]:
                v += self.pair[a * 64 + b]
        return v


def _best_move(engine: _Engine, leaves: CoreLeaves, board: bytearray, rack: list, bag_left: int, limit: int):
    counts = bytearray(64)
    for n in rack:
        counts[n] += 1
    best, best_equity, best_kept, best_value = None, None, None, 0.0
    for found in _core_generate(engine.graph, engine.static, bytes(board), bytes(counts), 0, limit, 0, b"", b"",
                                None):
        kept = list(rack)
        for b in found[4]:
            if b & _NEW:
                kept.remove(0 if b & _BLANK else b & _TILE)
        value = leaves.value(kept) if bag_left else 0.0
        if best_equity is None or found[0] + value > best_equity:
            best, best_equity, best_kept, best_value = found, found[0] + value, kept, value
    if best is None:
        return None
    score, down, row, col, raw, _n = best
    return score, engine.placements(down, row, col, raw)[0], best_kept, best_value


def _draw(rack: list, bag: list, rack_size: int) -> None:
    while len(rack) < rack_size and bag:
        rack.append(bag.pop())


def _end(engine: _Engine, racks, went_out: int) -> int:
    adjust = end_of_game_adjustments(engine.rule_set, [[engine.names[n] for n in r] for r in racks], went_out)
    return adjust[0] - adjust[1]


def play_out(engine: _Engine, leaves: CoreLeaves, board0: bytes, cand, opp: list, bag: list, settings: SimSettings,
             spread: int, rng: SplitMix) -> tuple[float, float | None]:
    board = bytearray(board0)
    for square, byte in cand.placements:
        board[square] = byte
    bag = list(bag)
    racks = [list(cand.kept), list(opp)]
    _draw(racks[0], bag, engine.rack_size)
    if cand.given:
        bag.extend(cand.given)
        rng.shuffle(bag)
    delta, last_leave = float(cand.score), cand.leave_value
    if not racks[0]:
        final = spread + delta + _end(engine, racks, 0)
        return final - spread, 1.0 if final > 0 else 0.5 if final == 0 else 0.0
    mover = 1
    for _ in range(settings.plies):
        found = _best_move(engine, leaves, board, racks[mover], len(bag), settings.rollout_limit)
        if found is not None:
            score, squares, kept, value = found
            for square, byte in squares:
                board[square] = byte
            racks[mover] = kept
            delta += score if mover == 0 else -score
            if mover == 0:
                last_leave = value
            _draw(kept, bag, engine.rack_size)
            if not kept:
                final = spread + delta + _end(engine, racks, mover)
                return final - spread, 1.0 if final > 0 else 0.5 if final == 0 else 0.0
        mover ^= 1
    value = delta + last_leave
    if engine.win_table is None:
        return value, None
    if mover == 0:
        return value, engine.win_table.win_chance(spread + value, len(bag))
    return value, 1.0 - engine.win_table.win_chance(-(spread + value), len(bag))


def _standard_error(sim) -> float:
    n = sim.iterations
    if n < 2:
        return math.inf
    s, q = sim._sums[3], sim._sums[4]
    return math.sqrt(max(0.0, (q - s * s / n) / (n - 1))) / math.sqrt(n)


def simulate(rule_set, view: SeatView, lexicon, settings: SimSettings):
    """(candidates' SimulatedMoves in candidate order, iterations) of the plain Python simulation."""
    engine = _Engine(rule_set, lexicon, settings, None)
    candidates = _candidates(engine, view, lexicon, settings, None)
    board0 = engine.static.board_bytes(view.board)
    unseen = [engine.number(t) for t in view.unseen]
    opp_size = min(engine.rack_size, view.opponent_rack_size)
    rng = SplitMix(core_seed(settings.seed))
    leaves = CoreLeaves(rule_set, lexicon.leaves)
    alive, iterations = list(candidates), 0
    while len(alive) > 1 and iterations < settings.iterations:
        draw = list(unseen)
        rng.shuffle(draw)
        opp, bag = draw[:opp_size], draw[opp_size:]
        results = [play_out(engine, leaves, board0, c, opp, bag, settings, view.spread, rng) for c in alive]
        for c, (spread, win) in zip(alive, results):
            c.sim.add(spread, win)
        iterations += 1
        if iterations >= settings.min_iterations and iterations % settings.check_every == 0:
            leader = max(alive, key=lambda c: c.sim.mean_key)
            floor = leader.sim.mean_key - settings.z * _standard_error(leader.sim)
            for c in alive:
                if c is not leader and c.sim.mean_key + settings.z * _standard_error(c.sim) < floor:
                    c.sim.pruned = True
            alive = [c for c in alive if not c.sim.pruned]
    return [c.sim for c in candidates], iterations
