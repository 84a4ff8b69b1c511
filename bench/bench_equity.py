"""The computer level "equity" (score plus leave value) against "best" (the top score), Polish games.

    python bench/bench_equity.py --lexicons lexicons [--games 1000] [--leave-games 3000] [--workers 1]

A copy of pl-scrabble.lex gets its leave table in this run (`lexicon-build --leaves` with
--leave-games self-play games and --seed, into a temporary directory; the copy is removed after).
Then --games games of the two levels (`movegen.selfplay.play_game` with `games.computer.choose_move`):
games go in pairs on the same shuffled bag, each level moving first in one of them. Prints wins, draws
and losses of the equity player, its win share (a draw half a win) with a 95% Wilson interval, and
its average spread. Target: a win share of at least 55% over 1,000 games.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_movegen_service import LEXICON, lexicon_with_leave_table  # noqa: E402
from build_tools.leave_fitting import DEFAULT_GAMES  # noqa: E402
from lexicon_service.games.computer import EQUITY, choose_move  # noqa: E402
from lexicon_service.lexicon import load_lexicon  # noqa: E402
from lexicon_service.movegen.selfplay import play_game  # noqa: E402

TARGET_WIN_SHARE = 0.55
Z95 = 1.959964

_lexicon = None


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion `successes` / n."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def _load(path: str) -> None:
    global _lexicon
    _lexicon = load_lexicon(path)


def play_pair_game(args: tuple[int, int]) -> tuple[int, int]:
    """(equity player's score, score player's score) of game `index` (bag of pair index // 2; the equity
    player moves first in even games)."""
    seed, index = args
    lexicon = _lexicon
    rule_set = lexicon.rule_set
    rng = random.Random(f"equity-bench/{seed}/{index // 2}")
    choices = random.Random(f"equity-bench/{seed}/{index}/choices")

    def player(level):
        def choose(board, rack, bag_count, may_exchange):
            return choose_move(rule_set, board, rack, bag_count, lexicon, level, choices, may_exchange=may_exchange)
        return choose

    equity_first = index % 2 == 0
    players = [player(EQUITY), player("best")] if equity_first else [player("best"), player(EQUITY)]
    scores = play_game(rule_set, lexicon, players, rng).scores
    return (scores[0], scores[1]) if equity_first else (scores[1], scores[0])


def summary(results) -> tuple[str, float, float]:
    wins = sum(e > s for e, s in results)
    draws = sum(e == s for e, s in results)
    losses = len(results) - wins - draws
    share = (wins + draws / 2) / len(results)
    low, high = wilson_interval(wins + draws / 2, len(results))
    spread = sum(e - s for e, s in results) / len(results)
    text = (f"equity vs best, {len(results):,} games: {wins} wins, {draws} draws, {losses} losses; win share "
            f"{share:.1%} (95% Wilson interval {low:.1%}-{high:.1%}); average spread {spread:+.1f} points")
    return text, share, low


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", default="../shared", help="shared data directory (unused)")
    parser.add_argument("--lexicons", default="lexicons", help="directory of the default lexicons")
    parser.add_argument("--games", type=int, default=1000, help="games (an even number: pairs on one bag)")
    parser.add_argument("--leave-games", type=int, default=DEFAULT_GAMES, help="self-play games for the leave table")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1, help="processes for the games")
    parser.add_argument("--strict", action="store_true", help="exit 1 when the target is missed")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-equity-") as work:
        copy = lexicon_with_leave_table(Path(args.lexicons), Path(work), args.leave_games, args.seed) / f"{LEXICON}.lex"
        started = time.perf_counter()
        jobs = [(args.seed, i) for i in range(args.games)]
        if args.workers > 1:
            with multiprocessing.get_context("fork").Pool(args.workers, _load, (str(copy),)) as pool:
                results = pool.map(play_pair_game, jobs, chunksize=10)
        else:
            _load(str(copy))
            results = [play_pair_game(job) for job in jobs]
        text, share, _ = summary(results)
        print(f"{text} ({time.perf_counter() - started:.0f} s, {args.workers} worker(s))")
        print(f"target: win share >= {TARGET_WIN_SHARE:.0%}: {'met' if share >= TARGET_WIN_SHARE else 'NOT MET'}")
    return 1 if (args.strict and share < TARGET_WIN_SHARE) else 0


if __name__ == "__main__":
    raise SystemExit(main())
