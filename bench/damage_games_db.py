"""Damaged copies of a games file: which does each start-up check refuse, and what is served without one?

    python bench/damage_games_db.py [--games 1000] [--seeds 6]

Makes a file of N games (bench_games_check.py's game under N ids, a request id on every third event), then for each seed and each of two kinds
of damage (five whole pages of random bytes; 64 random bytes at five places) in the middle half of a copy:
PRAGMA quick_check and integrity_check, and every game read back and compared with what was written
(same, different without an error, an error).
"""

from __future__ import annotations

import argparse
import random
import shutil
import sqlite3
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_games_check import one_game  # noqa: E402


def check(conn, pragma: str) -> str:
    try:
        result = conn.execute(f"PRAGMA {pragma}").fetchall()
    except sqlite3.DatabaseError as exc:
        return f"error ({exc})"
    return "ok" if result == [("ok",)] else f"{len(result)} problems"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", default="../shared", help="unused (make bench passes it to every bench)")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seeds", type=int, default=6)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-damage-") as tmp:
        source = Path(tmp) / "games.db"
        rows = one_game(source)
        with sqlite3.connect(source) as conn:
            conn.executemany("INSERT INTO events (game_id, version, kind, data, request_id) VALUES (?, ?, ?, ?, ?)",
                             [(f"{g:016x}", v, k, d, f"r{v}" if v % 3 == 0 else None)  # clients' request ids
                              for g in range(1, args.games) for v, k, d in rows])
        with sqlite3.connect(source) as conn:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            original = {}
            for game_id, version, kind, data in conn.execute("SELECT game_id, version, kind, data FROM events ORDER BY game_id, version"):
                original.setdefault(game_id, []).append((version, kind, data))
        for seed in range(1, args.seeds + 1):
            for mode in ("pages", "bytes"):
                copy = Path(tmp) / f"damaged-{seed}-{mode}.db"
                shutil.copy(source, copy)
                rnd = random.Random(seed)
                pages = copy.stat().st_size // 4096
                with open(copy, "r+b") as fh:
                    for _ in range(5):
                        page = rnd.randrange(pages // 4, 3 * pages // 4)
                        offset = 0 if mode == "pages" else rnd.randrange(0, 4096 - 64)
                        fh.seek(page * 4096 + offset)
                        fh.write(rnd.randbytes(4096 if mode == "pages" else 64))
                conn = sqlite3.connect(copy)
                same = different = failed = 0
                for game_id, events in original.items():
                    try:
                        got = conn.execute("SELECT version, kind, data FROM events WHERE game_id = ? ORDER BY version",
                                           (game_id,)).fetchall()
                    except sqlite3.DatabaseError:
                        failed += 1
                        continue
                    same, different = (same + 1, different) if got == events else (same, different + 1)
                print(f"seed {seed} {mode}: quick_check {check(conn, 'quick_check')}, integrity_check "
                      f"{check(conn, 'integrity_check')}; games read the same {same}, different {different}, "
                      f"failing {failed}")
                conn.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
