"""Server-held games end to end: a real server on loopback, a real SQLite file in tmp_path, one client
(channel) per player. Lexicons hold every two-tile word of their game, so any two rack tiles make a
valid word and any longer word is a phony; the clock is injected, so timers run without sleeping."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import grpc
import pytest

try:
    from lexicon_service.grpc_gen import session_pb2
except ImportError:  # stubs not generated yet (make proto)
    from tools import gen_proto

    gen_proto.generate()
    from lexicon_service.grpc_gen import session_pb2

from lexicon_service.games.sessions import GameSessions
from lexicon_service.lexicon import load_lexicon
from lexicon_service.rules import load_rule_set, parse_gcg, replay
from lexicon_service.server import create_server
from tests.game_helpers import FakeClock, Player, create, find_play, tiles_of, two_tile_lexicons, two_tile_play

RULE_SETS = ("pl-scrabble", "cs-scrabble", "cs-kriskros")


@pytest.fixture(scope="module")
def lexicon_dir(tmp_path_factory) -> Path:
    return two_tile_lexicons(tmp_path_factory.mktemp("game-lexicons"), RULE_SETS)


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def server(lexicon_dir, tmp_path, clock, store_kind, request):
    """A server on each store: an SQLite file, and PostgreSQL (tests/conftest.py) where installed."""
    db = str(tmp_path / "games.db") if store_kind == "sqlite" else request.getfixturevalue("postgres_url")
    srv, port = create_server("localhost:0", lexicon_dir, games_db=db, game_clock=clock)
    srv.start()
    yield srv, port
    srv.stop(None).wait()


def error_of(fn, *args, **kwargs) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as info:
        fn(*args, **kwargs)
    return info.value


def reason_of(err: grpc.RpcError) -> str:
    return dict(err.trailing_metadata() or ()).get("lexicon-reason", "")


def replay_clean(gcg: str, rule_set_id: str, lexicon_path: Path):
    report = replay(load_rule_set(rule_set_id), parse_gcg(gcg), lexicon=load_lexicon(lexicon_path))
    assert report.ok, "\n".join(f"{line.event.text}: {line.problems}" for line in report.disagreements) + "\n" + gcg
    return report


# --- whole games ---------------------------------------------------------------------------------------
def test_whole_polish_game_to_the_last_tile(server, lexicon_dir, tmp_path):
    _, port = server
    rs = load_rule_set("pl-scrabble")
    created, (ann, bob), _ = create(port, "pl-scrabble", seed=2026)
    assert created.rule_set == "pl-scrabble" and len(created.player_tokens) == 2
    players = [ann, bob]
    moves = 0
    while True:
        game = ann.get()
        if game.status != session_pb2.GAME_STATUS_PLAYING:
            break
        me = players[game.turn]
        mine = me.get()
        assert mine.you == game.turn and len(tiles_of(rs, mine.rack)) == mine.players[game.turn].rack_count
        play = find_play(rs, mine.board, tiles_of(rs, mine.rack))
        if play is None:
            me.pass_(expected_version=mine.version)
        else:
            answer = me.play(play, expected_version=mine.version)
            assert answer.version == mine.version + 1 and answer.score > 0
        moves += 1
        assert moves < 200
    # Someone went out: the other accepts the last play with a pass, which ends the game.
    assert game.status == session_pb2.GAME_STATUS_AWAITING_FINAL_PASS and game.bag_count == 0
    out = 1 - game.turn
    left = players[game.turn].get().rack
    players[game.turn].pass_()
    final = ann.get()
    assert final.status == session_pb2.GAME_STATUS_ENDED and final.end_reason == "out"
    value = sum(rs.tile_set.points(t) if t != "?" else 0 for t in tiles_of(rs, left))
    assert final.players[out].score - game.players[out].score == value  # the others' racks
    assert final.players[1 - out].score - game.players[1 - out].score == -value

    gcg = ann.record()
    report = replay_clean(gcg, "pl-scrabble", lexicon_dir / "pl-scrabble.lex")
    assert report.totals == [p.score for p in final.players]
    assert any("game over" in note for note in report.notes)
    path = tmp_path / "game.gcg"
    path.write_text(gcg, encoding="utf-8")
    cli = Path(sys.executable).parent / "lexicon-service"
    done = subprocess.run([str(cli), "replay", str(path)], capture_output=True, text=True)  # the record names its rules
    assert done.returncode == 0, done.stdout + done.stderr
    # Nothing may be played after the end.
    err = error_of(ann.pass_)
    assert err.code() == grpc.StatusCode.FAILED_PRECONDITION and reason_of(err) in ("GAME_OVER", "NOT_YOUR_TURN")


def test_czech_game_with_a_failed_and_a_successful_challenge(server, lexicon_dir):
    _, port = server
    rs = load_rule_set("cs-scrabble")
    _, (ann, bob), _ = create(port, "cs-scrabble", seed=11)
    a = ann.get()
    first = two_tile_play(rs, tiles_of(rs, a.rack), "8H")
    assert ann.play(first).score > 0
    err = error_of(ann.challenge)  # nobody challenges their own play
    assert reason_of(err) == "OWN_PLAY"
    # Bob challenges a valid word: the challenge fails; single challenge costs Bob nothing.
    before = bob.get()
    answer = bob.challenge()
    assert answer.play_stood and answer.outcome == "stands" and not answer.invalid_words
    after = bob.get()
    assert after.turn == 1 and after.players[0].score == before.players[0].score
    assert after.players[1].score == 0 and after.board == before.board
    assert reason_of(error_of(bob.challenge)) == "NOTHING_TO_CHALLENGE"  # one challenge per play
    # Bob plays a phony (three tiles down H from H9 under the tile at H8: a four-tile word written from its
    # first square, H8 played through); Ann challenges: tiles back, turn lost.
    rack = tiles_of(rs, after.rack)
    tiles = "".join(f"[{t}]" if len(t) > 1 else ("a" if t == "?" else t) for t in rack[:3])
    phony = bob.play(f"H8 .{tiles}")
    assert phony.score > 0
    bob_rack_before = after.rack
    answer = ann.challenge()
    assert not answer.play_stood and answer.outcome == "withdrawn" and len(answer.invalid_words) == 1
    game = bob.get()
    assert game.turn == 0 and game.players[1].score == 0
    assert sorted(tiles_of(rs, game.rack)) == sorted(tiles_of(rs, bob_rack_before))
    assert game.board == after.board
    # Both pass two rounds: the game ends with the racks subtracted.
    for _ in range(2):
        ann.pass_()
        bob.pass_()
    final = ann.get()
    assert final.status == session_pb2.GAME_STATUS_ENDED and final.end_reason == "passes"
    values = [sum(rs.tile_set.points(t) for t in tiles_of(rs, p.get().rack) if t != "?") for p in (ann, bob)]
    assert [p.score for p in final.players] == [game.players[0].score - values[0], -values[1]]
    gcg = ann.record()
    assert ">Bob:" in gcg and " -- -" in gcg
    replay_clean(gcg, "cs-scrabble", lexicon_dir / "cs-scrabble.lex")


def test_kriskros_timeout_correction_and_redraw(server, lexicon_dir, clock):
    _, port = server
    rs = load_rule_set("cs-kriskros")
    _, (ann, bob), _ = create(port, "cs-kriskros", seed=5)
    start = ann.get()
    assert start.move_deadline_ms == int(round((clock.now + 60) * 1000))
    assert len(tiles_of(rs, start.rack)) == 8
    # Nobody can start: a full round of passes on an empty board redraws every rack.
    ann.pass_()
    bob.pass_()
    redrawn = ann.get()
    assert redrawn.status == session_pb2.GAME_STATUS_PLAYING and redrawn.turn == 0
    assert redrawn.bag_count == start.bag_count and redrawn.rack != start.rack
    # Ann lets her 60 s run out: the turn is forfeited (recorded at the deadline).
    clock.advance(61)
    game = bob.get()
    assert game.turn == 1 and game.version == redrawn.version + 1
    err = error_of(ann.play, two_tile_play(rs, tiles_of(rs, ann.get().rack), "8H"))
    assert reason_of(err) == "NOT_YOUR_TURN"
    # Bob plays a phony anywhere (three tiles); Ann challenges; Bob gets one correction within 15 s.
    rack = tiles_of(rs, bob.get().rack)
    tiles = "".join(f"[{t}]" if len(t) > 1 else ("a" if t == "?" else t) for t in rack[:3])
    clock.advance(5)
    bob.play(f"3C {tiles}")
    clock.advance(2)
    answer = ann.challenge()
    assert answer.outcome == "correction" and not answer.play_stood
    game = bob.get()
    assert game.turn == 1 and game.correcting and game.move_deadline_ms == int(round((clock.now + 15) * 1000))
    assert reason_of(error_of(bob.exchange, game.rack[:1])) == "CORRECTING"
    clock.advance(10)
    fixed = bob.play(two_tile_play(rs, tiles_of(rs, game.rack), "3C"))
    assert fixed.score > 0
    game = ann.get()
    assert game.turn == 0 and not game.correcting and not game.challengeable  # a correction is final
    # Ann times out; then Bob's phony is corrected by another phony: the turn is lost.
    clock.advance(60)
    assert bob.get().turn == 1
    board_before = bob.get().board
    phony = find_play(rs, board_before, tiles_of(rs, bob.get().rack), max_tiles=3)
    bob.play(phony)
    assert ann.challenge().outcome == "correction"
    refused = bob.play(find_play(rs, bob.get().board, tiles_of(rs, bob.get().rack), max_tiles=3))
    game = ann.get()
    assert game.turn == 0 and game.board == board_before and refused.score == 0
    # The correction window runs out too: Bob's next phony, challenged, and no correction in 15 s.
    ann.pass_()
    phony = find_play(rs, game.board, tiles_of(rs, bob.get().rack), max_tiles=3)
    bob.play(phony)
    assert ann.challenge().outcome == "correction"
    clock.advance(16)
    game = ann.get()
    assert game.turn == 0 and game.board == board_before
    gcg = ann.record()
    assert "timeout" in gcg and "correction" in gcg
    replay_clean(gcg, "cs-kriskros", lexicon_dir / "cs-kriskros.lex")


def test_void_game_refuses_invalid_words_outright(server):
    _, port = server
    rs = load_rule_set("pl-scrabble")
    _, (ann, bob), _ = create(port, "pl-scrabble", seed=3, challenge_rule=session_pb2.CHALLENGE_RULE_VOID)
    a = ann.get()
    assert a.challenge_rule == session_pb2.CHALLENGE_RULE_VOID
    rack = tiles_of(rs, a.rack)
    phony = "8H " + "".join("a" if t == "?" else t for t in rack[:3])
    err = error_of(ann.play, phony)
    assert err.code() == grpc.StatusCode.FAILED_PRECONDITION and reason_of(err) == "WORD_NOT_ADMISSIBLE"
    assert ann.get().version == a.version
    assert ann.play(two_tile_play(rs, rack, "8H")).score > 0
    assert reason_of(error_of(bob.challenge)) == "CHALLENGES_VOID"


def test_double_and_penalty_challenges(server):
    _, port = server
    rs = load_rule_set("pl-scrabble")
    _, (ann, bob), _ = create(port, "pl-scrabble", seed=8)  # PFS: double challenge
    ann.play(two_tile_play(rs, tiles_of(rs, ann.get().rack), "8H"))
    answer = bob.challenge()
    assert answer.play_stood and answer.outcome == "challenger-loses-turn"
    assert bob.get().turn == 0  # Bob's turn went with the failed challenge
    _, (ann, bob), _ = create(port, "pl-scrabble", seed=8, challenge_rule=session_pb2.CHALLENGE_RULE_PENALTY)
    ann.play(two_tile_play(rs, tiles_of(rs, ann.get().rack), "8H"))
    answer = bob.challenge()
    assert answer.outcome == "penalty" and answer.game.turn == 1
    assert answer.game.players[1].score == -rs.challenge.penalty_points


# --- bad input, races, retries ---------------------------------------------------------------------------
def test_bad_input_gets_a_specific_status_and_changes_nothing(server):
    _, port = server
    rs = load_rule_set("pl-scrabble")
    created, (ann, bob), director = create(port, "pl-scrabble", seed=1)
    start = ann.get()
    rack = tiles_of(rs, start.rack)
    missing = next(t for t in ("Ź", "Ń", "Ż", "Ć", "Ą") if t not in rack)

    def refused(call, code, reason=None):
        err = error_of(call)
        assert err.code() == code, (err.code(), err.details())
        if reason:
            assert reason_of(err) == reason, err.details()
        assert ann.get().version == start.version and ann.get().board == start.board
        return err

    from tests.game_helpers import Player

    ghost = Player(port, "0123456789abcdef", created.player_tokens[0])
    refused(ghost.get, grpc.StatusCode.NOT_FOUND)
    refused(Player(port, "not a game", "").get, grpc.StatusCode.NOT_FOUND)
    refused(Player(port, created.game_id, "forged-token").get, grpc.StatusCode.UNAUTHENTICATED)
    refused(Player(port, created.game_id, "").pass_, grpc.StatusCode.UNAUTHENTICATED)
    refused(director.pass_, grpc.StatusCode.PERMISSION_DENIED)
    err = refused(lambda: ann.play("88 KOT"), grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_PLAY")
    assert err.details().startswith("play:")
    refused(lambda: ann.play("KOT"), grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_PLAY")
    refused(lambda: ann.play("8H K#T"), grpc.StatusCode.INVALID_ARGUMENT, "UNKNOWN_LETTER")
    refused(lambda: ann.play(f"8H {missing}{rack[0] if rack[0] != '?' else 'a'}"),
            grpc.StatusCode.FAILED_PRECONDITION, "TILE_NOT_IN_RACK")
    two = two_tile_play(rs, rack, "1A").split()[1]
    refused(lambda: ann.play(f"1A {two}"), grpc.StatusCode.FAILED_PRECONDITION, "FIRST_PLAY_NOT_ON_CENTRE")
    refused(lambda: bob.play(f"8H {two}"), grpc.StatusCode.FAILED_PRECONDITION, "NOT_YOUR_TURN")
    refused(lambda: ann.pass_(expected_version=start.version + 5), grpc.StatusCode.ABORTED)
    refused(lambda: ann.exchange(missing), grpc.StatusCode.FAILED_PRECONDITION, "TILE_NOT_IN_RACK")
    refused(lambda: ann.exchange("#"), grpc.StatusCode.INVALID_ARGUMENT)
    refused(lambda: ann.stub.SubmitMove(session_pb2.SubmitMoveRequest(game_id=created.game_id, play="8H KOT",
                                                                      exchange="K"), metadata=ann.md, timeout=5),
            grpc.StatusCode.INVALID_ARGUMENT)
    refused(ann.challenge, grpc.StatusCode.FAILED_PRECONDITION, "NOTHING_TO_CHALLENGE")
    with grpc.insecure_channel(f"localhost:{port}") as ch:
        from lexicon_service.grpc_gen import session_pb2_grpc

        stub = session_pb2_grpc.GameSessionServiceStub(ch)
        for request, code in (
            (session_pb2.CreateGameRequest(lexicon="xx", player_names=["A", "B"]), grpc.StatusCode.NOT_FOUND),
            (session_pb2.CreateGameRequest(lexicon="pl-scrabble", player_names=["A"]), grpc.StatusCode.INVALID_ARGUMENT),
            (session_pb2.CreateGameRequest(lexicon="pl-scrabble", player_names=["A", "A"]),
             grpc.StatusCode.INVALID_ARGUMENT),
            (session_pb2.CreateGameRequest(lexicon="pl-scrabble", player_names=["A\tb", "C"]),
             grpc.StatusCode.INVALID_ARGUMENT),
        ):
            assert error_of(stub.CreateGame, request, timeout=5).code() == code


def test_two_clients_racing_exactly_one_wins(server):
    _, port = server
    rs = load_rule_set("pl-scrabble")
    from tests.game_helpers import Player

    for seed in range(6):
        created, (ann, _), _ = create(port, "pl-scrabble", seed=100 + seed)
        second = Player(port, created.game_id, created.player_tokens[0])  # Ann's second client
        start = ann.get()
        plays = [two_tile_play(rs, tiles_of(rs, start.rack), "8H"), two_tile_play(rs, tiles_of(rs, start.rack), "H8")]
        use_version = seed % 2 == 0
        results = [None, None]
        barrier = threading.Barrier(2)

        def go(i, client, play):
            barrier.wait()
            kw = {"expected_version": start.version} if use_version else {}
            try:
                results[i] = client.play(play, **kw)
            except grpc.RpcError as err:
                results[i] = err

        threads = [threading.Thread(target=go, args=(i, c, p)) for i, (c, p) in enumerate(zip((ann, second), plays))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wins = [r for r in results if not isinstance(r, grpc.RpcError)]
        losses = [r for r in results if isinstance(r, grpc.RpcError)]
        assert len(wins) == 1 and len(losses) == 1, results
        expected = grpc.StatusCode.ABORTED if use_version else grpc.StatusCode.FAILED_PRECONDITION
        assert losses[0].code() == expected
        assert ann.get().version == start.version + 1
        second.close()


def test_retried_requests_are_idempotent(server):
    _, port = server
    rs = load_rule_set("pl-scrabble")
    _, (ann, bob), _ = create(port, "pl-scrabble", seed=4)
    start = ann.get()
    play = two_tile_play(rs, tiles_of(rs, start.rack), "8H")
    first = ann.play(play, request_id="r-1")
    again = ann.play(play, request_id="r-1")
    assert again.replayed and again.version == first.version and again.score == first.score
    assert again.rack == first.rack
    # Without a request id: the same move at the same expected_version is answered again.
    b = bob.get()
    bob.pass_(expected_version=b.version)
    retry = bob.pass_(expected_version=b.version)
    assert retry.replayed and retry.version == b.version + 1
    assert ann.get().version == b.version + 1


def test_a_move_sent_again_without_ids_is_answered_as_a_retry(server):
    _, port = server
    rs = load_rule_set("pl-scrabble")
    _, (ann, bob), _ = create(port, "pl-scrabble", seed=6)
    play = two_tile_play(rs, tiles_of(rs, ann.get().rack), "8H")
    first = ann.play(play)
    # The answer was lost and the client sends the same move again, with no request_id or expected_version:
    # it is still the last thing that happened in the game, so it gets the first answer, not NOT_YOUR_TURN.
    again = ann.play(play)
    assert again.replayed and (again.version, again.score, again.rack) == (first.version, first.score, first.rack)
    assert bob.get().version == first.version
    assert reason_of(error_of(ann.pass_)) == "NOT_YOUR_TURN"  # another move out of turn is still refused
    assert reason_of(error_of(ann.play, play.replace("8H", "H8"))) == "NOT_YOUR_TURN"
    passed = bob.pass_()
    assert bob.pass_().replayed and bob.get().version == passed.version
    # Once something else has happened, the same text is a new move, judged as such (its squares are taken).
    err = error_of(ann.play, play)
    assert err.code() in (grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.INVALID_ARGUMENT)
    assert reason_of(err) != "NOT_YOUR_TURN" and ann.get().version == passed.version
    tile = tiles_of(rs, ann.get().rack)[0]
    exchanged = ann.exchange(tile)
    repeated = ann.exchange(tile)
    assert repeated.replayed and repeated.version == exchanged.version and repeated.rack == exchanged.rack
    assert reason_of(error_of(bob.challenge)) == "NOTHING_TO_CHALLENGE" and bob.get().version == exchanged.version


# --- watching, clocks, director ----------------------------------------------------------------------------
def test_watch_sends_history_then_live_events(server):
    _, port = server
    rs = load_rule_set("pl-scrabble")
    _, (ann, bob), _ = create(port, "pl-scrabble", seed=9)
    ann.play(two_tile_play(rs, tiles_of(rs, ann.get().rack), "8H"))
    stream = bob.stub.WatchGame(session_pb2.WatchGameRequest(game_id=ann.game_id), metadata=bob.md, timeout=10)
    first = next(stream)
    second = next(stream)
    assert (first.kind, first.version) == ("created", 1)
    assert second.kind == "play" and second.player == 0 and second.score > 0 and not second.rack
    bob.pass_()
    third = next(stream)
    assert third.kind == "pass" and third.player == 1 and third.rack == bob.get().rack  # Bob's own event
    stream.cancel()
    err = error_of(lambda: next(ann.stub.WatchGame(session_pb2.WatchGameRequest(game_id="0" * 16), timeout=5)))
    assert err.code() == grpc.StatusCode.NOT_FOUND


def test_game_clock_overtime_penalty_and_time_spent(server, clock, lexicon_dir):
    _, port = server
    rs = load_rule_set("pl-scrabble")
    _, (ann, bob), director = create(port, "pl-scrabble", seed=12, game_seconds=60, overtime_penalty=10)
    clock.advance(20)
    ann.play(two_tile_play(rs, tiles_of(rs, ann.get().rack), "8H"))
    clock.advance(130)  # Bob: 70 s over his 60
    game = ann.get()
    assert game.players[0].time_used_ms == 20_000 and game.players[1].time_remaining_ms == -70_000
    done = director.stub.EndGame(session_pb2.EndGameRequest(game_id=ann.game_id, reason="round over"),
                                 metadata=director.md, timeout=5)
    assert done.game.status == session_pb2.GAME_STATUS_ENDED
    assert "(time) -20" in ann.record()
    replay_clean(ann.record(), "pl-scrabble", lexicon_dir / "pl-scrabble.lex")


def test_director_adjusts_undoes_and_ends_with_an_audit_trail(server, lexicon_dir):
    _, port = server
    rs = load_rule_set("pl-scrabble")
    _, (ann, bob), director = create(port, "pl-scrabble", seed=21)
    start = ann.get()
    played = ann.play(two_tile_play(rs, tiles_of(rs, start.rack), "8H"))
    stub, md, gid = director.stub, director.md, ann.game_id
    err = error_of(ann.stub.UndoLastMove, session_pb2.UndoLastMoveRequest(game_id=gid, reason="x"), metadata=ann.md)
    assert err.code() == grpc.StatusCode.PERMISSION_DENIED
    err = error_of(stub.UndoLastMove, session_pb2.UndoLastMoveRequest(game_id=gid), metadata=md)
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT  # a reason is required
    undone = stub.UndoLastMove(session_pb2.UndoLastMoveRequest(game_id=gid, reason="misclick"), metadata=md)
    game = ann.get()
    assert game.board == start.board and game.rack == start.rack and game.turn == 0 and game.players[0].score == 0
    assert undone.version == played.version + 1
    adjusted = stub.AdjustScore(session_pb2.AdjustScoreRequest(game_id=gid, player=1, delta=7, reason="scoring slip"),
                                metadata=md)
    assert adjusted.game.players[1].score == 7
    ann.play(two_tile_play(rs, tiles_of(rs, start.rack), "8H"))
    stub.EndGame(session_pb2.EndGameRequest(game_id=gid, reason="time"), metadata=md)
    kinds = [(e.kind, e.detail) for e in ann.stub.WatchGame(session_pb2.WatchGameRequest(game_id=gid), timeout=5)]
    assert ("undo", f"undid version {played.version}: misclick") in kinds
    assert ("adjust", "scoring slip") in kinds and kinds[-1] == ("end", "director: time")
    gcg = ann.record()
    assert "director adjustment: scoring slip" in gcg and "misclick" in gcg
    replay_clean(gcg, "pl-scrabble", lexicon_dir / "pl-scrabble.lex")


def test_undo_takes_back_the_move_and_keeps_a_later_adjustment(server, lexicon_dir):
    """The lead's decision (#33): an undo takes back the last move; a director's adjustment made after it
    is its own recorded event and stays, in the live game, in a state folded afresh from the log (another
    server process) and in the record's replay."""
    _, port = server
    rs = load_rule_set("pl-scrabble")
    _, (ann, bob), director = create(port, "pl-scrabble", seed=22)
    start = ann.get()
    played = ann.play(two_tile_play(rs, tiles_of(rs, start.rack), "8H"))
    assert played.game.players[0].score > 0
    stub, md, gid = director.stub, director.md, ann.game_id
    stub.AdjustScore(session_pb2.AdjustScoreRequest(game_id=gid, player=0, delta=7, reason="late entry"), metadata=md)
    stub.AdjustScore(session_pb2.AdjustScoreRequest(game_id=gid, player=1, delta=-3, reason="slow"), metadata=md)
    stub.UndoLastMove(session_pb2.UndoLastMoveRequest(game_id=gid, reason="misclick"), metadata=md)
    game = ann.get()
    assert game.board == start.board and game.rack == start.rack and game.turn == 0
    assert [p.score for p in game.players] == [7, -3]
    record = director.stub.GetGameRecord(session_pb2.GetGameRecordRequest(game_id=gid), metadata=md).gcg
    assert "director adjustment: late entry" in record and "misclick" in record
    assert replay_clean(record, "pl-scrabble", lexicon_dir / "pl-scrabble.lex").totals == [7, -3]
    fresh = GameSessions(server[0].games.store, max_games=None).get_game(gid, None)[0]
    assert list(fresh.scores) == [7, -3] and fresh.board_rows() == list(start.board)


def test_exchange_draws_new_tiles_and_respects_the_bag_minimum(server):
    _, port = server
    rs = load_rule_set("pl-scrabble")
    _, (ann, bob), director = create(port, "pl-scrabble", seed=31)
    start = ann.get()
    rack = tiles_of(rs, start.rack)
    out = ann.exchange("".join(rack[:3]))
    assert out.version == start.version + 1 and out.game.bag_count == start.bag_count
    assert len(tiles_of(rs, out.rack)) == 7
    assert "-" + "".join(rack[:3]) in ann.record()
    # while the game is on, nobody else sees Ann's rack or the tiles she exchanged: Bob and an observer see
    # "-3" and no rack of hers; the director sees everything
    ann_line = next(line for line in ann.record().splitlines() if line.startswith(">Ann:"))
    assert ann_line.startswith(f">Ann: {start.rack} -")
    observer = Player(port, ann.game_id, "")
    for other in (bob, observer):
        text = other.record()
        assert ">Ann: -3 +0 0" in text and "#rack1" not in text
    assert "#rack2" in bob.record() and "#rack2" not in observer.record()
    assert ann_line in director.record() and "#rack1" in director.record()


# --- persistence ------------------------------------------------------------------------------------------
def _serve(lexicon_dir: Path, db: Path, processes: int = 1):
    env = dict(os.environ, LEXICON_GC_TUNING="0")
    proc = subprocess.Popen([sys.executable, "-m", "lexicon_service", "serve", "--address", "localhost:0",
                             "--lexicons", str(lexicon_dir), "--db", str(db), "--processes", str(processes),
                             "--log-level", "WARNING"], stdout=subprocess.PIPE, text=True, env=env)
    line = proc.stdout.readline()
    assert "serving" in line, line
    port = int(line.split(" on ")[1].split()[0].rsplit(":", 1)[1])
    return proc, port


def test_sigkill_and_restart_keeps_every_acknowledged_move(lexicon_dir, tmp_path):
    import signal

    rs = load_rule_set("pl-scrabble")
    db = tmp_path / "games.db"
    proc, port = _serve(lexicon_dir, db)
    acknowledged = {}
    try:
        games = [create(port, "pl-scrabble", seed=40 + i) for i in range(3)]
        for created, (ann, bob), _ in games:
            mine = ann.get()
            ann.play(find_play(rs, mine.board, tiles_of(rs, mine.rack)))
            last = bob.pass_()
            acknowledged[created.game_id] = (last.version, ann.get().board, [p.score for p in ann.get().players])
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    proc, port = _serve(lexicon_dir, db)
    try:
        for created, (ann, _), _ in games:
            again = type(ann)(port, created.game_id, ann.token).get()
            version, board, scores = acknowledged[created.game_id]
            assert (again.version, list(again.board), [p.score for p in again.players]) == (version, list(board), scores)
    finally:
        proc.terminate()
        proc.wait()


def test_two_server_processes_share_games(lexicon_dir, tmp_path):
    rs = load_rule_set("pl-scrabble")
    proc, port = _serve(lexicon_dir, tmp_path / "games.db", processes=2)
    try:
        created, (ann, bob), _ = create(port, "pl-scrabble", seed=77)
        # Fresh channels land on either process (SO_REUSEPORT); each must see every move at once.
        from tests.game_helpers import Player

        for i in range(6):
            who = created.player_tokens[i % 2]
            client = Player(port, created.game_id, who)
            state = client.get()
            assert state.turn == i % 2 and state.version == 1 + i
            client.pass_(expected_version=state.version) if i < 3 else client.exchange(
                tiles_of(rs, state.rack)[0], expected_version=state.version)
            client.close()
    finally:
        proc.terminate()
        proc.wait()


def test_command_line_client_plays_a_game(server, tmp_path):
    _, port = server
    cli = [str(Path(sys.executable).parent / "lexicon-service"), "client", "--address", f"localhost:{port}", "game"]

    def run(*args, token=None, ok=True):
        env = dict(os.environ)
        env.pop("LEXICON_TOKEN", None)
        if token:
            env["LEXICON_GAME_TOKEN"] = token
        done = subprocess.run([*cli, *args], capture_output=True, text=True, env=env)
        assert (done.returncode == 0) == ok, done.stdout + done.stderr
        return done.stdout + done.stderr

    out = run("create", "-l", "pl-scrabble", "Ann", "Bob", "--seed", "5")
    lines = out.splitlines()
    game_id = lines[0].split()[1]
    tokens = {line.split("\t")[0].strip(): line.split("\t")[1] for line in lines[1:]}
    shown = run("show", game_id, token=tokens["Ann"])
    assert "  A  B  C" in shown and "your rack: " in shown and "> Ann" in shown
    rack = shown.split("your rack: ")[1].split()[0]
    rs = load_rule_set("pl-scrabble")
    position, word = two_tile_play(rs, tiles_of(rs, rack), "8H").split()
    played = run("play", game_id, position, word, token=tokens["Ann"])
    assert "> Bob" in played and f" 8 " in played
    assert "NOT_YOUR_TURN" in run("play", game_id, "9H", "XX", token=tokens["Ann"], ok=False)
    record = run("record", game_id, token=tokens["Ann"])  # a player sees the racks of their own moves
    assert f">Ann: {rack} 8H {word}" in record
