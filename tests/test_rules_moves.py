"""Move validation (RULES.md section 4): one table row per reason code; board and coordinates."""

import pytest

from lexicon_service.rules.admissible_words import WordSet
from lexicon_service.rules import (
    Board,
    BoardError,
    PlayError,
    Reason,
    load_rule_set,
    parse_coordinate,
    parse_play,
    validate_move,
    validate_placements,
)

PL = load_rule_set("pl-scrabble")
CS = load_rule_set("cs-scrabble")
KK = load_rule_set("cs-kriskros")


def board_with(rule_set, *plays):
    board = Board.empty(rule_set)
    for play in plays:
        result = validate_move(rule_set, board, None, play)
        assert result.valid, (play, result.message)
        board.apply(result)
    return board


WORDS = {"kot", "koty", "ok", "to", "ot", "kto", "ta", "tak", "ak"}
PL_WORDS = WordSet({PL.tile_set.key_of_text(w) for w in WORDS})

# (rule set, board plays, rack, play, reason)
INVALID_PLAYS = [
    (PL, [], None, "8H", Reason.MALFORMED_PLAY),
    (PL, [], None, "ZZ KOT", Reason.MALFORMED_PLAY),
    (PL, [], None, "Z99 KOT", Reason.OFF_BOARD),
    (PL, [], None, "8H KOX", Reason.UNKNOWN_LETTER),
    (CS, [], None, "8H QUIZ", Reason.UNKNOWN_LETTER),  # no Q tile in Czech Scrabble (a blank may be one)
    (PL, [], None, "16A KOT", Reason.OFF_BOARD),
    (PL, [], None, "8M KOTY", Reason.OFF_BOARD),
    (PL, ["8H KOT"], None, "8H KATY", Reason.PLAY_MISMATCH),  # A given where the board holds O
    (PL, ["8H KOT"], None, "8H kOTY", Reason.PLAY_MISMATCH),  # a blank k written over a real K
    (PL, ["8H KOT"], None, "8H KOTY", Reason.OK),  # letters over the same letters: played through
    (PL, ["8H kOT"], None, "8H KOTY", Reason.OK),  # uppercase names a blank too
    (PL, ["8H kOT"], None, "8H kOTY", Reason.OK),
    (PL, ["8H KOT"], None, "8I OTY", Reason.INCOMPLETE_WORD),  # KOTY starts at 8H, not 8I
    (PL, ["8H KOT"], None, "8G OK", Reason.INCOMPLETE_WORD),  # the word runs on into KOT: OKOT
    (KK, ["8D [CH]ATA"], None, "8H Ř", Reason.INCOMPLETE_WORD),  # not [CH]ATAŘ from 8H
    (KK, ["8D [CH]ATA"], None, "8D [CH]ATAŘ", Reason.OK),  # the multi-letter tile written out
    (KK, ["8D [CH]ATA"], None, "8D CHATAŘ", Reason.OK),
    (KK, ["8D [CH]ATA"], None, "8D C.ATAŘ", Reason.PLAY_MISMATCH),  # C given where the CH tile lies
    (PL, [], None, "8D KOTKOTKO", Reason.TOO_MANY_TILES),  # eight tiles from a seven-tile rack
    (PL, [], None, "8H kot", Reason.TOO_MANY_BLANKS),  # three blanks; the set has two
    (PL, ["8H kOT"], None, "I8 .ot", Reason.TOO_MANY_BLANKS),  # one blank on the board, two more played
    (PL, [], None, "8G ĄĄ", Reason.TILE_COUNT_EXCEEDED),  # one Ą in the set
    (PL, ["8H KĄT"], None, "I7 ĄĄ", Reason.TILE_COUNT_EXCEEDED),  # ... counting the one on the board
    (PL, ["8H KOT"], None, "8K ..", Reason.PLAY_MISMATCH),  # "." on an empty square
    (PL, ["8H KOT"], None, "8H (KAT)Y", Reason.PLAY_MISMATCH),  # "(KAT)" but the board shows KOT
    (PL, ["8H KOT"], None, "8H ...", Reason.NO_TILES),
    (PL, [], "KOT", "8H KOt", Reason.TILE_NOT_IN_RACK),  # blank shown but the rack has no blank
    (PL, [], "KO?", "8H KOTY", Reason.TILE_NOT_IN_RACK),
    (PL, [], None, "8H q", Reason.UNKNOWN_LETTER),  # q is no letter of Polish at all
    (KK, [], None, "8H kOT", Reason.OK),
    (PL, [], None, "8H K", Reason.TOO_FEW_TILES),
    (PL, [], None, "8A KOT", Reason.FIRST_PLAY_NOT_ON_CENTRE),
    (PL, ["8H KOT"], None, "1A KOT", Reason.NOT_CONNECTED),
    (PL, ["8H KOT"], None, "9H TAK", Reason.WORD_NOT_ADMISSIBLE),  # KT, OA, TK
    (PL, ["8H KOT"], None, "7G KOTY", Reason.WORD_NOT_ADMISSIBLE),
    (KK, ["8H KOT"], None, "H8 .OT", Reason.DUPLICATE_WORD),  # KOT down from the K of KOT across
]


@pytest.mark.parametrize("rule_set, plays, rack, play, reason", INVALID_PLAYS,
                         ids=[f"{r.value}-{p}" for _, _, _, p, r in INVALID_PLAYS])
def test_invalid_play_reason_codes(rule_set, plays, rack, play, reason):
    board = board_with(rule_set, *plays)
    lexicon = PL_WORDS if rule_set is PL else None
    result = validate_move(rule_set, board, rack, play, lexicon)
    assert result.reason is reason, result.message
    assert result.valid is (reason is Reason.OK)
    if reason is not Reason.OK:
        assert result.message


def test_bad_blank_letter():
    board = Board.empty(KK)
    result = validate_move(KK, board, None, "8H qUIZ")
    assert result.reason in (Reason.UNKNOWN_LETTER, Reason.BAD_BLANK_LETTER)
    # Czech Scrabble: a blank may be Q or W; Kris Kros: it may not. A custom alphabet shows the code.
    cs = validate_move(CS, Board.empty(CS), "?UIZ", "8H qUIZ")
    assert cs.valid
    custom = load_rule_set("cs-scrabble").source_text.replace("stands-for = tiles Q W", "stands-for = A B C Q")
    from lexicon_service.rules import parse_rule_set

    rs = parse_rule_set(custom, "custom.rules")
    result = validate_move(rs, Board.empty(rs), None, "8H dA")
    assert result.reason is Reason.BAD_BLANK_LETTER


def test_letters_written_over_board_tiles_score_as_the_board_tiles():
    board = board_with(PL, "8H kOT")  # blank K
    written, dotted = validate_move(PL, board, None, "8H KOTY"), validate_move(PL, board, None, "8H ...Y")
    assert written.valid and written.score == dotted.score == 0 + 1 + 2 + 2
    assert written.placements == dotted.placements == ((7, 10, "Y", False),)


def test_not_admissible_lists_the_words():
    board = board_with(PL, "8H KOT")
    result = validate_move(PL, board, None, "9H TAK", PL_WORDS)
    assert set(result.invalid_words) == {"KT", "OA", "TK"}
    assert "TAK" in result.words and "TAK" not in result.invalid_words


def test_duplicate_word_kriskros_only():
    board = board_with(KK, "8H KOT")
    result = validate_move(KK, board, None, "10H KOT")
    assert result.reason is Reason.NOT_CONNECTED
    assert validate_move(KK, board, None, "H8 .OT").reason is Reason.DUPLICATE_WORD
    assert validate_move(KK, board, None, "J6 KO.").reason is Reason.DUPLICATE_WORD
    assert validate_move(PL, board_with(PL, "8H KOT"), None, "H8 .OT").valid  # allowed in Scrabble
    # Extending a word absorbs it: KOT -> KOTY leaves one word, not KOT twice.
    assert validate_move(KK, board, None, "8H ...Y").valid
    # Two equal words made in one move are a duplicate too.
    result = validate_move(KK, board_with(KK, "8H TO"), None, "9H OK")  # OK across, TO and OK down
    assert result.reason is Reason.DUPLICATE_WORD and result.invalid_words == ("OK", "TO", "OK")


def test_placements_not_in_line_gap_and_occupied():
    board = board_with(PL, "8H KOT")
    assert validate_placements(PL, board, None, [(8, 7, "O", False), (9, 8, "K", False)]).reason is Reason.NOT_IN_LINE
    assert validate_placements(PL, board, None, [(8, 7, "O", False), (8, 9, "K", False)]).reason is Reason.GAP
    assert validate_placements(PL, board, None, [(7, 7, "O", False)]).reason is Reason.SQUARE_OCCUPIED
    assert validate_placements(PL, board, None, [(9, 1, "O", False), (9, 1, "K", False)]).reason \
        is Reason.SQUARE_OCCUPIED
    assert validate_placements(PL, board, None, [(15, 1, "O", False)]).reason is Reason.OFF_BOARD
    assert validate_placements(PL, board, None, []).reason is Reason.NO_TILES
    through = validate_placements(PL, board, None, [(7, 6, "K", False), (7, 10, "Y", False)])
    assert through.valid and through.words == ("KKOTY",)  # the board's KOT fills the line
    gap = validate_placements(PL, board, None, [(7, 5, "K", False), (7, 10, "Y", False)])
    assert gap.reason is Reason.GAP  # G8 is empty
    single = validate_placements(PL, board, None, [(7, 10, "Y", False)])
    assert single.valid and single.words == ("KOTY",)
    single_down = validate_placements(PL, board, None, [(8, 7, "O", False)])
    assert single_down.valid and single_down.words == ("KO",) and not single_down.across
    assert validate_placements(PL, board, None, [(8, 7, "OO", False)]).reason is Reason.UNKNOWN_LETTER
    assert validate_placements(PL, board, None, [("x", 7, "O", False)]).reason is Reason.MALFORMED_PLAY
    assert validate_placements(PL, board, None, [(1, 2)]).reason is Reason.MALFORMED_PLAY


def test_coordinates():
    assert (parse_coordinate("8D").row, parse_coordinate("8D").col, parse_coordinate("8D").across) == (7, 3, True)
    d8 = parse_coordinate("D8")
    assert (d8.row, d8.col, d8.across) == (7, 3, False)
    assert str(d8) == "D8" and str(parse_coordinate("15o")) == "15O"
    for bad in ("", "88", "DD", "8", "8-D", "H 8 8"):
        with pytest.raises(PlayError) as info:
            parse_coordinate(bad, PL)
        assert info.value.code is Reason.MALFORMED_PLAY
    for off in ("16A", "A16", "8P", "0A"):
        with pytest.raises(PlayError) as info:
            parse_coordinate(off, PL)
        assert info.value.code is Reason.OFF_BOARD and isinstance(info.value, ValueError)


def test_parse_play_errors_are_domain_errors():
    for bad in ("8H", "8H KOT X", "8H ko-t", "8H (KO", "8H KO)", "8H [CH"):
        with pytest.raises(ValueError):
            parse_play(PL, bad)
    play, expected = parse_play(PL, "8A S(PRÓBUJE)MY")
    assert play.text() == "S.......MY" and expected[1] == "P"


def test_board_rows_round_trip():
    board = board_with(KK, "8D [CH]ATA", "D8 .od")
    rows = board.to_rows()
    assert rows[7] == "..." + "[CH]ATA" + "." * 8
    assert rows[8][3] == "o"
    again = Board.from_rows(KK, rows)
    assert again == board and again.get(7, 3) == ("CH", False) and again.get(8, 3) == ("O", True)
    plain = Board.from_rows(KK, [r.replace("[CH]", "CH") for r in rows])
    assert plain == board  # plain "CH" is the CH tile where unambiguous


def test_board_errors():
    with pytest.raises(BoardError, match="rows"):
        Board.from_rows(PL, ["." * 15] * 14)
    with pytest.raises(BoardError, match="row 3 has 14 squares"):
        Board.from_rows(PL, ["." * 15] * 2 + ["." * 14] + ["." * 15] * 12)
    with pytest.raises(BoardError, match="row 1"):
        Board.from_rows(PL, ["X" + "." * 14] + ["." * 15] * 14)
    board = Board.empty(PL)
    with pytest.raises(BoardError):
        board.place(15, 0, "A")
    board.place(0, 0, "A")
    with pytest.raises(BoardError):
        board.place(0, 0, "A")


def test_rack_errors_are_results_not_crashes():
    board = Board.empty(PL)
    assert validate_move(PL, board, "KO$", "8H KOT").reason is Reason.UNKNOWN_LETTER
    assert validate_move(PL, board, ["K", "O", "T"], "8H KOT").valid


def test_word_too_short():
    from lexicon_service.rules import parse_rule_set

    text = PL.source_text.replace("min-length = 2 ", "min-length = 3 ")
    rs = parse_rule_set(text, "three.rules")
    assert rs.words.min_length == 3
    board = board_with(rs, "8H KOT")
    result = validate_move(rs, board, None, "H7 A.")  # "AK" down: two tiles
    assert result.reason is Reason.WORD_TOO_SHORT and result.invalid_words == ("AK",)
    assert validate_move(rs, board, None, "H6 MA.").valid


PLACEMENT_CODES = {Reason.SQUARE_OCCUPIED, Reason.NOT_IN_LINE, Reason.GAP}  # only placements can produce these
OTHER_TESTS = {Reason.BAD_BLANK_LETTER, Reason.WORD_TOO_SHORT}


def test_every_reason_code_is_covered():
    covered = {reason for *_, reason in INVALID_PLAYS} | PLACEMENT_CODES | OTHER_TESTS
    assert covered == set(Reason)


def test_board_letters_must_be_tiles_or_allowed_blanks():
    rows = ["." * 15] * 15
    with pytest.raises(BoardError, match="no Q tile"):
        Board.from_rows(CS, rows[:7] + ["Q" + "." * 14] + rows[8:])
    board = Board.from_rows(CS, rows[:7] + ["q" + "." * 14] + rows[8:])
    assert board.get(7, 0) == ("Q", True)
