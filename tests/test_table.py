"""Moves at the table, through a real server on loopback: what the server decides from the racks with the
move graph (the Kris Kros start redraw, the end when nobody can move).

The Kris Kros lexicon here has one word, XÓ: most racks cannot make it, and once it stands nobody can
make a word again (a word may not stand twice). Seeds are chosen for the deal they give."""

from __future__ import annotations

from pathlib import Path

import pytest

from lexicon_service.grpc_gen import session_pb2
from lexicon_service.lexicon import load_lexicon
from lexicon_service.movegen import has_move
from lexicon_service.rules import Board, load_rule_set, parse_gcg, replay
from lexicon_service.rules.game import NOTE_BLOCKED, NOTE_REDRAWN
from lexicon_service.server import create_server
from movegen_helpers import without_move_graph
from test_service import write_lexicon
from tests.game_helpers import FakeClock, create

WORDS = ["xó"]
BLOCKED_SEED = 17  # the first two deals give nobody an X and an Ó (or blanks); the third gives Ann XÓ


@pytest.fixture(scope="module")
def lexicon_dir(tmp_path_factory) -> Path:
    directory = tmp_path_factory.mktemp("table-lexicons") / "lex"
    directory.mkdir()
    write_lexicon(directory, "cs-kriskros", "cs-kriskros", WORDS)
    without_move_graph(write_lexicon(directory, "kk-no-graph", "cs-kriskros", WORDS))
    return directory


@pytest.fixture
def server(lexicon_dir, tmp_path):
    srv, port = create_server("localhost:0", lexicon_dir, games_db=str(tmp_path / "games.db"),
                              game_clock=FakeClock())
    srv.start()
    yield srv, port
    srv.stop(None).wait()


def _board(lexicon, game) -> Board:
    return Board.from_rows(lexicon.rule_set, list(game.board))


def test_kriskros_start_where_nobody_can_move_redraws_by_itself(server, lexicon_dir):
    _, port = server
    lexicon = load_lexicon(lexicon_dir / "cs-kriskros.lex")
    rs = lexicon.rule_set
    created, (ann, bob), director = create(port, "cs-kriskros", seed=BLOCKED_SEED)
    assert created.version == 3  # created, then two redraws, without a move
    racks = [ann.get().rack, bob.get().rack]
    board = _board(lexicon, ann.get())
    assert [has_move(rs, board, rack, lexicon) for rack in racks] == [True, False]
    gcg = director.record()
    assert gcg.count(f"#note {NOTE_REDRAWN}") == 2
    assert ann.get().status == session_pb2.GAME_STATUS_PLAYING and ann.get().turn == 0


def test_a_game_whose_racks_go_dead_ends_by_itself_and_replays(server, lexicon_dir):
    _, port = server
    created, (ann, bob), director = create(port, "cs-kriskros", seed=BLOCKED_SEED)
    ann.play("8H XÓ")
    # the play may still be challenged: the game goes on until Bob's turn is over
    assert bob.get().status == session_pb2.GAME_STATUS_PLAYING
    answer = bob.pass_()
    assert answer.game.status == session_pb2.GAME_STATUS_ENDED
    assert answer.game.end_reason == "blocked"
    gcg = director.record()
    assert f"#note {NOTE_BLOCKED}" in gcg
    report = replay(load_rule_set("cs-kriskros"), parse_gcg(gcg),
                    judge=load_lexicon(lexicon_dir / "cs-kriskros.lex"))
    assert report.ok, [(line.event.text, line.problems) for line in report.disagreements]
    assert any("nobody could make a play" in note for note in report.notes), report.notes


def test_a_lexicon_without_a_move_graph_keeps_the_players_deciding(server):
    _, port = server
    created, (ann, bob), director = create(port, "kk-no-graph", seed=BLOCKED_SEED)
    assert created.version == 1
    assert NOTE_REDRAWN not in director.record()
    ann.pass_()
    answer = bob.pass_()  # a round of passes before any play: the redraw as before
    assert answer.game.status == session_pb2.GAME_STATUS_PLAYING
    assert NOTE_REDRAWN in director.record()
