"""The JSON API: each route calls the plain method a gRPC method of a servicer calls (CheckWords:
`check_words`), so both APIs share every rule and message.

Requests and answers follow the proto3 JSON mapping of the gRPC messages (`google.protobuf.json_format`:
lowerCamelCase names in answers, either spelling accepted in requests, enums by name, int64 as
strings, every field present in answers). Path and query parameters bind request fields, as in
google.api.http. A plain method refuses by raising; the exception is answered from the one table
(lexicon_service/errors.py, `answer_of`, which gRPC answers from too) as

    {"error": {"code": <HTTP status>, "status": "<gRPC code name>", "message": "<the gRPC message>"}}

with the HTTP status of that code in google/rpc/code.proto, and its trailing metadata (`lexicon-reason`,
`lexicon-version`) as headers. Game-session calls are SESSION_ROUTES, served when create_app is given the
session servicer; tournament calls TOURNAMENT_ROUTES, with the tournament servicer.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass

import grpc
import orjson
from google.protobuf import json_format
from starlette.responses import Response

from lexicon_service.errors import HTTP_STATUS, answer_of, bounded
from lexicon_service.grpc_gen import game_pb2, lexicon_pb2, session_pb2, tournament_pb2

class ApiError(Exception):
    """A call that ends with a gRPC status other than OK."""

    def __init__(self, code: grpc.StatusCode, message: str, http_status: int | None = None) -> None:
        # what a client sent may be quoted: at most a few hundred characters of it, and no lone surrogate
        # (which no JSON encoder writes)
        message = bounded(message.encode("utf-8", "replace").decode("utf-8"))
        super().__init__(message)
        self.code = code
        self.message = message
        self._http_status = http_status  # an HTTP-only refusal more specific than the code's (415)

    @property
    def http_status(self) -> int:
        return self._http_status or HTTP_STATUS.get(self.code.name, 500)

    def body(self) -> dict:
        return {"error": {"code": self.http_status, "status": self.code.name, "message": self.message}}


def error_response(exc: ApiError, headers: dict | None = None) -> Response:
    return Response(dumps(exc.body()), status_code=exc.http_status, media_type="application/json", headers=headers)


def invalid(message: str) -> ApiError:
    return ApiError(grpc.StatusCode.INVALID_ARGUMENT, message)


def refusal(exc: BaseException) -> tuple[ApiError, dict | None]:
    """The answer to a call that raised `exc`, from the one table (errors.answer_of; an unexpected error is
    INTERNAL, logged rate-limited), and its trailing metadata as response headers."""
    answer = answer_of(exc)
    headers = {str(k): str(v) for k, v in answer.trailing} if answer.trailing else None
    return ApiError(grpc.StatusCode[answer.status], answer.message), headers


def refusal_response(exc: BaseException) -> Response:
    return error_response(*refusal(exc))


@dataclass(frozen=True)
class ApiRoute:
    method: str  # HTTP method
    path: str  # Starlette path; {name} binds the request field `name`
    service: str  # "lexicon", "game", "session" or "tournament": which servicer
    rpc: str  # the RPC: the servicer's gRPC method, whose plain method (CheckWords: check_words) the route calls
    request: type  # the request message class
    summary: str
    body: bool = False  # the request message (less the path fields) is the JSON body
    query: bool = False  # request fields from query parameters
    fast: bool = False  # bounded work: answered in the short calls' threads, like gRPC's fast pool
    response: type | None = None  # the answer's message class (default: the rpc's, from the request's .proto)


ROUTES = (
    ApiRoute("GET", "/v1/lexicons", "lexicon", "ListLexicons", lexicon_pb2.ListLexiconsRequest,
             "The loaded lexicons and their manifests (ListLexicons)."),
    ApiRoute("POST", "/v1/lexicons/{lexicon}:check", "lexicon", "CheckWords", lexicon_pb2.CheckWordsRequest,
             "Check a batch of words; per-word answers and the word judge's verdict (CheckWords).",
             body=True, fast=True),
    ApiRoute("GET", "/v1/lexicons/{lexicon}/words/{word}:explain", "lexicon", "ExplainWord",
             lexicon_pb2.ExplainWordRequest, "A word's verdict with its headword, tag and rule (ExplainWord)."),
    ApiRoute("GET", "/v1/lexicons/{lexicon}/words", "lexicon", "FindWords", lexicon_pb2.FindWordsRequest,
             "Anagrams, patterns or prefixes: one of the query parameters anagram, pattern, prefix (FindWords).",
             query=True),
    ApiRoute("GET", "/v1/rulesets", "game", "ListRuleSets", game_pb2.ListRuleSetsRequest,
             "The rule sets the server knows (ListRuleSets).", query=True),
    ApiRoute("POST", "/v1/moves:validate", "game", "ValidateMove", game_pb2.ValidateMoveRequest,
             "Is the play legal, are its words admissible, what does it score (ValidateMove).", body=True, fast=True),
    ApiRoute("POST", "/v1/moves:score", "game", "ScoreMove", game_pb2.ScoreMoveRequest,
             "Score a play without judging its words (ScoreMove).", body=True, fast=True),
    ApiRoute("POST", "/v1/moves:generate", "game", "GenerateMoves", game_pb2.GenerateMovesRequest,
             "The legal moves from a rack on a board, best first (GenerateMoves).", body=True),
    ApiRoute("POST", "/v1/games:replay", "game", "ReplayGame", game_pb2.ReplayGameRequest,
             "Replay a GCG record line by line (ReplayGame).", body=True),
    ApiRoute("POST", "/v1/games:analyse", "game", "AnalyseGame", game_pb2.AnalyseGameRequest,
             "The best move of each turn of a GCG record and the points given away (AnalyseGame).", body=True),
)
# Game sessions (GameSessionService). The caller's game token travels as in gRPC: `Authorization: Bearer
# <token>`, or `X-Game-Token: <token>` when the server has tokens of its own (then Authorization carries
# the server's). A refusal's `lexicon-reason` / `lexicon-version` / `lexicon-values` trailing metadata comes back as headers.
# WatchGame, a server stream, is `GET /v1/games/{game_id}/events` (Server-Sent Events; app.py).
SESSION_ROUTES: tuple[ApiRoute, ...] = (
    ApiRoute("POST", "/v1/games", "session", "CreateGame", session_pb2.CreateGameRequest,
             "Start a server-held game; the players' and the director's tokens are shown once (CreateGame).",
             body=True),
    ApiRoute("GET", "/v1/games", "session", "ListGames", session_pb2.ListGamesRequest,
             "Director's console: every game in progress, or one tournament's (query tournament_id), with the "
             "server's director key as the token (ListGames).", query=True),
    ApiRoute("GET", "/v1/games/{game_id}", "session", "GetGame", session_pb2.GetGameRequest,
             "The game as the caller may see it: the rack only to its player (GetGame)."),
    ApiRoute("POST", "/v1/games/{game_id}:move", "session", "SubmitMove", session_pb2.SubmitMoveRequest,
             "Play, exchange or pass; expected_version refuses a stale move with ABORTED (SubmitMove).", body=True),
    ApiRoute("POST", "/v1/games/{game_id}:challenge", "session", "Challenge", session_pb2.ChallengeRequest,
             "Challenge the last play under the game's challenge rule; a retry with the same request_id or "
             "expected_version gets the first answer (Challenge).", body=True),
    ApiRoute("GET", "/v1/games/{game_id}/hint", "session", "GetHint", session_pb2.GetHintRequest,
             "The best plays for the caller's own rack, in a game created with allow_hints (GetHint); "
             "query parameters limit (1-20, default 5) and simulate (true: ranked by simulation, win chances).", query=True),
    ApiRoute("GET", "/v1/games/{game_id}/record", "session", "GetGameRecord", session_pb2.GetGameRecordRequest,
             "The GCG record of the game so far (GetGameRecord)."),
    ApiRoute("POST", "/v1/games/{game_id}:adjustScore", "session", "AdjustScore", session_pb2.AdjustScoreRequest,
             "Director: add delta to a player's score, with a reason (AdjustScore).", body=True),
    ApiRoute("POST", "/v1/games/{game_id}:undo", "session", "UndoLastMove", session_pb2.UndoLastMoveRequest,
             "Director: take back the last move (UndoLastMove).", body=True),
    ApiRoute("POST", "/v1/games/{game_id}:end", "session", "EndGame", session_pb2.EndGameRequest,
             "Director: end the game now (EndGame).", body=True),
)
# Tournaments (TournamentService): the director key travels as the `X-Director-Key` header; reads need none.
_T = "/v1/tournaments/{tournament_id}"
# ({tournament_id}:export before {tournament_id}: Starlette takes the first path that matches.)
TOURNAMENT_ROUTES: tuple[ApiRoute, ...] = (
    ApiRoute("POST", "/v1/tournaments", "tournament", "CreateTournament", tournament_pb2.CreateTournamentRequest,
             "Create a tournament; its director key is shown once (CreateTournament).", body=True),
    ApiRoute("GET", _T + ":export", "tournament", "ExportDivision", tournament_pb2.ExportDivisionRequest,
             "A division as a TSH .t file or CSV; query division, format (ExportDivision).", query=True),
    ApiRoute("GET", _T, "tournament", "GetTournament", tournament_pb2.GetTournamentRequest,
             "The tournament now: divisions, standings, games (GetTournament)."),
    ApiRoute("GET", _T + "/games", "tournament", "ListTournamentGames", tournament_pb2.ListTournamentGamesRequest,
             "Its games with players, scores, live scores and game ids; query division, round (ListTournamentGames).",
             query=True),
    ApiRoute("POST", _T + "/players", "tournament", "AddPlayers", tournament_pb2.AddPlayersRequest,
             "Director: enter players into a division (AddPlayers).", body=True),
    ApiRoute("POST", _T + "/rounds:pair", "tournament", "PairRound", tournament_pb2.PairRoundRequest,
             "Director: pair a division's next round (PairRound).", body=True),
    ApiRoute("POST", _T + "/rounds:start", "tournament", "StartRound", tournament_pb2.StartRoundRequest,
             "Director: start a round's games on the server; each table's tokens (StartRound).", body=True),
    ApiRoute("POST", _T + "/results", "tournament", "SetResult", tournament_pb2.SetResultRequest,
             "Director: enter or correct a result, with a reason (SetResult).", body=True),
    ApiRoute("POST", _T + ":import", "tournament", "ImportDivision", tournament_pb2.ImportDivisionRequest,
             "Director: import a division from a TSH .t file or a pairings CSV (ImportDivision).", body=True),
)
# The services whose plain methods take the request's Caller (games/roles.py: its game token, director key,
# address, deadline); the others' take its deadline.
CALLER_SERVICES = ("session", "tournament")
# RPCs answered by a plain method that writes the answer's proto3 JSON dict itself (core/messages.py),
# faster for a large batch than the message read back by MessageToDict.
JSON_ANSWERS = {"CheckWords": "check_words_json"}
WATCH_PATH = "/v1/games/{game_id}/events"
SSE = "text/event-stream"


def sse_event(message, event: str | None = None, event_id: int | None = None) -> bytes:
    """One Server-Sent Event: `data:` the proto3 JSON of `message` (a message or a dict) on one line."""
    data = message if isinstance(message, dict) else to_json_dict(message)
    head = (f"id: {event_id}\n" if event_id is not None else "") + (f"event: {event}\n" if event else "")
    return head.encode() + b"data: " + dumps(data) + b"\n\n"


# --- JSON <-> proto --------------------------------------------------------------------------------------
def path_fields(path: str) -> list[str]:
    return re.findall(r"{(\w+)}", path)


def parse_json_body(raw: bytes, max_bytes: int):
    if len(raw) > max_bytes:
        raise ApiError(grpc.StatusCode.RESOURCE_EXHAUSTED,
                       f"request body larger than max ({len(raw)} vs. {max_bytes} bytes)")
    if not raw.strip():
        return {}
    try:
        # decoded here, strictly: json.loads(bytes) decodes with "surrogatepass", letting a surrogate's UTF-8
        # bytes through (then quoted in an error no encoder could write: INTERNAL)
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise invalid(f"body: not valid JSON: not UTF-8 (byte {raw[exc.start]:#04x} at offset {exc.start})") from None
    non_finite = []  # NaN, Infinity (not JSON, but Python's json takes them) and numbers like 1e400

    def constant(name: str) -> float:
        non_finite.append(name)
        return float(name)

    def number(text: str) -> float:
        value = float(text)
        if not math.isfinite(value):
            non_finite.append(text)
        return value

    try:
        data = json.loads(text, parse_constant=constant, parse_float=number)
    except ValueError as exc:
        raise invalid(f"body: not valid JSON: {exc}") from None
    except RecursionError:
        raise invalid("body: JSON nested too deeply") from None
    if not isinstance(data, dict):
        raise invalid("body: a JSON object is required")
    if non_finite:  # protobuf's parser would fail on them with an OverflowError
        where = _path_of_first(data, "", lambda v: isinstance(v, float) and not math.isfinite(v))
        if where is not None:  # (a key given twice may have replaced it)
            raise invalid(f"{where}: {non_finite[0][:40]} is not a finite JSON number")
    if "\\ud" in text or "\\uD" in text:  # JSON may spell a lone surrogate, which is no character
        where = _path_of_first(data, "", _has_lone_surrogate)
        if where is not None:
            raise invalid(f"{where}: a lone surrogate (\\uD800-\\uDFFF) is not a character")
    return data


def _has_lone_surrogate(value) -> bool:
    if not isinstance(value, str):
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _path_of_first(value, path: str, bad) -> str | None:
    """The JSON path of the first value (or key) for which `bad` is true, or None."""
    if bad(value):
        return path or "body"
    if isinstance(value, dict):
        for key, item in value.items():
            if bad(key):  # a name no field has: it must not reach the message
                return f"{path or 'body'}: a key"
            where = _path_of_first(item, f"{path}.{key}" if path else str(key), bad)
            if where is not None:
                return where
    elif isinstance(value, list):
        for i, item in enumerate(value):
            where = _path_of_first(item, f"{path}[{i}]", bad)
            if where is not None:
                return where
    return None


def _field_by_name(descriptor, name: str):
    return descriptor.fields_by_name.get(name) or descriptor.fields_by_camelcase_name.get(name)


def bind_path(data: dict, message_type, params: dict) -> None:
    """Put path parameters into the body dict; a body value that disagrees is INVALID_ARGUMENT."""
    descriptor = message_type.DESCRIPTOR
    for name, value in params.items():
        fd = descriptor.fields_by_name[name]
        for key in {fd.name, fd.json_name}:
            if key in data and data.pop(key) != value:
                raise invalid(f"{fd.name}: the body says otherwise than the path ({value!r})")
        data[fd.name] = value


def from_query(message_type, query_items) -> dict:
    """Query parameters -> a dict for ParseDict (booleans: true/false/1/0)."""
    descriptor = message_type.DESCRIPTOR
    data: dict = {}
    for key, value in query_items:
        fd = _field_by_name(descriptor, key)
        if fd is None:
            raise invalid(f"{key}: no such parameter of {descriptor.name}")
        if fd.type == fd.TYPE_BOOL:
            if value.lower() not in ("true", "false", "1", "0"):
                raise invalid(f"{fd.name}: {value!r} is not true or false")
            value = value.lower() in ("true", "1")
        if fd.is_repeated:
            data.setdefault(fd.name, []).append(value)
        elif fd.name in data:  # ?pattern=a&pattern=b answered for b alone
            raise invalid(f"{fd.name}: given more than once")
        else:
            data[fd.name] = value
    return data


def to_message(data: dict, message_type, where: str = "body"):
    if message_type is lexicon_pb2.CheckWordsRequest:
        fast = _check_request_fast(data)
        if fast is not None:
            return fast
    message = message_type()
    try:
        json_format.ParseDict(data, message)
    except json_format.ParseError as exc:
        raise invalid(f"{where}: {exc}") from None
    except (OverflowError, ValueError, TypeError) as exc:  # protobuf's parser on a value it did not expect
        raise invalid(f"{where}: {exc}") from None
    return message


_CHECK_FLAGS = {"verdictOnly": "verdict_only", "verdict_only": "verdict_only", "includeTiles": "include_tiles",
                "include_tiles": "include_tiles", "compact": "compact"}


def _check_request_fast(data: dict):
    """CheckWordsRequest without ParseDict (slow for a large batch) when the body is plain: a list of
    strings and boolean flags. Anything else goes through ParseDict, which gives its own error."""
    words = data.get("words")
    if type(words) is not list or not all(type(w) is str for w in words):
        return None
    kwargs = {"words": words}
    for key, value in data.items():
        if key == "words":
            continue
        if key == "lexicon" and type(value) is str:
            kwargs["lexicon"] = value
            continue
        name = _CHECK_FLAGS.get(key)
        if name is None or type(value) is not bool or name in kwargs:
            return None
        kwargs[name] = value
    return lexicon_pb2.CheckWordsRequest(**kwargs)


def to_json_dict(message) -> dict:
    return json_format.MessageToDict(message, always_print_fields_with_no_presence=True)


def dumps(data) -> bytes:
    """Compact UTF-8 JSON (orjson: faster than json for a large answer, the same bytes)."""
    return orjson.dumps(data)
