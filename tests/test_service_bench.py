"""The lean HTTP/2 load generator of bench/bench_service.py, against a real server."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from lexicon_service.grpc_gen import lexicon_pb2
from lexicon_service.server import create_server

from test_service import lexicon_dir  # noqa: F401 - the session fixture

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_service", ROOT / "bench" / "bench_service.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("bench_service", module)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def port(lexicon_dir):  # noqa: F811
    srv, port = create_server("localhost:0", lexicon_dir, workers=2)
    srv.start()
    yield port
    srv.stop(None).wait()


def test_hpack_decoder_rfc7541_examples(bench):
    # RFC 7541 C.3: requests without Huffman coding, one connection's dynamic table
    decoder = bench.HpackDecoder()
    first = bytes.fromhex("828684410f7777772e6578616d706c652e636f6d")
    assert decoder.decode(first) == {b":method": b"GET", b":scheme": b"http", b":path": b"/",
                                     b":authority": b"www.example.com"}
    assert decoder.table == [(b":authority", b"www.example.com")] and decoder.size == 57
    second = bytes.fromhex("828684be58086e6f2d6361636865")
    headers = decoder.decode(second)
    assert headers[b"cache-control"] == b"no-cache" and headers[b":authority"] == b"www.example.com"
    assert decoder.size == 110
    assert decoder.decode(bytes.fromhex("be"))[b"cache-control"] == b"no-cache"  # the newest entry is 62
    with pytest.raises(bench.H2Error):
        decoder.decode(bytes.fromhex("8286418cf1e3c2e5f23a6ba0ab90f4ff"))  # C.4.1: Huffman-coded


@pytest.mark.parametrize("kind,items", [
    ("unary", ["kot", "koty", "żółw", "kotx"]),
    ("batch", [["kot", "koty"], ["pies", "psy"]]),
    ("batch-compact", [["kot", "koty"], ["pies", "psy"]]),
    ("validate", ["KOT", "TOK"]),
])
def test_load_generator_closed_and_open_loops(bench, port, kind, items):
    path, messages, check = bench._h2_workload(kind, "pl-scrabble", items)
    calls, elapsed, latencies, examples, failed, cpu, lateness = bench._h2_load(
        port, path, messages, check, 3, 0.3, 10_000, None, 0)
    assert failed == 0, examples
    assert calls > 10 and len(latencies) == calls and elapsed > 0 and not lateness
    calls, elapsed, latencies, examples, failed, cpu, lateness = bench._h2_load(
        port, path, messages, check, 4, 0.3, 10_000, 200.0, 0)
    assert failed == 0, examples
    assert calls == 60 and len(lateness) == 60  # 0.3 s at 200 calls/s, all sent and answered


def test_load_generator_reports_errors_and_wrong_answers(bench, port):
    path, messages, check = bench._h2_workload("unary", "en-scrabble", ["cat"])
    calls, _, _, examples, failed, _, _ = bench._h2_load(port, path, messages, check, 2, 0.1, 5, None, 0)
    assert calls == 0 and failed > 0
    assert "grpc-status b'5'" in examples[0] and "en-scrabble" in examples[0]

    def expect_two(data):
        if len(lexicon_pb2.CheckWordsResponse.FromString(data[5:]).results) != 2:
            raise ValueError("one answer")

    path, messages, _ = bench._h2_workload("unary", "pl-scrabble", ["kot"])
    calls, _, _, examples, failed, _, _ = bench._h2_load(port, path, messages, expect_two, 1, 0.1, 5, None, 0)
    assert calls == 0 and failed > 0 and "bad response" in examples[0]
