"""Bad input never crashes: domain errors (ValueError subclasses) or result codes, never IndexError/KeyError."""

from hypothesis import given, settings
from hypothesis import strategies as st

from lexicon_service.cli import main
from lexicon_service.rules import Board, RuleSetError, load_rule_set, parse_rule_set, validate_move
from lexicon_service.rules.gcg import GcgError, parse_gcg
from lexicon_service.rules.replay import replay

PL = load_rule_set("pl-scrabble")
KK = load_rule_set("cs-kriskros")
BOARD = Board.empty(PL)
for _play in ("8D KOTEK", "H4 DOME."):
    BOARD.apply(validate_move(PL, BOARD, None, _play))

JUNK = st.text(alphabet=st.sampled_from(list("8DH15AOK.?[]()chCHŻż- \t0QxyzP")), max_size=20)


@settings(max_examples=300, deadline=None)
@given(JUNK, st.one_of(st.none(), JUNK))
def test_validate_move_never_raises(play, rack):
    for rule_set, board in ((PL, BOARD), (KK, Board.empty(KK))):
        result = validate_move(rule_set, board, rack, play)
        assert result.valid or result.message


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(
    JUNK.map(lambda s: ">a: " + s),
    st.sampled_from([">a: 8D KOT +10 10", ">b: - +0 0", ">a: -- -10 0", ">a: (AB) +4 4", "#player1 a",
                     ">a: ABC -AB +0 0", ">a: ABC (time) -10 0", "#note x", ">a: 8D K.T +3 3"]),
), max_size=8).map("\n".join))
def test_gcg_reader_and_replay_raise_only_domain_errors(text):
    try:
        game = parse_gcg(text)
    except GcgError:
        return
    report = replay(PL, game)
    assert len(report.lines) == len(game.events)


BASE = load_rule_set("cs-scrabble").source_text.splitlines()


@settings(max_examples=300, deadline=None)
@given(st.integers(0, len(BASE) - 1), st.text(max_size=12))
def test_rule_set_parser_raises_only_rule_set_errors(line_index, replacement):
    lines = list(BASE)
    lines[line_index] = replacement
    try:
        parse_rule_set("\n".join(lines), "fuzz.rules")
    except RuleSetError as exc:
        assert "fuzz.rules" in str(exc)


def test_validate_command(capsys):
    assert main(["validate", "--rules", "pl-scrabble", "--setup", "8B PRÓBUJE", "8A S.......MY", "A3", "PRYMAS"]) == 0
    out = capsys.readouterr().out
    assert "8A S.......MY: valid, 69 points" in out and "A3 PRYMAS: valid, 87 points" in out
    assert "SPRÓBUJE        S1(TW) P2 R1 Ó5 B3 U3 J3 E1 = 19 x3 = 57" in out
    assert main(["validate", "--rules", "pl-scrabble", "8A KOT"]) == 1
    assert "FIRST_PLAY_NOT_ON_CENTRE" in capsys.readouterr().out
    assert main(["validate", "--rules", "pl-scrabble", "--setup", "1A KOT", "8H KOT"]) == 2
    assert main(["validate", "--rules", "pl-scrabble", "--board", "/no/such/board", "8H KOT"]) == 2


def test_validate_command_board_file(tmp_path, capsys):
    rows = ["." * 15] * 15
    rows[7] = "...[CH]ATA" + "." * 8
    board = tmp_path / "board.txt"
    board.write_text("# a Kris Kros board\n" + "\n".join(rows) + "\n", encoding="utf-8")
    assert main(["validate", "--rules", "cs-kriskros", "--board", str(board), "D8 .OD"]) == 0
    assert "[CH]OD" in capsys.readouterr().out
    board.write_text("\n".join(rows[:3]) + "\n", encoding="utf-8")
    assert main(["validate", "--rules", "cs-kriskros", "--board", str(board), "D8 .OD"]) == 2
