"""The HTTP/2 load generator of the bench scripts (bench/loadgen.py), against a real server."""

from __future__ import annotations

import pytest

from lexicon_service.grpc_gen import lexicon_pb2
from lexicon_service.server import Limits

from bench_modules import bench_module


@pytest.fixture(scope="module")
def bench():
    return bench_module("bench_service")


@pytest.fixture(scope="module")
def loadgen():
    return bench_module("loadgen")


SERVER_OPTIONS = {"workers": 2, "limits": Limits()}  # tests/conftest.py's `server`, with the serve limits


@pytest.fixture(scope="module")
def port(server):
    return server[1]


def test_hpack_decoder_rfc7541_examples(loadgen):
    # RFC 7541 C.3 (plain) and C.4 (Huffman-coded): requests on one connection's dynamic table; the
    # decoder is the hpack library's, with repeated blocks that leave the table alone served from a cache
    for first, second in (("828684410f7777772e6578616d706c652e636f6d", "828684be58086e6f2d6361636865"),
                          ("828684418cf1e3c2e5f23a6ba0ab90f4ff", "828684be5886a8eb10649cbf")):
        decoder = loadgen.HpackDecoder()
        assert decoder.decode(bytes.fromhex(first)) == {b":method": b"GET", b":scheme": b"http", b":path": b"/",
                                                        b":authority": b"www.example.com"}
        headers = decoder.decode(bytes.fromhex(second))
        assert headers[b"cache-control"] == b"no-cache" and headers[b":authority"] == b"www.example.com"
        version = decoder.version
        assert decoder.decode(bytes.fromhex("be"))[b"cache-control"] == b"no-cache"  # the newest entry is 62
        assert decoder.decode(bytes.fromhex("be"))[b"cache-control"] == b"no-cache" and decoder.version == version
    with pytest.raises(loadgen.H2Error):
        loadgen.HpackDecoder().decode(bytes.fromhex("ff"))  # an index past both tables


@pytest.mark.parametrize("kind,items", [
    ("unary", ["kot", "koty", "żółw", "kotx"]),
    ("batch", [["kot", "koty"], ["pies", "psy"]]),
    ("batch-compact", [["kot", "koty"], ["pies", "psy"]]),
    ("validate", ["KOT", "TOK"]),
    ("health", ["-"]),
])
def test_load_generator_closed_and_open_loops(bench, port, kind, items):
    path, messages, check = bench._h2_workload(kind, "pl-scrabble", items)
    closed = bench.h2_load(port, path, messages, check, 3, 0.3, max_calls=10_000)
    assert closed.failed == 0, closed.examples
    # each of the 3 slots makes calls one after another until 0.3 s pass (at least one each on a loaded machine)
    assert closed.calls >= 3 and len(closed.latencies) == closed.calls and closed.elapsed > 0 and not closed.lateness
    capped = bench.h2_load(port, path, messages, check, 3, 5.0, max_calls=20)
    assert 20 <= capped.calls <= 22 and capped.elapsed < 5  # the other slots' last calls finish
    opened = bench.h2_load(port, path, messages, check, 4, 0.3, rate=200.0)
    assert opened.failed == 0, opened.examples
    assert opened.calls == 60 and len(opened.lateness) == 60  # 0.3 s at 200 calls/s, all sent and answered


def test_load_generator_reports_errors_and_wrong_answers(bench, port):
    path, messages, check = bench._h2_workload("unary", "en-scrabble", ["cat"])
    result = bench.h2_load(port, path, messages, check, 2, 0.1, max_calls=5)
    assert result.calls == 0 and result.failed > 0
    assert "grpc-status b'5'" in result.examples[0] and "en-scrabble" in result.examples[0]

    def expect_two(data):
        if len(lexicon_pb2.CheckWordsResponse.FromString(data[5:]).results) != 2:
            raise ValueError("one answer")

    path, messages, _ = bench._h2_workload("unary", "pl-scrabble", ["kot"])
    result = bench.h2_load(port, path, messages, expect_two, 1, 0.1, max_calls=5)
    assert result.calls == 0 and result.failed > 0 and "bad response" in result.examples[0]
