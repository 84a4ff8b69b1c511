"""One answer for a play off the board: a server game refuses it as ValidateMove judges it."""

from __future__ import annotations

import grpc
import pytest

from lexicon_service.grpc_gen import game_pb2, game_pb2_grpc
from lexicon_service.rules import load_rule_set
from lexicon_service.server import create_server
from tests.game_helpers import create, tile_text, tiles_of, two_tile_lexicons


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    base = tmp_path_factory.mktemp("off-board")
    srv, port = create_server("localhost:0", two_tile_lexicons(base, ["pl-scrabble"]), games_db=str(base / "g.db"))
    srv.start()
    yield port
    srv.stop(None).wait()


def test_an_off_board_play_gets_validate_moves_reason_in_a_game(server):
    port = server
    rs = load_rule_set("pl-scrabble")
    _, (ann, _bob), _ = create(port, "pl-scrabble", seed=1)
    start = ann.get()
    word = "".join(tile_text(t, rs) for t in tiles_of(rs, start.rack)[:3])
    with grpc.insecure_channel(f"localhost:{port}") as ch:
        judge = game_pb2_grpc.GameServiceStub(ch)
        for position in ("8O", "8N", "Z1", "16A", "H14"):  # running off the edge, or a square that is not there
            answer = judge.ValidateMove(game_pb2.ValidateMoveRequest(
                lexicon="pl-scrabble", rack=start.rack, play=game_pb2.Play(position=position, word=word)), timeout=5)
            assert not answer.valid and answer.reason == "OFF_BOARD"
            with pytest.raises(grpc.RpcError) as info:
                ann.play(f"{position} {word}")
            err = info.value
            assert err.code() == grpc.StatusCode.FAILED_PRECONDITION, (position, err.code(), err.details())
            assert dict(err.trailing_metadata())["lexicon-reason"] == "OFF_BOARD"
            assert err.details() == f"OFF_BOARD: {answer.message}"
    assert ann.get().version == start.version
