"""TournamentService (proto/lexicon/v1/tournament.proto): a thin servicer over tournaments/service.py.

The director key comes as `x-director-key` metadata (over HTTP, the header). Errors are mapped here, in
one place (the HTTP routes of http/api.py call this servicer): a TournamentInputError is INVALID_ARGUMENT with a BadRequest naming the field; the game service's
errors (not found, unauthenticated, permission denied, the database unavailable) as for games.
"""

from __future__ import annotations

import functools

import grpc
from google.protobuf import json_format

from lexicon_service.grpc_gen import tournament_pb2, tournament_pb2_grpc
from lexicon_service.errors import FieldError
from lexicon_service.server.errors import field_status, status_and_trailing
from lexicon_service.server.game_session_servicer import client_of
from lexicon_service.tournaments import csvfiles, tsh
from lexicon_service.tournaments.model import TournamentInputError
from lexicon_service.tournaments.views import games_view, tournament_view

METHODS = {tournament_pb2.PAIRING_METHOD_UNSPECIFIED: "swiss", tournament_pb2.PAIRING_METHOD_SWISS: "swiss",
           tournament_pb2.PAIRING_METHOD_ROUND_ROBIN: "round-robin",
           tournament_pb2.PAIRING_METHOD_KING_OF_THE_HILL: "king-of-the-hill"}
TSH_FORMATS = (tournament_pb2.DIVISION_FORMAT_UNSPECIFIED, tournament_pb2.DIVISION_FORMAT_TSH)


def tournament_status(exc: BaseException):
    """(grpc code, message, field or None) of an error raised by a tournament call."""
    if isinstance(exc, TournamentInputError):
        return grpc.StatusCode.INVALID_ARGUMENT, str(exc)[:300], exc.field
    code, message, _ = status_and_trailing(exc)
    return code, message, None


def _tournament_rpc(method):
    @functools.wraps(method)
    def wrapper(self, request, context):
        try:
            return method(self, request, context)
        except Exception as exc:  # noqa: BLE001 - the mapping point
            code, message, field = tournament_status(exc)
            answer = field_status(FieldError(field, str(exc.message))) if field is not None else None
        if answer is not None:
            context.abort_with_status(answer)
        context.abort(code, message)
    return wrapper


def _without_none(value):
    if isinstance(value, dict):
        return {k: _without_none(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_without_none(v) for v in value]
    return value


def _message(data: dict, cls):
    return json_format.ParseDict(_without_none(data), cls(), ignore_unknown_fields=True)


def _director_key(context) -> str:
    return next((v.strip() for k, v in context.invocation_metadata() or () if k == "x-director-key"), "")


class TournamentServicer(tournament_pb2_grpc.TournamentServiceServicer):
    def __init__(self, tournaments, live_scores=None) -> None:
        self.tournaments = tournaments
        self.live_scores = live_scores

    @_tournament_rpc
    def CreateTournament(self, request, context):
        tid, key = self.tournaments.create(
            request.name, request.lexicon, divisions=list(request.divisions) or ["A"],
            rounds=request.rounds if request.HasField("rounds") else 7, game_seconds=request.game_seconds,
            bye_points=request.bye_points if request.HasField("bye_points") else 50,
            tiebreaks=list(request.tiebreaks), seed=request.seed if request.HasField("seed") else None)
        return tournament_pb2.CreateTournamentResponse(tournament_id=tid, director_key=key)

    @_tournament_rpc
    def AddPlayers(self, request, context):
        players = [{"name": p.name, "rating": p.rating, "federation_id": p.federation_id, "computer": p.computer}
                   for p in request.players]
        count = self.tournaments.add_players(request.tournament_id, _director_key(context),
                                             request.division or "A", players)
        return tournament_pb2.AddPlayersResponse(players=count)

    @_tournament_rpc
    def PairRound(self, request, context):
        division = request.division or "A"
        method = METHODS.get(request.method)
        if method is None:
            raise TournamentInputError("method", f"unknown value {request.method}")
        self.tournaments.pair(request.tournament_id, _director_key(context), division, method)
        t = self.tournaments.view(request.tournament_id)
        rnd = t.divisions[division].rounds_paired()
        games = [g for g in games_view(t) if g["division"] == division and g["round"] == rnd]
        return _message({"round": rnd, "games": games}, tournament_pb2.PairRoundResponse)

    @_tournament_rpc
    def StartRound(self, request, context):
        started = self.tournaments.start_round(request.tournament_id, _director_key(context),
                                               request.division or "A", request.round, client=client_of(context))
        return tournament_pb2.StartRoundResponse(tables=[tournament_pb2.StartedTable(
            table=s["table"], game_id=s["game_id"], director_token=s["director_token"],
            seats=[tournament_pb2.StartedSeat(name=p["name"], token=p["token"]) for p in s["players"]])
            for s in started])

    @_tournament_rpc
    def SetResult(self, request, context):
        self.tournaments.set_result(request.tournament_id, _director_key(context), request.division or "A",
                                    request.round, request.table, request.score1, request.score2, request.reason)
        return tournament_pb2.SetResultResponse()

    @_tournament_rpc
    def GetTournament(self, request, context):
        view = tournament_view(self.tournaments.view(request.tournament_id), self.live_scores)
        return _message(view, tournament_pb2.GetTournamentResponse)

    @_tournament_rpc
    def ListTournamentGames(self, request, context):
        games = [g for g in games_view(self.tournaments.view(request.tournament_id), self.live_scores)
                 if (not request.division or g["division"] == request.division)
                 and (not request.round or g["round"] == request.round)]
        return _message({"games": games}, tournament_pb2.ListTournamentGamesResponse)

    @_tournament_rpc
    def ImportDivision(self, request, context):
        read = self.tournaments.import_t if request.format in TSH_FORMATS else self.tournaments.import_csv
        count = read(request.tournament_id, _director_key(context), request.division or "A", request.text)
        return tournament_pb2.ImportDivisionResponse(imported=count)

    @_tournament_rpc
    def ExportDivision(self, request, context):
        t = self.tournaments.view(request.tournament_id)
        division = request.division or next(iter(t.divisions))
        if division not in t.divisions:
            raise TournamentInputError("division", f"no division {division[:40]!r}")
        write = tsh.write_t if request.format in TSH_FORMATS else csvfiles.write_csv
        return tournament_pb2.ExportDivisionResponse(text=write(t.divisions[division]))
