"""The application layer's words (lexicon_service/core/words.py), called as plain functions."""

from __future__ import annotations

import pytest

from lexicon_service.core import words
from lexicon_service.grpc_gen import lexicon_pb2
from lexicon_service.server import Limits
from lexicon_service.errors import FieldError, LimitError, UnknownLexiconError
from lexicon_service.core.registry import LexiconRegistry
from test_service import WORDS, write_lexicon


@pytest.fixture(scope="module")
def registry(tmp_path_factory):
    directory = tmp_path_factory.mktemp("app-words") / "lex"
    directory.mkdir()
    write_lexicon(directory, "pl-scrabble", "pl-scrabble", WORDS["pl-scrabble"])
    registry = LexiconRegistry(directory)
    registry.reload()
    yield registry
    registry.close()


def test_word_statuses_are_the_apis():
    assert {s.name: int(s) for s in words.WordStatus} == {
        name.removeprefix("WORD_STATUS_"): value for name, value in lexicon_pb2.WordStatus.items() if value}


@pytest.mark.parametrize("batch", [["kot", "kotx", "k", "żółw", "zółw"], ["kot"], ["kot", "psy"]])
def test_a_batch_is_checked_as_plain_values(registry, batch):
    with registry.acquire() as snapshot:
        checks = words.check_words(snapshot, Limits(), "pl-scrabble", batch)
        with_tiles = words.check_words(snapshot, Limits(), "pl-scrabble", batch, include_tiles=True)
    assert list(checks.statuses) == list(with_tiles.statuses)
    assert checks.messages == with_tiles.messages
    assert checks.invalid_count == sum(s != words.VALID for s in checks.statuses)
    assert checks.acceptable == (checks.invalid_count == 0)
    assert len(with_tiles.tiles) == len(batch) and with_tiles.tiles[0] == ("K", "O", "T")
    by_word = dict(zip(batch, checks.statuses))
    assert by_word["kot"] == words.VALID
    if "k" in by_word:
        assert by_word["k"] == words.BAD_LENGTH and by_word["kotx"] == words.UNKNOWN_LETTER
        assert set(checks.messages) == {batch.index("kotx"), batch.index("k")}


@pytest.mark.parametrize("lexicon, batch, field, error", [
    ("", ["kot"], "lexicon", FieldError),
    ("pl-scrabble", [], "words", FieldError),
    ("pl-scrabble", ["kot", ""], "words[1]", FieldError),
    ("pl-scrabble", ["kot", "x" * 65], "words[1]", LimitError),
    ("pl-scrabble", ["kot"] * 11, "words", LimitError),
])
def test_a_client_mistake_names_its_field(registry, lexicon, batch, field, error):
    with registry.acquire() as snapshot, pytest.raises(error) as caught:
        words.check_words(snapshot, Limits(max_words=10, max_word_chars=64), lexicon, batch)
    assert type(caught.value) is error and caught.value.field == field


def test_explain_and_find(registry):
    with registry.acquire() as snapshot:
        explained = words.explain_word(snapshot, Limits(), "pl-scrabble", "kot")
        found = words.find_words(snapshot, Limits(), "pl-scrabble", "anagram", "tok")
        with pytest.raises(FieldError) as caught:
            words.find_words(snapshot, Limits(), "pl-scrabble", "prefix", "k?")
        with pytest.raises(FieldError) as no_query:
            words.find_words(snapshot, Limits(), "pl-scrabble", None, "")
        with pytest.raises(UnknownLexiconError):
            words.explain_word(snapshot, Limits(), "xx-none", "kot")
    assert explained.status == words.VALID and explained.tiles == ("K", "O", "T") and explained.readings
    assert "KOT" in [w.word.upper() for w in found.words] and not found.truncated
    assert caught.value.field == "prefix" and no_query.value.field == "query"


def test_word_and_play_routes_call_the_plain_methods(registry, monkeypatch):
    """The JSON routes of words and plays call the servicers' plain methods, never their gRPC faces."""
    import httpx

    from lexicon_service.http import HttpServer, create_app
    from lexicon_service.server.game_servicer import GameServicer
    from lexicon_service.server.lexicon_servicer import LexiconServicer

    made = []
    for servicer, rpc in ((LexiconServicer, "CheckWords"), (LexiconServicer, "ExplainWord"),
                          (LexiconServicer, "FindWords"), (GameServicer, "ValidateMove"),
                          (GameServicer, "GenerateMoves"), (GameServicer, "ScoreMove")):
        monkeypatch.setattr(servicer, rpc, lambda self, request, context, rpc=rpc: made.append(rpc))
    web = HttpServer(create_app(registry), "localhost:0").start()
    try:
        with httpx.Client(base_url=web.url, timeout=30) as client:
            answers = [
                client.post("/v1/lexicons/pl-scrabble:check", json={"words": ["kot", "kotx", "k"]}),
                client.get("/v1/lexicons/pl-scrabble/words/kot:explain"),
                client.get("/v1/lexicons/pl-scrabble/words", params={"anagram": "tok"}),
                client.post("/v1/moves:validate", json={"lexicon": "pl-scrabble", "play": {"position": "8H",
                                                                                          "word": "KOT"}}),
                client.post("/v1/moves:generate", json={"lexicon": "pl-scrabble", "rack": "KOT", "limit": 2}),
                client.post("/v1/moves:score", json={"lexicon": "pl-scrabble", "play": {"word": "KOT"}}),
            ]
    finally:
        web.stop()
    assert [r.status_code for r in answers] == [200, 200, 200, 200, 200, 400]
    assert answers[-1].json()["error"]["message"].startswith("play.position: ")
    assert made == []
