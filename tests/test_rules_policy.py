"""One policy for answers and errors: every reason code is an answer (valid: false), the same from
validate_move, ValidateMove/ScoreMove, ReplayGame and the CLI; docs/rules.md lists exactly these codes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lexicon_service.cli import main
from lexicon_service.rules.admissible_words import WordSet
from lexicon_service.rules import Board, Reason, load_rule_set, parse_rule_set, validate_move, validate_placements
from lexicon_service.rules.reasons import reason_table
from test_service import move, write_lexicon  # noqa: F401

ROOT = Path(__file__).resolve().parent.parent
PL = load_rule_set("pl-scrabble")
KK = load_rule_set("cs-kriskros")
CUSTOM_BLANK = parse_rule_set(load_rule_set("cs-scrabble").source_text.replace("stands-for = tiles Q W",
                                                                               "stands-for = A B C Q"), "x.rules")
MIN_3 = parse_rule_set(PL.source_text.replace("min-length = 2 ", "min-length = 3 "), "min3.rules")
WORDS = WordSet({PL.tile_set.key_of_text(w) for w in ("kot", "koty", "ok")})

# reason -> (rule set, setup plays, rack, play); every string-form code has one example
PLAY_EXAMPLES = {
    Reason.MALFORMED_PLAY: (PL, [], None, "ZZ KOT"),
    Reason.UNKNOWN_LETTER: (PL, [], None, "8H KOX"),
    Reason.OFF_BOARD: (PL, [], None, "8Z KOT"),
    Reason.PLAY_MISMATCH: (PL, ["8H KOT"], None, "8H KATY"),
    Reason.INCOMPLETE_WORD: (PL, ["8H KOT"], None, "8K Y"),
    Reason.NO_TILES: (PL, ["8H KOT"], None, "8H KOT"),
    Reason.BAD_BLANK_LETTER: (CUSTOM_BLANK, [], None, "8H dA"),
    Reason.TOO_MANY_TILES: (PL, [], None, "8D ĄĄĄĄĄĄĄĄ"),
    Reason.TOO_MANY_BLANKS: (PL, [], None, "8H złoty"),
    Reason.TILE_COUNT_EXCEEDED: (PL, [], None, "8G ZZZZZZ"),
    Reason.TILE_NOT_IN_RACK: (PL, [], "KO?", "8H KOTY"),
    Reason.TOO_FEW_TILES: (PL, [], None, "8H K"),
    Reason.FIRST_PLAY_NOT_ON_CENTRE: (PL, [], None, "8A KOT"),
    Reason.NOT_CONNECTED: (PL, ["8H KOT"], None, "1A KOT"),
    Reason.WORD_TOO_SHORT: (MIN_3, [], None, "8H OK"),
    Reason.DUPLICATE_WORD: (KK, ["8H KOT"], None, "H8 .OT"),
    Reason.WORD_NOT_ADMISSIBLE: (PL, ["8H KOT"], None, "9H TAK"),
}
PLACEMENT_EXAMPLES = {
    Reason.SQUARE_OCCUPIED: [(7, 7, "O", False)],
    Reason.NOT_IN_LINE: [(8, 7, "O", False), (9, 8, "K", False)],
    Reason.GAP: [(8, 7, "O", False), (8, 9, "K", False)],
}


def board_with(rule_set, plays):
    board = Board.empty(rule_set)
    for play in plays:
        board.apply(validate_move(rule_set, board, None, play))
    return board


def test_every_reason_code_has_an_example():
    assert set(PLAY_EXAMPLES) | set(PLACEMENT_EXAMPLES) == set(Reason) - {Reason.OK}


@pytest.mark.parametrize("reason", list(PLAY_EXAMPLES), ids=[r.value for r in PLAY_EXAMPLES])
def test_each_code_is_an_answer_from_validate_move(reason):
    rule_set, setup, rack, play = PLAY_EXAMPLES[reason]
    result = validate_move(rule_set, board_with(rule_set, setup), rack, play, WORDS if rule_set is PL else None)
    assert (result.valid, result.reason) == (False, reason), result.message
    assert result.message


@pytest.mark.parametrize("reason", list(PLACEMENT_EXAMPLES), ids=[r.value for r in PLACEMENT_EXAMPLES])
def test_placement_codes(reason):
    result = validate_placements(PL, board_with(PL, ["8H KOT"]), None, PLACEMENT_EXAMPLES[reason])
    assert (result.valid, result.reason) == (False, reason)


def test_readme_reason_table_is_the_code_table():
    readme = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert reason_table() in readme, "docs/rules.md: paste `python -m lexicon_service.rules.reasons`"
    listed = set(re.findall(r"^\| `([A-Z_]+)` \|", readme, re.M))
    assert listed == {r.value for r in Reason} - {"OK"}


GRPC_REASONS = [r for r, (rs, _, _, _) in PLAY_EXAMPLES.items() if rs is PL and r is not Reason.WORD_NOT_ADMISSIBLE]


@pytest.mark.parametrize("reason", GRPC_REASONS, ids=[r.value for r in GRPC_REASONS])
def test_validate_and_score_move_answer_with_the_same_code(game, reason):  # noqa: F811
    rule_set, setup, rack, play = PLAY_EXAMPLES[reason]
    rows = board_with(rule_set, setup).to_rows() if setup else []
    position, word = play.split()
    for call, name in ((game.ValidateMove, "lexicon"), (game.ScoreMove, "rule_set")):
        resp = call(move(**{name: "pl-scrabble"}, board=rows, rack=rack or "", play=(position, word)), timeout=5)
        assert (resp.valid, resp.reason) == (False, reason.value), resp.message


def test_replay_game_and_cli_answer_off_board_the_same_way(game, capsys, tmp_path):  # noqa: F811
    from lexicon_service.grpc_gen import game_pb2

    gcg = "#player1 a A\n#player2 b B\n>a: KOTABCD 8H KOT +10 10\n>b: KOTABCD 8Z KOT +10 10\n"
    resp = game.ReplayGame(game_pb2.ReplayGameRequest(rule_set="pl-scrabble", gcg=gcg), timeout=5)
    assert not resp.ok and "OFF_BOARD" in resp.lines[1].problems[0]
    path = tmp_path / "g.gcg"
    path.write_text(gcg, encoding="utf-8")
    assert main(["replay", str(path), "--rules", "pl-scrabble"]) == 1
    assert "OFF_BOARD" in capsys.readouterr().out
    assert main(["validate", "--rules", "pl-scrabble", "8Z KOT"]) == 1
    assert "invalid: OFF_BOARD" in capsys.readouterr().out
