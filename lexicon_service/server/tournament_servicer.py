"""TournamentService (proto/lexicon/v1/tournament.proto): a thin servicer over tournaments/service.py.

Each RPC is a plain method taking the request and its Caller (games/roles.py), which the HTTP routes
(http/api.py) call as well; the gRPC methods read the Caller from the call, the director key from its
`x-director-key` metadata (over HTTP, the header). Every error is answered from the one table
(lexicon_service/errors.py): a TournamentInputError, a FieldError, is INVALID_ARGUMENT, over gRPC with a
BadRequest naming the field; the game service's errors (not found, unauthenticated, permission denied, the
database unavailable) as for games.
"""

from __future__ import annotations

import grpc
from google.protobuf import json_format

from lexicon_service.grpc_gen import tournament_pb2, tournament_pb2_grpc
from lexicon_service.games.roles import Caller
from lexicon_service.server.errors import field_status, status_of
from lexicon_service.server.game_session_servicer import caller_of_call
from lexicon_service.tournaments import csvfiles, tsh
from lexicon_service.tournaments.model import TournamentInputError
from lexicon_service.tournaments.views import games_view, tournament_view

METHODS = {tournament_pb2.PAIRING_METHOD_UNSPECIFIED: "swiss", tournament_pb2.PAIRING_METHOD_SWISS: "swiss",
           tournament_pb2.PAIRING_METHOD_ROUND_ROBIN: "round-robin",
           tournament_pb2.PAIRING_METHOD_KING_OF_THE_HILL: "king-of-the-hill"}
TSH_FORMATS = (tournament_pb2.DIVISION_FORMAT_UNSPECIFIED, tournament_pb2.DIVISION_FORMAT_TSH)


def _tournament_rpc(plain):
    """The gRPC method of a plain method `plain(self, request, caller)`: the caller read from the call;
    a field error (TournamentInputError) answered as INVALID_ARGUMENT with a BadRequest naming the field,
    any other exception with its status."""

    def method(self, request, context):
        try:
            return plain(self, request, caller_of_call(context))
        except Exception as exc:  # noqa: BLE001 - the mapping point
            answer = field_status(exc) if isinstance(exc, TournamentInputError) else status_of(exc)
        # aborted outside the except clause, as errors.rpc does (a kept exception held the call's stream)
        if isinstance(answer, grpc.Status):
            context.abort_with_status(answer)
        context.abort(*answer)

    method.__name__ = method.__qualname__ = "".join(part.title() for part in plain.__name__.split("_"))
    method.__doc__ = plain.__doc__
    return method


def _without_none(value):
    if isinstance(value, dict):
        return {k: _without_none(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_without_none(v) for v in value]
    return value


def _message(data: dict, cls):
    return json_format.ParseDict(_without_none(data), cls(), ignore_unknown_fields=True)


class TournamentServicer(tournament_pb2_grpc.TournamentServiceServicer):
    def __init__(self, tournaments, live_scores=None) -> None:
        self.tournaments = tournaments
        self.live_scores = live_scores

    def create_tournament(self, request, caller: Caller):
        tid, key = self.tournaments.create(
            request.name, request.lexicon, divisions=list(request.divisions) or ["A"],
            rounds=request.rounds if request.HasField("rounds") else 7, game_seconds=request.game_seconds,
            bye_points=request.bye_points if request.HasField("bye_points") else 50,
            tiebreaks=list(request.tiebreaks), seed=request.seed if request.HasField("seed") else None)
        return tournament_pb2.CreateTournamentResponse(tournament_id=tid, director_key=key)

    def add_players(self, request, caller: Caller):
        players = [{"name": p.name, "rating": p.rating, "federation_id": p.federation_id, "computer": p.computer}
                   for p in request.players]
        count = self.tournaments.add_players(request.tournament_id, caller.director_key,
                                             request.division or "A", players)
        return tournament_pb2.AddPlayersResponse(players=count)

    def pair_round(self, request, caller: Caller):
        division = request.division or "A"
        method = METHODS.get(request.method)
        if method is None:
            raise TournamentInputError("method", f"unknown value {request.method}")
        self.tournaments.pair(request.tournament_id, caller.director_key, division, method)
        t = self.tournaments.view(request.tournament_id)
        rnd = t.divisions[division].rounds_paired()
        games = [g for g in games_view(t) if g["division"] == division and g["round"] == rnd]
        return _message({"round": rnd, "games": games}, tournament_pb2.PairRoundResponse)

    def start_round(self, request, caller: Caller):
        started = self.tournaments.start_round(request.tournament_id, caller.director_key,
                                               request.division or "A", request.round, client=caller.client)
        return tournament_pb2.StartRoundResponse(tables=[tournament_pb2.StartedTable(
            table=s["table"], game_id=s["game_id"], director_token=s["director_token"],
            seats=[tournament_pb2.StartedSeat(name=p["name"], token=p["token"]) for p in s["players"]])
            for s in started])

    def set_result(self, request, caller: Caller):
        self.tournaments.set_result(request.tournament_id, caller.director_key, request.division or "A",
                                    request.round, request.table, request.score1, request.score2, request.reason)
        return tournament_pb2.SetResultResponse()

    def get_tournament(self, request, caller: Caller):
        view = tournament_view(self.tournaments.view(request.tournament_id), self.live_scores)
        return _message(view, tournament_pb2.GetTournamentResponse)

    def list_tournament_games(self, request, caller: Caller):
        games = [g for g in games_view(self.tournaments.view(request.tournament_id), self.live_scores)
                 if (not request.division or g["division"] == request.division)
                 and (not request.round or g["round"] == request.round)]
        return _message({"games": games}, tournament_pb2.ListTournamentGamesResponse)

    def import_division(self, request, caller: Caller):
        read = self.tournaments.import_t if request.format in TSH_FORMATS else self.tournaments.import_csv
        count = read(request.tournament_id, caller.director_key, request.division or "A", request.text)
        return tournament_pb2.ImportDivisionResponse(imported=count)

    def export_division(self, request, caller: Caller):
        t = self.tournaments.view(request.tournament_id)
        division = request.division or next(iter(t.divisions))
        if division not in t.divisions:
            raise TournamentInputError("division", f"no division {division[:40]!r}")
        write = tsh.write_t if request.format in TSH_FORMATS else csvfiles.write_csv
        return tournament_pb2.ExportDivisionResponse(text=write(t.divisions[division]))

    # the gRPC methods: the plain methods above, with the call's caller (its `x-director-key`)
    CreateTournament = _tournament_rpc(create_tournament)
    AddPlayers = _tournament_rpc(add_players)
    PairRound = _tournament_rpc(pair_round)
    StartRound = _tournament_rpc(start_round)
    SetResult = _tournament_rpc(set_result)
    GetTournament = _tournament_rpc(get_tournament)
    ListTournamentGames = _tournament_rpc(list_tournament_games)
    ImportDivision = _tournament_rpc(import_division)
    ExportDivision = _tournament_rpc(export_division)
