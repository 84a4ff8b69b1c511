"""Leave tables by default: what a table of N self-play games is worth, measured by the win share of the
level "equity" (score plus leave value) against "best" (the top score), both played in C.

    python bench/bench_leaves.py --lexicons DIR [--rule-sets pl-scrabble,...] [--table-games 600,3000]
                                 [--games 1000] [--seed 1]

For each rule set and each N of --table-games: the leave table of N games (`build_tools.leave_fitting`, as
`lexicon-build --leave-games N` makes it; CPU seconds), then --games games of equity against best
(`movegen.fastplay`), each in pairs on the same seed with the seats swapped. Prints the equity player's
wins, draws and losses, its win share (a draw half a win) with a 95% Wilson interval and its mean spread.
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path

from build_tools.leave_fitting import make_leave_table
from lexicon_service.lexicon import load_lexicon
from lexicon_service.movegen.fastplay import play_games

Z95 = 1.959964


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion `successes` / n."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def win_share(lexicon, table, games: int, seed: int) -> tuple[int, int, int, float]:
    """(wins, draws, losses, mean spread) of equity against best over `games` games (pairs of seats)."""
    first = play_games(lexicon, games // 2, seed, levels=("equity", "best"), leaves=table)
    second = play_games(lexicon, games // 2, seed, levels=("best", "equity"), leaves=table)
    spreads = [g.scores[0] - g.scores[1] for g in first] + [g.scores[1] - g.scores[0] for g in second]
    wins, draws = sum(s > 0 for s in spreads), sum(s == 0 for s in spreads)
    return wins, draws, len(spreads) - wins - draws, sum(spreads) / max(len(spreads), 1)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--shared", help="accepted (make bench passes it); unused")
    p.add_argument("--lexicons", default="lexicons")
    p.add_argument("--rule-sets", default="pl-scrabble,cs-scrabble,cs-kriskros")
    p.add_argument("--table-games", default="600,3000", help="comma-separated self-play games per table")
    p.add_argument("--games", type=int, default=1000, help="equity-against-best games per table")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    for name in args.rule_sets.split(","):
        path = Path(args.lexicons) / f"{name}.lex"
        if not path.is_dir():
            print(f"{name}: not in {args.lexicons}, skipped")
            continue
        with load_lexicon(path, with_leaves=False) as lexicon:
            for n in (int(x) for x in args.table_games.split(",")):
                t = time.process_time()
                table = make_leave_table(lexicon, n, quiet=True)
                made = time.process_time() - t
                t = time.process_time()
                wins, draws, losses, spread = win_share(lexicon, table, args.games, args.seed + 1000)
                played = time.process_time() - t
                share = (wins + draws / 2) / max(wins + draws + losses, 1)
                low, high = wilson_interval(wins + draws / 2, wins + draws + losses)
                print(f"{name:<12} table of {n:>5} games ({made:5.1f} s CPU): equity vs best {wins}-{draws}-{losses}, "
                      f"win share {share:.1%} (95% {low:.1%}-{high:.1%}), mean spread {spread:+.1f} "
                      f"({played:.0f} s CPU for {wins + draws + losses} games)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
