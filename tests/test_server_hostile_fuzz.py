"""Property test: random fields and raw bytes to every RPC of a real server never get INTERNAL.

A bounded, fast subset of `make fuzz` (bench/fuzz_service.py, >= 200,000 requests on the full
lexicons): a few hundred examples against the tiny test lexicons."""

from __future__ import annotations

import grpc
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from google.protobuf import message_factory
from google.protobuf.descriptor import FieldDescriptor

from lexicon_service.grpc_gen import game_pb2, lexicon_pb2
from lexicon_service.server.server import unary_methods
from grpc_health.v1 import health_pb2
from test_service import channel, lexicon_dir, server  # noqa: F401 - fixtures

SERVER_ERRORS = (grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN)
LETTERS = "aąbcćdeęfghijklłmnńoóprsśtuwyzźżčěřšůýKOTĄ"
ODD = ["ſ", "\u212a", "\ue000", "ﬁ", "\u0301", "\u0307", "ß", "İ", "\x00", "\n", "\r", "\u2028", "[", "]", "[CH]",
       "?", "*", ".", " ", "\U0001f600", "\ufeff", "\u0340"]
METHODS = unary_methods()  # every unary RPC: new ones are fuzzed without a change here

texts = st.one_of(
    st.lists(st.sampled_from(list(LETTERS) + ODD), max_size=20).map("".join),
    st.text(max_size=20),
    st.sampled_from(["kot", "KOTY", "żółw", "chata", "ż" * 33, "k" * 65, ""]),
)
numbers = st.one_of(st.integers(-3, 20), st.sampled_from([2**31 - 1, -2**31, 1000, 1001]))
lexicons = st.sampled_from(["pl-scrabble", "cs-kriskros", "", "nope"])
gcg_lines = st.one_of(st.sampled_from([
    "#player1 Ala Ala", "#player2 Bob Bob", "#rules pl-scrabble", ">Ala: KOTABCD 8H KOT +10 10", ">Bob: - +0 0",
    ">Ala: ABC -ABC +0 10", ">Ala: ABC -" + "9" * 5000 + " +0 0", ">Bob: ABC - +99999999999 0", "#note x"]), texts)


@st.composite
def messages(draw, method: str):
    cls = METHODS[method]
    if cls is lexicon_pb2.CheckWordsRequest:
        return cls(lexicon=draw(lexicons), words=draw(st.lists(texts, max_size=8)), include_tiles=draw(st.booleans()),
                   verdict_only=draw(st.booleans()), compact=draw(st.booleans()))
    if cls is lexicon_pb2.ExplainWordRequest:
        return cls(lexicon=draw(lexicons), word=draw(texts))
    if cls is lexicon_pb2.FindWordsRequest:
        query = draw(st.sampled_from(["anagram", "pattern", "prefix"]))
        value = "".join(draw(st.lists(st.sampled_from(list("kotyżółw?*[]") + ODD), max_size=20)))
        return cls(lexicon=draw(lexicons), **{query: value}, use_all_tiles=draw(st.booleans()),
                   min_length=draw(numbers), max_length=draw(numbers), limit=draw(numbers))
    if cls in (game_pb2.ValidateMoveRequest, game_pb2.ScoreMoveRequest):
        return cls(lexicon=draw(lexicons), rule_set=draw(st.sampled_from(["", "pl-scrabble", "cs-kriskros", "x"])),
                   board=draw(st.lists(texts, max_size=16)), rack=draw(texts),
                   play=game_pb2.Play(position=draw(st.sampled_from(["8H", "H8", "8Z", "", "O15"]) | texts),
                                      word=draw(texts)))
    if cls is game_pb2.ReplayGameRequest:
        sep = draw(st.sampled_from(["\n", "\r", "\r\n", "\u2028"]))
        return cls(lexicon=draw(lexicons), rule_set=draw(st.sampled_from(["", "pl-scrabble", "x"])),
                   gcg=sep.join(draw(st.lists(gcg_lines, max_size=12))))
    if cls is game_pb2.ListRuleSetsRequest:
        return cls(include_source=draw(st.booleans()))
    if cls is health_pb2.HealthCheckRequest:
        return cls(service=draw(texts))
    return draw(any_fields(cls))


SCALARS = {FieldDescriptor.TYPE_STRING: lambda: texts, FieldDescriptor.TYPE_BOOL: st.booleans,
           FieldDescriptor.TYPE_INT32: lambda: numbers, FieldDescriptor.TYPE_UINT32: lambda: st.integers(0, 2**32 - 1),
           FieldDescriptor.TYPE_INT64: lambda: st.integers(-2**63, 2**63 - 1),
           FieldDescriptor.TYPE_UINT64: lambda: st.integers(0, 2**64 - 1)}


@st.composite
def any_fields(draw, cls, depth: int = 0):
    """A message of `cls` with random values in its scalar fields (and in nested messages, two levels)."""
    message = cls()
    for fd in cls.DESCRIPTOR.fields:
        if fd.type == FieldDescriptor.TYPE_MESSAGE:
            if depth < 2 and draw(st.booleans()):
                sub = message_factory.GetMessageClass(fd.message_type)
                values = draw(st.lists(any_fields(sub, depth + 1), max_size=3))
                if fd.is_repeated:
                    getattr(message, fd.name).extend(values)
                elif values:
                    getattr(message, fd.name).CopyFrom(values[0])
        elif fd.type in SCALARS and draw(st.booleans()):
            if fd.is_repeated:
                getattr(message, fd.name).extend(draw(st.lists(SCALARS[fd.type](), max_size=4)))
            else:
                setattr(message, fd.name, draw(SCALARS[fd.type]()))
    return message


@st.composite
def requests(draw):
    method = draw(st.sampled_from(sorted(METHODS)))
    data = draw(messages(method)).SerializeToString()
    mode = draw(st.sampled_from(["message", "random", "flip", "cut", "bad utf-8"]))
    if mode == "random":
        data = draw(st.binary(max_size=64))
    elif mode == "flip" and data:
        i = draw(st.integers(0, len(data) - 1))
        data = data[:i] + bytes([draw(st.integers(0, 255))]) + data[i + 1:]
    elif mode == "cut":
        data = data[: draw(st.integers(0, len(data)))]
    elif mode == "bad utf-8":
        bad = draw(st.sampled_from([b"\xff", b"\xc3\x28", b"\xed\xa0\x80"]))
        data += bytes([(draw(st.integers(1, 4)) << 3) | 2, len(bad)]) + bad
    return method, data


def test_no_request_gets_an_internal_error(channel):
    calls = {m: channel.unary_unary(m, request_serializer=lambda b: b, response_deserializer=lambda b: b)
             for m in METHODS}

    @settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(requests())
    def answered(request):
        method, data = request
        try:
            calls[method](data, timeout=10)
        except grpc.RpcError as exc:
            assert exc.code() not in SERVER_ERRORS, (method, data, exc.details())

    answered()
