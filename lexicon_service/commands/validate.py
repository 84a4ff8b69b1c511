"""`lexicon-service validate`: check and score plays on a board, with a per-word breakdown.

    lexicon-service validate --rules pl-scrabble --setup "8B PRÓBUJE" "8A S.......MY" --show-board
    lexicon-service validate --rules cs-kriskros --board board.txt --rack "[CH]ATA?XY" "8D [CH]ATA" --lexicon cs-kriskros

Plays are "COORDINATE WORD" (8D = row 8 from column D across, D8 = down; "." or the letter itself =
a tile on the board, lowercase = a blank, [CH] = a multi-letter tile). Each play is judged on the
same board. Without --lexicon, words are not checked (score only). `client validate` and `client
score` take the same options. Exit status 0 when every play is valid, 1 otherwise, 2 on unreadable
input (rule set, board file, setup play, lexicon).
"""

from __future__ import annotations

import argparse

from lexicon_service.cli import UserError


def add_move_arguments(p) -> None:
    """Options shared by `validate` and `client validate|score` (old spellings kept, hidden)."""
    p.add_argument("plays", nargs="+", metavar="PLAY", help='a play such as "8D WORD" (or 8D WORD as two arguments)')
    p.add_argument("--rules", "-r", metavar="RULES", help="rule set id or path to a .rules file")
    p.add_argument("--rule-set", dest="rules", help=argparse.SUPPRESS)
    p.add_argument("--board", "-b", metavar="FILE",
                   help="board file: one line per row, '.' empty, uppercase tile, lowercase blank ('-' = stdin)")
    p.add_argument("--board-file", dest="board", help=argparse.SUPPRESS)
    p.add_argument("--rack", metavar="RACK", help='the player\'s rack, e.g. "ABC?" (default: not checked)')
    p.add_argument("--place", action="append", default=[], metavar="PLAY",
                   help='tiles put on the board as written before anything else is judged, no rule checked '
                   '(single tiles, any square): --place "C1 T" --place "G1 M" (repeatable)')


def add_parser(subparsers) -> None:
    from lexicon_service.commands.check import add_lexicon_argument

    p = subparsers.add_parser("validate", help="check and score plays (reason code, words, score breakdown)",
                              description=__doc__.split("\n\n")[0])
    add_move_arguments(p)
    p.add_argument("--setup", "-s", action="append", default=[], metavar="PLAY",
                   help="a play to put on the board first (repeatable; applied in order, words not checked; a "
                   "legal placement, the first one across the centre: --place puts tiles anywhere)")
    add_lexicon_argument(p, required=False)
    p.add_argument("--show-board", action="store_true",
                   help="draw the board after each play (coordinates, premium squares, new tiles marked *)")
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
    from lexicon_service.cli import read_text

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
    """A rack the rule set can hold (`validate`, `moves`), else an error naming --rack."""
    from lexicon_service.tiles import UnknownLetterError

    try:
        rack_tiles = rule_set.tile_set.spell_rack(rack)
    except UnknownLetterError as exc:
        raise UserError(f"--rack: {exc}") from None
    if len(rack_tiles) > rule_set.rack_size:
        raise UserError(f"--rack: {len(rack_tiles)} tiles; a {rule_set.id} rack holds {rule_set.rack_size}")


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


def format_result(play: str, result) -> list[str]:
    breakdown = result.breakdown
    words = []
    if breakdown is not None:
        words = [(w.text, [(t.letter.lower() if t.is_blank else t.letter, t.points, t.premium or "") for t in w.tiles],
                  w.letter_sum, w.word_multiplier, w.subtotal) for w in breakdown.words]
    return format_move(play, result.valid, result.reason.value, result.message, result.score, words,
                       breakdown.bingo_bonus if breakdown is not None else 0)


def run(args) -> int:
    from lexicon_service.rules import Board, RuleSetError, load_rule_set, validate_move

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
    judge = None
    if args.lexicon:
        from lexicon_service.commands.replay import _judge

        judge = _judge(args.lexicon, args.lexicons, rule_set)
    all_valid = True
    for play in join_plays(args.plays):
        result = validate_move(rule_set, board, args.rack, play, judge)
        all_valid &= result.valid
        print("\n".join(format_result(play, result)))
        if args.show_board:
            shown = board
            if result.score is not None:
                shown = board.copy()
                shown.apply(result)
            print(shown.render_text(new=result.placements))
    return 0 if all_valid else 1
