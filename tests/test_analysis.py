"""`lexicon-service analyse` and `analyse_game`: the best move of each turn of a record beside the one
played, on tiny lexicons built into tmp_path (pl-scrabble with a move graph; a copy without one)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lexicon_service.cli import main
from lexicon_service.lexicon import load_lexicon
from lexicon_service.movegen import MoveGraphMissing, generate_moves
from lexicon_service.movegen.analysis import analyse_game
from lexicon_service.rules import load_rule_set, validate_move
from lexicon_service.rules.gcg import parse_gcg, read_gcg
from lexicon_service.rules.replay import replay
from movegen_helpers import without_move_graph
from test_service import WORDS, write_lexicon

DATA = Path(__file__).parent / "data" / "gcg"
RECORD = DATA / "pl-blank-premium.gcg"
WORDS_PL = WORDS["pl-scrabble"] + ["darwit", "zofer", "sofer", "kit", "nie", "łan", "łania"]


@pytest.fixture(scope="module")
def lexicon_dir(tmp_path_factory) -> Path:
    directory = tmp_path_factory.mktemp("analysis-lexicons") / "lex"
    directory.mkdir()
    write_lexicon(directory, "pl-scrabble", "pl-scrabble", WORDS_PL)
    without_move_graph(write_lexicon(directory, "pl-nograph", "pl-scrabble", WORDS_PL))
    write_lexicon(directory, "cs-kriskros", "cs-kriskros", WORDS["cs-kriskros"])
    return directory


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_each_turn_has_the_best_move_on_the_board_before_it(lexicon_dir):
    rule_set = load_rule_set("pl-scrabble")
    lexicon = load_lexicon(lexicon_dir / "pl-scrabble.lex")
    game = read_gcg(RECORD)
    turns = analyse_game(rule_set, game, lexicon)
    boards = []
    replay(rule_set, game, on_line=lambda line, board: boards.append(board.copy()))
    lines = {event.line: i for i, event in enumerate(game.events)}
    kinds = [e.kind for e in game.events if e.kind in ("play", "exchange", "pass")]
    assert [t.turn for t in turns] == list(range(1, len(kinds) + 1))
    for turn in turns:
        i = lines[turn.line]
        board = boards[i - 1] if i else None
        expected = generate_moves(rule_set, board, turn.rack, lexicon, limit=1)[0]
        assert (turn.best, turn.best_score) == (expected.play, expected.score)
        if not turn.best.startswith("-"):       # a play: legal where it is, scored as the rules score it
            result = validate_move(rule_set, board.copy() if board else None, turn.rack, turn.best, judge=lexicon)
            assert result.valid and result.score == turn.best_score, result.message
        if not turn.withdrawn:
            assert turn.given_away == turn.best_score - turn.played_score
    first = turns[0]
    assert (first.player, first.played, first.played_score) == ("Ala", "8B PRÓBUJE", 96)
    withdrawn = next(t for t in turns if t.withdrawn)
    assert withdrawn.played == "9F ...WIT" and withdrawn.given_away == withdrawn.best_score > 0


def test_json_is_one_object_per_turn_and_o_writes_an_annotated_record(capsys, lexicon_dir, tmp_path):
    out_gcg = tmp_path / "annotated.gcg"
    code, out, err = run(capsys, "analyse", str(RECORD), "-r", "pl-scrabble", "-l", "pl-scrabble",
                         "--lexicons", str(lexicon_dir), "--json", "-o", str(out_gcg))
    assert code == 0, err
    objects = [json.loads(line) for line in out.splitlines()]
    assert [o["turn"] for o in objects] == list(range(1, len(objects) + 1))
    for key in ("turn", "player", "played", "played_score", "best", "best_score", "given_away"):
        assert all(key in o for o in objects)
    annotated = parse_gcg(out_gcg.read_text(encoding="utf-8"))
    notes = [n for e in annotated.events for n in e.notes if n.startswith("analysis: ")]
    assert len(notes) == len(objects)
    assert f"analysis: best {objects[0]['best']} {objects[0]['best_score']:+d}" in notes[0]
    report = replay(load_rule_set("pl-scrabble"), annotated)       # the record itself is unchanged
    assert [line.expected_score for line in report.lines] == \
        [line.expected_score for line in replay(load_rule_set("pl-scrabble"), read_gcg(RECORD)).lines]
    code, text, _ = run(capsys, "analyse", str(RECORD), "-l", "pl-scrabble", "--lexicons", str(lexicon_dir))
    assert code == 0 and text.splitlines()[0].split()[:4] == ["turn", "player", "rack", "played"]
    assert f"{len(objects)} turns" in text


def test_turns_without_a_rack_say_so(capsys, lexicon_dir, tmp_path):
    record = tmp_path / "norack.gcg"
    record.write_text("#player1 A A\n#player2 B B\n>A: 8G KOT +10 10\n>B: - +0 0\n", encoding="utf-8")
    code, out, _ = run(capsys, "analyse", str(record), "-r", "pl-scrabble", "-l", "pl-scrabble",
                       "--lexicons", str(lexicon_dir), "--json")
    assert code == 0
    turns = [json.loads(line) for line in out.splitlines()]
    assert [t["best"] for t in turns] == [None, None] and turns[0]["note"] == "no rack in the record"


def test_a_lexicon_without_a_move_graph_or_for_other_rules_is_a_message(capsys, lexicon_dir):
    code, _, err = run(capsys, "analyse", str(RECORD), "-r", "pl-scrabble", "-l", "pl-nograph",
                       "--lexicons", str(lexicon_dir))
    assert code == 2 and "--move-graph-only" in err and "Traceback" not in err
    code, _, err = run(capsys, "analyse", str(RECORD), "-r", "pl-scrabble", "-l", "cs-kriskros",
                       "--lexicons", str(lexicon_dir))
    assert code == 2 and "cs-kriskros" in err and "Traceback" not in err
    with pytest.raises(MoveGraphMissing):
        analyse_game(load_rule_set("pl-scrabble"), read_gcg(RECORD), load_lexicon(lexicon_dir / "pl-nograph.lex"))
    code, _, err = run(capsys, "analyse", str(DATA / "no-such.gcg"), "-l", "pl-scrabble", "--lexicons", str(lexicon_dir))
    assert code == 2 and "no-such.gcg" in err
