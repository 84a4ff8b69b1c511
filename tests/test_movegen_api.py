"""GenerateMoves through every door: gRPC on a real in-process server, the JSON route, `lexicon-service
moves` and `client moves` (the same lines), errors (FAILED_PRECONDITION without a move graph,
INVALID_ARGUMENT naming the field) and the limits. Lexicons are tiny word lists built into tmp_path:
pl-scrabble with a move graph, cs-kriskros without one."""

from __future__ import annotations

import json
import time
from pathlib import Path

import grpc
import pytest
from google.protobuf import json_format
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from lexicon_service.cli import main
from lexicon_service.grpc_gen import game_pb2, game_pb2_grpc, lexicon_pb2, lexicon_pb2_grpc
from lexicon_service.server import Limits, create_server
from lexicon_service.server.server import FAST_METHODS, GAME_SERVICE
from movegen_helpers import without_move_graph
from test_http import LIMITS, http  # noqa: F401 - the JSON API fixture, over tests/conftest.py's `server`
from test_service import WORDS, write_lexicon

RACK = "KOTYPS?"
SERVER_OPTIONS = {"workers": 4, "limits": LIMITS}  # tests/conftest.py's `server`, on this module's lexicon_dir


@pytest.fixture(scope="module")
def lexicon_dir(tmp_path_factory) -> Path:
    directory = tmp_path_factory.mktemp("movegen-lexicons") / "lex"
    directory.mkdir()
    write_lexicon(directory, "pl-scrabble", "pl-scrabble", WORDS["pl-scrabble"])
    without_move_graph(write_lexicon(directory, "cs-kriskros", "cs-kriskros", WORDS["cs-kriskros"]))
    return directory


def generate(game, **fields):
    fields.setdefault("lexicon", "pl-scrabble")
    return game.GenerateMoves(game_pb2.GenerateMovesRequest(**fields), timeout=20)


def rpc_error(game, **fields) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as info:
        generate(game, **fields)
    return info.value


def violation_field(err: grpc.RpcError) -> str:
    bad = error_details_pb2.BadRequest()
    rpc_status.from_call(err).details[0].Unpack(bad)
    return bad.field_violations[0].field


def kind(move) -> str:
    return game_pb2.GeneratedMoveKind.Name(move.kind)


# --- gRPC ------------------------------------------------------------------------------------------
def test_moves_are_legal_and_scored_as_validate_move_scores_them(game):
    resp = generate(game, rack=RACK, limit=8, plays_only=True)
    assert resp.rule_set == "pl-scrabble" and resp.lexicon == "pl-scrabble"
    assert len(resp.moves) == 8 and resp.truncated
    scores = [m.score for m in resp.moves]
    assert scores == sorted(scores, reverse=True) and scores[0] > 0
    for move in resp.moves:
        assert kind(move) == "GENERATED_MOVE_KIND_PLAY"
        position, word = move.play.split(" ")
        check = game.ValidateMove(game_pb2.ValidateMoveRequest(
            lexicon="pl-scrabble", rack=RACK, play=game_pb2.Play(position=position, word=word)), timeout=10)
        assert check.valid, (move.play, check.message)
        assert check.total == move.score and check.rack_leave == move.leave
        assert list(move.words) == [w.word for w in check.words]
        assert move.tiles_used == len(RACK) - len(move.leave)


def test_exchanges_and_the_pass_unless_plays_only(game):
    kinds = {kind(m) for m in generate(game, rack="ŃOK").moves}
    assert kinds == {"GENERATED_MOVE_KIND_PLAY", "GENERATED_MOVE_KIND_EXCHANGE", "GENERATED_MOVE_KIND_PASS"}
    passes = [m for m in generate(game, rack="Ń").moves if kind(m) == "GENERATED_MOVE_KIND_PASS"]
    assert [(m.play, m.score, m.leave) for m in passes] == [("-", 0, "Ń")]
    assert not generate(game, rack="Ń", plays_only=True).moves


def test_setup_plays_and_board_rows_give_the_same_moves(game):
    placed = game.ScoreMove(game_pb2.ScoreMoveRequest(
        lexicon="pl-scrabble", play=game_pb2.Play(position="8E", word="PIES")), timeout=10)
    by_setup = generate(game, rack=RACK, setup=[game_pb2.Play(position="8E", word="PIES")], limit=20)
    by_rows = generate(game, rack=RACK, board=placed.board, limit=20)
    assert by_setup.moves == by_rows.moves and by_setup.moves
    assert by_setup.moves != generate(game, rack=RACK, limit=20).moves


def test_filters(game):
    long_only = generate(game, rack=RACK, min_length=4, plays_only=True, limit=0)
    assert long_only.moves and all(len(m.words[0]) >= 4 for m in long_only.moves)
    with_word = generate(game, rack=RACK, must_contain="KOT", plays_only=True, limit=0)
    assert with_word.moves and all("KOT" in m.words[0].upper() for m in with_word.moves)
    with_blank = generate(game, rack=RACK, must_use="?", plays_only=True, limit=0)
    assert with_blank.moves and all(any(c.islower() for c in m.play.split(" ")[1]) for m in with_blank.moves)


def test_a_lexicon_without_a_move_graph_is_failed_precondition(game):
    err = rpc_error(game, lexicon="cs-kriskros", rack="CHATA")
    assert err.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert "lexicon-build --move-graph-only" in err.details()
    assert "/" not in err.details().replace("LEXICON_DIR/NAME", "")  # no path of the server's files


@pytest.mark.parametrize("rack, problem", [
    ("KOTQ", "'Q'"),  # no such tile
    ("KOTABCDE", "8 tiles"),  # over the rack size
    ("KO???", "3 blanks"),  # over the set's blanks
    ("", "required"),
])
def test_a_bad_rack_is_invalid_argument_naming_rack(game, rack, problem):
    err = rpc_error(game, rack=rack)
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert err.details().startswith("rack: ") and problem in err.details()
    assert violation_field(err) == "rack"


def test_other_bad_input_names_its_field(game):
    cases = [
        (dict(rack=RACK, limit=LIMITS.max_results + 1), "limit"),
        (dict(rack=RACK, limit=-1), "limit"),
        (dict(rack=RACK, min_length=-1), "min_length"),
        (dict(rack=RACK, board=["." * 15] * 14), "board"),
        (dict(rack=RACK, setup=[game_pb2.Play(position="8A", word="KOT")]), "setup[0]"),
        (dict(rack=RACK, setup=[game_pb2.Play(position="8H", word="KOT"), game_pb2.Play(position="1A", word="KOT")]),
         "setup[1]"),
        (dict(rack=RACK, setup=[game_pb2.Play(position="8H")]), "setup[0].word"),
        (dict(rack=RACK, rule_set="cs-scrabble"), "rule_set"),
        (dict(rack=RACK, must_contain="K" * 65), "must_contain"),
        (dict(rack=RACK, must_contain="KQ"), "must_contain"),
        (dict(rack=RACK, must_use="Q"), "must_use"),
        (dict(rack=RACK, bag_count=-1), "bag_count"),
        (dict(rack=RACK, sort="length"), "sort"),
    ]
    for fields, name in cases:
        err = rpc_error(game, **fields)
        assert err.code() == grpc.StatusCode.INVALID_ARGUMENT, (fields, err.details())
        assert violation_field(err) == name, (fields, err.details())
        assert err.details().startswith(f"{name}: ") and not err.details().startswith(f"{name}: {name}:"), err.details()
    err = rpc_error(game, lexicon="en-scrabble", rack=RACK)
    assert err.code() == grpc.StatusCode.NOT_FOUND


def test_must_use_of_a_tile_the_rack_lacks_is_invalid_argument(game):
    """It was an empty answer, as if the rack could make no such play."""
    for must_use in ("KK", "Ź", "??"):
        err = rpc_error(game, rack=RACK, must_use=must_use)
        assert err.code() == grpc.StatusCode.INVALID_ARGUMENT, (must_use, err.details())
        assert violation_field(err) == "must_use" and "the rack" in err.details(), err.details()


def test_generation_is_bounded_in_time_and_runs_with_the_long_calls(lexicon_dir):
    assert "GenerateMoves" not in FAST_METHODS[GAME_SERVICE]
    srv, port = create_server("localhost:0", lexicon_dir, workers=2, limits=Limits(max_generate_seconds=0.0))
    srv.start()
    try:
        with grpc.insecure_channel(f"localhost:{port}") as ch:
            stub = game_pb2_grpc.GameServiceStub(ch)
            start = time.monotonic()
            err = rpc_error(stub, rack=RACK)
            assert err.code() == grpc.StatusCode.DEADLINE_EXCEEDED and "move generation" in err.details()
            assert time.monotonic() - start < 5
            limits = lexicon_pb2_grpc.LexiconServiceStub(ch).ListLexicons(
                lexicon_pb2.ListLexiconsRequest(), timeout=10).limits
            assert limits.max_generate_seconds == 0.0 and limits.max_results == Limits().max_results
    finally:
        srv.stop(None).wait()


def test_limits_are_published(channel):
    limits = lexicon_pb2_grpc.LexiconServiceStub(channel).ListLexicons(
        lexicon_pb2.ListLexiconsRequest(), timeout=10).limits
    assert limits.max_generate_seconds == LIMITS.max_generate_seconds > 0
    assert limits.max_results == LIMITS.max_results


# --- HTTP ------------------------------------------------------------------------------------------
def test_http_route_answers_as_grpc(http, game):
    body = {"lexicon": "pl-scrabble", "rack": RACK, "limit": 5, "setup": [{"position": "8E", "word": "PIES"}]}
    r = http.post("/v1/moves:generate", json=body)
    assert r.status_code == 200, r.text
    expected = generate(game, rack=RACK, limit=5, setup=[game_pb2.Play(position="8E", word="PIES")])
    assert r.json() == json_format.MessageToDict(expected, always_print_fields_with_no_presence=True)
    assert r.json()["moves"][0]["kind"] == "GENERATED_MOVE_KIND_PLAY"

    r = http.post("/v1/moves:generate", json={"lexicon": "cs-kriskros", "rack": "CHATA"})
    assert r.status_code == 400 and r.json()["error"]["status"] == "FAILED_PRECONDITION"
    r = http.post("/v1/moves:generate", json={"lexicon": "pl-scrabble", "rack": "KOTQ"})
    assert r.status_code == 400 and r.json()["error"]["message"].startswith("rack: ")
    spec = http.get("/openapi.json").json()
    assert spec["paths"]["/v1/moves:generate"]["post"]["operationId"] == "GenerateMoves"


# --- command line ----------------------------------------------------------------------------------
def cli(capsys, *argv) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_moves_local_and_client_print_the_same(server, lexicon_dir, capsys, tmp_path):
    local = ("moves", "--lexicons", str(lexicon_dir), "-l", "pl-scrabble")
    client = ("client", "--address", f"localhost:{server[1]}", "moves", "-l", "pl-scrabble")
    board = tmp_path / "board.txt"
    board.write_text("\n".join(generate_board()) + "\n", encoding="utf-8")
    for options in ([], ["-n", "3"], ["--json"], ["--setup", "8E PIES", "--json", "-n", "4"], ["-b", str(board)],
                    ["--min-length", "3", "--must-contain", "PSY", "--all"], ["--must-use", "?", "-r", "pl-scrabble"],
                    ["-r", "pl-scrabble", "--place", "H8 K", "--place", "C1 T", "-n", "5"]):
        code_l, out_l, err_l = cli(capsys, *local, "--rack", RACK, *options)
        code_c, out_c, err_c = cli(capsys, *client, "--rack", RACK, *options)
        assert (code_l, out_l) == (code_c, out_c) == (0, out_l), (options, err_l, err_c)
        lines = out_l.splitlines()
        if "-n" in options:
            assert len(lines) == int(options[options.index("-n") + 1])
        elif not options:
            assert len(lines) == 10  # the default
        if "--json" in options:
            first = json.loads(lines[0])
            assert set(first) == {"play", "score", "leave", "words"} and first["words"]
        else:
            play, score, leave = lines[0].split("\t")
            assert " " in play and int(score) > 0


def test_client_moves_all_is_bounded_by_the_server(server, lexicon_dir, capsys):
    code, out_l, _ = cli(capsys, "moves", "--lexicons", str(lexicon_dir), "-l", "pl-scrabble", "--rack", RACK, "--all")
    assert code == 0 and len(out_l.splitlines()) > LIMITS.max_results
    code, out_c, err = cli(capsys, "client", "--address", f"localhost:{server[1]}", "moves", "-l", "pl-scrabble",
                           "--rack", RACK, "--all")
    assert code == 0 and out_c.splitlines() == out_l.splitlines()[:LIMITS.max_results]
    assert f"at most {LIMITS.max_results}" in err


def generate_board() -> list[str]:
    rows = ["." * 15] * 15
    rows[7] = "....PIES......."
    return rows


def test_moves_exit_status(server, lexicon_dir, capsys):
    local = ("moves", "--lexicons", str(lexicon_dir))
    client = ("client", "--address", f"localhost:{server[1]}", "moves")
    for prefix in (local, client):
        code, out, _ = cli(capsys, *prefix, "-l", "pl-scrabble", "--rack", "Ń")  # no play: the pass, an exchange
        assert code == 1 and "-\t0\tŃ" in out.splitlines()
        code, _, err = cli(capsys, *prefix, "-l", "cs-kriskros", "--rack", "CHATA")
        assert code == 2 and "move graph" in err
        code, _, err = cli(capsys, *prefix, "-l", "pl-scrabble", "--rack", "KO???")
        assert code == 2 and "rack" in err
        code, _, err = cli(capsys, *prefix, "-l", "pl-scrabble", "--rack", RACK, "--setup", "8A KOT")
        assert code == 2 and "setup" in err


def test_client_json_before_the_call_prints_json_lines(server, capsys):
    code, out, _ = cli(capsys, "client", "--json", "--address", f"localhost:{server[1]}", "moves", "-l", "pl-scrabble",
                       "--rack", RACK, "-n", "2")
    assert code == 0 and [set(json.loads(line)) for line in out.splitlines()] == [{"play", "score", "leave", "words"}] * 2


def test_a_rack_with_a_tile_the_board_leaves_none_of_is_refused_as_validate_refuses_playing_it(game):
    """Two blanks on the board: a third on the rack cannot exist. ValidateMove refuses a play of it
    (TOO_MANY_BLANKS); GenerateMoves refuses the rack, not listing exchanges of a tile that is not there."""
    setup = [game_pb2.Play(position="8G", word="KoT"), game_pb2.Play(position="G7", word="aKA")]
    err = rpc_error(game, rack="?KOTAB", setup=setup)
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT and violation_field(err) == "rack"
    assert "TOO_MANY_BLANKS" in err.details() and "1 blank, 2 on the board" in err.details(), err.details()
    err = rpc_error(game, rack="ŹKOTAB", setup=[game_pb2.Play(position="8G", word="ŹLE")])  # one Ź in the set
    assert "TILE_COUNT_EXCEEDED" in err.details() and "1 Ź, 1 on the board" in err.details(), err.details()
    assert generate(game, rack="?KOTAB", setup=setup[:1]).moves  # one blank on the board: the second exists
