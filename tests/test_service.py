"""End-to-end tests of the gRPC service: a real server on port 0, every RPC, bad input, reload
under load, health, reflection, auth and TLS. Lexicons are tiny word lists built with `lexicon-build`
into tmp_path.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import threading
import time
from pathlib import Path

import grpc
import pytest

try:
    from lexicon_service.grpc_gen import game_pb2, game_pb2_grpc, lexicon_pb2, lexicon_pb2_grpc
except ImportError:  # stubs not generated yet (make proto): generate them, as the build does
    from tools import gen_proto

    gen_proto.generate()
    from lexicon_service.grpc_gen import game_pb2, game_pb2_grpc, lexicon_pb2, lexicon_pb2_grpc

from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from lexicon_service.rules import load_rule_set
from lexicon_service.server import Limits, TlsConfig, create_server, install_signal_handlers
from lexicon_service.core.registry import ReloadError

from lexicon_helpers import WORDS, polish_lexicon, write_lexicon  # noqa: F401 - re-exported for older imports

ROOT = Path(__file__).resolve().parent.parent



def rpc_error(fn, *args, **kwargs) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as info:
        fn(*args, timeout=10, **kwargs)
    return info.value


def check(lex, words, lexicon="pl-scrabble", **kw):
    return lex.CheckWords(lexicon_pb2.CheckWordsRequest(lexicon=lexicon, words=words, **kw), timeout=10)


# --- health and reflection -------------------------------------------------------------------------
def test_health_flips_to_serving_once_lexicons_are_loaded(lexicon_dir):
    srv, port = create_server("localhost:0", lexicon_dir, load=False)
    srv.start()
    try:
        with grpc.insecure_channel(f"localhost:{port}") as ch:
            stub = health_pb2_grpc.HealthStub(ch)
            for service in ("", "lexicon.v1.LexiconService", "lexicon.v1.GameService"):
                resp = stub.Check(health_pb2.HealthCheckRequest(service=service), timeout=5)
                assert resp.status == health_pb2.HealthCheckResponse.NOT_SERVING
            err = rpc_error(lexicon_pb2_grpc.LexiconServiceStub(ch).CheckWords,
                            lexicon_pb2.CheckWordsRequest(lexicon="pl-scrabble", words=["kot"]))
            assert err.code() == grpc.StatusCode.UNAVAILABLE
            srv.load()
            for service in ("", "lexicon.v1.LexiconService", "lexicon.v1.GameService"):
                resp = stub.Check(health_pb2.HealthCheckRequest(service=service), timeout=5)
                assert resp.status == health_pb2.HealthCheckResponse.SERVING
            assert check(lexicon_pb2_grpc.LexiconServiceStub(ch), ["kot"]).acceptable
    finally:
        srv.stop(None).wait()


def test_reflection_lists_the_services(channel):
    stub = reflection_pb2_grpc.ServerReflectionStub(channel)
    responses = stub.ServerReflectionInfo(iter([reflection_pb2.ServerReflectionRequest(list_services="")]),
                                          timeout=5)
    names = {s.name for r in responses for s in r.list_services_response.service}
    assert {"lexicon.v1.LexiconService", "lexicon.v1.GameService", "grpc.health.v1.Health"} <= names
    # grpcurl also needs the file descriptors
    responses = stub.ServerReflectionInfo(iter([reflection_pb2.ServerReflectionRequest(
        file_containing_symbol="lexicon.v1.GameService")]), timeout=5)
    assert any(r.file_descriptor_response.file_descriptor_proto for r in responses)


# --- LexiconService ------------------------------------------------------------------------------
def test_list_lexicons(lex):
    resp = lex.ListLexicons(lexicon_pb2.ListLexiconsRequest(), timeout=5)
    by_name = {info.name: info for info in resp.lexicons}
    assert set(by_name) == {"pl-scrabble", "cs-kriskros"}
    assert by_name["pl-scrabble"].rule_set == "pl-scrabble"
    assert by_name["pl-scrabble"].language == "pl"
    assert by_name["pl-scrabble"].word_count == len(set(w.lower() for w in WORDS["pl-scrabble"]))
    assert by_name["cs-kriskros"].manifest.fields  # the manifest travels as a Struct


def test_check_words_per_word_answers_and_verdict(lex):
    resp = check(lex, ["kot", "KOTY", "Żółw", "kotx"])
    assert [r.valid for r in resp.results] == [True, True, True, False]
    assert [r.status for r in resp.results][-1] == lexicon_pb2.WORD_STATUS_UNKNOWN_LETTER  # x: no Polish tile
    assert "x" in resp.results[-1].message.lower()
    assert not resp.acceptable and resp.invalid_count == 1

    resp = check(lex, ["kot", "koto"])
    assert resp.results[1].status == lexicon_pb2.WORD_STATUS_INVALID and not resp.acceptable
    assert check(lex, ["kot", "pies", "dar"]).acceptable


def test_check_words_verdict_only_hides_which_word_failed(lex):
    resp = check(lex, ["kot", "koto"], verdict_only=True)
    assert not resp.acceptable and not resp.results and resp.invalid_count == 0  # not even how many


def test_check_words_spells_in_tiles_of_the_lexicons_rule_set(lex):
    resp = check(lex, ["chata", "[CH]ATA", "cHaTa"], lexicon="cs-kriskros", include_tiles=True)
    assert all(r.valid for r in resp.results)
    assert list(resp.results[0].tiles) == ["CH", "A", "T", "A"]
    # Polish Scrabble has no Č: an unknown letter there, a real word in Kris Kros
    assert check(lex, ["kočka"], lexicon="cs-kriskros").acceptable
    assert check(lex, ["kočka"]).results[0].status == lexicon_pb2.WORD_STATUS_UNKNOWN_LETTER


def test_check_words_one_letter_is_a_bad_length(lex):
    resp = check(lex, ["k"])
    assert resp.results[0].status == lexicon_pb2.WORD_STATUS_BAD_LENGTH and not resp.acceptable


def test_check_words_bad_input(lex):
    err = rpc_error(lex.CheckWords, lexicon_pb2.CheckWordsRequest(lexicon="pl-scrabble", words=["kot", ""]))
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT and err.details().startswith("words[1]:")
    err = rpc_error(lex.CheckWords, lexicon_pb2.CheckWordsRequest(lexicon="pl-scrabble", words=["k" * 65]))
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT and err.details().startswith("words[0]:")
    err = rpc_error(lex.CheckWords, lexicon_pb2.CheckWordsRequest(words=["kot"]))
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT and err.details().startswith("lexicon:")
    err = rpc_error(lex.CheckWords, lexicon_pb2.CheckWordsRequest(lexicon="pl-scrabble"))
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT and err.details().startswith("words:")


def test_oversized_batches_are_refused(lex):
    err = rpc_error(lex.CheckWords, lexicon_pb2.CheckWordsRequest(lexicon="pl-scrabble", words=["kot"] * 101))
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT and err.details().startswith("words:")
    # larger than the message limit (64 KiB in this server): refused by gRPC before any work
    err = rpc_error(lex.CheckWords, lexicon_pb2.CheckWordsRequest(lexicon="pl-scrabble", words=["k" * 60] * 1500))
    assert err.code() == grpc.StatusCode.RESOURCE_EXHAUSTED


def test_unknown_lexicon_is_not_found(lex, game):
    for call, req in (
        (lex.CheckWords, lexicon_pb2.CheckWordsRequest(lexicon="en-scrabble", words=["cat"])),
        (lex.ExplainWord, lexicon_pb2.ExplainWordRequest(lexicon="en-scrabble", word="cat")),
        (lex.FindWords, lexicon_pb2.FindWordsRequest(lexicon="en-scrabble", prefix="ca")),
        (game.ValidateMove, game_pb2.ValidateMoveRequest(lexicon="en-scrabble",
                                                         play=game_pb2.Play(position="8D", word="CAT"))),
    ):
        err = rpc_error(call, req)
        assert err.code() == grpc.StatusCode.NOT_FOUND, req
        assert "en-scrabble" in err.details() and "pl-scrabble" in err.details()


def test_explain_word(lex):
    resp = lex.ExplainWord(lexicon_pb2.ExplainWordRequest(lexicon="pl-scrabble", word="KOT"), timeout=5)
    assert resp.result.valid and list(resp.result.tiles) == ["K", "O", "T"]
    assert resp.readings and resp.readings[0].form.lower() == "kot" and resp.readings[0].rule
    resp = lex.ExplainWord(lexicon_pb2.ExplainWordRequest(lexicon="pl-scrabble", word="kotq"), timeout=5)
    assert not resp.result.valid and resp.result.status == lexicon_pb2.WORD_STATUS_UNKNOWN_LETTER
    resp = lex.ExplainWord(lexicon_pb2.ExplainWordRequest(lexicon="pl-scrabble", word="koto"), timeout=5)
    assert not resp.result.valid and not resp.readings
    err = rpc_error(lex.ExplainWord, lexicon_pb2.ExplainWordRequest(lexicon="pl-scrabble", word=""))
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT and err.details().startswith("word:")


def find(lex, lexicon="pl-scrabble", **kw):
    return lex.FindWords(lexicon_pb2.FindWordsRequest(lexicon=lexicon, **kw), timeout=10)


def test_find_anagrams_with_blanks(lex):
    resp = find(lex, anagram="KOT")
    assert [w.word for w in resp.words] == ["KOT", "KTO", "TOK", "OK", "TO"]  # longest first, then key order
    assert not resp.truncated
    resp = find(lex, anagram="KOT", use_all_tiles=True)
    assert {w.word for w in resp.words} == {"KOT", "KTO", "TOK"}
    resp = find(lex, anagram="KO?", use_all_tiles=True)
    plays = {w.play for w in resp.words}
    assert {"KOt", "KOT", "KtO", "tOK"} & plays and "KOT" not in plays  # the blank shows lowercase
    assert {w.word for w in resp.words} == {"KOT", "KTO", "TOK"}  # the word once, however the blank falls
    resp = find(lex, anagram="KOTY?", min_length=5)
    assert [w.word for w in resp.words] == ["KOTY"][:0] or all(w.length >= 5 for w in resp.words)


def test_find_patterns_and_prefixes(lex):
    assert [w.word for w in find(lex, pattern="K?T").words] == ["KIT", "KOT"]
    assert [w.word for w in find(lex, pattern="K*Y").words] == ["KITY", "KOTY"]
    assert [w.word for w in find(lex, pattern="*Ó*").words] == ["PRÓBUJE", "SPRÓBUJE", "SPRÓBUJEMY", "ŻÓŁW", "ŻÓŁWIE"]
    assert [w.word for w in find(lex, prefix="KOT").words] == ["KOT", "KOTA", "KOTY"]
    resp = find(lex, prefix="K", limit=2)
    assert len(resp.words) == 2 and resp.truncated
    assert [w.word for w in find(lex, lexicon="cs-kriskros", pattern="[CH]AT*").words] == ["[CH]ATA", "[CH]ATY"]
    assert [w.word for w in find(lex, lexicon="cs-kriskros", prefix="ch").words] == ["[CH]A", "[CH]ATA", "[CH]ATY"]
    assert [w.word for w in find(lex, pattern="*", max_length=2).words] == ["ER", "JA", "OK", "TO", "TY", "UD"]


def test_find_words_bad_input(lex):
    for req, field in (
        (dict(anagram="KOX"), "anagram:"),
        (dict(pattern="K?X"), "pattern:"),
        (dict(prefix="K?"), "prefix:"),
        (dict(anagram="KOT", limit=51), "limit:"),
        (dict(anagram="KOT", limit=-1), "limit:"),
        (dict(anagram="A" * 16), "anagram:"),
        (dict(pattern="K*", max_length=16), "max_length:"),
        (dict(pattern="K*", min_length=5, max_length=3), "max_length:"),
        (dict(prefix="K", use_all_tiles=True), "use_all_tiles:"),
        (dict(), "query:"),
    ):
        err = rpc_error(lex.FindWords, lexicon_pb2.FindWordsRequest(lexicon="pl-scrabble", **req))
        assert err.code() == grpc.StatusCode.INVALID_ARGUMENT, req
        assert err.details().startswith(field), (req, err.details())


def test_find_words_search_is_bounded(lexicon_dir):
    srv, port = create_server("localhost:0", lexicon_dir, limits=Limits(search_budget=50))
    srv.start()
    try:
        with grpc.insecure_channel(f"localhost:{port}") as ch:
            resp = find(lexicon_pb2_grpc.LexiconServiceStub(ch), anagram="??????", limit=1000)
            assert resp.truncated
    finally:
        srv.stop(None).wait()


def test_deadline_is_honoured_in_searches():
    from lexicon_service.errors import DeadlineError
    from lexicon_service.core.search import find_pattern

    class Endless:
        def has_prefix(self, prefix):
            return True

        def is_admissible(self, key):
            return False

    from lexicon_service.core.limits import WorkBudget

    rs = load_rule_set("pl-scrabble")
    with pytest.raises(DeadlineError):
        find_pattern(Endless(), rs.tile_set, ["*"], min_len=2, max_len=15, limit=10,
                     budget=WorkBudget(10**9, 60.0, time.monotonic() + 0.05))


# --- GameService ---------------------------------------------------------------------------------
def board_rows(rule_set_id: str, placed: dict[tuple[int, int], str]) -> list[str]:
    rs = load_rule_set(rule_set_id)
    rows = [["."] * rs.columns for _ in range(rs.rows)]
    for (r, c), letter in placed.items():
        rows[r][c] = letter if len(letter) == 1 else f"[{letter}]"
    return ["".join(row) for row in rows]


def proboje_board() -> list[str]:
    # PRÓBUJE at 8B (row 8, columns B..H)
    return board_rows("pl-scrabble", {(7, 1 + i): ch for i, ch in enumerate("PRÓBUJE")})


def move(request_type=game_pb2.ValidateMoveRequest, **kw):
    play = kw.pop("play", None)
    if play is not None:
        kw["play"] = game_pb2.Play(position=play[0], word=play[1])
    return request_type(**kw)


def test_validate_and_score_the_worked_examples(game):
    resp = game.ValidateMove(move(lexicon="pl-scrabble", board=proboje_board(), play=("8A", "S.......MY")), timeout=5)
    assert resp.valid and resp.reason == "OK" and resp.total == 69
    assert resp.words[0].word == "SPRÓBUJEMY" and resp.words[0].main

    resp = game.ValidateMove(move(lexicon="pl-scrabble", board=proboje_board(), play=("9F", "DAR")), timeout=5)
    assert resp.valid and resp.total == 17
    assert sorted(w.word for w in resp.words) == ["DAR", "ER", "JA", "UD"]
    assert sum(w.subtotal for w in resp.words) == 17
    assert all(t.premium in ("", "DL", "TL", "DW", "TW") for w in resp.words for t in w.tiles)

    resp = game.ScoreMove(move(game_pb2.ScoreMoveRequest, rule_set="pl-scrabble", board=proboje_board(), play=("A3", "PRYMAS")), timeout=5)
    assert resp.valid and resp.total == 87 and resp.rule_set == "pl-scrabble"

    # the "S(PRÓBUJE)MY" notation: letters in parentheses must be the ones on the board
    resp = game.ValidateMove(move(lexicon="pl-scrabble", board=proboje_board(), play=("8A", "S(PRÓBUJE)MY")),
                             timeout=5)
    assert resp.valid and resp.total == 69
    resp = game.ValidateMove(move(lexicon="pl-scrabble", board=proboje_board(), play=("8A", "S(PRÓBUJA)MY")),
                             timeout=5)
    assert not resp.valid and resp.reason == "PLAY_MISMATCH"


def test_validate_move_refuses_words_not_in_the_lexicon(game):
    resp = game.ValidateMove(move(lexicon="pl-scrabble", board=proboje_board(), play=("9F", "DOR")), timeout=5)
    assert not resp.valid and resp.reason == "WORD_NOT_ADMISSIBLE"
    assert "DOR" in resp.invalid_words
    # ScoreMove does not judge words
    resp = game.ScoreMove(move(game_pb2.ScoreMoveRequest, lexicon="pl-scrabble", board=proboje_board(), play=("9F", "DOR")), timeout=5)
    assert resp.valid and resp.total > 0


def test_illegal_moves_are_answers_with_reason_codes(game):
    resp = game.ValidateMove(move(lexicon="pl-scrabble", play=("1A", "KOT")), timeout=5)
    assert not resp.valid and resp.reason == "FIRST_PLAY_NOT_ON_CENTRE"
    resp = game.ValidateMove(move(lexicon="pl-scrabble", rack="PSY", play=("8H", "KOT")), timeout=5)
    assert not resp.valid and resp.reason == "TILE_NOT_IN_RACK"
    resp = game.ValidateMove(move(lexicon="pl-scrabble", play=("8M", "KOTY")), timeout=5)
    assert not resp.valid and resp.reason == "OFF_BOARD"
    resp = game.ValidateMove(move(lexicon="pl-scrabble", rack="KO?", play=("8H", "KOt")), timeout=5)
    assert resp.valid and any(t.blank and t.points == 0 for t in resp.words[0].tiles)


def test_moves_bad_input_names_the_field(game):
    for req, field in (
        (move(lexicon="pl-scrabble", play=("", "KOT")), "play.position:"),
        (move(lexicon="pl-scrabble", play=("8H", "")), "play.word:"),
        (move(lexicon="pl-scrabble", rack="KOQ", play=("8H", "KOT")), "rack:"),
        (move(lexicon="pl-scrabble", rack="KOTABCDE", play=("8H", "KOT")), "rack:"),
        (move(lexicon="pl-scrabble", board=["..."] * 3, play=("8H", "KOT")), "board:"),
        (move(lexicon="pl-scrabble", board=["X" * 15] * 15, play=("8H", "KOT")), "board:"),
        (move(lexicon="pl-scrabble", rule_set="cs-scrabble", play=("8H", "KOT")), "rule_set:"),
        (move(play=("8H", "KOT")), "lexicon:"),
    ):
        err = rpc_error(game.ValidateMove, req)
        assert err.code() == grpc.StatusCode.INVALID_ARGUMENT, (req, err)
        assert err.details().startswith(field), (field, err.details())
    err = rpc_error(game.ScoreMove, move(game_pb2.ScoreMoveRequest, rule_set="en-scrabble", play=("8H", "CAT")))
    assert err.code() == grpc.StatusCode.NOT_FOUND
    err = rpc_error(game.ScoreMove, move(game_pb2.ScoreMoveRequest, rule_set="../etc/passwd", play=("8H", "CAT")))
    assert err.code() == grpc.StatusCode.NOT_FOUND


def test_kris_kros_scores_with_its_own_tiles(game):
    resp = game.ValidateMove(move(lexicon="cs-kriskros", play=("8H", "[CH]ATA")), timeout=5)
    assert resp.valid, resp
    assert [t.letter for t in resp.words[0].tiles] == ["CH", "A", "T", "A"]


def test_list_rule_sets(game):
    resp = game.ListRuleSets(game_pb2.ListRuleSetsRequest(include_source=True), timeout=5)
    by_id = {rs.id: rs for rs in resp.rule_sets}
    assert {"pl-scrabble", "cs-scrabble", "cs-kriskros"} <= set(by_id)
    assert by_id["cs-kriskros"].rack_size == 8 and "CH" in {t.letter for t in by_id["cs-kriskros"].tiles}
    assert list(by_id["pl-scrabble"].lexicons) == ["pl-scrabble"]
    assert by_id["pl-scrabble"].source_text and by_id["pl-scrabble"].board_size == 15
    assert sum(t.count for t in by_id["pl-scrabble"].tiles) == 100


# --- reload ------------------------------------------------------------------------------------------
def _hammer(port: int, stop: threading.Event, failures: list, counts: list, words=("kot", "pies")):
    with grpc.insecure_channel(f"localhost:{port}") as ch:
        stub = lexicon_pb2_grpc.LexiconServiceStub(ch)
        gstub = game_pb2_grpc.GameServiceStub(ch)
        n = 0
        while not stop.is_set():
            try:
                if n % 5 == 4:
                    r = gstub.ValidateMove(move(lexicon="pl-scrabble", play=("8H", "KOT")), timeout=5)
                    assert r.valid
                else:
                    r = stub.CheckWords(lexicon_pb2.CheckWordsRequest(lexicon="pl-scrabble", words=list(words)),
                                        timeout=5)
                    assert r.acceptable, r
                n += 1
            except Exception as exc:  # noqa: BLE001
                failures.append(exc)
                return
        counts.append(n)


def test_reload_under_load_fails_no_request(tmp_path):
    directory = polish_lexicon(tmp_path).parent
    srv, port = create_server("localhost:0", directory, workers=8)
    srv.start()
    stop, failures, counts = threading.Event(), [], []
    threads = [threading.Thread(target=_hammer, args=(port, stop, failures, counts)) for _ in range(6)]
    try:
        for t in threads:
            t.start()
        time.sleep(0.2)
        generation = srv.registry.generation
        # lexicon-build replaces the lexicon (one more word) while reloads follow each other
        rebuild = threading.Thread(target=write_lexicon,
                                   args=(directory, "pl-scrabble", "pl-scrabble", WORDS["pl-scrabble"] + ["kotek"]))
        rebuild.start()
        reloads = 0
        while rebuild.is_alive() or reloads < 8:
            assert srv.reload(), srv.registry.last_error
            reloads += 1
            time.sleep(0.02)
        rebuild.join()
        assert srv.reload()
        assert srv.registry.generation == generation + reloads + 1
        time.sleep(0.2)
    finally:
        stop.set()
        for t in threads:
            t.join(10)
    try:
        assert not failures, failures[:3]
        assert sum(counts) > 50
        with grpc.insecure_channel(f"localhost:{port}") as ch:
            assert check(lexicon_pb2_grpc.LexiconServiceStub(ch), ["kotek"]).acceptable
    finally:
        srv.stop(None).wait()


def test_failed_reload_keeps_serving_the_old_lexicons(tmp_path):
    directory = polish_lexicon(tmp_path).parent
    srv, port = create_server("localhost:0", directory)
    srv.start()
    try:
        bad = directory / "broken.lex"
        bad.mkdir()  # no manifest: refused
        assert not srv.reload()
        assert "broken.lex" in srv.registry.last_error
        with pytest.raises(ReloadError):
            srv.registry.reload()
        with grpc.insecure_channel(f"localhost:{port}") as ch:
            assert check(lexicon_pb2_grpc.LexiconServiceStub(ch), ["kot"]).acceptable
            status = health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(), timeout=5).status
            assert status == health_pb2.HealthCheckResponse.SERVING
    finally:
        srv.stop(None).wait()


def test_old_lexicons_are_closed_only_after_their_last_call(tmp_path):
    directory = polish_lexicon(tmp_path).parent
    srv, _ = create_server("localhost:0", directory)
    closed = []
    with srv.registry.acquire() as snapshot:
        old = snapshot.lexicons["pl-scrabble"]
        real_close = old.close
        old.close = lambda: (closed.append(True), real_close())
        os.utime(directory / "pl-scrabble.lex" / "manifest.json")  # changed on disk: loaded again (unchanged: kept)
        srv.reload()
        assert not closed  # still in use by this call
        assert old.is_admissible(old.rule_set.tile_set.key_of_text("kot"))
    assert closed == [True]
    srv.stop(None).wait()


def test_sighup_reloads(lexicon_dir):
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signal handlers need the main thread")
    srv, port = create_server("localhost:0", lexicon_dir)
    srv.start()
    restore = install_signal_handlers(srv)
    try:
        generation = srv.registry.generation
        os.kill(os.getpid(), signal.SIGHUP)
        deadline = time.monotonic() + 5
        while srv.registry.generation == generation and time.monotonic() < deadline:
            time.sleep(0.01)
        assert srv.registry.generation == generation + 1
    finally:
        restore()
        srv.stop(None).wait()


def test_signal_handlers_take_no_lock_the_interrupted_code_may_hold(lexicon_dir):
    # A handler runs in the main thread between two bytecodes: one that starts a thread (or logs)
    # deadlocks if the interrupted code holds that lock. Holding the thread-start lock here, the
    # handler must still return at once, and the stop it asked for follows once the lock is free.
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signal handlers need the main thread")
    thread_start_lock = getattr(threading, "_active_limbo_lock", None)
    if thread_start_lock is None:
        pytest.skip("this Python's threading has no _active_limbo_lock")
    srv, port = create_server("localhost:0", lexicon_dir)
    srv.start()
    restore = install_signal_handlers(srv, grace=0)
    try:
        handler = signal.getsignal(signal.SIGTERM)
        running, go, returned = threading.Event(), threading.Event(), threading.Event()
        caller = threading.Thread(
            target=lambda: (running.set(), go.wait(), handler(signal.SIGTERM, None), returned.set()), daemon=True)
        caller.start()
        running.wait()  # past its own start-up, which takes the same lock
        with thread_start_lock:  # what Thread.start() takes
            go.set()
            assert returned.wait(2)
        assert srv.wait_for_termination(10)  # the stop the signal asked for
    finally:
        restore()
        srv.stop(None).wait()


def test_graceful_stop_sets_not_serving_and_finishes(lexicon_dir):
    srv, port = create_server("localhost:0", lexicon_dir)
    srv.start()
    done = srv.stop(2)
    assert srv.health._server_status[""] == health_pb2.HealthCheckResponse.NOT_SERVING
    assert done.wait(5)
    with grpc.insecure_channel(f"localhost:{port}") as ch:
        err = rpc_error(lexicon_pb2_grpc.LexiconServiceStub(ch).ListLexicons, lexicon_pb2.ListLexiconsRequest())
        assert err.code() == grpc.StatusCode.UNAVAILABLE


# --- auth and TLS ----------------------------------------------------------------------------------
def test_bearer_token_auth(lexicon_dir):
    srv, port = create_server("localhost:0", lexicon_dir, tokens=["s3cret", "other"])
    srv.start()
    try:
        with grpc.insecure_channel(f"localhost:{port}") as ch:
            stub = lexicon_pb2_grpc.LexiconServiceStub(ch)
            req = lexicon_pb2.ListLexiconsRequest()
            for metadata in (None, (("authorization", "Bearer nope"),), (("authorization", "s3cret"),),
                             (("authorization", "Basic s3cret"),)):
                err = rpc_error(stub.ListLexicons, req, metadata=metadata)
                assert err.code() == grpc.StatusCode.UNAUTHENTICATED, metadata
            assert stub.ListLexicons(req, metadata=(("authorization", "Bearer s3cret"),), timeout=5).lexicons
            assert stub.ListLexicons(req, metadata=(("authorization", "bearer other"),), timeout=5).lexicons
            err = rpc_error(game_pb2_grpc.GameServiceStub(ch).ListRuleSets, game_pb2.ListRuleSetsRequest())
            assert err.code() == grpc.StatusCode.UNAUTHENTICATED
            # health checks stay open (load balancers do not carry tokens)
            status = health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(), timeout=5).status
            assert status == health_pb2.HealthCheckResponse.SERVING
    finally:
        srv.stop(None).wait()


@pytest.mark.skipif(shutil.which("openssl") is None, reason="needs openssl to make a test certificate")
def test_tls(lexicon_dir, tmp_path):
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out",
                    str(cert), "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost"],
                   check=True, capture_output=True)
    srv, port = create_server("localhost:0", lexicon_dir, tls=TlsConfig(str(cert), str(key)),
                              tokens=["t"])
    srv.start()
    try:
        creds = grpc.ssl_channel_credentials(root_certificates=cert.read_bytes())
        with grpc.secure_channel(f"localhost:{port}", creds) as ch:
            resp = lexicon_pb2_grpc.LexiconServiceStub(ch).ListLexicons(
                lexicon_pb2.ListLexiconsRequest(), metadata=(("authorization", "Bearer t"),), timeout=10)
            assert resp.lexicons
        with grpc.insecure_channel(f"localhost:{port}") as ch:  # plaintext to a TLS port fails
            err = rpc_error(lexicon_pb2_grpc.LexiconServiceStub(ch).ListLexicons, lexicon_pb2.ListLexiconsRequest())
            assert err.code() == grpc.StatusCode.UNAVAILABLE
    finally:
        srv.stop(None).wait()

    # mutual TLS: the client must present a certificate signed by the client CA (here: self-signed)
    srv, port = create_server("localhost:0", lexicon_dir, tls=TlsConfig(str(cert), str(key), str(cert)))
    srv.start()
    try:
        with_cert = grpc.ssl_channel_credentials(root_certificates=cert.read_bytes(), private_key=key.read_bytes(),
                                                 certificate_chain=cert.read_bytes())
        with grpc.secure_channel(f"localhost:{port}", with_cert) as ch:
            assert lexicon_pb2_grpc.LexiconServiceStub(ch).ListLexicons(lexicon_pb2.ListLexiconsRequest(),
                                                                        timeout=10).lexicons
        with grpc.secure_channel(f"localhost:{port}", creds) as ch:
            err = rpc_error(lexicon_pb2_grpc.LexiconServiceStub(ch).ListLexicons, lexicon_pb2.ListLexiconsRequest())
            assert err.code() == grpc.StatusCode.UNAVAILABLE
    finally:
        srv.stop(None).wait()


# --- ReplayGame ----------------------------------------------------------------------------------------
GCG = """#character-encoding UTF-8
#player1 Ala Alicja Nowak
#player2 Bob Bogdan Kowalski
#rules pl-scrabble
>Ala: BEJPRUÓ 8B PRÓBUJE +96 96
>Bob: ?AMPRSY A3 PRYMAS +87 87
>Ala: ADKORTW 9F DAR +17 113
"""


def test_replay_game(game):
    resp = game.ReplayGame(game_pb2.ReplayGameRequest(lexicon="pl-scrabble", gcg=GCG), timeout=10)
    assert resp.ok, resp
    assert [(ln.line, ln.kind, ln.score) for ln in resp.lines] == [(5, "play", 96), (6, "play", 87), (7, "play", 17)]
    assert sorted(resp.lines[2].words) == ["DAR", "ER", "JA", "UD"]
    assert [(p.player, p.recorded, p.computed) for p in resp.final_scores] == [("Ala", 113, 113), ("Bob", 87, 87)]
    # no lexicon, no rule set: the record's #rules decides
    assert game.ReplayGame(game_pb2.ReplayGameRequest(gcg=GCG), timeout=10).rule_set == "pl-scrabble"


def test_replay_game_with_the_two_player_2x_end(game):
    """end_2x: the player who went out scores twice the others' racks (as `replay --end-2x`)."""
    two_x = ">a: 8G KOT +10 10\n>b: H7 O. +2 2\n>a: (ŹA) +20 30\n"
    plain = game.ReplayGame(game_pb2.ReplayGameRequest(rule_set="pl-scrabble", gcg=two_x), timeout=10)
    assert not plain.ok and [ln.line for ln in plain.lines if not ln.ok] == [3]
    doubled = game.ReplayGame(game_pb2.ReplayGameRequest(rule_set="pl-scrabble", gcg=two_x, end_2x=True), timeout=10)
    assert doubled.ok and doubled.lines[2].score == 20


def test_replay_reports_disagreements_per_line(game):
    resp = game.ReplayGame(game_pb2.ReplayGameRequest(rule_set="pl-scrabble",
                                                      gcg=GCG.replace("+17 113", "+18 114")), timeout=10)
    assert not resp.ok
    bad = [ln for ln in resp.lines if not ln.ok]
    assert [ln.line for ln in bad] == [7] and bad[0].has_score and bad[0].score == 17 and bad[0].recorded_score == 18
    assert any("18" in p for p in bad[0].problems)
    # a word the lexicon refuses, left unchallenged, is a note, not a disagreement
    phony = GCG + ">Bob: ACEIKŁN 10F KOTEK +0 87\n"
    resp = game.ReplayGame(game_pb2.ReplayGameRequest(lexicon="pl-scrabble", gcg=phony), timeout=10)
    assert resp.lines[-1].notes or resp.lines[-1].problems


def test_replay_bad_input(game):
    for req, field, code in (
        (game_pb2.ReplayGameRequest(lexicon="pl-scrabble", gcg=""), "gcg:", grpc.StatusCode.INVALID_ARGUMENT),
        (game_pb2.ReplayGameRequest(lexicon="pl-scrabble", gcg="hello\n"), "gcg:", grpc.StatusCode.INVALID_ARGUMENT),
        (game_pb2.ReplayGameRequest(lexicon="cs-kriskros", gcg=GCG), "gcg:", grpc.StatusCode.INVALID_ARGUMENT),
        (game_pb2.ReplayGameRequest(lexicon="pl-scrabble", rule_set="cs-scrabble", gcg=GCG), "rule_set:",
         grpc.StatusCode.INVALID_ARGUMENT),
        (game_pb2.ReplayGameRequest(gcg=GCG.replace("#rules pl-scrabble\n", "")), "lexicon:",
         grpc.StatusCode.INVALID_ARGUMENT),
        (game_pb2.ReplayGameRequest(lexicon="xx", gcg=GCG), "", grpc.StatusCode.NOT_FOUND),
    ):
        err = rpc_error(game.ReplayGame, req)
        assert err.code() == code and err.details().startswith(field), err.details()


def test_patterns_starting_with_a_run_are_scanned():
    from lexicon_service.core.search import needs_scan

    assert needs_scan(["*", "ó", "*"]) and needs_scan(["?", "*", "k"])
    assert not needs_scan(["k", "*"]) and not needs_scan(["*"]) and not needs_scan(["?", "k", "*"])


# --- FindWords against brute force -----------------------------------------------------------------------
def _brute_anagrams(words, rack: str, use_all: bool):
    from collections import Counter

    have = Counter(rack.replace("?", "").lower())
    blanks = rack.count("?")
    out = set()
    for w in words:
        need = Counter(w)
        missing = sum(max(0, n - have[c]) for c, n in need.items())
        if missing <= blanks and (not use_all or len(w) == len(rack)):
            out.add(w.upper())
    return out


def test_find_words_agrees_with_brute_force(lex):
    import re as _re

    from hypothesis import given, settings
    from hypothesis import strategies as st

    words = sorted(set(WORDS["pl-scrabble"]))
    letters = sorted(set("".join(words)))

    @settings(max_examples=60, deadline=None)
    @given(st.text(alphabet=letters + ["?"], min_size=1, max_size=8), st.booleans())
    def anagrams(rack, use_all):
        resp = find(lex, anagram=rack, use_all_tiles=use_all, limit=50)
        expected = {w for w in _brute_anagrams(words, rack, use_all) if len(w) >= 2}
        assert {w.word for w in resp.words} == expected

    @settings(max_examples=60, deadline=None)
    @given(st.lists(st.sampled_from(letters + ["?", "*"]), min_size=1, max_size=6))
    def patterns(tokens):
        pattern = "".join(tokens)
        regex = _re.compile("".join("." if t == "?" else ".*" if t == "*" else _re.escape(t) for t in tokens))
        resp = find(lex, pattern=pattern.upper(), limit=50)
        assert [w.word for w in resp.words] == sorted(w.upper() for w in words if regex.fullmatch(w))

    anagrams()
    patterns()


# --- compact batches ------------------------------------------------------------------------------------
def test_check_words_compact_statuses_agree_with_results(lex):
    words = ["kot", "KOTY", "Żółw", "koto", "k", "kotx", "[K]OT", "pies"] * 5
    full = check(lex, words)
    compact = check(lex, words, compact=True)
    assert not compact.results
    assert list(compact.statuses) == [r.status for r in full.results]
    assert (compact.acceptable, compact.invalid_count) == (full.acceptable, full.invalid_count)
    fast_path = ["kot", "koty", "psy", "koto", "k"] * 20  # every word on the batch fast path
    full = check(lex, fast_path)
    compact = check(lex, fast_path, compact=True)
    assert list(compact.statuses) == [r.status for r in full.results]
    assert [r.valid for r in full.results][:5] == [True, True, True, False, False]
    assert full.results[4].status == lexicon_pb2.WORD_STATUS_BAD_LENGTH and full.results[4].message
    assert full.invalid_count == compact.invalid_count == 40
    kk = check(lex, ["chata", "CHATY", "ach", "kočka", "quiz"], lexicon="cs-kriskros", compact=True)
    assert list(kk.statuses)[:4] == [lexicon_pb2.WORD_STATUS_VALID] * 4
    assert kk.statuses[4] == lexicon_pb2.WORD_STATUS_UNKNOWN_LETTER
    only = check(lex, fast_path, compact=True, verdict_only=True)
    assert not only.statuses and not only.results and only.invalid_count == 0
    err = rpc_error(lex.CheckWords, lexicon_pb2.CheckWordsRequest(lexicon="pl-scrabble", words=["kot"] * 3 + [""],
                                                                  compact=True))
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT and err.details().startswith("words[3]:")
