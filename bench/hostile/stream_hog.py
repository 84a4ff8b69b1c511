"""One client holds 120 game streams while a player of another game plays: is the player served?

    python bench/hostile/stream_hog.py --lexicons LEXICONS [--processes 2] [--hold 20]

Starts `serve --processes N --http` with its default bounds (gRPC on [::], HTTP on 127.0.0.1). The attacker,
from 127.0.0.1, creates an idle game and opens 56 WatchGame streams on it (over 8 connections, which the
kernel spreads over the processes) and 64 HTTP event streams (one connection each), the 120 that took every
slot of a process before the per-client bounds, and holds them. Meanwhile a player from another address
(gRPC from [::1], HTTP from 127.0.0.2) creates a game, watches it over both transports, passes, and times
the event's arrival on each stream; every 5 s while the attacker holds, the player starts again. Prints
the attacker's streams served and refused by status, and each round of the player's.
"""

from __future__ import annotations

import argparse
import tempfile
import threading
import time
from collections import Counter

import grpc
import httpx
from live_server import live_server

from lexicon_service.grpc_gen import session_pb2, session_pb2_grpc

GRPC_STREAMS, GRPC_CONNECTIONS, HTTP_STREAMS = 56, 8, 64


def _hold_grpc(target: str, game_id: str, release: threading.Event, outcomes: Counter) -> list:
    """WatchGame streams of the attacker, each read to its first event; returns the channels to close."""
    channels = [grpc.insecure_channel(target, options=[("grpc.use_local_subchannel_pool", 1)])
                for _ in range(GRPC_CONNECTIONS)]
    streams = []
    for number in range(GRPC_STREAMS):
        stub = session_pb2_grpc.GameSessionServiceStub(channels[number % GRPC_CONNECTIONS])
        stream = stub.WatchGame(session_pb2.WatchGameRequest(game_id=game_id), timeout=600)
        try:
            next(stream)
            outcomes["served"] += 1
            streams.append(stream)
        except grpc.RpcError as exc:
            outcomes[exc.code().name] += 1
    threading.Thread(target=lambda: (release.wait(), [s.cancel() for s in streams]), daemon=True).start()
    return channels


def _hold_http(url: str, game_id: str, release: threading.Event, outcomes: Counter, lock: threading.Lock,
               opened: threading.Semaphore) -> None:
    """One HTTP event stream of the attacker, held until `release`."""
    try:
        with httpx.Client(base_url=url, timeout=600) as client, \
                client.stream("GET", f"/v1/games/{game_id}/events") as events:
            with lock:
                outcomes["served" if events.status_code == 200 else str(events.status_code)] += 1
            opened.release()
            if events.status_code == 200:
                release.wait()
    except httpx.HTTPError as exc:
        with lock:
            outcomes[type(exc).__name__] += 1
        opened.release()


def _first_event_after(stream_next, started: threading.Event, result: dict, key: str) -> None:
    try:
        stream_next()  # version 1
        started.set()
        stream_next()
        result[key] = time.monotonic()
    except Exception as exc:  # noqa: BLE001 - reported
        result[key] = repr(exc)[:120]
        started.set()


def _player_round(grpc_port: int, http_url: str) -> str:
    """A player from another address: a new game, watched over gRPC and HTTP, a pass, the event's arrival."""
    transport = httpx.HTTPTransport(local_address="127.0.0.2")
    with httpx.Client(base_url=http_url, timeout=10, transport=transport) as http, \
            grpc.insecure_channel(f"[::1]:{grpc_port}") as channel:
        page = http.get("/games").status_code
        game = http.post("/v1/games", json={"lexicon": "pl-scrabble", "playerNames": ["Ann", "Bob"]})
        if game.status_code != 200:
            return f"page {page}, create {game.status_code} {game.text[:100]}"
        game_id, token = game.json()["gameId"], game.json()["playerTokens"][0]
        result, ready = {}, [threading.Event(), threading.Event()]
        stream = session_pb2_grpc.GameSessionServiceStub(channel).WatchGame(
            session_pb2.WatchGameRequest(game_id=game_id), timeout=30)
        threads = [threading.Thread(target=_first_event_after, args=(lambda: next(stream), ready[0], result, "grpc"))]
        with http.stream("GET", f"/v1/games/{game_id}/events") as events:
            if events.status_code != 200:
                result["http"] = f"HTTP {events.status_code}"
                ready[1].set()
            else:
                lines = events.iter_lines()

                def next_event():
                    for line in lines:
                        if line.startswith("data:"):
                            return line
                    raise EOFError("stream ended")
                threads.append(threading.Thread(target=_first_event_after, args=(next_event, ready[1], result, "http")))
            for thread in threads:
                thread.start()
            for event in ready:
                event.wait(15)
            sent = time.monotonic()
            moved = http.post(f"/v1/games/{game_id}:move", json={"pass": True},
                              headers={"Authorization": f"Bearer {token}"}).status_code
            for thread in threads:
                thread.join(15)
        stream.cancel()
    arrivals = {key: (f"{(value - sent) * 1000:.1f} ms" if isinstance(value, float) else value)
                for key, value in result.items()}
    return f"page {page}, move {moved}, event over gRPC {arrivals.get('grpc')}, over HTTP {arrivals.get('http')}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lexicons", required=True)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--hold", type=float, default=20.0, help="seconds the attacker holds its streams")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, \
            live_server(args.lexicons, args.processes, f"{tmp}/games.db") as (grpc_port, url):
        idle = httpx.post(url + "/v1/games", json={"lexicon": "pl-scrabble", "playerNames": ["X", "Y"]}).json()
        print(f"serve --processes {args.processes} (default stream bounds); attacker 127.0.0.1, idle game "
              f"{idle['gameId']}")
        print("player before the attack:", _player_round(grpc_port, url))
        release, lock = threading.Event(), threading.Lock()
        grpc_outcomes, http_outcomes = Counter(), Counter()
        opened = threading.Semaphore(0)
        for _ in range(HTTP_STREAMS):
            threading.Thread(target=_hold_http, args=(url, idle["gameId"], release, http_outcomes, lock, opened),
                             daemon=True).start()
        for _ in range(HTTP_STREAMS):
            opened.acquire(timeout=30)
        channels = _hold_grpc(f"127.0.0.1:{grpc_port}", idle["gameId"], release, grpc_outcomes)
        print(f"attacker: {GRPC_STREAMS} WatchGame over {GRPC_CONNECTIONS} connections: {dict(grpc_outcomes)}; "
              f"{HTTP_STREAMS} HTTP event streams: {dict(http_outcomes)}")
        end = time.monotonic() + args.hold
        while time.monotonic() < end:
            print(f"player while held ({grpc_outcomes['served'] + http_outcomes['served']} streams held):",
                  _player_round(grpc_port, url))
            time.sleep(5)
        release.set()
        for channel in channels:
            channel.close()

if __name__ == "__main__":
    main()
