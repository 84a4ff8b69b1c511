"""`lexicon-service analyse` and `analyse_game`: the best move of each turn of a record beside the one
played, on tiny lexicons built into tmp_path (pl-scrabble with a move graph; a copy without one)."""

from __future__ import annotations

import json
from pathlib import Path

import grpc
import pytest
from google.protobuf import json_format

from lexicon_service.cli import main
from lexicon_service.grpc_gen import game_pb2, game_pb2_grpc
from lexicon_service.lexicon import load_lexicon
from lexicon_service.movegen import MoveGraphMissing, generate_moves
from lexicon_service.movegen.analysis import analyse_game
from lexicon_service.rules import load_rule_set, validate_move
from lexicon_service.rules.gcg import parse_gcg, read_gcg
from lexicon_service.rules.replay import replay
from lexicon_service.server import Limits, create_server
from movegen_helpers import without_move_graph
from test_http import LIMITS, http  # noqa: F401 - the JSON API fixture, over tests/conftest.py's `server`
from test_service import WORDS, write_lexicon

DATA = Path(__file__).parent / "data" / "gcg"
RECORD = DATA / "pl-blank-premium.gcg"
SERVER_OPTIONS = {"workers": 4, "limits": LIMITS}  # tests/conftest.py's `server`, on this module's lexicon_dir
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
            result = validate_move(rule_set, board.copy() if board else None, turn.rack, turn.best, lexicon=lexicon)
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


def test_a_turns_note_is_data_too_each_part_with_its_code(lexicon_dir):
    """TurnAnalysis.notes (AnalyseGame's note_details): the analysis's own reason and the line's replay
    problems as codes with values, whose texts joined are `note`, so that a page can say each in its language;
    a part may hold "; " itself (a refused rack's reason)."""
    from lexicon_service.core.messages import turn_analysis

    record = ("#player1 a A\n#player2 b B\n>a: KOTAAAA 8G KOT +9 9\n>b: 8F ZA +4 4\n"
              ">a: AAAA?????? 9G A +2 11\n")
    lexicon = load_lexicon(lexicon_dir / "pl-scrabble.lex")
    turns = analyse_game(load_rule_set("pl-scrabble"), parse_gcg(record), lexicon)
    assert [n.code for n in turns[1].notes] == ["no-rack-in-record", "illegal-play"]
    assert turns[1].notes[1].values["reason"] == "PLAY_MISMATCH"
    assert [n.code for n in turns[2].notes] == ["rack-not-searched", "rack-tiles-gone", "score-mismatch"]
    assert turns[2].notes[0].values == {"rack": "AAAA??????"} and "; " in turns[2].notes[0]
    assert turns[2].notes[2].values == {"recorded": "+2", "computed": "+4"}
    for turn in turns:
        message = turn_analysis(turn)
        assert "; ".join(d.text for d in message.note_details) == message.note == turn.note
    assert "notes" not in turns[1].as_dict()  # --json keeps the English `note`
    lexicon.close()


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


# --- AnalyseGame over gRPC and HTTP ------------------------------------------------------------------
@pytest.fixture(scope="module")
def game(server):
    with grpc.insecure_channel(f"localhost:{server[1]}") as channel:
        yield game_pb2_grpc.GameServiceStub(channel)


def analyse_rpc(game, **fields):
    return game.AnalyseGame(game_pb2.AnalyseGameRequest(**fields), timeout=20)


def rpc_code(game, **fields):
    with pytest.raises(grpc.RpcError) as info:
        analyse_rpc(game, **fields)
    return info.value.code(), info.value.details()


def test_the_rpc_answers_as_the_function(game, lexicon_dir):
    text = RECORD.read_text(encoding="utf-8")
    resp = analyse_rpc(game, lexicon="pl-scrabble", gcg=text)
    turns = analyse_game(load_rule_set("pl-scrabble"), parse_gcg(text), load_lexicon(lexicon_dir / "pl-scrabble.lex"))
    assert [(t.turn, t.player, t.played, t.best, t.best_score, t.given_away, t.withdrawn) for t in resp.turns] == \
        [(t.turn, t.player, t.played, t.best, t.best_score, t.given_away, t.withdrawn) for t in turns]
    assert resp.rule_set == "pl-scrabble" and "#note analysis: best " in resp.annotated_gcg
    assert not resp.turns[0].HasField("given_away") or resp.turns[0].given_away == turns[0].given_away


def test_bad_requests_name_the_field_and_change_nothing(game):
    text = RECORD.read_text(encoding="utf-8")
    code, details = rpc_code(game, lexicon="pl-nograph", gcg=text)
    assert code == grpc.StatusCode.FAILED_PRECONDITION and "--move-graph-only" in details
    code, details = rpc_code(game, lexicon="cs-kriskros", gcg=text)
    assert code == grpc.StatusCode.INVALID_ARGUMENT and details.startswith("gcg: ")
    code, details = rpc_code(game, lexicon="pl-scrabble", gcg="")
    assert code == grpc.StatusCode.INVALID_ARGUMENT and details.startswith("gcg: ")
    code, details = rpc_code(game, gcg=text)
    assert code == grpc.StatusCode.INVALID_ARGUMENT and details.startswith("lexicon")
    code, _ = rpc_code(game, lexicon="nope", gcg=text)
    assert code == grpc.StatusCode.NOT_FOUND
    too_long = "\n".join(["#player1 a A"] + [">a: - +0 0"] * LIMITS.max_gcg_lines)
    code, details = rpc_code(game, lexicon="pl-scrabble", gcg=too_long)
    assert code == grpc.StatusCode.INVALID_ARGUMENT and details.startswith(f"gcg: {LIMITS.max_gcg_lines + 1} lines")


def test_the_http_route_answers_as_grpc(http, game):
    text = RECORD.read_text(encoding="utf-8")
    r = http.post("/v1/games:analyse", json={"gcg": text, "lexicon": "pl-scrabble"})
    assert r.status_code == 200, r.text
    assert r.json() == json_format.MessageToDict(analyse_rpc(game, lexicon="pl-scrabble", gcg=text),
                                                 always_print_fields_with_no_presence=True)
    r = http.post("/v1/games:analyse", json={"gcg": text, "lexicon": "pl-nograph"})
    assert r.status_code == 400 and r.json()["error"]["status"] == "FAILED_PRECONDITION"
    assert http.get("/openapi.json").json()["paths"]["/v1/games:analyse"]["post"]["operationId"] == "AnalyseGame"


def test_the_game_viewer_shows_each_turns_best_play(http, game):
    text = RECORD.read_text(encoding="utf-8")
    view = http.post("/v1/games:view", json={"gcg": text, "lexicon": "pl-scrabble"}).json()
    turns = analyse_rpc(game, lexicon="pl-scrabble", gcg=text).turns
    steps = [step for step in view["steps"] if step["best"] is not None]
    assert [step["best"]["best"] for step in steps] == [t.best for t in turns]
    first = steps[0]["best"]                         # the first play, on the empty board
    assert first["bestScore"] == turns[0].best_score
    squares = first["bestSquares"]
    assert squares and all(first["bestBoard"][r][c] for r, c in squares)
    assert sum(1 for row in first["bestBoard"] for cell in row if cell) == len(squares)
    # no lexicon, or one without a move graph: the viewer as before, no analysis
    for body in ({"gcg": text}, {"gcg": text, "lexicon": "pl-nograph"}):
        plain = http.post("/v1/games:view", json=body)
        assert plain.status_code == 200 and all(step["best"] is None for step in plain.json()["steps"])


def test_the_analysis_is_bounded_in_time(lexicon_dir):
    srv, port = create_server("localhost:0", lexicon_dir, workers=2, limits=Limits(max_generate_seconds=0.0))
    srv.start()
    try:
        with grpc.insecure_channel(f"localhost:{port}") as channel:
            stub = game_pb2_grpc.GameServiceStub(channel)
            code, details = rpc_code(stub, lexicon="pl-scrabble", gcg=RECORD.read_text(encoding="utf-8"))
            assert code == grpc.StatusCode.DEADLINE_EXCEEDED and "game analysis (at most 0 s" in details
    finally:
        srv.stop(None).wait()
