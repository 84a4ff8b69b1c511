"""Tiles and tile keys (docs/architecture.md, "Contracts between the parts")."""

import pytest

from lexicon_service.rules import load_rule_set
from lexicon_service.tiles import PlayTile, Tile, TileSet, UnknownLetterError


@pytest.fixture(scope="module")
def kk():
    return load_rule_set("cs-kriskros").tile_set


@pytest.fixture(scope="module")
def cs():
    return load_rule_set("cs-scrabble").tile_set


@pytest.fixture(scope="module")
def pl():
    return load_rule_set("pl-scrabble").tile_set


def test_tile_counts_match_the_spec(kk, cs, pl):
    assert cs.total_tiles == 100 and pl.total_tiles == 100 and kk.total_tiles == 103
    assert pl.tile("Ź") == Tile("Ź", 9, 1) and pl.tile("Ż") == Tile("Ż", 5, 1)
    assert cs.tile("V") == Tile("V", 1, 4)
    assert kk.tile("CH") == Tile("CH", 4, 2)
    assert cs.blank_count == kk.blank_count == pl.blank_count == 2


def test_kriskros_ch_is_one_tile(kk):
    assert kk.spell("chata") == ("CH", "A", "T", "A")
    assert kk.spell("CHATA") == kk.spell("ChAtA") == kk.spell("[CH]ata")
    assert kk.key_of_text("chata") == "\ue000ata"
    assert kk.text_of_key("\ue000ata") == "chata"


def test_kriskros_c_plus_h_tiles_never_read_as_ch(kk):
    c_then_h = kk.key(("C", "H", "A", "T", "A"))
    assert c_then_h == "chata"
    assert c_then_h != kk.key_of_text("chata")
    assert kk.spell("[C][H]ata") == ("C", "H", "A", "T", "A")


def test_czech_scrabble_spells_ch_as_two_tiles(cs):
    assert cs.spell("chata") == ("C", "H", "A", "T", "A")
    assert cs.key_of_text("chata") == "chata"


def test_blank_alphabet_is_data(cs, kk, pl):
    assert cs.blank_may_be("Q") and cs.blank_may_be("W")
    assert not kk.blank_may_be("Q") and kk.blank_may_be("CH")
    assert pl.blank_may_be("Ź") and not pl.blank_may_be("Q")
    assert cs.key_of_text("quiz") == "quiz"  # Q only via a blank, but it is a letter of the game
    with pytest.raises(UnknownLetterError):
        kk.spell("quiz")


def test_unknown_letter_names_letter_and_position(pl):
    with pytest.raises(UnknownLetterError) as info:
        pl.spell("żółvw")
    assert info.value.letter == "v" and info.value.position == 3
    assert "'v'" in str(info.value) and "position 4" in str(info.value)
    assert isinstance(info.value, ValueError)
    for bad in ("a-b", "[XX]", "[ch", "a b", "1"):
        with pytest.raises(UnknownLetterError):
            pl.spell(bad)


def test_decomposed_diacritics_are_normalised(cs):
    assert cs.spell("R\u030c") == ("Ř",)


def test_play_strings(kk):
    assert kk.spell_play("Ch.aTA") == (
        PlayTile("C"), PlayTile("H", True), PlayTile(None), PlayTile("A", True), PlayTile("T"), PlayTile("A"))
    assert kk.spell_play("CHA") == (PlayTile("CH"), PlayTile("A"))
    assert kk.spell_play("cha") == (PlayTile("CH", True), PlayTile("A", True))
    assert kk.spell_play("[ch]") == (PlayTile("CH", True),)
    assert kk.spell_play("[C][H]") == (PlayTile("C"), PlayTile("H"))
    with pytest.raises(UnknownLetterError):
        kk.spell_play("A?B")


def test_racks(kk, cs):
    assert kk.spell_rack("[CH]A?b") == ("CH", "A", "?", "B")
    assert kk.spell_rack("CHA") == ("CH", "A")
    with pytest.raises(UnknownLetterError):
        cs.spell_rack("QA")  # Q has no tile in Czech Scrabble
    assert kk.rack_text(("CH", "A", "?")) == "[CH]A?"


def test_rack_text_reads_back_as_the_same_tiles(kk, cs):
    # A C tile before an H tile would read back as the CH tile in Kris Kros: it is bracketed
    for rack in (("C", "H"), ("A", "C", "H", "C"), ("C", "?", "H"), ("CH", "C", "H"), ("H", "C")):
        assert kk.spell_rack(kk.rack_text(rack)) == rack
    assert kk.rack_text(("C", "H", "A")) == "[C]HA"
    assert cs.rack_text(("C", "H")) == "CH"          # Czech Scrabble has no CH tile


def test_text_of_key_refuses_foreign_characters(kk):
    with pytest.raises(UnknownLetterError):
        kk.text_of_key("\ue050")


def test_custom_tile_set():
    ts = TileSet((Tile("A", 1, 2), Tile("LL", 5, 1), Tile("L", 2, 1)), 1, ("A", "LL", "L", "Ñ"))
    assert ts.spell("lla") == ("LL", "A")
    assert ts.key_of_text("ñ") == "ñ"
    assert ts.key(("LL",)) == "\ue000"


# --- the fast spelling paths agree with the careful ones -----------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

ALL = {name: load_rule_set(name).tile_set for name in ("cs-kriskros", "cs-scrabble", "pl-scrabble")}
CHARS = sorted({c for ts in ALL.values() for a in ts.alphabet for c in a + a.lower()} | set(".?[]-ßxQ"))


def outcome(fn, text):
    try:
        return ("ok", fn(text))
    except UnknownLetterError:
        return ("error",)


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(sorted(ALL)), st.lists(st.sampled_from(CHARS), max_size=12).map("".join))
def test_fast_and_slow_spelling_agree(name, text):
    ts = ALL[name]
    assert outcome(ts.spell_play, text) == outcome(ts._spell_play_slow, text)
    assert outcome(ts.spell_rack, text) == outcome(ts._spell_rack_slow, text)


def test_written_separate_c_and_h_tiles_round_trip(kk, cs):
    from lexicon_service.tiles import write_tiles

    # written plainly, tiles C, H would read back as the CH tile
    pieces = [("C", False), ("H", True), ("A", False)]
    assert write_tiles(pieces, kk) == "[C]hA"
    assert kk.spell_play(write_tiles(pieces, kk)) == (PlayTile("C", False), PlayTile("H", True), PlayTile("A", False))
    assert write_tiles([("CH", False), (None, False), ("A", False)], kk) == "[CH].A"
    assert write_tiles(pieces, cs) == "ChA"  # no CH tile in Czech Scrabble: nothing to disambiguate


def test_board_rows_with_blank_c_before_blank_h_round_trip(kk):
    from lexicon_service.rules.board import Board

    rs = load_rule_set("cs-kriskros")
    rows = ["[c]h" + "." * 13] + ["." * 15] * 14
    board = Board.from_rows(rs, rows)
    assert board.to_rows()[0].startswith("[c]h")
    assert Board.from_rows(rs, board.to_rows()) == board
