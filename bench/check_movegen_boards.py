"""Check: move generation on hostile boards, the real lexicons.

    .venv/bin/python bench/check_movegen_boards.py --lexicons DIR [--positions 600] [--seed S]

Boards a client may send that self-play never makes (bench_movegen.py's exactness phase covers
self-play positions): 1-80 tiles scattered at random or in a cluster, most not words, more copies of
a letter than the set holds, blanks showing any letter of the alphabet (Kris Kros CH included); racks
of 1 to a full rack (8 in Kris Kros) drawn from the bag. For each rule set: the C core's plays against
the plain-Python reference, whose plays are validate_move's verdicts (play, score, words, leave); the
top 1 and top 20 against the head of the full list; has_move and count_moves against the list.
Prints the positions, plays and differences per rule set (target 0 differences).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

# the installed package is checked (editable or not): a checkout's sources lack the compiled core after a
# plain `pip install .`

from lexicon_service.lexicon import load_lexicon
from lexicon_service.movegen import MoveGenerationError, count_moves, generate_moves, has_move
from lexicon_service.movegen.reference import reference_moves
from lexicon_service.movegen.selfplay import bag_of
from lexicon_service.rules import Board

RULE_SETS = ("pl-scrabble", "cs-scrabble", "cs-kriskros")


def hostile_board(rule_set, rng: random.Random) -> Board:
    board = Board.empty(rule_set)
    alphabet = list(rule_set.tile_set.alphabet)
    real = [letter for letter in alphabet if letter in rule_set.tile_set.letters]
    cluster = rng.random() < 0.5
    r0, c0 = rng.randrange(rule_set.rows), rng.randrange(rule_set.columns)
    for _ in range(rng.choice((1, 2, 5, 10, 20, 40, 80))):
        if cluster:
            r = min(rule_set.rows - 1, max(0, r0 + rng.randint(-3, 3)))
            c = min(rule_set.columns - 1, max(0, c0 + rng.randint(-3, 3)))
        else:
            r, c = rng.randrange(rule_set.rows), rng.randrange(rule_set.columns)
        if board.get(r, c) is None:
            blank = rng.random() < 0.1
            board.place(r, c, rng.choice(alphabet if blank else real), blank)
    return board


def _refused_by_all(rs, board, rack, lexicon) -> bool:
    """count_moves and has_move refuse the rack too (field rack)."""
    for call in (count_moves, has_move):
        try:
            call(rs, board, rack, lexicon)
        except MoveGenerationError as exc:
            if exc.field != "rack":
                return False
        else:
            return False
    return True


def check(lexicon, count: int, rng: random.Random) -> tuple[int, int, int]:
    """(plays, positions differing, racks refused: more copies of a tile on the rack and the board than
    the set has, refused naming the rack by generate_moves, count_moves and has_move alike)."""
    rs = lexicon.rule_set
    plays = differences = refused = 0
    for _ in range(count):
        board = hostile_board(rs, rng)
        bag = bag_of(rs)
        rng.shuffle(bag)
        rack = rs.tile_set.rack_text(bag[:rng.randint(1, rs.rack_size)])
        try:
            native = [m for m in generate_moves(rs, board, rack, lexicon) if m.kind == "play"]
        except MoveGenerationError as exc:  # more copies of a tile on the rack and board than the set has
            if exc.field != "rack" or not _refused_by_all(rs, board, rack, lexicon):
                raise
            refused += 1
            continue
        reference = reference_moves(rs, board, rack, lexicon)
        plays += len(native)
        wrong = sorted(native, key=lambda m: m.play) != sorted(reference, key=lambda m: m.play)
        for k in (1, 20):
            wrong |= generate_moves(rs, board, rack, lexicon, limit=k, include_exchanges=False,
                                    include_pass=False) != native[:k]
        wrong |= count_moves(rs, board, rack, lexicon) != len(native) or has_move(rs, board, rack, lexicon) != bool(native)
        if wrong:
            differences += 1
            print(f"  differs: rack {rack}\n" + "\n".join(board.to_rows()), flush=True)
    return plays, differences, refused


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--lexicons", type=Path, required=True)
    p.add_argument("--positions", type=int, default=600)
    p.add_argument("--seed", default="hostile boards")
    args = p.parse_args()
    total = 0
    for rule_set_id in RULE_SETS:
        lexicon = load_lexicon(args.lexicons / f"{rule_set_id}.lex")
        start = time.process_time()
        plays, differences, refused = check(lexicon, args.positions, random.Random(f"{args.seed} {rule_set_id}"))
        print(f"{rule_set_id}: {args.positions} positions ({refused} racks refused: more copies than the set), "
              f"{plays:,} plays, {differences} differing "
              f"({time.process_time() - start:.0f} s CPU)", flush=True)
        total += differences
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
