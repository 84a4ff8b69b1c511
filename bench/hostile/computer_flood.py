"""2,000 games with only computer players from one client: bounded? And a person's computer opponent after?

    python bench/hostile/computer_flood.py --lexicons LEXICONS [--processes 2] [--games 2000]

Starts `serve --processes N --http` with its defaults. One client (127.0.0.1) asks for --games games whose
two seats are both computers, over gRPC on 8 connections (the kernel spreads them over the processes) and
over HTTP, as fast as answered; prints the answers by status, the time taken and the games then in the
database. Then a person (from [::1]) plays a game against the computer: the seconds from each of the
person's passes to the computer's move (WatchGame), 5 turns. Before the bound: 2,000 accepted in 4.7 s,
after which a person's computer opponent took 5 s to move.
"""

from __future__ import annotations

import argparse
import sqlite3
import tempfile
import time
from collections import Counter

import grpc
import httpx
from live_server import live_server

from lexicon_service.grpc_gen import session_pb2, session_pb2_grpc

CONNECTIONS = 8


def _flood_grpc(port: int, games: int) -> Counter:
    channels = [grpc.insecure_channel(f"127.0.0.1:{port}", options=[("grpc.use_local_subchannel_pool", 1)])
                for _ in range(CONNECTIONS)]
    request = session_pb2.CreateGameRequest(lexicon="pl-scrabble", player_names=["C1", "C2"],
                                            computer_players=[session_pb2.ComputerPlayer(seat=0),
                                                              session_pb2.ComputerPlayer(seat=1)])
    outcomes, futures = Counter(), []
    for number in range(games):
        stub = session_pb2_grpc.GameSessionServiceStub(channels[number % CONNECTIONS])
        futures.append(stub.CreateGame.future(request, timeout=60))
        if len(futures) >= 64:
            outcomes.update(_outcome(f) for f in futures)
            futures = []
    outcomes.update(_outcome(f) for f in futures)
    for channel in channels:
        channel.close()
    return outcomes


def _outcome(future) -> str:
    try:
        future.result()
        return "OK"
    except grpc.RpcError as exc:
        return exc.code().name


def _flood_http(url: str, games: int) -> Counter:
    outcomes = Counter()
    body = {"lexicon": "pl-scrabble", "playerNames": ["C1", "C2"], "computerPlayers": [{"seat": 0}, {"seat": 1}]}
    with httpx.Client(base_url=url, timeout=60) as http:
        for _ in range(games):
            outcomes[http.post("/v1/games", json=body).status_code] += 1
    return outcomes


def _computer_replies(port: int, turns: int) -> list[float]:
    """Seconds from each of a person's passes to the computer's move, in a game against it."""
    with grpc.insecure_channel(f"[::1]:{port}") as channel:
        stub = session_pb2_grpc.GameSessionServiceStub(channel)
        game = stub.CreateGame(session_pb2.CreateGameRequest(
            lexicon="pl-scrabble", player_names=["Ann", "Computer"],
            computer_players=[session_pb2.ComputerPlayer(seat=1)]), timeout=30)
        metadata = [("authorization", f"Bearer {game.player_tokens[0]}")]
        events = stub.WatchGame(session_pb2.WatchGameRequest(game_id=game.game_id), metadata=metadata, timeout=300)
        next(events)
        replies = []
        for _ in range(turns):
            sent = time.monotonic()
            stub.SubmitMove(session_pb2.SubmitMoveRequest(game_id=game.game_id, **{"pass": True}),
                            metadata=metadata, timeout=30)
            while next(events).player != 1:  # the person's pass, then the computer's move
                pass
            replies.append(time.monotonic() - sent)
        events.cancel()
    return replies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lexicons", required=True)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--games", type=int, default=2000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, \
            live_server(args.lexicons, args.processes, f"{tmp}/games.db") as (grpc_port, url):
        print(f"serve --processes {args.processes} (defaults); one client, 127.0.0.1")
        print(f"a person's computer opponent before: {_replies_text(_computer_replies(grpc_port, 5))}")
        started = time.monotonic()
        grpc_outcomes = _flood_grpc(grpc_port, args.games)
        took = time.monotonic() - started
        print(f"{args.games:,} computer-only CreateGame over gRPC ({CONNECTIONS} connections) in {took:.1f} s: "
              f"{dict(grpc_outcomes)}")
        started = time.monotonic()
        http_outcomes = _flood_http(url, args.games)
        print(f"{args.games:,} over HTTP in {time.monotonic() - started:.1f} s: {dict(http_outcomes)}")
        with sqlite3.connect(f"file:{tmp}/games.db?mode=ro", uri=True) as db:
            live = db.execute("select count(*) from live_games").fetchone()[0]
        print(f"games in progress in the database: {live:,} (the person's game among them)")
        print(f"a person's computer opponent after: {_replies_text(_computer_replies(grpc_port, 5))}")


def _replies_text(replies: list[float]) -> str:
    return ", ".join(f"{seconds * 1000:.0f} ms" for seconds in replies)


if __name__ == "__main__":
    main()
