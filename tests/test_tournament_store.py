"""The tournament store on SQLite and PostgreSQL: two services on one database see one tournament and
decide again on a conflict; and every TournamentService call fuzzed with hostile fields: never INTERNAL."""

from __future__ import annotations

import random
import threading

import grpc
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lexicon_service.grpc_gen import tournament_pb2 as pb
from lexicon_service.server.tournament_servicer import TournamentServicer
from lexicon_service.tournaments.service import TournamentService
from lexicon_service.tournaments.store import tournament_store_for
from test_tournament_server import api, lexicon_dir  # noqa: F401 - a real server on the tiny lexicon


def test_two_services_on_one_database_share_a_tournament(make_store):
    stores = [tournament_store_for(make_store("shared")) for _ in range(2)]
    one, two = (TournamentService(s) for s in stores)
    tid, key = one.create("Liga", "pl-tiny", rounds=3, seed=1)
    names = [f"Hráč {c}" for c in "ABCDEFGH"]
    errors = []

    def add(service, half):  # both at once: every append at a version read, conflicts decided again
        try:
            service.add_players(tid, key, "A", [{"name": n} for n in half])
        except Exception as exc:  # noqa: BLE001
            errors.append(exc)
    threads = [threading.Thread(target=add, args=(s, names[i::2])) for i, s in enumerate((one, two))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert sorted(p.name for p in two.view(tid).divisions["A"].players) == names
    one.pair(tid, key, "A", "round-robin")
    g = two.view(tid).divisions["A"].round_games(1)[0]
    two.set_result(tid, key, "A", 1, g.table, 400, 350, "on a board")
    assert one.view(tid).divisions["A"].round_games(1)[0].s1 == 400
    for s in stores:
        s.close()


class Context:
    def __init__(self, key: str = "") -> None:
        self.key = key
        self.code = None

    def invocation_metadata(self):
        return (("x-director-key", self.key),) if self.key else ()

    def peer(self):
        return "ipv4:127.0.0.1:50000"

    def time_remaining(self):
        return None

    def abort(self, code, details):
        self.code = code
        raise grpc.RpcError(details)

    def abort_with_status(self, status):
        self.code = status.code
        raise grpc.RpcError(status.details)


TEXT = st.one_of(st.text(max_size=60), st.sampled_from(["", "A", "swiss", "\x00", "Nowak 1500 2; 400\n", "Ž" * 41,
                                                         "1,1,A,B\n", "0123456789ab", "../.."]))
NUMBER = st.one_of(st.integers(-2**31, 2**31 - 1), st.sampled_from([0, 1, 2, 3, 100, 101, -1]))


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow,
                                                                                     HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_hostile_fields_never_internal(api, data):  # noqa: F811
    _, server = api
    servicer: TournamentServicer = server.tournament_servicer
    if not hasattr(server, "_fuzz_tournament"):
        created = servicer.CreateTournament(pb.CreateTournamentRequest(name="Fuzz", lexicon="pl-tiny", rounds=3),
                                            Context())
        server._fuzz_tournament = (created.tournament_id, created.director_key)
    tid, key = server._fuzz_tournament
    rpc = data.draw(st.sampled_from(["CreateTournament", "AddPlayers", "PairRound", "StartRound", "SetResult",
                                     "GetTournament", "ListTournamentGames", "ImportDivision", "ExportDivision"]))
    request_type = getattr(pb, f"{rpc}Request" if rpc != "ListTournamentGames" else "ListTournamentGamesRequest")
    request = request_type()
    for field in request.DESCRIPTOR.fields:
        if data.draw(st.booleans()):
            continue
        if field.name == "tournament_id":
            request.tournament_id = data.draw(st.one_of(st.just(tid), TEXT))
        elif field.type == field.TYPE_STRING:
            value = data.draw(TEXT)
            if field.is_repeated:
                getattr(request, field.name).extend([value] * data.draw(st.integers(0, 3)))
            else:
                setattr(request, field.name, value)
        elif field.type == field.TYPE_MESSAGE:
            for _ in range(data.draw(st.integers(0, 3))):
                getattr(request, field.name).add(name=data.draw(TEXT), rating=data.draw(st.integers(-5, 5000)),
                                                 computer=data.draw(st.sampled_from(["", "best", "chaos"])))
        elif field.type == field.TYPE_ENUM:
            setattr(request, field.name, data.draw(st.integers(0, 5)))
        else:
            bits = 63 if field.type in (field.TYPE_INT64,) else 31
            setattr(request, field.name, data.draw(st.integers(-2**bits, 2**bits - 1)))
    context = Context(data.draw(st.sampled_from([key, "", "wrong"])))
    try:
        getattr(servicer, rpc)(request, context)
    except grpc.RpcError:
        pass
    assert context.code != grpc.StatusCode.INTERNAL, (rpc, request)


def test_a_round_started_twice_at_once_has_one_game_a_table(api):  # noqa: F811
    _, server = api
    service = server.tournaments
    tid, key = service.create("Dvakrát", "pl-tiny", rounds=2, seed=2)
    service.add_players(tid, key, "A", [{"name": f"Hráč {c}"} for c in "ABCD"])
    service.pair(tid, key, "A", "swiss")
    answers, barrier = [], threading.Barrier(2)

    def start():
        barrier.wait()
        answers.append(service.start_round(tid, key, "A", 1))
    threads = [threading.Thread(target=start) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    handed = [table["game_id"] for answer in answers for table in answer]
    recorded = [g.game_id for g in service.view(tid).divisions["A"].round_games(1)]
    assert sorted(handed) == sorted(recorded) and len(recorded) == 2  # the tokens handed out are the games played
