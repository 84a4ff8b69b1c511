"""Endgames: Polish positions with 7 tiles on each rack and the bag empty, solved within a time limit, and
small ones checked against a plain full search.

    python bench/bench_endgame.py --lexicons lexicons [--positions 200] [--small 50] [--seconds 5]

Positions come from self-play games of two players of the level "best" on pl-scrabble (seeded): the
first turn at which the bag is empty and both racks hold 7 tiles. Each is solved by
`movegen.endgame.solve_endgame` (--seconds each, CPU of one process): how many were solved exactly
(the search reached every end of the game) and the p50 / p99 / max time. Target: all of 200, p99 <= 5 s.

The small ones: the same games' positions with both racks cut to 2 tiles (the first two), solved and
compared with `full_search` (plain minimax to the end, no pruning or table): every value must agree.
Baseline in the same run: the full search's time on them; the ratio is its total time to the solver's.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from lexicon_service.lexicon import load_lexicon  # noqa: E402
from lexicon_service.movegen import generate_moves  # noqa: E402
from lexicon_service.movegen.endgame import full_search, solve_endgame  # noqa: E402
from lexicon_service.movegen.selfplay import bag_of  # noqa: E402
from lexicon_service.rules.board import Board  # noqa: E402
from lexicon_service.rules.moves import validate_move  # noqa: E402

TARGET_P99 = 5.0


def endgame_positions(lexicon, count: int, seed: int):
    """(board, rack on turn, the other rack) of `count` self-play games where the bag empties with two full racks."""
    rule_set = lexicon.rule_set
    ts = rule_set.tile_set
    out, game = [], 0
    while len(out) < count and game < 50 * count:
        game += 1
        rng = random.Random(f"endgame-bench/{seed}/{game}")
        bag = bag_of(rule_set)
        rng.shuffle(bag)
        racks = [[bag.pop() for _ in range(7)] for _ in range(2)]
        board, p, stuck = Board.empty(rule_set), 0, 0
        while stuck < 4:
            rack = ts.rack_text(racks[p])
            moves = generate_moves(rule_set, board, rack, lexicon, limit=1, include_exchanges=False,
                                   include_pass=False)
            if not moves:
                stuck += 1
                p ^= 1
                continue
            stuck = 0
            result = validate_move(rule_set, board, rack, moves[0].play, lexicon=lexicon)
            board.apply(result)
            for tile in result.tiles_used:
                racks[p].remove(tile)
            while len(racks[p]) < 7 and bag:
                racks[p].append(bag.pop())
            p ^= 1
            if not bag:
                if len(racks[0]) == len(racks[1]) == 7:
                    out.append((board, ts.rack_text(racks[p]), ts.rack_text(racks[1 - p])))
                break
    return out


def _percentile(values, q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def solve_all(lexicon, positions, seconds: float) -> None:
    rule_set = lexicon.rule_set
    times, exact, nodes = [], 0, 0
    for board, mine, theirs in positions:
        started = time.process_time()
        result = solve_endgame(rule_set, board, mine, lexicon, opponent_rack=theirs, seconds=seconds)
        times.append(time.process_time() - started)
        exact += result.exact
        nodes += result.nodes
    n = len(positions)
    print(f"endgames, 7 tiles each, {n} Polish positions, {seconds:g} s each: {exact} solved exactly "
          f"({exact / max(n, 1):.1%}); time p50 {_percentile(times, 0.5):.2f} s, p99 {_percentile(times, 0.99):.2f} s, "
          f"max {max(times, default=0):.2f} s; {nodes / max(sum(times), 1e-9):,.0f} nodes/s")
    met = exact == n and n >= 200 and _percentile(times, 0.99) <= TARGET_P99
    print(f"target: 200 of 200 exactly, p99 <= {TARGET_P99:g} s: {'met' if met else 'NOT MET'}")


def check_small(lexicon, positions) -> None:
    rule_set = lexicon.rule_set
    ts = rule_set.tile_set
    differing = 0
    solver = plain = 0.0
    for board, mine, theirs in positions:
        mine, theirs = ts.rack_text(ts.spell_rack(mine)[:2]), ts.rack_text(ts.spell_rack(theirs)[:2])
        started = time.process_time()
        solved = solve_endgame(rule_set, board, mine, lexicon, opponent_rack=theirs, seconds=None)
        solver += time.process_time() - started
        started = time.process_time()
        value = full_search(rule_set, board, mine, lexicon, opponent_rack=theirs)
        plain += time.process_time() - started
        differing += (value != solved.value) or not solved.exact
    print(f"small endgames (2 tiles each), {len(positions)}: {differing} differ from the plain full search; "
          f"solver {solver:.2f} s, full search {plain:.2f} s (baseline): ratio {plain / max(solver, 1e-9):.1f}x")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", default="../shared", help="shared data directory (unused)")
    parser.add_argument("--lexicons", default="lexicons", help="directory of the default lexicons")
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--small", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    lexicon = load_lexicon(Path(args.lexicons) / "pl-scrabble.lex")
    positions = endgame_positions(lexicon, max(args.positions, args.small), args.seed)
    check_small(lexicon, positions[:args.small])
    if args.positions:
        solve_all(lexicon, positions[:args.positions], args.seconds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
