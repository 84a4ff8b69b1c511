"""Moves at the table, through a real server on loopback: what the server decides from the racks with the
move graph (the Kris Kros start redraw, the end when nobody can move).

The Kris Kros lexicon here has one word, XÓ: most racks cannot make it, and once it stands nobody can
make a word again (a word may not stand twice). Seeds are chosen for the deal they give."""

from __future__ import annotations

import json
from pathlib import Path

import grpc
import httpx
import pytest

from lexicon_service.cli import main
from lexicon_service.grpc_gen import game_pb2, session_pb2
from lexicon_service.http import HttpServer, create_app
from lexicon_service import rulesets
from lexicon_service.lexicon import load_lexicon
from lexicon_service.movegen import has_move
from lexicon_service.rules import Board, load_rule_set, parse_gcg, replay
from lexicon_service.rules.game import NOTE_BLOCKED, NOTE_REDRAWN
from lexicon_service.server import create_server
from movegen_helpers import without_move_graph
from test_service import write_lexicon
from tests.game_helpers import FakeClock, Player, create

WORDS = ["xó"]
KRISKROS = Path(rulesets.__file__).parent / "cs-kriskros.rules"
BLOCKED_SEED = 17  # the first two deals give nobody an X and an Ó (or blanks); the third gives Ann XÓ


@pytest.fixture(scope="module")
def lexicon_dir(tmp_path_factory) -> Path:
    directory = tmp_path_factory.mktemp("table-lexicons") / "lex"
    directory.mkdir()
    write_lexicon(directory, "cs-kriskros", "cs-kriskros", WORDS)
    strict = directory.parent / "kk-strict.rules"  # Kris Kros with "dál" read strictly
    strict.write_text(KRISKROS.read_text(encoding="utf-8").replace("pass-only-when-blocked = no",
                                                                   "pass-only-when-blocked = yes"), encoding="utf-8")
    write_lexicon(directory, "kk-strict", str(strict), WORDS)
    closed = directory.parent / "kk-no-exchange.rules"  # Kris Kros where no exchange can bring a new word
    closed.write_text(KRISKROS.read_text(encoding="utf-8").replace("[exchange]\nallowed = yes",
                                                                   "[exchange]\nallowed = no"), encoding="utf-8")
    assert "allowed = no" in closed.read_text(encoding="utf-8")
    write_lexicon(directory, "kk-no-exchange", str(closed), WORDS)
    without_move_graph(write_lexicon(directory, "kk-no-graph", "cs-kriskros", WORDS))
    return directory


@pytest.fixture
def server(lexicon_dir, tmp_path):
    """A real server on the requesting module's `lexicon_dir`, with a games database and a fake clock."""
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


def test_a_blocked_game_goes_on_while_an_exchange_could_still_bring_a_word(server):
    _, port = server
    created, (ann, bob), director = create(port, "cs-kriskros", seed=BLOCKED_SEED)
    ann.play("8H XÓ")
    answer = bob.pass_()  # nobody can play, but the bag is full and Kris Kros exchanges at any time
    assert answer.game.status == session_pb2.GAME_STATUS_PLAYING
    assert NOTE_BLOCKED not in director.record()


def test_a_game_whose_racks_go_dead_ends_by_itself_and_replays(server, lexicon_dir):
    _, port = server
    created, (ann, bob), director = create(port, "kk-no-exchange", seed=BLOCKED_SEED)
    ann.play("8H XÓ")
    # the play may still be challenged: the game goes on until Bob's turn is over
    assert bob.get().status == session_pb2.GAME_STATUS_PLAYING
    answer = bob.pass_()
    assert answer.game.status == session_pb2.GAME_STATUS_ENDED
    assert answer.game.end_reason == "blocked"
    gcg = director.record()
    assert f"#note {NOTE_BLOCKED}" in gcg
    lexicon = load_lexicon(lexicon_dir / "kk-no-exchange.lex")
    report = replay(lexicon.rule_set, parse_gcg(gcg), lexicon=lexicon)
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


def test_a_pass_claiming_no_move_is_refused_where_the_rule_set_says_so(server):
    _, port = server
    created, (ann, bob), director = create(port, "kk-strict", seed=BLOCKED_SEED)
    with pytest.raises(grpc.RpcError) as info:
        ann.pass_()  # Ann's rack makes XÓ
    assert info.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert dict(info.value.trailing_metadata())["lexicon-reason"] == "CAN_MOVE"
    assert "pass-only-when-blocked" in info.value.details()
    ann.play("8H XÓ")
    answer = bob.pass_()  # Bob cannot play: his pass stands (the game goes on: an exchange may still help)
    assert answer.game.last_move == "Bob: pass" and answer.game.turn == 0
    # the shipped Kris Kros rule set lets a player pass at any time (RULES.md)
    created, (ann, bob), director = create(port, "cs-kriskros", seed=BLOCKED_SEED)
    assert ann.pass_().game.turn == 1


# --- hints -------------------------------------------------------------------------------------------------
def hint(player, limit=0):
    return player.stub.GetHint(session_pb2.GetHintRequest(game_id=player.game_id, limit=limit), metadata=player.md,
                               timeout=10)


def test_hints_answer_the_asking_players_own_rack_and_leave_no_trace(server):
    _, port = server
    created, (ann, bob), director = create(port, "cs-kriskros", seed=BLOCKED_SEED, allow_hints=True)
    assert ann.get().hints_allowed
    before = director.record()
    mine = hint(ann)
    assert mine.rack == ann.get().rack and mine.version == created.version
    assert mine.moves[0].kind == game_pb2.GENERATED_MOVE_KIND_PLAY and list(mine.moves[0].words) == ["XÓ"]
    assert len(mine.moves) == 5
    assert len(hint(ann, limit=2).moves) == 2
    theirs = hint(bob)  # Bob's rack makes no word: an exchange or the pass, never Ann's play
    assert theirs.rack == bob.get().rack
    assert all(m.kind != game_pb2.GENERATED_MOVE_KIND_PLAY for m in theirs.moves)
    # nothing stored: the version, the record and the event stream are as before
    assert ann.get().version == created.version and director.record() == before
    ann.play(mine.moves[0].play)
    assert bob.get().version == created.version + 1


def test_hints_refused_with_a_status_naming_the_option_or_field(server):
    _, port = server
    created, (ann, bob), director = create(port, "cs-kriskros", seed=BLOCKED_SEED)
    assert not ann.get().hints_allowed
    with pytest.raises(grpc.RpcError) as info:
        hint(ann)
    assert info.value.code() == grpc.StatusCode.FAILED_PRECONDITION and "allow_hints" in info.value.details()
    assert dict(info.value.trailing_metadata())["lexicon-reason"] == "HINTS_NOT_ALLOWED"
    created, (ann, bob), director = create(port, "cs-kriskros", seed=BLOCKED_SEED, allow_hints=True)
    for player, code in ((director, grpc.StatusCode.PERMISSION_DENIED),
                         (Player(port, ann.game_id, ""), grpc.StatusCode.UNAUTHENTICATED)):
        with pytest.raises(grpc.RpcError) as info:
            hint(player)
        assert info.value.code() == code
    with pytest.raises(grpc.RpcError) as info:
        hint(ann, limit=21)
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT and info.value.details().startswith("limit")
    created, (ann, bob), director = create(port, "kk-no-graph", seed=BLOCKED_SEED, allow_hints=True)
    with pytest.raises(grpc.RpcError) as info:
        hint(ann)
    assert info.value.code() == grpc.StatusCode.FAILED_PRECONDITION and "move graph" in info.value.details()


def test_hints_from_the_cli(server, capsys):
    _, port = server
    address = ["client", "--address", f"localhost:{port}", "game"]
    assert main([*address, "create", "-l", "cs-kriskros", "Ann", "Bob", "--seed", str(BLOCKED_SEED),
                 "--allow-hints", "--json"]) == 0
    created = json.loads(capsys.readouterr().out)
    ann = created["playerTokens"][0]
    assert main([*address, "hint", created["gameId"], "--limit", "1", f"--game-token={ann}"]) == 0
    out = capsys.readouterr().out
    assert "XÓ" in out and len(out.strip().splitlines()) == 2


def test_hints_over_http(server):
    srv, _ = server
    web = HttpServer(create_app(srv.registry, servicers={"session": srv.game_sessions}), "localhost:0").start()
    try:
        with httpx.Client(base_url=web.url, timeout=10) as http:
            r = http.post("/v1/games", json={"lexicon": "cs-kriskros", "playerNames": ["Ann", "Bob"],
                                             "seed": BLOCKED_SEED, "allowHints": True})
            assert r.status_code == 200, r.text
            game = r.json()
            ann = {"Authorization": f"Bearer {game['playerTokens'][0]}"}
            r = http.get(f"/v1/games/{game['gameId']}/hint", params={"limit": 1}, headers=ann)
            assert r.status_code == 200, r.text
            assert [m["words"] for m in r.json()["moves"]] == [["XÓ"]]
            r = http.get(f"/v1/games/{game['gameId']}/hint", headers=ann | {"Authorization": ""})
            assert r.status_code in (400, 401), r.text
    finally:
        web.stop()


def test_computers_on_a_dead_board_pass_after_a_scoreless_round_and_the_game_ends(server):
    # Kris Kros lets anyone exchange at any time and has no scoreless-turn limit: computers that kept
    # exchanging on a board where no word can ever be made would play for ever
    import time
    _, port = server
    robots = [session_pb2.ComputerPlayer(seat=0), session_pb2.ComputerPlayer(seat=1)]
    created, _, director = create(port, "cs-kriskros", names=("R1", "R2"), seed=BLOCKED_SEED,
                                  computer_players=robots)
    deadline = time.monotonic() + 20
    while director.get().status != session_pb2.GAME_STATUS_ENDED and time.monotonic() < deadline:
        time.sleep(0.05)
    game = director.get()
    assert game.status == session_pb2.GAME_STATUS_ENDED and game.end_reason == "passes", game
    assert game.version < 20
