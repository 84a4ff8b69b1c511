"""Availability when a server process dies: `serve --processes 2` with the real lexicons, one
child killed (SIGKILL) several times.

    python bench/bench_restart.py --lexicons lexicons [--kills 3]

Reports the start-up time (spawn -> the supervisor's "serving" line), and for each kill: the
time until the restarted child listens and answers (the issue's target: 2 s), and how many
calls failed meanwhile. The calls go out every 20 ms, each on a new connection, so the kernel
spreads them over the listening processes.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import grpc  # noqa: E402
from loadgen import children, listening, start_server, stop_server  # noqa: E402

from lexicon_service.grpc_gen import lexicon_pb2, lexicon_pb2_grpc  # noqa: E402


def call(address: str, lexicon: str) -> bool:
    try:
        with grpc.insecure_channel(address) as ch:
            lexicon_pb2_grpc.LexiconServiceStub(ch).CheckWords(
                lexicon_pb2.CheckWordsRequest(lexicon=lexicon, words=["kot"]), timeout=5)
        return True
    except grpc.RpcError:
        return False


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lexicons", default="lexicons")
    parser.add_argument("--kills", type=int, default=3)
    parser.add_argument("--shared", default=None, help="unused (make bench passes it)")
    args = parser.parse_args(argv)
    names = sorted(p.name[:-4] for p in Path(args.lexicons).glob("*.lex"))
    lexicon = "pl-scrabble" if "pl-scrabble" in names else names[0]
    proc = start_server(args.lexicons, "--processes", "2")
    try:
        port = proc.port
        address = f"127.0.0.1:{port}"
        print(f"[restart] start-up of 2 processes with {', '.join(names)}: {proc.startup:.2f} s "
              f"(load average {os.getloadavg()[0]:.1f})")
        worst = 0.0
        for kill in range(args.kills):
            victim = children(proc.pid)[0]
            os.kill(victim, signal.SIGKILL)
            killed = time.monotonic()
            calls = failures = 0
            while True:
                calls += 1
                failures += not call(address, lexicon)
                now = children(proc.pid)
                if len(now) == 2 and victim not in now and listening(max(now), port) and call(address, lexicon):
                    break
                if time.monotonic() - killed > 60:
                    raise SystemExit("the killed process was not restarted within 60 s")
                time.sleep(0.02)
            took = time.monotonic() - killed
            worst = max(worst, took)
            print(f"[restart] kill {kill + 1}: restarted and listening after {took:.2f} s; "
                  f"{failures} of {calls} calls failed meanwhile (load average {os.getloadavg()[0]:.1f})")
            time.sleep(1.0)
        print(f"[restart] worst restart {worst:.2f} s (target 2 s)")
    finally:
        stop_server(proc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
