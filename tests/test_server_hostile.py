"""Hostile input to the server (issue #13): odd letters, undecodable requests, pathological
searches, oversized records, corrupt or changing lexicon files, bad manifests, bad serve options,
a dying server process. Each case was a crash, an INTERNAL or unbounded work before."""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unicodedata
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lexicon_service.grpc_gen import game_pb2, lexicon_pb2, lexicon_pb2_grpc
from lexicon_service.lexicon import LexiconCorruptError, LexiconFormatError, load_lexicon
from lexicon_service.server import Limits, create_server
from lexicon_service.core.registry import ReloadError
from bench_modules import bench_module
from test_service import ROOT, WORDS, check, polish_lexicon, rpc_error, write_lexicon

UNKNOWN = lexicon_pb2.WORD_STATUS_UNKNOWN_LETTER
loadgen = bench_module("loadgen")  # the bench's lean HTTP/2 client and /proc readings


# --- odd letters: one policy everywhere -----------------------------------------------------------
@pytest.mark.parametrize("word", ["ſtół", "\u212aot", "\ue000ata", "ko\ue001", "kot\u0301", "ﬁt"])
def test_compatibility_and_private_use_characters_are_unknown_letters(lex, game, word):
    for lexicon in ("pl-scrabble", "cs-kriskros"):
        for words in ([word], [word, "kot"], [word, "kot"] * 50):  # single, batch, large batch
            resp = check(lex, words, lexicon=lexicon)
            assert resp.results[0].status == UNKNOWN and not resp.results[0].valid, (lexicon, words[:2])
        explained = lex.ExplainWord(lexicon_pb2.ExplainWordRequest(lexicon=lexicon, word=word), timeout=5)
        assert explained.result.status == UNKNOWN and not explained.readings
        err = rpc_error(lex.FindWords, lexicon_pb2.FindWordsRequest(lexicon=lexicon, pattern=word + "*"))
        assert err.code() == grpc.StatusCode.INVALID_ARGUMENT and err.details().startswith("pattern:")
        # the play is judged (an answer with its reason, #14's policy); a bad rack is the request's error
        answer = game.ValidateMove(game_pb2.ValidateMoveRequest(
            lexicon=lexicon, play=game_pb2.Play(position="8H", word=word)), timeout=5)
        assert not answer.valid and answer.reason == "UNKNOWN_LETTER", (lexicon, word)
        err = rpc_error(game.ValidateMove, game_pb2.ValidateMoveRequest(
            lexicon=lexicon, rack=word, play=game_pb2.Play(position="8H", word="KOT")))
        assert err.code() == grpc.StatusCode.INVALID_ARGUMENT and err.details().startswith("rack:")


def test_the_kelvin_sign_is_not_folded_to_k(lex):
    assert check(lex, ["kot"]).acceptable
    resp = check(lex, ["\u212aOT"])
    assert resp.results[0].status == UNKNOWN and "U+212A" in resp.results[0].message


def test_decomposed_letters_are_the_same_words(lex):
    nfd = unicodedata.normalize("NFD", "żółw")
    assert nfd != "żółw"
    assert check(lex, [nfd]).acceptable and check(lex, [nfd, "kot"] * 50).acceptable


def test_length_limits_count_characters_after_nfc(lex):
    nfc = "ż" * 33  # 33 characters composed, 66 decomposed; the limit is 64
    nfd = unicodedata.normalize("NFD", nfc)
    assert len(nfd) == 66
    for words in ([nfc], [nfd], [nfc, "kot"], [nfd, "kot"]):
        assert check(lex, words).results[0].status == lexicon_pb2.WORD_STATUS_BAD_LENGTH, len(words[0])
    for word in (nfc, nfd):
        resp = lex.ExplainWord(lexicon_pb2.ExplainWordRequest(lexicon="pl-scrabble", word=word), timeout=5)
        assert resp.result.status == lexicon_pb2.WORD_STATUS_BAD_LENGTH
    for word in ("ż" * 65, unicodedata.normalize("NFD", "ż" * 65)):
        err = rpc_error(lex.CheckWords, lexicon_pb2.CheckWordsRequest(lexicon="pl-scrabble", words=[word]))
        assert err.code() == grpc.StatusCode.INVALID_ARGUMENT and err.details().startswith("words[0]: 65 characters")


# --- undecodable requests ---------------------------------------------------------------------------
RAW_CASES = [
    ("/lexicon.v1.LexiconService/CheckWords", b"\x0a\x0bpl-scrabble\x12\x03kot\x12\x02\xc3\x28", "words[1]: invalid UTF-8"),
    ("/lexicon.v1.LexiconService/CheckWords", b"\x0a\x02\xff\xfe", "lexicon: invalid UTF-8"),
    ("/lexicon.v1.LexiconService/ExplainWord", b"\x12\x01\x80", "word: invalid UTF-8"),
    ("/lexicon.v1.LexiconService/FindWords", b"\x0a\x50ab", "lexicon: malformed protobuf"),
    ("/lexicon.v1.LexiconService/ListLexicons", b"\xff\xff\xff", "request: malformed protobuf"),
    ("/lexicon.v1.GameService/ValidateMove", b"\x2a\x04\x0a\x02\xc0\xc0", "play.position: invalid UTF-8"),
    ("/lexicon.v1.GameService/ScoreMove", b"\x07", "request: malformed protobuf"),
    ("/lexicon.v1.GameService/ReplayGame", b"\x1a\x01\xe2", "gcg: invalid UTF-8"),
    ("/lexicon.v1.GameService/ListRuleSets", b"\x08", "request: malformed protobuf"),
    ("/grpc.health.v1.Health/Check", b"\x0a\x02\xff\xfe", "service: invalid UTF-8"),
]


@pytest.mark.parametrize("method,data,message", RAW_CASES)
def test_undecodable_requests_are_invalid_argument_naming_the_field(channel, method, data, message):
    call = channel.unary_unary(method, request_serializer=lambda b: b, response_deserializer=lambda b: b)
    with pytest.raises(grpc.RpcError) as info:
        call(data, timeout=5)
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT, info.value.details()
    assert info.value.details().startswith(message), info.value.details()


def test_undecodable_request_to_the_reflection_stream(channel):
    call = channel.stream_stream("/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo",
                                 request_serializer=lambda b: b, response_deserializer=lambda b: b)
    with pytest.raises(grpc.RpcError) as info:
        list(call(iter([b"\x0a\x01\xff"]), timeout=5))
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT


def test_repeated_client_errors_are_logged_a_few_times_only(caplog):
    from lexicon_service.errors import _RateLimitedLog

    limited = _RateLimitedLog(burst=3, window=60)
    with caplog.at_level("INFO", logger="lexicon_service.server"):
        for i in range(100):
            limited("bad request", 20, "bad request %d", i)
    assert len(caplog.records) == 3


class _Boom(Exception):
    pass


class _FailingInterceptor(grpc.ServerInterceptor):
    def intercept_service(self, continuation, handler_call_details):
        if handler_call_details.method.endswith("/Intercepted"):
            raise _Boom("in the interceptor")
        return continuation(handler_call_details)


def _failing_handlers(call_details):
    def fail(request, context):
        raise _Boom("in the method")

    def stream(request, context):
        yield b"first"
        raise _Boom("while streaming")

    def unserialisable(_):
        raise _Boom("in the serialiser")

    name = call_details.method.rsplit("/", 1)[-1]
    if name == "Stream":
        return grpc.unary_stream_rpc_method_handler(stream)
    if name == "Serialise":
        return grpc.unary_unary_rpc_method_handler(lambda request, context: b"x", response_serializer=unserialisable)
    return grpc.unary_unary_rpc_method_handler(fail)


@pytest.fixture
def fresh_log_limits(monkeypatch):
    """The rate limit of the server's log starts afresh (other tests in this process used it up)."""
    from lexicon_service import errors

    monkeypatch.setattr(errors, "limited_log", errors._RateLimitedLog())


def test_failures_outside_the_servicers_get_a_status_and_one_log_line(caplog, fresh_log_limits):
    """What grpc itself would log with a traceback per call (an interceptor, a serialiser, a handler or a
    stream raising) is one rate-limited line; the call gets grpc's status."""
    from concurrent.futures import ThreadPoolExecutor

    from lexicon_service.server.errors import quiet_grpc_tracebacks

    quiet_grpc_tracebacks()
    executor = ThreadPoolExecutor(2)  # shut down below: grpc's stop leaves its threads running
    server = grpc.server(executor, interceptors=[_FailingInterceptor()])
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler("t.Fail", {}),))
    server.add_generic_rpc_handlers((type("H", (grpc.GenericRpcHandler,), {
        "service": lambda self, details: _failing_handlers(details)})(),))
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        with caplog.at_level("INFO"), grpc.insecure_channel(f"127.0.0.1:{port}") as ch:
            codes = {}
            for name in ("Intercepted", "Serialise", "Method", "Stream"):
                for _ in range(15):
                    try:
                        if name == "Stream":
                            list(ch.unary_stream(f"/t.Fail/{name}")(b"", timeout=5))
                        else:
                            ch.unary_unary(f"/t.Fail/{name}")(b"", timeout=5)
                    except grpc.RpcError as exc:
                        codes[name] = exc.code()
    finally:
        server.stop(None).wait()
        executor.shutdown()
    assert codes == {"Intercepted": grpc.StatusCode.UNKNOWN, "Serialise": grpc.StatusCode.INTERNAL,
                     "Method": grpc.StatusCode.UNKNOWN, "Stream": grpc.StatusCode.UNKNOWN}
    grpc_records = [r for r in caplog.records if r.name.startswith(("grpc", "lexicon_service"))]
    assert not [r for r in grpc_records if r.exc_info], "a traceback was logged"
    lines = [r.getMessage() for r in grpc_records]
    for where in ("in the interceptor", "in the serialiser", "in the method", "while streaming"):
        logged = [line for line in lines if where in line]
        assert 1 <= len(logged) <= 10 and "\n" not in logged[0], (where, lines)


def test_metadata_that_is_not_utf8_is_answered_and_logged_in_one_line(server, caplog, fresh_log_limits):  # noqa: F811
    """Only a client of its own (grpc's refuses) sends such bytes: the bench's lean HTTP/2 client."""
    import selectors

    _, port = server
    answers = []
    with caplog.at_level("INFO"):
        for value in (b"Bearer \xff\xfe", b"\x80abc"):
            conn = loadgen.H2Connection(port, "/lexicon.v1.GameSessionService/GetGame", 0,
                                        headers=[(b"x-game-token", value)])
            conn.send(b"\x0a\x10" + b"0123456789abcdef", time.perf_counter())
            selector = selectors.DefaultSelector()
            selector.register(conn.sock, selectors.EVENT_READ)
            deadline = time.monotonic() + 10
            while len(answers) < (1 if value.startswith(b"B") else 2) and time.monotonic() < deadline:
                if selector.select(1):
                    conn.on_readable(lambda started, ok, result, tag: answers.append(result))
            selector.close()
            conn.close()
    assert len(answers) == 2 and all("grpc-status b'5'" in a for a in answers), answers  # NOT_FOUND: no such game
    records = [r for r in caplog.records if r.name.startswith(("grpc", "lexicon_service"))]
    assert not [r for r in records if r.exc_info]
    assert any("not UTF-8" in r.getMessage() for r in records)


# --- bounded work -----------------------------------------------------------------------------------
class _KeysOnly:
    """A lexicon of many keys that all nearly match, for the worst regular-expression case."""

    def __init__(self, keys) -> None:
        self._keys = keys

    def iter_keys(self, prefix=""):
        return iter(self._keys)

    def is_admissible(self, key):
        return False


def test_wildcard_runs_never_backtrack_catastrophically():
    from lexicon_service.core.limits import WorkBudget
    from lexicon_service.core.search import parse_pattern, scan_pattern
    from lexicon_service.rules import load_rule_set

    tile_set = load_rule_set("pl-scrabble").tile_set
    keys = ["".join(random.Random(i).choice("ab") for _ in range(15)) for i in range(3000)]
    tokens = parse_pattern(tile_set, "*?*?*?*?*?*?*?*?*?*Ź", "pattern")
    assert tokens == ["?"] * 9 + ["*", "ź"]
    started = time.thread_time()
    found, truncated = scan_pattern(_KeysOnly(keys), tokens, min_len=2, max_len=15, limit=10,
                                    budget=WorkBudget(10**9, 60.0, None))
    assert found == [] and not truncated
    assert time.thread_time() - started < 0.5  # the uncollapsed expression takes minutes here


def test_collapsing_wildcards_keeps_the_meaning():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from lexicon_service.core.search import collapse_wildcards

    def regex(tokens):
        return re.compile("".join("." if t == "?" else ".*" if t == "*" else t for t in tokens))

    @settings(max_examples=300, deadline=None)
    @given(st.lists(st.sampled_from(["a", "b", "?", "*"]), max_size=8), st.text(alphabet="ab", max_size=8))
    def same(tokens, key):
        assert bool(regex(tokens).fullmatch(key)) == bool(regex(collapse_wildcards(tokens)).fullmatch(key))

    same()


def test_a_search_stops_when_the_client_goes_away():
    from lexicon_service.errors import CancelledError
    from lexicon_service.core.limits import BudgetExceeded, WorkBudget

    class Gone:
        def is_active(self):
            return False

    budget = WorkBudget(10**9, 60.0, None, Gone(), check_every=10)
    with pytest.raises(CancelledError):
        for _ in range(100):
            budget.spend()
    budget = WorkBudget(10**9, 0.0, None, check_every=1)  # no CPU allowance left: truncated
    with pytest.raises(BudgetExceeded):
        budget.spend()


def test_anagram_results_are_trimmed_to_the_limit_as_they_grow():
    from collections import Counter

    from lexicon_service.core.limits import WorkBudget
    from lexicon_service.core.search import find_anagrams
    from lexicon_service.rules import load_rule_set

    class Everything:
        def has_prefix(self, prefix):
            return True

        def is_admissible(self, key):
            return True

    tile_set = load_rule_set("pl-scrabble").tile_set
    found, truncated = find_anagrams(Everything(), tile_set, Counter(), 4, use_all=False, min_len=2, max_len=4,
                                     limit=5, budget=WorkBudget(20_000, 60.0, None))
    assert truncated and len(found) == 5 and all(len(f.key) == 4 for f in found)


def test_limits_are_published(lex):
    limits = lex.ListLexicons(lexicon_pb2.ListLexiconsRequest(), timeout=5).limits
    assert (limits.max_words, limits.max_results, limits.max_message_bytes) == (100, 50, 64 * 1024)
    assert limits.max_word_chars == 64 and limits.max_gcg_lines == 2000 and limits.search_budget > 0


# --- ReplayGame limits ------------------------------------------------------------------------------
def test_replay_counts_every_line_separator(game):
    for sep in ("\r", "\n", "\r\n", "\u2028"):
        gcg = sep.join(["#player1 a A"] + [">a: - +0 0"] * 2000)
        err = rpc_error(game.ReplayGame, game_pb2.ReplayGameRequest(rule_set="pl-scrabble", gcg=gcg))
        assert err.code() == grpc.StatusCode.INVALID_ARGUMENT and err.details().startswith("gcg: 2001 lines"), sep


def test_replay_a_separator_after_the_last_line_adds_no_line(game):
    """A 2,000-line record that ends in a newline was refused as '2001 lines' (the limit is 2,000)."""
    for sep in ("\r", "\n", "\r\n", "\u2028"):
        gcg = sep.join(["#player1 a A"] + [">a: - +0 0"] * 1999) + sep
        game.ReplayGame(game_pb2.ReplayGameRequest(rule_set="pl-scrabble", gcg=gcg), timeout=30)
        err = rpc_error(game.ReplayGame, game_pb2.ReplayGameRequest(rule_set="pl-scrabble", gcg=gcg + "#note x" + sep))
        assert err.code() == grpc.StatusCode.INVALID_ARGUMENT and err.details().startswith("gcg: 2001 lines"), sep


def test_replay_refuses_an_oversized_record(game, lexicon_dir):
    srv, port = create_server("localhost:0", lexicon_dir, limits=Limits(max_message_bytes=1 << 20))
    with srv, grpc.insecure_channel(f"localhost:{port}") as ch:
        from lexicon_service.grpc_gen import game_pb2_grpc

        err = rpc_error(game_pb2_grpc.GameServiceStub(ch).ReplayGame,
                        game_pb2.ReplayGameRequest(rule_set="pl-scrabble", gcg="#note " + "x" * 300_000))
        assert err.code() == grpc.StatusCode.INVALID_ARGUMENT and err.details().startswith("gcg: 300006 characters")


@pytest.mark.parametrize("line", [
    ">a: ABC -" + "9" * 5000 + " +0 0",     # a 5,000-digit exchange count
    ">a: ABC - +" + "9" * 5000 + " 0",      # a 5,000-digit score
    ">a: ABC - +0 " + "9" * 12,             # a total outside 32 bits
    ">a: ABC - +2147483648 2147483648",     # a score outside 32 bits
])
def test_replay_numbers_out_of_range_are_invalid_argument(game, line):
    err = rpc_error(game.ReplayGame, game_pb2.ReplayGameRequest(rule_set="pl-scrabble", gcg="#player1 a A\n" + line))
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT and err.details().startswith("gcg:"), err.details()


# --- corrupt and changing lexicon files -------------------------------------------------------------
def _rewrite(lex_dir: Path, name: str, data: bytes, manifest_change=None) -> None:
    """Replace a lexicon file and keep the manifest's size and checksum consistent with it."""
    (lex_dir / name).write_bytes(data)
    manifest = json.loads((lex_dir / "manifest.json").read_text(encoding="utf-8"))
    manifest["files"][name] = {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
    if manifest_change:
        manifest_change(manifest)
    (lex_dir / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")


@pytest.fixture(scope="module")
def medium_lexicon(tmp_path_factory) -> Path:
    directory = tmp_path_factory.mktemp("medium")
    words = [a + b + c + d for a in "kotpsiaez" for b in "aeiouył" for c in "krtnmż" for d in ("", "a", "y", "ami")]
    return write_lexicon(directory, "medium", "pl-scrabble", words)


def _vector_end(data: bytes, pos: int) -> int:
    """End of a marisa Vector at `pos`: its byte size (u64), the bytes, padding to 8."""
    size = int.from_bytes(data[pos:pos + 8], "little")
    return pos + 8 + size + (-size % 8)


def _bit_vector_end(data: bytes, pos: int) -> tuple[int, int]:
    """(end, number of 1s) of a marisa BitVector: units, size and 1s (u32 each), ranks, select0s, select1s."""
    pos = _vector_end(data, pos)
    ones = int.from_bytes(data[pos + 4:pos + 8], "little")
    pos += 8
    for _ in range(3):
        pos = _vector_end(data, pos)
    return pos, ones


def _links_far_out_of_bounds(trie: bytes) -> bytes:
    """The trie with every link of its first level pointing ~2**40 nodes past the end: a walk reads
    at least 2**37 bytes beyond the mapping, always unmapped (SIGSEGV), whatever the layout. marisa
    0.3's file: a 16-byte header, then the louds, terminal and link bit vectors, bases (u8 vector),
    extras (a flat vector: units, then value size u32, mask u32, size u64). A link is
    base | extra << 8; with value size 0 every extra is units[0] & mask. marisa checks none of it."""
    data = bytearray(trie)
    pos, links = 16, 0
    for _ in range(3):
        pos, links = _bit_vector_end(data, pos)
    pos = _vector_end(data, pos)  # bases
    units, fields = pos + 8, _vector_end(data, pos)
    assert links and fields - units >= 8, "the trie has no links to corrupt"
    data[units:units + 8] = b"\xff" * 8
    data[fields:fields + 8] = (0).to_bytes(4, "little") + (2**32 - 1).to_bytes(4, "little")
    assert int.from_bytes(data[fields + 8:fields + 16], "little") == links  # landed on the extras' fields
    return bytes(data)


_PLAIN_WALK = ("import sys\nfrom lexicon_service.lexicon import load_lexicon\n"
               "lex = load_lexicon(sys.argv[1])\nfor k in lex.keys(): k in lex\n")


def test_a_checksum_consistent_damaged_trie_is_refused_at_load(medium_lexicon, tmp_path):
    """A trie that marisa loads and then crashes the process on is refused: the tries are walked
    in a child process first. The damage is built from the file's structure, so it always crashes."""
    copy = tmp_path / "links.lex"
    shutil.copytree(medium_lexicon, copy)
    _rewrite(copy, "forms.marisa", _links_far_out_of_bounds((medium_lexicon / "forms.marisa").read_bytes()))
    # the point of the test: marisa maps it without complaint, and a plain walk is killed
    walk = subprocess.run([sys.executable, "-c", _PLAIN_WALK, str(copy)], capture_output=True, timeout=60)
    assert walk.returncode < 0, (walk.returncode, walk.stderr[-300:])
    with pytest.raises(LexiconCorruptError, match=r"forms\.marisa.*: damaged trie \(structure check: killed by SIG"):
        load_lexicon(copy, check_structure=True)


def test_a_reload_onto_a_crashing_trie_keeps_the_server_serving(medium_lexicon, tmp_path):
    directory = tmp_path / "served"
    target = directory / "medium.lex"
    shutil.copytree(medium_lexicon, target)
    srv, port = create_server("localhost:0", directory)
    with srv, grpc.insecure_channel(f"localhost:{port}") as ch:
        stub = lexicon_pb2_grpc.LexiconServiceStub(ch)
        assert check(stub, ["kota"], lexicon="medium").acceptable
        _rewrite(target, "forms.marisa", _links_far_out_of_bounds((medium_lexicon / "forms.marisa").read_bytes()))
        with pytest.raises(ReloadError, match="killed by SIG"):
            srv.registry.reload()
        assert check(stub, ["kota"], lexicon="medium").acceptable and not check(stub, ["kotx"], lexicon="medium").acceptable
        assert stub.FindWords(lexicon_pb2.FindWordsRequest(lexicon="medium", pattern="KOT*"), timeout=5).words
        status = health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(), timeout=5).status
        assert status == health_pb2.HealthCheckResponse.SERVING


# Up to 8 bytes of the trie after its 16-byte header overwritten: (offset past the header, modulo the rest, byte).
# hypothesis draws them (reproducibly: derandomize) and shrinks a failure to the fewest, smallest changes.
TRIE_DAMAGE = st.lists(st.tuples(st.integers(0, 1 << 20), st.integers(0, 255)), min_size=1, max_size=8)


@settings(max_examples=6, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(damage=TRIE_DAMAGE)
def test_random_damage_to_a_trie_is_refused_or_harmless(medium_lexicon, tmp_path, damage):
    """Random damage (checksum kept consistent): each trie is either refused at load or walks without
    crashing (in a child, to survive if not)."""
    original = (medium_lexicon / "forms.marisa").read_bytes()
    copy = Path(tempfile.mkdtemp(dir=tmp_path)) / "c.lex"
    shutil.copytree(medium_lexicon, copy)
    data = bytearray(original)
    for offset, value in damage:
        data[16 + offset % (len(data) - 16)] = value
    _rewrite(copy, "forms.marisa", bytes(data))
    try:
        lexicon = load_lexicon(copy, check_structure=True)
    except LexiconCorruptError:
        return
    walk = subprocess.run([sys.executable, "-c", _PLAIN_WALK, str(copy)], capture_output=True, timeout=60)
    assert walk.returncode >= 0, (damage, walk.returncode)
    lexicon.close()


def test_a_trie_that_would_loop_for_ever_is_refused(medium_lexicon, tmp_path):
    """One corruption makes marisa loop for ever inside a walk (this seed, with marisa-trie 1.x):
    the structure check gives up after its timeout and refuses the trie."""
    from lexicon_service.lexicon_copies import check_trie_structure, private_copy

    data = bytearray((medium_lexicon / "forms.marisa").read_bytes())
    rnd = random.Random(6)
    for _ in range(8):
        data[rnd.randrange(16, len(data))] = rnd.randrange(256)
    path = tmp_path / "forms.marisa"
    path.write_bytes(bytes(data))
    copy, _, sha = private_copy(path, None, verify=False)
    try:
        with pytest.raises(LexiconCorruptError, match="did not finish|damaged"):
            check_trie_structure({str(path): (copy, sha)}, timeout=2.0)
    finally:
        copy.close()


def test_served_files_changed_in_place_do_not_crash_the_server(tmp_path):
    target = polish_lexicon(tmp_path)
    directory = target.parent
    srv, port = create_server("localhost:0", directory)
    with srv, grpc.insecure_channel(f"localhost:{port}") as ch:
        stub = lexicon_pb2_grpc.LexiconServiceStub(ch)
        for name in ("forms.marisa", "headwords.marisa", "readings.bin"):  # truncate in place
            with open(target / name, "r+b") as fh:
                fh.truncate(0)
        for word in WORDS["pl-scrabble"]:
            assert stub.ExplainWord(lexicon_pb2.ExplainWordRequest(lexicon="pl-scrabble", word=word),
                                    timeout=5).readings
        assert stub.FindWords(lexicon_pb2.FindWordsRequest(lexicon="pl-scrabble", pattern="*O*"), timeout=5).words


def test_tables_index_out_of_range_is_refused_at_load(medium_lexicon, tmp_path):
    copy = tmp_path / "t.lex"
    shutil.copytree(medium_lexicon, copy)
    tables = json.loads((copy / "tables.json").read_text(encoding="utf-8"))
    tables["tagsets"][0][0][0] = len(tables["tags"]) + 7
    _rewrite(copy, "tables.json", json.dumps(tables).encode())
    with pytest.raises(LexiconCorruptError, match=r"tagsets\[0\]"):
        load_lexicon(copy)


def test_readings_out_of_range_fail_one_explanation_not_the_server(medium_lexicon, tmp_path):
    copy = tmp_path / "r.lex"
    shutil.copytree(medium_lexicon, copy)
    data = bytearray((copy / "readings.bin").read_bytes())
    data[-8:] = (2**64 - 1).to_bytes(8, "little")  # the last record: a headword id that does not exist
    _rewrite(copy, "readings.bin", bytes(data))
    lexicon = load_lexicon(copy)
    broken = [k for k in lexicon.keys() if _raises(lexicon.explain, k)]
    assert broken and all(_raises(lexicon.explain, k) is LexiconCorruptError for k in broken)
    lexicon.close()


def _raises(fn, *args):
    try:
        fn(*args)
    except Exception as exc:  # noqa: BLE001
        return type(exc)
    return None


# --- manifests: reload and start-up -----------------------------------------------------------------
def test_reload_validates_the_manifest_before_the_swap(tmp_path):
    target = polish_lexicon(tmp_path)
    directory = target.parent
    srv, port = create_server("localhost:0", directory)
    with srv, grpc.insecure_channel(f"localhost:{port}") as ch:
        manifest = json.loads((target / "manifest.json").read_text(encoding="utf-8"))
        manifest["name"] = 123
        (target / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
        with pytest.raises(ReloadError, match="name"):
            srv.registry.reload()
        assert not srv.reload()
        stub = lexicon_pb2_grpc.LexiconServiceStub(ch)
        assert check(stub, ["kot"]).acceptable
        assert stub.ExplainWord(lexicon_pb2.ExplainWordRequest(lexicon="pl-scrabble", word="kot"), timeout=5).readings
        assert [i.name for i in stub.ListLexicons(lexicon_pb2.ListLexiconsRequest(), timeout=5).lexicons] \
            == ["pl-scrabble"]
        status = health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(), timeout=5).status
        assert status == health_pb2.HealthCheckResponse.SERVING


def _bad_rule_set(target: Path) -> None:
    manifest = json.loads((target / "manifest.json").read_text(encoding="utf-8"))
    manifest["rule_set"]["source_text"] = "[tiles]\nthis is not a rule set\n"
    (target / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")


def test_a_bad_manifest_rule_set_is_a_clear_error(tmp_path, capsys):
    target = polish_lexicon(tmp_path)
    directory = target.parent
    _bad_rule_set(target)
    with pytest.raises(LexiconFormatError, match="rule set is not valid"):
        load_lexicon(target)
    from lexicon_service.cli import main

    code = main(["serve", "--address", "127.0.0.1:0", "--lexicons", str(directory), "--processes", "1"])
    err = capsys.readouterr().err
    assert code == 2 and "rule set is not valid" in err and "Traceback" not in err
    code = main(["check", "--lexicon", str(target), "kot"])
    err = capsys.readouterr().err
    assert code not in (0, 1) and "rule set is not valid" in err


# --- serve options ----------------------------------------------------------------------------------
def _serve(capsys, *argv) -> tuple[int, str]:
    from lexicon_service.cli import main

    code = main(["serve", "--processes", "1", *argv])
    return code, capsys.readouterr().err


def test_serve_refuses_unusable_token_files(tmp_path, capsys, lexicon_dir):
    binary = tmp_path / "binary"
    binary.write_bytes(bytes(range(256)) * 4)
    code, err = _serve(capsys, "--address", "127.0.0.1:0", "--lexicons", str(lexicon_dir), "--token-file", str(binary))
    assert code == 2 and "not UTF-8" in err and "Traceback" not in err
    spaced = tmp_path / "spaced"
    spaced.write_text("toke\u00f1\n", encoding="utf-8")
    code, err = _serve(capsys, "--address", "127.0.0.1:0", "--lexicons", str(lexicon_dir), "--token-file", str(spaced))
    assert code == 2 and "visible ASCII" in err


def test_a_token_file_with_a_byte_order_mark_works(tmp_path):
    from lexicon_service.commands.serve import _tokens

    path = tmp_path / "tokens"
    path.write_bytes(b"\xef\xbb\xbfs3cret\r\n# comment\nother\n")

    class Args:
        token_file = str(path)

    assert _tokens(Args()) == ["s3cret", "other"]


@pytest.mark.parametrize("address", ["127.0.0.1", "localhost:", ":50051", "127.0.0.1:99999", "[::1]"])
def test_serve_needs_a_port(capsys, lexicon_dir, address):
    code, err = _serve(capsys, "--address", address, "--lexicons", str(lexicon_dir))
    assert code == 2 and "must be host:port" in err


def test_a_bad_tls_key_is_reported_as_such(tmp_path, capsys, lexicon_dir):
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
                    "-days", "1", "-subj", "/CN=localhost"], check=True, capture_output=True)
    key.write_text("-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----\n")
    code, err = _serve(capsys, "--address", "127.0.0.1:0", "--lexicons", str(lexicon_dir),
                       "--tls-cert", str(cert), "--tls-key", str(key))
    assert code == 2 and "key" in err and "cannot be used" in err and "bind" not in err.lower()


# --- several processes: one dies --------------------------------------------------------------------
def test_health_list_is_answered(channel):
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    statuses = health_pb2_grpc.HealthStub(channel).List(health_pb2.HealthListRequest(), timeout=5).statuses
    assert statuses["lexicon.v1.LexiconService"].status == health_pb2.HealthCheckResponse.SERVING
    assert statuses[""].status == health_pb2.HealthCheckResponse.SERVING


def _supervised_server(tmp_path) -> subprocess.Popen:
    """`serve --processes 2` on a free loopback port, over a one-lexicon directory."""
    directory = polish_lexicon(tmp_path).parent
    return subprocess.Popen([sys.executable, "-m", "lexicon_service", "serve", "--address", "127.0.0.1:0",
                             "--lexicons", str(directory), "--processes", "2", "--workers", "2",
                             "--fast-threads", "1"],
                            cwd=ROOT, env=dict(os.environ, PYTHONUNBUFFERED="1"), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def test_a_dead_server_process_is_restarted_and_the_other_keeps_serving(tmp_path):
    proc = _supervised_server(tmp_path)
    try:
        line = proc.stdout.readline()
        m = re.search(r"on 127\.0\.0\.1:(\d+) \(2 processes\)", line)
        assert m, (line, proc.stderr.read() if proc.poll() is not None else "")
        address = f"127.0.0.1:{m.group(1)}"
        children = loadgen.children(proc.pid)
        assert len(children) == 2
        victim = children[0]
        os.kill(victim, signal.SIGKILL)
        killed = time.monotonic()
        failures = 0
        while True:  # every new connection is answered (by the survivor, then by either)
            try:
                with grpc.insecure_channel(address) as ch:
                    resp = lexicon_pb2_grpc.LexiconServiceStub(ch).CheckWords(
                        lexicon_pb2.CheckWordsRequest(lexicon="pl-scrabble", words=["kot"]), timeout=5)
                    assert resp.acceptable
            except grpc.RpcError:
                failures += 1
            now_children = loadgen.children(proc.pid)
            if len(now_children) == 2 and victim not in now_children and \
                    loadgen.listening(max(now_children), int(address.rsplit(":", 1)[1])):
                break
            assert time.monotonic() - killed < 10, "the dead process was not restarted"
            time.sleep(0.05)
        restarted_after = time.monotonic() - killed
        assert failures <= 1, failures  # a connection already made to the dying process may fail once
        assert restarted_after < 5, restarted_after  # ~1-2 s on an idle machine (issue target 2 s)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(20) == 0
        assert "killed by SIGKILL" in proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_server_processes_stop_when_their_supervisor_is_killed(tmp_path):
    proc = _supervised_server(tmp_path)
    children = []
    try:
        assert "(2 processes)" in proc.stdout.readline()
        children = loadgen.children(proc.pid)
        assert len(children) == 2
        proc.kill()  # SIGKILL: the supervisor cannot stop its children itself
        proc.wait()
        deadline = time.monotonic() + 10
        while any(Path(f"/proc/{c}").exists() and "Z" not in _state(c) for c in children):
            assert time.monotonic() < deadline, "server processes outlived their supervisor"
            time.sleep(0.05)
    finally:
        for child in children:
            try:
                os.kill(child, signal.SIGKILL)
            except ProcessLookupError:
                pass


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return "Z"


def test_a_connection_gets_at_most_max_streams_calls_open_and_the_others_are_refused(lexicon_dir):
    # before: no limit; one connection that opened 3,000 streams and read none of their answers made the
    # server hold them all (~660 MB)
    unread_streams = bench_module("bench_slow_readers").UnreadStreams
    srv, port = create_server("127.0.0.1:0", lexicon_dir, max_streams_per_connection=4)
    srv.start()
    client = None
    try:
        client = unread_streams(port)
        # answers of ~200 KB (an unknown letter's message for each word): more than the 64 KB window the client
        # grants the connection, so none ends and each stream stays open
        message = lexicon_pb2.CheckWordsRequest(lexicon="pl-scrabble", words=["kotx"] * 3000).SerializeToString()
        client.open_streams(20, message, limit=10)
        deadline = time.monotonic() + 10
        while client.refused + client.answered_headers < 20 and time.monotonic() < deadline:
            client.read(0.1)
        assert client.max_streams == 4
        assert client.answered_headers == 4 and client.refused == 16
        assert client.goaway is None and not client.closed
    finally:
        if client is not None:
            client.sock.close()
        srv.stop(0).wait()


def test_the_default_stream_limit_is_advertised(server):
    from lexicon_service.server.server import MAX_STREAMS_PER_CONNECTION

    client = bench_module("bench_slow_readers").UnreadStreams(server[1])
    try:
        deadline = time.monotonic() + 5
        while client.max_streams is None and time.monotonic() < deadline:
            client.read(0.1)
        assert client.max_streams == MAX_STREAMS_PER_CONNECTION == 64
    finally:
        client.sock.close()


def test_refused_requests_do_not_use_up_a_connection(tmp_path):
    """A hundred calls answered INVALID_ARGUMENT (a field error, with its google.rpc details) on one
    connection of a real `serve` (its garbage-collector tuning on, as shipped): every one is answered,
    and a good call after them too. Before, each such answer kept its stream open until the cyclic
    collector ran, and after 64 the connection refused every call (REFUSED_STREAM: UNAVAILABLE)."""
    proc = _supervised_server(tmp_path)
    try:
        line = proc.stdout.readline()
        m = re.search(r"on 127\.0\.0\.1:(\d+) \(2 processes\)", line)
        assert m, (line, proc.stderr.read() if proc.poll() is not None else "")
        with grpc.insecure_channel(f"127.0.0.1:{m.group(1)}", options=[("grpc.use_local_subchannel_pool", 1)]) as ch:
            stub = lexicon_pb2_grpc.LexiconServiceStub(ch)
            codes = []
            for _ in range(100):
                with pytest.raises(grpc.RpcError) as info:
                    stub.CheckWords(lexicon_pb2.CheckWordsRequest(lexicon="pl-scrabble", words=[""]), timeout=10)
                codes.append(info.value.code())
            assert set(codes) == {grpc.StatusCode.INVALID_ARGUMENT}, codes.count(grpc.StatusCode.UNAVAILABLE)
            answer = stub.CheckWords(lexicon_pb2.CheckWordsRequest(lexicon="pl-scrabble", words=["kot"]), timeout=10)
            assert len(answer.results) == 1
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
