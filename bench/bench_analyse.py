"""Game analysis (`analyse_game`, what `lexicon-service analyse` and AnalyseGame run) of a real Polish record.

    python bench/bench_analyse.py --shared ../shared --lexicons lexicons [--rounds 5]

The record is tests/data/gcg/real/pl-polish-endgame.gcg (50 turns, 25 a player, every rack recorded).
The Polish lexicon (`--lexicons`/pl-scrabble.lex) is used as it is when it has a move graph, else a
copy in a temporary directory gets one (as bench_movegen_service does). Printed: the lexicon's load
time, and the analysis of the whole record (lexicon loaded), each of --rounds runs. Target: <= 2 s.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench_movegen_service import LEXICON, lexicon_with_move_graph  # noqa: E402

from lexicon_service.lexicon import load_lexicon  # noqa: E402
from lexicon_service.movegen.analysis import analyse_game  # noqa: E402
from lexicon_service.rules.gcg import read_gcg  # noqa: E402

RECORD = ROOT / "tests" / "data" / "gcg" / "real" / "pl-polish-endgame.gcg"
TARGET_SECONDS = 2.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", default="../shared", help="shared data directory (unused)")
    parser.add_argument("--lexicons", default="lexicons", help="directory of the default lexicons")
    parser.add_argument("--rounds", type=int, default=5, help="times the record is analysed")
    parser.add_argument("--strict", action="store_true", help="exit 1 when the target is missed")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="bench-analyse-") as work:
        directory = lexicon_with_move_graph(Path(args.lexicons), Path(work))
        started = time.perf_counter()
        lexicon = load_lexicon(directory / f"{LEXICON}.lex")
        print(f"lexicon {LEXICON} loaded in {time.perf_counter() - started:.2f} s")
        game = read_gcg(RECORD)
        rule_set = lexicon.rule_set
        seconds = []
        for _ in range(args.rounds):
            started = time.perf_counter()
            turns = analyse_game(rule_set, game, lexicon)
            seconds.append(time.perf_counter() - started)
        analysed = sum(t.best is not None for t in turns)
        worst = max(seconds)
        print(f"{RECORD.name}: {len(turns)} turns ({analysed} analysed); analysis median "
              f"{statistics.median(seconds):.3f} s, max {worst:.3f} s over {args.rounds} runs "
              f"(target <= {TARGET_SECONDS:g} s: {'met' if worst <= TARGET_SECONDS else 'MISSED'})")
    return 1 if args.strict and worst > TARGET_SECONDS else 0


if __name__ == "__main__":
    raise SystemExit(main())
