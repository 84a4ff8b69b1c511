"""The leave table of a lexicon (``leaves.tsv``, format in ``lexicon_service/movegen/leaves.py``), made
from self-play: `lexicon-build --leaves LEX.lex [--games N] [--seed S]`.

Two computer players of the level "best" (the top score) play `games` games, in C
(`movegen.fastplay`, seeded). Every move made with tiles left in the bag gives a sample: the leave it kept, the points
its player scored on their next turn and the leave kept then. The value of a leave is what keeping it
brings on the next turn against the average: first the next turn's points less their mean over all
samples; then, `ROUNDS` - 1 times, the next turn's points plus `DISCOUNT` x the value (by the table
of the round before) of the leave kept then, less the mean (so a leave that brings a good leave is
worth more; discount 0 would be the next turn alone). Each round fits in two steps:

1. A ridge regression (Gauss-Seidel over the distinct leaves, weighted by how often each was seen) of
   the samples on three kinds of features: the number of tiles kept, each tile (counted per copy), and
   each two of the tiles kept together. The penalty pulls a pair's value toward 0 (so a leave seen
   rarely is worth about the sum of its tiles) more strongly than a tile's.
2. A leave seen at least `MIN_SEEN` times gets its own line: the model's value plus its samples' mean
   difference from the model, shrunk by n / (n + `SHRINK_SEEN`).

Everything runs in a fixed order from the seed, and values are written to 0.01 point, so the same
lexicon, games and seed give the same bytes.
"""

from __future__ import annotations

import sys
import time
from array import array
from collections import defaultdict
from itertools import combinations
from concurrent.futures import ThreadPoolExecutor

from lexicon_service.movegen.leaves import LeaveTable, tile_order
from lexicon_service.movegen.fastplay import play_games
from lexicon_service.movegen import _core

DEFAULT_GAMES = 3000
# games for the leave table a default build (`lexicon-build --defaults`, `make lexicons`) makes: chosen so
# that the table adds at most a fifth to the build's time (docs/movegen.md, leave values by default)
DEFAULT_BUILD_GAMES = 600
DEFAULT_SEED = 1
BATCH = 100  # games per call of the C self-play (a progress line between two)
MAX_GAMES = 1_000_000
SWEEPS = 30
PENALTY = {"size": 1.0, "tile": 20.0, "pair": 200.0}  # ridge penalty per kind, in samples
MIN_SEEN = 30
SHRINK_SEEN = 200
ROUNDS = 4
DISCOUNT = 0.75


def leave_samples(rule_set, lexicon, games: int, seed: int, progress=None, threads: int = 1) -> list[tuple]:
    """(leave tiles, the points its player scored on the next turn, the leave of that turn or None when
    the bag was empty before it) per move made with tiles in the bag, over `games` self-play games of
    two players of the level "best", played in C (`movegen.fastplay`) in batches of `BATCH` games, on
    `threads` threads (the C games run without the interpreter lock; the samples are the same)."""
    def batch(start):
        return play_games(lexicon, min(BATCH, games - start), seed=_batch_seed(seed, start))

    samples = []
    with ThreadPoolExecutor(max_workers=max(1, threads)) as pool:
        batches = pool.map(batch, range(0, games, BATCH))
        for start, results in zip(range(0, games, BATCH), batches):
            _add_samples(samples, results)
            if progress is not None:
                progress(min(start + BATCH, games), len(samples))
    return samples


def _add_samples(samples: list, results) -> None:
    """Each game's samples: a leave, the next turn's points of its player and the leave kept then."""
    for result in results:
        waiting: dict[int, tuple[str, ...]] = {}
        for turn in result.turns:
            kept = waiting.pop(turn.player, None)
            leave = turn.leave if turn.bag_before > 0 and turn.kind != "pass" else None
            if kept is not None:
                samples.append((kept, turn.score, leave))
            if leave is not None:
                waiting[turn.player] = leave


def _batch_seed(seed: int, start: int) -> int:
    """The C games' seed of the batch from game `start` (the same seed and games give the same samples)."""
    return (seed * 1_000_003 + start) & (2 ** 64 - 1)


def _features(key: tuple[str, ...]) -> list[tuple[str, object]]:
    return [("size", len(key)), *(("tile", t) for t in key), *(("pair", p) for p in combinations(key, 2))]


def fit_leave_table(rule_set, samples, about: str = "") -> LeaveTable:
    """The LeaveTable of these samples (see the module docstring): fitted to the next turn's points,
    then ROUNDS - 1 times more to the next turn's points plus DISCOUNT x the value of the leave kept then
    by the table of the round before."""
    if not samples:
        raise ValueError("no samples: the self-play games made no moves")
    table = _fit(rule_set, [(tiles, score) for tiles, score, _ in samples], about)
    for _ in range(ROUNDS - 1):
        table = _fit(rule_set, [(tiles, score + (DISCOUNT * table.value_of_tiles(then) if then is not None else 0.0))
                                for tiles, score, then in samples], about)
    return table


def _fit(rule_set, samples, about: str) -> LeaveTable:
    """The LeaveTable of (leave tiles, points) samples: points less their mean, fitted per leave."""
    order = tile_order(rule_set)
    mean = sum(score for _, score in samples) / len(samples)
    seen: dict[tuple[str, ...], list] = {}
    for tiles, score in samples:
        key = tuple(sorted(tiles, key=order.__getitem__))
        entry = seen.setdefault(key, [0, 0.0])
        entry[0] += 1
        entry[1] += score - mean
    keys = sorted(seen, key=lambda k: (len(k), [order[t] for t in k]))
    counts = [seen[k][0] for k in keys]
    targets = [seen[k][1] / seen[k][0] for k in keys]
    # feature -> [(leave index, how many times the leave has it)]
    columns: dict[tuple[str, object], dict[int, int]] = defaultdict(dict)
    for i, key in enumerate(keys):
        for feature in _features(key):
            columns[feature][i] = columns[feature].get(i, 0) + 1
    features = sorted(columns, key=lambda f: (("size", "tile", "pair").index(f[0]), _rank(f, order)))
    weights, predicted = _gauss_seidel(features, columns, counts, targets)
    sizes = {n: w for (kind, n), w in weights.items() if kind == "size"}
    tiles = {t: w for (kind, t), w in weights.items() if kind == "tile"}
    pairs = {p: w for (kind, p), w in weights.items() if kind == "pair"}
    leaves = {}
    for i, key in enumerate(keys):
        if key and counts[i] >= MIN_SEEN:  # the empty leave is the `size 0` line
            leaves[key] = predicted[i] + counts[i] / (counts[i] + SHRINK_SEEN) * (targets[i] - predicted[i])
    return LeaveTable(rule_set, sizes, tiles, pairs, leaves, about=about)


def _gauss_seidel(features, columns, counts, targets) -> tuple[dict, list]:
    """The ridge regression's (weights per feature, prediction per leave): SWEEPS Gauss-Seidel sweeps in
    feature order, in C (``_core.ridge_sweeps``: the same sums in the same order as a plain loop). Per
    column, the leaves' indices, count x value and value; its curvature (which the sweeps do not change)
    plus the penalty is summed once."""
    start, index, weighted, xs, denominators, penalties = [0], [], [], [], [], []
    for feature in features:
        curvature = 0.0
        for i, x in columns[feature].items():
            index.append(i)
            weighted.append(counts[i] * x)
            xs.append(float(x))
            curvature += counts[i] * x * x
        start.append(len(index))
        denominators.append(curvature + PENALTY[feature[0]])
        penalties.append(float(PENALTY[feature[0]]))
    weights, predicted = _core.ridge_sweeps(array("I", start), array("I", index), array("d", weighted),
                                            array("d", xs), array("d", denominators), array("d", penalties),
                                            array("d", targets), SWEEPS)
    return dict(zip(features, array("d", weights))), list(array("d", predicted))


def _rank(feature, order):
    kind, what = feature
    if kind == "size":
        return [what]
    if kind == "tile":
        return [order[what]]
    return [order[t] for t in what]


def make_leave_table(lexicon, games: int = DEFAULT_GAMES, seed: int = DEFAULT_SEED, quiet: bool = False,
                     threads: int = 1) -> LeaveTable:
    """The leave table of `lexicon` (which needs its move graph) from `games` self-play games, played on
    `threads` threads (the same table for any number)."""
    rule_set = lexicon.rule_set
    started = time.monotonic()
    last = [started]

    def progress(done, n_samples):
        now = time.monotonic()
        if not quiet and (now - last[0] >= 2 or done == games):
            last[0] = now
            rate = done / max(now - started, 1e-9)
            print(f"\rleaves: {done:,}/{games:,} games, {n_samples:,} samples, {rate:.1f} games/s, "
                  f"about {(games - done) / max(rate, 1e-9):.0f} s left", end="", file=sys.stderr, flush=True)

    samples = leave_samples(rule_set, lexicon, games, seed, progress, threads)
    if not quiet:
        print(f"\nleaves: fitting {len(samples):,} samples", file=sys.stderr, flush=True)
    return fit_leave_table(rule_set, samples, about=f"self-play games={games} seed={seed} samples={len(samples)}")
