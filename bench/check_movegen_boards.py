"""Check: move generation on hostile boards, the real lexicons.

    .venv/bin/python bench/check_movegen_boards.py --lexicons DIR [--positions 600] [--seed S]

Boards a client may send that self-play never makes (bench_movegen.py's exactness phase covers
self-play positions): 1-80 tiles scattered at random or in a cluster, most not words, more copies of
a letter than the set holds, blanks showing any letter of the alphabet (Kris Kros CH included); racks
of 1 to a full rack (8 in Kris Kros) drawn from the bag. For each rule set: the C core's plays against
the plain-Python reference, whose plays are validate_move's verdicts (play, score, words, leave); the
top 1 and top 20 against the head of the full list; has_move and count_moves against the list.
Prints the positions, plays and differences per rule set (target 0 differences).

With --equity-games N (the lexicons need their leave tables): the C core's best play by equity (score
plus leave value; the search ordered by an equity bound and stopped once no anchor can reach the best,
as the level "equity" and the simulation's play-outs use it) against the best of the full list by score
plus the same leave values, on every turn of N self-play games of two "equity" players while the bag
holds tiles (ties: the same equity counts as equal). Self-play positions only: the core's equity search
is reached from Python through self-play and simulation, not on a board a client sends.
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
from lexicon_service.movegen.fastplay import move_text, play_games
from lexicon_service.movegen.reference import reference_moves
from lexicon_service.movegen.selfplay import bag_of
from lexicon_service.rules import Board, validate_move

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


def equity_differences(lexicon, table, game) -> tuple[int, int, list[str]]:
    """(turns checked, turns whose best by equity scores less than the list's top play, the turns whose
    move's score plus leave value is not the best of the full list's, in play notation) of one self-play
    game of "equity" players, replayed from the empty board."""
    rs = lexicon.rule_set
    board = Board.empty(rs)
    checked, not_top, wrong, scoreless = 0, 0, [], 0
    for turn in game.turns:
        rack = rs.tile_set.rack_text(list(turn.rack))
        text = move_text(rs, board, turn)
        if turn.bag_before > 0:  # exchanges only before a scoreless round has passed (2 players)
            moves = generate_moves(rs, board, rack, lexicon, bag_count=turn.bag_before,
                                   include_exchanges=scoreless < 2, include_pass=False)
            if moves:
                best = max(moves, key=lambda m: m.score + table.value(m.leave))
                chosen = turn.score + table.value_of_tiles(turn.leave)
                checked += 1
                not_top += best.score < max(m.score for m in moves)
                if abs(chosen - (best.score + table.value(best.leave))) > 1e-9:
                    wrong.append(f"rack {rack}: {text} {chosen:.3f}, the list's best {best.play} "
                                 f"{best.score + table.value(best.leave):.3f}")
        if turn.kind == "play":
            board.apply(validate_move(rs, board, rack, text, lexicon=lexicon))
        scoreless = 0 if turn.score else scoreless + 1
    return checked, not_top, wrong


def check_equity(lexicon, games: int, seed: int) -> tuple[int, int]:
    """(turns checked, turns differing) over `games` self-play games of two "equity" players."""
    checked = differing = 0
    for game in play_games(lexicon, games, seed, levels=("equity", "equity")):
        n, _, wrong = equity_differences(lexicon, lexicon.leaves, game)
        checked += n
        differing += len(wrong)
        for line in wrong:
            print(f"  differs by equity: {line}", flush=True)
    return checked, differing


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--lexicons", type=Path, required=True)
    p.add_argument("--positions", type=int, default=600)
    p.add_argument("--seed", default="hostile boards")
    p.add_argument("--equity-games", type=int, default=0, help="self-play games by equity per rule set")
    args = p.parse_args()
    total = 0
    for rule_set_id in RULE_SETS:
        lexicon = load_lexicon(args.lexicons / f"{rule_set_id}.lex")
        if args.equity_games:
            start = time.process_time()
            seed = int.from_bytes(f"{args.seed} {rule_set_id}".encode()[-8:], "little")
            checked, differing = check_equity(lexicon, args.equity_games, seed)
            print(f"{rule_set_id}: by equity, {args.equity_games} games, {checked:,} turns checked, "
                  f"{differing} differing ({time.process_time() - start:.0f} s CPU)", flush=True)
            total += differing
        start = time.process_time()
        plays, differences, refused = check(lexicon, args.positions, random.Random(f"{args.seed} {rule_set_id}"))
        print(f"{rule_set_id}: {args.positions} positions ({refused} racks refused: more copies than the set), "
              f"{plays:,} plays, {differences} differing "
              f"({time.process_time() - start:.0f} s CPU)", flush=True)
        total += differences
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
