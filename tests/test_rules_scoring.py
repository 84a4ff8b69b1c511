"""Scoring (RULES.md section 5): the worked examples, breakdowns, bingo, blanks, end of game."""

import pytest

from lexicon_service.rules.admissible_words import WordSet
from lexicon_service.rules import Board, Reason, end_of_game_adjustments, load_rule_set, rack_value, validate_move


@pytest.fixture(scope="module")
def pl():
    return load_rule_set("pl-scrabble")


def board_with(rule_set, *plays):
    board = Board.empty(rule_set)
    for play in plays:
        result = validate_move(rule_set, board, None, play)
        assert result.valid, result.message
        board.apply(result)
    return board


@pytest.mark.parametrize(
    "play, words, score",
    [
        ("8A S.......MY", ("SPRÓBUJEMY",), 69),
        ("B8 .RYMAS", ("PRYMAS",), 13),
        ("9F DAR", ("DAR", "UD", "JA", "ER"), 17),
        ("A3 PRYMAS", ("PRYMAS", "SPRÓBUJE"), 87),
    ],
)
def test_worked_examples_on_probuje(pl, play, words, score):
    board = board_with(pl, "8B PRÓBUJE")
    result = validate_move(pl, board, None, play)
    assert result.valid and result.reason is Reason.OK
    assert result.words == words
    assert result.score == score
    breakdown = result.breakdown
    assert sum(w.subtotal for w in breakdown.words) + breakdown.bingo_bonus == score


def test_worked_example_wytezamy(pl):
    board = Board.empty(pl)
    board.place(0, 2, "T")  # T at C1
    board.place(0, 6, "M")  # M at G1
    result = validate_move(pl, board, "WYĘŻAY?", "1A WY.ĘŻA.Y")
    assert (result.valid, result.words, result.score, result.bingo) == (True, ("WYTĘŻAMY",), 225, False)
    (word,) = result.breakdown.words
    assert (word.letter_sum, word.word_multiplier, word.subtotal) == (25, 9, 225)
    assert [t.premium for t in word.tiles if t.is_new] == ["TW", None, "DL", None, None, "TW"]


def test_first_play_and_bingo(pl):
    board = Board.empty(pl)
    result = validate_move(pl, board, "PRÓBUJE", "8B PRÓBUJE")
    # P2 R1 Ó5 B3 U3 J3 E1 = 18; Ó on D8 (DL) +5; E on the H8 star doubles: 23 * 2 = 46; + 50 bingo
    assert result.bingo and result.score == 46 + 50
    assert result.breakdown.bingo_bonus == 50


def test_blank_scores_zero_but_keeps_word_multiplier(pl):
    board = Board.empty(pl)
    with_blank = validate_move(pl, board, "KOT?", "8H kOT")  # blank K on the DW star
    plain = validate_move(pl, board, "KOT", "8H KOT")
    assert plain.score == (2 + 1 + 2) * 2
    assert with_blank.score == (0 + 1 + 2) * 2
    tile = with_blank.breakdown.words[0].tiles[0]
    assert tile.is_blank and tile.points == 0 and tile.premium == "DW"


def test_blank_on_letter_premium_scores_zero(pl):
    board = board_with(pl, "8H KOT")
    result = validate_move(pl, board, None, "I9 ..")  # nothing new: I8 holds O, I9 is empty
    assert result.reason is Reason.PLAY_MISMATCH
    result = validate_move(pl, board, None, "I8 .ż")  # blank Ż on I9, a DL square
    assert result.valid and result.words == ("Oż",)
    assert result.score == 1  # O 1 (old tile) + blank 0, doubled or not


def test_premiums_only_under_new_tiles(pl):
    board = board_with(pl, "8H KOT")
    result = validate_move(pl, board, None, "8H ...Y")  # KOTY: DW star already used
    assert result.score == 2 + 1 + 2 + 2


def test_two_word_premiums_multiply(pl):
    rs = load_rule_set("cs-scrabble")
    board = Board.empty(rs)
    board.place(4, 5, "A")  # F5
    board.place(4, 6, "A")  # G5 (a made-up position: E5 and K5 are both DW)
    result = validate_move(rs, board, None, "5E A..OOOO")  # E5..K5: DW at E5 and K5 (one-point tiles)
    assert result.breakdown.words[0].word_multiplier == 4
    assert result.score == 7 * 4


def test_cross_word_shares_new_tile_premium(pl):
    board = board_with(pl, "8H KOT")
    # Ż on I9 (DL) makes "ŻA" across, "OŻ" and "TA" down: the DL on the shared new tile counts twice.
    result = validate_move(pl, board, None, "9I ŻA")
    words = {w.text: w for w in result.breakdown.words}
    assert set(words) == {"ŻA", "OŻ", "TA"}
    assert words["ŻA"].subtotal == 5 * 2 + 1
    assert words["OŻ"].subtotal == 1 + 5 * 2
    assert words["TA"].subtotal == 2 + 1
    assert result.score == 11 + 11 + 3


def test_kriskros_eight_tile_bingo():
    kk = load_rule_set("cs-kriskros")
    board = Board.empty(kk)
    eight = validate_move(kk, board, None, "8A PRACOVNA")
    assert len(eight.placements) == 8 and eight.bingo
    seven = validate_move(kk, board, None, "8A PRACOVN")
    assert len(seven.placements) == 7 and not seven.bingo
    cs = load_rule_set("cs-scrabble")
    assert validate_move(cs, Board.empty(cs), None, "8B PRACOVN").bingo


def test_judge_checks_words_by_tile_key():
    kk = load_rule_set("cs-kriskros")
    words = WordSet({kk.tile_set.key_of_text("chata")})
    board = Board.empty(kk)
    assert validate_move(kk, board, "[CH]ATA", "8D [CH]ATA", words).valid
    assert validate_move(kk, board, "CHATA", "8D CHATA", words).valid  # plain CH reads as the CH tile
    c_and_h = validate_move(kk, board, "CHATA", "8D [C][H]ATA", words)
    assert c_and_h.reason is Reason.TILE_NOT_IN_RACK  # the rack holds a CH tile, not C and H
    c_and_h = validate_move(kk, board, None, "8D [C][H]ATA", words)
    assert c_and_h.reason is Reason.WORD_NOT_ADMISSIBLE and c_and_h.invalid_words == ("CHATA",)
    assert c_and_h.score is not None  # a phony still has a score (replay needs it)
    ok = validate_move(kk, board, None, "8D [CH]ATA", words)
    assert ok.words == ("[CH]ATA",) and ok.word_keys == ("\ue000ata",)
    assert ok.score == 4 * 2 + 1 + 1 + 1  # CH (4) on D8, a DL square


def test_end_of_game_adjustments():
    pl = load_rule_set("pl-scrabble")
    kk = load_rule_set("cs-kriskros")
    assert rack_value(pl, "ŹŻ?") == 14
    assert end_of_game_adjustments(pl, ["", "ŹA", "B"], went_out=0) == [13, -10, -3]
    assert end_of_game_adjustments(pl, ["", "ŹA"], went_out=0, out_bonus="twice-others-racks") == [20, 0]
    assert end_of_game_adjustments(pl, ["A", "ŹA"], went_out=None) == [-1, -10]
    assert end_of_game_adjustments(kk, ["", "XA"], went_out=0) == [0, -11]
