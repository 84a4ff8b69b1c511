"""Property test: random fields and raw bytes to every RPC of a real server never get INTERNAL.

A bounded, fast subset of `make fuzz` with the same request generator (`Fuzzer` in
bench/fuzz_service.py, driven here by hypothesis's Random so that a failure shrinks): a few hundred
examples against the tiny test lexicons."""

from __future__ import annotations

import grpc
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench_modules import bench_module
from test_service import WORDS  # noqa: F401

fuzz = bench_module("fuzz_service")
SERVER_ERRORS = (grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN)
LEXICONS = sorted(WORDS)
SAMPLE_WORDS = [w for words in WORDS.values() for w in words]


def test_every_unary_rpc_is_fuzzed():
    assert {"/lexicon.v1.LexiconService/CheckWords", "/lexicon.v1.GameSessionService/SubmitMove",
            "/grpc.health.v1.Health/List"} <= set(fuzz.METHODS)


def test_no_request_gets_an_internal_error(channel):
    calls = {m: channel.unary_unary(m, request_serializer=lambda b: b, response_deserializer=lambda b: b)
             for m in fuzz.METHODS}
    methods = sorted(fuzz.METHODS)

    @settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.randoms(use_true_random=False))
    def answered(rnd):
        fuzzer = fuzz.Fuzzer(rnd, LEXICONS, SAMPLE_WORDS)
        method = rnd.choice(methods)
        data = fuzzer.request_bytes(method)
        try:
            calls[method](data, timeout=10)
        except grpc.RpcError as exc:
            assert exc.code() not in SERVER_ERRORS, (method, data, exc.details())

    answered()


def test_streams_and_odd_headers_get_no_server_error(server, channel):  # noqa: F811
    """`make fuzz`'s streaming and header phases, a few calls each."""
    import random

    _, port = server
    fuzzer = fuzz.Fuzzer(random.Random(5), LEXICONS, SAMPLE_WORDS)
    streams = fuzz.fuzz_streams(channel, fuzzer, 24)
    assert sum(streams.values()) == 24 and {method for method, _ in streams} == set(fuzz.STREAMS)
    assert not [key for key in streams if key[1] in fuzz.SERVER_ERRORS], streams
    headers = fuzz.fuzz_metadata(port, fuzzer, 24)
    assert sum(headers.values()) == 24 and not headers["UNKNOWN"] and not headers["no answer"], headers


@pytest.mark.parametrize("verbosity", [None, "ERROR"])
def test_unparsable_headers_do_not_flood_the_log(lexicon_dir, monkeypatch, verbosity):  # noqa: F811
    """grpc's C core logs one line for each `te` or `grpc-timeout` header it cannot parse, before any
    Python runs: `serve` silences the core's log (GRPC_VERBOSITY=NONE) unless the operator set a
    verbosity; with ERROR (the control, same headers) the lines are there."""
    import random

    loadgen = bench_module("loadgen")
    if verbosity is None:
        monkeypatch.delenv("GRPC_VERBOSITY", raising=False)
    else:
        monkeypatch.setenv("GRPC_VERBOSITY", verbosity)
    proc = loadgen.start_server(lexicon_dir, "--processes", "1", log_level="INFO")
    try:
        headers = fuzz.fuzz_metadata(proc.port, fuzz.Fuzzer(random.Random(7), LEXICONS, SAMPLE_WORDS), 40)
    finally:
        loadgen.stop_server(proc)
    log = loadgen.server_log(proc)
    assert headers["INTERNAL"] >= 5, headers  # the core refused that many headers: the test has its point
    assert not headers["UNKNOWN"] and not headers["no answer"], headers
    if verbosity is None:
        assert fuzz.core_log_lines(log) == 0 and "Error parsing" not in log, log[-2000:]
        assert "serving" in log  # the server's own log is still written
    else:
        assert fuzz.core_log_lines(log) >= 5 and "Error parsing 'grpc-timeout' metadata" in log, log[-2000:]
