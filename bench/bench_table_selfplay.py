"""Self-play games to completion through the game service, with the server deciding the Kris Kros start
redraw and the end when nobody can move; every finished game's GCG record replayed.

    python bench/bench_table_selfplay.py --lexicons lexicons [--games 200] [--rule-sets cs-kriskros,...]

For each rule set: its default lexicon (a copy gets a move graph when it has none: `lexicon-build
--move-graph-only`, timed), the rule set as this checkout ships it (so its directives apply even to a
lexicon built before them), a GameSessions on an SQLite file in a temporary directory, and `--games`
seeded games of two computer players at the best level (each move `games.computer.choose_move` from the
seat's own view, submitted as the computer's move). Printed per rule set: games, how they ended
(end_reason), redraws, moves, and the games whose record `replay` disagrees with (target 0).
"""

from __future__ import annotations

import argparse
import contextlib
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from lexicon_service.games.computer import choose_move  # noqa: E402
from lexicon_service.games.sessions import GameSessions  # noqa: E402
from lexicon_service.games.state import ENDED, FINAL_PASS  # noqa: E402
from lexicon_service.games.store import SqliteStore  # noqa: E402
from lexicon_service.lexicon import load_lexicon  # noqa: E402
from lexicon_service.movegen.graph import FILE_NAME  # noqa: E402
from lexicon_service.rules import load_rule_set, parse_gcg, replay  # noqa: E402
from lexicon_service.rules.game import NOTE_REDRAWN  # noqa: E402

MAX_MOVES = 400  # per game: a game that runs longer is counted as unfinished


def lexicon_with_move_graph(lexicons: Path, name: str, work: Path) -> Path:
    source = lexicons / f"{name}.lex"
    if not source.is_dir():
        raise SystemExit(f"{source}: no such lexicon (make lexicons)")
    if (source / FILE_NAME).exists():
        return source
    target = work / source.name
    shutil.copytree(source, target)
    started = time.perf_counter()
    subprocess.run([str(Path(sys.executable).parent / "lexicon-build"), "--move-graph-only", str(target)],
                   check=True, capture_output=True)
    print(f"{name}: move graph added to a copy in {time.perf_counter() - started:.1f} s")
    return target


def play_games(name: str, lexicon, games: int, seed: int, work: Path) -> None:
    rule_set = load_rule_set(name)

    @contextlib.contextmanager
    def lexicons():
        yield {name: lexicon}.get

    service = GameSessions(SqliteStore(work / f"{name}.db", synchronous="OFF"), lexicons=lexicons, max_games=None)
    ends, moves, redraws, disagreements, unfinished = Counter(), 0, 0, [], 0
    started = time.perf_counter()
    for g in range(games):
        game_id, tokens, director, _ = service.create_game(name, rule_set, ["A", "B"], seed=seed + g)
        for _ in range(MAX_MOVES):
            state = service.tick(game_id)
            if state.status == ENDED:
                break
            seat = state.turn
            if state.status == FINAL_PASS:
                service.submit_move(game_id, tokens[seat], pass_=True)
                continue
            move = choose_move(rule_set, state.board, state.rack_text(seat), len(state.bag), lexicon, "best",
                               random.Random(f"{seed}/{g}/{state.version}"))
            service.submit_move(game_id, tokens[seat], play=move.play if move.kind == "play" else "",
                                exchange=move.play[1:] if move.kind == "exchange" else "",
                                pass_=move.kind == "pass", lexicon_of={name: lexicon}.get)
            moves += 1
        else:
            unfinished += 1
            continue
        ends[state.end_reason] += 1
        gcg, _ = service.record(game_id, director)
        redraws += gcg.count(NOTE_REDRAWN)
        report = replay(rule_set, parse_gcg(gcg), lexicon=lexicon)
        if not report.ok:
            disagreements.append((game_id, [(line.event.text, line.problems) for line in report.disagreements][:3]))
    seconds = time.perf_counter() - started
    print(f"{name}: {games} games in {seconds:.1f} s, {moves} moves, {redraws} redraws, ends "
          f"{dict(sorted(ends.items()))}, unfinished {unfinished}, replay disagreements {len(disagreements)} "
          f"(target 0)")
    for game_id, lines in disagreements[:5]:
        print(f"  {game_id}: {lines}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", default="../shared", help="shared data directory (unused)")
    parser.add_argument("--lexicons", default="lexicons", help="directory of the default lexicons")
    parser.add_argument("--games", type=int, default=200, help="games per rule set")
    parser.add_argument("--rule-sets", default="cs-kriskros,cs-scrabble,pl-scrabble")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-table-") as work:
        for name in args.rule_sets.split(","):
            lexicon = load_lexicon(lexicon_with_move_graph(Path(args.lexicons), name, Path(work)))
            play_games(name, lexicon, args.games, args.seed, Path(work))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
