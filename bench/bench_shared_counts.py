"""The stream counts `serve --processes` children share (server/shared_counts.py), under their real workload:
N processes at once each opening and closing streams (an open counts its client and its game against their
bounds; a close releases both), as fast as they can; and a kill loop (one process killed by SIGKILL at
random moments and restarted in its slot, the other counting on).

    python bench/bench_shared_counts.py [--processes 1 2 4] [--changes 20000] [--kills 100]
        [--hand-written-from COMMIT]

Prints per process count the changes a second of all the processes together, and per change the median,
99th percentile and largest time; then for the kill loop how many keys' counts differ, after the killed
slot's successor has claimed it, from what the surviving process holds (0: a kill lost or kept nothing).
--hand-written-from COMMIT measures beside it the hand-written table in shared memory of that commit
(server/shared_counts.py as it was there, read with git; 6aa775f is the last that had it).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# A process of the workload: argv = table kind, where, processes, slot, changes (0: until killed), seconds.
WORKER = r'''
import json, random, sys, time
kind, where, processes, slot, changes = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
if kind == "sqlite":
    from lexicon_service.server.shared_counts import SharedCounts
    table = SharedCounts(where, slot, "grpc")
    key = lambda kind, name: f"{kind} {name}"
else:
    sys.path.insert(0, sys.argv[6])
    from hand_written_counts import SharedCounts, key_hash as key
    table = SharedCounts(int(where), processes, slot)
table.claim_column()
rng = random.Random(slot)
clients = [key("client", n) for n in range(200)]
games = [key("game", n) for n in range(50)]
held, times = [], []
print("ready", flush=True)
sys.stdin.readline()  # all the processes start at once
n = 0
while changes == 0 or n < changes:
    n += 1
    start = time.perf_counter_ns()
    if len(held) < 60 and (not held or rng.random() < 0.5):
        keys = (rng.choice(clients), rng.choice(games))
        if table.add(keys, (8, 16)) is None:
            held.append(keys)
    else:
        table.remove(held.pop(rng.randrange(len(held))))
    times.append(time.perf_counter_ns() - start)
counts = {}
for keys in held:
    for k in keys:
        counts[str(k)] = counts.get(str(k), 0) + 1
times.sort()
print(json.dumps({"changes": len(times), "p50": times[len(times) // 2], "p99": times[int(len(times) * 0.99)],
                  "max": times[-1], "held": counts}), flush=True)
'''


def start_counting(worker: subprocess.Popen) -> None:
    worker.stdin.write("go\n")
    worker.stdin.flush()


class Table:
    """One shared table of `kind` ("sqlite": the current module; "hand-written": an old commit's)."""

    def __init__(self, kind: str, processes: int, module_dir: str | None) -> None:
        self.kind, self.processes, self.module_dir = kind, processes, module_dir
        self.pass_fds: tuple[int, ...] = ()
        if kind == "sqlite":
            from lexicon_service.server.shared_counts import CountsDatabase
            self.database = CountsDatabase.create()
            self.where = self.database.path
        else:
            sys.path.insert(0, module_dir)
            from hand_written_counts import SharedCounts
            fd = SharedCounts.create(256 * processes, processes)
            self.where, self.pass_fds = str(fd), (fd,)

    def start(self, slot: int, changes: int, go: bool = True) -> subprocess.Popen:
        """A worker in `slot`, ready; counting at once with `go`, else when `go(worker)` is called."""
        worker = subprocess.Popen([sys.executable, "-c", WORKER, self.kind, self.where, str(self.processes),
                                   str(slot), str(changes), self.module_dir or ""], cwd=ROOT,
                                  pass_fds=self.pass_fds, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert worker.stdout.readline() == "ready\n"
        if go:
            start_counting(worker)
        return worker

    def count(self, key) -> int:
        if self.kind == "sqlite":
            from lexicon_service.server.shared_counts import SharedCounts
            with contextlib.closing(SharedCounts(self.where, 0, "grpc")) as table:
                return table.count(key)
        from hand_written_counts import SharedCounts
        with contextlib.closing(SharedCounts(int(self.where), self.processes, 0)) as table:
            return table.count(int(key))

    def claim(self, slot: int) -> None:
        if self.kind == "sqlite":
            from lexicon_service.server.shared_counts import SharedCounts
            with contextlib.closing(SharedCounts(self.where, slot, "grpc")) as table:
                table.claim_column()
            return
        from hand_written_counts import SharedCounts
        with contextlib.closing(SharedCounts(int(self.where), self.processes, slot)) as table:
            table.claim_column()

    def key(self, kind: str, name) -> str:
        if self.kind == "sqlite":
            return f"{kind} {name}"
        from hand_written_counts import key_hash
        return str(key_hash(kind, name))

    def close(self) -> None:
        if self.kind == "sqlite":
            self.database.remove()
        else:
            os.close(int(self.where))


def throughput(kind: str, processes: int, changes: int, module_dir) -> None:
    table = Table(kind, processes, module_dir)
    try:
        workers = [table.start(slot, changes, go=False) for slot in range(processes)]
        started = time.perf_counter()
        for worker in workers:
            start_counting(worker)
        results = [json.loads(worker.stdout.readline()) for worker in workers]
        seconds = time.perf_counter() - started
        for worker in workers:
            worker.wait()
    finally:
        table.close()
    total = sum(result["changes"] for result in results)
    print(f"{kind:12} processes {processes}: {total / seconds:8,.0f} changes/s; per change median "
          f"{sorted(r['p50'] for r in results)[len(results) // 2] / 1000:6.1f} µs, p99 "
          f"{max(r['p99'] for r in results) / 1000:7.1f} µs, largest {max(r['max'] for r in results) / 1e6:8.1f} ms",
          flush=True)


def kill_loop(kind: str, kills: int, module_dir) -> None:
    table = Table(kind, 2, module_dir)
    rng = random.Random(1)
    try:
        survivor = table.start(0, 40_000)
        for _ in range(kills):
            victim = table.start(1, 0)
            time.sleep(rng.uniform(0.01, 0.2))
            victim.send_signal(signal.SIGKILL)
            victim.wait()
        held = json.loads(survivor.stdout.readline())["held"]
        survivor.wait()
        table.claim(1)  # the slot's successor claims it
        keys = [table.key("client", n) for n in range(200)] + [table.key("game", n) for n in range(50)]
        wrong = sum(table.count(key) != held.get(key, 0) for key in keys)
    finally:
        table.close()
    print(f"{kind:12} {kills} kills: keys whose count differs from the surviving process's: {wrong} of {len(keys)}",
          flush=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--changes", type=int, default=20_000, help="stream opens and closes per process")
    parser.add_argument("--kills", type=int, default=100)
    parser.add_argument("--hand-written-from", metavar="COMMIT", help="measure that commit's hand-written table too")
    args = parser.parse_args(argv)
    kinds = ["sqlite"]
    with tempfile.TemporaryDirectory() as module_dir:
        if args.hand_written_from:
            source = subprocess.run(["git", "show", f"{args.hand_written_from}:lexicon_service/server/shared_counts.py"],
                                    cwd=ROOT, check=True, capture_output=True, text=True).stdout
            Path(module_dir, "hand_written_counts.py").write_text(source)
            kinds.insert(0, "hand-written")
        for processes in args.processes:
            for kind in kinds:
                throughput(kind, processes, args.changes, module_dir)
        for kind in kinds:
            if args.kills:
                kill_loop(kind, args.kills, module_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
