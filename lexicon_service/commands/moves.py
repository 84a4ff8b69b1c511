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
    p.set_defaults(func=run)


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
    from lexicon_service import local
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
