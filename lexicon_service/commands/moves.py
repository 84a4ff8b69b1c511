"""`lexicon-service moves`: the legal moves from a rack on a board, best first.

    lexicon-service moves -l pl-scrabble --rack KOTABC? --setup "8D PIES" -n 5
    lexicon-service moves -r cs-kriskros -l cs-kriskros -b board.txt --rack "[CH]ATAXY?" --all --json

The board: --board FILE, then --place tiles, then --setup plays (as `validate` builds it). One move
a line: the play ("8D W(O)RD" as `validate` reads it, "-ABC" an exchange, "-" a pass), its score and
the rack it leaves, tab-separated; --json: one object a line with play, score, leave and words. `client moves` takes the same options and prints the same lines. Exit status 0 when a play
that places tiles was found, 1 when none was (only an exchange or a pass), 2 on an error.
"""

from __future__ import annotations

import json
import sys

from lexicon_service.command_line import INT32, UserError, whole_number

# Imports inside functions: a subcommand's dependencies load when it runs, not when lexicon-service builds
# its parser, which imports every subcommand's module (startup cost: docs/development.md).

DEFAULT_MOVES = 10


def add_generate_arguments(p, *, setup_help: str, json_option: bool = True) -> None:
    """Options shared by `moves` and `client moves` (whose --json is the client's own)."""
    p.add_argument("--rules", "-r", metavar="RULES", help="rule set id; must be the lexicon's (default: the lexicon's)")
    p.add_argument("--board", "-b", metavar="FILE",
                   help="board file: one line per row, '.' empty, uppercase tile, lowercase blank ('-' = stdin)")
    p.add_argument("--place", action="append", default=[], metavar="PLAY",
                   help='tiles put on the board as written, no rule checked (single tiles, any square), before '
                   '--setup: --place "C1 T" (repeatable)')
    p.add_argument("--setup", "-s", action="extend", nargs="+", default=[], metavar="PLAY", help=setup_help)
    p.add_argument("--rack", required=True, metavar="RACK", help='the player\'s rack, e.g. "KOTABC?" ("?" a blank)')
    count = p.add_mutually_exclusive_group()
    count.add_argument("-n", type=whole_number(1, INT32[1]), default=DEFAULT_MOVES, metavar="N",
                       help=f"the N best moves (default {DEFAULT_MOVES})")
    count.add_argument("--all", action="store_true", help="every move (from a server: as many as it allows)")
    p.add_argument("--min-length", type=whole_number(0, INT32[1]), default=0, metavar="N",
                   help="only plays whose main word has at least N tiles")
    p.add_argument("--must-use", default="", metavar="TILES", help='only plays that use these rack tiles ("Ź", "?")')
    p.add_argument("--must-contain", default="", metavar="WORD", help="only plays that form this word")
    p.add_argument("--plays-only", action="store_true", help="no exchanges and no pass")
    if json_option:
        p.add_argument("--json", action="store_true", help="one JSON object per line: play, score, leave, words")


def add_parser(subparsers) -> None:
    from lexicon_service.commands.check import add_lexicon_argument

    p = subparsers.add_parser("moves", help="the best legal moves from a rack on a board",
                              description=__doc__.split("\n\n")[0])
    add_generate_arguments(p, setup_help="plays put on the board first, in order (words not checked)")
    add_lexicon_argument(p, required=True)
    add_sim_arguments(p)
    p.set_defaults(func=run)


def add_sim_arguments(p, position: bool = True) -> None:
    """--sim and its settings (`moves`; `analyse`, whose record gives the spread and the bag: not `position`)."""
    g = p.add_argument_group("looking ahead")
    g.add_argument("--sim", action="store_true",
                   help="rank the best moves by simulation: racks drawn from the tiles the player cannot see, "
                   "--plies turns played on, win chance and mean spread; once the bag is empty, the endgame's "
                   "best sequence (both racks are then known). Needs the lexicon's leave table for good play; "
                   "its win-probability table (lexicon-build --win-table) for win chances")
    g.add_argument("--iterations", type=whole_number(1, 100_000), default=300, metavar="N",
                   help="--sim: play-outs of each move at most (default %(default)s)")
    g.add_argument("--plies", type=whole_number(0, 6), default=2, metavar="K",
                   help="--sim: turns played after the move (default %(default)s)")
    g.add_argument("--candidates", type=whole_number(1, 64), default=8, metavar="N",
                   help="--sim: the best moves by equity simulated (default %(default)s)")
    g.add_argument("--seconds", type=float, default=5.0 if position else 1.0, metavar="S",
                   help="--sim: at most this long a position (default %(default)s)")
    if position:
        g.add_argument("--spread", type=whole_number(-100_000, 100_000), default=0, metavar="POINTS",
                       help="--sim: the player's score less the opponent's (default %(default)s)")
        g.add_argument("--bag", type=whole_number(0, 1000), default=None, metavar="N",
                       help="--sim: tiles in the bag (default: the unseen tiles less a full rack)")
    g.add_argument("--seed", default="0", help="--sim: the draws' seed (default %(default)s)")


SIM_OPTIONS = {"candidates": "--candidates", "plies": "--plies", "iterations": "--iterations",
               "seconds": "--seconds", "spread": "--spread", "bag_count": "--bag", "rack": "--rack",
               "lexicon": "--lexicon", "rule_set": "--rules"}


def lookahead_options(args):
    from lexicon_service.games.lookahead import LookaheadOptions

    return LookaheadOptions(candidates=args.candidates, plies=args.plies, iterations=args.iterations,
                            seconds=args.seconds, seed=str(args.seed), spread=getattr(args, "spread", 0),
                            bag_count=getattr(args, "bag", None))


def format_lookahead(found, n: int, as_json: bool) -> list[str]:
    """The lines `moves --sim` prints: per move its play, score, leave, win chance (%), mean spread and
    play-outs (an endgame: its value), best first."""
    out = []
    for looked in found.moves[:n]:
        m = looked.move
        win = None if looked.win_chance is None else round(100 * looked.win_chance, 2)
        if as_json:
            out.append(json.dumps({"play": m.play, "score": m.score, "leave": m.leave, "words": list(m.words),
                                   "win_chance": win, "mean_spread": round(looked.mean_spread, 2),
                                   "iterations": looked.iterations, "pruned": looked.pruned, "kind": found.kind,
                                   "sequence": found.sequence}, ensure_ascii=False))
        else:
            out.append("\t".join([m.play, str(m.score), m.leave, "?" if win is None else f"{win:.1f}%",
                                  f"{looked.mean_spread:+.1f}", str(looked.iterations)]
                                 + (["pruned"] if looked.pruned else [])))
    return out


def summary(found) -> str:
    if found.kind == "endgame":
        return (f"endgame: {'exact' if found.stopped == 'exact' else 'best found in time'} ({found.iterations} plies); "
                f"best sequence: {'; '.join(found.sequence)}")
    return f"simulation: {found.iterations} iterations (stopped: {found.stopped})"


def run_sim(args, lexicon, board) -> int:
    from lexicon_service.commands import in_process as local
    from lexicon_service.games.lookahead import look_ahead
    from lexicon_service.core.plays import read_rack

    options = lookahead_options(args)
    with local.user_errors(SIM_OPTIONS):
        options.check(SIM_OPTIONS)
        rack = read_rack(lexicon.rule_set, args.rack)
        found = look_ahead(lexicon.rule_set, board, rack, lexicon, options, None)
    lines = format_lookahead(found, len(found.moves) if args.all else args.n, args.json)
    if lines:
        print("\n".join(lines))
    print(summary(found), file=sys.stderr)
    return exit_status(looked.move.kind for looked in found.moves)


def format_moves(moves, as_json: bool) -> list[str]:
    """The lines `moves` and `client moves` print; moves: (play, score, leave, words)."""
    if as_json:
        return [json.dumps({"play": play, "score": score, "leave": leave, "words": list(words)}, ensure_ascii=False)
                for play, score, leave, words in moves]
    return [f"{play}\t{score}\t{leave}" for play, score, leave, _ in moves]


def exit_status(kinds) -> int:
    """0 when a play that places tiles is among the moves, else 1."""
    return 0 if any(kind == "play" for kind in kinds) else 1


def run(args) -> int:
    from lexicon_service.commands import in_process as local
    from lexicon_service.core.plays import MoveFilters, generate
    from lexicon_service.commands.check import open_lexicon
    from lexicon_service.commands.validate import join_plays, place_tiles, read_board, setup_board
    from lexicon_service.rules import Board, RuleSetError, load_rule_set

    lexicon = open_lexicon(args.lexicon, args.lexicons)
    rule_set = lexicon.rule_set
    rule_set_name = ""
    if args.rules:
        try:
            rule_set_name = load_rule_set(args.rules).id
        except RuleSetError as exc:
            raise UserError(str(exc)) from None
    board = read_board(rule_set, args.board) if args.board else Board.empty(rule_set)
    for text in args.place:
        place_tiles(board, text)
    setup_board(rule_set, board, join_plays(args.setup))
    if args.sim:
        if args.min_length or args.must_use or args.must_contain or args.plays_only:
            raise UserError("--sim ranks the best moves of the rack: it takes no --min-length, --must-use, "
                            "--must-contain or --plays-only")
        return run_sim(args, lexicon, board)
    filters = MoveFilters(limit=0 if args.all else args.n, min_length=args.min_length, must_use=args.must_use,
                          must_contain=args.must_contain, plays_only=args.plays_only)
    with local.user_errors({"lexicon": "--lexicon", "rule_set": "--rules", "rack": "--rack", "limit": "-n",
                            "min_length": "--min-length", "must_use": "--must-use",
                            "must_contain": "--must-contain"}):
        generated = generate(local.snapshot([lexicon], directory=args.lexicons), local.LIMITS, lexicon.name,
                             rule_set_name, board.to_rows(), [], args.rack, filters, None)
    moves = generated.moves
    lines = format_moves([(m.play, m.score, m.leave, m.words) for m in moves], args.json)
    if lines:
        print("\n".join(lines))
    if generated.truncated and args.all:
        print(f"(more moves: at most {len(moves):,} are listed)", file=sys.stderr)
    return exit_status(m.kind for m in moves)
