"""Raw move generation to profile: `count_moves` over the Polish best-move self-play positions of
bench_movegen.py's speed phase, in rounds, with nothing else in the timed loop.

    python bench/profile_movegen.py --lexicons DIR [--positions 1000] [--rounds 5]

Prints per round the plays counted, moves/s and CPU per position, then the median. Run it under a
profiler to see where the C core spends its time (docs/movegen.md quotes both):

    perf record -o /tmp/movegen.perf python bench/profile_movegen.py --lexicons DIR --rounds 10
    perf report -i /tmp/movegen.perf --no-children --sort symbol
    valgrind --tool=callgrind --branch-sim=yes --collect-atstart=no --toggle-collect=generate \\
        python bench/profile_movegen.py --lexicons DIR --positions 200 --rounds 1

(`--toggle-collect=generate` counts only the C call: its set-up, cross-checks and search.)
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from lexicon_service.lexicon import load_lexicon  # noqa: E402
from lexicon_service.movegen import count_moves  # noqa: E402
from lexicon_service.movegen.selfplay import positions  # noqa: E402


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--lexicons", default="lexicons", help="directory with pl-scrabble.lex")
    p.add_argument("--positions", type=int, default=1000, help="self-play positions (bench_movegen's turns)")
    p.add_argument("--rounds", type=int, default=5, help="times the positions are counted")
    args = p.parse_args(argv)
    lex = load_lexicon(Path(args.lexicons) / "pl-scrabble.lex")
    rs = lex.rule_set
    played = list(positions(rs, lex, random.Random(1), args.positions, best=True))
    rates = []
    for r in range(args.rounds):
        t = time.process_time()
        moves = sum(count_moves(rs, board, rack, lex) for board, rack in played)
        cpu = time.process_time() - t
        rates.append(moves / cpu)
        print(f"round {r + 1}: {moves:,} plays in {cpu:.3f} s CPU = {moves / cpu / 1e6:.2f} M moves/s, "
              f"{cpu / len(played) * 1e6:.0f} µs CPU a position")
    print(f"median: {statistics.median(rates) / 1e6:.2f} M moves/s over {len(played)} positions")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
