"""Where a served CheckWords spends its CPU: py-spy samples one server process under load.

    .venv/bin/pip install py-spy
    python bench/profile_check_words.py --lexicons lexicons [--seconds 8] [--kind batch-compact]

Starts `lexicon-service serve --processes 1` on a free loopback port, drives it with the lean [h2]
client of bench/loadgen.py (4 clients flat out; `--kind`: `batch-compact` or `batch` for 1,000-word
batches, `unary` for one word a call, on the words bench_service.py samples), records the server with
`py-spy record --format raw --native` meanwhile, and prints the functions with the most samples: own
(the function itself running) and total (it or what it called). Only the threads that run Python code
are sampled (`--gil`): gRPC's own I/O threads are not, so the shares are of the Python side of a call.
"""

from __future__ import annotations

import argparse
import collections
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import bench_service  # noqa: E402
from loadgen import cpu_seconds, load_average, start_server, stop_server  # noqa: E402


def _frame_name(frame: str) -> str:
    """'function (path/to/file.py:123)' -> 'function (file.py)': lines of one function counted together."""
    name, _, where = frame.partition(" (")
    path = where.rstrip(")").rsplit(":", 1)[0]
    return f"{name} ({Path(path).name})" if path else name


def top_functions(raw: str, count: int) -> tuple[int, list[tuple[str, int, int]]]:
    """(samples, [(function, own samples, total samples)]) from py-spy's raw (collapsed) output."""
    own: collections.Counter = collections.Counter()
    total: collections.Counter = collections.Counter()
    samples = 0
    for line in raw.splitlines():
        stack, _, n = line.rpartition(" ")
        if not stack or not n.isdigit():
            continue
        n = int(n)
        samples += n
        frames = [_frame_name(f) for f in stack.split(";")]
        own[frames[-1]] += n
        for name in set(frames):
            total[name] += n
    names = sorted(total, key=lambda name: (-own[name], -total[name]))[:count]
    return samples, [(name, own[name], total[name]) for name in names]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lexicons", default="lexicons")
    parser.add_argument("--shared", default="../shared", help="unused (make bench passes it)")
    parser.add_argument("--lexicon", default="pl-scrabble")
    parser.add_argument("--kind", choices=["batch-compact", "batch", "unary"], default="batch-compact")
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--all-threads", action="store_true",
                        help="sample every thread (gRPC's I/O threads too), not only those holding the GIL")
    args = parser.parse_args(argv)
    py_spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    if not Path(py_spy).exists():
        print("profile_check_words: py-spy is not installed (pip install py-spy)", file=sys.stderr)
        return 2

    from lexicon_service.lexicon import load_lexicon

    with load_lexicon(Path(args.lexicons) / f"{args.lexicon}.lex") as local:
        words = bench_service.sample_words(local, 20_000, random.Random(20261122))
    items = words[:2000] if args.kind == "unary" else [words[i:i + 1000] for i in range(0, len(words), 1000)]
    per_call = 1 if args.kind == "unary" else 1000
    path, messages, check = bench_service._h2_workload(args.kind, args.lexicon, items)
    proc = start_server(args.lexicons, "--processes", "1", wait_serving=True)
    out = tempfile.NamedTemporaryFile(suffix=".txt", delete=False)
    try:
        spy = subprocess.Popen([py_spy, "record", "--pid", str(proc.pid), "--format", "raw", "--native", *([] if args.all_threads else ["--gil"]),
                                "--rate", "100", "--duration", str(int(args.seconds) + 1), "--output", out.name],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        cpu0 = cpu_seconds(proc.pid)
        result = bench_service.h2_load(proc.port, path, messages, check, args.clients, args.seconds)
        cpu = cpu_seconds(proc.pid) - cpu0
        _, err = spy.communicate(timeout=120)
    finally:
        stop_server(proc, 10)
    raw = Path(out.name).read_text()
    Path(out.name).unlink()
    words_done = result.calls * per_call
    print(f"profile_check_words: {args.kind}, {args.clients} clients [h2], {args.lexicon}; {result.calls} calls, "
          f"{words_done / result.elapsed:,.0f} words/s; server CPU {cpu / max(1, words_done) * 1e6:.2f} us a word, "
          f"{cpu / max(1, result.calls) * 1e6:,.0f} us a call; {result.failed} failed; load {load_average()}")
    samples, rows = top_functions(raw, args.top)
    if not samples:
        print(f"py-spy recorded nothing: {err.strip()[-500:]}")
        return 1
    print(f"{samples} samples of {'all threads (idle ones too)' if args.all_threads else 'Python threads holding the GIL'}; own = the function itself, total = with callees")
    print(f"{'own %':>6} {'total %':>8}  function")
    for name, own, total in rows:
        print(f"{100 * own / samples:6.1f} {100 * total / samples:8.1f}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
