"""Simulation: its speed on Polish mid-game positions, and the computer level "simulating" against "equity".

    python bench/bench_simulate.py --lexicons lexicons [--games 40] [--positions 5] [--workers 1]
        [--tables DIR] [--lexicon pl-scrabble] [--iterations 300] [--move-seconds 2]
        [--magpie-sims-per-second N]

A copy of pl-scrabble.lex gets its leave table and win-probability table in this run (`lexicon-build
--leaves` and `--win-table` into a temporary directory), unless --tables names a directory whose
lexicon (--lexicon, pl-scrabble by default; the games of any, the speed phase Polish) has both. Then:

1. speed: on --positions mid-game positions (self-play by equity, turn 10, seeded) the 8 best moves by
   equity simulated 2 plies deep for 100 iterations without pruning: play-outs a second (one move, one
   draw) and whole iterations a second, CPU time. Baseline in the same run: the static equity move of
   the same positions a second (`best_by_equity`); the ratio says how many static moves a play-out
   costs (a 2-ply play-out makes two). MAGPIE's sim figure, when passed (--magpie-sims-per-second,
   measured by its own `sim` command on the same position), is printed as a ratio; else "not measured".
2. games: --games games of "simulating" against "equity" (`movegen.selfplay.play_game` with
   `games.computer.choose_move`, a deadline of --move-seconds a move, 2 s as the server gives a
   computer; the simulation stops at --iterations, 300 as the server's computer), in pairs on one
   shuffled bag, each level first in one. A seeded run plays the same games when no move reaches its
   deadline. Prints wins, draws and losses of the simulating player,
   its win share (a draw half) with a 95% Wilson interval, its average spread, and the ratio of the
   share to 50% (the baseline: equal play). Target: >= 55% with the interval above 50% over 1,000
   games (300 for the Czech lexicons).
"""

from __future__ import annotations

import argparse
import dataclasses
import multiprocessing
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_equity import summary as equity_summary, wilson_interval  # noqa: E402, F401
from bench_movegen_service import LEXICON, lexicon_with_leave_table  # noqa: E402
from lexicon_service.games.computer import (  # noqa: E402
    COMPUTER_SIMULATION, EQUITY, SIMULATING, best_by_equity, choose_move,
)
from lexicon_service.lexicon import load_lexicon  # noqa: E402
from lexicon_service.movegen import MoveGenerationTimeout  # noqa: E402
from lexicon_service.movegen.selfplay import bag_of, play_game  # noqa: E402
from lexicon_service.movegen.simulate import SimSettings, SeatView, simulate, unseen_tiles  # noqa: E402
from lexicon_service.rules.board import Board  # noqa: E402
from lexicon_service.rules.moves import validate_move  # noqa: E402

TARGET_WIN_SHARE = 0.55
TARGET_GAMES = {"pl-scrabble": 1000}  # the game counts: 1,000 Polish, 300 for the others
TARGET_GAMES_OTHERS = 300
MOVE_SECONDS = 2.0  # the server's computer
SPEED_SETTINGS = SimSettings(candidates=8, plies=2, iterations=100, min_iterations=100, seed="bench")

_lexicon = None
_match: dict = {}  # the games' settings, set once per process before the first game


def lexicon_with_tables(lexicons: Path, work: Path, leave_games: int, win_games: int, seed: int) -> Path:
    """A directory whose pl-scrabble.lex is a copy with a leave table and a win table made in this run."""
    directory = lexicon_with_leave_table(lexicons, work, leave_games, seed)
    copy = directory / f"{LEXICON}.lex"
    started = time.perf_counter()
    subprocess.run([str(Path(sys.executable).parent / "lexicon-build"), "--win-table", str(copy),
                    "--games", str(win_games), "--seed", str(seed), "--quiet"], check=True)
    print(f"win table from {win_games:,} self-play games (seed {seed}): {time.perf_counter() - started:.0f} s")
    return directory


def mid_game_positions(lexicon, count: int, seed: int, turn: int = 10):
    """(board, rack, bag count, spread) on turn `turn` of `count` self-play games of two equity players."""
    rule_set = lexicon.rule_set
    ts = rule_set.tile_set
    out = []
    for game in range(count):
        rng = random.Random(f"sim-bench/{seed}/{game}")
        bag = bag_of(rule_set)
        rng.shuffle(bag)
        racks = [[bag.pop() for _ in range(7)] for _ in range(2)]
        board, scores = Board.empty(rule_set), [0, 0]
        for t in range(turn):
            p = t % 2
            move = best_by_equity(rule_set, board, ts.rack_text(racks[p]), len(bag), lexicon, may_exchange=False)
            if move.kind == "play":
                result = validate_move(rule_set, board, ts.rack_text(racks[p]), move.play, lexicon=lexicon)
                board.apply(result)
                for tile in result.tiles_used:
                    racks[p].remove(tile)
                scores[p] += result.score
            while len(racks[p]) < 7 and bag:
                racks[p].append(bag.pop())
        p = turn % 2
        out.append((board, ts.rack_text(racks[p]), len(bag), scores[p] - scores[1 - p]))
    return out


def speed(lexicon, positions, magpie_rate: float | None) -> None:
    rule_set = lexicon.rule_set
    started = time.process_time()
    static_moves = 0
    while time.process_time() - started < 2.0:
        for board, rack, bag, _spread in positions:
            best_by_equity(rule_set, board, rack, bag, lexicon)
            static_moves += 1
    static_rate = static_moves / (time.process_time() - started)
    playouts = iterations = 0
    started = time.process_time()
    for board, rack, bag, spread in positions:
        view = SeatView(board, rack, tuple(unseen_tiles(rule_set, board, rack)), bag, spread)
        sim = simulate(rule_set, view, lexicon, SPEED_SETTINGS)
        iterations += sim.iterations
        playouts += sum(m.iterations for m in sim.moves)
    seconds = time.process_time() - started
    rate = playouts / seconds
    print(f"simulation, 2 plies, {len(positions)} Polish mid-game positions: {rate:,.0f} play-outs/s, "
          f"{iterations / seconds:,.1f} iterations/s of 8 moves (CPU {seconds:.1f} s)")
    print(f"baseline, the same run: static equity move {static_rate:,.0f}/s; a play-out costs "
          f"{static_rate / rate:.2f} static moves (it makes 2); ratio play-outs/s : static moves/s = "
          f"{rate / static_rate:.2f}")
    if magpie_rate:
        print(f"MAGPIE sim (given): {magpie_rate:,.0f}/s; ours / MAGPIE = {rate / magpie_rate:.2f} (target >= 0.8)")
    else:
        print("MAGPIE sim: not measured (pass --magpie-sims-per-second)")


def _load(path: str, move_seconds: float, simulation: SimSettings) -> None:
    global _lexicon
    _lexicon = load_lexicon(path)
    _match.update(move_seconds=move_seconds, simulation=simulation)


def play_pair_game(args: tuple[int, int]) -> tuple[int, int]:
    """(simulating player's score, equity player's score) of game `index` (the bag of pair index // 2)."""
    seed, index = args
    lexicon = _lexicon
    rule_set = lexicon.rule_set
    rng = random.Random(f"sim-bench/{seed}/{index // 2}")
    choices = random.Random(f"sim-bench/{seed}/{index}/choices")
    first = index % 2 == 0
    scores_now = [0, 0]

    def player(level, seat):
        def choose(board, rack, bag_count, may_exchange):
            spread = scores_now[seat] - scores_now[1 - seat]
            arguments = (rule_set, board, rack, bag_count, lexicon, level, choices)
            options = dict(may_exchange=may_exchange, spread=spread, simulation=_match["simulation"])
            try:
                move = choose_move(*arguments, time.monotonic() + _match["move_seconds"], **options)
            except MoveGenerationTimeout:
                # only on a machine so loaded that a static move takes seconds: the server's computer would
                # pass; here the move is found without a deadline, so one slow move does not end the run
                print(f"  game {index}: the {level} player's move passed its {_match['move_seconds']:g} s "
                      "deadline; chosen again without one", file=sys.stderr, flush=True)
                move = choose_move(*arguments, None, **options)
            scores_now[seat] += move.score
            return move
        return choose

    players = [player(SIMULATING, 0), player(EQUITY, 1)] if first else [player(EQUITY, 0), player(SIMULATING, 1)]
    scores = play_game(rule_set, lexicon, players, rng).scores
    return (scores[0], scores[1]) if first else (scores[1], scores[0])


def games(copy: Path, count: int, seed: int, workers: int, move_seconds: float = MOVE_SECONDS,
          simulation: SimSettings = COMPUTER_SIMULATION) -> float:
    started = time.perf_counter()
    jobs = [(seed, i) for i in range(count)]
    results = []
    print(f"{copy.name}: simulating ({simulation.candidates} moves, {simulation.plies} plies, at most "
          f"{simulation.iterations} iterations, {move_seconds:g} s a move) against equity, seed {seed}", flush=True)
    settings = (str(copy), move_seconds, simulation)
    if workers > 1:
        with multiprocessing.get_context("fork").Pool(workers, _load, settings) as pool:
            for result in pool.imap(play_pair_game, jobs, chunksize=2):
                results.append(result)
                _progress(results)
    else:
        _load(*settings)
        for job in jobs:
            results.append(play_pair_game(job))
            _progress(results)
    text, share, low = equity_summary(results)
    text = text.replace("equity vs best", "simulating vs equity")
    print(f"{text} ({time.perf_counter() - started:.0f} s, {workers} worker(s)); ratio to the 50% baseline "
          f"{share / 0.5:.3f}")
    wanted = TARGET_GAMES.get(copy.name.removesuffix(".lex"), TARGET_GAMES_OTHERS)
    met = share >= TARGET_WIN_SHARE and low > 0.5 and len(results) >= wanted
    print(f"target: >= {TARGET_WIN_SHARE:.0%} with the 95% interval above 50% over {wanted:,} games: "
          f"{'met' if met else 'NOT MET'} ({len(results):,} games)")
    return share


def _progress(results) -> None:
    if len(results) % 20 == 0:
        text, _, _ = equity_summary(results)
        print(f"  ... {text.replace('equity vs best', 'simulating vs equity')}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", default="../shared", help="shared data directory (unused)")
    parser.add_argument("--lexicons", default="lexicons", help="directory of the default lexicons")
    parser.add_argument("--tables", help="a directory whose pl-scrabble.lex has both tables (none made then)")
    parser.add_argument("--games", type=int, default=40,
                        help="games (an even number: pairs on one bag; about 25 s each on a loaded core)")
    parser.add_argument("--positions", type=int, default=5, help="mid-game positions of the speed phase")
    parser.add_argument("--leave-games", type=int, default=1500)
    parser.add_argument("--win-games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1, help="processes for the games")
    parser.add_argument("--magpie-sims-per-second", type=float, default=None)
    parser.add_argument("--lexicon", default=LEXICON, help="the lexicon of the games (--tables needed for another)")
    parser.add_argument("--iterations", type=int, default=COMPUTER_SIMULATION.iterations,
                        help="the most iterations a simulating move makes")
    parser.add_argument("--move-seconds", type=float, default=MOVE_SECONDS, help="the deadline of a move")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-simulate-") as work:
        directory = Path(args.tables) if args.tables else lexicon_with_tables(
            Path(args.lexicons), Path(work), args.leave_games, args.win_games, args.seed)
        copy = directory / f"{args.lexicon}.lex"
        lexicon = load_lexicon(copy)
        if args.positions and args.lexicon == LEXICON:
            positions = mid_game_positions(lexicon, args.positions, args.seed)
            speed(lexicon, positions, args.magpie_sims_per_second)
            print(f"  (bag counts {statistics.mean(p[2] for p in positions):.0f} on average)")
        if args.games:
            games(copy, args.games, args.seed, args.workers, args.move_seconds,
                  dataclasses.replace(COMPUTER_SIMULATION, iterations=args.iterations))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
