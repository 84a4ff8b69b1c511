"""What checking the games database at start costs: PRAGMA quick_check and integrity_check on N games.

    python bench/bench_games_check.py [--games 10000]

Plays one pl-scrabble game to its end in a fresh store (every tile it can place, then the director ends it),
copies its rows under N game ids (about 11 KB of text a game: each keeps its rule set's text), and times each
check twice (the second with the file in the page cache).
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from lexicon_service.games.sessions import GameSessions  # noqa: E402
from lexicon_service.games.store import SqliteStore  # noqa: E402
from lexicon_service.rules import load_rule_set  # noqa: E402
from tests.game_helpers import FakeClock, find_play  # noqa: E402


def one_game(path: Path) -> list:
    rs = load_rule_set("pl-scrabble")
    store = SqliteStore(path, synchronous="OFF")
    service = GameSessions(store, clock=FakeClock(), max_games=None)
    game_id, tokens, director, _ = service.create_game("pl-scrabble", rs, ["A", "B"], seed=1)
    for _ in range(40):
        state, _, _ = service.get_game(game_id, None)
        if state.status != "playing":
            break
        play = find_play(rs, state.board.to_rows(), state.racks[state.turn])
        if play:
            service.submit_move(game_id, tokens[state.turn], play=play)
        else:
            service.submit_move(game_id, tokens[state.turn], pass_=True)
    service.end_game(game_id, director, "done")
    rows = store.load(game_id)
    store.close()
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", default="../shared", help="unused (make bench passes it to every bench)")
    parser.add_argument("--games", type=int, default=10_000)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-check-") as tmp:
        path = Path(tmp) / "games.db"
        rows = one_game(path)
        conn = sqlite3.connect(path, isolation_level=None)
        conn.execute("BEGIN")
        for g in range(1, args.games):
            conn.executemany("INSERT INTO events (game_id, version, kind, data) VALUES (?, ?, ?, ?)",
                             [(f"{g:016x}", v, k, d) for v, k, d in rows])
        conn.execute("COMMIT")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        print(f"{args.games:,} games of {len(rows)} events, {sum(len(d) for _, _, d in rows):,} bytes of text each; "
              f"file {path.stat().st_size:,} bytes")
        for pragma in ("quick_check", "integrity_check") * 2:
            started = time.perf_counter()
            result = conn.execute(f"PRAGMA {pragma}").fetchall()
            print(f"  {pragma}: {time.perf_counter() - started:.3f} s ({result[0][0]})")
        conn.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
