"""Benchmark: move generation (lexicon_service/movegen) on the real lexicons.

    .venv/bin/python bench/bench_movegen.py --lexicons DIR [--shared DIR] [--positions 2000] [--turns 1000]
                                            [--baseline-turns 40] [--workers N]

1. Move graph: each lexicon of DIR (pl-scrabble, cs-scrabble, cs-kriskros) is copied to a temporary
   directory and given its graph by `lexicon-build --move-graph-only` in a child process: build time,
   bytes per form, the child's peak memory; baseline in the same child: a marisa trie of the same keys.
   Targets (Polish, 3.06 M forms): <= 30 s extra, <= 10 bytes a form, <= 2 GB peak.
2. Exactness: random self-play positions per rule set (--positions): plays that differ between the C
   core, the plain-Python reference and validate_move, and between the top 1 and top 5 (limit, which
   skips anchors by a score bound) and the head of the full list (target 0), in --workers processes. Openings
   where the first play may go anywhere (Kris Kros) have up to ~10^6 plays with a blank and take the
   reference minutes: there the C core's best 20,000 are made and every 40th is checked against validate_move.
3. Speed (Polish, one core, CPU time): static best-move self-play (each turn: generate with limit=1,
   play the top score) in turns/s, target >= 3,000 and >= 30x the reference generator doing the same
   turns (baseline, --baseline-turns of the same positions); the same kind of games played whole in C
   (movegen.fastplay) in turns/s; raw generation counted in C (count_moves) in moves/s, target >= 2 M.
The machine may be shared: CPU time is measured, but caches are shared too.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# The installed package (editable or not) is measured: the checkout is not put on sys.path, as its
# sources lack the compiled core after a plain `pip install .`.
from lexicon_service.command_line import whole_number
from lexicon_service.lexicon import load_lexicon
from lexicon_service.movegen import count_moves, generate_moves
from lexicon_service.movegen.fastplay import play_games
from lexicon_service.movegen.graph import FILE_NAME as MOVE_GRAPH
from lexicon_service.movegen.reference import reference_moves
from lexicon_service.movegen.selfplay import positions
from lexicon_service.rules import validate_move

RULE_SETS = ("pl-scrabble", "cs-scrabble", "cs-kriskros")
TARGET_TURNS, TARGET_RATIO, TARGET_MOVES = 3_000, 30, 2_000_000
TARGET_SECONDS, TARGET_BYTES, TARGET_PEAK_MB = 30, 10, 2048

# Run in a child: add the graph, then build a marisa trie of the same keys (baseline); print the
# numbers and the child's peak memory.
_GRAPH_CHILD = """
import resource, sys, time
import marisa_trie
from build_tools.save import add_move_graph
from lexicon_service.lexicon import load_lexicon
t = time.perf_counter(); c = time.process_time()
add_move_graph(sys.argv[1])
wall, cpu = time.perf_counter() - t, time.process_time() - c
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
lex = load_lexicon(sys.argv[1])
keys = lex.keys()
t = time.process_time(); marisa_trie.Trie(keys); trie = time.process_time() - t
print(wall, cpu, peak, trie, len(lex))
"""


def graphs(lexicons: Path, work: Path) -> dict[str, Path]:
    print("move graph (lexicon-build --move-graph-only, one child process each):")
    print(f"  {'lexicon':<14}{'forms':>10}{'bytes':>12}{'B/form':>8}{'wall s':>8}{'cpu s':>7}{'peak MB':>9}"
          f"{'baseline: marisa trie of the keys, cpu s':>42}")
    out = {}
    for name in RULE_SETS:
        src = lexicons / f"{name}.lex"
        if not src.is_dir():
            print(f"  {name}: not in {lexicons}, skipped")
            continue
        dst = work / f"{name}.lex"
        shutil.copytree(src, dst)
        # -I and a cwd outside the checkout: the child imports the installed package too
        done = subprocess.run([sys.executable, "-I", "-c", _GRAPH_CHILD, str(dst)], capture_output=True, text=True,
                              cwd=work)
        if done.returncode:
            raise SystemExit(f"graph build failed for {name}: {done.stderr}")
        wall, cpu, peak, trie, forms = (float(x) for x in done.stdout.split())
        size = (dst / MOVE_GRAPH).stat().st_size
        print(f"  {name:<14}{int(forms):>10,}{size:>12,}{size / forms:>8.2f}{wall:>8.1f}{cpu:>7.1f}{peak:>9.0f}"
              f"{trie:>42.1f}")
        if name == "pl-scrabble":
            print(f"  target (Polish): <= {TARGET_SECONDS} s, <= {TARGET_BYTES} B/form, <= {TARGET_PEAK_MB} MB: "
                  f"{'met' if wall <= TARGET_SECONDS and size / forms <= TARGET_BYTES and peak <= TARGET_PEAK_MB else 'NOT met'}"
                  f"{' (wall time on a shared machine; cpu time ' + format(cpu, '.1f') + ' s)' if wall > cpu * 1.5 else ''}")
        out[name] = dst
    return out


_worker_lexicon = {}


def _plays(moves):
    return [m for m in moves if m.kind == "play"]


def _compare(job):
    """(differing plays, plays, sampled openings) for a chunk of positions of one lexicon."""
    path, items = job
    lex = _worker_lexicon.get(path)
    if lex is None:
        lex = _worker_lexicon[path] = load_lexicon(path)
    rs = lex.rule_set
    differing = total = sampled = 0
    for rows, rack in items:
        from lexicon_service.rules import Board

        board = Board.from_rows(rs, rows)
        if board.tile_count == 0 and rs.first_play.must_cover is None:
            sampled += 1
            total += count_moves(rs, board, rack, lex)
            native = generate_moves(rs, board, rack, lex, limit=20_000)
            check = [m for m in native if m.kind == "play"][::40]
        else:
            native = [m for m in generate_moves(rs, board, rack, lex) if m.kind == "play"]
            total += len(native)
            reference = set(reference_moves(rs, board, rack, lex))
            differing += len(reference.symmetric_difference(native))
            check = native
            for k in (1, 5):  # top-k skips anchors by a score bound: it must give the head of the full list
                differing += sum(a != b for a, b in zip(_plays(generate_moves(rs, board, rack, lex, limit=k)),
                                                        native[:k]))
        for move in check:
            result = validate_move(rs, board, rack, move.play, lexicon=lex)
            if not (result.valid and result.score == move.score and result.words == move.words):
                differing += 1
    return differing, total, sampled


def exactness(paths: dict[str, Path], count: int, workers: int) -> None:
    print(f"exactness: {count} random self-play positions per rule set, {workers} processes")
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        for name, path in paths.items():
            lex = load_lexicon(path)
            t = time.perf_counter()
            items = [(board.to_rows(), rack) for board, rack in
                     positions(lex.rule_set, lex, random.Random(name), count)]
            chunks = [(str(path), items[i:i + 20]) for i in range(0, len(items), 20)]
            differing = total = sampled = 0
            for d, n, s in pool.imap_unordered(_compare, chunks):
                differing, total, sampled = differing + d, total + n, sampled + s
            print(f"  {name:<14} positions {len(items):>6}  plays {total:>10,}  differing {differing:>4} "
                  f"(target 0)  openings sampled {sampled}  {time.perf_counter() - t:.0f} s")


def speed(path: Path, turns: int, baseline_turns: int) -> None:
    lex = load_lexicon(path)
    rs = lex.rule_set
    print(f"speed ({rs.id}, one core, CPU time):")
    t = time.process_time()
    played = list(positions(rs, lex, random.Random(1), turns, best=True))
    cpu = time.process_time() - t
    rate = len(played) / cpu
    t = time.process_time()
    for board, rack in played[:baseline_turns]:
        board = board.copy()  # the positions are counted below as they were
        best = reference_moves(rs, board, rack, lex)[:1]
        if best:
            board.apply(validate_move(rs, board, rack, best[0].play, lexicon=lex))
    base_rate = baseline_turns / (time.process_time() - t)
    print(f"  static best-move self-play: {rate:,.0f} turns/s over {len(played)} turns "
          f"(target >= {TARGET_TURNS:,}); reference generator: {base_rate:,.1f} turns/s over {baseline_turns} "
          f"turns; ratio {rate / base_rate:,.0f}x (target >= {TARGET_RATIO}x)")
    t = time.process_time()
    games = play_games(lex, max(1, turns // 25), seed=1)
    c_turns = sum(len(g.turns) for g in games)
    c_rate = c_turns / (time.process_time() - t)
    print(f"  static best-move self-play in C (movegen.fastplay, whole games, Python once per request): "
          f"{c_rate:,.0f} turns/s over {c_turns} turns ({c_rate / rate:.2f}x the Python loop above)")
    t = time.process_time()
    moves = sum(count_moves(rs, board, rack, lex) for board, rack in played)
    cpu = time.process_time() - t
    print(f"  raw generation (counted in C): {moves:,} moves in {cpu:.2f} s = {moves / cpu / 1e6:.2f} M moves/s "
          f"(target >= {TARGET_MOVES / 1e6:.0f} M)")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--shared", help="accepted (make bench passes it); unused")
    p.add_argument("--lexicons", default="lexicons", help="directory with the three default lexicons")
    p.add_argument("--positions", type=whole_number(0, 10**7), default=2000, help="self-play positions per rule set (exactness)")
    p.add_argument("--turns", type=whole_number(1, 10**7), default=1000, help="best-move self-play turns (speed)")
    p.add_argument("--baseline-turns", type=whole_number(1, 10**6), default=40, help="turns the reference generator plays")
    p.add_argument("--workers", type=whole_number(1, 256), default=os.cpu_count() or 1, help="processes for the exactness check")
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-movegen-") as tmp:
        paths = graphs(Path(args.lexicons), Path(tmp))
        if "pl-scrabble" in paths:
            speed(paths["pl-scrabble"], args.turns, args.baseline_turns)
        if args.positions > 0:
            exactness(paths, args.positions, args.workers)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
