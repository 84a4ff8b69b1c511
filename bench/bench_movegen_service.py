"""GenerateMoves over a real server: top-10 on mid-game Polish positions with two blanks in the rack.

    python bench/bench_movegen_service.py --shared ../shared --lexicons lexicons [--games 30] [--rounds 3]

1. The Polish lexicon (`--lexicons`/pl-scrabble.lex). Without a move graph, a copy in a temporary
   directory gets one (`lexicon-build --move-graph-only`); the time that takes is printed.
2. Positions made by self-play with the engine (seeded): from the empty board, each turn the mover
   plays its best move (`generate_moves(..., limit=1)`) and draws from a bag without blanks; after
   turns 6, 9 and 12 of each game the position is kept with a rack of five tiles from the bag and
   two blanks ("??").
3. A real server (`lexicon-service serve --processes 1`) with that lexicon: `GenerateMoves` with
   `limit` 10 on every position, one call at a time from one client, `--rounds` times over the
   positions. Target: p99 <= 50 ms. Baselines measured in the same run: `ValidateMove` of each
   position's best move over the same server and client (the cheapest call of the API), and
   `generate_moves` in-process on the same positions (the engine alone, without gRPC).
"""

from __future__ import annotations

import argparse
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import grpc  # noqa: E402
from loadgen import cpu_seconds, load_average, percentile, start_server, stop_server  # noqa: E402

from lexicon_service.grpc_gen import game_pb2, game_pb2_grpc  # noqa: E402
from lexicon_service.lexicon import load_lexicon  # noqa: E402
from lexicon_service.movegen import generate_moves  # noqa: E402
from lexicon_service.rules import Board, validate_move  # noqa: E402
from lexicon_service.tiles import BLANK  # noqa: E402

LEXICON = "pl-scrabble"
TARGET_P99_MS = 50.0
KEEP_AFTER_TURNS = (6, 9, 12)
LIMIT = 10


def _copy_with_move_graph(source: Path, directory: Path) -> Path:
    """A copy of the lexicon `source` in `directory` (made here), given a move graph if it has none."""
    from lexicon_service.movegen.graph import FILE_NAME

    if not source.is_dir():
        raise SystemExit(f"{source}: no such lexicon (make lexicons)")
    directory.mkdir()
    copy = directory / source.name
    shutil.copytree(source, copy)
    if not (copy / FILE_NAME).exists():
        started = time.perf_counter()
        subprocess.run([str(Path(sys.executable).parent / "lexicon-build"), "--move-graph-only", str(copy)],
                       check=True)
        print(f"move graph added to a copy of {source} in {time.perf_counter() - started:.1f} s")
    return copy


def lexicon_with_move_graph(lexicons: Path, work: Path) -> Path:
    """A directory whose pl-scrabble.lex has a move graph: --lexicons itself, or a copy in `work`."""
    from lexicon_service.movegen.graph import FILE_NAME

    source = lexicons / f"{LEXICON}.lex"
    if (source / FILE_NAME).exists():
        return lexicons
    return _copy_with_move_graph(source, work / "lexicons").parent


def lexicon_with_leave_table(lexicons: Path, work: Path, games: int, seed: int) -> Path:
    """A directory whose pl-scrabble.lex is a copy in `work` with a move graph and a leave table made
    in this run (`lexicon-build --leaves`, `games` self-play games, `seed`)."""
    copy = _copy_with_move_graph(lexicons / f"{LEXICON}.lex", work / "lexicons-with-leaves")
    started = time.perf_counter()
    subprocess.run([str(Path(sys.executable).parent / "lexicon-build"), "--leaves", str(copy),
                    "--games", str(games), "--seed", str(seed), "--quiet"], check=True)
    print(f"leave table from {games:,} self-play games (seed {seed}): {(copy / 'leaves.tsv').stat().st_size:,} "
          f"bytes, {time.perf_counter() - started:.0f} s")
    return copy.parent


def self_play_positions(rule_set, lexicon, games: int, seed: int) -> list[tuple[list[str], str, str]]:
    """(board rows, rack with two blanks, the best play on it) of mid-game positions."""
    rnd = random.Random(seed)
    tile_set = rule_set.tile_set
    positions = []
    for _ in range(games):
        bag = [t.letter for t in tile_set.tiles for _ in range(t.count)]  # no blanks: they go on the rack
        rnd.shuffle(bag)
        board = Board.empty(rule_set)
        racks = [[bag.pop() for _ in range(rule_set.rack_size)] for _ in range(2)]
        for turn in range(1, max(KEEP_AFTER_TURNS) + 1):
            rack = racks[turn % 2]
            best = generate_moves(rule_set, board, tile_set.rack_text(rack), lexicon, limit=1,
                                  include_exchanges=False, include_pass=False)
            if not best:
                break
            result = validate_move(rule_set, board, tile_set.rack_text(rack), best[0].play, lexicon=lexicon)
            assert result.valid, (best[0], result.message)
            board.apply(result)
            for tile in result.tiles_used:
                rack.remove(tile)
            while len(rack) < rule_set.rack_size and bag:
                rack.append(bag.pop())
            if turn in KEEP_AFTER_TURNS and len(bag) >= 5:
                measured = tile_set.rack_text(rnd.sample(bag, 5) + [BLANK, BLANK])
                top = generate_moves(rule_set, board, measured, lexicon, limit=1, include_exchanges=False,
                                     include_pass=False)
                if top:
                    positions.append((board.to_rows(), measured, top[0].play))
    return positions


def summary(name: str, seconds: list[float], target: float | None = None) -> str:
    ms = [s * 1000 for s in seconds]
    line = (f"{name:<52} n={len(ms):>4}  p50 {percentile(ms, 50):7.2f} ms  p99 {percentile(ms, 99):7.2f} ms  "
            f"max {max(ms):7.2f} ms")
    if target is not None:
        line += f"  (target p99 <= {target:g} ms: {'met' if percentile(ms, 99) <= target else 'MISSED'})"
    return line


def position_arguments(doc: str) -> argparse.ArgumentParser:
    """The options of a bench over self-play positions (this one, bench_computer.py)."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--shared", default="../shared", help="shared data directory (unused: positions come from self-play)")
    parser.add_argument("--lexicons", default="lexicons", help="directory of the default lexicons")
    parser.add_argument("--games", type=int, default=30, help="self-play games (up to 3 positions each)")
    parser.add_argument("--rounds", type=int, default=3, help="times every position is asked")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--strict", action="store_true", help="exit 1 when the target is missed")
    return parser


def main() -> int:
    args = position_arguments(__doc__).parse_args()

    with tempfile.TemporaryDirectory(prefix="bench-movegen-") as work:
        directory = lexicon_with_move_graph(Path(args.lexicons), Path(work))
        lexicon = load_lexicon(directory / f"{LEXICON}.lex")
        rule_set = lexicon.rule_set
        started = time.perf_counter()
        positions = self_play_positions(rule_set, lexicon, args.games, args.seed)
        print(f"{len(positions)} positions from {args.games} self-play games in {time.perf_counter() - started:.1f} s "
              f"(tiles on the board: {min(sum(c != '.' for c in ''.join(p[0])) for p in positions)}-"
              f"{max(sum(c != '.' for c in ''.join(p[0])) for p in positions)})")

        server = start_server(directory, "--processes", "1", wait_serving=True)
        try:
            with grpc.insecure_channel(f"127.0.0.1:{server.port}") as channel:
                game = game_pb2_grpc.GameServiceStub(channel)
                requests = [game_pb2.GenerateMovesRequest(lexicon=LEXICON, board=rows, rack=rack, limit=LIMIT)
                            for rows, rack, _ in positions]
                checks = [game_pb2.ValidateMoveRequest(
                    lexicon=LEXICON, board=rows, rack=rack, play=game_pb2.Play(position=best.split(" ")[0],
                                                                              word=best.split(" ")[1]))
                    for rows, rack, best in positions]
                boards = [Board.from_rows(rule_set, rows) for rows, _, _ in positions]
                for request in requests[:5]:  # warm-up: connection, first calls
                    game.GenerateMoves(request, timeout=10)
                generated, validated, in_process = [], [], []
                server_cpu, own_cpu = 0.0, []  # CPU seconds: less sensitive than latency to what else runs
                for _ in range(args.rounds):  # interleaved: all three see the same machine
                    for request, check, board, (_, rack, _) in zip(requests, checks, boards, positions):
                        cpu = cpu_seconds(server.pid)
                        t = time.perf_counter()
                        answer = game.GenerateMoves(request, timeout=10)
                        generated.append(time.perf_counter() - t)
                        server_cpu += cpu_seconds(server.pid) - cpu
                        assert len(answer.moves) == LIMIT and answer.truncated, answer
                        t = time.perf_counter()
                        assert game.ValidateMove(check, timeout=10).valid
                        validated.append(time.perf_counter() - t)
                        t, cpu = time.perf_counter(), time.thread_time()
                        generate_moves(rule_set, board, rack, lexicon, limit=LIMIT)
                        in_process.append(time.perf_counter() - t)
                        own_cpu.append(time.thread_time() - cpu)
        finally:
            stop_server(server)
        lexicon.close()

    print(f"load average {load_average()}")
    print(summary("GenerateMoves top-10, two blanks, real server", generated, TARGET_P99_MS))
    print(summary("baseline: ValidateMove of the best move, same server", validated))
    print(summary("baseline: generate_moves top-10 in-process", in_process))
    ratio = percentile(generated, 99) / percentile(in_process, 99)
    overhead = [(g - p) * 1000 for g, p in zip(generated, in_process)]
    print(f"CPU per call: server {server_cpu / len(generated) * 1000:.1f} ms for GenerateMoves (psutil, 10 ms ticks "
          f"summed), {sum(own_cpu) / len(own_cpu) * 1000:.1f} ms for generate_moves in-process (its thread's CPU: "
          f"p99 {percentile(own_cpu, 99) * 1000:.1f} ms, max {max(own_cpu) * 1000:.1f} ms)")
    print(f"GenerateMoves p99 / in-process p99: {ratio:.2f}; the server's share (GenerateMoves minus "
          f"generate_moves of the same position): p50 {percentile(overhead, 50):.2f} ms, "
          f"p99 {percentile(overhead, 99):.2f} ms")
    missed = percentile(generated, 99) * 1000 > TARGET_P99_MS
    return 1 if missed and args.strict else 0


if __name__ == "__main__":
    sys.exit(main())
