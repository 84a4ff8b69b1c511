"""Rule sets as data: shipped files, user files by path, malformed files refused with line and field."""

import pytest

from lexicon_service.rules import RuleSetError, list_rule_sets, load_rule_set, parse_rule_set


def test_shipped_rule_sets():
    assert list_rule_sets() == ["cs-kriskros", "cs-scrabble", "pl-scrabble"]
    pl, cs, kk = (load_rule_set(n) for n in ("pl-scrabble", "cs-scrabble", "cs-kriskros"))
    assert (pl.language, pl.profile) == ("pl", "pl")
    assert (cs.language, cs.profile) == ("cs", "cs-klasik")
    assert (kk.language, kk.profile) == ("cs", "cs-kriskros")
    assert pl.rack_size == cs.rack_size == 7 and kk.rack_size == 8
    assert pl.bingo_bonus == cs.bingo_bonus == kk.bingo_bonus == 50
    assert kk.bingo_tiles == 8
    assert pl.first_play.must_cover == (7, 7) and kk.first_play.must_cover is None
    assert cs.exchange.min_tiles_in_bag == 7 and kk.exchange.min_tiles_in_bag == 0
    assert not kk.same_word_twice_allowed and pl.same_word_twice_allowed
    assert kk.timer.move_seconds == 60
    assert kk.end.out_bonus == "none" and cs.end.out_bonus == "others-racks"
    assert "[tiles]" in pl.source_text and pl.source_text.count("\n") > 50


def test_standard_board_counts():
    rs = load_rule_set("cs-kriskros")
    flat = [p for row in rs.board.premiums for p in row]
    assert flat.count((1, 3)) == 8 and flat.count((1, 2)) == 17
    assert flat.count((3, 1)) == 12 and flat.count((2, 1)) == 24
    assert rs.premium(7, 7) == (1, 2)
    for r in range(15):
        for c in range(15):
            assert rs.premium(r, c) == rs.premium(c, r) == rs.premium(14 - r, c)


def test_load_by_path_and_source_round_trip(tmp_path):
    text = load_rule_set("pl-scrabble").source_text.replace("id = pl-scrabble", "id = my-game")
    path = tmp_path / "my.rules"
    path.write_text(text, encoding="utf-8")
    rs = load_rule_set(str(path))
    assert rs.id == "my-game" and rs.tile_set == load_rule_set("pl-scrabble").tile_set
    assert parse_rule_set(rs.source_text, "embedded").id == "my-game"


MINIMAL = """\
[game]
id = tiny
language = en
profile = en

[tiles]
?  0  1
A  1  9
B  3  2

[rack]
size = 7
"""


def test_minimal_file_takes_defaults():
    rs = parse_rule_set(MINIMAL, "tiny.rules")
    assert rs.rows == rs.columns == 15 and rs.premium(7, 7) == (1, 2)  # standard layout by default
    assert rs.bingo_tiles == 7 and rs.first_play.must_cover is None
    assert rs.tile_set.blank_letters == ("A", "B")


@pytest.mark.parametrize(
    "edit, line, field",
    [
        (("size = 7", "size = seven"), 12, "[rack] size"),
        (("size = 7", "sise = 7"), 12, "[rack] sise"),
        (("B  3  2", "B  x  2"), 9, "[tiles] points"),
        (("B  3  2", "B  3"), 9, "[tiles]"),
        (("A  1  9", "B  1  9"), 9, "[tiles] letter"),
        (("[rack]", "[racks]"), 11, "section"),
        (("language = en", "language = English"), 3, "[game] language"),
        (("size = 7", "size = 7\nbingo-tiles = 9"), 13, "[rack] bingo-tiles"),
        (("size = 7", "size = 7\n[end]\nout-bonus = lots"), 14, "[end] out-bonus"),
        (("size = 7", "size = 7\n[first-play]\nmust-cover = Z99"), 14, "[first-play] must-cover"),
        (("size = 7", "size = 7\n[later-plays]\nmust-connect = maybe"), 14, "[later-plays] must-connect"),
        (("[game]\n", "stray = 1\n[game]\n"), 1, "section"),
    ],
)
def test_malformed_files_name_line_and_field(edit, line, field):
    text = MINIMAL.replace(*edit, 1)
    with pytest.raises(RuleSetError) as info:
        parse_rule_set(text, "tiny.rules")
    err = info.value
    assert isinstance(err, ValueError)
    assert (err.line, err.field) == (line, field), str(err)
    assert f"tiny.rules:{line}:" in str(err) and field in str(err)


def test_bad_layouts():
    bad_code = MINIMAL + "[layout]\nTW XX\nDW ..\n"
    with pytest.raises(RuleSetError, match=r"tiny.rules:14: \[layout\]: unknown square code 'XX'"):
        parse_rule_set(bad_code, "tiny.rules")
    ragged = MINIMAL + "[layout]\nTW ..\nDW\n"
    with pytest.raises(RuleSetError, match=r":15: \[layout\]"):
        parse_rule_set(ragged, "tiny.rules")
    mismatch = MINIMAL + "[board]\nrows = 3\n[layout]\nTW ..\nDW ..\n"
    with pytest.raises(RuleSetError, match=r":14: \[board\] rows"):
        parse_rule_set(mismatch, "tiny.rules")
    small = parse_rule_set(MINIMAL + "[layout]\n   A  B  C\n 1 TW .. 2L\n 2 .. 3W ..\n", "tiny.rules")
    assert (small.rows, small.columns) == (2, 3) and small.premium(0, 2) == (2, 1) and small.premium(1, 1) == (1, 3)


def test_missing_pieces():
    with pytest.raises(RuleSetError, match=r"missing section \[rack\]"):
        parse_rule_set(MINIMAL.replace("[rack]\nsize = 7\n", ""), "x")
    with pytest.raises(RuleSetError, match=r"\[game\] profile"):
        parse_rule_set(MINIMAL.replace("profile = en\n", ""), "x")
    with pytest.raises(RuleSetError, match="not a shipped rule set"):
        load_rule_set("no-such-game")


def test_readme_example_is_a_working_rule_set():
    from pathlib import Path

    from lexicon_service.rules import Board, validate_move

    readme = (Path(__file__).parent.parent / "lexicon_service" / "rulesets" / "README.md").read_text(encoding="utf-8")
    example = readme.split("```")[1]
    rs = parse_rule_set(example, "en-scrabble.rules")
    assert rs.id == "en-scrabble" and rs.tile_set.total_tiles == 100 and rs.first_play.must_cover == (7, 7)
    result = validate_move(rs, Board.empty(rs), "QUIZ???", "8H QUIZ")
    assert result.valid and result.score == (10 + 1 + 1 + 10) * 2
