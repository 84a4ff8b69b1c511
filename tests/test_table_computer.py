"""Computer players at the table, through a real server on loopback: a whole human-vs-computer game played
from the command line, the levels (seeded: the same moves every time), the requests refused, and the
computer's challenges (a phony challenged off under every challenge rule, a valid play never challenged)."""

from __future__ import annotations

import itertools
import json
import random
import re
import time
from pathlib import Path

import grpc
import pytest

from lexicon_service.cli import main
from lexicon_service.games.computer import ALL_LEVELS, LEVELS, NEEDS_LEAVES, choose_move
from lexicon_service.grpc_gen import session_pb2
from lexicon_service.lexicon import load_lexicon
from lexicon_service.movegen import generate_moves
from lexicon_service.rules import Board, load_rule_set, parse_gcg, replay
from movegen_helpers import without_move_graph
from lexicon_helpers import write_ab_lexicon
from test_service import write_lexicon
from test_table import server  # noqa: F401 - a real server on this module's lexicon_dir
from tests.game_helpers import create, tile_text, tiles_of, two_tile_play, two_tile_words

# every two-tile and every three-tile word: games that run a while
TWO = two_tile_words("pl-scrabble")
WORDS = TWO + ["".join(w) for w in itertools.product(sorted(set("".join(TWO))), repeat=3)]


@pytest.fixture(scope="module")
def lexicon_dir(tmp_path_factory) -> Path:
    directory = tmp_path_factory.mktemp("computer-lexicons") / "lex"
    directory.mkdir()
    write_lexicon(directory, "pl-scrabble", "pl-scrabble", WORDS)
    write_lexicon(directory, "cs-kriskros", "cs-kriskros", two_tile_words("cs-kriskros"))
    # Polish Scrabble with 14 tiles, A and B: both racks full and the bag empty from the start
    write_ab_lexicon(directory, ["aa", "ab", "ba", "bb"])
    without_move_graph(write_lexicon(directory, "pl-no-graph", "pl-scrabble", ["kot", "pies"]))
    return directory


def cli_json(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out)


def test_a_human_plays_a_whole_game_against_the_computer_from_the_cli(server, lexicon_dir, capsys):
    _, port = server
    client = ["client", "--address", f"localhost:{port}", "--json", "game"]
    created = cli_json(capsys, *client, "create", "-l", "pl-scrabble", "Ann", "Robot", "--computer", "Robot:best",
                       "--seed", "7", "--allow-hints")
    game_id, ann = created["gameId"], f"--game-token={created['playerTokens'][0]}"
    assert created["playerTokens"][1] == ""  # nobody can move for the computer
    moves = 0
    for _ in range(400):
        game = cli_json(capsys, *client, "show", game_id, ann)
        if game.get("status") == "GAME_STATUS_ENDED":
            break
        if game.get("turn", 0) != 0:
            time.sleep(0.02)  # the computer moves off the request path
            continue
        assert game["players"][1]["computerLevel"] == "best"
        best = cli_json(capsys, *client, "hint", game_id, ann, "--limit", "1")["moves"][0]
        if best.get("kind") == "GENERATED_MOVE_KIND_PLAY":
            position, word = best["play"].split()
            cli_json(capsys, *client, "play", game_id, position, word, ann)
        elif best.get("kind") == "GENERATED_MOVE_KIND_EXCHANGE":
            cli_json(capsys, *client, "exchange", game_id, best["play"][1:], ann)
        else:
            cli_json(capsys, *client, "pass", game_id, ann)
        moves += 1
    else:
        pytest.fail("the game did not end")
    record = cli_json(capsys, *client, "record", game_id, ann)["gcg"]
    robot = [line for line in record.splitlines() if line.startswith(">Robot:")]
    # a play, and once the board is closed (only words of two and three tiles) the whole rack exchanged
    assert any("+" in line and " -" not in line for line in robot) and any(" -" in line for line in robot), record
    assert moves >= 3 and game["endReason"], (game, record)
    report = replay(load_rule_set("pl-scrabble"), parse_gcg(record), lexicon=load_lexicon(lexicon_dir / "pl-scrabble.lex"))
    assert report.ok, [(line.event.text, line.problems) for line in report.disagreements]


def test_levels_choose_lower_ranked_plays_the_same_for_a_seed(lexicon_dir):
    lexicon = load_lexicon(lexicon_dir / "pl-scrabble.lex")
    rs = lexicon.rule_set
    board = Board.empty(rs)
    rack = "KOTAPIE"
    ranked = [m.play for m in generate_moves(rs, board, rack, lexicon) if m.kind == "play"]
    assert choose_move(rs, board, rack, 80, lexicon, "best", random.Random(1)).play == ranked[0]
    for level, (first, end) in LEVELS.items():
        picks = {choose_move(rs, board, rack, 80, lexicon, level, random.Random(seed)).play for seed in range(20)}
        assert picks <= set(ranked[first:end])
        again = {choose_move(rs, board, rack, 80, lexicon, level, random.Random(seed)).play for seed in range(20)}
        assert picks == again
    assert ranked[0] not in {choose_move(rs, board, rack, 80, lexicon, "beginner", random.Random(s)).play
                             for s in range(20)}


def test_no_play_exchanges_or_passes(lexicon_dir):
    pl = load_lexicon(lexicon_dir / "pl-scrabble.lex")
    rs = pl.rule_set
    full = Board.from_rows(rs, ["A" * 15] * 15)  # no square left to play on
    move = choose_move(rs, full, "KOT", 50, pl, "best", random.Random(1))
    assert move.kind == "exchange" and move.tiles_used == 3
    assert choose_move(rs, full, "KOT", 0, pl, "best", random.Random(1)).kind == "pass"  # no bag to exchange with
    assert choose_move(rs, Board.empty(rs), "KOT", 50, pl, "best", random.Random(1)).kind == "play"


def test_no_play_with_a_small_bag_exchanges_what_the_bag_allows(lexicon_dir):
    """Kris Kros exchanges any number of tiles at any time, but no more than the bag holds: a computer
    without a play and three tiles in the bag gives its three tiles worth most points (it passed)."""
    kk = load_lexicon(lexicon_dir / "cs-kriskros.lex")
    rs = kk.rule_set
    full = Board.from_rows(rs, ["A" * 15] * 15)
    rack = "KOTXYZŽ?"
    move = choose_move(rs, full, rack, 3, kk, "best", random.Random(1))
    assert (move.kind, move.play, move.leave, move.tiles_used) == ("exchange", "-XZŽ", "KOTY?", 3)
    assert choose_move(rs, full, rack, 8, kk, "club", random.Random(1)).play == "-" + rack  # the whole rack
    assert choose_move(rs, full, rack, 0, kk, "best", random.Random(1)).kind == "pass"
    assert choose_move(rs, full, rack, 3, kk, "best", random.Random(1), may_exchange=False).kind == "pass"


def test_computer_seats_refused_with_the_field_named(server):
    _, port = server
    cases = [
        (dict(lexicon="pl-no-graph", computer_players=[session_pb2.ComputerPlayer(seat=1)]),
         grpc.StatusCode.FAILED_PRECONDITION, "computer_players"),
        (dict(lexicon="pl-scrabble", computer_players=[session_pb2.ComputerPlayer(seat=2)]),
         grpc.StatusCode.INVALID_ARGUMENT, "computer_players[0].seat"),
        (dict(lexicon="pl-scrabble", computer_players=[session_pb2.ComputerPlayer(seat=1, level="god")]),
         grpc.StatusCode.INVALID_ARGUMENT, "computer_players[0].level"),
        (dict(lexicon="pl-scrabble", computer_players=[session_pb2.ComputerPlayer(seat=0),
                                                       session_pb2.ComputerPlayer(seat=0)]),
         grpc.StatusCode.INVALID_ARGUMENT, "computer_players[1].seat"),
    ]
    for fields, code, field in cases:
        lexicon = fields.pop("lexicon")
        with pytest.raises(grpc.RpcError) as info:
            create(port, lexicon, **fields)
        assert info.value.code() == code and f"{field}:" in info.value.details(), info.value.details()


def test_a_computer_in_the_first_seat_opens_by_itself(server):
    _, port = server
    created, (robot, ann), _ = create(port, "pl-scrabble", names=("Robot", "Ann"), seed=3,
                                      computer_players=[session_pb2.ComputerPlayer(seat=0, level="beginner")])
    assert created.player_tokens[0] == ""
    deadline = time.monotonic() + 10
    while ann.get().turn != 1 and time.monotonic() < deadline:
        time.sleep(0.02)
    game = ann.get()
    assert game.turn == 1 and game.players[0].computer_level == "beginner" and game.players[0].score > 0


def _computer_game(port, lexicon="pl-scrabble", rule=session_pb2.CHALLENGE_RULE_UNSPECIFIED, seed=5):
    """Ann against the computer (seat 1); Ann's player."""
    _, (ann, _), _ = create(port, lexicon, names=("Ann", "Robot"), seed=seed, challenge_rule=rule,
                            computer_players=[session_pb2.ComputerPlayer(seat=1)])
    return ann


def _phony(rule_set, rack: str) -> str:
    """Four of the rack's tiles across the centre: no lexicon here holds a word of four tiles."""
    return "8H " + "".join(tile_text(t, rule_set) for t in tiles_of(rule_set, rack)[:4])


def _after_computer(ann, version: int):
    """Ann's view once the game has moved on from `version` and the computer is no longer on turn."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        game = ann.get()
        if game.version > version and game.turn == 0:
            return game
        time.sleep(0.02)
    pytest.fail(f"the computer did not move: {ann.get()}")


@pytest.mark.parametrize("rule", [session_pb2.CHALLENGE_RULE_UNSPECIFIED, session_pb2.CHALLENGE_RULE_SINGLE,
                                  session_pb2.CHALLENGE_RULE_PENALTY], ids=["double", "single", "penalty"])
def test_the_computer_challenges_a_phony_off_the_board_then_moves(server, rule):
    _, port = server
    ann = _computer_game(port, rule=rule)
    rs = load_rule_set("pl-scrabble")
    before = ann.get()
    moved = ann.play(_phony(rs, before.rack))  # words are judged only when challenged
    assert moved.score > 0
    game = _after_computer(ann, moved.version)
    record = ann.record()
    assert "challenged by Robot" in record and " not valid" in record, record
    assert game.players[0].score == 0 and sorted(game.rack) == sorted(before.rack)  # the tiles came back
    assert game.players[1].score > 0 and game.board != before.board  # then the computer played its own move
    assert "penalty" not in record


@pytest.mark.parametrize("rule", [session_pb2.CHALLENGE_RULE_UNSPECIFIED, session_pb2.CHALLENGE_RULE_PENALTY])
def test_the_computer_never_challenges_a_valid_play(server, lexicon_dir, rule):
    _, port = server
    lexicon = load_lexicon(lexicon_dir / "pl-scrabble.lex")
    ann = _computer_game(port, rule=rule)
    rs = load_rule_set("pl-scrabble")
    for turn in range(3):
        game = ann.get()
        board = Board.from_rows(rs, list(game.board)) if game.board else Board.empty(rs)
        play = two_tile_play(rs, tiles_of(rs, game.rack), "8H") if board.is_empty() else None
        if play is None:
            hint = [m for m in generate_moves(rs, board, game.rack, lexicon) if m.kind == "play"]
            play = hint[-1].play  # a valid play, the lowest-scoring
        moved = ann.play(play)
        _after_computer(ann, moved.version)
    record = ann.record()
    assert "challenged" not in record and "penalty" not in record, record
    assert record.count(">Robot:") >= 3


def test_in_kriskros_the_computer_challenges_and_the_human_gets_the_correction(server):
    _, port = server
    ann = _computer_game(port, lexicon="cs-kriskros", seed=3)
    rs = load_rule_set("cs-kriskros")
    before = ann.get()
    moved = ann.play(_phony(rs, before.rack))
    deadline = time.monotonic() + 10
    while not ann.get().correcting and time.monotonic() < deadline:
        time.sleep(0.02)
    game = ann.get()
    assert game.correcting and game.turn == 0 and game.version > moved.version, game
    corrected = ann.play(two_tile_play(rs, tiles_of(rs, game.rack), "8H"))  # judged at once: a valid word
    game = _after_computer(ann, corrected.version)
    assert game.players[0].score == corrected.score > 0 and game.players[1].score > 0
    assert "challenged by Robot" in ann.record()


def test_the_computer_challenges_a_phony_that_went_out_instead_of_passing_and_the_game_goes_on(server):
    _, port = server
    ann = _computer_game(port, lexicon="pl-tiny")
    before = ann.get()
    assert before.bag_count == 0 and len(before.rack) == 7
    moved = ann.play("8H " + before.rack)  # all seven tiles: Ann goes out with a phony
    assert moved.game.status == session_pb2.GAME_STATUS_AWAITING_FINAL_PASS
    game = _after_computer(ann, moved.version)
    assert game.status == session_pb2.GAME_STATUS_PLAYING, game  # not ended by the computer's pass
    assert game.players[0].score == 0 and sorted(game.rack) == sorted(before.rack)
    assert game.players[1].score > 0 and "challenged by Robot" in ann.record()


def test_in_a_void_game_a_phony_is_refused_outright_and_there_is_nothing_to_challenge(server):
    _, port = server
    ann = _computer_game(port, rule=session_pb2.CHALLENGE_RULE_VOID)
    with pytest.raises(grpc.RpcError) as info:
        ann.play(_phony(load_rule_set("pl-scrabble"), ann.get().rack))
    assert info.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert info.value.details().startswith("WORD_NOT_ADMISSIBLE")


def test_the_game_page_offers_every_computer_level_in_each_language():
    static = Path(__file__).resolve().parent.parent / "lexicon_service" / "http" / "static"
    page_levels = re.search(r"const LEVELS = \[([^\]]*)\]", (static / "games.js").read_text(encoding="utf-8"))
    assert re.findall(r'"(\w+)"', page_levels.group(1)) == list(LEVELS)
    leave_levels = re.search(r"const NEEDS_LEAVES = \[([^\]]*)\]", (static / "games.js").read_text(encoding="utf-8"))
    assert re.findall(r'"(\w+)"', leave_levels.group(1)) == list(NEEDS_LEAVES)
    assert [*LEVELS, *NEEDS_LEAVES] == list(ALL_LEVELS)
    strings = (static / "i18n.js").read_text(encoding="utf-8")
    for level in ALL_LEVELS:
        assert strings.count(f"level{level.capitalize()}:") == 3  # en, cs, pl


def test_a_computer_whose_search_runs_out_of_time_passes(server, monkeypatch):
    """pl-scrabble has no move timer: a computer that found no move in its time would leave the game
    waiting for it. It passes instead, and the game goes on."""
    import lexicon_service.games.computer_turns as game_service
    from lexicon_service.movegen import MoveGenerationTimeout

    def out_of_time(*_args, **_kwargs):
        raise MoveGenerationTimeout("move generation passed its deadline")

    _, port = server
    monkeypatch.setattr(game_service, "choose_move", out_of_time)
    ann = _computer_game(port)
    rs = load_rule_set("pl-scrabble")
    before = ann.get()
    moved = ann.play(two_tile_play(rs, tiles_of(rs, before.rack), "8H"))
    game = _after_computer(ann, moved.version)
    assert game.players[1].score == 0 and ">Robot: - +0 0" in ann.record()   # a pass (its rack not shown to Ann)
