"""`lexicon-service validate`: check and score plays on a board, with a per-word breakdown.

    lexicon-service validate --rules pl-scrabble --setup "8B PRÓBUJE" "8A S.......MY"
    lexicon-service validate --rules cs-kriskros --board board.txt --rack "[CH]ATA?XY" "8D [CH]ATA" --lexicon cs-kriskros

Plays are "COORDINATE WORD" (8D = row 8 from column D across, D8 = down; "." = a tile on the board,
lowercase = a blank, [CH] = a multi-letter tile). Each play is judged on the same board. Without
--lexicon, words are not checked (score only). Exit status 0 when every play is valid, 1 otherwise,
2 on unreadable input (rule set, board file, setup play).
"""

from __future__ import annotations


from lexicon_service.cli import UserError


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("validate", help="check and score plays (reason code, words, score breakdown)",
                              description=__doc__.split("\n\n")[0])
    p.add_argument("plays", nargs="+", metavar="PLAY", help='a play such as "8D WORD" (or 8D WORD as two arguments)')
    p.add_argument("--rules", "-r", required=True, metavar="RULES", help="rule set id or path to a .rules file")
    p.add_argument("--board", "-b", metavar="FILE",
                   help="board file: one line per row, '.' empty, uppercase tile, lowercase blank ('-' = stdin)")
    p.add_argument("--setup", "-s", action="append", default=[], metavar="PLAY",
                   help="a play to put on the board first (repeatable; applied in order, words not checked)")
    p.add_argument("--rack", metavar="RACK", help='the player\'s rack, e.g. "ABC?" (default: not checked)')
    p.add_argument("--lexicon", "-l", metavar="LEX", help="check words against this lexicon (directory or name)")
    p.add_argument("--lexicons", default="lexicons", metavar="DIR",
                   help="where lexicon names are looked up (default: %(default)s)")
    p.set_defaults(func=run)


def _plays(args: list[str]) -> list[str]:
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


def _read_board(rule_set, path: str):
    from lexicon_service.rules import Board, BoardError

    from lexicon_service.cli import read_text

    text = read_text(path)
    rows = [line.split("#")[0].strip() for line in text.splitlines()]
    rows = [row for row in rows if row]
    try:
        return Board.from_rows(rule_set, rows)
    except BoardError as exc:
        raise UserError(f"{path}: {exc}") from None


def format_result(play: str, result) -> list[str]:
    if result.valid:
        head = f"{play}: valid, {result.score} points"
    else:
        head = f"{play}: invalid: {result.reason.value}: {result.message}"
        if result.score is not None:
            head += f" (would score {result.score})"
    lines = [head]
    breakdown = result.breakdown
    if breakdown is not None:
        for word in breakdown.words:
            parts = []
            for t in word.tiles:
                shown = t.letter.lower() if t.is_blank else t.letter
                points = f"{t.points}x{t.letter_multiplier}" if t.letter_multiplier > 1 else str(t.points)
                parts.append(f"{shown}{points}" + (f"({t.premium})" if t.premium else ""))
            total = (f"{word.letter_sum} x{word.word_multiplier} = {word.subtotal}" if word.word_multiplier > 1
                     else str(word.subtotal))
            lines.append(f"  {word.text:<15} {' '.join(parts)} = {total}")
        if breakdown.bingo_bonus:
            lines.append(f"  bingo +{breakdown.bingo_bonus}")
    return lines


def run(args) -> int:
    from lexicon_service.rules import Board, RuleSetError, load_rule_set, validate_move

    try:
        rule_set = load_rule_set(args.rules)
    except RuleSetError as exc:
        raise UserError(str(exc)) from None
    board = _read_board(rule_set, args.board) if args.board else Board.empty(rule_set)
    for setup in args.setup:
        result = validate_move(rule_set, board, None, setup)
        if result.score is None:
            raise UserError(f"--setup {setup!r}: {result.reason.value}: {result.message}")
        board.apply(result)
    judge = None
    if args.lexicon:
        from lexicon_service.commands.replay import _judge

        judge = _judge(args.lexicon, args.lexicons, rule_set)
    all_valid = True
    for play in _plays(args.plays):
        result = validate_move(rule_set, board, args.rack, play, judge)
        all_valid &= result.valid
        print("\n".join(format_result(play, result)))
    return 0 if all_valid else 1
