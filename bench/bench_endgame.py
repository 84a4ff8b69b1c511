"""Endgames: Polish positions with 7 tiles on each rack and the bag empty, solved within a time limit, and
small ones checked against a plain full search.

    python bench/bench_endgame.py --lexicons lexicons [--positions 200] [--small 50] [--seconds 5] [--workers 1]

Positions come from C self-play games (`movegen.fastplay`, two players of the level "best", seeded) on
pl-scrabble: the first turn at which the bag is empty, where both racks hold 7 tiles. Each is solved by
`movegen.endgame.solve_endgame` (the C search, --seconds of CPU each): how many were solved exactly (the
search reached every end of the game) and the p50 / p99 / max CPU time. Target: all of 200, p99 <= 5 s.

The small ones: the same positions with both racks cut to their first --small-tiles tiles, solved by the
C search and by the Python one and compared with `full_search` (plain minimax to the end, no pruning or
table): every value must agree.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from lexicon_service.lexicon import load_lexicon  # noqa: E402
from lexicon_service.movegen.endgame import endgame_view, full_search, solve_endgame  # noqa: E402
from lexicon_service.movegen.fastplay import move_text, play_games  # noqa: E402
from lexicon_service.rules.board import Board  # noqa: E402
from lexicon_service.rules.moves import validate_move  # noqa: E402

TARGET_P99 = 5.0


def endgame_positions(lexicon, count: int, seed: int):
    """(board, rack on turn, the other rack) of `count` C self-play games (`movegen.fastplay`, two players of
    the level "best", seeded) at the turn the bag is first empty, where both racks hold a full rack."""
    rule_set = lexicon.rule_set
    ts, size = rule_set.tile_set, rule_set.rack_size
    out, batch = [], 0
    while len(out) < count and batch < 50:
        for game in play_games(lexicon, 200, seed + batch * 1_000_003):  # a fixed batch: a prefix stays a prefix
            at = next((i for i, turn in enumerate(game.turns) if turn.bag_before == 0), None)
            if at is None or len(game.turns[at].rack) != size:
                continue
            board = Board.empty(rule_set)
            for turn in game.turns[:at]:
                if turn.kind == "play":
                    board.apply(validate_move(rule_set, board, ts.rack_text(list(turn.rack)),
                                              move_text(rule_set, board, turn), lexicon=lexicon))
            mine = ts.rack_text(list(game.turns[at].rack))
            theirs = endgame_view(rule_set, board, mine)
            if len(ts.spell_rack(theirs)) == size:
                out.append((board, mine, theirs))
            if len(out) == count:
                break
        batch += 1
    return out


def _percentile(values, q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


_WORKER: dict = {}


def _start_worker(lexicon_path: str, count: int, seed: int) -> None:
    lexicon = load_lexicon(lexicon_path)
    _WORKER.update(lexicon=lexicon, positions=endgame_positions(lexicon, count, seed))


def _solve_one(args: tuple) -> tuple[int, float, int, int]:
    """(exact, CPU seconds, nodes, depth) of position `index`, in a worker process (its own CPU clock)."""
    index, seconds = args
    lexicon = _WORKER["lexicon"]
    board, mine, theirs = _WORKER["positions"][index]
    started = time.process_time()
    result = solve_endgame(lexicon.rule_set, board, mine, lexicon, opponent_rack=theirs, seconds=None,
                           cpu_seconds=seconds)
    return int(result.exact), time.process_time() - started, result.nodes, result.depth


def solve_all(lexicon_path: Path, count: int, seed: int, seconds: float, workers: int, progress: bool) -> None:
    """Each of `count` positions solved within `seconds` of CPU, by `workers` processes (each position's CPU
    time is its own process's, so the figures do not depend on how many run at once)."""
    with multiprocessing.get_context("fork").Pool(workers, _start_worker, (str(lexicon_path), count, seed)) as pool:
        results = []
        for exact, spent, nodes, depth in pool.imap(_solve_one, [(i, seconds) for i in range(count)], chunksize=1):
            results.append((exact, spent, nodes))
            if progress:
                print(f"  position {len(results)}: {'exact' if exact else 'not proven'}, {spent:.2f} CPU s, "
                      f"{nodes:,} nodes, depth {depth}", flush=True)
    times = [t for _, t, _ in results]
    exact, nodes, n = sum(e for e, _, _ in results), sum(k for _, _, k in results), len(results)
    print(f"endgames, 7 tiles each, {n} Polish positions, {seconds:g} CPU s each: {exact} solved exactly "
          f"({exact / max(n, 1):.1%}); CPU time p50 {_percentile(times, 0.5):.2f} s, "
          f"p99 {_percentile(times, 0.99):.2f} s, max {max(times, default=0):.2f} s; "
          f"{nodes / max(sum(times), 1e-9):,.0f} nodes/s")
    met = exact == n and n >= 200 and _percentile(times, 0.99) <= TARGET_P99
    print(f"target: 200 of 200 exactly, p99 <= {TARGET_P99:g} s: {'met' if met else 'NOT MET'}")


def check_small(lexicon, positions, tiles: int) -> None:
    """Both racks cut to their first `tiles` tiles: the C search, the Python search and the plain full
    search give the same value."""
    rule_set = lexicon.rule_set
    ts = rule_set.tile_set
    differing = 0
    in_c = in_python = plain = 0.0
    for board, mine, theirs in positions:
        mine, theirs = ts.rack_text(ts.spell_rack(mine)[:tiles]), ts.rack_text(ts.spell_rack(theirs)[:tiles])
        values = []
        for engine in ("c", "python"):
            started = time.process_time()
            solved = solve_endgame(rule_set, board, mine, lexicon, opponent_rack=theirs, seconds=None, engine=engine)
            spent = time.process_time() - started
            in_c, in_python = (in_c + spent, in_python) if engine == "c" else (in_c, in_python + spent)
            values.append(solved.value if solved.exact else None)
        started = time.process_time()
        values.append(full_search(rule_set, board, mine, lexicon, opponent_rack=theirs))
        plain += time.process_time() - started
        differing += len(set(values)) != 1
    print(f"small endgames ({tiles} tiles each), {len(positions)}: {differing} differ (C search, Python search, "
          f"plain full search); CPU: C {in_c:.2f} s, Python {in_python:.2f} s, full search {plain:.2f} s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", default="../shared", help="shared data directory (unused)")
    parser.add_argument("--lexicons", default="lexicons", help="directory of the default lexicons")
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--small", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=5.0, help="CPU seconds each 7-tile endgame may take")
    parser.add_argument("--small-tiles", type=int, default=2, help="tiles on each rack of the small endgames")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1, help="processes solving the 7-tile endgames")
    parser.add_argument("--progress", action="store_true", help="a line per position solved")
    args = parser.parse_args()
    path = Path(args.lexicons) / "pl-scrabble.lex"
    if args.small:
        lexicon = load_lexicon(path)
        check_small(lexicon, endgame_positions(lexicon, args.small, args.seed), args.small_tiles)
    if args.positions:
        solve_all(path, args.positions, args.seed, args.seconds, max(1, args.workers), args.progress)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
