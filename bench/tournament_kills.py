"""The SIGKILL loop of bench_tournament.py: a tournament of computer players on `lexicon-service serve`,
every server process killed at a random moment during its rounds, then restarted and checked.

What a client was told before a kill must still hold after the restart: each round it saw paired, each
table's game id it was handed, each result it saw or entered (a director's correction whose answer the
kill took may or may not have been made: either is accepted), and each game's version and, once ended,
its final scores; and every result recorded from a game must equal that game's own final scores."""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path

import grpc

from bench_games import kill_server
from lexicon_service.grpc_gen import session_pb2, session_pb2_grpc
from lexicon_service.grpc_gen import tournament_pb2 as pb
from lexicon_service.grpc_gen import tournament_pb2_grpc
from loadgen import start_server

PLAYERS = ["Eva Nováková", "Jan Dvořák", "Zofia Wiśniewska", "Łukasz Żółkiewski", "Petr Černý", "John Smith",
           "Anna Kowalczyk", "Marie Šťastná"]


class Seen:
    """What the client was told, to check after each restart."""

    def __init__(self) -> None:
        self.rounds = 0
        self.started: dict[tuple[int, int], str] = {}  # (round, table) -> game id
        self.results: dict[tuple[int, int], set] = {}  # (round, table) -> the scores it may hold now
        self.games: dict[str, tuple[int, tuple | None]] = {}  # game id -> (version, final scores)


def _observe(tournaments, sessions, tid: str, seen: Seen) -> pb.GetTournamentResponse:
    view = tournaments.GetTournament(pb.GetTournamentRequest(tournament_id=tid), timeout=30)
    seen.rounds = max(seen.rounds, view.divisions[0].rounds_paired)
    for g in view.games:
        if g.game_id:
            seen.started[(g.round, g.table)] = g.game_id
            game = sessions.GetGame(session_pb2.GetGameRequest(game_id=g.game_id), timeout=30)
            ended = tuple(p.score for p in game.players) if game.status == session_pb2.GAME_STATUS_ENDED else None
            seen.games[g.game_id] = (max(game.version, seen.games.get(g.game_id, (0, None))[0]), ended)
        if g.HasField("score1") and g.player2 and (g.round, g.table) not in seen.results:
            seen.results[(g.round, g.table)] = {(g.score1, g.score2)}
    return view


def _step(tournaments, sessions, tid: str, key, seen: Seen, rng: random.Random) -> None:
    view = _observe(tournaments, sessions, tid, seen)
    rnd = view.divisions[0].rounds_paired
    games = [g for g in view.games if g.round == rnd and g.player2]
    if rnd == 0 or all(g.status == "done" for g in games):
        seen.rounds = tournaments.PairRound(pb.PairRoundRequest(tournament_id=tid), metadata=key, timeout=30).round
        rnd = seen.rounds
    if not games or any(not g.game_id for g in games):
        for t in tournaments.StartRound(pb.StartRoundRequest(tournament_id=tid, round=rnd), metadata=key,
                                        timeout=30).tables:
            seen.started[(rnd, t.table)] = t.game_id
    done = [g for g in view.games if g.status == "done" and g.player2]
    if done and rng.random() < 0.2:  # a director's correction: made for sure once answered
        g = rng.choice(done)
        wanted = (g.score1 + 1, g.score2)
        maybe = seen.results.setdefault((g.round, g.table), {(g.score1, g.score2)})
        maybe.add(wanted)
        tournaments.SetResult(pb.SetResultRequest(tournament_id=tid, round=g.round, table=g.table, score1=wanted[0],
                                                  score2=wanted[1], reason="bench correction"), metadata=key,
                              timeout=30)
        seen.results[(g.round, g.table)] = {wanted}


def _check(tournaments, sessions, tid: str, seen: Seen, checked: dict) -> tuple[int, int]:
    """(results lost, moves lost) after a restart."""
    view = tournaments.GetTournament(pb.GetTournamentRequest(tournament_id=tid), timeout=60)
    lost_results = int(view.divisions[0].rounds_paired < seen.rounds)
    at = {(g.round, g.table): g for g in view.games}
    for place, game_id in seen.started.items():
        lost_results += at.get(place) is None or at[place].game_id != game_id
    for place, allowed in seen.results.items():
        g = at.get(place)
        lost_results += g is None or not g.HasField("score1") or (g.score1, g.score2) not in allowed
    lost_moves = 0
    for game_id, (version, final) in seen.games.items():
        game = sessions.GetGame(session_pb2.GetGameRequest(game_id=game_id), timeout=60)
        lost_moves += game.version < version
        if final is not None:
            lost_moves += tuple(p.score for p in game.players) != final
    checked["results"] += len(seen.started) + len(seen.results) + 1
    checked["games"] += len(seen.games)
    checked["rounds"] = seen.rounds
    return lost_results, lost_moves


def kill_loop(lexicons: Path, directory: Path, kills: int, lexicon: str, rng: random.Random):
    """-> (results lost, moves lost, {"results", "games", "rounds"} checked)."""
    lex_dir = directory / "kill-lex"
    lex_dir.mkdir()
    (lex_dir / f"{lexicon}.lex").symlink_to((lexicons / f"{lexicon}.lex").resolve())
    db = directory / "kill.db"
    seen, tid, key = Seen(), None, None
    lost_results = lost_moves = 0
    checked = {"results": 0, "games": 0, "rounds": 0}
    for kill in range(kills + 1):  # the last start only checks
        proc = start_server(lex_dir, "--db", str(db), new_session=True)
        stop = threading.Event()
        try:
            with grpc.insecure_channel(f"127.0.0.1:{proc.port}") as channel:
                tournaments = tournament_pb2_grpc.TournamentServiceStub(channel)
                sessions = session_pb2_grpc.GameSessionServiceStub(channel)
                if tid is None:
                    created = tournaments.CreateTournament(pb.CreateTournamentRequest(
                        name="Kill loop", lexicon=lexicon, rounds=100, seed=5), timeout=30)
                    tid, key = created.tournament_id, (("x-director-key", created.director_key),)
                    tournaments.AddPlayers(pb.AddPlayersRequest(tournament_id=tid, players=[
                        pb.TournamentPlayer(name=n, computer="best") for n in PLAYERS]), metadata=key, timeout=30)
                lost = _check(tournaments, sessions, tid, seen, checked)
                lost_results, lost_moves = lost_results + lost[0], lost_moves + lost[1]
                if kill == kills:
                    break
                driver = threading.Thread(target=_drive, args=(tournaments, sessions, tid, key, seen, rng, stop))
                driver.start()
                time.sleep(rng.uniform(0.3, 2.5))
                kill_server(proc)  # every server process, at once, mid-call or not
                stop.set()
                driver.join(60)
        finally:
            stop.set()
            kill_server(proc)
    return lost_results, lost_moves, checked


def _drive(tournaments, sessions, tid, key, seen: Seen, rng: random.Random, stop: threading.Event) -> None:
    while not stop.is_set():
        try:
            _step(tournaments, sessions, tid, key, seen, rng)
        except grpc.RpcError as exc:
            if exc.code() not in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.CANCELLED,
                                  grpc.StatusCode.DEADLINE_EXCEEDED):
                print(f"  unexpected answer: {exc.code().name}: {exc.details()}", flush=True)
            return  # the kill took the call: nothing it did was acknowledged
        time.sleep(0.05)
