"""The tournaments' HTTP/JSON routes (over tournaments/service.py, as the other routes are over the
servicers). The director's key goes in the `x-director-key` header; reads need none.

    POST /v1/tournaments                               create: {name, lexicon, divisions?, rounds?, gameSeconds?,
                                                       byePoints?, tiebreaks?, seed?} -> {tournamentId, directorKey}
    GET  /v1/tournaments/{id}                          the tournament, its standings and games
    GET  /v1/tournaments/{id}/games                    its games (a director's console lists them from here)
    POST /v1/tournaments/{id}/players                  {division, players: [{name, rating?, federationId?, computer?}]}
    POST /v1/tournaments/{id}/rounds:pair              {division, method?} -> the round's games
    POST /v1/tournaments/{id}/rounds:start             {division, round} -> each table's game id and tokens
    POST /v1/tournaments/{id}/results                  {division, round, table, score1, score2?, reason}
    POST /v1/tournaments/{id}/import                   {division, format: "t" | "csv", text}
    GET  /v1/tournaments/{id}/export?format=t|csv&division=A   the file (text/plain; csv: text/csv)
"""

from __future__ import annotations

import anyio
import orjson
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from lexicon_service.server.errors import HTTP_STATUS, bounded
from lexicon_service.server.game_session_servicer import _status_of
from lexicon_service.tournaments import csvfiles, tsh
from lexicon_service.tournaments.model import TournamentInputError
from lexicon_service.tournaments.views import games_view, tournament_view

JSON = "application/json"
MAX_BODY = 4 << 20


def _error(exc: BaseException) -> Response:
    if isinstance(exc, TournamentInputError):
        code, message = "INVALID_ARGUMENT", str(exc)
        status = 400
        body = {"error": {"code": status, "status": code, "message": bounded(message),
                          "details": [{"field": exc.field, "description": bounded(exc.message)}]}}
        return Response(orjson.dumps(body), status_code=status, media_type=JSON)
    grpc_code, message, _ = _status_of(exc)
    status = HTTP_STATUS[grpc_code]
    body = {"error": {"code": status, "status": grpc_code.name, "message": message}}
    return Response(orjson.dumps(body), status_code=status, media_type=JSON)


async def _body(request: Request) -> dict:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise TournamentInputError("body", f"larger than {MAX_BODY} bytes")
    try:
        data = orjson.loads(raw or b"{}")
    except orjson.JSONDecodeError as exc:
        raise TournamentInputError("body", f"not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise TournamentInputError("body", "a JSON object")
    return data


def _str(data: dict, name: str, default=None) -> str:
    value = data.get(name, default)
    if not isinstance(value, str):
        raise TournamentInputError(name, "a string" + (" (required)" if default is None else ""))
    return value


def _endpoint(work):
    """An endpoint calling work(data, director key, tournament id) off the event loop."""
    async def endpoint(request: Request) -> Response:
        try:
            data = await _body(request) if request.method == "POST" else dict(request.query_params)
            key = request.headers.get("x-director-key", "")
            tid = request.path_params.get("tid", "")
            answer = await anyio.to_thread.run_sync(work, data, key, tid)
        except Exception as exc:  # noqa: BLE001 - every error in the API's format, mapped in one place
            return _error(exc)
        if isinstance(answer, Response):
            return answer
        return Response(orjson.dumps(answer), media_type=JSON)
    return endpoint


class _Handlers:
    def __init__(self, service, live_scores) -> None:
        self.service = service
        self.live_scores = live_scores

    def create(self, data, key, tid):
        tiebreaks = data.get("tiebreaks", [])
        divisions = data.get("divisions", ["A"])
        if not isinstance(tiebreaks, list) or not isinstance(divisions, list):
            raise TournamentInputError("tiebreaks" if not isinstance(tiebreaks, list) else "divisions", "a list")
        new_id, director = self.service.create(
            _str(data, "name"), _str(data, "lexicon"), divisions=divisions, rounds=data.get("rounds", 7),
            game_seconds=data.get("gameSeconds", 0), bye_points=data.get("byePoints", 50), tiebreaks=tiebreaks,
            seed=data.get("seed"))
        return {"tournamentId": new_id, "directorKey": director}

    def view(self, data, key, tid):
        return tournament_view(self.service.view(tid), self.live_scores)

    def games(self, data, key, tid):
        return {"games": games_view(self.service.view(tid), self.live_scores)}

    def players(self, data, key, tid):
        given = data.get("players")
        if not isinstance(given, list) or not all(isinstance(p, dict) for p in given):
            raise TournamentInputError("players", "a list of objects")
        rows = [{"name": p.get("name"), "rating": p.get("rating", 0), "federation_id": p.get("federationId", ""),
                 "computer": p.get("computer", "")} for p in given]
        return {"players": self.service.add_players(tid, key, _str(data, "division", "A"), rows)}

    def pair(self, data, key, tid):
        division = _str(data, "division", "A")
        self.service.pair(tid, key, division, _str(data, "method", "swiss"))
        t = self.service.view(tid)
        rnd = t.divisions[division].rounds_paired()
        return {"round": rnd, "games": [g for g in games_view(t) if g["division"] == division and g["round"] == rnd]}

    def start(self, data, key, tid):
        return {"tables": self.service.start_round(tid, key, _str(data, "division", "A"), data.get("round"))}

    def result(self, data, key, tid):
        self.service.set_result(tid, key, _str(data, "division", "A"), data.get("round"), data.get("table"),
                                data.get("score1"), data.get("score2"), _str(data, "reason"))
        return {}

    def import_file(self, data, key, tid):
        division, kind, text = _str(data, "division", "A"), _str(data, "format", "t"), _str(data, "text")
        if kind not in ("t", "csv"):
            raise TournamentInputError("format", "t or csv")
        count = (self.service.import_t if kind == "t" else self.service.import_csv)(tid, key, division, text)
        return {"imported": count}

    def export(self, data, key, tid):
        t = self.service.view(tid)
        division, kind = data.get("division", next(iter(t.divisions))), data.get("format", "t")
        if division not in t.divisions:
            raise TournamentInputError("division", f"no division {division[:40]!r}")
        if kind not in ("t", "csv"):
            raise TournamentInputError("format", "t or csv")
        d = t.divisions[division]
        if kind == "t":
            return Response(tsh.write_t(d), media_type="text/plain; charset=utf-8")
        return Response(csvfiles.write_csv(d), media_type="text/csv; charset=utf-8")


def tournament_routes(service, live_scores=None) -> list[Route]:
    """The routes over a TournamentService. `live_scores(game_id)`: a game in progress's scores."""
    h = _Handlers(service, live_scores)
    base = "/v1/tournaments"
    return [Route(base + path, _endpoint(work), methods=[method]) for method, path, work in (
        ("POST", "", h.create), ("GET", "/{tid}", h.view), ("GET", "/{tid}/games", h.games),
        ("POST", "/{tid}/players", h.players), ("POST", "/{tid}/rounds:pair", h.pair),
        ("POST", "/{tid}/rounds:start", h.start), ("POST", "/{tid}/results", h.result),
        ("POST", "/{tid}/import", h.import_file), ("GET", "/{tid}/export", h.export))]
