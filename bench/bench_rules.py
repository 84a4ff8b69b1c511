"""Benchmark: in-process move validation + scoring throughput on a realistic mid-game board.

    .venv/bin/python bench/bench_rules.py [--plays 3000] [--seconds 2] [--shared DIR --lexicons DIR]

Builds a Polish mid-game position (26 tiles, real words), generates plays the way a move generator
or a client would send them (rack tiles along a line touching the board), and times
validate_move(rule set, board, rack, "8D WORD", WordSet). The baseline, measured in the same run,
is parsing the same play strings alone. Target: >= 20,000 plays/s on one core.
--shared and --lexicons are accepted (make bench passes them) and ignored: this needs no data files.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from lexicon_service.rules.admissible_words import WordSet  # noqa: E402
from lexicon_service.rules import Board, load_rule_set, parse_play, validate_move  # noqa: E402

TARGET = 20_000  # plays per second

# Mid-game: KOTEK, DOMEK, DACH, HALA, KRET, PŁOTY, TAK, ALE.
OPENING = ["8D KOTEK", "H4 DOME.", "4H .ACH", "K4 .ALA", "D8 .RET", "11A PŁO.Y", "F8 .AK", "7K .LE"]


def build_position():
    rule_set = load_rule_set("pl-scrabble")
    board = Board.empty(rule_set)
    for play in OPENING:
        result = validate_move(rule_set, board, None, play)
        if not result.valid:
            raise SystemExit(f"bench position broken at {play}: {result.message}")
        board.apply(result)
    return rule_set, board


def generate_plays(rule_set, board, count: int, seed: int = 1):
    """(rack, play text) pairs that can be placed: 1-7 rack tiles along a line touching the board."""
    rng = random.Random(seed)
    bag = Counter(rule_set.tile_set.bag())
    for letter in board.letters:
        if letter is not None:
            bag[letter] -= 1
    pool = [letter for letter, n in bag.items() for _ in range(max(n, 0))]
    plays = []
    attempts = 0
    while len(plays) < count and attempts < count * 200:
        attempts += 1
        rack = rng.sample(pool, 7)
        across = rng.random() < 0.5
        row, col = rng.randrange(15), rng.randrange(15)
        length = rng.randint(2, 9)
        text = []
        left = list(rack)
        for i in range(length):
            r, c = (row, col + i) if across else (row + i, col)
            if r >= 15 or c >= 15:
                break
            if board.get(r, c) is not None:
                text.append(".")
            elif left:
                tile = left.pop(rng.randrange(len(left)))
                if tile == "?":
                    text.append(rng.choice(rule_set.tile_set.letters).lower())
                else:
                    text.append(f"[{tile}]" if len(tile) > 1 else tile)
            else:
                break
        coordinate = f"{row + 1}{chr(65 + col)}" if across else f"{chr(65 + col)}{row + 1}"
        play = f"{coordinate} {''.join(text)}"
        result = validate_move(rule_set, board, "".join(rack), play)
        if result.score is not None:  # placeable: the interesting (and costly) case
            plays.append(("".join(rack), play))
    return plays


def time_loop(fn, items, min_seconds: float) -> float:
    """Seconds per item, repeating the whole list until min_seconds have passed."""
    rounds = 0
    start = time.perf_counter()
    while True:
        for item in items:
            fn(item)
        rounds += 1
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds:
            return elapsed / (rounds * len(items))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plays", type=int, default=3000)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--shared", help="ignored")
    parser.add_argument("--lexicons", help="ignored")
    args = parser.parse_args(argv)

    rule_set, board = build_position()
    plays = generate_plays(rule_set, board, args.plays)
    # A word set that holds half of the words formed (every other play is admissible).
    keys = set()
    for i, (rack, play) in enumerate(plays):
        if i % 2 == 0:
            keys.update(validate_move(rule_set, board, rack, play).word_keys)
    words = WordSet(keys)
    valid = sum(validate_move(rule_set, board, rack, play, words).valid for rack, play in plays)

    parse_s = time_loop(lambda item: parse_play(rule_set, item[1]), plays, args.seconds / 2)
    validate_s = time_loop(lambda item: validate_move(rule_set, board, item[0], item[1], words), plays, args.seconds)

    rate = 1 / validate_s
    print(f"position: pl-scrabble, {board.tile_count} tiles on the board; {len(plays)} placeable plays, "
          f"{valid} valid with the word set")
    print(f"baseline  parse_play only:          {1 / parse_s:>10,.0f} plays/s  ({parse_s * 1e6:.1f} us/play)")
    print(f"validate_move + score + words:      {rate:>10,.0f} plays/s  ({validate_s * 1e6:.1f} us/play)")
    print(f"ratio to baseline: {validate_s / parse_s:.2f}x the cost of parsing; "
          f"target {TARGET:,} plays/s: {'met' if rate >= TARGET else 'NOT met'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
