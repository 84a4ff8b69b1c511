"""The win-probability table of a lexicon (``winprob.tsv``, format in ``lexicon_service/movegen/winprob.py``),
made from self-play: `lexicon-build --win-table LEX.lex [--games N] [--seed S]`.

Two computer players play `games` games in C (`movegen.fastplay`, seeded): of the level "equity" when the
lexicon has a leave table, else "best". Every turn gives a sample: the bag count before it, the
spread of the player on turn (their score less the other's) and whether that player won the game
(a draw half). Per bag count b, a logistic curve P(win) = 1 / (1 + exp(-(a + k * spread / 100))) is
fitted (Newton's method, a small ridge penalty) to the samples whose bag count is within a window
around b, widened until it holds `MIN_SAMPLES` (the bag counts near the end are rare); k is kept at
0 or more, so a larger spread never wins less. The table holds the curve at the spreads of
`SPREADS`. Everything runs in a fixed order from the seed and chances are written to 4 decimals, so
the same lexicon, games and seed give the same bytes.
"""

from __future__ import annotations

import math
import sys
import time

from lexicon_service.movegen.fastplay import play_games
from lexicon_service.movegen.winprob import WinTable

DEFAULT_GAMES = 2000
SPREADS = list(range(-300, 301, 10))
MIN_SAMPLES = 400
BATCH = 100  # games a C call plays
RIDGE = 1.0  # penalty on a and k, in samples
NEWTON_STEPS = 25


def win_samples(rule_set, lexicon, games: int, seed: int, progress=None) -> list[tuple[int, int, float]]:
    """(bag count before the turn, spread of the player on turn, 1 / 0.5 / 0 that player won) per turn
    of `games` two-player self-play games, played in C (`movegen.fastplay`) in batches of `BATCH`."""
    level = "equity" if getattr(lexicon, "leaves", None) is not None else "best"
    samples = []
    for first in range(0, games, BATCH):
        batch = play_games(lexicon, min(BATCH, games - first), seed * 1_000_003 + first, levels=(level, level))
        for result in batch:
            final = result.scores
            outcome = [0.5 if final[0] == final[1] else float(final[p] > final[1 - p]) for p in (0, 1)]
            scores = [0, 0]
            for turn in result.turns:
                p = turn.player
                samples.append((turn.bag_before, scores[p] - scores[1 - p], outcome[p]))
                scores[p] += turn.score
        if progress:
            progress(first + len(batch))
    return samples


def fit_logistic(points: list[tuple[float, float]]) -> tuple[float, float]:
    """(a, k) of P = 1 / (1 + exp(-(a + k x))) by penalised maximum likelihood over (x, outcome) points;
    k at least 0."""
    a = k = 0.0
    for _ in range(NEWTON_STEPS):
        ga, gk = -RIDGE * a, -RIDGE * k
        haa, hak, hkk = RIDGE, 0.0, RIDGE
        for x, y in points:
            z = a + k * x
            p = 1.0 / (1.0 + math.exp(-z)) if z > -40 else 0.0
            w = p * (1.0 - p)
            ga += y - p
            gk += (y - p) * x
            haa += w
            hak += w * x
            hkk += w * x * x
        det = haa * hkk - hak * hak
        if det <= 0:
            break
        a += (hkk * ga - hak * gk) / det
        k = max(0.0, k + (haa * gk - hak * ga) / det)
    return a, k


def make_win_table(lexicon, games: int, seed: int, quiet: bool = False) -> WinTable:
    """The win-probability table of `lexicon` from `games` self-play games with `seed`."""
    rule_set = lexicon.rule_set
    started = time.monotonic()

    def progress(done: int) -> None:
        if not quiet and (done % 200 == 0 or done == games):
            print(f"win table: {done}/{games} games ({time.monotonic() - started:.0f} s)", file=sys.stderr)

    samples = win_samples(rule_set, lexicon, games, seed, progress)
    by_bag: dict[int, list[tuple[float, float]]] = {}
    for bag, spread, won in samples:
        by_bag.setdefault(bag, []).append((max(-400, min(400, spread)) / 100.0, won))
    last = max(by_bag, default=0)
    rows = []
    for bag in range(last + 1):
        points: list[tuple[float, float]] = []
        width = 0
        while True:
            points = [pt for b in range(bag - width, bag + width + 1) for pt in by_bag.get(b, ())]
            if len(points) >= MIN_SAMPLES or width > last:
                break
            width += 1
        a, k = fit_logistic(points)
        rows.append([round(1.0 / (1.0 + math.exp(-(a + k * s / 100.0))), 4) for s in SPREADS])
    if not quiet:
        print(f"win table: {len(samples):,} turns, bag counts 0-{last}, {time.monotonic() - started:.1f} s",
              file=sys.stderr)
    return WinTable(rule_set.id, SPREADS, rows, about=f"{games} games, seed {seed}")
