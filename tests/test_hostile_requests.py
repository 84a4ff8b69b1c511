"""Hostile requests found by session 12's fuzzing (bench/fuzz_http.py, bench/fuzz_service.py): each case
was an INTERNAL, a misleading status, a record that no longer parsed, or memory kept per request."""

from __future__ import annotations

import grpc
import pytest

from lexicon_service.errors import GameNotFound, InvalidInput
from lexicon_service.games.sessions import GameSessions
from lexicon_service.games.store import SqliteStore
from lexicon_service.grpc_gen import lexicon_pb2, session_pb2
from lexicon_service.http import api
from lexicon_service.rules import load_rule_set, parse_gcg
from lexicon_service.errors import MAX_STATUS_MESSAGE, UnknownLexiconError
from lexicon_service.server.errors import status_of
from lexicon_service.server.errors import status_and_trailing as _status_of
from tests.game_helpers import FakeClock


@pytest.fixture
def service(tmp_path):
    store = SqliteStore(tmp_path / "games.db", synchronous="OFF")
    yield GameSessions(store, clock=FakeClock())
    store.close()


@pytest.mark.parametrize("name", ["Eva\n", "Eva\x00", "Eva\u200e", "E\tva"])
def test_a_player_name_that_would_break_the_record_is_refused(service, name):
    """'Eva\\n' passed the name check ($ matches before a final newline): the game's record then had a
    move line '>Eva' and ': - +0 0', which replay refused."""
    with pytest.raises(InvalidInput, match=r"player_names\[0\]"):
        service.create_game("pl-scrabble", load_rule_set("pl-scrabble"), [name, "Jan"])


def test_a_created_games_record_parses(service):
    game_id, tokens, _, _ = service.create_game("pl-scrabble", load_rule_set("pl-scrabble"), ["Eva", "Jan"], seed=1)
    service.submit_move(game_id, tokens[0], pass_=True)
    text, _ = service.record(game_id, tokens[0])
    assert [e.player for e in parse_gcg(text).events] == ["Eva"]


def test_asking_for_games_that_do_not_exist_keeps_nothing(service):
    """A lock was made (and kept) for every game id asked for: 3 MB ids made the server grow by 3 MB a call."""
    for i in range(200):
        for game_id in (f"{i:016x}", f"{i:016x}\n", "x" * 10_000 + str(i)):
            with pytest.raises(GameNotFound):
                service.get_game(game_id, None)
            with pytest.raises(GameNotFound):
                service.submit_move(game_id, "token", pass_=True)
            with pytest.raises(GameNotFound):
                service.authorise(game_id, None)
    assert service._locks == {}
    game_id, tokens, _, _ = service.create_game("pl-scrabble", load_rule_set("pl-scrabble"), ["Eva", "Jan"])
    service.get_game(game_id, tokens[0])
    assert list(service._locks) == [game_id]


@pytest.mark.parametrize("exc", [GameNotFound("x" * 100_000), UnknownLexiconError("ż" * 100_000, ["pl-scrabble"])])
def test_a_status_quoting_a_huge_value_stays_small(exc):
    """The message quoted the whole value: over ~16 KB the client's grpc dropped the answer and reported
    RESOURCE_EXHAUSTED 'Stream removed' instead of NOT_FOUND."""
    code, message, _ = _status_of(exc)
    assert code == grpc.StatusCode.NOT_FOUND and len(message) <= MAX_STATUS_MESSAGE
    assert "100,000 characters" in message
    assert len(status_of(exc)[1]) <= MAX_STATUS_MESSAGE


def _http_answer(raw: bytes, message_type) -> tuple[int, dict]:
    """What the JSON API's handler does with a body up to the servicer call: the HTTP status and the error
    body as written (api.dumps)."""
    import json

    try:
        api.to_message(api.parse_json_body(raw, 1 << 20), message_type)
    except api.ApiError as exc:
        return exc.http_status, json.loads(api.dumps(exc.body()))
    return 200, {}


@pytest.mark.parametrize("raw", [b'{"lexicon": "pl-scrabble", "\\ud800": 1}', b'{"\\udfff\\ud800": {"a": 1}}',
                                 b'{"words": ["kot"], "x\\ud83d": true}'])
def test_a_json_key_with_a_lone_surrogate_is_invalid_argument(raw):
    """Was 500 INTERNAL: ParseDict's error quoted the key, which no JSON encoder can write."""
    status, body = _http_answer(raw, session_pb2.CreateGameRequest)
    assert status == 400 and body["error"]["status"] == "INVALID_ARGUMENT"
    assert "lone surrogate" in body["error"]["message"]


@pytest.mark.parametrize("raw, where", [
    (b'{"lexicon": "cs-scrabble", "playerNames": ["a", "b"], "challengeRule": Infinity}', "challengeRule: Infinity"),
    (b'{"lexicon": "cs-scrabble", "playerNames": ["a", "b"], "gameSeconds": -Infinity}', "gameSeconds: -Infinity"),
    (b'{"lexicon": "cs-scrabble", "playerNames": ["a", "b"], "seed": NaN}', "seed: NaN"),
    (b'{"lexicon": "cs-scrabble", "playerNames": ["a", "b"], "seed": 1e400}', "seed: 1e400"),
    (b'{"lexicon": "cs-scrabble", "playerNames": [1e999]}', "playerNames[0]: 1e999"),
])
def test_a_number_json_cannot_hold_is_invalid_argument_naming_the_field(raw, where):
    """Infinity in an enum field was 500 INTERNAL: protobuf's parser raised OverflowError (bench/fuzz_http.py)."""
    status, body = _http_answer(raw, session_pb2.CreateGameRequest)
    assert status == 400 and body["error"]["status"] == "INVALID_ARGUMENT"
    assert body["error"]["message"].startswith(where), body


def test_finite_numbers_still_parse():
    status, _ = _http_answer(b'{"lexicon": "cs-scrabble", "playerNames": ["a", "b"], "gameSeconds": 600.0, '
                             b'"seed": 18446744073709551615}', session_pb2.CreateGameRequest)
    assert status == 200


def test_an_error_quoting_a_huge_json_value_stays_small():
    status, body = _http_answer(b'{"' + b"y" * 1_000_000 + b'": 1}', lexicon_pb2.CheckWordsRequest)
    assert status == 400 and len(body["error"]["message"]) <= MAX_STATUS_MESSAGE


def test_a_query_parameter_given_twice_is_refused():
    """?pattern=a&pattern=b was answered for b alone."""
    with pytest.raises(api.ApiError, match="pattern: given more than once"):
        api.from_query(lexicon_pb2.FindWordsRequest, [("pattern", "a"), ("pattern", "b")])
    with pytest.raises(api.ApiError, match="min_length: given more than once"):
        api.from_query(lexicon_pb2.FindWordsRequest, [("minLength", "2"), ("min_length", "3")])
    assert api.from_query(lexicon_pb2.FindWordsRequest, [("pattern", "a"), ("limit", "3")]) == \
        {"pattern": "a", "limit": "3"}


@pytest.mark.parametrize("raw", [b'{"lexicon": "pl-scrabble", "\xed\xa0\x80": 1}', b'{"words": ["k\xed\xbf\xbft"]}',
                                 b'{"words": ["k\xfft"]}'])
def test_a_body_that_is_not_utf8_is_invalid_argument(raw):
    """A surrogate's UTF-8 bytes (ED A0 80) got through json.loads (it decodes bytes with "surrogatepass"):
    in a key, 500 INTERNAL."""
    status, body = _http_answer(raw, session_pb2.CreateGameRequest)
    assert status == 400 and body["error"]["status"] == "INVALID_ARGUMENT"
    assert body["error"]["message"].startswith("body: not valid JSON: not UTF-8")


def test_a_bad_append_fails_alone_and_the_store_goes_on(tmp_path):
    """A value SQLite cannot take (a lone surrogate) killed the store's commit thread: that append and every
    later one in the process waited forever."""
    import threading

    store = SqliteStore(tmp_path / "g.db", synchronous="OFF")
    results = {}

    def append(key, rows):
        try:
            results[key] = store.append(key, 0, rows)
        except Exception as exc:  # noqa: BLE001
            results[key] = exc

    try:
        for key, rows in (("bad", [("created", "x\ud800")]), ("good", [("created", "{}")])):
            thread = threading.Thread(target=append, args=(key, rows), daemon=True)
            thread.start()
            thread.join(5)
            assert not thread.is_alive(), f"append {key} hangs"
        assert isinstance(results["bad"], ValueError) and results["good"] == 1
        assert store.load("bad") == [] and store.load("good") == [(1, "created", "{}")]
    finally:
        store.close()


def test_a_failing_games_database_is_unavailable_not_internal():
    import sqlite3

    code, message, _ = _status_of(sqlite3.OperationalError("database or disk is full"))
    assert code == grpc.StatusCode.UNAVAILABLE and "nothing was changed" in message


@pytest.mark.parametrize("kind", ["text", "directory"])
def test_a_games_database_that_is_not_one_is_refused_and_left_alone(tmp_path, kind):
    """serve --db FILE: refused with an error naming it; the file is unchanged and no FILE.lock is left beside it."""
    import sqlite3

    path = tmp_path / "games.db"
    if kind == "text":
        path.write_text("precious text\n")
    else:
        path.mkdir()
    with pytest.raises(sqlite3.Error):
        SqliteStore(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.db"]
    if kind == "text":
        assert path.read_text() == "precious text\n"


@pytest.mark.parametrize("reason", ["a\x00b", "\x1b[31mred", "x\x7f"])
def test_a_director_reason_with_control_characters_is_refused(service, reason):
    """It went into the record and to every watcher's terminal (an escape sequence recoloured it)."""
    game_id, _, director, _ = service.create_game("pl-scrabble", load_rule_set("pl-scrabble"), ["Eva", "Jan"])
    for act in (lambda: service.adjust_score(game_id, director, 0, 5, reason),
                lambda: service.end_game(game_id, director, reason)):
        with pytest.raises(InvalidInput, match="reason: printable characters only"):
            act()
    service.adjust_score(game_id, director, 0, 5, "a  typo\nfixed")  # whitespace is folded, as before


def test_watch_streams_beyond_the_bound_are_refused_at_once(lexicon_dir):  # noqa: F811
    """With as many WatchGame streams open as the watch pool had threads (64), the next call waited in the
    pool's queue, unanswered, until its deadline: one client could stop every other client's watching."""
    import time

    from lexicon_service.grpc_gen import session_pb2_grpc
    from lexicon_service.server import create_server

    server, port = create_server("localhost:0", lexicon_dir, watch_streams=2)
    with server, grpc.insecure_channel(f"localhost:{port}") as channel:
        stub = session_pb2_grpc.GameSessionServiceStub(channel)
        game = stub.CreateGame(session_pb2.CreateGameRequest(lexicon="pl-scrabble", player_names=["A", "B"]),
                               timeout=10)
        request = session_pb2.WatchGameRequest(game_id=game.game_id)
        streams = [stub.WatchGame(request, timeout=30) for _ in range(2)]
        try:
            for stream in streams:
                assert next(stream).version == 1  # both open, each holding a thread
            started = time.monotonic()
            with pytest.raises(grpc.RpcError) as refused:
                next(stub.WatchGame(request, timeout=10))
            assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            assert "max 2" in refused.value.details() and time.monotonic() - started < 5
        finally:
            for stream in streams:
                stream.cancel()
        deadline = time.monotonic() + 5  # a closed stream frees its place (within the servicer's poll)
        while True:
            try:
                assert next(stub.WatchGame(request, timeout=10)).version == 1
                break
            except grpc.RpcError as exc:
                assert exc.code() == grpc.StatusCode.RESOURCE_EXHAUSTED and time.monotonic() < deadline
                time.sleep(0.1)
