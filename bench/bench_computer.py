"""The computer player's move time, and the server's per-turn `has_move` check, on mid-game Polish positions.

    python bench/bench_computer.py --lexicons lexicons [--games 30] [--rounds 3]

Positions as bench_movegen_service.py makes them (self-play with the engine, seeded; racks of five tiles
and two blanks, the hardest racks). For each level, `games.computer.choose_move` (what a computer seat
runs for a move: generation with the level's limit, then the pick) in-process, `--rounds` times over
the positions (the level equity with a leave table made in this run on a copy of the lexicon).
Target: p99 <= 100 ms at the strongest levels, best and equity. Also the check the server runs after every
turn in a game whose rule set decides the end or the redraw: `has_move` on the position (one rack).
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_movegen_service import (  # noqa: E402
    LEXICON,
    lexicon_with_leave_table,
    position_arguments,
    self_play_positions,
    summary,
)

from lexicon_service.games.computer import ALL_LEVELS, EQUITY, SIMULATING, choose_move  # noqa: E402
from lexicon_service.lexicon import load_lexicon  # noqa: E402
from lexicon_service.movegen import has_move  # noqa: E402
from lexicon_service.rules import Board  # noqa: E402

TARGET_P99_MS = 100.0


def main() -> int:
    parser = position_arguments(__doc__)
    parser.add_argument("--leave-games", type=int, default=1000,
                        help="self-play games for the leave table the level equity needs (made in this run)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="bench-computer-") as work:
        directory = lexicon_with_leave_table(Path(args.lexicons), Path(work), args.leave_games, args.seed)
        lexicon = load_lexicon(directory / f"{LEXICON}.lex")
        rule_set = lexicon.rule_set
        positions = self_play_positions(rule_set, lexicon, args.games, args.seed)
        boards = [(Board.from_rows(rule_set, rows), rack) for rows, rack, _ in positions]
        print(f"{len(positions)} mid-game positions from {args.games} self-play games (seed {args.seed})")
        missed = False
        for level in (level for level in ALL_LEVELS if level != SIMULATING):  # bench_simulate.py: its own
            times = []
            for round_ in range(args.rounds):
                for i, (board, rack) in enumerate(boards):
                    rng = random.Random(f"{args.seed}/{round_}/{i}")
                    started = time.perf_counter()
                    choose_move(rule_set, board, rack, 50, lexicon, level, rng)
                    times.append(time.perf_counter() - started)
            target = TARGET_P99_MS if level in ("best", EQUITY) else None  # the strongest levels
            print(summary(f"choose_move, level {level}", times, target))
            if target is not None:
                missed |= sorted(times)[int(0.99 * (len(times) - 1))] * 1000 > target
        times = []
        for _ in range(args.rounds):
            for board, rack in boards:
                started = time.perf_counter()
                has_move(rule_set, board, rack, lexicon)
                times.append(time.perf_counter() - started)
        print(summary("has_move (the per-turn check, one rack)", times))
    return 1 if (missed and args.strict) else 0


if __name__ == "__main__":
    raise SystemExit(main())
