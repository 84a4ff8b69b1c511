"""`lexicon-service validate`: check and score plays on a board, with a per-word breakdown.

    lexicon-service validate --rules pl-scrabble --setup "8B PRÓBUJE" "8A S.......MY" --show-board
    lexicon-service validate --rules cs-kriskros --board board.txt --rack "[CH]ATA?XY" "8D [CH]ATA" --lexicon cs-kriskros

Plays are "COORDINATE WORD" (8D = row 8 from column D across, D8 = down; "." or the letter itself =
a tile on the board, lowercase = a blank, [CH] = a multi-letter tile). Each play is judged on the
same board. Without --lexicon, words are not checked (score only). `client validate` and `client
score` take the same options; --json prints each play's answer as `client validate --json` (without
--lexicon: `client score --json`) does, one JSON document per play (--show-board: the board as its rows). Exit status 0 when every play is valid, 1 otherwise, 2 on
unreadable input (rule set, board file, setup play, lexicon).
"""

from __future__ import annotations

from lexicon_service.command_line import UserError, message_json, read_text
from lexicon_service.commands.check import add_lexicon_argument, open_lexicon

# Imports inside functions: a subcommand's dependencies load when it runs, not when lexicon-service builds
# its parser, which imports every subcommand's module (startup cost: docs/development.md).


def add_move_arguments(p) -> None:
    """Options shared by `validate` and `client validate|score`."""
    p.add_argument("plays", nargs="+", metavar="PLAY", help='a play such as "8D WORD" (or 8D WORD as two arguments)')
    p.add_argument("--rules", "-r", metavar="RULES", help="rule set id or path to a .rules file")
    p.add_argument("--board", "-b", metavar="FILE",
                   help="board file: one line per row, '.' empty, uppercase tile, lowercase blank ('-' = stdin)")
    p.add_argument("--rack", metavar="RACK", help='the player\'s rack, e.g. "ABC?" (default: not checked)')
    p.add_argument("--show-board", action="store_true",
                   help="draw the board after each play (coordinates, premium squares, new tiles marked *); with "
                   "--json the answer's board rows instead, set also for a play that could not be placed")
    p.add_argument("--place", action="append", default=[], metavar="PLAY",
                   help='tiles put on the board as written before anything else is judged, no rule checked '
                   '(single tiles, any square): --place "C1 T" --place "G1 M" (repeatable)')


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("validate", help="check and score plays (reason code, words, score breakdown)",
                              description=__doc__.split("\n\n")[0])
    add_move_arguments(p)
    p.add_argument("--setup", "-s", action="append", default=[], metavar="PLAY",
                   help="a play to put on the board first (repeatable; applied in order, words not checked; a "
                   "legal placement, the first one across the centre: --place puts tiles anywhere)")
    add_lexicon_argument(p, required=False)
    p.add_argument("--json", action="store_true",
                   help="print each play's ValidateMove answer (ScoreMove without --lexicon) as `client --json` does")
    p.set_defaults(func=run)


def join_plays(args: list[str]) -> list[str]:
    """Join "8D" "WORD" given as two arguments into one play."""
    from lexicon_service.rules.board import _COORD_RE

    out: list[str] = []
    i = 0
    while i < len(args):
        if _COORD_RE.match(args[i]) and i + 1 < len(args):
            out.append(f"{args[i]} {args[i + 1]}")
            i += 2
        else:
            out.append(args[i])
            i += 1
    return out


def read_board_rows(path: str) -> list[str]:
    """Rows of a board file ('#' starts a comment; blank lines skipped)."""
    text = read_text(path)
    rows = [line.split("#")[0].strip() for line in text.splitlines()]
    return [row for row in rows if row]


def read_board(rule_set, path: str):
    from lexicon_service.rules import Board, BoardError

    try:
        return Board.from_rows(rule_set, read_board_rows(path))
    except BoardError as exc:
        raise UserError(f"{path}: {exc}") from None


def check_rack(rule_set, rack: str) -> None:
    """A rack the rule set can hold (`validate`, `moves`: as a server reads it), else an error naming --rack."""
    from lexicon_service.commands import in_process as local
    from lexicon_service.core.plays import read_rack

    with local.user_errors({"rack": "--rack"}):
        read_rack(rule_set, rack)


def setup_board(rule_set, board, plays, hint: str = "") -> None:
    """Apply `--setup` plays to `board` (`validate`, `moves`); one that cannot be placed is an error."""
    from lexicon_service.rules import SetupError, apply_setup

    try:
        apply_setup(rule_set, board, plays)
    except SetupError as exc:
        raise UserError(f"--setup {exc.play!r}: {exc}{hint}") from None


def place_tiles(board, text: str) -> None:
    """--place: the tiles of a play put on the board as written, no rule checked (a board position such as
    RULES.md's T at C1 and M at G1). '.' or the same letter over a tile keeps it; anything else is an error."""
    from lexicon_service.rules import BoardError
    from lexicon_service.rules.board import parse_play
    from lexicon_service.rules.reasons import PlayError

    try:
        play, _ = parse_play(board.rule_set, text)
        for row, col, tile in play.squares():
            held = board.get(row, col)
            if tile.letter is None and held is None and board.on_board(row, col):
                raise BoardError(f"'.' over an empty square, row {row + 1}")
            if tile.letter is not None and held is not None and held[0] != tile.letter:
                raise BoardError(f"{tile.letter} over {held[0]}, row {row + 1}")
            if held is None:
                board.place(row, col, tile.letter or "", tile.is_blank)
    except (PlayError, BoardError) as exc:
        raise UserError(f"--place {text!r}: {exc}") from None


_LETTER_MULTIPLIER = {"DL": 2, "TL": 3, "QL": 4}


def format_move(play: str, valid: bool, reason: str, message: str, score, words, bingo_bonus: int) -> list[str]:
    """The answer to one play, as `validate` and `client validate|score` print it.

    words: (text, tiles, letter_sum, word_multiplier, subtotal), tiles: (shown, points, premium or "")."""
    if valid:
        head = f"{play}: valid, {score} points"
    else:
        head = f"{play}: invalid: {reason}: {message}"
        if score is not None:
            head += f" (would score {score})"
    lines = [head]
    for text, tiles, letter_sum, word_multiplier, subtotal in words:
        parts = []
        for shown, points, premium in tiles:
            multiplier = _LETTER_MULTIPLIER.get(premium or "", 1)
            parts.append(f"{shown}{points}" + (f"x{multiplier}" if multiplier > 1 else "")
                         + (f"({premium})" if premium else ""))
        total = f"{letter_sum} x{word_multiplier} = {subtotal}" if word_multiplier > 1 else str(subtotal)
        lines.append(f"  {text:<15} {' '.join(parts)} = {total}")
    if bingo_bonus:
        lines.append(f"  bingo +{bingo_bonus}")
    return lines


def move_lines(play: str, answer) -> list[str]:
    """A ValidateMove or ScoreMove answer as `validate` and `client validate|score` print it (a play that
    cannot be placed has no words and no score)."""
    words = [(w.word, [(t.letter.lower() if t.blank else t.letter, t.points, t.premium) for t in w.tiles],
              w.letter_sum, w.multiplier, w.subtotal) for w in answer.words]
    score = answer.total if answer.words else None
    return format_move(play, answer.valid, answer.reason, answer.message, score, words, answer.bingo_bonus)


def shown_board(rule_set, rows_judged_on: list[str], answer):
    """--show-board: the board after the play (the board it was judged on when it could not be placed) and
    the squares the play filled, from the answer's `board` rows (`validate` and `client validate|score`)."""
    from lexicon_service.rules import Board, BoardError

    try:  # the client reads --board itself only here, for a play it judged without a call
        before = Board.from_rows(rule_set, rows_judged_on) if rows_judged_on else Board.empty(rule_set)
    except BoardError as exc:
        raise UserError(f"--board: {exc}") from None
    if not answer.board:
        return before, ()
    after = Board.from_rows(rule_set, list(answer.board))
    new = [(r, c) for r in range(after.rows) for c in range(after.columns)
           if before.get(r, c) is None and after.get(r, c) is not None]
    return after, new


def print_move(play: str, answer, as_json: bool, rule_set=None, rows_judged_on=()) -> None:
    """One play's answer as `validate` and `client validate|score` print it. With `rule_set` (--show-board):
    the board drawn after the text, or with --json inside the one JSON document: the answer's `board`
    rows, set to the board it was judged on when the play could not be placed."""
    if rule_set is not None and as_json and not answer.board:
        board, _ = shown_board(rule_set, list(rows_judged_on), answer)
        answer.board.extend(board.to_rows())
    print(message_json(answer) if as_json else "\n".join(move_lines(play, answer)))
    if rule_set is not None and not as_json:
        board, new = shown_board(rule_set, list(rows_judged_on), answer)
        print(board.render_text(new=new))


def split_or_answer(play: str, response_type):
    """(position, word) of a play, or, when it does not split into a coordinate and a word, the answer
    `validate` and `client validate|score` give it without asking the rules (its reason and message)."""
    from lexicon_service.rules.board import split_play
    from lexicon_service.rules.reasons import PlayError
    from lexicon_service.core.messages import MOVE_REASONS

    try:
        return split_play(play)
    except PlayError as exc:
        return response_type(reason=exc.code.value, message=str(exc), reason_code=MOVE_REASONS[exc.code])


def run(args) -> int:
    from lexicon_service.commands import in_process as local
    from lexicon_service.core.plays import judge_move
    from lexicon_service.grpc_gen import game_pb2
    from lexicon_service.rules import Board, RuleSetError, load_rule_set
    from lexicon_service.core.messages import move_response

    if not args.rules:
        raise UserError("--rules is required (a rule set id such as pl-scrabble, or a .rules file)")
    try:
        rule_set = load_rule_set(args.rules)
    except RuleSetError as exc:
        raise UserError(str(exc)) from None
    board = read_board(rule_set, args.board) if args.board else Board.empty(rule_set)
    for text in args.place:
        place_tiles(board, text)
    if args.rack:  # the rack surrounds the plays: unreadable is an error, as in the server
        check_rack(rule_set, args.rack)
    setup_board(rule_set, board, args.setup, hint=" (--place puts tiles without the rules of a play)")
    lexicon = open_lexicon(args.lexicon, args.lexicons) if args.lexicon else None
    snapshot = local.snapshot([lexicon] if lexicon else [], [rule_set], args.lexicons)
    lexicon_name = lexicon.name if lexicon else ""
    # as `client validate -l LEX` with a lexicon, as `client score` without
    response_type = game_pb2.ValidateMoveResponse if lexicon else game_pb2.ScoreMoveResponse
    rows = board.to_rows()
    all_valid = True
    for play in join_plays(args.plays):
        answer = split_or_answer(play, response_type)
        if isinstance(answer, tuple):
            with local.user_errors({"rule_set": "--rules", "rack": "--rack", "lexicon": "--lexicon",
                                    "play.position": play, "play.word": play}):
                move = judge_move(snapshot, local.LIMITS, lexicon_name, rule_set.id, rows, args.rack or "",
                                  *answer, judge_words=lexicon is not None)
            answer = move_response(response_type, move, lexicon_name)
        all_valid &= answer.valid
        print_move(play, answer, args.json, rule_set if args.show_board else None, rows)
    return 0 if all_valid else 1
